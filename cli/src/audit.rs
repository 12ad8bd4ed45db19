//! `actlut audit FILE...`: find embedded tables in compiled artifacts and judge
//! each against the lock.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use actlut::manifest;
use actlut_audit::{self as audit, Found, Index, ListedStatus, LockStatus, Reference, Verdict};
use actlut_codegen::lock;
use serde::Serialize;

use crate::output::to_json;
use crate::tables::{compact_forms, table_le, LOCK};
use crate::{Failure, Io, Stop};

/// `actlut audit --help` before the arguments.
const LONG_ABOUT: &str = "\
Find actlut tables in compiled artifacts (ELF, wasm, raw firmware images, static libraries), \
in either byte order, intact, modified (entries changed) or truncated (cut off by the end of \
the file), and check each against the lock (the one built in, or LOCK); every table an \
artifact names by its SHA-256 (actlut's manifest) must be in it intact.

16-bit tables are also found in their compact stored form (reported as `NAME (compact)`), by \
content whatever their header holds and by their `ACTLUTC1` header: a changed byte of the \
header, directory or pool, a compact form of an unknown table, or an invalid one is a \
problem. FILE must be a regular file; it is read in blocks, so memory does not grow with its \
size.";

/// `actlut audit --help` after the arguments.
const AFTER_HELP: &str = "\
exit status:
  0  ok: every table found is intact and in the lock, and every table the
     artifact's manifest lists is found intact
  1  audit: a table is modified, truncated, not in the lock, or listed by the
     manifest but missing; a manifest record's hash is not the lock's; a
     compact stored form is unknown or invalid; or too many candidates
  2  usage or I/O error (bad arguments; a missing, unreadable, empty or
     non-regular file; a corrupt, truncated or incomplete lock)";

/// `actlut audit [--json] [--lock LOCK] FILE...`.
#[derive(clap::Args)]
#[command(
    about = "Find embedded tables in compiled artifacts and check each against the lock",
    long_about = LONG_ABOUT,
    after_help = AFTER_HELP
)]
pub(crate) struct Args {
    /// Print one JSON object: lock, files (each with its tables, listed tables and
    /// problems), tables_found, problems, ok
    #[arg(long)]
    json: bool,
    /// The lock to check against, instead of the one built in
    #[arg(long, value_name = "LOCK")]
    lock: Option<PathBuf>,
    /// The artifacts to audit
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
}

/// Runs `actlut audit`.
pub(crate) fn run(a: &Args, io: &mut Io) -> Result<u8, Stop> {
    Ok(audit_files(a, io)?)
}

/// A lock is a few kilobytes: anything far larger is not one.
const MAX_LOCK_BYTES: u64 = 1 << 20;

pub(crate) fn load_lock(path: Option<&Path>) -> Result<(String, Vec<lock::Entry>), Failure> {
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
pub(crate) fn kind(meta: &std::fs::Metadata) -> &'static str {
    if meta.is_dir() {
        "a directory"
    } else {
        "a FIFO, socket or device"
    }
}

/// Checks that `path` is a non-empty regular file (following symbolic
/// links): a directory, FIFO or device is refused, never read.
pub(crate) fn check_artifact(path: &Path) -> Result<(), Failure> {
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

pub(crate) fn scan_file(index: &Index, path: &Path) -> Result<audit::Report, Failure> {
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
    let container = audit::container::inspect(&object::ReadCache::new(&file), meta.len());
    use std::io::Seek as _;
    (&file).rewind().map_err(cannot)?;
    let mut report = index
        .scan_reader_in(&file, container.order)
        .map_err(cannot)?;
    report.malformed = container.problem;
    // Where the loader puts what was found: read with a fresh cache, after
    // the scan, and only where something was found.
    audit::loader::judge_report(&mut report, &object::ReadCache::new(&file), meta.len());
    Ok(report)
}

pub(crate) fn audit_files(opts: &Args, io: &mut Io) -> Result<u8, Failure> {
    let (lock_label, lock_entries) = load_lock(opts.lock.as_deref())?;
    // Check every artifact before scanning, so that bad input fails fast.
    for f in &opts.files {
        check_artifact(Path::new(f))?;
    }
    // Each table, and each 16-bit table also in its compact stored forms of
    // both layouts (what a build with actlut's `compact` or `compact-words`
    // feature embeds instead), checked against the compact lock of each.
    let forms = compact_forms()?;
    let mut refs = Vec::new();
    for t in manifest::TABLES {
        let mut r = Reference::new(t.name.to_string(), t.format, table_le(t));
        for (_, stored) in forms.iter().filter(|(name, _)| *name == t.name) {
            r = r.with_compact(stored.clone()).map_err(Failure)?;
        }
        refs.push(r);
    }
    let index = Index::with_lock(audit::merge_aliases(refs), &lock_entries);

    let mut problems = 0usize;
    let mut total = 0usize;
    let mut text = String::new();
    let mut files = Vec::new();
    for f in &opts.files {
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
        let mut tables = Vec::new();
        for f in found {
            let status = f.lock_status(&lock_entries);
            text.push_str(&text_line(f, &status));
            tables.push(json_found(f, &status));
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
        for d in &report.declared {
            let _ = writeln!(text, "{}", declared_line(d));
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
        if let Some(m) = &report.malformed {
            let _ = writeln!(text, "  MALFORMED: {m}");
        }
        for l in &report.loaded {
            let _ = writeln!(text, "  LOADED OVER: {l}");
        }
        if report.too_many {
            let _ = writeln!(text, "  STOPPED: {}", report.stopped());
        }
        files.push(FileJson {
            path: shown,
            bytes: report.bytes,
            candidates: report.candidates,
            compared_entries: report.compared,
            compact_rejected_chunks: report.compact_rejected_chunks,
            compact_rejected_per_mille: report.compact_rejected_share,
            compact_rejected_cut_per_mille: report.compact_rejected_cut_share,
            rejected_surprises: report.rejected_surprises,
            rejected_pairs: report.rejected_pairs,
            rejected_features: report.rejected_features,
            rejected_matching: report.rejected_matching,
            rejected_distinctive_per_mille: report.rejected_distinctive_per_mille,
            tables,
            listed: report.listed.iter().map(json_listed).collect(),
            problems: file_problems,
        });
    }
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
    if opts.json {
        let json = AuditJson {
            lock: lock_label,
            files,
            tables_found: total,
            problems,
            ok: problems == 0,
        };
        io.emit(&to_json(&json, 2));
    } else {
        io.emit(&text);
    }
    Ok(if problems == 0 { 0 } else { 1 })
}

/// The object of `actlut audit --json`.
#[derive(Serialize)]
struct AuditJson {
    /// `built-in lock` or the lock's path.
    lock: String,
    files: Vec<FileJson>,
    tables_found: usize,
    problems: usize,
    ok: bool,
}

/// One artifact of [`AuditJson`]: its size, the scan's counts, what was found.
#[derive(Serialize)]
struct FileJson {
    path: String,
    bytes: u64,
    candidates: u64,
    compared_entries: u64,
    compact_rejected_chunks: usize,
    compact_rejected_per_mille: u32,
    compact_rejected_cut_per_mille: u32,
    rejected_surprises: usize,
    rejected_pairs: usize,
    rejected_features: usize,
    rejected_matching: usize,
    rejected_distinctive_per_mille: u32,
    tables: Vec<FoundJson>,
    listed: Vec<ListedJson>,
    problems: Vec<String>,
}

/// One table found ([`Found`]).
#[derive(Serialize)]
struct FoundJson {
    offset: u64,
    bytes: usize,
    form_offset: usize,
    form_bytes: usize,
    names: Vec<String>,
    format: &'static str,
    form: String,
    byte_order: &'static str,
    sha256: Option<String>,
    verdict: &'static str,
    differing_entries: usize,
    matching_entries: usize,
    evidence: usize,
    first_differences: Vec<usize>,
    in_lock: bool,
    lock_sha256: Option<String>,
    compact: Option<CompactJson>,
    foreign_order: bool,
    description: String,
}

/// A compact stored form's details ([`audit::compact::CompactDetail`]).
#[derive(Serialize)]
struct CompactJson {
    found_by: &'static str,
    differing_header_bytes: usize,
    differing_directory_bytes: usize,
    differing_pool_bytes: usize,
    decoded: &'static str,
    decoded_differing_entries: Option<usize>,
    other_packing: bool,
    logical_sha256: Option<String>,
}

/// A table the artifact's manifest lists ([`audit::Listed`]).
#[derive(Serialize)]
struct ListedJson {
    offset: u64,
    names: Vec<String>,
    listed_sha256: String,
    status: &'static str,
}

/// One line for a declaration record: where it is, what it declares, and
/// whether its table is intact at its location.
pub(crate) fn declared_line(d: &audit::declared::Declared) -> String {
    let name = d.name().unwrap_or(&d.shown_name);
    let what = match d.problem() {
        None => format!(
            "declared, its table at {:#010x} intact, in the lock",
            d.table_offset()
        ),
        Some(p) => format!("BAD DECLARATION: {p}"),
    };
    format!("  {:#010x}  {name:<22} decl  {what}", d.offset)
}

pub(crate) fn text_line(f: &Found, status: &LockStatus) -> String {
    let what = match (f.verdict, status) {
        (Verdict::Intact, _) if f.foreign_order => {
            "FOREIGN BYTE ORDER: intact, but not in the order the file declares".to_string()
        }
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
pub(crate) fn shout_verdict(description: &str) -> String {
    match description.split_once(':') {
        Some((word, rest)) => format!("{}:{rest}", word.to_uppercase()),
        None => description.to_uppercase(),
    }
}

fn json_found(f: &Found, status: &LockStatus) -> FoundJson {
    let identity = match &f.compact {
        Some(c) => c.logical_sha256,
        None => f.sha256,
    };
    let hex = |h: [u8; 32]| actlut_codegen::hex(&h);
    FoundJson {
        offset: f.offset,
        bytes: f.len,
        form_offset: f.form_offset,
        form_bytes: f.form_len,
        names: f.names.clone(),
        format: f.format.name(),
        form: f.form.clone(),
        byte_order: f.order.short_name(),
        sha256: f.sha256.map(hex),
        verdict: f.verdict.name(),
        differing_entries: f.differing,
        matching_entries: f.matching,
        evidence: f.evidence,
        first_differences: f.first_differences.clone(),
        in_lock: status.is_in_lock(),
        lock_sha256: match status {
            LockStatus::InLock => identity.map(hex),
            LockStatus::Differs { expected } => Some(hex(*expected)),
            LockStatus::NotInLock => None,
        },
        compact: f.compact.as_ref().map(json_compact),
        foreign_order: f.foreign_order,
        description: f.describe(),
    }
}

fn json_compact(c: &audit::compact::CompactDetail) -> CompactJson {
    use audit::compact::{Decoded, FoundBy};
    let (decoded, entries) = match &c.decoded {
        Decoded::Same => ("same", Some(0)),
        Decoded::Differs { entries, .. } => ("differs", Some(*entries)),
        Decoded::Invalid(_) => ("invalid", None),
        Decoded::Absent => ("absent", None),
    };
    CompactJson {
        found_by: match c.found_by {
            FoundBy::Content => "content",
            FoundBy::Header => "header",
        },
        differing_header_bytes: c.header,
        differing_directory_bytes: c.directory,
        differing_pool_bytes: c.pool,
        decoded,
        decoded_differing_entries: entries,
        other_packing: c.other_packing,
        logical_sha256: c.logical_sha256.map(|h| actlut_codegen::hex(&h)),
    }
}

fn json_listed(l: &audit::Listed) -> ListedJson {
    let status = match l.status {
        ListedStatus::Intact => "intact",
        ListedStatus::Damaged {
            verdict: Verdict::Intact,
            ..
        } => "other",
        ListedStatus::Damaged { verdict, .. } => verdict.name(),
        ListedStatus::Missing => "missing",
    };
    ListedJson {
        offset: l.offset,
        names: l.names.clone(),
        listed_sha256: actlut_codegen::hex(&l.sha256),
        status,
    }
}
