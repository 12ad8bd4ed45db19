#!/usr/bin/env python3
"""Writes ONNX Runtime's CPU outputs over every f16 input, in the layout
`actlut ulp` grades (every input in bit-pattern order, little-endian):

    python3 adapters/candle/scripts/ort_dumps.py DIR
    actlut ulp gelu f16 DIR/ort_gelu_f16.bin

Each file is one ONNX model of a single node (opset 20) over a float16 tensor
of all 65,536 inputs, run by onnxruntime's CPUExecutionProvider with its
default graph optimizations, as a float16 model would be.
Needs `pip install onnxruntime onnx numpy`.
"""
import sys
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper

OPS = [
    # (file stem, ONNX op, attributes)
    ("ort_gelu_f16", "Gelu", {}),
    ("ort_gelu_tanh_f16", "Gelu", {"approximate": "tanh"}),
    ("ort_sigmoid_f16", "Sigmoid", {}),
    ("ort_tanh_f16", "Tanh", {}),
]


def run(op, attrs, x):
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


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: ort_dumps.py DIR")
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    x = np.arange(65536, dtype=np.uint16).view(np.float16)
    for stem, op, attrs in OPS:
        y = run(op, attrs, x)
        assert y.dtype == np.float16 and y.size == 65536
        path = out / f"{stem}.bin"
        y.astype("<f2").tofile(path)
        print(path)
    print(f"onnxruntime {ort.__version__}, onnx {onnx.__version__}", file=sys.stderr)


if __name__ == "__main__":
    main()
