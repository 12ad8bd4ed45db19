#!/usr/bin/env bash
# Audits every regular file under the given folders (or the given files) with
# `actlut audit --json`, 50 at a time (one call keeps at most MAX_FOUND findings over
# all its files, and a build of the `actlut` command holds hundreds), and prints how
# many files, tables and problems it found, the files with problems, and the largest margins of
# rejected candidates (docs/audit.md, "False reports"). Exits 1 when any file
# has a problem (or an audit cannot run), so CI fails on a false report.
#
#   scripts/audit-sweep.sh [--actlut PATH] DIR_OR_FILE...
#
# The system sweep of docs/audit.md is this script over /usr/bin,
# /usr/lib/x86_64-linux-gnu, the Rust toolchains' lib, bin and libexec folders,
# and a venv's site-packages; .ci/steps/30-audit.sh runs it on the project's
# own artifacts.
set -euo pipefail
actlut=${ACTLUT:-target/release/actlut}
if [ "${1:-}" = "--actlut" ]; then
  actlut=$2
  shift 2
fi
[ $# -gt 0 ] || { echo "usage: $0 [--actlut PATH] DIR_OR_FILE..."; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
find "$@" -type f -size +0 -print0 2>/dev/null | sort -z > "$out/files"
# Each batch's JSON in its own file; exit status 1 (problems) is read from the
# JSON, anything else (2: a file vanished or cannot be read) is a failure.
n=0
xargs -0 -n 50 < "$out/files" sh -c '
  out=$0; actlut=$1; shift 2
  f=$(mktemp "$out/batch.XXXXXX")
  "$actlut" audit --json "$@" > "$f"; s=$?
  [ $s -le 1 ] || { echo "actlut audit exited $s on a batch" >&2; exit 255; }
' "$out" "$actlut" || { echo "a batch failed"; exit 1; }
python3 - "$out" <<'PY'
import glob, json, sys
files = tables = problems = 0
bad = []
most = {"rejected_surprises": (0, ""), "rejected_pairs": (0, ""), "rejected_distinctive_per_mille": (0, "")}
for path in glob.glob(sys.argv[1] + "/batch.*"):
    doc = json.load(open(path))
    for f in doc["files"]:
        files += 1
        tables += len(f["tables"])
        if f["problems"]:
            problems += len(f["problems"])
            bad.append((f["path"], f["problems"]))
        for k in most:
            if f[k] > most[k][0]:
                most[k] = (f[k], f["path"])
print(f"{files} files, {tables} tables found, {problems} problems")
for k, (v, p) in most.items():
    print(f"  most {k}: {v}" + (f" ({p})" if p else ""))
for p, lines in bad:
    print(f"PROBLEM in {p}:")
    for l in lines[:5]:
        print("  " + l)
sys.exit(1 if bad else 0)
PY
