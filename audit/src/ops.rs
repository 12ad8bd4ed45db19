//! Declared tables the lock does not list: tables with constants and
//! derivatives, named by an op and a format (`softcap(cap=30)_bf16`,
//! `leaky_relu_derivative(alpha=0.01)_fp8_e4m3fnuz`; version-2 declarations,
//! `actlut_codegen::record`).
//!
//! Such a table is verified by computing it again: its name is parsed as an
//! op (a function, its constants, whether it is the derivative) and a
//! format, the table is evaluated with `actlut_core`'s exact evaluation, and
//! the declared hash and the bytes after the record must be its. This is the
//! seam [`recompute`]: until `actlut_core` evaluates ops (`actlut_core::Op`),
//! it answers [`Recomputed::Unavailable`] for a name that reads as an op,
//! and the audit reports the declaration as a problem (it verified nothing),
//! never as intact.

use std::string::String;
use std::vec::Vec;

use actlut_codegen::{Format, Function};

/// What [`recompute`] could say about a declared name the lock does not list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Recomputed {
    /// The table, computed: its little-endian bytes and its format.
    Table {
        /// Its format.
        format: Format,
        /// Its little-endian bytes.
        bytes_le: Vec<u8>,
    },
    /// The name reads as an op and a format, and the evaluation it needs is
    /// not available: why.
    Unavailable(String),
    /// The name is no op and format.
    NotAnOp,
}

/// The op text and the format of a table name: the longest suffix `_<format>`
/// that names a format, and the text before it.
pub fn split_name(name: &str) -> Option<(&str, Format)> {
    Format::ALL
        .iter()
        .filter_map(|&f| {
            let op = name.strip_suffix(f.name())?.strip_suffix('_')?;
            Some((op, f))
        })
        .max_by_key(|(_, f)| f.name().len())
}

/// Whether `op` reads as an op's canonical text: a function's name,
/// optionally `_derivative`, optionally `(name=value,...)` with each name
/// lower-case and each value a decimal (`0.01`, `-2`, `1.5e-3`).
pub fn is_op_text(op: &str) -> bool {
    let (head, constants) = match op.split_once('(') {
        Some((h, rest)) => match rest.strip_suffix(')') {
            Some(c) => (h, Some(c)),
            None => return false,
        },
        None => (op, None),
    };
    let function = head.strip_suffix("_derivative").unwrap_or(head);
    if Function::from_name(function).is_none() {
        return false;
    }
    constants.is_none_or(|c| {
        !c.is_empty()
            && c.split(',').all(|kv| {
                kv.split_once('=').is_some_and(|(k, v)| {
                    !k.is_empty()
                        && k.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
                        && is_decimal(v)
                })
            })
    })
}

/// A decimal as an op's constant is written: an optional sign, digits with
/// at most one point, and an optional exponent `e` with an optional sign.
fn is_decimal(v: &str) -> bool {
    let (mantissa, exponent) = match v.split_once('e') {
        Some((m, e)) => (m, Some(e)),
        None => (v, None),
    };
    let unsigned = |s: &str| s.strip_prefix(['-', '+']).unwrap_or(s).to_owned();
    let m = unsigned(mantissa);
    let digits = m.replacen('.', "", 1);
    let mantissa_ok = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    let exponent_ok = exponent.is_none_or(|e| {
        let e = unsigned(e);
        !e.is_empty() && e.bytes().all(|b| b.is_ascii_digit())
    });
    mantissa_ok && exponent_ok
}

/// The seam: the table a declared name stands for, computed, when the lock
/// does not list it. Today `actlut_core` has no evaluation of ops with
/// constants or derivatives, so a name that reads as one is
/// [`Recomputed::Unavailable`] (the audit reports it, unverified, as a
/// problem); `audit/tests/ops.rs` holds the test that fails until it is
/// verified.
pub fn recompute(name: &str) -> Recomputed {
    match split_name(name) {
        Some((op, _)) if is_op_text(op) => Recomputed::Unavailable(
            "actlut_core evaluates no op with constants or derivative yet (actlut_core::Op)".into(),
        ),
        _ => Recomputed::NotAnOp,
    }
}
