//! `tanh x`.

use super::{Facts, Slopes, Value};
use crate::math::keep_positive;
use crate::round::Bounded;
use core::cmp::Ordering;

pub(super) const FACTS: Facts = Facts {
    definition: "tanh(x)",
    constants: &[],
    check: None,
    at_zero: [Value::Exact(-0.0), Value::Exact(0.0)],
    at_inf: [Value::Exact(-1.0), Value::Exact(1.0)],
    eval: |x, _| Some(Bounded::evaluated(libm::tanh(x))),
    refined: None,
    exact: None,
    // Strictly between 0 and x.
    side_of_input: [Some(Ordering::Greater), Some(Ordering::Less)],
    pinned: None,
    // At 0.
    slopes: Some(Slopes {
        sup_abs: 1.0,
        asymptotic_slopes: (0.0, 0.0),
    }),
};

/// `tanh'(x) = sech²(x) = 4E/(1 + E)²` with `E = e^(−2|x|)` (its argument exact), never
/// `1 − tanh²(x)`, which cancels for large `|x|`: an even function, positive everywhere.
/// libm's `exp` and the four roundings stay far within [`REL`]; where `E` is an `f64` subnormal
/// or 0 (`|x| > 354`) the value is below 10^-306 and [`ABS`] covers the absolute error.
fn derivative(x: f64) -> Bounded {
    let e = libm::exp(-2.0 * x.abs());
    let d = 1.0 + e;
    keep_positive(Bounded::evaluated(4.0 * e / (d * d)))
}

/// The derivative `sech²(x) = 1 − tanh²(x)`: 1 at ±0, +0 at ±inf.
pub(super) const DERIVATIVE: Facts = Facts {
    definition: "sech(x)^2 = 1 - tanh(x)^2",
    constants: &[],
    check: None,
    at_zero: [Value::Exact(1.0), Value::Exact(1.0)],
    at_inf: [Value::Exact(0.0), Value::Exact(0.0)],
    eval: |x, _| Some(derivative(x)),
    refined: None,
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    slopes: None,
};
