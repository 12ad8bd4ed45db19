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

/// Every built-in table, as the op it tabulates and its format: first every function table
/// ([`table_pairs`]: a function at its default constants), then every derivative table
/// ([`derivative_table_pairs`]: the same functions' derivatives, feature `derivatives` of
/// actlut). The order of the lock, the build and the audit's references.
pub fn builtin_tables() -> impl Iterator<Item = (Op, Format)> {
    table_pairs()
        .map(|(function, format)| (Op::from(function), format))
        .chain(
            derivative_table_pairs()
                .map(|(function, format)| (Op::from(function).with_derivative(true), format)),
        )
}

/// The built-in table of `op` over `format`, one of [`builtin_tables`].
///
/// # Panics
///
/// If `op` is not a built-in table's (a constant away from its default, or no such table).
pub fn builtin_table(op: &Op, format: Format) -> Vec<u16> {
    op_table(op, format).unwrap_or_else(|e| panic!("actlut-codegen: {e}"))
}

/// The table of `function` (at its default constants) over `format` (entry `i` is the
/// output for input bit pattern `i`).
///
/// # Panics
///
/// If the function has a constant without default, or there is no such table
/// ([`Format::can_represent`]).
pub fn table(function: Function, format: Format) -> Vec<u16> {
    op_table(&Op::from(function), format).unwrap_or_else(|e| panic!("actlut-codegen: {e}"))
}

/// The table of `op` over `format` (entry `i` is the output for input bit pattern `i`).
///
/// ```
/// use actlut_codegen::{op_table, Format, Op};
/// let t = op_table(&"softcap(cap=30)".parse::<Op>()?, Format::Bf16)?;
/// assert_eq!(t[0x4234], 0x41D9); // 30·tanh(45/30) = 27.15…
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// As [`fill_table`]: an input whose rounding cannot be settled, a format that cannot
/// represent the function, a derivative.
pub fn op_table(op: &Op, format: Format) -> Result<Vec<u16>, EvalError> {
    let mut t = vec![0u16; format.entries()];
    fill_table(op, format, &mut t)?;
    Ok(t)
}

/// The name of the table of `op` over `format`: `<op>_<format>`, `gelu_f16`,
/// `softcap(cap=30)_bf16`, `leaky_relu_derivative(alpha=0.2)_fp8_e4m3`.
pub fn op_table_name(op: &Op, format: Format) -> String {
    format!("{op}_{}", format.name())
}

/// A table of an op, ready to embed with its declaration: what the build script, the
/// [`builder`] and the `table!` macro write, so that all three declare a table alike.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeclaredTable {
    /// The table's name, [`op_table_name`].
    pub name: String,
    /// The entries (output bits per input bits).
    pub entries: Vec<u16>,
    /// The entries as stored: 2 bytes each in the target's byte order for a 16-bit format,
    /// 1 byte each otherwise.
    pub stored: Vec<u8>,
    /// SHA-256 of the little-endian bytes (the table's identity, as in the lock).
    pub sha256: [u8; 32],
    /// The declaration record that opens the table's `static` ([`record::Declaration`]):
    /// version 1 ([`record::DECLARATION_BYTES`]) for a name of the lock's kind (`gelu_f16`),
    /// version 2 ([`record::DECLARATION_V2_BYTES`]) for an op's name with constants
    /// (`softcap(cap=30)_bf16`), which its long name field holds whole.
    pub record: Vec<u8>,
}

/// The table of `op` over `format` with its declaration, stored for a target of the given
/// byte order.
///
/// # Errors
///
/// As [`op_table`].
///
/// # Panics
///
/// If the table's name does not fit a declaration's long name field
/// ([`record::LONG_NAME_BYTES`], 128 bytes: an op whose constants are written with dozens of
/// digits each).
pub fn declared_table(
    op: &Op,
    format: Format,
    big_endian: bool,
) -> Result<DeclaredTable, EvalError> {
    let entries = op_table(op, format)?;
    let le = table_bytes_le(format, &entries);
    let sha256 = sha256(&le);
    let wide = format.entry_bytes() == 2;
    let stored: Vec<u8> = if wide && big_endian {
        entries.iter().flat_map(|v| v.to_be_bytes()).collect()
    } else {
        le
    };
    let name = op_table_name(op, format);
    let declaration = record::Declaration::new(
        &name,
        record::Representation::Full,
        if wide { 2 } else { 1 },
        if wide && big_endian {
            record::StoredOrder::Big
        } else {
            record::StoredOrder::Little
        },
        u32::try_from(stored.len()).expect("a table is under 4 GiB"),
        sha256,
    );
    let record = declaration.encode()[..declaration.record_bytes()].to_vec();
    Ok(DeclaredTable {
        name,
        entries,
        stored,
        sha256,
        record,
    })
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
