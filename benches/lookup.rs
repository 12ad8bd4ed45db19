//! Table lookup against the computed path, the naive f32 path and memcpy, over
//! 1 Mi elements, side by side in one criterion group per format so that the
//! ratios come from one run on one machine state.
//!
//! ```text
//! cargo bench --bench lookup
//! ```
//!
//! Every benchmark reads a 2 MiB input buffer and writes a 2 MiB output buffer
//! (or one 2 MiB buffer in place). The inputs are seeded pseudo-random, so every
//! run measures the same data:
//!
//! - `range8`: finite `f16` values spread uniformly over [-8, 8], where
//!   activations do their interesting work;
//! - `all-bits`: uniformly random bit patterns, NaNs, infinities, subnormals and
//!   huge values included (every table entry equally likely).
//!
//! Results and their interpretation are in BENCHMARKS.md.

use std::hint::black_box;

use actlut::Function;
use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use half::{bf16, f16};

mod common;
use common::Rng;

/// Elements per benchmark: 1 Mi, 2 MiB per buffer of 16-bit values.
const N: usize = 1 << 20;

/// `n` `f16` values uniform over [-8, 8] (rounded to f16, so all finite).
fn f16_range8(n: usize, seed: u64) -> Vec<f16> {
    let mut rng = Rng(seed);
    (0..n)
        .map(|_| f16::from_f32(rng.uniform(-8.0, 8.0)))
        .collect()
}

/// `n` uniformly random 16-bit patterns.
fn bits_all(n: usize, seed: u64) -> Vec<u16> {
    let mut rng = Rng(seed);
    (0..n).map(|_| (rng.next() >> 48) as u16).collect()
}

/// `n` `bf16` values uniform over [-8, 8].
fn bf16_range8(n: usize, seed: u64) -> Vec<bf16> {
    let mut rng = Rng(seed);
    (0..n)
        .map(|_| bf16::from_f32(rng.uniform(-8.0, 8.0)))
        .collect()
}

/// GELU the way a user without actlut writes it: widen to f32, evaluate
/// `x/2 · (1 + erf(x/√2))` with `libm::erff`, round back with `f16::from_f32`.
#[inline]
fn naive_gelu_f16(x: f16) -> f16 {
    let x = x.to_f32();
    f16::from_f32(0.5 * x * (1.0 + libm::erff(x * core::f32::consts::FRAC_1_SQRT_2)))
}

fn gelu_f16(c: &mut Criterion) {
    let mut g = common::configure(c, "gelu_f16_1Mi", N);
    let cases: [(&str, Vec<f16>); 2] = [
        ("range8", f16_range8(N, 0x9E37_79B9_7F4A_7C15)),
        (
            "all-bits",
            bits_all(N, 0xD1B5_4A32_D192_ED03)
                .into_iter()
                .map(f16::from_bits)
                .collect(),
        ),
    ];
    for (case, xs) in &cases {
        let mut ys = vec![f16::ZERO; N];

        g.bench_function(format!("memcpy/{case}"), |b| {
            b.iter(|| ys.copy_from_slice(black_box(xs)));
        });
        g.bench_function(format!("lookup_map/{case}"), |b| {
            b.iter(|| actlut::gelu::map_f16(black_box(xs), &mut ys));
        });
        g.bench_function(format!("lookup_apply/{case}"), |b| {
            // In place: each iteration starts from a fresh copy of the inputs
            // (the copy is not timed), so the data never degenerates into
            // gelu(gelu(…)).
            b.iter_batched_ref(
                || xs.clone(),
                |buf| actlut::gelu::apply_f16(buf),
                BatchSize::LargeInput,
            );
        });
        g.bench_function(format!("computed/{case}"), |b| {
            b.iter(|| {
                for (y, x) in ys.iter_mut().zip(black_box(xs)) {
                    *y = f16::from_bits(actlut::computed::f16_bits(Function::Gelu, x.to_bits()));
                }
            });
        });
        g.bench_function(format!("naive_f32_erff/{case}"), |b| {
            b.iter(|| {
                for (y, x) in ys.iter_mut().zip(black_box(xs)) {
                    *y = naive_gelu_f16(*x);
                }
            });
        });
        black_box(&ys);
    }
    g.finish();
}

fn silu_sigmoid_bf16(c: &mut Criterion) {
    let mut g = common::configure(c, "bf16_1Mi", N);
    let xs = bf16_range8(N, 0x2545_F491_4F6C_DD1D);
    let mut ys = vec![bf16::ZERO; N];

    g.bench_function("memcpy/range8", |b| {
        b.iter(|| ys.copy_from_slice(black_box(&xs)));
    });
    g.bench_function("silu_lookup_map/range8", |b| {
        b.iter(|| actlut::silu::map_bf16(black_box(&xs), &mut ys));
    });
    g.bench_function("silu_computed/range8", |b| {
        b.iter(|| {
            for (y, x) in ys.iter_mut().zip(black_box(&xs)) {
                *y = bf16::from_bits(actlut::computed::bf16_bits(Function::Silu, x.to_bits()));
            }
        });
    });
    g.bench_function("sigmoid_lookup_map/range8", |b| {
        b.iter(|| actlut::sigmoid::map_bf16(black_box(&xs), &mut ys));
    });
    g.bench_function("sigmoid_computed/range8", |b| {
        b.iter(|| {
            for (y, x) in ys.iter_mut().zip(black_box(&xs)) {
                *y = bf16::from_bits(actlut::computed::bf16_bits(Function::Sigmoid, x.to_bits()));
            }
        });
    });
    black_box(&ys);
    g.finish();
}

criterion_group!(benches, gelu_f16, silu_sigmoid_bf16);
criterion_main!(benches);
