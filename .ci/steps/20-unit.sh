# The plain test suite, then the feature matrix: no features at all, one
# function and one format, each function and each format alone (paired).
set -euo pipefail
# The candle adapter runs in 43-candle.sh; the audit and the `actlut` command
# (whose tests run hundreds of whole audits) in 30-audit.sh, both in release.
# The oracle (GMP and MPFR) is left to 25-oracle, which builds and runs it in
# release: its debug build and debug run here cost minutes for nothing new.
cargo test --workspace --exclude actlut-candle --exclude actlut-audit --exclude actlut-cli \
  --exclude actlut-oracle
# The build's refusal of an altered lock (it builds a copy of the crate, so it
# is ignored in plain `cargo test`).
cargo test -p actlut --test repository -- --ignored
# The README's examples (and every other doctest) with every feature.
cargo test -p actlut --all-features --doc
cargo build -p actlut --no-default-features
# The feature subsets run the unit and integration tests only: the doctests
# ran with the default features above and with every feature (a subset
# leaves out the items whose examples it cannot compile).
cargo test -p actlut --no-default-features --features gelu,f16 --lib --tests
cargo test -p actlut --no-default-features --features sigmoid,bf16,fp8-e4m3 --lib --tests
# The compact 16-bit tables: every table and entry point against the full
# table, and the size of a gelu + bf16 binary's table data (tests/compact_binary.rs).
cargo test -p actlut --features compact --lib --tests
# self-check: a table changed in the process's memory is reported by name, with std and
# compact, and without std (the no_std path, on the host).
cargo test -p actlut --features self-check,compact --test self_check
cargo test -p actlut --no-default-features --features self-check,gelu,bf16 --test self_check
# The derivative tables (`derivatives`): every entry point of every derivative module and
# every derivative static against the table fill_table computes at run time, the manifest
# against the lock, and with self-check and compact (derivative tables stay full).
cargo test -p actlut --features derivatives --lib --test generated_api
cargo test -p actlut --features derivatives --test tables -- audit_manifest:: lock::
cargo test -p actlut --features derivatives,self-check,compact --lib --test self_check
cargo test -p actlut --no-default-features --features compact,gelu,bf16 --lib --tests
# The same in the words layout (`compact-words`): the tests that read the
# compact forms (every table on every input through every entry point, the
# stored forms against tables/actlut-compact-words.lock, the size of a gelu +
# bf16 binary's table data, the manifest's declarations; tests/tables holds the
# compact, compact_expand, exhaustive and lock tests).
cargo test -p actlut --features compact-words --lib --test tables --test compact_kernels
cargo test -p actlut --no-default-features --features compact-words,gelu,bf16 --test tables \
  --test compact_binary
# The functions and formats, from the umbrella features (tests/repository/features.rs
# checks that they list exactly actlut-codegen's Function::ALL and Format::ALL).
umbrella() {
  cargo metadata --no-deps --format-version 1 | python3 -c '
import json, sys
meta = json.load(sys.stdin)
pkg = next(p for p in meta["packages"] if p["name"] == "actlut")
print(" ".join(pkg["features"][sys.argv[1]]))' "$1"
}
functions=$(umbrella all-functions)
formats=$(umbrella all-formats)
[ -n "$functions" ] && [ -n "$formats" ] || { echo "no function or format features found"; exit 1; }
# Each function alone and each format alone, paired (the shorter list
# cycles): one build per pair instead of one per function and one per format.
read -r -a fs <<<"$functions"
read -r -a ms <<<"$formats"
n=$(( ${#fs[@]} > ${#ms[@]} ? ${#fs[@]} : ${#ms[@]} ))
for ((i = 0; i < n; i++)); do
  pair="${fs[i % ${#fs[@]}]},${ms[i % ${#ms[@]}]}"
  cargo check -p actlut --no-default-features --features "$pair" --quiet \
    || { echo "actlut does not build with only --features $pair"; exit 1; }
done
