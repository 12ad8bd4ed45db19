//! The error function `erf x`.

use super::{Derivative, Facts, Value};
use crate::round::Bounded;


pub(super) const FACTS: Facts = Facts {
    definition: "erf(x)",
    at_zero: [Value::Exact(-0.0), Value::Exact(0.0)],
    at_inf: [Value::Exact(-1.0), Value::Exact(1.0)],
    eval: |x| Some(Bounded::evaluated(libm::erf(x))),
    refined: None,
    side_of_input: [None, None],
    // 2/√π = 1.12837916709551257… (at 0), rounded up: above `FRAC_2_SQRT_PI`.
    #[allow(clippy::approx_constant)]
    derivative: Some(Derivative {
        sup_abs: 1.128_379_167_095_513,
        asymptotic_slopes: (0.0, 0.0),
    }),
};
