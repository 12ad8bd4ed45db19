# The SIMD kernels against the scalar lookup on every length and alignment
# (tests/kernel_harness): natively (AVX2 on x86_64 when the CPU has it, and
# AVX-512 VBMI when it has that too; the SSE2 16-bit and byte -> wide kernels;
# the compact kernels, with `compact` on every embedded table),
# and NEON on aarch64 under qemu-user. (wasm simd128 runs in the embedded step,
# under node; AVX2 and VBMI on any CPU under Miri in 46-miri.)
set -euo pipefail
cargo test -p actlut --test kernels --test u16_kernels --test fp4_kernels -- --nocapture 2>&1 | grep -E "available|best|test result"
# The compact kernels against the full tables: synthetic and gelu compact
# tables, and with `compact` every embedded table, on every input.
out=$(cargo test -p actlut --features compact --test compact_kernels -- --nocapture 2>&1) || { echo "$out"; exit 1; }
grep -E "available|best|embedded|test result" <<<"$out" | sort | uniq -c
grep -q "embedded compact tables checked through every kernel" <<<"$out" \
  || { echo "the embedded compact tables were not checked" >&2; exit 1; }
# Without the AVX-512 VBMI kernel: linted, and the other kernels still tested.
cargo clippy -p actlut --all-targets --no-default-features --features std,all -- -D warnings
cargo test -p actlut --no-default-features --features std,all --test kernels -- --nocapture 2>&1 | grep -E "available|test result"
if ! command -v qemu-aarch64 >/dev/null || ! command -v aarch64-linux-gnu-gcc >/dev/null; then
  sudo_cmd=""; [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross
fi
rustup target add aarch64-unknown-linux-gnu
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -L /usr/aarch64-linux-gnu"
out=$(cargo test -p actlut --target aarch64-unknown-linux-gnu --test kernels --test u16_kernels --test mx --test compact_kernels --test fp4_kernels -- --nocapture 2>&1) || { echo "$out"; exit 1; }
echo "$out" | grep -E "available|test result" | sort | uniq -c
echo "$out" | grep -q "byte kernels available here: .*Neon" || { echo "NEON kernel was not exercised under qemu-aarch64"; exit 1; }
echo "$out" | grep -q "available FP4 kernels: .*Neon" || { echo "the NEON FP4 (mx) kernel was not exercised under qemu-aarch64"; exit 1; }
echo "$out" | grep -q "FP4 kernels available here: .*Neon" || { echo "the NEON FP4 kernel was not run by the kernel harness under qemu-aarch64"; exit 1; }
