//! The derivatives of docs/SEMANTICS.md ("Derivatives"), as the oracle defines them.
//!
//! Written from the contract, independently of the core's evaluation (which uses logistic
//! pairs and factored forms): here each derivative is its textbook formula in MPFR, in a form
//! whose terms do not cancel in the tails (`sech` for the even ones, `e^u·sech u` for
//! `1 + tanh u` below 0), evaluated on the oracle's ladder of precisions. Where `f'(x)` is
//! rational (softsign, hardsigmoid, hardswish, log, the linear pieces of elu and selu, rsqrt at
//! a square) the exact value is rounded ([`round_rational`]), so exact ties settle to even.
//!
//! The rules of the contract, restated: `f'` is the exact derivative at the exact input,
//! rounded once; an underflowed `f'` keeps the sign of the exact value (gelu', gelu_tanh',
//! silu', mish' and gelu_quick' are negative in their left tails); at a kink the limit from the
//! left (hardswish' is 0 at −3 and 3/2 at 3, hardsigmoid' 0 at −3 and 1/6 at 3, elu' 1 and
//! selu' λα at 0); log' and rsqrt' take the limit from inside their domain at ±0 (+inf and
//! −inf) and are the default NaN below 0; a NaN input gives the same NaN quieted.

use crate::{
    decimal_rational, decode, finite_to_float, finite_to_rational, round_float, round_rational,
    softplus, Act, Decoded, Fmt, Func, Path, Reference, BASE_PREC, GUARD_BITS, RAISED_PRECS,
    SELU_ALPHA, SELU_LAMBDA,
};
use rug::float::Constant;
use rug::ops::NegAssign;
use rug::{Float, Rational};
use std::cmp::Ordering;

/// A value of `f'` fixed by the contract (at ±0 and ±inf).
enum Special {
    Zero {
        negative: bool,
    },
    Inf {
        negative: bool,
    },
    DefaultNan,
    /// An exact rational, rounded exactly (sigmoid'(0) = 1/4 is a tie in FP4).
    Exact(Rational),
    /// An irrational real, at [`BASE_PREC`].
    Real(Float),
}

fn exact(num: i32, den: u32) -> Special {
    Special::Exact(Rational::from((num, den)))
}

fn lambda_alpha() -> Rational {
    decimal_rational(SELU_LAMBDA) * decimal_rational(SELU_ALPHA)
}

fn two_over_sqrt_pi(prec: u32) -> Float {
    let pi = Float::with_val(prec, Constant::Pi);
    Float::with_val(prec, 2) / pi.sqrt()
}

fn special_bits(fmt: Fmt, value: Special) -> u32 {
    match value {
        Special::Zero { negative } => fmt.zero(negative),
        // As for the functions: an infinity overflows (E4M3 to NaN, fnuz to 0x80).
        Special::Inf { negative } => fmt.overflow(negative),
        Special::DefaultNan => fmt.default_nan(),
        Special::Exact(r) => round_rational(fmt, &r).0,
        Special::Real(v) => {
            let r = round_float(fmt, &v, BASE_PREC - GUARD_BITS);
            assert!(
                !r.near_midpoint,
                "special value {v} is near a midpoint of {}",
                fmt.name()
            );
            r.bits
        }
    }
}

/// Whether gelu's values just below 0 (left of 0, and toward −inf) lie inside gelu_clipped's
/// clamp, `min < 0 ≤ max`.
fn clipped_inside_below_zero(f: &Func) -> bool {
    f.c(0).cmp0() == Ordering::Less && f.c(1).cmp0() != Ordering::Less
}

/// `f'` at ±0. The kinks at 0 (relu, relu6, leaky_relu, prelu, elu, selu, xielu, gelu_clipped
/// and hardtanh with a clamp at 0) take the limit from the left.
fn at_zero(f: &Func) -> Special {
    use Act::*;
    match f.act {
        Gelu | GeluTanh | Silu | Hardswish | Softplus | GeluQuick | Logsigmoid | Situ
        | SwigluOai | Swish => exact(1, 2),
        Sigmoid => exact(1, 4),
        Tanh | Softsign | Exp | Identity | Celu | Softcap => exact(1, 1),
        Elu | LeakyRelu | Prelu => Special::Exact(f.c(0).clone()),
        Relu | Relu2 | Relu6 => Special::Zero { negative: false },
        Hardtanh => {
            let inside = *f.c(0) < 0 && f.c(1).cmp0() != Ordering::Less;
            exact(i32::from(inside), 1)
        }
        GeluClipped => {
            if clipped_inside_below_zero(f) {
                exact(1, 2)
            } else {
                exact(0, 1)
            }
        }
        Xielu => Special::Exact(f.c(2).clone() - f.c(1)),
        // tanh(ln 2) = 3/5.
        Mish => exact(3, 5),
        Selu => Special::Exact(lambda_alpha()),
        Hardsigmoid => exact(1, 6),
        Erf => Special::Real(two_over_sqrt_pi(BASE_PREC)),
        Laplace => {
            let zero = Float::with_val(BASE_PREC, 0);
            Special::Real(evaluate_derivative(
                f.clone(),
                &zero,
                &Rational::new(),
                BASE_PREC,
            ))
        }
        Sqrtsoftplus => {
            // 1/(4·√ln 2).
            let ln2 = Float::with_val(BASE_PREC, Constant::Log2);
            let mut v = ln2.sqrt().recip();
            v >>= 2;
            Special::Real(v)
        }
        Log => Special::Inf { negative: false },
        Rsqrt => Special::Inf { negative: true },
    }
}

/// The limit of `f'` at −inf (`negative`) or +inf.
fn limit(f: &Func, negative: bool) -> Special {
    use Act::*;
    if negative {
        match f.act {
            // x·g(x) with g → 0 faster than 1/x: f' → 0 from below.
            Gelu | GeluTanh | Silu | Mish | GeluQuick | Situ | Swish | SwigluOai => {
                Special::Zero { negative: true }
            }
            GeluClipped => Special::Zero {
                negative: clipped_inside_below_zero(f),
            },
            Sigmoid | Tanh | Softplus | Softsign | Elu | Selu | Hardsigmoid | Hardswish | Erf
            | Exp | Relu | Relu2 | Relu6 | Hardtanh | Celu | Softcap | Laplace | Sqrtsoftplus => {
                Special::Zero { negative: false }
            }
            LeakyRelu | Prelu => Special::Exact(f.c(0).clone()),
            Xielu => Special::Exact(f.c(2).clone() - f.c(1)),
            Log | Rsqrt => Special::DefaultNan,
            Logsigmoid | Identity => exact(1, 1),
        }
    } else {
        match f.act {
            Gelu | GeluTanh | Silu | Mish | Softplus | Elu | Hardswish | GeluQuick | Identity
            | Relu | LeakyRelu | Prelu | Celu | Swish => exact(1, 1),
            Selu => Special::Exact(decimal_rational(SELU_LAMBDA)),
            Sigmoid | Tanh | Softsign | Hardsigmoid | Erf | Logsigmoid | Log | Relu6 | Hardtanh
            | Softcap | Situ | SwigluOai | Laplace | Sqrtsoftplus | GeluClipped => {
                Special::Zero { negative: false }
            }
            Exp | Relu2 | Xielu => Special::Inf { negative: false },
            Rsqrt => Special::Zero { negative: true },
        }
    }
}

/// Whether `f'` is negative in the tail where it underflows (the left tail of the x·g(x)
/// functions); every other derivative that can underflow is positive there.
fn underflows_negative(act: Act, x_negative: bool) -> bool {
    use Act::*;
    x_negative
        && matches!(
            act,
            Gelu | GeluTanh | Silu | Mish | GeluQuick | Situ | Swish | SwigluOai | GeluClipped
        )
}

/// Whether gelu_clipped clamps gelu at `x` (gelu's value outside `(min, max)`, decided at
/// [`BASE_PREC`]: gelu is transcendental at a nonzero `x`, never equal to a constant).
fn clipped_clamps(f: &Func, x: &Rational) -> bool {
    let xf = Float::with_val(BASE_PREC, x);
    let g = crate::evaluate(Act::Gelu, &xf, x, BASE_PREC);
    g <= *f.c(0) || g >= *f.c(1)
}

/// `√r` if the rational `r ≥ 0` is the square of a rational.
fn rational_sqrt(r: &Rational) -> Option<Rational> {
    let (n, d) = (r.numer(), r.denom());
    (n.is_perfect_square() && d.is_perfect_square())
        .then(|| Rational::from((n.clone().sqrt(), d.clone().sqrt())))
}

/// `f'(x)` exactly, where it is rational at the finite nonzero `x` (in the domain).
pub fn derivative_exact_rational(f: impl Into<Func>, x: &Rational) -> Option<Rational> {
    let f = &f.into();
    let positive = x.cmp0() == Ordering::Greater;
    let one = || Some(Rational::from(1));
    let zero = || Some(Rational::new());
    match f.act {
        Act::Identity => one(),
        Act::Relu => Some(Rational::from(u32::from(positive))),
        Act::Relu2 if positive => Some(x.clone() * 2u32),
        Act::Relu2 => zero(),
        Act::Relu6 => Some(Rational::from(u32::from(positive && *x <= 6))),
        Act::LeakyRelu | Act::Prelu if positive => one(),
        Act::LeakyRelu | Act::Prelu => Some(f.c(0).clone()),
        // The kinks take the limit from the left: 0 at min, 1 at max.
        Act::Hardtanh => Some(Rational::from(u32::from(x > f.c(0) && x <= f.c(1)))),
        Act::Elu | Act::Celu if positive => one(),
        Act::SwigluOai if x > f.c(1) => zero(),
        Act::Xielu if positive => Some(f.c(0).clone() * x * 2u32 + f.c(2)),
        Act::Xielu if x > f.c(3) => Some(f.c(2).clone() - f.c(1)),
        Act::GeluClipped if clipped_clamps(f, x) => zero(),
        Act::Softsign => {
            let d = x.clone().abs() + 1u32;
            Some(Rational::from(1) / (d.clone() * d))
        }
        Act::Elu if positive => Some(Rational::from(1)),
        Act::Selu if positive => Some(decimal_rational(SELU_LAMBDA)),
        // The kinks ±3 take the limit from the left.
        Act::Hardsigmoid => Some(if *x > -3 && *x <= 3 {
            Rational::from((1, 6))
        } else {
            Rational::new()
        }),
        Act::Hardswish => Some(if *x <= -3 {
            Rational::new()
        } else if *x <= 3 {
            (x.clone() * 2u32 + 3u32) / 6u32
        } else {
            Rational::from(1)
        }),
        Act::Log => Some(x.clone().recip()),
        Act::Rsqrt => rational_sqrt(x).map(|s| -(x.clone() * s * 2u32).recip()),
        _ => None,
    }
}

/// `σ(y) = 1/(1 + e^−y)` (an overflow of `e^−y` gives 0).
fn sigmoid(y: &Float, prec: u32) -> Float {
    let mut t = Float::with_val(prec, -y);
    t.exp_mut();
    t += 1;
    t.recip()
}

/// `sech²(y)`.
fn sech2(y: &Float, prec: u32) -> Float {
    let s = Float::with_val(prec, y.sech_ref());
    Float::with_val(prec, s.square_ref())
}

/// `silu'(y) = σ(y) + y·σ(y)·σ(−y) = σ(y) + (y/4)·sech²(y/2)`.
fn silu_derivative(y: &Float, prec: u32) -> Float {
    let mut h = y.clone();
    h >>= 1;
    let mut second = sech2(&h, prec) * y;
    second >>= 2;
    sigmoid(y, prec) + second
}

/// `f'(x)` at `prec` bits for a finite nonzero `x` in the domain (given exactly at `prec` bits
/// and as a rational). Rational derivatives are rounded from their exact value; the others are
/// sums of at most two terms that cancel only near a root of `f'`, with every step one
/// correctly rounded MPFR operation.
pub fn evaluate_derivative(f: impl Into<Func>, x: &Float, xr: &Rational, prec: u32) -> Float {
    let f = &f.into();
    if let Some(exact) = derivative_exact_rational(f.clone(), xr) {
        return Float::with_val(prec, &exact);
    }
    match f.act {
        Act::Gelu | Act::GeluClipped => {
            // Φ(x) + x·φ(x), Φ(x) = erfc(−x/√2)/2, φ(x) = e^(−x²/2)/√(2π).
            let sqrt2 = Float::with_val(prec, 2).sqrt();
            let mut t = Float::with_val(prec, x / &sqrt2);
            t.neg_assign();
            t.erfc_mut();
            t >>= 1;
            let mut e = Float::with_val(prec, x.square_ref());
            e >>= 1;
            e.neg_assign();
            e.exp_mut();
            let two_pi = Float::with_val(prec, Constant::Pi) * 2u32;
            let density = e / two_pi.sqrt();
            t + density * x
        }
        Act::GeluTanh => {
            // (1 + tanh u)/2 + (x/2)·sech²(u)·u', u = k·(x + c·x³), u' = k·(1 + 3c·x²);
            // 1 + tanh u = e^u·sech(u) where u < 0 (no cancellation).
            let c = Float::with_val(prec, &Rational::from((44715, 1_000_000)));
            let k = (Float::with_val(prec, 2) / Float::with_val(prec, Constant::Pi)).sqrt();
            let x2 = Float::with_val(prec, x.square_ref());
            let x3 = Float::with_val(prec, &x2 * x);
            let u = Float::with_val(prec, &c * &x3) + x;
            let u = u * &k;
            let du = (Float::with_val(prec, &c * &x2) * 3u32 + 1u32) * &k;
            let mut first = if u.is_sign_negative() {
                let e = Float::with_val(prec, u.exp_ref());
                e * Float::with_val(prec, u.sech_ref())
            } else {
                Float::with_val(prec, u.tanh_ref()) + 1u32
            };
            first >>= 1;
            let mut second = sech2(&u, prec) * du * x;
            second >>= 1;
            first + second
        }
        Act::Sigmoid => {
            // sech²(x/2)/4.
            let mut h = x.clone();
            h >>= 1;
            let mut v = sech2(&h, prec);
            v >>= 2;
            v
        }
        Act::Tanh => sech2(x, prec),
        Act::Silu => silu_derivative(x, prec),
        Act::GeluQuick => {
            let k = Float::with_val(prec, &Rational::from((1702, 1000)));
            silu_derivative(&Float::with_val(prec, &k * x), prec)
        }
        Act::Mish => {
            // tanh(sp) + x·sech²(sp)·σ(x), sp = softplus(x).
            let sp = softplus(x, prec);
            let first = Float::with_val(prec, sp.tanh_ref());
            first + sech2(&sp, prec) * sigmoid(x, prec) * x
        }
        Act::Softplus => sigmoid(x, prec),
        Act::Logsigmoid => sigmoid(&Float::with_val(prec, -x), prec),
        Act::Elu => f.cf(0, prec) * Float::with_val(prec, x.exp_ref()),
        Act::Celu => {
            let t = Float::with_val(prec, x / &f.cf(0, prec));
            Float::with_val(prec, t.exp_ref())
        }
        Act::Softcap => sech2(&Float::with_val(prec, x / &f.cf(0, prec)), prec),
        Act::Situ => {
            // sech²(x/β)·σ(x) + β·tanh(x/β)·sech²(x/2)/4.
            let b = f.cf(0, prec);
            let t = Float::with_val(prec, x / &b);
            let first = sech2(&t, prec) * sigmoid(x, prec);
            let mut h = x.clone();
            h >>= 1;
            let mut second = sech2(&h, prec) * Float::with_val(prec, t.tanh_ref()) * &b;
            second >>= 2;
            first + second
        }
        Act::Swish | Act::SwigluOai => {
            silu_derivative(&Float::with_val(prec, &f.cf(0, prec) * x), prec)
        }
        Act::Laplace => {
            // e^(−z²/2)/(σ·√(2π)), z = (x − μ)/σ with x − μ exact.
            let sigma = f.cf(1, prec);
            let d = Float::with_val(prec, &(xr.clone() - f.c(0)));
            let z = d / &sigma;
            let mut e = Float::with_val(prec, z.square_ref());
            e >>= 1;
            e.neg_assign();
            e.exp_mut();
            let two_pi = Float::with_val(prec, Constant::Pi) * 2u32;
            e / (two_pi.sqrt() * sigma)
        }
        Act::Sqrtsoftplus if x.is_sign_negative() => {
            // Below 0, with u = e^x: σ(x)/(2·√ln(1 + u)) = (e^(x/2)/2)·√(u/ln(1 + u))/(1 + u),
            // an identity whose terms are all positive. Far below, where MPFR's exponent range
            // lets u underflow to 0 (and σ and softplus with it: the quotient form is 0/0),
            // u/ln(1 + u) is 1 within u/2 relative, far below any precision of the ladder;
            // e^(x/2) underflows only further down, to a 0 the caller treats as an underflow.
            let u = Float::with_val(prec, x.exp_ref());
            let ratio = if u.is_zero() {
                Float::with_val(prec, 1)
            } else {
                let l = Float::with_val(prec, u.ln_1p_ref());
                Float::with_val(prec, &u / &l)
            };
            let mut h = x.clone();
            h >>= 1;
            h.exp_mut();
            h >>= 1;
            h * ratio.sqrt() / (u + 1u32)
        }
        Act::Sqrtsoftplus => {
            let sp = softplus(x, prec);
            let mut d = sp.sqrt();
            d <<= 1;
            sigmoid(x, prec) / d
        }
        // x ≤ eps: α_n·(e^x − 1) + β.
        Act::Xielu => Float::with_val(prec, x.exp_m1_ref()) * f.cf(1, prec) + f.cf(2, prec),
        Act::Selu => Float::with_val(prec, &lambda_alpha()) * Float::with_val(prec, x.exp_ref()),
        Act::Erf => {
            let mut e = Float::with_val(prec, x.square_ref());
            e.neg_assign();
            e.exp_mut();
            e * two_over_sqrt_pi(prec)
        }
        Act::Exp => Float::with_val(prec, x.exp_ref()),
        Act::Rsqrt => {
            // −(1/√x)/(2x).
            let r = Float::with_val(prec, x.recip_sqrt_ref());
            let mut v = r / x;
            v >>= 1;
            -v
        }
        Act::Softsign
        | Act::Hardsigmoid
        | Act::Hardswish
        | Act::Log
        | Act::Identity
        | Act::Relu
        | Act::Relu2
        | Act::Relu6
        | Act::LeakyRelu
        | Act::Prelu
        | Act::Hardtanh => {
            unreachable!("{}: rational", f.act.name())
        }
    }
}

/// Whether the derivative of `act` is the default NaN at a finite nonzero `x` (log and rsqrt
/// below 0).
fn outside_domain(act: Act, x_negative: bool) -> bool {
    x_negative && matches!(act, Act::Log | Act::Rsqrt)
}

/// The correctly rounded output of `act'` in `fmt` for the input bit pattern `bits`.
///
/// # Panics
/// When an input stays within the near-midpoint margin at every precision of
/// [`RAISED_PRECS`] (and the derivative is not rational there): the oracle never guesses.
pub fn derivative_reference(f: impl Into<Func>, fmt: Fmt, bits: u32) -> Reference {
    let [p1, p2] = RAISED_PRECS;
    derivative_reference_converting(f, fmt, fmt, bits, &[BASE_PREC, p1, p2])
}

/// The correctly rounded output in `fmt` of `act'` at the input bit pattern `bits` of `input`
/// (an `f32` input with an `f32` output checks the computed path), over the ladder `precs`.
/// A NaN input gives the same NaN quieted when the formats are the same, and otherwise the
/// default NaN of `fmt`.
///
/// # Panics
/// As [`derivative_reference`], at the last precision of `precs`.
pub fn derivative_reference_converting(
    f: impl Into<Func>,
    input: Fmt,
    fmt: Fmt,
    bits: u32,
    precs: &[u32],
) -> Reference {
    let f = &f.into();
    let act = f.act;
    let special = |bits| Reference {
        bits,
        path: Path::Special,
    };
    let (negative, significand, exponent) = match decode(input, bits) {
        Decoded::Nan if input == fmt => return special(bits | fmt.quiet_bit()),
        Decoded::Nan => return special(fmt.default_nan()),
        Decoded::Inf { negative } => return special(special_bits(fmt, limit(f, negative))),
        Decoded::Zero { .. } => return special(special_bits(fmt, at_zero(f))),
        Decoded::Finite {
            negative,
            significand,
            exponent,
        } => (negative, significand, exponent),
    };
    if outside_domain(act, negative) {
        return special(fmt.default_nan());
    }
    let xr = finite_to_rational(negative, significand, exponent);
    if let Some(exact) = derivative_exact_rational(f.clone(), &xr) {
        // An exact zero (hardsigmoid' and hardswish' outside their middle piece,
        // hardswish'(−3/2)) is +0; `round_rational` gives +0 for 0.
        let (bits, tie) = round_rational(fmt, &exact);
        return Reference {
            bits,
            path: Path::Exact { tie },
        };
    }
    let mut last = None;
    for (i, &prec) in precs.iter().enumerate() {
        let x = finite_to_float(negative, significand, exponent, prec);
        let mut v = evaluate_derivative(f.clone(), &x, &xr, prec);
        assert!(
            !v.is_nan(),
            "{}' {}: NaN at {bits:#06x}",
            f.label(),
            fmt.name()
        );
        if v.is_zero() {
            // An underflow of MPFR's exponent range: the exact value is nonzero, of the sign
            // of its tail.
            let want_negative = underflows_negative(act, negative);
            if v.is_sign_negative() != want_negative {
                v.neg_assign();
            }
        }
        let r = round_float(fmt, &v, prec - GUARD_BITS);
        if !r.near_midpoint {
            let path = if i == 0 {
                Path::Base
            } else {
                Path::Raised { prec }
            };
            return Reference { bits: r.bits, path };
        }
        last = Some(v);
    }
    panic!(
        "{}' {}: input {bits:#06x} = {} stays within 2^-{} of a midpoint at {} bits: {}",
        f.label(),
        fmt.name(),
        Float::with_val(64, &xr),
        precs.last().expect("a precision") - GUARD_BITS,
        precs.last().expect("a precision"),
        last.expect("evaluated")
    )
}

/// Whether `got` (bits of `fmt`) is the correct rounding of some value within 2^rel_log2
/// (relative) of the exact `act'` at the finite nonzero input `bits` of `input`: a faithful
/// result under that error bound (0.5 ulp + 2^rel_log2). `false` for other inputs.
pub fn is_derivative_rounding_within(
    f: impl Into<Func>,
    input: Fmt,
    fmt: Fmt,
    bits: u32,
    got: u32,
    rel_log2: i32,
) -> bool {
    let f = f.into();
    crate::rounds_within(input, fmt, bits, got, rel_log2, |negative, x, xr| {
        let exact = || evaluate_derivative(f.clone(), x, xr, BASE_PREC);
        (!outside_domain(f.act, negative)).then(exact)
    })
}

/// The input's value and `f'(input)` at [`BASE_PREC`] bits, for messages.
pub fn describe_derivative(f: impl Into<Func>, fmt: Fmt, bits: u32) -> (String, String) {
    let f = f.into();
    crate::describe_with(fmt, bits, |negative, x, xr| {
        let exact = || evaluate_derivative(f.clone(), x, xr, BASE_PREC);
        (!outside_domain(f.act, negative)).then(exact)
    })
}
