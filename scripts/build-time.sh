#!/usr/bin/env bash
# Clean build time of actlut with full tables and with `compact`, side by side:
#   scripts/build-time.sh [ROUNDS] [PROFILE] [CARGO ARGS...]
# ROUNDS (default 5) rounds, each building the crate from clean (`cargo clean
# -p actlut`, then `cargo build -p actlut --timings`) once per feature set and
# form, alternating: `gelu,bf16` alone and the default features (every table),
# each without and with `compact`. PROFILE is `release` (default) or `dev`.
# CARGO ARGS go to every `cargo build`, e.g. the profile lines the README
# recommends to users: --config 'profile.release.package.actlut-codegen.opt-level=3'
# (this workspace sets them for `dev` only, so in `release` the build script's
# actlut-codegen is compiled at cargo's build-override opt-level 0).
# For each build it records the wall time of `cargo build` and, from cargo's
# --timings data, the run of actlut's build script (generation of the tables,
# their hashes against the lock, with `compact` the compaction with its
# round-trip check and the stored forms' hashes). Prints every run, then a
# Markdown table of medians and the ratio compact / full, with the compile of
# actlut's library (rustc, which validates the stored forms in `const`s). Builds go to
# target/build-time, so that the usual target/ is left alone; the first round
# also compiles the dependencies once, before the timed builds.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
profile=${2:-release}
shift $(($# < 2 ? $# : 2))
target=target/build-time
sets=("gelu,bf16" "default")
results=$(mktemp)
trap 'rm -f "$results"' EXIT

build_args() { # SET FORM
  local features=$1
  [ "$2" = compact ] && features="$features,compact"
  if [ "$1" = default ]; then
    [ "$2" = compact ] && echo "--features compact"
  else
    echo "--no-default-features --features $features"
  fi
}

unit_secs() { # actlut's build script run and library compile in the last --timings report
  python3 - "$target/cargo-timings/cargo-timing.html" <<'PY'
import json, sys
s = open(sys.argv[1]).read()
a = s.index("const UNIT_DATA = ") + len("const UNIT_DATA = ")
units = [u for u in json.loads(s[a:s.index("];", a) + 1]) if u["name"] == "actlut"]
run = next(u["duration"] for u in units if u["mode"] == "run-custom-build")
lib = next(u["duration"] for u in units if u["target"] == "")
print(run, lib)
PY
}

# Dependencies first, untimed.
for set in "${sets[@]}"; do
  for form in full compact; do
    # shellcheck disable=SC2046
    cargo build -q -p actlut --profile "$profile" --target-dir "$target" "$@" \
      $(build_args "$set" "$form")
  done
done

for round in $(seq "$rounds"); do
  for set in "${sets[@]}"; do
    for form in full compact; do
      cargo clean -q -p actlut --profile "$profile" --target-dir "$target"
      start=$(date +%s.%N)
      # shellcheck disable=SC2046
      cargo build -q -p actlut --profile "$profile" --target-dir "$target" --timings "$@" \
        $(build_args "$set" "$form") 2>/dev/null
      end=$(date +%s.%N)
      read -r run lib < <(unit_secs)
      wall=$(echo "$end - $start" | bc)
      printf 'round %s %-9s %-7s wall %6.2f s  build script run %5.2f s  library %5.2f s\n' \
        "$round" "$set" "$form" "$wall" "$run" "$lib"
      echo "$set $form $wall $run $lib" >>"$results"
    done
  done
done

python3 - "$results" "$profile $*" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
runs = {}
for s, f, *secs in rows:
    runs.setdefault((s, f), []).append([float(x) for x in secs])
n = len(runs[rows[0][0], "full"])
print(f"\n{sys.argv[2].strip()}: medians of {n} rounds (wall, build script run, library compile):\n")
print("| features | | full | `compact` | ratio |")
print("|---|---|---:|---:|---:|")
for s in dict.fromkeys(r[0] for r in rows):
    for i, what in enumerate(["clean build", "build script run", "library compile"]):
        full = statistics.median(r[i] for r in runs[(s, "full")])
        comp = statistics.median(r[i] for r in runs[(s, "compact")])
        print(f"| {s} | {what} | {full:.2f} s | {comp:.2f} s | {comp / full:.2f} |")
PY
