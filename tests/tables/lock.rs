//! Golden hashes: every enabled table hashes to its line in `tables/actlut.lock`,
//! and the lock covers every (function, format) the crate can generate.

use actlut::BuiltinTables;
use actlut::{Format, Function};
use actlut_codegen::{lock, sha256};

use crate::support;
use support::lock_entries;

/// The little-endian bytes of a full 16-bit table (`tables::<NAME>` is one in
/// every build).
#[cfg(all(feature = "gelu", any(feature = "f16", feature = "bf16")))]
fn le_bytes(t: &[u16; 65536]) -> Vec<u8> {
    t.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// The 65,536 logical entries of a compact table, little-endian: the bytes its
/// identity hash is taken over.
#[cfg(all(
    feature = "gelu",
    feature = "f16",
    feature = "bf16",
    feature = "compact"
))]
fn compact_le_bytes(t: &actlut::compact::CompactRef<'_>) -> Vec<u8> {
    (0..=u16::MAX)
        .flat_map(|x| t.get(x).to_le_bytes())
        .collect()
}

#[test]
fn lock_has_one_entry_for_every_function_and_format() {
    let entries = lock_entries();
    let derivatives = actlut_codegen::derivative_table_pairs().count();
    assert_eq!(
        entries.len(),
        actlut_codegen::table_pairs().count() + derivatives
    );
    for (function, format) in actlut_codegen::table_pairs() {
        let name = format!("{}_{}", function.name(), format.name());
        let e = entries.iter().find(|e| e.name == name);
        assert!(
            e.is_some_and(|e| !e.derivative && e.function == function),
            "{name} missing from the lock"
        );
    }
    // The derivative tables follow the function tables, in the same order.
    for (i, (function, format)) in actlut_codegen::derivative_table_pairs().enumerate() {
        let name = format!("{}_derivative_{}", function.name(), format.name());
        let e = &entries[entries.len() - derivatives + i];
        assert_eq!(e.name, name);
        assert!(
            e.derivative && e.function == function && e.format == format,
            "{name}"
        );
    }
}

#[test]
fn every_embedded_table_hashes_to_its_lock_entry() {
    let entries = lock_entries();
    let expected = |name: &str| entries.iter().find(|e| e.name == name).expect(name).sha256;
    for format in Format::ALL {
        for act in Function::ALL {
            let Ok(table) = act.table(format) else {
                continue;
            };
            let bytes: Vec<u8> = table.le_bytes().collect();
            let name = format!("{}_{}", act.name(), format.name());
            assert_eq!(
                sha256(&bytes),
                expected(&name),
                "{name}: embedded bytes differ from the lock"
            );
        }
    }
}

#[cfg(all(feature = "gelu", feature = "f16"))]
#[test]
fn hash_constants_match_the_embedded_bytes() {
    assert_eq!(
        sha256(&le_bytes(actlut::tables::GELU_F16)),
        actlut::tables::GELU_F16_SHA256
    );
}

#[cfg(all(feature = "gelu", feature = "bf16"))]
#[test]
fn bf16_hash_constant_matches_the_embedded_bytes() {
    assert_eq!(
        sha256(&le_bytes(actlut::tables::GELU_BF16)),
        actlut::tables::GELU_BF16_SHA256
    );
}

#[cfg(all(
    feature = "gelu",
    feature = "f16",
    feature = "bf16",
    feature = "compact"
))]
#[test]
fn compact_forms_hash_to_the_hash_constants_of_the_full_tables() {
    assert_eq!(
        sha256(&compact_le_bytes(&actlut::tables::compact::GELU_F16)),
        actlut::tables::GELU_F16_SHA256
    );
    assert_eq!(
        sha256(&compact_le_bytes(&actlut::tables::compact::GELU_BF16)),
        actlut::tables::GELU_BF16_SHA256
    );
}

#[test]
fn lock_file_is_what_the_generator_renders() {
    // The committed file is exactly the generator's output for its entries: no
    // hand edits, and the SHA256SUMS file agrees with it.
    let entries = lock_entries();
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tables/actlut.lock"))
        .unwrap();
    assert_eq!(text, lock::render(&entries));
    let sums =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tables/SHA256SUMS")).unwrap();
    assert_eq!(sums, lock::render_sha256sums(&entries));
}

#[test]
fn corrupt_locks_are_rejected_with_the_line_and_the_problem() {
    let good = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tables/actlut.lock"))
        .unwrap();
    let cases = [
        (
            "gelu_f16 gelu f16 65536 131072 abcd ref",
            "not 64 hex digits",
        ),
        ("gelu_f16 gelu f16 65536 131072", "expected 7 columns"),
        ("gelu_f17 gelu f17 65536 131072 00 ref", "unknown format"),
        (
            "swoosh_f16 swoosh f16 65536 131072 00 ref",
            "unknown function",
        ),
        (
            "softcap_f16 softcap f16 65536 131072 00 ref",
            "has no built-in tables",
        ),
        ("gelu_bf16 gelu f16 65536 131072 00 ref", "does not match"),
        ("gelu_f16 gelu f16 256 256 00 ref", "has 65536 entries"),
    ];
    for (line, want) in cases {
        let err = lock::parse(&format!("{line}\n")).unwrap_err();
        assert_eq!(err.line, 1);
        assert!(err.message.contains(want), "{line:?}: {err}");
    }
    let first = good.lines().find(|l| !l.starts_with('#')).unwrap();
    let twice = format!("{first}\n{first}\n");
    assert!(lock::parse(&twice)
        .unwrap_err()
        .message
        .contains("appears twice"));
}

/// One parser, one strictness: what build.rs and `actlut audit` both refuse.
#[test]
fn a_bom_a_cut_last_line_a_differing_reference_and_a_missing_table_are_errors() {
    let good = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tables/actlut.lock"))
        .unwrap();
    assert_eq!(
        lock::parse(&good).unwrap().len(),
        actlut_codegen::builtin_tables().count()
    );

    let bom = lock::parse(&format!("\u{FEFF}{good}")).unwrap_err();
    assert_eq!(bom.line, 1);
    assert!(bom.message.contains("BOM"), "{bom}");

    // Cut inside the reference column of the last line: the columns still
    // parse, the missing newline gives it away.
    let cut = lock::parse(&good[..good.len() - 3]).unwrap_err();
    assert!(cut.message.contains("is truncated"), "{cut}");
    assert_eq!(cut.line, good.lines().count());

    // The same, with a newline put back: the reference column differs.
    let cut_nl = format!("{}\n", &good[..good.len() - 3]);
    let err = lock::parse(&cut_nl).unwrap_err();
    assert!(err.message.contains("a truncated or edited lock"), "{err}");
    assert_eq!(err.line, good.lines().count());

    // An edited reference in the middle.
    let line = good.lines().find(|l| l.starts_with("tanh_bf16 ")).unwrap();
    let edited = good.replace(line, &line.replace("actlut-codegen", "actlut-codegem"));
    let err = lock::parse(&edited).unwrap_err();
    assert!(err.message.starts_with("tanh_bf16: reference"), "{err}");
    assert_eq!(err.line, good.lines().position(|l| l == line).unwrap() + 1);

    // A lost line.
    let lost = good.replace(&format!("{line}\n"), "");
    let err = lock::parse(&lost).unwrap_err();
    let want = format!(
        "the lock is incomplete: 1 of {} tables missing (first: tanh_bf16)",
        actlut_codegen::builtin_tables().count()
    );
    assert!(err.message.contains(&want), "{err}");
    assert!(lock::parse("")
        .unwrap_err()
        .message
        .contains("the lock has no entries"));
    // CRLF line ends parse as the same lines.
    assert_eq!(
        lock::parse(&good.replace('\n', "\r\n")).unwrap(),
        lock::parse(&good).unwrap()
    );
}
