//! A BERT-style transformer encoder from burn's nn modules (multi-head attention, layer
//! norm, linear layers) on burn's Flex CPU backend in bf16, with fixed-seed weights: its
//! forward pass with burn's GELU (`burn::tensor::activation::gelu`) against the same model
//! with actlut's (`exact_gelu`), and the GELU alone on the feed-forward tensor, side by side
//! in one run: each pair of variants timed interleaved (a, b, a, b, …), medians of 15 forward
//! passes and 60 GELU calls. It prints GELU's share of the forward pass and how the final
//! hidden states of the two models differ.
//!
//! ```sh
//! cargo bench --bench encoder               # BERT-base width: 2 × 128 tokens, 768 wide, 2 layers
//! cargo bench --bench encoder -- --test     # once, BERT-mini width, untimed in effect (CI)
//! ```

use actlut_burn::burn::nn::attention::{MhaInput, MultiHeadAttention, MultiHeadAttentionConfig};
use actlut_burn::burn::nn::{LayerNorm, LayerNormConfig, Linear, LinearConfig};
use actlut_burn::burn::tensor::{activation, DType, Device, Distribution, FloatDType, Tensor};
use actlut_burn::ActivationExt as _;
use std::hint::black_box;
use std::time::Instant;

/// The model's size.
#[derive(Clone, Copy, Debug)]
struct Size {
    name: &'static str,
    batch: usize,
    seq: usize,
    d_model: usize,
    heads: usize,
    d_ff: usize,
    layers: usize,
}

/// BERT-base's width and heads, two layers.
const BASE: Size = Size {
    name: "bert-base-width",
    batch: 2,
    seq: 128,
    d_model: 768,
    heads: 12,
    d_ff: 3072,
    layers: 2,
};

/// BERT-mini's width (CI's `--test` run).
const MINI: Size = Size {
    name: "bert-mini-width",
    batch: 2,
    seq: 32,
    d_model: 256,
    heads: 4,
    d_ff: 1024,
    layers: 2,
};

/// Which GELU the feed-forward block applies.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Gelu {
    Burn,
    Actlut,
}

fn gelu<const D: usize>(which: Gelu, x: Tensor<D>) -> Tensor<D> {
    match which {
        Gelu::Burn => activation::gelu(x),
        Gelu::Actlut => x.exact_gelu().expect("a bf16 Flex tensor"),
    }
}

/// One post-norm encoder layer (BERT's): attention, add & norm, feed-forward, add & norm.
struct Layer {
    attn: MultiHeadAttention,
    norm1: LayerNorm,
    up: Linear,
    down: Linear,
    norm2: LayerNorm,
}

impl Layer {
    fn new(s: Size, device: &Device) -> Layer {
        Layer {
            attn: MultiHeadAttentionConfig::new(s.d_model, s.heads)
                .with_dropout(0.0)
                .init(device),
            norm1: LayerNormConfig::new(s.d_model).init(device),
            up: LinearConfig::new(s.d_model, s.d_ff).init(device),
            down: LinearConfig::new(s.d_ff, s.d_model).init(device),
            norm2: LayerNormConfig::new(s.d_model).init(device),
        }
    }

    fn forward(&self, x: Tensor<3>, which: Gelu) -> Tensor<3> {
        let a = self.attn.forward(MhaInput::self_attn(x.clone())).context;
        let x = self.norm1.forward(x + a);
        let h = gelu(which, self.up.forward(x.clone()));
        self.norm2.forward(x + self.down.forward(h))
    }
}

struct Encoder {
    layers: Vec<Layer>,
}

impl Encoder {
    fn new(s: Size, device: &Device) -> Encoder {
        Encoder {
            layers: (0..s.layers).map(|_| Layer::new(s, device)).collect(),
        }
    }

    fn forward(&self, mut x: Tensor<3>, which: Gelu) -> Tensor<3> {
        for layer in &self.layers {
            x = layer.forward(x, which);
        }
        x
    }
}

/// The bf16 Flex device, seeded: the weights and the input are the same on every run.
fn device() -> Device {
    let mut device = Device::flex();
    device
        .configure(FloatDType::BF16)
        .expect("bf16 before any tensor");
    device.seed(42);
    device
}

/// The median of `runs` timings of each closure, the closures interleaved (a, b, a, b, …)
/// so that both see the same machine load.
fn medians(runs: usize, a: impl Fn(), b: impl Fn()) -> (f64, f64) {
    a();
    b();
    let (mut ta, mut tb) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        let t = Instant::now();
        a();
        ta.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        b();
        tb.push(t.elapsed().as_secs_f64());
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    (median(&mut ta), median(&mut tb))
}

/// What the numbers mean: GELU's share of burn's forward pass, and the two models'
/// final hidden states compared.
fn report(s: Size, runs: usize, model: &Encoder, x: &Tensor<3>, ffn: &Tensor<3>) {
    let burn_out = model.forward(x.clone(), Gelu::Burn);
    let actlut_out = model.forward(x.clone(), Gelu::Actlut);
    assert_eq!(burn_out.dtype(), DType::BF16);
    let a = burn_out
        .cast(DType::F32)
        .into_data()
        .try_to_vec::<f32>()
        .unwrap();
    let b = actlut_out
        .cast(DType::F32)
        .into_data()
        .try_to_vec::<f32>()
        .unwrap();
    let differ = a.iter().zip(&b).filter(|(x, y)| x != y).count();
    let max_abs = a
        .iter()
        .zip(&b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0f32, f32::max);
    let scale = a.iter().map(|x| x.abs()).fold(0.0f32, f32::max);
    // GELU's elements differ too: how many of the first layer's.
    let g_burn = bits(activation::gelu(ffn.clone()));
    let g_actlut = bits(ffn.clone().exact_gelu().unwrap());
    let g_differ = g_burn.iter().zip(&g_actlut).filter(|(x, y)| x != y).count();
    let (forward_burn, forward_actlut) = medians(
        runs,
        || drop(black_box(model.forward(x.clone(), Gelu::Burn))),
        || drop(black_box(model.forward(x.clone(), Gelu::Actlut))),
    );
    let (gelu_burn, gelu_actlut) = medians(
        runs * 4,
        || drop(black_box(activation::gelu(ffn.clone()))),
        || drop(black_box(ffn.clone().exact_gelu().unwrap())),
    );
    let l = s.layers as f64;
    eprintln!(
        "encoder {} ({s:?}), bf16 on Flex:\n  \
         GELU on the feed-forward tensor [{}, {}, {}]: {} of {} elements differ between burn's and actlut's\n  \
         final hidden states: {differ} of {} elements differ, max |diff| {max_abs:e} (max |h| {scale:e})\n  \
         forward: burn's GELU {:.2} ms, actlut's {:.2} ms ({:.2}x)\n  \
         GELU alone: burn {:.3} ms, actlut {:.3} ms ({:.1}x); GELU's share of the forward pass: \
         {:.1}% with burn's, {:.1}% with actlut's",
        s.name,
        s.batch,
        s.seq,
        s.d_ff,
        g_differ,
        g_burn.len(),
        a.len(),
        forward_burn * 1e3,
        forward_actlut * 1e3,
        forward_burn / forward_actlut,
        gelu_burn * 1e3,
        gelu_actlut * 1e3,
        gelu_burn / gelu_actlut,
        100.0 * l * gelu_burn / forward_burn,
        100.0 * l * gelu_actlut / forward_actlut,
    );
}

fn bits(t: Tensor<3>) -> Vec<u16> {
    t.into_data()
        .try_to_vec::<actlut::half::bf16>()
        .unwrap()
        .into_iter()
        .map(|v| v.to_bits())
        .collect()
}

fn main() {
    let test = std::env::args().any(|a| a == "--test");
    let (s, runs) = if test { (MINI, 1) } else { (BASE, 15) };
    let device = device();
    let model = Encoder::new(s, &device);
    let x = Tensor::<3>::random(
        [s.batch, s.seq, s.d_model],
        Distribution::Normal(0.0, 1.0),
        &device,
    );
    // The first layer's feed-forward input to GELU.
    let l0 = &model.layers[0];
    let a = l0.attn.forward(MhaInput::self_attn(x.clone())).context;
    let ffn = l0.up.forward(l0.norm1.forward(x.clone() + a));
    report(s, runs, &model, &x, &ffn);
}
