//! Declared tables the lock does not list whose name is an op and a format
//! (tables with constants and derivatives, version-2 declarations): the
//! audit verifies them by computing them again (`actlut_audit::ops`).

use actlut_audit::{Index, Reference};
use actlut_codegen::record::{Declaration, Representation, StoredOrder};
use actlut_codegen::{Format, Function};

/// A version-2 declaration of `name` (an fp8 table), then `table`.
fn declared(name: &str, table: &[u8; 256]) -> Vec<u8> {
    let d = Declaration::new(
        name,
        Representation::Full,
        1,
        StoredOrder::Little,
        256,
        actlut_codegen::sha256(table),
    );
    assert_eq!(d.version, 2, "{name} takes a version-2 declaration");
    let mut file = vec![0x5Au8; 4096];
    file.extend_from_slice(&d.encode()[..d.record_bytes()]);
    file.extend_from_slice(table);
    file.extend_from_slice(&[0x5A; 4096]);
    file
}

fn index() -> Index {
    Index::new(vec![Reference::generate(Function::Elu, Format::Fp8E4M3)])
}

/// An op `actlut_core` cannot compute (a derivative, like a function, with a constant out of
/// its domain) is not verified: the audit says so, as a problem, never as intact.
#[test]
fn a_declared_op_that_cannot_be_computed_again_is_a_problem_never_intact() {
    let table = [7u8; 256];
    for name in [
        "elu_derivative(alpha=-1)_fp8_e4m3",
        "elu(alpha=-1)_fp8_e4m3",
    ] {
        let report = index().scan(&declared(name, &table));
        assert_eq!(report.declared.len(), 1);
        let d = &report.declared[0];
        assert_eq!(d.table_offset(), 4096 + 192);
        let p = d.problem().expect("unverified is a problem");
        assert!(p.contains(name) && p.contains("not computed again"), "{p}");
    }
}

/// A declared op is verified: computed again, its hash then the computed table's; bytes
/// that are not the table are a problem, and the table itself is intact.
#[test]
fn a_declared_op_is_verified_by_computing_it_again() {
    let report = index().scan(&declared("elu(alpha=0.5)_fp8_e4m3", &[7; 256]));
    let d = &report.declared[0];
    assert_eq!(d.unverified, None, "not verified: {:?}", d.problem());
    assert!(d.expected.is_some());
    assert!(d.recomputed);
    // Bytes that are not the table, declared with their own hash: a problem found by
    // verifying them.
    assert!(
        d.problem()
            .is_some_and(|p| p.contains("the table computed again has")),
        "{:?}",
        d.problem()
    );
    for (op, format) in [
        ("elu(alpha=0.5)", Format::Fp8E4M3),
        ("hardtanh(min=-1/3,max=1)", Format::Fp8E5M2),
    ] {
        let op: actlut_codegen::Op = op.parse().unwrap();
        let name = actlut_codegen::op_table_name(&op, format);
        let table: [u8; 256] =
            actlut_codegen::table_bytes_le(format, &actlut_codegen::op_table(&op, format).unwrap())
                .try_into()
                .unwrap();
        let report = index().scan(&declared(&name, &table));
        let d = &report.declared[0];
        assert_eq!(d.name(), Some(name.as_str()));
        assert_eq!(d.problem(), None, "{name}");
    }
}

/// A version-2 declaration whose name is a table of the lock is a problem:
/// a build declares a short name in version 1, its table at record + 128,
/// where the program's code reads it; a version-2 record puts it at + 192
/// (the attack on this design moved an intact table so, 64 bytes from what
/// the program reads). The same table declared in version 1 passes.
#[test]
fn a_long_record_of_a_table_of_the_lock_is_a_problem() {
    let r = Reference::generate(Function::Elu, Format::Fp8E4M3);
    let table: [u8; 256] = r.bytes_le.clone().try_into().unwrap();
    let mut d = Declaration::new(
        "elu_fp8_e4m3",
        Representation::Full,
        1,
        StoredOrder::Little,
        256,
        r.sha256,
    );
    let mut file = vec![0u8; 100];
    file.extend_from_slice(&d.to_bytes());
    file.extend_from_slice(&table);
    let report = index().scan(&file);
    assert_eq!(report.declared.len(), 1);
    assert_eq!(report.declared[0].problem(), None);
    d.version = 2;
    let mut file = vec![0u8; 100];
    file.extend_from_slice(&d.encode()[..192]);
    file.extend_from_slice(&table);
    let report = index().scan(&file);
    assert_eq!(report.declared.len(), 1);
    assert!(report.declared[0]
        .problem()
        .is_some_and(|p| p.contains("version 2 for a name that takes version 1")));
}

/// The fourth attack round: an op's constants brought its table within 2
/// entries of a built-in table's (`elu(alpha=1.0000001)_f16` and
/// `elu_f16`), and its declaration, intact, cleared the changed copy of
/// elu_f16 it is: 2 changed entries passed against a hiding cost of
/// hundreds. A copy of a known table found exactly at a declared op's table
/// is not cleared by it: it is reported, as a modified copy.
#[test]
#[ignore = "generates every built-in table: run in release by .ci/steps/30-audit.sh"]
fn an_op_declared_over_a_near_copy_of_a_built_in_table_does_not_clear_it() {
    use actlut_codegen::record::{Declaration, Representation, StoredOrder};
    let lock = actlut_audit::Lock::builtin().unwrap();
    let format = Format::F16;
    let op: actlut_codegen::Op = "elu(alpha=1.0000001)".parse().unwrap();
    let near =
        actlut_codegen::table_bytes_le(format, &actlut_codegen::op_table(&op, format).unwrap());
    let elu = actlut_codegen::table_bytes_le(format, &actlut_codegen::table(Function::Elu, format));
    let differ = near
        .chunks(2)
        .zip(elu.chunks(2))
        .filter(|(a, b)| a != b)
        .count();
    assert!((1..=8).contains(&differ), "{differ} entries differ");
    let name = actlut_codegen::op_table_name(&op, format);
    let d = Declaration::new(
        &name,
        Representation::Full,
        2,
        StoredOrder::Little,
        near.len() as u32,
        actlut_codegen::sha256(&near),
    );
    let mut file = vec![0x5Au8; 4096];
    file.extend_from_slice(&d.encode()[..d.record_bytes()]);
    let at = file.len() as u64;
    file.extend_from_slice(&near);
    file.extend_from_slice(&[0x5A; 4096]);
    let report = actlut_audit::audit(&file[..], &lock).unwrap();
    let problems = report.problems(&lock.entries);
    assert!(
        report.found.iter().any(|f| f.offset == at
            && f.names.iter().any(|n| n == "elu_f16")
            && f.differing == differ),
        "{problems:?}"
    );
    assert!(!problems.is_empty());
}

/// The fifth attack round: another spelling of an op (`leaky-relu(…)`, the
/// feature's name; constants out of their declared order) was verified as
/// intact, and is none the scan meets by its name, so a changed marker and
/// header hid its record. A build declares the canonical text only: any
/// other spelling is a problem, its table not verified.
#[test]
fn an_op_declared_by_another_spelling_is_a_problem() {
    let op: actlut_codegen::Op = "leaky_relu(alpha=0.25)".parse().unwrap();
    let table = actlut_codegen::op_table(&op, Format::Fp8E4M3).unwrap();
    let table: [u8; 256] = actlut_codegen::table_bytes_le(Format::Fp8E4M3, &table)
        .try_into()
        .unwrap();
    let report = index().scan(&declared("leaky_relu(alpha=0.25)_fp8_e4m3", &table));
    assert_eq!(report.declared[0].problem(), None, "the canonical text");
    for name in [
        "leaky-relu(alpha=0.25)_fp8_e4m3",
        "leaky_relu(alpha=1/4)_fp8_e4m3",
    ] {
        let report = index().scan(&declared(name, &table));
        let d = report
            .declared
            .iter()
            .find(|d| d.offset == 4096)
            .expect(name);
        let p = d.problem().expect("another spelling is a problem");
        assert!(p.contains("canonical"), "{name}: {p}");
    }
}

/// The sixth attack round: a declared op within a few entries of a known table passed in two
/// ways. It was caught only as a damaged copy found by content exactly at the op's extent, so
/// (1) 256 intact declarations after it took its extent out of the scan's view, and (2) a
/// table verified at its declaration only (a derivative) is never found by content. Now the
/// op's computed table is compared with every known table of its format when the op is
/// judged: a near one makes the declaration a problem of its own, whatever follows it.
#[test]
fn an_op_within_a_few_entries_of_a_known_table_of_its_format_is_a_problem() {
    let relu = Reference::generate(Function::Relu, Format::Fp8E4M3);
    let relu_table = actlut_codegen::table_bytes_le(
        Format::Fp8E4M3,
        &actlut_codegen::table(Function::Relu, Format::Fp8E4M3),
    );
    let relu_record = {
        let d = Declaration::new(
            "relu_fp8_e4m3",
            Representation::Full,
            1,
            StoredOrder::Little,
            256,
            actlut_codegen::sha256(&relu_table),
        );
        [&d.encode()[..d.record_bytes()], &relu_table[..]].concat()
    };
    let cases = [
        ("elu(alpha=0.999)", Format::Fp8E4M3, "elu", Format::Fp8E4M3),
        (
            "celu_derivative(alpha=0.999)",
            Format::Fp8E4M3,
            "celu_derivative",
            Format::Fp8E4M3,
        ),
    ];
    for (op, format, known, known_format) in cases {
        let op: actlut_codegen::Op = op.parse().unwrap();
        let known: actlut_codegen::Op = known.parse().unwrap();
        let table: [u8; 256] =
            actlut_codegen::table_bytes_le(format, &actlut_codegen::op_table(&op, format).unwrap())
                .try_into()
                .unwrap();
        let known_bytes = actlut_codegen::table_bytes_le(
            known_format,
            &actlut_codegen::builtin_table(&known, known_format),
        );
        let known_name = actlut_codegen::op_table_name(&known, known_format);
        let differ = table
            .iter()
            .zip(&known_bytes)
            .filter(|(a, b)| a != b)
            .count();
        assert!((1..4).contains(&differ), "{op}: {differ} entries differ");
        let index = Index::new(vec![
            Reference::new(known_name.clone(), known_format, known_bytes),
            relu.clone(),
        ]);
        let name = actlut_codegen::op_table_name(&op, format);
        for flood in [0, 300] {
            let mut file = declared(&name, &table);
            for _ in 0..flood {
                file.extend_from_slice(&relu_record);
            }
            let report = index.scan(&file);
            let d = report
                .declared
                .iter()
                .find(|d| d.name() == Some(name.as_str()))
                .expect("the op's record");
            assert!(d.recomputed, "{name}");
            assert_eq!(d.near, Some((known_name.clone(), differ)), "{name}");
            let p = d.problem().expect("a near op is a problem");
            assert!(
                p.contains(&known_name) && p.contains(&format!("but for {differ} of 256")),
                "{p}"
            );
            assert!(!report.too_many, "{name}");
        }
    }
}

/// An op far from every known table (`softcap(cap=30)` over fp8: no built-in table is
/// within one in 64 of its entries) is intact, and is held apart from none.
#[test]
fn an_op_far_from_every_known_table_is_intact() {
    let op: actlut_codegen::Op = "elu(alpha=0.5)".parse().unwrap();
    let table: [u8; 256] = actlut_codegen::table_bytes_le(
        Format::Fp8E4M3,
        &actlut_codegen::op_table(&op, Format::Fp8E4M3).unwrap(),
    )
    .try_into()
    .unwrap();
    let report = index().scan(&declared("elu(alpha=0.5)_fp8_e4m3", &table));
    let d = &report.declared[0];
    assert_eq!(d.near, None);
    assert_eq!(d.problem(), None);
}

/// The sixth attack round: an op's record declaring a layout its op does not take (an fp8
/// op as 131,072 bytes of 2-byte entries) was refunded the recomputation of the layout it
/// declared, more than it was charged: the budget counter wrapped below zero (a panic with
/// overflow checks) and the scan stopped at once. It is refunded what computing it cost.
#[test]
fn an_op_record_with_a_wrong_layout_is_refunded_no_more_than_it_cost() {
    let op: actlut_codegen::Op = "softcap(cap=30)".parse().unwrap();
    let table = actlut_codegen::table_bytes_le(
        Format::Fp8E4M3,
        &actlut_codegen::op_table(&op, Format::Fp8E4M3).unwrap(),
    );
    let d = Declaration::new(
        "softcap(cap=30)_fp8_e4m3",
        Representation::Full,
        2,
        StoredOrder::Little,
        131_072,
        actlut_codegen::sha256(&table),
    );
    let mut file = vec![0x5Au8; 4096];
    file.extend_from_slice(&d.encode()[..d.record_bytes()]);
    file.extend_from_slice(&table);
    let mut noise = 0x1234_5678_u32;
    file.extend((0..140_000).map(|_| {
        noise ^= noise << 13;
        noise ^= noise >> 17;
        noise ^= noise << 5;
        noise as u8
    }));
    let report = index().scan(&file);
    assert!(!report.too_many, "{:?}", report.unjudged);
    let p = report.declared[0].problem().expect("a wrong layout");
    assert!(p.contains("131072 bytes of 2-byte entries"), "{p}");
}

/// Tables of other formats of the same size are not held apart: the fp8 formats differ in
/// their bias and special codes, so an honest op lies as near a table of another format
/// (`hardtanh(min=-2,max=2)_fp8_e4m3` is `hardtanh_fp8_e4m3fnuz` but for 2 entries, the codes
/// that are NaN in one format and not the other) as a substituted one does (the sixth attack
/// round: `swish(beta=7.99)_fp8_e4m3b11fnuz`, `silu_fp8_e4m3fnuz` but for 1). Both are intact
/// ops; docs/audit.md states the limit (a reader's list of declared names is the check).
#[test]
fn an_op_near_a_table_of_another_format_is_not_held_to_it() {
    for (op, format, known, known_format) in [
        (
            "hardtanh(min=-2,max=2)",
            Format::Fp8E4M3,
            Function::Hardtanh,
            Format::Fp8E4M3Fnuz,
        ),
        (
            "swish(beta=7.99)",
            Format::Fp8E4M3B11Fnuz,
            Function::Silu,
            Format::Fp8E4M3Fnuz,
        ),
    ] {
        let op: actlut_codegen::Op = op.parse().unwrap();
        let table: [u8; 256] =
            actlut_codegen::table_bytes_le(format, &actlut_codegen::op_table(&op, format).unwrap())
                .try_into()
                .unwrap();
        let other = Reference::generate(known, known_format);
        let differ = table
            .iter()
            .zip(&other.bytes_le)
            .filter(|(a, b)| a != b)
            .count();
        assert!((1..4).contains(&differ), "{op}: {differ}");
        let name = actlut_codegen::op_table_name(&op, format);
        let report = Index::new(vec![other]).scan(&declared(&name, &table));
        let d = &report.declared[0];
        assert_eq!((d.near.clone(), d.problem()), (None, None), "{name}");
    }
}

/// The seventh attack round: references of equal bytes merge across formats
/// (`leaky_relu_fp8_e4m3fnuz = leaky_relu_fp8_e4m3b11fnuz`) and the merged one kept the first
/// format for every name, so an op over the second format was compared with no table of its
/// own format: `leaky_relu(alpha=0.010045)_fp8_e4m3b11fnuz`, 1 entry from its built-in table,
/// passed as intact. Each name is held to its own format.
#[test]
fn an_op_is_held_to_a_merged_table_under_each_of_its_formats() {
    let refs = actlut_audit::merge_aliases(vec![
        Reference::generate(Function::LeakyRelu, Format::Fp8E4M3Fnuz),
        Reference::generate(Function::LeakyRelu, Format::Fp8E4M3B11Fnuz),
    ]);
    assert_eq!(refs.len(), 1, "one byte string, two names");
    let index = Index::new(refs);
    for format in [Format::Fp8E4M3Fnuz, Format::Fp8E4M3B11Fnuz] {
        let op: actlut_codegen::Op = "leaky_relu(alpha=0.010045)".parse().unwrap();
        let table: [u8; 256] =
            actlut_codegen::table_bytes_le(format, &actlut_codegen::op_table(&op, format).unwrap())
                .try_into()
                .unwrap();
        let name = actlut_codegen::op_table_name(&op, format);
        let report = index.scan(&declared(&name, &table));
        let d = &report.declared[0];
        let own = format!("leaky_relu_{}", format.name());
        assert!(
            d.near.as_ref().is_some_and(|(n, k)| *n == own && *k >= 1),
            "{name}: {:?}",
            d.near
        );
    }
}

/// FP6 and FP4 tables (64 and 16 entries) leave the share no room: one entry is not fewer
/// than one in 64, so an op one entry from a built-in table of these formats is an intact op
/// (the seventh attack round: `elu(alpha=0.999)_fp6_e2m3` and `elu_fp6_e2m3`); docs/audit.md
/// states it. This test fails the day the rule holds them.
#[test]
fn an_op_one_entry_from_an_fp6_table_is_not_near_it() {
    let format = Format::Fp6E2M3;
    let op: actlut_codegen::Op = "elu(alpha=0.999)".parse().unwrap();
    let table =
        actlut_codegen::table_bytes_le(format, &actlut_codegen::op_table(&op, format).unwrap());
    let elu = Reference::generate(Function::Elu, format);
    let differ = table
        .iter()
        .zip(&elu.bytes_le)
        .filter(|(a, b)| a != b)
        .count();
    assert_eq!(differ, 1);
    let d = Declaration::new(
        &actlut_codegen::op_table_name(&op, format),
        Representation::Full,
        1,
        StoredOrder::Little,
        table.len() as u32,
        actlut_codegen::sha256(&table),
    );
    let mut file = vec![0x5Au8; 4096];
    file.extend_from_slice(&d.encode()[..d.record_bytes()]);
    file.extend_from_slice(&table);
    file.extend_from_slice(&[0x5A; 4096]);
    let report = Index::new(vec![elu]).scan(&file);
    assert_eq!(report.declared[0].near, None);
    assert_eq!(report.declared[0].problem(), None);
}
