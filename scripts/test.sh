#!/usr/bin/env bash
# The full test suite: installs what it needs (on Debian, as root or with sudo),
# then runs every step in .ci/steps/ in order. Usage: scripts/test.sh [STEP...]
# where STEP filters by name (e.g. `scripts/test.sh lint unit`).
set -euo pipefail
cd "$(dirname "$0")/.."

export CARGO_TERM_COLOR=${CARGO_TERM_COLOR:-never}
# A suite run builds from scratch more often than it rebuilds: no incremental
# caches, and line tables instead of full debug info in the debug builds
# (test failures keep their file and line; the target folder is far smaller).
export CARGO_INCREMENTAL=${CARGO_INCREMENTAL:-0}
export CARGO_PROFILE_DEV_DEBUG=${CARGO_PROFILE_DEV_DEBUG:-line-tables-only}
# Property tests draw the same cases on every suite run, so a suite that passed
# on one machine passes on another; plain `cargo test` draws new cases each run,
# and a case that failed is kept in the test's proptest-regressions/ file, which
# every run replays first.
export PROPTEST_RNG_SEED=${PROPTEST_RNG_SEED:-20261206}

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

# run_step STEP CPUFILE: runs STEP and writes to CPUFILE the CPU time (user +
# system, whole seconds) of everything it ran, from bash's `times` (the second
# line: the children's times, e.g. "12m3.456s 0m45.678s").
run_step() {
  bash -c 'status=0; bash "$0" || status=$?; times > "$1"; exit "$status"' "$1" "$2"
}
# cpu_secs CPUFILE: that CPU time in seconds (empty if the step wrote none).
cpu_secs() {
  sed -n 2p "$1" 2>/dev/null | awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); sub("s", "", a[2]); t += a[1] * 60 + a[2] } printf "%d\n", t }'
}
# cpu_of CPUFILE: the same as 12m34s ("?" if the step wrote none).
cpu_of() {
  local secs
  secs=$(cpu_secs "$1")
  if [ -n "$secs" ]; then mmss "$secs"; else echo "?"; fi
}

# Two queues share the machine. The steps named in `beside` work in folders of
# their own (Miri's target/miri, the peers/, adapters/burn and python/
# projects) and run one after another in a second queue that starts with the
# first step; Miri interprets on one thread, and the others' builds fill the
# cores while the main queue links, runs tests or waits on qemu and node. A
# second-queue step's output is printed at its place in the order when it is
# done by then, else after the main queue; the run stops at the first failure
# in either queue. ACTLUT_TEST_SERIAL=1 runs every step in turn instead.
beside=" 46-miri 42-peers 44-burn 48-python "
[ "${ACTLUT_TEST_SERIAL:-0}" = 1 ] && beside=" "
in_beside() { case "$beside" in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

start_all=$(date +%s)
log=$(mktemp)
side=$(mktemp -d)
side_pid=""
cleanup() {
  [ -n "$side_pid" ] && { kill -- "-$side_pid" 2>/dev/null || kill "$side_pid" 2>/dev/null || true; }
  rm -rf "$log" "$side"
}
trap cleanup EXIT

# The second queue, in the order of `beside`; it stops at its first failure.
side_steps=()
for name in $beside; do
  for step in "${steps[@]}"; do
    [ "$(basename "$step" .sh)" = "$name" ] && side_steps+=("$step")
  done
done
if [ ${#side_steps[@]} -gt 0 ]; then
  echo "=== second queue starts now: $(for s in "${side_steps[@]}"; do basename "$s" .sh; done | tr '\n' ' ')"
  set -m
  (
    for step in "${side_steps[@]}"; do
      name=$(basename "$step" .sh)
      t0=$(date +%s)
      status=0
      run_step "$step" "$side/$name.cpu" >"$side/$name.log" 2>&1 || status=$?
      echo "$(( $(date +%s) - t0 )) $status" >"$side/$name.done"
      [ "$status" = 0 ] || exit "$status"
    done
  ) &
  side_pid=$!
  set +m
fi

# Prints a finished second-queue step; exits on its failure.
report_side() {
  local name=$1 secs status
  read -r secs status <"$side/$name.done" || { secs=0; status=1; }
  echo "=== step $name (ran in the second queue)"
  tee -a "$log" <"$side/$name.log"
  if [ "$status" != 0 ]; then
    echo "=== step $name FAILED (exit status $status) after $(mmss "$secs") (CPU $(cpu_of "$side/$name.cpu"))"
    exit "$status"
  fi
  echo "=== step $name passed in $(mmss "$secs") (CPU $(cpu_of "$side/$name.cpu")) in the second queue; total $(mmss $(( $(date +%s) - start_all )))"
  : >"$side/$name.reported"
}
# Stops the run as soon as a second-queue step has failed.
check_side() {
  local f name secs status
  for f in "$side"/*.done; do
    [ -e "$f" ] || continue
    name=$(basename "$f" .done)
    read -r secs status <"$f" || continue
    if [ "$status" != 0 ] && [ ! -e "$side/$name.reported" ]; then report_side "$name"; fi
  done
}

pending=()
for i in "${!steps[@]}"; do
  step=${steps[$i]}
  name=$(basename "$step" .sh)
  if in_beside "$name"; then
    if [ -e "$side/$name.done" ]; then report_side "$name"; else pending+=("$name"); fi
    continue
  fi
  echo "=== step $name (expected $(mmss "${expect[$name]:-0}"))"
  t0=$(date +%s)
  run_step "$step" "$side/$name.cpu" 2>&1 | tee -a "$log"
  now=$(date +%s)
  left=0
  for later in "${steps[@]:$((i + 1))}"; do
    later=$(basename "$later" .sh)
    in_beside "$later" || left=$(( left + ${expect[$later]:-0} ))
  done
  echo "=== step $name passed in $(mmss $(( now - t0 ))) (CPU $(cpu_of "$side/$name.cpu")); total $(mmss $(( now - start_all ))); \
expected left $(mmss "$left") ($(( ${#steps[@]} - i - 1 )) steps, the second queue's not counted)"
  check_side
done
if [ ${#pending[@]} -gt 0 ]; then
  echo "=== waiting for the second queue: ${pending[*]}"
  wait "$side_pid" || true
  side_pid=""
  for name in "${pending[@]}"; do
    [ -e "$side/$name.done" ] || { echo "=== step $name did not run (the second queue stopped)"; exit 1; }
    report_side "$name"
  done
fi
cpu_total=0
for f in "$side"/*.cpu; do
  [ -e "$f" ] && cpu_total=$(( cpu_total + $(cpu_secs "$f") ))
done
echo "=== all steps passed in $(mmss $(( $(date +%s) - start_all ))), using $(mmss "$cpu_total") of CPU (user + system)"
# One closing line for the whole suite: the sum of every cargo test result.
awk '/^test result: /{for(i=1;i<=NF;i++){if($i=="passed;")p+=$(i-1);if($i=="failed;")f+=$(i-1)}}
     END{printf "actlut: %d passed, %d failed\n", p, f}' "$log"
