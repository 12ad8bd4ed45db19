//! `ln(1 + e^x)`.

use super::{Derivative, Facts, Value};
use crate::round::Bounded;
use core::cmp::Ordering;
use core::f64::consts::LN_2;


pub(super) const FACTS: Facts = Facts {
    definition: "ln(1 + e^x)",
    at_zero: [Value::Evaluated(LN_2), Value::Evaluated(LN_2)],
    at_inf: [Value::Exact(0.0), Value::Exact(f64::INFINITY)],
    eval: |x| Some(Bounded::evaluated(crate::math::softplus(x))),
    refined: None,
    // ln(1 + e^x) > x everywhere.
    side_of_input: [Some(Ordering::Greater), Some(Ordering::Greater)],
    // The limit at +inf.
    derivative: Some(Derivative {
        sup_abs: 1.0,
        asymptotic_slopes: (0.0, 1.0),
    }),
};
