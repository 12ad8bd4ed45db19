//! The reference functions: exact definitions (SEMANTICS.md), evaluated in
//! `f64` through `libm` with tail-stable formulas and an error bound.

use crate::round::Approx;

/// An activation (or elementary) function that actlut tabulates.
///
/// The definitions are those of SEMANTICS.md; every table entry is the exact
/// value of the function at the exact input, rounded once to nearest-even.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Function {
    /// `x·Φ(x) = (x/2)·erfc(−x/√2)`, the exact GELU.
    Gelu,
    /// `(x/2)·(1 + tanh(√(2/π)·(x + 0.044715·x³)))`, the tanh approximation of GELU
    /// (itself evaluated exactly; 0.044715 is the exact decimal).
    GeluTanh,
    /// `1/(1 + e^−x)`.
    Sigmoid,
    /// `tanh x`.
    Tanh,
    /// `x·sigmoid(x)` (swish with β = 1).
    Silu,
    /// `x·tanh(softplus(x))`.
    Mish,
    /// `ln(1 + e^x)`.
    Softplus,
    /// `x/(1 + |x|)`.
    Softsign,
    /// `x` for `x > 0`, else `e^x − 1` (α = 1).
    Elu,
    /// `λ·x` for `x > 0`, else `λ·α·(e^x − 1)`, with the self-normalizing constants
    /// λ = 1.0507009873554804934193349852946, α = 1.6732632423543772848170429916717.
    Selu,
    /// `max(0, min(1, x/6 + 1/2))`.
    Hardsigmoid,
    /// `x·hardsigmoid(x)`.
    Hardswish,
    /// The error function `erf x`.
    Erf,
    /// `e^x`.
    Exp,
    /// `ln x`; `x < 0` gives the default NaN, `±0` gives −inf.
    Log,
    /// `1/√x`; `x < 0` gives the default NaN, `+0` gives +inf, `−0` gives −inf.
    Rsqrt,
}

/// √(2/π), correctly rounded.
const SQRT_2_OVER_PI: f64 = 0.797_884_560_802_865_4;
/// The cubic coefficient of tanh-GELU.
const GELU_TANH_C: f64 = 0.044715;
/// SELU λ.
const SELU_LAMBDA: f64 = 1.050_700_987_355_480_493_419_334_985_294_6;
/// SELU λ·α (the exact product of the two decimals, rounded once).
const SELU_LAMBDA_ALPHA: f64 = 1.758_099_340_847_376_859_940_217_520_812_319_342_06;

/// What a function is at a special input: the limit at ±inf or the value at ±0.
pub(crate) enum Special {
    /// A value to round like any other.
    Value(Approx),
    /// The positive default NaN of the output format.
    DefaultNan,
}

impl Function {
    /// Every function, in a fixed order (the order of the lock file).
    pub const ALL: [Function; 16] = [
        Function::Gelu,
        Function::GeluTanh,
        Function::Sigmoid,
        Function::Tanh,
        Function::Silu,
        Function::Mish,
        Function::Softplus,
        Function::Softsign,
        Function::Elu,
        Function::Selu,
        Function::Hardsigmoid,
        Function::Hardswish,
        Function::Erf,
        Function::Exp,
        Function::Log,
        Function::Rsqrt,
    ];

    /// The function's name in table names (snake case): `gelu`, `gelu_tanh`, ….
    pub const fn name(self) -> &'static str {
        match self {
            Function::Gelu => "gelu",
            Function::GeluTanh => "gelu_tanh",
            Function::Sigmoid => "sigmoid",
            Function::Tanh => "tanh",
            Function::Silu => "silu",
            Function::Mish => "mish",
            Function::Softplus => "softplus",
            Function::Softsign => "softsign",
            Function::Elu => "elu",
            Function::Selu => "selu",
            Function::Hardsigmoid => "hardsigmoid",
            Function::Hardswish => "hardswish",
            Function::Erf => "erf",
            Function::Exp => "exp",
            Function::Log => "log",
            Function::Rsqrt => "rsqrt",
        }
    }

    /// The cargo feature of the runtime crate that enables this function's tables
    /// (kebab case): `gelu`, `gelu-tanh`, ….
    pub const fn feature(self) -> &'static str {
        match self {
            Function::GeluTanh => "gelu-tanh",
            f => f.name(),
        }
    }

    /// The definition, as one line of text (for manifests and docs).
    pub const fn definition(self) -> &'static str {
        match self {
            Function::Gelu => "x*Phi(x) = (x/2)*erfc(-x/sqrt(2))",
            Function::GeluTanh => "(x/2)*(1 + tanh(sqrt(2/pi)*(x + 0.044715*x^3)))",
            Function::Sigmoid => "1/(1 + e^-x)",
            Function::Tanh => "tanh(x)",
            Function::Silu => "x*sigmoid(x)",
            Function::Mish => "x*tanh(softplus(x))",
            Function::Softplus => "ln(1 + e^x)",
            Function::Softsign => "x/(1 + |x|)",
            Function::Elu => "x if x > 0 else e^x - 1",
            Function::Selu => "lambda*x if x > 0 else lambda*alpha*(e^x - 1)",
            Function::Hardsigmoid => "max(0, min(1, x/6 + 1/2))",
            Function::Hardswish => "x*hardsigmoid(x)",
            Function::Erf => "erf(x)",
            Function::Exp => "e^x",
            Function::Log => "ln(x)",
            Function::Rsqrt => "1/sqrt(x)",
        }
    }

    /// Looks a function up by its [`name`](Self::name) or its [`feature`](Self::feature).
    pub fn from_name(name: &str) -> Option<Function> {
        Function::ALL
            .into_iter()
            .find(|f| f.name() == name || f.feature() == name)
    }

    /// The value at ±inf (`neg` selects −inf) or at ±0 (`zero`), per SEMANTICS.md.
    pub(crate) fn special(self, neg: bool, zero: bool) -> Special {
        use Function::*;
        let s = if neg { -1.0 } else { 1.0 };
        let v = match (self, zero) {
            // Odd functions and x·g(x) keep the sign of a zero input.
            (
                Gelu | GeluTanh | Tanh | Silu | Mish | Softsign | Elu | Selu | Hardswish | Erf,
                true,
            ) => s * 0.0,
            (Sigmoid | Hardsigmoid, true) => 0.5,
            (Softplus, true) => return Special::Value(Approx::evaluated(core::f64::consts::LN_2)),
            (Exp, true) => 1.0,
            (Log, true) => f64::NEG_INFINITY,
            (Rsqrt, true) => s * f64::INFINITY,
            // Limits at ±inf.
            (Gelu | GeluTanh | Silu | Mish | Hardswish, false) => {
                if neg {
                    -0.0
                } else {
                    f64::INFINITY
                }
            }
            (Sigmoid | Hardsigmoid, false) => {
                if neg {
                    0.0
                } else {
                    1.0
                }
            }
            (Tanh | Softsign | Erf, false) => s,
            (Elu, false) => {
                if neg {
                    -1.0
                } else {
                    f64::INFINITY
                }
            }
            (Selu, false) => {
                if neg {
                    return Special::Value(Approx::evaluated(-SELU_LAMBDA_ALPHA));
                }
                f64::INFINITY
            }
            (Softplus | Exp, false) => {
                if neg {
                    0.0
                } else {
                    f64::INFINITY
                }
            }
            (Log | Rsqrt, false) if neg => return Special::DefaultNan,
            (Log, false) => f64::INFINITY,
            (Rsqrt, false) => 0.0,
        };
        Special::Value(Approx::exact(v))
    }

    /// The reference evaluation at a finite non-zero `x`: `Err(())` means the
    /// result is the default NaN (a negative input of log or rsqrt).
    pub(crate) fn eval(self, x: f64) -> Result<Approx, ()> {
        use Function::*;
        Ok(match self {
            Gelu => Approx::evaluated(0.5 * x * libm::erfc(-x * core::f64::consts::FRAC_1_SQRT_2)),
            // (x/2)(1 + tanh u) = x / (1 + e^(−2u)): no cancellation on either side.
            GeluTanh => Approx::evaluated(x / (1.0 + libm::exp(-2.0 * gelu_tanh_u(x)))),
            Sigmoid => Approx::evaluated(1.0 / (1.0 + libm::exp(-x))),
            Tanh => Approx::evaluated(libm::tanh(x)),
            Silu => Approx::evaluated(x / (1.0 + libm::exp(-x))),
            Mish => Approx::evaluated(x * libm::tanh(softplus(x))),
            Softplus => Approx::evaluated(softplus(x)),
            Softsign => {
                // 1 + |x| is exact iff TwoSum's error term is zero (a test like
                // d − 1 == |x| is fooled when 1 + |x| rounds to |x|).
                let (d, d_err) = crate::round::two_sum(1.0, x.abs());
                let q = x / d;
                let exact = d_err == 0.0 && libm::fma(q, d, -x) == 0.0;
                if exact {
                    Approx::exact(q)
                } else {
                    Approx::evaluated(q)
                }
            }
            Elu if x > 0.0 => Approx::exact(x),
            Elu => Approx::evaluated(libm::expm1(x)),
            Selu if x > 0.0 => Approx::evaluated(SELU_LAMBDA * x),
            Selu => Approx::evaluated(SELU_LAMBDA_ALPHA * libm::expm1(x)),
            // x/6 + 1/2, and x·(x + 3)/6 = x/2 + x²/6 (x² is exact for every
            // format: at most 2·8 significant bits, no underflow).
            Hardsigmoid if x <= -3.0 => Approx::exact(0.0),
            Hardsigmoid if x >= 3.0 => Approx::exact(1.0),
            Hardsigmoid => Approx::exact_plus_quotient(0.5, x, 6.0),
            Hardswish if x <= -3.0 => Approx::exact(-0.0),
            Hardswish if x >= 3.0 => Approx::exact(x),
            Hardswish => Approx::exact_plus_quotient(0.5 * x, x * x, 6.0),
            Erf => Approx::evaluated(libm::erf(x)),
            Exp => Approx::evaluated(libm::exp(x)),
            Log | Rsqrt if x < 0.0 => return Err(()),
            Log => Approx::evaluated(libm::log(x)),
            Rsqrt => Approx::evaluated(1.0 / libm::sqrt(x)),
        })
    }

    /// A more precise evaluation for inputs whose plain evaluation lies too close
    /// to a rounding boundary, or `None` when the function has none.
    ///
    /// gelu, silu and gelu-tanh are `x/2 + d(x)` with `d ≥ 0`: for tiny `x` the
    /// plain `f64` result is exactly `x/2`, which may be a midpoint of the format
    /// (the bf16 ties of SEMANTICS.md), while the exact value lies just above it.
    /// Here `x/2` is exact and `d` is evaluated with a small relative error.
    pub(crate) fn eval_refined(self, x: f64) -> Option<Approx> {
        let half = 0.5 * x;
        let d = match self {
            // x·Φ(x) − x/2 = (x/2)·erf(x/√2)
            Function::Gelu => half * libm::erf(x * core::f64::consts::FRAC_1_SQRT_2),
            // x·sigmoid(x) − x/2 = (x/2)·tanh(x/2)
            Function::Silu => half * libm::tanh(half),
            Function::GeluTanh => half * libm::tanh(gelu_tanh_u(x)),
            Function::Sigmoid => return Some(sigmoid_refined(x)),
            _ => return None,
        };
        Some(Approx::exact_plus(half, d))
    }
}

/// sigmoid near 0, where `1/2 + x/4` can be an exact `f32` midpoint while the
/// true value lies just below (x > 0) or above it: the series
/// `1/2 + x/4 − x³/48 + x⁵/480 − 17x⁷/80640 + …` with `1/2 + x/4` carried exactly
/// by TwoSum. Up to |x| = 1, `1/2 + tanh(x/2)/2` with 1/2 exact; beyond, the plain form.
fn sigmoid_refined(x: f64) -> Approx {
    const SMALL: f64 = 1.0 / 1024.0;
    if x.abs() >= 1.0 {
        // Far from 1/2 the tanh form would cancel; the plain form is as good.
        return Approx::evaluated(1.0 / (1.0 + libm::exp(-x)));
    }
    if x.abs() >= SMALL {
        return Approx::exact_plus(0.5, 0.5 * libm::tanh(0.5 * x));
    }
    let (s, t) = crate::round::two_sum(0.5, 0.25 * x);
    let x2 = x * x;
    let c = x * x2 * (-1.0 / 48.0 + x2 / 480.0);
    // Series truncation (alternating, decreasing terms: below the first omitted
    // one, 17|x|⁷/80640), the rounding of c (a few ulps), and of t + c.
    let trunc = 17.0 / 80640.0 * (x2 * x2 * x2 * x.abs());
    let lo = t + c;
    Approx {
        hi: s,
        lo,
        err: trunc + (c.abs() + lo.abs()) * 8.0 * f64::EPSILON + crate::round::ABS,
    }
}

/// `√(2/π)·(x + 0.044715·x³)`.
fn gelu_tanh_u(x: f64) -> f64 {
    SQRT_2_OVER_PI * (x + GELU_TANH_C * x * x * x)
}

/// `ln(1 + e^x)`, split at 0 so that neither side cancels.
fn softplus(x: f64) -> f64 {
    if x > 0.0 {
        x + libm::log1p(libm::exp(-x))
    } else {
        libm::log1p(libm::exp(x))
    }
}
