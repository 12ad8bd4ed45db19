//! One training step of a two-layer MLP in bf16 on burn's Flex backend under `Autodiff`:
//! `loss = mean((W2·gelu(W1·x + b1) + b2 − t)²)`, forward and backward (every parameter's
//! gradient), with burn's GELU (`activation::gelu`, whose backward is burn's autodiff of its
//! five tensor ops) against actlut's (`exact_gelu`, whose backward multiplies by the
//! derivative table), as one criterion group, so that both are timed in the same run. Before
//! timing it prints how the two steps' gradients differ, and how the gradient at GELU's
//! input compares with the exact derivative rounded once to bf16.
//!
//! ```sh
//! cargo bench --bench train               # batch 64, 512 → 2048 → 512
//! cargo bench --bench train -- --test     # once, batch 8, 64 → 256 → 64 (CI)
//! ```

use actlut::half::bf16;
use actlut_burn::burn::nn::{Linear, LinearConfig};
use actlut_burn::burn::tensor::{activation, DType, Device, Distribution, FloatDType, Tensor};
use actlut_burn::ActivationExt as _;
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

/// The MLP's size.
#[derive(Clone, Copy, Debug)]
struct Size {
    batch: usize,
    d_in: usize,
    hidden: usize,
}

const FULL: Size = Size {
    batch: 64,
    d_in: 512,
    hidden: 2048,
};

const SMALL: Size = Size {
    batch: 8,
    d_in: 64,
    hidden: 256,
};

/// Which GELU the hidden layer applies.
#[derive(Clone, Copy, Debug)]
enum Gelu {
    Burn,
    Actlut,
}

fn gelu(which: Gelu, x: Tensor<2>) -> Tensor<2> {
    match which {
        Gelu::Burn => activation::gelu(x),
        Gelu::Actlut => x.exact_gelu().expect("a bf16 Flex tensor"),
    }
}

struct Mlp {
    up: Linear,
    down: Linear,
}

/// The gradients of one step, as `f32` vectors: `W1`, `b1`, `W2`, `b2`.
struct Grads([Vec<f32>; 4]);

impl Mlp {
    fn new(s: Size, device: &Device) -> Mlp {
        Mlp {
            up: LinearConfig::new(s.d_in, s.hidden).init(device),
            down: LinearConfig::new(s.hidden, s.d_in).init(device),
        }
    }

    fn loss(&self, x: &Tensor<2>, t: &Tensor<2>, which: Gelu) -> Tensor<1> {
        let y = self.down.forward(gelu(which, self.up.forward(x.clone())));
        (y - t.clone()).powi_scalar(2).mean()
    }

    /// One step: the loss, its backward pass, every parameter's gradient.
    fn step(&self, x: &Tensor<2>, t: &Tensor<2>, which: Gelu) -> Grads {
        let grads = self.loss(x, t, which).backward();
        let f = |p: Tensor<2>| {
            let g = p.grad(&grads).expect("a parameter");
            assert_eq!(g.dtype(), DType::BF16);
            g.cast(DType::F32).into_data().try_to_vec::<f32>().unwrap()
        };
        let f1 = |p: Tensor<1>| {
            let g = p.grad(&grads).expect("a parameter");
            g.cast(DType::F32).into_data().try_to_vec::<f32>().unwrap()
        };
        let bias = |l: &Linear| l.bias.as_ref().expect("a bias").val();
        Grads([
            f(self.up.weight.val()),
            f1(bias(&self.up)),
            f(self.down.weight.val()),
            f1(bias(&self.down)),
        ])
    }
}

/// The bf16 Flex device under autodiff, seeded: the weights and inputs are the same on
/// every run.
fn device() -> Device {
    let mut device = Device::flex();
    device
        .configure(FloatDType::BF16)
        .expect("bf16 before any tensor");
    device.seed(42);
    device.autodiff()
}

/// `gelu'(x)` in `f64` (Φ(x) + x·φ(x)).
fn gelu_prime(x: f64) -> f64 {
    let pdf = (-0.5 * x * x).exp() / (2.0 * std::f64::consts::PI).sqrt();
    0.5 * libm::erfc(-x / 2f64.sqrt()) + x * pdf
}

/// How the two steps' gradients differ, and how the gradient at GELU's input compares with
/// `grad · gelu'(x)` (the exact derivative rounded once to bf16, times the incoming gradient,
/// rounded once).
fn report(s: Size, model: &Mlp, x: &Tensor<2>, t: &Tensor<2>) {
    let burn = model.step(x, t, Gelu::Burn);
    let ours = model.step(x, t, Gelu::Actlut);
    let names = ["W1", "b1", "W2", "b2"];
    eprintln!("training step, two-layer MLP {s:?}, bf16 on Flex, gradients of burn's GELU against actlut's:");
    for (i, name) in names.iter().enumerate() {
        let (a, b) = (&burn.0[i], &ours.0[i]);
        let differ = a.iter().zip(b).filter(|(x, y)| x != y).count();
        let max = a
            .iter()
            .zip(b)
            .map(|(x, y)| (x - y).abs())
            .fold(0f32, f32::max);
        let scale = a.iter().map(|x| x.abs()).fold(0f32, f32::max);
        eprintln!(
            "  {name}: {differ} of {} elements differ, max |diff| {max:e} (max |grad| {scale:e})",
            a.len()
        );
    }
    // The gradient at GELU's input alone: the pre-activation `h` as a leaf and a fixed
    // incoming gradient `G` (loss `sum(gelu(h)·G)`), so that both see the same `G`.
    let h = model.up.forward(x.clone()).detach().require_grad();
    let big_g = Tensor::<2>::random(h.dims(), Distribution::Normal(0.0, 1.0), &h.device());
    let hs = f32s(h.clone());
    let gs = f32s(big_g.clone());
    for which in [Gelu::Burn, Gelu::Actlut] {
        let grads = (gelu(which, h.clone()) * big_g.clone()).sum().backward();
        let got = f32s(h.grad(&grads).unwrap());
        // Against G·gelu'(h) rounded once to bf16, and the largest error in bf16 units.
        let (mut differ, mut max_units) = (0, 0f64);
        for i in 0..got.len() {
            let exact = f64::from(gs[i]) * gelu_prime(f64::from(hs[i]));
            let want = bf16::from_f64(exact);
            if bf16::from_f32(got[i]) != want {
                differ += 1;
                let unit = (bf16::from_bits(want.to_bits() + 1).to_f64() - want.to_f64()).abs();
                max_units = max_units.max((f64::from(got[i]) - exact).abs() / unit);
            }
        }
        eprintln!(
            "  gradient at GELU's input, {which:?}: {differ} of {} elements differ from \
             G·gelu'(h) rounded once to bf16; largest error {max_units:.2} units",
            got.len()
        );
    }
    // What multiplying by the derivative rounded to bf16 (its table) would give instead.
    let d16 = f32s(
        h.clone()
            .detach()
            .set_require_grad(false)
            .activation_op(
                &actlut_burn::Op::from(actlut_burn::Function::Gelu).with_derivative(true),
            )
            .unwrap(),
    );
    let (mut differ, mut max_units) = (0, 0f64);
    for i in 0..d16.len() {
        let got = bf16::from_f32(gs[i] * d16[i]);
        let exact = f64::from(gs[i]) * gelu_prime(f64::from(hs[i]));
        let want = bf16::from_f64(exact);
        if got != want {
            differ += 1;
            let unit = (bf16::from_bits(want.to_bits() + 1).to_f64() - want.to_f64()).abs();
            max_units = max_units.max((got.to_f64() - exact).abs() / unit);
        }
    }
    eprintln!(
        "  (G times the derivative rounded to bf16 first, its table: {differ} of {} differ; \
         largest error {max_units:.2} units)",
        d16.len()
    );
}

fn f32s(t: Tensor<2>) -> Vec<f32> {
    t.cast(DType::F32).into_data().try_to_vec::<f32>().unwrap()
}

fn bench(c: &mut Criterion) {
    let test = std::env::args().any(|a| a == "--test");
    let s = if test { SMALL } else { FULL };
    let device = device();
    let model = Mlp::new(s, &device);
    let x = Tensor::<2>::random([s.batch, s.d_in], Distribution::Normal(0.0, 1.0), &device);
    let t = Tensor::<2>::random([s.batch, s.d_in], Distribution::Normal(0.0, 1.0), &device);
    assert_eq!(x.dtype(), DType::BF16);
    report(s, &model, &x, &t);
    let mut g = c.benchmark_group(format!(
        "train_step/mlp_{}x{}x{}_bf16",
        s.batch, s.d_in, s.hidden
    ));
    g.sample_size(20);
    g.bench_function("burn_gelu", |b| {
        b.iter(|| black_box(model.step(&x, &t, Gelu::Burn)))
    });
    g.bench_function("actlut_exact_gelu", |b| {
        b.iter(|| black_box(model.step(&x, &t, Gelu::Actlut)))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
