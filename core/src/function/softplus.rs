//! `ln(1 + e^x)`.

use super::{Facts, Slopes, Value};
use crate::round::Bounded;
use core::cmp::Ordering;
use core::f64::consts::LN_2;

pub(super) const FACTS: Facts = Facts {
    definition: "ln(1 + e^x)",
    constants: &[],
    check: None,
    at_zero: [Value::Evaluated(LN_2), Value::Evaluated(LN_2)],
    at_inf: [Value::Exact(0.0), Value::Exact(f64::INFINITY)],
    eval: |x, _| Some(Bounded::evaluated(crate::math::softplus(x))),
    refined: None,
    exact: None,
    // ln(1 + e^x) > x everywhere.
    side_of_input: [Some(Ordering::Greater), Some(Ordering::Greater)],
    pinned: None,
    // The limit at +inf.
    slopes: Some(Slopes {
        sup_abs: 1.0,
        asymptotic_slopes: (0.0, 1.0),
    }),
};

/// The derivative `sigmoid(x) = 1/(1 + e^−x)`: sigmoid's own evaluation, refinement and bound.
pub(super) const DERIVATIVE: Facts = Facts {
    definition: "sigmoid(x) = 1/(1 + e^-x)",
    constants: &[],
    check: None,
    at_zero: [Value::Exact(0.5), Value::Exact(0.5)],
    at_inf: [Value::Exact(0.0), Value::Exact(1.0)],
    eval: |x, _| Some(super::sigmoid::plain(x)),
    refined: Some(|x, _| super::sigmoid::refined(x)),
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    slopes: None,
};
