//! The Cortex-M4 firmware in `firmware/`, run under qemu, against the host.
//!
//! `.ci/steps/50-embedded.sh` builds the firmware twice, with full tables and
//! with actlut's `compact` feature, and runs these tests with
//! `ACTLUT_FIRMWARE_DIR` set to the directory of the full build's ELF files
//! (`firmware/target/thumbv7em-none-eabihf/release`) and
//! `ACTLUT_FIRMWARE_COMPACT_DIR` to a copy of the compact build's. Then, for
//! every binary (the demo and the one-function builds) in both forms:
//!
//! - every result the device prints equals the host's, bit for bit (the host
//!   test computes with the full tables and the computed path, which must
//!   agree), and every table hash it computes equals the lock in
//!   `tables/actlut.lock`; a compact firmware also hashes each stored form on
//!   the device, against `tables/actlut-compact.lock`. A difference fails with
//!   a diff naming the function, format and input;
//! - the `sigmoid-i16` binary, a fused int16 table the firmware builds itself
//!   rather than one of `tables/actlut.lock`, has its own checker (module
//!   `firmware_quant16`): every code against `actlut::quant16` at run time;
//! - qemu must exit within a bound (`ACTLUT_QEMU_TIMEOUT_SECS`, 60 s by default),
//!   or the test fails;
//! - the ELF's table bytes are exactly the tables its code uses: full tables
//!   in the full build; in the compact build one valid stored form per 16-bit
//!   table used (found by its magic, validated, hashed), no full 16-bit table,
//!   and for `gelu-bf16` at most 16 KiB of table data.
//!
//! The tests that need the firmware are `#[ignore]`d with the reason, so that a
//! plain `cargo test` needs neither qemu nor the ARM target and reports them as
//! ignored, never as passed; `.ci/steps/50-embedded.sh` runs them with
//! `--include-ignored`. Run that way, an unset directory variable, a missing
//! qemu or a missing ELF is a failure. The checks of the checker itself (a wrong
//! output, a wrong hash, a hang) always run.
#![cfg(not(target_os = "wasi"))] // spawns qemu

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use actlut::BuiltinTables;
use actlut::Function;
use actlut_codegen::compact::CompactRef;
use actlut_codegen::record::DECLARATION_BYTES;
use actlut_codegen::{lock, Format};

mod binary_scan;
mod firmware_quant16;

use binary_scan::{full_tables_in, stored_form_name, stored_forms};
use support::compact_lock_entries;

/// The tables the demo firmware (`firmware/src/main.rs`) uses.
const DEMO_TABLES: [&str; 6] = [
    "gelu_f16",
    "tanh_f16",
    "sigmoid_bf16",
    "gelu_bf16",
    "gelu_fp8_e4m3",
    "sigmoid_fp8_e5m2",
];

/// The one table `firmware/src/bin/gelu_f16.rs` uses.
const GELU_F16_TABLES: [&str; 1] = ["gelu_f16"];

/// The one table `firmware/src/bin/gelu_bf16.rs` uses.
const GELU_BF16_TABLES: [&str; 1] = ["gelu_bf16"];

/// The tables `firmware/src/bin/sigmoid_tanh_bf16.rs` uses.
const SIGMOID_TANH_BF16_TABLES: [&str; 2] = ["sigmoid_bf16", "tanh_bf16"];

/// Every firmware binary and the tables it uses.
const BINARIES: [(&str, &[&str]); 4] = [
    ("actlut-firmware", &DEMO_TABLES),
    ("gelu-f16", &GELU_F16_TABLES),
    ("gelu-bf16", &GELU_BF16_TABLES),
    ("sigmoid-tanh-bf16", &SIGMOID_TANH_BF16_TABLES),
];

/// The functions the firmware's default features enable in actlut, each over
/// all four formats (`firmware/Cargo.toml`): 12 tables, 6 of them 16-bit.
const FIRMWARE_FUNCTIONS: [Function; 3] = [Function::Gelu, Function::Sigmoid, Function::Tanh];

/// The budget of issue 12 for a firmware using `gelu` on `bf16`: 16 KiB of
/// table data (the full table is 128 KiB).
const GELU_BF16_FLASH_BUDGET: usize = 16 * 1024;

/// How a firmware was built: the form of its 16-bit tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    /// `[u16; 65536]` tables (no `compact` feature).
    Full,
    /// Compact stored forms (`--features compact` in firmware/).
    Compact,
}

/// Whether a table name is of a 16-bit format (a table `compact` stores in
/// its compact form).
fn is_16bit(name: &str) -> bool {
    name.ends_with("_f16") || name.ends_with("_bf16")
}

// ---------------------------------------------------------------------------
// The checker: a transcript of the device against the host and the lock.

/// Host result for `function` over `format` at the bit pattern `x`: the
/// computed path, and the table too where this build has it.
fn host_result(act: Function, format: Format, x: u16) -> Result<u16, String> {
    let computed = actlut::computed::bits(act, format, x);
    let table = act.table(format).ok().and_then(|t| t.get(x));
    match table {
        Some(t) if t != computed => Err(format!(
            "host table 0x{t:04x} and host computed path 0x{computed:04x} disagree"
        )),
        _ => Ok(computed),
    }
}

fn parse_hex(s: &str) -> Option<u16> {
    u16::from_str_radix(s.strip_prefix("0x")?, 16).ok()
}

/// What a transcript covered, for the caller's own checks.
#[derive(Debug, Default)]
struct Summary {
    /// Number of `apply` lines per table name.
    applies: BTreeMap<String, usize>,
    /// Table names with a `sha256` line.
    hashed: BTreeSet<String>,
    /// Table names with a `stored-sha256` line.
    stored: BTreeSet<String>,
}

/// The two locks a transcript is checked against.
struct Locks {
    /// `tables/actlut.lock`: the logical entries' hashes.
    tables: Vec<lock::Entry>,
    /// `tables/actlut-compact.lock`: the stored forms' hashes.
    compact: Vec<lock::Entry>,
}

fn locks() -> Locks {
    Locks {
        tables: lock_entries(),
        compact: compact_lock_entries(),
    }
}

/// Checks the firmware's output against the host and the locks. `form` is how
/// the firmware was built: a compact one must print the hash of the stored
/// form of every 16-bit table it uses, a full one none. `Err` holds a diff
/// with one line per difference, naming function, format and input.
fn check_transcript(
    output: &str,
    expected_tables: &[&str],
    form: Form,
    locks: &Locks,
) -> Result<Summary, String> {
    let mut diffs = Vec::new();
    let mut summary = Summary::default();
    let mut done = false;
    for (n, line) in output.lines().enumerate() {
        let n = n + 1;
        let words: Vec<&str> = line.split_whitespace().collect();
        if done {
            diffs.push(format!("line {n}: output after `done`: {line:?}"));
            continue;
        }
        match words.as_slice() {
            ["apply", function, format, x, y] => {
                let act = Function::ALL.into_iter().find(|a| a.name() == *function);
                let fmt = Format::from_name(format);
                let (Some(act), Some(fmt), Some(x), Some(y)) =
                    (act, fmt, parse_hex(x), parse_hex(y))
                else {
                    diffs.push(format!("line {n}: malformed result line {line:?}"));
                    continue;
                };
                if fmt.bits() == 8 && (x > 0xff || y > 0xff) {
                    diffs.push(format!(
                        "line {n}: {function} {format}: bits out of range in {line:?}"
                    ));
                    continue;
                }
                *summary
                    .applies
                    .entry(format!("{function}_{format}"))
                    .or_default() += 1;
                match host_result(act, fmt, x) {
                    Ok(want) if want == y => {}
                    Ok(want) => diffs.push(format!(
                        "{function} {format} input 0x{x:04x}: device 0x{y:04x}, host 0x{want:04x}"
                    )),
                    Err(e) => diffs.push(format!("{function} {format} input 0x{x:04x}: {e}")),
                }
            }
            ["sha256", name, hex] => {
                summary.hashed.insert((*name).to_owned());
                match locks.tables.iter().find(|e| e.name == *name) {
                    None => diffs.push(format!("table {name}: not in tables/actlut.lock")),
                    Some(e) if actlut_codegen::hex(&e.sha256) == *hex => {}
                    Some(e) => diffs.push(format!(
                        "table {name}: device sha256 {hex}, lock {}",
                        actlut_codegen::hex(&e.sha256)
                    )),
                }
            }
            ["stored-sha256", name, hex] => {
                summary.stored.insert((*name).to_owned());
                match locks.compact.iter().find(|e| e.name == *name) {
                    None => diffs.push(format!(
                        "table {name}: stored form not in tables/actlut-compact.lock"
                    )),
                    Some(e) if actlut_codegen::hex(&e.sha256) == *hex => {}
                    Some(e) => diffs.push(format!(
                        "table {name}: device stored-form sha256 {hex}, compact lock {}",
                        actlut_codegen::hex(&e.sha256)
                    )),
                }
            }
            ["done"] => done = true,
            _ => diffs.push(format!("line {n}: unexpected output {line:?}")),
        }
    }
    if !done {
        diffs.push("no `done` line: the firmware stopped early".to_owned());
    }
    let expected: BTreeSet<String> = expected_tables.iter().map(|s| (*s).to_owned()).collect();
    for name in expected.difference(&summary.hashed) {
        diffs.push(format!("table {name}: no sha256 line"));
    }
    for name in summary.hashed.difference(&expected) {
        diffs.push(format!("table {name}: hashed but not expected"));
    }
    let expected_stored: BTreeSet<String> = match form {
        Form::Full => BTreeSet::new(),
        Form::Compact => expected.iter().filter(|n| is_16bit(n)).cloned().collect(),
    };
    for name in expected_stored.difference(&summary.stored) {
        diffs.push(format!(
            "table {name}: no stored-sha256 line (a compact build prints one)"
        ));
    }
    for name in summary.stored.difference(&expected_stored) {
        diffs.push(format!(
            "table {name}: stored-sha256 line, but a {form:?} build has no stored form of it"
        ));
    }
    let applied: BTreeSet<String> = summary.applies.keys().cloned().collect();
    for name in expected.difference(&applied) {
        diffs.push(format!("table {name}: no results printed"));
    }
    for name in applied.difference(&expected) {
        diffs.push(format!("table {name}: results printed but not expected"));
    }
    if diffs.is_empty() {
        Ok(summary)
    } else {
        let mut text = format!(
            "firmware output differs from the host and the lock in {} place(s):\n",
            diffs.len()
        );
        for d in diffs {
            let _ = writeln!(text, "  {d}");
        }
        Err(text)
    }
}

mod support;
use support::lock_entries;

// ---------------------------------------------------------------------------
// Running a command with a bound on its run time.

/// Runs `cmd` to completion with its stdout captured; fails if it runs longer
/// than `bound` (the process is killed) or exits unsuccessfully.
fn run_bounded(mut cmd: Command, bound: Duration) -> Result<String, String> {
    let what = format!("{cmd:?}");
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {what}: {e}"))?;
    // Drain both pipes on threads, so that a chatty child never blocks.
    let mut out = child.stdout.take().expect("piped stdout");
    let mut err = child.stderr.take().expect("piped stderr");
    let out = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = out.read_to_end(&mut s);
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err.read_to_end(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if start.elapsed() >= bound => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(format!("waiting for {what}: {e}")),
        }
    };
    let out = String::from_utf8_lossy(&out.join().unwrap_or_default()).into_owned();
    let err = String::from_utf8_lossy(&err.join().unwrap_or_default()).into_owned();
    let tail = |s: &str| {
        let lines: Vec<&str> = s.lines().collect();
        lines[lines.len().saturating_sub(10)..].join("\n")
    };
    match status {
        None => Err(format!(
            "{what} did not exit within {} s and was killed; last output:\n{}\nstderr:\n{}",
            bound.as_secs_f64(),
            tail(&out),
            tail(&err)
        )),
        Some(s) if !s.success() => Err(format!(
            "{what} failed ({s}); last output:\n{}\nstderr:\n{}",
            tail(&out),
            tail(&err)
        )),
        Some(_) => Ok(out),
    }
}

// ---------------------------------------------------------------------------
// The firmware under qemu.

/// The reason of the `#[ignore]` of every test that runs or reads the firmware.
macro_rules! needs_firmware {
    () => {
        "needs the firmware ELF files and qemu-system-arm: .ci/steps/50-embedded.sh runs it"
    };
}
pub(crate) use needs_firmware;

/// The directory of the firmware's ELF files built in `form`.
///
/// # Panics
///
/// When its variable is not set, saying how to build the firmware.
fn firmware_dir(test: &str, form: Form) -> PathBuf {
    let (var, build) = match form {
        Form::Full => (
            "ACTLUT_FIRMWARE_DIR",
            "`cargo build --release` in firmware/",
        ),
        Form::Compact => (
            "ACTLUT_FIRMWARE_COMPACT_DIR",
            "`cargo build --release --features compact` in firmware/, the ELF files \
             copied out of target/thumbv7em-none-eabihf/release",
        ),
    };
    match std::env::var_os(var) {
        Some(dir) => PathBuf::from(dir),
        None => panic!(
            "{test}: {var} is not set. Build the firmware ({build}) and set it to the \
             directory of the ELF files, with qemu-system-arm installed; \
             .ci/steps/50-embedded.sh does both."
        ),
    }
}

fn elf_path(dir: &Path, bin: &str) -> PathBuf {
    let path = dir.join(bin);
    assert!(
        path.is_file(),
        "{} does not exist: build the firmware first (`cargo build --release` in firmware/)",
        path.display()
    );
    path
}

fn run_on_qemu(elf: &Path) -> String {
    let qemu = std::env::var_os("ACTLUT_QEMU").unwrap_or_else(|| "qemu-system-arm".into());
    let secs = std::env::var("ACTLUT_QEMU_TIMEOUT_SECS")
        .ok()
        .map(|s| {
            s.parse()
                .expect("ACTLUT_QEMU_TIMEOUT_SECS is a number of seconds")
        })
        .unwrap_or(60);
    let mut cmd = Command::new(qemu);
    cmd.args(["-machine", "mps2-an386", "-cpu", "cortex-m4", "-nographic"])
        .args(["-semihosting-config", "enable=on,target=native", "-kernel"])
        .arg(elf);
    run_bounded(cmd, Duration::from_secs(secs)).unwrap_or_else(|e| panic!("{e}"))
}

fn check_firmware_on_qemu(test: &str, form: Form, bin: &str, tables: &[&str]) {
    let dir = firmware_dir(test, form);
    let output = run_on_qemu(&elf_path(&dir, bin));
    let summary =
        check_transcript(&output, tables, form, &locks()).unwrap_or_else(|diff| panic!("{diff}"));
    eprintln!(
        "{bin} ({form:?}): {:?} results equal the host's",
        summary.applies
    );
}

#[test]
#[ignore = needs_firmware!()]
fn demo_firmware_on_qemu_equals_the_host_bit_for_bit_and_its_hashes_the_lock() {
    check_firmware_on_qemu("demo firmware", Form::Full, "actlut-firmware", &DEMO_TABLES);
}

#[test]
#[ignore = needs_firmware!()]
fn gelu_f16_firmware_on_qemu_equals_the_host_bit_for_bit_and_its_hash_the_lock() {
    check_firmware_on_qemu(
        "gelu-f16 firmware",
        Form::Full,
        "gelu-f16",
        &GELU_F16_TABLES,
    );
}

#[test]
#[ignore = needs_firmware!()]
fn gelu_bf16_firmware_on_qemu_equals_the_host_bit_for_bit_and_its_hash_the_lock() {
    check_firmware_on_qemu(
        "gelu-bf16 firmware",
        Form::Full,
        "gelu-bf16",
        &GELU_BF16_TABLES,
    );
}

#[test]
#[ignore = needs_firmware!()]
fn sigmoid_tanh_bf16_firmware_on_qemu_equals_the_host_bit_for_bit_and_its_hashes_the_lock() {
    check_firmware_on_qemu(
        "sigmoid-tanh-bf16 firmware",
        Form::Full,
        "sigmoid-tanh-bf16",
        &SIGMOID_TANH_BF16_TABLES,
    );
}

#[test]
#[ignore = needs_firmware!()]
fn compact_demo_firmware_on_qemu_equals_the_host_bit_for_bit_and_its_hashes_both_locks() {
    check_firmware_on_qemu(
        "compact demo firmware",
        Form::Compact,
        "actlut-firmware",
        &DEMO_TABLES,
    );
}

#[test]
#[ignore = needs_firmware!()]
fn compact_one_function_firmwares_on_qemu_equal_the_host_bit_for_bit_and_their_hashes_both_locks() {
    for (bin, tables) in &BINARIES[1..] {
        check_firmware_on_qemu(
            &format!("compact {bin} firmware"),
            Form::Compact,
            bin,
            tables,
        );
    }
}

// ---------------------------------------------------------------------------
// Flash: which table bytes the ELF carries.

fn u16_at(b: &[u8], at: usize) -> usize {
    usize::from(u16::from_le_bytes([b[at], b[at + 1]]))
}

fn u32_at(b: &[u8], at: usize) -> usize {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]) as usize
}

/// What the test needs of a 32-bit little-endian ELF file.
struct Elf {
    /// The bytes the image loads (allocated sections with contents): what
    /// goes to flash.
    loaded: Vec<u8>,
    /// Symbols defined in `actlut::tables`: (table name, size in bytes).
    table_symbols: Vec<(String, usize)>,
}

fn read_elf(path: &Path) -> Elf {
    let b = std::fs::read(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    assert!(
        b.len() > 52 && &b[..4] == b"\x7fELF" && b[4] == 1 && b[5] == 1,
        "{}: not a 32-bit little-endian ELF file",
        path.display()
    );
    let (shoff, shentsize, shnum) = (u32_at(&b, 0x20), u16_at(&b, 0x2e), u16_at(&b, 0x30));
    let section = |i: usize| {
        let h = shoff + i * shentsize;
        // (type, flags, offset, size, link)
        (
            u32_at(&b, h + 4),
            u32_at(&b, h + 8),
            u32_at(&b, h + 16),
            u32_at(&b, h + 20),
            u32_at(&b, h + 24),
        )
    };
    const SHT_SYMTAB: usize = 2;
    const SHT_NOBITS: usize = 8;
    const SHF_ALLOC: usize = 2;
    let mut loaded = Vec::new();
    let mut table_symbols = Vec::new();
    for i in 0..shnum {
        let (ty, flags, offset, size, link) = section(i);
        if flags & SHF_ALLOC != 0 && ty != SHT_NOBITS {
            loaded.extend_from_slice(&b[offset..offset + size]);
        }
        if ty == SHT_SYMTAB {
            let (_, _, stroff, strsize, _) = section(link);
            let strtab = &b[stroff..stroff + strsize];
            for sym in b[offset..offset + size].chunks_exact(16) {
                let name_at = u32_at(sym, 0);
                let end = strtab[name_at..].iter().position(|&c| c == 0).unwrap_or(0);
                let name = String::from_utf8_lossy(&strtab[name_at..name_at + end]);
                if let Some(table) = table_symbol(&name) {
                    let size = u32_at(sym, 8);
                    // A full table's static `<NAME>_DECLARED` is its
                    // declaration, then the table: count the table.
                    table_symbols.push(match table.strip_suffix("_declared") {
                        Some(t) => (t.to_owned(), size - DECLARATION_BYTES),
                        None => (table, size),
                    });
                }
            }
        }
    }
    table_symbols.sort();
    Elf {
        loaded,
        table_symbols,
    }
}

/// The item name of a mangled symbol in `actlut::tables`, in either mangling
/// scheme (`…6actlut6tables8GELU_F16…`), lowercased like a table name.
fn table_symbol(mangled: &str) -> Option<String> {
    let rest = &mangled[mangled.find("6actlut6tables")? + "6actlut6tables".len()..];
    // `actlut::tables::compact::GELU_BF16_STORED` and its view: the item is
    // the next segment.
    let rest = rest.strip_prefix("7compact").unwrap_or(rest);
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let len: usize = rest[..digits].parse().ok()?;
    rest.get(digits..digits + len).map(str::to_lowercase)
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// Full build: the ELF's table symbols and contents are exactly the tables
/// `used`, each `[u16; 65536]` or `[u8; 256]`. Returns the table bytes.
fn check_flash(test: &str, bin: &str, used: &[&str]) -> usize {
    let dir = firmware_dir(test, Form::Full);
    let elf = read_elf(&elf_path(&dir, bin));
    let mut problems = Vec::new();

    // The table symbols: exactly the tables used, and their sizes add up.
    let mut expected: Vec<(String, usize)> = Vec::new();
    for name in used {
        let format = Format::ALL
            .into_iter()
            .find(|f| name.ends_with(&format!("_{}", f.name())))
            .expect("a table name ends with its format");
        expected.push(((*name).to_owned(), format.table_bytes()));
    }
    expected.sort();
    let table_bytes: usize = elf.table_symbols.iter().map(|(_, size)| size).sum();
    let expected_bytes: usize = expected.iter().map(|(_, size)| size).sum();
    if elf.table_symbols != expected {
        problems.push(format!(
            "table symbols (name, bytes) {:?}, expected {expected:?}",
            elf.table_symbols
        ));
    }
    if table_bytes != expected_bytes {
        problems.push(format!(
            "table bytes {table_bytes}, expected {expected_bytes} (the sum of the tables used)"
        ));
    }

    // The bytes themselves: every enabled table's contents are in the image
    // exactly when the code uses that table, whatever the symbols say.
    for function in FIRMWARE_FUNCTIONS {
        for format in Format::ALL
            .into_iter()
            .filter(|f| f.can_represent(function))
        {
            let name = actlut_codegen::table_name(function, format);
            let bytes =
                actlut_codegen::table_bytes_le(format, &actlut_codegen::table(function, format));
            let present = contains(&elf.loaded, &bytes);
            let wanted = used.contains(&name.as_str());
            if present != wanted {
                problems.push(format!(
                    "{name}: contents {} in the image, but the code {} it",
                    if present { "present" } else { "absent" },
                    if wanted { "uses" } else { "does not use" }
                ));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{bin}: flash contents differ from the tables it uses:\n  {}",
        problems.join("\n  ")
    );
    eprintln!(
        "{bin}: {} bytes loaded into flash, of which {table_bytes} are the tables {:?}",
        elf.loaded.len(),
        used
    );
    table_bytes
}

/// Compact build: the ELF holds one valid stored form per 16-bit table
/// `used` (found by its magic, validated with `CompactRef::from_bytes`, its
/// SHA-256 the compact lock's line, its decoded entries the table's lock
/// line), no full 16-bit table, and the 8-bit tables `used`. Returns the
/// table data in bytes: the sizes of every symbol in `actlut::tables`
/// (stored forms with their alignment padding, the `CompactRef` views,
/// 8-bit tables).
fn check_flash_compact(test: &str, bin: &str, used: &[&str]) -> usize {
    let dir = firmware_dir(test, Form::Compact);
    let elf = read_elf(&elf_path(&dir, bin));
    let mut problems = Vec::new();
    let (lock, compact_lock) = (lock_entries(), compact_lock_entries());

    // The stored forms, as an audit finds them.
    let forms = stored_forms(&elf.loaded);
    let mut found: Vec<String> = Vec::new();
    let mut stored_bytes = 0;
    for (at, bytes) in &forms {
        let name = stored_form_name(&compact_lock, bytes);
        let view = CompactRef::from_bytes(bytes).expect("validated by stored_forms");
        let logical: Vec<u8> = (0..=u16::MAX)
            .flat_map(|x| view.get(x).to_le_bytes())
            .collect();
        let logical = actlut_codegen::sha256(&logical);
        match lock.iter().find(|e| e.name == name) {
            Some(e) if e.sha256 == logical => {}
            _ => problems.push(format!(
                "stored form at 0x{at:x} ({name}): its entries hash to {}, not the lock's",
                actlut_codegen::hex(&logical)
            )),
        }
        stored_bytes += bytes.len();
        found.push(name);
    }
    found.sort();
    let mut want: Vec<String> = used
        .iter()
        .filter(|n| is_16bit(n))
        .map(|n| (*n).to_owned())
        .collect();
    want.sort();
    if found != want {
        problems.push(format!("compact stored forms {found:?}, expected {want:?}"));
    }

    // No full 16-bit table, of any function actlut can generate.
    let full = full_tables_in(&elf.loaded, false);
    if !full.is_empty() {
        problems.push(format!("full 16-bit tables in the image: {full:?}"));
    }

    // The 8-bit tables: present exactly when used.
    for function in FIRMWARE_FUNCTIONS {
        for format in Format::ALL
            .into_iter()
            .filter(|f| f.bits() == 8 && f.can_represent(function))
        {
            let name = actlut_codegen::table_name(function, format);
            let bytes =
                actlut_codegen::table_bytes_le(format, &actlut_codegen::table(function, format));
            let present = contains(&elf.loaded, &bytes);
            if present != used.contains(&name.as_str()) {
                problems.push(format!(
                    "{name}: contents {} in the image, but the code {} it",
                    if present { "present" } else { "absent" },
                    if present { "does not use" } else { "uses" }
                ));
            }
        }
    }

    // The symbols: `<NAME>_STORED` for each 16-bit table used, of its
    // declaration and the stored form padded to their 64-byte alignment; the views and the 8-bit
    // tables of the tables used, nothing else.
    for (symbol, size) in &elf.table_symbols {
        let (name, stored) = match symbol.strip_suffix("_stored") {
            Some(name) => (name, true),
            None => (symbol.as_str(), false),
        };
        let ok = used.contains(&name)
            && if stored {
                forms.iter().any(|(_, b)| {
                    stored_form_name(&compact_lock, b) == name
                        && (DECLARATION_BYTES + b.len()).next_multiple_of(64) == *size
                })
            } else {
                is_16bit(name) || *size == 256
            };
        if !ok {
            problems.push(format!("table symbol {symbol} of {size} bytes"));
        }
    }
    let table_bytes: usize = elf.table_symbols.iter().map(|(_, size)| size).sum();
    assert!(
        problems.is_empty(),
        "{bin} (compact): flash contents differ from the tables it uses:\n  {}",
        problems.join("\n  ")
    );
    eprintln!(
        "{bin} (compact): {} bytes loaded into flash, {table_bytes} bytes of table data \
         (stored forms {stored_bytes} bytes: {found:?})",
        elf.loaded.len(),
    );
    table_bytes
}

#[test]
#[ignore = needs_firmware!()]
fn demo_firmware_flash_holds_exactly_the_tables_it_uses() {
    check_flash("demo firmware flash", "actlut-firmware", &DEMO_TABLES);
}

#[test]
#[ignore = needs_firmware!()]
fn firmware_with_three_functions_enabled_and_one_used_carries_one_table() {
    check_flash("gelu-f16 firmware flash", "gelu-f16", &GELU_F16_TABLES);
}

#[test]
#[ignore = needs_firmware!()]
fn full_gelu_bf16_firmware_flash_holds_the_128_kib_table() {
    let bytes = check_flash("gelu-bf16 firmware flash", "gelu-bf16", &GELU_BF16_TABLES);
    assert_eq!(bytes, 128 * 1024);
}

#[test]
#[ignore = needs_firmware!()]
fn compact_gelu_bf16_firmware_flash_holds_at_most_16_kib_of_table_data_and_no_full_table() {
    let bytes = check_flash_compact(
        "compact gelu-bf16 firmware flash",
        "gelu-bf16",
        &GELU_BF16_TABLES,
    );
    assert!(
        bytes <= GELU_BF16_FLASH_BUDGET,
        "gelu-bf16 (compact): {bytes} bytes of table data, the budget is {GELU_BF16_FLASH_BUDGET}"
    );
}

#[test]
#[ignore = needs_firmware!()]
fn compact_firmware_flash_holds_one_stored_form_per_16bit_table_used_and_no_full_table() {
    for (bin, tables) in BINARIES {
        if bin != "gelu-bf16" {
            check_flash_compact(&format!("compact {bin} firmware flash"), bin, tables);
        }
    }
}

// ---------------------------------------------------------------------------
// The checker checks: these run everywhere, without qemu.

fn good_transcript() -> String {
    let mut out = String::new();
    for x in [0x0000u16, 0x3c00, 0xbc00, 0x7d01] {
        let y = actlut::computed::f16_bits(Function::Gelu, x);
        let _ = writeln!(out, "apply gelu f16 0x{x:04x} 0x{y:04x}");
    }
    for x in [0x00u8, 0x38, 0xff] {
        let y = actlut::computed::fp8_e5m2_bits(Function::Sigmoid, x);
        let _ = writeln!(out, "apply sigmoid fp8_e5m2 0x{x:02x} 0x{y:02x}");
    }
    let lock = lock_entries();
    for name in ["gelu_f16", "sigmoid_fp8_e5m2"] {
        let e = lock.iter().find(|e| e.name == name).expect("in the lock");
        let _ = writeln!(out, "sha256 {name} {}", actlut_codegen::hex(&e.sha256));
    }
    out.push_str("done\n");
    out
}

const TWO_TABLES: [&str; 2] = ["gelu_f16", "sigmoid_fp8_e5m2"];

#[test]
fn checker_accepts_a_transcript_that_equals_the_host() {
    let summary = check_transcript(&good_transcript(), &TWO_TABLES, Form::Full, &locks()).unwrap();
    assert_eq!(summary.applies["gelu_f16"], 4);
    assert_eq!(summary.applies["sigmoid_fp8_e5m2"], 3);
}

#[test]
fn a_differing_output_fails_with_a_diff_naming_function_format_and_input() {
    // gelu(1.0) in f16 is 0x3abb; a device that said 0x3abc is wrong.
    let bad = good_transcript().replace(
        "apply gelu f16 0x3c00 0x3abb",
        "apply gelu f16 0x3c00 0x3abc",
    );
    assert_ne!(
        bad,
        good_transcript(),
        "the transcript has the line to corrupt"
    );
    let diff = check_transcript(&bad, &TWO_TABLES, Form::Full, &locks()).unwrap_err();
    assert!(
        diff.contains("gelu f16 input 0x3c00: device 0x3abc, host 0x3abb"),
        "{diff}"
    );
    assert!(diff.contains("1 place(s)"), "{diff}");
}

#[test]
fn a_wrong_table_hash_fails_naming_the_table() {
    let good = good_transcript();
    let line = good
        .lines()
        .find(|l| l.starts_with("sha256 gelu_f16"))
        .unwrap();
    let bad = good.replace(line, &format!("sha256 gelu_f16 {}", "0".repeat(64)));
    let diff = check_transcript(&bad, &TWO_TABLES, Form::Full, &locks()).unwrap_err();
    assert!(
        diff.contains("table gelu_f16: device sha256 0000"),
        "{diff}"
    );
}

#[test]
fn a_truncated_or_garbled_transcript_fails() {
    let good = good_transcript();
    let truncated = good.replace("done\n", "");
    let diff = check_transcript(&truncated, &TWO_TABLES, Form::Full, &locks()).unwrap_err();
    assert!(diff.contains("no `done` line"), "{diff}");

    let garbled = good.replace("done\n", "panicked at src/main.rs:1:1\ndone\n");
    let diff = check_transcript(&garbled, &TWO_TABLES, Form::Full, &locks()).unwrap_err();
    assert!(diff.contains("unexpected output \"panicked"), "{diff}");

    let diff = check_transcript("done\n", &TWO_TABLES, Form::Full, &locks()).unwrap_err();
    assert!(diff.contains("table gelu_f16: no sha256 line"), "{diff}");
    assert!(
        diff.contains("table sigmoid_fp8_e5m2: no results printed"),
        "{diff}"
    );
}

/// [`good_transcript`] as a compact build prints it: with the stored-form
/// hash of gelu_f16, the one 16-bit table.
fn good_compact_transcript() -> String {
    let e = compact_lock_entries()
        .into_iter()
        .find(|e| e.name == "gelu_f16")
        .expect("in the compact lock");
    good_transcript().replace(
        "done\n",
        &format!(
            "stored-sha256 gelu_f16 {}\ndone\n",
            actlut_codegen::hex(&e.sha256)
        ),
    )
}

#[test]
fn checker_accepts_a_compact_transcript_with_the_stored_form_hashes_of_the_compact_lock() {
    let summary = check_transcript(
        &good_compact_transcript(),
        &TWO_TABLES,
        Form::Compact,
        &locks(),
    )
    .unwrap();
    assert_eq!(summary.stored.len(), 1);
}

#[test]
fn a_wrong_or_missing_stored_form_hash_fails_naming_the_table() {
    let good = good_compact_transcript();
    let line = good
        .lines()
        .find(|l| l.starts_with("stored-sha256 gelu_f16"))
        .unwrap();
    let bad = good.replace(line, &format!("stored-sha256 gelu_f16 {}", "0".repeat(64)));
    let diff = check_transcript(&bad, &TWO_TABLES, Form::Compact, &locks()).unwrap_err();
    assert!(
        diff.contains("table gelu_f16: device stored-form sha256 0000"),
        "{diff}"
    );

    // A compact build that prints no stored-form hash, and a full build that
    // prints one.
    let diff =
        check_transcript(&good_transcript(), &TWO_TABLES, Form::Compact, &locks()).unwrap_err();
    assert!(
        diff.contains("table gelu_f16: no stored-sha256 line"),
        "{diff}"
    );
    let diff = check_transcript(&good, &TWO_TABLES, Form::Full, &locks()).unwrap_err();
    assert!(
        diff.contains("table gelu_f16: stored-sha256 line, but a Full build"),
        "{diff}"
    );
}

#[test]
fn the_flash_scan_names_intact_stored_forms_rejects_broken_ones_and_finds_full_tables() {
    let gelu = actlut_codegen::table(Function::Gelu, Format::Bf16);
    let stored = actlut_codegen::compact_lock::stored_form_of(
        Function::Gelu,
        Format::Bf16,
        &gelu,
        actlut_codegen::compact::Layout::Bytes,
    )
    .unwrap();
    let tanh = actlut_codegen::table(Function::Tanh, Format::Bf16);
    let mut image = vec![0x5a; 1000];
    image.extend_from_slice(b"ACTLUTC1"); // the magic alone, as code may hold it
    image.extend_from_slice(&stored);
    let mut bad_shift = stored.clone();
    bad_shift[8] = 9; // pages of 512 entries: not a stored form
    image.extend_from_slice(&bad_shift);
    let mut modified = stored.clone();
    *modified.last_mut().unwrap() ^= 0x40; // valid, but not the locked bytes
    image.extend_from_slice(&modified);
    image.extend_from_slice(&actlut_codegen::table_bytes_le(Format::Bf16, &tanh));

    let lock = compact_lock_entries();
    let names: Vec<String> = stored_forms(&image)
        .iter()
        .map(|(_, b)| stored_form_name(&lock, b))
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert_eq!(names[0], "gelu_bf16");
    assert!(names[1].starts_with("unknown ("), "{names:?}");
    assert_eq!(full_tables_in(&image, false), ["tanh_bf16"]);
}

#[test]
fn a_process_that_does_not_exit_within_the_bound_is_killed_and_reported() {
    let mut cmd = Command::new("sleep");
    cmd.arg("600");
    let err = run_bounded(cmd, Duration::from_millis(200)).unwrap_err();
    assert!(err.contains("did not exit within 0.2 s"), "{err}");
}

#[test]
fn a_process_that_fails_is_reported_with_its_output() {
    let mut cmd = Command::new("sh");
    cmd.args(["-c", "echo partial; exit 3"]);
    let err = run_bounded(cmd, Duration::from_secs(60)).unwrap_err();
    assert!(err.contains("partial") && err.contains('3'), "{err}");
}

#[test]
fn table_symbols_are_recognized_in_both_manglings() {
    assert_eq!(
        table_symbol("_ZN6actlut6tables8GELU_F1617hbc3ed552a237fe0cE").as_deref(),
        Some("gelu_f16")
    );
    assert_eq!(
        table_symbol("_RNvNtCs1234_6actlut6tables16SIGMOID_FP8_E5M2").as_deref(),
        Some("sigmoid_fp8_e5m2")
    );
    assert_eq!(
        table_symbol("_ZN6actlut6tables7compact16GELU_BF16_STORED17h7bf842921c633b29E").as_deref(),
        Some("gelu_bf16_stored")
    );
    assert_eq!(
        table_symbol("_RNvNtNtCs1234_6actlut6tables7compact9GELU_BF16").as_deref(),
        Some("gelu_bf16")
    );
    assert_eq!(table_symbol("_ZN6actlut9computed8gelu_f16E"), None);
}
