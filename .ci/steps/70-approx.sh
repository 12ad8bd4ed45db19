# The approximate f32 toolkit (src/approx/) with its heap-built tables: what
# `cargo test --workspace` does not run because it needs the `alloc` feature.
# The property tests (100k points per function, 20k log-sum-exp trials), the
# doctests, the toolkit without any table feature, lints of the alloc-only
# targets, and the bench run once per benchmark in criterion's test mode.
set -euo pipefail
cargo clippy -p actlut --features alloc --all-targets -- -D warnings
cargo test -p actlut --features alloc --test approx --test approx_prop --test approx_lse
cargo test -p actlut --features alloc --doc approx
cargo test -p actlut --no-default-features --features alloc --test approx --test approx_lse
cargo build -p actlut --no-default-features
cargo test -p actlut --features alloc --bench approx
