//! `max(0, x)`: `x` for `x > 0`, else +0. The zero of a non-positive input is the constant 0,
//! so it is +0 for −0 and for every negative `x` (PyTorch's `relu` of a negative number).

use super::{Slopes, Facts, Value};
use crate::round::Bounded;

pub(super) const FACTS: Facts = Facts {
    definition: "max(0, x)",
    constants: &[],
    check: None,
    at_zero: [Value::Exact(0.0), Value::Exact(0.0)],
    at_inf: [Value::Exact(0.0), Value::Exact(f64::INFINITY)],
    // Exact on both sides.
    eval: |x, _| Some(Bounded::exact(if x > 0.0 { x } else { 0.0 })),
    refined: None,
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    slopes: Some(Slopes {
        sup_abs: 1.0,
        asymptotic_slopes: (0.0, 1.0),
    }),
};

/// The derivative: 1 for `x > 0`, +0 for `x ≤ 0` (an exact zero). At the kink 0 it is the
/// limit from the left, +0; +0 at −inf, 1 at +inf.
pub(super) const DERIVATIVE: Facts = Facts {
    definition: "1 if x > 0 else 0",
    constants: &[],
    check: None,
    at_zero: [Value::Exact(0.0), Value::Exact(0.0)],
    at_inf: [Value::Exact(0.0), Value::Exact(1.0)],
    eval: |x, _| Some(Bounded::exact(if x > 0.0 { 1.0 } else { 0.0 })),
    refined: None,
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    slopes: None,
};
