# Formatting, lints and docs, all with warnings as errors.
set -euo pipefail
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings  # includes the oracle (builds GMP once)
cargo clippy -p actlut --no-default-features -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps
