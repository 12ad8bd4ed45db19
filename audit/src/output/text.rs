//! The report for a person: a line per file, a line per table, declaration,
//! record and problem, and a summary; written a line at a time.

use std::io::{self, Write};
use std::string::{String, ToString};

use crate::declared::Declared;
use crate::{Found, ListedStatus, LockStatus, Rule, Verdict, NOTHING_VERIFIED};

use super::Audit;

/// Writes the text report of `audit`, a line at a time.
pub(crate) fn write(audit: &Audit<'_>, out: &mut dyn Write) -> io::Result<()> {
    let lock = &audit.lock.entries;
    let label = &audit.lock.label;
    for report in audit.reports {
        let listed = match report.listed.len() {
            0 => String::new(),
            n => format!("; names {n} table{} by SHA-256 (actlut's manifest)", s(n)),
        };
        let found = match report.found.len() {
            _ if report.nothing_verified() => NOTHING_VERIFIED.to_string(),
            0 => "no actlut tables found by content".to_string(),
            1 => "1 table".to_string(),
            n => format!("{n} tables"),
        };
        // Its control characters escaped (`\n`, `\u{1b}`): a path's newline adds no line.
        let shown = |c: char| match c.is_control() {
            true => c.escape_default().collect(),
            false => vec![c],
        };
        let path: String = report.path.chars().flat_map(shown).collect();
        writeln!(out, "{path}: {} bytes, {found}{listed}", report.bytes)?;
        for f in &report.found {
            out.write_all(table_line(f, &f.lock_status(lock)).as_bytes())?;
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
            let (at, names) = (l.offset, l.names.join(" = "));
            writeln!(out, "  {at:#010x}  {names:<22} sha256  {status}")?;
        }
        for d in &report.declared {
            writeln!(out, "{}", declared_line(d))?;
        }
        for r in &report.records {
            if let Some(p) = r.problem(lock) {
                let (at, name) = (r.offset, &r.name);
                writeln!(out, "  {at:#010x}  {name:<22} record  MISMATCH: {p}")?;
            }
        }
        for p in audit.findings(report) {
            let word = match p.rule {
                Rule::Malformed => "MALFORMED",
                Rule::NotJudged => "STOPPED",
                Rule::Expected => "MISSING",
                _ => continue,
            };
            writeln!(out, "  {word}: {}", p.message)?;
        }
    }
    let (total, files) = (audit.tables_found(), audit.reports.len());
    let (tables, of_files) = (s(total), s(files));
    let verdict = match (audit.problem_count(), audit.note()) {
        (0, Some(note)) => format!("{note} (lock: {label})"),
        (0, None) => format!("all intact and in the lock ({label})"),
        (n, _) => format!("{n} problem{} (lock: {label})", s(n)),
    };
    writeln!(
        out,
        "audit: {total} table{tables} found in {files} file{of_files}, {verdict}"
    )
}

/// The plural ending for `n` things.
fn s(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// One line for a declaration record: where it is, what it declares, and
/// whether its table is intact at its location.
pub fn declared_line(d: &Declared) -> String {
    let name = d.name().unwrap_or(&d.shown_name);
    let at = d.table_offset();
    let what = match d.problem() {
        None if d.recomputed => format!(
            "declared, its table at {at:#010x} intact, as computed again (the lock does not list it)"
        ),
        None => format!("declared, its table at {at:#010x} intact, in the lock"),
        Some(p) => format!("BAD DECLARATION: {p}"),
    };
    format!("  {:#010x}  {name:<22} decl  {what}", d.offset)
}

/// One line for a copy found by content.
pub fn table_line(f: &Found, status: &LockStatus) -> String {
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
        .map_or_else(|| format!("{:<64}", "-"), |h| actlut_codegen::hex(&h));
    let (at, label, order) = (f.offset, f.label(), f.order.short_name());
    format!("  {at:#010x}  {label:<22} {order}  {sha}  {what}\n")
}

/// A description with its verdict word upper-cased (`MODIFIED: …`).
fn shout_verdict(description: &str) -> String {
    match description.split_once(':') {
        Some((word, rest)) => format!("{}:{rest}", word.to_uppercase()),
        None => description.to_uppercase(),
    }
}
