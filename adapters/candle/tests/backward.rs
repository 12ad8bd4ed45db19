//! The backward pass (`CustomOp1::bwd`) on every f16 and bf16 input pattern. The gradient of
//! `sum(f(x))` is `f'(x)` rounded to `f32` and then to the dtype: compared with an `f64`
//! reference written from the derivatives' definitions (`adapters/tests/reference.rs`,
//! independently of the crate's forms) and rounded once, it differs only at a near-tie or in
//! the sign of an underflowed zero. A gradient `G` other than 1 gives `G·f'(x)` formed in `f32`
//! and rounded once to the dtype; fp8 and f32 take the derivative's computed path the same way.
//! Against candle's own backward, for the functions candle has, actlut's gradient is farther
//! from the reference only at a near-tie. The differences are counted and printed (`cargo test
//! -p actlut-candle --test backward -- --nocapture`).
#![cfg(feature = "all")]

use actlut::half::{bf16, f16};
use actlut_candle::candle_core::{DType, Device, Result, Tensor, Var};
use actlut_candle::{apply, apply_op, Function, Op};

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

    /// Every pattern, in order, as a tensor of the dtype.
    fn every_pattern(self) -> Tensor {
        match self {
            Word::F16 => {
                let v: Vec<f16> = (0..=u16::MAX).map(f16::from_bits).collect();
                Tensor::new(v.as_slice(), &Device::Cpu).unwrap()
            }
            Word::Bf16 => {
                let v: Vec<bf16> = (0..=u16::MAX).map(bf16::from_bits).collect();
                Tensor::new(v.as_slice(), &Device::Cpu).unwrap()
            }
        }
    }

    fn bits(self, t: &Tensor) -> Vec<u16> {
        assert_eq!(t.dtype(), self.dtype());
        match self {
            Word::F16 => t
                .to_vec1::<f16>()
                .unwrap()
                .iter()
                .map(|x| x.to_bits())
                .collect(),
            Word::Bf16 => t
                .to_vec1::<bf16>()
                .unwrap()
                .iter()
                .map(|x| x.to_bits())
                .collect(),
        }
    }
}

/// The gradient of `sum(f(x))` at every pattern of `w`, through `f`.
fn gradient(w: Word, f: impl Fn(&Tensor) -> Result<Tensor>) -> Vec<u16> {
    let x = Var::from_tensor(&w.every_pattern()).unwrap();
    let grads = f(x.as_tensor())
        .unwrap()
        .sum_all()
        .unwrap()
        .backward()
        .unwrap();
    w.bits(grads.get(x.as_tensor()).expect("x is a variable"))
}

/// How a gradient compares with the rounded reference: the patterns whose bits differ (a
/// NaN matching a NaN), those differing in the sign of a zero only, and the largest
/// difference in units of the dtype's spacing at the reference.
#[derive(Debug, Default)]
struct Diff {
    differ: usize,
    zero_sign: usize,
    /// Flushed to zero by candle's gradient store (a bf16 value below f32's normal range).
    flushed: usize,
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
        } else if gv == 0.0 && r.abs() < f64::from(f32::MIN_POSITIVE) {
            d.flushed += 1;
        } else {
            d.max_ulps = d.max_ulps.max((gv - r).abs() / ulp(w, r));
        }
    }
    d
}

#[test]
fn every_f16_and_bf16_gradient_is_the_derivative_rounded_once() {
    for w in Word::BOTH {
        let xs: Vec<f64> = (0..=u16::MAX).map(|b| w.value(b)).collect();
        for f in Function::ALL {
            if !f.has_defaults() || reference(f, 1.0).is_none() {
                continue;
            }
            let got = gradient(w, |x| apply(x, f));
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
    // Gradient G·y, G a fixed value per element: g·f'(x), f'(x) correctly rounded to f32
    // (the derivative op on an F32 tensor of the same values), formed in f32, rounded once.
    let op = Op::from(Function::Silu);
    for w in Word::BOTH {
        let x = Var::from_tensor(&w.every_pattern()).unwrap();
        let x32 = x.as_tensor().to_dtype(DType::F32).unwrap();
        let d = apply_op(&x32, &op.with_derivative(true))
            .unwrap()
            .to_vec1::<f32>()
            .unwrap();
        let gb: Vec<u16> = (0..=u16::MAX)
            .map(|b| b.wrapping_mul(40_503) & 0x3FFF | (b & 1) << 15)
            .collect();
        let gv: Vec<f32> = gb.iter().map(|&b| w.value(b) as f32).collect();
        let big_g = Tensor::new(gv.as_slice(), &Device::Cpu)
            .unwrap()
            .to_dtype(w.dtype())
            .unwrap();
        let y = apply_op(x.as_tensor(), &op).unwrap();
        let grads = (y * big_g).unwrap().sum_all().unwrap().backward().unwrap();
        let g = w.bits(grads.get(x.as_tensor()).unwrap());
        let (mut differ, mut max_units) = (0, 0f64);
        for b in 0..=u16::MAX {
            let i = usize::from(b);
            let want = w.round(f64::from(gv[i] * d[i]));
            // candle's gradient store adds the gradient to zeros: −0 becomes +0, and a bf16
            // value below f32's normal range becomes zero.
            let zeros = w.value(g[i]) == 0.0
                && (w.value(want) == 0.0 || w.value(want).abs() < f64::from(f32::MIN_POSITIVE));
            assert!(
                g[i] == want || zeros || (w.is_nan(g[i]) && w.is_nan(want)),
                "{w:?} at {b:#06x}: {:#06x}, want {want:#06x}",
                g[i]
            );
            if let Some(r) = reference(Function::Silu, w.value(b)).filter(|r| r.is_finite()) {
                let exact = f64::from(gv[i]) * r;
                let once = w.round(exact);
                if g[i] != once && !zeros {
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
        assert!(max_units <= NEAR_TIE, "{w:?}: {max_units}");
    }
}

#[test]
fn fp8_and_f32_gradients_take_the_derivatives_computed_path() {
    // Every F8E4M3 code: the gradient of sum(tanh(x)) is f'(x) rounded to f32, then to E4M3.
    let codes: Vec<float8::F8E4M3> = (0..=255u8).map(float8::F8E4M3::from_bits).collect();
    let x = Var::from_tensor(&Tensor::new(codes.as_slice(), &Device::Cpu).unwrap()).unwrap();
    let op = Op::from(Function::Tanh);
    let grads = apply_op(x.as_tensor(), &op)
        .unwrap()
        .sum_all()
        .unwrap()
        .backward()
        .unwrap();
    let g = grads
        .get(x.as_tensor())
        .unwrap()
        .to_vec1::<float8::F8E4M3>()
        .unwrap();
    let x32 = x.as_tensor().to_dtype(DType::F32).unwrap();
    let d = apply_op(&x32, &op.with_derivative(true))
        .unwrap()
        .to_vec1::<f32>()
        .unwrap();
    for i in 0..256 {
        let want = float8::F8E4M3::from_f32(d[i]);
        assert!(
            g[i].to_bits() == want.to_bits() || d[i].is_nan(),
            "code {i:#04x}"
        );
        // tanh' within 2^-24 of the reference before the last rounding.
        let r = reference(Function::Tanh, f64::from(codes[i].to_f32())).unwrap();
        if r.is_finite() && r > 1e-30 {
            assert!(
                (f64::from(d[i]) - r).abs() <= r * 2f64.powi(-23),
                "{i:#04x}"
            );
        }
    }
    // F32: the derivative's computed path, times the gradient in f32.
    let xs: Vec<f32> = (0..400).map(|i| (i as f32 - 200.0) / 32.0).collect();
    let x = Var::from_tensor(&Tensor::new(xs.as_slice(), &Device::Cpu).unwrap()).unwrap();
    let y = apply_op(x.as_tensor(), &Op::from(Function::Gelu)).unwrap();
    let grads = (y * 0.5).unwrap().sum_all().unwrap().backward().unwrap();
    let g = grads.get(x.as_tensor()).unwrap().to_vec1::<f32>().unwrap();
    for (x, g) in xs.iter().zip(&g) {
        let want = reference(Function::Gelu, f64::from(*x)).unwrap() * 0.5;
        assert!(
            (f64::from(*g) - want).abs() <= want.abs() * 2f64.powi(-23),
            "{x}: {g}, {want}"
        );
    }
}

#[test]
fn ops_with_constants_have_the_exact_derivative() {
    for text in ["softcap(cap=30)", "leaky_relu(alpha=0.2)", "elu(alpha=0.5)"] {
        let op: Op = text.parse().unwrap();
        for w in Word::BOTH {
            let xs: Vec<f64> = (0..=u16::MAX).map(|b| w.value(b)).collect();
            let got = gradient(w, |x| apply_op(x, &op));
            let want: Vec<f64> = xs.iter().map(|&x| op_reference(text, x)).collect();
            let d = compare(w, &got, &want);
            println!("{w:?} {op}: {d:?}");
            // As for the functions at their defaults: f'(x) rounded to f32, then to the
            // dtype, differs from f'(x) rounded once only at a near-tie.
            assert!(d.max_ulps <= NEAR_TIE, "{w:?} {op}: {d:?}");
        }
        // F32: the derivative's computed path, correctly rounded (within half an f32 ulp of
        // the reference, and of its few f64 ulps).
        let xs: Vec<f32> = (0..400).map(|i| (i as f32 - 200.0) / 8.0).collect();
        let x = Var::from_tensor(&Tensor::new(xs.as_slice(), &Device::Cpu).unwrap()).unwrap();
        let grads = apply_op(x.as_tensor(), &op)
            .unwrap()
            .sum_all()
            .unwrap()
            .backward()
            .unwrap();
        let g = grads.get(x.as_tensor()).unwrap().to_vec1::<f32>().unwrap();
        for (x, g) in xs.iter().zip(&g) {
            let want = op_reference(text, f64::from(*x));
            assert!(
                (f64::from(*g) - want).abs() <= want.abs() * (2f64.powi(-24) + 2f64.powi(-40)),
                "{op} at {x}: {g}, {want}"
            );
        }
    }
}

#[test]
fn a_derivative_op_applies_but_has_no_backward_pass() {
    let d = Op::from(Function::Tanh).with_derivative(true);
    let x = Var::from_tensor(&Word::Bf16.every_pattern()).unwrap();
    let y = apply_op(x.as_tensor(), &d).unwrap();
    assert_eq!(Word::Bf16.bits(&y)[0], 0x3F80); // tanh'(0) = 1
    let e = y.sum_all().unwrap().backward().unwrap_err().to_string();
    assert!(
        e.contains("tanh_derivative") && e.contains("second derivative"),
        "{e}"
    );
}

/// candle's own ops with a backward pass, beside actlut's function.
/// An op of candle.
type Activation = fn(&Tensor) -> Result<Tensor>;

fn candles() -> Vec<(Function, Activation)> {
    vec![
        (Function::Gelu, |x| x.gelu_erf()),
        (Function::GeluTanh, |x| x.gelu()),
        (Function::Silu, |x| x.silu()),
        (Function::Tanh, |x| x.tanh()),
        (Function::Relu, |x| x.relu()),
        (Function::Sigmoid, candle_nn::ops::sigmoid),
        (Function::Exp, |x| x.exp()),
        (Function::Erf, |x| x.erf()),
        (Function::Log, |x| x.log()),
    ]
}

#[test]
fn against_candles_own_backward_actlut_is_farther_from_the_reference_only_at_near_ties() {
    for w in Word::BOTH {
        let xs: Vec<f64> = (0..=u16::MAX).map(|b| w.value(b)).collect();
        for (f, theirs) in candles() {
            let want: Vec<f64> = xs.iter().map(|&x| reference(f, x).unwrap()).collect();
            let ours = gradient(w, |x| apply(x, f));
            let theirs = gradient(w, theirs);
            against_theirs(w, "candle", f.name(), &want, &ours, &theirs);
        }
    }
}
