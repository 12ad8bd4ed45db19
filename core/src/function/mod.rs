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
//!   with the asymptotic slopes (`slopes`, for `approx`);
//! - `pub(super) const DERIVATIVE: Facts = Facts { … };`: the derivative `f'` as a function of
//!   its own, with the same facts and the same constants (its `slopes` are `None`: `approx`
//!   approximates functions, not derivatives). At a kink `f'` is the limit from the left, at
//!   the end of a domain the limit from inside it (docs/SEMANTICS.md, "Derivatives"); its
//!   evaluation keeps the sign of the exact value where it underflows.
//!
//! # The list
//!
//! The one invocation of `functions!` below lists the functions, one line each, in the order
//! of [`Function::ALL`] (the order of the lock file: a new function takes the next line, so
//! existing lock lines never move): the variant, the file, the cargo feature and the
//! variant's doc. The macro expands it into the `mod` declarations, the [`Function`] enum,
//! [`Function::ALL`], `name`, `feature` and the dispatch to each file's `FACTS` and
//! `DERIVATIVE`, as
//! rust-lang/libm's `libm-macros` expands its one shared list. A listed file that does not
//! exist fails the build; a file of this folder that the list omits fails the test
//! `every_function_file_is_listed`. Adding a function is adding its file and its line (and
//! its cargo feature, docs rows and lock lines: docs/ARCHITECTURE.md).
//!
//! Helpers shared by several functions (softplus, …) are in [`crate::math`].

use crate::exact::Exact;
use crate::rational::Rational;
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
        /// function is one file of `core/src/function/` and one line of its list. A function
        /// may have named constants ([`constants`](Self::constants)); an [`Op`](crate::Op)
        /// gives them their values.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Function {
            $(#[doc = $doc] $variant,)*
        }

        impl Function {
            /// Every function, in a fixed order (the order of the lock file).
            pub const ALL: [Function; [$(Function::$variant),*].len()] = [$(Function::$variant),*];

            /// The function's name in table names and op names (snake case): `gelu`,
            /// `gelu_tanh`, `softcap`, ….
            pub const fn name(self) -> &'static str {
                match self {
                    $(Function::$variant => stringify!($file),)*
                }
            }

            /// The cargo feature of the runtime crate that enables this function's built-in
            /// tables (kebab case): `gelu`, `gelu-tanh`, …. A function with a constant
            /// without default ([`has_defaults`](Self::has_defaults) false: softcap, prelu,
            /// gelu_clipped, xielu) has no built-in table and no such feature; this is then
            /// the name one would have.
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

            /// Everything about the function's derivative: its file's `DERIVATIVE`.
            pub(crate) const fn derivative_facts(self) -> &'static Facts {
                match self {
                    $(Function::$variant => &$file::DERIVATIVE,)*
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
    (Elu,         elu,         "elu",          "`x` for `x > 0`, else `alpha·(e^x − 1)`; `alpha` = 1 by default."),
    (Selu,        selu,        "selu",         "`λ·x` for `x > 0`, else `λ·α·(e^x − 1)`, with the self-normalizing constants λ = 1.0507009873554804934193349852946, α = 1.6732632423543772848170429916717."),
    (Hardsigmoid, hardsigmoid, "hardsigmoid",  "`max(0, min(1, x/6 + 1/2))`."),
    (Hardswish,   hardswish,   "hardswish",    "`x·hardsigmoid(x)`."),
    (Erf,         erf,         "erf",          "The error function `erf x`."),
    (Exp,         exp,         "exp",          "`e^x`."),
    (Log,         log,         "log",          "`ln x`; `x < 0` gives the default NaN, `±0` gives −inf."),
    (Rsqrt,       rsqrt,       "rsqrt",        "`1/√x`; `x < 0` gives the default NaN, `+0` gives +inf, `−0` gives −inf."),
    (GeluQuick,   gelu_quick,  "gelu-quick",   "`x·sigmoid(1.702·x) = x/(1 + e^(−1.702·x))`, the quick GELU of CLIP and ggml (1.702 is the exact decimal)."),
    (Logsigmoid,  logsigmoid,  "logsigmoid",   "`ln sigmoid(x) = −softplus(−x) = −ln(1 + e^−x)`, PyTorch's LogSigmoid."),
    (Identity,    identity,    "identity",     "`x`: the identity (transformers' `linear`), and the op of a plain dequantization table."),
    (Relu,        relu,        "relu",         "`max(0, x)`: `x` for `x > 0`, else +0."),
    (Relu2,       relu2,       "relu2",        "`relu(x)²`: `x²` for `x > 0`, else +0 (Primer's squared ReLU, Nemotron)."),
    (Relu6,       relu6,       "relu6",        "`min(max(0, x), 6)`."),
    (LeakyRelu,   leaky_relu,  "leaky-relu",   "`x` for `x > 0`, else `alpha·x`; `alpha` = 0.01 by default (PyTorch)."),
    (Prelu,       prelu,       "prelu",        "`x` for `x > 0`, else `weight·x`: PyTorch's PReLU, whose `weight` is trained (no default)."),
    (Hardtanh,    hardtanh,    "hardtanh",     "`min(max(x, min), max)`; `min` = −1, `max` = 1 by default (PyTorch)."),
    (Celu,        celu,        "celu",         "`x` for `x > 0`, else `alpha·(e^(x/alpha) − 1)`; `alpha` = 1 by default."),
    (Softcap,     softcap,     "softcap",      "`cap·tanh(x/cap)`: Gemma's logit softcapping (`cap` 30 or 50; no default)."),
    (Situ,        situ,        "situ",         "`beta·tanh(x/beta)·sigmoid(x)`: the SiTU gate of Kimi-K3 (`beta` = 4)."),
    (SwigluOai,   swiglu_oai,  "swiglu-oai",   "`c·sigmoid(alpha·c)` with `c = min(x, limit)`: GPT-OSS's clamped SwiGLU gate (`alpha` = 1.702, `limit` = 7)."),
    (Swish,       swish,       "swish",        "`x·sigmoid(beta·x)`; `beta` = 1 by default (then silu)."),
    (Laplace,     laplace,     "laplace",      "`(1 + erf((x − mu)/(sigma·√2)))/2`: MEGA's Laplace attention activation (`mu` = 0.707107, `sigma` = 0.282095)."),
    (Sqrtsoftplus, sqrtsoftplus, "sqrtsoftplus", "`√softplus(x) = √ln(1 + e^x)`: DeepSeek-V4's router score."),
    (GeluClipped, gelu_clipped, "gelu-clipped", "`min(max(gelu(x), min), max)`: transformers' clipped GELU (`gelu_10` is `min` = −10, `max` = 10; no default)."),
    (Xielu,       xielu,       "xielu",        "xIELU: `alpha_p·x² + beta·x` for `x > 0`, else `(e^min(x, eps) − 1 − x)·alpha_n + beta·x` (`alpha_p`, `alpha_n` trained; `beta` = 0.5, `eps` = −0.000001)."),
}

/// A named constant of a function: its name, its default, the numbers it may take, and what
/// it is. [`Function::constants`] lists a function's constants in their declared order (the
/// order of an op's canonical text).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Constant {
    /// The name, as in `softcap(cap=30)`.
    pub name: &'static str,
    /// The default, or `None` when the op must give it (a trained constant, or one without a
    /// usual value).
    pub default: Option<Rational>,
    /// The numbers it may take.
    pub domain: Domain,
    /// What it is, in one line.
    pub doc: &'static str,
}

/// The numbers a [`Constant`] may take (every constant is finite: a [`Rational`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Domain {
    /// Any rational number.
    Any,
    /// Above zero.
    Positive,
    /// Below zero.
    Negative,
}

impl Domain {
    /// Whether `v` lies in the domain.
    pub fn contains(self, v: Rational) -> bool {
        match self {
            Domain::Any => true,
            Domain::Positive => v.is_positive(),
            Domain::Negative => v.is_negative(),
        }
    }

    /// What the domain requires, for messages: `finite`, `positive`, `negative`.
    pub const fn describe(self) -> &'static str {
        match self {
            Domain::Any => "finite",
            Domain::Positive => "positive",
            Domain::Negative => "negative",
        }
    }
}

/// The value of one constant as the evaluations read it: the exact [`Rational`], and `hi + lo`
/// (its nearest `f64`, and the rest rounded to `f64`: `|value − (hi + lo)| ≤ 2^-53·|lo|`;
/// `lo` is 0 exactly when `hi` is the value, and otherwise has the sign of `value − hi`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Const {
    pub value: Rational,
    pub hi: f64,
    pub lo: f64,
}

impl Const {
    /// The constant of value `value`.
    pub(crate) fn of(value: Rational) -> Const {
        let (hi, lo) = value.to_f64_pair();
        Const { value, hi, lo }
    }

    /// An unused slot (zero).
    pub(crate) const UNUSED: Const = Const {
        value: Rational::ZERO,
        hi: 0.0,
        lo: 0.0,
    };

    /// Whether `hi` is the exact value.
    pub(crate) fn is_f64(&self) -> bool {
        self.lo == 0.0
    }

    /// A bound on `|value − hi|` (relative to `hi`, at most 2^-53 and a little).
    pub(crate) fn err(&self) -> f64 {
        self.lo.abs() * (1.0 + f64::EPSILON)
    }

    /// The exact value.
    pub(crate) fn exact(&self) -> Exact {
        self.value.exact()
    }

    /// The order of the exact value and the `f64` `x` (exact: `lo`'s sign is that of
    /// `value − hi`).
    pub(crate) fn cmp_f64(&self, x: f64) -> Ordering {
        match self.hi.partial_cmp(&x) {
            Some(Ordering::Equal) | None => self.lo.partial_cmp(&0.0).unwrap_or(Ordering::Equal),
            Some(o) => o,
        }
    }

    /// The value as a [`Bounded`]: `hi + lo` within `2^-53·|lo|`.
    pub(crate) fn bounded(&self) -> Bounded {
        Bounded {
            hi: self.hi,
            lo: self.lo,
            err: self.lo.abs() * f64::EPSILON,
        }
    }
}

/// The constants of an op, in its function's declared order.
pub(crate) type Args = [Const];

/// A function's value at a special input (±0, ±inf), as data.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Value {
    /// Exactly this `f64` (±0, ±1, ±inf, 1/2, …).
    Exact(f64),
    /// This `f64`, within the default relative bound of a plain evaluation (ln 2, λ·α).
    Evaluated(f64),
    /// The positive default NaN of the output format (log and rsqrt at −inf).
    DefaultNan,
    /// Given by the constants (softcap's ±cap at ±inf, laplace's value at 0).
    Of(fn(&Args) -> Special),
}

/// `sup|f'|` and the asymptotic slopes: what `approx` needs of a function whose derivative is
/// bounded on the whole real line (at the function's default constants).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slopes {
    /// An upper bound on `|f'(x)|` over all real `x` (one-sided derivatives where `f` is not
    /// differentiable): exact for rational cases, otherwise the maximum rounded up in the
    /// 8th digit (checked by the runtime's approx tests with secant slopes).
    pub sup_abs: f64,
    /// The slopes of the asymptotes at −inf and +inf, rounded to `f32`.
    pub asymptotic_slopes: (f32, f32),
}

/// A cross-constraint among a function's constants: `Err((constant, rule))` names the constant
/// at fault and the rule it breaks (`("min", "must not exceed max")`).
pub(crate) type Check = fn(&[Rational]) -> Result<(), (&'static str, &'static str)>;

/// A point `f(x)` can approach beyond any evaluation's resolution, and the side of it where
/// `f(x)` lies ([`Facts::pinned`]).
pub(crate) type Pinned = fn(f64, &Args) -> Option<(f64, Ordering)>;

/// Everything about one function (or one derivative), but its name (the file's name): see the
/// module doc.
///
/// The evaluations take the op's constants ([`Args`], empty for a function without any). A
/// new kind of fact (a fused form) is a new field with the same argument shape, so that every
/// function file states it next to the others.
pub(crate) struct Facts {
    /// The definition as one line of ASCII text (manifests and docs).
    pub definition: &'static str,
    /// The named constants, in their declared order (at most [`crate::op::MAX_CONSTANTS`]); a
    /// derivative's are its function's.
    pub constants: &'static [Constant],
    /// A constraint among the constants beyond each one's domain (hardtanh's `min ≤ max`).
    pub check: Option<Check>,
    /// The values at −0 and +0.
    pub at_zero: [Value; 2],
    /// The limits at −inf and +inf.
    pub at_inf: [Value; 2],
    /// The plain evaluation at a finite non-zero `x`: `None` means the default NaN (outside
    /// the domain).
    pub eval: fn(f64, &Args) -> Option<Bounded>,
    /// A more precise evaluation for inputs whose plain evaluation lies within its bound of a
    /// rounding boundary; `None` where the plain one settles every input of every format.
    pub refined: Option<fn(f64, &Args) -> Bounded>,
    /// The exact value where it is rational (leaky_relu's `alpha·x`, a clamp's constant, an
    /// exact tie), for inputs that neither evaluation settles; `None` where the value is
    /// transcendental (or too large for [`Exact`]).
    pub exact: Option<fn(f64, &Args) -> Option<Exact>>,
    /// The sign of `f(x) − x` at every finite non-zero `x < 0` and `x > 0`, where it is known
    /// and `f(x)` can lie closer to `x` than any evaluation resolves (an exponentially small
    /// residual): settles an `f32` input that is itself a rounding boundary of the output.
    pub side_of_input: [Option<Ordering>; 2],
    /// A point `p` (an `f64`) and the side of it where `f(x)` lies, when `f(x)` can lie closer
    /// to `p` than any evaluation resolves: softcap's `cap` for large `x`, approached from
    /// below. Settles `f(x)` when `p` is itself a rounding boundary (softcap(cap=30) over
    /// fp8_e5m2, whose 30 lies halfway between 28 and 32).
    pub pinned: Option<Pinned>,
    /// `sup|f'|` and the asymptotic slopes, for `approx`: `None` where `f'` is unbounded (exp,
    /// log, rsqrt, relu2), where the function has no linear asymptote (sqrtsoftplus grows like
    /// √x), where it has a constant without default, and in a derivative's facts (`approx`
    /// approximates functions only).
    pub slopes: Option<Slopes>,
}

/// What a function is at a special input: the limit at ±inf or the value at ±0.
pub(crate) enum Special {
    /// A value to round like any other.
    Value(Bounded),
    /// An exact rational value (a constant: softcap's ±cap, hardtanh's min and max); zero is
    /// +0.
    Rational(Rational),
    /// The positive default NaN of the output format.
    DefaultNan,
}

impl Facts {
    /// The value at ±inf (`neg` selects −inf) or at ±0 (`zero`), per docs/SEMANTICS.md.
    pub(crate) fn special(&self, args: &Args, neg: bool, zero: bool) -> Special {
        let values = if zero { self.at_zero } else { self.at_inf };
        match values[usize::from(!neg)] {
            Value::Exact(v) => Special::Value(Bounded::exact(v)),
            Value::Evaluated(v) => Special::Value(Bounded::evaluated(v)),
            Value::DefaultNan => Special::DefaultNan,
            Value::Of(f) => f(args),
        }
    }

    /// The refined evaluation at a finite non-zero `x`, if the function has one.
    pub(crate) fn eval_refined(&self, x: f64, args: &Args) -> Option<Bounded> {
        self.refined.map(|refined| refined(x, args))
    }

    /// The exact value at a finite non-zero `x`, where it is rational.
    pub(crate) fn eval_exact(&self, x: f64, args: &Args) -> Option<Exact> {
        self.exact.and_then(|exact| exact(x, args))
    }

    /// The known sign of `f(x) − x` at a finite non-zero `x`, if any.
    pub(crate) fn side_of_input(&self, x: f64) -> Option<Ordering> {
        self.side_of_input[usize::from(x > 0.0)]
    }

    /// A point that `f(x)` can approach beyond any evaluation's resolution, and the side of
    /// it where `f(x)` lies.
    pub(crate) fn pinned(&self, x: f64, args: &Args) -> Option<(f64, Ordering)> {
        self.pinned.and_then(|p| p(x, args))
    }

    /// Whether the result is NaN for some input that is not NaN: the limit at −inf is the
    /// default NaN exactly for log and rsqrt and their derivatives (NaN at every negative
    /// number too).
    fn needs_nan(&self) -> bool {
        matches!(self.at_inf[0], Value::DefaultNan)
    }
}

impl Function {
    /// The definition, as one line of text (for manifests and docs).
    pub const fn definition(self) -> &'static str {
        self.facts().definition
    }

    /// The function's named constants, in their declared order (empty for most functions).
    ///
    /// ```
    /// use actlut_core::{Function, Rational};
    /// let c = Function::LeakyRelu.constants();
    /// assert_eq!((c[0].name, c[0].default), ("alpha", Some("0.01".parse::<Rational>()?)));
    /// assert!(Function::Gelu.constants().is_empty());
    /// assert_eq!(Function::Softcap.constants()[0].default, None);
    /// # Ok::<(), actlut_core::RationalError>(())
    /// ```
    pub const fn constants(self) -> &'static [Constant] {
        self.facts().constants
    }

    /// Whether every constant has a default: then the function alone is an op
    /// ([`Op::new`](crate::Op::new)) and has built-in tables. False for softcap, prelu,
    /// gelu_clipped and xielu.
    pub const fn has_defaults(self) -> bool {
        let c = self.facts().constants;
        let mut i = 0;
        while i < c.len() {
            if c[i].default.is_none() {
                return false;
            }
            i += 1;
        }
        true
    }

    /// Looks a function up by its [`name`](Self::name) or its [`feature`](Self::feature).
    pub fn from_name(name: &str) -> Option<Function> {
        Function::ALL
            .into_iter()
            .find(|f| f.name() == name || f.feature() == name)
    }

    /// An upper bound on `|f'(x)|` over all real `x` (at the default constants), or `None`
    /// where the derivative is unbounded (`exp`, `log`, `rsqrt`, `relu2`), the function has
    /// no linear asymptote (`sqrtsoftplus`) or a constant without default: the facts
    /// `approx` needs. Exact for the rational cases, otherwise the maximum
    /// rounded up in the 8th digit.
    ///
    /// ```
    /// use actlut_core::Function;
    /// assert_eq!(Function::Sigmoid.sup_abs_derivative(), Some(0.25));
    /// assert_eq!(Function::Exp.sup_abs_derivative(), None);
    /// ```
    pub const fn sup_abs_derivative(self) -> Option<f64> {
        match self.facts().slopes {
            Some(d) => Some(d.sup_abs),
            None => None,
        }
    }

    /// The slopes of the asymptotes at −inf and +inf (rounded to `f32`, at the default
    /// constants), for the functions whose derivative is bounded; `None` for the others.
    ///
    /// ```
    /// use actlut_core::Function;
    /// assert_eq!(Function::Gelu.asymptotic_slopes(), Some((0.0, 1.0)));
    /// ```
    pub const fn asymptotic_slopes(self) -> Option<(f32, f32)> {
        match self.facts().slopes {
            Some(d) => Some(d.asymptotic_slopes),
            None => None,
        }
    }

    /// Checks the cross-constraints of the constants `values` (in declared order).
    pub(crate) fn check(self, values: &[Rational]) -> Result<(), (&'static str, &'static str)> {
        match self.facts().check {
            Some(check) => check(values),
            None => Ok(()),
        }
    }
}

impl Function {
    /// Whether the function's result is NaN for some input that is not NaN:
    /// log and rsqrt, whose limit at −inf (like their value at every negative
    /// number) is the default NaN. Such a function has no table in a format
    /// without NaN ([`Format::can_represent`]).
    pub fn needs_nan(self) -> bool {
        self.facts().needs_nan()
    }

    /// Whether the derivative's result is NaN for some input that is not NaN: the
    /// derivatives of log and rsqrt, NaN below zero as the functions are. Such a
    /// derivative has no table in a format without NaN
    /// ([`Format::can_represent_derivative`]).
    pub fn derivative_needs_nan(self) -> bool {
        self.derivative_facts().needs_nan()
    }

    /// The definition of the derivative `f'`, as one line of text (for manifests and docs);
    /// it names the function's constants.
    ///
    /// ```
    /// use actlut_core::Function;
    /// assert_eq!(Function::Sigmoid.derivative_definition(), "sigmoid(x)*sigmoid(-x)");
    /// assert_eq!(Function::LeakyRelu.derivative_definition(), "1 if x > 0 else alpha");
    /// ```
    pub const fn derivative_definition(self) -> &'static str {
        self.derivative_facts().definition
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

    /// Whether a table of the derivative of `function` over this format exists:
    /// as for [`can_represent`](Self::can_represent), a derivative whose result is
    /// NaN for some input (those of log and rsqrt, below zero) has no table in a
    /// format without NaN (FP6, FP4).
    ///
    /// ```
    /// use actlut_core::{Format, Function};
    /// assert!(Format::Fp4E2M1.can_represent_derivative(Function::Gelu));
    /// assert!(!Format::Fp4E2M1.can_represent_derivative(Function::Rsqrt));
    /// assert!(Format::Bf16.can_represent_derivative(Function::Log));
    /// ```
    pub fn can_represent_derivative(self, function: Function) -> bool {
        self.has_nan() || !function.derivative_needs_nan()
    }

    /// Whether a table of `op` over this format exists: [`can_represent`](Self::can_represent)
    /// for a function, [`can_represent_derivative`](Self::can_represent_derivative) for a
    /// derivative.
    ///
    /// ```
    /// use actlut_core::{Format, Function, Op};
    /// let op = Op::from(Function::Log).with_derivative(true);
    /// assert!(Format::Bf16.can_represent_op(&op));
    /// assert!(!Format::Fp4E2M1.can_represent_op(&op));
    /// ```
    pub fn can_represent_op(self, op: &crate::Op) -> bool {
        if op.is_derivative() {
            self.can_represent_derivative(op.function())
        } else {
            self.can_represent(op.function())
        }
    }
}

/// Helpers for the function files: the common forms of special values and evaluations.
pub(crate) mod common {
    use super::Const;
    use crate::exact::Exact;
    use crate::round::Bounded;

    /// `c·x` for a constant `c` and a finite `x`, with its error bound: `c_hi·x` rounded once
    /// (its error carried exactly by an FMA), plus `c_lo·x` (the constant's rest).
    pub(crate) fn const_times(c: &Const, x: f64) -> Bounded {
        let hi = c.hi * x;
        if !hi.is_finite() || hi.abs() < 1e-290 {
            // An overflow is beyond every format; near f64's underflow the product is far
            // below every format's smallest subnormal: the absolute floor covers it.
            return Bounded::evaluated(hi);
        }
        let rest = libm::fma(c.hi, x, -hi);
        let lo = rest + c.lo * x;
        Bounded {
            hi,
            lo,
            err: (c.lo * x).abs() * f64::EPSILON + lo.abs() * f64::EPSILON + crate::round::ABS,
        }
    }

    /// The exact `c·x`.
    pub(crate) fn exact_times(c: &Const, x: f64) -> Option<Exact> {
        c.exact().mul(&Exact::from_f64(x))
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

    /// Each function's constants: distinct names, at most `MAX_CONSTANTS`, defaults in their
    /// domains and, when all are given, within the cross-constraints.
    #[test]
    fn constants_are_well_formed() {
        for f in Function::ALL {
            let c = f.constants();
            assert!(c.len() <= crate::op::MAX_CONSTANTS, "{}", f.name());
            for (i, k) in c.iter().enumerate() {
                assert!(
                    c[..i].iter().all(|j| j.name != k.name),
                    "{}: {}",
                    f.name(),
                    k.name
                );
                assert!(!k.doc.is_empty());
                if let Some(d) = k.default {
                    assert!(k.domain.contains(d), "{}: {} = {d}", f.name(), k.name);
                }
            }
            if f.has_defaults() {
                let values: std::vec::Vec<Rational> =
                    c.iter().map(|k| k.default.expect("a default")).collect();
                assert_eq!(f.check(&values), Ok(()), "{}", f.name());
            }
        }
        let without: std::vec::Vec<&str> = Function::ALL
            .into_iter()
            .filter(|f| !f.has_defaults())
            .map(Function::name)
            .collect();
        assert_eq!(without, ["prelu", "softcap", "gelu_clipped", "xielu"]);
    }

    /// A derivative takes its function's constants (the op's), and has no slopes.
    #[test]
    fn a_derivative_has_its_functions_constants() {
        for f in Function::ALL {
            let (facts, derivative) = (f.facts(), f.derivative_facts());
            assert_eq!(facts.constants, derivative.constants, "{}", f.name());
            assert!(derivative.check.is_none() && derivative.slopes.is_none());
        }
    }

    #[test]
    fn slopes_are_consistent() {
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

    /// Exactly log and rsqrt (NaN below zero) lack an FP6 and FP4 table, and so do their
    /// derivatives.
    #[test]
    fn only_formats_with_nan_represent_log_and_rsqrt() {
        for fmt in Format::ALL {
            for f in Function::ALL {
                let want = fmt.has_nan() || !matches!(f, Function::Log | Function::Rsqrt);
                assert_eq!(fmt.can_represent(f), want, "{fmt:?} {f:?}");
                assert_eq!(fmt.can_represent_derivative(f), want, "{fmt:?} {f:?}");
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

    #[test]
    fn a_constant_compares_exactly_with_an_f64() {
        let c = Const::of("0.01".parse().unwrap());
        assert_eq!(c.cmp_f64(0.01), Ordering::Less); // 0.01 in f64 is above 1/100
        assert_eq!(c.cmp_f64(0.0099), Ordering::Greater);
        let c = Const::of("0.5".parse().unwrap());
        assert!(c.is_f64());
        assert_eq!(c.cmp_f64(0.5), Ordering::Equal);
    }
}
