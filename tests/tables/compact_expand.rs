//! Expanding compact tables: `CompactRef::expand_into` and `expand` give the
//! full table on every input for every embedded compact table; a stored form
//! that does not decode is refused with its `StoredFormError` before anything
//! is written; after `compact::expand_table` / `expand_all` the function
//! modules' slice entry points give the same bits, read from the expanded copy.
//!
//! A test file of its own: the expansion is process-wide, and the other
//! compact tests must keep reading the compact forms.
//!
//! `cargo test -p actlut --features compact --test tables compact_expand::` (without
//! `compact` and `std`, only the tests on packed tables run).

use actlut_codegen::compact::{compact, CompactRef, Layout, StoredFormError, HEADER_BYTES};
use actlut_codegen::{table, Format, Function};

/// The stored form of gelu in `format` and `layout`, packed here, with its
/// full table.
fn packed(format: Format, layout: Layout) -> (Vec<u16>, Vec<u8>) {
    let full = table(Function::Gelu, format);
    let stored = compact("gelu", &full, layout).unwrap().to_bytes();
    (full, stored)
}

const SENTINEL: u16 = 0xBEEF;

/// `expand_bytes_into` on `bytes` into a table filled with a sentinel: the
/// error, and whether the table was left untouched.
fn expand_damaged(bytes: &[u8]) -> (Result<(), StoredFormError>, bool) {
    let mut out = Box::new([SENTINEL; 65_536]);
    let r = CompactRef::expand_bytes_into(bytes, &mut out).map(|_| ());
    (r, out.iter().all(|&v| v == SENTINEL))
}

#[test]
fn expand_into_and_expand_equal_the_full_table_on_every_input_for_packed_tables_of_both_layouts() {
    for format in [Format::F16, Format::Bf16] {
        for layout in Layout::ALL {
            let (full, stored) = packed(format, layout);
            let mut out = Box::new([SENTINEL; 65_536]);
            let view = CompactRef::expand_bytes_into(&stored, &mut out).unwrap();
            assert_eq!(
                &out[..],
                &full[..],
                "{format:?} {layout:?}: expand_bytes_into"
            );
            let mut again = Box::new([0u16; 65_536]);
            view.expand_into(&mut again);
            assert_eq!(again, out, "{format:?} {layout:?}: expand_into");
            assert_eq!(view.expand(), out, "{format:?} {layout:?}: expand");
        }
    }
}

#[test]
fn a_damaged_header_is_refused_with_its_error_and_nothing_is_written() {
    let (_, stored) = packed(Format::Bf16, Layout::Bytes);
    let cases: [(usize, u8, StoredFormError); 5] = [
        (0, b'X', StoredFormError::BadMagic),
        (8, 3, StoredFormError::BadPageShift(3)),
        (9, 3, StoredFormError::BadOffsetScale(3)),
        (10, 2, StoredFormError::BadLayout(2)),
        (11, 1, StoredFormError::Reserved),
    ];
    for (at, value, want) in cases {
        let mut b = stored.clone();
        b[at] = value;
        assert_eq!(expand_damaged(&b), (Err(want), true), "byte {at} = {value}");
    }
    assert_eq!(
        expand_damaged(&stored[..HEADER_BYTES - 1]),
        (Err(StoredFormError::TooShort), true)
    );
}

#[test]
fn a_damaged_pool_is_refused_with_its_error_and_nothing_is_written() {
    for layout in Layout::ALL {
        let (_, stored) = packed(Format::F16, layout);
        // The pool cut short by one byte, or one byte too long.
        let short = &stored[..stored.len() - 1];
        let (r, untouched) = expand_damaged(short);
        assert!(
            matches!(r, Err(StoredFormError::Length { .. })),
            "{layout:?}: {r:?}"
        );
        assert!(untouched);
        let mut long = stored.clone();
        long.push(0);
        let (r, untouched) = expand_damaged(&long);
        assert!(
            matches!(r, Err(StoredFormError::Length { .. })),
            "{layout:?}: {r:?}"
        );
        assert!(untouched);
        // The header's pool length and the bytes agree, but the pool is too
        // short for the pages that read it: the last directory entry points
        // past its end. The last page is the one refused, after every page
        // before it was checked: still nothing written.
        let view = CompactRef::from_bytes(&stored).unwrap();
        let pages = view.dir_bytes().len() / 4;
        let mut b = stored.clone();
        let last = HEADER_BYTES + 4 * (pages - 1);
        let mask: u32 = if layout == Layout::Bytes {
            0x7FFF
        } else {
            0xFFFF
        };
        let d = u32::from_le_bytes(b[last..last + 4].try_into().unwrap()) | mask;
        b[last..last + 4].copy_from_slice(&d.to_le_bytes());
        assert_eq!(
            expand_damaged(&b),
            (
                Err(StoredFormError::PageOutOfBounds { page: pages - 1 }),
                true
            ),
            "{layout:?}"
        );
    }
}

// `expand_all` and `expand_table` need `std`.
#[cfg(all(feature = "compact", feature = "std"))]
mod embedded {
    use actlut::half::slice::HalfBitsSliceExt;
    use actlut::{BuiltinTables, Format, Function, TableRef};

    fn compact_tables() -> Vec<(
        Function,
        Format,
        &'static actlut::compact::CompactRef<'static>,
    )> {
        let mut out = Vec::new();
        for format in [Format::F16, Format::Bf16] {
            for act in Function::ALL {
                if let Ok(TableRef::Compact(view)) = act.table(format) {
                    out.push((act, format, view));
                }
            }
        }
        out
    }

    /// One test, in order: before the expansion the entry points read the
    /// compact forms, `expand_into` and `expand` give every full table, then
    /// `expand_all` expands each distinct table once and the entry points give
    /// the same bits on every input, read from the expanded copies.
    #[test]
    fn every_embedded_table_expands_to_its_full_table_and_the_entry_points_read_the_copy() {
        let tables = compact_tables();
        assert!(!tables.is_empty(), "no 16-bit table enabled");
        let xs: Vec<u16> = (0..=u16::MAX).map(|i| i.wrapping_mul(40_503)).collect();
        let mut fulls = Vec::new();
        for &(act, format, view) in &tables {
            let name = format!("{}_{}", act.name(), format.name());
            let full = actlut_codegen::table(act, format);
            let mut out = Box::new([0u16; 65_536]);
            view.expand_into(&mut out);
            assert_eq!(&out[..], &full[..], "{name}: expand_into");
            assert_eq!(&view.expand()[..], &full[..], "{name}: expand");
            fulls.push(full);
        }
        let distinct = {
            let mut dirs: Vec<usize> = tables
                .iter()
                .map(|(_, _, v)| v.dir_bytes().as_ptr() as usize)
                .collect();
            dirs.sort_unstable();
            dirs.dedup();
            dirs.len()
        };
        assert_eq!(actlut::compact::expand_all(), distinct);
        // A second call expands nothing new.
        assert_eq!(actlut::compact::expand_all(), distinct);
        for ((act, format, view), full) in tables.iter().zip(&fulls) {
            let name = format!("{}_{}", act.name(), format.name());
            let copy = actlut::compact::expand_table(view);
            assert_eq!(&copy[..], &full[..], "{name}: the registered copy");
            let want: Vec<u16> = xs.iter().map(|&x| full[usize::from(x)]).collect();
            let mut ys = vec![0u16; xs.len()];
            let mut inplace = xs.clone();
            match format {
                Format::F16 => {
                    act.map_f16(xs.reinterpret_cast(), ys.reinterpret_cast_mut())
                        .unwrap();
                    act.apply_f16(inplace.reinterpret_cast_mut()).unwrap();
                }
                _ => {
                    act.map_bf16(xs.reinterpret_cast(), ys.reinterpret_cast_mut())
                        .unwrap();
                    act.apply_bf16(inplace.reinterpret_cast_mut()).unwrap();
                }
            }
            assert_eq!(ys, want, "{name}: map after expand_all");
            assert_eq!(inplace, want, "{name}: apply after expand_all");
        }
    }

    /// `expand_table` returns the one registered copy on every call (the
    /// unit test in src/compact.rs checks that the entry points find it).
    #[cfg(all(feature = "gelu", feature = "bf16"))]
    #[test]
    fn expand_table_returns_one_copy_per_table() {
        let a = actlut::compact::expand_table(&actlut::tables::compact::GELU_BF16);
        let b = actlut::compact::expand_table(&actlut::tables::compact::GELU_BF16);
        assert!(core::ptr::eq(a, b));
        assert_eq!(&a[..], &actlut::tables::GELU_BF16[..]);
    }
}
