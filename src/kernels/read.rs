//! The 16-bit tables the generated entry points read (`gelu::map_bf16`,
//! `gelu::bf16`, `Function::map_bf16`, …): the full `[u16; 65536]` table,
//! or with the `compact` feature its compact form ([`CompactRef`], whose
//! implementation is in `src/compact.rs`). The entry points' text is the same
//! in both builds; the type of the `static` ([`ReadTable`]) picks the lookup.

#[cfg(feature = "compact")]
use actlut_core::compact::CompactRef;

use crate::TableRef;

/// The type of the 16-bit tables the function modules and `Function` read
/// (`crate::tables::read`): the full table.
#[cfg(not(feature = "compact"))]
pub(crate) type ReadTable = [u16; 65_536];

/// The type of the 16-bit tables the function modules and `Function` read
/// (`crate::tables::read`): with `compact`, the compact form.
#[cfg(feature = "compact")]
pub(crate) type ReadTable = CompactRef<'static>;

/// A 16-bit table in either representation, as the generated entry points use
/// it.
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
        super::apply_u16(self, xs);
    }
    #[inline]
    #[track_caller]
    fn map(&self, xs: &[u16], ys: &mut [u16]) {
        super::map_u16(self, xs, ys);
    }
    fn table_ref(&'static self) -> TableRef {
        TableRef::U16(self)
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
        TableRef::U16(self)
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
