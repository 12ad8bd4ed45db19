//! int16 → int16 sigmoid with the TFLite 16x8 parameters (input scale 2^-12, output scale
//! 2^-15, zero points 0, ties away from zero), over 1 Mi codes, side by side in one criterion
//! group so that the ratios come from one run:
//!
//! ```text
//! cargo bench --features alloc --bench quant16
//! ```
//!
//! - `full table`: `DequantTable16<i16, i16>::map` (128 KiB, the 16-bit kernel);
//! - `compact table`: the same entries in the compact stored form (16,161 bytes) through
//!   `actlut::compact::map_compact_u16`;
//! - `spline table`: the same entries in the spline stored form (3,240 bytes) through
//!   `actlut::quant16::map_spline`;
//! - `computed`: the unfused pipeline per element (dequantize in f32, `computed::f32`,
//!   requantize), the same evaluation the tables hold.
//!
//! The codes are activations drawn from N(0, 1) (σ = 4096 codes), seeded, the same on every
//! run.

use std::hint::black_box;
use std::time::Duration;

use actlut::quant::{QuantType, Rounding};
use actlut::quant16::{map_spline, DequantTable16, SplineRef};
use actlut::Function;
use actlut_codegen::compact::{compact, CompactRef, Layout};
use actlut_codegen::quant::requantize_with;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

mod common;
use common::Rng;

const N: usize = 1 << 20;
const SCALE: f32 = 1.0 / 4096.0;
const OUT_SCALE: f32 = 1.0 / 32768.0;

fn i16_sigmoid_i16(c: &mut Criterion) {
    let mut rng = Rng(0x5EED_0016);
    let codes: Vec<i16> = (0..N)
        .map(|_| (rng.normal() * 4096.0).round().clamp(-32768.0, 32767.0) as i16)
        .collect();
    let away = Rounding::TiesAwayFromZero;
    let mut buf = vec![0i16; 65_536];
    let full = DequantTable16::<i16, i16>::requantized_in(
        &mut buf,
        Function::Sigmoid,
        SCALE,
        0,
        OUT_SCALE,
        0,
        away,
    )
    .unwrap();
    let words: Vec<u16> = full.entries().iter().map(|&e| e as u16).collect();
    let stored = compact("sigmoid_i16", &words, Layout::Bytes)
        .unwrap()
        .to_bytes();
    let view = CompactRef::from_bytes(&stored).unwrap();
    let spline_bytes = actlut_codegen::spline::pack_pipeline(
        &actlut_codegen::quant::Pipeline::new(
            Function::Sigmoid.into(),
            QuantType::I16,
            SCALE,
            0,
            actlut_codegen::quant::OutputType::I16 {
                scale: OUT_SCALE,
                zero_point: 0,
            },
        )
        .unwrap()
        .with_rounding(away),
    )
    .unwrap();
    let spline = SplineRef::from_bytes(&spline_bytes).unwrap();
    let mut out_spline = vec![0i16; N];
    let code_bits: Vec<u16> = codes.iter().map(|&q| q as u16).collect();
    let mut out = vec![0i16; N];
    let mut out_bits = vec![0u16; N];
    // All three give the same outputs.
    full.map(&codes, &mut out);
    actlut::compact::map_compact_u16(&view, &code_bits, &mut out_bits);
    map_spline(&spline, &codes, &mut out_spline);
    assert_eq!(out_spline, out);
    for (i, &q) in codes.iter().enumerate() {
        let y = actlut::computed::f32(Function::Sigmoid, f32::from(q) * SCALE);
        let r = requantize_with(y, OUT_SCALE, 0, QuantType::I16, away) as i16;
        assert_eq!((out[i], out_bits[i] as i16), (r, r), "code {q}");
    }

    let mut g = c.benchmark_group("i16-sigmoid-i16");
    g.throughput(Throughput::Elements(N as u64));
    g.measurement_time(Duration::from_secs(3));
    g.bench_function("full table", |b| {
        b.iter(|| full.map(black_box(&codes), black_box(&mut out)))
    });
    g.bench_function("compact table", |b| {
        b.iter(|| {
            actlut::compact::map_compact_u16(&view, black_box(&code_bits), black_box(&mut out_bits))
        })
    });
    g.bench_function("spline table", |b| {
        b.iter(|| map_spline(&spline, black_box(&codes), black_box(&mut out_spline)))
    });
    g.bench_function("computed", |b| {
        b.iter(|| {
            for (o, &q) in out.iter_mut().zip(black_box(&codes)) {
                let y = actlut::computed::f32(Function::Sigmoid, f32::from(q) * SCALE);
                *o = requantize_with(y, OUT_SCALE, 0, QuantType::I16, away) as i16;
            }
        })
    });
    g.finish();
}

criterion_group!(benches, i16_sigmoid_i16);
criterion_main!(benches);
