#!/usr/bin/env bash
# Flash and .wasm sizes of the one-function builds, with full tables, with the
# `compact` feature and with `compact-words`:
#   scripts/sizes.sh
# For each build (gelu + f16, gelu + bf16, sigmoid + tanh + bf16) and each form:
# - flash: the firmware binary of that name in firmware/ (thumbv7em-none-eabihf,
#   release: opt-level "s", LTO, one codegen unit), built with only its actlut
#   features; flash is text + data as `llvm-size` counts them (.vector_table,
#   .text, .rodata, .data), and the table data is the sum of the sizes of the
#   symbols in `actlut::tables` (`llvm-nm -S`). The binary also carries what the
#   qemu test needs: semihosting output and an on-device SHA-256;
# - .wasm: firmware/wasm (wasm32-unknown-unknown, release: opt-level "s", LTO,
#   one codegen unit, panic=abort, stripped, no wasm-opt), exporting the
#   build's functions; every export is checked under node on every input
#   against tables/actlut.lock (scripts/wasm-check.mjs).
# Then sigmoid-i16 (an int16 TFLite 16x8 sigmoid the firmware's build script
# builds in the spline stored form, whatever `compact` says): its flash, and as
# table data the stored form's bytes (the file build.rs writes); no .wasm.
# Prints a Markdown table. Needs the thumbv7em-none-eabihf and
# wasm32-unknown-unknown targets, node, and llvm-size and llvm-nm (on the PATH,
# or `rustup component add llvm-tools`). The firmware builds go to
# firmware/target/sizes, so the CI's ELF files are left alone.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

llvm_tool() { # NAME: from the PATH, else from rustup's llvm-tools
  if command -v "$1" >/dev/null 2>&1; then
    command -v "$1"
    return
  fi
  local host bin
  host=$(rustc -vV | sed -n 's/^host: //p')
  bin="$(rustc --print sysroot)/lib/rustlib/$host/bin/$1"
  if [ -x "$bin" ]; then
    echo "$bin"
    return
  fi
  echo "$1 not found: install it, or run \`rustup component add llvm-tools\`" >&2
  exit 1
}
size_tool=$(llvm_tool llvm-size)
nm_tool=$(llvm_tool llvm-nm)

builds=(gelu-f16 gelu-bf16 sigmoid-tanh-bf16)
out=$root/firmware/target/sizes/out
mkdir -p "$out"

for build in "${builds[@]}"; do
  for form in full compact compact-words; do
    features=$build
    [ "$form" = full ] || features="$build,$form"
    echo "--- $build, $form" >&2
    (
      cd firmware
      cargo build -q --release --no-default-features --features "$features" \
        --bin "$build" --target-dir target/sizes
    )
    cp "firmware/target/sizes/thumbv7em-none-eabihf/release/$build" "$out/$build-$form.elf"
    (
      cd firmware/wasm
      cargo build -q --release --features "$features"
    )
    cp firmware/wasm/target/wasm32-unknown-unknown/release/actlut_wasm.wasm "$out/$build-$form.wasm"
    node scripts/wasm-check.mjs "$out/$build-$form.wasm" tables/actlut.lock >&2
  done
done

quant16_builds=(sigmoid-i16)
for build in "${quant16_builds[@]}"; do
  echo "--- $build, spline" >&2
  (
    cd firmware
    cargo build -q --release --no-default-features --features "$build" \
      --bin "$build" --target-dir target/sizes
  )
  cp "firmware/target/sizes/thumbv7em-none-eabihf/release/$build" "$out/$build-spline.elf"
  # The newest build-script output of the firmware: the one of this build.
  spline=$(ls -t firmware/target/sizes/thumbv7em-none-eabihf/release/build/actlut-firmware-*/out/*.spline | head -1)
  cp "$spline" "$out/$build.spline"
done

echo "| build | form | flash, thumbv7em | of which table data | .wasm |"
echo "|---|---|---:|---:|---:|"
for build in "${builds[@]}"; do
  for form in full compact compact-words; do
    elf=$out/$build-$form.elf
    flash=$("$size_tool" --format=berkeley "$elf" | awk 'NR == 2 { print $1 + $2 }')
    tables=0
    while read -r _ size _ name; do
      case $name in *6actlut6tables*) tables=$((tables + 16#$size)) ;; esac
    done < <("$nm_tool" -S "$elf")
    wasm=$(wc -c <"$out/$build-$form.wasm")
    printf '| %s | %s | %s | %s | %s |\n' "$build" "$form" "$flash" "$tables" "$wasm"
  done
done
for build in "${quant16_builds[@]}"; do
  flash=$("$size_tool" --format=berkeley "$out/$build-spline.elf" | awk 'NR == 2 { print $1 + $2 }')
  printf '| %s | spline | %s | %s | — |\n' "$build" "$flash" "$(wc -c <"$out/$build.spline")"
done
