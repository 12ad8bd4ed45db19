#!/usr/bin/env python3
"""ONNX Runtime against actlut on every code of 16-bit quantized activations.

For each case, an opset-21 graph DequantizeLinear(int16 or uint16) -> op -> QuantizeLinear
is run by ONNX Runtime on all 65,536 codes, once with every graph optimization disabled
("plain") and once with all enabled ("optimized"), and compared code by code with the table
`actlut quant` writes (ties to even, ONNX's rounding). Every differing code is settled with
exact arithmetic: the dequantized x is exact (a float32), f(x) is evaluated by mpmath at 256
bits (every value used lies much farther than its error from the rounding boundary it is
compared with, which the script asserts), rounded once to float32 by rational arithmetic, then
divided by the output scale exactly, rounded once to float32 (as the runtimes do), rounded half
to even and saturated. The script prints one line per case and one per settled code, and
exits 1 if any code is settled against actlut.

Usage: scripts/ort_quant16.py [--actlut PATH] [--markdown docs/quant16-ort.md [--check]]
Needs: pip install onnxruntime onnx numpy mpmath (the CI step installs them).
"""

import argparse
import subprocess
import sys
import tempfile
from fractions import Fraction
from pathlib import Path

import mpmath
import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper

mpmath.mp.prec = 256
ROOT = Path(__file__).resolve().parent.parent

# actlut function name -> (ONNX op, attributes, mpmath reference)
SQRT2 = mpmath.sqrt(2)


def gelu(x):
    return x * (1 + mpmath.erf(x / SQRT2)) / 2


def gelu_tanh(x):
    return x * (1 + mpmath.tanh(mpmath.sqrt(2 / mpmath.pi) * (x + mpmath.mpf("0.044715") * x**3))) / 2


def hardswish(x):
    return x * min(max(x + 3, 0), 6) / 6


OPS = {
    "identity": ("Identity", {}, lambda x: x),
    "sigmoid": ("Sigmoid", {}, lambda x: 1 / (1 + mpmath.exp(-x))),
    "tanh": ("Tanh", {}, mpmath.tanh),
    "hardswish": ("HardSwish", {}, hardswish),
    "gelu": ("Gelu", {}, gelu),
    "gelu_tanh": ("Gelu", {"approximate": "tanh"}, gelu_tanh),
    "erf": ("Erf", {}, mpmath.erf),
    "exp": ("Exp", {}, mpmath.exp),
    "softsign": ("Softsign", {}, lambda x: x / (1 + abs(x))),
    "softplus": ("Softplus", {}, lambda x: mpmath.log1p(mpmath.exp(x))),
    "elu": ("Elu", {}, lambda x: x if x > 0 else mpmath.expm1(x)),
}

# (function, input type, scale, zero point, output type, output scale, output zero point)
CASES = [
    ("sigmoid", "i16", 2**-12, 0, "i16", 2**-15, 0),
    ("tanh", "i16", 2**-12, 0, "i16", 2**-15, 0),
    ("identity", "i16", 2**-10, 0, "i16", 2**-9, 0),
    ("hardswish", "i16", 2**-10, 0, "i16", 2**-11, 0),
    ("gelu", "i16", 2**-12, 0, "i16", 2**-12, 0),
    ("gelu_tanh", "i16", 2**-12, 0, "i16", 2**-12, 0),
    ("erf", "i16", 2**-12, 0, "i16", 2**-15, 0),
    ("exp", "i16", 2**-12, 0, "u16", 2**-4, 0),
    ("softsign", "i16", 2**-12, 0, "i16", 2**-15, 0),
    ("softplus", "i16", 2**-12, 0, "i16", 2**-12, 0),
    ("elu", "i16", 2**-12, 0, "i16", 2**-12, 0),
    ("sigmoid", "u16", 0.001, 32768, "u16", 2**-16, 0),
    ("tanh", "u16", 0.001, 32768, "u16", 2**-15, 32768),
    ("gelu", "u16", 0.001, 32768, "i16", 0.001, -5),
    ("hardswish", "u16", 0.0005, 30000, "u16", 0.0005, 1000),
]

ONNX_TYPE = {"i16": TensorProto.INT16, "u16": TensorProto.UINT16}
NP_TYPE = {"i16": np.int16, "u16": np.uint16}
RANGE = {"i16": (-32768, 32767), "u16": (0, 65535)}


def f32(v):
    """The float32 nearest to a Python float (the scales are given to both runtimes as this
    float32's exact decimal expansion, so both use the same value)."""
    return np.float32(v)


def round_f32(fr):
    """A Fraction rounded once to nearest-even float32, as a Fraction (or +-inf as float)."""
    if fr == 0:
        return Fraction(0)
    neg = fr < 0
    a = -fr if neg else fr
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    q = max(e, -126) - 23
    n = a / Fraction(2) ** q
    fl = n.numerator // n.denominator
    rem = n - fl
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and fl % 2 == 1):
        fl += 1
    r = fl * Fraction(2) ** q
    if r > Fraction((2 - Fraction(1, 2**23))) * Fraction(2) ** 127:
        return float("-inf") if neg else float("inf")
    return -r if neg else r


def to_fraction(m):
    """An mpmath value as an exact Fraction."""
    sign, man, exp, _ = mpmath.mpf(m)._mpf_
    if man == 0:
        return Fraction(0)
    f = Fraction(int(man)) * Fraction(2) ** int(exp)
    return -f if sign else f


def round_half_even(v):
    fl = v.numerator // v.denominator
    rem = v - fl
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and fl % 2 == 1):
        fl += 1
    return fl


def settle(case, q):
    """The exact pipeline at code value q: (x, f(x) as mpf, y float32, v float32, output)."""
    fn, inp, s, zp, out, os_, ozp = case
    x = round_f32(Fraction(q - zp) * Fraction(float(f32(s))))
    fx = OPS[fn][2](mpmath.mpf(x.numerator) / x.denominator)
    fr = to_fraction(fx)
    y = round_f32(fr)
    # mpmath's value is within 2^-240 (relative) of f(x): the rounding must not change
    # anywhere in that interval (exact values such as f(0) and the identity are exact).
    eps = Fraction(1, 2**220)
    assert round_f32(fr * (1 + eps)) == y == round_f32(fr * (1 - eps)), (fn, q)
    lo, hi = RANGE[out]
    if isinstance(y, float):
        n = hi if y > 0 else lo
        return x, fx, y, y, n
    v = round_f32(y / Fraction(float(f32(os_))))
    if isinstance(v, float):
        n = hi if v > 0 else lo
    else:
        n = max(lo, min(hi, round_half_even(v) + ozp))
    return x, fx, y, v, n


def graph(case, with_quantize=True):
    fn, inp, s, zp, out, os_, ozp = case
    op, attrs, _ = OPS[fn]
    nodes = [
        helper.make_node("DequantizeLinear", ["q", "s", "zp"], ["x"]),
        helper.make_node(op, ["x"], ["y"], **attrs),
    ]
    inits = [
        helper.make_tensor("s", TensorProto.FLOAT, [], [f32(s)]),
        helper.make_tensor("zp", ONNX_TYPE[inp], [], [zp]),
    ]
    if with_quantize:
        nodes.append(helper.make_node("QuantizeLinear", ["y", "os", "ozp"], ["r"]))
        inits += [
            helper.make_tensor("os", TensorProto.FLOAT, [], [f32(os_)]),
            helper.make_tensor("ozp", ONNX_TYPE[out], [], [ozp]),
        ]
        outputs = [helper.make_tensor_value_info("r", ONNX_TYPE[out], [65536])]
    else:
        outputs = [helper.make_tensor_value_info("y", TensorProto.FLOAT, [65536])]
    g = helper.make_graph(
        nodes,
        "q16",
        [helper.make_tensor_value_info("q", ONNX_TYPE[inp], [65536])],
        outputs,
        inits,
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 21)])
    m.ir_version = 10
    onnx.checker.check_model(m)
    return m.SerializeToString()


def run(model, codes, optimized):
    so = ort.SessionOptions()
    so.graph_optimization_level = (
        ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        if optimized
        else ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    )
    sess = ort.InferenceSession(model, so, providers=["CPUExecutionProvider"])
    return sess.run(None, {"q": codes})[0]


def actlut_table(actlut, case, tmp):
    fn, inp, s, zp, out, os_, ozp = case
    path = Path(tmp) / "t.bin"
    subprocess.run(
        [actlut, "quant", fn, "--in", inp, "--scale", repr(float(f32(s))), "--zero-point", str(zp),
         "--out", out, "--out-scale", repr(float(f32(os_))), "--out-zero-point", str(ozp),
         "--output", str(path)],
        check=True, stdout=subprocess.DEVNULL,
    )
    return np.frombuffer(path.read_bytes(), dtype=NP_TYPE[out])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--actlut", default=None, help="the actlut binary (default: build it)")
    ap.add_argument("--markdown", metavar="FILE", help="write the settlements page to FILE")
    ap.add_argument("--check", action="store_true", help="with --markdown: fail if FILE differs")
    a = ap.parse_args()
    actlut = a.actlut
    if actlut is None:
        subprocess.run(["cargo", "build", "-q", "-p", "actlut-cli"], cwd=ROOT, check=True)
        actlut = str(ROOT / "target" / "debug" / "actlut")
    print(f"onnxruntime {ort.__version__}, onnx {onnx.__version__}, opset 21")
    against_actlut = 0
    rows = []
    summary = []
    with tempfile.TemporaryDirectory() as tmp:
        for case in CASES:
            fn, inp, s, zp, out, os_, ozp = case
            codes = np.arange(65536, dtype=np.uint32).astype(np.uint16).view(NP_TYPE[inp])
            ours = actlut_table(actlut, case, tmp)
            y_ort = run(graph(case, False), codes, False)
            line = f"{fn} {inp} scale {s!r} zp {zp} -> {out} scale {os_!r} zp {ozp}:"
            counts = []
            outs = [run(graph(case), codes, optimized) for optimized in (False, True)]
            same = bool(np.array_equal(outs[0], outs[1]))
            for optimized, theirs in zip((False, True), outs):
                diff = np.nonzero(theirs != ours)[0]
                counts.append(len(diff))
                line += f" {'optimized' if optimized else 'plain'} {len(diff)} differ;"
                if optimized and same:
                    continue  # the same outputs: settled once, as "both"
                mode = "both" if same else ("optimized" if optimized else "plain")
                for i in diff:
                    q = int(codes[i])
                    x, fx, y, v, n = settle(case, q)
                    winner = "actlut" if n == int(ours[i]) else ("ORT" if n == int(theirs[i]) else "neither")
                    if winner != "actlut":
                        against_actlut += 1
                    rows.append((fn, inp, out, mode, q, float(x),
                                 mpmath.nstr(fx, 20), float(y), float(y_ort[i]),
                                 float(v) if not isinstance(v, float) else v,
                                 int(ours[i]), int(theirs[i]), n, winner))
            print(line + (" the same outputs" if same else " different outputs"))
            summary.append((fn, inp, s, zp, out, os_, ozp, counts[0], counts[1], same))
    for r in rows:
        (fn, inp, out, mode, q, x, fx, y, yo, v, ours, theirs, n, winner) = r
        print(f"  {fn} {inp}->{out} {mode} q={q}: x={x!r} f(x)={fx} y_f32={y!r} "
              f"y_ort={yo!r} v={v!r}: actlut {ours}, ORT {theirs}, exact {n} ({winner})")
    print(f"{len(rows)} differing codes, {against_actlut} settled against actlut")
    if a.markdown:
        md = markdown(summary, rows)
        if a.check:
            if Path(a.markdown).read_text() != md:
                print(f"{a.markdown} is not what the script writes: run it with --markdown {a.markdown}")
                sys.exit(1)
        else:
            Path(a.markdown).write_text(md)
    sys.exit(1 if against_actlut else 0)


def markdown(summary, rows):
    """The settlements page."""
    out = [
        "<!-- \x40generated by scripts/ort_quant16.py --markdown docs/quant16-ort.md: "
        "edit the script and rerun it instead of editing this file. -->",
        "",
        "# ONNX Runtime against actlut on 16-bit quantized activations",
        "",
        f"ONNX Runtime {ort.__version__} (CPU execution provider, pip), onnx {onnx.__version__}, "
        "opset 21: DequantizeLinear → op → QuantizeLinear over all 65,536 codes, with every "
        "graph optimization disabled (plain) and enabled (optimized), against `actlut quant` "
        "(ties to even). Every differing code is settled with exact arithmetic "
        "(`scripts/ort_quant16.py`: x exact, f(x) by mpmath at 256 bits, each rounding "
        "checked to be decided, the quotient rounded to float32 as both runtimes do, then half "
        "to even). Columns: x the dequantized value, y the correctly rounded float32 f(x), "
        "ORT y what ONNX Runtime's float op returned, v = y / out_scale in float32.",
        "",
        "| function | types | input scale, zp | output scale, zp | differ, plain | differ, optimized | plain = optimized |",
        "|---|---|---|---|---|---|---|",
    ]
    for (fn, inp, s, zp, o, os_, ozp, plain, opt, same) in summary:
        out.append(f"| {fn} | {inp} → {o} | {float(f32(s))!r}, {zp} | {float(f32(os_))!r}, {ozp} | {plain} | {opt} | {'yes' if same else 'no'} |")
    against = sum(1 for r in rows if r[-1] != "actlut")
    out += [
        "",
        f"{len(rows)} differing codes listed below (mode `both`: the plain and optimized outputs "
        f"are the same); {against} settled against actlut. In each, ONNX Runtime's float32 op "
        "returned a y other than the correctly rounded one, and the quotient v lies close "
        "enough to a rounding boundary (a half-integer) for that to change the integer.",
        "",
        "| function | types | mode | code | x | f(x) | y | ORT y | v | actlut | ORT | settled |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for (fn, inp, o, mode, q, x, fx, y, yo, v, ours, theirs, n, winner) in rows:
        out.append(f"| {fn} | {inp}→{o} | {mode} | {q} | {x!r} | {fx} | {y!r} | {yo!r} | {v!r} | {ours} | {theirs} | {winner} |")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    main()
