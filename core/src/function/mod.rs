//! The reference functions: one file per function, and the list derived from the files.
//!
//! # One file per function
//!
//! Everything about a function lives in `core/src/function/<name>.rs`, where `<name>` is
//! its snake-case name in table names (`gelu_tanh.rs`): its cargo feature is the name in
//! kebab case (`gelu-tanh`), its [`Function`] variant the name in CamelCase (`GeluTanh`).
//! The file holds:
//!
//! - a `//!` doc whose first paragraph documents the `Function` variant (the exact definition
//!   of docs/SEMANTICS.md);
//! - its place in [`Function::ALL`], the order of the lock file, on one line of exactly this
//!   form (new functions take the next free position, so existing lock lines never move):
//!
//!   ```text
//!   pub(super) const POSITION: usize = 3;
//!   ```
//! - `pub(super) const FACTS: Facts = Facts { … };` (that line verbatim): the definition as
//!   text, the values at ±0 and ±inf, the plain `f64` evaluation with its error bound
//!   (tail-stable formulas), the refined evaluation for hard cases, the side of `x` on which
//!   `f(x)` lies, and `sup|f'|` with the asymptotic slopes (for `approx`).
//!
//! `core/build.rs` lists the files and generates into `OUT_DIR` the `mod` declarations,
//! the `Function` enum, `Function::ALL`, `name`, `feature` and the dispatch to each file's
//! `FACTS`; a malformed file fails the build with a message naming it. Adding a function is
//! adding its file (and its cargo feature and docs rows): nothing else lists the functions.
//!
//! Helpers shared by several functions (softplus, …) are in [`crate::math`].

use crate::round::Approx;
use core::cmp::Ordering;

include!(concat!(env!("OUT_DIR"), "/functions.rs"));

/// A function's value at a special input (±0, ±inf), as data.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Value {
    /// Exactly this `f64` (±0, ±1, ±inf, 1/2, …).
    Exact(f64),
    /// This `f64`, within the default relative bound of a plain evaluation (ln 2, λ·α).
    Evaluated(f64),
    /// The positive default NaN of the output format (log and rsqrt at −inf).
    DefaultNan,
}

/// `sup|f'|` and the asymptotic slopes: what `approx` needs of a function whose derivative is
/// bounded on the whole real line.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Derivative {
    /// An upper bound on `|f'(x)|` over all real `x` (one-sided derivatives where `f` is not
    /// differentiable): exact for rational cases, otherwise the maximum rounded up in the
    /// 8th digit (checked by the runtime's approx tests with secant slopes).
    pub sup_abs: f64,
    /// The slopes of the asymptotes at −inf and +inf, rounded to `f32`.
    pub asymptotic_slopes: (f32, f32),
}

/// Everything about one function, but its name (the file's name): see the module doc.
pub(crate) struct Facts {
    /// The definition as one line of ASCII text (manifests and docs).
    pub definition: &'static str,
    /// The values at −0 and +0.
    pub at_zero: [Value; 2],
    /// The limits at −inf and +inf.
    pub at_inf: [Value; 2],
    /// The plain evaluation at a finite non-zero `x`: `None` means the default NaN (outside
    /// the domain).
    pub eval: fn(f64) -> Option<Approx>,
    /// A more precise evaluation for inputs whose plain evaluation lies within its bound of a
    /// rounding boundary; `None` where the plain one settles every input of every format.
    pub refined: Option<fn(f64) -> Approx>,
    /// The sign of `f(x) − x` at every finite non-zero `x < 0` and `x > 0`, where it is known
    /// and `f(x)` can lie closer to `x` than any evaluation resolves (an exponentially small
    /// residual): settles an `f32` input that is itself a rounding boundary of the output.
    pub side_of_input: [Option<Ordering>; 2],
    /// `None` where `f'` is unbounded (exp, log, rsqrt).
    pub derivative: Option<Derivative>,
}

/// What a function is at a special input: the limit at ±inf or the value at ±0.
pub(crate) enum Special {
    /// A value to round like any other.
    Value(Approx),
    /// The positive default NaN of the output format.
    DefaultNan,
}

impl Function {
    /// The definition, as one line of text (for manifests and docs).
    pub const fn definition(self) -> &'static str {
        self.facts().definition
    }

    /// Looks a function up by its [`name`](Self::name) or its [`feature`](Self::feature).
    pub fn from_name(name: &str) -> Option<Function> {
        Function::ALL
            .into_iter()
            .find(|f| f.name() == name || f.feature() == name)
    }

    /// An upper bound on `|f'(x)|` over all real `x`, or `None` where the derivative is
    /// unbounded (`exp`, `log`, `rsqrt`). Exact for the rational cases, otherwise the
    /// maximum rounded up in the 8th digit.
    ///
    /// ```
    /// use actlut_core::Function;
    /// assert_eq!(Function::Sigmoid.sup_abs_derivative(), Some(0.25));
    /// assert_eq!(Function::Exp.sup_abs_derivative(), None);
    /// ```
    pub const fn sup_abs_derivative(self) -> Option<f64> {
        match self.facts().derivative {
            Some(d) => Some(d.sup_abs),
            None => None,
        }
    }

    /// The slopes of the asymptotes at −inf and +inf (rounded to `f32`), for the functions
    /// whose derivative is bounded; `None` for the others.
    ///
    /// ```
    /// use actlut_core::Function;
    /// assert_eq!(Function::Gelu.asymptotic_slopes(), Some((0.0, 1.0)));
    /// ```
    pub const fn asymptotic_slopes(self) -> Option<(f32, f32)> {
        match self.facts().derivative {
            Some(d) => Some(d.asymptotic_slopes),
            None => None,
        }
    }

    /// The value at ±inf (`neg` selects −inf) or at ±0 (`zero`), per docs/SEMANTICS.md.
    pub(crate) fn special(self, neg: bool, zero: bool) -> Special {
        let facts = self.facts();
        let values = if zero { facts.at_zero } else { facts.at_inf };
        match values[usize::from(!neg)] {
            Value::Exact(v) => Special::Value(Approx::exact(v)),
            Value::Evaluated(v) => Special::Value(Approx::evaluated(v)),
            Value::DefaultNan => Special::DefaultNan,
        }
    }

    /// The plain evaluation at a finite non-zero `x`: `None` means the default NaN.
    pub(crate) fn eval(self, x: f64) -> Option<Approx> {
        (self.facts().eval)(x)
    }

    /// The refined evaluation at a finite non-zero `x`, if the function has one.
    pub(crate) fn eval_refined(self, x: f64) -> Option<Approx> {
        self.facts().refined.map(|refined| refined(x))
    }

    /// The known sign of `f(x) − x` at a finite non-zero `x`, if any.
    pub(crate) fn side_of_input(self, x: f64) -> Option<Ordering> {
        self.facts().side_of_input[usize::from(x > 0.0)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_features_and_positions_are_one_to_one() {
        for (i, f) in Function::ALL.into_iter().enumerate() {
            assert_eq!(Function::from_name(f.name()), Some(f));
            assert_eq!(Function::from_name(f.feature()), Some(f));
            assert_eq!(f.feature(), f.name().replace('_', "-"));
            assert!(Function::ALL[..i].iter().all(|g| g.name() != f.name()));
        }
    }

    #[test]
    fn derivative_facts_are_consistent() {
        for f in Function::ALL {
            assert_eq!(
                f.sup_abs_derivative().is_some(),
                f.asymptotic_slopes().is_some(),
                "{}",
                f.name()
            );
            if let (Some(sup), Some((lo, hi))) = (f.sup_abs_derivative(), f.asymptotic_slopes()) {
                assert!(sup > 0.0 && f64::from(lo.abs()) <= sup && f64::from(hi.abs()) <= sup);
            }
        }
    }
}
