//! What the firmware binaries share: printing results and table hashes over
//! semihosting in the line format the host test parses, and exiting.
//!
//! Every line is one of
//!
//! ```text
//! apply <function> <format> 0x<input bits> 0x<output bits>
//! sha256 <table name> <64 hex digits>
//! stored-sha256 <table name> <64 hex digits>
//! quant16 <table name> 0x<code bits> 0x<entry bits>
//! quant16-page 0x<page> <table name> <64 hex digits>
//! quant16-sha256 <table name> <64 hex digits>
//! quant16-stored-sha256 <table name> <64 hex digits>
//! done
//! ```
//!
//! where `<table name>` is actlut's `<function>_<format>` (docs/SEMANTICS.md).
//! `sha256` is taken on the device over the table's 65,536 (or 256) logical
//! entries, little-endian: the table's identity in `tables/actlut.lock`,
//! whatever its form. `stored-sha256`, printed for a 16-bit table built with
//! the `compact` feature only, is taken over the bytes of its compact stored
//! form: its line in `tables/actlut-compact.lock` (with `compact-words`, in
//! `tables/actlut-compact-words.lock`).
//!
//! The `quant16` lines are those of a fused 16-bit quantized table a binary
//! builds itself (not one of `actlut::tables`): a few entries, the SHA-256 of
//! each page of 256 entries (page `p` is the codes whose bit patterns are
//! `p << 8 ..= p << 8 | 0xff`), of all 65,536 entries (little-endian, in the
//! order of the codes' bit patterns, as `actlut::quant16` lays a table out) and
//! of the stored form's bytes.
#![no_std]

use actlut::compact::CompactRef;
use cortex_m_semihosting::{debug, hprintln};
use sha2::{Digest, Sha256};

/// Prints one `apply` line per input: `f` applied to 16-bit patterns.
pub fn apply_16(function: &str, format: &str, inputs: &[u16], f: impl Fn(u16) -> u16) {
    for &x in inputs {
        hprintln!("apply {} {} 0x{:04x} 0x{:04x}", function, format, x, f(x));
    }
}

/// Prints one `apply` line per pair of an input and its output, 16-bit patterns.
pub fn print_16(function: &str, format: &str, inputs: &[u16], outputs: &[u16]) {
    for (x, y) in inputs.iter().zip(outputs) {
        hprintln!("apply {} {} 0x{:04x} 0x{:04x}", function, format, x, y);
    }
}

/// Prints one `apply` line per pair of an input and its output, 8-bit patterns.
pub fn print_8(function: &str, format: &str, inputs: &[u8], outputs: &[u8]) {
    for (x, y) in inputs.iter().zip(outputs) {
        hprintln!("apply {} {} 0x{:02x} 0x{:02x}", function, format, x, y);
    }
}

/// actlut's 16-bit tables in the form its function modules read in this
/// build: `actlut::tables` (full), or with the `compact` feature
/// `actlut::tables::compact`. A firmware hashes the form it runs on, so that
/// it links no other.
#[cfg(not(feature = "compact"))]
pub use actlut::tables as tables16;
/// actlut's 16-bit tables in the form its function modules read in this
/// build: `actlut::tables` (full), or with the `compact` feature
/// `actlut::tables::compact`. A firmware hashes the form it runs on, so that
/// it links no other.
#[cfg(feature = "compact")]
pub use actlut::tables::compact as tables16;

/// A 16-bit table in either of actlut's forms: `[u16; 65536]`, or a
/// [`CompactRef`] (`actlut::tables::compact`, the `compact` feature).
pub trait Table16 {
    /// The entry for input bits `x`.
    fn entry(&self, x: u16) -> u16;
    /// The compact stored form, if the table is one.
    fn stored(&self) -> Option<&CompactRef<'_>>;
}

impl Table16 for [u16; 65536] {
    fn entry(&self, x: u16) -> u16 {
        self[usize::from(x)]
    }
    fn stored(&self) -> Option<&CompactRef<'_>> {
        None
    }
}

/// `actlut::tables::<NAME>` is a `&'static [u16; 65536]`.
impl<T: Table16 + ?Sized> Table16 for &T {
    fn entry(&self, x: u16) -> u16 {
        (**self).entry(x)
    }
    fn stored(&self) -> Option<&CompactRef<'_>> {
        (**self).stored()
    }
}

impl Table16 for CompactRef<'_> {
    fn entry(&self, x: u16) -> u16 {
        self.get(x)
    }
    fn stored(&self) -> Option<&CompactRef<'_>> {
        Some(self)
    }
}

/// Hashes a 16-bit table's logical entries (little-endian) on the device and
/// prints the hash; for a compact table, also the hash of its stored form.
pub fn hash_16<T: Table16 + ?Sized>(name: &str, table: &T) {
    let mut sha = Sha256::new();
    let mut buf = [0u8; 512];
    for base in (0..=u16::MAX).step_by(256) {
        for (b, x) in buf.chunks_exact_mut(2).zip(base..=base + 255) {
            b.copy_from_slice(&table.entry(x).to_le_bytes());
        }
        sha.update(buf);
    }
    print_hash("sha256", name, &sha.finalize().into());
    if let Some(stored) = table.stored() {
        print_hash("stored-sha256", name, &stored_sha256(stored));
    }
}

/// SHA-256 of a stored form's bytes, rebuilt from the view: the 16-byte
/// header (docs/compact.md), the directory and the pool.
fn stored_sha256(t: &CompactRef<'_>) -> [u8; 32] {
    let mut header = [0u8; 16];
    header[..8].copy_from_slice(b"ACTLUTC1");
    // k is 4..=8 and the scale 0..=2 in a validated view.
    header[8] = t.page_shift() as u8;
    header[9] = t.offset_scale() as u8;
    header[10] = t.layout().code();
    header[12..].copy_from_slice(&(t.pool().len() as u32).to_le_bytes());
    let mut sha = Sha256::new();
    sha.update(header);
    sha.update(t.dir_bytes());
    sha.update(t.pool());
    sha.finalize().into()
}

/// Prints one `quant16` line per input: a 16-bit quantized table's entry
/// `f(code)` for the code's bit pattern.
pub fn print_quant16(name: &str, inputs: &[u16], f: impl Fn(u16) -> u16) {
    for &x in inputs {
        hprintln!("quant16 {} 0x{:04x} 0x{:04x}", name, x, f(x));
    }
}

/// Computes a 16-bit quantized table on every code with `map` (codes in,
/// entries out, 256 at a time in the order of the codes' bit patterns), and
/// prints the hash of each page, of all entries, and of `stored`.
pub fn hash_quant16(name: &str, mut map: impl FnMut(&[i16], &mut [i16]), stored: &[u8]) {
    let mut all = Sha256::new();
    let mut codes = [0i16; 256];
    let mut entries = [0i16; 256];
    let mut bytes = [0u8; 512];
    for page in 0..=0xffu16 {
        for (c, low) in codes.iter_mut().zip(0..=0xffu16) {
            *c = (page << 8 | low) as i16;
        }
        map(&codes, &mut entries);
        for (b, e) in bytes.chunks_exact_mut(2).zip(entries) {
            b.copy_from_slice(&e.to_le_bytes());
        }
        all.update(bytes);
        let mut tag = *b"quant16-page 0x00";
        const HEX: &[u8; 16] = b"0123456789abcdef";
        tag[15] = HEX[usize::from(page >> 4)];
        tag[16] = HEX[usize::from(page & 0xf)];
        // Only ASCII was written.
        let tag = core::str::from_utf8(&tag).unwrap_or("quant16-page ?");
        print_hash(tag, name, &Sha256::digest(bytes).into());
    }
    print_hash("quant16-sha256", name, &all.finalize().into());
    print_hash(
        "quant16-stored-sha256",
        name,
        &Sha256::digest(stored).into(),
    );
}

/// Hashes an 8-bit table on the device and prints the hash.
pub fn hash_8(name: &str, table: &[u8; 256]) {
    print_hash("sha256", name, &Sha256::digest(table).into());
}

fn print_hash(tag: &str, name: &str, hash: &[u8; 32]) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut text = [0u8; 64];
    for (pair, byte) in text.chunks_exact_mut(2).zip(hash) {
        pair[0] = HEX[usize::from(byte >> 4)];
        pair[1] = HEX[usize::from(byte & 0xf)];
    }
    // Only ASCII hex digits were written.
    let text = core::str::from_utf8(&text).unwrap_or("<not utf-8>");
    hprintln!("{} {} {}", tag, name, text);
}

/// Prints `done` and ends the emulation with exit status 0.
pub fn finish() -> ! {
    hprintln!("done");
    debug::exit(debug::EXIT_SUCCESS);
    // Only reached on a debugger that ignores the exit request.
    loop {
        cortex_m::asm::wfi();
    }
}

/// Fixed f16 inputs: signed zeros, ±1, 0.5, ±5, the smallest subnormal, the
/// largest finite value, ±inf, a signaling NaN with a payload, and two
/// arbitrary patterns.
pub const F16_INPUTS: [u16; 14] = [
    0x0000, 0x8000, 0x3c00, 0xbc00, 0x3800, 0x4500, 0xc500, 0x0001, 0x7bff, 0x7c00, 0xfc00, 0x7d01,
    0x1234, 0xabcd,
];

/// Fixed bf16 inputs, chosen like [`F16_INPUTS`].
pub const BF16_INPUTS: [u16; 14] = [
    0x0000, 0x8000, 0x3f80, 0xbf80, 0x3f00, 0x40a0, 0xc0a0, 0x0001, 0x7f7f, 0x7f80, 0xff80, 0x7f81,
    0x3dcc, 0xc2f7,
];

/// Fixed int16 codes (bit patterns): 0, ±1, ±4096 (±1.0 at the TFLite 16x8
/// input scale 2^-12), the extremes −32768 and 32767, and two arbitrary codes.
pub const I16_INPUTS: [u16; 9] = [
    0x0000, 0x0001, 0xffff, 0x1000, 0xf000, 0x8000, 0x7fff, 0x1234, 0xabcd,
];

/// Every fp8 bit pattern, in order.
pub const FP8_INPUTS: [u8; 256] = {
    let mut all = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        all[i] = i as u8;
        i += 1;
    }
    all
};
