//! `(x/2)·(1 + tanh(√(2/π)·(x + 0.044715·x³)))`, the tanh approximation of GELU
//! (itself evaluated exactly; 0.044715 is the exact decimal).

use super::{Facts, Slopes, Value};
use crate::math::logistic_pair;
use crate::round::{Bounded, ABS, REL};
use core::cmp::Ordering;

/// √(2/π), correctly rounded.
const SQRT_2_OVER_PI: f64 = 0.797_884_560_802_865_4;
/// The cubic coefficient.
const C: f64 = 0.044715;

/// `u = √(2/π)·(x + 0.044715·x³)`.
fn u(x: f64) -> f64 {
    SQRT_2_OVER_PI * (x + C * x * x * x)
}

pub(super) const FACTS: Facts = Facts {
    definition: "(x/2)*(1 + tanh(sqrt(2/pi)*(x + 0.044715*x^3)))",
    constants: &[],
    check: None,
    at_zero: [Value::Exact(-0.0), Value::Exact(0.0)],
    at_inf: [Value::Exact(-0.0), Value::Exact(f64::INFINITY)],
    // (x/2)(1 + tanh u) = x / (1 + e^(−2u)): no cancellation on either side.
    eval: |x, _| Some(Bounded::evaluated(x / (1.0 + libm::exp(-2.0 * u(x))))),
    // x/2 exact plus (x/2)·tanh u: settles the ties of tiny x, as for gelu.
    refined: Some(|x, _| {
        let half = 0.5 * x;
        Bounded::exact_plus(half, half * libm::tanh(u(x)))
    }),
    exact: None,
    side_of_input: [None, Some(Ordering::Less)],
    pinned: None,
    // The maximum near x = 1.4185.
    slopes: Some(Slopes {
        sup_abs: 1.128_993_1,
        asymptotic_slopes: (0.0, 1.0),
    }),
};

/// `gelu_tanh'(x) = (1 + tanh u)/2 + (x/2)·sech²(u)·u'`, `u' = √(2/π)·(1 + 3·0.044715·x²)`,
/// evaluated as `s·(1 + 2x·u'·t)` with `(s, t) = (σ(2u), σ(−2u))` (so `(1 + tanh u)/2 = s` and
/// `sech² u = 4st`), neither cancelling ([`logistic_pair`]).
///
/// The bracket is negative below the root (x ≈ −0.75), where it cancels; its rounding error
/// is relative to `1 + |2x·u'·t|`, so the bound holds through the cancellation, and the product
/// with `s` keeps the sign of the exact value where `s` underflows (`0·B = −0`).
///
/// Errors:
/// - the roundings (the pair, `u'`, the products, the sum: below 16 in all) within
///   `REL·s·(1 + |w|)`, `w = 2x·u'·t`;
/// - the argument: `u` carries a relative error below 2^-50 (at most six roundings of terms of
///   one sign, the two constants included; `x³` is exact for f16 and bf16). At fixed `x`,
///   `∂f'/∂u = 2st + 4x·u'·st·(t − s)`, of magnitude at most `2s·(t + |w|)`: the term
///   `2^-48·|u|·s·(t + |w|)` bounds the change with room while `s·t` is a normal `f64`
///   (`|u| < 354`, an interval of `u` shorter than 2^-41 over which those factors change by
///   less than `1 + 2^-40`); beyond, `f'` lies within 10^-300 of 0 (x < 0) or 1 (x > 0) at
///   both arguments and so does the evaluation ([`ABS`]: where `s` is an `f64` subnormal
///   `|w| < 2^12`).
fn derivative(x: f64) -> Bounded {
    let u = u(x);
    let (s, t) = logistic_pair(2.0 * u);
    let du = SQRT_2_OVER_PI * (1.0 + 3.0 * C * (x * x));
    // t = 0 only for 2u > 745: the term is then below 10^-300 (and x·u' may overflow).
    let w = if t == 0.0 { 0.0 } else { 2.0 * x * du * t };
    let v = s * (1.0 + w);
    let wa = w.abs();
    Bounded {
        hi: v,
        lo: 0.0,
        err: REL * s * (1.0 + wa) + libm::scalbn(u.abs() * s * (t + wa), -48) + ABS,
    }
}

/// The derivative: 1/2 at ±0, 1 at +inf, and −0 at −inf (the limit 0 from below).
pub(super) const DERIVATIVE: Facts = Facts {
    definition: "(1 + tanh(u))/2 + (x/2)*sech(u)^2*u', u = sqrt(2/pi)*(x + 0.044715*x^3)",
    constants: &[],
    check: None,
    at_zero: [Value::Exact(0.5), Value::Exact(0.5)],
    at_inf: [Value::Exact(-0.0), Value::Exact(1.0)],
    eval: |x, _| Some(derivative(x)),
    refined: None,
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    slopes: None,
};
