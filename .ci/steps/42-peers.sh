# The peers project (peers/, its own cargo project): actlut against the naive
# libm path, candle, an AVX2 approximation and a lazily built table. Lints,
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
