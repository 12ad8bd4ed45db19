# Formatting, lints and docs, all with warnings as errors.
set -euo pipefail
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings  # includes the oracle (builds GMP once)
cargo clippy -p actlut --no-default-features -- -D warnings
# The compact representation (every 16-bit table compact) and its tests.
cargo clippy -p actlut --all-targets --features compact -- -D warnings
# Every feature: the targets that need `alloc` or `macros` (benches, tests) too.
cargo clippy -p actlut --all-targets --all-features -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps
# The crate alone too: the workspace build unifies features (self-check via the CLI).
RUSTDOCFLAGS="-D warnings" cargo doc -p actlut --no-deps
RUSTDOCFLAGS="-D warnings" cargo doc -p actlut --no-deps --no-default-features
# What docs.rs builds (package.metadata.docs.rs): every feature, and each
# feature-gated item marked with the features it needs (nightly's doc_cfg).
rustup toolchain install nightly --profile minimal >/dev/null 2>&1 || true
RUSTDOCFLAGS="--cfg docsrs -D warnings" cargo +nightly doc -p actlut --all-features --no-deps
