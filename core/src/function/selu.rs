//! `λ·x` for `x > 0`, else `λ·α·(e^x − 1)`, with the self-normalizing constants
//! λ = 1.0507009873554804934193349852946, α = 1.6732632423543772848170429916717.

use super::{Facts, Slopes, Value};
use crate::round::Bounded;

/// λ.
const LAMBDA: f64 = 1.050_700_987_355_480_493_419_334_985_294_6;
/// λ·α (the exact product of the two decimals, rounded once).
const LAMBDA_ALPHA: f64 = 1.758_099_340_847_376_859_940_217_520_812_319_342_06;

pub(super) const FACTS: Facts = Facts {
    definition: "lambda*x if x > 0 else lambda*alpha*(e^x - 1)",
    constants: &[],
    check: None,
    at_zero: [Value::Exact(-0.0), Value::Exact(0.0)],
    at_inf: [Value::Evaluated(-LAMBDA_ALPHA), Value::Exact(f64::INFINITY)],
    eval: |x, _| {
        Some(if x > 0.0 {
            Bounded::evaluated(LAMBDA * x)
        } else {
            Bounded::evaluated(LAMBDA_ALPHA * libm::expm1(x))
        })
    },
    refined: None,
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    // λ·α (the limit at 0⁻), rounded up; the slope at +inf is λ, rounded to f32.
    slopes: Some(Slopes {
        sup_abs: 1.758_099_341,
        asymptotic_slopes: (0.0, 1.050_701),
    }),
};

/// The derivative: `λ` for `x > 0`, `λ·α·e^x` for `x ≤ 0`. At the kink 0 it is the limit from
/// the left, `λ·α`; +0 at −inf, `λ` at +inf. `λ` and `λ·α` are the constants above, each
/// within 2^-53 (relative) of the exact decimal or product.
pub(super) const DERIVATIVE: Facts = Facts {
    definition: "lambda if x > 0 else lambda*alpha*e^x",
    constants: &[],
    check: None,
    at_zero: [Value::Evaluated(LAMBDA_ALPHA), Value::Evaluated(LAMBDA_ALPHA)],
    at_inf: [Value::Exact(0.0), Value::Evaluated(LAMBDA)],
    eval: |x, _| {
        Some(if x > 0.0 {
            Bounded::evaluated(LAMBDA)
        } else {
            Bounded::evaluated(LAMBDA_ALPHA * libm::exp(x))
        })
    },
    refined: None,
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    slopes: None,
};
