//! A CycloneDX 1.5 SBOM: each audited file a component of type `file` with
//! its SHA-256, and inside it each table found a component of type `data`
//! with its name, its format, the lock's SHA-256 for it and its verdict
//! (properties in the `actlut:` namespace); each problem is a property of its
//! file. The audit's verdict and, when nothing was verified, the note saying
//! so are properties of the file and of the BOM's metadata.

use std::string::{String, ToString};
use std::vec::Vec;

use serde_json::{json, Value};

use super::{pass_fail, pretty, tables, Audit};

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

/// The CycloneDX 1.5 SBOM of `audit`.
pub fn cyclonedx(audit: &Audit<'_>) -> String {
    let lock = &audit.lock.entries;
    let files: Vec<Value> = audit
        .reports
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let findings = audit.findings(r);
            let mut properties = vec![
                property("actlut:audit:verdict", pass_fail(findings.len())),
                property("actlut:audit:problems", findings.len()),
                property("actlut:audit:kind", r.kind),
            ];
            properties.extend(
                findings
                    .into_iter()
                    .map(|p| property("actlut:audit:problem", p.message)),
            );
            if r.nothing_verified() {
                properties.push(property("actlut:audit:note", crate::NOTHING_VERIFIED));
            }
            let tables: Vec<Value> = tables(r, lock)
                .into_iter()
                .map(|t| {
                    let mut properties = vec![
                        property("actlut:format", t.format),
                        property("actlut:form", t.form),
                        property("actlut:offset", t.offset),
                        property("actlut:verdict", t.verdict),
                    ];
                    if !t.aliases.is_empty() {
                        properties.push(property("actlut:aliases", t.aliases.join(" ")));
                    }
                    if let Some(order) = t.byte_order {
                        properties.push(property("actlut:byte-order", order));
                    }
                    component(json!({
                        "type": "data",
                        "bom-ref": format!("file-{i}-table-{:#x}", t.offset),
                        "name": t.name,
                        "hashes": t.lock_sha256.map(sha256).into_iter().collect::<Vec<_>>(),
                        "properties": properties,
                    }))
                })
                .collect();
            component(json!({
                "type": "file",
                "bom-ref": format!("file-{i}"),
                "name": r.path,
                "hashes": [sha256(actlut_codegen::hex(&r.file_sha256))],
                "properties": properties,
                "components": tables,
            }))
        })
        .collect();
    let problems = audit.problem_count();
    let mut properties = vec![
        property("actlut:audit:lock", &audit.lock.label),
        property("actlut:audit:verdict", pass_fail(problems)),
        property("actlut:audit:problems", problems),
    ];
    if let Some(note) = audit.note() {
        properties.push(property("actlut:audit:note", note));
    }
    pretty(&json!({
        "bomFormat": "CycloneDX",
        "specVersion": "1.5",
        "version": 1,
        "metadata": {
            "tools": {
                "components": [{
                    "type": "application",
                    "name": "actlut audit",
                    "version": env!("CARGO_PKG_VERSION"),
                }],
            },
            "properties": properties,
        },
        "components": files,
    }))
}
