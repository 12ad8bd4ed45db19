//! Build-time table generation for [actlut]: what only build scripts run.
//!
//! The build script of the runtime crate calls this crate to generate every
//! enabled table ([`table`], [`table_bytes_le`]), to check it against the
//! committed lock ([`lock`], [`compact_lock`]) and to pack the compact stored
//! forms ([`compact::compact`]). Users' build scripts call [`builder`] to
//! generate fused quantized tables as statics (the `phf_codegen` pattern).
//!
//! The reference itself (formats, functions, correct rounding, the quantized
//! pipeline, the compact reader) is the `no_std` crate [`actlut_core`], which
//! the runtime depends on directly; it is re-exported here whole, so that a
//! build script needs one dependency. Nothing here runs at run time, and the
//! binary audit is a crate of its own (`actlut-audit`): a downstream build
//! script compiles only generation.
//!
//! ```
//! use actlut_codegen::{table, table_bytes_le, Format, Function};
//! let t = table(Function::Gelu, Format::Bf16);
//! assert_eq!(t[0x3F80], 0x3F57); // gelu(1.0) = 0.8413 in bf16
//! assert_eq!(table_bytes_le(Format::Bf16, &t).len(), 131_072);
//! ```
//!
//! [actlut]: https://docs.rs/actlut
#![deny(missing_docs)]

pub use actlut_core::*;

pub mod builder;
pub mod compact;
pub mod compact_lock;
pub mod emit;
pub mod lock;
pub mod runtime;

/// The table of `function` over `format` (entry `i` is the output for input
/// bit pattern `i`).
pub fn table(function: Function, format: Format) -> Vec<u16> {
    let mut t = vec![0u16; format.entries()];
    fill_table(function, format, &mut t);
    t
}

/// A table's bytes in little-endian order: 2 bytes per entry for 16-bit formats,
/// 1 for 8-bit ones. This is the layout of `<name>.bin` files and the bytes
/// whose SHA-256 identifies a table.
pub fn table_bytes_le(format: Format, table: &[u16]) -> Vec<u8> {
    match format.entry_bytes() {
        1 => table.iter().map(|&v| v as u8).collect(),
        _ => table.iter().flat_map(|v| v.to_le_bytes()).collect(),
    }
}

/// The name of the table of `function` over `format`: `gelu_f16`, `gelu_tanh_bf16`, ….
pub fn table_name(function: Function, format: Format) -> String {
    format!("{}_{}", function.name(), format.name())
}

/// SHA-256 of `bytes`.
pub fn sha256(bytes: &[u8]) -> [u8; 32] {
    use sha2::Digest;
    sha2::Sha256::digest(bytes).into()
}

/// Lower-case hexadecimal of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    use core::fmt::Write;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}
