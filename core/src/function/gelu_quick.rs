//! `x·sigmoid(1.702·x) = x/(1 + e^(−1.702·x))`, the quick GELU of CLIP and ggml (1.702 is the
//! exact decimal).

use super::{Facts, Slopes, Value};
use crate::math::silu_derivative;
use crate::round::{Bounded, ABS, REL};
use core::cmp::Ordering;

/// 1.702, rounded to `f64` (within 2^-53 relative of the decimal).
const K: f64 = 1.702;

/// `x/(1 + e^(−t))` with `t = K·x`: no cancellation on either side. `t` carries the rounding
/// of `K` and of the product, together at most `|t|·2^-52`: a relative error of at most
/// `|t|·2^-52` in `e^(−t)`, which reaches the quotient damped by `e^(−t)/(1 + e^(−t))`
/// (below `min(1, e^(−t))`; taken as `min(1, 2·e^(−t))` of the computed exponential). libm
/// and the other roundings are within [`REL`]. The argument term is added, not assumed: it
/// matters only where `|t|` is large and the result is tiny (`t` very negative) or `x`
/// itself (`t` very positive, where the damping makes it vanish).
fn plain(x: f64) -> Bounded {
    let t = K * x;
    let e = libm::exp(-t);
    let v = x / (1.0 + e);
    let damping = (2.0 * e).min(1.0);
    Bounded {
        hi: v,
        lo: 0.0,
        err: (REL + t.abs() * libm::scalbn(1.0, -51) * damping) * v.abs() + ABS,
    }
}

pub(super) const FACTS: Facts = Facts {
    definition: "x*sigmoid(1.702*x) = x/(1 + e^(-1.702*x))",
    constants: &[],
    check: None,
    at_zero: [Value::Exact(-0.0), Value::Exact(0.0)],
    at_inf: [Value::Exact(-0.0), Value::Exact(f64::INFINITY)],
    eval: |x, _| Some(plain(x)),
    // x/2 exact plus (x/2)·tanh(1.702·x/2): settles the ties of tiny x, as for gelu (the
    // argument's relative error, 2^-52, passes to tanh's value undamped, far within REL).
    refined: Some(|x, _| {
        let half = 0.5 * x;
        Bounded::exact_plus(half, half * libm::tanh(K * half))
    }),
    exact: None,
    // x·sigmoid(1.702·x) < x for x > 0.
    side_of_input: [None, Some(Ordering::Less)],
    pinned: None,
    // f'(x) = silu'(1.702·x): the same maximum as silu's (near 1.702·x = 2.3994).
    slopes: Some(Slopes {
        sup_abs: 1.099_839_4,
        asymptotic_slopes: (0.0, 1.0),
    }),
};

/// The derivative `silu'(1.702·x) = σ(t)·(1 + t·σ(−t))`, `t = 1.702·x` (its evaluation and
/// bound: [`silu_derivative`], with the argument's relative error below 2^-52, taken as
/// 2^-51): 1/2 at ±0, 1 at +inf, −0 at −inf (the limit 0 from below).
pub(super) const DERIVATIVE: Facts = Facts {
    definition: "sigmoid(t)*(1 + t*sigmoid(-t)), t = 1.702*x",
    constants: &[],
    check: None,
    at_zero: [Value::Exact(0.5), Value::Exact(0.5)],
    at_inf: [Value::Exact(-0.0), Value::Exact(1.0)],
    eval: |x, _| Some(silu_derivative(K * x, libm::scalbn(1.0, -51))),
    refined: None,
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    slopes: None,
};
