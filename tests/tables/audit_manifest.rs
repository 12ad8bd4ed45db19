//! The run-time manifest lists exactly the enabled tables with their lock
//! hashes; identical tables share one `static`; the `self-check` feature
//! re-hashes tables in memory.

use actlut::manifest::{self, TABLES};
use actlut::BuiltinTables;
#[cfg(feature = "self-check")]
use actlut::TableRef;
use actlut::{Format, Function};
use actlut_codegen::sha256;

use crate::support;
use support::lock_entries;

/// The little-endian bytes of a compiled-in table, through the `Function` API.
fn embedded_le(a: Function, format: Format) -> Option<Vec<u8>> {
    let table = a.table(format).ok()?;
    let mut bytes = vec![0; table.len_bytes()];
    assert_eq!(table.write_le_bytes(&mut bytes), bytes.len());
    assert!(table.le_bytes().eq(bytes.iter().copied()));
    Some(bytes)
}

#[test]
fn manifest_lists_exactly_the_enabled_tables_with_their_lock_hashes() {
    let lock = lock_entries();
    let mut enabled = 0;
    // Lock order: formats, then functions.
    let mut expected_order = Vec::new();
    for format in Format::ALL {
        for a in Function::ALL {
            let name = format!("{}_{}", a.name(), format.name());
            let bytes = embedded_le(a, format);
            let Some(t) = manifest::find(&name) else {
                assert!(
                    bytes.is_none(),
                    "{name} compiled in but not in the manifest"
                );
                continue;
            };
            enabled += 1;
            assert_eq!(t.function, a, "{name}");
            assert_eq!(t.format, format, "{name}");
            assert_eq!(t.entries(), format.entries(), "{name}");
            if let Some(bytes) = bytes {
                assert_eq!(t.bytes(), bytes.len(), "{name}");
                assert_eq!(t.sha256, sha256(&bytes), "{name}: manifest hash vs bytes");
            }
            let l = lock.iter().find(|e| e.name == name).unwrap();
            assert_eq!(t.sha256, l.sha256, "{name}: manifest hash vs lock");
            assert_eq!(
                format!("{}", t.sha256_hex()),
                actlut_codegen::hex(&l.sha256)
            );
            assert_eq!(t.definition(), a.definition());
            expected_order.push(name);
        }
    }
    // The function tables first, in lock order; then the derivative tables (`derivatives`).
    let functions: Vec<&str> = TABLES
        .iter()
        .filter(|t| !t.derivative)
        .map(|t| t.name)
        .collect();
    assert_eq!(functions, expected_order);
    assert!(TABLES[..enabled].iter().all(|t| !t.derivative));
    assert_eq!(manifest::REFERENCE_VERSION, lock[0].reference);
    assert!(manifest::find("gelu_f17").is_none());
}

/// With `derivatives`, the manifest lists a derivative table for every enabled function and
/// format that has one, under its lock name and hash, and the hash is that of the table
/// `actlut::fill_table` computes at run time; without it, none.
#[test]
fn manifest_lists_exactly_the_enabled_derivative_tables() {
    let lock = lock_entries();
    let derivatives: Vec<_> = TABLES.iter().filter(|t| t.derivative).collect();
    if !cfg!(feature = "derivatives") {
        assert!(derivatives.is_empty());
        return;
    }
    let functions = TABLES.iter().filter(|t| !t.derivative);
    let mut expected = Vec::new();
    for format in Format::ALL {
        for t in functions.clone().filter(|t| t.format == format) {
            let op = t.op().with_derivative(true);
            if format.can_represent_op(&op) {
                expected.push(format!("{op}_{}", format.name()));
            }
        }
    }
    let names: Vec<String> = derivatives.iter().map(|t| t.name.to_string()).collect();
    assert_eq!(names, expected);
    for t in derivatives {
        let l = lock.iter().find(|e| e.name == t.name).unwrap();
        assert!(l.derivative && l.function == t.function && l.format == t.format);
        assert_eq!(t.sha256, l.sha256, "{}: manifest hash vs lock", t.name);
        let mut table = vec![0u16; t.format.entries()];
        actlut::fill_table(&t.op(), t.format, &mut table[..]).unwrap();
        let bytes = actlut_codegen::table_bytes_le(t.format, &table);
        assert_eq!(
            t.sha256,
            sha256(&bytes),
            "{}: manifest hash vs fill_table",
            t.name
        );
    }
}

#[test]
fn aliases_are_exactly_the_tables_with_equal_hashes() {
    for t in TABLES {
        let mut want: Vec<&str> = TABLES
            .iter()
            .filter(|u| u.sha256 == t.sha256 && u.name != t.name)
            .map(|u| u.name)
            .collect();
        let mut got: Vec<&str> = t.aliases().map(|u| u.name).collect();
        want.sort_unstable();
        got.sort_unstable();
        assert_eq!(got, want, "{}", t.name);
    }
}

/// gelu and gelu_tanh agree on every fp8_e4m3 input: one table, two names, one
/// copy in memory, and both names keep the documented type.
#[cfg(all(feature = "gelu", feature = "gelu-tanh", feature = "fp8-e4m3"))]
#[test]
fn identical_tables_are_one_static_under_two_names() {
    let a: &'static [u8; 256] = actlut::tables::GELU_FP8_E4M3;
    let b: &'static [u8; 256] = actlut::tables::GELU_TANH_FP8_E4M3;
    assert!(core::ptr::eq(a, b));
    assert_eq!(
        actlut::tables::GELU_FP8_E4M3_SHA256,
        actlut::tables::GELU_TANH_FP8_E4M3_SHA256
    );
    let names: Vec<&str> = manifest::find("gelu_fp8_e4m3")
        .unwrap()
        .aliases()
        .map(|t| t.name)
        .collect();
    assert_eq!(names, ["gelu_tanh_fp8_e4m3"]);
}

/// Distinct tables stay distinct statics.
#[cfg(all(feature = "gelu", feature = "silu", feature = "f16"))]
#[test]
fn distinct_tables_are_distinct_statics() {
    assert!(!core::ptr::eq(
        &actlut::tables::GELU_F16,
        &actlut::tables::SILU_F16
    ));
}

#[cfg(feature = "self-check")]
#[test]
fn self_check_accepts_every_compiled_in_table() {
    for t in TABLES.iter().filter(|t| t.derivative) {
        // A derivative table (`derivatives`): its entries as fill_table computes them.
        let mut table = vec![0u16; t.format.entries()];
        actlut::fill_table(&t.op(), t.format, &mut table[..]).unwrap();
        let bytes = actlut_codegen::table_bytes_le(t.format, &table);
        assert_eq!(t.check(&bytes[..]), Ok(()), "{}", t.name);
    }
    for t in TABLES.iter().filter(|t| !t.derivative) {
        let bytes = embedded_le(t.function, t.format).unwrap();
        assert_eq!(t.check(&bytes[..]), Ok(()), "{}", t.name);
        match t.function.table(t.format).unwrap() {
            TableRef::U16(table) => assert_eq!(t.check(table), Ok(()), "{}", t.name),
            TableRef::U8(table) => assert_eq!(t.check(table), Ok(()), "{}", t.name),
            TableRef::Compact(table) => assert_eq!(t.check(table), Ok(()), "{}", t.name),
            _ => unreachable!("a table representation the self-check does not know"),
        }
    }
}

#[cfg(all(feature = "self-check", feature = "gelu", feature = "f16"))]
#[test]
fn self_check_names_a_corrupted_table_and_both_hashes() {
    let entry = manifest::find("gelu_f16").unwrap();
    assert_eq!(entry.check(&actlut::tables::GELU_F16), Ok(()));
    // The table's entries as a copy in memory (full or compact build alike).
    let mut flash: Vec<u16> = (0..=u16::MAX).map(actlut::gelu::f16_bits).collect();
    assert_eq!(entry.check(&flash[..]), Ok(()));
    flash[0x3C00] ^= 0x0100; // one flipped bit
    let err = entry.check(&flash[..]).unwrap_err();
    assert_eq!(err.name, "gelu_f16");
    assert_eq!(err.expected, actlut::tables::GELU_F16_SHA256);
    assert_ne!(err.actual, err.expected);
    let msg = err.to_string();
    assert!(msg.contains("gelu_f16"), "{msg}");
    assert!(msg.contains(&actlut_codegen::hex(&err.expected)), "{msg}");
    assert!(msg.contains(&actlut_codegen::hex(&err.actual)), "{msg}");
    // A table of another width or length is not this table either.
    assert!(entry.check(&[0u8; 256]).is_err());
    assert!(entry.check(&flash[..100]).is_err());
}
