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

use std::collections::BTreeSet;
use std::format;
use std::string::String;
use std::sync::Arc;
use std::vec::Vec;

use actlut_codegen::lock::Entry;
use actlut_codegen::record::{parse_long_name, parse_name};
pub use actlut_codegen::record::{
    Declaration, DeclarationError, Representation, StoredOrder, DECLARATION_BYTES,
    DECLARATION_MARK, DECLARATION_NAME_AT, DECLARATION_SHA_AT, DECLARATION_V2_BYTES,
    LONG_NAME_BYTES, MAX_DECLARATION_BYTES, NAME_BYTES,
};
use actlut_codegen::Format;

use crate::filter::Filter;
use crate::index::{key_le, swap16};
use crate::limits::NEAR_OP_SHARE;
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
    /// Bytes of the record: its version's length (128, or 192 for version 2).
    pub record_bytes: usize,
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
    /// Whether [`expected`](Self::expected) is the hash of the table computed again (a
    /// declared op the lock does not list), not the lock's.
    pub recomputed: bool,
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
    /// Why the declared layout (entry width, length) is not one the
    /// declared name and representation take, when it is not: a known
    /// table's full form has its format's width and length, a compact
    /// stored form one of its layouts' lengths. (Its version is held to its
    /// name by [`Declaration::parse`].)
    pub layout: Option<String>,
    /// For a declared op computed again: a known table of its format (its
    /// name) that its table equals but for fewer than one in
    /// [`NEAR_OP_SHARE`] entries, and how many differ. Constants can bring an
    /// op within a few entries of a known table (`elu(alpha=1.0000001)_f16`
    /// and `elu_f16` differ in 2): such a record would pass off a changed
    /// copy of that table as intact, so it is a problem. (Tables of other
    /// formats are not held apart: honest ops lie that near them, as
    /// `hardtanh(min=-2,max=2)_fp8_e4m3` and `hardtanh_fp8_e4m3fnuz`, 2
    /// entries apart; docs/audit.md.)
    pub near: Option<(String, usize)>,
}

impl Declared {
    /// File offset of the declared table (just after the record: 128 bytes,
    /// or 192 for a version-2 record).
    /// A record that does not parse has its length by its version byte
    /// ([`record_bytes_of`](actlut_codegen::record::record_bytes_of)).
    pub fn table_offset(&self) -> u64 {
        self.offset + self.record_bytes as u64
    }

    /// The declared name, when the record parsed.
    pub fn name(&self) -> Option<&str> {
        self.declaration.as_ref().ok().map(Declaration::name)
    }

    /// `None` when the record is intact, its hash the lock's and the table at
    /// its location intact; else one line that says what is wrong.
    pub fn problem(&self) -> Option<String> {
        let (at, changed) = (self.offset, matches!(self.found_by, FoundBy::Fields(_)));
        let d = match &self.declaration {
            Err(e) => {
                let how = changed.then_some(": its marker was changed, and it");
                let how = how.unwrap_or_default();
                let name = &self.shown_name;
                return Some(format!(
                    "declaration of \"{name}\" at {at:#x}{how} does not parse: {e}"
                ));
            }
            Ok(d) => d,
        };
        let name = d.name();
        let (form, units) = match d.representation {
            Representation::Full => ("", "entries"),
            Representation::Compact => (" (compact stored form)", "bytes"),
        };
        let marker = changed.then(|| "its marker was changed".to_string());
        let mut wrong: Vec<String> = marker.into_iter().chain(self.layout.clone()).collect();
        match (self.expected, &self.unverified) {
            (None, Some(why)) => wrong.push(format!(
                "the lock has no such table{form}, and it was not computed again to verify it: {why}"
            )),
            (None, None) => wrong.push(format!("the lock has no such table{form}")),
            (Some(e), _) if e != d.sha256 => wrong.push(format!(
                "it declares sha256 {}, {} {}",
                actlut_codegen::hex(&d.sha256),
                if self.recomputed { "the table computed again has" } else { "the lock has" },
                actlut_codegen::hex(&e)
            )),
            (Some(_), _) => {}
        }
        if let Some((known, n)) = &self.near {
            wrong.push(format!(
                "its table is {known} but for {n} of {} entries: an op this near a known table \
                 passes off a changed copy of it (fewer than one in {NEAR_OP_SHARE} entries differ)",
                d.len / u32::from(d.width.max(1))
            ));
        }
        // A 16-bit table's order, and the other.
        let orders = (d.width == 2).then_some(match d.order {
            StoredOrder::Little => (ByteOrder::Little, ByteOrder::Big),
            StoredOrder::Big => (ByteOrder::Big, ByteOrder::Little),
        });
        if let Some(((w, _), n)) = orders.zip(self.native).filter(|((w, _), n)| w != n) {
            let (w, n) = (w.name(), n.name());
            wrong.push(format!("it declares {w} entries in a {n} file"));
        }
        if let Some(((w, other), o)) = orders.zip(self.other_order_at) {
            let (w, other) = (w.name(), other.name());
            wrong.push(format!(
                "it declares {w} entries, the declaration at {o:#x} {other}: a build stores all in one order"
            ));
        }
        let len = d.len as usize;
        if self.present < len {
            wrong.push(format!(
                "its table at {:#x} is cut off: {} of {len} bytes in the file",
                self.table_offset(),
                self.present
            ));
        } else if let Some(actual) = self.actual.filter(|a| *a != d.sha256) {
            let how = match self.differing {
                Some(n) => format!("{n} {units} differ"),
                None => "it is not the declared table".to_string(),
            };
            wrong.push(format!(
                "the bytes at {:#x} hash to {}: {how}",
                self.table_offset(),
                actlut_codegen::hex(&actual)
            ));
        }

        let wrong = wrong.join("; ");
        (!wrong.is_empty()).then(|| format!("declaration of {name}{form} at {at:#x}: {wrong}"))
    }
}

/// One table the audit can recognise a declaration of.
pub(crate) struct KnownTable {
    pub(crate) name: String,
    pub(crate) representation: Representation,
    /// The lock's hash (full), or the stored form's (compact).
    pub(crate) sha256: [u8; 32],
    pub(crate) bytes_le: Arc<[u8]>,
    /// Bytes per entry (1 or 2).
    pub(crate) width: u8,
    pub(crate) format: Format,
}

/// The byte orders a table of entries of `width` bytes may be stored in.
fn stored_orders(width: u8) -> &'static [StoredOrder] {
    &[StoredOrder::Little, StoredOrder::Big][..usize::from(width == 2) + 1]
}

/// The 8 header bytes (8 to 16) of a declaration: its version (the low
/// byte; its name's), representation, width, byte order and length.
fn header_of(name: &str, rep: Representation, width: u8, order: StoredOrder, len: u32) -> u64 {
    key_le(&Declaration::new(name, rep, width, order, len, [0; 32]).encode()[8..16])
}

/// The headers of a full table of `format` named `name`, in each order it may be stored in.
fn full_headers(name: &str, format: Format) -> impl Iterator<Item = u64> + '_ {
    let (width, len) = (format.entry_bytes() as u8, format.table_bytes() as u32);
    let orders = stored_orders(width).iter();
    orders.map(move |&o| header_of(name, Representation::Full, width, o, len))
}

impl KnownTable {
    /// Its stored byte at `i` in `order`: in big-endian order, the other
    /// byte of its 16-bit entry.
    fn stored(&self, order: StoredOrder, i: usize) -> u8 {
        self.bytes_le[i ^ usize::from(self.width == 2 && order == StoredOrder::Big)]
    }

    /// Whether `bytes` open with its stored bytes in `order`, compared in
    /// place up to the first difference, and how many bytes that compared.
    fn stored_prefix(&self, order: StoredOrder, bytes: &[u8]) -> (bool, usize) {
        let len = self.bytes_le.len();
        let Some(bytes) = bytes.get(..len) else {
            return (false, 0);
        };
        match (0..len).find(|&i| bytes[i] != self.stored(order, i)) {
            Some(i) => (false, i + 1),
            None => (true, len),
        }
    }
}

/// What the scan needs to recognise and verify declarations.
pub(crate) struct Known {
    pub(crate) tables: Vec<KnownTable>,
    /// Every declaration header (bytes 8 to 16) of a known table.
    pub(crate) headers: Vec<u64>,
    /// The first 8 bytes of every known hash, with the table.
    pub(crate) hash_keys: Vec<(u64, usize)>,
    /// The first 8 bytes of every known table's name field, and of every
    /// op text a function with constants opens (`softcap(cap=`, read
    /// `softcap(`): a record whose marker, header and hash were changed is
    /// met by its name.
    pub(crate) name_keys: Vec<u64>,
    /// The marker, the headers and the hash keys.
    pub(crate) filter: Filter,
    /// The marker as the scan reads it (8 bytes, little-endian), computed at
    /// run time (`actlut_codegen::record::declaration_mark`).
    pub(crate) mark: u64,
    /// The first 8 stored bytes of every distinct known table in each order
    /// it may be stored in, with the table: a known table intact after a
    /// record is one of its parts whatever its name and hash fields hold.
    pub(crate) table_keys: Vec<(u64, usize, StoredOrder)>,
    /// Every distinct full table of each format once (its index in
    /// `tables`): what a declared op is held apart from ([`Declared::near`]).
    pub(crate) distinct_full: Vec<usize>,
}

impl Known {
    /// From the index's references (a table's names, bytes and compact
    /// forms; `shared`: each form's bytes, [`Reference::forms`]) and the lock
    /// (a name's hash).
    pub(crate) fn new(refs: &[Reference], lock: &[Entry], shared: &[Vec<Arc<[u8]>>]) -> Known {
        let mut tables = Vec::new();
        for (r, forms) in refs.iter().zip(shared) {
            let width = r.format.entry_bytes() as u8;
            for name in &r.names {
                let listed = lock.iter().find(|e| &e.name == name);
                let sha = listed.map_or(r.sha256, |e| e.sha256);
                // A reference holds every table of equal bytes, of any format
                // (`leaky_relu_fp8_e4m3fnuz = leaky_relu_fp8_e4m3b11fnuz`):
                // each name's format is its own.
                let format = crate::ops::split_name(name).map_or(r.format, |(_, f)| f);
                let table = |representation, sha256, bytes_le: &Arc<[u8]>, width| KnownTable {
                    name: name.clone(),
                    representation,
                    sha256,
                    bytes_le: bytes_le.clone(),
                    width,
                    format,
                };
                tables.push(table(Representation::Full, sha, &forms[0], width));
                let compact = r.extra.iter().zip(&forms[1..]).filter(|(f, _)| f.compact);
                tables.extend(compact.map(|(f, b)| table(Representation::Compact, f.sha256, b, 1)));
            }
        }
        tables.sort_by(|a: &KnownTable, b: &KnownTable| a.name.cmp(&b.name));
        // The header of every known table's declarations, in each order it may be stored in.
        let headers = tables.iter().flat_map(|t| {
            let (rep, len) = (t.representation, t.bytes_le.len() as u32);
            let orders = stored_orders(t.width).iter();
            orders.map(move |&o| header_of(&t.name, rep, t.width, o, len))
        });
        let mut headers: BTreeSet<u64> = headers.collect();

        // The header of a full table of every format, in each version and
        // byte order: a declared op the lock does not list (a `table!`
        // table) has one of them, and the probe meets its record by it too.
        for format in Format::ALL {
            // A short name takes version 1, a long one version 2.
            let names = ["x", "x(a=1)"].into_iter();
            headers.extend(names.flat_map(|n| full_headers(n, format)));
        }
        let mut hash_keys: Vec<(u64, usize)> = tables
            .iter()
            .enumerate()
            .map(|(i, t)| (key_le(&t.sha256[..8]), i))
            .collect();
        hash_keys.sort_unstable();
        let key_of = |text: &[u8]| key_le(&text[..text.len().min(8)]);
        let mut name_keys: BTreeSet<u64> =
            tables.iter().map(|t| key_of(t.name.as_bytes())).collect();
        // An op's canonical text names every constant in declared order:
        // `<function>[_derivative](<first constant>=`. A shorter opening
        // than 8 bytes is followed by the value's digits: not a key.
        let functions = actlut_codegen::Function::ALL.iter();
        for (f, first) in functions.filter_map(|f| Some((f, f.constants().first()?))) {
            for derivative in ["", "_derivative"] {
                let text = format!("{}{derivative}({}=", f.name(), first.name);
                if text.len() >= 8 {
                    name_keys.insert(key_of(text.as_bytes()));
                }
            }
        }
        // The first 8 stored bytes of every distinct known table, in each
        // order it may be stored in (tables of equal bytes, aliases, once),
        // but a table whose bytes are all 0 or 1 ([`bool_bytes`]: a
        // derivative's that rounds to 0 or the least subnormal): that is
        // what a bool array holds, and not a part unless its name or hash
        // names it.
        let mut table_keys: Vec<(u64, usize, StoredOrder)> = Vec::new();
        for (i, t) in tables.iter().enumerate() {
            let alias = |u: &KnownTable| u.width == t.width && u.bytes_le == t.bytes_le;
            if tables[..i].iter().any(alias) || bool_bytes(&t.bytes_le) {
                continue;
            }
            for &o in stored_orders(t.width) {
                let first = u64::from_le_bytes(core::array::from_fn(|k| t.stored(o, k)));
                table_keys.push((first, i, o));
            }
        }
        table_keys.sort_unstable_by_key(|k| (k.0, k.1));
        let full = |&i: &usize| tables[i].representation == Representation::Full;
        let mut seen = std::collections::HashSet::new();
        let first = |&i: &usize| seen.insert((tables[i].format.name(), &tables[i].bytes_le[..]));
        let distinct_full = (0..tables.len()).filter(full).filter(first).collect();

        let mut known = Known {
            mark: u64::from_le_bytes(actlut_codegen::record::declaration_mark()),
            filter: Filter::new(&[]),
            tables,
            headers: headers.into_iter().collect(),
            hash_keys,
            name_keys: name_keys.into_iter().collect(),
            table_keys,
            distinct_full,
        };
        known.filter = Filter::new(&known.keys().collect::<Vec<_>>());
        known
    }

    /// Every 8-byte value [`Known::probe`] looks for (what its filter holds).
    pub(crate) fn keys(&self) -> impl Iterator<Item = u64> + '_ {
        core::iter::once(self.mark)
            .chain(self.headers.iter().copied())
            .chain(self.hash_keys.iter().map(|k| k.0))
            .chain(self.name_keys.iter().copied())
    }

    /// The indices in [`tables`](Self::tables) of the known tables named
    /// `name`: looked up (the tables are sorted by name), not searched, so
    /// that a flood of declarations of unknown names costs each a lookup.
    fn named_range(&self, name: &str) -> core::ops::Range<usize> {
        let lo = self.tables.partition_point(|t| t.name.as_str() < name);
        let hi = lo + self.tables[lo..].partition_point(|t| t.name == name);
        lo..hi
    }

    /// The known tables of `d`'s name and representation.
    fn declarable(&self, d: &Declaration) -> Vec<&KnownTable> {
        let named = self.tables[self.named_range(d.name())].iter();
        named
            .filter(|t| t.representation == d.representation)
            .collect()
    }

    /// The known table a declaration names: of its name and representation
    /// (a 16-bit table has a compact form in each layout, each with its own
    /// hash), the one with the declared hash; for a declaration whose hash is
    /// no known one (a problem), the one of its length, else the first, to
    /// say what it should have held.
    fn table(&self, d: &Declaration) -> Option<&KnownTable> {
        let all = self.declarable(d);
        all.iter()
            .find(|t| t.sha256 == d.sha256)
            .or_else(|| all.iter().find(|t| t.bytes_le.len() == d.len as usize))
            .or_else(|| all.first())
            .copied()
    }

    /// Why `d`'s entry width and length are not those of any known table of
    /// its name and representation (`None` when they are, or when no known
    /// table has its name: an op computed again is held to its own).
    fn layout_problem(&self, d: &Declaration) -> Option<String> {
        let all = self.declarable(d);
        let fits = |t: &&KnownTable| t.width == d.width && t.bytes_le.len() == d.len as usize;
        if all.is_empty() || all.iter().any(fits) {
            return None;
        }
        let lens: BTreeSet<usize> = all.iter().map(|t| t.bytes_le.len()).collect();
        let lens: Vec<String> = lens.iter().map(usize::to_string).collect();
        let of = match d.representation {
            Representation::Full => "'s table",
            Representation::Compact => "'s compact stored form",
        };
        Some(layout_why(d, of, &lens.join(" or "), all[0].width))
    }

    /// Record offsets that the 8-byte value `x` at `pos` may belong to.
    #[inline]
    pub(crate) fn probe(&self, x: u64, pos: u64, out: &mut Vec<u64>) {
        if !self.filter.maybe(x) {
            return;
        }
        let hit = |yes: bool, at: usize| pos.checked_sub(at as u64).filter(|_| yes);
        out.extend(hit(x == self.mark, 0));
        out.extend(hit(self.headers.binary_search(&x).is_ok(), 8));
        let i = self.hash_keys.partition_point(|k| k.0 < x);
        out.extend(hit(
            self.hash_keys.get(i).is_some_and(|k| k.0 == x),
            DECLARATION_SHA_AT,
        ));
        out.extend(hit(
            self.name_keys.binary_search(&x).is_ok(),
            DECLARATION_NAME_AT,
        ));
    }

    /// The known full table of `format` that the computed table `bytes_le`
    /// (entries of its format's width) equals but for fewer than one in
    /// [`NEAR_OP_SHARE`] entries, with how many differ ([`Declared::near`]),
    /// and its cost: one unit per 8 bytes compared. Each known table of the
    /// format is compared up to the difference that puts it out of reach.
    fn near_known(&self, format: Format, bytes_le: &[u8]) -> (Option<(String, usize)>, u64) {
        let width = format.entry_bytes() as u8;
        let w = usize::from(width.max(1));
        let stop = (bytes_le.len() / w).div_ceil(NEAR_OP_SHARE);
        let mut compared = 0u64;
        let mut near: Option<(String, usize)> = None;
        for t in self.distinct_full.iter().map(|&i| &self.tables[i]) {
            if t.format != format || t.width != width || t.bytes_le.len() != bytes_le.len() {
                continue;
            }
            let mut differ = 0;
            for (a, b) in bytes_le.chunks(8).zip(t.bytes_le.chunks(8)) {
                compared += 8;
                if a != b {
                    differ += differing(a, b, w);
                    if differ >= stop {
                        break;
                    }
                }
            }
            if differ > 0 && differ < stop && near.as_ref().is_none_or(|n| differ < n.1) {
                near = Some((t.name.clone(), differ));
            }
        }
        (near, compared / 8)
    }

    /// Judges the record candidate at `offset` (`None` when it is no
    /// record), with its cost: the bytes it compared with known tables to
    /// recognise a record whose marker was changed, and, apart, what
    /// computing a declared op again cost ([`crate::ops::RECOMPUTE_COST_PER_ENTRY`]
    /// per entry computed; the scan takes it from its op allowance first).
    /// `bytes` are the bytes from there to the end of the longest declared
    /// table or of the file.
    pub(crate) fn judge_costed(
        &self,
        offset: u64,
        bytes: &[u8],
        native: Option<ByteOrder>,
    ) -> (Option<Declared>, u64, u64) {
        let marked = bytes.len() >= 8 && bytes[..8] == self.mark.to_le_bytes();
        // A record is two of its five parts (marker, header, hash, name,
        // the table after it) as a declaration has them: text that merely
        // holds the marker (documentation in an rlib's metadata) is none.
        let (n, mut cost) = self.intact_fields(bytes, marked);
        if u8::from(marked) + n < 2 {
            return (None, cost, 0);
        }
        let (found_by, declaration) = if marked {
            (FoundBy::Marker, Declaration::parse(bytes))
        } else {
            (FoundBy::Fields(n), Declaration::parse_fields(bytes))
        };
        let name_bytes = actlut_codegen::record::name_bytes_of(bytes.get(8).copied().unwrap_or(0));
        let end = (DECLARATION_NAME_AT + name_bytes).min(bytes.len());
        let field = bytes.get(DECLARATION_NAME_AT..end).unwrap_or(&[]);
        let parsed = declaration.as_ref().ok();
        let known = parsed.and_then(|d| self.table(d));
        let mut out = Declared {
            shown_name: crate::manifest::shown_name(field),
            offset,
            record_bytes: parsed.map_or(
                actlut_codegen::record::record_bytes_of(bytes.get(8).copied().unwrap_or(0)),
                Declaration::record_bytes,
            ),
            found_by,
            expected: known.map(|t| t.sha256),
            layout: parsed.and_then(|d| self.layout_problem(d)),
            declaration,
            unverified: None,
            recomputed: false,
            present: 0,
            actual: None,
            differing: None,
            native,
            other_order_at: None,
            near: None,
        };
        let Ok(d) = out.declaration else {
            return (Some(out), cost, 0);
        };
        // A declared op the lock does not list: computed again.
        let (mut computed, mut recompute) = (None, 0);
        if known.is_none() && d.representation == Representation::Full {
            match crate::ops::recompute(d.name()) {
                crate::ops::Recomputed::Table { bytes_le, format } => {
                    // Evaluating an entry costs about what comparing a hundred does.
                    recompute = crate::ops::RECOMPUTE_COST_PER_ENTRY * format.entries() as u64;
                    out.expected = Some(actlut_codegen::sha256(&bytes_le));
                    out.recomputed = true;
                    // The width and length are the computed table's.
                    let width = format.entry_bytes() as u8;
                    if (width, bytes_le.len()) != (d.width, d.len as usize) {
                        let len = bytes_le.len().to_string();
                        out.layout = Some(layout_why(&d, "", &len, width));
                    }
                    let (near, compared) = self.near_known(format, &bytes_le);
                    cost += compared;
                    out.near = near;
                    computed = Some((bytes_le, width));
                }
                crate::ops::Recomputed::Unavailable(why) => out.unverified = Some(why),
                crate::ops::Recomputed::NotAnOp => {}
            }
        }
        let table = bytes.get(d.record_bytes()..).unwrap_or(&[]);
        let len = d.len as usize;
        out.present = table.len().min(len);
        if let Some(stored) = table.get(..len) {
            let le: Vec<u8> = match (d.width, d.order) {
                (2, StoredOrder::Big) => swap16(stored),
                _ => stored.to_vec(),
            };
            out.actual = Some(actlut_codegen::sha256(&le));
            // (Known and computed again are never both.)
            let reference = known
                .map(|t| (&t.bytes_le[..], t.width))
                .or(computed.as_ref().map(|c| (&c.0[..], c.1)))
                .filter(|r| r.0.len() == len);
            out.differing = reference.map(|(r, width)| differing(&le, r, usize::from(width)));
        }
        (Some(out), cost, recompute)
    }

    /// How many of a record's four fields after its marker are those of a
    /// known table's declaration: header, hash, name, and the table after it;
    /// and how many bytes that compared (the cost of judging it). Both
    /// layouts are tried (a version-1 record, its 32-byte name and its table
    /// at 128; a version-2 one, its 128-byte name and its table at 192), and
    /// the one with more counts. Behind an intact marker (`marked`), a header
    /// that parses counts too.
    ///
    /// A declared op the lock does not list (a `table!` table: no known
    /// hash, name or table) has a name that reads as an op and a format
    /// ([`crate::ops::split_name`], [`crate::ops::is_op_text`]): that is its
    /// name part, the header that name takes is its header part, and a hash
    /// field that is the SHA-256 of the bytes after the record, as many as
    /// the header declares, is its hash and its table parts (they agree
    /// with each other; hashed only behind a header or name part, and
    /// charged).
    ///
    /// Nothing is allocated but the hashed bytes: each known table is
    /// compared in place with the bytes after the record, in both byte
    /// orders, up to the first difference.
    fn intact_fields(&self, b: &[u8], marked: bool) -> (u8, u64) {
        let Some(r) = b.get(..DECLARATION_BYTES) else {
            // Cut off by the end of the file: behind an intact marker, its
            // header (when present) must be a declaration's; fewer bytes
            // cannot tell text from a record, and are taken as a record.
            let header = b.get(8..16);
            let ok = marked
                && header.is_none_or(|h| {
                    header_parses(h) || self.headers.binary_search(&key_le(h)).is_ok()
                });
            return (u8::from(ok), 0);
        };
        let header = key_le(&r[8..16]);
        let known_header = self.headers.binary_search(&header).is_ok();
        let sha = &r[DECLARATION_SHA_AT..DECLARATION_SHA_AT + 32];
        let key = key_le(&sha[..8]);
        let lo = self.hash_keys.partition_point(|k| k.0 < key);
        let by_hash = self.hash_keys[lo..]
            .iter()
            .take_while(|k| k.0 == key)
            .map(|k| k.1)
            .filter(|&i| self.tables[i].sha256 == sha);
        let hash_ok = by_hash.clone().next().is_some();
        let mut compared = 0u64;
        let mut best = 0u8;
        for (record_bytes, name_bytes, long) in [
            (DECLARATION_BYTES, NAME_BYTES, false),
            (DECLARATION_V2_BYTES, LONG_NAME_BYTES, true),
        ] {
            let Some(field) = b.get(DECLARATION_NAME_AT..DECLARATION_NAME_AT + name_bytes) else {
                continue;
            };
            let name = if long {
                parse_long_name(field)
            } else {
                parse_name(field)
            };

            // The tables are sorted by name, the hash keys by value: both are
            // looked up, not searched.
            let by_name = name.map_or(0..0, |n| self.named_range(n));
            let after = &b[record_bytes.min(b.len())..];
            let mut name_ok = !by_name.is_empty();
            let mut header_ok = known_header || (marked && header_parses(&r[8..16]));
            // A hash and a name are two parts when they agree (the hash is
            // the named table's, of one of its forms): a known hash next to
            // another table's name is one (a crate's metadata lays arrays of
            // hashes and names end to end).
            let agree = by_name.clone().any(|i| self.tables[i].sha256 == sha);
            let (mut hash_here, mut table_ok) = (hash_ok && (agree || !name_ok), false);
            for i in by_name.clone().chain(by_hash.clone()) {
                let t = &self.tables[i];
                for &order in stored_orders(t.width) {
                    let (same, n) = t.stored_prefix(order, after);
                    compared += n as u64;
                    table_ok |= same;
                }
                if table_ok {
                    break;
                }
            }
            // A declared op the lock does not list.
            let op = name
                .filter(|_| by_name.is_empty())
                .and_then(crate::ops::split_name)
                .filter(|(op, _)| crate::ops::is_canonical_op(op));
            if let Some((_, format)) = op {
                name_ok = true;
                let mut headers = full_headers(name.expect("parsed"), format);
                header_ok |= headers.any(|h| h == header && (h as u8 == 2) == long);
            }
            if !hash_here && (marked || header_ok || op.is_some()) {
                // Hash and table that agree: the length the op's format
                // takes, or the header's, or behind an intact marker any
                // full table's; in either byte order of 16-bit entries.
                let declared_len = u32::from_le_bytes([r[12], r[13], r[14], r[15]]) as usize;
                let lens = match op {
                    Some((_, f)) => BTreeSet::from([f.table_bytes()]),
                    None if header_ok => BTreeSet::from([declared_len]),
                    // Every full table's length, each once, ascending.
                    None => Format::ALL.iter().map(|f| f.table_bytes()).collect(),
                };
                let lens = lens.into_iter().filter(|&n| n > 0 && n <= 1 << 17);
                for (len, stored) in lens.filter_map(|n| Some((n, after.get(..n)?))) {
                    compared += len as u64 / 2;
                    if actlut_codegen::sha256(stored) == sha
                        || (len % 2 == 0 && actlut_codegen::sha256(&swap16(stored)) == sha)
                    {
                        hash_here = true;
                        table_ok = true;
                        break;
                    }
                }
            }
            // A known table intact after the record is one of its five parts
            // whatever its name and hash fields hold (docs/audit.md: a record is
            // recognised until four of its parts are changed): looked up by its
            // first 8 bytes, then compared up to the first difference. Only
            // behind an intact marker or header: with the name and hash both
            // changed, a record of at most three changed parts keeps one of them,
            // and without them a record read one byte on (whose shifted name is
            // another table's: `elu_…` in `gelu_…`) would pass a table's shifted
            // bytes, a count in a near-identity table, for its fifth part.
            let by_first = !table_ok && (marked || header_ok);
            if let Some(first) = after.get(..8).filter(|_| by_first) {
                let key = key_le(first);
                let lo = self.table_keys.partition_point(|k| k.0 < key);
                let mut keyed = self.table_keys[lo..].iter().take_while(|k| k.0 == key);
                table_ok = keyed.any(|&(_, i, order)| {
                    let (same, n) = self.tables[i].stored_prefix(order, after);
                    compared += n as u64;
                    same
                });
            }

            let parts = [header_ok, name_ok, hash_here, table_ok];
            best = best.max(parts.into_iter().map(u8::from).sum());
        }
        (best, compared)
    }
}

/// Why `d`'s layout is not the one of its name's table (`of`: "" or its
/// name's suffix), `lens` bytes of `width`-byte entries.
fn layout_why(d: &Declaration, of: &str, lens: &str, width: u8) -> String {
    format!(
        "it declares {} bytes of {}-byte entries, and {}{of} has {lens} bytes of {width}-byte entries",
        d.len,
        d.width,
        d.name()
    )
}

/// How many of the `w`-byte entries of `a` and `b` differ.
fn differing(a: &[u8], b: &[u8], w: usize) -> usize {
    a.chunks(w).zip(b.chunks(w)).filter(|(x, y)| x != y).count()
}

/// Whether every byte of `bytes_le` is 0 or 1, as a bool array's are: such a
/// known table is a record's part only when the record's name or hash names
/// it (a bool array in a crate's metadata held a known header and, 128 bytes
/// on, such a derivative table).
pub fn bool_bytes(bytes_le: &[u8]) -> bool {
    bytes_le.iter().all(|&b| b <= 1)
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
    Some(d.declaration.as_ref().ok().filter(|d| d.width == 2)?.order)
}

/// Marks every declaration of a 16-bit table whose byte order differs from
/// another's with the offset of the first of those ([`Declared::other_order_at`]).
pub(crate) fn mark_mixed_orders(declared: &mut [Declared]) {
    let first = |o| Some(declared.iter().find(|d| order_of(d) == Some(o))?.offset);
    if let (Some(l), Some(b)) = (first(StoredOrder::Little), first(StoredOrder::Big)) {
        for d in declared.iter_mut() {
            d.other_order_at = match order_of(d) {
                Some(StoredOrder::Little) => Some(b),
                Some(StoredOrder::Big) => Some(l),
                None => None,
            };
        }
    }
}
