# actlut-core accepts any libm 0.2 from the minimum in core/Cargo.toml on.
# Build the reference with the oldest and with the newest such libm: both must
# generate every table exactly as the lock says, and the computed f32 path
# (which may follow libm's bits where it cannot settle the rounding) is
# fingerprinted under both and compared. Release builds of actlut-codegen only.
set -euo pipefail
root=$(pwd)
min=$(sed -n 's/^libm = "\([0-9.]*\)"$/\1/p' core/Cargo.toml)
[ -n "$min" ] || { echo "no caret requirement 'libm = \"X.Y.Z\"' in core/Cargo.toml"; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A copy of the checkout (tracked and new files), so that its Cargo.lock can change.
git ls-files -z --cached --others --exclude-standard | tar --null -T - -c | tar -x -C "$work"
# Without the candle adapter: candle needs a newer libm than the reference's
# minimum, and the reference is what this step is about.
sed -i 's|, "adapters/candle"||' "$work/Cargo.toml"
grep -q '"adapters/candle"' "$work/Cargo.toml" && { echo "could not drop the candle adapter from the copy's workspace"; exit 1; }
export CARGO_TARGET_DIR="$root/target/libm-versions"

for which in minimal newest; do
  (
    cd "$work"
    if [ "$which" = minimal ]; then
      cargo update -q -p libm --precise "$min"
    else
      cargo update -q -p libm
    fi
    version=$(cargo pkgid -p libm | sed 's/.*[@#]//')
    echo "--- libm $version ($which)"
    cargo run -q --release -p actlut-codegen --example print-lock > "$work/lock-$which.txt"
    diff -u "$root/tables/actlut.lock" "$work/lock-$which.txt"
    echo "libm $version: all $(grep -vc "^#" "$root/tables/actlut.lock") tables identical to the lock"
    cargo run -q --release -p actlut-codegen --example libm-fingerprint > "$work/fingerprint-$which.txt"
    echo "$version" > "$work/version-$which.txt"
  )
done

v_min=$(cat "$work/version-minimal.txt")
v_new=$(cat "$work/version-newest.txt")
if diff <(grep '^f32' "$work/fingerprint-minimal.txt") <(grep '^f32' "$work/fingerprint-newest.txt"); then
  echo "computed f32 path: identical bits under libm $v_min and $v_new ($(head -n 1 "$work/fingerprint-minimal.txt" | cut -c3-))"
else
  echo "computed f32 path: libm $v_min and $v_new give different bits (the functions above)"
  exit 1
fi
raw_differ=$(diff <(grep '^raw' "$work/fingerprint-minimal.txt") <(grep '^raw' "$work/fingerprint-newest.txt") | grep -c '^<' || true)
echo "raw f64 evaluations differ between the two libm versions for $raw_differ of $(grep -c "^raw" "$work/fingerprint-minimal.txt") functions"
