# What a dependent gets. (1) The three library crates packaged as they would be
# published, each package verified by building it from its own sources (cargo
# packages the workspace crates together, the later ones against the earlier
# ones); the actlut package holds what its build reads and nothing of CI.
# (2) A crate built against the unpacked packages, not the workspace. (3) The
# Rust examples of README.md and docs/*.md, extracted as they are, compiled and
# run as the tests of a user's crate outside the workspace, without
# dev-dependencies: with the default features, with alloc, macros and
# self-check added, and with exactly the features each example names; every
# example runs in at least one of them.
set -euo pipefail
root=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CARGO_TARGET_DIR="$root/target/downstream"
# As the README tells users: the reference math optimised in their build scripts.
profile_override='
[profile.dev.package.actlut-core]
opt-level = 3
[profile.dev.package.actlut-codegen]
opt-level = 3
[profile.dev.package.libm]
opt-level = 3'

echo "--- cargo package (verified)"
list=$(cargo package --list --allow-dirty -p actlut)
for need in build.rs tables/actlut.lock README.md src/lib.rs; do
  grep -qx "$need" <<<"$list" || { echo "$list"; echo "the actlut package lacks $need"; exit 1; }
done
if grep -E '^(\.ci|scripts|tests|benches|examples|docs|peers|firmware|oracle|nostd-check|cli)/' <<<"$list"; then
  echo "the actlut package holds files a dependent does not need (above)"; exit 1
fi
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
# cargo verifies each package against the others through a local registry under
# the target folder, extracted into $CARGO_HOME/registry/src/ and compiled into
# the target folder. Both are keyed by name and version only: an extraction or a
# build left by an earlier run of this step (other sources, the same 0.1.0) is
# reused as it is, and the package would be verified against the old crates.
# Remove both, so that this checkout's packages are the ones verified.
for c in actlut actlut-core actlut-codegen actlut-macros; do
  rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/"$c-$version"
done
cargo clean -q -p actlut -p actlut-core -p actlut-codegen -p actlut-macros
cargo package --allow-dirty -p actlut-core -p actlut-codegen -p actlut-macros -p actlut
mkdir -p "$work/unpacked"
for c in actlut-core actlut-codegen actlut-macros actlut; do
  tar -xzf "$CARGO_TARGET_DIR/package/$c-$version.crate" -C "$work/unpacked"
done

echo "--- what a dependent compiles: the core at run time, generation at build time, never the audit"
tree=$(cargo tree -p actlut -e normal,build --prefix none --format '{p}')
if grep -E '^actlut-(audit|cli|macros|oracle) ' <<<"$tree"; then
  echo "actlut's normal and build dependencies include the crates above"; exit 1
fi
normal=$(cargo tree -p actlut -e normal --no-default-features --prefix none --format '{p}')
if grep -E '^actlut-codegen ' <<<"$normal"; then
  echo "the runtime depends on actlut-codegen at run time"; exit 1
fi
grep -q '^actlut-core ' <<<"$normal" || { echo "the runtime does not depend on actlut-core"; exit 1; }
echo "actlut depends on actlut-core at run time and actlut-codegen at build time only; no audit crate"

echo "--- a crate built against the packaged sources"
mkdir -p "$work/smoke/src"
cat > "$work/smoke/Cargo.toml" <<TOML
[package]
name = "smoke"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
actlut = { path = "$work/unpacked/actlut-$version", features = ["macros", "self-check", "alloc"] }

[patch.crates-io]
actlut-core = { path = "$work/unpacked/actlut-core-$version" }
actlut-codegen = { path = "$work/unpacked/actlut-codegen-$version" }
actlut-macros = { path = "$work/unpacked/actlut-macros-$version" }
$profile_override

[workspace]
TOML
cat > "$work/smoke/src/main.rs" <<'RS'
use actlut::half::f16;

actlut::dequant_table!(static GELU_Q: i8 -> f32 = gelu, scale = 0.05, zero_point = -3);

fn main() {
    let y = actlut::gelu::f16(f16::ONE);
    assert_eq!(y, f16::from_f32(0.8413));
    assert_eq!(actlut::computed::gelu_f16(f16::ONE), y);
    assert_eq!(GELU_Q.lookup(17), actlut::computed::gelu_f32(1.0));
    actlut::manifest::find("gelu_f16")
        .unwrap()
        .check(&actlut::tables::GELU_F16)
        .unwrap();
    // Every function table of the lock (the default features enable them
    // all; the derivative tables are the `derivatives` feature's).
    let lock_tables: usize = std::env::var("ACTLUT_LOCK_TABLES").unwrap().parse().unwrap();
    assert_eq!(actlut::manifest::TABLES.len(), lock_tables);
    println!(
        "smoke: the packaged crates work ({} tables, reference {})",
        actlut::manifest::TABLES.len(),
        actlut::manifest::REFERENCE_VERSION
    );
}
RS
# The lock's function tables (its derivative tables, feature `derivatives`,
# are not among the default features).
function_tables=$(grep -v '^#' "$root/tables/actlut.lock" | awk '$2 !~ /_derivative$/' | wc -l)
(cd "$work/smoke" && ACTLUT_LOCK_TABLES=$function_tables cargo run -q)
for c in actlut actlut-core actlut-codegen actlut-macros; do
  id=$(cd "$work/smoke" && cargo pkgid -p "$c")
  case "$id" in
    *"$work/unpacked/$c-$version"*) ;;
    *) echo "the smoke crate's $c is $id, not the unpacked package"; exit 1 ;;
  esac
done

echo "--- \`compact\` only adds: a dependent indexing tables::GELU_F16 builds and reads the same bits with it"
# The dependent takes the table as \`&[u16; 65536]\`, writes its little-endian
# bytes to stdout and its gelu(1.0) through the function module to stderr;
# both builds must print the lock's SHA-256 and the same value.
mkdir -p "$work/indexer/src"
cat > "$work/indexer/Cargo.toml" <<TOML
[package]
name = "indexer"
version = "0.0.0"
edition = "2021"
publish = false

[features]
compact = ["actlut/compact"]

[dependencies]
actlut = { path = "$root", default-features = false, features = ["gelu", "f16"] }
$profile_override

[workspace]
TOML
cat > "$work/indexer/src/main.rs" <<'RS'
use std::io::Write as _;

fn main() {
    let table: &[u16; 65536] = &actlut::tables::GELU_F16;
    let bytes: Vec<u8> = table.iter().flat_map(|v| v.to_le_bytes()).collect();
    std::io::stdout().write_all(&bytes).unwrap();
    let y = actlut::gelu::f16_bits(0x3C00);
    assert_eq!(y, table[0x3C00]);
    eprintln!("gelu(1.0) = {y:#06x}");
}
RS
want=$(awk '$1 == "gelu_f16" { print $6 }' tables/actlut.lock)
for features in "" "compact"; do
  got=$(cd "$work/indexer" && cargo run -q --features "$features" 2>"$work/indexer/stderr-$features" | sha256sum | cut -d' ' -f1)
  [ "$got" = "$want" ] || { echo "tables::GELU_F16 with features [$features]: sha256 $got, the lock has $want"; exit 1; }
  echo "features [$features]: tables::GELU_F16 is the lock's table, $(cat "$work/indexer/stderr-$features")"
done
cmp "$work/indexer/stderr-" "$work/indexer/stderr-compact"

echo "--- a compiled-out table: rustc names the feature to enable"
mkdir -p "$work/gated/src"
sed -e 's/^name = "indexer"/name = "gated"/' -e 's/features = \["gelu", "f16"\]/features = ["gelu", "bf16"]/' \
  "$work/indexer/Cargo.toml" > "$work/gated/Cargo.toml"
cat > "$work/gated/src/main.rs" <<'RS'
fn main() {
    let table: &[u16; 65536] = &actlut::tables::GELU_F16;
    let compact = &actlut::tables::compact::GELU_BF16;
    let tanh = actlut::tanh::bf16_bits(0x3F80);
    let _ = (table, compact, tanh);
}
RS
if out=$(cd "$work/gated" && cargo build 2>&1); then
  echo "a crate using tables::GELU_F16 without the f16 feature built"; exit 1
fi
for note in 'the item is gated behind the `f16` feature' 'the item is gated behind the `compact` feature' \
  'the item is gated behind the `tanh` feature'; do
  grep -qF "$note" <<<"$out" || { echo "$out"; echo "rustc did not say: $note"; exit 1; }
done
echo "rustc names the features of a compiled-out table (f16), of the compact forms (compact) and of a function module (tanh)"

echo "--- the Rust examples of the README and docs/*.md in a user's crate"
docs=(README.md docs/*.md)
all_blocks=$(scripts/readme-examples.sh --list "${docs[@]}" | wc -l)
# What actlut's default features enable, recursively: a block that needs only
# those runs in the default configuration.
default_words=$(cargo metadata --no-deps --format-version 1 | python3 -c '
import json, sys
pkg = next(p for p in json.load(sys.stdin)["packages"] if p["name"] == "actlut")
feats, seen, todo = pkg["features"], set(), ["default"]
while todo:
    f = todo.pop()
    if f not in seen:
        seen.add(f)
        todo += [g for g in feats.get(f, []) if not g.startswith("dep:")]
print(" ".join(sorted(seen)))')
# The default features; those with every optional feature; and each distinct
# `example needs` line alone, with default features off, so that a block is
# shown to compile with exactly the features it names.
configs=("default" "default alloc macros self-check")
while IFS= read -r needs; do
  [ "$needs" = default ] || configs+=("$needs")
done < <(scripts/readme-examples.sh --needs "${docs[@]}")
: > "$work/compiled-lines"
for config in "${configs[@]}"; do
  dir="$work/readme-$(tr ' ' '-' <<<"$config")"
  mkdir -p "$dir/src" "$dir/tests"
  echo "// A user's crate: the README's and docs' examples are its tests." > "$dir/src/lib.rs"
  features=$(tr ' ' '\n' <<<"$config" | { grep -vx 'default\|none' || true; } | sed 's/.*/"&"/' | paste -sd, -)
  if grep -qw default <<<"$config"; then
    dep="actlut = { path = \"$root\", features = [$features] }"
    words="$config $default_words"
  else
    dep="actlut = { path = \"$root\", default-features = false, features = [$features] }"
    words="$config"
  fi
  cat > "$dir/Cargo.toml" <<TOML
[package]
name = "readme-user"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
$dep
actlut-approx = { path = "$root/approx", features = ["alloc"] }
$profile_override

[workspace]
TOML
  { echo "#![allow(unused)]"; scripts/readme-examples.sh "$words" "${docs[@]}" 2>>"$work/compiled-lines"; } \
    > "$dir/tests/readme.rs"
  n=$(grep -c '_line_[0-9]*() {$' "$dir/tests/readme.rs" || true)
  echo "actlut with [$config]: $n of $all_blocks examples apply"
  (cd "$dir" && cargo test -q)
done
compiled=$(sort -u "$work/compiled-lines" | wc -l)
if [ "$compiled" -ne "$all_blocks" ]; then
  echo "only $compiled of the $all_blocks Rust examples of ${docs[*]} were compiled; not compiled:"
  scripts/readme-examples.sh --list "${docs[@]}" | sort | comm -23 - <(sort -u "$work/compiled-lines")
  exit 1
fi
echo "all $all_blocks Rust examples of the README and docs/*.md compiled and ran in a user's crate"
