//! `x·tanh(softplus(x))`.

use super::{Derivative, Facts, Value};
use crate::math::softplus;
use crate::round::Bounded;
use core::cmp::Ordering;


pub(super) const FACTS: Facts = Facts {
    definition: "x*tanh(softplus(x))",
    at_zero: [Value::Exact(-0.0), Value::Exact(0.0)],
    at_inf: [Value::Exact(-0.0), Value::Exact(f64::INFINITY)],
    eval: |x| Some(Bounded::evaluated(x * libm::tanh(softplus(x)))),
    refined: None,
    side_of_input: [None, Some(Ordering::Less)],
    // The maximum near x = 1.4906.
    derivative: Some(Derivative {
        sup_abs: 1.088_498_2,
        asymptotic_slopes: (0.0, 1.0),
    }),
};
