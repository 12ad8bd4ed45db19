//! The tables this build of actlut embeds, and the locks it was checked against.

use actlut::manifest::{self, Table};
use actlut_codegen::{compact_lock, lock};

use crate::Failure;

/// The lock this build of actlut was checked against.
pub(crate) const LOCK: &str = include_str!("../../tables/actlut.lock");

/// The SHA-256 of every 16-bit table's compact stored form (the bytes
/// actlut's `compact` feature embeds).
pub(crate) const COMPACT_LOCK: &str = include_str!("../../tables/actlut-compact.lock");

/// The little-endian bytes of a compiled-in table.
pub(crate) fn table_le(t: &Table) -> Vec<u8> {
    // The manifest lists exactly the compiled-in tables.
    let table = t
        .activation
        .table(t.format)
        .expect("a manifest entry without its table");
    table.le_bytes().collect()
}

/// The compact lock this build embeds.
pub(crate) fn compact_lock_entries() -> Vec<lock::Entry> {
    // Checked by actlut's build script and by the tests: a bad one is a bug.
    compact_lock::parse(COMPACT_LOCK).expect("the embedded compact lock parses")
}

/// The compact stored form of every 16-bit table of the manifest, made by
/// the packer (`compact_lock::stored_form_of`) and checked against the
/// compact lock: name -> bytes.
pub(crate) fn compact_forms() -> Result<Vec<(&'static str, Vec<u8>)>, Failure> {
    let entries = compact_lock_entries();
    let mut out = Vec::new();
    for t in manifest::TABLES {
        if !compact_lock::is_compacted(t.format) {
            continue;
        }
        let table: Vec<u16> = table_le(t)
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        let stored = compact_lock::stored_form_of(t.activation.function(), t.format, &table)
            .map_err(|e| Failure(format!("cannot compact {}: {e}", t.name)))?;
        let sha = actlut_codegen::sha256(&stored);
        match entries.iter().find(|e| e.name == t.name) {
            Some(e) if e.sha256 == sha => out.push((t.name, stored)),
            Some(e) => {
                return Err(Failure(format!(
                    "{}: the compact stored form hashes to {}, the compact lock has {}",
                    t.name,
                    actlut_codegen::hex(&sha),
                    actlut_codegen::hex(&e.sha256)
                )))
            }
            None => return Err(Failure(format!("{}: not in the compact lock", t.name))),
        }
    }
    Ok(out)
}
