//! `√softplus(x) = √ln(1 + e^x)`: the router score of DeepSeek-V4 (transformers'
//! `sqrtsoftplus`). Positive everywhere; the limits are +0 and +inf; both zeros give `√ln 2`.

use super::{Facts, Value};
use crate::math::{keep_positive, logistic_pair, softplus};
use crate::round::Bounded;
use core::cmp::Ordering;

/// `√(ln 2)`, rounded to `f64`.
const SQRT_LN_2: f64 = 0.832_554_611_157_697_7;

/// `√softplus(x)`: softplus within the default bound (its own file's argument), the square
/// root halving that relative error and adding one rounding. For `x < −40`, `softplus(x) =
/// e^x·(1 − e^x/2 + …)` and the value is `e^(x/2)·(1 − e^x/4 + …)`, within 10^-18 of
/// `e^(x/2)`, which is evaluated directly (softplus itself would underflow past −745 while
/// the value, about `e^(x/2)`, is still a normal `f64`).
fn eval(x: f64) -> Bounded {
    Bounded::evaluated(if x < -40.0 {
        libm::exp(0.5 * x)
    } else {
        libm::sqrt(crate::math::softplus(x))
    })
}

pub(super) const FACTS: Facts = Facts {
    definition: "sqrt(ln(1 + e^x))",
    constants: &[],
    check: None,
    at_zero: [Value::Evaluated(SQRT_LN_2), Value::Evaluated(SQRT_LN_2)],
    at_inf: [Value::Exact(0.0), Value::Exact(f64::INFINITY)],
    eval: |x, _| Some(eval(x)),
    refined: None,
    exact: None,
    side_of_input: [None, None],
    // Above √x for x > 0 (softplus(x) > x), approaching it: settles an f32 input whose exact
    // square root is a rounding boundary of the output.
    pinned: Some(|x, _| {
        if x <= 0.0 {
            return None;
        }
        let r = libm::sqrt(x);
        (libm::fma(r, r, -x) == 0.0).then_some((r, Ordering::Greater))
    }),
    // f' = sigmoid(x)/(2·√softplus(x)) is bounded (its maximum 0.31908634… at x = 0.92142),
    // but the function grows like √x: it has no linear asymptote at +inf, which `approx`'s
    // tails need.
    slopes: None,
};

/// `sqrtsoftplus'(x) = σ(x)/(2·√softplus(x))`: σ within 2^-50 ([`logistic_pair`]), softplus
/// (log1p of exp, relative condition at most 1) within a few ulps, the square root halving its
/// error, the quotient one rounding more: within [`REL`]. Below −40, where σ and softplus
/// underflow together far below, the value is `e^(x/2)/2·(1 − 3e^x/4 + …)` (relative rest below
/// 2^-56): `e^(x/2)/2` itself, within the bound. Positive everywhere.
fn derivative(x: f64) -> Bounded {
    if x < -40.0 {
        return keep_positive(Bounded::evaluated(0.5 * libm::exp(0.5 * x)));
    }
    let (s, _) = logistic_pair(x);
    keep_positive(Bounded::evaluated(s / (2.0 * libm::sqrt(softplus(x)))))
}

/// The derivative: `1/(4·√ln 2)` at ±0, +0 at ±inf (from above at both ends).
pub(super) const DERIVATIVE: Facts = Facts {
    definition: "sigmoid(x)/(2*sqrt(softplus(x)))",
    constants: &[],
    check: None,
    at_zero: [
        Value::Evaluated(0.25 / SQRT_LN_2),
        Value::Evaluated(0.25 / SQRT_LN_2),
    ],
    at_inf: [Value::Exact(0.0), Value::Exact(0.0)],
    eval: |x, _| Some(derivative(x)),
    refined: None,
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    slopes: None,
};
