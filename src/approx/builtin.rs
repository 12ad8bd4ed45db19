//! [`Builtin`]: the functions whose `sup|f'|` and tails are known.

use super::ApproxError;
use crate::Activation;
use actlut_codegen::Function;

/// A function that [`QuantizedFunction`](super::QuantizedFunction) knows: its
/// exact values (actlut's reference math), `sup|f'|` and asymptotic slopes.
///
/// These are actlut's activations whose derivative is bounded on the whole
/// real line, plus `relu`. (`exp`, `log` and `rsqrt` have no finite `sup|f'|`;
/// tabulate them with `QuantizedFunction::new` or `new_array`
/// and a bound for your range, or use [`ExpTable`](super::ExpTable).)
///
/// ```
/// use actlut::approx::Builtin;
/// let f: Builtin = "gelu-tanh".parse()?;
/// assert_eq!(f, Builtin::GeluTanh);
/// assert_eq!(Builtin::Sigmoid.sup_abs_derivative(), 0.25);
/// assert_eq!(Builtin::Relu.eval(-2.0), 0.0);
/// # Ok::<(), actlut::approx::ApproxError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Builtin {
    /// `x·Φ(x)`; sup|f'| = 1.1289042 (at x = √2).
    Gelu,
    /// tanh-approximated GELU; sup|f'| = 1.1289931 (near x = 1.4185).
    GeluTanh,
    /// `1/(1 + e^−x)`; sup|f'| = 1/4 (at 0).
    Sigmoid,
    /// `tanh x`; sup|f'| = 1 (at 0).
    Tanh,
    /// `x·sigmoid(x)`; sup|f'| = 1.0998394 (near x = 2.3994).
    Silu,
    /// `x·tanh(softplus(x))`; sup|f'| = 1.0884982 (near x = 1.4906).
    Mish,
    /// `ln(1 + e^x)`; sup|f'| = 1 (the limit at +∞).
    Softplus,
    /// `x/(1 + |x|)`; sup|f'| = 1 (at 0).
    Softsign,
    /// ELU (α = 1); sup|f'| = 1.
    Elu,
    /// SELU; sup|f'| = λα = 1.7580993… (the limit at 0⁻).
    Selu,
    /// `max(0, min(1, x/6 + 1/2))`; sup|f'| = 1/6.
    Hardsigmoid,
    /// `x·hardsigmoid(x)`; sup|f'| = 3/2 (the limit at 3⁻).
    Hardswish,
    /// `erf x`; sup|f'| = 2/√π (at 0).
    Erf,
    /// `max(0, x)`; sup|f'| = 1.
    Relu,
}

impl Builtin {
    /// Every built-in function.
    ///
    /// ```
    /// use actlut::approx::Builtin;
    /// assert!(Builtin::ALL.iter().all(|f| f.sup_abs_derivative() <= 1.76));
    /// ```
    pub const ALL: [Builtin; 14] = [
        Builtin::Gelu,
        Builtin::GeluTanh,
        Builtin::Sigmoid,
        Builtin::Tanh,
        Builtin::Silu,
        Builtin::Mish,
        Builtin::Softplus,
        Builtin::Softsign,
        Builtin::Elu,
        Builtin::Selu,
        Builtin::Hardsigmoid,
        Builtin::Hardswish,
        Builtin::Erf,
        Builtin::Relu,
    ];

    /// The actlut [`Activation`] it is, or `None` for `relu`.
    ///
    /// ```
    /// use actlut::{approx::Builtin, Activation};
    /// assert_eq!(Builtin::Silu.activation(), Some(Activation::Silu));
    /// assert_eq!(Builtin::Relu.activation(), None);
    /// ```
    pub const fn activation(self) -> Option<Activation> {
        Some(match self {
            Builtin::Gelu => Activation::Gelu,
            Builtin::GeluTanh => Activation::GeluTanh,
            Builtin::Sigmoid => Activation::Sigmoid,
            Builtin::Tanh => Activation::Tanh,
            Builtin::Silu => Activation::Silu,
            Builtin::Mish => Activation::Mish,
            Builtin::Softplus => Activation::Softplus,
            Builtin::Softsign => Activation::Softsign,
            Builtin::Elu => Activation::Elu,
            Builtin::Selu => Activation::Selu,
            Builtin::Hardsigmoid => Activation::Hardsigmoid,
            Builtin::Hardswish => Activation::Hardswish,
            Builtin::Erf => Activation::Erf,
            Builtin::Relu => return None,
        })
    }

    /// Its name: the activation's table name (`gelu_tanh`, …) or `relu`.
    ///
    /// ```
    /// use actlut::approx::Builtin;
    /// assert_eq!(Builtin::GeluTanh.name(), "gelu_tanh");
    /// ```
    pub const fn name(self) -> &'static str {
        match self.activation() {
            Some(a) => a.name(),
            None => "relu",
        }
    }

    /// Looks a function up by its [`name`](Self::name) or its cargo feature name
    /// (`gelu-tanh`).
    ///
    /// ```
    /// use actlut::approx::Builtin;
    /// assert_eq!(Builtin::from_name("relu"), Some(Builtin::Relu));
    /// assert_eq!(Builtin::from_name("exp"), None); // unbounded derivative
    /// ```
    pub fn from_name(name: &str) -> Option<Builtin> {
        Builtin::ALL
            .into_iter()
            .find(|b| b.name() == name || b.activation().is_some_and(|a| a.feature() == name))
    }

    /// An upper bound on `|f'(x)|` over all real `x` (where `f` is not
    /// differentiable, on its one-sided derivatives): exact for the rational
    /// cases, the maximum rounded up in the 8th digit for the others (found
    /// numerically and checked by the tests with secant slopes on a fine grid).
    ///
    /// ```
    /// use actlut::approx::Builtin;
    /// assert_eq!(Builtin::Hardswish.sup_abs_derivative(), 1.5);
    /// assert!(Builtin::Gelu.sup_abs_derivative() > 1.1289);
    /// ```
    pub const fn sup_abs_derivative(self) -> f64 {
        match self {
            Builtin::Gelu => 1.128_904_2,
            Builtin::GeluTanh => 1.128_993_1,
            Builtin::Sigmoid => 0.25,
            Builtin::Tanh | Builtin::Softplus | Builtin::Softsign | Builtin::Elu => 1.0,
            Builtin::Relu => 1.0,
            Builtin::Silu => 1.099_839_4,
            Builtin::Mish => 1.088_498_2,
            // λ·α of SEMANTICS.md, rounded up.
            Builtin::Selu => 1.758_099_341,
            // 1/6 rounded up (the f64 nearest 1/6 is below it).
            Builtin::Hardsigmoid => 0.166_666_666_666_666_7,
            Builtin::Hardswish => 1.5,
            // 2/√π = 1.12837916709551257…, rounded up: above `FRAC_2_SQRT_PI`.
            #[allow(clippy::approx_constant)]
            Builtin::Erf => 1.128_379_167_095_513,
        }
    }

    /// The slopes of the asymptotes at −∞ and +∞: the slopes of the linear
    /// tails of a [`QuantizedFunction`](super::QuantizedFunction) built from it.
    ///
    /// ```
    /// use actlut::approx::Builtin;
    /// assert_eq!(Builtin::Gelu.asymptotic_slopes(), (0.0, 1.0));
    /// assert_eq!(Builtin::Tanh.asymptotic_slopes(), (0.0, 0.0));
    /// ```
    pub const fn asymptotic_slopes(self) -> (f32, f32) {
        match self {
            Builtin::Gelu
            | Builtin::GeluTanh
            | Builtin::Silu
            | Builtin::Mish
            | Builtin::Softplus
            | Builtin::Elu
            | Builtin::Hardswish
            | Builtin::Relu => (0.0, 1.0),
            // λ, rounded to f32.
            Builtin::Selu => (0.0, 1.050_701),
            Builtin::Sigmoid
            | Builtin::Tanh
            | Builtin::Softsign
            | Builtin::Hardsigmoid
            | Builtin::Erf => (0.0, 0.0),
        }
    }

    /// The function at one `f32`, correctly rounded: actlut's computed path
    /// ([`computed::f32`](crate::computed::f32)), or `max(0, x)` for `relu`
    /// (NaN kept).
    ///
    /// ```
    /// use actlut::approx::Builtin;
    /// assert_eq!(Builtin::Sigmoid.eval(0.0), 0.5);
    /// ```
    pub fn eval(self, x: f32) -> f32 {
        match self.activation() {
            Some(a) => crate::computed::f32(a, x),
            None if x > 0.0 => x,
            None if x.is_nan() => x,
            None => 0.0,
        }
    }

    /// The function at one finite `f64`, through actlut's reference math:
    /// within 2^-40 relative (plus 1e-300) of the exact value. This is the
    /// "exact" value that [`QuantizedFunction::max_abs_error`](super::QuantizedFunction::max_abs_error)
    /// measures against; NaN for a non-finite `x`.
    ///
    /// ```
    /// use actlut::approx::Builtin;
    /// assert_eq!(Builtin::Softplus.eval_f64(0.0), core::f64::consts::LN_2);
    /// ```
    pub fn eval_f64(self, x: f64) -> f64 {
        if !x.is_finite() {
            return f64::NAN;
        }
        let function = match self.activation() {
            Some(a) => a.function(),
            None => return if x > 0.0 { x } else { 0.0 },
        };
        if x == 0.0 {
            return match function {
                Function::Sigmoid | Function::Hardsigmoid => 0.5,
                Function::Softplus => core::f64::consts::LN_2,
                _ => 0.0,
            };
        }
        actlut_codegen::evaluate(function, x).map_or(f64::NAN, |e| e.hi + e.lo)
    }
}

impl core::str::FromStr for Builtin {
    type Err = ApproxError;

    /// [`Builtin::from_name`], with [`ApproxError::UnknownFunction`] for a name
    /// it does not know.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Builtin::from_name(s).ok_or(ApproxError::UnknownFunction)
    }
}
