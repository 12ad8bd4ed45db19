//! Manifest records found by their structure, and held to the lock.
//!
//! actlut's manifest (`actlut::manifest::TABLES`) stores, for every table a
//! build carries, one record of [`RECORD_BYTES`] bytes: the marker
//! [`MARK`] (`ACTLUTM1`), the table's name padded with NUL bytes to
//! [`NAME_BYTES`], and the table's SHA-256 ([`actlut_codegen::record`]). The
//! scan finds a record by its marker followed by a well-formed name, or by the
//! name field of a known table (a record whose marker was changed), and reads
//! the hash that follows. A record whose hash is not the lock's hash for its
//! name is a problem ([`Record::problem`]), whatever the hash was changed to:
//! the hash of a tampered table, of another table, or anything else.
//!
//! Not found: a record whose marker and name field were both changed. The
//! table it names is still searched for by its content.

use std::string::String;

use actlut_codegen::lock::Entry;
pub use actlut_codegen::record::{MARK, NAME_BYTES, RECORD_BYTES};

/// A manifest record found in an artifact.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// File offset of the record (of its marker, or of where the marker
    /// belongs when it was found by its name field).
    pub offset: u64,
    /// The name it holds.
    pub name: String,
    /// The hash it holds.
    pub sha256: [u8; 32],
    /// Whether its marker is intact ([`MARK`]).
    pub marked: bool,
}

impl Record {
    /// Parses the [`RECORD_BYTES`] bytes at `offset`: a record when its name
    /// field holds a well-formed name and, unless `by_name`, it opens with the
    /// marker.
    pub fn parse(bytes: &[u8], offset: u64, by_name: bool) -> Option<Record> {
        let bytes = bytes.get(..RECORD_BYTES)?;
        let marked = bytes[..MARK.len()] == MARK;
        if !marked && !by_name {
            return None;
        }
        let name = actlut_codegen::record::parse_name(&bytes[MARK.len()..MARK.len() + NAME_BYTES])?;
        Some(Record {
            offset,
            name: name.into(),
            sha256: bytes[MARK.len() + NAME_BYTES..]
                .try_into()
                .expect("32 bytes"),
            marked,
        })
    }

    /// `None` when the lock has this name with this hash, else one line:
    /// `manifest lists gelu_bf16 with sha256 …, the lock has …`.
    pub fn problem(&self, lock: &[Entry]) -> Option<String> {
        let listed = actlut_codegen::hex(&self.sha256);
        let unmarked = if self.marked {
            ""
        } else {
            " (in a record whose marker was changed)"
        };
        match lock.iter().find(|e| e.name == self.name) {
            Some(e) if e.sha256 == self.sha256 => None,
            Some(e) => Some(std::format!(
                "manifest lists {} with sha256 {listed}, the lock has {}{unmarked}",
                self.name,
                actlut_codegen::hex(&e.sha256)
            )),
            None => Some(std::format!(
                "manifest lists {} with sha256 {listed}, the lock has no such table{unmarked}",
                self.name
            )),
        }
    }
}

/// The marker as the scan reads it (8 bytes, little-endian).
pub(crate) const MARK_U64: u64 = u64::from_le_bytes(MARK);
