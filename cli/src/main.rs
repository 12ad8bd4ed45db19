//! `actlut`: list, dump and audit actlut's tables.
//!
//! ```text
//! actlut manifest [--json]                 every table: name, format, size, SHA-256, definition
//! actlut dump DIR                          DIR/<name>.bin for every table, and DIR/SHA256SUMS
//! actlut audit [--json] [--lock LOCK] FILE...
//!                                          find embedded tables in compiled artifacts
//! ```
//!
//! `audit` exits with 0 when every table it finds is in the lock, 1 when one is
//! not (a changed or tampered table, or one the lock does not list), and 2 on
//! bad input (a missing, unreadable or empty artifact, a corrupt or incomplete
//! lock, bad arguments), with a one-line message.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use actlut::manifest::{self, Table};
use actlut::Format;
use actlut_codegen::audit::{self, Found, Index, LockStatus, Match, Reference};
use actlut_codegen::lock;

/// The lock this build of actlut was checked against.
const LOCK: &str = include_str!("../../tables/actlut.lock");

const USAGE: &str = "\
usage: actlut manifest [--json]
       actlut dump DIR
       actlut audit [--json] [--lock LOCK] FILE...

  manifest   list every table: name, format, entries, bytes, SHA-256, definition
  dump       write DIR/<name>.bin (little-endian) for every table and DIR/SHA256SUMS,
             which `sha256sum -c SHA256SUMS` verifies
  audit      find embedded actlut tables in compiled artifacts (ELF, wasm, raw
             firmware images, static libraries), in either byte order, and check
             each against the lock (the one built in, or LOCK)

exit status: 0 ok; 1 audit found a table that is not in the lock; 2 error";

/// A failure: the one-line message and the exit code.
struct Failure(String);

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(code) => code,
        Err(Failure(message)) => {
            eprintln!("actlut: error: {message}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<ExitCode, Failure> {
    let Some((command, rest)) = args.split_first() else {
        return Err(Failure("no command given (try `actlut help`)".to_string()));
    };
    match command.as_str() {
        "help" | "-h" | "--help" => {
            println!("{USAGE}");
            Ok(ExitCode::SUCCESS)
        }
        "-V" | "--version" => {
            println!(
                "actlut {} ({})",
                env!("CARGO_PKG_VERSION"),
                manifest::REFERENCE_VERSION
            );
            Ok(ExitCode::SUCCESS)
        }
        "manifest" => {
            let opts = Options::parse(rest, false)?;
            if !opts.files.is_empty() {
                return Err(usage(format!(
                    "`manifest` takes no file arguments, got `{}`",
                    opts.files[0]
                )));
            }
            print!("{}", manifest_text(opts.json));
            Ok(ExitCode::SUCCESS)
        }
        "dump" => {
            let opts = Options::parse(rest, false)?;
            if opts.json {
                return Err(usage("`dump` has no `--json` option".to_string()));
            }
            match opts.files.as_slice() {
                [dir] => dump(Path::new(dir)),
                [] => Err(usage("`dump` needs a directory".to_string())),
                _ => Err(usage("`dump` takes exactly one directory".to_string())),
            }
        }
        "audit" => {
            let opts = Options::parse(rest, true)?;
            audit_files(&opts)
        }
        other => Err(usage(format!("unknown command `{other}`"))),
    }
}

fn usage(message: String) -> Failure {
    Failure(format!("{message} (try `actlut help`)"))
}

struct Options {
    json: bool,
    lock: Option<PathBuf>,
    files: Vec<String>,
}

impl Options {
    fn parse(args: &[String], allow_lock: bool) -> Result<Options, Failure> {
        let mut opts = Options {
            json: false,
            lock: None,
            files: Vec::new(),
        };
        let mut it = args.iter();
        let mut only_files = false;
        while let Some(a) = it.next() {
            if only_files || !a.starts_with('-') || a == "-" {
                opts.files.push(a.clone());
            } else if a == "--" {
                only_files = true;
            } else if a == "--json" {
                opts.json = true;
            } else if allow_lock && a == "--lock" {
                let path = it
                    .next()
                    .ok_or_else(|| usage("`--lock` needs a file".to_string()))?;
                opts.lock = Some(PathBuf::from(path));
            } else if let Some(path) = a.strip_prefix("--lock=").filter(|_| allow_lock) {
                opts.lock = Some(PathBuf::from(path));
            } else {
                return Err(usage(format!("unknown option `{a}`")));
            }
        }
        Ok(opts)
    }
}

/// The little-endian bytes of a compiled-in table.
fn table_le(t: &Table) -> Vec<u8> {
    let a = t.activation;
    let wide = |r: Result<&'static [u16; 65536], actlut::MissingTable>| {
        r.map(|t| t.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>())
    };
    let bytes = if t.format == Format::F16 {
        wide(a.table_f16())
    } else if t.format == Format::Bf16 {
        wide(a.table_bf16())
    } else if t.format == Format::Fp8E4M3 {
        a.table_fp8_e4m3().map(|t| t.to_vec())
    } else if t.format == Format::Fp8E5M2 {
        a.table_fp8_e5m2().map(|t| t.to_vec())
    } else {
        // The fnuz, FP6 and FP4 tables have no typed accessor yet: their bytes
        // are the reference evaluation's, which the build checked against the lock.
        Ok(actlut_codegen::table_bytes_le(
            t.format,
            &actlut_codegen::table(a.function(), t.format),
        ))
    };
    // The manifest lists exactly the compiled-in tables.
    bytes.expect("a manifest entry without its table")
}

fn json_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn json_list(items: &[String]) -> String {
    let parts: Vec<String> = items.iter().map(|s| json_str(s)).collect();
    format!("[{}]", parts.join(", "))
}

fn manifest_text(json: bool) -> String {
    let mut s = String::new();
    let aliases = |t: &Table| -> Vec<String> { t.aliases().map(|a| a.name.to_string()).collect() };
    if json {
        let _ = writeln!(
            s,
            "{{\n  \"reference\": {},\n  \"tables\": [",
            json_str(manifest::REFERENCE_VERSION)
        );
        for (i, t) in manifest::TABLES.iter().enumerate() {
            let _ = writeln!(
                s,
                "    {{\"name\": {}, \"function\": {}, \"format\": {}, \"entries\": {}, \"bytes\": {}, \
                 \"sha256\": \"{}\", \"definition\": {}, \"aliases\": {}}}{}",
                json_str(t.name),
                json_str(t.activation.name()),
                json_str(t.format.name()),
                t.entries(),
                t.bytes(),
                t.sha256_hex(),
                json_str(t.definition()),
                json_list(&aliases(t)),
                if i + 1 < manifest::TABLES.len() { "," } else { "" }
            );
        }
        s.push_str("  ]\n}\n");
        return s;
    }
    let _ = writeln!(
        s,
        "# {} tables, reference {}",
        manifest::TABLES.len(),
        manifest::REFERENCE_VERSION
    );
    let _ = writeln!(
        s,
        "# {:<20} {:<9} {:>7} {:>7} {:<64} definition",
        "name", "format", "entries", "bytes", "sha256"
    );
    for t in manifest::TABLES {
        let a = aliases(t);
        let note = if a.is_empty() {
            String::new()
        } else {
            format!("  [same bytes as {}]", a.join(", "))
        };
        let _ = writeln!(
            s,
            "{:<22} {:<9} {:>7} {:>7} {} {}{note}",
            t.name,
            t.format.name(),
            t.entries(),
            t.bytes(),
            t.sha256_hex(),
            t.definition()
        );
    }
    s
}

fn dump(dir: &Path) -> Result<ExitCode, Failure> {
    std::fs::create_dir_all(dir)
        .map_err(|e| Failure(format!("cannot create directory {}: {e}", dir.display())))?;
    let mut sums = String::new();
    for t in manifest::TABLES {
        let path = dir.join(format!("{}.bin", t.name));
        let bytes = table_le(t);
        // Re-hash what is written: a dump is proof only of bytes that were checked.
        t.check(&bytes[..]).map_err(|e| Failure(e.to_string()))?;
        std::fs::write(&path, bytes)
            .map_err(|e| Failure(format!("cannot write {}: {e}", path.display())))?;
        let _ = writeln!(sums, "{}  {}.bin", t.sha256_hex(), t.name);
    }
    let path = dir.join("SHA256SUMS");
    std::fs::write(&path, sums)
        .map_err(|e| Failure(format!("cannot write {}: {e}", path.display())))?;
    println!(
        "wrote {} tables and SHA256SUMS to {} (check with: cd {} && sha256sum -c SHA256SUMS)",
        manifest::TABLES.len(),
        dir.display(),
        dir.display()
    );
    Ok(ExitCode::SUCCESS)
}

fn load_lock(path: Option<&Path>) -> Result<(String, Vec<lock::Entry>), Failure> {
    let (label, text) = match path {
        None => ("built-in lock".to_string(), LOCK.to_string()),
        Some(p) => {
            let bytes = std::fs::read(p)
                .map_err(|e| Failure(format!("cannot read lock {}: {e}", p.display())))?;
            let text = String::from_utf8(bytes)
                .map_err(|_| Failure(format!("lock {}: not UTF-8 text", p.display())))?;
            (p.display().to_string(), text)
        }
    };
    if !text.is_empty() && !text.ends_with('\n') {
        return Err(Failure(format!(
            "lock {label} is truncated: its last line does not end with a newline"
        )));
    }
    let entries = lock::parse(&text).map_err(|e| Failure(format!("lock {label}: {e}")))?;
    audit::check_lock_complete(&entries).map_err(|e| Failure(format!("lock {label}: {e}")))?;
    Ok((label, entries))
}

fn audit_files(opts: &Options) -> Result<ExitCode, Failure> {
    if opts.files.is_empty() {
        return Err(usage("`audit` needs at least one file".to_string()));
    }
    let (lock_label, lock_entries) = load_lock(opts.lock.as_deref())?;
    // Read every artifact before scanning, so that bad input fails fast.
    let mut artifacts = Vec::new();
    for f in &opts.files {
        let data = std::fs::read(f).map_err(|e| Failure(format!("cannot read {f}: {e}")))?;
        if data.is_empty() {
            return Err(Failure(format!("{f} is empty: nothing to audit")));
        }
        artifacts.push((f, data));
    }
    let refs = audit::merge_aliases(
        manifest::TABLES
            .iter()
            .map(|t| Reference::new(t.name.to_string(), t.format, table_le(t)))
            .collect(),
    );
    let index = Index::new(refs);

    let mut bad = 0usize;
    let mut total = 0usize;
    let mut text = String::new();
    let mut json = String::new();
    let _ = writeln!(
        json,
        "{{\n  \"lock\": {},\n  \"files\": [",
        json_str(&lock_label)
    );
    for (i, (path, data)) in artifacts.iter().enumerate() {
        let found = index.scan(data);
        total += found.len();
        let _ = writeln!(
            text,
            "{path}: {} bytes, {}",
            data.len(),
            match found.len() {
                0 => "no actlut tables".to_string(),
                1 => "1 table".to_string(),
                n => format!("{n} tables"),
            }
        );
        let _ = write!(
            json,
            "    {{\"path\": {}, \"bytes\": {}, \"tables\": [",
            json_str(path),
            data.len()
        );
        for (j, f) in found.iter().enumerate() {
            let status = f.lock_status(&lock_entries);
            if !status.is_in_lock() {
                bad += 1;
            }
            text.push_str(&text_line(f, &status));
            json.push_str(if j == 0 { "\n" } else { ",\n" });
            json.push_str(&json_found(f, &status));
        }
        let close = if found.is_empty() { "" } else { "\n    " };
        let comma = if i + 1 < artifacts.len() { "," } else { "" };
        let _ = writeln!(json, "{close}]}}{comma}");
    }
    let _ = writeln!(
        json,
        "  ],\n  \"tables_found\": {total},\n  \"not_in_lock\": {bad},\n  \"ok\": {}\n}}",
        bad == 0
    );
    let _ = writeln!(
        text,
        "audit: {total} table{} found in {} file{}, {}",
        if total == 1 { "" } else { "s" },
        artifacts.len(),
        if artifacts.len() == 1 { "" } else { "s" },
        if bad == 0 {
            format!("all in the lock ({lock_label})")
        } else {
            format!("{bad} NOT in the lock ({lock_label})")
        }
    );
    print!("{}", if opts.json { json } else { text });
    Ok(if bad == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn text_line(f: &Found, status: &LockStatus) -> String {
    let names = f.names.join(" = ");
    let what = match (f.matched, status) {
        (Match::Exact, LockStatus::InLock) => "in the lock".to_string(),
        (Match::Exact, LockStatus::Differs { expected }) => format!(
            "NOT IN THE LOCK: the lock has {}",
            actlut_codegen::hex(expected)
        ),
        (Match::Exact, LockStatus::NotInLock) => "NOT IN THE LOCK: no entry".to_string(),
        (Match::Modified { differing }, _) => format!(
            "NOT IN THE LOCK: a modified copy, {differing} of {} entries differ",
            f.format.entries()
        ),
    };
    format!(
        "  {:#010x}  {:<22} {}  {}  {what}\n",
        f.offset,
        names,
        f.order.short_name(),
        actlut_codegen::hex(&f.sha256),
    )
}

fn json_found(f: &Found, status: &LockStatus) -> String {
    let (matched, differing) = match f.matched {
        Match::Exact => ("exact", 0),
        Match::Modified { differing } => ("modified", differing),
    };
    let lock_sha = match status {
        LockStatus::InLock => format!("\"{}\"", actlut_codegen::hex(&f.sha256)),
        LockStatus::Differs { expected } => format!("\"{}\"", actlut_codegen::hex(expected)),
        LockStatus::NotInLock => "null".to_string(),
    };
    format!(
        "      {{\"offset\": {}, \"bytes\": {}, \"names\": {}, \"format\": {}, \"byte_order\": {}, \
         \"sha256\": \"{}\", \"match\": {}, \"differing_entries\": {differing}, \"in_lock\": {}, \
         \"lock_sha256\": {lock_sha}}}",
        f.offset,
        f.len,
        json_list(&f.names),
        json_str(f.format.name()),
        json_str(f.order.short_name()),
        actlut_codegen::hex(&f.sha256),
        json_str(matched),
        status.is_in_lock(),
    )
}
