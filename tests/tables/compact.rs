//! The `compact` feature: every 16-bit table in its compact stored form gives
//! the full table's entry at every input, through every entry point, and every
//! stored form is the one its compact lock pins (`tables/actlut-compact.lock`
//! for the bytes layout; `tables/actlut-compact-words.lock` for the words
//! layout, which `compact-words` embeds).
//!
//! Run with `cargo test -p actlut --features compact --test tables compact::` (and
//! `--features compact-words`). Without the feature only the lock tests run
//! (they need no embedded table).

use actlut_codegen::compact::Layout;
use actlut_codegen::{compact_lock, Format};

use crate::support;
use support::{compact_lock_entries_of, compact_lock_text_of};

#[test]
fn each_compact_lock_has_one_line_per_16bit_table_and_is_what_the_generator_renders() {
    for layout in Layout::ALL {
        let entries = compact_lock_entries_of(layout);
        let pairs: Vec<_> = actlut_codegen::table_pairs()
            .filter(|&(_, f)| compact_lock::is_compacted(f))
            .collect();
        assert_eq!(entries.len(), pairs.len());
        for (e, &(function, format)) in entries.iter().zip(&pairs) {
            assert_eq!((e.function, e.format), (function, format), "{}", e.name);
            assert!(
                compact_lock::stored_len(e).is_some(),
                "{}: no stored=",
                e.name
            );
            assert_eq!(compact_lock::layout_of(e), Some(layout), "{}", e.name);
        }
        assert_eq!(
            compact_lock_text_of(layout),
            compact_lock::render(&entries, layout)
        );
    }
}

#[test]
fn every_compact_stored_form_hashes_to_its_compact_lock_line_in_both_layouts() {
    for layout in Layout::ALL {
        let entries = compact_lock_entries_of(layout);
        for e in &entries {
            let stored = compact_lock::stored_form(e.function, e.format, layout)
                .unwrap_or_else(|err| panic!("{}: {err}", e.name));
            assert_eq!(
                actlut_codegen::hex(&actlut_codegen::sha256(&stored)),
                actlut_codegen::hex(&e.sha256),
                "{}: the stored form differs from tables/{}",
                e.name,
                compact_lock::file_name(layout)
            );
            assert_eq!(
                compact_lock::stored_len(e),
                Some(stored.len()),
                "{}",
                e.name
            );
            let view = actlut_codegen::compact::CompactRef::from_bytes(&stored).unwrap();
            assert_eq!(view.layout(), layout, "{}", e.name);
        }
    }
}

/// The two layouts of a table are two stored forms of one table: different
/// bytes, different hashes (so a declaration names its layout by its hash).
#[test]
fn no_stored_form_hash_is_in_both_compact_locks() {
    let (bytes, words) = (
        compact_lock_entries_of(Layout::Bytes),
        compact_lock_entries_of(Layout::Words),
    );
    for b in &bytes {
        assert!(
            words.iter().all(|w| w.sha256 != b.sha256),
            "{}: a bytes-layout hash in the words lock",
            b.name
        );
    }
}

#[cfg(feature = "compact")]
mod embedded {
    use actlut::compact::CompactRef;
    use actlut::half::slice::HalfBitsSliceExt;
    use actlut::{BuiltinTables, Format, Function, TableRef};
    use actlut_codegen::compact::{HEADER_BYTES, MAGIC};

    /// Every enabled 16-bit table: its activation, format and compact view.
    fn compact_tables() -> Vec<(Function, Format, &'static CompactRef<'static>)> {
        let mut out = Vec::new();
        for format in [Format::F16, Format::Bf16] {
            for act in Function::ALL {
                match act.table(format) {
                    Ok(TableRef::Compact(view)) => out.push((act, format, view)),
                    Ok(other) => panic!(
                        "{}_{}: {other:?} under `compact`",
                        act.name(),
                        format.name()
                    ),
                    Err(_) => {}
                }
            }
        }
        out
    }

    /// The stored form a view was made from: its header, directory and pool.
    fn stored_bytes(view: &CompactRef<'_>) -> Vec<u8> {
        let mut b = MAGIC.to_vec();
        b.extend_from_slice(&[
            view.page_shift() as u8,
            view.offset_scale() as u8,
            view.layout().code(),
            0,
        ]);
        b.extend_from_slice(&(view.pool().len() as u32).to_le_bytes());
        b.extend_from_slice(view.dir_bytes());
        b.extend_from_slice(view.pool());
        assert_eq!(
            b.len(),
            HEADER_BYTES + view.dir_bytes().len() + view.pool().len()
        );
        b
    }

    #[test]
    fn every_16bit_table_is_compact_and_its_embedded_bytes_are_the_locked_stored_form() {
        let entries = super::support::compact_lock_entries_of(super::support::EMBEDDED_LAYOUT);
        let tables = compact_tables();
        assert!(!tables.is_empty(), "no 16-bit table enabled");
        for (act, format, view) in tables {
            let name = format!("{}_{}", act.name(), format.name());
            assert_eq!(view.layout(), super::support::EMBEDDED_LAYOUT, "{name}");
            let e = entries.iter().find(|e| e.name == name).expect(&name);
            let bytes = stored_bytes(view);
            assert_eq!(actlut_codegen::sha256(&bytes), e.sha256, "{name}");
            // The directory starts right after the 16-byte header of a stored
            // form aligned to a cache line.
            let start = view.dir_bytes().as_ptr() as usize - HEADER_BYTES;
            assert_eq!(start % actlut::compact::STORED_ALIGN, 0, "{name}");
        }
    }

    #[cfg(all(feature = "gelu", feature = "bf16"))]
    #[test]
    fn stored_hash_constants_are_the_compact_lock_lines() {
        let entries = super::support::compact_lock_entries_of(super::support::EMBEDDED_LAYOUT);
        let e = entries.iter().find(|e| e.name == "gelu_bf16").unwrap();
        assert_eq!(actlut::tables::GELU_BF16_STORED_SHA256, e.sha256);
        assert_eq!(
            actlut::tables::GELU_BF16_STORED_SHA256,
            actlut_codegen::sha256(&stored_bytes(&actlut::tables::compact::GELU_BF16))
        );
        // The identity stays the hash of the logical entries.
        let logical: Vec<u8> = (0..=u16::MAX)
            .flat_map(|x| actlut::tables::compact::GELU_BF16.get(x).to_le_bytes())
            .collect();
        assert_eq!(
            actlut_codegen::sha256(&logical),
            actlut::tables::GELU_BF16_SHA256
        );
    }

    /// `f` over raw bits through the typed slice entry point of `act`.
    fn apply(act: Function, format: Format, xs: &mut [u16]) {
        match format {
            Format::F16 => act.apply_f16(xs.reinterpret_cast_mut()),
            Format::Bf16 => act.apply_bf16(xs.reinterpret_cast_mut()),
            _ => unreachable!(),
        }
        .unwrap();
    }

    fn map(act: Function, format: Format, xs: &[u16], ys: &mut [u16]) {
        match format {
            Format::F16 => act.map_f16(xs.reinterpret_cast(), ys.reinterpret_cast_mut()),
            Format::Bf16 => act.map_bf16(xs.reinterpret_cast(), ys.reinterpret_cast_mut()),
            _ => unreachable!(),
        }
        .unwrap();
    }

    fn one(act: Function, format: Format, x: u16) -> u16 {
        match format {
            Format::F16 => act.f16(actlut::half::f16::from_bits(x)).unwrap().to_bits(),
            Format::Bf16 => act
                .bf16(actlut::half::bf16::from_bits(x))
                .unwrap()
                .to_bits(),
            _ => unreachable!(),
        }
    }

    /// Every bit pattern once, in a scrambled order (an odd multiplier is a
    /// permutation of the 16-bit patterns): NaN payloads and infinities are
    /// spread through every window.
    fn all_inputs() -> Vec<u16> {
        (0..=u16::MAX)
            .map(|i| i.wrapping_mul(40_503) ^ 0x5A5A)
            .collect()
    }

    #[test]
    fn every_compact_table_equals_the_full_table_on_every_input_through_every_entry_point() {
        let xs = all_inputs();
        for (act, format, view) in compact_tables() {
            let name = format!("{}_{}", act.name(), format.name());
            let full = actlut_codegen::table(act, format);
            let want: Vec<u16> = xs.iter().map(|&x| full[usize::from(x)]).collect();
            let table = act.table(format).unwrap();
            for &x in &xs {
                let w = full[usize::from(x)];
                assert_eq!(view.get(x), w, "{name} at {x:#06x}: get");
                assert_eq!(table.get(x), Some(w), "{name} at {x:#06x}: TableRef::get");
                assert_eq!(one(act, format, x), w, "{name} at {x:#06x}: one value");
            }
            assert!(
                table.iter().eq(full.iter().copied()),
                "{name}: TableRef::iter"
            );
            let le = actlut_codegen::table_bytes_le(format, &full);
            assert!(table.le_bytes().eq(le.iter().copied()), "{name}: le_bytes");
            let mut out = vec![0; table.len_bytes()];
            assert_eq!(table.write_le_bytes(&mut out), le.len());
            assert_eq!(out, le, "{name}: write_le_bytes");

            let mut a = xs.clone();
            apply(act, format, &mut a);
            assert_eq!(a, want, "{name}: apply over every input");
            let mut m = vec![0; xs.len()];
            map(act, format, &xs, &mut m);
            assert_eq!(m, want, "{name}: map over every input");
            let mut a = xs.clone();
            actlut::compact::apply_compact_u16(view, &mut a);
            assert_eq!(
                a, want,
                "{name}: compact::apply_compact_u16 over every input"
            );
            let mut m = vec![0; xs.len()];
            actlut::compact::map_compact_u16(view, &xs, &mut m);
            assert_eq!(m, want, "{name}: compact::map_compact_u16 over every input");
        }
    }

    #[test]
    fn slice_entry_points_are_exact_on_every_length_to_300_at_several_offsets() {
        const GUARD: u16 = 0xA5A5;
        let all = all_inputs();
        for (act, format, view) in compact_tables() {
            let name = format!("{}_{}", act.name(), format.name());
            let full = actlut_codegen::table(act, format);
            for len in 0..=300usize {
                for off in [0usize, 1, 2, 3, 7, 13] {
                    // A window of the scrambled inputs that moves with the length.
                    let start = (len * 211 + off * 977) % (all.len() - len);
                    let xs = &all[start..start + len];
                    let want: Vec<u16> = xs.iter().map(|&x| full[usize::from(x)]).collect();
                    let mut buf = vec![GUARD; off + len + 3];
                    let check = |buf: &[u16], what: &str| {
                        assert_eq!(
                            &buf[off..off + len],
                            &want[..],
                            "{name} {what} len {len} off {off}"
                        );
                        assert!(
                            buf[..off]
                                .iter()
                                .chain(&buf[off + len..])
                                .all(|&g| g == GUARD),
                            "{name} {what} len {len} off {off}: wrote outside the slice"
                        );
                    };
                    buf[off..off + len].copy_from_slice(xs);
                    apply(act, format, &mut buf[off..off + len]);
                    check(&buf, "apply");
                    buf.fill(GUARD);
                    map(act, format, xs, &mut buf[off..off + len]);
                    check(&buf, "map");
                    buf.fill(GUARD);
                    buf[off..off + len].copy_from_slice(xs);
                    actlut::compact::apply_compact_u16(view, &mut buf[off..off + len]);
                    check(&buf, "compact::apply_compact_u16");
                    buf.fill(GUARD);
                    actlut::compact::map_compact_u16(view, xs, &mut buf[off..off + len]);
                    check(&buf, "compact::map_compact_u16");
                }
            }
        }
    }

    #[cfg(all(feature = "gelu", feature = "bf16"))]
    #[test]
    #[should_panic(
        expected = "source slice length (3) does not match destination slice length (2)"
    )]
    fn compact_map_with_different_lengths_panics_with_both() {
        actlut::compact::map_compact_u16(&actlut::tables::compact::GELU_BF16, &[0; 3], &mut [0; 2]);
    }
}

/// The feature compacts the 16-bit tables; tables of 8 bits and fewer (256
/// bytes at most) stay as they are.
#[test]
fn only_the_16bit_formats_are_compacted() {
    for format in Format::ALL {
        assert_eq!(
            compact_lock::is_compacted(format),
            format.entries() == 65_536
        );
    }
}
