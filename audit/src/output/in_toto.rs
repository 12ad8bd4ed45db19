//! An in-toto Statement v1 (unsigned: signing it is the user's tooling, a
//! DSSE envelope around these bytes): every audited file a subject with its
//! SHA-256, and the audit's verdict the predicate.

use std::string::{String, ToString};
use std::vec::Vec;

use serde::Serialize;

use super::{tables, Audit};

/// The predicate type of actlut's audit verdict.
pub const PREDICATE_TYPE: &str =
    "https://github.com/actlut/actlut/blob/main/docs/audit.md#audit-verdict-v1";

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Statement<'a> {
    #[serde(rename = "_type")]
    kind: &'static str,
    subject: Vec<Subject<'a>>,
    predicate_type: &'static str,
    predicate: Predicate<'a>,
}

#[derive(Serialize)]
struct Subject<'a> {
    name: &'a str,
    digest: Digest,
}

#[derive(Serialize)]
struct Digest {
    sha256: String,
}

#[derive(Serialize)]
struct Predicate<'a> {
    verdict: &'static str,
    exit_code: u8,
    lock: &'a str,
    tool: &'static str,
    version: &'static str,
    note: Option<&'static str>,
    files: Vec<FileVerdict<'a>>,
}

#[derive(Serialize)]
struct FileVerdict<'a> {
    name: &'a str,
    verdict: &'static str,
    nothing_verified: bool,
    problems: Vec<String>,
    tables: Vec<TableVerdict>,
}

#[derive(Serialize)]
struct TableVerdict {
    name: String,
    format: &'static str,
    offset: u64,
    lock_sha256: Option<String>,
    verdict: String,
}

fn verdict(pass: bool) -> &'static str {
    if pass {
        "pass"
    } else {
        "fail"
    }
}

/// The in-toto Statement v1 of `audit`.
pub fn in_toto(audit: &Audit<'_>) -> String {
    let lock = &audit.lock.entries;
    let statement = Statement {
        kind: "https://in-toto.io/Statement/v1",
        subject: audit
            .reports
            .iter()
            .map(|r| Subject {
                name: &r.path,
                digest: Digest {
                    sha256: actlut_codegen::hex(&r.file_sha256),
                },
            })
            .collect(),
        predicate_type: PREDICATE_TYPE,
        predicate: Predicate {
            verdict: verdict(audit.exit_code() == 0),
            exit_code: audit.exit_code(),
            lock: &audit.lock.label,
            tool: "actlut audit",
            version: env!("CARGO_PKG_VERSION"),
            note: audit.note(),
            files: audit
                .reports
                .iter()
                .map(|r| {
                    let problems: Vec<String> =
                        audit.findings(r).into_iter().map(|p| p.message).collect();
                    FileVerdict {
                        name: &r.path,
                        verdict: verdict(problems.is_empty()),
                        nothing_verified: r.nothing_verified(),
                        problems,
                        tables: tables(r, lock)
                            .into_iter()
                            .map(|t| TableVerdict {
                                name: t.name,
                                format: t.format,
                                offset: t.offset,
                                lock_sha256: t.lock_sha256.map(|h| actlut_codegen::hex(&h)),
                                verdict: t.verdict.to_string(),
                            })
                            .collect(),
                    }
                })
                .collect(),
        },
    };
    let mut s = serde_json::to_string_pretty(&statement).expect("a report serializes");
    s.push('\n');
    s
}
