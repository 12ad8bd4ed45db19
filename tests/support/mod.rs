//! The one home of the helpers that the tests and benches share: a seeded
//! generator and what is drawn from it. A test file uses it with `mod support;`
//! (a bench, or a test of another crate of the workspace, with
//! `#[path = ".../tests/support/mod.rs"] mod support;`).

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

/// A file of the repository by its path from the root (`tables/actlut.lock`),
/// found from the crate that runs the test (actlut, or a crate one folder
/// below it).
pub fn repo_file(path: &str) -> std::path::PathBuf {
    let mut dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    loop {
        let candidate = dir.join(path);
        if candidate.exists() {
            return candidate;
        }
        assert!(
            dir.pop(),
            "{path} is in no folder above {}",
            env!("CARGO_MANIFEST_DIR")
        );
    }
}

/// The lines of the table lock, `tables/actlut.lock`.
pub fn lock_entries() -> Vec<actlut_codegen::lock::Entry> {
    let text =
        std::fs::read_to_string(repo_file("tables/actlut.lock")).expect("read tables/actlut.lock");
    actlut_codegen::lock::parse(&text).expect("parse tables/actlut.lock")
}

/// The text of the compact lock, `tables/actlut-compact.lock`.
pub fn compact_lock_text() -> String {
    std::fs::read_to_string(repo_file("tables/actlut-compact.lock"))
        .expect("read tables/actlut-compact.lock")
}

/// The lines of the compact lock: the stored-form hash of every 16-bit table.
pub fn compact_lock_entries() -> Vec<actlut_codegen::lock::Entry> {
    actlut_codegen::compact_lock::parse(&compact_lock_text())
        .expect("parse tables/actlut-compact.lock")
}
