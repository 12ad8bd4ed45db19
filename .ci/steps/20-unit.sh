# The plain test suite, then the feature matrix: no features at all, one
# function and one format, and each function alone.
set -euo pipefail
cargo test --workspace
# The README's examples (and every other doctest) with every feature.
cargo test -p actlut --all-features --doc
cargo build -p actlut --no-default-features
cargo test -p actlut --no-default-features --features gelu,f16
cargo test -p actlut --no-default-features --features sigmoid,bf16,fp8-e4m3
for f in gelu gelu-tanh sigmoid tanh silu mish softplus softsign elu selu hardsigmoid hardswish erf exp log rsqrt; do
  cargo check -p actlut --no-default-features --features "$f,f16" --quiet
done
