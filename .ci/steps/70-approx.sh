# The approximate f32 toolkit, the crate actlut-approx (approx/), with its heap-built
# tables: what plain `cargo test` does not run because it needs the `alloc` feature.
# The property tests (100k points per function, 20k log-sum-exp trials), the
# doctests, the toolkit without `alloc`, lints of the alloc-only targets, and the
# bench run once per benchmark in criterion's test mode.
set -euo pipefail
cargo clippy -p actlut-approx --all-features --all-targets -- -D warnings
cargo test -p actlut-approx --features alloc
cargo test -p actlut-approx --no-default-features --test approx --test approx_lse
# no_std, without and with alloc, on a target without std.
rustup target add thumbv7em-none-eabihf >/dev/null
cargo build -p actlut-approx --target thumbv7em-none-eabihf
cargo build -p actlut-approx --features alloc --target thumbv7em-none-eabihf
cargo test -p actlut-approx --features alloc --bench approx
