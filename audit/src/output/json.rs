//! The JSON report of `actlut audit --json` (and `--format json`): its keys
//! are those the command has always written; `file_sha256`, `kind`,
//! `declarations`, `expected_missing`, `nothing_verified` and `note` were
//! added.

use std::string::{String, ToString};
use std::vec::Vec;

use serde_json::{json, Value};

use crate::compact::{CompactDetail, Decoded, FoundBy};
use crate::{Found, Listed, ListedStatus, LockStatus, Report, Verdict};

use super::{pretty, Audit};

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

fn file(audit: &Audit<'_>, r: &Report) -> Value {
    let lock = &audit.lock.entries;
    let tables: Vec<Value> = r
        .found
        .iter()
        .map(|f| table(f, &f.lock_status(lock)))
        .collect();
    let declarations: Vec<Value> = r
        .declared
        .iter()
        .map(|d| {
            json!({
                "offset": d.offset,
                "name": d.name().map_or_else(|| d.shown_name.clone(), ToString::to_string),
                "table_offset": d.table_offset(),
                "problem": d.problem(),
            })
        })
        .collect();
    let expected_missing: Vec<&String> = audit.expect.iter().filter(|n| !r.holds(n)).collect();
    let problems: Vec<String> = audit.findings(r).into_iter().map(|p| p.message).collect();
    json!({
        "path": r.path,
        "kind": r.kind,
        "file_sha256": hex(&r.file_sha256),
        "bytes": r.bytes,
        "candidates": r.candidates,
        "compared_entries": r.compared,
        "compact_rejected_chunks": r.compact_rejected_chunks,
        "compact_rejected_per_mille": r.compact_rejected_share,
        "compact_rejected_cut_per_mille": r.compact_rejected_cut_share,
        "rejected_surprises": r.rejected_surprises,
        "rejected_pairs": r.rejected_pairs,
        "rejected_features": r.rejected_features,
        "rejected_matching": r.rejected_matching,
        "rejected_distinctive_per_mille": r.rejected_distinctive_per_mille,
        "tables": tables,
        "listed": r.listed.iter().map(listed).collect::<Vec<_>>(),
        "declarations": declarations,
        "expected_missing": expected_missing,
        "problems": problems,
        "nothing_verified": r.nothing_verified(),
        "note": r.nothing_verified().then_some(crate::NOTHING_VERIFIED),
    })
}

/// The JSON report of `audit`, as a value to serialize (the command lays it
/// out as its other JSON is: its keys one a line at the top, each file on one
/// line).
pub fn json_value(audit: &Audit<'_>) -> Value {
    let problems = audit.problem_count();
    json!({
        "lock": audit.lock.label,
        "files": audit.reports.iter().map(|r| file(audit, r)).collect::<Vec<_>>(),
        "tables_found": audit.tables_found(),
        "problems": problems,
        "ok": problems == 0,
        "nothing_verified": audit.nothing_verified(),
        "note": audit.note(),
    })
}

/// The JSON report of `audit`, pretty-printed.
pub fn json(audit: &Audit<'_>) -> String {
    pretty(&json_value(audit))
}
