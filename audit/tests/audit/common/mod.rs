//! What the audit's integration tests share: the index `actlut audit`
//! builds (every table, every 16-bit one also in its compact stored forms),
//! tables, stored forms and noise.

#![allow(dead_code)]

pub mod crafted;

use std::sync::OnceLock;

use actlut_audit::{merge_aliases, Index, Reference};
use actlut_codegen::{Format, Function};

/// Every table, each 16-bit one with its compact stored forms in both
/// layouts, indexed once.
pub fn index() -> &'static Index {
    static INDEX: OnceLock<Index> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut refs = Vec::new();
        for (function, format) in actlut_codegen::table_pairs() {
            let mut r = Reference::generate(function, format);
            if format.entries() == 65_536 {
                for layout in actlut_codegen::compact::Layout::ALL {
                    r = r
                        .with_compact(compact_form_in(function, format, layout))
                        .unwrap();
                }
            }
            refs.push(r);
        }
        Index::new(merge_aliases(refs))
    })
}

/// The little-endian bytes of a table.
pub fn table_le(function: Function, format: Format) -> Vec<u8> {
    actlut_codegen::table_bytes_le(format, &actlut_codegen::table(function, format))
}

/// The compact stored form of a 16-bit table in the bytes layout.
pub fn compact_form(function: Function, format: Format) -> Vec<u8> {
    compact_form_in(function, format, actlut_codegen::compact::Layout::Bytes)
}

/// The compact stored form of a 16-bit table in `layout`.
pub fn compact_form_in(
    function: Function,
    format: Format,
    layout: actlut_codegen::compact::Layout,
) -> Vec<u8> {
    actlut_codegen::compact_lock::stored_form(function, format, layout).unwrap()
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

/// The declared gelu_bf16 as a build stores it: its declaration, then its
/// table, in the byte order `big` says (a build for a big-endian target
/// stores the table byte-swapped and says so in the declaration's byte 11).
pub fn declared_gelu_bf16(big: bool) -> Vec<u8> {
    use actlut_audit::declared::{Declaration, Representation, StoredOrder};
    let r = Reference::generate(Function::Gelu, Format::Bf16);
    let d = Declaration::new(
        "gelu_bf16",
        Representation::Full,
        2,
        if big {
            StoredOrder::Big
        } else {
            StoredOrder::Little
        },
        r.bytes_le.len() as u32,
        r.sha256,
    );
    // A long name (a derivative's) takes a version-2 record.
    let mut out = d.encode()[..d.record_bytes()].to_vec();
    if big {
        out.extend(r.bytes_le.chunks_exact(2).flat_map(|c| [c[1], c[0]]));
    } else {
        out.extend_from_slice(&r.bytes_le);
    }
    out
}

/// `v` as unsigned LEB128 (wasm's integers), appended to `out`.
pub fn leb(mut v: u64, out: &mut Vec<u8>) {
    loop {
        let b = (v & 0x7F) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

/// `v` as signed LEB128 (wasm's `i32.const` and `i64.const`), appended to
/// `out`.
pub fn sleb(mut v: i64, out: &mut Vec<u8>) {
    loop {
        let b = (v & 0x7F) as u8;
        v >>= 7;
        if (v == 0 && b & 0x40 == 0) || (v == -1 && b & 0x40 != 0) {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

/// The lock of gelu_bf16 alone.
pub fn gelu_bf16_lock() -> Vec<actlut_codegen::lock::Entry> {
    let table = actlut_codegen::table(Function::Gelu, Format::Bf16);
    std::vec![actlut_codegen::lock::entry_for(
        Function::Gelu,
        Format::Bf16,
        &table,
    )]
}

/// An index of gelu_bf16 alone.
pub fn gelu_bf16_index() -> Index {
    Index::new(std::vec![Reference::generate(Function::Gelu, Format::Bf16)])
}

/// A System V (GNU) ar archive of `members` (names end in `/`), with no
/// symbol table.
pub fn ar(members: &[(&str, &[u8])]) -> Vec<u8> {
    let mut out = b"!<arch>\n".to_vec();
    for (name, data) in members {
        let header = std::format!(
            "{:<16}{:<12}{:<6}{:<6}{:<8}{:<10}`\n",
            std::format!("{name}/"),
            0,
            0,
            0,
            644,
            data.len()
        );
        assert_eq!(header.len(), 60);
        out.extend_from_slice(header.as_bytes());
        out.extend_from_slice(data);
        if data.len() % 2 == 1 {
            out.push(b'\n');
        }
    }
    out
}
