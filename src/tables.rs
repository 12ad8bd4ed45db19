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
//! # With the `compact` feature
//!
//! Every 16-bit table (`f16`, `bf16`) is then a
//! [`CompactRef<'static>`](crate::compact::CompactRef) over its embedded compact
//! stored form instead of a `[u16; 65536]` ([`WordTable`] is the type in either
//! build): read entry `i` with `get(i)`. The stored form was validated at
//! compile time (an invalid one is a compile error) and checked on every input
//! against the full table by the build script. `<NAME>_SHA256` stays the hash of
//! the 65,536 logical entries (the table's identity, `tables/actlut.lock`);
//! `<NAME>_STORED_SHA256` is the hash of the stored form
//! (`tables/actlut-compact.lock`). Tables of 8 bits and fewer are unchanged.
//!
//! ```
//! # #[cfg(all(feature = "compact", feature = "gelu", feature = "f16"))] {
//! let table: &'static actlut::compact::CompactRef<'static> = &actlut::tables::GELU_F16;
//! assert_eq!(table.get(0x3C00), 0x3ABB); // gelu(1.0) = 0.8413…
//! let stored: [u8; 32] = actlut::tables::GELU_F16_STORED_SHA256;
//! # let _ = stored;
//! # }
//! ```

/// The type of a 16-bit table: `[u16; 65536]`, or with the `compact` feature a
/// [`CompactRef<'static>`](crate::compact::CompactRef).
#[cfg(not(feature = "compact"))]
pub type WordTable = [u16; 65_536];

/// The type of a 16-bit table: `[u16; 65536]`, or with the `compact` feature a
/// [`CompactRef<'static>`](crate::compact::CompactRef).
#[cfg(feature = "compact")]
pub type WordTable = crate::compact::CompactRef<'static>;

include!(concat!(env!("OUT_DIR"), "/tables.rs"));
