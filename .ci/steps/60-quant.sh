# Quantized tables: what `cargo test --workspace` does not cover. The run-time
# tables (tests/tables/quant.rs), the build-script builder (actlut-codegen's
# tests/builder.rs, which compiles the generated file with rustc), the fp8
# conversions (tests/tables/fp8_conversions.rs, committed ml_dtypes vectors) and the
# compile-fail tests of the macro (actlut-macros, trybuild) run there already;
# the MPFR checks of the fp8 tables and of eval_f32 run in 25-oracle.
set -euo pipefail

# `dequant_table!` against the run-time tables: behind actlut's `macros` feature.
cargo test -p actlut --features macros --test quant_macro
cargo test -p actlut --features macros --doc quant
cargo clippy -p actlut --features macros --all-targets -- -D warnings
cargo clippy -p actlut --no-default-features --features macros -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc -p actlut-macros --no-deps

# 16-bit quantized tables with the boxed form (`alloc`), and the rounding
# parameter through the macro; every code of every 16-bit table (about 5 s).
cargo test -p actlut --features alloc --test quant16
cargo test -p actlut --features macros --test quant_rounding
cargo clippy -p actlut --features alloc --all-targets -- -D warnings

# The compile errors of `dequant_table!`, on their own (their expected output is
# in macros/tests/ui/*.stderr).
cargo test -p actlut-macros

# The `float8` crate's typed fp8 values through the fp8 tables, and float8's
# conversions against actlut's and the ml_dtypes vectors (every difference
# classified: tests/float8.rs).
cargo test -p actlut --features float8 --test float8
cargo test -p actlut --features float8 --doc fp8
cargo clippy -p actlut --all-targets --features float8 -- -D warnings

# The small-float vectors (every float dtype of ml_dtypes of at most 8 bits) are generated
# from ml_dtypes by scripts/fp8_vectors.py and committed, so no test needs Python. Check that
# the committed vectors are what the script writes, with the pinned ml_dtypes and numpy
# (scripts/vectors-requirements.txt) in the Python step's venv; --check compares the vectors,
# not the header line naming the versions (about 5 s with the venv in place).
venv=target/python-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q -r scripts/vectors-requirements.txt
"$venv/bin/python" scripts/fp8_vectors.py --check
