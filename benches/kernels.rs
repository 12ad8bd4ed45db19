//! Table kernels side by side at 2 KiB, 128 KiB and 2 MiB of input:
//!
//! - `byte_table`: the 256-entry byte lookup, the scalar loop against each SIMD
//!   kernel available on this machine (AVX-512 VBMI with `--features
//!   avx512`), and memcpy of the same buffer;
//! - `word_table/<inputs>`: the 65,536-entry 16-bit lookup, each [`Kernel`] for it
//!   against memcpy and against `loads_only`, the same table loads with no
//!   stores at all (a floor for any kernel that loads each entry), on four input
//!   distributions: `normal` (N(0, 1) in f16, a few KiB of the table),
//!   `l1-resident` (indices below 16,384: 32 KiB of it), `range8` (uniform
//!   f16 in [-8, 8]: 72 KiB of it) and `all-bits` (all 128 KiB).
//!
//! ```text
//! cargo bench --bench kernels
//! ```

use std::hint::black_box;
use std::time::Duration;

use actlut::kernels::{Kernel, TableShape};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

mod common;
use common::{f16_normal_bits, random_bytes, Rng};

fn byte_kernels(c: &mut Criterion) {
    let table: [u8; 256] = core::array::from_fn(|i| (i as u8).reverse_bits() ^ 0x5A);
    let mut group = c.benchmark_group("byte_table");
    group
        .measurement_time(Duration::from_secs(2))
        .sample_size(20);
    for (label, n) in [("2KiB", 2 << 10), ("128KiB", 128 << 10), ("2MiB", 2 << 20)] {
        let src = random_bytes(n, 0x9E37_79B9_7F4A_7C15);
        let mut dst = vec![0u8; n];
        group.throughput(Throughput::Bytes(n as u64));
        for kernel in Kernel::ALL
            .into_iter()
            .filter(|k| k.is_available_for(TableShape::U8))
        {
            group.bench_with_input(
                BenchmarkId::new(format!("{kernel:?}"), label),
                &src,
                |b, src| b.iter(|| kernel.map(&table, black_box(src), &mut dst).unwrap()),
            );
        }
        group.bench_with_input(BenchmarkId::new("memcpy", label), &src, |b, src| {
            b.iter(|| dst.copy_from_slice(black_box(src)))
        });
    }
    group.finish();
}

/// XOR of `table[x]` over `xs`, eight independent chains: every table load of a
/// lookup kernel and nothing else.
fn loads_only(table: &[u16; 65_536], xs: &[u16]) -> u16 {
    let mut acc = [0u16; 8];
    let mut c = xs.chunks_exact(8);
    for x in &mut c {
        for (a, x) in acc.iter_mut().zip(x) {
            *a ^= table[usize::from(*x)];
        }
    }
    for x in c.remainder() {
        acc[0] ^= table[usize::from(*x)];
    }
    acc.iter().fold(0, |a, b| a ^ b)
}

fn u16_kernels(c: &mut Criterion) {
    let mut table = Box::new([0u16; 65_536]);
    for (i, t) in table.iter_mut().enumerate() {
        *t = (i as u16).wrapping_mul(40_503).rotate_left(5);
    }
    let inputs = |dist: &str, n: usize| -> Vec<u16> {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        match dist {
            "normal" => f16_normal_bits(n, 0x9E37_79B9_7F4A_7C15),
            "l1-resident" => (0..n).map(|_| (rng.next() >> 50) as u16).collect(),
            "range8" => (0..n)
                .map(|_| half::f16::from_f32(rng.uniform(-8.0, 8.0)).to_bits())
                .collect(),
            _ => (0..n).map(|_| (rng.next() >> 48) as u16).collect(),
        }
    };
    for dist in ["normal", "l1-resident", "range8", "all-bits"] {
        let mut group = c.benchmark_group(format!("word_table/{dist}"));
        group
            .measurement_time(Duration::from_secs(2))
            .sample_size(20);
        for (label, bytes) in [("2KiB", 2 << 10), ("128KiB", 128 << 10), ("2MiB", 2 << 20)] {
            let n = bytes / 2;
            let xs = inputs(dist, n);
            let mut ys = vec![0u16; n];
            group.throughput(Throughput::Elements(n as u64));
            for kernel in Kernel::ALL
                .into_iter()
                .filter(|k| k.is_available_for(TableShape::U16))
            {
                group.bench_with_input(
                    BenchmarkId::new(format!("{kernel:?}"), label),
                    &xs,
                    |b, xs| b.iter(|| kernel.map(&*table, black_box(xs), &mut ys).unwrap()),
                );
            }
            group.bench_with_input(BenchmarkId::new("loads_only", label), &xs, |b, xs| {
                b.iter(|| loads_only(&table, black_box(xs)))
            });
            group.bench_with_input(BenchmarkId::new("memcpy", label), &xs, |b, xs| {
                b.iter(|| ys.copy_from_slice(black_box(xs)))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, byte_kernels, u16_kernels);
criterion_main!(benches);
