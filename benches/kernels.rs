//! Byte-table kernels side by side: the scalar loop, each SIMD kernel available
//! on this machine, and memcpy of the same buffer, at 2 KiB, 128 KiB and 2 MiB.
//!
//! ```text
//! cargo bench --bench kernels
//! ```

use std::hint::black_box;
use std::time::Duration;

use actlut::kernels::ByteKernel;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

mod common;
use common::random_bytes;

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
        for kernel in ByteKernel::ALL.into_iter().filter(|k| k.is_available()) {
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

criterion_group!(benches, byte_kernels);
criterion_main!(benches);
