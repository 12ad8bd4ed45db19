//! `x·hardsigmoid(x)`.

use super::{Derivative, Facts, Value};
use crate::round::Bounded;


pub(super) const FACTS: Facts = Facts {
    definition: "x*hardsigmoid(x)",
    at_zero: [Value::Exact(-0.0), Value::Exact(0.0)],
    at_inf: [Value::Exact(-0.0), Value::Exact(f64::INFINITY)],
    // x·(x + 3)/6 = x/2 + x²/6 (x² is exact for every format: at most 2·8 significant bits,
    // no underflow).
    eval: |x| {
        Some(if x <= -3.0 {
            Bounded::exact(-0.0)
        } else if x >= 3.0 {
            Bounded::exact(x)
        } else {
            Bounded::exact_plus_quotient(0.5 * x, x * x, 6.0)
        })
    },
    refined: None,
    side_of_input: [None, None],
    // The limit at 3⁻.
    derivative: Some(Derivative {
        sup_abs: 1.5,
        asymptotic_slopes: (0.0, 1.0),
    }),
};
