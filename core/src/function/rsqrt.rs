//! `1/√x`; `x < 0` gives the default NaN, `+0` gives +inf, `−0` gives −inf.

use super::{Facts, Value};
use crate::round::Bounded;

pub(super) const FACTS: Facts = Facts {
    definition: "1/sqrt(x)",
    constants: &[],
    check: None,
    at_zero: [Value::Exact(f64::NEG_INFINITY), Value::Exact(f64::INFINITY)],
    at_inf: [Value::DefaultNan, Value::Exact(0.0)],
    eval: |x, _| (x > 0.0).then(|| Bounded::evaluated(1.0 / libm::sqrt(x))),
    refined: None,
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    slopes: None,
};

/// `rsqrt'(x) = −1/(2x·√x)` for `x > 0`: `sqrt` is correctly rounded and the product and the
/// quotient are rounded once each (within 2^-51 in all, far within `REL`). Exact where all
/// three are (`x` a power of 4): the value is then a power of two, which can be a midpoint of
/// the format (e4m3: `rsqrt'(64) = −2^-10`, the midpoint between −0 and the smallest
/// subnormal, a tie that rounds to −0).
fn derivative(x: f64) -> Bounded {
    let r = libm::sqrt(x);
    let p = x * r;
    let q = -0.5 / p;
    if libm::fma(r, r, -x) == 0.0 && libm::fma(x, r, -p) == 0.0 && libm::fma(q, p, 0.5) == 0.0 {
        Bounded::exact(q)
    } else {
        Bounded::evaluated(q)
    }
}

/// The derivative `−(1/2)·x^(−3/2)`: the default NaN below 0 and at −inf, as for rsqrt; −inf
/// at ±0 (the limit from inside the domain), −0 at +inf (the limit 0 from below).
pub(super) const DERIVATIVE: Facts = Facts {
    definition: "-1/(2*x*sqrt(x))",
    constants: &[],
    check: None,
    at_zero: [
        Value::Exact(f64::NEG_INFINITY),
        Value::Exact(f64::NEG_INFINITY),
    ],
    at_inf: [Value::DefaultNan, Value::Exact(-0.0)],
    eval: |x, _| (x > 0.0).then(|| derivative(x)),
    refined: None,
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    slopes: None,
};
