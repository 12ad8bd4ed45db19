# ONNX Runtime against actlut on every code of 16-bit quantized activations:
# DequantizeLinear(int16/uint16) -> op -> QuantizeLinear, opset 21, plain and
# optimized. Every differing code is settled with exact arithmetic (the
# versions are pinned so that docs/quant16-ort.md can be compared), then
# LiteRT's int16 tables (docs/quant16.md). About
# 1-2 minutes, most of it pip.
set -euo pipefail
venv=target/ort-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q onnxruntime==1.32.0 onnx==1.23.2 numpy==2.4.6 mpmath==1.4.1
cargo build -p actlut-cli
# Fails if any differing code is settled against actlut. The page is compared
# but a difference only warns: ONNX Runtime's float kernels (MLAS) take
# CPU-dependent paths, so another CPU may differ on other codes (the page was
# written on an AMD Zen 5 with AVX-512).
"$venv/bin/python" scripts/ort_quant16.py --actlut target/debug/actlut \
  --markdown target/quant16-ort.md
if ! cmp -s target/quant16-ort.md docs/quant16-ort.md; then
  echo "warning: ONNX Runtime differs on other codes here than in docs/quant16-ort.md (all settled for actlut):"
  diff docs/quant16-ort.md target/quant16-ort.md | head -20 || true
fi

# TFLite / LiteRT's interpolated int16 LOGISTIC and TANH against the exact
# tables: the error table in docs/quant16.md must be what LiteRT gives now.
"$venv/bin/pip" install -q ai-edge-litert==2.3.0
"$venv/bin/python" scripts/tflite_int16.py --actlut target/debug/actlut 2>/dev/null \
  | grep '^| ' | grep -v -e '^| kernel' > target/tflite-rows.txt
[ -s target/tflite-rows.txt ] || { echo "scripts/tflite_int16.py printed no rows"; exit 1; }
while IFS= read -r row; do
  grep -qxF -- "$row" docs/quant16.md || { echo "docs/quant16.md lacks the row: $row"; exit 1; }
done < target/tflite-rows.txt
