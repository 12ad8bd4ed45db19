# The candle adapter (adapters/candle, a workspace member outside the default
# members): its tests in release (every f16 and bf16 pattern and every fp8
# code through every view; the errors), the compiled-out error without the
# `all` feature, the BERT bench once on BERT-mini (criterion's --test mode), and
# the `actlut ulp` grades of candle, ggml, tract-linalg (its own cargo project,
# adapters/candle/tract-dump: 2.3 min to build here) and ONNX Runtime (from pip,
# pinned, into target/grade-peers-venv) in docs/accuracy.md regenerated and
# compared. One release build of candle serves all of it. Measured cold (empty
# target dir) on the shared 2-core machine under a load of about 6: 10.6 min, of
# which 9 min is that build; warm, 9 s. Its lints and docs run here too (not in
# 10-lint), in release, so that they reuse this step's build scripts.
set -euo pipefail
cargo clippy -p actlut-candle --release --all-targets -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc -p actlut-candle --release --no-deps
cargo test -p actlut-candle --release
cargo test -p actlut-candle --release --no-default-features --features actlut/gelu,actlut/f16 --test compiled_out
cargo bench -p actlut-candle --bench bert -- --test
bash adapters/candle/scripts/grade-peers.sh --check
