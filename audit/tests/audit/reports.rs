//! The reports of `actlut audit --format json|sarif|cyclonedx|in-toto`,
//! validated against the published schemas vendored in `tests/schemas/`,
//! and what each must carry: the lock's hashes of the tables found, the
//! audited file's SHA-256, one SARIF result per problem at its offset, the
//! same verdict in every format, and the note when nothing was verified.

use actlut_audit::output::{Audit, OutputFormat};
use actlut_audit::{audit, Lock, Reference, Report, NOTHING_VERIFIED};
use actlut_codegen::record::{Declaration, Representation, StoredOrder};
use actlut_codegen::{Format, Function};
use serde_json::Value;

fn schema(name: &str) -> Value {
    let path = format!("{}/tests/schemas/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// Validates `doc` against the schema `name` (CycloneDX's references
/// resolved to the vendored files, nothing fetched).
fn validate(name: &str, doc: &Value) {
    let registry = jsonschema::Registry::new()
        .add(
            "http://cyclonedx.org/schema/spdx.schema.json",
            schema("spdx.schema.json"),
        )
        .unwrap()
        .add(
            "http://cyclonedx.org/schema/jsf-0.82.schema.json",
            schema("jsf-0.82.schema.json"),
        )
        .unwrap()
        .prepare()
        .unwrap();
    let validator = jsonschema::options()
        .with_registry(&registry)
        .should_validate_formats(true)
        .build(&schema(name))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let errors: Vec<String> = validator
        .iter_errors(doc)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{name}: {errors:#?}\n{doc:#}");
}

fn lock() -> Lock {
    let refs = vec![
        Reference::generate(Function::Tanh, Format::Fp8E4M3),
        Reference::generate(Function::Gelu, Format::Bf16),
    ];
    Lock::parse("the test lock", actlut_audit::BUILTIN_LOCK, refs).unwrap()
}

/// Noise, a declared intact tanh_fp8_e4m3, and a bare copy of gelu_bf16.
fn artifact() -> Vec<u8> {
    let tanh = Reference::generate(Function::Tanh, Format::Fp8E4M3);
    let gelu = Reference::generate(Function::Gelu, Format::Bf16);
    let d = Declaration::new(
        "tanh_fp8_e4m3",
        Representation::Full,
        1,
        StoredOrder::Little,
        256,
        tanh.sha256,
    );
    let mut file = noise(3000, 1);
    file.extend_from_slice(&d.to_bytes());
    file.extend_from_slice(&tanh.bytes_le);
    file.extend_from_slice(&noise(1000, 2));
    file.extend_from_slice(&gelu.bytes_le);
    file.extend_from_slice(&noise(1000, 3));
    file
}

fn noise(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

fn render(
    lock: &Lock,
    reports: &[Report],
    expect: &[String],
    format: OutputFormat,
) -> (String, u8) {
    let a = Audit {
        lock,
        reports,
        expect,
    };
    (a.render(format), a.exit_code())
}

fn parsed(lock: &Lock, reports: &[Report], format: OutputFormat) -> Value {
    serde_json::from_str(&render(lock, reports, &[], format).0).unwrap()
}

struct Cases {
    lock: Lock,
    clean: Report,
    tampered: Report,
    tampered_bytes: Vec<u8>,
    empty: Report,
}

fn cases() -> Cases {
    let lock = lock();
    let clean = audit(&artifact(), &lock).unwrap();
    let mut bytes = artifact();
    bytes[3000 + 128 + 40] ^= 1; // an entry of the declared tanh_fp8_e4m3
    bytes[3000 + 128 + 256 + 1000 + 5000] ^= 1; // an entry of gelu_bf16
    let tampered = audit(&bytes, &lock).unwrap();
    let empty = audit(&noise(5000, 9), &lock).unwrap();
    Cases {
        lock,
        clean,
        tampered,
        tampered_bytes: bytes,
        empty,
    }
}

#[test]
fn every_format_validates_against_its_published_schema() {
    let c = cases();
    for reports in [
        vec![c.clean.clone()],
        vec![c.tampered.clone()],
        vec![c.empty.clone()],
        vec![c.clean.clone(), c.tampered.clone(), c.empty.clone()],
    ] {
        validate(
            "sarif-schema-2.1.0.json",
            &parsed(&c.lock, &reports, OutputFormat::Sarif),
        );
        validate(
            "bom-1.5.schema.json",
            &parsed(&c.lock, &reports, OutputFormat::CycloneDx),
        );
        validate(
            "in-toto-statement-v1.schema.json",
            &parsed(&c.lock, &reports, OutputFormat::InToto),
        );
    }
}

/// The schemas have teeth: a document that breaks them fails.
#[test]
fn the_schemas_reject_a_broken_document() {
    let c = cases();
    let reports = [c.clean.clone()];
    let fails = |name: &str, mut doc: Value, edit: &dyn Fn(&mut Value)| {
        edit(&mut doc);
        let result = std::panic::catch_unwind(|| validate(name, &doc));
        assert!(result.is_err(), "{name} accepted a broken document");
    };
    fails(
        "sarif-schema-2.1.0.json",
        parsed(&c.lock, &reports, OutputFormat::Sarif),
        &|d| d["version"] = "2.2".into(),
    );
    fails(
        "bom-1.5.schema.json",
        parsed(&c.lock, &reports, OutputFormat::CycloneDx),
        &|d| d["components"][0]["hashes"][0]["alg"] = "SHA-257".into(),
    );
    fails(
        "in-toto-statement-v1.schema.json",
        parsed(&c.lock, &reports, OutputFormat::InToto),
        &|d| d["subject"][0]["digest"]["sha256"] = "XYZ".into(),
    );
}

#[test]
fn cyclonedx_lists_the_file_with_its_hash_and_each_table_with_the_locks_hash_and_verdict() {
    let c = cases();
    let bom = parsed(
        &c.lock,
        std::slice::from_ref(&c.tampered),
        OutputFormat::CycloneDx,
    );
    let file = &bom["components"][0];
    assert_eq!(file["type"], "file");
    assert_eq!(
        file["hashes"][0]["content"],
        actlut_codegen::hex(&actlut_codegen::sha256(&c.tampered_bytes))
    );
    let tables = file["components"].as_array().unwrap();
    let prop = |t: &Value, k: &str| {
        t["properties"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == k)
            .map(|p| p["value"].as_str().unwrap().to_string())
    };
    let lock_hash = |name: &str| {
        actlut_codegen::hex(
            &c.lock
                .entries
                .iter()
                .find(|e| e.name == name)
                .unwrap()
                .sha256,
        )
    };
    for (name, format) in [("tanh_fp8_e4m3", "fp8_e4m3"), ("gelu_bf16", "bf16")] {
        let t = tables
            .iter()
            .find(|t| t["name"] == name)
            .unwrap_or_else(|| panic!("{name} in {bom:#}"));
        assert_eq!(
            t["hashes"][0]["content"],
            lock_hash(name),
            "{name}: the lock's hash"
        );
        assert_eq!(prop(t, "actlut:format").as_deref(), Some(format));
        assert_eq!(
            prop(t, "actlut:verdict").as_deref(),
            Some("modified"),
            "{name}"
        );
    }
    let clean = parsed(
        &c.lock,
        std::slice::from_ref(&c.clean),
        OutputFormat::CycloneDx,
    );
    for t in clean["components"][0]["components"].as_array().unwrap() {
        assert_eq!(prop(t, "actlut:verdict").as_deref(), Some("intact"), "{t}");
    }
}

/// The verdict of the table at `offset` in the per-table entries of the
/// CycloneDX and the in-toto reports of `report` (the same in both).
fn table_verdict(lock: &Lock, report: &Report, offset: u64) -> String {
    let reports = std::slice::from_ref(report);
    let bom = parsed(lock, reports, OutputFormat::CycloneDx);
    let components = bom["components"][0]["components"].as_array().unwrap();
    let offset_text = offset.to_string();
    let at = |t: &&Value| {
        t["properties"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["name"] == "actlut:offset" && p["value"] == offset_text.as_str())
    };
    let component = components
        .iter()
        .find(at)
        .unwrap_or_else(|| panic!("no table at {offset} in {bom:#}"));
    let cyclonedx = component["properties"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "actlut:verdict")
        .unwrap()["value"]
        .as_str()
        .unwrap()
        .to_string();
    let statement = parsed(lock, reports, OutputFormat::InToto);
    let file = &statement["predicate"]["files"][0];
    let table = file["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["offset"] == offset)
        .unwrap_or_else(|| panic!("no table at {offset} in {statement:#}"));
    assert_eq!(table["verdict"], cyclonedx.as_str(), "{statement:#}");
    assert_eq!(file["verdict"], "fail");
    cyclonedx
}

#[test]
fn a_table_whose_declaration_is_bad_is_not_intact_in_the_per_table_entries() {
    // The declared tanh_fp8_e4m3 of `artifact`: its record at 3000, its
    // table (found by content too) after the record's 128 bytes.
    let lock = lock();
    let (record, table) = (3000, 3000 + 128);
    let clean = audit(&artifact(), &lock).unwrap();
    assert_eq!(table_verdict_of_clean(&lock, &clean, table), "intact");
    // A padding byte (the record does not parse), the marker's first byte
    // (found by its fields) and a byte of the hash (it declares another
    // table): the table's bytes are untouched.
    for (at, what) in [(100, "padding"), (0, "marker"), (16, "hash")] {
        let mut bytes = artifact();
        bytes[record + at] ^= 1;
        let report = audit(&bytes, &lock).unwrap();
        let text = render(
            &lock,
            std::slice::from_ref(&report),
            &[],
            OutputFormat::Text,
        )
        .0;
        assert!(text.contains("BAD DECLARATION"), "{what}: {text}");
        assert_eq!(
            table_verdict(&lock, &report, table as u64),
            "bad-declaration",
            "{what}: {text}"
        );
        // A changed entry too: the table's own verdict, the worse one, stays.
        bytes[table + 40] ^= 1;
        let report = audit(&bytes, &lock).unwrap();
        assert_eq!(
            table_verdict(&lock, &report, table as u64),
            "modified",
            "{what} and an entry"
        );
    }
}

/// The verdict of the table at `offset` in a report without a problem.
fn table_verdict_of_clean(lock: &Lock, report: &Report, offset: usize) -> String {
    let statement = parsed(lock, std::slice::from_ref(report), OutputFormat::InToto);
    assert_eq!(statement["predicate"]["verdict"], "pass");
    let tables = statement["predicate"]["files"][0]["tables"]
        .as_array()
        .unwrap();
    let t = tables.iter().find(|t| t["offset"] == offset).unwrap();
    t["verdict"].as_str().unwrap().to_string()
}

#[test]
fn the_in_toto_subject_digest_is_the_files_sha256() {
    let c = cases();
    let s = parsed(
        &c.lock,
        std::slice::from_ref(&c.tampered),
        OutputFormat::InToto,
    );
    assert_eq!(s["_type"], "https://in-toto.io/Statement/v1");
    let want = actlut_codegen::hex(&actlut_codegen::sha256(&c.tampered_bytes));
    assert_eq!(s["subject"][0]["digest"]["sha256"], want);
    assert_eq!(s["predicate"]["verdict"], "fail");
    let clean = parsed(
        &c.lock,
        std::slice::from_ref(&c.clean),
        OutputFormat::InToto,
    );
    assert_eq!(clean["predicate"]["verdict"], "pass");
}

#[test]
fn sarif_has_one_result_per_problem_at_its_offset() {
    let c = cases();
    let log = parsed(
        &c.lock,
        std::slice::from_ref(&c.tampered),
        OutputFormat::Sarif,
    );
    let results = log["runs"][0]["results"].as_array().unwrap();
    let problems = c.tampered.findings(&c.lock.entries);
    assert!(problems.len() >= 2, "{problems:#?}");
    assert_eq!(results.len(), problems.len());
    for (r, p) in results.iter().zip(&problems) {
        assert_eq!(r["message"]["text"], p.message);
        let region = &r["locations"][0]["physicalLocation"]["region"];
        assert_eq!(region["byteOffset"].as_u64(), p.offset);
        assert_eq!(
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "%3Cbytes%3E"
        );
    }
    assert!(
        problems.iter().any(|p| p.offset == Some(3000)),
        "the declaration at its record"
    );
}

/// The exit status is the audit's, whatever the format, and every format
/// says pass or fail alike.
#[test]
fn the_verdict_and_exit_status_are_the_same_in_every_format() {
    let c = cases();
    for (reports, code) in [
        (vec![c.clean.clone()], 0),
        (vec![c.tampered.clone()], 1),
        (vec![c.empty.clone()], 0),
    ] {
        for format in OutputFormat::ALL {
            let (out, exit) = render(&c.lock, &reports, &[], format);
            assert_eq!(exit, code, "{}", format.name());
            let failed = match format {
                OutputFormat::Text => out.contains("problem"),
                OutputFormat::Json => serde_json::from_str::<Value>(&out).unwrap()["ok"] == false,
                OutputFormat::Sarif => !serde_json::from_str::<Value>(&out).unwrap()["runs"][0]
                    ["results"]
                    .as_array()
                    .unwrap()
                    .is_empty(),
                OutputFormat::CycloneDx => out.contains("\"fail\""),
                OutputFormat::InToto => {
                    serde_json::from_str::<Value>(&out).unwrap()["predicate"]["verdict"] == "fail"
                }
            };
            assert_eq!(failed, code == 1, "{}:\n{out}", format.name());
        }
    }
}

/// A file with no table is not a confirmation: every format says nothing
/// was verified; the exit status stays 0 unless a table is expected.
#[test]
fn zero_tables_say_nothing_was_verified_in_every_format_and_expect_fails() {
    let c = cases();
    let reports = [c.empty.clone()];
    for format in OutputFormat::ALL {
        let (out, exit) = render(&c.lock, &reports, &[], format);
        assert!(out.contains(NOTHING_VERIFIED), "{}:\n{out}", format.name());
        assert_eq!(exit, 0);
        let (out, exit) = render(&c.lock, &reports, &["gelu_bf16".to_string()], format);
        assert_eq!(exit, 1, "{}", format.name());
        assert!(
            out.contains("expected table gelu_bf16 not found"),
            "{}:\n{out}",
            format.name()
        );
    }
    let json: Value =
        serde_json::from_str(&render(&c.lock, &reports, &[], OutputFormat::Json).0).unwrap();
    assert_eq!(json["nothing_verified"], true);
    assert_eq!(json["files"][0]["note"], NOTHING_VERIFIED);
    // A file that holds the expected tables passes.
    let (_, exit) = render(
        &c.lock,
        std::slice::from_ref(&c.clean),
        &["gelu_bf16".into(), "tanh_fp8_e4m3".into()],
        OutputFormat::Json,
    );
    assert_eq!(exit, 0);
    // Tables found: no note.
    assert!(!render(
        &c.lock,
        std::slice::from_ref(&c.clean),
        &[],
        OutputFormat::Text
    )
    .0
    .contains(NOTHING_VERIFIED));
}

/// `--json` keeps its keys.
#[test]
fn the_json_report_keeps_its_keys() {
    let c = cases();
    let json = parsed(
        &c.lock,
        std::slice::from_ref(&c.tampered),
        OutputFormat::Json,
    );
    for k in ["lock", "files", "tables_found", "problems", "ok"] {
        assert!(json.get(k).is_some(), "{k}");
    }
    let file = &json["files"][0];
    for k in [
        "path",
        "bytes",
        "candidates",
        "compared_entries",
        "compact_rejected_chunks",
        "compact_rejected_per_mille",
        "compact_rejected_cut_per_mille",
        "rejected_surprises",
        "rejected_pairs",
        "rejected_features",
        "rejected_matching",
        "rejected_distinctive_per_mille",
        "tables",
        "listed",
        "problems",
    ] {
        assert!(file.get(k).is_some(), "{k}");
    }
    let table = &file["tables"][0];
    for k in [
        "offset",
        "bytes",
        "form_offset",
        "form_bytes",
        "names",
        "format",
        "form",
        "byte_order",
        "sha256",
        "verdict",
        "differing_entries",
        "matching_entries",
        "evidence",
        "first_differences",
        "in_lock",
        "lock_sha256",
        "compact",
        "foreign_order",
        "description",
    ] {
        assert!(table.get(k).is_some(), "{k}");
    }
}

/// The library reads a file in blocks as it reads bytes: the same report.
#[test]
fn a_path_and_its_bytes_give_the_same_report() {
    let c = cases();
    let dir = std::env::temp_dir().join(format!("actlut-reports-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("artifact.bin");
    std::fs::write(&path, &c.tampered_bytes).unwrap();
    let mut from_file = audit(path.as_path(), &c.lock).unwrap();
    assert_eq!(from_file.file_sha256, c.tampered.file_sha256);
    from_file.path = c.tampered.path.clone();
    assert_eq!(from_file, c.tampered);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The ninth attack round: a version-2 declaration (a name over 32 bytes)
/// that does not parse was taken as 128 bytes long, so its table, at 192, kept
/// `intact` in CycloneDX and in-toto. A record that does not parse has its
/// version's length; and a table where a record of either version would end
/// is marked, since the changed byte may be the version byte.
#[test]
fn a_version_2_declaration_that_does_not_parse_marks_its_table() {
    let sigmoid = Reference::generate(Function::Sigmoid, Format::Fp8E4M3B11Fnuz);
    let lock = Lock::parse(
        "the test lock",
        actlut_audit::BUILTIN_LOCK,
        vec![sigmoid.clone()],
    );
    let lock = lock.unwrap();
    // The lock gives this derivative the bytes (and hash) of sigmoid's table.
    let name = "softplus_derivative_fp8_e4m3b11fnuz";
    assert!(lock
        .entries
        .iter()
        .any(|e| e.name == name && e.sha256 == sigmoid.sha256));
    let d = Declaration::new(
        name,
        Representation::Full,
        1,
        StoredOrder::Little,
        256,
        sigmoid.sha256,
    );
    let record = d.to_bytes_v2();
    let mut bytes = noise(4096, 7);
    bytes.extend_from_slice(&record);
    bytes.extend_from_slice(&sigmoid.bytes_le);
    bytes.extend_from_slice(&noise(4096, 8));
    let table = 4096 + 192;
    let clean = audit(&bytes, &lock).unwrap();
    assert_eq!(table_verdict_of_clean(&lock, &clean, table), "intact");
    // A padding byte, and the version byte (2 to 3: read as version 1).
    for (at, what) in [(180, "padding"), (8, "version")] {
        let mut bytes = bytes.clone();
        bytes[4096 + at] ^= 1;
        let report = audit(&bytes, &lock).unwrap();
        let d = &report.declared[0];
        assert!(d.declaration.is_err(), "{what}");
        if what == "padding" {
            assert_eq!(d.table_offset(), table as u64);
        }
        assert_eq!(
            table_verdict(&lock, &report, table as u64),
            "bad-declaration",
            "{what}"
        );
    }
}
