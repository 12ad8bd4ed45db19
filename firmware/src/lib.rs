//! What the firmware binaries share: printing results and table hashes over
//! semihosting in the line format the host test parses, and exiting.
//!
//! Every line is one of
//!
//! ```text
//! apply <function> <format> 0x<input bits> 0x<output bits>
//! sha256 <table name> <64 hex digits>
//! done
//! ```
//!
//! where `<table name>` is actlut's `<function>_<format>` (docs/SEMANTICS.md) and the
//! hash is taken on the device over the table's little-endian bytes.
#![no_std]

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

/// Hashes a 16-bit table's little-endian bytes on the device and prints the hash.
pub fn hash_16(name: &str, table: &[u16; 65536]) {
    let mut sha = Sha256::new();
    let mut buf = [0u8; 512];
    for chunk in table.chunks_exact(256) {
        for (b, v) in buf.chunks_exact_mut(2).zip(chunk) {
            b.copy_from_slice(&v.to_le_bytes());
        }
        sha.update(buf);
    }
    print_hash(name, &sha.finalize().into());
}

/// Hashes an 8-bit table on the device and prints the hash.
pub fn hash_8(name: &str, table: &[u8; 256]) {
    print_hash(name, &Sha256::digest(table).into());
}

fn print_hash(name: &str, hash: &[u8; 32]) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut text = [0u8; 64];
    for (pair, byte) in text.chunks_exact_mut(2).zip(hash) {
        pair[0] = HEX[usize::from(byte >> 4)];
        pair[1] = HEX[usize::from(byte & 0xf)];
    }
    // Only ASCII hex digits were written.
    let text = core::str::from_utf8(&text).unwrap_or("<not utf-8>");
    hprintln!("sha256 {} {}", name, text);
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
