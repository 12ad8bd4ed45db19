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
//! Not found: a record whose marker and name field were both changed, and a
//! name field without its marker whose hash is one byte repeated (it claims
//! no hash; link-time optimisation leaves such name fields in firmware). The
//! table it names is still searched for by its content.

use std::string::{String, ToString};

use actlut_codegen::lock::Entry;
use actlut_codegen::record::parse_name;
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
    /// Whether its name field is malformed: well-formed but for one byte (a
    /// name byte changed to one outside a name or to NUL, or a byte of the
    /// NUL padding set); [`name`](Self::name) then shows the field's bytes. A
    /// problem.
    pub malformed: bool,
    /// Bytes of the record in the file when the end of the file cuts it
    /// off after its intact marker ([`Record::cut_off`]; the name shows
    /// the part of the field present, the hash is zeros). A problem.
    pub present: Option<usize>,
}

/// A name field as text, for a message: its bytes up to the last non-NUL
/// one, other bytes than printable ASCII escaped, and at most
/// [`SHOWN_NAME_CHARS`] characters of that (then `...`): a field of 128
/// escaped bytes is 512 characters, kept with each of up to `MAX_FOUND`
/// findings.
pub fn shown_name(field: &[u8]) -> String {
    let end = field.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
    let mut shown = field[..end].escape_ascii().to_string();
    if shown.len() > SHOWN_NAME_CHARS {
        shown.truncate(SHOWN_NAME_CHARS - 3);
        shown.push_str("...");
    }
    shown
}

/// The most characters [`shown_name`] shows: every name of 128 printable
/// bytes (the longest a version-2 record holds), and a few more.
pub const SHOWN_NAME_CHARS: usize = 160;

/// Whether `field` opens with a byte other than NUL and is a well-formed
/// name field ([`parse_name`]) but for one byte: a name with one byte changed (to NUL
/// included), or one byte of its NUL padding set. The byte changed is the
/// first that breaks the form `name NUL*`, or the first NUL (a name byte set
/// to NUL): each is tried with a name byte and with NUL in its place.
fn nearly_a_name(field: &[u8]) -> bool {
    let good = |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_';
    let nul = field.iter().position(|&b| b == 0).unwrap_or(field.len());
    if nul == 0 {
        return false;
    }
    let broken = (0..field.len()).find(|&i| field[i] != 0 && (i >= nul || !good(field[i])));
    [broken, Some(nul)]
        .into_iter()
        .flatten()
        .filter(|&i| i < field.len())
        .any(|i| {
            [b'a', 0].into_iter().any(|b| {
                let mut mended = field.to_vec();
                mended[i] = b;
                parse_name(&mended).is_some()
            })
        })
}

impl Record {
    /// Parses the [`RECORD_BYTES`] bytes at `offset`: a record when its name
    /// field holds a well-formed name and, unless `by_name`, it opens with the
    /// marker.
    pub fn parse(bytes: &[u8], offset: u64, by_name: bool) -> Option<Record> {
        let bytes = bytes.get(..RECORD_BYTES)?;
        let marked = bytes[..MARK.len()] == actlut_codegen::record::manifest_mark();
        if !marked && !by_name {
            return None;
        }
        let field = &bytes[MARK.len()..MARK.len() + NAME_BYTES];
        let (name, malformed) = match parse_name(field) {
            Some(n) => (String::from(n), false),
            // With its marker intact, a record is a record: a malformed name
            // field is a problem, never a reason to skip it. Bytes that merely
            // hold the marker (an rlib's metadata: its documentation, its
            // constants; a program's other string constants after it) are no
            // record: a name field is a name then its NUL padding, and one
            // changed byte leaves it one byte from that.
            None if marked && nearly_a_name(field) => (shown_name(field), true),
            None => return None,
        };
        let sha256: [u8; 32] = bytes[MARK.len() + NAME_BYTES..]
            .try_into()
            .expect("32 bytes");
        // Without its marker, a name field followed by one byte repeated (a
        // zero fill) is no record: it claims no hash. Such bytes occur in
        // real firmware, where link-time optimisation splits a `Table` into
        // the fields the program reads and keeps the name field alone.
        if !marked && sha256.iter().all(|&b| b == sha256[0]) {
            return None;
        }
        Some(Record {
            offset,
            name,
            sha256,
            marked,
            malformed,
            present: None,
        })
    }

    /// A record whose marker is intact and whose bytes `bytes` (fewer than
    /// [`RECORD_BYTES`]) the end of the file cuts off: a problem, as a
    /// table cut off is. `None` when the part of its name field present
    /// contradicts a name (text after the marker: no record).
    pub fn cut_off(bytes: &[u8], offset: u64) -> Option<Record> {
        let field = bytes.get(MARK.len()..).unwrap_or(&[]);
        let field = &field[..field.len().min(NAME_BYTES)];
        let mut padded = [0u8; NAME_BYTES];
        padded[..field.len()].copy_from_slice(field);
        let named = parse_name(&padded).is_some();
        (field.is_empty() || named || nearly_a_name(&padded)).then(|| Record {
            offset,
            name: shown_name(field),
            sha256: [0; 32],
            marked: true,
            malformed: false,
            present: Some(bytes.len()),
        })
    }

    /// `None` when the lock has this name with this hash, else one line:
    /// `manifest lists gelu_bf16 with sha256 …, the lock has …`.
    pub fn problem(&self, lock: &[Entry]) -> Option<String> {
        let (at, name) = (self.offset, &self.name);
        if let Some(n) = self.present {
            return Some(std::format!(
                "manifest record at {at:#x} is cut off by the end of the file: {n} of {RECORD_BYTES} bytes (its marker is intact)"
            ));
        }
        if self.malformed {
            return Some(std::format!(
                "manifest record at {at:#x}: malformed name field \"{name}\" (its marker is intact)"
            ));
        }
        let has = match lock.iter().find(|e| e.name == self.name) {
            Some(e) if e.sha256 == self.sha256 => return None,
            Some(e) => actlut_codegen::hex(&e.sha256),
            None => "no such table".to_string(),
        };
        let unmarked = (!self.marked).then_some(" (in a record whose marker was changed)");
        Some(std::format!(
            "manifest lists {name} with sha256 {}, the lock has {has}{}",
            actlut_codegen::hex(&self.sha256),
            unmarked.unwrap_or_default()
        ))
    }
}

/// The marker as the scan reads it (8 bytes, little-endian), computed at run
/// time (`actlut_codegen::record::manifest_mark`): the audit's own binary
/// holds no marker to find.
pub(crate) fn mark_u64() -> u64 {
    u64::from_le_bytes(actlut_codegen::record::manifest_mark())
}
