//! The reference core of [actlut]: number formats, reference math, correct
//! rounding, the quantized pipeline and the compact stored form's reader.
//!
//! Everything that build time and run time must agree on lives here, in one
//! `no_std` crate without `alloc` (its one feature, `alloc`, adds the spline
//! packer, `spline::pack`): the runtime
//! crate `actlut` calls it for its computed path, and its build script (through
//! `actlut-codegen`) calls the same code to generate every table, so a table
//! entry and the computed value agree by construction (and the tests check it on
//! every input). Table generation into `Vec`s, the lock files, the builder for
//! users' build scripts and the compact packer are `actlut-codegen`'s (std,
//! build scripts only); the binary audit is `actlut-audit`'s.
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
//! use actlut_core::{eval, Format, Function};
//! // gelu(1.0) in f16: 1.0 is 0x3C00; 0.8413 is 0x3ABB.
//! assert_eq!(eval(Function::Gelu, Format::F16, 0x3C00), 0x3ABB);
//! ```
//!
//! # One file per function
//!
//! Each [`Function`] is one file of `core/src/function/`, which holds everything about it:
//! its definition, its values at ±0 and ±inf, its tail-stable `f64` evaluation and error
//! bound, its refined evaluation for hard cases, and its derivative facts (for the runtime's
//! `approx`). One `macro_rules!` list in `core/src/function/mod.rs`, one line per function in
//! the order of the lock file, expands into the [`Function`] enum, [`Function::ALL`] and the
//! dispatch, so a new function is a new file and a new line; that module's doc says what a
//! file holds.
//! Evaluation follows one sequence for tables, [`eval_f32`] and the quantized pipeline: the
//! special value or the plain evaluation, rounded when no rounding boundary lies within its
//! bound, otherwise the refined evaluation, rounded likewise, otherwise unsettled.
//!
//! [actlut]: https://docs.rs/actlut
#![no_std]
#![deny(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(test)]
extern crate std;

pub mod compact;
mod format;
mod function;
mod math;
pub mod names;
pub mod quant;
pub mod record;
mod round;
mod settle;
pub mod spline;

pub use format::Format;
pub use function::Function;

use settle::{settle, Outcome};

/// How [`eval_traced`] arrived at a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// NaN, ±inf or ±0 input: the value is fixed by docs/SEMANTICS.md.
    Special,
    /// The plain `f64` evaluation was far enough from every rounding boundary.
    Direct,
    /// A hard case: the plain evaluation lay within its error bound of a rounding
    /// boundary, and the refined evaluation settled it.
    Refined,
}

/// The correctly rounded output bits of `function` at the input bits `bits` in
/// `format` (for formats narrower than 16 bits only the low bits of `bits` are
/// used, [`Format::code_mask`], and the result fits in those bits).
///
/// # Panics
///
/// If the format cannot represent the function ([`Format::can_represent`]:
/// log and rsqrt over FP6 and FP4). If neither the plain nor the refined evaluation can settle the rounding. This
/// does not happen for any (function, format, input) of this crate: the tests
/// evaluate every one of them.
pub fn eval(function: Function, format: Format, bits: u16) -> u16 {
    eval_traced(function, format, bits).0
}

/// [`eval`], and which [`Path`] settled the result.
pub fn eval_traced(function: Function, format: Format, bits: u16) -> (u16, Path) {
    assert_representable(function, format);
    let bits = bits & format.code_mask();
    if format.is_nan(bits) {
        return (format.quiet_nan(bits), Path::Special);
    }
    let x = format.decode(bits);
    match settle(function, x, |v| round::round(format, v)) {
        Outcome::Settled(r, path) => (r, path),
        Outcome::DefaultNan => (format.default_nan_bits(), Path::Special),
        Outcome::Unsettled(_) => panic!(
            "actlut-core: cannot settle the rounding of {}_{} at input {bits:#06x} ({x:e}); \
             this is a bug in the reference evaluation",
            function.name(),
            format.name(),
        ),
    }
}

/// Where the exact value of a function at an input lies among the rounding
/// midpoints of the output format: how hard its correct rounding is
/// ([`midpoint_distance`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MidpointDistance {
    /// The exact value's signed distance from the nearer of the two rounding
    /// boundaries around the correctly rounded value, in ulps of the format
    /// at that boundary (the spacing of the two values it separates): 0 on a
    /// midpoint, ±0.5 on a value of the format, positive when the exact value
    /// is greater than the boundary (value order: for a negative value,
    /// positive is toward zero). The boundaries are the midpoints between
    /// neighbouring values and the overflow threshold, so beyond it (and
    /// beyond a saturating format's largest value) the distance exceeds 0.5
    /// ulp; it is `±inf` for an infinite exact value. Where the exact value
    /// lies within the error bound of a value of the format, both midpoints
    /// are 0.5 ulp away and which is nearer is not decided: the magnitude is
    /// then right and the sign either (the nearer by the evaluation is taken;
    /// on a value exactly, the upper).
    pub ulps: f64,
    /// A bound on `|ulps − exact distance|`, in ulps: the error bound of the
    /// evaluation that settled the table entry, in ulps at the boundary, plus
    /// the rounding of the subtraction (none when it is exact). On the plain path it
    /// is at most 2^-40 of the value in ulps (below 2^-29 ulp in f16, 2^-32 in
    /// bf16, less in the byte formats); on the refined path, the refined
    /// evaluation's bound; 0 for exact values.
    pub error_bound: f64,
    /// The evaluation it comes from: the same that settles the table entry
    /// ([`eval_traced`]).
    pub path: Path,
}

/// The distance of the exact value of `function` at the input bits `bits` of
/// `format` from the nearest rounding midpoint, in ulps of `format`: `None`
/// where the result is NaN (a NaN input, outside the function's domain, or a
/// value an unsigned format cannot hold).
///
/// It comes from the evaluation that settles the table entry: the plain one
/// when no rounding boundary lies within twice its error bound, otherwise the
/// refined one (so the sign is certain, and the error is at most half the
/// distance, far less in practice: [`MidpointDistance::error_bound`]). A kernel
/// whose output is 1 ulp off where `|ulps|` is tiny missed a hard case; where
/// it is near 0.5, it made a plain error.
///
/// ```
/// use actlut_core::{midpoint_distance, Format, Function};
/// // sigmoid(0) = 0.5 exactly, a value of f16: half an ulp below the midpoint above it.
/// let d = midpoint_distance(Function::Sigmoid, Format::F16, 0x0000).unwrap();
/// assert_eq!((d.ulps, d.error_bound), (-0.5, 0.0));
/// // log(−1) is NaN.
/// assert!(midpoint_distance(Function::Log, Format::F16, 0xBC00).is_none());
/// ```
///
/// # Panics
///
/// As [`eval`]: if the format cannot represent the function, or if the
/// rounding cannot be settled (which no table input does).
pub fn midpoint_distance(
    function: Function,
    format: Format,
    bits: u16,
) -> Option<MidpointDistance> {
    assert_representable(function, format);
    let bits = bits & format.code_mask();
    if format.is_nan(bits) {
        return None;
    }
    let x = format.decode(bits);
    match settle(function, x, |v| round::round(format, v).map(|r| (v, r))) {
        // A value an unsigned format cannot hold (a negative one, or E8M0's zero, or an
        // overflow) is its NaN: no rounding, no midpoint.
        Outcome::Settled((_, r), _) if !format.is_signed() && format.is_nan(r) => None,
        Outcome::Settled((v, _), path) => {
            let (ulps, error_bound) = round::midpoint_distance(format, v);
            Some(MidpointDistance {
                ulps,
                error_bound,
                path,
            })
        }
        Outcome::DefaultNan => None,
        Outcome::Unsettled(_) => panic!(
            "actlut-core: cannot settle the rounding of {}_{} at input {bits:#06x} ({x:e}); \
             this is a bug in the reference evaluation",
            function.name(),
            format.name(),
        ),
    }
}

/// Panics, naming the reason, when `function` has no table over `format`
/// ([`Format::can_represent`]).
fn assert_representable(function: Function, format: Format) {
    if !format.can_represent(function) {
        panic!(
            "actlut-core: there is no {}_{} table: {} is NaN for some inputs and {} has no NaN",
            function.name(),
            format.name(),
            function.name(),
            format.name()
        );
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

impl From<round::Bounded> for Evaluation {
    fn from(a: round::Bounded) -> Self {
        Evaluation {
            hi: a.hi,
            lo: a.lo,
            error_bound: a.err,
        }
    }
}

/// The plain reference evaluation of `function` at a non-NaN `x`: at ±0 and ±inf the value or
/// limit of docs/SEMANTICS.md, elsewhere the `f64` evaluation. `None` where the result is the
/// default NaN (log or rsqrt of a negative `x`, or of −inf) or `x` is NaN.
///
/// ```
/// use actlut_core::{evaluate, Function};
/// assert_eq!(evaluate(Function::Sigmoid, 0.0).map(|e| e.hi), Some(0.5));
/// assert_eq!(evaluate(Function::Log, -1.0), None);
/// ```
pub fn evaluate(function: Function, x: f64) -> Option<Evaluation> {
    if x.is_nan() {
        return None;
    }
    if x.is_infinite() || x == 0.0 {
        return match function.special(x.is_sign_negative(), x == 0.0) {
            function::Special::Value(v) => Some(v.into()),
            function::Special::DefaultNan => None,
        };
    }
    function.eval(x).map(Evaluation::from)
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
/// 1,000,000 random `f32` per function), every result was correctly rounded. Special inputs follow docs/SEMANTICS.md as for the table
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
    eval_value_f32(function, f64::from(x))
}

/// `function` at an exact `f64` input `x`, rounded once to `f32`: [`eval_f32`] for
/// inputs that need not be `f32` values, such as a dequantized block element
/// `code · scale`, which can lie beyond `f32`'s range. A NaN `x` gives the
/// positive default NaN `0x7FC0_0000`.
///
/// # Accuracy
///
/// As [`eval_f32`]: within 0.5 ulp + 2^-40 (relative), and correctly rounded
/// whenever the evaluation or its refinement settles the rounding.
///
/// ```
/// use actlut_core::{eval_f32, eval_value_f32, Function};
/// assert_eq!(eval_value_f32(Function::Tanh, 0.5), eval_f32(Function::Tanh, 0.5));
/// assert_eq!(eval_value_f32(Function::Gelu, 1e39), f32::INFINITY); // beyond f32
/// ```
pub fn eval_value_f32(function: Function, xd: f64) -> f32 {
    if xd.is_nan() {
        return f32::NAN;
    }
    match settle(function, xd, round::round_f32) {
        Outcome::Settled(r, _) => r,
        Outcome::DefaultNan => f32::NAN,
        Outcome::Unsettled(v) => (v.hi + v.lo) as f32,
    }
}

/// Every (function, format) pair that has a table, in the lock's order: each
/// format of [`Format::ALL`], and within it each function of [`Function::ALL`]
/// that the format [can represent](Format::can_represent) (FP6 and FP4 have no
/// log or rsqrt table: those are NaN below zero, and FP6 and FP4 have no NaN).
///
/// ```
/// use actlut_core::{table_pairs, Format, Function};
/// assert!(table_pairs().any(|p| p == (Function::Gelu, Format::Fp4E2M1)));
/// assert!(!table_pairs().any(|p| p == (Function::Log, Format::Fp4E2M1)));
/// ```
pub fn table_pairs() -> impl Iterator<Item = (Function, Format)> {
    Format::ALL.into_iter().flat_map(|format| {
        Function::ALL
            .into_iter()
            .filter(move |&f| format.can_represent(f))
            .map(move |function| (function, format))
    })
}

/// Fills `out` with the table of `function` over `format`: entry `i` is
/// [`eval`]`(function, format, i)`.
///
/// # Panics
///
/// If `out.len() != format.entries()`, or if there is no such table
/// ([`Format::can_represent`]).
pub fn fill_table(function: Function, format: Format, out: &mut [u16]) {
    assert_representable(function, format);
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

    #[test]
    #[should_panic(
        expected = "there is no log_fp6_e2m3 table: log is NaN for some inputs and fp6_e2m3 has no NaN"
    )]
    fn a_table_that_would_need_a_nan_is_refused() {
        let mut out = [0u16; 64];
        fill_table(Function::Log, Format::Fp6E2M3, &mut out);
    }

    #[test]
    #[should_panic(expected = "there is no rsqrt_fp4_e2m1 table")]
    fn evaluating_a_pair_without_a_table_is_refused() {
        eval(Function::Rsqrt, Format::Fp4E2M1, 0x2);
    }

    /// The pairs with a table: every format × function but log and rsqrt over FP6/FP4.
    #[test]
    fn table_pairs_lists_every_pair_with_a_table_in_lock_order() {
        let pairs: std::vec::Vec<_> = table_pairs().collect();
        assert_eq!(pairs.len(), Format::ALL.len() * Function::ALL.len() - 3 * 2);
        assert_eq!(pairs[0], (Function::ALL[0], Format::F16));
        assert!(pairs.windows(2).all(|w| w[0].1 <= w[1].1));
    }

    /// On every input of every table, the midpoint distance agrees with the
    /// table entry: its path is eval's, it is `None` only where the entry is
    /// NaN, its sign is certain (the bound is at most half the distance, or 0),
    /// and it is at most half an ulp (up to its bound) wherever the entry is a
    /// finite value below the largest (beyond, the nearest boundary is the
    /// overflow threshold or the saturation midpoint). The MPFR oracle checks
    /// the values themselves (oracle/tests/midpoint.rs).
    #[test]
    fn midpoint_distances_agree_with_every_table_entry() {
        for (function, format) in table_pairs() {
            for b in (0..format.entries()).map(|i| i as u16) {
                let (entry, path) = eval_traced(function, format, b);
                let Some(d) = midpoint_distance(function, format, b) else {
                    assert!(format.is_nan(entry), "{} {b:#x}", function.name());
                    continue;
                };
                assert_eq!(d.path, path, "{}_{} {b:#x}", function.name(), format.name());
                assert!(
                    d.error_bound * 2.0 <= d.ulps.abs() || d.error_bound == 0.0,
                    "{}_{} {b:#x}: {d:?}",
                    function.name(),
                    format.name()
                );
                assert!(
                    d.ulps.abs() <= 0.5 + d.error_bound
                        || !format.is_finite_mag(format.mag(entry))
                        || format.is_nan(entry)
                        || format.mag(entry) == format.max_finite_bits()
                        // E8M0 has no zero: its smallest value takes every positive value
                        // below it, as a saturating format's largest takes those above.
                        || (!format.has_zero() && format.mag(entry) == 0),
                    "{}_{} {b:#x}: {d:?} for a finite entry {entry:#x}",
                    function.name(),
                    format.name()
                );
            }
        }
    }

    /// Every (function, format, input) is settled without a panic, and the number
    /// of hard cases is printed (`cargo test -p actlut-core -- --nocapture`).
    #[test]
    fn every_input_of_every_table_is_settled() {
        for (function, format) in table_pairs() {
            {
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
