//! `x` for `x > 0`, else `alpha·x`; `alpha` any rational, 0.01 by default (PyTorch's
//! `LeakyReLU`, ONNX's `LeakyRelu`). The value is rational: `alpha·x` is rounded exactly, so an
//! exact tie is settled to even (over f16, 21 subnormal results of `alpha = 0.01` lie exactly
//! halfway between two values; the `f64` nearest 0.01 would push them off the tie).
//!
//! A zero input keeps its sign; for `x < 0`, `alpha = 0` gives −0 (the sign of `0·x`). The limit
//! at −inf is −inf for `alpha > 0`, +inf for `alpha < 0`, −0 for `alpha = 0`.

use super::common::{const_times, exact_times};
use super::{Args, Const, Constant, Slopes, Domain, Facts, Special, Value};
use crate::exact::Exact;
use crate::rational::Rational;
use crate::round::Bounded;

/// `x` for `x > 0`, `c·x` otherwise: `c_hi·x` and its exact rounding error, plus `c_lo·x`
/// (within 2^-52 of itself). Exact when `c` is an `f64` (the FMA carries the product).
pub(super) fn eval(x: f64, c: &Const) -> Bounded {
    if x > 0.0 {
        Bounded::exact(x)
    } else {
        const_times(c, x)
    }
}

/// The exact value: `x`, or the rational `c·x`.
pub(super) fn exact(x: f64, c: &Const) -> Option<Exact> {
    if x > 0.0 {
        Some(Exact::from_f64(x))
    } else {
        exact_times(c, x)
    }
}

/// The limit at −inf: −inf, +inf or −0 by the sign of `c`.
pub(super) fn at_minus_inf(c: &Const) -> Special {
    Special::Value(Bounded::exact(if c.value.is_positive() {
        f64::NEG_INFINITY
    } else if c.value.is_negative() {
        f64::INFINITY
    } else {
        -0.0
    }))
}

/// The index of `alpha` in the constants.
const ALPHA: usize = 0;

pub(super) const FACTS: Facts = Facts {
    definition: "x if x > 0 else alpha*x",
    constants: &[Constant {
        name: "alpha",
        default: Some(Rational::reduced(1, 100)),
        domain: Domain::Any,
        doc: "the slope of the negative side",
    }],
    check: None,
    at_zero: [Value::Exact(-0.0), Value::Exact(0.0)],
    at_inf: [
        Value::Of(|a: &Args| at_minus_inf(&a[ALPHA])),
        Value::Exact(f64::INFINITY),
    ],
    eval: |x, a| Some(eval(x, &a[ALPHA])),
    refined: None,
    exact: Some(|x, a| exact(x, &a[ALPHA])),
    side_of_input: [None, None],
    pinned: None,
    // At the default alpha = 0.01: slopes 0.01 and 1.
    slopes: Some(Slopes {
        sup_abs: 1.0,
        asymptotic_slopes: (0.01, 1.0),
    }),
};

/// The derivative: 1 for `x > 0`, `alpha` for `x ≤ 0`, rounded exactly (a constant). At the
/// kink 0 it is the limit from the left, `alpha` (+0 for `alpha = 0`); `alpha` at −inf, 1 at
/// +inf.
pub(super) fn derivative(x: f64, c: &Const) -> Bounded {
    if x > 0.0 {
        Bounded::exact(1.0)
    } else {
        c.bounded()
    }
}

/// The derivative's exact value: 1 or `alpha`.
pub(super) fn derivative_exact(x: f64, c: &Const) -> Option<Exact> {
    Some(if x > 0.0 {
        Exact::from_f64(1.0)
    } else {
        c.exact()
    })
}

pub(super) const DERIVATIVE: Facts = Facts {
    definition: "1 if x > 0 else alpha",
    constants: FACTS.constants,
    check: None,
    at_zero: [
        Value::Of(|a: &Args| Special::Rational(a[ALPHA].value)),
        Value::Of(|a: &Args| Special::Rational(a[ALPHA].value)),
    ],
    at_inf: [
        Value::Of(|a: &Args| Special::Rational(a[ALPHA].value)),
        Value::Exact(1.0),
    ],
    eval: |x, a| Some(derivative(x, &a[ALPHA])),
    refined: None,
    exact: Some(|x, a| derivative_exact(x, &a[ALPHA])),
    side_of_input: [None, None],
    pinned: None,
    slopes: None,
};
