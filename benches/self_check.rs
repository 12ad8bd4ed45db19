//! What the `self-check` feature costs: the check itself (once per table,
//! before its first use: a SHA-256 of the table in memory), and what every
//! later lookup pays for it (a call and one atomic load), side by side with a lookup of
//! the raw static.
//!
//! ```text
//! cargo bench --bench self_check --features self-check,compact
//! ```
//!
//! `Table::check` does the work of the first use of `tables::checked::<NAME>`
//! (which runs once per process, so it cannot be timed repeatedly itself):
//! the full 16-bit table (128 KiB), an 8-bit table (256 bytes), and a compact
//! form (its 65,536 entries decoded and hashed, as the check does).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};

fn check_once(c: &mut Criterion) {
    let mut g = c.benchmark_group("self-check/once");
    let bf16 = actlut::manifest::find("gelu_bf16").unwrap();
    g.bench_function("gelu_bf16 (full, 128 KiB)", |b| {
        b.iter(|| bf16.check(black_box(actlut::tables::GELU_BF16)))
    });
    let fp8 = actlut::manifest::find("gelu_fp8_e4m3").unwrap();
    g.bench_function("gelu_fp8_e4m3 (256 bytes)", |b| {
        b.iter(|| fp8.check(black_box(actlut::tables::GELU_FP8_E4M3)))
    });
    #[cfg(feature = "compact")]
    g.bench_function("gelu_bf16 (compact)", |b| {
        b.iter(|| bf16.check(black_box(&actlut::tables::compact::GELU_BF16)))
    });
    g.finish();
}

fn lookups(c: &mut Criterion) {
    let mut g = c.benchmark_group("self-check/lookup");
    let xs: Vec<u16> = (0..4096u32)
        .map(|i| (i.wrapping_mul(40503) >> 2) as u16)
        .collect();
    // Verified once, before the timing.
    actlut::tables::checked::GELU_BF16.verify().unwrap();
    g.bench_function("raw static, 4096 values", |b| {
        b.iter(|| {
            let t = actlut::tables::GELU_BF16;
            black_box(&xs)
                .iter()
                .fold(0u16, |a, &x| a ^ t[usize::from(x)])
        })
    });
    g.bench_function(
        "checked (BuiltinTables::table_bf16 per value), 4096 values",
        |b| {
            b.iter(|| {
                black_box(&xs).iter().fold(0u16, |a, &x| {
                    a ^ actlut::BuiltinTables::table_bf16(actlut::Function::Gelu).unwrap()
                        [usize::from(x)]
                })
            })
        },
    );
    #[cfg(not(feature = "compact"))]
    g.bench_function("checked (gelu::bf16_bits per value), 4096 values", |b| {
        b.iter(|| {
            black_box(&xs)
                .iter()
                .fold(0u16, |a, &x| a ^ actlut::gelu::bf16_bits(x))
        })
    });
    g.finish();
}

criterion_group!(benches, check_once, lookups);
criterion_main!(benches);
