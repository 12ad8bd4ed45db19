//! `x` for `x > 0`, else `alpha·(e^x − 1)`; `alpha` > 0, 1 by default (PyTorch's and ONNX's
//! ELU). At the default the tables are those of ELU with α = 1, under the name `elu`.

use super::{Args, Constant, Domain, Facts, Slopes, Special, Value};
use crate::rational::Rational;
use crate::round::{Bounded, ABS, REL};
use core::cmp::Ordering;

/// The index of `alpha` in the constants.
const ALPHA: usize = 0;

/// `e^x − 1 − x` for `x ≤ 0`, with a relative error below 2^-44: the Taylor series for
/// `|x| < 2^-5` (the first omitted term, `x⁸/8!`, is below 2^-47 of the sum `x²/2 + …`), the
/// difference `expm1(x) − x` beyond (its rounding errors, a few units of 2^-53·|x|, are
/// below 2^-46 of the value there, which is at least x²/2·0.98).
pub(super) fn expm1_minus_x(x: f64) -> f64 {
    if x.abs() < 1.0 / 32.0 {
        let x2 = x * x;
        x2 * (0.5
            + x * (1.0 / 6.0
                + x * (1.0 / 24.0 + x * (1.0 / 120.0 + x * (1.0 / 720.0 + x / 5040.0)))))
    } else {
        libm::expm1(x) - x
    }
}

/// `alpha·(e^x − 1)` for `x < 0` as `alpha·x` carried exactly (a product by FMA, plus the
/// constant's rest `alpha_lo·x`), plus `alpha·(e^x − 1 − x)` within 2^-44: settles the ties of
/// tiny `x`, where `alpha·x` can be a midpoint of the format (alpha = 1/2 at an odd subnormal)
/// and the exact value lies just toward zero of it.
pub(super) fn alpha_expm1(a: &super::Const, x: f64) -> Bounded {
    let hi = a.hi * x;
    let lo1 = libm::fma(a.hi, x, -hi);
    let d = a.hi * expm1_minus_x(x);
    let rest = a.lo * x;
    let lo = lo1 + rest + d;
    Bounded {
        hi,
        lo,
        err: d.abs() * libm::scalbn(1.0, -43)
            + rest.abs() * f64::EPSILON
            + lo.abs() * f64::EPSILON
            + ABS,
    }
}

/// For `x < 0` the value `alpha·x + alpha·(e^x − 1 − x)` lies above `alpha·x` (the second term
/// is positive, and for tiny `x` far below any evaluation's resolution of the first: a tie
/// when `alpha·x` is a midpoint, as `0.1·x = −2^-134` over bf16), and above `−alpha`, which it
/// approaches as `x → −inf` (a tie when alpha is a midpoint, 2.5 over FP4). The point is the
/// nearer one, when it is an `f64`.
pub(super) fn pinned(x: f64, a: &super::Const) -> Option<(f64, Ordering)> {
    if x >= 0.0 {
        return None;
    }
    if x > -1.0 {
        let p = super::common::exact_times(a, x)?;
        let hi = p.to_f64()?;
        (p.compare(&crate::exact::Exact::from_f64(hi)) == Some(Ordering::Equal))
            .then_some((hi, Ordering::Greater))
    } else {
        a.is_f64().then_some((-a.hi, Ordering::Greater))
    }
}

/// The constants: `alpha`.
const CONSTANTS: &[Constant] = &[Constant {
    name: "alpha",
    default: Some(Rational::ONE),
    domain: Domain::Positive,
    doc: "the scale of the negative side, whose limit at -inf is -alpha",
}];

pub(super) const FACTS: Facts = Facts {
    definition: "x if x > 0 else alpha*(e^x - 1)",
    constants: CONSTANTS,
    check: None,
    // alpha·(e^x − 1) keeps the sign of a zero input.
    at_zero: [Value::Exact(-0.0), Value::Exact(0.0)],
    at_inf: [
        Value::Of(|a: &Args| Special::Rational(a[ALPHA].value.neg())),
        Value::Exact(f64::INFINITY),
    ],
    // alpha_hi·expm1(x): libm's expm1 within an ulp or two, one product, and alpha's own
    // rounding (2^-53): far within the default bound. With alpha = 1 this is expm1(x) itself.
    eval: |x, a| {
        Some(if x > 0.0 {
            Bounded::exact(x)
        } else {
            Bounded::evaluated(a[ALPHA].hi * libm::expm1(x))
        })
    },
    refined: Some(|x, a| {
        if x > 0.0 {
            Bounded::exact(x)
        } else {
            alpha_expm1(&a[ALPHA], x)
        }
    }),
    exact: None,
    side_of_input: [None, None],
    pinned: Some(|x, a| pinned(x, &a[ALPHA])),
    // At the default alpha = 1: the limit at 0⁺.
    slopes: Some(Slopes {
        sup_abs: 1.0,
        asymptotic_slopes: (0.0, 1.0),
    }),
};

/// `alpha·e^x` for `x < 0`: `alpha_hi·e^x` is the plain evaluation (libm's `exp` within an ulp
/// or two, one product, alpha's own rounding 2^-53: far within [`REL`]). The refined one, for
/// `−1/2 < x < 0`, is `alpha + alpha·(e^x − 1)` with `alpha` carried exactly as `hi + lo` and
/// `alpha_hi·expm1(x)` within a few ulps of itself: it settles the inputs near 0 where `alpha·e^x`
/// lies within 2^-40 of a midpoint just below `alpha` (x = −2^-25 in `f32`).
fn alpha_exp(a: &super::Const, x: f64) -> Bounded {
    if x > -0.5 {
        let d = a.hi * libm::expm1(x);
        let lo = a.lo + d;
        Bounded {
            hi: a.hi,
            lo,
            err: REL * d.abs() + a.lo.abs() * f64::EPSILON + ABS,
        }
    } else {
        Bounded::evaluated(a.hi * libm::exp(x))
    }
}

/// The derivative: 1 for `x > 0`, `alpha·e^x` for `x ≤ 0`. At the kink 0 it is the limit from
/// the left, `alpha` (equal to the right one for α = 1); +0 at −inf, 1 at +inf. For `x < 0`
/// near 0 the value approaches `alpha` from below, closer than any evaluation resolves at a
/// bf16 subnormal input (`alpha·(1 − 2^-133)`): `pinned` gives that side when `alpha` is an
/// `f64` (and so possibly a midpoint of the format).
pub(super) const DERIVATIVE: Facts = Facts {
    definition: "1 if x > 0 else alpha*e^x",
    constants: CONSTANTS,
    check: None,
    at_zero: [
        Value::Of(|a: &Args| Special::Rational(a[ALPHA].value)),
        Value::Of(|a: &Args| Special::Rational(a[ALPHA].value)),
    ],
    at_inf: [Value::Exact(0.0), Value::Exact(1.0)],
    eval: |x, a| {
        Some(if x > 0.0 {
            Bounded::exact(1.0)
        } else {
            Bounded::evaluated(a[ALPHA].hi * libm::exp(x))
        })
    },
    refined: Some(|x, a| {
        if x > 0.0 {
            Bounded::exact(1.0)
        } else {
            alpha_exp(&a[ALPHA], x)
        }
    }),
    exact: None,
    side_of_input: [None, None],
    pinned: Some(|x, a| (x < 0.0 && a[ALPHA].is_f64()).then_some((a[ALPHA].hi, Ordering::Less))),
    slopes: None,
};
