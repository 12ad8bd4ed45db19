//! What the search by content does not see, as docs/audit.md states it: a
//! table re-encoded, stored with a stride, compressed or XOR-ed is not found.
//! Each test fails the day such a table is found, so that the page is
//! changed with it.

use crate::common;

use actlut_codegen::{Format, Function};
use common::{index, noise, table_le};

fn in_noise(bytes: &[u8]) -> Vec<u8> {
    let mut data = noise(5000, 1);
    data.extend_from_slice(bytes);
    data.extend(noise(5000, 2));
    data
}

fn nothing_found(bytes: &[u8], what: &str) {
    let r = index().scan(&in_noise(bytes));
    assert!(r.found.is_empty(), "{what}: {:?}", r.found);
}

#[test]
fn a_table_re_encoded_as_f32_is_not_found() {
    let t = actlut_codegen::table(Function::Gelu, Format::Bf16);
    let f32s: Vec<u8> = t
        .iter()
        .flat_map(|&b| f32::from_bits(u32::from(b) << 16).to_le_bytes())
        .collect();
    nothing_found(&f32s, "f32");
}

#[test]
fn a_table_stored_with_a_stride_is_not_found() {
    let t = table_le(Function::Gelu, Format::Bf16);
    let strided: Vec<u8> = t.chunks_exact(2).flat_map(|c| [c[0], c[1], 0, 0]).collect();
    nothing_found(&strided, "stride 4");
}

#[test]
fn a_table_xored_with_a_constant_is_not_found() {
    let t = table_le(Function::Gelu, Format::F16);
    let x: Vec<u8> = t.iter().map(|b| b ^ 0x5A).collect();
    nothing_found(&x, "xor");
}

#[test]
fn a_table_compressed_as_deltas_is_not_found() {
    // A delta coding, the first step of most compressors of smooth data.
    let t = table_le(Function::Tanh, Format::F16);
    let words: Vec<u16> = t
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    let mut prev = 0u16;
    let deltas: Vec<u8> = words
        .iter()
        .flat_map(|&w| {
            let d = w.wrapping_sub(prev);
            prev = w;
            d.to_le_bytes()
        })
        .collect();
    nothing_found(&deltas, "deltas");
}

/// A declared table rewritten into another known table of its format, intact,
/// with its record rewritten to declare that table, is a valid declaration
/// of a table in the lock: the audit reports what the file declares, as
/// docs/audit.md's second exception for declared tables says. For
/// `gelu_fp8_e4m3fnuz` that takes one table byte (and the record's name and
/// hash). The test fails the day the audit tells the two apart.
#[test]
fn a_declared_substitution_is_reported_as_the_table_it_declares() {
    use actlut_codegen::record::{Declaration, Representation, StoredOrder};
    let format = Format::Fp8E4M3Fnuz;
    let was = table_le(Function::Gelu, format);
    let now = table_le(Function::GeluTanh, format);
    let differing = was.iter().zip(&now).filter(|(a, b)| a != b).count();
    assert_eq!(differing, 1, "gelu and gelu_tanh on {format:?}");
    let name = format!("{}_{}", Function::GeluTanh.name(), format.name());
    let len = u32::try_from(now.len()).unwrap();
    let record = Declaration::new(
        &name,
        Representation::Full,
        1,
        StoredOrder::Little,
        len,
        actlut_codegen::sha256(&now),
    );
    let mut declared = record.to_bytes().to_vec();
    declared.extend_from_slice(&now);
    let r = index().scan(&in_noise(&declared));
    let lock = actlut_codegen::lock::parse(include_str!("../../../tables/actlut.lock")).unwrap();
    assert!(r.problems(&lock).is_empty(), "{:?}", r.problems(&lock));
    let names: Vec<&str> = r
        .declared
        .iter()
        .map(|d| d.declaration.as_ref().expect("it parses").name())
        .collect();
    assert_eq!(names, [name.as_str()]);
}

/// Where two names are aliases (`gelu_fp8_e4m3 = gelu_tanh_fp8_e4m3`: the
/// same bytes, one hash), a declaration renamed from one to the other is a
/// substitution that changes 0 entries and only the record's name: the audit
/// reports the table it now declares, intact (docs/audit.md, the second
/// exception for declared tables). A build writes the first of the aliases
/// its features enable, so either name is one a build writes. Renamed to a
/// table that is not an alias, the same record is a problem.
#[test]
fn a_declaration_renamed_to_an_alias_of_its_table_is_reported_as_that_alias() {
    use actlut_codegen::record::{Declaration, Representation, StoredOrder};
    let format = Format::Fp8E4M3;
    let table = table_le(Function::Gelu, format);
    assert_eq!(table, table_le(Function::GeluTanh, format), "aliases");
    let declared = |name: &str| {
        let record = Declaration::new(
            name,
            Representation::Full,
            1,
            StoredOrder::Little,
            table.len() as u32,
            actlut_codegen::sha256(&table),
        );
        let mut bytes = record.to_bytes().to_vec();
        bytes.extend_from_slice(&table);
        in_noise(&bytes)
    };
    let built = declared("gelu_fp8_e4m3");
    let renamed = declared("gelu_tanh_fp8_e4m3");
    let changed = built.iter().zip(&renamed).filter(|(a, b)| a != b).count();
    assert_eq!(changed, 13, "record bytes changed");
    let lock = actlut_codegen::lock::parse(include_str!("../../../tables/actlut.lock")).unwrap();
    for (data, name) in [(&built, "gelu_fp8_e4m3"), (&renamed, "gelu_tanh_fp8_e4m3")] {
        let r = index().scan(data);
        assert!(
            r.problems(&lock).is_empty(),
            "{name}: {:?}",
            r.problems(&lock)
        );
        let names: Vec<&str> = r.declared.iter().filter_map(|d| d.name()).collect();
        assert_eq!(names, [name]);
    }
    let r = index().scan(&declared("gelu_quick_fp8_e4m3"));
    assert!(
        r.problems(&lock)
            .iter()
            .any(|p| p.starts_with("declaration of gelu_quick_fp8_e4m3")),
        "{:?}",
        r.problems(&lock)
    );
}
