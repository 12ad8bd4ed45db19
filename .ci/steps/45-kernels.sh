# The SIMD kernels against the reference loop on every length and alignment:
# natively (the byte kernel with AVX2 on x86_64 when the CPU has it, the SSE2
# 16-bit kernel), and NEON on aarch64 under qemu-user. (wasm simd128 runs in the embedded step, under node.)
set -euo pipefail
cargo test -p actlut --test kernels --test word_kernels -- --nocapture
# The AVX-512 VBMI kernel: compiled and linted always; run only on a CPU that has
# VBMI (the test lists the kernels it exercised).
cargo clippy -p actlut --all-targets --features avx512vbmi -- -D warnings
cargo test -p actlut --features avx512vbmi --test kernels -- --nocapture 2>&1 | grep -E "available|test result"
if ! command -v qemu-aarch64 >/dev/null || ! command -v aarch64-linux-gnu-gcc >/dev/null; then
  sudo_cmd=""; [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross
fi
rustup target add aarch64-unknown-linux-gnu
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -L /usr/aarch64-linux-gnu"
out=$(cargo test -p actlut --target aarch64-unknown-linux-gnu --test kernels --test word_kernels --test mx -- --nocapture 2>&1) || { echo "$out"; exit 1; }
echo "$out" | grep -E "available|test result"
echo "$out" | grep -q "Neon" || { echo "NEON kernel was not exercised under qemu-aarch64"; exit 1; }
echo "$out" | grep -q "available FP4 kernels: .*Neon" || { echo "the NEON FP4 (mx) kernel was not exercised under qemu-aarch64"; exit 1; }
