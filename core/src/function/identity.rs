//! `x`: the identity. transformers' `linear` activation, and the op of a plain dequantization
//! (and requantization) table. Every value is exact: the table of a format maps each value to
//! itself (a NaN to the same NaN, quieted).

use super::{Slopes, Facts, Value};
use crate::round::Bounded;

pub(super) const FACTS: Facts = Facts {
    definition: "x",
    constants: &[],
    check: None,
    at_zero: [Value::Exact(-0.0), Value::Exact(0.0)],
    at_inf: [Value::Exact(f64::NEG_INFINITY), Value::Exact(f64::INFINITY)],
    eval: |x, _| Some(Bounded::exact(x)),
    refined: None,
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    slopes: Some(Slopes {
        sup_abs: 1.0,
        asymptotic_slopes: (1.0, 1.0),
    }),
};

/// The derivative: 1 everywhere, ±0 and ±inf included.
pub(super) const DERIVATIVE: Facts = Facts {
    definition: "1",
    constants: &[],
    check: None,
    at_zero: [Value::Exact(1.0), Value::Exact(1.0)],
    at_inf: [Value::Exact(1.0), Value::Exact(1.0)],
    eval: |_, _| Some(Bounded::exact(1.0)),
    refined: None,
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    slopes: None,
};
