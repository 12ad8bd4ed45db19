# The burn adapter (adapters/burn, a cargo project of its own with its own lock:
# burn needs Rust 1.95, and its dependencies stay out of actlut's lock and of
# 10-lint's `cargo clippy --workspace`). Lints and docs; the tests (every f16
# and bf16 pattern of every function through contiguous tensors and views,
# ops with constants, autodiff gradients on every f16 and bf16 pattern against
# an f64 reference and burn's own backward, errors; the compiled-out error
# without `all`); the encoder bench and the training-step bench once (--test:
# BERT-mini width, one interleaved run; a small MLP, criterion's test mode); and the
# README's example, extracted unchanged, run as the main of a new crate that
# depends on actlut-burn by path (sharing the build). All of it in the dev
# profile: none of it times anything, and burn's optimised build costs more
# than twice the CPU of its debug one. Measured cold at ca474d3 (2026-12-04,
# AMD EPYC Zen 3, 2 cores, the experiment's own target folder): the tests and
# benches built in 244 s of CPU in debug (138 s of wall time) and in 595 s in
# release (305 s); in debug the tests then ran in 4 s and the bench once in
# 5 s. A check pass of burn for clippy and rustdoc comes on top.
set -euo pipefail
root=$(pwd)
cd adapters/burn
need=1.95
have=$(rustc --version | sed -n 's/^rustc \([0-9]*\.[0-9]*\).*/\1/p')
if [ "$(printf '%s\n%s\n' "$need" "$have" | sort -V | head -n 1)" != "$need" ]; then
  rustup toolchain install stable --profile minimal >/dev/null
fi
cargo fmt --check
cargo clippy --locked --all-targets -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps  # shares the check pass of clippy
cargo test --locked
cargo test --locked --no-default-features --features actlut/gelu,actlut/f16 --test compiled_out
cargo test --locked --bench encoder -- --test
cargo test --locked --bench train -- --test

echo "--- the README's example in a crate that depends on actlut-burn by path"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src"
awk '/^```rust$/ && !done { inblock = 1; next } inblock && /^```$/ { inblock = 0; done = 1; next } inblock' \
  README.md > "$work/src/main.rs"
grep -q 'fn main' "$work/src/main.rs" || { echo "README.md: no Rust example with a main"; exit 1; }
cat > "$work/Cargo.toml" <<TOML
[package]
name = "burn-user"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
actlut-burn = { path = "$root/adapters/burn" }

[workspace]
TOML
# The adapter's lock: the same versions, so the same artifacts.
cp Cargo.lock "$work/Cargo.lock"
(cd "$work" && CARGO_TARGET_DIR="$root/adapters/burn/target" cargo run)
