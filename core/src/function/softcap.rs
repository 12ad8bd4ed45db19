//! `cap·tanh(x/cap)`, `cap` > 0 and without default: the logit softcapping of Gemma 2 and
//! Gemma 4 (30 for the final logits, 50 for attention), and the up branch of SiTU (25). Odd; a
//! zero input keeps its sign; the limits at ±inf are ±cap.

use super::{Args, Constant, Domain, Facts, Special, Value};
use crate::math::keep_positive;
use crate::round::Bounded;
use core::cmp::Ordering;

/// The index of `cap` in the constants.
const CAP: usize = 0;

/// `cap·tanh(x/cap)` with `t = x/cap_hi`: `t` carries 2^-52 relative (the quotient and cap's own
/// rounding), which tanh passes on damped (its relative condition `2t/sinh(2t)` is at most 1);
/// libm's tanh and the product add a few ulps, and cap's rounding 2^-53: far within the
/// default bound. Where `|t| < 2^-21` the value is `x·(1 − t²/3 + …)`, within 2^-42 of `x`
/// (and `t` could underflow to 0 for a huge cap): `x` itself, within the bound.
pub(super) fn softcap(x: f64, cap: f64) -> Bounded {
    let t = x / cap;
    if t.abs() < 1.0 / (1u64 << 21) as f64 {
        return Bounded::evaluated(x);
    }
    Bounded::evaluated(cap * libm::tanh(t))
}

pub(super) const FACTS: Facts = Facts {
    definition: "cap*tanh(x/cap)",
    constants: &[Constant {
        name: "cap",
        default: None,
        domain: Domain::Positive,
        doc: "the bound of the output: the limits at -inf and +inf are -cap and cap",
    }],
    check: None,
    at_zero: [Value::Exact(-0.0), Value::Exact(0.0)],
    at_inf: [
        Value::Of(|a: &Args| Special::Rational(a[CAP].value.neg())),
        Value::Of(|a: &Args| Special::Rational(a[CAP].value)),
    ],
    eval: |x, a| Some(softcap(x, a[CAP].hi)),
    refined: None,
    exact: None,
    // Strictly between 0 and x.
    side_of_input: [Some(Ordering::Greater), Some(Ordering::Less)],
    // Strictly inside (−cap, cap), approaching ±cap: settles a cap that is itself a rounding
    // boundary (30 over fp8_e5m2 lies halfway between 28 and 32).
    pinned: Some(|x, a| {
        let c = &a[CAP];
        c.is_f64().then(|| {
            if x > 0.0 {
                (c.hi, Ordering::Less)
            } else {
                (-c.hi, Ordering::Greater)
            }
        })
    }),
    slopes: None,
};

/// `sech²(t) = 4E/(1 + E)²` with `E = e^(−2|t|)`, `t = x/cap_hi` (2^-52 relative): the
/// argument's error moves the value by `2|t|·2^-52` of itself (`|d ln sech²/dt| = 2|tanh t|`),
/// below 2^-42 where `E` is a normal `f64` (`|t| < 354`), plus four roundings and libm's ulp:
/// within [`REL`]. Beyond, the value is below 10^-300: the absolute floor, keeping the sign.
fn derivative(x: f64, cap: f64) -> Bounded {
    let e = libm::exp(-2.0 * (x / cap).abs());
    let d = 1.0 + e;
    keep_positive(Bounded::evaluated(4.0 * e / (d * d)))
}

/// The derivative `sech²(x/cap) = 1 − tanh²(x/cap)`: 1 at ±0, +0 at ±inf (positive everywhere).
pub(super) const DERIVATIVE: Facts = Facts {
    definition: "sech(x/cap)^2",
    constants: FACTS.constants,
    check: None,
    at_zero: [Value::Exact(1.0), Value::Exact(1.0)],
    at_inf: [Value::Exact(0.0), Value::Exact(0.0)],
    eval: |x, a| Some(derivative(x, a[CAP].hi)),
    refined: None,
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    slopes: None,
};
