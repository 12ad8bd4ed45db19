//! `(1 + erf((x − mu)/(sigma·√2)))/2 = Φ((x − mu)/sigma)`, the normal distribution function:
//! MEGA's Laplace attention activation (transformers' `laplace`), `mu` any and `sigma` > 0,
//! by default 0.707107 and 0.282095 as the exact decimals. The limits are +0 and 1; both zeros
//! give `Φ(−mu/sigma)`.

use super::{Args, Constant, Slopes, Domain, Facts, Special, Value};
use crate::rational::Rational;
use crate::math::keep_positive;
use crate::round::{two_sum, Bounded, ABS, REL};
use core::f64::consts::FRAC_1_SQRT_2;

/// The indices of `mu` and `sigma` in the constants.
const MU: usize = 0;
const SIGMA: usize = 1;

/// `erfc(u)/2` with `u = −(x − mu)/(sigma·√2)`, its error bound argued term by term:
///
/// - `d = (x − mu_hi) − mu_lo`: absolute error at most `2^-52·(|x| + |mu|)` (two roundings of
///   values at most that large, and mu's rest);
/// - `z = d/sigma_hi`: that over sigma, plus `2^-52·|z|` (the quotient and sigma's rounding);
/// - `u = −z·(1/√2)_f64`: plus `2^-52·|u|`;
/// - erfc's relative change per unit of `u`, `|erfc'(t)/erfc(t)|`, is below `2t + 2` for
///   `t > 0` (Mills' ratio) and below `1.13·e^(−t²)` for `t ≤ 0` (erfc lies in [1, 2) there,
///   `|erfc'(t)| = 2e^(−t²)/√π`); with `s` its largest value over `[u − δu, u + δu]` (at the
///   top end), the value's relative error is at most `e^(s·δu) − 1`, plus libm's and the
///   halving's, within the default bound. For a large negative `u` (the value 1 − tiny) that
///   is nothing, however large `δu`.
///
/// Where `|x|` is large the value is 0 or 1 to within far less than any format resolves,
/// whatever the bound.
fn eval(x: f64, a: &Args) -> Bounded {
    let (mu, sigma) = (&a[MU], &a[SIGMA]);
    let d = (x - mu.hi) - mu.lo;
    let z = d / sigma.hi;
    let u = -z * FRAC_1_SQRT_2;
    let v = 0.5 * libm::erfc(u);
    let dz = libm::scalbn(1.0, -52) * (2.0 * (x.abs() + mu.hi.abs()) / sigma.hi + 2.0 * z.abs());
    let du = dz * FRAC_1_SQRT_2 + libm::scalbn(1.0, -51) * u.abs();
    // The largest |erfc'/erfc| over [u − du, u + du]: at its top end.
    let top = u + du;
    let sensitivity = if top < 0.0 {
        1.13 * libm::exp(-top * top)
    } else {
        2.0 * top + 2.0
    };
    Bounded {
        hi: v,
        lo: 0.0,
        // (Capped: where the exponential overflows, v is 0, an underflow of a value below
        // e^-700, within the absolute floor.)
        err: (REL + libm::expm1(sensitivity * du).min(1e300)) * v + ABS,
    }
}

pub(super) const FACTS: Facts = Facts {
    definition: "(1 + erf((x - mu)/(sigma*sqrt(2))))/2",
    constants: &[
        Constant {
            name: "mu",
            default: Some(Rational::reduced(707_107, 1_000_000)),
            domain: Domain::Any,
            doc: "the center, where the value is 1/2",
        },
        Constant {
            name: "sigma",
            default: Some(Rational::reduced(56_419, 200_000)),
            domain: Domain::Positive,
            doc: "the width (0.282095)",
        },
    ],
    check: None,
    at_zero: [
        Value::Of(|a: &Args| Special::Value(eval(0.0, a))),
        Value::Of(|a: &Args| Special::Value(eval(0.0, a))),
    ],
    at_inf: [Value::Exact(0.0), Value::Exact(1.0)],
    eval: |x, a| Some(eval(x, a)),
    refined: None,
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    // At the defaults: the maximum of f' = φ(0)/sigma = 1/(0.282095·√(2π)), at x = mu,
    // rounded up.
    slopes: Some(Slopes {
        sup_abs: 1.414_212_6,
        asymptotic_slopes: (0.0, 0.0),
    }),
};

/// `laplace'(x) = φ(z)/sigma = e^(−z²/2)/(sigma·√(2π))`, `z = (x − mu)/sigma`: `x − mu_hi` by
/// TwoSum (exact as a pair), less mu's rest, then over `sigma_hi`: `z` within `2^-51·|z|` (three
/// roundings and sigma's; mu's rest adds below 2^-106 of mu). The exponent's relative
/// sensitivity to `z` is `|z|`, so the value moves by at most `e^((|z| + δz)·δz) − 1` of itself;
/// `1/(sigma_hi·√(2π))` adds three roundings and sigma's: within [`REL`] beside it. Positive
/// everywhere: an underflow keeps its sign.
fn derivative(x: f64, a: &Args) -> Bounded {
    let (mu, sigma) = (&a[MU], &a[SIGMA]);
    let (dh, dl) = two_sum(x, -mu.hi);
    let d = dh + (dl - mu.lo);
    let z = d / sigma.hi;
    let dz = libm::scalbn(1.0, -51) * z.abs() + libm::scalbn(1.0, -104) * mu.hi.abs() / sigma.hi;
    let v = libm::exp(-0.5 * z * z) / (sigma.hi * SQRT_2PI);
    let rel = libm::expm1((z.abs() + dz) * dz).min(1e300);
    keep_positive(Bounded {
        hi: v,
        lo: 0.0,
        err: (REL + rel) * v + ABS,
    })
}

/// `√(2π)` rounded to `f64`.
const SQRT_2PI: f64 = 2.506_628_274_631_000_7;

/// The derivative, the normal density of mean `mu` and deviation `sigma`: its value at ±0, +0
/// at ±inf.
pub(super) const DERIVATIVE: Facts = Facts {
    definition: "e^(-((x - mu)/sigma)^2/2)/(sigma*sqrt(2*pi))",
    constants: FACTS.constants,
    check: None,
    at_zero: [
        Value::Of(|a: &Args| Special::Value(derivative(0.0, a))),
        Value::Of(|a: &Args| Special::Value(derivative(0.0, a))),
    ],
    at_inf: [Value::Exact(0.0), Value::Exact(0.0)],
    eval: |x, a| Some(derivative(x, a)),
    refined: None,
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    slopes: None,
};
