//! `x·hardsigmoid(x)`.

use super::{Facts, Slopes, Value};
use crate::round::Bounded;

pub(super) const FACTS: Facts = Facts {
    definition: "x*hardsigmoid(x)",
    constants: &[],
    check: None,
    at_zero: [Value::Exact(-0.0), Value::Exact(0.0)],
    at_inf: [Value::Exact(-0.0), Value::Exact(f64::INFINITY)],
    // x·(x + 3)/6 = x/2 + x²/6 (x² is exact for every format: at most 2·8 significant bits,
    // no underflow).
    eval: |x, _| {
        Some(if x <= -3.0 {
            Bounded::exact(-0.0)
        } else if x >= 3.0 {
            Bounded::exact(x)
        } else {
            Bounded::exact_plus_quotient(0.5 * x, x * x, 6.0)
        })
    },
    refined: None,
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    // The limit at 3⁻.
    slopes: Some(Slopes {
        sup_abs: 1.5,
        asymptotic_slopes: (0.0, 1.0),
    }),
};

/// The derivative: 0 for `x ≤ −3` (+0: an exact zero), `x/3 + 1/2` for `−3 < x ≤ 3`, 1 for
/// `x > 3`. At the kinks it is the limit from the left: 0 at −3, 3/2 at 3. 1/2 at ±0, +0 at
/// −inf, 1 at +inf; `x/3 + 1/2` is +0 at x = −3/2.
pub(super) const DERIVATIVE: Facts = Facts {
    definition: "0 if x <= -3 else x/3 + 1/2 if x <= 3 else 1",
    constants: &[],
    check: None,
    at_zero: [Value::Exact(0.5), Value::Exact(0.5)],
    at_inf: [Value::Exact(0.0), Value::Exact(1.0)],
    // 1/2 exact plus x/3 rounded once (exact when the remainder is zero, so that exact ties
    // are seen as ties).
    eval: |x, _| {
        Some(if x <= -3.0 {
            Bounded::exact(0.0)
        } else if x <= 3.0 {
            Bounded::exact_plus_quotient(0.5, x, 3.0)
        } else {
            Bounded::exact(1.0)
        })
    },
    refined: None,
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    slopes: None,
};
