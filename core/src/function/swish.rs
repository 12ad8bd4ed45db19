//! `x·sigmoid(beta·x) = x/(1 + e^(−beta·x))`, `beta` > 0, 1 by default (then silu, bit for
//! bit). A zero input keeps its sign; the limits are −0 and +inf.

use super::{Constant, Slopes, Domain, Facts, Value};
use crate::rational::Rational;
use crate::math::silu_derivative;
use crate::round::{Bounded, ABS, REL};
use core::cmp::Ordering;

/// The index of `beta` in the constants.
const BETA: usize = 0;

/// `x/(1 + e^(−t))` with `t = beta_hi·x`, as gelu_quick's plain form: `t` carries beta's
/// rounding and the product's, together at most `|t|·2^-52`, a relative error of at most that
/// in `e^(−t)`, which reaches the quotient damped by `e^(−t)/(1 + e^(−t))` (taken as
/// `min(1, 2·e^(−t))` of the computed exponential); libm and the other roundings are within
/// the default bound.
pub(super) fn plain(x: f64, beta: f64) -> Bounded {
    let t = beta * x;
    let e = libm::exp(-t);
    let v = x / (1.0 + e);
    let damping = (2.0 * e).min(1.0);
    Bounded {
        hi: v,
        lo: 0.0,
        err: (REL + t.abs() * libm::scalbn(1.0, -51) * damping) * v.abs() + ABS,
    }
}

/// `x/2` exact plus `(x/2)·tanh(beta·x/2)`: settles the ties of tiny `x`, where `x/2` can be a
/// midpoint (an odd subnormal `x`) and the value lies just above it (tanh's argument carries
/// 2^-52 relative, which passes to its value undamped, far within the bound).
pub(super) fn refined(x: f64, beta: f64) -> Bounded {
    let half = 0.5 * x;
    Bounded::exact_plus(half, half * libm::tanh(beta * half))
}

pub(super) const FACTS: Facts = Facts {
    definition: "x*sigmoid(beta*x)",
    constants: &[Constant {
        name: "beta",
        default: Some(Rational::ONE),
        domain: Domain::Positive,
        doc: "the slope of the sigmoid gate",
    }],
    check: None,
    at_zero: [Value::Exact(-0.0), Value::Exact(0.0)],
    at_inf: [Value::Exact(-0.0), Value::Exact(f64::INFINITY)],
    eval: |x, a| Some(plain(x, a[BETA].hi)),
    refined: Some(|x, a| refined(x, a[BETA].hi)),
    exact: None,
    // x·sigmoid(beta·x) < x for x > 0.
    side_of_input: [None, Some(Ordering::Less)],
    pinned: None,
    // At the default beta = 1: silu's.
    slopes: Some(Slopes {
        sup_abs: 1.099_839_4,
        asymptotic_slopes: (0.0, 1.0),
    }),
};

/// `swish'(x) = silu'(t)` with `t = beta·x`: `σ(t) + t·σ(t)·σ(−t)`. `t = beta_hi·x` carries
/// 2^-52 relative (beta's rounding and the product), within [`silu_derivative`]'s `arg_rel` of
/// 2^-51. Near 0, where `1/2 + t/2` can be an `f32` (or f16, at `x = 2^-11`) midpoint, the
/// refined form is silu's series at `t` when `t` is exact (`beta` an `f64`, the product exact).
fn derivative(x: f64, beta: &super::Const) -> Bounded {
    silu_derivative(beta.hi * x, libm::scalbn(1.0, -51))
}

fn derivative_refined(x: f64, beta: &super::Const) -> Bounded {
    let t = beta.hi * x;
    if beta.is_f64() && libm::fma(beta.hi, x, -t) == 0.0 {
        super::silu::derivative_near_zero(t)
    } else {
        derivative(x, beta)
    }
}

/// The derivative: 1/2 at ±0, −0 at −inf (the limit 0 from below, beta > 0), 1 at +inf.
pub(super) const DERIVATIVE: Facts = Facts {
    definition: "sigmoid(t)*(1 + t*sigmoid(-t)), t = beta*x",
    constants: FACTS.constants,
    check: None,
    at_zero: [Value::Exact(0.5), Value::Exact(0.5)],
    at_inf: [Value::Exact(-0.0), Value::Exact(1.0)],
    eval: |x, a| Some(derivative(x, &a[BETA])),
    refined: Some(|x, a| derivative_refined(x, &a[BETA])),
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    slopes: None,
};
