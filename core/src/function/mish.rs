//! `x·tanh(softplus(x))`.

use super::{Facts, Slopes, Value};
use crate::math::softplus;
use crate::round::{two_sum, Bounded, ABS, REL};
use core::cmp::Ordering;

pub(super) const FACTS: Facts = Facts {
    definition: "x*tanh(softplus(x))",
    constants: &[],
    check: None,
    at_zero: [Value::Exact(-0.0), Value::Exact(0.0)],
    at_inf: [Value::Exact(-0.0), Value::Exact(f64::INFINITY)],
    eval: |x, _| Some(Bounded::evaluated(x * libm::tanh(softplus(x)))),
    refined: None,
    exact: None,
    side_of_input: [None, Some(Ordering::Less)],
    pinned: None,
    // The maximum near x = 1.4906.
    slopes: Some(Slopes {
        sup_abs: 1.088_498_2,
        asymptotic_slopes: (0.0, 1.0),
    }),
};

/// `mish'(x) = tanh(sp) + x·sech²(sp)·σ(x)`, `sp = softplus(x)`. With `n = e^x·(e^x + 2)`,
/// `tanh(sp) = n/(n + 2)` and `sech²(sp)·σ(x) = 4e^x·(1 + e^x)/(n + 2)²`, which gives two forms
/// without overflow or cancellation of either term:
///
/// - `x > 0`, `E = e^−x`, `D = 1 + 2E + 2E²`: `(1 + 2E)/D + 4x·E²·(1 + E)/D²`, both positive;
/// - `x ≤ 0`, `E = e^x`, `D = E·(E + 2) + 2`: `E·((E + 2)/D + 4x·(1 + E)/D²)`. The bracket is
///   negative below the root (x ≈ −1.1924, mish's minimum), where it cancels; the bound is
///   relative to the magnitudes of its terms, and the product keeps the sign of the exact value
///   where `E` underflows (`0·B = −0`).
///
/// The argument of `exp` is exact; libm's `exp` and at most 14 roundings per term stay within
/// `REL`. Where `E` (x < −708) or `E²` (x > 354) is an `f64` subnormal, `|x| < 746` and the
/// affected term's absolute error is below `4·746·4·2^-1074`; where it is 0, the exact term is
/// below `|x|·e^−|x|` < 10^-300 and so is the computed one: `ABS` covers both.
fn derivative(x: f64) -> Bounded {
    if x > 0.0 {
        let e = libm::exp(-x);
        let d = 1.0 + 2.0 * e + 2.0 * (e * e);
        Bounded::evaluated((1.0 + 2.0 * e) / d + 4.0 * x * e * e * (1.0 + e) / (d * d))
    } else {
        let e = libm::exp(x);
        let d = e * (e + 2.0) + 2.0;
        let a = (e + 2.0) / d;
        let b = 4.0 * x * (1.0 + e) / (d * d);
        Bounded {
            hi: e * (a + b),
            lo: 0.0,
            err: REL * e * (a + b.abs()) + ABS,
        }
    }
}

/// `mish'` near 0, where `3/5 + (16/25)·x` can land on an `f32` midpoint while the exact value
/// lies just off it (x = −5·2^-29: the midpoint below `f32(0.6)`, `0.6 − 0.1·2^-24`, plus
/// `−(6/125)·x²`): the Taylor series `3/5 + (16/25)x − (6/125)x² − (344/1875)x³ − (7/3750)x⁴ + …`
/// for `|x| < 2^-10`, with `3/5` and `(16/25)·x` carried to about 2^-106 (the remainders
/// `3 − 5·0.6` and `16 − 25·0.64` are exact by `fma`, as is the error of `0.64·x`), beyond, the
/// plain form.
///
/// Truncation: `mish'` is analytic in `|z| < 2.38` (its nearest singularities solve
/// `(1 + e^z)² = −1`), and `|mish'(z)| ≤ 2.58` on `|z| = 1.5` (the maximum of 4096 points of the
/// circle, 2.579): Cauchy's estimate gives `|a_k| ≤ 2.58/1.5^k`, and the terms from `x⁵` on
/// sum to below `0.34·|x|⁵`, taken as `|x|⁵`. The trailing part is a sum of five terms, each
/// within 4 roundings: below `8·2^-52` of the sum of their magnitudes.
fn derivative_near_zero(x: f64) -> Bounded {
    if x.abs() >= 1.0 / 1024.0 {
        return derivative(x);
    }
    const H0: f64 = 0.6;
    const H1: f64 = 0.64;
    let l0 = libm::fma(-H0, 5.0, 3.0) / 5.0;
    let l1 = libm::fma(-H1, 25.0, 16.0) / 25.0;
    let p = H1 * x;
    let pe = libm::fma(H1, x, -p);
    let (s, t) = two_sum(H0, p);
    let x2 = x * x;
    let tail = x2 * (-6.0 / 125.0 + x * (-344.0 / 1875.0 + x * (-7.0 / 3750.0)));
    let l1x = l1 * x;
    let lo = t + (l0 + (pe + (l1x + tail)));
    let magnitudes = t.abs() + l0.abs() + pe.abs() + l1x.abs() + tail.abs();
    let ax = x.abs();
    Bounded {
        hi: s,
        lo,
        err: x2 * x2 * ax + 8.0 * f64::EPSILON * magnitudes + ABS,
    }
}

/// The derivative: 3/5 at ±0 (`tanh(ln 2)`), 1 at +inf, −0 at −inf (the limit 0 from below).
pub(super) const DERIVATIVE: Facts = Facts {
    definition: "tanh(softplus(x)) + x*sech(softplus(x))^2*sigmoid(x)",
    constants: &[],
    check: None,
    at_zero: [Value::Evaluated(0.6), Value::Evaluated(0.6)],
    at_inf: [Value::Exact(-0.0), Value::Exact(1.0)],
    eval: |x, _| Some(derivative(x)),
    refined: Some(|x, _| derivative_near_zero(x)),
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    slopes: None,
};
