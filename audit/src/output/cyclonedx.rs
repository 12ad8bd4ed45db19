//! A CycloneDX 1.5 SBOM: each audited file a component of type `file` with
//! its SHA-256, and inside it each table found a component of type `data`
//! with its name, its format, the lock's SHA-256 for it and its verdict
//! (properties in the `actlut:` namespace); each problem is a property of its
//! file. The audit's verdict and, when nothing was verified, the note saying
//! so are properties of the file and of the BOM's metadata.

use std::io::{self, Write};
use std::string::{String, ToString};
use std::vec::Vec;

use serde_json::{json, Value};

use crate::Report;

use super::stream::{write_pretty, Part};
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
    let lock = &audit.lock.entries;
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
    let tables = tables(r, lock);
    let components = tables.into_iter().map(move |t| {
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
    });
    // The fields of `component`: a file always has its hash and its verdict;
    // its list of tables is left out when empty.
    let mut fields = vec![
        ("type", Part::value("file")),
        ("bom-ref", Part::value(format!("file-{i}"))),
        ("name", Part::value(r.path.as_str())),
        (
            "hashes",
            Part::value([sha256(actlut_codegen::hex(&r.file_sha256))]),
        ),
        ("properties", Part::values(properties)),
    ];
    if components.len() > 0 {
        fields.push(("components", Part::values(components)));
    }
    Part::Object(fields)
}

/// The CycloneDX 1.5 SBOM of `audit`, written as it is serialized.
fn document<'a>(audit: &'a Audit<'_>) -> Part<'a> {
    let problems = audit.problem_count();
    let mut properties = vec![
        property("actlut:audit:lock", &audit.lock.label),
        property("actlut:audit:verdict", pass_fail(problems)),
        property("actlut:audit:problems", problems),
    ];
    if let Some(note) = audit.note() {
        properties.push(property("actlut:audit:note", note));
    }
    let files = audit.reports.iter().enumerate();
    Part::Object(vec![
        ("bomFormat", Part::value("CycloneDX")),
        ("specVersion", Part::value("1.5")),
        ("version", Part::value(1)),
        (
            "metadata",
            Part::value(json!({
                "tools": {
                    "components": [{
                        "type": "application",
                        "name": "actlut audit",
                        "version": env!("CARGO_PKG_VERSION"),
                    }],
                },
                "properties": properties,
            })),
        ),
        (
            "components",
            Part::list(files.map(|(i, r)| file(audit, i, r))),
        ),
    ])
}

/// Writes the CycloneDX 1.5 SBOM of `audit`, pretty-printed.
pub(crate) fn write(audit: &Audit<'_>, out: &mut dyn Write) -> io::Result<()> {
    write_pretty(out, &document(audit))
}

/// The CycloneDX 1.5 SBOM of `audit`.
pub fn cyclonedx(audit: &Audit<'_>) -> String {
    audit.render(super::OutputFormat::CycloneDx)
}
