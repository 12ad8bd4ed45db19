//! Fingerprints what the `libm` this build resolved to contributes: for every
//! function, the SHA-256 of [`actlut_codegen::eval_f32`] over every
//! f16-representable input and `N` seeded random `f32` (default 4,000,000), and
//! the SHA-256 of the raw `f64` evaluations (`hi`, `lo`) over the same inputs.
//!
//! ```text
//! cargo run --release -p actlut-codegen --example libm-fingerprint [N]
//! ```
//!
//! Run it under two `libm` versions (`cargo update -p libm --precise X.Y.Z`) and
//! diff the outputs: the `f32` lines say whether the computed `f32` path (and so
//! the fused `f32` quantized tables) gives other bits; the `raw` lines say
//! whether the two `libm`s differ at all on these inputs, that is, whether the
//! comparison was able to see a difference. `.ci/steps/16-libm.sh` does this
//! for the oldest and the newest `libm` 0.2 that actlut accepts.

use actlut_codegen::{eval_f32, evaluate, sha256, Function, Op};

/// xorshift64*: a fixed, portable stream of test inputs.
struct Rng(u64);

impl Rng {
    fn next_u32(&mut self) -> u32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32) as u32
    }
}

/// The inputs: every f16 bit pattern widened to `f32`, then `n` random `f32`:
/// half of them uniform over all bit patterns, half with a magnitude in
/// [2^-24, 2^8), where the functions are not yet at their asymptotes.
fn inputs(n: usize) -> Vec<f32> {
    let mut xs: Vec<f32> = (0..=u16::MAX).map(half_to_f32).collect();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for i in 0..n {
        let bits = rng.next_u32();
        let bits = if i % 2 == 0 {
            bits
        } else {
            let exponent = 127 - 24 + rng.next_u32() % 32;
            (bits & 0x807f_ffff) | (exponent << 23)
        };
        xs.push(f32::from_bits(bits));
    }
    xs
}

/// IEEE binary16 to `f32` (exact), without depending on `half`.
fn half_to_f32(b: u16) -> f32 {
    let sign = u32::from(b >> 15) << 31;
    let exp = u32::from((b >> 10) & 0x1f);
    let frac = u32::from(b & 0x3ff);
    let magnitude = match exp {
        0 => (frac as f32) * 2f32.powi(-24),
        0x1f if frac == 0 => f32::INFINITY,
        0x1f => f32::from_bits(0x7fc0_0000 | (frac << 13)),
        _ => f32::from_bits(((exp + 112) << 23) | (frac << 13)),
    };
    f32::from_bits(magnitude.to_bits() | sign)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn main() {
    let n = match std::env::args().nth(1) {
        Some(arg) => arg
            .parse()
            .unwrap_or_else(|_| panic!("N must be a count of random inputs, not {arg:?}")),
        None => 4_000_000,
    };
    let xs = inputs(n);
    println!(
        "# {} inputs per function: 65536 f16 patterns and {n} random f32",
        xs.len()
    );
    // Every function at its default constants (the ones without default have no table).
    for function in Function::ALL.into_iter().filter(|f| f.has_defaults()) {
        let op = Op::from(function);
        let mut results = Vec::with_capacity(xs.len() * 4);
        let mut raw = Vec::with_capacity(xs.len() * 16);
        for &x in &xs {
            results.extend_from_slice(&eval_f32(function, x).to_bits().to_le_bytes());
            if x.is_finite()
                && x != 0.0
                && let Some(e) = evaluate(op, f64::from(x))
            {
                raw.extend_from_slice(&e.hi.to_bits().to_le_bytes());
                raw.extend_from_slice(&e.lo.to_bits().to_le_bytes());
            }
        }
        println!("f32 {:<12} {}", function.name(), hex(&sha256(&results)));
        println!("raw {:<12} {}", function.name(), hex(&sha256(&raw)));
    }
}
