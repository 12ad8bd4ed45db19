//! Seeded inputs and criterion settings shared by the peers' benches.
//!
//! The xorshift generator and the criterion group settings (flat sampling, 20
//! samples, 1 s warm-up, 3 s measurement) are the root crate's
//! `benches/common/mod.rs`, included as is so that both projects measure the
//! same way; this adds normally distributed inputs.

#![allow(dead_code)] // each bench uses part of it

#[path = "../../../benches/common/mod.rs"]
mod root;

pub use root::{configure, Rng};

use actlut_peers::Format;

/// A standard normal sample (Box–Muller on two 53-bit uniforms, through the
/// pinned `libm` so that every platform draws the same numbers).
pub fn normal(rng: &mut Rng) -> f64 {
    let unit = |bits: u64| (bits >> 11) as f64 / (1u64 << 53) as f64;
    let u1 = 1.0 - unit(rng.next()); // (0, 1]: the log is finite
    let u2 = unit(rng.next());
    libm::sqrt(-2.0 * libm::log(u1)) * libm::cos(2.0 * core::f64::consts::PI * u2)
}

/// `n` samples of N(0, σ²) rounded to `format` (to nearest-even), as bits: the
/// realistic distribution of pre-activations.
pub fn normal_bits(format: Format, n: usize, sigma: f64, seed: u64) -> Vec<u16> {
    let mut rng = Rng(seed);
    (0..n)
        .map(|_| format.from_f32((sigma * normal(&mut rng)) as f32))
        .collect()
}
