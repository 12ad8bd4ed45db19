//! Declared tables, verified exactly.
//!
//! An actlut build embeds every table `static` as one value: a
//! [`Declaration`] record of [`DECLARATION_BYTES`], then the table's stored
//! bytes (`actlut::manifest`; the layout is [`Declaration`]'s). The scan
//! finds records and judges each:
//!
//! - A record whose marker ([`DECLARATION_MARK`]) is present is parsed
//!   strictly ([`Declaration::parse`]): one that does not parse (a bad name
//!   byte, non-zero padding, an unknown version, an impossible length) is a
//!   problem, never skipped.
//! - A record whose marker was changed is still found, when two of its other
//!   fields are intact: its header bytes (8 to 16: version, representation,
//!   width, byte order, length, as some known table's declaration has them),
//!   its hash (a known table's, full or stored form), its name field (a known
//!   table's) and the table after it (intact: the stored bytes of a table its
//!   name or hash names). Such a record is a problem.
//! - A parsed record's hash must be the lock's for its name (the compact
//!   lock's, for a compact stored form), and the bytes at its location
//!   (record offset + [`DECLARATION_BYTES`], [`Declaration::len`] bytes) must
//!   hash to it: a table changed, cut off or missing there is a problem, and
//!   so is a 16-bit table stored in the byte order the file does not declare.
//!
//! So a change to any byte of a declared table, or of its record, is
//! reported, unless the record is rewritten until it is no longer
//! recognisable: its marker and three of those four fields changed. Its
//! table is then undeclared content, judged by its content like any other.

use std::format;
use std::string::String;
use std::vec::Vec;

use actlut_codegen::lock::Entry;
pub use actlut_codegen::record::{
    Declaration, DeclarationError, Representation, StoredOrder, DECLARATION_BYTES,
    DECLARATION_MARK, DECLARATION_NAME_AT, DECLARATION_SHA_AT, DECLARATION_V2_BYTES,
    MAX_DECLARATION_BYTES, NAME_BYTES,
};

use crate::filter::Filter;
use crate::reference::{ByteOrder, Reference};

/// How a record was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoundBy {
    /// By its intact marker.
    Marker,
    /// By the fields after its changed marker; how many of the four
    /// (header, hash, name, the named table intact after it) were intact.
    Fields(u8),
}

/// A declaration record found in an artifact, and what lies at its location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declared {
    /// File offset of the record.
    pub offset: u64,
    /// How it was found.
    pub found_by: FoundBy,
    /// The record, or why it does not parse (for a record found by its
    /// fields, all but the marker are parsed).
    pub declaration: Result<Declaration, DeclarationError>,
    /// The record's name field as text ([`crate::manifest::shown_name`]):
    /// what a record that does not parse is named by.
    pub shown_name: String,
    /// The hash the lock has for the declared name (the compact lock's for a
    /// compact form), if the audit knows the table; for a name the lock does
    /// not list that names an op and a format, the hash of the table
    /// computed again ([`crate::ops::recompute`]).
    pub expected: Option<[u8; 32]>,
    /// Why a declared op the lock does not list could not be computed again
    /// ([`crate::ops::Recomputed::Unavailable`]): nothing was verified, a
    /// problem.
    pub unverified: Option<String>,
    /// Bytes of the declared table present in the file at its location.
    pub present: usize,
    /// SHA-256 of the little-endian bytes at the location (of the stored
    /// bytes for a compact form), when all are present.
    pub actual: Option<[u8; 32]>,
    /// Entries (bytes, for a compact form) at the location that differ from
    /// the audit's reference, when it has one and all are present.
    pub differing: Option<usize>,
    /// The 16-bit byte order the file declares ([`crate::container`]), if any.
    pub native: Option<ByteOrder>,
    /// The offset of a declaration of a 16-bit table in the other byte
    /// order, in the same file, if any: a build stores every table in its
    /// target's order, so one of the two is not as built (a problem for
    /// both, whether or not the file declares an order).
    pub other_order_at: Option<u64>,
}

impl Declared {
    /// File offset of the declared table (just after the record: 128 bytes,
    /// or 192 for a version-2 record).
    pub fn table_offset(&self) -> u64 {
        let record = self
            .declaration
            .as_ref()
            .map_or(DECLARATION_BYTES, Declaration::record_bytes);
        self.offset + record as u64
    }

    /// The declared name, when the record parsed.
    pub fn name(&self) -> Option<&str> {
        self.declaration.as_ref().ok().map(Declaration::name)
    }

    /// `None` when the record is intact, its hash the lock's and the table at
    /// its location intact; else one line that says what is wrong.
    pub fn problem(&self) -> Option<String> {
        let at = self.offset;
        let d = match &self.declaration {
            Err(e) => {
                let name = &self.shown_name;
                return Some(match self.found_by {
                    FoundBy::Marker => {
                        format!("declaration of \"{name}\" at {at:#x} does not parse: {e}")
                    }
                    FoundBy::Fields(_) => format!(
                        "declaration of \"{name}\" at {at:#x}: its marker was changed, and it does not parse: {e}"
                    ),
                });
            }
            Ok(d) => d,
        };
        let name = d.name();
        let form = match d.representation {
            Representation::Full => "",
            Representation::Compact => " (compact stored form)",
        };
        let mut wrong = Vec::new();
        if let FoundBy::Fields(_) = self.found_by {
            wrong.push("its marker was changed".to_string());
        }
        match (self.expected, &self.unverified) {
            (None, Some(why)) => wrong.push(format!(
                "the lock has no such table{form}, and it was not computed again to verify it: {why}"
            )),
            (None, None) => wrong.push(format!("the lock has no such table{form}")),
            (Some(e), _) if e != d.sha256 => wrong.push(format!(
                "it declares sha256 {}, the lock has {}",
                actlut_codegen::hex(&d.sha256),
                actlut_codegen::hex(&e)
            )),
            (Some(_), _) => {}
        }
        let want = match (d.width, d.order) {
            (2, StoredOrder::Big) => Some(ByteOrder::Big),
            (2, StoredOrder::Little) => Some(ByteOrder::Little),
            _ => None,
        };
        if let (Some(w), Some(n)) = (want, self.native) {
            if w != n {
                wrong.push(format!(
                    "it declares {} entries in a {} file",
                    order_name(w),
                    order_name(n)
                ));
            }
        }
        if let (Some(w), Some(o)) = (want, self.other_order_at) {
            let other = match w {
                ByteOrder::Little => ByteOrder::Big,
                _ => ByteOrder::Little,
            };
            wrong.push(format!(
                "it declares {} entries, the declaration at {o:#x} {}: a build stores all in one order",
                order_name(w),
                order_name(other)
            ));
        }
        let len = d.len as usize;
        if self.present < len {
            wrong.push(format!(
                "its table at {:#x} is cut off: {} of {len} bytes in the file",
                self.table_offset(),
                self.present
            ));
        } else if let Some(actual) = self.actual {
            if actual != d.sha256 {
                let how = match self.differing {
                    Some(n) => format!(
                        "{n} {} differ",
                        if d.representation == Representation::Full {
                            "entries"
                        } else {
                            "bytes"
                        }
                    ),
                    None => "it is not the declared table".to_string(),
                };
                wrong.push(format!(
                    "the bytes at {:#x} hash to {}: {how}",
                    self.table_offset(),
                    actlut_codegen::hex(&actual)
                ));
            }
        }
        if wrong.is_empty() {
            None
        } else {
            Some(format!(
                "declaration of {name}{form} at {at:#x}: {}",
                wrong.join("; ")
            ))
        }
    }
}

fn order_name(o: ByteOrder) -> &'static str {
    match o {
        ByteOrder::Little => "little-endian",
        ByteOrder::Big => "big-endian",
        ByteOrder::Bytes => "single-byte",
    }
}

/// One table the audit can recognise a declaration of.
pub(crate) struct KnownTable {
    pub(crate) name: String,
    pub(crate) representation: Representation,
    /// The lock's hash (full), or the stored form's (compact).
    pub(crate) sha256: [u8; 32],
    /// Its bytes, little-endian.
    pub(crate) bytes_le: Vec<u8>,
    /// Bytes per entry (1 or 2).
    pub(crate) width: u8,
}

impl KnownTable {
    /// Whether `bytes` open with its stored bytes in `order`, compared in
    /// place up to the first difference, and how many bytes that compared.
    fn stored_prefix(&self, order: StoredOrder, bytes: &[u8]) -> (bool, usize) {
        let len = self.bytes_le.len();
        let Some(bytes) = bytes.get(..len) else {
            return (false, 0);
        };
        // The stored byte at `i`: in big-endian order, the other byte of
        // its 16-bit entry.
        let swap = usize::from(self.width == 2 && order == StoredOrder::Big);
        match (0..len).find(|&i| bytes[i] != self.bytes_le[i ^ swap]) {
            Some(i) => (false, i + 1),
            None => (true, len),
        }
    }

    /// The 8 header bytes (8 to 16) of its declarations, in each order it
    /// may be stored in.
    fn headers(&self) -> Vec<u64> {
        let orders: &[StoredOrder] = if self.width == 2 {
            &[StoredOrder::Little, StoredOrder::Big]
        } else {
            &[StoredOrder::Little]
        };
        orders
            .iter()
            .map(|&o| {
                let b = Declaration::new(
                    &self.name,
                    self.representation,
                    self.width,
                    o,
                    self.bytes_le.len() as u32,
                    self.sha256,
                )
                .to_bytes();
                u64::from_le_bytes(b[8..16].try_into().expect("8 bytes"))
            })
            .collect()
    }
}

/// What the scan needs to recognise and verify declarations.
pub(crate) struct Known {
    pub(crate) tables: Vec<KnownTable>,
    /// Every declaration header (bytes 8 to 16) of a known table.
    pub(crate) headers: Vec<u64>,
    /// The first 8 bytes of every known hash, with the table.
    pub(crate) hash_keys: Vec<(u64, usize)>,
    /// The marker, the headers and the hash keys.
    pub(crate) filter: Filter,
    /// The marker as the scan reads it (8 bytes, little-endian), computed at
    /// run time (`actlut_codegen::record::declaration_mark`).
    pub(crate) mark: u64,
}

impl Known {
    /// From the index's references (a table's names, bytes and compact
    /// forms) and the lock (a name's hash).
    pub(crate) fn new(refs: &[Reference], lock: &[Entry]) -> Known {
        let mut tables = Vec::new();
        for r in refs {
            let width = r.format.entry_bytes() as u8;
            for name in &r.names {
                let locked = lock.iter().find(|e| &e.name == name).map(|e| e.sha256);
                tables.push(KnownTable {
                    name: name.clone(),
                    representation: Representation::Full,
                    sha256: locked.unwrap_or(r.sha256),
                    bytes_le: r.bytes_le.clone(),
                    width,
                });
                for f in r.extra.iter().filter(|f| f.compact) {
                    tables.push(KnownTable {
                        name: name.clone(),
                        representation: Representation::Compact,
                        sha256: f.sha256,
                        bytes_le: f.bytes_le.clone(),
                        width: 1,
                    });
                }
            }
        }
        tables.sort_by(|a: &KnownTable, b: &KnownTable| a.name.cmp(&b.name));
        let mut headers: Vec<u64> = tables.iter().flat_map(KnownTable::headers).collect();
        headers.sort_unstable();
        headers.dedup();
        let mut hash_keys: Vec<(u64, usize)> = tables
            .iter()
            .enumerate()
            .map(|(i, t)| (u64::from_le_bytes(t.sha256[..8].try_into().expect("8")), i))
            .collect();
        hash_keys.sort_unstable();
        let mark = u64::from_le_bytes(actlut_codegen::record::declaration_mark());
        let mut keys = vec![mark];
        keys.extend_from_slice(&headers);
        keys.extend(hash_keys.iter().map(|k| k.0));
        Known {
            mark,
            filter: Filter::new(&keys),
            tables,
            headers,
            hash_keys,
        }
    }

    /// Every 8-byte value [`Known::probe`] looks for.
    pub(crate) fn keys(&self) -> impl Iterator<Item = u64> + '_ {
        core::iter::once(self.mark)
            .chain(self.headers.iter().copied())
            .chain(self.hash_keys.iter().map(|k| k.0))
    }

    /// The known table a declaration names: of its name and representation
    /// (a 16-bit table has a compact form in each layout, each with its own
    /// hash), the one with the declared hash; for a declaration whose hash is
    /// no known one (a problem), the one of its length, else the first, to
    /// say what it should have held.
    fn table(&self, d: &Declaration) -> Option<&KnownTable> {
        let all: Vec<&KnownTable> = self
            .tables
            .iter()
            .filter(|t| t.name == d.name() && t.representation == d.representation)
            .collect();
        all.iter()
            .find(|t| t.sha256 == d.sha256)
            .or_else(|| all.iter().find(|t| t.bytes_le.len() == d.len as usize))
            .or_else(|| all.first())
            .copied()
    }

    /// Record offsets that the 8-byte value `x` at `pos` may belong to.
    #[inline]
    pub(crate) fn probe(&self, x: u64, pos: u64, out: &mut Vec<u64>) {
        if !self.filter.maybe(x) {
            return;
        }
        if x == self.mark {
            out.push(pos);
        }
        if self.headers.binary_search(&x).is_ok() {
            if let Some(p) = pos.checked_sub(8) {
                out.push(p);
            }
        }
        let i = self.hash_keys.partition_point(|k| k.0 < x);
        if self.hash_keys.get(i).is_some_and(|k| k.0 == x) {
            if let Some(p) = pos.checked_sub(DECLARATION_SHA_AT as u64) {
                out.push(p);
            }
        }
    }

    /// Judges the record candidate at `offset` (`None` when it is no
    /// record), and the bytes it compared with known tables to recognise a
    /// record whose marker was changed: `bytes` are the bytes from there to
    /// the end of the longest declared table or of the file.
    pub(crate) fn judge_costed(
        &self,
        offset: u64,
        bytes: &[u8],
        native: Option<ByteOrder>,
    ) -> (Option<Declared>, u64) {
        let mut cost = 0;
        let out = self.judge_inner(offset, bytes, native, &mut cost);
        (out, cost)
    }

    fn judge_inner(
        &self,
        offset: u64,
        bytes: &[u8],
        native: Option<ByteOrder>,
        cost: &mut u64,
    ) -> Option<Declared> {
        let marked = bytes.len() >= 8 && bytes[..8] == self.mark.to_le_bytes();
        // A record is two of its five parts (marker, header, hash, name,
        // the table after it) as a declaration has them: text that merely
        // holds the marker (documentation in an rlib's metadata) is none.
        let (n, compared) = self.intact_fields(bytes, marked);
        *cost = compared;
        if u8::from(marked) + n < 2 {
            return None;
        }
        let found_by = if marked {
            FoundBy::Marker
        } else {
            FoundBy::Fields(n)
        };
        let declaration = if marked {
            Declaration::parse(bytes)
        } else {
            Declaration::parse_fields(bytes)
        };
        let version = bytes.get(8).copied().unwrap_or(0);
        let name_bytes = actlut_codegen::record::name_bytes_of(version);
        let field = bytes
            .get(DECLARATION_NAME_AT..(DECLARATION_NAME_AT + name_bytes).min(bytes.len()))
            .unwrap_or(&[]);
        let mut out = Declared {
            shown_name: crate::manifest::shown_name(field),
            offset,
            found_by,
            declaration,
            expected: None,
            unverified: None,
            present: 0,
            actual: None,
            differing: None,
            native,
            other_order_at: None,
        };
        let Ok(d) = out.declaration else {
            return Some(out);
        };
        let known = self.table(&d);
        out.expected = known.map(|t| t.sha256);
        // A declared op the lock does not list: computed again.
        let mut computed = None;
        if known.is_none() && d.representation == Representation::Full {
            match crate::ops::recompute(d.name()) {
                crate::ops::Recomputed::Table { bytes_le, .. } => {
                    out.expected = Some(actlut_codegen::sha256(&bytes_le));
                    computed = Some((bytes_le, d.width));
                }
                crate::ops::Recomputed::Unavailable(why) => out.unverified = Some(why),
                crate::ops::Recomputed::NotAnOp => {}
            }
        }
        let table = bytes.get(d.record_bytes()..).unwrap_or(&[]);
        let len = d.len as usize;
        out.present = table.len().min(len);
        if table.len() >= len {
            let stored = &table[..len];
            let le: Vec<u8> = match (d.width, d.order) {
                (2, StoredOrder::Big) => {
                    stored.chunks_exact(2).flat_map(|w| [w[1], w[0]]).collect()
                }
                _ => stored.to_vec(),
            };
            out.actual = Some(actlut_codegen::sha256(&le));
            let reference = known
                .filter(|t| t.bytes_le.len() == len)
                .map(|t| (&t.bytes_le[..], t.width))
                .or(computed
                    .as_ref()
                    .filter(|c| c.0.len() == len)
                    .map(|c| (&c.0[..], c.1)));
            if let Some((reference, width)) = reference {
                let w = usize::from(width);
                out.differing = Some(
                    le.chunks(w)
                        .zip(reference.chunks(w))
                        .filter(|(a, b)| a != b)
                        .count(),
                );
            }
        }
        Some(out)
    }

    /// How many of a record's four fields after its marker are those of a
    /// known table's declaration: header, hash, name, and the table after it;
    /// and how many bytes that compared (the cost of judging it). Behind an
    /// intact marker (`marked`), a header that parses counts too (a
    /// declared op the lock does not list has no known header). Nothing is
    /// allocated: each known table is compared in place with the bytes after
    /// the record, in both byte orders, up to the first difference.
    fn intact_fields(&self, b: &[u8], marked: bool) -> (u8, u64) {
        let Some(r) = b.get(..DECLARATION_BYTES) else {
            // Cut off by the end of the file: behind an intact marker, its
            // header (when present) must be a declaration's; fewer bytes
            // cannot tell text from a record, and are taken as a record.
            let header = b.get(8..16);
            let ok = marked
                && header.is_none_or(|h| {
                    header_parses(h)
                        || self
                            .headers
                            .binary_search(&u64::from_le_bytes(h.try_into().expect("8 bytes")))
                            .is_ok()
                });
            return (u8::from(ok), 0);
        };
        let header = u64::from_le_bytes(r[8..16].try_into().expect("8 bytes"));
        let header_ok =
            self.headers.binary_search(&header).is_ok() || (marked && header_parses(&r[8..16]));
        let field = &r[DECLARATION_NAME_AT..DECLARATION_NAME_AT + NAME_BYTES];
        let name = actlut_codegen::record::parse_name(field);
        let sha = &r[DECLARATION_SHA_AT..DECLARATION_SHA_AT + 32];
        // The tables are sorted by name, the hash keys by value: both are
        // looked up, not searched.
        let by_name = name.map_or(0..0, |n| {
            let lo = self.tables.partition_point(|t| t.name.as_str() < n);
            let hi = lo + self.tables[lo..].partition_point(|t| t.name == n);
            lo..hi
        });
        let key = u64::from_le_bytes(sha[..8].try_into().expect("8 bytes"));
        let lo = self.hash_keys.partition_point(|k| k.0 < key);
        let by_hash = self.hash_keys[lo..]
            .iter()
            .take_while(|k| k.0 == key)
            .map(|k| k.1)
            .filter(|&i| self.tables[i].sha256 == sha);
        let name_ok = !by_name.is_empty();
        let hash_ok = by_hash.clone().next().is_some();
        let after = &b[DECLARATION_BYTES..];
        let mut compared = 0u64;
        let mut table_ok = false;
        for t in by_name.chain(by_hash).map(|i| &self.tables[i]) {
            let orders: &[StoredOrder] = if t.width == 2 {
                &[StoredOrder::Little, StoredOrder::Big]
            } else {
                &[StoredOrder::Little]
            };
            for &order in orders {
                let (same, n) = t.stored_prefix(order, after);
                compared += n as u64;
                table_ok |= same;
            }
            if table_ok {
                break;
            }
        }
        let n = u8::from(header_ok) + u8::from(name_ok) + u8::from(hash_ok) + u8::from(table_ok);
        (n, compared)
    }
}

/// Whether a declaration's header bytes (8 to 16: version, representation,
/// width, byte order, length) are a possible combination.
fn header_parses(h: &[u8]) -> bool {
    let len = u32::from_le_bytes([h[4], h[5], h[6], h[7]]);
    matches!(h[0], 1 | 2)
        && match (h[1], h[2], h[3]) {
            (0, 2, 0 | 1) => len == 1 << 17,
            (0, 1, 0) => matches!(len, 16 | 64 | 256),
            (1, 1, 0) => len > 0 && len < 1 << 17,
            _ => false,
        }
}

/// The byte order of a parsed declaration of a 16-bit table.
fn order_of(d: &Declared) -> Option<StoredOrder> {
    d.declaration
        .as_ref()
        .ok()
        .filter(|d| d.width == 2)
        .map(|d| d.order)
}

/// Marks every declaration of a 16-bit table whose byte order differs from
/// another's with the offset of the first of those ([`Declared::other_order_at`]).
pub(crate) fn mark_mixed_orders(declared: &mut [Declared]) {
    let first = |o: StoredOrder| {
        declared
            .iter()
            .find(|d| order_of(d) == Some(o))
            .map(|d| d.offset)
    };
    let (little, big) = (first(StoredOrder::Little), first(StoredOrder::Big));
    if let (Some(l), Some(b)) = (little, big) {
        for d in declared.iter_mut() {
            d.other_order_at = match order_of(d) {
                Some(StoredOrder::Little) => Some(b),
                Some(StoredOrder::Big) => Some(l),
                None => None,
            };
        }
    }
}
