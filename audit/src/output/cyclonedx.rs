//! A CycloneDX 1.5 SBOM: each audited file a component of type `file` with
//! its SHA-256, and inside it each table found a component of type `data`
//! with its name, its format, the lock's SHA-256 for it and its verdict
//! (properties in the `actlut:` namespace); each problem is a property of its
//! file. The audit's verdict and, when nothing was verified, the note saying
//! so are properties of the file and of the BOM's metadata.

use std::string::{String, ToString};
use std::vec::Vec;

use serde_json::{json, Value};

use crate::Report;

use super::stream::{field, Part};
use super::{pass_fail, tables, Audit};

fn property(name: &str, value: impl ToString) -> Value {
    json!({ "name": name, "value": value.to_string() })
}

fn sha256(hex: String) -> Value {
    json!({ "alg": "SHA-256", "content": hex })
}

/// A component without its empty lists (CycloneDX leaves them out).
fn component(mut c: Value) -> Value {
    if let Value::Object(map) = &mut c {
        map.retain(|_, v| v.as_array().is_none_or(|a| !a.is_empty()));
    }
    c
}

/// One file's component: its tables and problems built one at a time as
/// they are written.
fn file<'a>(audit: &'a Audit<'_>, i: usize, r: &'a Report) -> Part<'a> {
    let findings = audit.findings(r);
    let head = [
        property("actlut:audit:verdict", pass_fail(findings.len())),
        property("actlut:audit:problems", findings.len()),
        property("actlut:audit:kind", r.kind),
    ];
    let problems = findings
        .into_iter()
        .map(|p| property("actlut:audit:problem", p.message));
    let note = r
        .nothing_verified()
        .then(|| property("actlut:audit:note", crate::NOTHING_VERIFIED));
    let properties = head.into_iter().chain(problems).chain(note);
    let components = tables(r, &audit.lock.entries).into_iter().map(move |t| {
        let mut properties = vec![
            property("actlut:format", t.format),
            property("actlut:form", t.form),
            property("actlut:offset", t.offset),
            property("actlut:verdict", t.verdict),
        ];
        if !t.aliases.is_empty() {
            properties.push(property("actlut:aliases", t.aliases.join(" ")));
        }
        properties.extend(t.byte_order.map(|o| property("actlut:byte-order", o)));
        component(json!({
            "type": "data",
            "bom-ref": format!("file-{i}-table-{:#x}", t.offset),
            "name": t.name,
            "hashes": t.lock_sha256.map(sha256).into_iter().collect::<Vec<_>>(),
            "properties": properties,
        }))
    });
    // The fields of `component`: a file always has its hash and its verdict;
    // its list of tables is left out when empty.
    let mut fields = vec![
        field("type", "file"),
        field("bom-ref", format!("file-{i}")),
        field("name", r.path.as_str()),
        field("hashes", [sha256(actlut_codegen::hex(&r.file_sha256))]),
        ("properties", Part::values(properties)),
    ];
    if components.len() > 0 {
        fields.push(("components", Part::values(components)));
    }
    Part::Object(fields)
}

/// The CycloneDX 1.5 SBOM of `audit`, written as it is serialized.
pub(super) fn document<'a>(audit: &'a Audit<'_>) -> Part<'a> {
    let problems = audit.problem_count();
    let mut properties = vec![
        property("actlut:audit:lock", &audit.lock.label),
        property("actlut:audit:verdict", pass_fail(problems)),
        property("actlut:audit:problems", problems),
    ];
    properties.extend(audit.note().map(|note| property("actlut:audit:note", note)));
    let files = audit
        .reports
        .iter()
        .enumerate()
        .map(|(i, r)| file(audit, i, r));
    Part::Object(vec![
        field("bomFormat", "CycloneDX"),
        field("specVersion", "1.5"),
        field("version", 1),
        field(
            "metadata",
            json!({
                "tools": {
                    "components": [{
                        "type": "application",
                        "name": "actlut audit",
                        "version": env!("CARGO_PKG_VERSION"),
                    }],
                },
                "properties": properties,
            }),
        ),
        ("components", Part::list(files)),
    ])
}
