//! `(x/2)·(1 + tanh(√(2/π)·(x + 0.044715·x³)))`, the tanh approximation of GELU
//! (itself evaluated exactly; 0.044715 is the exact decimal).

use super::{Derivative, Facts, Value};
use crate::round::Bounded;
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
    at_zero: [Value::Exact(-0.0), Value::Exact(0.0)],
    at_inf: [Value::Exact(-0.0), Value::Exact(f64::INFINITY)],
    // (x/2)(1 + tanh u) = x / (1 + e^(−2u)): no cancellation on either side.
    eval: |x| Some(Bounded::evaluated(x / (1.0 + libm::exp(-2.0 * u(x))))),
    // x/2 exact plus (x/2)·tanh u: settles the ties of tiny x, as for gelu.
    refined: Some(|x| {
        let half = 0.5 * x;
        Bounded::exact_plus(half, half * libm::tanh(u(x)))
    }),
    side_of_input: [None, Some(Ordering::Less)],
    // The maximum near x = 1.4185.
    derivative: Some(Derivative {
        sup_abs: 1.128_993_1,
        asymptotic_slopes: (0.0, 1.0),
    }),
};
