"""`python -m actlut survey`: the installed libraries graded, as a table or JSON rows with the
keys of `Grade.to_dict()` and the survey's own; ONNX Runtime's f16 Gelu gives the count
docs/python.md measured ("Peers, graded", with that section's rule for another kind of CPU).
The whole survey's time is measured in docs/python.md, not here: this runs a part of it."""

import io
import json
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout

import pytest

import actlut
import peers
from actlut.__main__ import main


def run(args):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = main(["survey", *args])
        except SystemExit as e:
            code = e.code
    return code, out.getvalue(), err.getvalue()


def documented(implementation_prefix, call_prefix):
    """A count of docs/python.md's peers section, and whether it was counted on this kind of CPU."""
    section = peers.extract(peers.DOC.read_text())
    for row in peers.rows(section):
        if row[0].startswith(implementation_prefix) and row[1].startswith(call_prefix):
            return peers.count(row[3]), peers.documented_cpu(section) == peers.cpu()
    raise AssertionError(f"no {implementation_prefix} {call_prefix} row in docs/python.md")


def test_the_json_rows_reproduce_onnx_runtimes_f16_gelu_count():
    code, out, err = run(["--json", "--function", "gelu", "--format", "f16"])
    assert code == 0 and err == ""
    rows = json.loads(out)
    g = actlut.grade("gelu", "f16", actlut.table("gelu", "f16"))
    keys = set(g.to_dict()) | {"implementation", "computed", "hidden_by_torch", "position_dependent",
                               "position_nan_payloads_differ", "position_probe"}
    assert all(set(r) == keys for r in rows)
    row = next(r for r in rows if r["implementation"].endswith(" Gelu") and r["computed"] == "in f16")
    assert row["implementation"].startswith("onnxruntime ")
    # The same kernel built apart (peers.py's own session) grades the same.
    assert row["mismatches"] == actlut.grade("gelu", "f16", peers.ort_op("Gelu")).mismatches
    want, same_cpu = documented("onnxruntime", "`Gelu`")
    slack = 0 if same_cpu else max(peers.SLACK_MIN, int(want * peers.SLACK_FRACTION))
    assert abs(row["mismatches"] - want) <= slack, (row["mismatches"], want)
    torch = next(h for h in row["hidden_by"] if h["tolerance"] == "torch")
    assert row["hidden_by_torch"] == torch["count"] and row["hidden_by_torch"] <= row["mismatches"]
    assert row["position_probe"]["lengths"] == [1, 7, 17, 33, 65, 129, 300]
    assert row["position_probe"]["offsets"] == 1 and row["position_probe"]["calls"] > 65536
    computed = {r["computed"] for r in rows}
    assert {"in f16", "in float32, cast to f16"} <= computed


def test_the_table_names_the_cpu_each_kernel_and_its_columns():
    code, out, err = run(["--function", "exp", "--format", "fp8_e4m3", "--format", "f16"])
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("actlut survey: ") and " kernels graded on every input in " in lines[0]
    assert "| implementation | computed | function | format | wrong | max ulp | pass assert_close | position-dependent |" in lines
    rows = [l for l in lines if l.startswith("| ") and not l.startswith("| implementation")]
    assert any(l.startswith("| numpy ") and "| in f16 | exp | f16 |" in l for l in rows)
    assert any(l.startswith("| ml_dtypes ") and "| in float32, cast to fp8_e4m3 | exp | fp8_e4m3 |" in l for l in rows)
    assert all(r.split("|")[3].strip() == "exp" for r in rows)


def test_bad_arguments_are_usage_errors():
    code, out, err = run(["--format", "f8"])
    assert code == 2 and out == "" and "unknown format name `f8`" in err
    code, out, err = run(["--bogus"])
    assert code == 2 and "unrecognized arguments: --bogus" in err


def test_python_m_actlut_survey_runs(tmp_path):
    p = subprocess.run([sys.executable, "-m", "actlut", "survey", "--help"], capture_output=True, text=True, cwd=tmp_path)
    assert p.returncode == 0 and p.stdout.startswith("usage: python -m actlut survey")
