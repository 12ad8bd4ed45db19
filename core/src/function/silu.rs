//! `x·sigmoid(x)` (swish with β = 1).

use super::{Facts, Slopes, Value};
use crate::math::silu_derivative;
use crate::round::{two_sum, Bounded, ABS};
use core::cmp::Ordering;

pub(super) const FACTS: Facts = Facts {
    definition: "x*sigmoid(x)",
    constants: &[],
    check: None,
    at_zero: [Value::Exact(-0.0), Value::Exact(0.0)],
    at_inf: [Value::Exact(-0.0), Value::Exact(f64::INFINITY)],
    eval: |x, _| Some(Bounded::evaluated(x / (1.0 + libm::exp(-x)))),
    // x·sigmoid(x) = x/2 + (x/2)·tanh(x/2), x/2 exact: settles the ties of tiny x.
    refined: Some(|x, _| {
        let half = 0.5 * x;
        Bounded::exact_plus(half, half * libm::tanh(half))
    }),
    exact: None,
    side_of_input: [None, Some(Ordering::Less)],
    pinned: None,
    // The maximum near x = 2.3994.
    slopes: Some(Slopes {
        sup_abs: 1.099_839_4,
        asymptotic_slopes: (0.0, 1.0),
    }),
};

/// `silu'` near 0, where `1/2 + x/2` can be an exact `f32` midpoint while the exact value lies
/// just off it (x = 2^-24: `1/2 + 2^-25 − 2^-73.6`): the series
/// `1/2 + x/2 − x³/12 + x⁵/80 − 17x⁷/10080 + …` with `1/2 + x/2` carried exactly by TwoSum,
/// for `|x| < 2^-10`; beyond, the plain form (where `x³/12` is too large for `1/2 + x/2` to come
/// within 2^-40 of an `f32` midpoint).
pub(super) fn derivative_near_zero(x: f64) -> Bounded {
    if x.abs() >= 1.0 / 1024.0 {
        return silu_derivative(x, 0.0);
    }
    let (s, t) = two_sum(0.5, 0.5 * x);
    let x2 = x * x;
    let c = x * x2 * (-1.0 / 12.0 + x2 / 80.0);
    // Series truncation (alternating, decreasing terms: below the first omitted one,
    // 17|x|⁷/10080), the rounding of c (a few ulps), and of t + c.
    let trunc = 17.0 / 10080.0 * (x2 * x2 * x2 * x.abs());
    let lo = t + c;
    Bounded {
        hi: s,
        lo,
        err: trunc + (c.abs() + lo.abs()) * 8.0 * f64::EPSILON + ABS,
    }
}

/// The derivative `σ(x)·(1 + x·σ(−x))` (its evaluation and bound: [`silu_derivative`], with an
/// exact argument): 1/2 at ±0, 1 at +inf, −0 at −inf (the limit 0 from below: negative below
/// x ≈ −1.2785, silu's minimum).
pub(super) const DERIVATIVE: Facts = Facts {
    definition: "sigmoid(x)*(1 + x*sigmoid(-x))",
    constants: &[],
    check: None,
    at_zero: [Value::Exact(0.5), Value::Exact(0.5)],
    at_inf: [Value::Exact(-0.0), Value::Exact(1.0)],
    eval: |x, _| Some(silu_derivative(x, 0.0)),
    refined: Some(|x, _| derivative_near_zero(x)),
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    slopes: None,
};
