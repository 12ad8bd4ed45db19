# Reproducible tables. The lock is the same when computed in debug and in
# release, from two checkout folders; for x86_64, wasm32-unknown-unknown and
# thumbv7em-none-eabihf builds; by the reference compiled to wasm32-wasip1 and
# run under node; and by the reference and the tables on big-endian s390x under
# qemu-user. `actlut audit` finds the embedded tables of those builds and checks
# them against the lock.
set -euo pipefail
root=$(pwd)

# --- what this step needs
rustup target add wasm32-unknown-unknown thumbv7em-none-eabihf wasm32-wasip1 wasm32-wasip2 \
  s390x-unknown-linux-gnu >/dev/null 2>&1
if ! command -v qemu-s390x >/dev/null || ! command -v s390x-linux-gnu-gcc >/dev/null; then
  sudo_cmd=""
  [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq \
    qemu-user gcc-s390x-linux-gnu libc6-dev-s390x-cross >/dev/null
fi
command -v node >/dev/null || { echo "node (20 or newer) is needed for the wasm32-wasip1 check"; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
lock="$root/tables/actlut.lock"
# Counts from the lock (one line per function × format, then one per derivative
# × format): every table, and the distinct ones (tables with equal bytes share
# one hash and one static); and the distinct function tables, which a build
# without the `derivatives` feature embeds.
tables=$(grep -vc '^#' "$lock")
distinct=$(grep -v '^#' "$lock" | awk '{ print $6 }' | sort -u | wc -l)
distinct_functions=$(grep -v '^#' "$lock" | awk '$2 !~ /_derivative$/ { print $6 }' | sort -u | wc -l)
# FP6 and FP4 tables (64 and 16 bytes) are found only where the file names them
# (its manifest): a binary without the manifest shows only the larger ones.

# The `actlut` command of this checkout, for the audits below.
cargo build -q --release -p actlut-cli
actlut="$root/target/release/actlut"

# audit_expect FILE DISTINCT [ORDER]: `actlut audit FILE` exits 0 (every table it
# finds is in the lock) and finds DISTINCT different tables (a static library
# may hold a table more than once: in its object code and its LLVM bitcode);
# with ORDER (le, be), every 16-bit table is stored in that byte order.
audit_expect() {
  local file=$1 distinct=$2 order=${3:-}
  local out json found
  out=$("$actlut" audit "$file") || { echo "$out"; echo "audit of $file failed"; exit 1; }
  echo "$out" | tail -n 1
  json=$("$actlut" audit --json "$file")
  # The tables found by content, and those verified at their declarations
  # only (identity, relu, relu6, hardtanh over f16 and bf16): each by its hash.
  found=$(echo "$json" | python3 -c '
import json, sys
lock = {l.split()[0]: l.split()[5] for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")}
hashes = set()
for f in json.load(sys.stdin)["files"]:
    hashes.update(t["sha256"] for t in f["tables"])
    hashes.update(lock[d["name"]] for d in f["declarations"] if d["problem"] is None and d["name"] in lock)
print(len(hashes))' "$lock")
  [ "$found" -eq "$distinct" ] \
    || { echo "$out"; echo "expected $distinct distinct tables in $file, found $found"; exit 1; }
  if [ -n "$order" ]; then
    local other=be
    [ "$order" = be ] && other=le
    if echo "$json" | grep -q "\"byte_order\": \"$other\""; then
      echo "$out"; echo "a table stored in $other order in $file"; exit 1
    fi
  fi
}

# Each phase's start, in seconds since the step began (the log shows where the time goes).
phase_start=$SECONDS
phase() {
  echo "--- ($((SECONDS - phase_start)) s) $*"
}

phase "two checkout folders, debug in one, release in the other"
# Both build the reference and print both locks. The tables a build of the
# crate embeds are checked twice: in a debug build of the library in
# checkout-one (its rlib audited: every distinct function table of the lock
# found, intact), and dumped by the release build of the main folder's `actlut`
# command (built above) and verified by sha256sum. So the embedded tables too
# come from two folders and both profiles, without building the command a
# second time.
for pair in "checkout-one:debug" "another/checkout-two:release"; do
  dir="$work/${pair%%:*}"
  profile="${pair##*:}"
  mkdir -p "$dir"
  git archive HEAD | tar -x -C "$dir"
  flag=""
  [ "$profile" = release ] && flag="--release"
  (
    cd "$dir"
    export CARGO_TARGET_DIR="$dir/target"
    cargo run -q $flag -p actlut-codegen --example print-lock > "$dir/lock.txt"
    cargo run -q $flag -p actlut-codegen --example print-lock -- --compact > "$dir/compact-lock.txt"
    cargo run -q $flag -p actlut-codegen --example print-lock -- --compact-words \
      > "$dir/compact-words-lock.txt"
    if [ "$profile" = debug ]; then
      cargo build -q -p actlut
    fi
  )
  diff -u "$lock" "$dir/lock.txt"
  diff -u "$root/tables/actlut-compact.lock" "$dir/compact-lock.txt"
  diff -u "$root/tables/actlut-compact-words.lock" "$dir/compact-words-lock.txt"
  echo "$profile build in $dir: lock and both compact locks identical"
done
audit_expect "$work/checkout-one/target/debug/libactlut.rlib" "$distinct_functions"
"$actlut" dump "$work/main-dump" > /dev/null
(cd "$work/main-dump" && sha256sum -c --quiet "$root/tables/SHA256SUMS")
echo "the $distinct distinct tables of the lock in a debug build in checkout-one, and $tables" \
  "tables dumped by a release build in $root, each verified by sha256sum"

phase "the audit on tampered and cut-off copies of a dumped table (exit status 1)"
# flip FILE OFFSET...: XOR 1 into the byte at each OFFSET, in place.
flip() {
  local file=$1 off v
  shift
  for off in "$@"; do
    v=$(od -An -tu1 -j "$off" -N1 "$file" | tr -d ' ')
    printf "\\$(printf %o $((v ^ 1)))" | dd of="$file" bs=1 seek="$off" conv=notrunc status=none
  done
}
# audit_fails FILE TEXT: `actlut audit FILE` exits 1 and prints TEXT.
audit_fails() {
  local out status=0
  out=$("$actlut" audit "$1") || status=$?
  [ "$status" -eq 1 ] && echo "$out" | grep -qF "$2" \
    || { echo "$out"; echo "expected exit 1 and '$2' for $1, got $status"; exit 1; }
  echo "$out" | sed -n 2p
}
cp "$work/main-dump/gelu_f16.bin" "$work/gelu-four.bin"
flip "$work/gelu-four.bin" 23520 32768 92256 98304
audit_fails "$work/gelu-four.bin" "MODIFIED: 4 of 65536 entries differ (entries 11760, 16384, 46128, 49152)"
cp "$work/main-dump/silu_fp8_e4m3.bin" "$work/silu-four.bin"
flip "$work/silu-four.bin" 32 64 144 192
audit_fails "$work/silu-four.bin" "MODIFIED: 4 of 256 entries differ (entries 32, 64, 144, 192)"
head -c 70000 "$work/main-dump/gelu_f16.bin" > "$work/gelu-cut.bin"
audit_fails "$work/gelu-cut.bin" "TRUNCATED: 70000 of 131072 bytes present"

phase "the audit's guarantee: decoys, the adaptive attack, manifest records, false reports"
# audit/tests: decoys.rs (an intact copy overlapping a tampered one never
# hides it), adaptive.rs (every 16-bit and 8-bit table stays reported until an
# adaptive attack has changed its hiding cost), docs.rs (docs/audit.md's
# hiding costs are derived), no_false_reports.rs, honest.rs (files over 64 MiB
# read in pieces), budget.rs (the 40 MiB floods), reports.rs (the schemas),
# headers.rs and memory.rs (nested containers, a 64 MiB symbol table),
# memory_files.rs (100 crafted files: one MAX_FOUND bound over all),
# evasions.rs (the earlier load-map evasions of wasm, object files and PE
# images, as files; an object's relocation linked with cc). The slow ones are ignored in plain `cargo test`: all run here, in release,
# but the adaptive attack in small steps (minutes).
# A known limit (docs/audit.md), skipped until fixed:
# slowly_rising_u16_arrays_hold_no_compact_form (a false report on sorted u16
# values).
cargo test -q --release -p actlut-audit -- --include-ignored \
  --skip the_adaptive_attack_in_small_steps_needs_at_least_the_hiding_cost \
  --skip slowly_rising_u16_arrays_hold_no_compact_form

phase "the actlut command: audit (declared tables, tampered builds), dump, quant, ulp, help"
# cli/tests: hundreds of whole audits of real builds, ignored in plain
# `cargo test` (debug) and run here in release; not the measurement. Among
# them evasions.rs: the earlier ELF load-map evasions, each run in a copy of a
# real program built with self-check and audited as a file, and the self-check
# rlibs (release) audited clean (the_self_check_rlibs_audit_clean); and memory.rs:
# the command's peak resident set on 100 MiB of near-copies of 8-bit tables.
cargo test -q --release -p actlut-cli -- --include-ignored \
  --skip measure_which_runs_of_real_tables_are_reported

phase "wasm32-unknown-unknown and thumbv7em-none-eabihf (build.rs checks every table against the lock)"
cargo build -q -p actlut --target wasm32-unknown-unknown
cargo build -q -p actlut --target thumbv7em-none-eabihf --no-default-features --features all,self-check
# The static libraries (rlibs) hold every function table ($distinct_functions
# distinct tables; no derivative table without `derivatives`), stored little-endian.
audit_expect target/wasm32-unknown-unknown/debug/libactlut.rlib "$distinct_functions" le
audit_expect target/thumbv7em-none-eabihf/debug/libactlut.rlib "$distinct_functions" le

phase "no false reports on the project's own artifacts (scripts/audit-sweep.sh)"
# Every rlib, object, static library, executable and wasm module this step's
# builds made so far (debug and release, x86_64, wasm32, thumbv7em), a wasm
# component from wasm32-wasip2, and an object GNU as writes with a .bss before
# the section of a declared table: each audited, none a problem.
cargo build -q --release -p actlut-codegen --example print-lock --target wasm32-wasip2
component=target/wasm32-wasip2/release/examples/print-lock.wasm
[ "$(head -c 8 "$component" | od -An -tx1 | tr -d ' \n')" = "0061736d0d000100" ] \
  || { echo "$component is not a wasm component"; exit 1; }
if command -v as >/dev/null; then
  "$actlut" dump "$work/sweep-dump" > /dev/null
  {
    echo '.bss'; echo '.zero 4096'; echo '.section .rodata.gelu,"a"'; echo '.balign 64'
    python3 - "$work/sweep-dump/gelu_fp8_e4m3.bin" <<'PY'
import hashlib, sys
t = open(sys.argv[1], "rb").read()
rec = b"ACTLUTDT" + bytes([1, 0, 1, 0]) + len(t).to_bytes(4, "little") + hashlib.sha256(t).digest()
rec += b"gelu_fp8_e4m3".ljust(32, b"\0") + bytes(48)
print(".byte " + ",".join(str(b) for b in rec + t))
PY
  } > "$work/gnu-as.s"
  mkdir -p "$work/sweep-objects"
  as -o "$work/sweep-objects/gnu-as.o" "$work/gnu-as.s"
fi
shopt -s nullglob
ACTLUT="$actlut" scripts/audit-sweep.sh target/release/actlut \
  target/{debug,release}/deps/libactlut*.{rlib,a,so} \
  target/{wasm32-unknown-unknown,thumbv7em-none-eabihf}/debug/deps/libactlut*.rlib \
  target/wasm32-wasip1/release/examples/*.wasm "$component" \
  "$work/checkout-one/target/debug/libactlut.rlib" "$work/sweep-objects"
shopt -u nullglob

phase "the reference compiled to wasm32-wasip1, run under node"
cargo build -q --release -p actlut-codegen --example print-lock --target wasm32-wasip1
node scripts/wasm-runner.mjs target/wasm32-wasip1/release/examples/print-lock.wasm \
  > "$work/wasip1-lock.txt"
diff -u "$lock" "$work/wasip1-lock.txt"
echo "wasm32-wasip1 under node $(node --version): lock identical"

phase "big-endian s390x under qemu-user"
export CARGO_TARGET_S390X_UNKNOWN_LINUX_GNU_LINKER=s390x-linux-gnu-gcc
export CARGO_TARGET_S390X_UNKNOWN_LINUX_GNU_RUNNER="qemu-s390x -L /usr/s390x-linux-gnu"
# The reference evaluator itself running big-endian: the same lock.
cargo run -q --release --target s390x-unknown-linux-gnu -p actlut-codegen --example print-lock \
  > "$work/s390x-lock.txt"
diff -u "$lock" "$work/s390x-lock.txt"
# The compaction too: the same stored forms, byte for byte, computed big-endian.
cargo run -q --release --target s390x-unknown-linux-gnu -p actlut-codegen --example print-lock \
  -- --compact > "$work/s390x-compact-lock.txt"
diff -u "$root/tables/actlut-compact.lock" "$work/s390x-compact-lock.txt"
cargo run -q --release --target s390x-unknown-linux-gnu -p actlut-codegen --example print-lock \
  -- --compact-words > "$work/s390x-compact-words-lock.txt"
diff -u "$root/tables/actlut-compact-words.lock" "$work/s390x-compact-words-lock.txt"
echo "s390x under qemu-user: lock and both compact locks identical"
# The lock and manifest tests of tests/tables (its modules `lock` and `audit_manifest`).
cargo test -q --target s390x-unknown-linux-gnu -p actlut --features self-check \
  --test tables -- lock:: audit_manifest::
s390x_test=$(cargo test -q --no-run --target s390x-unknown-linux-gnu -p actlut \
  --features self-check --test tables --message-format=json 2>/dev/null \
  | grep -o '"executable":"[^"]*"' | head -n 1 | cut -d'"' -f4)
file_kind=$(head -c 6 "$s390x_test" | od -An -tx1 | tr -d ' \n')
[ "$file_kind" = "7f454c460202" ] || { echo "$s390x_test is not a big-endian 64-bit ELF"; exit 1; }
# The test binary embeds every table, stored big-endian, each hashing to the lock;
# each table's declaration names it by its hash, so its FP6 and FP4 tables are
# found too (byte for byte).
audit_expect "$s390x_test" "$distinct_functions" be

phase "compact builds: the stored forms found intact, and tampered copies failing"
# audit_compact FILE COPIES [TOTAL]: `actlut audit FILE` exits 0 and finds
# gelu_bf16 in its compact stored form (the form labelled $form, `compact` by
# default), intact, COPIES times (a static library holds it in its object code
# and its LLVM bitcode), and TOTAL tables in all (default COPIES), the others
# gelu_bf16 in full, intact; sets form_at and form_len to the first copy's
# offset and length.
audit_compact() {
  local out json copies label=${form:-compact}
  out=$("$actlut" audit "$1") || { echo "$out"; echo "audit of $1 failed"; exit 1; }
  local total=${3:-$2}
  copies=$(grep -cE "^  0x[0-9a-f]+  gelu_bf16 \\($label\\) +u8  [0-9a-f]{64}  intact, in the lock\$" <<<"$out" || true)
  full=$(grep -cE '^  0x[0-9a-f]+  gelu_bf16 +le  [0-9a-f]{64}  intact, in the lock$' <<<"$out" || true)
  [ "$copies" -eq "$2" ] && [ $((copies + full)) -eq "$total" ] && grep -q "^audit: $total tables\? found" <<<"$out" \
    || { echo "$out"; echo "expected gelu_bf16 ($label) $2 times and nothing else in $1"; exit 1; }
  echo "$out" | sed -n 2p
  json=$("$actlut" audit --json "$1")
  read -r form_at form_len < <(python3 -c '
import json, sys
t = json.load(sys.stdin)["files"][0]["tables"][0]
print(t["offset"], t["bytes"])' <<<"$json")
}
# A test executable of a gelu,bf16,compact build (x86_64 ELF).
compact_bin=$(cargo test -q --no-run -p actlut --no-default-features --features compact,gelu,bf16 \
  --test compact_binary --message-format=json 2>/dev/null \
  | grep -o '"executable":"[^"]*"' | head -n 1 | cut -d'"' -f4)
audit_compact "$compact_bin" 1
elf_at=$form_at elf_len=$form_len
[ "$form_len" = "$(grep '^gelu_bf16 ' "$root/tables/actlut-compact.lock" | grep -o 'stored=[0-9]*' | cut -d= -f2)" ] \
  || { echo "the stored form in $compact_bin is $form_len bytes, not the compact lock's"; exit 1; }
# A decoy in the ELF: an intact copy of the stored form overlapping the last
# 2 bytes of a tampered one. The tampered one is still reported, at its offset.
dd if="$compact_bin" of="$work/form.bin" bs=1 skip="$elf_at" count="$elf_len" status=none
cp "$compact_bin" "$work/tampered"
flip "$work/tampered" $((elf_at + elf_len - 10))
dd if="$work/form.bin" of="$work/tampered" bs=1 seek=$((elf_at + elf_len - 2)) conv=notrunc status=none
audit_fails "$work/tampered" "MODIFIED"
out=$("$actlut" audit "$work/tampered" || true)
grep -q "^  $(printf '0x%08x' "$elf_at")  gelu_bf16 (compact) .* MODIFIED" <<<"$out" \
  || { echo "$out"; echo "the tampered form under the decoy is not reported"; exit 1; }
# The thumbv7em static library of a gelu,bf16,compact build.
CARGO_TARGET_DIR="$root/target/audit-compact" cargo build -q -p actlut \
  --target thumbv7em-none-eabihf --no-default-features --features compact,gelu,bf16
# A library holds the full table too (compact only adds; a binary links the form it reads).
audit_compact "$root/target/audit-compact/thumbv7em-none-eabihf/debug/libactlut.rlib" 2 4
# The wasm module of firmware/wasm (size-optimised, LTO, stripped), gelu on bf16.
(cd firmware/wasm && cargo build -q --release --features gelu-bf16,compact \
  --target-dir "$root/target/audit-compact")
wasm="$root/target/audit-compact/wasm32-unknown-unknown/release/actlut_wasm.wasm"
[ "$(head -c 4 "$wasm" | od -An -tx1 | tr -d ' \n')" = "0061736d" ] || { echo "$wasm is not wasm"; exit 1; }
audit_compact "$wasm" 1
echo "gelu,bf16,compact: test executable, thumbv7em rlib and $(wc -c < "$wasm")-byte wasm module each hold gelu_bf16 (compact), intact ($form_len bytes)"

# tamper_compact FILE AT LEN: copies of FILE whose stored form of LEN bytes at
# AT has one pool byte flipped, and its magic zeroed with a pool byte flipped
# (the search by content does not rely on the header), each a problem.
tamper_compact() {
  local file=$1 at=$2 len=$3
  cp "$file" "$work/tampered"
  flip "$work/tampered" $((at + len - 10))
  audit_fails "$work/tampered" "MODIFIED: 1 of $len bytes differ (pool 1;"
  cp "$file" "$work/tampered"
  printf '\0\0\0\0\0\0\0\0' | dd of="$work/tampered" bs=1 seek="$at" conv=notrunc status=none
  flip "$work/tampered" $((at + len - 10))
  audit_fails "$work/tampered" "MODIFIED: 9 of $len bytes differ (header 8, pool 1;"
}
# Tampered copies of the ELF and the wasm module.
tamper_compact "$compact_bin" "$elf_at" "$elf_len"
tamper_compact "$wasm" "$form_at" "$form_len"

# A test executable of a gelu,bf16,compact-words build: its words-layout form
# found intact (the words lock's length); one pool byte flipped, and the magic
# zeroed with a pool byte flipped, each a problem.
words_bin=$(cargo test -q --no-run -p actlut --no-default-features --features compact-words,gelu,bf16 \
  --test compact_binary --message-format=json 2>/dev/null \
  | grep -o '"executable":"[^"]*"' | head -n 1 | cut -d'"' -f4)
form=compact-words audit_compact "$words_bin" 1
[ "$form_len" = "$(grep '^gelu_bf16 ' "$root/tables/actlut-compact-words.lock" | grep -o 'stored=[0-9]*' | cut -d= -f2)" ] \
  || { echo "the stored form in $words_bin is $form_len bytes, not the words lock's"; exit 1; }
tamper_compact "$words_bin" "$form_at" "$form_len"
echo "gelu,bf16,compact-words: test executable holds gelu_bf16 (compact-words), intact ($form_len bytes); tampered copies fail"
# The substitution of docs/audit.md's exception 2 with another stored form: the
# declared words form replaced by the same table's bytes form (its record's
# length and hash rewritten, the rest of the static zeroed). The audit reads a
# valid declaration of an intact form; the program, whose view was built for
# the words form, checks the stored header in memory and refuses to decode.
"$actlut" dump "$work/dump-forms" >/dev/null
python3 - "$words_bin" "$work/substituted" "$work/dump-forms/compact/gelu_bf16.compact" <<'PY'
import hashlib, struct, sys
src, dst, form_path = sys.argv[1:4]
data = bytearray(open(src, "rb").read())
form = open(form_path, "rb").read()
name = b"gelu_bf16".ljust(32, b"\0")
rec = data.find(b"ACTLUTDT")
while rec >= 0 and not (data[rec + 48:rec + 80] == name and data[rec + 9] == 1):
    rec = data.find(b"ACTLUTDT", rec + 1)
assert rec >= 0, "no compact declaration of gelu_bf16"
old_len = struct.unpack_from("<I", data, rec + 12)[0]
assert len(form) < old_len
struct.pack_into("<I", data, rec + 12, len(form))
data[rec + 16:rec + 48] = hashlib.sha256(form).digest()
data[rec + 128:rec + 128 + old_len] = form + bytes(old_len - len(form))
open(dst, "wb").write(data)
PY
chmod +x "$work/substituted"
"$actlut" audit "$work/substituted" >/dev/null \
  || { "$actlut" audit "$work/substituted"; echo "the substitution is reported: docs/audit.md's exception 2 can say so"; exit 1; }
status=0
out=$("$work/substituted" 2>&1) || status=$?
[ "$status" -ne 0 ] && grep -q "stored header in memory is not the one its view was built from" <<<"$out" \
  || { echo "$out" | tail -20; echo "the program decoded a substituted compact form"; exit 1; }
echo "a substituted compact form (the other layout's) passes the audit, as docs/audit.md says, and the program refuses it"

# The firmware of firmware/ built with `compact`: the gelu + bf16 ELF holds
# gelu_bf16 (compact) alone and intact, the demo ELF its four 16-bit tables
# compact and its fp8 tables in full; a tampered copy fails.
fw_target="$root/target/audit-firmware"
(cd firmware && CARGO_TARGET_DIR="$fw_target" cargo build -q --release \
  --no-default-features --features compact,gelu-bf16 --bin gelu-bf16)
fw="$fw_target/thumbv7em-none-eabihf/release/gelu-bf16"
audit_compact "$fw" 1
cp "$fw" "$work/tampered"
printf '\0\0\0\0\0\0\0\0' | dd of="$work/tampered" bs=1 seek="$form_at" conv=notrunc status=none
flip "$work/tampered" $((form_at + form_len - 10))
audit_fails "$work/tampered" "MODIFIED: 9 of $form_len bytes differ (header 8, pool 1;"
(cd firmware && CARGO_TARGET_DIR="$fw_target" cargo build -q --release --features compact \
  --bin actlut-firmware)
out=$("$actlut" audit "$fw_target/thumbv7em-none-eabihf/release/actlut-firmware") \
  || { echo "$out"; echo "audit of the compact demo firmware failed"; exit 1; }
[ "$(grep -c ' (compact) .*  intact, in the lock$' <<<"$out")" -eq 4 ] \
  || { echo "$out"; echo "expected the demo firmware's four 16-bit tables compact and intact"; exit 1; }
echo "$out" | tail -n 1
phase "done"
