//! The tables themselves: one `static` array per enabled (function, format), and
//! the SHA-256 of its little-endian bytes.
//!
//! A table named `<FUNCTION>_<FORMAT>` exists when both cargo features, the
//! function's and the format's, are enabled (the default feature `all` enables
//! every one). Entry `i` is the output for the input bit pattern `i`. A binary
//! carries only the tables it references: the linker drops the others.
//!
//! ```
//! # #[cfg(all(feature = "gelu", feature = "f16", not(feature = "compact")))] {
//! let table: &'static [u16; 65536] = &actlut::tables::GELU_F16;
//! assert_eq!(table[0x3C00], 0x3ABB); // gelu(1.0) = 0.8413…
//! let hash: [u8; 32] = actlut::tables::GELU_F16_SHA256;
//! # let _ = hash;
//! # }
//! ```
//!
//! A table whose function's or format's feature is off is named in the
//! source under a `#[cfg]`, so that rustc says which feature to enable:
//!
//! ```text
//! error[E0425]: cannot find value `GELU_F16` in module `actlut::tables`
//!    = note: the item is gated behind the `gelu` feature
//! ```
//!
//! # With the `compact` feature
//!
//! The feature adds `tables::compact`: every 16-bit table (`f16`, `bf16`) again,
//! as a [`CompactRef<'static>`](crate::compact::CompactRef) over its embedded
//! compact stored form (2–23 KiB instead of 128 KiB; read entry `i` with
//! `get(i)`). `tables::GELU_F16` and the others stay `[u16; 65536]`: the feature
//! only adds. It switches which form the function modules (`gelu::bf16`,
//! `gelu::apply_bf16`, …) and [`Function`](crate::Function)'s slice and
//! value methods read, and the linker keeps only what the code references: a
//! firmware that calls `gelu::bf16` carries the compact form alone.
//!
//! The stored form was validated at compile time (an invalid one is a compile
//! error) and checked on every input against the full table by the build
//! script. `<NAME>_SHA256` stays the hash of the 65,536 logical entries (the
//! table's identity, `tables/actlut.lock`); `<NAME>_STORED_SHA256` is the hash
//! of the stored form (`tables/actlut-compact.lock`). Tables of 8 bits and
//! fewer have no compact form.
//!
//! ```
//! # #[cfg(all(feature = "compact", feature = "gelu", feature = "f16"))] {
//! let table: &'static actlut::compact::CompactRef<'static> = &actlut::tables::compact::GELU_F16;
//! assert_eq!(table.get(0x3C00), 0x3ABB); // gelu(1.0) = 0.8413…
//! let full: &'static [u16; 65536] = &actlut::tables::GELU_F16;
//! assert_eq!(full[0x3C00], 0x3ABB);
//! let stored: [u8; 32] = actlut::tables::GELU_F16_STORED_SHA256;
//! # let _ = stored;
//! # }
//! ```
//!
//! ## The full form for one hot table
//!
//! With `compact`, a program that wants one table at full speed (one load per
//! element) and every other compact names that table's full form itself, and
//! calls the function modules for the rest: only the forms referenced are
//! linked.
//!
//! ```
//! # #[cfg(all(feature = "compact", feature = "gelu", feature = "silu", feature = "bf16"))] {
//! let mut xs = [0x3F80u16, 0x0000, 0x7F80];
//! // gelu: the full table, with the 16-bit kernels.
//! actlut::kernels::apply_u16(&actlut::tables::GELU_BF16, &mut xs);
//! assert_eq!(xs, [0x3F57, 0x0000, 0x7F80]);
//! // silu: through its module, compact.
//! actlut::silu::apply_bf16_bits(&mut xs);
//! # }
//! ```

include!(concat!(env!("OUT_DIR"), "/tables.rs"));

/// Every table `static` of this build as the lookups read it with the
/// `self-check` feature: a [`Checked`](crate::manifest::Checked) that
/// verifies the table in memory before its first use (`checked::GELU_BF16`,
/// and `checked::compact::GELU_BF16` for the compact stored forms). Call
/// `verify()` on those a program reads to check them at start.
#[cfg(feature = "self-check")]
#[cfg_attr(docsrs, doc(cfg(feature = "self-check")))]
pub mod checked {
    include!(concat!(env!("OUT_DIR"), "/checked.rs"));

    /// The 16-bit tables in the form the function modules read, checked.
    #[cfg(any(feature = "f16", feature = "bf16"))]
    pub(crate) mod read {
        #[cfg(feature = "compact")]
        #[allow(unused_imports)]
        pub(crate) use super::compact::*;
        #[cfg(not(feature = "compact"))]
        #[allow(unused_imports)]
        pub(crate) use super::*;
    }
}

/// A table `static` as the lookups read it (a `&'static` table): the static
/// itself, or with `self-check` its [`checked`] form, verified before its
/// first use.
#[cfg(not(feature = "self-check"))]
#[allow(unused_macros)]
macro_rules! table {
    ($name:ident) => {
        $crate::tables::$name
    };
}
#[cfg(feature = "self-check")]
#[allow(unused_macros)]
macro_rules! table {
    ($name:ident) => {
        $crate::tables::checked::$name.get()
    };
}

/// A 16-bit table as the function modules read it, as a place: the full
/// table, or with `compact` its compact form; with `self-check`, verified
/// before its first use.
#[cfg(not(feature = "self-check"))]
#[allow(unused_macros)]
macro_rules! read_table {
    ($name:ident) => {
        $crate::tables::read::$name
    };
}
#[cfg(feature = "self-check")]
#[allow(unused_macros)]
macro_rules! read_table {
    ($name:ident) => {
        (*$crate::tables::checked::read::$name.get())
    };
}

/// A compact table (`compact`) as a place; with `self-check`, verified
/// before its first use.
#[cfg(not(feature = "self-check"))]
#[allow(unused_macros)]
macro_rules! compact_table {
    ($name:ident) => {
        $crate::tables::compact::$name
    };
}
#[cfg(feature = "self-check")]
#[allow(unused_macros)]
macro_rules! compact_table {
    ($name:ident) => {
        (*$crate::tables::checked::compact::$name.get())
    };
}

#[allow(unused_imports)]
pub(crate) use {compact_table, read_table, table};

/// The 16-bit tables in the form the function modules and `Function` read:
/// the full tables, or with the `compact` feature the compact forms.
#[cfg(any(feature = "f16", feature = "bf16"))]
pub(crate) mod read {
    #[cfg(feature = "compact")]
    #[allow(unused_imports)]
    pub(crate) use super::compact::*;
    #[cfg(not(feature = "compact"))]
    #[allow(unused_imports)]
    pub(crate) use super::*;
}
