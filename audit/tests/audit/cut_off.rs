//! A record whose marker is intact and that the end of the file cuts off is
//! a problem, like a table cut off: a manifest record (`ACTLUTM1`) with any
//! of its 72 bytes missing, and a declaration (`ACTLUTDT`) missing any byte
//! of its 128 or of the table it declares.

use crate::common;

use actlut_audit::declared::{Declaration, Representation, StoredOrder, DECLARATION_BYTES};
use actlut_audit::manifest::RECORD_BYTES;
use actlut_codegen::record::{declaration_mark, manifest_mark, name_field};
use actlut_codegen::{Format, Function};

fn gelu_f16_sha256() -> [u8; 32] {
    actlut_codegen::sha256(&common::table_le(Function::Gelu, Format::F16))
}

/// A lock of gelu_f16 alone.
fn lock() -> Vec<actlut_codegen::lock::Entry> {
    let t = actlut_codegen::table(Function::Gelu, Format::F16);
    vec![actlut_codegen::lock::entry_for(
        Function::Gelu,
        Format::F16,
        &t,
    )]
}

#[test]
fn a_manifest_record_cut_off_by_the_end_of_the_file_after_its_marker_is_a_problem() {
    let mut record = manifest_mark().to_vec();
    record.extend_from_slice(&name_field("gelu_f16").expect("a name"));
    record.extend_from_slice(&gelu_f16_sha256());
    assert_eq!(record.len(), RECORD_BYTES);
    let noise = common::noise(100_000, 2);
    // Whole: no problem (its hash is the lock's).
    let mut whole = [&noise[..], &record].concat();
    // The table it names, so that the record names what is here.
    whole.extend_from_slice(&common::table_le(Function::Gelu, Format::F16));
    let r = common::index().scan(&whole);
    assert_eq!(r.records.len(), 1);
    assert!(r.problems(&lock()).is_empty(), "{:?}", r.problems(&lock()));
    for n in 8..RECORD_BYTES {
        let file = [&noise[..], &record[..n]].concat();
        let r = common::index().scan(&file);
        let problems = r.problems(&lock());
        assert!(
            problems.iter().any(|p| p.contains(&format!(
                "manifest record at {:#x} is cut off by the end of the file: {n} of {RECORD_BYTES} bytes",
                noise.len()
            ))),
            "cut to {n} bytes: {problems:?}"
        );
    }
}

/// Text after the marker at the end of a file (a line that names it) is no
/// record: a name field holds a name. The marker alone, or with part of a
/// name, cannot be told from a record cut off: a problem.
#[test]
fn the_marker_then_text_at_the_end_of_a_file_is_no_record() {
    for tail in [
        &b" is the marker of a manifest record.\n"[..],
        b"/rustc/5980",
    ] {
        let file = [&common::noise(10_000, 3)[..], &manifest_mark(), tail].concat();
        let r = common::index().scan(&file);
        assert!(r.records.is_empty(), "{:?}", r.records);
        assert!(r.problems(&lock()).is_empty(), "{:?}", r.problems(&lock()));
    }
    for tail in [&b""[..], b"gelu_", b"gelu_f16\0\0", b"gelU_f16"] {
        let file = [&common::noise(10_000, 3)[..], &manifest_mark(), tail].concat();
        let r = common::index().scan(&file);
        assert_eq!(r.records.len(), 1, "{}", tail.escape_ascii());
        assert!(!r.problems(&lock()).is_empty());
    }
}

#[test]
fn a_declaration_cut_off_by_the_end_of_the_file_in_its_record_or_its_table_is_a_problem() {
    let table = common::table_le(Function::Gelu, Format::F16);
    let record = Declaration::new(
        "gelu_f16",
        Representation::Full,
        2,
        StoredOrder::Little,
        table.len() as u32,
        gelu_f16_sha256(),
    )
    .to_bytes();
    assert_eq!(record[..8], declaration_mark());
    let noise = common::noise(10_000, 3);
    let whole = [&noise[..], &record, &table].concat();
    let r = common::index().scan(&whole);
    assert_eq!(r.declared.len(), 1);
    assert!(r.problems(&lock()).is_empty(), "{:?}", r.problems(&lock()));
    let cuts = (8..DECLARATION_BYTES)
        .chain((DECLARATION_BYTES..DECLARATION_BYTES + table.len()).step_by(4099))
        .chain([DECLARATION_BYTES + table.len() - 1]);
    for n in cuts {
        let file = &whole[..noise.len() + n];
        let r = common::index().scan(file);
        let at = format!("{:#x}", noise.len());
        assert!(
            r.declared
                .iter()
                .any(|d| d.offset == noise.len() as u64 && d.problem().is_some()),
            "cut to {n} bytes: {:?}",
            r.declared
        );
        assert!(
            r.problems(&lock()).iter().any(|p| p.contains(&at)),
            "cut to {n} bytes: {:?}",
            r.problems(&lock())
        );
    }
}
