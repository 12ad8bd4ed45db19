//! The JSON report of `actlut audit --json` (and `--format json`): its keys
//! are those the command has always written; `file_sha256`, `kind`,
//! `declarations`, `expected_missing`, `nothing_verified` and `note` were
//! added.

use std::string::{String, ToString};
use std::vec::Vec;

use serde_json::{json, Value};

use crate::compact::{CompactDetail, Decoded, FoundBy};
use crate::{Found, Listed, ListedStatus, LockStatus, Report, Verdict};

use super::stream::{field, Document, Part};
use super::Audit;

fn hex(h: &[u8; 32]) -> String {
    actlut_codegen::hex(h)
}

fn table(f: &Found, status: &LockStatus) -> Value {
    let identity = f.compact.as_ref().map_or(f.sha256, |c| c.logical_sha256);
    let lock_sha256 = match status {
        LockStatus::InLock => identity.as_ref().map(hex),
        LockStatus::Differs { expected } => Some(hex(expected)),
        LockStatus::NotInLock => None,
    };
    json!({
        "offset": f.offset,
        "bytes": f.len,
        "form_offset": f.form_offset,
        "form_bytes": f.form_len,
        "names": f.names,
        "format": f.format.name(),
        "form": f.form,
        "byte_order": f.order.short_name(),
        "sha256": f.sha256.as_ref().map(hex),
        "verdict": f.verdict.name(),
        "differing_entries": f.differing,
        "matching_entries": f.matching,
        "evidence": f.evidence,
        "first_differences": f.first_differences,
        "in_lock": status.is_in_lock(),
        "lock_sha256": lock_sha256,
        "compact": f.compact.as_ref().map(compact),
        "foreign_order": f.foreign_order,
        "description": f.describe(),
    })
}

fn compact(c: &CompactDetail) -> Value {
    let (decoded, entries) = match &c.decoded {
        Decoded::Same => ("same", Some(0)),
        Decoded::Differs { entries, .. } => ("differs", Some(*entries)),
        Decoded::Invalid(_) => ("invalid", None),
        Decoded::Absent => ("absent", None),
    };
    let found_by = match c.found_by {
        FoundBy::Content => "content",
        FoundBy::Header => "header",
    };
    json!({
        "found_by": found_by,
        "differing_header_bytes": c.header,
        "differing_directory_bytes": c.directory,
        "differing_pool_bytes": c.pool,
        "decoded": decoded,
        "decoded_differing_entries": entries,
        "other_packing": c.other_packing,
        "logical_sha256": c.logical_sha256.as_ref().map(hex),
    })
}

fn listed(l: &Listed) -> Value {
    let status = match l.status {
        ListedStatus::Intact => "intact",
        ListedStatus::Damaged {
            verdict: Verdict::Intact,
            ..
        } => "other",
        ListedStatus::Damaged { verdict, .. } => verdict.name(),
        ListedStatus::Missing => "missing",
    };
    json!({
        "offset": l.offset,
        "names": l.names,
        "listed_sha256": hex(&l.sha256),
        "status": status,
    })
}

fn file<'a>(audit: &'a Audit<'_>, r: &'a Report) -> Part<'a> {
    let lock = &audit.lock.entries;
    let tables = r.found.iter().map(|f| table(f, &f.lock_status(lock)));
    let declarations = r.declared.iter().map(|d| {
        json!({
            "offset": d.offset,
            "name": d.name().map_or_else(|| d.shown_name.clone(), ToString::to_string),
            "table_offset": d.table_offset(),
            "problem": d.problem(),
        })
    });
    let expected_missing: Vec<&String> = audit.expect.iter().filter(|n| !r.holds(n)).collect();
    let problems = audit.findings(r).into_iter().map(|p| p.message.into());
    Part::Object(vec![
        field("path", r.path.as_str()),
        field("kind", r.kind),
        field("file_sha256", hex(&r.file_sha256)),
        field("bytes", r.bytes),
        field("candidates", r.candidates),
        field("compared_entries", r.compared),
        field("compact_rejected_chunks", r.compact_rejected_chunks),
        field("compact_rejected_per_mille", r.compact_rejected_share),
        field(
            "compact_rejected_cut_per_mille",
            r.compact_rejected_cut_share,
        ),
        field("rejected_surprises", r.rejected_surprises),
        field("rejected_pairs", r.rejected_pairs),
        field("rejected_features", r.rejected_features),
        field("rejected_matching", r.rejected_matching),
        field(
            "rejected_distinctive_per_mille",
            r.rejected_distinctive_per_mille,
        ),
        ("tables", Part::values(tables)),
        ("listed", Part::values(r.listed.iter().map(listed))),
        ("declarations", Part::values(declarations)),
        field("expected_missing", expected_missing),
        ("problems", Part::values(problems)),
        field("nothing_verified", r.nothing_verified()),
        field(
            "note",
            r.nothing_verified().then_some(crate::NOTHING_VERIFIED),
        ),
    ])
}

/// The JSON report of `audit`, written as it is serialized ([`Document`]).
pub fn json_document<'a>(audit: &'a Audit<'_>) -> Document<'a> {
    let problems = audit.problem_count();
    let files = audit.reports.iter().map(|r| file(audit, r));
    Document(Part::Object(vec![
        field("lock", audit.lock.label.as_str()),
        ("files", Part::list(files)),
        field("tables_found", audit.tables_found()),
        field("problems", problems),
        field("ok", problems == 0),
        field("nothing_verified", audit.nothing_verified()),
        field("note", audit.note()),
    ]))
}
