//! `x` for `x > 0`, else `e^x − 1` (α = 1).

use super::{Derivative, Facts, Value};
use crate::round::Bounded;


pub(super) const FACTS: Facts = Facts {
    definition: "x if x > 0 else e^x - 1",
    at_zero: [Value::Exact(-0.0), Value::Exact(0.0)],
    at_inf: [Value::Exact(-1.0), Value::Exact(f64::INFINITY)],
    eval: |x| {
        Some(if x > 0.0 {
            Bounded::exact(x)
        } else {
            Bounded::evaluated(libm::expm1(x))
        })
    },
    refined: None,
    side_of_input: [None, None],
    derivative: Some(Derivative {
        sup_abs: 1.0,
        asymptotic_slopes: (0.0, 1.0),
    }),
};
