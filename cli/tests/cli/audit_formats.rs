//! `actlut audit --format` and `--expect` on the command line: every format
//! parses as what it claims, the exit status is the same in every format,
//! a file with no table says that nothing was verified, and a missing
//! expected table fails. (The formats against their schemas:
//! `audit/tests/audit/reports.rs`.)

use std::path::PathBuf;
use std::process::Command;

use actlut_codegen::{Format, Function};

fn tmp(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("audit-formats");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

fn audit(args: &[&str], file: &PathBuf) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_actlut"))
        .arg("audit")
        .args(args)
        .arg(file)
        .output()
        .expect("run actlut");
    (out.status.code(), String::from_utf8(out.stdout).unwrap())
}

fn noise(len: usize) -> Vec<u8> {
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 16) as u8
        })
        .collect()
}

#[test]
#[ignore = "tens of seconds in debug: .ci/steps/30-audit.sh runs it in release (--include-ignored)"]
fn every_format_gives_the_same_exit_status_and_says_what_it_found() {
    let table = actlut_codegen::table_bytes_le(
        Format::Fp8E4M3,
        &actlut_codegen::table(Function::Tanh, Format::Fp8E4M3),
    );
    let mut tampered = [&noise(3000)[..], &table, &noise(3000)].concat();
    tampered[3000 + 40] ^= 1;
    let tampered_file = tmp("tampered.bin", &tampered);
    let empty_file = tmp("empty.bin", &noise(4000));
    let sha = actlut_codegen::hex(&actlut_codegen::sha256(&tampered));
    for format in ["text", "json", "sarif", "cyclonedx", "in-toto"] {
        let (code, out) = audit(&["--format", format], &tampered_file);
        assert_eq!(code, Some(1), "{format}: {out}");
        assert!(out.contains("tanh_fp8_e4m3"), "{format}: {out}");
        let (code, out) = audit(&["--format", format], &empty_file);
        assert_eq!(code, Some(0), "{format}: {out}");
        assert!(
            out.contains("no actlut table found: nothing was verified"),
            "{format}: {out}"
        );
        let (code, out) = audit(&["--format", format, "--expect", "gelu_bf16"], &empty_file);
        assert_eq!(code, Some(1), "{format}: {out}");
        assert!(
            out.contains("expected table gelu_bf16 not found"),
            "{format}: {out}"
        );
    }
    let (_, out) = audit(&["--format", "in-toto"], &tampered_file);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["subject"][0]["digest"]["sha256"], sha);
    let (_, out) = audit(&["--format", "sarif"], &tampered_file);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["version"], "2.1.0");
    assert_eq!(
        v["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["byteOffset"],
        3000
    );
    let (_, out) = audit(&["--format", "cyclonedx"], &tampered_file);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["specVersion"], "1.5");
    // `--json` is `--format json`; both at once is a usage error.
    let (code, json) = audit(&["--json"], &tampered_file);
    assert_eq!(code, Some(1));
    assert_eq!(json, audit(&["--format", "json"], &tampered_file).1);
    assert_eq!(
        audit(&["--json", "--format", "sarif"], &tampered_file).0,
        Some(2)
    );
}

#[test]
#[ignore = "an audit in debug takes seconds: .ci/steps/30-audit.sh runs it in release (--include-ignored)"]
fn a_path_with_a_newline_adds_no_line_to_the_text_report() {
    // A name that would print a problem line of its own, unescaped.
    let file = tmp("x\nMISMATCH: y\u{1b}[0m.bin", &noise(4000));
    let (code, out) = audit(&[], &file);
    assert_eq!(code, Some(0), "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].contains("x\\nMISMATCH: y\\u{1b}[0m.bin: 4000 bytes"),
        "{out}"
    );
    assert!(
        lines[1].starts_with("audit: 0 tables found in 1 file"),
        "{out}"
    );
}
