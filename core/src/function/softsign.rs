//! `x/(1 + |x|)`.

use super::{Facts, Slopes, Value};
use crate::round::{two_sum, Bounded, ABS};
use core::cmp::Ordering;

pub(super) const FACTS: Facts = Facts {
    definition: "x/(1 + |x|)",
    constants: &[],
    check: None,
    at_zero: [Value::Exact(-0.0), Value::Exact(0.0)],
    at_inf: [Value::Exact(-1.0), Value::Exact(1.0)],
    eval: |x, _| {
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
    exact: None,
    // Strictly between 0 and x.
    side_of_input: [Some(Ordering::Greater), Some(Ordering::Less)],
    pinned: None,
    // At 0.
    slopes: Some(Slopes {
        sup_abs: 1.0,
        asymptotic_slopes: (0.0, 0.0),
    }),
};

/// `softsign'(x) = 1/(1 + |x|)²`, in `f64`: exact where `1 + |x|`, its square and the quotient
/// are (the value is then a power of two, `1 + |x|` being one); otherwise each of the three
/// roundings is within 2^-53 (relative) and the value within `REL`.
fn derivative(x: f64) -> Bounded {
    let (d, d_err) = two_sum(1.0, x.abs());
    let p = d * d;
    let q = 1.0 / p;
    if d_err == 0.0 && libm::fma(d, d, -p) == 0.0 && libm::fma(q, p, -1.0) == 0.0 {
        Bounded::exact(q)
    } else {
        Bounded::evaluated(q)
    }
}

/// `1/(1 + |x|)²` with `1 + |x| = d + e` exactly (TwoSum): for the `|x|` whose sum with 1 is
/// not an `f64` (below 2^-53 or above 2^53), where the plain value can be a rounding boundary
/// of the format while the exact one lies just off it (bf16 at x = 2^67: `2^-134`, the midpoint
/// between 0 and the smallest subnormal).
///
/// With `d² = p + pe` exactly (`fma`), `1 = q·p + r` exactly (`q = 1/p` rounded) and
/// `δ = (pe + 2d·e + e²)/p` (`|δ| ≤ 2^-50` for `|x| > 2^53`; `≤ 2.01|x|` for `|x| < 2^-53`):
/// `1/(1 + |x|)² = (q + r/p)·(1 − δ + δ² − …)`. The value is `q + (r/p − q·δ)`, with the
/// neglected terms below `1.01·q·δ² + |r·δ/p|` and the roundings of the trailing part (a few
/// in each of `r/p` and `q·δ`) below `2^-50·(|r/p| + |q·δ|)`.
fn derivative_refined(x: f64) -> Bounded {
    let (d, e) = two_sum(1.0, x.abs());
    let p = d * d;
    let pe = libm::fma(d, d, -p);
    let q = 1.0 / p;
    let r = libm::fma(-q, p, 1.0);
    let delta = (pe + 2.0 * d * e + e * e) / p;
    let (rp, qd) = (r / p, q * delta);
    Bounded {
        hi: q,
        lo: rp - qd,
        err: 1.01 * qd * delta + (rp * delta).abs() + libm::scalbn(rp.abs() + qd.abs(), -50) + ABS,
    }
}

/// The derivative `1/(1 + |x|)²`: 1 at ±0, +0 at ±inf.
pub(super) const DERIVATIVE: Facts = Facts {
    definition: "1/(1 + |x|)^2",
    constants: &[],
    check: None,
    at_zero: [Value::Exact(1.0), Value::Exact(1.0)],
    at_inf: [Value::Exact(0.0), Value::Exact(0.0)],
    eval: |x, _| Some(derivative(x)),
    refined: Some(|x, _| derivative_refined(x)),
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    slopes: None,
};
