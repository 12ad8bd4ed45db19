# Embedded and wasm: the no_std check, builds for thumbv7em-none-eabihf and
# wasm32-unknown-unknown (with and without simd128), the Cortex-M4 firmware in
# both forms (full tables and `compact`) under qemu compared with the host and
# the locks, and its flash contents, the test suite on wasm32-wasip1 under
# node's WASI, and the byte kernels there with simd128. Installs what it needs. About 5 minutes from cold on 2 cores.
set -euo pipefail

sudo_cmd=""
[ "$(id -u)" = 0 ] || sudo_cmd="sudo"
if ! command -v qemu-system-arm >/dev/null 2>&1; then
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq qemu-system-arm
fi
command -v qemu-system-arm >/dev/null || { echo "qemu-system-arm is required" >&2; exit 1; }
node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$node_major" -lt 20 ]; then
  echo "node 20 or newer is required for the wasm32-wasip1 runner (found: $node_major)" >&2
  exit 1
fi
rustup target add thumbv7em-none-eabihf wasm32-unknown-unknown wasm32-wasip1 >/dev/null

root=$PWD
phase_start=$SECONDS
phase() {
  echo "--- ($((SECONDS - phase_start)) s) $*"
}

phase "no_std: a crate with its own panic handler must build on every target"
(
  cd nostd-check
  cargo fmt --check
  cargo clippy -- -D warnings
  cargo build
  cargo build --target thumbv7em-none-eabihf
  cargo build --target wasm32-unknown-unknown
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-C target-feature=+simd128" \
    cargo build --target wasm32-unknown-unknown --target-dir target/simd128
)

phase "firmware: build in both forms, run under qemu, compare with the host and the locks"
# Every binary twice: with full tables, and with actlut's `compact` feature.
# The compact build goes first and its ELF files are copied out (the binaries
# have the same names); the full build then leaves target/.../release as the
# README's commands expect. Both share one target dir: only actlut and the
# binaries are built twice.
firmware_bins=(actlut-firmware gelu-f16 gelu-bf16 sigmoid-tanh-bf16 sigmoid-i16)
(
  cd firmware
  cargo fmt --check
  # Release, like the builds below, so that actlut's build script runs once per form.
  cargo clippy --release --all-targets --features compact -- -D warnings
  cargo clippy --release --all-targets -- -D warnings
  cargo build --release --features compact
  rm -rf target/compact-elf
  mkdir -p target/compact-elf
  for bin in "${firmware_bins[@]}"; do
    cp "target/thumbv7em-none-eabihf/release/$bin" target/compact-elf/
  done
  cargo build --release
)
ACTLUT_FIRMWARE_DIR="$root/firmware/target/thumbv7em-none-eabihf/release" \
  ACTLUT_FIRMWARE_COMPACT_DIR="$root/firmware/target/compact-elf" \
  cargo test -p actlut --test embedded_firmware -- --include-ignored --nocapture

phase "wasm32-unknown-unknown: a compact gelu + bf16 module, every input under node, its size"
(
  cd firmware/wasm
  cargo fmt --check
  cargo clippy --release --features gelu-f16,gelu-bf16,sigmoid-tanh-bf16,compact -- -D warnings
  cargo build --release --features gelu-bf16,compact
)
wasm="$root/firmware/wasm/target/wasm32-unknown-unknown/release/actlut_wasm.wasm"
node scripts/wasm-check.mjs "$wasm" tables/actlut.lock
wasm_bytes=$(wc -c <"$wasm")
# 6,333 bytes of stored form and about 500 of code (scripts/sizes.sh).
if [ "$wasm_bytes" -gt 16384 ]; then
  echo "the compact gelu + bf16 .wasm is $wasm_bytes bytes, over the 16 KiB budget" >&2
  exit 1
fi
echo "compact gelu + bf16 .wasm: $wasm_bytes bytes"
# The same module with `compact-words` (the words layout): every input under
# node, and its stored form the words lock's length.
(cd firmware/wasm && cargo build --release --features gelu-bf16,compact-words)
node scripts/wasm-check.mjs "$wasm" tables/actlut.lock
words_bytes=$(wc -c <"$wasm")
words_form=$(grep '^gelu_bf16 ' tables/actlut-compact-words.lock | grep -o 'stored=[0-9]*' | cut -d= -f2)
[ "$words_bytes" -gt "$words_form" ] && [ "$words_bytes" -le $((words_form + 1024)) ] \
  || { echo "the compact-words gelu + bf16 .wasm is $words_bytes bytes, its stored form $words_form" >&2; exit 1; }
echo "compact-words gelu + bf16 .wasm: $words_bytes bytes (stored form $words_form)"

phase "wasm32-wasip1: the runner must report a failing test as a failure"
# A panic aborts (a trap) and an exit carries its status: both must fail the run.
check_runner_fails() { # REQUEST EXPECTED-OUTPUT
  local out
  if out=$(ACTLUT_RUNNER_SELF_TEST=$1 cargo test -p actlut --target wasm32-wasip1 \
      --test embedded_wasm 2>&1); then
    echo "a test that fails on purpose ($1) passed under scripts/wasm-runner.mjs" >&2
    exit 1
  fi
  if ! grep -qF "$2" <<<"$out"; then
    echo "$out" >&2
    echo "the run with ACTLUT_RUNNER_SELF_TEST=$1 failed, but not with '$2'" >&2
    exit 1
  fi
}
check_runner_fails panic "trapped"
check_runner_fails exit:3 "exit status: 3"

phase "wasm32-wasip1: the test suite, exhaustive tests included, under node"
# WASI has no processes and no current_exe: the tests that spawn cargo or read
# their own executable are compiled out there (cfg(not(target_os = "wasi"))).
cargo test -p actlut --target wasm32-wasip1 --lib --tests

phase "wasm32-wasip1 with simd128: the byte and 16-bit kernels, the compact loop and the slice entry points, under node"
out=$(CARGO_TARGET_WASM32_WASIP1_RUSTFLAGS="-C target-feature=+simd128" \
  cargo test -p actlut --target wasm32-wasip1 --target-dir target/wasip1-simd128 \
  --test kernels --test u16_kernels --test mx --test fp4_kernels -- --nocapture 2>&1) || { echo "$out"; exit 1; }
# Every entry of every table (the `exhaustive` module of tests/tables).
out+=$'\n'$(CARGO_TARGET_WASM32_WASIP1_RUSTFLAGS="-C target-feature=+simd128" \
  cargo test -p actlut --target wasm32-wasip1 --target-dir target/wasip1-simd128 \
  --test tables -- exhaustive:: --nocapture 2>&1) || { echo "$out"; exit 1; }
# The compact kernels with `compact`: every embedded table through the
# portable compact loop built for simd128 (and the synthetic and gelu compact
# tables), on every input; compact tables have no simd128 kernel.
out+=$'\n'$(CARGO_TARGET_WASM32_WASIP1_RUSTFLAGS="-C target-feature=+simd128" \
  cargo test -p actlut --target wasm32-wasip1 --target-dir target/wasip1-simd128 --features compact \
  --test compact_kernels -- --nocapture 2>&1) || { echo "$out"; exit 1; }
grep -E "available|test result" <<<"$out" | sort | uniq -c
grep -q "byte kernels available here: .*Simd128" <<<"$out" || { echo "the simd128 byte kernel was not exercised under node" >&2; exit 1; }
grep -q "16-bit kernels available here: .*Simd128" <<<"$out" || { echo "the simd128 16-bit kernel was not exercised under node" >&2; exit 1; }
grep -q "available FP4 kernels: .*Simd128" <<<"$out" || { echo "the simd128 FP4 (mx) kernel was not exercised under node" >&2; exit 1; }
grep -q "FP4 kernels available here: .*Simd128" <<<"$out" || { echo "the simd128 FP4 kernel was not run by the kernel harness under node" >&2; exit 1; }
grep -q "compact kernels available here: \[Scalar\]" <<<"$out" || { echo "the compact kernel harness did not run (or found a kernel besides Scalar) under node" >&2; exit 1; }
phase "done"
