//! `x·Φ(x) = (x/2)·erfc(−x/√2)`, the exact GELU.

use super::{Derivative, Facts, Value};
use crate::round::Bounded;
use core::cmp::Ordering;
use core::f64::consts::FRAC_1_SQRT_2;


pub(super) const FACTS: Facts = Facts {
    definition: "x*Phi(x) = (x/2)*erfc(-x/sqrt(2))",
    at_zero: [Value::Exact(-0.0), Value::Exact(0.0)],
    at_inf: [Value::Exact(-0.0), Value::Exact(f64::INFINITY)],
    eval: |x| Some(Bounded::evaluated(0.5 * x * libm::erfc(-x * FRAC_1_SQRT_2))),
    // x·Φ(x) = x/2 + (x/2)·erf(x/√2): for tiny x the plain result is exactly x/2, which may
    // be a midpoint of the format (the bf16 ties of docs/SEMANTICS.md), while the exact value
    // lies just above it. Here x/2 is exact and the rest has a small relative error.
    refined: Some(|x| {
        let half = 0.5 * x;
        Bounded::exact_plus(half, half * libm::erf(x * FRAC_1_SQRT_2))
    }),
    // x·Φ(x) < x for x > 0.
    side_of_input: [None, Some(Ordering::Less)],
    // The maximum at x = √2; slopes of x·Φ(x): 0 and 1.
    derivative: Some(Derivative {
        sup_abs: 1.128_904_2,
        asymptotic_slopes: (0.0, 1.0),
    }),
};
