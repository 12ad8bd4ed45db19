//! The backward pass under `Autodiff<Flex>`: the gradient of `exact_gelu` against a central
//! finite difference of the forward op itself at a few hundred points, and against burn's own
//! `gelu` backward; every function's derivative against a finite difference of an
//! independent `f64` evaluation of the function; gradients in bf16 and f16; an untracked
//! input records nothing.
#![cfg(feature = "all")]

use actlut_burn::burn::tensor::{activation, DType, Device, Tensor, TensorData};
use actlut_burn::{apply, ActivationExt as _, Error, Function, Op};

/// actlut-burn's derivative of a function at its defaults.
fn derivative(a: Function, x: f32) -> f32 {
    actlut_burn::derivative(&Op::from(a), x).unwrap()
}

fn f32s(t: Tensor<1>) -> Vec<f32> {
    t.cast(DType::F32).into_data().try_to_vec::<f32>().unwrap()
}

/// 400 points in [−6, 6), multiples of 2^-8 (exact in f32, so `x ± h` is exact too).
fn points() -> Vec<f32> {
    (0..400)
        .map(|i| (i as f32 * 7.0 - 1536.0) / 256.0 * 0.75)
        .collect()
}

fn tensor(xs: &[f32], device: &Device) -> Tensor<1> {
    Tensor::<1>::from_data(
        TensorData::new(xs.to_vec(), [xs.len()]),
        (device, DType::F32),
    )
}

/// The gradient of `sum(f(x))` at `xs`, through actlut-burn's op.
fn grad_of(xs: &[f32], f: impl Fn(Tensor<1>) -> Tensor<1>) -> Vec<f32> {
    let device = Device::flex().autodiff();
    let x = tensor(xs, &device).require_grad();
    let y = f(x.clone()).sum();
    let grads = y.backward();
    f32s(x.grad(&grads).expect("x is tracked"))
}

#[test]
fn the_gradient_of_exact_gelu_matches_a_finite_difference_of_exact_gelu() {
    let xs = points();
    let g = grad_of(&xs, |x| x.exact_gelu().unwrap());
    // (gelu(x + h) − gelu(x − h)) / 2h through the forward op on F32 (the exact computed
    // path): error about h²·|gelu'''|/6 + 2^-24·|gelu(x)|/h, below 2e-4 here.
    let h = 1.0 / 64.0;
    let device = Device::flex();
    let plus: Vec<f32> = xs.iter().map(|x| x + h).collect();
    let minus: Vec<f32> = xs.iter().map(|x| x - h).collect();
    let fp = f32s(tensor(&plus, &device).exact_gelu().unwrap());
    let fm = f32s(tensor(&minus, &device).exact_gelu().unwrap());
    for i in 0..xs.len() {
        let fd = (f64::from(fp[i]) - f64::from(fm[i])) / (2.0 * f64::from(h));
        assert!(
            (f64::from(g[i]) - fd).abs() < 2e-4,
            "x = {}: gradient {}, finite difference {fd}",
            xs[i],
            g[i]
        );
    }
}

#[test]
fn the_gradient_of_exact_gelu_matches_burns_gelu_backward() {
    let xs = points();
    let ours = grad_of(&xs, |x| x.exact_gelu().unwrap());
    let burns = grad_of(&xs, activation::gelu);
    for i in 0..xs.len() {
        assert!(
            (ours[i] - burns[i]).abs() <= 1e-5 * burns[i].abs().max(1.0),
            "x = {}: actlut-burn {}, burn {}",
            xs[i],
            ours[i],
            burns[i]
        );
    }
}

/// An `f64` evaluation of each function from its definition (docs/SEMANTICS.md of actlut),
/// written independently of the derivatives' formulas.
fn f64_value(a: Function, x: f64) -> Option<f64> {
    let sigmoid = |x: f64| 1.0 / (1.0 + (-x).exp());
    let softplus = |x: f64| x.max(0.0) + (-x.abs()).exp().ln_1p();
    let (lambda, alpha) = (1.050_700_987_355_480_5, 1.673_263_242_354_377_3);
    Some(match a {
        Function::Gelu => 0.5 * x * (1.0 + libm::erf(x / 2f64.sqrt())),
        Function::GeluTanh => {
            0.5 * x
                * (1.0 + ((2.0 / std::f64::consts::PI).sqrt() * (x + 0.044715 * x.powi(3))).tanh())
        }
        Function::Sigmoid => sigmoid(x),
        Function::Tanh => x.tanh(),
        Function::Silu => x * sigmoid(x),
        Function::Mish => x * softplus(x).tanh(),
        Function::Softplus => softplus(x),
        Function::Softsign => x / (1.0 + x.abs()),
        Function::Elu => {
            if x > 0.0 {
                x
            } else {
                x.exp_m1()
            }
        }
        Function::Selu => lambda * if x > 0.0 { x } else { alpha * x.exp_m1() },
        Function::Hardsigmoid => (x / 6.0 + 0.5).clamp(0.0, 1.0),
        Function::Hardswish => x * (x / 6.0 + 0.5).clamp(0.0, 1.0),
        Function::Erf => libm::erf(x),
        Function::Exp => x.exp(),
        Function::Log => x.ln(),
        Function::Rsqrt => 1.0 / x.sqrt(),
        Function::GeluQuick => x * sigmoid(1.702 * x),
        Function::Logsigmoid => -softplus(-x),
        Function::Identity => x,
        Function::Relu => x.max(0.0),
        Function::Relu2 => x.max(0.0).powi(2),
        Function::Relu6 => x.clamp(0.0, 6.0),
        Function::LeakyRelu => {
            if x > 0.0 {
                x
            } else {
                0.01 * x
            }
        }
        Function::Hardtanh => x.clamp(-1.0, 1.0),
        _ => return None,
    })
}

#[test]
fn every_functions_derivative_matches_a_finite_difference_in_f64() {
    // Points away from the kinks (±3, 0) and inside log's and rsqrt's domain.
    let xs: Vec<f32> = (0..300).map(|i| -7.4 + i as f32 * 0.0493).collect();
    let h = 1e-5;
    for a in Function::ALL {
        if f64_value(a, 1.0).is_none() {
            continue;
        }
        for &x in &xs {
            let x = if matches!(a, Function::Log | Function::Rsqrt) {
                x.abs() + 0.1
            } else {
                x
            };
            let xd = f64::from(x);
            if [-6.0, -3.0, -1.0, 0.0, 1.0, 3.0, 6.0]
                .iter()
                .any(|k| (xd - k).abs() < 1e-3)
            {
                continue;
            }
            let fd = (f64_value(a, xd + h).unwrap() - f64_value(a, xd - h).unwrap()) / (2.0 * h);
            let d = f64::from(derivative(a, x));
            // f32 rounding (2^-24 relative) plus the finite difference's own error.
            let tol = 1e-6 * fd.abs().max(1e-3);
            assert!(
                (d - fd).abs() <= tol,
                "{} at {x}: {d}, finite difference {fd}",
                a.name()
            );
        }
    }
}

#[test]
fn every_function_has_a_derivative_and_the_kinks_take_the_left_limit() {
    for a in Function::ALL.into_iter().filter(|a| a.has_defaults()) {
        let d = actlut_burn::derivative(&Op::from(a), 1.0);
        assert!(matches!(d, Ok(v) if !v.is_nan()), "{}: {d:?}", a.name());
        assert!(derivative(a, f32::NAN).is_nan(), "{}", a.name());
    }
    // The functions whose constants have no default, with theirs: softcap(x) =
    // cap·tanh(x/cap), softcap′(0) = 1 and softcap′(30) = sech²(1).
    let softcap: Op = "softcap(cap=30)".parse().unwrap();
    assert_eq!(actlut_burn::derivative(&softcap, 0.0), Ok(1.0));
    let sech2 = 1.0 / 1f64.cosh().powi(2);
    let d = f64::from(actlut_burn::derivative(&softcap, 30.0).unwrap());
    assert!((d - sech2).abs() <= sech2 * 2f64.powi(-24), "{d}");
    let leaky: Op = "leaky_relu(alpha=0.2)".parse().unwrap();
    assert_eq!(actlut_burn::derivative(&leaky, -1.0), Ok(0.2));
    assert_eq!(actlut_burn::derivative(&leaky, 0.0), Ok(0.2)); // the left limit
                                                               // actlut's docs/SEMANTICS.md: at a kink, the limit from the left.
    assert_eq!(derivative(Function::Hardsigmoid, 3.0), 1.0 / 6.0);
    assert_eq!(derivative(Function::Hardsigmoid, 3.001), 0.0);
    assert_eq!(derivative(Function::Hardsigmoid, -3.0), 0.0);
    assert_eq!(derivative(Function::Hardswish, -3.0), 0.0);
    assert_eq!(derivative(Function::Hardswish, 3.0), 1.5);
    assert_eq!(derivative(Function::Hardswish, 3.001), 1.0);
    assert_eq!(derivative(Function::Elu, 0.0), 1.0);
    assert_eq!(derivative(Function::Relu, 0.0), 0.0);
    assert!(derivative(Function::Log, -1.0).is_nan());
    assert_eq!(derivative(Function::Rsqrt, 0.0), f32::NEG_INFINITY);
    // A derivative has no derivative here.
    let d = Op::from(Function::Gelu).with_derivative(true);
    assert_eq!(
        actlut_burn::derivative(&d, 1.0),
        Err(Error::SecondDerivative { op: d })
    );
}

#[test]
fn a_permuted_input_gets_its_gradient_in_its_own_layout() {
    let device = Device::flex().autodiff();
    let v: Vec<f32> = (0..12).map(|i| i as f32 / 4.0 - 1.5).collect();
    let x = Tensor::<2>::from_data(TensorData::new(v.clone(), [3, 4]), (&device, DType::F32))
        .require_grad();
    let y = apply(x.clone().transpose(), Function::Tanh).unwrap();
    let grads = y.sum().backward();
    let g = x
        .grad(&grads)
        .unwrap()
        .into_data()
        .try_to_vec::<f32>()
        .unwrap();
    for (i, &xv) in v.iter().enumerate() {
        assert_eq!(g[i], derivative(Function::Tanh, xv), "element {i}");
    }
}

#[test]
fn an_untracked_autodiff_tensor_gets_the_forward_values_only() {
    let device = Device::flex().autodiff();
    let xs = points();
    let y = tensor(&xs, &device).exact_gelu().unwrap();
    let want: Vec<f32> = xs
        .iter()
        .map(|&x| actlut::computed::f32(Function::Gelu, x))
        .collect();
    assert_eq!(f32s(y), want);
}
