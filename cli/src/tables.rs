//! The tables this build of actlut embeds, and the locks it was checked against.

use actlut::manifest::{self, Table};
use actlut::BuiltinTables as _;
use actlut_codegen::compact::Layout;
use actlut_codegen::{compact_lock, lock};

use crate::Failure;

/// The lock this build of actlut was checked against.
pub(crate) const LOCK: &str = include_str!("../../tables/actlut.lock");

/// The SHA-256 of every 16-bit table's compact stored form in the bytes
/// layout (what actlut's `compact` feature embeds).
pub(crate) const COMPACT_LOCK: &str = include_str!("../../tables/actlut-compact.lock");

/// The SHA-256 of every 16-bit table's compact stored form in the words
/// layout (what actlut's `compact-words` feature embeds).
pub(crate) const COMPACT_WORDS_LOCK: &str = include_str!("../../tables/actlut-compact-words.lock");

/// The little-endian bytes of a compiled-in table.
pub(crate) fn table_le(t: &Table) -> Vec<u8> {
    if t.derivative {
        // A derivative table (actlut's `derivatives` feature): the same evaluation the
        // build ran, whose hash the build checked against the lock.
        let mut table = vec![0u16; t.format.entries()];
        actlut::fill_table(&t.op(), t.format, &mut table[..])
            .expect("a manifest entry without its table");
        return actlut_codegen::table_bytes_le(t.format, &table);
    }
    // The manifest lists exactly the compiled-in tables.
    let table = t
        .function
        .table(t.format)
        .expect("a manifest entry without its table");
    table.le_bytes().collect()
}

/// The compact lock of the bytes layout this build embeds.
pub(crate) fn compact_lock_entries() -> Vec<lock::Entry> {
    compact_lock_entries_of(Layout::Bytes)
}

/// The compact lock of `layout` this build embeds.
pub(crate) fn compact_lock_entries_of(layout: Layout) -> Vec<lock::Entry> {
    let text = match layout {
        Layout::Bytes => COMPACT_LOCK,
        Layout::Words => COMPACT_WORDS_LOCK,
    };
    // Checked by actlut's build script and by the tests: a bad one is a bug.
    compact_lock::parse(text, layout).expect("the embedded compact lock parses")
}

/// The compact stored forms of every 16-bit table of the manifest in both
/// layouts, made by the packer (`compact_lock::stored_form_of`) and checked
/// against the compact lock of their layout: name -> bytes, the bytes
/// layout's forms first.
pub(crate) fn compact_forms() -> Result<Vec<(&'static str, Vec<u8>)>, Failure> {
    let mut out = Vec::new();
    for layout in Layout::ALL {
        out.extend(compact_forms_of(layout)?);
    }
    Ok(out)
}

/// [`compact_forms`] of one layout.
pub(crate) fn compact_forms_of(layout: Layout) -> Result<Vec<(&'static str, Vec<u8>)>, Failure> {
    let entries = compact_lock_entries_of(layout);
    let file = compact_lock::file_name(layout);
    let mut out = Vec::new();
    for t in manifest::TABLES {
        if !compact_lock::is_compacted(t.format) || t.derivative {
            continue;
        }
        let table: Vec<u16> = table_le(t)
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        let stored = compact_lock::stored_form_of(t.function, t.format, &table, layout)
            .map_err(|e| Failure(format!("cannot compact {}: {e}", t.name)))?;
        let sha = actlut_codegen::sha256(&stored);
        match entries.iter().find(|e| e.name == t.name) {
            Some(e) if e.sha256 == sha => out.push((t.name, stored)),
            Some(e) => {
                return Err(Failure(format!(
                    "{}: the compact stored form hashes to {}, tables/{file} has {}",
                    t.name,
                    actlut_codegen::hex(&sha),
                    actlut_codegen::hex(&e.sha256)
                )))
            }
            None => return Err(Failure(format!("{}: not in tables/{file}", t.name))),
        }
    }
    Ok(out)
}
