//! `min(max(x, min), max)`: `min` for `x ≤ min`, `max` for `x ≥ max`, `x` between; `min ≤ max`,
//! −1 and 1 by default (PyTorch's `Hardtanh`). The value is `x` or a constant, rounded exactly.
//! A zero input strictly inside `(min, max)` keeps its sign; a clamped zero is the constant
//! (so `hardtanh(min=0,max=6)` is relu6, +0 at −0).

use super::{Args, Const, Constant, Slopes, Domain, Facts, Special, Value};
use crate::exact::Exact;
use crate::rational::Rational;
use crate::round::Bounded;
use core::cmp::Ordering;

/// The indices of `min` and `max` in the constants.
const MIN: usize = 0;
const MAX: usize = 1;

/// Where `x` lies: at or below `min`, at or above `max`, or between.
fn clamp(x: f64, a: &Args) -> Result<f64, &Const> {
    if a[MIN].cmp_f64(x) != Ordering::Less {
        Err(&a[MIN])
    } else if a[MAX].cmp_f64(x) != Ordering::Greater {
        Err(&a[MAX])
    } else {
        Ok(x)
    }
}

/// The value at ±0.
fn at_zero(a: &Args, neg: bool) -> Special {
    let zero = if neg { -0.0 } else { 0.0 };
    match clamp(zero, a) {
        Ok(z) => Special::Value(Bounded::exact(z)),
        Err(c) => Special::Rational(c.value),
    }
}

pub(super) const FACTS: Facts = Facts {
    definition: "min(max(x, min), max)",
    constants: &[
        Constant {
            name: "min",
            default: Some(Rational::from_integer(-1)),
            domain: Domain::Any,
            doc: "the lower clamp, the value for x <= min",
        },
        Constant {
            name: "max",
            default: Some(Rational::ONE),
            domain: Domain::Any,
            doc: "the upper clamp, the value for x >= max",
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
        Value::Of(|a: &Args| at_zero(a, true)),
        Value::Of(|a: &Args| at_zero(a, false)),
    ],
    at_inf: [
        Value::Of(|a: &Args| Special::Rational(a[MIN].value)),
        Value::Of(|a: &Args| Special::Rational(a[MAX].value)),
    ],
    // x exactly, or the constant's nearest f64 and rest (within 2^-53 of the rest).
    eval: |x, a| {
        Some(match clamp(x, a) {
            Ok(x) => Bounded::exact(x),
            Err(c) => c.bounded(),
        })
    },
    refined: None,
    exact: Some(|x, a| {
        Some(match clamp(x, a) {
            Ok(x) => Exact::from_f64(x),
            Err(c) => c.exact(),
        })
    }),
    side_of_input: [None, None],
    pinned: None,
    // At the defaults: slope 1 between −1 and 1.
    slopes: Some(Slopes {
        sup_abs: 1.0,
        asymptotic_slopes: (0.0, 0.0),
    }),
};

/// The derivative: 1 for `min < x ≤ max`, +0 elsewhere (an exact zero), the comparisons exact.
/// At the kinks it is the limit from the left: +0 at `min`, 1 at `max` (and +0 everywhere when
/// `min = max`); +0 at ±inf.
fn derivative(x: f64, a: &Args) -> f64 {
    let inside = a[MIN].cmp_f64(x) == Ordering::Less && a[MAX].cmp_f64(x) != Ordering::Less;
    if inside {
        1.0
    } else {
        0.0
    }
}

pub(super) const DERIVATIVE: Facts = Facts {
    definition: "1 if min < x <= max else 0",
    constants: FACTS.constants,
    check: None,
    at_zero: [
        Value::Of(|a: &Args| Special::Value(Bounded::exact(derivative(0.0, a)))),
        Value::Of(|a: &Args| Special::Value(Bounded::exact(derivative(0.0, a)))),
    ],
    at_inf: [Value::Exact(0.0), Value::Exact(0.0)],
    eval: |x, a| Some(Bounded::exact(derivative(x, a))),
    refined: None,
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    slopes: None,
};
