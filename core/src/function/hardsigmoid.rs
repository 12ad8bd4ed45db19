//! `max(0, min(1, x/6 + 1/2))`.

use super::{Derivative, Facts, Value};
use crate::round::Bounded;


pub(super) const FACTS: Facts = Facts {
    definition: "max(0, min(1, x/6 + 1/2))",
    at_zero: [Value::Exact(0.5), Value::Exact(0.5)],
    at_inf: [Value::Exact(0.0), Value::Exact(1.0)],
    // 1/2 exact plus x/6 rounded once (exact when the remainder is zero).
    eval: |x| {
        Some(if x <= -3.0 {
            Bounded::exact(0.0)
        } else if x >= 3.0 {
            Bounded::exact(1.0)
        } else {
            Bounded::exact_plus_quotient(0.5, x, 6.0)
        })
    },
    refined: None,
    side_of_input: [None, None],
    // 1/6 rounded up (the f64 nearest 1/6 is below it).
    derivative: Some(Derivative {
        sup_abs: 0.166_666_666_666_666_7,
        asymptotic_slopes: (0.0, 0.0),
    }),
};
