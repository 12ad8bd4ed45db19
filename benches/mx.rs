//! MXFP4 → gelu → bf16 over 1 Mi elements (32 Ki blocks), side by side in one criterion group
//! so that the ratios come from one run on one machine state.
//!
//! ```text
//! cargo bench --bench mx
//! ```
//!
//! - `fused table, best kernel`: `MxFp4Table<bf16>::map`, the (scale, code) table with the
//!   SIMD FP4 kernel (`pshufb` on x86_64 with SSSE3).
//! - `fused table, scalar`: the same table through the portable loop.
//! - `map_mx, memo per scale`: no prebuilt table; outputs memoized per (code, scale) while
//!   consecutive blocks share a scale (the path FP6 and FP8 blocks take).
//! - `dequantize + bf16 table`: plain dequantization to bf16 (the identity table), then the
//!   `gelu_bf16` table over the result (`actlut::gelu::apply_bf16`): two passes.
//! - `dequantize + computed`: the same dequantization, then `actlut::computed::bf16` per
//!   element (no table at all).
//! - `dequantize only`: the identity table alone, the floor.
//!
//! Scales are seeded pseudo-random in 2^-8 ..= 2^7 (E8M0 119..=134), codes uniform.

use std::hint::black_box;
use std::time::Duration;

use actlut::kernels::Kernel;
use actlut::mx::{map_mx, Element, MxFp4Table, Op};
use actlut::Function;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use half::bf16;

mod common;
use common::random_bytes;

/// Elements per benchmark: 1 Mi (32 Ki blocks of 32).
const N: usize = 1 << 20;

fn mxfp4_gelu_bf16(c: &mut Criterion) {
    let blocks = N / 32;
    let packed = random_bytes(N / 2, 0x5EED_00F4);
    let scales: Vec<u8> = random_bytes(blocks, 0x5EED_05CA)
        .into_iter()
        .map(|b| 119 + b % 16)
        .collect();
    let gelu = MxFp4Table::<bf16>::new(Function::Gelu);
    let identity = MxFp4Table::<bf16>::new(Function::Identity);
    let mut out = vec![bf16::ZERO; N];

    let mut g = c.benchmark_group("mxfp4-gelu-bf16");
    g.throughput(Throughput::Elements(N as u64));
    g.measurement_time(Duration::from_secs(3));
    g.bench_function("fused table, best kernel", |b| {
        b.iter(|| gelu.map(black_box(&packed), black_box(&scales), black_box(&mut out)))
    });
    g.bench_function("fused table, scalar", |b| {
        b.iter(|| {
            gelu.map_with(
                Kernel::Scalar,
                black_box(&packed),
                black_box(&scales),
                black_box(&mut out),
            )
        })
    });
    g.bench_function("dequantize + bf16 table", |b| {
        b.iter(|| {
            identity
                .map(black_box(&packed), black_box(&scales), &mut out)
                .unwrap();
            actlut::gelu::apply_bf16(black_box(&mut out));
        })
    });
    g.bench_function("dequantize only", |b| {
        b.iter(|| identity.map(black_box(&packed), black_box(&scales), black_box(&mut out)))
    });
    // The paths that evaluate the function per element or per (scale, code) are far slower.
    g.sample_size(10);
    g.bench_function("map_mx, memo per scale", |b| {
        b.iter(|| {
            map_mx(
                Op::from(Function::Gelu),
                Element::Fp4E2M1,
                black_box(&packed),
                black_box(&scales),
                black_box(&mut out),
            )
        })
    });
    g.bench_function("dequantize + computed", |b| {
        b.iter(|| {
            identity
                .map(black_box(&packed), black_box(&scales), &mut out)
                .unwrap();
            for o in out.iter_mut() {
                *o = actlut::computed::bf16(Function::Gelu, *o);
            }
        })
    });
    g.bench_function("table construction (4096 evaluations)", |b| {
        b.iter(|| MxFp4Table::<bf16>::new(black_box(Op::from(Function::Gelu))))
    });
    g.finish();
}

criterion_group!(benches, mxfp4_gelu_bf16);
criterion_main!(benches);
