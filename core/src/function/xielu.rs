//! xIELU (transformers' and vLLM's `xielu`): `alpha_p·x² + beta·x` for `x > 0`, else
//! `(e^min(x, eps) − 1 − x)·alpha_n + beta·x`. `alpha_p` > 0 and `alpha_n` > 0 are trained,
//! without default: they are the values the formula multiplies by (transformers stores them
//! through softplus: `alpha_p = softplus(p)`, `alpha_n = beta + softplus(n)`); `beta` (0.5
//! by default) is any rational, `eps` < 0 (−0.000001 by default).
//!
//! The positive side is rational and rounded exactly. Both zeros give `alpha_n·(e^eps − 1)`
//! (a small negative number, as the formula's `x ≤ 0` branch at 0); the limit at +inf is
//! +inf, at −inf `sign(alpha_n − beta)·inf`, or `−alpha_n` when `alpha_n = beta`.

use super::elu::expm1_minus_x;
use super::{Args, Constant, Domain, Facts, Special, Value};
use crate::exact::Exact;
use crate::rational::Rational;
use crate::round::{Bounded, ABS};
use core::cmp::Ordering;

/// The indices of the constants.
const ALPHA_P: usize = 0;
const ALPHA_N: usize = 1;
const BETA: usize = 2;
const EPS: usize = 3;

/// 2^-50.
const E50: f64 = 1.0 / (1u64 << 50) as f64;

/// `alpha_p·x² + beta·x` for `x > 0`: each product within 2^-51 of itself (the constants'
/// roundings and the products'), the sum adding one rounding; the bound is relative to the
/// terms, so a cancellation (`beta < 0`) is left to the exact value.
fn positive(x: f64, a: &Args) -> Bounded {
    let p = a[ALPHA_P].hi * x * x;
    let b = a[BETA].hi * x;
    let v = p + b;
    Bounded {
        hi: v,
        lo: 0.0,
        err: E50 * (p.abs() + b.abs()) + f64::EPSILON * v.abs() + ABS,
    }
}

/// `x ≤ 0`: `(e^m − 1 − x)·alpha_n + beta·x` with `m = min(x, eps)`. For `x ≤ eps`, `e^x − 1
/// − x` is expm1_minus_x (within 2^-44); for `eps < x ≤ 0`, `(e^eps − 1) − x` is the sum of
/// `expm1(eps_hi)` (within 2^-51 of e^eps − 1: eps's rounding, libm's) and `−x`, whose
/// rounding adds 2^-53 of the sum. Both terms of the result carry their errors; the sum's
/// cancellation is left to the bound (relative to the terms).
fn negative(x: f64, a: &Args) -> Bounded {
    let (an, b, eps) = (a[ALPHA_N].hi, a[BETA].hi, &a[EPS]);
    let (u, u_err) = if eps.cmp_f64(x) != Ordering::Less {
        let u = expm1_minus_x(x);
        (u, u.abs() * libm::scalbn(1.0, -44))
    } else {
        let e = libm::expm1(eps.hi);
        let u = e - x;
        (u, e.abs() * libm::scalbn(1.0, -50) + f64::EPSILON * u.abs())
    };
    let t1 = an * u;
    let t2 = b * x;
    let v = t1 + t2;
    Bounded {
        hi: v,
        lo: 0.0,
        err: an.abs() * u_err + E50 * (t1.abs() + t2.abs()) + f64::EPSILON * v.abs() + ABS,
    }
}

/// For `x ≤ eps`: the rational `P = (beta − alpha_n)·x − alpha_n` exactly (as its nearest `f64`
/// and the rest, within 2^-53 of the rest) plus `alpha_n·e^x` (libm's exp, alpha_n's rounding
/// and the product: within 2^-50 of itself; for `x < −745` it is 0 and the term below 2^-1074·
/// alpha_n, within the absolute floor). Resolves a value just off a rounding boundary by the
/// rational's distance to it (`P` = 6133213298686.8, 1.2 below a bf16 midpoint, at x =
/// −8761733283840 with alpha_n = 1.2, beta = 0.5), which the plain evaluation's bound, relative
/// to its two large terms, cannot.
fn refined(x: f64, a: &Args) -> Option<Bounded> {
    if a[EPS].cmp_f64(x) == Ordering::Less {
        return None;
    }
    let xe = Exact::from_f64(x);
    let an = a[ALPHA_N].exact();
    let p = a[BETA].exact().add(&an.neg())?.mul(&xe)?.add(&an.neg())?;
    let hi = p.to_f64()?;
    let rest = p.add(&Exact::from_f64(hi).neg())?.to_f64()?;
    let e = a[ALPHA_N].hi * libm::exp(x);
    let lo = rest + e;
    Some(Bounded {
        hi,
        lo,
        err: (rest.abs() + lo.abs()) * f64::EPSILON + e.abs() * E50 + ABS,
    })
}

/// The limit at −inf.
fn at_minus_inf(a: &Args) -> Special {
    match a[ALPHA_N].value.cmp(&a[BETA].value) {
        Ordering::Greater => Special::Value(Bounded::exact(f64::INFINITY)),
        Ordering::Less => Special::Value(Bounded::exact(f64::NEG_INFINITY)),
        Ordering::Equal => Special::Rational(a[ALPHA_N].value.neg()),
    }
}

/// For `x ≤ eps` the value is `alpha_n·e^x + [(beta − alpha_n)·x − alpha_n]`: a rational plus a
/// positive term that, for large `|x|`, lies beyond any evaluation's resolution (a tie when the
/// rational is a midpoint: 8212 over f16 at x = −27376 with alpha_n = 0.8, beta = 0.5). The
/// rational is the point, when it is an `f64`; the value lies above it.
fn pinned(x: f64, a: &Args) -> Option<(f64, Ordering)> {
    if a[EPS].cmp_f64(x) == Ordering::Less {
        return None;
    }
    let xe = Exact::from_f64(x);
    let an = a[ALPHA_N].exact();
    let p = a[BETA].exact().add(&an.neg())?.mul(&xe)?.add(&an.neg())?;
    let hi = p.to_f64()?;
    (p.compare(&Exact::from_f64(hi)) == Some(Ordering::Equal)).then_some((hi, Ordering::Greater))
}

pub(super) const FACTS: Facts = Facts {
    definition: "alpha_p*x^2 + beta*x if x > 0 else (e^min(x, eps) - 1 - x)*alpha_n + beta*x",
    constants: &[
        Constant {
            name: "alpha_p",
            default: None,
            domain: Domain::Positive,
            doc: "the trained coefficient of x^2 for x > 0 (softplus of the stored parameter)",
        },
        Constant {
            name: "alpha_n",
            default: None,
            domain: Domain::Positive,
            doc: "the trained coefficient of the negative side (beta plus softplus of the stored parameter)",
        },
        Constant {
            name: "beta",
            default: Some(Rational::reduced(1, 2)),
            domain: Domain::Any,
            doc: "the linear coefficient",
        },
        Constant {
            name: "eps",
            default: Some(Rational::reduced(-1, 1_000_000)),
            domain: Domain::Negative,
            doc: "the clamp of the exponential's argument from above",
        },
    ],
    check: None,
    at_zero: [
        Value::Of(|a: &Args| Special::Value(negative(0.0, a))),
        Value::Of(|a: &Args| Special::Value(negative(0.0, a))),
    ],
    at_inf: [Value::Of(at_minus_inf), Value::Exact(f64::INFINITY)],
    eval: |x, a| {
        Some(if x > 0.0 {
            positive(x, a)
        } else {
            negative(x, a)
        })
    },
    refined: Some(|x, a| {
        refined(x, a).unwrap_or_else(|| {
            if x > 0.0 {
                positive(x, a)
            } else {
                negative(x, a)
            }
        })
    }),
    // The positive side is rational.
    exact: Some(|x, a| {
        if x <= 0.0 {
            return None;
        }
        let xe = Exact::from_f64(x);
        let p = a[ALPHA_P].exact().mul(&xe)?.mul(&xe)?;
        p.add(&a[BETA].exact().mul(&xe)?)
    }),
    side_of_input: [None, None],
    pinned: Some(pinned),
    slopes: None,
};

/// `beta − alpha_n`, exactly when it fits a [`Rational`].
fn beta_minus_alpha_n(a: &Args) -> Option<Rational> {
    let (b, n) = (a[BETA].value, a[ALPHA_N].value);
    let den = b.denominator().checked_mul(n.denominator())?;
    let bn = b.numerator().checked_mul(i128::try_from(n.denominator()).ok()?)?;
    let nb = n.numerator().checked_mul(i128::try_from(b.denominator()).ok()?)?;
    Rational::new(bn.checked_sub(nb)?, den).ok()
}

/// `beta − alpha_n` as a special value: exact, or (where it does not fit) evaluated.
fn flat(a: &Args) -> Special {
    match beta_minus_alpha_n(a) {
        Some(r) => Special::Rational(r),
        None => Special::Value(Bounded::evaluated(a[BETA].hi - a[ALPHA_N].hi)),
    }
}

/// The derivative at a finite non-zero `x`: `2·alpha_p·x + beta` above 0, `beta − alpha_n` on
/// `(eps, 0]`, `alpha_n·(e^x − 1) + beta` at and below `eps`. Each product within 2^-50 of
/// itself (the constants' roundings, libm's expm1, the products), the sum one rounding more;
/// the bound is relative to the terms, so a cancellation is left to the exact value (the two
/// rational pieces).
fn derivative(x: f64, a: &Args) -> Bounded {
    let b = a[BETA].hi;
    let (t1, t2) = if x > 0.0 {
        (2.0 * a[ALPHA_P].hi * x, b)
    } else if a[EPS].cmp_f64(x) == Ordering::Less {
        (-a[ALPHA_N].hi, b)
    } else {
        (a[ALPHA_N].hi * libm::expm1(x), b)
    };
    let v = t1 + t2;
    Bounded {
        hi: v,
        lo: 0.0,
        err: E50 * (t1.abs() + t2.abs()) + f64::EPSILON * v.abs() + ABS,
    }
}

/// The exact derivative where it is rational (above `eps`).
fn derivative_exact(x: f64, a: &Args) -> Option<Exact> {
    if x > 0.0 {
        a[ALPHA_P]
            .exact()
            .mul(&Exact::from_f64(2.0 * x))?
            .add(&a[BETA].exact())
    } else if a[EPS].cmp_f64(x) == Ordering::Less {
        a[BETA].exact().add(&a[ALPHA_N].exact().neg())
    } else {
        None
    }
}

/// The derivative: `2·alpha_p·x + beta` for `x > 0`, `beta − alpha_n` for `eps < x ≤ 0`,
/// `alpha_n·(e^x − 1) + beta` for `x ≤ eps`. At the kinks it is the limit from the left:
/// `beta − alpha_n` at 0 (both zeros), `alpha_n·(e^eps − 1) + beta` at `eps`; `beta − alpha_n`
/// at −inf, +inf at +inf. Below `eps` the value approaches `beta − alpha_n` from above (the
/// term `alpha_n·e^x`), beyond any evaluation's resolution for large `|x|`: the rational is
/// the pinned point when it is an `f64`.
pub(super) const DERIVATIVE: Facts = Facts {
    definition: "2*alpha_p*x + beta if x > 0 else beta - alpha_n if x > eps else alpha_n*(e^x - 1) + beta",
    constants: FACTS.constants,
    check: None,
    at_zero: [Value::Of(flat), Value::Of(flat)],
    at_inf: [Value::Of(flat), Value::Exact(f64::INFINITY)],
    eval: |x, a| Some(derivative(x, a)),
    refined: None,
    exact: Some(derivative_exact),
    side_of_input: [None, None],
    pinned: Some(|x, a| {
        if a[EPS].cmp_f64(x) == Ordering::Less {
            return None;
        }
        let p = beta_minus_alpha_n(a)?.exact();
        let hi = p.to_f64()?;
        (p.compare(&Exact::from_f64(hi)) == Some(Ordering::Equal)).then_some((hi, Ordering::Greater))
    }),
    slopes: None,
};
