//! `min(max(gelu(x), min), max)`: GELU (the exact, erf form) clamped to `[min, max]`, `min ≤
//! max`, both without default: transformers' `ClippedGELUActivation` (`gelu_10` is `min` = −10,
//! `max` = 10). The value is `gelu(x)` strictly inside `(min, max)`, the constant otherwise (a
//! clamped zero is +0); the limits are the clamps of gelu's −0 and +inf.

use super::{gelu, Args, Const, Constant, Domain, Facts, Special, Value};
use crate::exact::Exact;
use crate::rational::Rational;
use crate::round::Bounded;
use core::cmp::Ordering;

/// The indices of `min` and `max` in the constants.
const MIN: usize = 0;
const MAX: usize = 1;

/// Where the exact value of `g` lies against the constant `c`, when `g`'s bound decides it:
/// `g.hi − c.hi` is exact when the two are close (Sterbenz) and otherwise within 2^-53 of
/// itself, `g.lo − c.lo` adds its rounding.
fn side(g: &Bounded, c: &Const) -> Option<Ordering> {
    let d = (g.hi - c.hi) + (g.lo - c.lo);
    let margin = g.err + c.err() + f64::EPSILON * (d.abs() + g.lo.abs() + c.lo.abs());
    if d > margin {
        Some(Ordering::Greater)
    } else if d < -margin {
        Some(Ordering::Less)
    } else {
        None
    }
}

/// The clamp of the evaluation `g` of gelu: `g` inside, a constant outside, and where `g`'s
/// bound cannot tell, the constant with a bound that covers both (`min(g, max)` then lies
/// within twice `g`'s bound of `max`).
fn clamp(g: Bounded, a: &Args) -> Bounded {
    let (lo, hi) = (&a[MIN], &a[MAX]);
    match (side(&g, lo), side(&g, hi)) {
        (Some(Ordering::Less), _) => lo.bounded(),
        (_, Some(Ordering::Greater)) => hi.bounded(),
        (None, _) => lo
            .bounded()
            .max_err(2.0 * (g.err + lo.err()) + f64::EPSILON * lo.hi.abs()),
        (_, None) => hi
            .bounded()
            .max_err(2.0 * (g.err + hi.err()) + f64::EPSILON * hi.hi.abs()),
        _ => g,
    }
}

/// gelu's refined evaluation (`x/2` exact plus `(x/2)·erf(x/√2)`).
fn gelu_refined(x: f64) -> Bounded {
    (gelu::FACTS.refined.expect("gelu has a refined evaluation"))(x, &[])
}

/// The value at ±0 and at the infinities: the clamp of gelu's value there (`−0`, `+0`, `+inf`).
fn clamp_special(g: f64, a: &Args) -> Special {
    if a[MIN].cmp_f64(g) != Ordering::Less {
        Special::Rational(a[MIN].value)
    } else if a[MAX].cmp_f64(g) != Ordering::Greater {
        Special::Rational(a[MAX].value)
    } else {
        Special::Value(Bounded::exact(g))
    }
}

pub(super) const FACTS: Facts = Facts {
    definition: "min(max(x*Phi(x), min), max)",
    constants: &[
        Constant {
            name: "min",
            default: None,
            domain: Domain::Any,
            doc: "the lower clamp of gelu's value",
        },
        Constant {
            name: "max",
            default: None,
            domain: Domain::Any,
            doc: "the upper clamp of gelu's value",
        },
    ],
    check: Some(|v: &[Rational]| {
        if v[MIN] > v[MAX] {
            Err(("min", "must not exceed `max`"))
        } else {
            Ok(())
        }
    }),
    at_zero: [
        Value::Of(|a: &Args| clamp_special(-0.0, a)),
        Value::Of(|a: &Args| clamp_special(0.0, a)),
    ],
    at_inf: [
        Value::Of(|a: &Args| clamp_special(-0.0, a)),
        Value::Of(|a: &Args| clamp_special(f64::INFINITY, a)),
    ],
    eval: |x, a| Some(clamp((gelu::FACTS.eval)(x, &[])?, a)),
    refined: Some(|x, a| clamp(gelu_refined(x), a)),
    // Past a clamp (decided by the refined evaluation) the value is the constant, exactly.
    exact: Some(|x, a| {
        let g = gelu_refined(x);
        if side(&g, &a[MIN]) == Some(Ordering::Less) {
            Some(a[MIN].exact())
        } else if side(&g, &a[MAX]) == Some(Ordering::Greater) {
            Some(a[MAX].exact())
        } else {
            None::<Exact>
        }
    }),
    side_of_input: [None, None],
    // Strictly inside a clamp it is approaching (gelu decided below max, or above min): the
    // value lies on that side of the clamp, which may be a rounding boundary.
    pinned: Some(|x, a| {
        let g = gelu_refined(x);
        let (lo, hi) = (&a[MIN], &a[MAX]);
        if side(&g, lo) != Some(Ordering::Greater) || side(&g, hi) != Some(Ordering::Less) {
            return None;
        }
        let (c, s) = if (g.hi - hi.hi).abs() <= (g.hi - lo.hi).abs() {
            (hi, Ordering::Less)
        } else {
            (lo, Ordering::Greater)
        };
        c.is_f64().then_some((c.hi, s))
    }),
    slopes: None,
};

/// Whether gelu at `x` lies strictly between the constants (where the derivative is gelu's),
/// decided first by the open interval gelu is known to lie in (`0 < gelu(x) < x` for `x > 0`,
/// as `0 < Φ(x) < 1`; `x/2 < gelu(x) < 0` for `x < 0`, as `0 < Φ(x) < 1/2`), which settles the
/// inputs where gelu is closer to a constant than any evaluation's bound: at a constant's own
/// value (`gelu_clipped(min=-10,max=10)` at 10, where gelu is 10 − 7.6·10⁻²³) and in the left
/// tail against `min = 0` (gelu(−37.2) ≈ −10⁻³⁰¹ is below it); then by gelu's plain or refined
/// evaluation; `None` where none tells (gelu within its bound of a constant; never at a table
/// input known to the tests).
fn inside(x: f64, a: &Args) -> Option<bool> {
    // `x/2` is exact: `x` is a finite nonzero table or `f32` input.
    let (below, above) = if x > 0.0 { (0.0, x) } else { (0.5 * x, 0.0) };
    let (lo, hi) = (&a[MIN], &a[MAX]);
    if lo.cmp_f64(above) != Ordering::Less || hi.cmp_f64(below) != Ordering::Greater {
        // gelu(x) < above ≤ min, or gelu(x) > below ≥ max: clamped.
        return Some(false);
    }
    if lo.cmp_f64(below) != Ordering::Greater && hi.cmp_f64(above) != Ordering::Less {
        return Some(true);
    }
    let decide = |g: &Bounded| match (side(g, &a[MIN]), side(g, &a[MAX])) {
        (Some(Ordering::Less), _) | (_, Some(Ordering::Greater)) => Some(false),
        (Some(Ordering::Greater), Some(Ordering::Less)) => Some(true),
        _ => None,
    };
    decide(&(gelu::FACTS.eval)(x, &[])?).or_else(|| decide(&gelu_refined(x)))
}

/// The derivative at a finite non-zero `x`: gelu's where gelu lies inside, +0 where it is
/// clamped, and where that cannot be told a value whose bound covers both (so the input is
/// reported unsettled, never guessed).
fn derivative(x: f64, a: &Args) -> Bounded {
    match inside(x, a) {
        Some(true) => gelu::derivative(x),
        Some(false) => Bounded::exact(0.0),
        None => Bounded {
            hi: 0.0,
            lo: 0.0,
            err: 2.0,
        },
    }
}

/// Whether values of gelu just below 0 (its values left of 0, and toward −inf) lie inside:
/// `min < 0 ≤ max`.
fn inside_below_zero(a: &Args) -> bool {
    a[MIN].value.is_negative() && !a[MAX].value.is_negative()
}

/// The derivative: gelu's where `min < gelu(x) < max`, +0 where gelu is clamped. gelu equals a
/// constant at a finite input only at 0 (gelu is transcendental elsewhere), and there the kink
/// rule takes the limit from the left, where gelu is just below 0: 1/2 when `min < 0 ≤ max`,
/// else +0 (both zeros). At −inf gelu tends to 0 from below: gelu's −0 when `min < 0 ≤ max`,
/// else +0; at +inf gelu is clamped to `max`: +0.
pub(super) const DERIVATIVE: Facts = Facts {
    definition: "gelu'(x) if min < gelu(x) < max else 0",
    constants: FACTS.constants,
    check: None,
    at_zero: [
        Value::Of(|a: &Args| Special::Value(Bounded::exact(if inside_below_zero(a) { 0.5 } else { 0.0 }))),
        Value::Of(|a: &Args| Special::Value(Bounded::exact(if inside_below_zero(a) { 0.5 } else { 0.0 }))),
    ],
    at_inf: [
        Value::Of(|a: &Args| Special::Value(Bounded::exact(if inside_below_zero(a) { -0.0 } else { 0.0 }))),
        Value::Exact(0.0),
    ],
    eval: |x, a| Some(derivative(x, a)),
    refined: None,
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    slopes: None,
};
