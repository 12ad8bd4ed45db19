//! An in-toto Statement v1 (unsigned: signing it is the user's tooling, a
//! DSSE envelope around these bytes): every audited file a subject with its
//! SHA-256, and the audit's verdict the predicate.

use std::string::String;
use std::vec::Vec;

use serde_json::{json, Value};

use super::{pass_fail, pretty, tables, Audit};

/// The predicate type of actlut's audit verdict.
pub const PREDICATE_TYPE: &str =
    "https://github.com/actlut/actlut/blob/main/docs/audit.md#audit-verdict-v1";

/// The in-toto Statement v1 of `audit`.
pub fn in_toto(audit: &Audit<'_>) -> String {
    let lock = &audit.lock.entries;
    let subject: Vec<Value> = audit
        .reports
        .iter()
        .map(|r| {
            let sha256 = actlut_codegen::hex(&r.file_sha256);
            json!({ "name": r.path, "digest": { "sha256": sha256 } })
        })
        .collect();
    let files: Vec<Value> = audit
        .reports
        .iter()
        .map(|r| {
            let problems: Vec<String> = audit.findings(r).into_iter().map(|p| p.message).collect();
            let tables: Vec<Value> = tables(r, lock)
                .into_iter()
                .map(|t| {
                    json!({
                        "name": t.name,
                        "format": t.format,
                        "offset": t.offset,
                        "lock_sha256": t.lock_sha256,
                        "verdict": t.verdict,
                    })
                })
                .collect();
            json!({
                "name": r.path,
                "verdict": pass_fail(problems.len()),
                "nothing_verified": r.nothing_verified(),
                "problems": problems,
                "tables": tables,
            })
        })
        .collect();
    pretty(&json!({
        "_type": "https://in-toto.io/Statement/v1",
        "subject": subject,
        "predicateType": PREDICATE_TYPE,
        "predicate": {
            "verdict": pass_fail(audit.problem_count()),
            "exit_code": audit.exit_code(),
            "lock": audit.lock.label,
            "tool": "actlut audit",
            "version": env!("CARGO_PKG_VERSION"),
            "note": audit.note(),
            "files": files,
        },
    }))
}
