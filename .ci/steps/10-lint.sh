# Formatting, lints and docs, all with warnings as errors.
#
# Each distinct feature set of `actlut` is one more check of the crate and one
# more run of its build script (the compact feature compacts every 16-bit table),
# and a second toolchain rebuilds everything: so the lints share one feature set
# where they can. One clippy over every crate with every feature (which
# includes `compact`, `alloc` and `macros`); the library alone with its default
# features and with none (the `not(feature = …)` paths); the docs with the
# clippy run's feature set, so they reuse its build-script output; the docs.rs
# build (`--cfg docsrs`, nightly's `doc_cfg`) with the stable toolchain and
# `RUSTC_BOOTSTRAP=1`, which accepts that feature and reuses the stable
# artifacts instead of installing nightly and building everything again. The
# oracle (GMP and MPFR from source) and the engine adapters are linted in their
# own steps (25-oracle, 43-candle), with the profile those steps build anyway.
set -euo pipefail
cargo fmt --all -- --check
cargo clippy --workspace --exclude actlut-oracle --exclude actlut-candle --all-targets --all-features -- -D warnings
cargo clippy -p actlut -- -D warnings
cargo clippy -p actlut --no-default-features -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --exclude actlut-oracle --exclude actlut-candle --no-deps --all-features
RUSTDOCFLAGS="-D warnings" cargo doc -p actlut --no-deps --no-default-features
# What docs.rs builds (package.metadata.docs.rs): every feature, and each
# feature-gated item marked with the features it needs.
RUSTC_BOOTSTRAP=1 RUSTDOCFLAGS="--cfg docsrs -D warnings" cargo doc -p actlut --all-features --no-deps
