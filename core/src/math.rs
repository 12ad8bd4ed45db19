//! `f64` helpers shared by several reference functions.

use crate::round::{Bounded, ABS, REL};

/// `ln(1 + e^x)`, split at 0 so that neither side cancels.
pub(crate) fn softplus(x: f64) -> f64 {
    if x > 0.0 {
        x + libm::log1p(libm::exp(-x))
    } else {
        libm::log1p(libm::exp(x))
    }
}

/// A positive value's evaluation `v` whose `f64` result underflowed to 0 (the exact value then
/// lies in `(0, v.err]`), with the smallest positive `f64` in place of the zero: the result
/// carries the value's sign, as every evaluation does (E8M0 tells a tiny positive value, its
/// smallest value 2^-127, from an exact zero, its NaN). The bound still holds: both lie in
/// `[0, v.err]`.
pub(crate) fn keep_positive(v: Bounded) -> Bounded {
    if v.hi == 0.0 && v.lo == 0.0 && v.err > 0.0 {
        Bounded {
            hi: f64::from_bits(1),
            ..v
        }
    } else {
        v
    }
}

/// `(σ(x), σ(−x))`, σ the logistic sigmoid, neither cancelling: with `E = e^−|x|` (its argument
/// exact), the larger one is `1/(1 + E)` and the smaller `E/(1 + E)`.
///
/// Each is within 4 `f64` roundings of the exact value at `x` (libm's `exp` within 1 ulp, then
/// `1 + E`, the quotient and the product): relative errors below `2^-50`, far within [`REL`],
/// while `E` is a normal `f64` (`|x| < 708`); beyond, the smaller one is an `f64` subnormal
/// within a few 2^-1074 (absolute) of the exact value, or 0 when the exact value is below
/// 2^-1075.
pub(crate) fn logistic_pair(x: f64) -> (f64, f64) {
    let e = libm::exp(-x.abs());
    let large = 1.0 / (1.0 + e);
    let small = e * large;
    if x >= 0.0 {
        (large, small)
    } else {
        (small, large)
    }
}

/// `silu'(t) = σ(t) + t·σ(t)·σ(−t) = σ(t)·(1 + t·σ(−t))`, where the computed `t` may carry a
/// relative error of at most `arg_rel` (0 when `t` is exact).
///
/// With `(s, u) = (σ(t), σ(−t))` from [`logistic_pair`], the bracket `B = 1 + t·u` is negative
/// below the root of `silu'` (t ≈ −1.2785), where it cancels; the product `s·B` then keeps the
/// sign of the exact value even where `s` underflows (`0·B = −0` for `B < 0`). The roundings
/// (the pair's, `t·u`, the sum, the product: below 12 in all) give an absolute error below
/// `REL·s·(1 + |t·u|)`: relative to the sum of the magnitudes of the terms, so the bound holds
/// through the cancellation near the root.
///
/// A relative error `δ ≤ arg_rel` in `t` moves the value by at most `|δ·t|·sup|silu''|` over
/// the interval between the two arguments, where `silu''(t) = s·u·(2 + t·(u − s))`, so
/// `|silu''| ≤ s·u·(2 + |t|)`. Where `s·u` is a normal `f64` (`|t| < 708`) the interval is
/// shorter than `708·arg_rel` (below 2^-41 for `arg_rel ≤ 2^-51`), over which `s·u` and
/// `2 + |t|` change by a factor below `1 + 2^-40`: the term `2·arg_rel·|t|·s·u·(2 + |t|)` bounds
/// it with room. Beyond, `silu'` lies within `|t|·e^−|t| < 10^-300` of 0 (t < 0) or of 1
/// (t > 0) at both arguments, and so does the evaluation: [`ABS`] covers it (where `s` is an
/// `f64` subnormal, `|t| < 746` and the roundings of `s·B` add below `746·2^-1072`; where it
/// is 0, `s·B` is an exact zero of the bracket's sign).
pub(crate) fn silu_derivative(t: f64, arg_rel: f64) -> Bounded {
    let (s, u) = logistic_pair(t);
    let tu = t * u;
    let v = s * (1.0 + tu);
    let ta = t.abs();
    Bounded {
        hi: v,
        lo: 0.0,
        err: REL * s * (1.0 + tu.abs()) + 2.0 * arg_rel * ta * (s * u) * (2.0 + ta) + ABS,
    }
}
