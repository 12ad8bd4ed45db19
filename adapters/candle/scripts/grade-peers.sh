#!/usr/bin/env bash
# Grades other implementations with `actlut ulp` and writes the section
# "Graded by `actlut ulp`" at the end of docs/accuracy.md (from its marker
# line on; peers/scripts/accuracy.sh writes and keeps the part above it).
#
#   adapters/candle/scripts/grade-peers.sh           rewrite the section
#   adapters/candle/scripts/grade-peers.sh --check   fail if the committed
#                                                    section differs from a fresh run
#
# The dumps come from `cargo run --release -p actlut-candle --example peer_dumps -- DIR`
# (candle-core's CPU ops, ggml's f16 GELU table formula) and
# adapters/candle/scripts/ort_dumps.py (ONNX Runtime, installed from pip into
# target/grade-peers-venv) and peers/'s `tract-dump` (tract-linalg, which the
# peers project builds anyway); each row is
# `actlut ulp FUNCTION FORMAT DIR/FILE --json`.
#
# The dumps are built with cargo's release profile, or the one ACTLUT_PROFILE
# names (CI's 43-candle uses `dev`, sharing the step's debug build: the
# outputs are the same bits in any profile).
set -euo pipefail
cd "$(dirname "$0")/../../.."

check=no
case "${1:-}" in
  "") ;;
  --check) check=yes ;;
  *) echo "usage: adapters/candle/scripts/grade-peers.sh [--check]" >&2; exit 2 ;;
esac

marker='<!-- graded-by-actlut-ulp: written by adapters/candle/scripts/grade-peers.sh; do not edit -->'
dumps=$(mktemp -d)
section=$(mktemp)
trap 'rm -rf "$dumps" "$section"' EXIT

profile=${ACTLUT_PROFILE:-release}
# The folder cargo writes that profile's output to.
profile_dir=$profile
[ "$profile" = dev ] && profile_dir=debug
cargo run --profile "$profile" --quiet -p actlut-candle --example peer_dumps -- "$dumps" > /dev/null
# ONNX Runtime from pip, pinned, in a virtual environment under target/.
venv=${CARGO_TARGET_DIR:-target}/grade-peers-venv
if ! "$venv/bin/python" -c "import onnxruntime" 2> /dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet onnxruntime==1.32.0 onnx==1.23.2 numpy==2.4.6
fi
"$venv/bin/python" adapters/candle/scripts/ort_dumps.py "$dumps" > /dev/null 2>&1
# tract-linalg, from the peers project (tract stays out of the workspace). Built
# as 42-peers's `cargo test` builds it, the same features resolved (a `cargo
# run --bin` would leave out the dev-dependencies' features and build candle
# again): whichever of the two steps comes first builds it, and the other finds
# it built.
peers_target=${CARGO_TARGET_DIR:-peers/target}
if [ "$profile" = dev ]; then
  cargo test --quiet --manifest-path peers/Cargo.toml --no-run
else
  cargo test --profile "$profile" --quiet --manifest-path peers/Cargo.toml --no-run
fi
tract_kernel=$("$peers_target/$profile_dir/tract-dump" "$dumps/tract_gelu_f16.bin" 2>&1 >/dev/null \
  | sed -n 's/^tract-linalg f16 GELU kernel: //p')
[ -n "$tract_kernel" ] || { echo "peers/'s tract-dump did not name its kernel" >&2; exit 1; }
cargo build --quiet -p actlut-cli
ulp=${CARGO_TARGET_DIR:-target}/debug/actlut

# implementation | what it computes | file | graded as (function) | format
rows=(
  "candle gelu_erf|candle-core 0.11 \`Tensor::gelu_erf\`|candle_gelu_erf_f16|gelu|f16"
  "candle gelu_erf|candle-core 0.11 \`Tensor::gelu_erf\`|candle_gelu_erf_bf16|gelu|bf16"
  "candle gelu|candle-core 0.11 \`Tensor::gelu\` (tanh form)|candle_gelu_f16|gelu|f16"
  "candle gelu|candle-core 0.11 \`Tensor::gelu\` (tanh form)|candle_gelu_bf16|gelu|bf16"
  "candle gelu|candle-core 0.11 \`Tensor::gelu\` (tanh form)|candle_gelu_f16|gelu_tanh|f16"
  "candle gelu|candle-core 0.11 \`Tensor::gelu\` (tanh form)|candle_gelu_bf16|gelu_tanh|bf16"
  "candle silu|candle-core 0.11 \`Tensor::silu\`|candle_silu_f16|silu|f16"
  "candle silu|candle-core 0.11 \`Tensor::silu\`|candle_silu_bf16|silu|bf16"
  "candle tanh|candle-core 0.11 \`Tensor::tanh\`|candle_tanh_f16|tanh|f16"
  "candle tanh|candle-core 0.11 \`Tensor::tanh\`|candle_tanh_bf16|tanh|bf16"
  "ggml gelu|ggml's \`ggml_table_gelu_f16\` formula (tanh form in f32)|ggml_gelu_f16|gelu|f16"
  "ggml gelu|ggml's \`ggml_table_gelu_f16\` formula (tanh form in f32)|ggml_gelu_f16|gelu_tanh|f16"
  "tract gelu|tract-linalg 0.23.9 \`Func::Gelu.ew_f16()\` (tanh form; kernel \`$tract_kernel\`)|tract_gelu_f16|gelu|f16"
  "tract gelu|tract-linalg 0.23.9 \`Func::Gelu.ew_f16()\` (tanh form; kernel \`$tract_kernel\`)|tract_gelu_f16|gelu_tanh|f16"
  "ONNX Runtime Gelu|onnxruntime 1.32.0 CPU, \`Gelu\` (opset 20)|ort_gelu_f16|gelu|f16"
  "ONNX Runtime Gelu tanh|onnxruntime 1.32.0 CPU, \`Gelu\` with \`approximate=\"tanh\"\`|ort_gelu_tanh_f16|gelu_tanh|f16"
  "ONNX Runtime Sigmoid|onnxruntime 1.32.0 CPU, \`Sigmoid\`|ort_sigmoid_f16|sigmoid|f16"
  "ONNX Runtime Tanh|onnxruntime 1.32.0 CPU, \`Tanh\`|ort_tanh_f16|tanh|f16"
)

{
  echo "$marker"
  cat <<'HEAD'

## Graded by `actlut ulp`

Each row is what `actlut ulp FUNCTION FORMAT FILE` (docs/ulp.md) says of an
implementation's outputs over all 65,536 inputs, against actlut's correctly
rounded table of FUNCTION. The files come from

```sh
cargo run --release -p actlut-candle --example peer_dumps -- DIR
```

(`adapters/candle/examples/peer_dumps.rs`: candle-core's CPU ops on a tensor of
every input, and ggml's f16 GELU table built by its published formula,
`0.5f*x*(1.0f + tanhf(0.7978845608f*x*(1.0f + 0.044715f*x*x)))` in `f32`, rounded
once to f16) and

```sh
pip install onnxruntime==1.32.0 onnx==1.23.2 numpy==2.4.6
python3 adapters/candle/scripts/ort_dumps.py DIR
```

(one-node ONNX models, opset 20, over a float16 tensor of every input, run by
ONNX Runtime's CPU provider with its default graph optimizations, as a float16
model would be). The tanh-form rows are graded twice: against the exact GELU (what
they stand for) and against the exact tanh form `gelu_tanh` (their own
arithmetic error). **wrong** counts every entry that is not correctly rounded
(these counts agree with the table above where both grade the same peer);
**max ulps** is the largest error between two numbers, in ordinal steps (`−0`
and `+0` one step apart); **NaN↔number** the entries that are NaN where a
number is due or the reverse (each makes `actlut ulp`'s `max_ulp` unbounded);
**histogram** the wrong numeric entries by distance. candle's `silu`, `gelu`
and `tanh` and the ggml formula call the platform's `expf`/`tanhf`
(glibc here), so those rows may differ on other C libraries. tract-linalg picks
its kernel by the CPU's features (the row names the one it ran: AVX-512 here),
so its row may differ on another CPU; it comes from

```sh
cargo run --release --manifest-path peers/Cargo.toml --bin tract-dump -- DIR/tract_gelu_f16.bin
```

(in the peers project, so tract never enters actlut's dependency tree).
PyTorch is not graded: its CPU wheel is too large for CI.

| implementation | graded as | format | wrong | max ulps | NaN↔number | histogram (ulps: entries) | worst input | gives | correct | exact value | command |
|---|---|---|---:|---:|---:|---|---|---|---|---|---|
HEAD
  for row in "${rows[@]}"; do
    IFS='|' read -r name what file function format <<< "$row"
    set +e
    json=$("$ulp" ulp "$function" "$format" "$dumps/$file.bin" --json --worst 50)
    status=$?
    set -e
    [ "$status" -le 1 ] || { echo "actlut ulp failed on $file" >&2; exit 1; }
    python3 - "$name" "$what" "$function" "$format" "$file" <<PY
import json, sys
name, what, function, fmt, file = sys.argv[1:]
g = json.loads('''$json''')
def buckets(h):
    out = []
    for e in h:
        d, n = e["ulps"], e["count"]
        lo, hi = (d, d) if d <= 2 else ((1 << (d - 1).bit_length() - 1) + 1, 1 << (d - 1).bit_length())
        if out and out[-1][0] == lo:
            out[-1][2] += n
        else:
            out.append([lo, hi, n])
    return ", ".join(f"{lo}: {n:,}" if lo == hi else f"{lo}–{hi}: {n:,}" for lo, hi, n in out) or "–"
worst = next((w for w in g["worst"] if w["kind"] == "ulps"), None)
if worst:
    cells = [f"{worst['input_value']} (\`{worst['input']}\`)", f"{worst['got_value']} (\`{worst['got']}\`)",
             f"{worst['correct_value']} (\`{worst['correct']}\`)", worst["exact"]]
else:
    cells = ["–"] * 4
nan = g["nan_for_number"] + g["number_for_nan"]
row = [f"{name}: {what}", f"\`{function}\`", fmt, f"{g['mismatches']:,}", str(g["max_numeric_ulp"]),
       str(nan), buckets(g["histogram"])] + cells + [f"\`actlut ulp {function} {fmt} DIR/{file}.bin\`"]
print("| " + " | ".join(row) + " |")
PY
  done
} > "$section"

doc=docs/accuracy.md
if [ "$check" = yes ]; then
  committed=$(mktemp)
  sed -n "\|^$marker\$|,\$p" "$doc" > "$committed"
  # tract-linalg picks its kernel by the CPU's features, and the rows name
  # it: rows of another kernel than the committed one's are not compared.
  kernels() { grep -o 'kernel `[^`]*`' "$1" | sort -u | tr '\n' ' '; }
  if [ "$(kernels "$committed")" != "$(kernels "$section")" ]; then
    echo "tract-linalg ran $(kernels "$section")on this CPU; the committed tract rows are for" \
      "$(kernels "$committed")(another CPU): they are not compared"
    sed -i '/^| tract gelu:/d' "$committed" "$section"
  fi
  if ! diff -u "$committed" "$section"; then
    echo "the graded section of $doc differs from a fresh run (diff above):" \
      "run adapters/candle/scripts/grade-peers.sh and commit the result" >&2
    exit 1
  fi
  echo "the graded section of $doc is up to date"
  exit 0
fi
head=$(mktemp)
sed "\|^$marker\$|,\$d" "$doc" > "$head"
# One blank line between the generated table above and this section.
sed -i -e :a -e '/^\n*$/{$d;N;ba' -e '}' "$head"
{ cat "$head"; echo; cat "$section"; } > "$doc"
rm -f "$head"
echo "wrote the graded section of $doc"
