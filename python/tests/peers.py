"""Other implementations graded by actlut on every input: the table of
docs/python.md ("Peers, graded").

    python python/tests/peers.py           print the section
    python python/tests/peers.py --write   rewrite it in docs/python.md

tests/test_peers.py runs the peers and fails when docs/python.md differs. The
counts depend on the versions (named in each row) and, for kernels with
CPU-specific paths (ONNX Runtime's MLAS, numpy's SIMD loops), on the CPU: the
section names the CPU it was written on (`cpu()`), and tests/test_peers.py
compares it entry for entry only on a CPU of that kind.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import ml_dtypes
import numpy as np

import actlut

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "python.md"
BEGIN = "<!-- peers: written by python/tests/peers.py --write; tests/test_peers.py checks it -->"
END = "<!-- /peers -->"


def ort_op(op: str, **attrs):
    """A callable running one ONNX node (opset 20) over float16 with ONNX
    Runtime's CPUExecutionProvider, default graph optimizations."""
    import onnx
    import onnxruntime as ort
    from onnx import TensorProto, helper

    def run(x):
        node = helper.make_node(op, ["x"], ["y"], **attrs)
        graph = helper.make_graph(
            [node],
            "g",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT16, [x.size])],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT16, [x.size])],
        )
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])
        model.ir_version = 9
        sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
        return sess.run(None, {"x": x})[0]

    return run


def quiet(f):
    """``f`` with numpy's floating-point warnings off (overflow, log of 0, ...)."""

    def g(x):
        with np.errstate(all="ignore"):
            return f(x)

    return g


def peers():
    """(implementation, how it is called, function, format, callable)."""
    import onnxruntime as ort

    o = f"onnxruntime {ort.__version__}"
    n = f"numpy {np.__version__}"
    m = f"ml_dtypes {ml_dtypes.__version__}"
    return [
        (f"{n}", "`1/(1+np.exp(-x))` in float16", "sigmoid", "f16", quiet(lambda x: 1 / (1 + np.exp(-x)))),
        (f"{n}", "`np.exp` on float16", "exp", "f16", quiet(np.exp)),
        (f"{n}", "`np.log` on float16", "log", "f16", quiet(np.log)),
        (f"{o}", "`Gelu` (CPU, opset 20)", "gelu", "f16", ort_op("Gelu")),
        (f"{o}", "`Sigmoid`", "sigmoid", "f16", ort_op("Sigmoid")),
        (f"{o}", "`Tanh`", "tanh", "f16", ort_op("Tanh")),
        (f"{o}", "`Exp`", "exp", "f16", ort_op("Exp")),
        (f"{m}", "`np.exp` on bfloat16", "exp", "bf16", quiet(np.exp)),
        (f"{m}", "`np.tanh` on bfloat16", "tanh", "bf16", quiet(np.tanh)),
    ]


def cpu() -> str:
    """The kind of CPU the counts depend on, in numpy's names: the SIMD target
    that numpy's float16 and float32 `exp` and `log` loops run here,
    and the highest x86 level (or the architecture elsewhere), which also
    decides ONNX Runtime's MLAS kernels."""
    import platform

    from numpy._core._multiarray_umath import __cpu_features__ as features
    from numpy.lib.introspect import opt_func_info

    info = opt_func_info(func_name="^(exp|log)$", signature="^(e|f)")
    loops = ", ".join(
        f"{name} {sig} {info[name][sig]['current']}"
        for name in ("exp", "log")
        for sig in ("ee", "ff")
        if sig in info.get(name, {})
    )
    levels = [k for k in ("AVX512_SPR", "X86_V4", "X86_V3", "X86_V2") if features.get(k)]
    level = levels[0] if levels else platform.machine()
    return f"{level}; numpy loops: {loops}"


CPU_LINE = "Counted on a CPU where numpy reports: "


def largest(g: actlut.Grade) -> str:
    s = f"{g.max_numeric_ulp} ulp" + ("" if g.max_numeric_ulp == 1 else "s")
    extra = []
    if g.nan_for_number:
        extra.append(f"{g.nan_for_number:,} NaN where a number is due")
    if g.number_for_nan:
        extra.append(f"{g.number_for_nan:,} numbers where NaN is due")
    return s + ("" if not extra else "; " + ", ".join(extra))


def section() -> str:
    lines = [
        BEGIN,
        "",
        f"{CPU_LINE}`{cpu()}`.",
        "",
        "| implementation | call | graded as | wrong entries | largest error | of 1 ulp |",
        "|---|---|---|---:|---|---:|",
    ]
    for who, call, function, fmt, impl in peers():
        g = actlut.grade(function, fmt, impl)
        lines.append(
            f"| {who} | {call} | `{function}` `{fmt}` | {g.mismatches:,} of {g.entries:,} | "
            f"{largest(g)} | {g.histogram.get(1, 0):,} |"
        )
    lines += ["", END]
    return "\n".join(lines) + "\n"


def extract(doc: str) -> str:
    """The section as docs/python.md has it (empty when the markers are missing)."""
    if BEGIN not in doc or END not in doc:
        return ""
    start = doc.index(BEGIN)
    end = doc.index(END) + len(END)
    return doc[start:end] + "\n"


def documented_cpu(section_text: str) -> str:
    """The CPU kind a section was counted on (empty when it names none)."""
    m = re.search(re.escape(CPU_LINE) + r"`([^`]*)`", section_text)
    return m.group(1) if m else ""


def rows(section_text: str) -> list[list[str]]:
    """The table rows of a section, as lists of cells (the header rows left out)."""
    out = []
    for line in section_text.splitlines():
        if line.startswith("| ") and not line.startswith("| implementation"):
            out.append([c.strip() for c in line.strip("|").split("|")])
    return out


def count(cell: str) -> int:
    """The leading count of a cell: `11,077 of 65,536` -> 11077, `255 ulps` -> 255."""
    m = re.match(r"([0-9][0-9,]*)", cell)
    if not m:
        raise ValueError(f"no count in {cell!r}")
    return int(m.group(1).replace(",", ""))


#: How far a count may move on a CPU of another kind: 1% of the documented
#: count, and at least 8 entries (numpy's float16 `exp` gives 2 wrong entries
#: on the X86_V3 Zen 3 and 4 on the Sapphire Rapids Xeon of docs/python.md).
SLACK_FRACTION = 0.01
SLACK_MIN = 8


def differences(documented: str, fresh: str, same_cpu: bool) -> list[str]:
    """What differs between a documented section and a fresh one. On the same
    kind of CPU, any character; on another kind, a missing or renamed row, or
    a count (wrong entries, entries 1 ulp off) that moved by more than the
    slack."""
    if same_cpu:
        return [] if documented == fresh else ["the section differs from this run's"]
    old, new = rows(documented), rows(fresh)
    if len(old) != len(new):
        return [f"{len(new)} peers where docs/python.md has {len(old)}"]
    out = []
    for o, n in zip(old, new):
        if o[:3] != n[:3]:
            out.append(f"peer row {o[:3]} is now {n[:3]}")
            continue
        for col in (3, 5):
            a, b = count(o[col]), count(n[col])
            if abs(a - b) > max(SLACK_MIN, int(a * SLACK_FRACTION)):
                out.append(f"{o[0]} {o[1]}: {b:,} where docs/python.md has {a:,}")
    return out


def main() -> None:
    s = section()
    if sys.argv[1:] == ["--write"]:
        doc = DOC.read_text()
        old = extract(doc)
        if not old:
            sys.exit(f"{DOC} has no peers markers")
        DOC.write_text(doc.replace(old, s))
    else:
        sys.stdout.write(s)


if __name__ == "__main__":
    main()
