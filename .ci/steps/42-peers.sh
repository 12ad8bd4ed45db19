# The peers project (peers/, its own cargo project): actlut against the naive
# libm path, candle, an AVX2 approximation and a lazily built table, and (benches/
# compact.rs) actlut's compact and expanded forms against tract-linalg's f16
# GELU. Lints, tests (the AVX2 kernels against their scalar fallback), every
# benchmark once (untimed), and the committed accuracy report regenerated and
# compared. One debug build of candle, gemm and tract-linalg serves the tests,
# the benches and the report (and 43-candle's tract-linalg grade, which builds
# peers/ the same way): nothing here times anything, and the report is the
# same bits in any profile. The benchmarks a user reads are `cargo bench`, in
# release (BENCHMARKS.md).
set -euo pipefail
cd peers
cargo fmt --check
cargo clippy --all-targets -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps
cargo test
cargo bench --profile dev -- --test
ACTLUT_PROFILE=dev bash scripts/accuracy.sh --check
