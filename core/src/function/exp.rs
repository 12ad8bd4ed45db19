//! `e^x`.

use super::{Facts, Value};
use crate::round::Bounded;

pub(super) const FACTS: Facts = Facts {
    definition: "e^x",
    constants: &[],
    check: None,
    at_zero: [Value::Exact(1.0), Value::Exact(1.0)],
    at_inf: [Value::Exact(0.0), Value::Exact(f64::INFINITY)],
    eval: |x, _| Some(Bounded::evaluated(libm::exp(x))),
    refined: None,
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    slopes: None,
};

/// The derivative `e^x`: the function itself, with its own facts (so its tables are exp's).
pub(super) const DERIVATIVE: Facts = FACTS;
