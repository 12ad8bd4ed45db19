"""`python -m actlut ulp` prints what `actlut ulp` prints, byte for byte, with
the same exit status, on the same files: correct tables, planted errors, NaN
errors, invalid codes, `--json`, `--worst`, and every usage error.

Most cases call the module's `main` in this process (an interpreter with numpy
and ml_dtypes takes seconds to start on a loaded machine); one test runs
`python -m actlut` itself."""

import io
import os
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from types import SimpleNamespace

import numpy as np
import pytest

import actlut
from actlut.__main__ import main
from test_apply import bits


def run_both(actlut_cli, args, tmp_path):
    cli = subprocess.run([actlut_cli, "ulp", *args], capture_output=True, text=True)
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["ulp", *args])
    py = SimpleNamespace(returncode=code, stdout=out.getvalue(), stderr=err.getvalue())
    return cli, py


def write(path, a):
    b = bits(a)
    (b.astype("<u2") if b.itemsize == 2 else b).tofile(path)
    return str(path)


def files(tmp_path):
    out = {}
    t = bits(actlut.table("gelu", "f16")).copy()
    out["exact gelu f16"] = ("gelu", "f16", write(tmp_path / "exact.bin", t))
    p = t.copy()
    p[0x3C00] += 2
    p[0x4000] = 0x7E00
    p[0x7E00] = 0x3C00
    p[0xFE01] = 0x7E05
    p[0] = 0x8000
    out["nan errors gelu f16"] = ("gelu", "f16", write(tmp_path / "nan.bin", p))
    x = np.arange(65536, dtype=np.uint16).view(np.float16)
    with np.errstate(all="ignore"):
        naive = (1 / (1 + np.exp(-x))).astype(np.float16)
    out["naive sigmoid f16"] = ("sigmoid", "f16", write(tmp_path / "sig.bin", naive))
    b = bits(actlut.table("tanh", "bf16")).copy()
    b[0x3F80:0x3FA0] += 1
    out["tanh bf16"] = ("tanh", "bf16", write(tmp_path / "tanh.bin", b))
    f = bits(actlut.table("gelu", "fp4_e2m1")).copy()
    f[3] = 0x10
    f[4] += 1
    out["fp4 invalid"] = ("gelu", "fp4_e2m1", write(tmp_path / "fp4.bin", f))
    e = bits(actlut.table("gelu_tanh", "fp8_e4m3")).copy()
    e[0x30:0x38] += 1
    out["fp8 feature names"] = ("gelu-tanh", "fp8-e4m3", write(tmp_path / "fp8.bin", e))
    return out


@pytest.mark.parametrize(
    "options",
    [
        [],
        ["--json"],
        ["--worst", "3"],
        ["--worst=0", "--json"],
        ["--worst", "+2", "--"],
        ["--rtol", "0.01", "--atol", "1e-3"],
        ["--json", "--rtol=0", "--atol=0.5"],
    ],
)
def test_output_and_exit_status_are_the_commands(actlut_cli, tmp_path, options):
    seen = set()
    for case, (function, fmt, path) in files(tmp_path).items():
        cli, py = run_both(actlut_cli, [function, fmt, path, *options], tmp_path)
        assert py.stdout == cli.stdout, case
        assert py.returncode == cli.returncode, case
        assert py.stderr == cli.stderr == "", case
        seen.add(cli.returncode)
    assert seen == {0, 1}


def test_usage_errors_are_the_commands_one_line_and_exit_2(actlut_cli, tmp_path):
    good = bits(actlut.table("gelu", "f16"))
    f16 = write(tmp_path / "f16.bin", good)
    short = write(tmp_path / "short.bin", good[:100])
    (tmp_path / "empty.bin").write_bytes(b"")
    os.mkdir(tmp_path / "dir")
    cases = [
        ["gelux", "f16", f16],
        ["gelu", "f17", f16],
        ["log", "fp4_e2m1", f16],
        ["gelu", "f16", str(tmp_path / "missing.bin")],
        ["gelu", "f16", str(tmp_path / "dir")],
        ["gelu", "f16", str(tmp_path / "empty.bin")],
        ["gelu", "f16", short],
        ["gelu", "bf16", str(tmp_path / "missing.bin"), "--json"],
        ["gelu", "f16"],
        ["gelu", "f16", f16, "extra"],
        ["gelu", "f16", f16, "--wrong"],
        ["gelu", "f16", f16, "--worst"],
        ["gelu", "f16", f16, "--worst", "x"],
        ["gelu", "f16", f16, "--worst", "1_0"],
        ["gelu", "f16", f16, "--worst= 3"],
        ["gelu", "f16", f16, "--worst", "-1"],
        ["gelu", "f16", f16, "--rtol", "0.1"],
        ["gelu", "f16", f16, "--atol", "0.1"],
        ["gelu", "f16", f16, "--rtol", "-0.1", "--atol", "0"],
        ["gelu", "f16", f16, "--rtol", "inf", "--atol", "0"],
    ]
    if os.path.exists("/dev/null"):
        cases.append(["gelu", "f16", "/dev/null"])
    for args in cases:
        cli, py = run_both(actlut_cli, args, tmp_path)
        assert (cli.returncode, py.returncode) == (2, 2), args
        assert cli.stdout == py.stdout == "", args
        # The one difference: the hint names the command that was run.
        assert py.stderr.replace("python -m actlut ulp --help", "actlut ulp --help") == cli.stderr, args
        assert py.stderr.count("\n") == 1, args


def test_python_m_actlut_runs_the_command(actlut_cli, tmp_path):
    t = bits(actlut.table("gelu", "bf16")).copy()
    t[0x3F80] += 1
    path = write(tmp_path / "g.bin", t)
    cli = subprocess.run([actlut_cli, "ulp", "gelu", "bf16", path, "--json"], capture_output=True, text=True)
    py = subprocess.run(
        [sys.executable, "-m", "actlut", "ulp", "gelu", "bf16", path, "--json"],
        capture_output=True,
        text=True,
        cwd=tmp_path,  # not python/, whose actlut/ is the source, not the installed package
    )
    assert (py.returncode, py.stdout, py.stderr) == (cli.returncode, cli.stdout, "") and cli.returncode == 1
    py = subprocess.run(
        [sys.executable, "-m", "actlut", "ulp", "gelux", "bf16", path], capture_output=True, text=True, cwd=tmp_path
    )
    assert py.returncode == 2 and py.stderr.startswith("actlut: error: invalid value 'gelux' for '<FUNCTION>'")
    assert "unknown function name `gelux`" in py.stderr and py.stderr.count("\n") == 1


def test_help_exits_0_and_shows_the_synopsis(tmp_path):
    py = subprocess.run(
        [sys.executable, "-m", "actlut", "ulp", "--help"], capture_output=True, text=True, cwd=tmp_path
    )
    assert py.returncode == 0
    assert "\nUsage: python -m actlut ulp [OPTIONS] <FUNCTION> <FORMAT> <FILE>\n" in py.stdout
    assert "--worst <N>" in py.stdout and "--json" in py.stdout
    none = subprocess.run([sys.executable, "-m", "actlut"], capture_output=True, text=True, cwd=tmp_path)
    assert none.returncode == 2 and none.stderr.startswith("actlut: error: ")
    assert "requires a subcommand" in none.stderr and none.stderr.endswith("(try `python -m actlut --help`)\n")
    # The package's command is `ulp` alone: the audit is not in the wheel.
    audit = subprocess.run([sys.executable, "-m", "actlut", "audit"], capture_output=True, text=True, cwd=tmp_path)
    assert audit.returncode == 2 and "unrecognized subcommand 'audit'" in audit.stderr
