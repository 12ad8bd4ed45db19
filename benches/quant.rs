//! Fused quantized tables against the unfused pipeline, over 1 Mi codes, side by side in one
//! criterion group each so that the ratios come from one run on one machine state.
//!
//! ```text
//! cargo bench --bench quant
//! ```
//!
//! - `i8-gelu-f32`: `DequantTable<i8, f32>::map` (the SSE2 kernel on x86_64) against the plain
//!   indexed loop over the same table, against the pipeline computed per element
//!   (dequantize in f32, then `computed::f32`, the same evaluation the table holds), and against
//!   a plain dequantization loop (no function) as the floor.
//! - `i4-gelu-f32`: packed 4-bit data (512 KiB holding 1 Mi values) through
//!   `PackedDequantTable::map` against the same values unpacked (1 Mi `i8`) through
//!   `DequantTable<I4, f32>::map`, which range-checks every value.
//! - `i8-gelu-i8`: a requantized table (`DequantTable<i8, i8>`), whose `map` runs the SIMD byte
//!   kernels, against the plain indexed loop over the same table and against memcpy.
//!
//! The codes are seeded pseudo-random, the same on every run.

use std::hint::black_box;
use std::time::Duration;

use actlut::quant::{DequantTable, PackedDequantTable, I4};
use actlut::Function;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

mod common;
use common::random_bytes;

/// Values per benchmark: 1 Mi.
const N: usize = 1 << 20;
const SCALE: f32 = 0.05;
const ZERO_POINT: i32 = -3;

fn i8_gelu_f32(c: &mut Criterion) {
    let codes: Vec<i8> = random_bytes(N, 0x5EED_0001)
        .into_iter()
        .map(|b| b as i8)
        .collect();
    let table = DequantTable::<i8, f32>::new(Function::Gelu, SCALE, ZERO_POINT).unwrap();
    let mut out = vec![0f32; N];
    let mut g = c.benchmark_group("i8-gelu-f32");
    g.throughput(Throughput::Elements(N as u64));
    g.measurement_time(Duration::from_secs(3));
    g.bench_function("fused table", |b| {
        b.iter(|| table.map(black_box(&codes), black_box(&mut out)))
    });
    g.bench_function("fused table, plain loop", |b| {
        b.iter(|| {
            for (o, &q) in out.iter_mut().zip(black_box(&codes)) {
                *o = table.entries()[usize::from(q as u8)];
            }
        })
    });
    g.bench_function("dequantize only", |b| {
        b.iter(|| {
            for (o, &q) in out.iter_mut().zip(black_box(&codes)) {
                *o = (i32::from(q) - ZERO_POINT) as f32 * SCALE;
            }
        })
    });
    // The unfused pipeline is ~2 orders of magnitude slower: fewer samples.
    g.sample_size(10);
    g.bench_function("unfused computed", |b| {
        b.iter(|| {
            for (o, &q) in out.iter_mut().zip(black_box(&codes)) {
                let x = (i32::from(q) - ZERO_POINT) as f32 * SCALE;
                *o = actlut::computed::f32(Function::Gelu, x);
            }
        })
    });
    g.finish();
}

fn i4_packed_vs_unpacked(c: &mut Criterion) {
    let packed = random_bytes(N / 2, 0x5EED_0002);
    let unpacked: Vec<i8> = packed
        .iter()
        .flat_map(|&b| [((b << 4) as i8) >> 4, (b as i8) >> 4])
        .collect();
    let p = PackedDequantTable::<I4, f32>::new(Function::Gelu, SCALE, ZERO_POINT).unwrap();
    let u = DequantTable::<I4, f32>::new(Function::Gelu, SCALE, ZERO_POINT).unwrap();
    let mut out_p = vec![0f32; N];
    let mut out_u = vec![0f32; N];
    p.map(&packed, &mut out_p);
    u.map(&unpacked, &mut out_u).unwrap();
    assert_eq!(out_p, out_u, "packed and unpacked disagree");
    let mut g = c.benchmark_group("i4-gelu-f32");
    g.throughput(Throughput::Elements(N as u64));
    g.measurement_time(Duration::from_secs(3));
    g.bench_function("packed pairs", |b| {
        b.iter(|| p.map(black_box(&packed), black_box(&mut out_p)))
    });
    g.bench_function("unpacked checked", |b| {
        b.iter(|| u.map(black_box(&unpacked), black_box(&mut out_u)).unwrap())
    });
    g.finish();
}

fn i8_gelu_i8(c: &mut Criterion) {
    let codes: Vec<i8> = random_bytes(N, 0x5EED_0002)
        .into_iter()
        .map(|b| b as i8)
        .collect();
    let table =
        DequantTable::<i8, i8>::requantized(Function::Gelu, SCALE, ZERO_POINT, 0.03, -5).unwrap();
    let mut out = vec![0i8; N];
    let mut g = c.benchmark_group("i8-gelu-i8");
    g.throughput(Throughput::Elements(N as u64));
    g.measurement_time(Duration::from_secs(3));
    g.bench_function("fused table, SIMD map", |b| {
        b.iter(|| table.map(black_box(&codes), black_box(&mut out)))
    });
    g.bench_function("fused table, plain loop", |b| {
        b.iter(|| {
            for (o, &q) in out.iter_mut().zip(black_box(&codes)) {
                *o = table.entries()[usize::from(q as u8)];
            }
        })
    });
    g.bench_function("memcpy", |b| {
        b.iter(|| out.copy_from_slice(black_box(&codes)))
    });
    g.finish();
}

criterion_group!(benches, i8_gelu_f32, i4_packed_vs_unpacked, i8_gelu_i8);
criterion_main!(benches);
