#!/usr/bin/env python3
"""Error of TFLite / LiteRT's int16 LOGISTIC and TANH kernels against the exact tables.

Builds a one-operator int16 model for each op (input scale 2^-12, output scale 2^-15, zero
points 0: the TFLite 16x8 parameters), runs it on all 65,536 codes through LiteRT from pip with
the builtin kernels (with and without the default delegates) and the reference kernels, and
compares each output with `actlut quant` (ties away from zero, TFLite's rounding) code by code:
the maximum error in quantized units and the number of codes where it is not zero. Prints a
markdown table.

Usage: scripts/tflite_int16.py [--actlut PATH]
Needs: pip install ai-edge-litert numpy (the model is written with the flatbuffers schema that
ai-edge-litert ships).
"""

import argparse
import subprocess
import tempfile
from pathlib import Path

import flatbuffers
import numpy as np
from ai_edge_litert import schema_py_generated as S
from ai_edge_litert.interpreter import Interpreter, OpResolverType

ROOT = Path(__file__).resolve().parent.parent
IN_SCALE, OUT_SCALE = 2.0**-12, 2.0**-15


def model(op):
    """A model of one int16 operator over a [65536] tensor."""
    m = S.ModelT()
    m.version = 3
    oc = S.OperatorCodeT()
    oc.builtinCode = op
    oc.deprecatedBuiltinCode = op
    oc.version = 3
    m.operatorCodes = [oc]

    def tensor(name, scale, buf):
        t = S.TensorT()
        t.shape = [65536]
        t.type = S.TensorType.INT16
        t.buffer = buf
        t.name = name
        q = S.QuantizationParametersT()
        q.scale = [scale]
        q.zeroPoint = [0]
        t.quantization = q
        return t

    sg = S.SubGraphT()
    sg.tensors = [tensor(b"in", IN_SCALE, 1), tensor(b"out", OUT_SCALE, 2)]
    sg.inputs, sg.outputs = [0], [1]
    o = S.OperatorT()
    o.opcodeIndex, o.inputs, o.outputs = 0, [0], [1]
    sg.operators = [o]
    m.subgraphs = [sg]
    m.buffers = [S.BufferT(), S.BufferT(), S.BufferT()]
    b = flatbuffers.Builder(1024)
    b.Finish(m.Pack(b), file_identifier=b"TFL3")
    return bytes(b.Output())


def run(op, resolver, codes):
    it = Interpreter(model_content=model(op), experimental_op_resolver_type=resolver)
    it.allocate_tensors()
    it.set_tensor(it.get_input_details()[0]["index"], codes)
    it.invoke()
    return it.get_tensor(it.get_output_details()[0]["index"]).astype(np.int32)


def exact(actlut, fn, tmp):
    path = Path(tmp) / f"{fn}.bin"
    subprocess.run(
        [actlut, "quant", fn, "--in", "i16", "--scale", repr(IN_SCALE), "--zero-point", "0",
         "--out", "i16", "--out-scale", repr(OUT_SCALE), "--rounding", "ties-away",
         "--output", str(path)],
        check=True, stdout=subprocess.DEVNULL,
    )
    return np.frombuffer(path.read_bytes(), dtype=np.int16).astype(np.int32)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--actlut", default=None)
    a = ap.parse_args()
    actlut = a.actlut
    if actlut is None:
        subprocess.run(["cargo", "build", "-q", "-p", "actlut-cli"], cwd=ROOT, check=True)
        actlut = str(ROOT / "target" / "debug" / "actlut")
    import ai_edge_litert
    print(f"ai-edge-litert {getattr(ai_edge_litert, '__version__', '?')}, int16, input scale "
          "2^-12, output scale 2^-15, zero points 0, against actlut (ties away)")
    print()
    print("| kernel | op | codes wrong | max error (units) | errors of 1 | of 2 | of 3 or more |")
    print("|---|---|---|---|---|---|---|")
    codes = np.arange(65536, dtype=np.uint32).astype(np.uint16).view(np.int16)
    resolvers = [
        ("builtin", OpResolverType.BUILTIN),
        ("builtin, no default delegates", OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES),
        ("reference", OpResolverType.BUILTIN_REF),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        for fn, op in [("sigmoid", S.BuiltinOperator.LOGISTIC), ("tanh", S.BuiltinOperator.TANH)]:
            want = exact(actlut, fn, tmp)
            for label, resolver in resolvers:
                err = np.abs(run(op, resolver, codes) - want)
                name = "LOGISTIC" if fn == "sigmoid" else "TANH"
                print(f"| {label} | {name} | {int((err != 0).sum()):,} | {int(err.max())} | "
                      f"{int((err == 1).sum()):,} | {int((err == 2).sum()):,} | "
                      f"{int((err >= 3).sum()):,} |")


if __name__ == "__main__":
    main()
