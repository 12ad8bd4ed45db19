//! SARIF 2.1.0 (OASIS): one run of the tool `actlut audit`, one artifact per
//! file audited (with its SHA-256), one rule per kind of problem
//! ([`crate::Rule`]), and one result per problem at its byte offset in its
//! file. A file in which nothing was verified gets a notification saying so.

use std::string::String;
use std::vec::Vec;

use serde_json::{json, Value};

use crate::Rule;

use super::stream::{field, Part};
use super::Audit;

/// The schema the report names (`$schema`): SARIF 2.1.0's, as OASIS publishes it.
const SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// A file path as a URI reference: a relative path stays relative (SARIF
/// resolves it against the working directory), characters a URI may not
/// hold are percent-encoded.
fn uri(path: &str) -> String {
    let mut out = String::new();
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/:".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The SARIF 2.1.0 report of `audit`, written as it is serialized: its
/// results built one at a time.
pub(super) fn document<'a>(audit: &'a Audit<'_>) -> Part<'a> {
    let artifact =
        move |index: usize| json!({"uri": uri(&audit.reports[index].path), "index": index});
    // Where a result or notification is: a file, and a region of it when the
    // offset is known.
    let location = move |index: usize, offset: Option<u64>, length: Option<u64>| {
        let mut physical = json!({ "artifactLocation": artifact(index) });
        if let Some(offset) = offset {
            physical["region"] = json!({ "byteOffset": offset });
            if let Some(length) = length {
                physical["region"]["byteLength"] = length.into();
            }
        }
        json!([{ "physicalLocation": physical }])
    };
    let files = audit.reports.iter().enumerate();
    let notifications: Vec<Value> = files
        .clone()
        .filter(|(_, r)| r.nothing_verified())
        .map(|(i, _)| {
            json!({
                "level": "warning",
                "message": { "text": crate::NOTHING_VERIFIED },
                "locations": location(i, None, None),
            })
        })
        .collect();
    let results = files.clone().flat_map(move |(i, r)| {
        audit.findings(r).into_iter().map(move |p| {
            let index = Rule::ALL.iter().position(|&x| x == p.rule);
            json!({
                "ruleId": p.rule.id(),
                "ruleIndex": index.expect("every rule is listed"),
                "level": "error",
                "message": { "text": p.message },
                "locations": location(i, p.offset, p.length),
            })
        })
    });
    let rules: Vec<Value> = Rule::ALL
        .iter()
        .map(|r| {
            json!({
                "id": r.id(),
                "shortDescription": { "text": r.description() },
                "defaultConfiguration": { "level": "error" },
            })
        })
        .collect();
    let artifacts: Vec<Value> = files
        .map(|(i, r)| {
            json!({
                "location": artifact(i),
                "length": r.bytes,
                "hashes": { "sha-256": actlut_codegen::hex(&r.file_sha256) },
            })
        })
        .collect();
    let run = Part::Object(vec![
        field(
            "tool",
            json!({
                "driver": {
                    "name": "actlut audit",
                    "version": env!("CARGO_PKG_VERSION"),
                    "informationUri": "https://github.com/actlut/actlut/blob/main/docs/audit.md",
                    "rules": rules,
                },
            }),
        ),
        field(
            "invocations",
            json!([{
                "executionSuccessful": true,
                "exitCode": audit.exit_code(),
                "toolExecutionNotifications": notifications,
            }]),
        ),
        field("artifacts", artifacts),
        ("results", Part::values(results)),
        field("properties", json!({ "lock": audit.lock.label })),
    ]);
    Part::Object(vec![
        field("$schema", SCHEMA),
        field("version", "2.1.0"),
        ("runs", Part::list(std::iter::once(run))),
    ])
}
