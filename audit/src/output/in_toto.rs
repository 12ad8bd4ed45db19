//! An in-toto Statement v1 (unsigned: signing it is the user's tooling, a
//! DSSE envelope around these bytes): every audited file a subject with its
//! SHA-256, and the audit's verdict the predicate.

use serde_json::{json, Value};

use crate::Report;

use super::stream::{field, Part};
use super::{pass_fail, tables, Audit};

/// The predicate type of actlut's audit verdict.
pub const PREDICATE_TYPE: &str =
    "https://github.com/actlut/actlut/blob/main/docs/audit.md#audit-verdict-v1";

/// One file's entry of the predicate: its problems and tables built one at
/// a time as they are written.
fn file<'a>(audit: &'a Audit<'_>, r: &'a Report) -> Part<'a> {
    let findings = audit.findings(r);
    let verdict = pass_fail(findings.len());
    let problems = findings.into_iter().map(|p| Value::from(p.message));
    let tables = tables(r, &audit.lock.entries).into_iter().map(|t| {
        json!({
            "name": t.name,
            "format": t.format,
            "offset": t.offset,
            "lock_sha256": t.lock_sha256,
            "verdict": t.verdict,
        })
    });
    Part::Object(vec![
        field("name", r.path.as_str()),
        field("verdict", verdict),
        field("nothing_verified", r.nothing_verified()),
        ("problems", Part::values(problems)),
        ("tables", Part::values(tables)),
    ])
}

/// The in-toto Statement v1 of `audit`, written as it is serialized.
pub(super) fn document<'a>(audit: &'a Audit<'_>) -> Part<'a> {
    let files = audit.reports.iter().map(|r| file(audit, r));
    let subject = audit.reports.iter().map(|r| {
        let sha256 = actlut_codegen::hex(&r.file_sha256);
        json!({ "name": r.path, "digest": { "sha256": sha256 } })
    });
    Part::Object(vec![
        field("_type", "https://in-toto.io/Statement/v1"),
        ("subject", Part::values(subject)),
        field("predicateType", PREDICATE_TYPE),
        (
            "predicate",
            Part::Object(vec![
                field("verdict", pass_fail(audit.problem_count())),
                field("exit_code", audit.exit_code()),
                field("lock", audit.lock.label.as_str()),
                field("tool", "actlut audit"),
                field("version", env!("CARGO_PKG_VERSION")),
                field("note", audit.note()),
                ("files", Part::list(files)),
            ]),
        ),
    ])
}
