//! `max(0, min(1, x/6 + 1/2))`.

use super::{Facts, Slopes, Value};
use crate::round::Bounded;

pub(super) const FACTS: Facts = Facts {
    definition: "max(0, min(1, x/6 + 1/2))",
    constants: &[],
    check: None,
    at_zero: [Value::Exact(0.5), Value::Exact(0.5)],
    at_inf: [Value::Exact(0.0), Value::Exact(1.0)],
    // 1/2 exact plus x/6 rounded once (exact when the remainder is zero).
    eval: |x, _| {
        Some(if x <= -3.0 {
            Bounded::exact(0.0)
        } else if x >= 3.0 {
            Bounded::exact(1.0)
        } else {
            Bounded::exact_plus_quotient(0.5, x, 6.0)
        })
    },
    refined: None,
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    // 1/6 rounded up (the f64 nearest 1/6 is below it).
    slopes: Some(Slopes {
        sup_abs: 0.166_666_666_666_666_7,
        asymptotic_slopes: (0.0, 0.0),
    }),
};

/// The derivative: 1/6 for `−3 < x ≤ 3`, 0 elsewhere (+0: an exact zero). At the kinks ±3 it
/// is the limit from the left: 0 at −3, 1/6 at 3. 1/6 at ±0, +0 at ±inf.
pub(super) const DERIVATIVE: Facts = Facts {
    definition: "1/6 if -3 < x <= 3 else 0",
    constants: &[],
    check: None,
    at_zero: [Value::Evaluated(1.0 / 6.0), Value::Evaluated(1.0 / 6.0)],
    at_inf: [Value::Exact(0.0), Value::Exact(0.0)],
    // 1/6 rounded once.
    eval: |x, _| {
        Some(if x > -3.0 && x <= 3.0 {
            Bounded::exact_plus_quotient(0.0, 1.0, 6.0)
        } else {
            Bounded::exact(0.0)
        })
    },
    refined: None,
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    slopes: None,
};
