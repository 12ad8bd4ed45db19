# The peers project (peers/, its own cargo project): actlut against the naive
# libm path, candle, an AVX2 approximation and a lazily built table, and (benches/
# compact.rs) actlut's compact and expanded forms against tract-linalg's f16
# GELU: tract-linalg and tract-data join the step's cold build (their cost was
# not measured apart; the whole peers release build took 40 minutes on a 2-core
# machine at load 15-18). Lints,
# tests (the AVX2 kernels against their scalar fallback), every benchmark once
# (untimed), and the committed accuracy report regenerated and compared.
set -euo pipefail
cd peers
cargo fmt --check
cargo clippy --all-targets -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps
# Release tests share their build of candle and gemm with the benches and the
# accuracy report below (a debug build would be a third one).
cargo test --release
cargo bench -- --test
bash scripts/accuracy.sh --check
