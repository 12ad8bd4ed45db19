# Miri over the kernels: every x86_64 block (scalar, SSE2, AVX2, AVX-512 VBMI
# (`Kernel::Avx512Vbmi`), the AVX-512 16-bit gather (`Kernel::Avx512`), the compact blocks: unchecked scalar decode, AVX2,
# AVX-512 (its 16-lane gathers as two 8-lane ones: Miri has no 512-bit gather), and the
# FP4 rows of mx: scalar, SSSE3),
# the chunk-and-tail driver, the run-time kernel choice and the slice entry
# points, on the short lengths and offsets the tests use under cfg(miri)
# (tests/kernel_harness: every length to 20 and both sides of each multiple of
# 8 to 65; byte offsets 0..8). Miri reports a target feature as detected when
# it is enabled at compile time, so RUSTFLAGS turns on AVX2 and AVX-512 VBMI;
# the step fails unless the VBMI kernel actually ran. It runs in the second
# queue of scripts/test.sh. With every length to 70, the test files took 182 s
# (tests/kernels.rs), 503 s (tests/fp4_kernels.rs), 114, 93 and 96 s under Miri
# on a 2-core Zen 3 shared with the main queue (2026-12-04); with these lengths
# tests/kernels.rs took 94 s and tests/fp4_kernels.rs 134 s on the same machine,
# under a heavier load. Installing nightly and its Miri sysroot the first time
# adds about 2 minutes.
# The NEON and simd128 blocks run in 45-kernels (qemu) and 50-embedded (node)
# instead: Miri cannot interpret them (it has no `llvm.aarch64.neon.tbx4`).
set -euo pipefail
# Install once; an installed nightly with Miri is kept (no update on every run).
if ! cargo +nightly miri --version >/dev/null 2>&1; then
  rustup toolchain install nightly --profile minimal --component miri --component rust-src
fi
cargo +nightly miri setup >/dev/null
export RUSTFLAGS="-C target-feature=+avx2,+avx512f,+avx512bw,+avx512vbmi"
features="std,avx512,gelu,f16,fp8-e4m3"
out=$(cargo +nightly miri test -p actlut --no-default-features --features "$features" \
  --target-dir target/miri --test kernels --test u16_kernels --test compact_kernels --test fp4_kernels \
  -- --nocapture 2>&1) \
  || { echo "$out"; exit 1; }
grep -E "available here|best kernel|test result" <<<"$out" | sort | uniq -c
grep -q "byte kernels available here: .*Avx512Vbmi" <<<"$out" \
  || { echo "the AVX-512 VBMI kernel did not run under Miri" >&2; exit 1; }
grep -q "byte kernels available here: .*Avx2" <<<"$out" \
  || { echo "the AVX2 kernel did not run under Miri" >&2; exit 1; }
grep -q "16-bit kernels available here: .*Sse2" <<<"$out" \
  || { echo "the SSE2 16-bit kernel did not run under Miri" >&2; exit 1; }
grep -q "best kernel for U8 tables: Avx512Vbmi" <<<"$out" \
  || { echo "the run-time choice did not pick the VBMI kernel under Miri" >&2; exit 1; }
# The compact kernels (tests/compact_kernels.rs): the unchecked scalar decode,
# AVX2 and AVX-512 gathers on random stored forms.
grep -q "compact kernels available here: .*Avx2, Avx512\b" <<<"$out" \
  || { echo "the AVX2 and AVX-512 compact kernels did not both run under Miri" >&2; exit 1; }
# The per-layout choice of the compact slice functions (each layout's function
# pointer set on its first slice, both layouts interleaved).
grep -q "best kernel for CompactWords16 tables:" <<<"$out" \
  || { echo "the compact slice functions' per-layout choice did not run under Miri" >&2; exit 1; }
grep -q "16-bit kernels available here: .*Avx512\b" <<<"$out" \
  || { echo "the AVX-512 16-bit gather kernel did not run under Miri" >&2; exit 1; }

# The FP4 shared-scale rows (tests/fp4_kernels.rs): the SSSE3 `pshufb` block
# through the driver (+avx2 implies SSSE3).
grep -q "FP4 kernels available here: .*Ssse3" <<<"$out" \
  || { echo "the SSSE3 FP4 kernel did not run under Miri" >&2; exit 1; }

# The FP4 tables of `actlut::mx` over whole blocks (the block loop of
# kernels/fp4.rs), on short inputs. The same features and flags as above, so
# only the test file is compiled again, not the crate.
out=$(cargo +nightly miri test -p actlut --no-default-features --features "$features" \
  --target-dir target/miri \
  --test mx every_fp4_kernel_equals_the_scalar_loop_on_short_inputs -- --nocapture 2>&1) \
  || { echo "$out"; exit 1; }
grep -E "available FP4 kernels|test result" <<<"$out" | sort | uniq -c
grep -q "available FP4 kernels: .*Ssse3" <<<"$out" \
  || { echo "the SSSE3 FP4 kernel did not run under Miri" >&2; exit 1; }
