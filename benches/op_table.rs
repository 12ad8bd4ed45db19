//! Building one 16-bit table of an op at run time (`actlut::fill_table` into a caller's
//! `[u16; 65536]`, no heap): the cost of constants read from a model file, one table per op.
//!
//! ```text
//! cargo bench --bench op_table
//! ```
//!
//! One criterion group, one entry per op (each evaluates all 65,536 inputs): a rational op
//! (leaky_relu with its exact alpha), transcendental ops with constants (Gemma's softcap,
//! GPT-OSS's gate, SiTU, laplace), and gelu for reference (the slowest evaluation of the
//! built-in functions: erfc).

use std::hint::black_box;
use std::time::Duration;

use actlut::{fill_table, Format, Op};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn one_16_bit_table(c: &mut Criterion) {
    let mut g = c.benchmark_group("op_table");
    g.throughput(Throughput::Elements(65_536));
    g.measurement_time(Duration::from_secs(4));
    g.sample_size(20);
    let mut buf = vec![0u16; 65_536];
    for (text, format) in [
        ("leaky_relu(alpha=0.2)", Format::F16),
        ("softcap(cap=30)", Format::Bf16),
        ("swiglu_oai(alpha=1.703125,limit=7)", Format::Bf16),
        ("situ", Format::F16),
        ("laplace", Format::F16),
        ("gelu", Format::F16),
    ] {
        let op: Op = text.parse().expect("an op");
        g.bench_function(format!("{op}_{}", format.name()), |b| {
            b.iter(|| fill_table(black_box(&op), format, &mut buf).expect("a table"))
        });
    }
    g.finish();
}

criterion_group!(benches, one_16_bit_table);
criterion_main!(benches);
