//! `e^x`.

use super::{Facts, Value};
use crate::round::Bounded;


pub(super) const FACTS: Facts = Facts {
    definition: "e^x",
    at_zero: [Value::Exact(1.0), Value::Exact(1.0)],
    at_inf: [Value::Exact(0.0), Value::Exact(f64::INFINITY)],
    eval: |x| Some(Bounded::evaluated(libm::exp(x))),
    refined: None,
    side_of_input: [None, None],
    derivative: None,
};
