//! Finding actlut's 16-bit tables in a binary's bytes, in either form, as an
//! audit does: compact stored forms by their header, full tables by content.
//!
//! Shared by `tests/compact_binary.rs` (the test's own executable) and
//! `tests/embedded_firmware.rs` (the firmware's ELF).

use std::collections::HashMap;

use actlut_codegen::compact::{CompactRef, Header, MAGIC};
use actlut_codegen::{compact_lock, lock, table, table_bytes_le, table_name};

/// Every valid compact stored form in `haystack`: its offset and its bytes.
/// A candidate starts with the magic `ACTLUTC1`, takes its length from its
/// header and must pass `CompactRef::from_bytes`.
pub fn stored_forms(haystack: &[u8]) -> Vec<(usize, &[u8])> {
    let mut found = Vec::new();
    for (at, w) in haystack.windows(MAGIC.len()).enumerate() {
        if w != MAGIC {
            continue;
        }
        // The magic constant of the code is no stored form: its header fails.
        let Ok(header) = Header::parse(&haystack[at..]) else {
            continue;
        };
        if let Some(bytes) = haystack.get(at..at + header.stored_len())
            && CompactRef::from_bytes(bytes).is_ok()
        {
            found.push((at, bytes));
        }
    }
    found
}

/// The table a stored form is, by its SHA-256 in the compact lock, or
/// `unknown (<sha256>)`.
pub fn stored_form_name(entries: &[lock::Entry], bytes: &[u8]) -> String {
    let h = actlut_codegen::sha256(bytes);
    entries.iter().find(|e| e.sha256 == h).map_or_else(
        || format!("unknown ({})", actlut_codegen::hex(&h)),
        |e| e.name.clone(),
    )
}

/// Names of the full 16-bit tables (little-endian entries, or big-endian with
/// `big_endian`) found whole in `haystack`, through 16-byte anchors at a
/// quarter of each table.
pub fn full_tables_in(haystack: &[u8], big_endian: bool) -> Vec<String> {
    // Anchor -> (name, bytes, the anchor's offset in them).
    type Candidate = (String, Vec<u8>, usize);
    let mut anchors: HashMap<[u8; 16], Vec<Candidate>> = HashMap::new();
    for (function, format) in actlut_codegen::table_pairs() {
        if !compact_lock::is_compacted(format) {
            continue;
        }
        let entries = table(function, format);
        let bytes = if big_endian {
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
