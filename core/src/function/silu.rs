//! `x·sigmoid(x)` (swish with β = 1).

use super::{Derivative, Facts, Value};
use crate::round::Bounded;
use core::cmp::Ordering;


pub(super) const FACTS: Facts = Facts {
    definition: "x*sigmoid(x)",
    at_zero: [Value::Exact(-0.0), Value::Exact(0.0)],
    at_inf: [Value::Exact(-0.0), Value::Exact(f64::INFINITY)],
    eval: |x| Some(Bounded::evaluated(x / (1.0 + libm::exp(-x)))),
    // x·sigmoid(x) = x/2 + (x/2)·tanh(x/2), x/2 exact: settles the ties of tiny x.
    refined: Some(|x| {
        let half = 0.5 * x;
        Bounded::exact_plus(half, half * libm::tanh(half))
    }),
    side_of_input: [None, Some(Ordering::Less)],
    // The maximum near x = 2.3994.
    derivative: Some(Derivative {
        sup_abs: 1.099_839_4,
        asymptotic_slopes: (0.0, 1.0),
    }),
};
