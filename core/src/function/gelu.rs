//! `x·Φ(x) = (x/2)·erfc(−x/√2)`, the exact GELU.

use super::{Facts, Slopes, Value};
use crate::round::{Bounded, ABS, REL};
use core::cmp::Ordering;
use core::f64::consts::FRAC_1_SQRT_2;

pub(super) const FACTS: Facts = Facts {
    definition: "x*Phi(x) = (x/2)*erfc(-x/sqrt(2))",
    constants: &[],
    check: None,
    at_zero: [Value::Exact(-0.0), Value::Exact(0.0)],
    at_inf: [Value::Exact(-0.0), Value::Exact(f64::INFINITY)],
    eval: |x, _| Some(Bounded::evaluated(0.5 * x * libm::erfc(-x * FRAC_1_SQRT_2))),
    // x·Φ(x) = x/2 + (x/2)·erf(x/√2): for tiny x the plain result is exactly x/2, which may
    // be a midpoint of the format (the bf16 ties of docs/SEMANTICS.md), while the exact value
    // lies just above it. Here x/2 is exact and the rest has a small relative error.
    refined: Some(|x, _| {
        let half = 0.5 * x;
        Bounded::exact_plus(half, half * libm::erf(x * FRAC_1_SQRT_2))
    }),
    exact: None,
    // x·Φ(x) < x for x > 0.
    side_of_input: [None, Some(Ordering::Less)],
    pinned: None,
    // The maximum at x = √2; slopes of x·Φ(x): 0 and 1.
    slopes: Some(Slopes {
        sup_abs: 1.128_904_2,
        asymptotic_slopes: (0.0, 1.0),
    }),
};

/// 1/√(2π), correctly rounded.
const FRAC_1_SQRT_2PI: f64 = 0.398_942_280_401_432_7;

/// `gelu'(x) = Φ(x) + x·φ(x)`, with `Φ(x) = erfc(−x/√2)/2` and `φ(x) = e^(−x²/2)/√(2π)`.
///
/// For `x > 0` both terms are positive. For `x < 0` the second is negative and larger than
/// the first for `x` below the root (x ≈ −0.7518: gelu's minimum); the sum cancels only near
/// that root, and the bound below is relative to the terms, not to the sum, so it holds there.
/// Below x ≈ −38.6 both terms underflow to 0: the sum is then −0, the sign of the exact value
/// (whose magnitude, below `|x|·φ(x)`, is under 10^-300).
///
/// Errors, term by term (libm and every rounding within [`REL`]):
/// - `Φ`: the argument `z = −x·(1/√2)` carries a relative error below 2^-52 (the constant and
///   the product). erfc's relative condition number `|z·erfc'(z)/erfc(z)|` is below
///   `2z² + 1.5|z| + 0.5` (for `z > 0` by `erfc z > (2/√π)·e^(−z²)/(z + √(z² + 2))`, for
///   `z ≤ 0`, below 1/2, since `erfc z ≥ 1`): a relative error below `2^-51·(z² + z + 1)` in
///   `Φ` for `z > 0` and below 2^-52 for `z ≤ 0`, each taken twice. Where `Φ` is an `f64`
///   subnormal, [`ABS`] covers it.
/// - `x·φ(x)`: `x²` is exact for every table format and every `f32` (at most 48 significant
///   bits); for other `f64` its rounding adds a relative error below `2^-53·x²/2` to the
///   exponential, covered by `2^-52·x²`. Where `φ` is an `f64` subnormal (`|x| > 37.6`) the
///   term's error is below `38.6·2^-1072`, and where it is 0 (`|x| > 38.6`) the term is below
///   that: [`ABS`] covers both.
pub(super) fn derivative(x: f64) -> Bounded {
    let z = -x * FRAC_1_SQRT_2;
    let cdf = 0.5 * libm::erfc(z);
    let x2 = x * x;
    let b = x * (libm::exp(-0.5 * x2) * FRAC_1_SQRT_2PI);
    let v = cdf + b;
    // Only for x < −38.6: both terms underflowed and the exact value is negative.
    let v = if v == 0.0 { -0.0 } else { v };
    let cond = if z > 0.0 { z * z + z + 1.0 } else { 1.0 };
    let arg = libm::scalbn(cond, -50);
    Bounded {
        hi: v,
        lo: 0.0,
        err: (REL + arg) * cdf + (REL + libm::scalbn(x2, -52)) * b.abs() + ABS,
    }
}

/// The derivative `Φ(x) + x·φ(x)`: 1/2 at ±0, 1 at +inf, and −0 at −inf (the limit 0 from
/// below, where `x·φ(x)` dominates).
pub(super) const DERIVATIVE: Facts = Facts {
    definition: "Phi(x) + x*phi(x)",
    constants: &[],
    check: None,
    at_zero: [Value::Exact(0.5), Value::Exact(0.5)],
    at_inf: [Value::Exact(-0.0), Value::Exact(1.0)],
    eval: |x, _| Some(derivative(x)),
    refined: None,
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    slopes: None,
};
