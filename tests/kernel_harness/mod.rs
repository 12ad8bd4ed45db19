//! The one test harness of the table kernels, shared by tests/kernels.rs,
//! tests/u16_kernels.rs, tests/compact_kernels.rs and tests/fp4_kernels.rs: every kernel available here for a table shape runs on
//! every length and every alignment offset, out of place and in place, and
//! must equal the scalar lookup (`LookupTable::entry`) element for element,
//! without touching anything around the slice.
//!
//! Under Miri (CI's Miri step, which looks for undefined behaviour: reads or
//! writes outside the slices, misaligned accesses) the ranges shrink so that
//! every kernel still runs its blocks and every kind of tail: the lengths of
//! [`lengths`] (every length up to 20, and each multiple of 8 up to 64 with its
//! neighbours, so every block width of 8 to 64 elements meets a tail of one
//! less, none and one more), byte offsets 0..8. The values themselves are
//! checked natively on every length 0..=300.

#![allow(dead_code)] // each test file uses part of it

use std::fmt::Debug;

use actlut::kernels::{Kernel, LookupTable, TableShape};

/// The longest length tried.
pub const MAX_LEN: usize = if cfg!(miri) { 70 } else { 300 };

/// The lengths tried: every length 0..=MAX_LEN natively; under Miri every
/// length 0..=20, then `8k - 1`, `8k` and `8k + 1` for `k` in 3..=8, and 66 and
/// MAX_LEN (the interpreter is about 1,000 times slower).
pub fn lengths() -> Vec<usize> {
    if cfg!(miri) {
        let mut v: Vec<usize> = (0..=20).collect();
        for k in 3..=8 {
            v.extend([8 * k - 1, 8 * k, 8 * k + 1]);
        }
        v.extend([66, MAX_LEN]);
        v
    } else {
        (0..=MAX_LEN).collect()
    }
}
/// Source offsets 0..OFFSET_BYTES (in bytes; whole elements) are tried.
pub const OFFSET_BYTES: usize = if cfg!(miri) { 8 } else { 64 };

#[path = "../support/mod.rs"]
mod support;
#[allow(unused_imports)] // each test file uses part of it
pub use support::{random_bytes, Rng};

/// The kernels that can run tables of `shape` here; printed ("byte kernels
/// available here: [...]"), so that CI logs, and CI's checks on them, show
/// which kernels a run exercised.
pub fn available(shape: TableShape) -> Vec<Kernel> {
    let k: Vec<_> = Kernel::ALL
        .into_iter()
        .filter(|k| k.is_available_for(shape))
        .collect();
    let label = match shape {
        TableShape::U8 => "byte",
        TableShape::U16 => "16-bit",
        TableShape::U8ToU32 => "byte-to-32-bit",
        TableShape::U8ToU16 => "byte-to-16-bit",
        TableShape::Compact16 | TableShape::CompactWords16 => "compact",
        TableShape::Fp4 => "FP4",
        _ => "other",
    };
    println!("{label} kernels available here: {k:?}");
    k
}

/// The reference: the scalar lookup, element by element.
pub fn reference<T: LookupTable>(table: &T, src: &[T::Index]) -> Vec<T::Entry> {
    src.iter().map(|&s| table.entry(s)).collect()
}

/// Every available kernel's `map` equals the reference on every length and
/// source offset, with the destination at its own offset, and leaves the
/// destination's neighbours (`fill`) alone.
pub fn check_map<T: LookupTable>(tables: &[&T], buf: &[T::Index], fill: T::Entry)
where
    T::Entry: PartialEq + Debug,
{
    let offsets = OFFSET_BYTES / size_of::<T::Index>();
    let dst_offsets = OFFSET_BYTES / size_of::<T::Entry>();
    assert!(buf.len() >= MAX_LEN + offsets);
    for kernel in available(T::SHAPE) {
        for table in tables {
            for offset in 0..offsets {
                for len in lengths() {
                    let src = &buf[offset..offset + len];
                    let want = reference(*table, src);
                    let mut dst_buf = vec![fill; len + dst_offsets];
                    let d = (offset * 7) % dst_offsets;
                    kernel.map(*table, src, &mut dst_buf[d..d + len]).unwrap();
                    assert_eq!(
                        &dst_buf[d..d + len],
                        &want[..],
                        "{kernel:?} map len {len} offset {offset}"
                    );
                    assert!(
                        dst_buf[..d]
                            .iter()
                            .chain(&dst_buf[d + len..])
                            .all(|&v| v == fill),
                        "{kernel:?} map len {len} offset {offset} wrote outside the slice"
                    );
                }
            }
        }
    }
}

/// Every available kernel's `apply` equals the reference on every length and
/// offset, and leaves the elements around the slice alone.
pub fn check_apply<E, T>(tables: &[&T], buf: &[E])
where
    E: Copy + PartialEq + Debug,
    T: LookupTable<Index = E, Entry = E>,
{
    let offsets = OFFSET_BYTES / size_of::<E>();
    assert!(buf.len() >= MAX_LEN + offsets);
    for kernel in available(T::SHAPE) {
        for table in tables {
            for offset in 0..offsets {
                for len in lengths() {
                    let want = reference(*table, &buf[offset..offset + len]);
                    let mut inplace = buf.to_vec();
                    kernel
                        .apply(*table, &mut inplace[offset..offset + len])
                        .unwrap();
                    assert_eq!(
                        &inplace[offset..offset + len],
                        &want[..],
                        "{kernel:?} apply len {len} offset {offset}"
                    );
                    assert_eq!(&inplace[..offset], &buf[..offset]);
                    assert_eq!(&inplace[offset + len..], &buf[offset + len..]);
                }
            }
        }
    }
}

/// Every available kernel maps `inputs` (chosen by the caller to put every
/// index value in every lane position) exactly as the reference, out of place
/// and, where `T` allows it, in place (`apply`).
pub fn check_inputs<T: LookupTable>(tables: &[&T], inputs: &[T::Index])
where
    T::Entry: PartialEq + Debug + Default,
{
    for kernel in available(T::SHAPE) {
        for table in tables {
            let want = reference(*table, inputs);
            let mut dst = vec![T::Entry::default(); inputs.len()];
            kernel.map(*table, inputs, &mut dst).unwrap();
            assert!(dst == want, "{kernel:?} map");
        }
    }
}

/// [`check_inputs`] in place.
pub fn check_inputs_in_place<E, T>(tables: &[&T], inputs: &[E])
where
    E: Copy + PartialEq + Debug,
    T: LookupTable<Index = E, Entry = E>,
{
    for kernel in available(T::SHAPE) {
        for table in tables {
            let want = reference(*table, inputs);
            let mut xs = inputs.to_vec();
            kernel.apply(*table, &mut xs).unwrap();
            assert!(xs == want, "{kernel:?} apply");
        }
    }
}
