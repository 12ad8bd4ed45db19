//! `actlut audit FILE...`: find embedded tables in compiled artifacts and judge
//! each against the lock.

use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;

use actlut::manifest;
use actlut_audit::{self as audit, Found, Index, ListedStatus, LockStatus, Reference, Verdict};
use actlut_codegen::lock;

use crate::args::Options;
use crate::json::{json_list, json_str};
use crate::tables::{compact_forms, table_le, LOCK};
use crate::{emit, usage, Failure};

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
    Ok(report)
}

pub(crate) fn audit_files(opts: &Options) -> Result<ExitCode, Failure> {
    if opts.files.is_empty() {
        return Err(usage("`audit` needs at least one file".to_string()));
    }
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
             \"rejected_pairs\": {}, \"rejected_features\": {}, \"rejected_matching\": {}, \
             \"rejected_distinctive_per_mille\": {}, \
             \"tables\": [",
            json_str(&shown),
            report.bytes,
            report.candidates,
            report.compared,
            report.compact_rejected_chunks,
            report.compact_rejected_share,
            report.compact_rejected_cut_share,
            report.rejected_surprises,
            report.rejected_pairs,
            report.rejected_features,
            report.rejected_matching,
            report.rejected_distinctive_per_mille
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
        if report.too_many {
            let _ = writeln!(text, "  STOPPED: {}", report.stopped());
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

pub(crate) fn json_found(f: &Found, status: &LockStatus) -> String {
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
         \"foreign_order\": {}, \"description\": {}}}",
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
        f.foreign_order,
        json_str(&f.describe()),
    )
}

pub(crate) fn json_compact(c: &audit::compact::CompactDetail) -> String {
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

pub(crate) fn json_listed(l: &audit::Listed) -> String {
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
