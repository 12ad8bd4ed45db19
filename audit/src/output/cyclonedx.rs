//! A CycloneDX 1.5 SBOM: each audited file a component of type `file` with
//! its SHA-256, and inside it each table found a component of type `data`
//! with its name, its format, the lock's SHA-256 for it and its verdict
//! (properties in the `actlut:` namespace); each problem is a property of its file. The audit's verdict and, when
//! nothing was verified, the note saying so are properties of the file and
//! of the BOM's metadata.

use std::string::{String, ToString};
use std::vec::Vec;

use serde::Serialize;

use super::{tables, Audit};

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Bom {
    bom_format: &'static str,
    spec_version: &'static str,
    version: u32,
    metadata: Metadata,
    components: Vec<Component>,
}

#[derive(Serialize)]
struct Metadata {
    tools: Tools,
    properties: Vec<Property>,
}

#[derive(Serialize)]
struct Tools {
    components: Vec<Component>,
}

#[derive(Serialize)]
struct Component {
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(rename = "bom-ref", skip_serializing_if = "Option::is_none")]
    bom_ref: Option<String>,
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    version: Option<&'static str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    hashes: Vec<Hash>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    properties: Vec<Property>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    components: Vec<Component>,
}

#[derive(Serialize)]
struct Hash {
    alg: &'static str,
    content: String,
}

#[derive(Serialize)]
struct Property {
    name: &'static str,
    value: String,
}

fn property(name: &'static str, value: impl ToString) -> Property {
    Property {
        name,
        value: value.to_string(),
    }
}

fn verdict(problems: usize) -> &'static str {
    if problems == 0 {
        "pass"
    } else {
        "fail"
    }
}

/// The CycloneDX 1.5 SBOM of `audit`.
pub fn cyclonedx(audit: &Audit<'_>) -> String {
    let lock = &audit.lock.entries;
    let files = audit
        .reports
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let findings = audit.findings(r);
            let problems = findings.len();
            let mut properties = vec![
                property("actlut:audit:verdict", verdict(problems)),
                property("actlut:audit:problems", problems),
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
            Component {
                kind: "file",
                bom_ref: Some(format!("file-{i}")),
                name: r.path.clone(),
                version: None,
                hashes: vec![Hash {
                    alg: "SHA-256",
                    content: actlut_codegen::hex(&r.file_sha256),
                }],
                properties,
                components: tables(r, lock)
                    .into_iter()
                    .map(|t| {
                        let mut properties = vec![
                            property("actlut:format", t.format),
                            property("actlut:form", &t.form),
                            property("actlut:offset", t.offset),
                            property("actlut:verdict", &t.verdict),
                        ];
                        if !t.aliases.is_empty() {
                            properties.push(property("actlut:aliases", t.aliases.join(" ")));
                        }
                        if let Some(f) = t.found {
                            properties.push(property("actlut:byte-order", f.order.short_name()));
                        }
                        Component {
                            kind: "data",
                            bom_ref: Some(format!("file-{i}-table-{:#x}", t.offset)),
                            name: t.name,
                            version: None,
                            hashes: t
                                .lock_sha256
                                .iter()
                                .map(|h| Hash {
                                    alg: "SHA-256",
                                    content: actlut_codegen::hex(h),
                                })
                                .collect(),
                            properties,
                            components: Vec::new(),
                        }
                    })
                    .collect(),
            }
        })
        .collect();
    let problems = audit.problem_count();
    let mut properties = vec![
        property("actlut:audit:lock", &audit.lock.label),
        property("actlut:audit:verdict", verdict(problems)),
        property("actlut:audit:problems", problems),
    ];
    if let Some(note) = audit.note() {
        properties.push(property("actlut:audit:note", note));
    }
    let bom = Bom {
        bom_format: "CycloneDX",
        spec_version: "1.5",
        version: 1,
        metadata: Metadata {
            tools: Tools {
                components: vec![Component {
                    kind: "application",
                    bom_ref: None,
                    name: "actlut audit".to_string(),
                    version: Some(env!("CARGO_PKG_VERSION")),
                    hashes: Vec::new(),
                    properties: Vec::new(),
                    components: Vec::new(),
                }],
            },
            properties,
        },
        components: files,
    };
    let mut s = serde_json::to_string_pretty(&bom).expect("a report serializes");
    s.push('\n');
    s
}
