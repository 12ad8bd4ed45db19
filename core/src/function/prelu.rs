//! `x` for `x > 0`, else `weight·x`: PyTorch's `PReLU` (ONNX's `PRelu`) with one weight, a
//! trained constant without default. The values, special values and exact rounding are
//! leaky_relu's with `alpha = weight`.

use super::{leaky_relu, Args, Constant, Domain, Facts, Special, Value};

/// The index of `weight` in the constants.
const WEIGHT: usize = 0;

pub(super) const FACTS: Facts = Facts {
    definition: "x if x > 0 else weight*x",
    constants: &[Constant {
        name: "weight",
        default: None,
        domain: Domain::Any,
        doc: "the trained slope of the negative side (PReLU's weight)",
    }],
    check: None,
    at_zero: [Value::Exact(-0.0), Value::Exact(0.0)],
    at_inf: [
        Value::Of(|a: &Args| leaky_relu::at_minus_inf(&a[WEIGHT])),
        Value::Exact(f64::INFINITY),
    ],
    eval: |x, a| Some(leaky_relu::eval(x, &a[WEIGHT])),
    refined: None,
    exact: Some(|x, a| leaky_relu::exact(x, &a[WEIGHT])),
    side_of_input: [None, None],
    pinned: None,
    slopes: None,
};

/// The derivative: leaky_relu's with `alpha = weight` (`weight` at the kink 0, the limit from
/// the left, and at −inf; 1 for `x > 0` and at +inf).
pub(super) const DERIVATIVE: Facts = Facts {
    definition: "1 if x > 0 else weight",
    constants: FACTS.constants,
    check: None,
    at_zero: [
        Value::Of(|a: &Args| Special::Rational(a[WEIGHT].value)),
        Value::Of(|a: &Args| Special::Rational(a[WEIGHT].value)),
    ],
    at_inf: [
        Value::Of(|a: &Args| Special::Rational(a[WEIGHT].value)),
        Value::Exact(1.0),
    ],
    eval: |x, a| Some(leaky_relu::derivative(x, &a[WEIGHT])),
    refined: None,
    exact: Some(|x, a| leaky_relu::derivative_exact(x, &a[WEIGHT])),
    side_of_input: [None, None],
    pinned: None,
    slopes: None,
};
