//! Unit tests of declaration records, manifest records and op names, through
//! the crate's API.

use actlut_audit::declared::{
    Declaration, Declared, FoundBy, Representation, StoredOrder, DECLARATION_NAME_AT,
    DECLARATION_SHA_AT,
};
use actlut_audit::manifest::{Record, MARK};
use actlut_audit::ops::{is_op_text, recompute, split_name, Recomputed};
use actlut_audit::{Index, Reference};
use actlut_codegen::Format;

mod declared {
    use super::*;
    use actlut_codegen::{Format, Function};

    fn known() -> (Index, Declaration, Vec<u8>) {
        let r = Reference::generate(Function::Tanh, Format::Fp8E4M3);
        let bytes = r.bytes_le.clone();
        let d = Declaration::new(
            "tanh_fp8_e4m3",
            Representation::Full,
            1,
            StoredOrder::Little,
            256,
            r.sha256,
        );
        let mut file = d.to_bytes().to_vec();
        file.extend_from_slice(&bytes);
        (Index::new(vec![r]), d, file)
    }

    #[test]
    fn an_intact_declaration_passes_and_every_changed_byte_of_it_or_its_table_is_a_problem() {
        let (k, _, file) = known();
        let ok = k.judge_declaration(0, &file, None).expect("a record");
        assert_eq!(ok.problem(), None);
        for i in 0..file.len() {
            let mut f = file.clone();
            f[i] ^= 0x01;
            let j = k.judge_declaration(0, &f, None);
            assert!(
                j.as_ref().and_then(Declared::problem).is_some(),
                "byte {i} changed: {j:?}"
            );
        }
    }

    #[test]
    fn a_record_whose_marker_was_changed_is_found_while_two_other_fields_hold() {
        let (k, _, file) = known();
        let mut f = file.clone();
        f[..8].copy_from_slice(b"XXXXXXXX");
        let j = k
            .judge_declaration(0, &f, None)
            .expect("found by its fields");
        assert_eq!(j.found_by, FoundBy::Fields(4));
        assert!(j.problem().unwrap().contains("marker was changed"));
        // Marker, header and name changed: hash and table start remain.
        f[8..16].fill(0xEE);
        f[DECLARATION_NAME_AT] = b'x';
        assert_eq!(
            k.judge_declaration(0, &f, None).map(|j| j.found_by),
            Some(FoundBy::Fields(2))
        );
        // And the hash too: no longer recognisable.
        f[DECLARATION_SHA_AT + 3] ^= 1;
        assert_eq!(k.judge_declaration(0, &f, None), None);
    }
}

/// The attack on the new design, its first finding: gelu_bf16's version-1
/// declaration rewritten as version 2 (record byte 8 from 1 to 2, the 64
/// bytes at record + 128 zeroed, the intact table moved to record + 192)
/// was accepted, while the program, compiled for version 1, reads the
/// table at record + 128: every lookup 32 entries off. A declaration's
/// version is its name's, and its width and length its table's, so no
/// version byte moves a table from where the program reads it: every
/// version byte but 1, with the table where the record is or where that
/// version would put it, is a problem, for every kind of declared table.
mod layout {
    use super::*;
    use actlut_codegen::record::record_bytes_of;
    use actlut_codegen::Function;

    fn declared(name: &str, repr: Representation, width: u8, table: &[u8]) -> Vec<u8> {
        let d = Declaration::new(
            name,
            repr,
            width,
            StoredOrder::Little,
            table.len() as u32,
            actlut_codegen::sha256(table),
        );
        // The record, its table, and what follows the static (64 bytes, so
        // that the table moved by 64 still lies in the file).
        [&d.to_bytes()[..], table, &[0u8; 64]].concat()
    }

    #[test]
    fn no_version_byte_moves_a_declared_table_from_where_the_program_reads_it() {
        let index = crate::common::index();
        let full = |f: Function, fmt: Format| crate::common::table_le(f, fmt);
        let cases = [
            (
                "gelu_bf16",
                Representation::Full,
                2,
                full(Function::Gelu, Format::Bf16),
            ),
            (
                "tanh_fp8_e4m3",
                Representation::Full,
                1,
                full(Function::Tanh, Format::Fp8E4M3),
            ),
            (
                "gelu_fp6_e2m3",
                Representation::Full,
                1,
                full(Function::Gelu, Format::Fp6E2M3),
            ),
            (
                "gelu_fp4_e2m1",
                Representation::Full,
                1,
                full(Function::Gelu, Format::Fp4E2M1),
            ),
            (
                "gelu_bf16",
                Representation::Compact,
                1,
                crate::common::compact_form(Function::Gelu, Format::Bf16),
            ),
        ];
        for (name, repr, width, table) in cases {
            let file = declared(name, repr, width, &table);
            let intact = index.judge_declaration(0, &file, None).expect("a record");
            assert_eq!(intact.problem(), None, "{name}");
            for version in 0..=u8::MAX {
                for moved in [false, true] {
                    let at = record_bytes_of(version);
                    if version == 1 && moved {
                        continue;
                    }
                    let mut f = file.clone();
                    f[8] = version;
                    if moved && at != 128 {
                        f[128..at].fill(0);
                        f[at..at + table.len()].copy_from_slice(&table);
                    }
                    let j = index.judge_declaration(0, &f, None);
                    let problem = j.as_ref().and_then(Declared::problem);
                    assert!(
                        version == 1 || problem.is_some(),
                        "{name} {repr:?}: version {version}, moved {moved}: {j:?}"
                    );
                    if version == 2 && moved {
                        let p = problem.unwrap();
                        assert!(
                            p.contains("version 2 for a name that takes version 1"),
                            "{p}"
                        );
                    }
                }
            }
        }
    }

    /// A declared width or length that is not the named table's is a
    /// problem that says so, whatever the hash says.
    #[test]
    fn a_declared_length_that_is_not_the_named_tables_is_a_problem() {
        let index = crate::common::index();
        let table = crate::common::table_le(Function::Tanh, Format::Fp8E4M3);
        let mut f = declared("tanh_fp8_e4m3", Representation::Full, 1, &table);
        // 64 bytes: an FP6 table's length, hashed as declared.
        f[12..16].copy_from_slice(&64u32.to_le_bytes());
        let sha = actlut_codegen::sha256(&table[..64]);
        f[16..48].copy_from_slice(&sha);
        let p = index
            .judge_declaration(0, &f, None)
            .and_then(|j| j.problem())
            .expect("a problem");
        assert!(
            p.contains(
                "it declares 64 bytes of 1-byte entries, and tanh_fp8_e4m3's table has 256 bytes"
            ),
            "{p}"
        );
    }
}

mod manifest {
    use super::*;
    use actlut_codegen::record::name_field;

    fn record(marker: &[u8; 8], name: &str, hash: [u8; 32]) -> std::vec::Vec<u8> {
        let mut b = marker.to_vec();
        b.extend_from_slice(&name_field(name).unwrap());
        b.extend_from_slice(&hash);
        b
    }

    #[test]
    fn a_name_field_without_marker_and_with_a_filled_hash_is_no_record() {
        for fill in [0u8, 0xFF] {
            let b = record(b"gelubf16", "gelu_bf16", [fill; 32]);
            assert_eq!(Record::parse(&b, 0, true), None);
        }
        // With its marker it is one (and its zero hash a problem), and
        // without the marker any other hash is one too.
        let b = record(&MARK, "gelu_bf16", [0; 32]);
        assert!(Record::parse(&b, 0, true).is_some_and(|r| r.marked));
        let mut hash = [0u8; 32];
        hash[31] = 1;
        let b = record(b"gelubf16", "gelu_bf16", hash);
        assert!(Record::parse(&b, 0, true).is_some_and(|r| !r.marked));
    }

    /// The eighth attack's finding: a program that holds the marker as a
    /// string constant, other constants after it (rustc's own panic path,
    /// 8-byte literals), was a record with a malformed name field: exit 1
    /// for an honest file. Printable bytes are no name field unless one
    /// byte from one.
    #[test]
    fn the_marker_before_other_constants_is_no_record() {
        for after in [
            &b"/rustc/59807616e1fa2540724bfbac1"[..],
            b"hash_lenCowBytesocommentTagbanwa",
            b"gelu_bf16 is the table of GELU..",
            &[0; 32],
            &[b' '; 32],
        ] {
            let mut b = MARK.to_vec();
            b.extend_from_slice(after);
            b.extend_from_slice(&[0x5A; 32]);
            assert_eq!(
                Record::parse(&b, 0, false),
                None,
                "{}",
                after.escape_ascii()
            );
        }
    }

    /// Every change of one byte of a name field with its marker intact
    /// leaves a record: another well-formed name (then held to the lock by
    /// that name) or a malformed one (a problem), but for a first byte set
    /// to NUL (no name byte left before the padding: such bytes are no
    /// record).
    #[test]
    fn every_one_byte_change_of_a_name_field_leaves_a_record() {
        // A name of 32 bytes has no padding.
        let full = "abcdefghijklmnopqrstuvwxyz_01234";
        for name in ["gelu_bf16", "exp_f16", full] {
            let intact = record(&MARK, name, [7; 32]);
            for at in 8..8 + 32 {
                for value in 0..=255u8 {
                    let mut b = intact.clone();
                    if b[at] == value {
                        continue;
                    }
                    b[at] = value;
                    let r = Record::parse(&b, 0, false);
                    if at == 8 && value == 0 {
                        assert_eq!(r, None, "{name}");
                        continue;
                    }
                    let r = r.unwrap_or_else(|| panic!("{name}: byte {at} set to {value:#04x}"));
                    let well_formed = actlut_codegen::record::parse_name(&b[8..40]).is_some();
                    assert_eq!(
                        r.malformed, !well_formed,
                        "{name}: byte {at} set to {value:#04x}"
                    );
                }
            }
        }
    }
}

mod ops {
    use super::*;

    #[test]
    fn op_names_split_into_an_op_and_a_format() {
        assert_eq!(
            split_name("leaky_relu_derivative(alpha=0.01)_fp8_e4m3fnuz"),
            Some(("leaky_relu_derivative(alpha=0.01)", Format::Fp8E4M3Fnuz))
        );
        assert_eq!(split_name("gelu_fp8_e4m3"), Some(("gelu", Format::Fp8E4M3)));
        assert!(is_op_text("gelu_derivative"));
        assert!(is_op_text("elu(alpha=0.5)"));
        assert!(is_op_text("selu(alpha=1.5,lambda=1.05)"));
        assert!(is_op_text("elu(alpha=-1.5e-3)"));
        for bad in [
            "nope",
            "gelu(",
            "gelu()",
            "elu(alpha)",
            "elu(alpha=x)",
            "elu(Alpha=1)",
            "elu(alpha=1.2.3)",
        ] {
            assert!(!is_op_text(bad), "{bad}");
        }
        assert_eq!(recompute("nothing_at_all"), Recomputed::NotAnOp);
        assert!(is_op_text("hardtanh(min=-1/3,max=1)"));
        assert!(matches!(
            recompute("elu(alpha=0.5)_bf16"),
            Recomputed::Table {
                format: Format::Bf16,
                ..
            }
        ));
        assert!(matches!(
            recompute("gelu_derivative_bf16"),
            Recomputed::Table {
                format: Format::Bf16,
                ..
            }
        ));
        // log' is NaN below 0, and FP4 has no NaN: no such table.
        assert!(matches!(
            recompute("log_derivative_fp4_e2m1"),
            Recomputed::Unavailable(_)
        ));
    }
}

/// The second attack's finding: a record whose header, hash and name were
/// zeroed, its marker and table intact, was not recognised (the table
/// counted as a part only when the name or the hash named it). Over every
/// subset of a record's five parts (marker, header, hash, name, table), in
/// a whole scan: with none changed the declaration passes; with one to three
/// changed it is reported (docs/audit.md: "any change to any byte of its
/// record is reported"); with four or five it is no record (the documented
/// exception: its table is then undeclared content).
mod parts {
    use super::*;
    use actlut_codegen::Function;

    /// The built-in table of `op` over `format` as a reference.
    fn reference_of(op: &actlut_codegen::Op, format: Format) -> Reference {
        let t = actlut_codegen::builtin_table(op, format);
        Reference::new(
            actlut_codegen::op_table_name(op, format),
            format,
            actlut_codegen::table_bytes_le(format, &t),
        )
    }

    /// Changes every subset of the five parts of `name`'s record (its table
    /// `table`, `width`-byte entries) in noise, scans with `index`, and
    /// returns for each subset whether the declaration was found, and
    /// whether as a problem. A version-2 name's field is 128 bytes, its table
    /// at 192.
    fn subsets(index: &Index, name: &str, width: u8, table: &[u8]) -> Vec<(u32, Option<bool>)> {
        let d = Declaration::new(
            name,
            Representation::Full,
            width,
            StoredOrder::Little,
            table.len() as u32,
            actlut_codegen::sha256(table),
        );
        let record = d.encode()[..d.record_bytes()].to_vec();
        let name_bytes = if d.version == 2 { 128 } else { 32 };
        let at = 4096;
        let mut file = crate::common::noise(at, 7);
        file.extend_from_slice(&record);
        file.extend_from_slice(table);
        file.extend(crate::common::noise(4096, 8));
        let table_at = at + record.len();
        let parts = [
            (at, at + 8),
            (at + 8, at + 16),
            (at + DECLARATION_SHA_AT, at + DECLARATION_SHA_AT + 32),
            (
                at + DECLARATION_NAME_AT,
                at + DECLARATION_NAME_AT + name_bytes,
            ),
            // One entry of the table, in its middle.
            (table_at + table.len() / 2, table_at + table.len() / 2 + 1),
        ];
        (0u32..32)
            .map(|subset| {
                let mut f = file.clone();
                for (k, &(lo, hi)) in parts.iter().enumerate() {
                    if subset >> k & 1 == 1 {
                        for b in &mut f[lo..hi] {
                            *b = if k == 4 { *b ^ 0x01 } else { 0 };
                        }
                    }
                }
                let report = index.scan(&f);
                let here = report.declared.iter().find(|d| d.offset == at as u64);
                (subset, here.map(|d| d.problem().is_some()))
            })
            .collect()
    }

    /// The rule: none changed passes, one to three changed are reported, four
    /// or five leave no record.
    fn assert_rule(name: &str, seen: &[(u32, Option<bool>)]) {
        for &(subset, here) in seen {
            let what = format!("{name}, parts changed {subset:05b}: {here:?}");
            match subset.count_ones() {
                0 => assert_eq!(here, Some(false), "{what}"),
                1..=3 => assert_eq!(here, Some(true), "{what}"),
                _ => assert_eq!(here, None, "{what}"),
            }
        }
    }

    #[test]
    fn a_record_is_reported_unless_four_of_its_five_parts_are_changed() {
        let index = crate::common::index();
        let cases = [
            ("gelu_bf16", 2, Format::Bf16),
            ("gelu_fp8_e4m3", 1, Format::Fp8E4M3),
            ("gelu_fp4_e2m1", 1, Format::Fp4E2M1),
        ];
        for (name, width, format) in cases {
            let table = crate::common::table_le(Function::Gelu, format);
            assert_rule(name, &subsets(index, name, width, &table));
        }
    }

    /// The fifth attack's finding: tables of few distinct entries
    /// (`sigmoid_fp8_e8m0fnu` 3, `logsigmoid_fp8_e5m3fnu` 1,
    /// `laplace_fp4_e2m1` 2) were kept from the table part, so three changed
    /// parts hid their records. Only a table whose bytes are all 0 or 1 is.
    #[test]
    fn a_record_of_a_table_of_few_entries_is_reported_unless_four_of_its_parts_are_changed() {
        let refs: Vec<Reference> = [
            (Function::Sigmoid, Format::Fp8E8M0Fnu),
            (Function::Logsigmoid, Format::Fp8E5M3Fnu),
            (Function::Laplace, Format::Fp4E2M1),
        ]
        .into_iter()
        .map(|(f, format)| reference_of(&actlut_codegen::Op::from(f), format))
        .collect();
        let index = Index::new(refs.clone());
        for r in &refs {
            assert!(
                !actlut_audit::declared::bool_bytes(&r.bytes_le),
                "{:?}",
                r.names
            );
            assert_rule(&r.names[0], &subsets(&index, &r.names[0], 1, &r.bytes_le));
        }
    }

    /// The third attack's finding: a derivative table's record (version 1,
    /// `gelu_derivative_bf16`, or version 2, whose name is longer than 32
    /// letters) was recognised by its marker alone when the audit's index
    /// did not hold the derivative tables, and a version-2 record's name and
    /// table were looked for where a version-1 record has them. The same
    /// rule as a function table's.
    #[test]
    fn a_derivative_record_is_reported_unless_four_of_its_five_parts_are_changed() {
        let tables: Vec<(actlut_codegen::Op, Format)> = [
            (Function::Gelu, Format::Bf16),
            (Function::GeluTanh, Format::Fp8E4M3B11Fnuz),
            (Function::LeakyRelu, Format::Fp8E4M3B11Fnuz),
        ]
        .into_iter()
        .map(|(f, format)| (actlut_codegen::Op::from(f).with_derivative(true), format))
        .collect();
        let refs: Vec<Reference> = tables
            .iter()
            .map(|(op, format)| {
                let t = actlut_codegen::builtin_table(op, *format);
                Reference::new(
                    actlut_codegen::op_table_name(op, *format),
                    *format,
                    actlut_codegen::table_bytes_le(*format, &t),
                )
            })
            .collect();
        // And a table whose bytes are all 0 or 1, as a bool array's.
        let bool_table = actlut_codegen::builtin_tables()
            .filter(|(op, f)| op.is_derivative() && f.entry_bytes() == 1)
            .map(|(op, f)| reference_of(&op, f))
            .find(|r| actlut_audit::declared::bool_bytes(&r.bytes_le))
            .expect("a derivative table of 0 and 1 bytes");
        let mut refs = refs;
        refs.push(bool_table);
        let index = Index::new(refs.clone());
        for r in &refs[..3] {
            let name = &r.names[0];
            let width = r.format.entry_bytes() as u8;
            assert_rule(name, &subsets(&index, name, width, &r.bytes_le));
        }
        assert!(refs[1].names[0].len() > 32, "a version-2 record");
        // A table whose bytes are all 0 or 1 is no part by its bytes alone,
        // as a bool array is not: any two changed parts are reported, and of
        // three all but those that change its hash and name and leave its
        // table with its marker or its header (docs/audit.md).
        let r = &refs[3];
        for (subset, here) in subsets(
            &index,
            &r.names[0],
            r.format.entry_bytes() as u8,
            &r.bytes_le,
        ) {
            let what = format!("{}, parts changed {subset:05b}: {here:?}", r.names[0]);
            match subset.count_ones() {
                0 => assert_eq!(here, Some(false), "{what}"),
                1 | 2 => assert_eq!(here, Some(true), "{what}"),
                3 if subset == 0b01101 || subset == 0b01110 => assert_eq!(here, None, "{what}"),
                3 => assert_eq!(here, Some(true), "{what}"),
                _ => assert_eq!(here, None, "{what}"),
            }
        }
    }

    /// The third attack's finding: a declared op the lock does not list (a
    /// `table!` table: `softcap(cap=30)_bf16`) was recognised by its marker
    /// alone. Its name reads as an op and a format, its header is the one
    /// that name takes, and its hash agrees with the table after it: any
    /// two changed parts are reported (the audit knows no hash or table of
    /// it to recognise them alone, so three can hide it: docs/audit.md).
    #[test]
    fn a_declared_op_record_is_reported_while_three_of_its_five_parts_hold() {
        let index = crate::common::index();
        for (text, format) in [
            ("softcap(cap=30)", Format::Bf16),
            ("leaky_relu(alpha=0.2)", Format::Fp8E4M3),
        ] {
            let op: actlut_codegen::Op = text.parse().unwrap();
            let t = actlut_codegen::op_table(&op, format).unwrap();
            let table = actlut_codegen::table_bytes_le(format, &t);
            let name = actlut_codegen::op_table_name(&op, format);
            let width = format.entry_bytes() as u8;
            for (subset, here) in subsets(index, &name, width, &table) {
                let what = format!("{name}, parts changed {subset:05b}: {here:?}");
                match subset.count_ones() {
                    0 => assert_eq!(here, Some(false), "{what}"),
                    1 | 2 => assert_eq!(here, Some(true), "{what}"),
                    _ => {}
                }
            }
        }
    }
}

/// The fourth attack round's false reports on an honest rlib built with
/// `derivatives`: a bool array holding a known 8-bit header, with a
/// derivative table of 0 and 1 codes 128 bytes on; and a crate's metadata
/// holding a known hash next to another table's 32-letter name (which
/// needs no NUL). Neither is a record.
mod not_records {
    use super::*;
    use actlut_codegen::{Function, Op};

    fn reference(op: &Op, format: Format) -> Reference {
        let t = actlut_codegen::builtin_table(op, format);
        Reference::new(
            actlut_codegen::op_table_name(op, format),
            format,
            actlut_codegen::table_bytes_le(format, &t),
        )
    }

    #[test]
    fn a_bool_array_with_a_header_and_a_table_of_0_and_1_bytes_is_no_record() {
        // A derivative table whose bytes are all 0 or 1.
        let r = actlut_codegen::builtin_tables()
            .filter(|(op, f)| op.is_derivative() && f.entry_bytes() == 1)
            .map(|(op, f)| reference(&op, f))
            .find(|r| actlut_audit::declared::bool_bytes(&r.bytes_le))
            .expect("a derivative table of 0 and 1 bytes");
        let index = Index::new(vec![r.clone()]);
        // 0/1 bytes, a known 8-bit header at 8, the table at 128.
        let mut file: Vec<u8> = (0..4096u32).map(|i| (i * 7 % 3 == 0) as u8).collect();
        let at = 1024;
        let header = Declaration::new(
            &r.names[0],
            Representation::Full,
            1,
            StoredOrder::Little,
            256,
            [0; 32],
        )
        .encode();
        file[at + 8..at + 16].copy_from_slice(&header[8..16]);
        let n = r.bytes_le.len();
        file[at + 128..at + 128 + n].copy_from_slice(&r.bytes_le);
        let report = index.scan(&file);
        assert!(report.declared.is_empty(), "{:?}", report.declared);
    }

    #[test]
    fn a_known_hash_next_to_another_tables_full_length_name_is_no_record() {
        let a = reference(
            &Op::from(Function::Sqrtsoftplus).with_derivative(true),
            Format::Fp8E4M3,
        );
        let b = reference(&Op::from(Function::Mish), Format::Fp6E2M3);
        assert_eq!(a.names[0].len(), 32, "a name that fills its field");
        let index = Index::new(vec![a.clone(), b.clone()]);
        // Metadata: arrays of hashes and names end to end; b's hash, then
        // a's name where a record has its name, then more names.
        let mut file = crate::common::noise(1024, 3);
        let at = file.len() - DECLARATION_SHA_AT;
        file.extend_from_slice(&b.sha256);
        file.extend_from_slice(a.names[0].as_bytes());
        file.extend_from_slice(b"sqrtsoftplus_derivative_fp8_e5m2softplus_derivative_fp8_e4m3fnuz");
        file.extend(crate::common::noise(1024, 4));
        let report = index.scan(&file);
        assert!(
            report.declared.iter().all(|d| d.offset != at as u64),
            "{:?}",
            report.declared
        );
        // The hash of the named table there is a record's two parts.
        file[at + DECLARATION_SHA_AT..at + DECLARATION_SHA_AT + 32].copy_from_slice(&a.sha256);
        let report = index.scan(&file);
        assert!(report.declared.iter().any(|d| d.offset == at as u64));
    }
}

/// The tenth attack round: 70,000 version-2 declarations whose name field is
/// 128 bytes of `0xFF`, each shown escaped (512 characters) with each
/// finding, took 266 MB against 193 MB for printable names. A shown name is
/// at most `SHOWN_NAME_CHARS` characters; every printable name of 128 bytes
/// is shown whole.
#[test]
fn a_shown_name_field_is_bounded_and_a_printable_one_whole() {
    use actlut_audit::manifest::{shown_name, SHOWN_NAME_CHARS};
    let escaped = shown_name(&[0xFF; 128]);
    assert_eq!(escaped.len(), SHOWN_NAME_CHARS);
    assert!(escaped.starts_with("\\xff\\xff") && escaped.ends_with("..."));
    let printable = "a".repeat(128);
    assert_eq!(shown_name(printable.as_bytes()), printable);
    assert_eq!(shown_name(b"gelu_f16\0\0\0"), "gelu_f16");
}
