"""Other implementations graded by actlut on every input: the table of
docs/python.md ("Peers, graded").

    python python/tests/peers.py           print the section
    python python/tests/peers.py --write   rewrite it in docs/python.md

tests/test_peers.py runs the peers and fails when docs/python.md differs. The
counts depend on the versions (named in each row) and, for kernels with
CPU-specific paths (ONNX Runtime's MLAS, numpy's SIMD loops), on the CPU.
"""

from __future__ import annotations

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
