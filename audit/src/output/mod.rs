//! What an audit of one or more files says, rendered for a person or a tool
//! in each [`OutputFormat`]: text, JSON (the keys of `actlut audit --json`),
//! SARIF 2.1.0, a CycloneDX 1.5 SBOM and an in-toto Statement v1. Each
//! renderer is one small function over the same [`Audit`], called through
//! [`Audit::render_to`] (or [`Audit::render`]); every machine format is
//! serialized with serde (none is written by hand), as it is written (a
//! finding at a time), and the exit status is the same whatever the format
//! ([`Audit::exit_code`]).

use std::collections::BTreeSet;
use std::io::{self, Write};
use std::string::String;
use std::vec::Vec;

use crate::{LockStatus, Problem, Report, Rule, NOTHING_VERIFIED};
use actlut_codegen::record;

mod cyclonedx;
mod in_toto;
mod json;
mod sarif;
mod stream;
mod text;

pub use in_toto::PREDICATE_TYPE;
pub use json::json_document;
pub use stream::Document;

/// The formats `actlut audit --format` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    /// Lines for a person.
    Text,
    /// The JSON of `--json` ([`json_document`]).
    Json,
    /// SARIF 2.1.0, for code-scanning tools.
    Sarif,
    /// A CycloneDX 1.5 SBOM.
    CycloneDx,
    /// An unsigned in-toto Statement v1 (its predicate type [`PREDICATE_TYPE`]).
    InToto,
}

impl OutputFormat {
    /// Every format.
    pub const ALL: [OutputFormat; 5] = [
        OutputFormat::Text,
        OutputFormat::Json,
        OutputFormat::Sarif,
        OutputFormat::CycloneDx,
        OutputFormat::InToto,
    ];

    /// Its name on the command line: `text`, `json`, `sarif`, `cyclonedx`,
    /// `in-toto`.
    pub const fn name(self) -> &'static str {
        match self {
            OutputFormat::Text => "text",
            OutputFormat::Json => "json",
            OutputFormat::Sarif => "sarif",
            OutputFormat::CycloneDx => "cyclonedx",
            OutputFormat::InToto => "in-toto",
        }
    }

    /// The format named `name` ([`name`](Self::name)).
    pub fn from_name(name: &str) -> Option<OutputFormat> {
        OutputFormat::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// An audit of one or more files against one lock: what every renderer
/// reads.
pub struct Audit<'a> {
    /// The lock's label and entries.
    pub lock: &'a crate::Lock,
    /// One report per file, in the order given.
    pub reports: &'a [Report],
    /// Tables every file must hold (`--expect`): one missing is a problem.
    pub expect: &'a [String],
}

impl Audit<'_> {
    /// Every problem of `report`, those of `--expect` included.
    pub fn findings(&self, report: &Report) -> Vec<Problem> {
        let mut out = report.findings(&self.lock.entries);
        for name in self.expect.iter().filter(|n| !report.holds(n)) {
            out.push(Problem {
                rule: Rule::Expected,
                offset: None,
                length: None,
                message: format!("expected table {name} not found"),
            });
        }
        out
    }

    /// Problems in all files.
    pub fn problem_count(&self) -> usize {
        self.reports.iter().map(|r| self.findings(r).len()).sum()
    }

    /// Copies found by content in all files.
    pub fn tables_found(&self) -> usize {
        self.reports.iter().map(|r| r.found.len()).sum()
    }

    /// Whether nothing was verified in any file ([`NOTHING_VERIFIED`]).
    pub fn nothing_verified(&self) -> bool {
        self.reports.iter().all(Report::nothing_verified)
    }

    /// The note every format carries when nothing was verified.
    pub fn note(&self) -> Option<&'static str> {
        self.nothing_verified().then_some(NOTHING_VERIFIED)
    }

    /// The exit status of `actlut audit`: 0 when there is no problem, 1
    /// otherwise, in every format.
    pub fn exit_code(&self) -> u8 {
        u8::from(self.problem_count() > 0)
    }

    /// Writes the output in `format` to `out` as it is serialized, a
    /// finding at a time ([`Document`]; the text a line at a time), so the
    /// memory a report takes does not grow with its findings.
    ///
    /// # Errors
    ///
    /// The first error writing to `out`.
    pub fn render_to(&self, format: OutputFormat, out: &mut dyn Write) -> io::Result<()> {
        match format {
            OutputFormat::Text => text::write(self, out),
            OutputFormat::Json => stream::write_pretty(out, &json_document(self).0),
            OutputFormat::Sarif => stream::write_pretty(out, &sarif::document(self)),
            OutputFormat::CycloneDx => stream::write_pretty(out, &cyclonedx::document(self)),
            OutputFormat::InToto => stream::write_pretty(out, &in_toto::document(self)),
        }
    }

    /// The whole output in `format` ([`render_to`](Self::render_to) into a
    /// string).
    pub fn render(&self, format: OutputFormat) -> String {
        let mut out = Vec::new();
        self.render_to(format, &mut out)
            .expect("writing to memory does not fail");
        String::from_utf8(out).expect("a report is UTF-8")
    }
}

/// One table a file holds, as the supply-chain formats list it: a copy
/// found by its content, or a declared table the content search does not
/// see (FP6, FP4).
pub(crate) struct TableItem<'r> {
    pub(crate) name: &'r str,
    pub(crate) aliases: &'r [String],
    pub(crate) format: &'static str,
    pub(crate) form: &'r str,
    pub(crate) offset: u64,
    /// The lock's SHA-256 for it (hex), when the lock holds one of its names.
    pub(crate) lock_sha256: Option<String>,
    pub(crate) verdict: &'static str,
    /// The byte order of a copy found by content.
    pub(crate) byte_order: Option<&'static str>,
}

/// The tables `report` holds, by offset. A copy found by content at the
/// table offset of a declaration with a problem (a record that does not
/// parse, a changed marker or hash, ...) is `bad-declaration` when the copy
/// is otherwise intact, and keeps its own verdict (`modified`, `truncated`,
/// `not-in-lock`, ...) when it is not: the table's bytes are what a program
/// reads, and the declaration's problem is among the file's problems either
/// way.
pub(crate) fn tables<'r>(
    report: &'r Report,
    lock: &[actlut_codegen::lock::Entry],
) -> Vec<TableItem<'r>> {
    let locked = |name: &str| {
        let entry = lock.iter().find(|e| e.name == name);
        entry.map(|e| actlut_codegen::hex(&e.sha256))
    };
    // The table offsets of the declarations with a problem: of one that does
    // not parse, where a record of either version ends (its version byte may
    // be the changed one).
    let bad_declaration: BTreeSet<u64> = report
        .declared
        .iter()
        .filter(|d| d.problem().is_some())
        .flat_map(|d| match d.declaration {
            Ok(_) => vec![d.table_offset()],
            Err(_) => [record::DECLARATION_BYTES, record::DECLARATION_V2_BYTES]
                .map(|n| d.offset + n as u64)
                .to_vec(),
        })
        .collect();
    let mut out: Vec<TableItem<'r>> = report
        .found
        .iter()
        .map(|f| TableItem {
            name: f.names.first().map_or("unknown", String::as_str),
            aliases: f.names.get(1..).unwrap_or_default(),
            format: f.format.name(),
            form: &f.form,
            offset: f.offset,
            lock_sha256: match f.lock_status(lock) {
                LockStatus::Differs { expected } => Some(actlut_codegen::hex(&expected)),
                _ => f.names.iter().find_map(|n| locked(n)),
            },
            verdict: match f.problem(lock) {
                None if bad_declaration.contains(&f.offset) => "bad-declaration",
                None => "intact",
                Some(_) if f.verdict != crate::Verdict::Intact => f.verdict.name(),
                Some(_) if f.foreign_order => "foreign-byte-order",
                Some(_) => "not-in-lock",
            },
            byte_order: Some(f.order.short_name()),
        })
        .collect();
    // Declared tables no copy found by content stands for (FP6, FP4, or a
    // table the content search left aside), one for each table offset.
    let mut listed: BTreeSet<u64> = out.iter().map(|t| t.offset).collect();
    for d in &report.declared {
        let Ok(decl) = &d.declaration else { continue };
        if !listed.insert(d.table_offset()) {
            continue;
        }
        let name = decl.name();
        out.push(TableItem {
            name,
            aliases: &[],
            format: crate::ops::split_name(name).map_or("unknown", |(_, f)| f.name()),
            form: match decl.representation {
                crate::declared::Representation::Full => crate::TABLE_FORM,
                crate::declared::Representation::Compact => crate::COMPACT_FORM,
            },
            offset: d.table_offset(),
            lock_sha256: locked(name),
            verdict: d.problem().map_or("intact", |_| "bad-declaration"),
            byte_order: None,
        });
    }
    out.sort_by_key(|t| t.offset);
    out
}

/// "pass" when there is no problem, "fail" otherwise.
pub(crate) fn pass_fail(problems: usize) -> &'static str {
    if problems > 0 {
        "fail"
    } else {
        "pass"
    }
}
