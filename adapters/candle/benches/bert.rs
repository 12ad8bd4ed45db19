//! A BERT encoder's forward pass on the CPU, candle's GELU against actlut's,
//! side by side in one run, in bf16 and f16, for seq = 128 and 384.
//!
//! The model is BERT-base (Devlin et al. 2018, `bert-base-uncased`'s
//! configuration: 12 layers, hidden size 768, 12 heads, intermediate size
//! 3072, vocabulary 30,522, 512 positions, post-LayerNorm with eps 1e-12)
//! built from candle-nn's `Linear`, `LayerNorm`, `Embedding` and
//! `softmax_last_dim`, the same layers as candle-transformers' BERT, with one
//! change: the FFN activation is a parameter. The weights are random,
//! N(0, 0.02²) as BERT initialises them (LayerNorm 1 and 0), from a fixed seed;
//! no weights are downloaded. Batch 1; the token ids are seeded too.
//!
//! Groups:
//! - `bert_forward/<dtype>/seq<n>`: the whole forward pass with candle's
//!   `gelu_erf` (what candle-transformers' BERT runs for `hidden_act: gelu`) and
//!   with actlut's exact GELU (`actlut_candle::apply`);
//! - `bert_gelu_only/<dtype>/seq<n>`: the 12 GELU calls of one forward pass
//!   alone, on the tensors they receive in the forward pass (recorded from a
//!   run with candle's GELU: 1 × seq × 3072 each), to give the share of the
//!   forward pass spent in GELU.
//!
//! Before the benches it prints, for each dtype and length, how the two
//! outputs differ: how many of the GELU outputs of the forward pass differ
//! between candle's GELU and the exact one (counted over the inputs the GELU
//! calls of candle's run actually received) and the largest difference of the
//! final hidden states.
//!
//! Times are CPU time of the process (see [`CpuTime`]), candle on one thread.
//!
//! `cargo bench -p actlut-candle --bench bert -- --test` (CI) runs a small
//! published configuration instead, BERT-mini (`google/bert_uncased_L-4_H-256_A-4`:
//! 4 layers, hidden 256, 4 heads, intermediate 1024), at seq = 32, once.

use std::cell::RefCell;
use std::time::Duration;

use actlut::Function;
use actlut_candle::candle_core::{DType, Device, Module, Result, Tensor};
use candle_nn::{Embedding, LayerNorm, Linear};
use criterion::measurement::{Measurement, ValueFormatter};
use criterion::{
    criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode, Throughput,
};

/// CPU time of the whole process (every thread), in nanoseconds: the sum of
/// the on-CPU times the kernel keeps per thread (`/proc/self/task/*/schedstat`).
///
/// The machine is shared: wall time counts the time other processes hold the
/// cores, CPU time only this process's own work. The bench runs candle on one
/// thread (`RAYON_NUM_THREADS=1`), so the CPU time of a forward pass is its
/// one-thread latency without the waits.
struct CpuTime;

fn cpu_ns() -> u64 {
    let tasks =
        std::fs::read_dir("/proc/self/task").expect("the bench reads Linux's /proc/self/task");
    tasks
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("schedstat")).ok())
        .filter_map(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .sum()
}

impl Measurement for CpuTime {
    type Intermediate = u64;
    type Value = u64;

    fn start(&self) -> u64 {
        cpu_ns()
    }
    fn end(&self, start: u64) -> u64 {
        cpu_ns().saturating_sub(start)
    }
    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }
    fn zero(&self) -> u64 {
        0
    }
    fn to_f64(&self, v: &u64) -> f64 {
        *v as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        &CpuFormatter
    }
}

/// Nanoseconds shown as ns, µs, ms or s of CPU time.
struct CpuFormatter;

impl ValueFormatter for CpuFormatter {
    fn scale_values(&self, ns: f64, values: &mut [f64]) -> &'static str {
        let (factor, unit) = if ns < 1e3 {
            (1.0, "ns (CPU)")
        } else if ns < 1e6 {
            (1e-3, "µs (CPU)")
        } else if ns < 1e9 {
            (1e-6, "ms (CPU)")
        } else {
            (1e-9, "s (CPU)")
        };
        for v in values {
            *v *= factor;
        }
        unit
    }

    fn scale_throughputs(&self, _: f64, t: &Throughput, values: &mut [f64]) -> &'static str {
        let n = match *t {
            Throughput::Elements(n) | Throughput::ElementsAndBytes { elements: n, .. } => n,
            Throughput::Bytes(n) | Throughput::BytesDecimal(n) => n,
            Throughput::Bits(n) => n,
        } as f64;
        for v in values {
            *v = n * 1e9 / *v;
        }
        "per CPU second"
    }

    fn scale_for_machines(&self, _: &mut [f64]) -> &'static str {
        "ns"
    }
}

/// A published BERT configuration.
#[derive(Clone, Copy)]
struct Config {
    name: &'static str,
    layers: usize,
    hidden: usize,
    heads: usize,
    intermediate: usize,
    vocab: usize,
    positions: usize,
}

const BERT_BASE: Config = Config {
    name: "BERT-base",
    layers: 12,
    hidden: 768,
    heads: 12,
    intermediate: 3072,
    vocab: 30522,
    positions: 512,
};

const BERT_MINI: Config = Config {
    name: "BERT-mini",
    layers: 4,
    hidden: 256,
    heads: 4,
    intermediate: 1024,
    vocab: 30522,
    positions: 512,
};

/// splitmix64: a seeded source of normal samples (Box–Muller).
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn uniform(&mut self) -> f64 {
        ((self.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }

    fn normals(&mut self, n: usize, std: f64) -> Vec<f32> {
        let mut v = Vec::with_capacity(n + 1);
        while v.len() < n {
            let (u1, u2) = (self.uniform(), self.uniform());
            let r = (-2.0 * u1.ln()).sqrt() * std;
            let t = 2.0 * std::f64::consts::PI * u2;
            v.push((r * t.cos()) as f32);
            v.push((r * t.sin()) as f32);
        }
        v.truncate(n);
        v
    }
}

/// A weight tensor of N(0, 0.02²) samples, rounded once (f32 → dtype).
fn weight(rng: &mut Rng, shape: (usize, usize), dtype: DType) -> Result<Tensor> {
    let v = rng.normals(shape.0 * shape.1, 0.02);
    Tensor::from_vec(v, shape, &Device::Cpu)?.to_dtype(dtype)
}

fn linear(rng: &mut Rng, inp: usize, out: usize, dtype: DType) -> Result<Linear> {
    let w = weight(rng, (out, inp), dtype)?;
    let b = Tensor::zeros(out, dtype, &Device::Cpu)?;
    Ok(Linear::new(w, Some(b)))
}

fn layer_norm(n: usize, dtype: DType) -> Result<LayerNorm> {
    let w = Tensor::ones(n, dtype, &Device::Cpu)?;
    let b = Tensor::zeros(n, dtype, &Device::Cpu)?;
    Ok(LayerNorm::new(w, b, 1e-12))
}

struct Layer {
    q: Linear,
    k: Linear,
    v: Linear,
    attn_out: Linear,
    attn_norm: LayerNorm,
    ff_in: Linear,
    ff_out: Linear,
    ff_norm: LayerNorm,
}

struct Bert {
    cfg: Config,
    words: Embedding,
    positions: Embedding,
    token_types: Embedding,
    embed_norm: LayerNorm,
    layers: Vec<Layer>,
}

/// The FFN activation: called on `1 × seq × intermediate`.
type Gelu<'a> = &'a dyn Fn(&Tensor) -> Result<Tensor>;

impl Bert {
    fn new(cfg: Config, dtype: DType, seed: u64) -> Result<Bert> {
        let mut rng = Rng(seed);
        let h = cfg.hidden;
        let embedding = |rng: &mut Rng, n| -> Result<Embedding> {
            Ok(Embedding::new(weight(rng, (n, h), dtype)?, h))
        };
        let words = embedding(&mut rng, cfg.vocab)?;
        let positions = embedding(&mut rng, cfg.positions)?;
        let token_types = embedding(&mut rng, 2)?;
        let mut layers = Vec::new();
        for _ in 0..cfg.layers {
            layers.push(Layer {
                q: linear(&mut rng, h, h, dtype)?,
                k: linear(&mut rng, h, h, dtype)?,
                v: linear(&mut rng, h, h, dtype)?,
                attn_out: linear(&mut rng, h, h, dtype)?,
                attn_norm: layer_norm(h, dtype)?,
                ff_in: linear(&mut rng, h, cfg.intermediate, dtype)?,
                ff_out: linear(&mut rng, cfg.intermediate, h, dtype)?,
                ff_norm: layer_norm(h, dtype)?,
            });
        }
        Ok(Bert {
            cfg,
            words,
            positions,
            token_types,
            embed_norm: layer_norm(h, dtype)?,
            layers,
        })
    }

    /// The last hidden state, `1 × seq × hidden`, for token ids `ids`
    /// (`1 × seq`, U32); no attention mask (every token is real).
    fn forward(&self, ids: &Tensor, gelu: Gelu<'_>) -> Result<Tensor> {
        let seq = ids.dim(1)?;
        let dev = ids.device();
        let pos = Tensor::arange(0u32, seq as u32, dev)?.unsqueeze(0)?;
        let types = Tensor::zeros((1, seq), DType::U32, dev)?;
        let x = (self.words.forward(ids)? + self.positions.forward(&pos)?)?;
        let x = (x + self.token_types.forward(&types)?)?;
        let mut x = self.embed_norm.forward(&x)?;
        let (heads, hd) = (self.cfg.heads, self.cfg.hidden / self.cfg.heads);
        let scale = 1.0 / (hd as f64).sqrt();
        for l in &self.layers {
            let split = |t: Tensor| -> Result<Tensor> {
                t.reshape((1, seq, heads, hd))?
                    .transpose(1, 2)?
                    .contiguous()
            };
            let q = split(l.q.forward(&x)?)?;
            let k = split(l.k.forward(&x)?)?;
            let v = split(l.v.forward(&x)?)?;
            let scores = (q.matmul(&k.t()?.contiguous()?)? * scale)?;
            let probs = candle_nn::ops::softmax_last_dim(&scores)?;
            let ctx = probs
                .matmul(&v)?
                .transpose(1, 2)?
                .reshape((1, seq, self.cfg.hidden))?;
            let x1 = l.attn_norm.forward(&(l.attn_out.forward(&ctx)? + &x)?)?;
            let ff = gelu(&l.ff_in.forward(&x1)?)?;
            x = l.ff_norm.forward(&(l.ff_out.forward(&ff)? + &x1)?)?;
        }
        Ok(x)
    }
}

fn candle_gelu(x: &Tensor) -> Result<Tensor> {
    x.gelu_erf()
}

fn actlut_gelu(x: &Tensor) -> Result<Tensor> {
    actlut_candle::apply(x, Function::Gelu)
}

fn token_ids(cfg: Config, seq: usize) -> Result<Tensor> {
    let mut rng = Rng(7);
    let ids: Vec<u32> = (0..seq)
        .map(|_| (rng.next_u64() % cfg.vocab as u64) as u32)
        .collect();
    Tensor::from_vec(ids, (1, seq), &Device::Cpu)
}

fn dtype_name(d: DType) -> &'static str {
    match d {
        DType::BF16 => "bf16",
        DType::F16 => "f16",
        _ => "other",
    }
}

/// Prints how candle's GELU and actlut's change the model's output.
fn compare(cfg: Config, dtype: DType, seq: usize) -> Result<()> {
    let model = Bert::new(cfg, dtype, 1)?;
    let ids = token_ids(cfg, seq)?;
    // Candle's run, recording what its GELU calls received.
    let inputs = RefCell::new(Vec::new());
    let recording = |x: &Tensor| -> Result<Tensor> {
        inputs.borrow_mut().push(x.clone());
        x.gelu_erf()
    };
    let with_candle = model.forward(&ids, &recording)?;
    let with_actlut = model.forward(&ids, &actlut_gelu)?;
    let (mut differ, mut total) = (0usize, 0usize);
    // The inputs where the two GELUs differ, and the two results there.
    let mut at = std::collections::BTreeSet::new();
    for x in inputs.borrow().iter() {
        let xs = x.to_dtype(DType::F32)?.flatten_all()?.to_vec1::<f32>()?;
        let a = x
            .gelu_erf()?
            .to_dtype(DType::F32)?
            .flatten_all()?
            .to_vec1::<f32>()?;
        let b = actlut_gelu(x)?
            .to_dtype(DType::F32)?
            .flatten_all()?
            .to_vec1::<f32>()?;
        total += a.len();
        for ((x, a), b) in xs.iter().zip(&a).zip(&b) {
            if a.to_bits() != b.to_bits() {
                differ += 1;
                at.insert((x.to_bits(), a.to_bits(), b.to_bits()));
            }
        }
    }
    let at: Vec<String> = at
        .iter()
        .map(|&(x, a, b)| {
            let f = f32::from_bits;
            format!("gelu({:e}): candle {:e}, exact {:e}", f(x), f(a), f(b))
        })
        .collect();
    let first_layer = {
        let x = &inputs.borrow()[0];
        let a = x
            .gelu_erf()?
            .to_dtype(DType::F32)?
            .flatten_all()?
            .to_vec1::<f32>()?;
        let b = actlut_gelu(x)?
            .to_dtype(DType::F32)?
            .flatten_all()?
            .to_vec1::<f32>()?;
        a.iter()
            .zip(&b)
            .filter(|(a, b)| a.to_bits() != b.to_bits())
            .count()
    };
    let a = with_candle
        .to_dtype(DType::F32)?
        .flatten_all()?
        .to_vec1::<f32>()?;
    let b = with_actlut
        .to_dtype(DType::F32)?
        .flatten_all()?
        .to_vec1::<f32>()?;
    let max_diff = a
        .iter()
        .zip(&b)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0f32, f32::max);
    let changed = a
        .iter()
        .zip(&b)
        .filter(|(a, b)| a.to_bits() != b.to_bits())
        .count();
    let max_abs = a.iter().map(|a| a.abs()).fold(0.0f32, f32::max);
    println!(
        "{} {} seq {seq}: GELU outputs that differ (candle gelu_erf vs exact): {differ} of {total} \
         ({first_layer} in layer 1, same inputs); final hidden state: {changed} of {} values differ, \
         max |difference| {max_diff} (max |value| {max_abs}); the GELUs differ at: {}",
        cfg.name,
        dtype_name(dtype),
        a.len(),
        if at.is_empty() { "no input".to_string() } else { at.join("; ") }
    );
    Ok(())
}

fn test_mode() -> bool {
    std::env::args().any(|a| a == "--test")
}

fn benches(c: &mut Criterion<CpuTime>) {
    // One thread for candle's matrix products and elementwise ops (read when
    // candle first needs it), unless the caller chose otherwise.
    if std::env::var_os("RAYON_NUM_THREADS").is_none() {
        std::env::set_var("RAYON_NUM_THREADS", "1");
    }
    let (cfg, lengths): (Config, &[usize]) = if test_mode() {
        (BERT_MINI, &[32])
    } else {
        (BERT_BASE, &[128, 384])
    };
    println!(
        "{}: {} layers, hidden {}, {} heads, intermediate {}; candle threads: {}",
        cfg.name,
        cfg.layers,
        cfg.hidden,
        cfg.heads,
        cfg.intermediate,
        actlut_candle::candle_core::utils::get_num_threads()
    );
    for dtype in [DType::BF16, DType::F16] {
        for &seq in lengths {
            compare(cfg, dtype, seq).expect("compare");
        }
    }
    for dtype in [DType::BF16, DType::F16] {
        let model = Bert::new(cfg, dtype, 1).expect("model");
        let name = dtype_name(dtype);
        {
            let mut g = c.benchmark_group(format!("bert_forward/{name}"));
            // Seconds per iteration: the same few iterations in every sample.
            g.sampling_mode(SamplingMode::Flat);
            g.sample_size(10);
            g.warm_up_time(Duration::from_secs(2));
            g.measurement_time(Duration::from_secs(10));
            for &seq in lengths {
                let ids = token_ids(cfg, seq).expect("ids");
                g.bench_with_input(BenchmarkId::new("candle_gelu_erf", seq), &ids, |b, ids| {
                    b.iter(|| model.forward(ids, &candle_gelu).unwrap())
                });
                g.bench_with_input(BenchmarkId::new("actlut_gelu", seq), &ids, |b, ids| {
                    b.iter(|| model.forward(ids, &actlut_gelu).unwrap())
                });
            }
            g.finish();
        }
        let mut g = c.benchmark_group(format!("bert_gelu_only/{name}"));
        g.sample_size(20);
        g.warm_up_time(Duration::from_secs(1));
        g.measurement_time(Duration::from_secs(3));
        for &seq in lengths {
            // The very tensors the GELU calls of a forward pass receive
            // (candle's GELU run): the same shapes and values.
            let ids = token_ids(cfg, seq).expect("ids");
            let inputs = RefCell::new(Vec::new());
            let recording = |x: &Tensor| -> Result<Tensor> {
                inputs.borrow_mut().push(x.clone());
                x.gelu_erf()
            };
            model.forward(&ids, &recording).expect("forward");
            let inputs = inputs.into_inner();
            g.bench_with_input(
                BenchmarkId::new("candle_gelu_erf", seq),
                &inputs,
                |b, xs| {
                    b.iter(|| {
                        for x in xs {
                            std::hint::black_box(candle_gelu(x).unwrap());
                        }
                    })
                },
            );
            g.bench_with_input(BenchmarkId::new("actlut_gelu", seq), &inputs, |b, xs| {
                b.iter(|| {
                    for x in xs {
                        std::hint::black_box(actlut_gelu(x).unwrap());
                    }
                })
            });
        }
        g.finish();
    }
}

criterion_group! {
    name = bert;
    config = Criterion::default().with_measurement(CpuTime);
    targets = benches
}

criterion_main!(bert);
