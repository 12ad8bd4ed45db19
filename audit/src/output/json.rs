//! The JSON report of `actlut audit --json` (and `--format json`): its keys
//! are those the command has always written; `file_sha256`, `kind`,
//! `declarations`, `expected_missing`, `nothing_verified` and `note` were
//! added.

use std::string::{String, ToString};
use std::vec::Vec;

use serde::Serialize;

use crate::compact::{CompactDetail, Decoded, FoundBy};
use crate::{Found, Listed, ListedStatus, LockStatus, Report, Verdict};

use super::Audit;

#[derive(Serialize)]
struct Top<'a> {
    lock: &'a str,
    files: Vec<File<'a>>,
    tables_found: usize,
    problems: usize,
    ok: bool,
    nothing_verified: bool,
    note: Option<&'static str>,
}

#[derive(Serialize)]
struct File<'a> {
    path: &'a str,
    kind: &'static str,
    file_sha256: String,
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
    tables: Vec<Table>,
    listed: Vec<ListedJson>,
    declarations: Vec<Declaration>,
    expected_missing: Vec<String>,
    problems: Vec<String>,
    nothing_verified: bool,
    note: Option<&'static str>,
}

#[derive(Serialize)]
struct Table {
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
    compact: Option<Compact>,
    foreign_order: bool,
    description: String,
}

#[derive(Serialize)]
struct Compact {
    found_by: &'static str,
    differing_header_bytes: usize,
    differing_directory_bytes: usize,
    differing_pool_bytes: usize,
    decoded: &'static str,
    decoded_differing_entries: Option<usize>,
    other_packing: bool,
    logical_sha256: Option<String>,
}

#[derive(Serialize)]
struct ListedJson {
    offset: u64,
    names: Vec<String>,
    listed_sha256: String,
    status: &'static str,
}

#[derive(Serialize)]
struct Declaration {
    offset: u64,
    name: String,
    table_offset: u64,
    problem: Option<String>,
}

fn hex(h: &[u8; 32]) -> String {
    actlut_codegen::hex(h)
}

fn table(f: &Found, status: &LockStatus) -> Table {
    let identity = match &f.compact {
        Some(c) => c.logical_sha256,
        None => f.sha256,
    };
    Table {
        offset: f.offset,
        bytes: f.len,
        form_offset: f.form_offset,
        form_bytes: f.form_len,
        names: f.names.clone(),
        format: f.format.name(),
        form: f.form.clone(),
        byte_order: f.order.short_name(),
        sha256: f.sha256.as_ref().map(hex),
        verdict: f.verdict.name(),
        differing_entries: f.differing,
        matching_entries: f.matching,
        evidence: f.evidence,
        first_differences: f.first_differences.clone(),
        in_lock: status.is_in_lock(),
        lock_sha256: match status {
            LockStatus::InLock => identity.as_ref().map(hex),
            LockStatus::Differs { expected } => Some(hex(expected)),
            LockStatus::NotInLock => None,
        },
        compact: f.compact.as_ref().map(compact),
        foreign_order: f.foreign_order,
        description: f.describe(),
    }
}

fn compact(c: &CompactDetail) -> Compact {
    let (decoded, entries) = match &c.decoded {
        Decoded::Same => ("same", Some(0)),
        Decoded::Differs { entries, .. } => ("differs", Some(*entries)),
        Decoded::Invalid(_) => ("invalid", None),
        Decoded::Absent => ("absent", None),
    };
    Compact {
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
        logical_sha256: c.logical_sha256.as_ref().map(hex),
    }
}

fn listed(l: &Listed) -> ListedJson {
    ListedJson {
        offset: l.offset,
        names: l.names.clone(),
        listed_sha256: hex(&l.sha256),
        status: match l.status {
            ListedStatus::Intact => "intact",
            ListedStatus::Damaged {
                verdict: Verdict::Intact,
                ..
            } => "other",
            ListedStatus::Damaged { verdict, .. } => verdict.name(),
            ListedStatus::Missing => "missing",
        },
    }
}

fn file<'a>(audit: &Audit<'_>, r: &'a Report) -> File<'a> {
    let lock = &audit.lock.entries;
    let findings = audit.findings(r);
    File {
        path: &r.path,
        kind: r.kind,
        file_sha256: hex(&r.file_sha256),
        bytes: r.bytes,
        candidates: r.candidates,
        compared_entries: r.compared,
        compact_rejected_chunks: r.compact_rejected_chunks,
        compact_rejected_per_mille: r.compact_rejected_share,
        compact_rejected_cut_per_mille: r.compact_rejected_cut_share,
        rejected_surprises: r.rejected_surprises,
        rejected_pairs: r.rejected_pairs,
        rejected_features: r.rejected_features,
        rejected_matching: r.rejected_matching,
        rejected_distinctive_per_mille: r.rejected_distinctive_per_mille,
        tables: r
            .found
            .iter()
            .map(|f| table(f, &f.lock_status(lock)))
            .collect(),
        listed: r.listed.iter().map(listed).collect(),
        declarations: r
            .declared
            .iter()
            .map(|d| Declaration {
                offset: d.offset,
                name: d
                    .name()
                    .map_or_else(|| d.shown_name.clone(), ToString::to_string),
                table_offset: d.table_offset(),
                problem: d.problem(),
            })
            .collect(),
        expected_missing: audit
            .expect
            .iter()
            .filter(|n| !r.holds(n))
            .cloned()
            .collect(),
        problems: findings.into_iter().map(|p| p.message).collect(),
        nothing_verified: r.nothing_verified(),
        note: r.nothing_verified().then_some(crate::NOTHING_VERIFIED),
    }
}

/// The JSON report of `audit`, as a value to serialize (the command lays it
/// out as its other JSON is: its keys one a line at the top, each file on one
/// line).
pub fn json_value<'a>(audit: &'a Audit<'_>) -> impl Serialize + 'a {
    let problems = audit.problem_count();
    Top {
        lock: &audit.lock.label,
        files: audit.reports.iter().map(|r| file(audit, r)).collect(),
        tables_found: audit.tables_found(),
        problems,
        ok: problems == 0,
        nothing_verified: audit.nothing_verified(),
        note: audit.note(),
    }
}

/// The JSON report of `audit`, pretty-printed.
pub fn json(audit: &Audit<'_>) -> String {
    let mut s = serde_json::to_string_pretty(&json_value(audit)).expect("a report serializes");
    s.push('\n');
    s
}
