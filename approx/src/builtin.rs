//! [`Builtin`]: the functions whose `sup|f'|` and tails are known.

use crate::ApproxError;
use crate::Function;

/// A function that [`QuantizedFunction`](super::QuantizedFunction) knows: its
/// exact values (actlut's reference math), `sup|f'|` and asymptotic slopes.
///
/// These are actlut's activations whose derivative is bounded on the whole
/// real line, at their default constants (each function's facts come from its
/// one home in `actlut-core`, so this list follows [`Function::ALL`]; `relu` is
/// [`Function::Relu`]).
/// (`exp`, `log` and `rsqrt` have no finite `sup|f'|`; tabulate them with
/// `QuantizedFunction::new` or `new_array` and a bound for your range, or use
/// [`ExpTable`](super::ExpTable).)
///
/// ```
/// use actlut_approx::{Builtin, Function};
/// let f: Builtin = "gelu-tanh".parse()?;
/// assert_eq!(f, Builtin::new(Function::GeluTanh).unwrap());
/// assert_eq!(Builtin::new(Function::Sigmoid).unwrap().sup_abs_derivative(), 0.25);
/// assert_eq!(Builtin::new(Function::Exp), None); // unbounded derivative
/// assert_eq!(Builtin::RELU.eval(-2.0), 0.0);
/// # Ok::<(), actlut_approx::ApproxError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Builtin(Function);

/// How many activations have a bounded derivative.
const BOUNDED: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < Function::ALL.len() {
        if Function::ALL[i].sup_abs_derivative().is_some() {
            n += 1;
        }
        i += 1;
    }
    n
};

impl Builtin {
    /// `max(0, x)` ([`Function::Relu`]); sup|f'| = 1.
    pub const RELU: Builtin = Builtin(Function::Relu);

    /// Every built-in function: the activations whose derivative is bounded, in
    /// the order of [`Function::ALL`].
    ///
    /// ```
    /// use actlut_approx::Builtin;
    /// assert!(Builtin::ALL.iter().all(|f| f.sup_abs_derivative() <= 1.76));
    /// assert!(Builtin::ALL.contains(&Builtin::RELU));
    /// ```
    pub const ALL: [Builtin; BOUNDED] = {
        let mut all = [Builtin::RELU; BOUNDED];
        let (mut i, mut n) = (0, 0);
        while i < Function::ALL.len() {
            if let Some(b) = Builtin::new(Function::ALL[i]) {
                all[n] = b;
                n += 1;
            }
            i += 1;
        }
        all
    };

    /// The built-in for `activation`, or `None` when its derivative is
    /// unbounded (`exp`, `log`, `rsqrt`).
    ///
    /// ```
    /// use actlut_approx::{Builtin, Function};
    /// assert!(Builtin::new(Function::Silu).is_some());
    /// assert!(Builtin::new(Function::Rsqrt).is_none());
    /// ```
    pub const fn new(activation: Function) -> Option<Builtin> {
        if activation.sup_abs_derivative().is_some() {
            Some(Builtin(activation))
        } else {
            None
        }
    }

    /// The actlut [`Function`] it is.
    ///
    /// ```
    /// use actlut_approx::{Builtin, Function};
    /// let silu = Builtin::new(Function::Silu).unwrap();
    /// assert_eq!(silu.function(), Function::Silu);
    /// assert_eq!(Builtin::RELU.function(), Function::Relu);
    /// ```
    pub const fn function(self) -> Function {
        self.0
    }

    /// Its name: the function's table name (`gelu_tanh`, `relu`, …).
    ///
    /// ```
    /// use actlut_approx::{Builtin, Function};
    /// assert_eq!(Builtin::new(Function::GeluTanh).unwrap().name(), "gelu_tanh");
    /// ```
    pub const fn name(self) -> &'static str {
        self.0.name()
    }

    /// Looks a function up by its [`name`](Self::name) or its cargo feature name
    /// (`gelu-tanh`).
    ///
    /// ```
    /// use actlut_approx::Builtin;
    /// assert_eq!(Builtin::from_name("relu"), Some(Builtin::RELU));
    /// assert_eq!(Builtin::from_name("exp"), None); // unbounded derivative
    /// ```
    pub fn from_name(name: &str) -> Option<Builtin> {
        Builtin::ALL
            .into_iter()
            .find(|b| b.name() == name || b.0.feature() == name)
    }

    /// An upper bound on `|f'(x)|` over all real `x` (where `f` is not
    /// differentiable, on its one-sided derivatives): exact for the rational
    /// cases, the maximum rounded up in the 8th digit for the others (found
    /// numerically and checked by the tests with secant slopes on a fine grid).
    /// It is [`Function::sup_abs_derivative`](actlut_core::Function::sup_abs_derivative).
    ///
    /// ```
    /// use actlut_approx::{Builtin, Function};
    /// let sup = |a| Builtin::new(a).unwrap().sup_abs_derivative();
    /// assert_eq!(sup(Function::Hardswish), 1.5);
    /// assert!(sup(Function::Gelu) > 1.1289);
    /// ```
    pub const fn sup_abs_derivative(self) -> f64 {
        match self.0.sup_abs_derivative() {
            Some(sup) => sup,
            None => unreachable!(),
        }
    }

    /// The slopes of the asymptotes at −∞ and +∞: the slopes of the linear
    /// tails of a [`QuantizedFunction`](super::QuantizedFunction) built from it.
    ///
    /// ```
    /// use actlut_approx::{Builtin, Function};
    /// let slopes = |a| Builtin::new(a).unwrap().asymptotic_slopes();
    /// assert_eq!(slopes(Function::Gelu), (0.0, 1.0));
    /// assert_eq!(slopes(Function::Tanh), (0.0, 0.0));
    /// ```
    pub const fn asymptotic_slopes(self) -> (f32, f32) {
        match self.0.asymptotic_slopes() {
            Some(slopes) => slopes,
            None => unreachable!(),
        }
    }

    /// The function at one `f32`, correctly rounded: actlut's computed path
    /// (`actlut_core::eval_f32`).
    ///
    /// ```
    /// use actlut_approx::{Builtin, Function};
    /// assert_eq!(Builtin::new(Function::Sigmoid).unwrap().eval(0.0), 0.5);
    /// ```
    pub fn eval(self, x: f32) -> f32 {
        actlut_core::eval_f32(self.0, x)
    }

    /// The function at one finite `f64`, through actlut's reference math
    /// ([`actlut_core::evaluate`]): within 2^-40 relative (plus 1e-300) of
    /// the exact value. This is the "exact" value that
    /// [`QuantizedFunction::max_abs_error`](super::QuantizedFunction::max_abs_error)
    /// measures against; NaN for a non-finite `x`.
    ///
    /// ```
    /// use actlut_approx::{Builtin, Function};
    /// let softplus = Builtin::new(Function::Softplus).unwrap();
    /// assert_eq!(softplus.eval_f64(0.0), core::f64::consts::LN_2);
    /// ```
    pub fn eval_f64(self, x: f64) -> f64 {
        if !x.is_finite() {
            return f64::NAN;
        }
        actlut_core::evaluate(self.0, x).map_or(f64::NAN, |e| e.hi + e.lo)
    }
}

impl core::fmt::Debug for Builtin {
    /// `Builtin(gelu_tanh)`, `Builtin(relu)`.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Builtin({})", self.name())
    }
}

impl core::fmt::Display for Builtin {
    /// Its [`name`](Builtin::name).
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

impl TryFrom<Function> for Builtin {
    type Error = ApproxError;

    /// [`Builtin::new`], with [`ApproxError::UnknownFunction`] for an activation
    /// whose derivative is unbounded.
    fn try_from(activation: Function) -> Result<Self, Self::Error> {
        Builtin::new(activation).ok_or(ApproxError::UnknownFunction)
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
