//! `1/(1 + e^−x)`.

use super::{Facts, Slopes, Value};
use crate::math::keep_positive;
use crate::round::{two_sum, Bounded, ABS};

pub(super) fn plain(x: f64) -> Bounded {
    Bounded::evaluated(1.0 / (1.0 + libm::exp(-x)))
}

/// sigmoid near 0, where `1/2 + x/4` can be an exact `f32` midpoint while the true value lies
/// just below (x > 0) or above it: the series `1/2 + x/4 − x³/48 + x⁵/480 − 17x⁷/80640 + …`
/// with `1/2 + x/4` carried exactly by TwoSum. Up to |x| = 1, `1/2 + tanh(x/2)/2` with 1/2
/// exact; beyond, the plain form.
pub(super) fn refined(x: f64) -> Bounded {
    const SMALL: f64 = 1.0 / 1024.0;
    if x.abs() >= 1.0 {
        // Far from 1/2 the tanh form would cancel; the plain form is as good.
        return plain(x);
    }
    if x.abs() >= SMALL {
        return Bounded::exact_plus(0.5, 0.5 * libm::tanh(0.5 * x));
    }
    let (s, t) = two_sum(0.5, 0.25 * x);
    let x2 = x * x;
    let c = x * x2 * (-1.0 / 48.0 + x2 / 480.0);
    // Series truncation (alternating, decreasing terms: below the first omitted one,
    // 17|x|⁷/80640), the rounding of c (a few ulps), and of t + c.
    let trunc = 17.0 / 80640.0 * (x2 * x2 * x2 * x.abs());
    let lo = t + c;
    Bounded {
        hi: s,
        lo,
        err: trunc + (c.abs() + lo.abs()) * 8.0 * f64::EPSILON + ABS,
    }
}

pub(super) const FACTS: Facts = Facts {
    definition: "1/(1 + e^-x)",
    constants: &[],
    check: None,
    at_zero: [Value::Exact(0.5), Value::Exact(0.5)],
    at_inf: [Value::Exact(0.0), Value::Exact(1.0)],
    eval: |x, _| Some(plain(x)),
    refined: Some(|x, _| refined(x)),
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    // At 0.
    slopes: Some(Slopes {
        sup_abs: 0.25,
        asymptotic_slopes: (0.0, 0.0),
    }),
};

/// `sigmoid'(x) = σ(x)·σ(−x) = E/(1 + E)²` with `E = e^−|x|` (its argument exact): an even
/// function, positive everywhere, without cancellation. libm's `exp` and the three roundings
/// stay far within [`REL`]; where `E` is an `f64` subnormal or 0 (`|x| > 708`) the value is
/// below 10^-307 and [`ABS`] covers the absolute error.
pub(super) fn derivative(x: f64) -> Bounded {
    let e = libm::exp(-x.abs());
    let d = 1.0 + e;
    keep_positive(Bounded::evaluated(e / (d * d)))
}

/// The derivative `σ(x)·σ(−x)`: 1/4 at ±0, +0 at ±inf.
pub(super) const DERIVATIVE: Facts = Facts {
    definition: "sigmoid(x)*sigmoid(-x)",
    constants: &[],
    check: None,
    at_zero: [Value::Exact(0.25), Value::Exact(0.25)],
    at_inf: [Value::Exact(0.0), Value::Exact(0.0)],
    eval: |x, _| Some(derivative(x)),
    refined: None,
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    slopes: None,
};
