//! First-call latency: the first GELU of one `f16` value.
//!
//! ```text
//! cargo bench --bench first_call
//! cargo bench --bench first_call -- --test   # every case once, untimed
//! ```
//!
//! - `actlut_static`: `actlut::gelu::f16(x)`: the table is a `static` in the
//!   binary, there is nothing to build, so the first call is one load;
//! - `lazy_table_fresh`: a lazily built table as ggml keeps one, from an empty
//!   `OnceLock` every iteration (`iter_batched`): `get_or_init` fills the 65,536
//!   entries from the naive `f32` formula, then one lookup. The table is
//!   dropped outside the measurement;
//! - `lazy_table_warm`: the same table once built: one lookup;
//! - `actlut_computed`: `actlut::computed::f16_bits` for the one value.

use std::hint::black_box;
use std::sync::OnceLock;

use actlut::Function;
use actlut_peers::{lazy_table, Format};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use half::f16;

mod common;

fn first_call(c: &mut Criterion) {
    let x = f16::from_f32(0.7);
    let mut g = common::configure(c, "first_call/gelu_f16", 1);

    g.bench_function("actlut_static", |b| {
        b.iter(|| actlut::gelu::f16(black_box(x)))
    });
    g.bench_function("lazy_table_fresh", |b| {
        b.iter_batched(
            OnceLock::new,
            |cell| {
                let table = lazy_table::get_or_build(&cell, Function::Gelu, Format::F16);
                let y = table[usize::from(black_box(x).to_bits())];
                (cell, y) // dropped after the measurement
            },
            BatchSize::PerIteration,
        );
    });
    let warm = lazy_table::global(Function::Gelu, Format::F16);
    g.bench_function("lazy_table_warm", |b| {
        b.iter(|| warm[usize::from(black_box(x).to_bits())]);
    });
    g.bench_function("actlut_computed", |b| {
        b.iter(|| actlut::computed::f16_bits(Function::Gelu, black_box(x).to_bits()));
    });
    g.finish();
}

criterion_group!(benches, first_call);
criterion_main!(benches);
