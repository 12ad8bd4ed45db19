//! What the audit's integration tests share: the index `actlut audit`
//! builds (every table, every 16-bit one also in its compact stored form),
//! tables, stored forms and noise.

#![allow(dead_code)]

pub mod crafted;

use std::sync::OnceLock;

use actlut_audit::{merge_aliases, Index, Reference};
use actlut_codegen::{Format, Function};

/// Every table, each 16-bit one with its compact stored form, indexed once.
pub fn index() -> &'static Index {
    static INDEX: OnceLock<Index> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut refs = Vec::new();
        for (function, format) in actlut_codegen::table_pairs() {
            let r = Reference::generate(function, format);
            refs.push(if format.entries() == 65_536 {
                r.with_compact(compact_form(function, format)).unwrap()
            } else {
                r
            });
        }
        Index::new(merge_aliases(refs))
    })
}

/// The little-endian bytes of a table.
pub fn table_le(function: Function, format: Format) -> Vec<u8> {
    actlut_codegen::table_bytes_le(format, &actlut_codegen::table(function, format))
}

/// The compact stored form of a 16-bit table.
pub fn compact_form(function: Function, format: Format) -> Vec<u8> {
    actlut_codegen::compact_lock::stored_form(function, format).unwrap()
}

/// `len` pseudo-random bytes (xorshift64).
pub fn noise(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}
