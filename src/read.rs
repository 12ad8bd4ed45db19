//! The 16-bit tables the generated entry points read (`gelu::map_bf16`,
//! `gelu::bf16`, `BuiltinTables::map_bf16`, …): the full `[u16; 65536]` table,
//! or with the `compact` feature its compact form ([`CompactRef`]). The entry
//! points' text is the same in both builds: they pass `&crate::tables::read::NAME`
//! (a `&&[u16; 65536]`, which derefs to [`ReadTable`], or a `&CompactRef`) to the
//! functions below, whose implementation the feature selects.

#[cfg(feature = "compact")]
use actlut_core::compact::CompactRef;

use crate::table_ref::TableRef;

/// The type of the 16-bit tables the function modules and `BuiltinTables`
/// read (`crate::tables::read`): the full table.
#[cfg(not(feature = "compact"))]
pub(crate) type ReadTable = [u16; 65_536];

/// The type of the 16-bit tables the function modules and `BuiltinTables`
/// read (`crate::tables::read`): with `compact`, the compact form.
#[cfg(feature = "compact")]
pub(crate) type ReadTable = CompactRef<'static>;

/// The entry for input bits `x`: one load (with `compact`, the compact decode:
/// for one element a look-up of an expanded copy would cost more).
#[inline]
#[cfg_attr(not(any(feature = "f16", feature = "bf16")), allow(dead_code))]
pub(crate) fn at(table: &ReadTable, x: u16) -> u16 {
    #[cfg(not(feature = "compact"))]
    return table[usize::from(x)];
    #[cfg(feature = "compact")]
    table.get(x)
}

/// `xs[i] = t[xs[i]]`, with the best kernel (with `compact`, of the expanded
/// copy where [`crate::compact::expand_table`] made one).
#[inline]
#[cfg_attr(not(any(feature = "f16", feature = "bf16")), allow(dead_code))]
pub(crate) fn apply(table: &ReadTable, xs: &mut [u16]) {
    #[cfg(not(feature = "compact"))]
    crate::kernels::apply_u16(table, xs);
    #[cfg(feature = "compact")]
    crate::compact::apply_read(table, xs);
}

/// `ys[i] = t[xs[i]]`, panicking with both lengths if they differ.
#[inline]
#[track_caller]
#[cfg_attr(not(any(feature = "f16", feature = "bf16")), allow(dead_code))]
pub(crate) fn map(table: &ReadTable, xs: &[u16], ys: &mut [u16]) {
    #[cfg(not(feature = "compact"))]
    crate::kernels::map_u16(table, xs, ys);
    #[cfg(feature = "compact")]
    crate::compact::map_read(table, xs, ys);
}

/// The table as a [`TableRef`].
#[cfg_attr(not(any(feature = "f16", feature = "bf16")), allow(dead_code))]
pub(crate) fn table_ref(table: &'static ReadTable) -> TableRef {
    #[cfg(not(feature = "compact"))]
    return TableRef::U16(table);
    #[cfg(feature = "compact")]
    TableRef::Compact(table)
}

/// The lookups of the function tables, in the form the `compact` feature selects (the
/// functions above): what `typed16!`'s `read: [read_table, selected]` calls.
pub(crate) mod selected {
    #[allow(unused_imports)]
    pub(crate) use super::{apply, at, map};
}

/// The lookups of a table that is always full (a derivative table, `derivatives`: it has no
/// compact form): what `typed16!`'s `read: [table, full]` calls.
#[cfg(feature = "derivatives")]
#[allow(dead_code)]
pub(crate) mod full {
    /// The entry for input bits `x`: one load.
    #[inline]
    pub(crate) fn at(table: &[u16; 65_536], x: u16) -> u16 {
        table[usize::from(x)]
    }

    /// `xs[i] = t[xs[i]]`, with the best kernel.
    #[inline]
    pub(crate) fn apply(table: &[u16; 65_536], xs: &mut [u16]) {
        crate::kernels::apply_u16(table, xs);
    }

    /// `ys[i] = t[xs[i]]`, panicking with both lengths if they differ.
    #[inline]
    #[track_caller]
    pub(crate) fn map(table: &[u16; 65_536], xs: &[u16], ys: &mut [u16]) {
        crate::kernels::map_u16(table, xs, ys);
    }
}
