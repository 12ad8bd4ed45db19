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
//! bound, its refined evaluation for hard cases, `sup|f'|` and its asymptotic slopes (for the
//! runtime's `approx`), and the same facts for its derivative `f'`, which is a function of its
//! own (an [`Op`] with [`Op::with_derivative`], docs/SEMANTICS.md "Derivatives"). One
//! `macro_rules!` list in `core/src/function/mod.rs`, one line per function in the order of
//! the lock file, expands into the [`Function`] enum, [`Function::ALL`] and the dispatch, so a
//! new function is a new file and a new line; that module's doc says what a file holds.
//! Evaluation follows one sequence for tables, [`eval_f32`], the derivatives and the quantized
//! pipeline: the special value or the plain evaluation, rounded when no rounding boundary lies
//! within its bound, otherwise the refined evaluation, rounded likewise, otherwise unsettled.
//!
//! # Derivatives
//!
//! The derivative of an op is the op with the derivative flag, evaluated by the same entry
//! points: [`eval_op`], [`fill_table`], [`eval_op_f32`], [`evaluate`]; its constants are the
//! op's (`leaky_relu'` is `alpha` below 0).
//!
//! ```
//! use actlut_core::{eval_op, fill_table, Format, Function, Op};
//! let gelu_derivative = Op::from(Function::Gelu).with_derivative(true);
//! assert_eq!(eval_op(&gelu_derivative, Format::F16, 0x0000)?, 0x3800); // gelu'(0) = 1/2
//! let op: Op = "leaky_relu_derivative(alpha=0.2)".parse()?;
//! let mut t = [0u8; 256];
//! fill_table(&op, Format::Fp8E4M3, &mut t)?;
//! assert_eq!((t[0xB8], t[0x38]), (0x25, 0x38)); // 0.203125 (0.2 rounded) below 0, 1 above
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [actlut]: https://docs.rs/actlut
#![no_std]
#![deny(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(test)]
extern crate std;

pub mod compact;
mod derivative;
mod exact;
mod format;
mod function;
mod math;
pub mod names;
mod op;
pub mod quant;
mod rational;
pub mod record;
mod round;
mod settle;
pub mod spline;

pub use derivative::derivative_table_pairs;
pub use format::Format;
pub use function::{Constant, Domain, Function};
pub use op::{Op, OpError, Text, MAX_CONSTANTS};
pub use rational::{Rational, RationalError};

use function::Facts;
use settle::{settle, IntoF32, IntoFormat, Outcome, WithValue};

/// How [`eval_traced`] arrived at a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// NaN, ±inf or ±0 input: the value is fixed by docs/SEMANTICS.md.
    Special,
    /// The plain `f64` evaluation was far enough from every rounding boundary.
    Direct,
    /// A hard case: the plain evaluation lay within its error bound of a rounding
    /// boundary, and the refined evaluation settled it (or the exact rational value, or the
    /// known side of a point the value approaches beyond any precision).
    Refined,
}

/// Why an op cannot be evaluated at an input, or into a table. It names the function (the
/// caller holds the op and its constants) and, for an input, the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EvalError {
    /// Neither evaluation could settle the rounding of this input: its exact value lies
    /// within the evaluation's error bound (2^-40 relative) of a rounding boundary, and it is
    /// not a rational the exact arithmetic decides. Not known for any built-in table (the
    /// tests evaluate every one); possible for an op whose constant lies that close to a
    /// boundary itself.
    Unsettled {
        /// The op's function.
        function: Function,
        /// Whether the op is the function's derivative.
        derivative: bool,
        /// The table format.
        format: Format,
        /// The input bit pattern.
        bits: u16,
    },
    /// There is no table of this function (or derivative) over this format: it is NaN for
    /// some inputs, and the format has no NaN (log and rsqrt and their derivatives over FP6
    /// and FP4; [`Format::can_represent_op`]).
    NoTable {
        /// The function.
        function: Function,
        /// Whether the op is the function's derivative.
        derivative: bool,
        /// The format.
        format: Format,
    },
    /// A table buffer whose length is not the format's number of entries, or whose entries
    /// are too narrow for its values (`u8` for a 16-bit format).
    Buffer {
        /// The format.
        format: Format,
        /// The buffer's length.
        len: usize,
        /// The bytes of one of its entries.
        entry_bytes: usize,
    },
}

impl core::fmt::Display for EvalError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            EvalError::Unsettled {
                function,
                derivative,
                format,
                bits,
            } => write!(
                f,
                "cannot settle the rounding of {}{} over {} at input {bits:#06x} ({:e}): with \
                 these constants its value lies within 2^-40 of a rounding boundary of the format",
                function.name(),
                suffix(derivative),
                format.name(),
                format.decode(bits),
            ),
            EvalError::NoTable {
                function,
                derivative,
                format,
            } => write!(
                f,
                "there is no {0}{1}_{2} table: {0}{1} is NaN for some inputs and {2} has no NaN",
                function.name(),
                suffix(derivative),
                format.name()
            ),
            EvalError::Buffer {
                format,
                len,
                entry_bytes,
            } => write!(
                f,
                "a {} table has {} entries of {} byte(s); the buffer has {len} of {entry_bytes}",
                format.name(),
                format.entries(),
                format.entry_bytes()
            ),
        }
    }
}

impl core::error::Error for EvalError {}

/// `_derivative` for a derivative, as in its name.
fn suffix(derivative: bool) -> &'static str {
    if derivative {
        "_derivative"
    } else {
        ""
    }
}

/// The facts `op` is evaluated with: its function's, or (a derivative) its derivative's. The
/// one place that decides which.
fn facts_of(op: &Op) -> &'static Facts {
    if op.is_derivative() {
        op.function().derivative_facts()
    } else {
        op.function().facts()
    }
}

/// [`EvalError::NoTable`] when `format` cannot represent `op`.
fn check_table(op: &Op, format: Format) -> Result<(), EvalError> {
    if format.can_represent_op(op) {
        Ok(())
    } else {
        Err(EvalError::NoTable {
            function: op.function(),
            derivative: op.is_derivative(),
            format,
        })
    }
}

/// The correctly rounded output bits of `function` (at its default constants) at the input
/// bits `bits` in `format` (for formats narrower than 16 bits only the low bits of `bits`
/// are used, [`Format::code_mask`], and the result fits in those bits).
///
/// # Panics
///
/// If the function has a constant without default (use [`eval_op`]); if the format cannot
/// represent the function ([`Format::can_represent`]: log and rsqrt over FP6 and FP4). If
/// neither the plain nor the refined evaluation can settle the rounding. This does not
/// happen for any (function, format, input) of this crate: the tests evaluate every one of
/// them.
pub fn eval(function: Function, format: Format, bits: u16) -> u16 {
    eval_traced(function, format, bits).0
}

/// [`eval`], and which [`Path`] settled the result.
pub fn eval_traced(function: Function, format: Format, bits: u16) -> (u16, Path) {
    eval_op_traced(&Op::from(function), format, bits).unwrap_or_else(|e| panic!("actlut-core: {e}"))
}

/// The correctly rounded output bits of `op` at the input bits `bits` in `format`: [`eval`]
/// for an op, with its constants.
///
/// ```
/// use actlut_core::{eval_op, Format, Op};
/// let op: Op = "softcap(cap=30)".parse()?;
/// // softcap(30) of 45 in bf16 (0x4234): 30·tanh(1.5) = 27.15…, rounded to bf16.
/// assert_eq!(eval_op(&op, Format::Bf16, 0x4234)?, 0x41D9);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// [`EvalError::Unsettled`] naming the input when no evaluation settles its rounding,
/// [`EvalError::NoTable`] when the format cannot represent the op
/// ([`Format::can_represent_op`]).
pub fn eval_op(op: &Op, format: Format, bits: u16) -> Result<u16, EvalError> {
    eval_op_traced(op, format, bits).map(|(r, _)| r)
}

/// [`eval_op`], and which [`Path`] settled the result.
///
/// # Errors
///
/// As [`eval_op`].
pub fn eval_op_traced(op: &Op, format: Format, bits: u16) -> Result<(u16, Path), EvalError> {
    check_table(op, format)?;
    eval_with(facts_of(op), op, format, bits)
}

/// The entry `bits` of the table of `op` (whose facts are `facts`) over `format`.
fn eval_with(facts: &Facts, op: &Op, format: Format, bits: u16) -> Result<(u16, Path), EvalError> {
    let bits = bits & format.code_mask();
    if format.is_nan(bits) {
        return Ok((format.quiet_nan(bits), Path::Special));
    }
    let x = format.decode(bits);
    match settle(facts, op.args(), x, &IntoFormat(format)) {
        Outcome::Settled(r, path) => Ok((r, path)),
        Outcome::DefaultNan => Ok((format.default_nan_bits(), Path::Special)),
        Outcome::Unsettled(_) => Err(EvalError::Unsettled {
            function: op.function(),
            derivative: op.is_derivative(),
            format,
            bits,
        }),
    }
}

/// The entry type of a table buffer: `u16` (any format) or `u8` (formats of at most 8 bits).
pub trait TableEntry: Copy + sealed::Sealed {
    /// Bytes of one entry.
    const BYTES: usize;
    /// The entry holding the output bits `bits` (which fit it).
    fn from_bits(bits: u16) -> Self;
}

impl TableEntry for u16 {
    const BYTES: usize = 2;
    fn from_bits(bits: u16) -> u16 {
        bits
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
/// As [`eval`]: if a constant of the function has no default, if the format cannot represent
/// the function, or if the rounding cannot be settled (which no table input does).
pub fn midpoint_distance(
    function: Function,
    format: Format,
    bits: u16,
) -> Option<MidpointDistance> {
    let op = Op::from(function);
    if !format.can_represent(function) {
        panic!(
            "actlut-core: {}",
            EvalError::NoTable {
                function,
                derivative: false,
                format
            }
        );
    }
    let bits = bits & format.code_mask();
    if format.is_nan(bits) {
        return None;
    }
    let x = format.decode(bits);
    match settle(function.facts(), op.args(), x, &WithValue(format)) {
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

/// [`midpoint_distance`] of an [`Op`]: a function with its constants (or, once this build
/// evaluates derivatives, a derivative), through the evaluation that settles the op's table
/// entry ([`eval_op`]). What the grader reports beside a wrong entry of a table filled at run
/// time ([`fill_table`]).
///
/// ```
/// use actlut_core::{midpoint_distance_op, Format, Op};
/// let op: Op = "softcap(cap=30)".parse()?;
/// // softcap(0) = 0 exactly, a value of f16: half an ulp below the midpoint above it.
/// let d = midpoint_distance_op(&op, Format::F16, 0x0000)?.unwrap();
/// assert_eq!((d.ulps, d.error_bound), (-0.5, 0.0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// As [`eval_op`]: a derivative this build does not evaluate, a format that cannot represent
/// the function, an input whose rounding cannot be settled.
pub fn midpoint_distance_op(
    op: &Op,
    format: Format,
    bits: u16,
) -> Result<Option<MidpointDistance>, EvalError> {
    let facts = facts_of(op);
    let function = op.function();
    check_table(op, format)?;
    let bits = bits & format.code_mask();
    if format.is_nan(bits) {
        return Ok(None);
    }
    let x = format.decode(bits);
    match settle(facts, op.args(), x, &WithValue(format)) {
        Outcome::Settled((_, r), _) if !format.is_signed() && format.is_nan(r) => Ok(None),
        Outcome::Settled((v, _), path) => {
            let (ulps, error_bound) = round::midpoint_distance(format, v);
            Ok(Some(MidpointDistance {
                ulps,
                error_bound,
                path,
            }))
        }
        Outcome::DefaultNan => Ok(None),
        Outcome::Unsettled(_) => Err(EvalError::Unsettled {
            function,
            derivative: op.is_derivative(),
            format,
            bits,
        }),
    }
}

impl TableEntry for u8 {
    const BYTES: usize = 1;
    fn from_bits(bits: u16) -> u8 {
        bits as u8
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for u16 {}
    impl Sealed for u8 {}
}

/// Fills `out` with the table of `op` over `format`: entry `i` is
/// [`eval_op`]`(op, format, i)`. No heap; `out` is a `[u16; 65536]` for a 16-bit format, a
/// `[u8; 256]` (or `[u16; 256]`) for an 8-bit one, 64 or 16 entries for FP6 and FP4.
///
/// ```
/// use actlut_core::{fill_table, Format, Op};
/// let op: Op = "leaky_relu(alpha=0.2)".parse()?;
/// let mut t = [0u8; 256];
/// fill_table(&op, Format::Fp8E4M3, &mut t)?;
/// assert_eq!(t[0xB8], 0xA5); // −1 → −0.2, rounded to E4M3 (−0.203125)
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// [`EvalError::Buffer`] when `out` is not `format.entries()` long or its entries are too
/// narrow; otherwise as [`eval_op`], for the first input that fails (`out` is then partly
/// written).
pub fn fill_table<E: TableEntry>(op: &Op, format: Format, out: &mut [E]) -> Result<(), EvalError> {
    if out.len() != format.entries() || E::BYTES < format.entry_bytes() {
        return Err(EvalError::Buffer {
            format,
            len: out.len(),
            entry_bytes: E::BYTES,
        });
    }
    check_table(op, format)?;
    let facts = facts_of(op);
    for (i, o) in out.iter_mut().enumerate() {
        *o = E::from_bits(eval_with(facts, op, format, i as u16)?.0);
    }
    Ok(())
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

/// The plain reference evaluation of `op` (an [`Op`], or a [`Function`] at its default
/// constants) at a non-NaN `x`: at ±0 and ±inf the value or
/// limit of docs/SEMANTICS.md (a limit that is a constant, as softcap's ±cap, rounded to the
/// nearest `f64` with its error bound), elsewhere the `f64` evaluation. `None` where the
/// result is the default NaN (log or rsqrt of a negative `x`, or of −inf; their derivatives
/// likewise) or `x` is NaN. A derivative op evaluates the derivative.
///
/// ```
/// use actlut_core::{evaluate, Function, Op};
/// assert_eq!(evaluate(Function::Sigmoid, 0.0).map(|e| e.hi), Some(0.5));
/// assert_eq!(evaluate(Function::Log, -1.0), None);
/// let softcap: Op = "softcap(cap=30)".parse().unwrap();
/// assert_eq!(evaluate(softcap, f64::INFINITY).map(|e| e.hi), Some(30.0));
/// ```
///
/// # Panics
///
/// For a function with a constant without default (the conversion to an [`Op`]).
pub fn evaluate(op: impl Into<Op>, x: f64) -> Option<Evaluation> {
    let op = &op.into();
    let facts = facts_of(op);
    if x.is_nan() {
        return None;
    }
    if x.is_infinite() || x == 0.0 {
        return match facts.special(op.args(), x.is_sign_negative(), x == 0.0) {
            function::Special::Value(v) => Some(v.into()),
            function::Special::Rational(r) => Some(function::Const::of(r).bounded().into()),
            function::Special::DefaultNan => None,
        };
    }
    (facts.eval)(x, op.args()).map(Evaluation::from)
}

/// The refined evaluation used for hard cases, or `None` for functions without
/// one (their plain evaluation settles every input).
///
/// # Panics
///
/// As [`evaluate`].
pub fn evaluate_refined(op: impl Into<Op>, x: f64) -> Option<Evaluation> {
    let op = &op.into();
    let facts = facts_of(op);
    facts.eval_refined(x, op.args()).map(Evaluation::from)
}

/// `function` (at its default constants) at an `f32` input, rounded once to `f32`.
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
///
/// # Panics
///
/// If the function has a constant without default (use [`eval_op_f32`]).
pub fn eval_f32(function: Function, x: f32) -> f32 {
    if x.is_nan() {
        return f32::from_bits(x.to_bits() | 0x0040_0000);
    }
    eval_value_f32(function, f64::from(x))
}

/// `op` at an `f32` input, rounded once to `f32`: [`eval_f32`] for an op, with its constants
/// (a derivative op: its derivative).
///
/// ```
/// use actlut_core::{eval_op_f32, Function, Op};
/// let op: Op = "leaky_relu(alpha=0.2)".parse()?;
/// assert_eq!(eval_op_f32(&op, -1.0), -0.2);
/// assert_eq!(eval_op_f32(&op.with_derivative(true), -1.0), 0.2);
/// assert_eq!(eval_op_f32(&Op::from(Function::Tanh).with_derivative(true), 0.0), 1.0);
/// assert!(eval_op_f32(&Op::from(Function::Log).with_derivative(true), -1.0).is_nan());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Accuracy
///
/// As [`eval_f32`]: within 0.5 ulp + 2^-40 (relative), and correctly rounded whenever the
/// evaluation settles the rounding (a rational value, as `alpha·x`, always is).
pub fn eval_op_f32(op: &Op, x: f32) -> f32 {
    if x.is_nan() {
        return f32::from_bits(x.to_bits() | 0x0040_0000);
    }
    eval_op_value_f32(op, f64::from(x))
}

/// `function` (at its default constants) at an exact `f64` input `x`, rounded once to `f32`:
/// [`eval_f32`] for inputs that need not be `f32` values, such as a dequantized block element
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
///
/// # Panics
///
/// If the function has a constant without default.
pub fn eval_value_f32(function: Function, xd: f64) -> f32 {
    eval_op_value_f32(&Op::from(function), xd)
}

/// [`eval_value_f32`] for an op (a derivative op: its derivative).
pub fn eval_op_value_f32(op: &Op, xd: f64) -> f32 {
    if xd.is_nan() {
        return f32::NAN;
    }
    match settle(facts_of(op), op.args(), xd, &IntoF32) {
        Outcome::Settled(r, _) => r,
        Outcome::DefaultNan => f32::NAN,
        Outcome::Unsettled(v) => (v.hi + v.lo) as f32,
    }
}

/// Every (function, format) pair that has a built-in table, in the lock's order: each format
/// of [`Format::ALL`], and within it each function of [`Function::ALL`] whose every constant
/// has a default ([`Function::has_defaults`]: softcap, prelu, gelu_clipped and xielu have no
/// built-in table) and that the format [can represent](Format::can_represent) (FP6 and FP4
/// have no log or rsqrt table: those are NaN below zero, and FP6 and FP4 have no NaN).
///
/// ```
/// use actlut_core::{table_pairs, Format, Function};
/// assert!(table_pairs().any(|p| p == (Function::Gelu, Format::Fp4E2M1)));
/// assert!(!table_pairs().any(|p| p == (Function::Log, Format::Fp4E2M1)));
/// assert!(!table_pairs().any(|p| p.0 == Function::Softcap));
/// ```
pub fn table_pairs() -> impl Iterator<Item = (Function, Format)> {
    Format::ALL.into_iter().flat_map(|format| {
        Function::ALL
            .into_iter()
            .filter(move |&f| f.has_defaults() && format.can_represent(f))
            .map(move |function| (function, format))
    })
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
    use std::string::ToString;

    #[test]
    #[should_panic(
        expected = "there is no log_fp6_e2m3 table: log is NaN for some inputs and fp6_e2m3 has no NaN"
    )]
    fn a_table_that_would_need_a_nan_is_refused() {
        eval(Function::Log, Format::Fp6E2M3, 0x2);
    }

    #[test]
    fn a_table_that_would_need_a_nan_is_an_error() {
        let mut out = [0u16; 64];
        let op = Op::from(Function::Log);
        assert_eq!(
            fill_table(&op, Format::Fp6E2M3, &mut out),
            Err(EvalError::NoTable {
                function: Function::Log,
                derivative: false,
                format: Format::Fp6E2M3
            })
        );
    }

    #[test]
    #[should_panic(expected = "there is no rsqrt_fp4_e2m1 table")]
    fn evaluating_a_pair_without_a_table_is_refused() {
        eval(Function::Rsqrt, Format::Fp4E2M1, 0x2);
    }

    #[test]
    fn a_buffer_of_the_wrong_shape_is_an_error() {
        let op = Op::from(Function::Gelu);
        let mut short = [0u16; 255];
        assert!(matches!(
            fill_table(&op, Format::Fp8E4M3, &mut short),
            Err(EvalError::Buffer { len: 255, .. })
        ));
        let mut narrow = [0u8; 65536];
        assert!(matches!(
            fill_table(&op, Format::F16, &mut narrow),
            Err(EvalError::Buffer { entry_bytes: 1, .. })
        ));
        let mut bytes = [0u8; 256];
        let mut words = [0u16; 256];
        fill_table(&op, Format::Fp8E5M2, &mut bytes).unwrap();
        fill_table(&op, Format::Fp8E5M2, &mut words).unwrap();
        assert!(bytes.iter().zip(&words).all(|(&b, &w)| u16::from(b) == w));
    }

    /// A derivative op goes through the same entry points; one NaN below zero has no table
    /// over a format without NaN, named as a derivative.
    #[test]
    fn a_derivative_is_evaluated_through_the_op() {
        let op = Op::from(Function::Gelu).with_derivative(true);
        assert_eq!(eval_op(&op, Format::F16, 0x0000), Ok(0x3800));
        assert_eq!(eval_op_f32(&op, 0.0), 0.5);
        let log = Op::from(Function::Log).with_derivative(true);
        let mut out = [0u8; 16];
        let e = fill_table(&log, Format::Fp4E2M1, &mut out).unwrap_err();
        assert_eq!(
            e,
            EvalError::NoTable {
                function: Function::Log,
                derivative: true,
                format: Format::Fp4E2M1
            }
        );
        assert!(e
            .to_string()
            .starts_with("there is no log_derivative_fp4_e2m1 table"));
    }

    /// The pairs with a built-in table: every format × function with defaults but log and
    /// rsqrt over FP6/FP4.
    #[test]
    fn table_pairs_lists_every_pair_with_a_table_in_lock_order() {
        let pairs: std::vec::Vec<_> = table_pairs().collect();
        let with_defaults = Function::ALL.iter().filter(|f| f.has_defaults()).count();
        assert_eq!(pairs.len(), Format::ALL.len() * with_defaults - 3 * 2);
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
