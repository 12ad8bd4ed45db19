"""``python -m actlut survey [--json] [--full]``: the installed numpy, scipy,
ml_dtypes and onnxruntime, graded on every input.

Every function of actlut that one of these libraries implements is run on
every input of each format the library handles, two ways: computed in the
format (the library's own kernel for the dtype, whatever it does inside) and
computed in float32 then cast to the format (``astype``). Each is graded with
:func:`actlut.grade`, counted against ``torch.testing.assert_close``'s default
tolerance (:meth:`actlut.Grade.hidden_by`), and probed for position dependence
(:func:`actlut.testing.position_report`): each input alone and in arrays of
lengths 7, 17, 33, 65, 129 and 300 for f16 and bf16, every length 1 to 300 at
4 offsets for the byte formats (``--full``: that probe for every format, 1.36
million calls per f16 or bf16 kernel instead of 82,479).

A library that is not installed is left out; a kernel the library does not
have for a dtype (ONNX Runtime's CPU provider has no bfloat16 kernels) is
listed after the table as not available.

With ``--json`` it prints a JSON list of rows: each row is
``Grade.to_dict()`` with ``implementation`` (``"onnxruntime 1.32.0 Gelu"``),
``computed`` (``"in f16"``, ``"in float32, cast to f16"``),
``hidden_by_torch``, ``position_dependent`` and ``position_probe`` (its
``lengths``, ``offsets`` and ``calls``).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple

import numpy as np

from . import _DTYPES, _actlut, grade
from .testing import DEFAULT_LENGTHS, DEFAULT_OFFSETS, Runner, _baseline, _each, _probe

#: The survey's probe of 16-bit formats: each input alone, and in arrays just past the usual
#: vector widths (8, 16, 32, 64, 128 elements) and of 300.
QUICK_LENGTHS = (1, 7, 17, 33, 65, 129, 300)
QUICK_OFFSETS = 1

#: The formats each library computes in.
NUMPY_FORMATS = ("f16",)
ML_DTYPES_FORMATS = ("bf16", "fp8_e4m3", "fp8_e5m2", "fp8_e4m3fnuz", "fp8_e5m2fnuz", "fp6_e2m3", "fp6_e3m2", "fp4_e2m1")
SCIPY_FORMATS = ("f16", "bf16")
ORT_FORMATS = ("f16", "bf16")


class Kernel(NamedTuple):
    """One implementation of one function over one format."""

    implementation: str
    computed: str
    function: str
    format: str
    call: Callable[[np.ndarray], np.ndarray]
    runner: Optional[Runner]


def _quiet(f: Callable[[np.ndarray], Any]) -> Callable[[np.ndarray], Any]:
    def g(x: np.ndarray) -> Any:
        with np.errstate(all="ignore"):
            return f(x)

    return g


def _two_ways(implementation: str, function: str, fmt: str, f: Callable[[np.ndarray], Any]) -> List[Kernel]:
    """``f`` computed in the format, and in float32 then cast to it."""
    dt = _DTYPES[fmt]
    native = _quiet(lambda x: np.asarray(f(x)).astype(dt, copy=False))
    via32 = _quiet(lambda x: np.asarray(f(x.astype(np.float32))).astype(dt))
    return [
        Kernel(implementation, f"in {fmt}", function, fmt, native, None),
        Kernel(implementation, f"in float32, cast to {fmt}", function, fmt, via32, None),
    ]


def numpy_kernels() -> List[Kernel]:
    """numpy's float16 exp, log and tanh; ml_dtypes' loops of the same ufuncs
    for its dtypes."""
    import ml_dtypes

    out = []
    ufuncs = (("exp", np.exp), ("log", np.log), ("tanh", np.tanh))
    for formats, lib in ((NUMPY_FORMATS, f"numpy {np.__version__}"), (ML_DTYPES_FORMATS, f"ml_dtypes {ml_dtypes.__version__}")):
        for fmt in formats:
            for name, u in ufuncs:
                if _actlut.has_table(name, fmt):
                    out += _two_ways(f"{lib} np.{name}", name, fmt, u)
    return out


def scipy_kernels() -> List[Kernel]:
    """scipy.special's expit, erf, log_expit and softplus."""
    try:
        import scipy
        import scipy.special as sp
    except ImportError:
        return []
    out = []
    lib = f"scipy {scipy.__version__}"
    for name, function in (("expit", "sigmoid"), ("erf", "erf"), ("log_expit", "logsigmoid"), ("softplus", "softplus")):
        f = getattr(sp, name, None)
        if f is None:
            continue
        for fmt in SCIPY_FORMATS:
            out += _two_ways(f"{lib} scipy.special.{name}", function, fmt, f)
    return out


#: ONNX Runtime's operators and the actlut function each computes: (op, domain, attributes).
ORT_OPS = (
    ("Gelu", "", {}, "gelu"),
    ("FastGelu", "com.microsoft", {}, "gelu_tanh"),
    ("QuickGelu", "com.microsoft", {"alpha": 1.702}, "gelu_quick"),
    ("Sigmoid", "", {}, "sigmoid"),
    ("Tanh", "", {}, "tanh"),
    ("Softplus", "", {}, "softplus"),
    ("Softsign", "", {}, "softsign"),
    ("Elu", "", {}, "elu"),
    ("Selu", "", {}, "selu"),
    ("HardSigmoid", "", {"alpha": 1 / 6, "beta": 0.5}, "hardsigmoid"),
    ("HardSwish", "", {}, "hardswish"),
    ("Mish", "", {}, "mish"),
    ("Erf", "", {}, "erf"),
    ("Exp", "", {}, "exp"),
    ("Log", "", {}, "log"),
)

#: Parallel nodes in one model: one session run probes this many arrays.
ORT_BATCH = 16


def _ort_session(op: str, domain: str, attrs: Dict[str, Any], elem: int, nodes: int) -> Any:
    import onnxruntime as ort
    from onnx import helper

    graph = helper.make_graph(
        [helper.make_node(op, [f"x{i}"], [f"y{i}"], domain=domain, **attrs) for i in range(nodes)],
        "g",
        [helper.make_tensor_value_info(f"x{i}", elem, [None]) for i in range(nodes)],
        [helper.make_tensor_value_info(f"y{i}", elem, [None]) for i in range(nodes)],
    )
    opsets = [helper.make_opsetid("", 20)] + ([helper.make_opsetid(domain, 1)] if domain else [])
    model = helper.make_model(graph, opset_imports=opsets, ir_version=9)
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    so.inter_op_num_threads = 1
    so.log_severity_level = 3
    return ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])


def _ort_runner(batch: Any, fmt: str, compute: np.dtype) -> Runner:
    """Runs the windows through a session of :data:`ORT_BATCH` parallel nodes,
    each window its own tensor."""
    dt = _DTYPES[fmt]
    bits_dt = np.dtype(np.uint16) if dt.itemsize == 2 else np.dtype(np.uint8)
    names = [f"x{i}" for i in range(ORT_BATCH)]

    def run(buf: np.ndarray, length: int, out: np.ndarray) -> int:
        n = buf.size // length
        x = buf.astype(compute)
        with np.errstate(all="ignore"):
            for start in range(0, n, ORT_BATCH):
                ks = [min(k, n - 1) for k in range(start, start + ORT_BATCH)]
                ys = batch.run(None, {nm: x[k * length : (k + 1) * length] for nm, k in zip(names, ks)})
                for k, y in zip(ks, ys):
                    out[k * length : (k + 1) * length] = np.asarray(y).astype(dt).view(bits_dt)
        return n

    return run


def ort_kernels(unavailable: List[str]) -> List[Kernel]:
    """ONNX Runtime's CPU kernels of :data:`ORT_OPS`, in each format it takes
    and in float32 cast to the format."""
    try:
        import onnxruntime as ort
        from onnx import TensorProto
    except ImportError:
        return []
    lib = f"onnxruntime {ort.__version__}"
    elem = {"f16": TensorProto.FLOAT16, "bf16": TensorProto.BFLOAT16}
    out = []
    for op, domain, attrs, function in ORT_OPS:
        name = f"{lib} {op}"
        for fmt in ORT_FORMATS:
            dt = _DTYPES[fmt]
            for computed, ty in ((f"in {fmt}", elem[fmt]), (f"in float32, cast to {fmt}", TensorProto.FLOAT)):
                compute = np.dtype(np.float32) if ty == TensorProto.FLOAT else dt
                try:
                    one = _ort_session(op, domain, attrs, ty, 1)
                    if fmt == "bf16" and ty != TensorProto.FLOAT:
                        raise RuntimeError("the Python API takes no ml_dtypes.bfloat16 array")
                    one.run(None, {"x0": np.zeros(1, dtype=compute)})
                except Exception as e:  # NOT_IMPLEMENTED, INVALID_GRAPH: no kernel for the type
                    unavailable.append(f"{name} {computed}: {str(e).splitlines()[0][:160]}")
                    continue

                def call(x: np.ndarray, one: Any = one, compute: np.dtype = compute, dt: np.dtype = dt) -> np.ndarray:
                    return np.asarray(one.run(None, {"x0": x.astype(compute)})[0]).astype(dt)

                call = _quiet(call)
                batch = _ort_session(op, domain, attrs, ty, ORT_BATCH)
                out.append(Kernel(name, computed, function, fmt, call, _ort_runner(batch, fmt, compute)))
    return out


class Row(NamedTuple):
    """One graded kernel."""

    kernel: Kernel
    grade: Any
    hidden_by_torch: int
    position: Any
    seconds: float


def survey(full: bool = False, only: Optional[Callable[[Kernel], bool]] = None) -> Tuple[List[Row], List[str]]:
    """Grades every kernel (those ``only`` keeps): the rows, and the kernels
    that are not available."""
    unavailable: List[str] = []
    kernels = numpy_kernels() + scipy_kernels() + ort_kernels(unavailable)
    rows = []
    for k in kernels:
        if only is not None and not only(k):
            continue
        t0 = time.perf_counter()
        try:
            base = _baseline(k.call, k.format)
        except (TypeError, ValueError) as e:
            unavailable.append(f"{k.implementation} {k.computed}: {str(e).splitlines()[0][:160]}")
            continue
        g = grade(k.function, k.format, base)
        wide = _actlut.format_shape(k.format)[0] > 256
        lengths, offsets = (QUICK_LENGTHS, QUICK_OFFSETS) if wide and not full else (tuple(DEFAULT_LENGTHS), DEFAULT_OFFSETS)
        run = k.runner or _each(k.call, k.format)
        position = _probe(k.function, k.format, base, run, lengths, offsets)
        rows.append(Row(k, g, g.hidden_by("torch"), position, time.perf_counter() - t0))
    return rows, unavailable


def cpu() -> str:
    """The CPU's model name."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _max(g: Any) -> str:
    if g.max_ulp is not None:
        return str(g.max_ulp)
    kinds = []
    if g.nan_for_number:
        kinds.append(f"{g.nan_for_number} NaN")
    if g.number_for_nan:
        kinds.append(f"{g.number_for_nan} not NaN")
    return f"{g.max_numeric_ulp}; " + ", ".join(kinds)


def table_text(rows: Sequence[Row], unavailable: Sequence[str], seconds: float) -> str:
    """The survey as a Markdown table."""
    lines = [
        f"actlut survey: {len(rows)} kernels graded on every input in {seconds:.1f} s; "
        f"{cpu()}, Python {platform.python_version()}",
        "",
        "| implementation | computed | function | format | wrong | max ulp | pass assert_close | position-dependent |",
        "|---|---|---|---|---:|---:|---:|---:|",
    ]
    for r in rows:
        g, k = r.grade, r.kernel
        lines.append(
            f"| {k.implementation} | {k.computed} | {k.function} | {k.format} | {g.mismatches:,} | "
            f"{_max(g)} | {r.hidden_by_torch:,} | {r.position.count:,} |"
        )
    lines += [
        "",
        "wrong: entries not correctly rounded, of 65,536 (f16, bf16), 256 (fp8), 64 (FP6) or 16 (FP4); "
        "max ulp: the largest error (with the NaN where a number is due, and numbers where NaN is due); "
        "pass assert_close: the wrong entries torch.testing.assert_close's default tolerance for the dtype passes; "
        f"position-dependent: inputs whose output changes with where they sit (f16 and bf16: alone and in arrays of "
        f"{', '.join(map(str, QUICK_LENGTHS[1:]))}; byte formats: every length 1 to 300 at 4 offsets).",
    ]
    if unavailable:
        lines += ["", "Not available:"] + [f"- {u}" for u in unavailable]
    return "\n".join(lines) + "\n"


def rows_json(rows: Sequence[Row]) -> str:
    """The survey as a JSON list of rows (the module doc)."""
    out = []
    for r in rows:
        d = r.grade.to_dict()
        d["implementation"] = r.kernel.implementation
        d["computed"] = r.kernel.computed
        d["hidden_by_torch"] = r.hidden_by_torch
        d["position_dependent"] = r.position.count
        d["position_nan_payloads_differ"] = r.position.nan_payloads_differ
        d["position_probe"] = {
            "lengths": list(r.position.lengths),
            "offsets": r.position.offsets,
            "calls": r.position.calls,
        }
        out.append(d)
    return json.dumps(out, indent=1) + "\n"


def main(argv: Optional[List[str]] = None) -> int:
    """``python -m actlut survey``: prints the table (or ``--json``); exit status 0."""
    p = argparse.ArgumentParser(
        prog="python -m actlut survey",
        description="Grade what the installed numpy, scipy, ml_dtypes and onnxruntime implement, "
        "on every input of every format they handle, computed in the format and in float32 then cast.",
    )
    p.add_argument("--json", action="store_true", help="print a JSON list of rows: Grade.to_dict() "
                   "with implementation, computed, hidden_by_torch, position_dependent, position_probe")
    p.add_argument("--full", action="store_true", help="probe position dependence of f16 and bf16 "
                   "kernels at every length 1 to 300 and 4 offsets (1.36 million calls per kernel instead "
                   "of 82,479: minutes rather than seconds)")
    p.add_argument("--function", action="append", metavar="NAME", help="only this function (repeatable)")
    p.add_argument("--format", action="append", metavar="NAME", help="only this format (repeatable)")
    a = p.parse_args(argv)
    try:
        functions = {_actlut.function_name(f) for f in a.function} if a.function else None
        formats = {_actlut.format_name(f) for f in a.format} if a.format else None
    except ValueError as e:
        p.error(str(e))

    def only(k: Kernel) -> bool:
        return (functions is None or k.function in functions) and (formats is None or k.format in formats)

    t0 = time.perf_counter()
    rows, unavailable = survey(a.full, only)
    elapsed = time.perf_counter() - t0
    sys.stdout.write(rows_json(rows) if a.json else table_text(rows, unavailable, elapsed))
    return 0
