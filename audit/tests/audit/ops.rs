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
