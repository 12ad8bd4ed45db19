//! The one chunk-and-tail loop every kernel runs.
//!
//! A kernel is a [`Block`]: the lookup of [`Block::LANES`] consecutive elements,
//! written once per instruction set and table shape. [`run`] walks a slice in
//! blocks and finishes the last `len % LANES` elements with the scalar lookup
//! ([`LookupTable::entry`](super::LookupTable)), in place or out of place. The
//! per-architecture modules instantiate it inside `#[target_feature]` functions
//! (the [`kernel_fn!`] macro), so the block code is compiled for those features.
//!
//! A new table shape plugs in as a new `LookupTable` implementation and a
//! `Block` per instruction set; this loop does not change. The compact 16-bit
//! tables (a two-level lookup, `kernels/compact.rs`) came in that way.

use super::LookupTable;

/// The lookup of `LANES` consecutive elements with one instruction set.
pub(super) trait Block<T: LookupTable + ?Sized> {
    /// Elements per block.
    const LANES: usize;
    /// What the block needs from the table besides the table itself (the table
    /// held in vector registers, say), computed once per slice.
    type State;

    /// The state for `table`.
    ///
    /// # Safety
    ///
    /// The CPU has the target features the implementation uses.
    unsafe fn prepare(table: &T) -> Self::State;

    /// `dst[i] = table[src[i]]` for `i` in `0..LANES`.
    ///
    /// # Safety
    ///
    /// The CPU has the target features the implementation uses; `src` is valid
    /// for reads and `dst` for writes of `LANES` elements (no alignment
    /// required); and `src` and `dst` either do not overlap or are the same
    /// address (in place: the block reads all its indices before it writes).
    unsafe fn block(state: &Self::State, table: &T, src: *const T::Index, dst: *mut T::Entry);
}

/// `dst[i] = table[src[i]]` for `i` in `0..len`: whole blocks with `B`, the
/// rest with the scalar lookup. In place when `src` and `dst` are equal.
///
/// # Safety
///
/// The CPU has the target features `B` uses; `src` is valid for reads and
/// `dst` for writes of `len` elements; they either do not overlap or are equal.
#[inline(always)]
pub(super) unsafe fn run<T: LookupTable + ?Sized, B: Block<T>>(
    table: &T,
    src: *const T::Index,
    dst: *mut T::Entry,
    len: usize,
) {
    let blocks = len / B::LANES;
    let done = blocks * B::LANES;
    if blocks > 0 {
        // SAFETY: the caller guarantees B's target features.
        let state = unsafe { B::prepare(table) };
        for b in 0..blocks {
            let i = b * B::LANES;
            // SAFETY: `i + LANES <= done <= len`, so elements i..i + LANES are in
            // both ranges the caller vouches for; the overlap rule is the
            // caller's, and equal bases stay equal at the same offset.
            unsafe { B::block(&state, table, src.add(i), dst.add(i)) };
        }
    }
    for i in done..len {
        // SAFETY: `i < len`; element i is read before it is written, so the
        // in-place case reads the original index.
        unsafe { dst.add(i).write(table.entry(src.add(i).read())) };
    }
}

/// Defines `unsafe fn $name(table, src, dst, len)`: [`run`] with a block, inside
/// a function compiled with the block's target features (given as attributes).
macro_rules! kernel_fn {
    // A compact 16-bit table: a borrowed view, so the table type has a
    // lifetime; the block is generic over the form (kernels/compact.rs),
    // matched once per slice.
    ($(#[$attr:meta])* $name:ident: compact => $block:ident) => {
        $(#[$attr])*
        /// The chunk-and-tail driver with this module's block for compact
        /// tables, compiled for the table's form.
        ///
        /// # Safety
        ///
        /// The CPU has the target features this function enables; `src` is
        /// valid for reads and `dst` for writes of `len` elements; they either
        /// do not overlap or are equal (in place).
        pub(super) unsafe fn $name(
            table: &actlut_core::compact::CompactRef<'_>,
            src: *const u16,
            dst: *mut u16,
            len: usize,
        ) {
            use actlut_core::compact::CompactRef;
            use $crate::kernels::compact::{form, BYTES0, BYTES1, BYTES2};
            use $crate::kernels::driver::run;
            // SAFETY: this function's contract is the driver's; each block
            // runs on a table of its form.
            unsafe {
                match form(table) {
                    BYTES0 => run::<CompactRef<'_>, $block<BYTES0>>(table, src, dst, len),
                    BYTES1 => run::<CompactRef<'_>, $block<BYTES1>>(table, src, dst, len),
                    BYTES2 => run::<CompactRef<'_>, $block<BYTES2>>(table, src, dst, len),
                    _ => run::<CompactRef<'_>, $block<{ $crate::kernels::compact::WORDS }>>(
                        table, src, dst, len,
                    ),
                }
            }
        }
    };
    ($(#[$attr:meta])* $name:ident: $table:ty => $block:ty) => {
        $(#[$attr])*
        /// The chunk-and-tail driver with this module's block for this table.
        ///
        /// # Safety
        ///
        /// The CPU has the target features this function enables; `src` is
        /// valid for reads and `dst` for writes of `len` elements; they either
        /// do not overlap or are equal (in place).
        pub(super) unsafe fn $name(
            table: &$table,
            src: *const <$table as $crate::kernels::LookupTable>::Index,
            dst: *mut <$table as $crate::kernels::LookupTable>::Entry,
            len: usize,
        ) {
            // SAFETY: this function's contract is the driver's.
            unsafe { $crate::kernels::driver::run::<$table, $block>(table, src, dst, len) }
        }
    };
}
pub(super) use kernel_fn;
