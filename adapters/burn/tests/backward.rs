//! The backward pass on every f16 and bf16 input pattern. The gradient of `sum(f(x))` is
//! `f'(x)` rounded to `f32` and then to the dtype: compared with an `f64` reference written
//! from the derivatives' definitions (`adapters/tests/reference.rs`, independently of the
//! crate's forms) and rounded once, it differs only at a near-tie or in the sign of an
//! underflowed zero. A gradient `G` other than 1 gives `G·f'(x)` formed in `f32` and rounded
//! once to the dtype. Against burn's own backward, for the functions burn has, actlut's
//! gradient is farther from the reference only at a near-tie. The differences are counted and
//! printed (`cargo test --test backward -- --nocapture`).
#![cfg(feature = "all")]

use actlut::half::{bf16, f16};
use actlut_burn::burn::tensor::{activation, DType, Device, Tensor, TensorData};
use actlut_burn::{apply_op, Error, Function, Op};

#[path = "../../tests/reference.rs"]
mod reference;
use reference::{against_theirs, op_reference, reference, ulp, Word, NEAR_TIE};

impl Word {
    fn dtype(self) -> DType {
        match self {
            Word::F16 => DType::F16,
            Word::Bf16 => DType::BF16,
        }
    }

    /// Every pattern, as a tracked tensor of the dtype.
    fn every_pattern(self, device: &Device) -> Tensor<1> {
        let v: Vec<f32> = (0..=u16::MAX).map(|b| self.value(b) as f32).collect();
        Tensor::<1>::from_data(TensorData::new(v, [65536]), (device, DType::F32)).cast(self.dtype())
    }

    fn bits(self, t: Tensor<1>) -> Vec<u16> {
        let d = t.into_data();
        match self {
            Word::F16 => d
                .try_to_vec::<f16>()
                .unwrap()
                .iter()
                .map(|x| x.to_bits())
                .collect(),
            Word::Bf16 => d
                .try_to_vec::<bf16>()
                .unwrap()
                .iter()
                .map(|x| x.to_bits())
                .collect(),
        }
    }
}

/// The gradient of `sum(f(x))` at every pattern of `w`, through `f`.
fn gradient(w: Word, f: impl Fn(Tensor<1>) -> Tensor<1>) -> Vec<u16> {
    let device = Device::flex().autodiff();
    let x = w.every_pattern(&device).require_grad();
    let grads = f(x.clone()).sum().backward();
    let g = x.grad(&grads).expect("x is tracked");
    assert_eq!(g.dtype(), w.dtype());
    w.bits(g)
}

/// How a gradient compares with the rounded reference: the patterns whose bits differ (a
/// NaN matching a NaN), those differing in the sign of a zero only, and the largest
/// difference in units of the dtype's spacing at the reference.
#[derive(Debug, Default)]
struct Diff {
    differ: usize,
    zero_sign: usize,
    max_ulps: f64,
}

fn compare(w: Word, got: &[u16], want: &[f64]) -> Diff {
    let mut d = Diff::default();
    for (&g, &r) in got.iter().zip(want) {
        let rb = w.round(r);
        if g == rb || (w.is_nan(g) && w.is_nan(rb)) {
            continue;
        }
        d.differ += 1;
        let gv = w.value(g);
        if gv == 0.0 && w.value(rb) == 0.0 {
            d.zero_sign += 1;
        } else {
            d.max_ulps = d.max_ulps.max((gv - r).abs() / ulp(w, r));
        }
    }
    d
}

/// The functions with a derivative in [`reference`].
fn referenced() -> Vec<Function> {
    Function::ALL
        .into_iter()
        .filter(|&f| f.has_defaults() && reference(f, 1.0).is_some())
        .collect()
}

#[test]
fn every_f16_and_bf16_gradient_is_the_derivative_rounded_once() {
    for w in Word::BOTH {
        let xs: Vec<f64> = (0..=u16::MAX).map(|b| w.value(b)).collect();
        for f in referenced() {
            let op = Op::from(f);
            let got = gradient(w, |x| apply_op(x, &op).unwrap());
            let want: Vec<f64> = xs.iter().map(|&x| reference(f, x).unwrap()).collect();
            let d = compare(w, &got, &want);
            println!("{w:?} {}: {d:?}", f.name());
            // f'(x) is rounded to f32, then (times the gradient 1) to the dtype: it differs
            // from f'(x) rounded once only at a near-tie, where the f32 value is the midpoint
            // (within 2^-10 of half a unit), or in the sign of an underflowed zero.
            assert!(d.max_ulps <= NEAR_TIE, "{w:?} {}: {d:?}", f.name());
        }
    }
}

#[test]
fn a_gradient_is_the_product_with_the_f32_derivative_rounded_once() {
    // Gradient G·y at every pattern, G a fixed bf16/f16 value per element: the product
    // g·f'(x), with f'(x) correctly rounded to f32 (actlut_burn::derivative), formed in f32
    // and rounded once to the dtype.
    let device = Device::flex().autodiff();
    let op = Op::from(Function::Silu);
    for w in Word::BOTH {
        let x = w.every_pattern(&device).require_grad();
        // G: the patterns in another order, finite only (a NaN or inf in G makes NaNs).
        let gb: Vec<u16> = (0..=u16::MAX)
            .map(|b| b.wrapping_mul(40_503) & 0x3FFF | (b & 1) << 15)
            .collect();
        let gv: Vec<f32> = gb.iter().map(|&b| w.value(b) as f32).collect();
        let big_g =
            Tensor::<1>::from_data(TensorData::new(gv.clone(), [65536]), (&device, DType::F32))
                .cast(w.dtype());
        let grads = (apply_op(x.clone(), &op).unwrap() * big_g).sum().backward();
        let g = w.bits(x.grad(&grads).unwrap());
        let (mut differ, mut max_units) = (0, 0f64);
        for b in 0..=u16::MAX {
            let i = usize::from(b);
            let xv = w.value(b) as f32;
            let d = actlut_burn::derivative(&op, xv).unwrap();
            let want = w.round(f64::from(gv[i] * d));
            assert!(
                g[i] == want || (w.is_nan(g[i]) && w.is_nan(want)),
                "{w:?} at {b:#06x}: {:#06x}, want {want:#06x}",
                g[i]
            );
            // Against the exact product rounded once (f'(x) from the reference in f64).
            if let Some(r) = reference(Function::Silu, f64::from(xv)).filter(|r| r.is_finite()) {
                let exact = f64::from(gv[i]) * r;
                let once = w.round(exact);
                if g[i] != once {
                    differ += 1;
                    let unit = (w.value(once.wrapping_add(1)) - w.value(once)).abs();
                    max_units = max_units.max((w.value(g[i]) - exact).abs() / unit);
                }
            }
        }
        println!(
            "{w:?} silu, gradient G·silu'(x): {differ} of 65,536 patterns differ from the exact \
             product rounded once, largest error {max_units:.3} units"
        );
        // Double rounding (f32, then the dtype) moves a result only at a near-tie: at most one
        // unit, on few patterns.
        assert!(max_units <= 1.0, "{w:?}: {max_units}");
        assert!(differ <= 64, "{w:?}: {differ}");
    }
}

#[test]
fn ops_with_constants_have_the_exact_derivative() {
    for text in ["softcap(cap=30)", "leaky_relu(alpha=0.2)", "elu(alpha=0.5)"] {
        let op: Op = text.parse().unwrap();
        for w in Word::BOTH {
            let xs: Vec<f64> = (0..=u16::MAX).map(|b| w.value(b)).collect();
            let got = gradient(w, |x| apply_op(x, &op).unwrap());
            let want: Vec<f64> = xs.iter().map(|&x| op_reference(text, x)).collect();
            let d = compare(w, &got, &want);
            println!("{w:?} {op}: {d:?}");
            // As for the functions at their defaults: f'(x) rounded to f32, then to the
            // dtype, differs from f'(x) rounded once only at a near-tie.
            assert!(d.max_ulps <= NEAR_TIE, "{w:?} {op}: {d:?}");
        }
    }
}

#[test]
fn a_derivative_op_applies_but_not_to_a_tracked_tensor() {
    let device = Device::flex().autodiff();
    let x = Word::Bf16.every_pattern(&device);
    let d = Op::from(Function::Tanh).with_derivative(true);
    let y = Word::Bf16.bits(apply_op(x.clone(), &d).unwrap());
    assert_eq!(y[0], 0x3F80); // tanh'(0) = 1
    let e = apply_op(x.require_grad(), &d).unwrap_err();
    assert_eq!(e, Error::SecondDerivative { op: d });
    assert!(
        e.to_string()
            .contains("tanh_derivative on a tracked tensor"),
        "{e}"
    );
}

/// burn's own activations with a backward pass, beside actlut's function.
/// An activation of burn.
type Activation = fn(Tensor<1>) -> Tensor<1>;

fn burns() -> Vec<(Function, Activation)> {
    vec![
        (Function::Gelu, activation::gelu),
        (Function::GeluTanh, activation::gelu_approximate),
        (Function::Sigmoid, activation::sigmoid),
        (Function::Tanh, activation::tanh),
        (Function::Silu, activation::silu),
        (Function::Relu, activation::relu),
        (Function::Relu6, activation::relu6),
        (Function::Mish, activation::mish),
        (Function::Softsign, activation::softsign),
        (Function::Logsigmoid, activation::log_sigmoid),
        (Function::Selu, activation::selu),
        (Function::Hardswish, activation::hard_swish),
        (Function::Softplus, |x| activation::softplus(x, 1.0)),
        (Function::Elu, |x| activation::elu(x, 1.0)),
        (Function::LeakyRelu, |x| activation::leaky_relu(x, 0.01)),
        (Function::Hardsigmoid, |x| {
            activation::hard_sigmoid(x, 1.0 / 6.0, 0.5)
        }),
        (Function::Exp, |x| x.exp()),
        (Function::Erf, |x| x.erf()),
    ]
}

#[test]
fn against_burns_own_backward_actlut_is_farther_from_the_reference_only_at_near_ties() {
    for w in Word::BOTH {
        let xs: Vec<f64> = (0..=u16::MAX).map(|b| w.value(b)).collect();
        for (f, theirs) in burns() {
            let want: Vec<f64> = xs.iter().map(|&x| reference(f, x).unwrap()).collect();
            let op = Op::from(f);
            let ours = gradient(w, |x| apply_op(x, &op).unwrap());
            let theirs = gradient(w, theirs);
            against_theirs(w, "burn", f.name(), &want, &ours, &theirs);
        }
    }
}
