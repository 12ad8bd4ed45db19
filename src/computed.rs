//! The computed path: the same reference evaluation the tables are built from,
//! with no table. Bit-identical to the tables on every input (the tests check
//! all of them), and about two orders of magnitude slower: use it where a table
//! is too large to carry, or for `f32`.
//!
//! ```
//! use actlut::{computed, Function};
//! use half::f16;
//!
//! let x = f16::from_f32(1.0);
//! assert_eq!(computed::f16(Function::Gelu, x), f16::from_f32(0.8413));
//! assert_eq!(computed::gelu_f16(x), f16::from_f32(0.8413));
//! assert_eq!(computed::gelu_f32(1.0), 0.841_344_75);
//! ```

use actlut_core::{Format, Function};

/// `act` at one value of any `format`, given and returned as raw bits in the
/// low [`format.bits()`](Format::bits) bits of a `u16`, computed: the entry
/// `x` of the table of `act` over `format`, with no table.
///
/// The per-format functions ([`f16_bits`], [`fp8_e4m3_bits`], …) are this
/// function for one format.
///
/// ```
/// use actlut::{computed, Format, Function};
///
/// // (E8M0 has no zero: its code 0 is 2^-127.)
/// for format in Format::ALL.into_iter().filter(|f| f.has_zero()) {
///     // exp(+0) = 1, whose bit pattern each format spells its own way.
///     let one = computed::bits(Function::Exp, format, 0);
///     if format.can_represent(Function::Log) {
///         assert_eq!(computed::bits(Function::Log, format, one), 0); // ln 1 = +0
///     }
/// }
/// ```
///
/// # Panics
///
/// If `format` cannot represent `act` ([`Format::can_represent`]: log and
/// rsqrt over a format without NaN, which have no table either), or if a constant of
/// `act` has no default (softcap, prelu, gelu_clipped, xielu: give the constants in an
/// [`Op`](crate::Op) and use [`eval_op`](crate::eval_op) or [`fill_table`](crate::fill_table)).
pub fn bits(act: Function, format: Format, x: u16) -> u16 {
    actlut_core::eval(act, format, x)
}

/// `act` at one `f32`, computed and rounded once to `f32`.
///
/// # Accuracy
///
/// Guaranteed within 0.5 ulp + 2^-40 (relative) of the exact value, and
/// correctly rounded wherever the reference evaluation settles the rounding.
/// Against MPFR, on every f16-representable input and 1,000,000 random `f32`
/// per function (17 million in all), every result was correctly rounded. NaN
/// inputs are kept and quieted; the other special inputs follow docs/SEMANTICS.md.
///
/// Where the evaluation cannot settle the rounding, the result is the rounding
/// of the `f64` evaluation, whose last bits could follow the `libm` version
/// (any 0.2 from 0.2.8 on). Measured: over every f16-representable input and
/// 4,000,000 seeded random `f32` per function, `libm` 0.2.8 and 0.2.16 give the
/// same bits for the 16 functions measured (`.ci/steps/16-libm.sh` compares the oldest
/// and the newest `libm` 0.2). The 16-bit and fp8 functions and tables never
/// depend on it.
///
/// # Panics
///
/// If a constant of `act` has no default (use [`eval_op_f32`](crate::eval_op_f32)).
pub fn f32(act: Function, x: f32) -> f32 {
    actlut_core::eval_f32(act, x)
}

/// Applies `act` in place to every `f32` of `xs` (see [`f32()`] for accuracy).
pub fn apply_f32(act: Function, xs: &mut [f32]) {
    let f = act;
    for x in xs {
        *x = actlut_core::eval_f32(f, *x);
    }
}

/// Writes `act` of every `f32` of `xs` to `ys` (see [`f32()`] for accuracy).
///
/// # Panics
///
/// If `xs.len() != ys.len()`; the message names both lengths.
#[track_caller]
pub fn map_f32(act: Function, xs: &[f32], ys: &mut [f32]) {
    crate::errors::check_lengths(xs.len(), ys.len());
    let f = act;
    for (y, x) in ys.iter_mut().zip(xs) {
        *y = actlut_core::eval_f32(f, *x);
    }
}

// The per-format functions (`f16`, `bf16_bits`, `fp8_e4m3_bits`, …) and the
// shorthands (`gelu_f16`, `gelu_f32`, …), generated from `Function::ALL ×
// Format::ALL` into `src/generated/computed.rs`.
/// The generated part of this module, committed in `src/generated/` (`cargo xtask
/// regenerate-api` writes it from `Function::ALL × Format::ALL`; a test fails when it is
/// stale). rustfmt leaves it as the generator writes it.
#[rustfmt::skip]
#[path = "generated/computed.rs"]
mod generated;
pub use generated::*;
