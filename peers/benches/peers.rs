//! actlut's lookup against its peers, per function, format and buffer size.
//!
//! ```text
//! cargo bench --bench peers                 # everything (about 15 minutes)
//! cargo bench --bench peers -- gelu_f16/    # one function and format
//! cargo bench --bench peers -- --test       # every case once, untimed
//! ```
//!
//! One criterion group per function, format and size, named
//! `{function}_{format}/{size}` (`gelu_f16/2KiB`, `silu_bf16/2MiB`), so that the
//! ratios come from one run; sizes are 1 Ki, 64 Ki and 1 Mi 16-bit elements
//! (2 KiB, 128 KiB, 2 MiB per buffer). Inputs are `normal`: N(0, 1) samples
//! rounded to the format, seeded, the same on every run. Variants, all out of
//! place (`xs` to `ys`):
//!
//! | variant | what it calls |
//! |---|---|
//! | `memcpy` | `ys.copy_from_slice(&xs)`: the speed of light |
//! | `actlut` | the table lookup, e.g. `actlut::gelu::map_f16` |
//! | `actlut_computed` | `actlut::computed::f16_bits` per element (exact, no table) |
//! | `naive` | `f32` + `libm` + `half` per element |
//! | `approx_simd` | the AVX2/FMA/F16C approximate kernel |
//! | `candle` | candle-core's op on a tensor, including tensor creation and copy back |
//! | `candle_gelu_tanh` | candle's default `gelu` (tanh approximation), GELU only |
//! | `lazy_table` | a table built on first use from the naive formula (warm) |
//!
//! candle runs elementwise ops on its thread pool (every core unless
//! `CANDLE_NUM_THREADS` says otherwise) from 64 Ki elements on; every other
//! variant runs on one thread.

use std::hint::black_box;

use actlut_peers::{Format, Kernel, Peer, FUNCTIONS};
use criterion::{criterion_group, criterion_main, Criterion};

mod common;

/// The buffer sizes: name and number of 16-bit elements.
const SIZES: [(&str, usize); 3] = [("2KiB", 1 << 10), ("128KiB", 1 << 16), ("2MiB", 1 << 20)];

fn peers(c: &mut Criterion) {
    for function in FUNCTIONS {
        for format in Format::ALL {
            for (size, n) in SIZES {
                let xs = common::normal_bits(format, n, 1.0, 0x9E37_79B9_7F4A_7C15 ^ n as u64);
                let mut ys = vec![0u16; n];
                let name = format!("{}_{}/{size}", function.name(), format.name());
                let mut g = common::configure(c, &name, n);

                g.bench_function("memcpy", |b| {
                    b.iter(|| ys.copy_from_slice(black_box(&xs)));
                });
                let mut variants = vec![("actlut", Kernel::actlut(function, format))];
                variants.extend(
                    Peer::all(function, format)
                        .into_iter()
                        .map(|p| (p.name, p.kernel)),
                );
                for (variant, kernel) in variants {
                    // Outside the measurement: builds the lazy table, starts candle's pool.
                    kernel.map_bits(&xs, &mut ys);
                    g.bench_function(variant, |b| {
                        b.iter(|| kernel.map_bits(black_box(&xs), black_box(&mut ys)));
                    });
                }
                g.finish();
            }
        }
    }
}

criterion_group!(benches, peers);
criterion_main!(benches);
