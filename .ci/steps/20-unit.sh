# The plain test suite, then the feature matrix: no features at all, one
# function and one format, each function alone and each format alone.
set -euo pipefail
# The candle adapter runs in 43-candle.sh and the audit in 30-audit.sh, both in release.
cargo test --workspace --exclude actlut-candle --exclude actlut-audit
# The README's examples (and every other doctest) with every feature.
cargo test -p actlut --all-features --doc
cargo build -p actlut --no-default-features
cargo test -p actlut --no-default-features --features gelu,f16
cargo test -p actlut --no-default-features --features sigmoid,bf16,fp8-e4m3
# The compact 16-bit tables: every table and entry point against the full
# table, and the size of a gelu + bf16 binary's table data (tests/compact_binary.rs).
cargo test -p actlut --features compact
cargo test -p actlut --no-default-features --features compact,gelu,bf16
# The functions and formats, from the umbrella features (tests/features.rs
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
for f in $functions; do
  cargo check -p actlut --no-default-features --features "$f,f16" --quiet
done
for fmt in $formats; do
  cargo check -p actlut --no-default-features --features "gelu,$fmt" --quiet
done
