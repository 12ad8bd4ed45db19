# ONNX Runtime against actlut on every code of 16-bit quantized activations:
# DequantizeLinear(int16/uint16) -> op -> QuantizeLinear, opset 21, plain and
# optimized. Every differing code is settled with exact arithmetic, and the
# settlements page docs/quant16-ort.md must be what the script writes (so the
# versions are pinned). About 1 minute, most of it pip.
set -euo pipefail
venv=target/ort-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q onnxruntime==1.32.0 onnx==1.23.2 numpy==2.4.6 mpmath==1.4.1
cargo build -p actlut-cli
"$venv/bin/python" scripts/ort_quant16.py --actlut target/debug/actlut \
  --markdown docs/quant16-ort.md --check
