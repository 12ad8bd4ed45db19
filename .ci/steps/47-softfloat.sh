# Soft-float targets get no vector instruction: on aarch64-unknown-none-softfloat
# (no NEON: the FP unit may be off) and x86_64-unknown-none (no SSE), the crate
# is compiled to assembly and the assembly must not name a vector register or a
# NEON table/lane instruction. (Checked to fail when the NEON kernel is gated on
# the architecture alone, as it once was, and when the x86 kernels are.) About
# 1 minute on 2 cores.
set -euo pipefail
rustup target add aarch64-unknown-none-softfloat x86_64-unknown-none >/dev/null
# A byte table (the SIMD byte kernels), a 16-bit table (the lane-load kernels):
# every kernel entry point is compiled, the AVX-512 VBMI one included.
features="gelu,f16,fp8-e4m3,avx512"
asm_of() { # TARGET: prints the path of the crate's assembly, or fails
  local dir=target/softfloat/$1/release/deps log
  # A fresh build: cargo emits the assembly only when it compiles the crate.
  cargo clean -q -p actlut --release --target "$1" --target-dir target/softfloat
  if ! log=$(cargo rustc -p actlut --release --target "$1" --no-default-features \
      --features "$features" --target-dir target/softfloat -- --emit asm 2>&1); then
    echo "$log" >&2
    echo "$1: the crate does not build" >&2
    return 1
  fi
  local asm
  asm=$(ls "$dir"/actlut-*.s)
  [ -s "$asm" ] || { echo "$1: no assembly emitted" >&2; return 1; }
  echo "$asm"
}
# Instruction lines only (not directives or table data); there must be some.
instructions() { grep -E '^\s+[a-z]' "$1" | grep -vE '^\s+\.'; }
enough() { # ASM TARGET
  local n
  n=$(instructions "$1" | wc -l)
  [ "$n" -gt 1000 ] || { echo "$2: only $n instructions in $1" >&2; exit 1; }
}

asm=$(asm_of aarch64-unknown-none-softfloat) || exit 1
hits=$(instructions "$asm" \
  | grep -E '\b(v[0-9]{1,2}\.[0-9]*[bhsd]|[qdsbh][0-9]{1,2})\b|\b(tbl|tbx|ld1|st1|ld4|st4)\b' || true)
enough "$asm" aarch64-unknown-none-softfloat
if [ -n "$hits" ]; then
  echo "$hits" | head -20
  echo "aarch64-unknown-none-softfloat: vector or FP instructions in $asm" >&2
  exit 1
fi
echo "aarch64-unknown-none-softfloat: $(instructions "$asm" | wc -l) instructions, none vector"

asm=$(asm_of x86_64-unknown-none) || exit 1
hits=$(instructions "$asm" | grep -E '%[xyz]mm[0-9]' || true)
enough "$asm" x86_64-unknown-none
if [ -n "$hits" ]; then
  echo "$hits" | head -20
  echo "x86_64-unknown-none: vector instructions in $asm" >&2
  exit 1
fi
echo "x86_64-unknown-none: $(instructions "$asm" | wc -l) instructions, none vector"
