//! With the `compact` feature, a binary that uses `gelu` on `bf16` holds at
//! most 16 KiB of table data: checked on a real binary, this test's own
//! executable.
//!
//! This file references one table, through `actlut::gelu::bf16` and
//! `actlut::gelu::apply_bf16`, and nothing else of actlut that could reach a
//! table. The test finds every compact stored form in the executable by its
//! magic (`ACTLUTC1`, validated by `CompactRef::from_bytes`, as an audit
//! would), and searches it for every full 16-bit table actlut can generate:
//! there must be exactly one stored form, gelu_bf16's (its SHA-256 is the
//! `tables/actlut-compact.lock` line), of at most 16 KiB, and no full table.
//!
//! The CI runs it in the build the size claim is about:
//! `cargo test -p actlut --no-default-features --features compact,gelu,bf16 --test compact_binary`.

#![cfg(all(feature = "compact", feature = "gelu", feature = "bf16"))]
// WASI has no current_exe to read.
#![cfg(not(target_os = "wasi"))]

use std::collections::HashMap;

use actlut_codegen::compact::{CompactRef, HEADER_BYTES, MAGIC};
use actlut_codegen::{compact_lock, table, table_bytes_le, table_name};

/// The budget of issue 12 for a `gelu` + `bf16` firmware: 16 KiB.
const TABLE_BUDGET: usize = 16 * 1024;

/// Every valid compact stored form in `haystack`: its offset and its bytes.
fn stored_forms(haystack: &[u8]) -> Vec<(usize, &[u8])> {
    let mut found = Vec::new();
    for (at, w) in haystack.windows(MAGIC.len()).enumerate() {
        if w != MAGIC || at + HEADER_BYTES > haystack.len() {
            continue;
        }
        let h = &haystack[at..];
        let k = u32::from(h[8]);
        let pool = u32::from_le_bytes([h[12], h[13], h[14], h[15]]) as usize;
        if !(4..=8).contains(&k) {
            continue; // the magic constant of the code, not a stored form
        }
        let len = HEADER_BYTES + 4 * (65_536 >> k) + pool;
        if let Some(bytes) = haystack.get(at..at + len) {
            if CompactRef::from_bytes(bytes).is_ok() {
                found.push((at, bytes));
            }
        }
    }
    found
}

/// Names of the full 16-bit tables (in the target's byte order) found whole in
/// `haystack`, through 16-byte anchors at a quarter of each table.
fn full_tables_in(haystack: &[u8]) -> Vec<String> {
    // Anchor -> (name, bytes, the anchor's offset in them).
    type Candidate = (String, Vec<u8>, usize);
    let mut anchors: HashMap<[u8; 16], Vec<Candidate>> = HashMap::new();
    for (function, format) in actlut_codegen::table_pairs() {
        if !compact_lock::is_compacted(format) {
            continue;
        }
        let entries = table(function, format);
        let bytes = if cfg!(target_endian = "big") {
            entries.iter().flat_map(|v| v.to_be_bytes()).collect()
        } else {
            table_bytes_le(format, &entries)
        };
        let mut off = bytes.len() / 4;
        while bytes[off..off + 16].iter().all(|&b| b == bytes[off]) {
            off += 2;
        }
        let anchor: [u8; 16] = bytes[off..off + 16].try_into().unwrap();
        anchors
            .entry(anchor)
            .or_default()
            .push((table_name(function, format), bytes, off));
    }
    let mut found = Vec::new();
    for (pos, w) in haystack.windows(16).enumerate() {
        let Some(candidates) = anchors.get(w) else {
            continue;
        };
        for (name, bytes, off) in candidates {
            let Some(start) = pos.checked_sub(*off) else {
                continue;
            };
            if haystack.get(start..start + bytes.len()) == Some(bytes.as_slice()) {
                found.push(name.clone());
            }
        }
    }
    found
}

#[test]
fn a_gelu_bf16_binary_holds_one_compact_stored_form_of_at_most_16_kib_and_no_full_table() {
    // The table references of this binary: one value and one slice.
    let y = actlut::gelu::bf16(std::hint::black_box(half::bf16::from_f32(1.0)));
    assert_eq!(y.to_bits(), 0x3F57, "gelu(1.0) in bf16 is 0.8398 (0x3F57)");
    let mut xs = std::hint::black_box([half::bf16::ONE; 3]);
    actlut::gelu::apply_bf16(&mut xs);
    assert_eq!(xs, [y; 3]);

    let exe = std::env::current_exe().expect("current_exe");
    let binary = std::fs::read(&exe).expect("read the test executable");

    let forms = stored_forms(&binary);
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tables/actlut-compact.lock"
    ))
    .unwrap();
    let entries = compact_lock::parse(&text).unwrap();
    let name_of = |bytes: &[u8]| {
        let h = actlut_codegen::sha256(bytes);
        entries.iter().find(|e| e.sha256 == h).map_or_else(
            || format!("unknown ({})", actlut_codegen::hex(&h)),
            |e| e.name.clone(),
        )
    };
    let names: Vec<String> = forms.iter().map(|(_, b)| name_of(b)).collect();
    assert_eq!(
        names,
        ["gelu_bf16"],
        "compact stored forms in {}",
        exe.display()
    );
    let total: usize = forms.iter().map(|(_, b)| b.len()).sum();
    assert!(
        total <= TABLE_BUDGET,
        "{total} bytes of compact table data, the budget is {TABLE_BUDGET}"
    );
    println!(
        "gelu_bf16: {total} bytes of table data in {}",
        exe.display()
    );

    let full = full_tables_in(&binary);
    assert!(
        full.is_empty(),
        "full 16-bit tables in the binary: {full:?}"
    );
}
