//! `actlut audit FILE...`: find embedded tables in compiled artifacts and judge
//! each against the lock.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use actlut::manifest;
use actlut_audit::output::{Audit, OutputFormat};
use actlut_audit::{self as audit, Reference};
use actlut_codegen::lock;

use crate::output::write_json;
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
size.

The report is text, JSON, SARIF 2.1.0, a CycloneDX 1.5 SBOM or an in-toto Statement v1 \
(`--format`); the exit status is the same in every format. A file in which no table is found \
says \"no actlut table found: nothing was verified\": that is no confirmation, and \
`--expect NAME` makes a missing table a problem. What a program reads when it runs is checked \
in the process, by actlut's `self-check` feature (docs/self-check.md), not by the audit.";

/// `actlut audit --help` after the arguments.
const AFTER_HELP: &str = "\
exit status:
  0  ok: every table found is intact and in the lock, every table the
     artifact's manifest lists is found intact, and every table --expect
     names is there (a file with no table passes: nothing was verified)
  1  audit: a table is modified, truncated, not in the lock, or listed by the
     manifest but missing; a declaration or a manifest record does not hold;
     a compact stored form is unknown or invalid; an expected table is
     missing; malformed headers; or too many candidates
  2  usage or I/O error (bad arguments; a missing, unreadable, empty or
     non-regular file; a corrupt, truncated or incomplete lock; a report
     that cannot be written)";

/// `actlut audit [--format FORMAT] [--json] [--expect NAME]... [--lock LOCK] FILE...`.
#[derive(clap::Args)]
#[command(
    about = "Find embedded tables in compiled artifacts and check each against the lock",
    long_about = LONG_ABOUT,
    after_help = AFTER_HELP
)]
pub(crate) struct Args {
    /// Print one JSON object: lock, files (each with its tables, listed tables and
    /// problems), tables_found, problems, ok (`--format json`)
    #[arg(long)]
    json: bool,
    /// The report's format
    #[arg(
        long,
        value_enum,
        default_value_t,
        value_name = "FORMAT",
        conflicts_with = "json"
    )]
    format: Format,
    /// A table every file must hold (repeatable): one missing is a problem (exit 1)
    #[arg(long, value_name = "NAME")]
    expect: Vec<String>,
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

pub(crate) fn audit_files(opts: &Args, io: &mut Io) -> Result<u8, Failure> {
    let (lock_label, lock_entries) = load_lock(opts.lock.as_deref())?;
    // Check every artifact before scanning, so that bad input fails fast.
    for f in &opts.files {
        check_artifact(Path::new(f))?;
    }
    // The tables this build embeds (each checked against the lock by its
    // build), each 16-bit table also in its compact stored forms of both
    // layouts (checked against the compact lock of each): what the search by
    // content looks for.
    let forms = compact_forms()?;
    let mut refs = Vec::new();
    for t in manifest::TABLES {
        let mut r = Reference::new(t.name.to_string(), t.format, table_le(t));
        for (_, stored) in forms.iter().filter(|(name, _)| *name == t.name) {
            r = r.with_compact(stored.clone()).map_err(Failure)?;
        }
        refs.push(r);
    }
    // Every built-in derivative table this build does not embed (actlut's
    // `derivatives` feature is off here): computed by the same evaluation,
    // so that a derivative's declaration is recognised by every part of its
    // record (header, hash, name, table), not by its marker alone.
    for (op, format) in actlut_codegen::builtin_tables().filter(|(op, _)| op.is_derivative()) {
        let name = actlut_codegen::op_table_name(&op, format);
        if manifest::TABLES.iter().any(|t| t.name == name) {
            continue;
        }
        let mut table = vec![0u16; format.entries()];
        actlut::fill_table(&op, format, &mut table[..])
            .map_err(|e| Failure(format!("{name}: {e}")))?;
        refs.push(Reference::new(
            name,
            format,
            actlut_codegen::table_bytes_le(format, &table),
        ));
    }
    let lock = audit::Lock::new(lock_label, lock_entries, refs);
    // At most MAX_FOUND findings over all files together, so that memory
    // does not grow with the number of files.
    let reports = audit::audit_all(&opts.files, &lock).map_err(|e| Failure(e.0))?;
    let format = if opts.json {
        OutputFormat::Json
    } else {
        opts.format.into()
    };
    let result = Audit {
        lock: &lock,
        reports: &reports,
        expect: &opts.expect,
    };
    match format {
        // Laid out as the command's other JSON: its keys one a line, each
        // file on one line.
        OutputFormat::Json => write_report(io.out, |out| {
            write_json(out, &audit::output::json_document(&result), 2)
        })?,
        _ => write_report(io.out, |out| result.render_to(format, out))?,
    }
    Ok(result.exit_code())
}

/// Writes a report through `render`, as it is serialized, to `out`
/// (buffered): a reader that has gone away is no error, any other write
/// error is, as for [`Io::emit`].
fn write_report(
    out: &mut dyn Write,
    render: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), Failure> {
    let mut out = BufWriter::new(out);
    match render(&mut out).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(Failure(format!("cannot write to standard output: {e}")))
        }
        _ => Ok(()),
    }
}

/// The formats of `--format`.
#[derive(Clone, Copy, Debug, Default, clap::ValueEnum)]
pub(crate) enum Format {
    /// Lines for a person.
    #[default]
    Text,
    /// The JSON of `--json`.
    Json,
    /// SARIF 2.1.0, for code-scanning tools: one result per problem, at its offset.
    Sarif,
    /// A CycloneDX 1.5 SBOM: the file with its SHA-256, each table found with the lock's.
    Cyclonedx,
    /// An unsigned in-toto Statement v1: the file's SHA-256 as subject, the verdict as predicate.
    #[value(name = "in-toto")]
    InToto,
}

impl From<Format> for OutputFormat {
    fn from(f: Format) -> OutputFormat {
        match f {
            Format::Text => OutputFormat::Text,
            Format::Json => OutputFormat::Json,
            Format::Sarif => OutputFormat::Sarif,
            Format::Cyclonedx => OutputFormat::CycloneDx,
            Format::InToto => OutputFormat::InToto,
        }
    }
}
