//! The reference functions: one file per function, and the one list of them.
//!
//! # One file per function
//!
//! Everything about a function lives in `core/src/function/<name>.rs`, where `<name>` is
//! its snake-case name in table names (`gelu_tanh.rs`): its cargo feature is the name in
//! kebab case (`gelu-tanh`), its [`Function`] variant the name in CamelCase (`GeluTanh`).
//! The file holds:
//!
//! - a `//!` doc that states the exact definition of docs/SEMANTICS.md;
//! - `pub(super) const FACTS: Facts = Facts { … };`: the definition as text, the values at
//!   ±0 and ±inf, the plain `f64` evaluation with its error bound (tail-stable formulas), the
//!   refined evaluation for hard cases, the side of `x` on which `f(x)` lies, and `sup|f'|`
//!   with the asymptotic slopes (for `approx`).
//!
//! # The list
//!
//! The one invocation of `functions!` below lists the functions, one line each, in the order
//! of [`Function::ALL`] (the order of the lock file: a new function takes the next line, so
//! existing lock lines never move): the variant, the file, the cargo feature and the
//! variant's doc. The macro expands it into the `mod` declarations, the [`Function`] enum,
//! [`Function::ALL`], `name`, `feature` and the dispatch to each file's `FACTS`, as
//! rust-lang/libm's `libm-macros` expands its one shared list. A listed file that does not
//! exist fails the build; a file of this folder that the list omits fails the test
//! `every_function_file_is_listed`. Adding a function is adding its file and its line (and
//! its cargo feature, docs rows and lock lines: docs/ARCHITECTURE.md).
//!
//! Helpers shared by several functions (softplus, …) are in [`crate::math`].

use crate::round::Bounded;
use crate::Format;
use core::cmp::Ordering;

/// Expands the list of functions: see the module doc.
macro_rules! functions {
    ($(($variant:ident, $file:ident, $feature:literal, $doc:literal),)*) => {
        $(mod $file;)*

        /// An activation (or elementary) function that actlut tabulates.
        ///
        /// The definitions are those of docs/SEMANTICS.md; every table entry is the exact
        /// value of the function at the exact input, rounded once to nearest-even. Each
        /// function is one file of `core/src/function/` and one line of its list.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Function {
            $(#[doc = $doc] $variant,)*
        }

        impl Function {
            /// Every function, in a fixed order (the order of the lock file).
            pub const ALL: [Function; [$(Function::$variant),*].len()] = [$(Function::$variant),*];

            /// The function's name in table names (snake case): `gelu`, `gelu_tanh`, ….
            pub const fn name(self) -> &'static str {
                match self {
                    $(Function::$variant => stringify!($file),)*
                }
            }

            /// The cargo feature of the runtime crate that enables this function's tables
            /// (kebab case): `gelu`, `gelu-tanh`, ….
            pub const fn feature(self) -> &'static str {
                match self {
                    $(Function::$variant => $feature,)*
                }
            }

            /// Everything else about the function: its file's `FACTS`.
            pub(crate) const fn facts(self) -> &'static Facts {
                match self {
                    $(Function::$variant => &$file::FACTS,)*
                }
            }
        }
    };
}

functions! {
    // (variant,  file,        feature,        the variant's doc: the definition)
    (Gelu,        gelu,        "gelu",         "`x·Φ(x) = (x/2)·erfc(−x/√2)`, the exact GELU."),
    (GeluTanh,    gelu_tanh,   "gelu-tanh",    "`(x/2)·(1 + tanh(√(2/π)·(x + 0.044715·x³)))`, the tanh approximation of GELU (itself evaluated exactly; 0.044715 is the exact decimal)."),
    (Sigmoid,     sigmoid,     "sigmoid",      "`1/(1 + e^−x)`."),
    (Tanh,        tanh,        "tanh",         "`tanh x`."),
    (Silu,        silu,        "silu",         "`x·sigmoid(x)` (swish with β = 1)."),
    (Mish,        mish,        "mish",         "`x·tanh(softplus(x))`."),
    (Softplus,    softplus,    "softplus",     "`ln(1 + e^x)`."),
    (Softsign,    softsign,    "softsign",     "`x/(1 + |x|)`."),
    (Elu,         elu,         "elu",          "`x` for `x > 0`, else `e^x − 1` (α = 1)."),
    (Selu,        selu,        "selu",         "`λ·x` for `x > 0`, else `λ·α·(e^x − 1)`, with the self-normalizing constants λ = 1.0507009873554804934193349852946, α = 1.6732632423543772848170429916717."),
    (Hardsigmoid, hardsigmoid, "hardsigmoid",  "`max(0, min(1, x/6 + 1/2))`."),
    (Hardswish,   hardswish,   "hardswish",    "`x·hardsigmoid(x)`."),
    (Erf,         erf,         "erf",          "The error function `erf x`."),
    (Exp,         exp,         "exp",          "`e^x`."),
    (Log,         log,         "log",          "`ln x`; `x < 0` gives the default NaN, `±0` gives −inf."),
    (Rsqrt,       rsqrt,       "rsqrt",        "`1/√x`; `x < 0` gives the default NaN, `+0` gives +inf, `−0` gives −inf."),
    (GeluQuick,   gelu_quick,  "gelu-quick",   "`x·sigmoid(1.702·x) = x/(1 + e^(−1.702·x))`, the quick GELU of CLIP and ggml (1.702 is the exact decimal)."),
    (Logsigmoid,  logsigmoid,  "logsigmoid",   "`ln sigmoid(x) = −softplus(−x) = −ln(1 + e^−x)`, PyTorch's LogSigmoid."),
}

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
    pub eval: fn(f64) -> Option<Bounded>,
    /// A more precise evaluation for inputs whose plain evaluation lies within its bound of a
    /// rounding boundary; `None` where the plain one settles every input of every format.
    pub refined: Option<fn(f64) -> Bounded>,
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
    Value(Bounded),
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
            Value::Exact(v) => Special::Value(Bounded::exact(v)),
            Value::Evaluated(v) => Special::Value(Bounded::evaluated(v)),
            Value::DefaultNan => Special::DefaultNan,
        }
    }

    /// The plain evaluation at a finite non-zero `x`: `None` means the default NaN.
    pub(crate) fn eval(self, x: f64) -> Option<Bounded> {
        (self.facts().eval)(x)
    }

    /// The refined evaluation at a finite non-zero `x`, if the function has one.
    pub(crate) fn eval_refined(self, x: f64) -> Option<Bounded> {
        self.facts().refined.map(|refined| refined(x))
    }

    /// The known sign of `f(x) − x` at a finite non-zero `x`, if any.
    pub(crate) fn side_of_input(self, x: f64) -> Option<Ordering> {
        self.facts().side_of_input[usize::from(x > 0.0)]
    }
}

impl Function {
    /// Whether the function's result is NaN for some input that is not NaN:
    /// log and rsqrt, whose limit at −inf (like their value at every negative
    /// number) is the default NaN. Such a function has no table in a format
    /// without NaN ([`Format::can_represent`]).
    pub fn needs_nan(self) -> bool {
        matches!(self.special(true, false), Special::DefaultNan)
    }
}

/// What a format can represent of the functions: kept with the functions, so that
/// `format.rs` needs nothing of them.
impl Format {
    /// Whether a table of `function` over this format exists: a function whose
    /// result is NaN for some input (log and rsqrt below zero) has no table in a
    /// format without NaN (FP6, FP4), since no code could hold that result.
    ///
    /// ```
    /// use actlut_core::{Format, Function};
    /// assert!(Format::Fp6E2M3.can_represent(Function::Gelu));
    /// assert!(!Format::Fp6E2M3.can_represent(Function::Log));
    /// assert!(Format::Fp8E4M3Fnuz.can_represent(Function::Rsqrt));
    /// ```
    pub fn can_represent(self, function: Function) -> bool {
        self.has_nan() || !function.needs_nan()
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

    /// Exactly log and rsqrt (NaN below zero) lack an FP6 and FP4 table.
    #[test]
    fn only_formats_with_nan_represent_log_and_rsqrt() {
        for fmt in Format::ALL {
            for f in Function::ALL {
                let want = fmt.has_nan() || !matches!(f, Function::Log | Function::Rsqrt);
                assert_eq!(fmt.can_represent(f), want, "{fmt:?} {f:?}");
                assert_eq!(f.needs_nan(), matches!(f, Function::Log | Function::Rsqrt));
            }
        }
    }

    /// The list of `functions!` names every file of this folder (a file it omits would
    /// be compiled nowhere).
    #[test]
    fn every_function_file_is_listed() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/function");
        let mut files: std::vec::Vec<std::string::String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n.ends_with(".rs") && n != "mod.rs")
            .map(|n| n.trim_end_matches(".rs").into())
            .collect();
        files.sort();
        let mut listed: std::vec::Vec<&str> = Function::ALL.iter().map(|f| f.name()).collect();
        listed.sort();
        assert_eq!(files, listed);
    }
}
