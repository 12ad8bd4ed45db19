//! `x/(1 + |x|)`.

use super::{Derivative, Facts, Value};
use crate::round::{two_sum, Bounded};
use core::cmp::Ordering;


pub(super) const FACTS: Facts = Facts {
    definition: "x/(1 + |x|)",
    at_zero: [Value::Exact(-0.0), Value::Exact(0.0)],
    at_inf: [Value::Exact(-1.0), Value::Exact(1.0)],
    eval: |x| {
        // 1 + |x| is exact iff TwoSum's error term is zero (a test like d − 1 == |x| is
        // fooled when 1 + |x| rounds to |x|).
        let (d, d_err) = two_sum(1.0, x.abs());
        let q = x / d;
        let exact = d_err == 0.0 && libm::fma(q, d, -x) == 0.0;
        Some(if exact {
            Bounded::exact(q)
        } else {
            Bounded::evaluated(q)
        })
    },
    refined: None,
    // Strictly between 0 and x.
    side_of_input: [Some(Ordering::Greater), Some(Ordering::Less)],
    // At 0.
    derivative: Some(Derivative {
        sup_abs: 1.0,
        asymptotic_slopes: (0.0, 0.0),
    }),
};
