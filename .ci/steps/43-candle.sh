# The candle adapter (adapters/candle, a workspace member outside the default
# members): its tests (every f16 and bf16 pattern and every fp8 code through
# every view; ops with constants; the backward pass on every f16 and bf16
# pattern against an f64 reference and candle's own backward; the errors), the compiled-out error without the `all` feature,
# the BERT bench once on BERT-mini (criterion's --test mode), and the `actlut
# ulp` grades of candle, ggml, tract-linalg (peers/'s `tract-dump`, built as
# 42-peers builds it) and ONNX Runtime (from pip, pinned, into
# target/grade-peers-venv) in docs/accuracy.md regenerated and compared. One
# debug build of candle serves all of it: nothing here times anything, and the
# grades are the same bits in any profile. Measured cold at ca474d3
# (2026-12-04, AMD EPYC Zen 3, 2 cores): the adapter's tests, benches and
# examples built in 206 s of CPU in debug (110 s of wall time) and in 414 s in
# release (212 s); the BERT bench once took 12 s in debug. Its lints and docs
# run here too (not in 10-lint), in the same profile, so that they share this
# step's build-script output.
set -euo pipefail
cargo clippy -p actlut-candle --all-targets -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc -p actlut-candle --no-deps
cargo test -p actlut-candle
cargo test -p actlut-candle --no-default-features --features actlut/gelu,actlut/f16 --test compiled_out
cargo bench -p actlut-candle --bench bert --profile dev -- --test
ACTLUT_PROFILE=dev bash adapters/candle/scripts/grade-peers.sh --check
