//! `ln sigmoid(x) = −softplus(−x) = −ln(1 + e^−x)`, PyTorch's LogSigmoid.

use super::{Facts, Slopes, Value};
use crate::math::keep_positive;
use crate::round::Bounded;
use core::cmp::Ordering;
use core::f64::consts::LN_2;

/// `−ln(1 + e^−x)` for `x > 0` and `x − ln(1 + e^x)` for `x < 0`: a logarithm of a value near 1
/// computed by `log1p`, never a difference of two numbers of the same sign, so neither tail
/// cancels.
///
/// For large `x` the value is `−e^−x(1 − e^−x/2 + …)`, a tiny negative number: through `log1p`
/// it keeps the relative bound while `e^−x` is a normal `f64` (x < 708), then the absolute
/// one (an `f64` subnormal, within 2^-1074). Beyond x ≈ 745.1 `e^−x` is below half the
/// smallest `f64` subnormal and the evaluation is −0, with the exact value within 2^-1074 of
/// it, far within the absolute bound (1e-300), and below half the smallest subnormal of every
/// table format (bf16's is 2^-134): the result rounds to −0, as it must for every `x` up to
/// bf16's 3.4e38. For large negative `x` the value is `x − e^x`, just below `x`.
fn eval(x: f64) -> Bounded {
    Bounded::evaluated(if x > 0.0 {
        -libm::log1p(libm::exp(-x))
    } else {
        x - libm::log1p(libm::exp(x))
    })
}

pub(super) const FACTS: Facts = Facts {
    definition: "ln(sigmoid(x)) = -softplus(-x)",
    constants: &[],
    check: None,
    at_zero: [Value::Evaluated(-LN_2), Value::Evaluated(-LN_2)],
    at_inf: [Value::Exact(f64::NEG_INFINITY), Value::Exact(-0.0)],
    eval: |x, _| Some(eval(x)),
    refined: None,
    exact: None,
    // ln sigmoid(x) = x − ln(1 + e^x) < x everywhere.
    side_of_input: [Some(Ordering::Less), Some(Ordering::Less)],
    pinned: None,
    // f'(x) = sigmoid(−x), in (0, 1): the supremum 1 is the limit at −inf, the slopes those
    // of the asymptotes y = x (at −inf) and y = 0 (at +inf).
    slopes: Some(Slopes {
        sup_abs: 1.0,
        asymptotic_slopes: (1.0, 0.0),
    }),
};

/// The derivative `sigmoid(−x) = 1/(1 + e^x)`: sigmoid's own evaluation, refinement and bound
/// at `−x` (exact).
pub(super) const DERIVATIVE: Facts = Facts {
    definition: "sigmoid(-x) = 1/(1 + e^x)",
    constants: &[],
    check: None,
    at_zero: [Value::Exact(0.5), Value::Exact(0.5)],
    at_inf: [Value::Exact(1.0), Value::Exact(0.0)],
    eval: |x, _| Some(keep_positive(super::sigmoid::plain(-x))),
    refined: Some(|x, _| keep_positive(super::sigmoid::refined(-x))),
    exact: None,
    side_of_input: [None, None],
    pinned: None,
    slopes: None,
};
