//! `1/√x`; `x < 0` gives the default NaN, `+0` gives +inf, `−0` gives −inf.

use super::{Facts, Value};
use crate::round::Bounded;


pub(super) const FACTS: Facts = Facts {
    definition: "1/sqrt(x)",
    at_zero: [Value::Exact(f64::NEG_INFINITY), Value::Exact(f64::INFINITY)],
    at_inf: [Value::DefaultNan, Value::Exact(0.0)],
    eval: |x| (x > 0.0).then(|| Bounded::evaluated(1.0 / libm::sqrt(x))),
    refined: None,
    side_of_input: [None, None],
    derivative: None,
};
