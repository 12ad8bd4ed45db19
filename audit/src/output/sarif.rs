//! SARIF 2.1.0 (OASIS): one run of the tool `actlut audit`, one artifact per
//! file audited (with its SHA-256), one rule per kind of problem
//! ([`crate::Rule`]), and one result per problem at its byte offset in its
//! file. A file in which nothing was verified gets a notification saying so.

use std::string::{String, ToString};
use std::vec::Vec;

use serde::Serialize;

use crate::Rule;

use super::Audit;

/// The schema the report names (`$schema`): SARIF 2.1.0's, as OASIS publishes it.
const SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

#[derive(Serialize)]
struct Log {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: Vec<Run>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run {
    tool: Tool,
    invocations: Vec<Invocation>,
    artifacts: Vec<Artifact>,
    results: Vec<ResultJson>,
    properties: RunProperties,
}

#[derive(Serialize)]
struct RunProperties {
    lock: String,
}

#[derive(Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver {
    name: &'static str,
    version: &'static str,
    information_uri: &'static str,
    rules: Vec<RuleJson>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RuleJson {
    id: &'static str,
    short_description: Message,
    default_configuration: Configuration,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Serialize)]
struct Message {
    text: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Invocation {
    execution_successful: bool,
    exit_code: u8,
    tool_execution_notifications: Vec<Notification>,
}

#[derive(Serialize)]
struct Notification {
    level: &'static str,
    message: Message,
    locations: Vec<Location>,
}

#[derive(Serialize)]
struct Artifact {
    location: ArtifactLocation,
    length: u64,
    hashes: Hashes,
}

#[derive(Serialize)]
struct Hashes {
    #[serde(rename = "sha-256")]
    sha256: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ResultJson {
    rule_id: &'static str,
    rule_index: usize,
    level: &'static str,
    message: Message,
    locations: Vec<Location>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    physical_location: PhysicalLocation,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    region: Option<Region>,
}

#[derive(Serialize)]
struct ArtifactLocation {
    uri: String,
    index: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    byte_offset: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    byte_length: Option<u64>,
}

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

/// The SARIF 2.1.0 report of `audit`.
pub fn sarif(audit: &Audit<'_>) -> String {
    let location = |index: usize, region: Option<Region>| Location {
        physical_location: PhysicalLocation {
            artifact_location: ArtifactLocation {
                uri: uri(&audit.reports[index].path),
                index,
            },
            region,
        },
    };
    let mut results = Vec::new();
    let mut notifications = Vec::new();
    for (i, r) in audit.reports.iter().enumerate() {
        if r.nothing_verified() {
            notifications.push(Notification {
                level: "warning",
                message: Message {
                    text: crate::NOTHING_VERIFIED.to_string(),
                },
                locations: vec![location(i, None)],
            });
        }
        for p in audit.findings(r) {
            results.push(ResultJson {
                rule_id: p.rule.id(),
                rule_index: Rule::ALL
                    .iter()
                    .position(|&x| x == p.rule)
                    .expect("every rule is listed"),
                level: "error",
                message: Message { text: p.message },
                locations: vec![location(
                    i,
                    p.offset.map(|byte_offset| Region {
                        byte_offset,
                        byte_length: p.length,
                    }),
                )],
            });
        }
    }
    let log = Log {
        schema: SCHEMA,
        version: "2.1.0",
        runs: vec![Run {
            tool: Tool {
                driver: Driver {
                    name: "actlut audit",
                    version: env!("CARGO_PKG_VERSION"),
                    information_uri: "https://github.com/actlut/actlut/blob/main/docs/audit.md",
                    rules: Rule::ALL
                        .iter()
                        .map(|r| RuleJson {
                            id: r.id(),
                            short_description: Message {
                                text: r.description().to_string(),
                            },
                            default_configuration: Configuration { level: "error" },
                        })
                        .collect(),
                },
            },
            invocations: vec![Invocation {
                execution_successful: true,
                exit_code: audit.exit_code(),
                tool_execution_notifications: notifications,
            }],
            artifacts: audit
                .reports
                .iter()
                .enumerate()
                .map(|(i, r)| Artifact {
                    location: ArtifactLocation {
                        uri: uri(&r.path),
                        index: i,
                    },
                    length: r.bytes,
                    hashes: Hashes {
                        sha256: actlut_codegen::hex(&r.file_sha256),
                    },
                })
                .collect(),
            results,
            properties: RunProperties {
                lock: audit.lock.label.clone(),
            },
        }],
    };
    let mut s = serde_json::to_string_pretty(&log).expect("a report serializes");
    s.push('\n');
    s
}
