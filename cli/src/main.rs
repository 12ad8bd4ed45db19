//! `actlut`: list, dump and audit actlut's tables.
//!
//! ```text
//! actlut manifest [--json]                 every table: name, format, size, SHA-256, definition,
//!                                          and each 16-bit table's compact stored form
//! actlut dump DIR                          DIR/<name>.bin for every table, and DIR/SHA256SUMS;
//!                                          DIR/compact/<name>.compact and its SHA256SUMS
//! actlut audit [--json] [--lock LOCK] FILE...
//!                                          find embedded tables in compiled artifacts
//! ```
//!
//! `audit` exits with 0 when every table it finds is intact and in the lock
//! and every table an artifact names by its SHA-256 (actlut's manifest) is
//! there intact; 1 when something is modified, truncated, not in the lock or
//! missing, or a compact stored form is of an unknown table or invalid; and 2 on a usage or I/O error (a missing, unreadable, empty or
//! non-regular file, a corrupt or incomplete lock, bad arguments), with a
//! one-line message.

use std::ffi::{OsStr, OsString};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use actlut::manifest::{self, Table};
use actlut_audit::{self as audit, Found, Index, ListedStatus, LockStatus, Reference, Verdict};
use actlut_codegen::{compact_lock, lock};

/// The lock this build of actlut was checked against.
const LOCK: &str = include_str!("../../tables/actlut.lock");

/// The SHA-256 of every 16-bit table's compact stored form (the bytes
/// actlut's `compact` feature embeds).
const COMPACT_LOCK: &str = include_str!("../../tables/actlut-compact.lock");

/// A lock is a few kilobytes: anything far larger is not one.
const MAX_LOCK_BYTES: u64 = 1 << 20;

const USAGE: &str = "\
usage: actlut manifest [--json]
       actlut dump DIR
       actlut audit [--json] [--lock LOCK] FILE...

  manifest   list every table: name, format, entries, bytes, SHA-256 (of the
             entries: the table's identity), then for each 16-bit table the size
             and SHA-256 of its compact stored form (what the `compact` feature
             embeds, tables/actlut-compact.lock; `-` for smaller tables), and
             the definition
  dump       write DIR/<name>.bin (little-endian) for every table and DIR/SHA256SUMS,
             and DIR/compact/<name>.compact (the compact stored form) for every
             16-bit table and DIR/compact/SHA256SUMS (the compact lock's hashes);
             `sha256sum -c SHA256SUMS` verifies each directory; never writes
             through a symbolic link
  audit      find actlut tables in compiled artifacts (ELF, wasm, raw firmware
             images, static libraries), in either byte order, intact, modified
             (entries changed) or truncated (cut off by the end of the file), and
             check each against the lock (the one built in, or LOCK); every table
             an artifact names by its SHA-256 (actlut's manifest) must be in it
             intact. 16-bit tables are also found in their compact stored form
             (reported as `NAME (compact)`), by content whatever their header
             holds and by their `ACTLUTC1` header: a changed byte of the header,
             directory or pool, a compact form of an unknown table, or an invalid
             one is a problem. FILE must be a regular file; it is read in blocks,
             so memory does not grow with its size.

exit status:
  0  ok: every table found is intact and in the lock, and every table the
     artifact's manifest lists is found intact
  1  audit: a table is modified, truncated, not in the lock, or listed by the
     manifest but missing; a manifest record's hash is not the lock's; a
     compact stored form is unknown or invalid; or too many candidates
  2  usage or I/O error (bad arguments; a missing, unreadable, empty or
     non-regular file; a corrupt, truncated or incomplete lock)";

/// A failure: the one-line message (exit code 2).
struct Failure(String);

/// Writes `text` to standard output. A reader that has gone away (`actlut
/// audit … | head`) is not an error: the exit status still says what was
/// found. Any other write error is reported on standard error.
fn emit(text: &str) {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("actlut: error: cannot write to standard output: {e}");
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    match run(&args) {
        Ok(code) => code,
        Err(Failure(message)) => {
            eprintln!("actlut: error: {message}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[OsString]) -> Result<ExitCode, Failure> {
    let Some((command, rest)) = args.split_first() else {
        return Err(Failure("no command given (try `actlut help`)".to_string()));
    };
    match command.to_str().unwrap_or("") {
        "help" | "-h" | "--help" => {
            emit(&format!("{USAGE}\n"));
            Ok(ExitCode::SUCCESS)
        }
        "-V" | "--version" => {
            emit(&format!(
                "actlut {} ({})\n",
                env!("CARGO_PKG_VERSION"),
                manifest::REFERENCE_VERSION
            ));
            Ok(ExitCode::SUCCESS)
        }
        "manifest" => {
            let opts = Options::parse(rest, false)?;
            if let Some(f) = opts.files.first() {
                return Err(usage(format!(
                    "`manifest` takes no file arguments, got `{}`",
                    f.to_string_lossy()
                )));
            }
            emit(&manifest_text(opts.json));
            Ok(ExitCode::SUCCESS)
        }
        "dump" => {
            let opts = Options::parse(rest, false)?;
            if opts.json {
                return Err(usage("`dump` has no `--json` option".to_string()));
            }
            match opts.files.as_slice() {
                [dir] => dump(dir),
                [] => Err(usage("`dump` needs a directory".to_string())),
                _ => Err(usage("`dump` takes exactly one directory".to_string())),
            }
        }
        "audit" => {
            let opts = Options::parse(rest, true)?;
            audit_files(&opts)
        }
        _ => Err(usage(format!(
            "unknown command `{}`",
            command.to_string_lossy()
        ))),
    }
}

fn usage(message: String) -> Failure {
    Failure(format!("{message} (try `actlut help`)"))
}

struct Options {
    json: bool,
    lock: Option<PathBuf>,
    files: Vec<OsString>,
}

impl Options {
    /// Arguments as the OS gives them: a path need not be UTF-8; an option
    /// must be.
    fn parse(args: &[OsString], allow_lock: bool) -> Result<Options, Failure> {
        let mut opts = Options {
            json: false,
            lock: None,
            files: Vec::new(),
        };
        let mut it = args.iter();
        let mut only_files = false;
        while let Some(a) = it.next() {
            let is_option = a.as_encoded_bytes().first() == Some(&b'-') && a != "-";
            if only_files || !is_option {
                opts.files.push(a.clone());
                continue;
            }
            let Some(s) = a.to_str() else {
                let lossy = a.to_string_lossy();
                return Err(usage(if lossy.starts_with("--lock=") {
                    "a `--lock=` path that is not UTF-8: pass it as `--lock PATH`".to_string()
                } else {
                    format!("unknown option `{lossy}`")
                }));
            };
            if s == "--" {
                only_files = true;
            } else if s == "--json" {
                opts.json = true;
            } else if allow_lock && s == "--lock" {
                let path = it
                    .next()
                    .ok_or_else(|| usage("`--lock` needs a file".to_string()))?;
                opts.lock = Some(PathBuf::from(path));
            } else if let Some(path) = s.strip_prefix("--lock=").filter(|_| allow_lock) {
                opts.lock = Some(PathBuf::from(path));
            } else {
                return Err(usage(format!("unknown option `{s}`")));
            }
        }
        Ok(opts)
    }
}

/// The little-endian bytes of a compiled-in table.
fn table_le(t: &Table) -> Vec<u8> {
    // The manifest lists exactly the compiled-in tables.
    let table = t
        .activation
        .table(t.format)
        .expect("a manifest entry without its table");
    table.le_bytes().collect()
}

/// The compact lock this build embeds.
fn compact_lock_entries() -> Vec<lock::Entry> {
    // Checked by actlut's build script and by the tests: a bad one is a bug.
    compact_lock::parse(COMPACT_LOCK).expect("the embedded compact lock parses")
}

/// The compact stored form of every 16-bit table of the manifest, made by
/// the packer (`compact_lock::stored_form_of`) and checked against the
/// compact lock: name -> bytes.
fn compact_forms() -> Result<Vec<(&'static str, Vec<u8>)>, Failure> {
    let entries = compact_lock_entries();
    let mut out = Vec::new();
    for t in manifest::TABLES {
        if !compact_lock::is_compacted(t.format) {
            continue;
        }
        let table: Vec<u16> = table_le(t)
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        let stored = compact_lock::stored_form_of(t.activation.function(), t.format, &table)
            .map_err(|e| Failure(format!("cannot compact {}: {e}", t.name)))?;
        let sha = actlut_codegen::sha256(&stored);
        match entries.iter().find(|e| e.name == t.name) {
            Some(e) if e.sha256 == sha => out.push((t.name, stored)),
            Some(e) => {
                return Err(Failure(format!(
                    "{}: the compact stored form hashes to {}, the compact lock has {}",
                    t.name,
                    actlut_codegen::hex(&sha),
                    actlut_codegen::hex(&e.sha256)
                )))
            }
            None => return Err(Failure(format!("{}: not in the compact lock", t.name))),
        }
    }
    Ok(out)
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
    let compact = compact_lock_entries();
    // The compact stored form's length and SHA-256, for a 16-bit table.
    let stored = |t: &Table| -> Option<(usize, String)> {
        let e = compact.iter().find(|e| e.name == t.name)?;
        let len = compact_lock::stored_len(e)?;
        Some((len, actlut_codegen::hex(&e.sha256)))
    };
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
                 \"sha256\": \"{}\", \"stored_bytes\": {}, \"stored_sha256\": {}, \"definition\": {}, \
                 \"aliases\": {}}}{}",
                json_str(t.name),
                json_str(t.activation.name()),
                json_str(t.format.name()),
                t.entries(),
                t.bytes(),
                t.sha256_hex(),
                stored(t).map_or("null".to_string(), |(n, _)| n.to_string()),
                stored(t).map_or("null".to_string(), |(_, h)| format!("\"{h}\"")),
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
        "# sha256: of the entries (the identity); stored, stored_sha256: the compact stored form"
    );
    let _ = writeln!(
        s,
        "# {:<20} {:<9} {:>7} {:>7} {:<64} {:>6} {:<64} definition",
        "name", "format", "entries", "bytes", "sha256", "stored", "stored_sha256"
    );
    for t in manifest::TABLES {
        let a = aliases(t);
        let note = if a.is_empty() {
            String::new()
        } else {
            format!("  [same bytes as {}]", a.join(", "))
        };
        let (len, sha) = stored(t).map_or(("-".to_string(), "-".to_string()), |(n, h)| {
            (n.to_string(), h)
        });
        let _ = writeln!(
            s,
            "{:<22} {:<9} {:>7} {:>7} {} {len:>6} {sha:<64} {}{note}",
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

fn dump(dir: &OsStr) -> Result<ExitCode, Failure> {
    if dir.is_empty() {
        return Err(usage(
            "`dump` needs a directory name, and `` is empty".to_string(),
        ));
    }
    let dir = Path::new(dir);
    // A symbolic link as DIR is followed, and the output says where to.
    let note = match std::fs::symlink_metadata(dir) {
        Ok(m) if m.file_type().is_symlink() => match std::fs::read_link(dir) {
            Ok(target) => format!(
                " ({} is a symbolic link to {})",
                dir.display(),
                target.display()
            ),
            Err(_) => format!(" ({} is a symbolic link)", dir.display()),
        },
        _ => String::new(),
    };
    std::fs::create_dir_all(dir)
        .map_err(|e| Failure(format!("cannot create directory {}: {e}", dir.display())))?;
    let mut sums = String::new();
    for t in manifest::TABLES {
        let path = dir.join(format!("{}.bin", t.name));
        let bytes = table_le(t);
        // Re-hash what is written: a dump is proof only of bytes that were checked.
        t.check(&bytes[..]).map_err(|e| Failure(e.to_string()))?;
        write_file(&path, &bytes)?;
        let _ = writeln!(sums, "{}  {}.bin", t.sha256_hex(), t.name);
    }
    write_file(&dir.join("SHA256SUMS"), sums.as_bytes())?;
    // The compact stored forms, each checked against the compact lock and
    // decoded back to the table just written.
    let forms = compact_forms()?;
    let compact_dir = dir.join("compact");
    if let Ok(m) = std::fs::symlink_metadata(&compact_dir) {
        if m.file_type().is_symlink() {
            return Err(Failure(format!(
                "refusing to write into {}: it is a symbolic link, which dump does not follow (remove it first)",
                compact_dir.display()
            )));
        }
    }
    std::fs::create_dir_all(&compact_dir).map_err(|e| {
        Failure(format!(
            "cannot create directory {}: {e}",
            compact_dir.display()
        ))
    })?;
    let mut compact_sums = String::new();
    for (name, stored) in &forms {
        write_file(&compact_dir.join(format!("{name}.compact")), stored)?;
        let _ = writeln!(
            compact_sums,
            "{}  {name}.compact",
            actlut_codegen::hex(&actlut_codegen::sha256(stored))
        );
    }
    write_file(&compact_dir.join("SHA256SUMS"), compact_sums.as_bytes())?;
    emit(&format!(
        "wrote {} tables and SHA256SUMS to {}{note}, and {} compact stored forms and SHA256SUMS to {} \
         (check each with: sha256sum -c SHA256SUMS)\n",
        manifest::TABLES.len(),
        dir.display(),
        forms.len(),
        compact_dir.display()
    ));
    Ok(ExitCode::SUCCESS)
}

/// Writes `bytes` to `path` without following a symbolic link there: an
/// existing link is an error, and the bytes go to a new file in the same
/// directory that is then renamed over `path` (a rename replaces a link made
/// in the meantime instead of writing through it).
fn write_file(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    if let Ok(m) = std::fs::symlink_metadata(path) {
        if m.file_type().is_symlink() {
            let target = std::fs::read_link(path)
                .map(|t| format!(" to {}", t.display()))
                .unwrap_or_default();
            return Err(Failure(format!(
                "refusing to write {}: it is a symbolic link{target}, which dump does not follow (remove it first)",
                path.display()
            )));
        }
    }
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let tmp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .and_then(|mut f| std::io::Write::write_all(&mut f, bytes))
        .and_then(|()| std::fs::rename(&tmp, path));
    written.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Failure(format!("cannot write {}: {e}", path.display()))
    })
}

fn load_lock(path: Option<&Path>) -> Result<(String, Vec<lock::Entry>), Failure> {
    let (label, text) = match path {
        None => ("built-in lock".to_string(), LOCK.to_string()),
        Some(p) => {
            let cannot = |e: String| Failure(format!("cannot read lock {}: {e}", p.display()));
            let meta = std::fs::metadata(p).map_err(|e| cannot(e.to_string()))?;
            if !meta.is_file() {
                return Err(cannot(format!("not a regular file ({})", kind(&meta))));
            }
            if meta.len() > MAX_LOCK_BYTES {
                return Err(Failure(format!(
                    "lock {}: {} bytes is not a lock (a lock is a few kilobytes)",
                    p.display(),
                    meta.len()
                )));
            }
            let bytes = std::fs::read(p).map_err(|e| cannot(e.to_string()))?;
            let text = String::from_utf8(bytes)
                .map_err(|_| Failure(format!("lock {}: not UTF-8 text", p.display())))?;
            (p.display().to_string(), text)
        }
    };
    let entries = lock::parse(&text).map_err(|e| Failure(format!("lock {label}: {e}")))?;
    Ok((label, entries))
}

/// What a non-regular file is, for messages.
fn kind(meta: &std::fs::Metadata) -> &'static str {
    if meta.is_dir() {
        "a directory"
    } else {
        "a FIFO, socket or device"
    }
}

/// Checks that `path` is a non-empty regular file (following symbolic
/// links): a directory, FIFO or device is refused, never read.
fn check_artifact(path: &Path) -> Result<(), Failure> {
    let cannot = |e: String| Failure(format!("cannot read {}: {e}", path.display()));
    let meta = std::fs::metadata(path).map_err(|e| cannot(e.to_string()))?;
    if !meta.is_file() {
        return Err(cannot(format!(
            "not a regular file ({}): audit reads regular files only",
            kind(&meta)
        )));
    }
    if meta.len() == 0 {
        return Err(Failure(format!(
            "{} is empty: nothing to audit",
            path.display()
        )));
    }
    Ok(())
}

fn scan_file(index: &Index, path: &Path) -> Result<audit::Report, Failure> {
    let cannot = |e: std::io::Error| Failure(format!("cannot read {}: {e}", path.display()));
    let file = std::fs::File::open(path).map_err(cannot)?;
    // The path may have changed since it was checked.
    let meta = file.metadata().map_err(cannot)?;
    if !meta.is_file() {
        return Err(Failure(format!(
            "cannot read {}: not a regular file",
            path.display()
        )));
    }
    index.scan_reader(file).map_err(cannot)
}

fn audit_files(opts: &Options) -> Result<ExitCode, Failure> {
    if opts.files.is_empty() {
        return Err(usage("`audit` needs at least one file".to_string()));
    }
    let (lock_label, lock_entries) = load_lock(opts.lock.as_deref())?;
    // Check every artifact before scanning, so that bad input fails fast.
    for f in &opts.files {
        check_artifact(Path::new(f))?;
    }
    // Each table, and each 16-bit table also in its compact stored form (what
    // a build with actlut's `compact` feature embeds instead), checked against
    // the compact lock.
    let forms = compact_forms()?;
    let mut refs = Vec::new();
    for t in manifest::TABLES {
        let r = Reference::new(t.name.to_string(), t.format, table_le(t));
        refs.push(match forms.iter().find(|(name, _)| *name == t.name) {
            Some((_, stored)) => r.with_compact(stored.clone()).map_err(Failure)?,
            None => r,
        });
    }
    let index = Index::with_lock(audit::merge_aliases(refs), &lock_entries);

    let mut problems = 0usize;
    let mut total = 0usize;
    let mut text = String::new();
    let mut json = String::new();
    let _ = writeln!(
        json,
        "{{\n  \"lock\": {},\n  \"files\": [",
        json_str(&lock_label)
    );
    for (i, f) in opts.files.iter().enumerate() {
        let path = Path::new(f);
        let shown = path.display().to_string();
        let report = scan_file(&index, path)?;
        let found = &report.found;
        total += found.len();
        let file_problems = report.problems(&lock_entries);
        problems += file_problems.len();
        let listed = match report.listed.len() {
            0 => String::new(),
            n => format!(
                "; names {n} table{} by SHA-256 (actlut's manifest)",
                if n == 1 { "" } else { "s" }
            ),
        };
        let _ = writeln!(
            text,
            "{shown}: {} bytes, {}{listed}",
            report.bytes,
            match found.len() {
                0 => "no actlut tables".to_string(),
                1 => "1 table".to_string(),
                n => format!("{n} tables"),
            }
        );
        let _ = write!(
            json,
            "    {{\"path\": {}, \"bytes\": {}, \"candidates\": {}, \"compared_entries\": {}, \
             \"compact_rejected_chunks\": {}, \"compact_rejected_per_mille\": {}, \
             \"compact_rejected_cut_per_mille\": {}, \"rejected_surprises\": {}, \
             \"rejected_pairs\": {}, \"tables\": [",
            json_str(&shown),
            report.bytes,
            report.candidates,
            report.compared,
            report.compact_rejected_chunks,
            report.compact_rejected_share,
            report.compact_rejected_cut_share,
            report.rejected_surprises,
            report.rejected_pairs
        );
        for (j, f) in found.iter().enumerate() {
            let status = f.lock_status(&lock_entries);
            text.push_str(&text_line(f, &status));
            json.push_str(if j == 0 { "\n" } else { ",\n" });
            json.push_str(&json_found(f, &status));
        }
        for l in &report.listed {
            let status = match (&l.status, l.problem()) {
                (_, None) => "listed by the manifest, found intact".to_string(),
                (ListedStatus::Missing, Some(p)) => format!("MISSING: {p}"),
                (ListedStatus::Damaged { verdict, .. }, Some(p)) => {
                    format!("{}: {p}", verdict.name().to_uppercase())
                }
                (ListedStatus::Intact, Some(p)) => p,
            };
            let _ = writeln!(
                text,
                "  {:#010x}  {:<22} sha256  {status}",
                l.offset,
                l.names.join(" = "),
            );
        }
        for r in &report.records {
            if let Some(p) = r.problem(&lock_entries) {
                let _ = writeln!(
                    text,
                    "  {:#010x}  {:<22} record  MISMATCH: {p}",
                    r.offset, r.name
                );
            }
        }
        if report.too_many {
            let _ = writeln!(
                text,
                "  STOPPED: too many table candidates (over {} found, or over {} entries compared per byte)",
                audit::MAX_FOUND,
                audit::BUDGET_PER_BYTE
            );
        }
        let close = if found.is_empty() { "" } else { "\n    " };
        let listed_json: Vec<String> = report.listed.iter().map(json_listed).collect();
        let comma = if i + 1 < opts.files.len() { "," } else { "" };
        let _ = writeln!(
            json,
            "{close}], \"listed\": [{}], \"problems\": {}}}{comma}",
            listed_json.join(", "),
            json_list(&file_problems)
        );
    }
    let _ = writeln!(
        json,
        "  ],\n  \"tables_found\": {total},\n  \"problems\": {problems},\n  \"ok\": {}\n}}",
        problems == 0
    );
    let _ = writeln!(
        text,
        "audit: {total} table{} found in {} file{}, {}",
        if total == 1 { "" } else { "s" },
        opts.files.len(),
        if opts.files.len() == 1 { "" } else { "s" },
        if problems == 0 {
            format!("all intact and in the lock ({lock_label})")
        } else {
            format!(
                "{problems} problem{} (lock: {lock_label})",
                if problems == 1 { "" } else { "s" }
            )
        }
    );
    emit(if opts.json { &json } else { &text });
    Ok(if problems == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn text_line(f: &Found, status: &LockStatus) -> String {
    let what = match (f.verdict, status) {
        (Verdict::Intact, LockStatus::InLock) => "intact, in the lock".to_string(),
        (Verdict::Intact, LockStatus::Differs { expected }) => format!(
            "NOT IN THE LOCK: the lock has {}",
            actlut_codegen::hex(expected)
        ),
        (Verdict::Intact, LockStatus::NotInLock) => "NOT IN THE LOCK: no entry".to_string(),
        _ => shout_verdict(&f.describe()),
    };
    let sha = f
        .sha256
        .map(|h| actlut_codegen::hex(&h))
        .unwrap_or_else(|| format!("{:<64}", "-"));
    format!(
        "  {:#010x}  {:<22} {}  {sha}  {what}\n",
        f.offset,
        f.label(),
        f.order.short_name(),
    )
}

/// A description with its verdict word upper-cased (`MODIFIED: …`).
fn shout_verdict(description: &str) -> String {
    match description.split_once(':') {
        Some((word, rest)) => format!("{}:{rest}", word.to_uppercase()),
        None => description.to_uppercase(),
    }
}

fn json_found(f: &Found, status: &LockStatus) -> String {
    let identity = match &f.compact {
        Some(c) => c.logical_sha256,
        None => f.sha256,
    };
    let lock_sha = match status {
        LockStatus::InLock => identity.map_or("null".to_string(), |h| {
            format!("\"{}\"", actlut_codegen::hex(&h))
        }),
        LockStatus::Differs { expected } => format!("\"{}\"", actlut_codegen::hex(expected)),
        LockStatus::NotInLock => "null".to_string(),
    };
    let sha = f.sha256.map_or("null".to_string(), |h| {
        format!("\"{}\"", actlut_codegen::hex(&h))
    });
    let firsts: Vec<String> = f.first_differences.iter().map(|j| j.to_string()).collect();
    format!(
        "      {{\"offset\": {}, \"bytes\": {}, \"form_offset\": {}, \"form_bytes\": {}, \
         \"names\": {}, \"format\": {}, \"form\": {}, \"byte_order\": {}, \"sha256\": {sha}, \
         \"verdict\": {}, \"differing_entries\": {}, \"matching_entries\": {}, \"evidence\": {}, \
         \"first_differences\": [{}], \"in_lock\": {}, \"lock_sha256\": {lock_sha}, \"compact\": {}, \
         \"description\": {}}}",
        f.offset,
        f.len,
        f.form_offset,
        f.form_len,
        json_list(&f.names),
        json_str(f.format.name()),
        json_str(&f.form),
        json_str(f.order.short_name()),
        json_str(f.verdict.name()),
        f.differing,
        f.matching,
        f.evidence,
        firsts.join(", "),
        status.is_in_lock(),
        f.compact.as_ref().map_or("null".to_string(), json_compact),
        json_str(&f.describe()),
    )
}

fn json_compact(c: &audit::compact::CompactDetail) -> String {
    use audit::compact::{Decoded, FoundBy};
    let (decoded, entries) = match &c.decoded {
        Decoded::Same => ("same", "0".to_string()),
        Decoded::Differs { entries, .. } => ("differs", entries.to_string()),
        Decoded::Invalid(_) => ("invalid", "null".to_string()),
        Decoded::Absent => ("absent", "null".to_string()),
    };
    let hex = |h: Option<[u8; 32]>| {
        h.map_or("null".to_string(), |h| {
            format!("\"{}\"", actlut_codegen::hex(&h))
        })
    };
    format!(
        "{{\"found_by\": {}, \"differing_header_bytes\": {}, \"differing_directory_bytes\": {}, \
         \"differing_pool_bytes\": {}, \"decoded\": {}, \"decoded_differing_entries\": {entries}, \
         \"other_packing\": {}, \"logical_sha256\": {}}}",
        json_str(match c.found_by {
            FoundBy::Content => "content",
            FoundBy::Header => "header",
        }),
        c.header,
        c.directory,
        c.pool,
        json_str(decoded),
        c.other_packing,
        hex(c.logical_sha256),
    )
}

fn json_listed(l: &audit::Listed) -> String {
    let status = match l.status {
        ListedStatus::Intact => "intact",
        ListedStatus::Damaged {
            verdict: Verdict::Intact,
            ..
        } => "other",
        ListedStatus::Damaged { verdict, .. } => verdict.name(),
        ListedStatus::Missing => "missing",
    };
    format!(
        "{{\"offset\": {}, \"names\": {}, \"listed_sha256\": \"{}\", \"status\": {}}}",
        l.offset,
        json_list(&l.names),
        actlut_codegen::hex(&l.sha256),
        json_str(status)
    )
}
