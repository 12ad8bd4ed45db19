//! `c·sigmoid(alpha·c)` with `c = min(x, limit)`: the gate of GPT-OSS's clamped SwiGLU
//! (vLLM's `swigluoai`), `alpha` > 0 and `limit` > 0, 1.702 and 7 by default (exact decimals;
//! an engine that rounds alpha to bf16 computes `alpha = 1.703125`). The multiplication by
//! the clamped linear half (`(up + 1)·gate`) stays the engine's. A zero input keeps its sign;
//! the limits are −0 at −inf and `limit·sigmoid(alpha·limit)` at +inf, the value for every
//! `x ≥ limit`.

use super::{swish, Args, Const, Constant, Slopes, Domain, Facts, Special, Value};
use crate::rational::Rational;
use crate::math::silu_derivative;
use crate::round::{Bounded, REL};
use core::cmp::Ordering;

/// The indices of `alpha` and `limit` in the constants.
const ALPHA: usize = 0;
const LIMIT: usize = 1;

/// The value for `x ≥ limit`: swish's form at `limit_hi`, plus limit's rest (`|d/dc
/// c·sigmoid(alpha·c)| ≤ 1.1`, so the rest moves the value by at most 1.1 of itself).
fn above(alpha: &Const, limit: &Const) -> Bounded {
    let v = swish::plain(limit.hi, alpha.hi);
    v.max_err(v.err + 2.0 * limit.err() + REL * v.hi.abs())
}

/// `x ≤ limit`, exactly.
fn below(x: f64, limit: &Const) -> bool {
    limit.cmp_f64(x) != Ordering::Less
}

pub(super) const FACTS: Facts = Facts {
    definition: "c*sigmoid(alpha*c), c = min(x, limit)",
    constants: &[
        Constant {
            name: "alpha",
            default: Some(Rational::reduced(851, 500)),
            domain: Domain::Positive,
            doc: "the slope of the sigmoid gate (1.702)",
        },
        Constant {
            name: "limit",
            default: Some(Rational::from_integer(7)),
            domain: Domain::Positive,
            doc: "the clamp of the input from above",
        },
    ],
    check: None,
    at_zero: [Value::Exact(-0.0), Value::Exact(0.0)],
    at_inf: [
        Value::Exact(-0.0),
        Value::Of(|a: &Args| Special::Value(above(&a[ALPHA], &a[LIMIT]))),
    ],
    eval: |x, a| {
        Some(if below(x, &a[LIMIT]) {
            swish::plain(x, a[ALPHA].hi)
        } else {
            above(&a[ALPHA], &a[LIMIT])
        })
    },
    refined: Some(|x, a| {
        if below(x, &a[LIMIT]) {
            swish::refined(x, a[ALPHA].hi)
        } else {
            above(&a[ALPHA], &a[LIMIT])
        }
    }),
    exact: None,
    // c·sigmoid(alpha·c) < c ≤ x for x > 0.
    side_of_input: [None, Some(Ordering::Less)],
    // For x > limit the value limit·sigmoid(alpha·limit) lies below limit, by a residual
    // beyond any evaluation for a large limit: settles a limit that is itself a rounding
    // boundary (100 over fp8_e4m3, halfway between 96 and 104).
    pinned: Some(|x, a| {
        let limit = &a[LIMIT];
        (!below(x, limit) && limit.is_f64()).then_some((limit.hi, Ordering::Less))
    }),
    // At the defaults: f'(x) = silu'(alpha·x) below the limit (its maximum at alpha·x =
    // 2.3994, x = 1.41 < 7), 0 above.
    slopes: Some(Slopes {
        sup_abs: 1.099_839_4,
        asymptotic_slopes: (0.0, 0.0),
    }),
};

/// The derivative below the limit: swish's, `silu'(alpha·x)` (`alpha·x` within 2^-51).
fn derivative(x: f64, a: &Args) -> Bounded {
    if below(x, &a[LIMIT]) {
        silu_derivative(a[ALPHA].hi * x, libm::scalbn(1.0, -51))
    } else {
        Bounded::exact(0.0)
    }
}

/// The derivative: `silu'(alpha·x)` for `x ≤ limit`, +0 above (the value is constant there). At
/// the kink `limit` it is the limit from the left, `silu'(alpha·limit)`; 1/2 at ±0, −0 at −inf
/// (the limit 0 from below), +0 at +inf.
pub(super) const DERIVATIVE: Facts = Facts {
    definition: "sigmoid(t)*(1 + t*sigmoid(-t)) if x <= limit else 0, t = alpha*x",
    constants: FACTS.constants,
    check: None,
    at_zero: [Value::Exact(0.5), Value::Exact(0.5)],
    at_inf: [Value::Exact(-0.0), Value::Exact(0.0)],
    eval: |x, a| Some(derivative(x, a)),
    refined: None,
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    slopes: None,
};
