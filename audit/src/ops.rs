//! Declared tables the lock does not list: tables with constants and
//! derivatives, named by an op and a format (`softcap(cap=30)_bf16`,
//! `leaky_relu_derivative(alpha=0.01)_fp8_e4m3fnuz`; version-2 declarations,
//! `actlut_codegen::record`).
//!
//! Such a table is verified by computing it again ([`recompute`]): its name is
//! parsed as an op (`actlut_core::Op`: a function, its constants, whether it
//! is the derivative) and a format, the table is evaluated with
//! `actlut_core`'s exact evaluation (`actlut_codegen::op_table`), and the
//! declared hash and the bytes after the record must be its. An op the
//! evaluation cannot compute (a constant out of its domain, a format without
//! the NaN the op needs) is [`Recomputed::Unavailable`]: the audit reports the
//! declaration as a problem (it verified nothing), never as intact.

use std::format;
use std::string::{String, ToString};
use std::vec::Vec;

use actlut_codegen::{Format, Function};

/// What computing one entry of a table again costs the scan's budget, in compared entries:
/// a flood of declarations of ops makes the budget run out (a problem), not the scan slow.
/// An entry takes at most about 0.2 µs (a 16-bit op's table 5 to 7 ms on a Zen 5 core,
/// BENCHMARKS.md; up to 12 ms under load for the slowest ops and derivatives), and the
/// budget is [`crate::BUDGET_PER_BYTE`] per byte: a flood of records is then charged 64 KiB
/// of file per 16-bit op, under 8 times the time of random bytes per byte, while an honest
/// firmware of back-to-back op tables (each its 65,536 entries, twice that budget) is judged
/// in full.
pub const RECOMPUTE_COST_PER_ENTRY: u64 = 64;

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
        .filter_map(|&f| Some((name.strip_suffix(f.name())?.strip_suffix('_')?, f)))
        .max_by_key(|(_, f)| f.name().len())
}

/// Whether `op` reads as an op's canonical text: a function's name,
/// optionally `_derivative`, optionally `(name=value,...)` with each name
/// lower-case and each value a decimal (`0.01`, `-2`, `1.5e-3`) or a fraction
/// (`1/6`, `-1/3`).
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
                        && (is_decimal(v)
                            || v.split_once('/')
                                .is_some_and(|(n, d)| is_decimal(n) && is_digits(d)))
                })
            })
    })
}

/// A decimal as an op's constant is written: an optional sign, digits with
/// at most one point, and an optional exponent `e` with an optional sign.
fn is_decimal(v: &str) -> bool {
    let unsigned = |s: &str| s.strip_prefix(['-', '+']).unwrap_or(s).to_owned();
    let (mantissa, exponent) = v.split_once('e').map_or((v, None), |(m, e)| (m, Some(e)));

    is_digits(&unsigned(mantissa).replacen('.', "", 1))
        && exponent.is_none_or(|e| is_digits(&unsigned(e)))
}

/// Whether `s` is one or more ASCII digits.
fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// Whether `op` is an op's canonical text ([`is_op_text`], and it prints
/// back as itself): the only spelling a build declares, and the only one
/// that counts as a record's name part.
pub fn is_canonical_op(op: &str) -> bool {
    is_op_text(op)
        && op
            .parse::<actlut_codegen::Op>()
            .is_ok_and(|parsed| parsed.to_string() == op)
}

/// The table a declared name stands for, computed, when the lock does not list
/// it: [`Recomputed::Table`] for an op and a format `actlut_core` evaluates,
/// [`Recomputed::Unavailable`] (why) for a name that reads as an op it cannot
/// compute, [`Recomputed::NotAnOp`] otherwise.
///
/// ```
/// use actlut_audit::ops::{recompute, Recomputed};
/// assert!(matches!(recompute("softcap(cap=30)_fp8_e4m3"), Recomputed::Table { .. }));
/// assert!(matches!(recompute("gelu_derivative_f16"), Recomputed::Table { .. }));
/// assert!(matches!(recompute("elu(alpha=-1)_f16"), Recomputed::Unavailable(_)));
/// // Another spelling of an op is not its canonical text.
/// assert!(matches!(recompute("leaky-relu(alpha=0.25)_fp8_e4m3"), Recomputed::Unavailable(_)));
/// assert_eq!(recompute("not a table"), Recomputed::NotAnOp);
/// ```
pub fn recompute(name: &str) -> Recomputed {
    let Some((text, format)) = split_name(name).filter(|(op, _)| is_op_text(op)) else {
        return Recomputed::NotAnOp;
    };
    let op: actlut_codegen::Op = match text.parse() {
        Ok(op) => op,
        Err(e) => return Recomputed::Unavailable(format!("`{text}` is no op: {e}")),
    };
    // A build declares an op by its canonical text (`table!` writes it): another
    // spelling (`leaky-relu(…)`, constants reordered) is a problem, not verified.
    let canonical = op.to_string();
    if canonical != text {
        return Recomputed::Unavailable(format!(
            "`{text}` is not the canonical text of its op, `{canonical}`"
        ));
    }
    match actlut_codegen::op_table(&op, format) {
        Ok(entries) => Recomputed::Table {
            format,
            bytes_le: actlut_codegen::table_bytes_le(format, &entries),
        },
        Err(e) => Recomputed::Unavailable(e.to_string()),
    }
}
