#!/usr/bin/env bash
# The full test suite: installs what it needs (on Debian, as root or with sudo),
# then runs every step in .ci/steps/ in order. Usage: scripts/test.sh [STEP...]
# where STEP filters by name (e.g. `scripts/test.sh lint unit`).
set -euo pipefail
cd "$(dirname "$0")/.."

export CARGO_TERM_COLOR=${CARGO_TERM_COLOR:-never}

# Debian packages needed by some steps (m4 builds GMP for the MPFR oracle).
need_pkgs=()
command -v m4 >/dev/null 2>&1 || need_pkgs+=(m4)
# node runs the wasm32-wasip1 tests (node:wasi); the embedded step checks its version.
command -v node >/dev/null 2>&1 || need_pkgs+=(nodejs)
if [ ${#need_pkgs[@]} -gt 0 ]; then
  sudo_cmd=""
  [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${need_pkgs[@]}"
fi
rustup component add rustfmt clippy >/dev/null 2>&1 || true

# The expected time of each step, in seconds, from docs/testing.md's table
# "Per step" (rows `| 10-lint | 150 | ... |`): the estimate of what is left.
declare -A expect=()
while IFS=' ' read -r name secs; do
  expect[$name]=$secs
done < <(sed -n 's/^| `\([0-9][0-9]-[a-z0-9-]*\)` | \([0-9][0-9]*\) |.*/\1 \2/p' docs/testing.md)

steps=()
for step in .ci/steps/*.sh; do
  name=$(basename "$step" .sh)
  if [ $# -gt 0 ]; then
    match=no
    for want in "$@"; do case "$name" in *"$want"*) match=yes ;; esac; done
    [ "$match" = yes ] || continue
  fi
  steps+=("$step")
done

# Seconds as minutes and seconds: 754 -> 12m34s.
mmss() { printf '%dm%02ds' $(( $1 / 60 )) $(( $1 % 60 )); }

start_all=$(date +%s)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for i in "${!steps[@]}"; do
  step=${steps[$i]}
  name=$(basename "$step" .sh)
  echo "=== step $name (expected $(mmss "${expect[$name]:-0}"))"
  t0=$(date +%s)
  bash "$step" 2>&1 | tee -a "$log"
  now=$(date +%s)
  left=0
  for later in "${steps[@]:$((i + 1))}"; do
    left=$(( left + ${expect[$(basename "$later" .sh)]:-0} ))
  done
  echo "=== step $name passed in $(mmss $(( now - t0 ))); total $(mmss $(( now - start_all ))); \
expected left $(mmss "$left") ($(( ${#steps[@]} - i - 1 )) steps)"
done
echo "=== all steps passed in $(mmss $(( $(date +%s) - start_all )))"
# One closing line for the whole suite: the sum of every cargo test result.
awk '/^test result: /{for(i=1;i<=NF;i++){if($i=="passed;")p+=$(i-1);if($i=="failed;")f+=$(i-1)}}
     END{printf "actlut: %d passed, %d failed\n", p, f}' "$log"
