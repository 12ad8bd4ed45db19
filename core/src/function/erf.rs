//! The error function `erf x`.

use super::{Facts, Slopes, Value};
use crate::math::keep_positive;
use crate::round::{Bounded, ABS, REL};
use core::f64::consts::FRAC_2_SQRT_PI;

pub(super) const FACTS: Facts = Facts {
    definition: "erf(x)",
    constants: &[],
    check: None,
    at_zero: [Value::Exact(-0.0), Value::Exact(0.0)],
    at_inf: [Value::Exact(-1.0), Value::Exact(1.0)],
    eval: |x, _| Some(Bounded::evaluated(libm::erf(x))),
    refined: None,
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    // 2/√π = 1.12837916709551257… (at 0), rounded up: above `FRAC_2_SQRT_PI`.
    #[allow(clippy::approx_constant)]
    slopes: Some(Slopes {
        sup_abs: 1.128_379_167_095_513,
        asymptotic_slopes: (0.0, 0.0),
    }),
};

/// `erf'(x) = (2/√π)·e^(−x²)`: positive, no cancellation. `x²` is exact for every table format
/// and every `f32`; for another `f64` its rounding adds a relative error below `2^-53·x²` to
/// the exponential (the term `2^-52·x²`). libm's `exp`, the constant and the product stay
/// within `REL`; where the value is an `f64` subnormal or 0 (`|x| > 26.5`), `ABS` covers it.
fn derivative(x: f64) -> Bounded {
    let x2 = x * x;
    let v = FRAC_2_SQRT_PI * libm::exp(-x2);
    keep_positive(Bounded {
        hi: v,
        lo: 0.0,
        err: (REL + libm::scalbn(x2, -52)) * v + ABS,
    })
}

/// The derivative `(2/√π)·e^(−x²)`: 2/√π at ±0, +0 at ±inf.
pub(super) const DERIVATIVE: Facts = Facts {
    definition: "(2/sqrt(pi))*e^(-x^2)",
    constants: &[],
    check: None,
    at_zero: [
        Value::Evaluated(FRAC_2_SQRT_PI),
        Value::Evaluated(FRAC_2_SQRT_PI),
    ],
    at_inf: [Value::Exact(0.0), Value::Exact(0.0)],
    eval: |x, _| Some(derivative(x)),
    refined: None,
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    slopes: None,
};
