//! Seeded inputs shared by the benches: the same sequence on every run, so that
//! runs and variants see identical data.

#![allow(dead_code)] // each bench uses part of it

/// Marsaglia's xorshift64: a fixed, seeded sequence, identical on every run.
pub struct XorShift64(pub u64);

impl XorShift64 {
    /// The next 64 pseudo-random bits.
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// Uniform in [lo, hi), from 24 random bits (exactly representable in f32).
    pub fn uniform(&mut self, lo: f32, hi: f32) -> f32 {
        let unit = (self.next() >> 40) as f32 / (1u32 << 24) as f32;
        lo + unit * (hi - lo)
    }
}

impl XorShift64 {
    /// A standard normal sample, N(0, 1), by Box–Muller from two uniforms.
    pub fn normal(&mut self) -> f32 {
        let u1 = ((self.next() >> 11) as f64 + 1.0) / (1u64 << 53) as f64;
        let u2 = (self.next() >> 11) as f64 / (1u64 << 53) as f64;
        ((-2.0 * u1.ln()).sqrt() * (core::f64::consts::TAU * u2).cos()) as f32
    }
}

/// The bit patterns of `n` N(0, 1) samples rounded to f16: the distribution of
/// pre-activations in a normalized network, which touches a few KiB of a
/// 128 KiB table.
pub fn f16_normal_bits(n: usize, seed: u64) -> Vec<u16> {
    let mut rng = XorShift64(seed);
    (0..n)
        .map(|_| half::f16::from_f32(rng.normal()).to_bits())
        .collect()
}

/// `n` seeded pseudo-random bytes.
pub fn random_bytes(n: usize, seed: u64) -> Vec<u8> {
    let mut rng = XorShift64(seed);
    (0..n).map(|_| (rng.next() >> 56) as u8).collect()
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
