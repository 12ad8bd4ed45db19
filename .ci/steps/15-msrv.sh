# The declared minimum Rust version (`rust-version` in Cargo.toml), on exactly
# that toolchain: what a dependent compiles (the library crates with every
# feature, the `actlut` command) builds, and the library's own tests pass. The
# whole-workspace suite runs on stable in the other steps; here the tests are
# the library's unit tests, its doctests (the README's examples with every
# feature among them), the reference's unit tests, and the kernels with the
# `avx512` feature (the newest language features the crate uses).
set -euo pipefail
msrv=$(sed -n 's/^rust-version = "\([0-9.]*\)"$/\1/p' Cargo.toml | head -n 1)
[ -n "$msrv" ] || { echo "no rust-version in Cargo.toml"; exit 1; }
rustup toolchain install "$msrv" --profile minimal >/dev/null 2>&1 \
  || rustup toolchain install "$msrv" --profile minimal
echo "rust-version $msrv: $(rustc +"$msrv" --version)"
# Its own target directory: artifacts of two compilers do not mix.
export CARGO_TARGET_DIR=target/msrv
# No debug info: less to compile, link and store, and nothing here needs it.
export CARGO_PROFILE_DEV_DEBUG=0
cargo +"$msrv" build --locked -p actlut --all-features
cargo +"$msrv" build --locked -p actlut --no-default-features
cargo +"$msrv" build --locked -p actlut-cli -p actlut-macros -p actlut-audit
cargo +"$msrv" test --locked -p actlut --lib
cargo +"$msrv" test --locked -p actlut --all-features --doc
cargo +"$msrv" test --locked -p actlut-core -p actlut-codegen --lib
cargo +"$msrv" test --locked -p actlut --features avx512 --test kernels
