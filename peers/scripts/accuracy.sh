#!/usr/bin/env bash
# Writes docs/accuracy.md and docs/accuracy.svg: every peer against
# actlut's correctly rounded tables over all 65,536 inputs (src/bin/accuracy.rs).
#
#   scripts/accuracy.sh           regenerate the committed files
#   scripts/accuracy.sh --check   regenerate into a temporary directory and fail
#                                 if the committed files differ
set -euo pipefail
cd "$(dirname "$0")/.."

check=no
case "${1:-}" in
  "") ;;
  --check) check=yes ;;
  *) echo "usage: scripts/accuracy.sh [--check]" >&2; exit 2 ;;
esac

accuracy() { cargo run --release --quiet --bin accuracy -- "$@"; }

# docs/accuracy.md ends with a section that adapters/candle/scripts/grade-peers.sh
# writes (`actlut ulp`'s grades), from its marker line on: kept as it is here.
graded='^<!-- graded-by-actlut-ulp'
# The part of docs/accuracy.md this script writes: up to the graded section,
# without the blank line before it.
own_part() { sed "\|$graded|,\$d" "$1" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'; }

if [ "$check" = no ]; then
  kept=$(mktemp)
  trap 'rm -f "$kept"' EXIT
  [ -f ../docs/accuracy.md ] && sed -n "\|$graded|,\$p" ../docs/accuracy.md > "$kept"
  accuracy --out-dir ../docs
  if [ -s "$kept" ]; then { echo; cat "$kept"; } >> ../docs/accuracy.md; fi
  exit 0
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
accuracy --out-dir "$out" > /dev/null
status=0
for f in accuracy.md accuracy.svg; do
  if [ ! -f "../docs/$f" ]; then
    echo "docs/$f is missing: run peers/scripts/accuracy.sh and commit the result" >&2
    status=1
  elif ! diff -u <(if [ "$f" = accuracy.md ]; then own_part "../docs/$f"; else cat "../docs/$f"; fi) "$out/$f"; then
    echo "docs/$f differs from what src/bin/accuracy.rs writes now (diff above):" \
      "run peers/scripts/accuracy.sh and commit the result" >&2
    status=1
  fi
done
[ "$status" = 0 ] && echo "docs/accuracy.md and accuracy.svg are up to date"
exit "$status"
