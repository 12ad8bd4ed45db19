//! The approximate toolkit against the real transcendentals, over 1 Mi `f32`
//! elements, side by side in one criterion group per task so that the ratios
//! come from one run on one machine state.
//!
//! ```text
//! cargo bench -p actlut --features alloc --bench approx
//! ```
//!
//! - `quantized_<f>`: a [`QuantizedFunction`] at step 1/256 over [-8, 8]
//!   (4097 entries, 16 KiB) against the same function per element through the
//!   `libm` crate in `f32` (`erfcf`, `tanhf`, `expf`), and against actlut's
//!   exact computed path; inputs uniform over [-10, 10] (a tenth in the tails);
//! - `lns_exp`: an [`ExpTable`] gather of 4096 codes against `libm::expf` of the
//!   decoded value;
//! - `logsumexp`: [`quantized_logsumexp`] (12 bits, span 24; table built per
//!   call) and a reused [`LogSumExp`] against the naive two-pass log-sum-exp
//!   (maximum, then `Σ exp(s − max)` in `f64` with `libm::expf` or `libm::exp`),
//!   over scores uniform in [-30, 10].
//!
//! The inputs are seeded pseudo-random, identical on every run.

use std::hint::black_box;

use actlut::Function;
use actlut_approx::{quantized_exp, quantized_logsumexp, Builtin, LogSumExp, QuantizedFunction};
use criterion::{criterion_group, criterion_main, Criterion};

#[path = "../../benches/common/mod.rs"]
mod common;
use common::Rng;

/// Elements per benchmark: 1 Mi.
const N: usize = 1 << 20;

fn uniform(n: usize, lo: f32, hi: f32, seed: u64) -> Vec<f32> {
    let mut rng = Rng(seed);
    (0..n).map(|_| rng.uniform(lo, hi)).collect()
}

/// The functions per element as a user without tables writes them in `f32`.
fn libm_gelu(x: f32) -> f32 {
    0.5 * x * libm::erfcf(-x * core::f32::consts::FRAC_1_SQRT_2)
}

fn libm_sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + libm::expf(-x))
}

fn libm_silu(x: f32) -> f32 {
    x / (1.0 + libm::expf(-x))
}

/// A function, its per-element libm version, and whether to bench the exact path.
type Case = (Builtin, fn(f32) -> f32, bool);

fn quantized(c: &mut Criterion) {
    let xs = uniform(N, -10.0, 10.0, 0x9E37_79B9_7F4A_7C15);
    let mut ys = vec![0.0f32; N];
    let cases: [Case; 4] = [
        (Builtin::new(Function::Gelu).unwrap(), libm_gelu, true),
        (Builtin::new(Function::Tanh).unwrap(), libm::tanhf, false),
        (
            Builtin::new(Function::Sigmoid).unwrap(),
            libm_sigmoid,
            false,
        ),
        (Builtin::new(Function::Silu).unwrap(), libm_silu, false),
    ];
    for (f, per_element, with_computed) in cases {
        let mut g = common::configure(c, &format!("quantized_{}_1Mi", f.name()), N);
        let q = QuantizedFunction::builtin(f, 1.0 / 256.0, -8.0, 8.0).unwrap();
        g.bench_function("quantized_map", |b| {
            b.iter(|| q.map(black_box(&xs), &mut ys).unwrap());
        });
        g.bench_function("libm_f32", |b| {
            b.iter(|| {
                for (y, &x) in ys.iter_mut().zip(black_box(&xs)) {
                    *y = per_element(x);
                }
            });
        });
        if with_computed {
            let act = f.function();
            g.bench_function("computed_exact", |b| {
                b.iter(|| actlut::computed::map_f32(act, black_box(&xs), &mut ys));
            });
        }
        black_box(&ys);
        g.finish();
    }
}

fn lns_exp(c: &mut Criterion) {
    let mut g = common::configure(c, "lns_exp_1Mi", N);
    let t = quantized_exp(1.0 / 64.0, -48.0, 4096).unwrap();
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let codes: Vec<u16> = (0..N).map(|_| (rng.next() >> 52) as u16).collect();
    let mut ys = vec![0.0f32; N];
    g.bench_function("gather", |b| {
        b.iter(|| t.gather(black_box(&codes), &mut ys).unwrap());
    });
    g.bench_function("libm_expf", |b| {
        b.iter(|| {
            for (y, &c) in ys.iter_mut().zip(black_box(&codes)) {
                *y = libm::expf(-48.0 + f32::from(c) * (1.0 / 64.0));
            }
        });
    });
    black_box(&ys);
    g.finish();
}

fn naive_lse_expf(s: &[f32]) -> f64 {
    let m = s.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let sum: f64 = s.iter().map(|&x| f64::from(libm::expf(x - m))).sum();
    f64::from(m) + libm::log(sum)
}

fn naive_lse_exp(s: &[f32]) -> f64 {
    let m = f64::from(s.iter().copied().fold(f32::NEG_INFINITY, f32::max));
    let sum: f64 = s.iter().map(|&x| libm::exp(f64::from(x) - m)).sum();
    m + libm::log(sum)
}

fn logsumexp(c: &mut Criterion) {
    let mut g = common::configure(c, "logsumexp_1Mi", N);
    let scores = uniform(N, -30.0, 10.0, 0x2545_F491_4F6C_DD1D);
    let mut reused = LogSumExp::new(12, 24.0).unwrap();
    g.bench_function("quantized_bits12", |b| {
        b.iter(|| quantized_logsumexp(black_box(&scores), 12, 24.0, None).unwrap());
    });
    g.bench_function("quantized_bits12_reused", |b| {
        b.iter(|| reused.eval(black_box(&scores), None).unwrap());
    });
    g.bench_function("naive_libm_expf", |b| {
        b.iter(|| naive_lse_expf(black_box(&scores)));
    });
    g.bench_function("naive_libm_exp_f64", |b| {
        b.iter(|| naive_lse_exp(black_box(&scores)));
    });
    g.finish();
}

criterion_group!(benches, quantized, lns_exp, logsumexp);
criterion_main!(benches);
