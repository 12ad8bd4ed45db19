//! Compact 16-bit tables: the runtime side of the `compact` cargo feature.
//!
//! With `compact`, every 16-bit table (`f16`, `bf16`) is embedded in its
//! compact stored form (docs/compact.md) instead of as 65,536 `u16`s: a
//! directory of one `u32` per page and a pool of residuals, 3–23 KiB instead
//! of 128 KiB, with the same entry for every input. The build script compacts
//! each table with `actlut_codegen::compact`, which checks the stored form
//! against the full table on all 65,536 inputs, checks the stored form's
//! SHA-256 against `tables/actlut-compact.lock`, and embeds it with
//! `include_bytes!`; a `static` [`CompactRef`] validates it at compile time.
//!
//! The feature only adds: `tables::compact` holds the compact form of every
//! 16-bit table beside the full ones ([`tables::GELU_BF16`](crate::tables)
//! stays a `[u16; 65536]`), and `Activation::compact_table_f16` and
//! `compact_table_bf16` return them. What it switches is the form the lookups
//! read: `gelu::bf16`, `bf16_bits`, `apply_bf16`, `map_bf16`, the
//! `Activation` methods and [`Activation::table`](crate::Activation::table)
//! (which returns [`TableRef::Compact`]) read the compact form, with the same
//! bits; [`TableRef::get`](crate::TableRef::get),
//! [`iter`](crate::TableRef::iter) and [`le_bytes`](crate::TableRef::le_bytes)
//! give the 65,536 logical entries (the table's SHA-256 is unchanged). A
//! binary links only the forms it references; docs/compact.md says how to
//! keep one hot table in full and the others compact.
//!
//! The slice entry points run [`apply_u16`] and [`map_u16`]: the compact
//! kernels of [`crate::kernels`] ([`TableShape::Compact16`](crate::kernels::TableShape)),
//! with [`Kernel::best`](crate::kernels::Kernel::best), which is the portable
//! loop: the decode without bounds checks and a branch on the page's width,
//! 0.29–0.36× the full table's best kernel on a Zen 5 (docs/compact.md,
//! "Speed", has the gathers, the lane loads and what limits them). Every kernel
//! is bit-identical to [`CompactRef::get`].
//!
//! ```
//! # #[cfg(all(feature = "compact", feature = "gelu", feature = "bf16"))] {
//! use actlut::compact::CompactRef;
//!
//! let table: &'static CompactRef<'static> = &actlut::tables::compact::GELU_BF16;
//! assert_eq!(table.get(0x3F80), 0x3F57); // gelu(1.0) = 0.8413… in bf16
//! assert!(table.stored_len() < 16 * 1024);
//! let mut xs = [0x3F80, 0x0000, 0x7F80];
//! actlut::compact::apply_u16(table, &mut xs);
//! assert_eq!(xs, [0x3F57, 0x0000, 0x7F80]);
//! # }
//! ```
//!
//! The generated `static`s validate their stored form in a `const` context, so
//! a stored form that is not valid is a compile error, not a wrong table:
//!
//! ```compile_fail
//! use actlut::compact::CompactRef;
//!
//! static BAD: CompactRef<'static> = match CompactRef::from_bytes(b"ACTLUTC1 not a stored form") {
//!     Ok(table) => table,
//!     Err(_) => panic!("not a valid compact stored form"),
//! };
//! ```

pub use actlut_codegen::compact::{CompactRef, Layout, StoredFormError};

use crate::TableRef;

/// Bytes an embedded stored form is aligned to: a cache line, so that the
/// directory and the pool start on line boundaries.
pub const STORED_ALIGN: usize = 64;

/// An embedded stored form, aligned to [`STORED_ALIGN`] bytes (the generated
/// `tables.rs` wraps its `include_bytes!` in it).
#[repr(C, align(64))]
// Unused in a build without a compact 16-bit table.
#[cfg_attr(
    not(all(feature = "compact", any(feature = "f16", feature = "bf16"))),
    allow(dead_code)
)]
pub(crate) struct Aligned<T: ?Sized>(pub(crate) T);

/// `xs[i] = table.get(xs[i])` for every element: the slice kernel of a compact
/// table, [`Kernel::best`](crate::kernels::Kernel::best)`(TableShape::Compact16)`,
/// which is the portable loop of [`crate::kernels`] (the decode without bounds
/// checks, relying on the validation of [`CompactRef::from_bytes`]): on the
/// CPU measured (Zen 5, natively and in wasm) it is within 6% of the gather
/// kernels and faster than the lane-load ones, and it needs no CPU detection;
/// the others run by name ([`Kernel::map`](crate::kernels::Kernel::map)). Every kernel gives the bits
/// of [`CompactRef::get`] (tests/compact_kernels.rs).
#[inline]
pub fn apply_u16(table: &CompactRef<'_>, xs: &mut [u16]) {
    crate::kernels::apply_best(table, xs);
}

/// `ys[i] = table.get(xs[i])` for every element, with the kernel of
/// [`apply_u16`].
///
/// # Panics
///
/// If `xs.len() != ys.len()`; the message names both lengths.
#[inline]
#[track_caller]
pub fn map_u16(table: &CompactRef<'_>, xs: &[u16], ys: &mut [u16]) {
    crate::kernels::map_best(table, xs, ys);
}

/// The type of the 16-bit tables the function modules and `Activation` read
/// (`crate::tables::read`): the full table, or with `compact` the compact form.
#[cfg(not(feature = "compact"))]
pub(crate) type ReadTable = [u16; 65_536];

/// The type of the 16-bit tables the function modules and `Activation` read
/// (`crate::tables::read`): the full table, or with `compact` the compact form.
#[cfg(feature = "compact")]
pub(crate) type ReadTable = CompactRef<'static>;

/// A 16-bit table in either representation, as the generated entry points use
/// it: their text is the same whether the `compact` feature is on or off, and
/// the type of the `static` picks the lookup.
// Unused in a build without a 16-bit table.
#[cfg_attr(not(any(feature = "f16", feature = "bf16")), allow(dead_code))]
pub(crate) trait Lookup16 {
    /// The entry for input bits `x`.
    fn at(&self, x: u16) -> u16;
    /// `xs[i] = t[xs[i]]`.
    fn apply(&self, xs: &mut [u16]);
    /// `ys[i] = t[xs[i]]`, panicking with both lengths if they differ.
    fn map(&self, xs: &[u16], ys: &mut [u16]);
    /// The table as a [`TableRef`].
    fn table_ref(&'static self) -> TableRef;
}

impl Lookup16 for [u16; 65_536] {
    #[inline]
    fn at(&self, x: u16) -> u16 {
        self[usize::from(x)]
    }
    #[inline]
    fn apply(&self, xs: &mut [u16]) {
        crate::kernels::apply_u16(self, xs);
    }
    #[inline]
    #[track_caller]
    fn map(&self, xs: &[u16], ys: &mut [u16]) {
        crate::kernels::map_u16(self, xs, ys);
    }
    fn table_ref(&'static self) -> TableRef {
        TableRef::Word(self)
    }
}

/// A full table as `tables::<NAME>` holds it: a reference into its declared
/// static (`crate::manifest::Declared`).
impl Lookup16 for &'static [u16; 65_536] {
    #[inline]
    fn at(&self, x: u16) -> u16 {
        <[u16; 65_536] as Lookup16>::at(self, x)
    }
    #[inline]
    fn apply(&self, xs: &mut [u16]) {
        <[u16; 65_536] as Lookup16>::apply(self, xs);
    }
    #[inline]
    #[track_caller]
    fn map(&self, xs: &[u16], ys: &mut [u16]) {
        <[u16; 65_536] as Lookup16>::map(self, xs, ys);
    }
    fn table_ref(&'static self) -> TableRef {
        TableRef::Word(self)
    }
}

impl Lookup16 for CompactRef<'static> {
    #[inline]
    fn at(&self, x: u16) -> u16 {
        self.get(x)
    }
    #[inline]
    fn apply(&self, xs: &mut [u16]) {
        apply_u16(self, xs);
    }
    #[inline]
    #[track_caller]
    fn map(&self, xs: &[u16], ys: &mut [u16]) {
        map_u16(self, xs, ys);
    }
    fn table_ref(&'static self) -> TableRef {
        TableRef::Compact(self)
    }
}

/// The generated entry points' calls, as free functions (generic over the
/// representation).
#[inline]
#[cfg_attr(not(any(feature = "f16", feature = "bf16")), allow(dead_code))]
pub(crate) fn at<T: Lookup16 + ?Sized>(table: &T, x: u16) -> u16 {
    table.at(x)
}

/// See [`Lookup16::apply`].
#[inline]
#[cfg_attr(not(any(feature = "f16", feature = "bf16")), allow(dead_code))]
pub(crate) fn apply<T: Lookup16 + ?Sized>(table: &T, xs: &mut [u16]) {
    table.apply(xs);
}

/// See [`Lookup16::map`].
#[inline]
#[track_caller]
#[cfg_attr(not(any(feature = "f16", feature = "bf16")), allow(dead_code))]
pub(crate) fn map<T: Lookup16 + ?Sized>(table: &T, xs: &[u16], ys: &mut [u16]) {
    table.map(xs, ys);
}

/// See [`Lookup16::table_ref`].
#[cfg_attr(not(any(feature = "f16", feature = "bf16")), allow(dead_code))]
pub(crate) fn table_ref<T: Lookup16 + ?Sized>(table: &'static T) -> TableRef {
    table.table_ref()
}
