#!/usr/bin/env bash
# Writes docs/accuracy.svg and the generated section of docs/accuracy.md: every
# peer against actlut's correctly rounded tables over all 65,536 inputs
# (src/bin/accuracy.rs).
#
#   scripts/accuracy.sh           regenerate the committed files
#   scripts/accuracy.sh --check   regenerate into a temporary directory and fail
#                                 if the committed files differ
#
# It builds with cargo's release profile, or the one ACTLUT_PROFILE names (CI's
# 42-peers uses `dev`, sharing the step's debug build: the report is the same
# bits in any profile, and CI times nothing).
set -euo pipefail
cd "$(dirname "$0")/.."

check=no
case "${1:-}" in
  "") ;;
  --check) check=yes ;;
  *) echo "usage: scripts/accuracy.sh [--check]" >&2; exit 2 ;;
esac

accuracy() { cargo run --profile "${ACTLUT_PROFILE:-release}" --quiet --bin accuracy -- "$@"; }

# docs/accuracy.md is hand-written around one generated section, between these
# two lines; the generated report's headings go one level down, under the
# page's own title. Text above and below the section is kept as it is.
begin='<!-- begin generated section: peers/scripts/accuracy.sh writes everything down to the end marker -->'
end='<!-- end generated section -->'
section() { sed 's/^#/##/' "$1"; }
# The committed page with its section replaced by the report in $1.
splice() {
  awk -v begin="$begin" -v end="$end" -v report="$1" '
    $0 == begin { print; while ((getline line < report) > 0) print line; skip = 1; seen++; next }
    $0 == end { skip = 0 }
    !skip { print }
    END { if (seen != 1) exit 3 }
  ' ../docs/accuracy.md
}

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
if [ ! -f ../docs/accuracy.md ] || ! grep -qxF "$begin" ../docs/accuracy.md \
  || ! grep -qxF "$end" ../docs/accuracy.md; then
  echo "docs/accuracy.md lacks the lines that mark its generated section:" >&2
  printf '  %s\n' "$begin" "$end" >&2
  exit 1
fi
accuracy --out-dir "$out" > /dev/null
section "$out/accuracy.md" > "$out/section.md"
splice "$out/section.md" > "$out/page.md"

if [ "$check" = no ]; then
  cp "$out/page.md" ../docs/accuracy.md
  cp "$out/accuracy.svg" ../docs/accuracy.svg
  exit 0
fi

status=0
for f in accuracy.svg:accuracy.svg accuracy.md:page.md; do
  committed=../docs/${f%%:*}
  if [ ! -f "$committed" ]; then
    echo "docs/${f%%:*} is missing: run peers/scripts/accuracy.sh and commit the result" >&2
    status=1
  elif ! diff -u "$committed" "$out/${f#*:}"; then
    echo "docs/${f%%:*} differs from what src/bin/accuracy.rs writes now (diff above):" \
      "run peers/scripts/accuracy.sh and commit the result" >&2
    status=1
  fi
done
[ "$status" = 0 ] && echo "docs/accuracy.md and accuracy.svg are up to date"
exit "$status"
