//! Reference math, number formats and table generation for [actlut].
//!
//! This crate is the single source of truth of actlut: the build script of the
//! runtime crate calls it to generate every table, and the runtime crate calls
//! the same code for its computed path, so a table entry and the computed value
//! agree by construction (and the tests check it on every input).
//!
//! It is `no_std` without `alloc` at its core. The default features add what
//! build scripts need: `std` (tables as `Vec`s, the lock file) and `sha2`
//! (SHA-256 of table bytes).
//!
//! # Correct rounding
//!
//! [`eval`] returns the exact value of the function at the exact input, rounded
//! once to nearest, ties to even. It evaluates the function in `f64` through
//! `libm` (pure Rust, so the same bits on every host) with tail-stable formulas,
//! attaches a proven relative error bound, and rounds only when no rounding
//! boundary lies within that bound. Otherwise it evaluates again more precisely
//! (a *hard case*; see [`Path::Refined`]). If even that cannot decide, it panics:
//! a table is never silently wrong. Every shipped table is also checked against
//! MPFR on every input.
//!
//! ```
//! use actlut_codegen::{eval, Format, Function};
//! // gelu(1.0) in f16: 1.0 is 0x3C00; 0.8413 is 0x3ABB.
//! assert_eq!(eval(Function::Gelu, Format::F16, 0x3C00), 0x3ABB);
//! ```
//!
//! [actlut]: https://docs.rs/actlut
#![no_std]
#![deny(missing_docs)]

#[cfg(feature = "std")]
extern crate std;

#[cfg(all(feature = "std", feature = "sha2"))]
pub mod audit;
#[cfg(feature = "std")]
pub mod builder;
mod format;
mod function;
#[cfg(feature = "std")]
pub mod lock;
pub mod quant;
mod round;

pub use format::Format;
pub use function::Function;

use function::Special;

/// How [`eval_traced`] arrived at a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// NaN, ±inf or ±0 input: the value is fixed by SEMANTICS.md.
    Special,
    /// The plain `f64` evaluation was far enough from every rounding boundary.
    Direct,
    /// A hard case: the plain evaluation lay within its error bound of a rounding
    /// boundary, and the refined evaluation settled it.
    Refined,
}

/// The correctly rounded output bits of `function` at the input bits `bits` in
/// `format` (for 8-bit formats only the low byte of `bits` is used, and the
/// result fits in a byte).
///
/// # Panics
///
/// If neither the plain nor the refined evaluation can settle the rounding. This
/// does not happen for any (function, format, input) of this crate: the tests
/// evaluate every one of them.
pub fn eval(function: Function, format: Format, bits: u16) -> u16 {
    eval_traced(function, format, bits).0
}

/// [`eval`], and which [`Path`] settled the result.
pub fn eval_traced(function: Function, format: Format, bits: u16) -> (u16, Path) {
    let bits = if format.bits() == 8 {
        bits & 0xFF
    } else {
        bits
    };
    if format.is_nan(bits) {
        return (format.quiet_nan(bits), Path::Special);
    }
    let x = format.decode(bits);
    if x.is_infinite() || x == 0.0 {
        let neg = format.is_sign_negative(bits);
        let out = match function.special(neg, x == 0.0) {
            Special::DefaultNan => format.default_nan_bits(),
            Special::Value(v) => settle(round::round(format, v), function, format, bits),
        };
        return (out, Path::Special);
    }
    let v = match function.eval(x) {
        Ok(v) => v,
        Err(()) => return (format.default_nan_bits(), Path::Special),
    };
    if let Some(r) = round::round(format, v) {
        return (r, Path::Direct);
    }
    let refined = function
        .eval_refined(x)
        .and_then(|v| round::round(format, v));
    (settle(refined, function, format, bits), Path::Refined)
}

fn settle(r: Option<u16>, function: Function, format: Format, bits: u16) -> u16 {
    match r {
        Some(r) => r,
        None => panic!(
            "actlut-codegen: cannot settle the rounding of {}_{} at input {bits:#06x} ({:e}); \
             this is a bug in the reference evaluation",
            function.name(),
            format.name(),
            format.decode(bits)
        ),
    }
}

/// A reference evaluation before rounding: the exact value lies within
/// `error_bound` of `hi + lo` (an unevaluated sum of two `f64`s).
///
/// This is what [`eval`] rounds; it is public so that the bound itself can be
/// tested against an independent high-precision reference.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Evaluation {
    /// Leading part.
    pub hi: f64,
    /// Trailing part (often 0).
    pub lo: f64,
    /// Bound on `|exact − (hi + lo)|`; 0 means `hi + lo` is exact.
    pub error_bound: f64,
}

impl From<round::Approx> for Evaluation {
    fn from(a: round::Approx) -> Self {
        Evaluation {
            hi: a.hi,
            lo: a.lo,
            error_bound: a.err,
        }
    }
}

/// The plain reference evaluation of `function` at a finite non-zero `x`, or
/// `None` where the result is the default NaN (log or rsqrt of a negative `x`).
pub fn evaluate(function: Function, x: f64) -> Option<Evaluation> {
    function.eval(x).ok().map(Evaluation::from)
}

/// The refined evaluation used for hard cases, or `None` for functions without
/// one (their plain evaluation settles every input).
pub fn evaluate_refined(function: Function, x: f64) -> Option<Evaluation> {
    function.eval_refined(x).map(Evaluation::from)
}

/// `function` at an `f32` input, rounded once to `f32`.
///
/// # Accuracy
///
/// Guaranteed: within 0.5 ulp + 2^-40 (relative) of the exact value. The result
/// is the correctly rounded value whenever the `f64` evaluation or its
/// refinement lies farther than its error bound from an `f32` rounding
/// boundary; otherwise it is the rounding of the `f64` evaluation. Measured
/// against MPFR (the oracle's `eval_f32` test: every f16-representable input and
/// 1,000,000 random `f32` per function, 17 million in all), every result was
/// correctly rounded. Special inputs follow SEMANTICS.md as for the table
/// formats (NaN kept and quieted).
///
/// The unsettled case takes the `f64` evaluation's bits, which could in
/// principle differ between `libm` versions. Measured with the
/// `libm-fingerprint` example over every f16-representable input and 4,000,000
/// seeded random `f32` per function: `libm` 0.2.8 and 0.2.16 give identical
/// results (and identical raw `f64` evaluations) for all 16 functions.
pub fn eval_f32(function: Function, x: f32) -> f32 {
    if x.is_nan() {
        return f32::from_bits(x.to_bits() | 0x0040_0000);
    }
    let xd = f64::from(x);
    let v = if x.is_infinite() || x == 0.0 {
        match function.special(x.is_sign_negative(), x == 0.0) {
            Special::DefaultNan => return f32::NAN,
            Special::Value(v) => v,
        }
    } else {
        match function.eval(xd) {
            Ok(v) => v,
            Err(()) => return f32::NAN,
        }
    };
    if let Some(r) = round::round_f32(v) {
        return r;
    }
    if let Some(r) = function.eval_refined(xd).and_then(round::round_f32) {
        return r;
    }
    (v.hi + v.lo) as f32
}

/// Fills `out` with the table of `function` over `format`: entry `i` is
/// [`eval`]`(function, format, i)`.
///
/// # Panics
///
/// If `out.len() != format.entries()`.
pub fn fill_table(function: Function, format: Format, out: &mut [u16]) {
    assert_eq!(
        out.len(),
        format.entries(),
        "a {} table has {} entries",
        format.name(),
        format.entries()
    );
    for (i, o) in out.iter_mut().enumerate() {
        *o = eval(function, format, i as u16);
    }
}

/// The table of `function` over `format` (entry `i` is the output for input
/// bit pattern `i`).
#[cfg(feature = "std")]
pub fn table(function: Function, format: Format) -> std::vec::Vec<u16> {
    let mut t = std::vec![0u16; format.entries()];
    fill_table(function, format, &mut t);
    t
}

/// A table's bytes in little-endian order: 2 bytes per entry for 16-bit formats,
/// 1 for 8-bit ones. This is the layout of `<name>.bin` files and the bytes
/// whose SHA-256 identifies a table.
#[cfg(feature = "std")]
pub fn table_bytes_le(format: Format, table: &[u16]) -> std::vec::Vec<u8> {
    match format.entry_bytes() {
        1 => table.iter().map(|&v| v as u8).collect(),
        _ => table.iter().flat_map(|v| v.to_le_bytes()).collect(),
    }
}

/// The name of the table of `function` over `format`: `gelu_f16`, `gelu_tanh_bf16`, ….
#[cfg(feature = "std")]
pub fn table_name(function: Function, format: Format) -> std::string::String {
    std::format!("{}_{}", function.name(), format.name())
}

/// SHA-256 of `bytes`.
#[cfg(feature = "sha2")]
pub fn sha256(bytes: &[u8]) -> [u8; 32] {
    use sha2::Digest;
    sha2::Sha256::digest(bytes).into()
}

/// Lower-case hexadecimal of `bytes`.
#[cfg(feature = "std")]
pub fn hex(bytes: &[u8]) -> std::string::String {
    use core::fmt::Write;
    let mut s = std::string::String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// The version of the reference evaluation: recorded in the lock with every
/// table hash, and bumped whenever a table's bytes change on purpose.
///
/// It names the algorithm (this crate's version), not the `libm` it was built
/// with: any `libm` 0.2 release from the tested minimum on gives the same
/// tables, because an entry is rounded only when no rounding boundary lies
/// within the evaluation's error bound, and the lock check fails the build if a
/// `libm` ever did not.
pub const REFERENCE_VERSION: &str = concat!("actlut-codegen ", env!("CARGO_PKG_VERSION"));

#[cfg(test)]
mod tests {
    use super::*;

    /// Every (function, format, input) is settled without a panic, and the number
    /// of hard cases is printed (`cargo test -p actlut-codegen -- --nocapture`).
    #[test]
    fn every_input_of_every_table_is_settled() {
        for format in Format::ALL {
            for function in Function::ALL {
                let mut refined = 0;
                for b in (0..format.entries()).map(|i| i as u16) {
                    if eval_traced(function, format, b).1 == Path::Refined {
                        refined += 1;
                    }
                }
                if refined > 0 {
                    std::println!(
                        "{}_{}: {refined} hard cases",
                        function.name(),
                        format.name()
                    );
                }
            }
        }
    }
}
