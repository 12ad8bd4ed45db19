//! `min(max(0, x), 6)`: +0 for `x ≤ 0` (−0 included, as for relu), `x` up to 6, then 6.
//! `hardtanh(min=0,max=6)` has the same values.

use super::{Slopes, Facts, Value};
use crate::round::Bounded;

pub(super) const FACTS: Facts = Facts {
    definition: "min(max(0, x), 6)",
    constants: &[],
    check: None,
    at_zero: [Value::Exact(0.0), Value::Exact(0.0)],
    at_inf: [Value::Exact(0.0), Value::Exact(6.0)],
    // Exact everywhere: 0, x or 6.
    // (x > 0 and finite here: the clamp of a negative x is +0.)
    eval: |x, _| Some(Bounded::exact(x.clamp(0.0, 6.0))),
    refined: None,
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    slopes: Some(Slopes {
        sup_abs: 1.0,
        asymptotic_slopes: (0.0, 0.0),
    }),
};

/// The derivative: 1 for `0 < x ≤ 6`, +0 elsewhere (an exact zero). At the kinks it is the
/// limit from the left: +0 at 0, 1 at 6; +0 at ±inf.
pub(super) const DERIVATIVE: Facts = Facts {
    definition: "1 if 0 < x <= 6 else 0",
    constants: &[],
    check: None,
    at_zero: [Value::Exact(0.0), Value::Exact(0.0)],
    at_inf: [Value::Exact(0.0), Value::Exact(0.0)],
    eval: |x, _| Some(Bounded::exact(if x > 0.0 && x <= 6.0 { 1.0 } else { 0.0 })),
    refined: None,
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    slopes: None,
};
