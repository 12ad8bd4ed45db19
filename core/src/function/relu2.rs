//! `relu(x)²`: `x²` for `x > 0`, else +0 (the squared ReLU of Primer, Nemotron-3;
//! transformers' `relu2`).

use super::{Facts, Value};
use crate::round::{Bounded, ABS};

/// `x²` for `x > 0`: `x·x` rounded once, and its exact error by FMA, so `hi + lo` is `x²`
/// exactly wherever `x²` is a normal `f64` (`x ≥ 2^-511`). Below, `x²` is under 2^-1022, far
/// below every format's smallest subnormal, and the absolute floor bounds it (it rounds to
/// +0); above 2^512 it overflows to +inf, beyond every format too.
fn square(x: f64) -> Bounded {
    let hi = x * x;
    if hi < libm::scalbn(1.0, -1022) || hi.is_infinite() {
        return Bounded {
            hi,
            lo: 0.0,
            err: ABS,
        };
    }
    Bounded {
        hi,
        lo: libm::fma(x, x, -hi),
        err: 0.0,
    }
}

pub(super) const FACTS: Facts = Facts {
    definition: "max(0, x)^2",
    constants: &[],
    check: None,
    at_zero: [Value::Exact(0.0), Value::Exact(0.0)],
    at_inf: [Value::Exact(0.0), Value::Exact(f64::INFINITY)],
    eval: |x, _| {
        Some(if x > 0.0 {
            square(x)
        } else {
            Bounded::exact(0.0)
        })
    },
    refined: None,
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    // f'(x) = 2x is unbounded.
    slopes: None,
};

/// The derivative: `2x` for `x > 0` (exact: a doubling), +0 for `x ≤ 0`; +0 at ±0 and −inf,
/// +inf at +inf.
pub(super) const DERIVATIVE: Facts = Facts {
    definition: "2*max(0, x)",
    constants: &[],
    check: None,
    at_zero: [Value::Exact(0.0), Value::Exact(0.0)],
    at_inf: [Value::Exact(0.0), Value::Exact(f64::INFINITY)],
    eval: |x, _| Some(Bounded::exact(if x > 0.0 { 2.0 * x } else { 0.0 })),
    refined: None,
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    slopes: None,
};
