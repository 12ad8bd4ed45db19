//! Approximate activation functions for `f32`, with proven error bounds: functions tabulated
//! on a quantization grid, exp from log-domain codes, and a histogram log-sum-exp.
//!
//! This is the approximate toolkit of [actlut](https://docs.rs/actlut), apart from its exact
//! tables: `f32` has 2^32 inputs, so a function of an `f32` is computed, never tabulated in
//! full, and what is here trades a known error for speed.
//!
//! `f32` has 2^32 inputs, too many to tabulate. But once a value is quantized to
//! the integer code `round(x / step)`, any scalar function is a table indexed by
//! that code, and the cost of the function is one division, one rounding and one
//! load. The price is a known error: the table holds `f` at the grid point
//! nearest to `x`, at most `step/2` away, so the error is at most
//! `(step/2)·sup|f'|` ([`error_bound`]) plus the `f32` rounding of the table
//! entry and of `x / step` (which [`QuantizedFunction::error_bound`] adds).
//!
//! ```
//! use actlut_approx::{error_bound, Builtin, QuantizedFunction};
//!
//! // gelu on [-8, 8] at step 1/256: 4097 entries, 16 KiB, no heap.
//! let q: QuantizedFunction<[f32; 4097]> =
//!     QuantizedFunction::builtin_array("gelu".parse()?, 1.0 / 256.0, -8.0, 8.0)?;
//! let bound = q.error_bound().unwrap();
//! assert!(bound < 0.0023);
//! assert!(bound >= error_bound("gelu".parse::<Builtin>()?.sup_abs_derivative(), 1.0 / 256.0)?);
//! let exact = actlut::computed::gelu_f32(1.3);
//! assert!((q.eval(1.3) - exact).abs() <= bound as f32);
//! // The pure-integer path: code 256 is x = 1.0.
//! assert_eq!(q.lookup(256)?, actlut::computed::gelu_f32(1.0));
//! assert!(q.lookup(5000).is_err()); // out of range is an error, not a clip
//! # Ok::<(), actlut_approx::ApproxError>(())
//! ```
//!
//! What is here:
//!
//! - [`QuantizedFunction`]: `f(x) ≈ table[round(x/step)]` over `[lo, hi]`, with
//!   linear tails outside it; built from one of the [`Builtin`] functions (table
//!   entries from the correctly rounded computed path (`actlut_core::eval_f32`), and a
//!   known `sup|f'|`) or from any `fn(f32) -> f32`.
//! - [`error_bound`], [`step_for_tolerance`], [`table_bytes`]: the arithmetic of
//!   choosing a step, without building anything.
//! - [`ExpTable`] (`quantized_exp`): `e^v` for a value `v = lo_log + code·log_step`
//!   stored as a log-domain (LNS) code: a pure gather.
//! - `quantized_logsumexp` and `LogSumExp` (with `alloc`): `ln Σ wᵢ·e^{sᵢ}`
//!   through an integer histogram of the scores over a grid of `2^bits` cells
//!   below the maximum, one `2^bits`-entry exp table and one log;
//!   [`lse_error_bound`] bounds its error for given data, clipped scores
//!   included.
//!
//! # Allocation
//!
//! Everything works without `alloc`: [`QuantizedFunction`] and [`ExpTable`] are
//! generic over their storage, and the array-backed constructors
//! (`QuantizedFunction::<[f32; N]>::builtin_array`, `new_array`,
//! `ExpTable::<[f32; N]>::new_array`) fill a `[f32; N]` at run time, with no heap
//! (mind the stack for large `N`, or put the value in a `static` cell). With the
//! `alloc` feature, the `Vec`-backed constructors (`quantized_activation`,
//! `QuantizedFunction::new`, `quantized_exp`) size the table from the grid,
//! and a table too large to allocate is an [`ApproxError`], not an abort. The
//! log-sum-exp needs a histogram of `2^bits` cells and so needs `alloc`;
//! [`lse_error_bound`] does not.
//!
//! # Errors
//!
//! Bad arguments (a NaN, infinite, zero or negative step; NaN or infinite `lo`
//! or `hi`; `lo ≥ hi`; a grid of one code; a function value that is not finite
//! inside the range; `bits = 0` or too many bits; negative, NaN or infinite
//! weights; slices of different lengths; a code out of range) are an
//! [`ApproxError`] that names the argument. No function of this module panics.

#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

#[cfg(feature = "alloc")]
extern crate alloc;

mod builtin;
mod error;
mod exp;
mod lse;
mod table;

pub use builtin::Builtin;
pub use error::ApproxError;
#[cfg(feature = "alloc")]
pub use exp::quantized_exp;
pub use exp::ExpTable;
pub use lse::lse_error_bound;
#[cfg(feature = "alloc")]
pub use lse::{quantized_logsumexp, LogSumExp};
#[cfg(feature = "alloc")]
pub use table::quantized_activation;
pub use table::{table_bytes, QuantizedFunction};

/// The function set, `actlut_core`'s (and `actlut`'s: the same enum), which
/// [`Builtin::new`] takes.
pub use actlut_core::Function;

/// The error of nearest-code lookup in exact arithmetic: `(step/2)·sup|f'|`.
///
/// A point `x` is at most `step/2` from its grid point, and `f` moves by at most
/// `sup|f'|` per unit, so this bounds `|f(x) − f(grid point)|`. The bound of an
/// actual `f32` table ([`QuantizedFunction::error_bound`]) adds the rounding of
/// the table entries and of `x / step`.
///
/// # Errors
///
/// [`ApproxError::InvalidParameter`] when `sup_abs_derivative` is not finite and
/// non-negative, or `step` is not finite and positive: a NaN or negative bound
/// would bound nothing.
///
/// ```
/// use actlut_approx::{error_bound, ApproxError, Builtin};
/// let sigmoid: Builtin = "sigmoid".parse().unwrap();
/// // sigmoid (sup|f'| = 1/4) at step 1/128: 1/1024.
/// assert_eq!(error_bound(sigmoid.sup_abs_derivative(), 1.0 / 128.0), Ok(1.0 / 1024.0));
/// assert!(matches!(
///     error_bound(1.0, -0.1),
///     Err(ApproxError::InvalidParameter { name: "step", .. })
/// ));
/// ```
pub fn error_bound(sup_abs_derivative: f64, step: f32) -> Result<f64, ApproxError> {
    let sup = error::check_sup_abs_derivative(sup_abs_derivative)?;
    let step = error::check_step(step)?;
    Ok(0.5 * step * sup)
}

/// The largest `f32` step whose [`error_bound`] is at most `tolerance`:
/// `2·tolerance / sup|f'|`, rounded down to an `f32`.
///
/// The result bounds the grid term only: the `f32` rounding of the table
/// entries adds about half an ulp of the function's values (see
/// [`QuantizedFunction::error_bound`]), so leave room for it when the tolerance
/// is near the `f32` resolution of the values.
///
/// # Errors
///
/// [`ApproxError::InvalidParameter`] when `tolerance` or `sup_abs_derivative` is
/// not finite and positive, or when the step is not a finite positive `f32`.
///
/// ```
/// use actlut_approx::{error_bound, step_for_tolerance, Builtin};
/// let sup = "tanh".parse::<Builtin>()?.sup_abs_derivative();
/// let step = step_for_tolerance(1e-3, sup)?;
/// assert!(error_bound(sup, step)? <= 1e-3);
/// assert!(step > 0.00199);
/// # Ok::<(), actlut_approx::ApproxError>(())
/// ```
pub fn step_for_tolerance(tolerance: f64, sup_abs_derivative: f64) -> Result<f32, ApproxError> {
    if !(tolerance.is_finite() && tolerance > 0.0) {
        return Err(ApproxError::InvalidParameter {
            name: "tolerance",
            value: tolerance,
            expected: "finite and positive",
        });
    }
    if !(sup_abs_derivative.is_finite() && sup_abs_derivative > 0.0) {
        return Err(ApproxError::InvalidParameter {
            name: "sup_abs_derivative",
            value: sup_abs_derivative,
            expected: "finite and positive",
        });
    }
    let wanted = 2.0 * tolerance / sup_abs_derivative;
    let mut step = wanted as f32;
    // Round down; one f64 rounding of `wanted` is covered by re-checking the bound.
    while step > 0.0
        && (f64::from(step) > wanted
            || !matches!(error_bound(sup_abs_derivative, step), Ok(b) if b <= tolerance))
    {
        step = f32::from_bits(step.to_bits() - 1);
    }
    if !(step.is_finite() && step > 0.0) {
        return Err(ApproxError::InvalidParameter {
            name: "step",
            value: wanted,
            expected: "a finite positive f32 (tolerance / sup_abs_derivative out of range)",
        });
    }
    Ok(step)
}

/// `q` rounded to the nearest integer, ties to even, for `|q| < 2^22`: adding
/// 1.5·2^23 moves `q` where the `f32` ulp is 1, so the addition itself rounds
/// it (once, exactly as round-to-nearest-even), and the subtraction is exact.
/// Branch-free.
#[inline]
fn round_code(q: f32) -> i32 {
    const SHIFT: f32 = 12_582_912.0; // 1.5·2^23
    ((q + SHIFT) - SHIFT) as i32
}

/// Half an ulp of `|v|` for a finite `f32` (the rounding error of a correctly
/// rounded result of this size).
fn half_ulp(v: f32) -> f64 {
    let a = v.abs();
    let next = if a == f32::MAX {
        f64::from(f32::MAX) + pow2(104)
    } else {
        f64::from(f32::from_bits(a.to_bits() + 1))
    };
    0.5 * (next - f64::from(a))
}

/// `e^v` in `f64` through the reference math, with a relative error of at most
/// 2^-40 (plus 1e-300 absolute near underflow).
fn exp_f64(v: f64) -> f64 {
    if v == 0.0 {
        return 1.0;
    }
    actlut_core::evaluate(actlut_core::Function::Exp, v).map_or(f64::NAN, |e| e.hi + e.lo)
}

/// `ln v` for a finite `v > 0` through the reference math, within
/// 2^-40 relative.
fn ln_f64(v: f64) -> f64 {
    if v == 1.0 {
        return 0.0;
    }
    actlut_core::evaluate(actlut_core::Function::Log, v).map_or(f64::NAN, |e| e.hi + e.lo)
}

/// `2^e` for `−1022 ≤ e ≤ 1023`, exactly (core has no `powi`).
fn pow2(e: i32) -> f64 {
    f64::from_bits(((1023 + e) as u64) << 52)
}
