//! Seeded inputs shared by the benches: the same sequence on every run, so that
//! runs and variants see identical data.

#![allow(dead_code)] // each bench uses part of it

// The generator of the tests (tests/support), the one home of the shared helpers.
#[path = "../../tests/support/rng.rs"]
mod rng;
#[allow(unused_imports)] // each bench uses part of it
pub use rng::{random_bytes, Rng};

/// The bit patterns of `n` N(0, 1) samples rounded to f16: the distribution of
/// pre-activations in a normalized network, which touches a few KiB of a
/// 128 KiB table.
pub fn f16_normal_bits(n: usize, seed: u64) -> Vec<u16> {
    let mut rng = Rng(seed);
    (0..n)
        .map(|_| half::f16::from_f32(rng.normal()).to_bits())
        .collect()
}

/// Criterion settings for a noisy 2-core machine: few samples, flat sampling
/// (the computed paths take tens of ms per call), `n` elements per iteration.
pub fn configure<'a>(
    c: &'a mut criterion::Criterion,
    name: &str,
    n: usize,
) -> criterion::BenchmarkGroup<'a, criterion::measurement::WallTime> {
    let mut g = c.benchmark_group(name);
    g.throughput(criterion::Throughput::Elements(n as u64))
        .sampling_mode(criterion::SamplingMode::Flat)
        .sample_size(20)
        .warm_up_time(std::time::Duration::from_secs(1))
        .measurement_time(std::time::Duration::from_secs(3));
    g
}
