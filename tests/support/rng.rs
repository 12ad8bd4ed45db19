//! The seeded generator of the tests and benches, apart from the lock helpers
//! of `mod.rs` so that a bench, or the peers project, can include it alone
//! (`#[path = ".../tests/support/rng.rs"]`): it needs nothing but std.

#![allow(dead_code)] // each user takes part of it

/// xorshift64* (Vigna): a small seeded generator, so that every run sees the
/// same inputs and every failure reproduces. The seed must not be 0.
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 pseudo-random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (`n > 0`; the modulo bias is below 2^-40 for the
    /// sizes the tests use).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// `n` random bytes (the top byte of each draw).
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| (self.next() >> 56) as u8).collect()
    }

    /// Uniform in `[lo, hi)`, from 24 random bits (exactly representable in
    /// `f32`).
    pub fn uniform(&mut self, lo: f32, hi: f32) -> f32 {
        let unit = (self.next() >> 40) as f32 / (1u32 << 24) as f32;
        lo + unit * (hi - lo)
    }

    /// A standard normal sample, N(0, 1), by Box–Muller from two uniforms.
    pub fn normal(&mut self) -> f32 {
        let u1 = ((self.next() >> 11) as f64 + 1.0) / (1u64 << 53) as f64;
        let u2 = (self.next() >> 11) as f64 / (1u64 << 53) as f64;
        ((-2.0 * u1.ln()).sqrt() * (core::f64::consts::TAU * u2).cos()) as f32
    }
}

/// `n` random bytes from the seed `seed`.
pub fn random_bytes(n: usize, seed: u64) -> Vec<u8> {
    Rng(seed).bytes(n)
}
