#!/usr/bin/env bash
# Clean build time of a one-table dependent of actlut (features `gelu`, `bf16`),
# for two revisions of this repository side by side:
#   scripts/dependent-build-time.sh [ROUNDS] [BEFORE] [AFTER]
# BEFORE and AFTER are git revisions (default: the parent of the crate split,
# 7cc47f9, and HEAD). Each round builds, for each revision in turn, a new crate
# that depends on that revision's actlut by path with
# `default-features = false, features = ["gelu", "bf16"]`, from an empty target
# directory (`cargo build --release`, so every dependency and build script is
# compiled, as on a user's first build), with the registry already downloaded.
# It records the wall time and, from cargo's --timings data, the compile time
# of actlut's helper crates (actlut-codegen, and after the split actlut-core:
# what every dependent compiles besides actlut itself) and the units compiled. Prints every run and the medians.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
rounds=${1:-3}
before=${2:-7cc47f9}
after=${3:-HEAD}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
results="$work/results"

for which in before after; do
  rev=$before
  [ "$which" = after ] && rev=$after
  mkdir -p "$work/$which/actlut" "$work/$which/dependent/src"
  git -C "$root" archive "$rev" | tar -x -C "$work/$which/actlut"
  cat > "$work/$which/dependent/Cargo.toml" <<TOML
[package]
name = "dependent"
version = "0.1.0"
edition = "2021"
publish = false

[dependencies]
actlut = { path = "../actlut", default-features = false, features = ["gelu", "bf16"] }

[workspace]
TOML
  cat > "$work/$which/dependent/src/main.rs" <<'RS'
fn main() {
    println!("{:#06x}", actlut::gelu::bf16_bits(0x3F80));
}
RS
  # Resolve and download once, untimed.
  (cd "$work/$which/dependent" && cargo fetch -q)
done

for round in $(seq "$rounds"); do
  for which in before after; do
    dir="$work/$which/dependent"
    rm -rf "$dir/target"
    start=$(date +%s.%N)
    (cd "$dir" && cargo build -q --release --timings 2>/dev/null)
    end=$(date +%s.%N)
    out=$("$dir/target/release/dependent")
    read -r codegen units < <(python3 - "$dir/target/cargo-timings/cargo-timing.html" <<'PY'
import json, sys
s = open(sys.argv[1]).read()
a = s.index("const UNIT_DATA = ") + len("const UNIT_DATA = ")
units = json.loads(s[a:s.index("];", a) + 1])
# Every compile of actlut's reference and generator crates (actlut-codegen
# before the split, actlut-core and actlut-codegen after), for the build script
# and for the target alike; actlut's own library and build script run apart.
cg = sum(u["duration"] for u in units
         if u["name"].startswith("actlut-") and u["mode"] != "run-custom-build")
print(f"{cg:.2f}", len(units))
PY
)
    wall=$(echo "$end - $start" | bc)
    printf 'round %s %-6s wall %6.2f s  actlut-* crates %5.2f s  units %3s  gelu(1.0) = %s\n' \
      "$round" "$which" "$wall" "$codegen" "$units" "$out"
    echo "$which $wall $codegen $units" >> "$results"
  done
done

python3 - "$results" "$before" "$after" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
print(f"| revision | clean build (median) | actlut-core + actlut-codegen compile | units |")
print("|---|---:|---:|---:|")
for which, rev in (("before", sys.argv[2]), ("after", sys.argv[3])):
    r = [x for x in rows if x[0] == which]
    wall = statistics.median(float(x[1]) for x in r)
    cg = statistics.median(float(x[2]) for x in r)
    print(f"| {which} ({rev}) | {wall:.2f} s | {cg:.2f} s | {r[0][3]} |")
PY
