//! `actlut audit FILE...`: find embedded tables in compiled artifacts and judge
//! each against the lock.

use std::path::Path;
use std::process::ExitCode;

use actlut::manifest;
use actlut_audit::output::{Audit, OutputFormat};
use actlut_audit::{self as audit, Reference};
use actlut_codegen::lock;

use crate::args::Options;
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

pub(crate) fn audit_files(opts: &Options) -> Result<ExitCode, Failure> {
    if opts.files.is_empty() {
        return Err(usage("`audit` needs at least one file".to_string()));
    }
    let (lock_label, lock_entries) = load_lock(opts.lock.as_deref())?;
    // Check every artifact before scanning, so that bad input fails fast.
    for f in &opts.files {
        check_artifact(Path::new(f))?;
    }
    // The tables this build embeds (each checked against the lock by its
    // build), each 16-bit table also in its compact stored forms of both
    // layouts (checked against the compact lock of each): the tables the
    // search by content looks for.
    let forms = compact_forms()?;
    let mut refs = Vec::new();
    for t in manifest::TABLES {
        let mut r = Reference::new(t.name.to_string(), t.format, table_le(t));
        for (_, stored) in forms.iter().filter(|(name, _)| *name == t.name) {
            r = r.with_compact(stored.clone()).map_err(Failure)?;
        }
        refs.push(r);
    }
    let lock = audit::Lock::new(lock_label, lock_entries, refs);
    let mut reports = Vec::new();
    for f in &opts.files {
        reports.push(audit::audit(Path::new(f), &lock).map_err(|e| Failure(e.0))?);
    }
    let format = if opts.json {
        OutputFormat::Json
    } else {
        OutputFormat::Text
    };
    let result = Audit {
        lock: &lock,
        reports: &reports,
        expect: &[],
    };
    emit(&result.render(format));
    Ok(ExitCode::from(result.exit_code()))
}
