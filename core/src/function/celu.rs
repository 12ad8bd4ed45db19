//! `x` for `x > 0`, else `alpha·(e^(x/alpha) − 1)`; `alpha` > 0, 1 by default (PyTorch's
//! `CELU`, ONNX's `Celu`). At the default it equals elu. The limit at −inf is −alpha; a zero
//! input keeps its sign.

use super::elu::expm1_minus_x;
use super::{Args, Constant, Slopes, Domain, Facts, Special, Value};
use crate::rational::Rational;
use crate::math::keep_positive;
use crate::round::{Bounded, ABS};
use core::cmp::Ordering;

/// The index of `alpha` in the constants.
const ALPHA: usize = 0;

pub(super) const FACTS: Facts = Facts {
    definition: "x if x > 0 else alpha*(e^(x/alpha) - 1)",
    constants: &[Constant {
        name: "alpha",
        default: Some(Rational::ONE),
        domain: Domain::Positive,
        doc: "the scale of the negative side, whose limit at -inf is -alpha",
    }],
    check: None,
    at_zero: [Value::Exact(-0.0), Value::Exact(0.0)],
    at_inf: [
        Value::Of(|a: &Args| Special::Rational(a[ALPHA].value.neg())),
        Value::Exact(f64::INFINITY),
    ],
    // t = x/alpha_hi carries 2^-52 relative (the quotient, and alpha's own rounding); expm1's
    // relative condition t·e^t/(e^t − 1) is at most 1 for t < 0, so the result carries that
    // plus libm's ulp and one product: far within the default bound.
    eval: |x, a| {
        Some(if x > 0.0 {
            Bounded::exact(x)
        } else {
            let c = a[ALPHA].hi;
            Bounded::evaluated(c * libm::expm1(x / c))
        })
    },
    // x exact plus alpha·(e^t − 1 − t), t = x/alpha (t's relative error 2^-52 doubles in the
    // square of the series' leading t²/2): for tiny x the value lies just above x, which an
    // f32 input of a quantized table can make a midpoint.
    refined: Some(|x, a| {
        if x > 0.0 {
            return Bounded::exact(x);
        }
        let c = a[ALPHA].hi;
        let lo = c * expm1_minus_x(x / c);
        Bounded::exact_plus(x, lo).max_err(lo.abs() * libm::scalbn(1.0, -42) + ABS)
    }),
    exact: None,
    // x + alpha·(e^t − 1 − t) > x for x < 0.
    side_of_input: [Some(Ordering::Greater), None],
    // Above −alpha for x < 0, approaching it as x → −inf.
    pinned: Some(|x, a| (x < 0.0 && a[ALPHA].is_f64()).then(|| (-a[ALPHA].hi, Ordering::Greater))),
    // At the default alpha = 1 (elu).
    slopes: Some(Slopes {
        sup_abs: 1.0,
        asymptotic_slopes: (0.0, 1.0),
    }),
};

/// `e^t` with `t = x/alpha_hi` (2^-52 relative: the quotient and alpha's rounding), for `x ≤ 0`:
/// the argument's error moves the value by `|t|·2^-52` of itself, below 2^-42 where `e^t` is a
/// normal `f64` (`|t| < 708`), plus libm's ulp: within [`REL`]. Where `e^t` underflows the
/// absolute floor covers it (and the value keeps its sign: `keep_positive`).
fn derivative(x: f64, alpha: f64) -> Bounded {
    keep_positive(Bounded::evaluated(libm::exp(x / alpha)))
}

/// For `−1/2 < t ≤ 0`: 1 exact plus `expm1(t)` (relative condition at most 1, so within a few
/// 2^-53 of itself): settles the `f32` inputs near 0 where `e^t` lies within 2^-40 of a
/// midpoint just below 1.
fn derivative_refined(x: f64, alpha: f64) -> Bounded {
    let t = x / alpha;
    if t > -0.5 {
        Bounded::exact_plus(1.0, libm::expm1(t))
    } else {
        derivative(x, alpha)
    }
}

/// The derivative: 1 for `x > 0`, `e^(x/alpha)` for `x ≤ 0`. At the kink 0 it is the limit from
/// the left, `e^0 = 1` (equal to the right one for every alpha); +0 at −inf, 1 at +inf.
pub(super) const DERIVATIVE: Facts = Facts {
    definition: "1 if x > 0 else e^(x/alpha)",
    constants: FACTS.constants,
    check: None,
    at_zero: [Value::Exact(1.0), Value::Exact(1.0)],
    at_inf: [Value::Exact(0.0), Value::Exact(1.0)],
    eval: |x, a| {
        Some(if x > 0.0 {
            Bounded::exact(1.0)
        } else {
            derivative(x, a[ALPHA].hi)
        })
    },
    refined: Some(|x, a| {
        if x > 0.0 {
            Bounded::exact(1.0)
        } else {
            derivative_refined(x, a[ALPHA].hi)
        }
    }),
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    slopes: None,
};
