//! The derivative of every function of [`Function`], for the backward pass.

use actlut::Function;
use core::f64::consts::{FRAC_2_SQRT_PI, PI, SQRT_2};

/// SELU's λ and α (actlut-core's `selu`, PyTorch's and ONNX's defaults).
const SELU_LAMBDA: f64 = 1.050_700_987_355_480_5;
const SELU_ALPHA: f64 = 1.673_263_242_354_377_3;

/// `sigmoid(x)`, without overflow at either end.
fn sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + libm::exp(-x))
    } else {
        let e = libm::exp(x);
        e / (1.0 + e)
    }
}

/// `sigmoid'(x) = sigmoid(x)·sigmoid(−x) = e^−|x| / (1 + e^−|x|)²`, without cancellation.
fn sigmoid_prime(x: f64) -> f64 {
    let e = libm::exp(-x.abs());
    e / ((1.0 + e) * (1.0 + e))
}

/// `1 − tanh(u)² = 4·e^−2|u| / (1 + e^−2|u|)²`, without cancellation for large `|u|`.
fn sech2(u: f64) -> f64 {
    let e = libm::exp(-2.0 * u.abs());
    4.0 * e / ((1.0 + e) * (1.0 + e))
}

/// `ln(1 + e^x)`, stable at both ends.
fn softplus(x: f64) -> f64 {
    x.max(0.0) + libm::log1p(libm::exp(-x.abs()))
}

/// The derivative of `activation` at `x`, evaluated by its closed form in `f64` and rounded
/// to `f32`: what the backward pass of [`crate::apply`] multiplies the gradient by.
///
/// Where the function is not differentiable the value is PyTorch's choice: `hardsigmoid`
/// `1/6` on the open interval (−3, 3) and 0 outside it (also at ±3); `hardswish` 0 below −3,
/// `x/3 + 1/2` on [−3, 3], 1 above 3; `elu` and `selu` take the left branch at 0 (1 and
/// `λ·α`·1). `log` and `rsqrt` are NaN below zero (`log` at −0 and +0: +inf as `1/x` at +0;
/// `rsqrt` at ±0: −inf). NaN in, NaN out.
///
/// # Panics
///
/// For a function that actlut adds after this crate's release (every function of
/// `Function::ALL` has its derivative; the tests check each).
///
/// ```
/// use actlut_burn::{derivative, Function};
/// assert_eq!(derivative(Function::Sigmoid, 0.0), 0.25);
/// assert_eq!(derivative(Function::Gelu, 0.0), 0.5);
/// assert_eq!(derivative(Function::Exp, 1.0), core::f32::consts::E);
/// ```
pub fn derivative(activation: Function, x: f32) -> f32 {
    let x = f64::from(x);
    let d = match activation {
        Function::Gelu => {
            // Φ(x) + x·φ(x).
            let cdf = 0.5 * libm::erfc(-x / SQRT_2);
            let pdf = libm::exp(-0.5 * x * x) / (2.0 * PI).sqrt();
            cdf + x * pdf
        }
        Function::GeluTanh => {
            let k = (2.0 / PI).sqrt();
            let u = k * (x + 0.044_715 * x * x * x);
            0.5 * (1.0 + libm::tanh(u)) + 0.5 * x * sech2(u) * k * (1.0 + 3.0 * 0.044_715 * x * x)
        }
        Function::Sigmoid => sigmoid_prime(x),
        Function::Tanh => sech2(x),
        Function::Silu => sigmoid(x) + x * sigmoid_prime(x),
        Function::Mish => {
            let sp = softplus(x);
            libm::tanh(sp) + x * sech2(sp) * sigmoid(x)
        }
        Function::Softplus => sigmoid(x),
        Function::Softsign => 1.0 / ((1.0 + x.abs()) * (1.0 + x.abs())),
        Function::Elu => {
            if x > 0.0 {
                1.0
            } else {
                libm::exp(x)
            }
        }
        Function::Selu => {
            if x > 0.0 {
                SELU_LAMBDA
            } else {
                SELU_LAMBDA * SELU_ALPHA * libm::exp(x)
            }
        }
        Function::Hardsigmoid => {
            if x > -3.0 && x < 3.0 {
                1.0 / 6.0
            } else {
                0.0
            }
        }
        Function::Hardswish => {
            if x < -3.0 {
                0.0
            } else if x <= 3.0 {
                x / 3.0 + 0.5
            } else {
                1.0
            }
        }
        Function::Erf => FRAC_2_SQRT_PI * libm::exp(-x * x),
        Function::Exp => libm::exp(x),
        Function::Log => {
            if x < 0.0 {
                f64::NAN
            } else {
                1.0 / x.abs()
            }
        }
        Function::Rsqrt => {
            if x < 0.0 {
                f64::NAN
            } else if x == 0.0 {
                f64::NEG_INFINITY
            } else {
                -0.5 / (x * x.sqrt())
            }
        }
        Function::GeluQuick => {
            let a = 1.702;
            sigmoid(a * x) + a * x * sigmoid_prime(a * x)
        }
        Function::Logsigmoid => sigmoid(-x),
        // `Function` is non-exhaustive: a function added to actlut needs its row here
        // (the tests run every function of `Function::ALL`).
        other => unimplemented!("actlut_burn: no derivative for {}", other.name()),
    };
    if x.is_nan() {
        return f32::NAN;
    }
    d as f32
}
