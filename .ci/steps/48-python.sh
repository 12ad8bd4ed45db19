# The Python package (python/, docs/python.md): a virtual environment under
# target/, `pip install ./python` (maturin from pip builds the extension in
# release, in python/target), the pinned test dependencies, the extension's
# fmt and clippy, the `actlut` command the tests compare with, the pytest suite
# (every table, every input through apply, grade against `actlut ulp`,
# quant_table against `actlut quant`, tolerances, midpoints, position
# dependence, edge values and the pytest plugin, the survey, the peers and the
# example of docs/python.md) and the benchmark once in smoke mode. Measured cold (empty
# python/target and venv, the crates downloaded, target/debug/actlut built) on
# the shared 2-core machine under a load of about 15 (2026-12-01): 628 s, of
# which 2 min 9 s of CPU time (pip, the release build of the extension, its
# clippy build; the suite itself 25 s); warm 115 s. 2026-12-06 (load about 6):
# warm, with the extension rebuilt, 71 s; the suite 578 tests in 32 s, of which
# 11 s the tests of position dependence, edge values, the pytest plugin and a
# part of the survey (scipy pinned for it); the benchmark's smoke mode about 5 s.
# 2026-12-06 (load about 18, after the ops in Python): warm, with the extension
# and the debug `actlut` rebuilt, 7 min 36 s (CPU 2 min 32 s); the suite 1,453
# tests in 72 s (CPU 23 s), of which tests/test_ops.py 24 s (CPU 9 s: every
# f16 and bf16 input of 21 op tables against references computed in the test).
set -euo pipefail
venv=target/python-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q pytest==9.2.0 ml_dtypes==0.7.0 onnxruntime==1.32.0 onnx==1.23.2 numpy==2.4.6 scipy==1.17.1
"$venv/bin/pip" install -q ./python
(cd python && cargo fmt --check && PYO3_PYTHON="$PWD/../$venv/bin/python" cargo clippy --all-targets -- -D warnings)
cargo build -p actlut-cli
export ACTLUT_CLI="$PWD/${CARGO_TARGET_DIR:-target}/debug/actlut"
# The `pytest` script, not `python -m pytest`, run from python/: the current
# directory must not shadow the installed package with the source folder.
# pytest's status 5 (no test collected) is a failure, not a pass.
status=0
(cd python && "../$venv/bin/pytest" -q -p no:cacheprovider) || status=$?
if [ "$status" = 5 ]; then
  echo "48-python: pytest collected no test"
  exit 1
fi
[ "$status" = 0 ] || exit "$status"
"$venv/bin/python" python/bench/bench.py --smoke
