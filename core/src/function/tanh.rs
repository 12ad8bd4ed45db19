//! `tanh x`.

use super::{Derivative, Facts, Value};
use crate::round::Bounded;
use core::cmp::Ordering;


pub(super) const FACTS: Facts = Facts {
    definition: "tanh(x)",
    at_zero: [Value::Exact(-0.0), Value::Exact(0.0)],
    at_inf: [Value::Exact(-1.0), Value::Exact(1.0)],
    eval: |x| Some(Bounded::evaluated(libm::tanh(x))),
    refined: None,
    // Strictly between 0 and x.
    side_of_input: [Some(Ordering::Greater), Some(Ordering::Less)],
    // At 0.
    derivative: Some(Derivative {
        sup_abs: 1.0,
        asymptotic_slopes: (0.0, 0.0),
    }),
};
