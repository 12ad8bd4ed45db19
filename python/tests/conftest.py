"""Shared fixtures: the `actlut` command (the reference the package is compared
with), the tables it dumps, and the lock.

The command is $ACTLUT_CLI when set (CI builds it first), otherwise built here
with `cargo build -p actlut-cli` at the repository root.
"""

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def actlut_cli() -> str:
    path = os.environ.get("ACTLUT_CLI")
    if path:
        return path
    subprocess.run(["cargo", "build", "--quiet", "-p", "actlut-cli"], cwd=ROOT, check=True)
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    if not target.is_absolute():
        target = ROOT / target
    return str(target / "debug" / "actlut")


@pytest.fixture(scope="session")
def dump_dir(actlut_cli, tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("dump") / "tables"
    subprocess.run([actlut_cli, "dump", str(d)], check=True, capture_output=True)
    return d


def lock_rows():
    """(name, function, format, entries, sha256) of every function table of tables/actlut.lock.

    The derivative tables' rows (function column `<function>_derivative`) are left out: the
    package's derivatives are `derivative=True` (tests/test_ops.py), and `actlut dump` writes
    the function tables."""
    rows = []
    for line in (ROOT / "tables" / "actlut.lock").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, function, fmt, entries, _bytes, sha, *_ = line.split()
        if function.endswith("_derivative"):
            continue
        rows.append((name, function, fmt, int(entries), sha))
    return rows
