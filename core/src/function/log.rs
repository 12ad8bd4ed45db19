//! `ln x`; `x < 0` gives the default NaN, `±0` gives −inf.

use super::{Facts, Value};
use crate::round::Bounded;


pub(super) const FACTS: Facts = Facts {
    definition: "ln(x)",
    at_zero: [Value::Exact(f64::NEG_INFINITY), Value::Exact(f64::NEG_INFINITY)],
    at_inf: [Value::DefaultNan, Value::Exact(f64::INFINITY)],
    // ln 1 = 0 exactly: a format without zero (E8M0) must tell it from a tiny value.
    eval: |x| {
        (x > 0.0).then(|| {
            if x == 1.0 {
                Bounded::exact(0.0)
            } else {
                Bounded::evaluated(libm::log(x))
            }
        })
    },
    refined: None,
    side_of_input: [None, None],
    derivative: None,
};
