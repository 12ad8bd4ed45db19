//! `ln x`; `x < 0` gives the default NaN, `±0` gives −inf.

use super::{Facts, Value};
use crate::round::Bounded;

pub(super) const FACTS: Facts = Facts {
    definition: "ln(x)",
    constants: &[],
    check: None,
    at_zero: [Value::Exact(f64::NEG_INFINITY), Value::Exact(f64::NEG_INFINITY)],
    at_inf: [Value::DefaultNan, Value::Exact(f64::INFINITY)],
    // ln 1 = 0 exactly: a format without zero (E8M0) must tell it from a tiny value.
    eval: |x, _| {
        (x > 0.0).then(|| {
            if x == 1.0 {
                Bounded::exact(0.0)
            } else {
                Bounded::evaluated(libm::log(x))
            }
        })
    },
    refined: None,
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    slopes: None,
};

/// The derivative `1/x`: the default NaN below 0 and at −inf, as for log; +inf at ±0 (the limit
/// from inside the domain, where log is −inf at both zeros), +0 at +inf. The quotient is
/// rounded once, and exact when its remainder is zero.
pub(super) const DERIVATIVE: Facts = Facts {
    definition: "1/x",
    constants: &[],
    check: None,
    at_zero: [Value::Exact(f64::INFINITY), Value::Exact(f64::INFINITY)],
    at_inf: [Value::DefaultNan, Value::Exact(0.0)],
    eval: |x, _| (x > 0.0).then(|| Bounded::exact_plus_quotient(0.0, 1.0, x)),
    refined: None,
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    slopes: None,
};
