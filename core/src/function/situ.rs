//! `beta·tanh(x/beta)·sigmoid(x)`, `beta` > 0, 4 by default: the SiTU gate of Kimi-K3 (a
//! softcapped input times its sigmoid). A zero input keeps its sign; the limits are −0 at −inf
//! and `beta` at +inf (approached from below).

use super::softcap::softcap;
use super::{Args, Constant, Slopes, Domain, Facts, Special, Value};
use crate::rational::Rational;
use crate::math::logistic_pair;
use crate::round::{Bounded, ABS, REL};
use core::cmp::Ordering;

/// The index of `beta` in the constants.
const BETA: usize = 0;

/// `s·sigmoid(x)` with `s = softcap(x, beta)` (relative error far within the default bound,
/// see softcap) and `sigmoid(x) = 1/(1 + e^−x)` (a few ulps): a product of two factors without
/// cancellation. For `x < −709`, `e^−x` overflows and the product is ∓0, while the exact value
/// is below `beta·e^x < 10^-300`: within the absolute floor.
fn plain(x: f64, beta: f64) -> Bounded {
    let s = softcap(x, beta);
    Bounded::evaluated(s.hi / (1.0 + libm::exp(-x)))
}

/// `x/2 + [(s − x)/2 + (s/2)·tanh(x/2)]` with `x/2` exact: for tiny `x` the value is
/// `x/2 + x²/4 + …`, whose `x/2` may be a midpoint of the format (an odd subnormal `x`). The
/// rest `s − x` is `−x·t²·(1/3 − 2t²/15)` for `|t| < 2^-10` (`t = x/beta`; the omitted term,
/// `17x·t⁶/315`, is below 2^-41 of it), else the difference of `s` (relative error 2^-40)
/// and `x`.
fn refined(x: f64, beta: f64) -> Bounded {
    let half = 0.5 * x;
    if half * 2.0 != x {
        // x/2 not exact (the smallest f64 subnormals): no better than the plain form.
        return plain(x, beta);
    }
    let t = x / beta;
    let s = softcap(x, beta).hi;
    let (d, d_err) = if t.abs() < 1.0 / 1024.0 {
        let t2 = t * t;
        let d = -x * t2 * (1.0 / 3.0 - 2.0 * t2 / 15.0);
        (d, d.abs() * libm::scalbn(1.0, -40))
    } else {
        (s - x, REL * s.abs() + f64::EPSILON * (s - x).abs())
    };
    let second = 0.5 * s * libm::tanh(half);
    let lo = 0.5 * d + second;
    Bounded {
        hi: half,
        lo,
        err: 0.5 * d_err + REL * second.abs() + f64::EPSILON * lo.abs() + ABS,
    }
}

pub(super) const FACTS: Facts = Facts {
    definition: "beta*tanh(x/beta)*sigmoid(x)",
    constants: &[Constant {
        name: "beta",
        default: Some(Rational::from_integer(4)),
        domain: Domain::Positive,
        doc: "the softcap of the input, and the limit at +inf",
    }],
    check: None,
    at_zero: [Value::Exact(-0.0), Value::Exact(0.0)],
    at_inf: [
        Value::Exact(-0.0),
        Value::Of(|a: &Args| Special::Rational(a[BETA].value)),
    ],
    eval: |x, a| Some(plain(x, a[BETA].hi)),
    refined: Some(|x, a| refined(x, a[BETA].hi)),
    exact: None,
    // For x > 0 both factors shrink x; for x < 0 the value lies between x and 0.
    side_of_input: [Some(Ordering::Greater), Some(Ordering::Less)],
    // Below beta for every x > 0, approaching it.
    pinned: Some(|x, a| (x > 0.0 && a[BETA].is_f64()).then(|| (a[BETA].hi, Ordering::Less))),
    // At the default beta = 4: the maximum of |f'| (at x = 1.49008), rounded up; both
    // asymptotes are horizontal.
    slopes: Some(Slopes {
        sup_abs: SUP_DERIVATIVE,
        asymptotic_slopes: (0.0, 0.0),
    }),
};

/// `sup|f'|` at beta = 4, `f' = sech²(x/4)·sigmoid(x) + 4·tanh(x/4)·sigmoid(x)·(1 −
/// sigmoid(x))`: its maximum 0.926389768…, rounded up.
const SUP_DERIVATIVE: f64 = 0.926_389_77;

/// `situ'(x) = sech²(t)·σ(x) + beta·tanh(t)·σ(x)·σ(−x)`, `t = x/beta_hi`. Each term is within
/// 2^-41 of itself: `t` carries 2^-52 relative, which moves `sech²(t)` by `2|t|·2^-52` of itself
/// (below 2^-42 where it is a normal `f64`) and `tanh(t)` by at most 2^-52; σ's pair is within
/// 2^-50 ([`logistic_pair`]), beta's rounding 2^-53, and the products and the sum a few
/// roundings more. The bound is relative to the terms, so it holds through the cancellation
/// at the root of `situ'` (below 0, where the second term is negative). Below −708 both terms
/// underflow while the exact value is negative (the second term dominates): −0 then, within
/// the absolute floor.
fn derivative(x: f64, beta: f64) -> Bounded {
    let t = x / beta;
    let e = libm::exp(-2.0 * t.abs());
    let d = 1.0 + e;
    let sech2 = 4.0 * e / (d * d);
    let (s, u) = logistic_pair(x);
    let a = sech2 * s;
    let b = beta * libm::tanh(t) * (s * u);
    let v = a + b;
    let v = if v == 0.0 && x < 0.0 { -0.0 } else { v };
    let v = if x > 0.0 && v == 0.0 { f64::from_bits(1) } else { v };
    Bounded {
        hi: v,
        lo: 0.0,
        err: 2.0 * REL / 8.0 * (a.abs() + b.abs()) + f64::EPSILON * v.abs() + ABS,
    }
}

/// The derivative: 1/2 at ±0 (`sech²(0)·σ(0)`), −0 at −inf (the limit 0 from below), +0 at +inf.
pub(super) const DERIVATIVE: Facts = Facts {
    definition: "sech(x/beta)^2*sigmoid(x) + beta*tanh(x/beta)*sigmoid(x)*sigmoid(-x)",
    constants: FACTS.constants,
    check: None,
    at_zero: [Value::Exact(0.5), Value::Exact(0.5)],
    at_inf: [Value::Exact(-0.0), Value::Exact(0.0)],
    eval: |x, a| Some(derivative(x, a[BETA].hi)),
    refined: None,
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    slopes: None,
};
