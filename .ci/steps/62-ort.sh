# ONNX Runtime against actlut on every code of 16-bit quantized activations:
# DequantizeLinear(int16/uint16) -> op -> QuantizeLinear, opset 21, plain and
# optimized. Every differing code is settled with exact arithmetic, and the
# settlements page docs/quant16-ort.md must be what the script writes (so the
# versions are pinned). Then LiteRT's int16 tables (docs/quant16.md). About
# 1-2 minutes, most of it pip.
set -euo pipefail
venv=target/ort-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q onnxruntime==1.32.0 onnx==1.23.2 numpy==2.4.6 mpmath==1.4.1
cargo build -p actlut-cli
"$venv/bin/python" scripts/ort_quant16.py --actlut target/debug/actlut \
  --markdown docs/quant16-ort.md --check

# TFLite / LiteRT's interpolated int16 LOGISTIC and TANH against the exact
# tables: the error table in docs/quant16.md must be what LiteRT gives now.
"$venv/bin/pip" install -q ai-edge-litert==2.3.0
"$venv/bin/python" scripts/tflite_int16.py --actlut target/debug/actlut 2>/dev/null \
  | grep '^| ' | grep -v -e '^| kernel' > target/tflite-rows.txt
[ -s target/tflite-rows.txt ] || { echo "scripts/tflite_int16.py printed no rows"; exit 1; }
while IFS= read -r row; do
  grep -qxF -- "$row" docs/quant16.md || { echo "docs/quant16.md lacks the row: $row"; exit 1; }
done < target/tflite-rows.txt
