//! Finding actlut tables inside compiled artifacts (ELF, wasm, raw firmware
//! images, static libraries: any bytes), intact, modified or cut off.
//!
//! Tables are embedded verbatim, in the target's endianness, so an artifact that
//! carries a table carries its 131,072 (or 256) bytes contiguously. Detection
//! rests on the whole table, not on a few windows:
//!
//! 1. **Index.** [`Index::new`] cuts every known byte string (every table in
//!    each byte order, and any extra stored [`Form`] of it) into *grams*: every
//!    8-byte chunk at offsets that are multiples of 8 for large forms (16-bit
//!    tables: four entries), and every 3-byte window at every offset for small
//!    forms (under [`SMALL_FORM_BYTES`], the 256-byte 8-bit tables). Grams that
//!    a formula predicts are left out: steps that repeat with period 1 or 2 (a
//!    constant run, a count, an alternation such as `0 1 1 2 2 3`), and for
//!    small grams steps of -1, 0 or +1 (a slow ramp). Binaries hold such runs
//!    in many unrelated tables, so they are no evidence of an actlut table.
//!    A small form left with fewer than [`MIN_SMALL_GRAMS`] grams (every
//!    three entries of `elu_fp8_e5m2fnuz` are a run or a slow ramp) is also
//!    indexed by its 8-byte windows at every offset that are neither a
//!    progression nor periodic.
//! 2. **Scan.** The artifact is read once, in blocks, with a window that keeps
//!    the last table length of bytes, so memory does not grow with the file
//!    ([`Index::scan_reader`]). At *every* byte offset the 8-byte and the 3-byte
//!    value there are looked up (a one-word Bloom filter, then a hash table of
//!    exact keys). Every hit implies a table start (its offset minus the gram's
//!    place in the table). Large grams that more than one reference holds (the
//!    NaN entries of every table of a format) are not keys, and a start of a
//!    large form needs [`MIN_VOTES_LARGE`] hits.
//! 3. **Verification.** Each distinct (form, byte order, start) is compared
//!    with the reference entry by entry, over the part of it that lies inside
//!    the file. Its *evidence* is the number of matching *surprises*: entries
//!    `j` whose step `e[j] - e[j-1]` differs from both steps before it, with
//!    entries `j-3` to `j` all equal to the reference's (in a small form, too
//!    short for that, any change of step, entries `j-2` to `j`). Runs, counts
//!    and alternations have no surprises; random entries match one with
//!    probability 2^-64 (16-bit) or 2^-24 (8-bit). A candidate with at least
//!    [`MIN_EVIDENCE_WORDS`] surprises (16-bit words; [`MIN_EVIDENCE_LARGE`]
//!    for a large form of single bytes) and [`MIN_MATCHING_LARGE`] matching
//!    entries, or [`MIN_EVIDENCE_SMALL`] and [`MIN_MATCHING_SMALL`]
//!    (8-bit; and [`MIN_INFORMATIVE_SMALL`] matching entries other than the
//!    table's most common value, a saturated output), is reported as
//!    - [`Verdict::Intact`]: every entry equals the reference;
//!    - [`Verdict::Modified`]: the whole table is in the file but some entries
//!      differ (how many, and the first few positions);
//!    - [`Verdict::Truncated`]: the table runs past the start or the end of
//!      the file (how much of it is present, and how much of that differs).
//!
//!    Candidates are compared in order of hits, one that an intact copy
//!    overlaps is skipped, and the comparisons stop at [`BUDGET_PER_BYTE`]
//!    entries per input byte ([`Report::too_many`]), so time stays linear.
//!    Overlapping candidates keep the one with the most matching entries.
//!
//! So a copy is reported as long as any part of it keeps a gram, eight
//! surprises and 256 bytes in place: four flipped entries, a fifth or half of
//! the entries changed at random, or a cut-off copy all leave thousands of
//! them. What is not reported alone is a part of a table that a formula
//! predicts (the constant, counting and halving regions), which binaries hold
//! for unrelated reasons.
//!
//! The scan also looks for the SHA-256 of every known table stored raw, as
//! actlut's manifest (`actlut::manifest::TABLES`) and the `*_SHA256` constants
//! store it: an artifact that names a table by its hash must carry that table
//! intact ([`Report::problems`]).
//!
//! **Compact stored forms.** A 16-bit table that actlut's `compact` feature
//! embeds as its stored form ([`Reference::with_compact`]) is found by its
//! 4-byte key windows and its bytes whatever its header holds, and by its `ACTLUTC1`
//! header; a changed byte anywhere in it, a compact form of an unknown table
//! and an invalid one are problems ([`compact`] says how, and with what
//! evidence).
//!
//! **Detection by table size.** Tables of [`MIN_CONTENT_ENTRIES`] (256)
//! entries or more (f16, bf16, every fp8) are found by their content alone,
//! intact, modified or truncated. FP6 (64 entries) and FP4 (16 entries)
//! tables are too short to tell from chance by content, and are below the
//! detection threshold: the scan looks for their exact bytes, and reports
//! one only when the artifact names it by its SHA-256. A named one present
//! byte for byte is intact; otherwise it is [`ListedStatus::Missing`] (a
//! problem). An unnamed one gives no verdict, changed or not.
//!
//! ```
//! use actlut_audit::{Index, Reference, Verdict};
//! use actlut_codegen::{Format, Function};
//!
//! let index = Index::new(vec![Reference::generate(Function::Tanh, Format::Fp8E4M3)]);
//! let mut artifact = vec![0u8; 1000];
//! let table = actlut_codegen::table_bytes_le(Format::Fp8E4M3,
//!     &actlut_codegen::table(Function::Tanh, Format::Fp8E4M3));
//! artifact[300..556].copy_from_slice(&table);
//! artifact[400] ^= 0x10; // one entry changed
//! let report = index.scan(&artifact);
//! assert_eq!(report.found.len(), 1);
//! assert_eq!(report.found[0].offset, 300);
//! assert_eq!(report.found[0].verdict, Verdict::Modified);
//! assert_eq!(report.found[0].differing, 1);
//! assert_eq!(report.found[0].names, ["tanh_fp8_e4m3"]);
//! ```

use std::collections::HashMap;
use std::io::Read;
use std::string::{String, ToString};
use std::vec::Vec;
use std::{format, vec};

use actlut_codegen::lock::Entry;
use actlut_codegen::{Format, Function};

pub mod compact;
use compact::{CompactDetail, Decoded, FoundBy};

/// Bytes of a gram of a large form: four 16-bit entries.
pub const LARGE_GRAM: usize = 8;
/// Bytes of a gram of a small form (an 8-bit table): three entries.
pub const SMALL_GRAM: usize = 3;
/// Forms shorter than this are indexed with small grams at every offset.
pub const SMALL_FORM_BYTES: usize = 1024;
/// Matching surprises a candidate of a large form of single bytes (a compact
/// stored form) needs to be reported: one of its surprises spans only four
/// bytes, so it is far weaker evidence than a 16-bit table's.
pub const MIN_EVIDENCE_LARGE: usize = 8;
/// Matching surprises a candidate of a large form of 16-bit words (a 16-bit
/// table) needs to be reported. Few, so that a short unmodified run of a
/// table (a few hundred bytes) is reported; on real binaries no such
/// candidate matched more than one (see the README), and in random bytes
/// one surprise matches with probability 2^-64.
pub const MIN_EVIDENCE_WORDS: usize = 3;
/// Matching surprises a candidate of a small form needs to be reported.
pub const MIN_EVIDENCE_SMALL: usize = 6;
/// Matching entries a candidate of a large form needs to be reported (256
/// bytes of a 16-bit table).
pub const MIN_MATCHING_LARGE: usize = 128;
/// Matching entries a candidate of a small form needs to be reported (half
/// of an 8-bit table: a quarter let a saturating table of small integers in
/// a codec library pass as `softsign_fp8_e5m2fnuz`, its identity part and
/// eight changes of step matching).
pub const MIN_MATCHING_SMALL: usize = 128;
/// Of those, the matching entries other than the form's most common value
/// (a saturated output) a candidate of a small form needs: a fill of that
/// value is no evidence.
pub const MIN_INFORMATIVE_SMALL: usize = 64;
/// Tables of fewer entries than this (FP6: 64, FP4: 16) are *below the
/// detection threshold*: too short to tell from chance by their content, they
/// are not searched by content at all. Their exact bytes are looked for, and
/// reported only when the artifact names the table by its SHA-256 (the
/// manifest): then it is [`ListedStatus::Intact`] when present byte for byte
/// and [`ListedStatus::Missing`] otherwise.
pub const MIN_CONTENT_ENTRIES: usize = 256;
/// A small form with fewer 3-byte grams than this (a table whose every
/// three entries are a run or a slow ramp, such as `elu_fp8_e5m2fnuz`) is
/// also indexed by its 8-byte windows at every offset that are neither a
/// progression nor periodic.
pub const MIN_SMALL_GRAMS: usize = 8;
/// Gram hits a candidate of a large form needs before it is compared with
/// its reference. One would let a few more short runs of 16-bit tables be
/// found, but the 16-bit code tables of character-set converters (glibc's
/// `gconv/GBK.so`) then hit so many starts that the comparisons exceed
/// [`BUDGET_PER_BYTE`].
pub const MIN_VOTES_LARGE: u32 = 2;
/// Bytes read at a time by [`Index::scan_reader`].
pub const BLOCK_BYTES: usize = 1 << 20;
/// A gram found at more places than this (in all forms together) is dropped
/// from the index: it is too common to point at one table.
const MAX_SITES: usize = 64;
/// Reported candidates per file beyond which the scan stops verifying
/// ([`Report::too_many`]).
pub const MAX_FOUND: usize = 1 << 16;
/// Entries the verification may compare per byte of input (plus a
/// [`BUDGET_ALLOWANCE`]): the bound that keeps time linear even for an input
/// crafted to be all near-table fragments ([`Report::too_many`]). Real
/// binaries use a small fraction of it (see the README).
pub const BUDGET_PER_BYTE: u64 = 64;
/// Entries the verification may compare on top of [`BUDGET_PER_BYTE`]: 64
/// whole 16-bit tables.
pub const BUDGET_ALLOWANCE: u64 = 64 * 65_536;
/// Entries listed in [`Found::first_differences`].
pub const FIRST_DIFFERENCES: usize = 8;
/// The form label of a table's own bytes.
pub const TABLE_FORM: &str = "table";
/// The form label of a compact stored form ([`Reference::with_compact`]).
pub const COMPACT_FORM: &str = "compact";

/// The byte order in which a table is stored in an artifact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ByteOrder {
    /// Little-endian 16-bit entries (x86, ARM, RISC-V, wasm, …).
    Little,
    /// Big-endian 16-bit entries (s390x, big-endian PowerPC, …).
    Big,
    /// One byte per entry, the same in either order.
    Bytes,
}

impl ByteOrder {
    /// `le`, `be` or `u8`.
    pub const fn short_name(self) -> &'static str {
        match self {
            ByteOrder::Little => "le",
            ByteOrder::Big => "be",
            ByteOrder::Bytes => "u8",
        }
    }
}

/// An extra stored form of a table (for example a compact encoding): a known
/// byte string that an artifact may hold instead of, or besides, the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Form {
    /// What it is (`compact-pool`, …), shown in reports.
    pub label: String,
    /// Width in bytes of its words (1 or 2): 2-byte words are searched in
    /// both byte orders.
    pub unit: usize,
    /// Its bytes, with 2-byte words little-endian.
    pub bytes_le: Vec<u8>,
    /// SHA-256 of [`bytes_le`](Self::bytes_le).
    pub sha256: [u8; 32],
    /// A compact stored form ([`Reference::with_compact`]): searched by its
    /// key windows and by its header, and compared byte for byte (see
    /// [`compact`]).
    pub compact: bool,
}

/// A table to look for: its names (more than one when several tables have the
/// same bytes: the names are aliases of the hash), its format, its
/// little-endian bytes and any extra stored forms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    /// Every name of these bytes, in lock order.
    pub names: Vec<String>,
    /// The format (both tables of an alias group have it).
    pub format: Format,
    /// The little-endian bytes.
    pub bytes_le: Vec<u8>,
    /// SHA-256 of [`bytes_le`](Self::bytes_le).
    pub sha256: [u8; 32],
    /// Other stored forms of the same table, searched as well.
    pub extra: Vec<Form>,
}

impl Reference {
    /// A reference from a table's name, format and little-endian bytes.
    ///
    /// # Panics
    ///
    /// If `bytes_le` is not `format.table_bytes()` long.
    pub fn new(name: String, format: Format, bytes_le: Vec<u8>) -> Reference {
        assert_eq!(bytes_le.len(), format.table_bytes(), "{name}: wrong size");
        Reference {
            names: vec![name],
            format,
            sha256: actlut_codegen::sha256(&bytes_le),
            bytes_le,
            extra: Vec::new(),
        }
    }

    /// The table of `function` over `format`, generated by the reference math.
    pub fn generate(function: Function, format: Format) -> Reference {
        let table = actlut_codegen::table(function, format);
        Reference::new(
            actlut_codegen::table_name(function, format),
            format,
            actlut_codegen::table_bytes_le(format, &table),
        )
    }

    /// Every table actlut can generate, with identical tables merged into one
    /// reference with several names. About 2.2 million evaluations: well under
    /// a second in an optimized build.
    pub fn generate_all() -> Vec<Reference> {
        let mut all = Vec::new();
        for (function, format) in actlut_codegen::table_pairs() {
            all.push(Reference::generate(function, format));
        }
        merge_aliases(all)
    }

    /// Adds an extra stored form of this table, searched like the table.
    ///
    /// # Panics
    ///
    /// If `unit` is not 1 or 2, or `bytes_le` is not a whole number of units
    /// of at least three units.
    pub fn with_form(mut self, label: &str, unit: usize, bytes_le: Vec<u8>) -> Reference {
        assert!(unit == 1 || unit == 2, "{label}: unit {unit}");
        assert!(
            bytes_le.len().is_multiple_of(unit) && bytes_le.len() >= 3 * unit,
            "{label}: {} bytes",
            bytes_le.len()
        );
        self.extra.push(Form {
            label: label.to_string(),
            unit,
            sha256: actlut_codegen::sha256(&bytes_le),
            bytes_le,
            compact: false,
        });
        self
    }

    /// Adds the compact stored form of this 16-bit table (what actlut's
    /// `compact` feature embeds instead of the table), labelled
    /// [`COMPACT_FORM`]: it is found by content and by its header, and
    /// compared byte for byte (see [`compact`]).
    ///
    /// # Errors
    ///
    /// If the table is not 16-bit, or `stored` is not a valid stored form
    /// ([`CompactRef::from_bytes`](actlut_codegen::compact::CompactRef::from_bytes))
    /// that decodes to this table's 65,536 entries.
    pub fn with_compact(mut self, stored: Vec<u8>) -> Result<Reference, String> {
        let name = self.names.join(" = ");
        if self.format.entries() != actlut_codegen::compact::ENTRIES {
            return Err(format!("{name}: only 16-bit tables have a compact form"));
        }
        let view = actlut_codegen::compact::CompactRef::from_bytes(&stored)
            .map_err(|e| format!("{name}: not a valid compact stored form: {e}"))?;
        let decoded = compact::decode_all(&view);
        let entries: Vec<u16> = self
            .bytes_le
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        if let (n @ 1.., first) = compact::compare(&decoded, &entries) {
            return Err(format!(
                "{name}: the compact stored form decodes to {n} other entries (first at input {})",
                first[0]
            ));
        }
        self.extra.push(Form {
            label: COMPACT_FORM.to_string(),
            unit: 1,
            sha256: actlut_codegen::sha256(&stored),
            bytes_le: stored,
            compact: true,
        });
        Ok(self)
    }
}

/// Merges references with identical bytes into one with all their names (the
/// order of first appearance is kept).
pub fn merge_aliases(refs: Vec<Reference>) -> Vec<Reference> {
    let mut out: Vec<Reference> = Vec::new();
    for r in refs {
        match out
            .iter_mut()
            .find(|o| o.sha256 == r.sha256 && o.format == r.format)
        {
            Some(o) => o.names.extend(r.names),
            None => out.push(r),
        }
    }
    out
}

/// What a found copy is, against its reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The whole form is in the file, bit for bit the reference.
    Intact,
    /// The whole form is in the file, and [`Found::differing`] entries differ.
    Modified,
    /// The form runs past the start or the end of the file: only
    /// [`Found::len`] of its bytes are present ([`Found::differing`] of the
    /// present entries differ).
    Truncated,
    /// A valid compact stored form with actlut's header whose entries are
    /// none of the known tables' (fewer than half equal to the nearest). Its
    /// [`Found::names`] are empty and its [`Found::format`] is the nearest
    /// table's.
    Unknown,
    /// actlut's compact header (`ACTLUTC1` and plausible fields) on bytes
    /// that are not a valid stored form. Its [`Found::names`] are empty and
    /// its [`Found::format`] is [`Format::F16`] (a compact form is of a
    /// 16-bit format; which one, nothing says).
    Invalid,
}

impl Verdict {
    /// `intact`, `modified` or `truncated`.
    pub const fn name(self) -> &'static str {
        match self {
            Verdict::Intact => "intact",
            Verdict::Modified => "modified",
            Verdict::Truncated => "truncated",
            Verdict::Unknown => "unknown",
            Verdict::Invalid => "invalid",
        }
    }
}

/// A copy of a known table (or of one of its stored forms) found in an
/// artifact.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// File offset of the first present byte (the table's first byte unless
    /// it is cut off at the start of the file).
    pub offset: u64,
    /// Present bytes.
    pub len: usize,
    /// Offset, inside the form, of the first present byte (0 unless cut off at
    /// the start of the file).
    pub form_offset: usize,
    /// Length of the whole form in bytes.
    pub form_len: usize,
    /// The byte order it is stored in.
    pub order: ByteOrder,
    /// The names of the reference it matches (or was changed from).
    pub names: Vec<String>,
    /// The format.
    pub format: Format,
    /// [`TABLE_FORM`], or the label of an extra [`Form`].
    pub form: String,
    /// Intact, modified or truncated.
    pub verdict: Verdict,
    /// Present entries that differ from the reference.
    pub differing: usize,
    /// Present entries equal to the reference.
    pub matching: usize,
    /// Matching surprises (see the module documentation); 0 for a table
    /// below [`MIN_CONTENT_ENTRIES`], found by its exact bytes.
    pub evidence: usize,
    /// The first few differing entries (indices into the form).
    pub first_differences: Vec<usize>,
    /// SHA-256 of the found bytes in little-endian order, when the whole form
    /// is present (for an intact copy, the reference's hash).
    pub sha256: Option<[u8; 32]>,
    /// For a compact stored form: how it was found, which parts differ, and
    /// what it decodes to. For one found by content, [`differing`],
    /// [`matching`] and [`first_differences`] count bytes and [`evidence`]
    /// matching key windows; for one found by its header only, they
    /// count decoded entries.
    ///
    /// [`differing`]: Self::differing
    /// [`matching`]: Self::matching
    /// [`first_differences`]: Self::first_differences
    /// [`evidence`]: Self::evidence
    pub compact: Option<CompactDetail>,
}

impl Found {
    /// Entries in the whole form.
    pub fn form_entries(&self) -> usize {
        self.matching + self.differing + self.missing_entries()
    }

    /// Entries of the form that lie outside the file.
    pub fn missing_entries(&self) -> usize {
        let unit = if self.order == ByteOrder::Bytes { 1 } else { 2 };
        (self.form_len - self.len) / unit
    }

    /// The found copy's status against `lock` (only an intact table form can
    /// be in the lock).
    pub fn lock_status(&self, lock: &[Entry]) -> LockStatus {
        let sha = match &self.compact {
            // A compact form's identity is that of the entries it decodes to.
            Some(c) => c.logical_sha256,
            None => self.sha256,
        };
        let Some(sha) = sha.filter(|_| self.verdict == Verdict::Intact) else {
            return LockStatus::NotInLock;
        };
        if self.form != TABLE_FORM && self.compact.is_none() {
            return LockStatus::InLock;
        }
        let mut expected = None;
        for name in &self.names {
            if let Some(e) = lock.iter().find(|e| &e.name == name) {
                if e.sha256 == sha {
                    return LockStatus::InLock;
                }
                expected.get_or_insert(e.sha256);
            }
        }
        match expected {
            Some(expected) => LockStatus::Differs { expected },
            None => LockStatus::NotInLock,
        }
    }

    /// One line describing what is wrong with this copy, or `None` when it is
    /// intact and in `lock`.
    pub fn problem(&self, lock: &[Entry]) -> Option<String> {
        let at = format!("{} at {:#010x}", self.label(), self.offset);
        match self.verdict {
            Verdict::Intact => match self.lock_status(lock) {
                LockStatus::InLock => None,
                LockStatus::Differs { expected } => Some(format!(
                    "{at}: not in the lock (the lock has {})",
                    actlut_codegen::hex(&expected)
                )),
                LockStatus::NotInLock => Some(format!("{at}: not in the lock (no entry)")),
            },
            _ => Some(format!("{at}: {}", self.describe())),
        }
    }

    /// The names joined with ` = `, and the form when it is not the table.
    pub fn label(&self) -> String {
        let names = if self.names.is_empty() {
            "unknown".to_string()
        } else {
            self.names.join(" = ")
        };
        if self.form == TABLE_FORM {
            names
        } else {
            format!("{names} ({})", self.form)
        }
    }

    /// `intact`, `modified: 4 of 65536 entries differ (first at …)` or
    /// `truncated: 65536 of 131072 bytes present (…)`.
    pub fn describe(&self) -> String {
        if let Some(c) = &self.compact {
            return self.describe_compact(c);
        }
        let firsts = || {
            let list: Vec<String> = self
                .first_differences
                .iter()
                .map(|j| j.to_string())
                .collect();
            let more = if self.differing > self.first_differences.len() {
                ", …"
            } else {
                ""
            };
            format!("entries {}{more}", list.join(", "))
        };
        match self.verdict {
            Verdict::Intact => "intact".to_string(),
            Verdict::Modified => format!(
                "modified: {} of {} entries differ ({})",
                self.differing,
                self.form_entries(),
                firsts()
            ),
            Verdict::Truncated => {
                let side = if self.form_offset > 0 {
                    "the start of the file cuts it"
                } else {
                    "the end of the file cuts it"
                };
                let diff = if self.differing == 0 {
                    "all present entries intact".to_string()
                } else {
                    format!("{} present entries differ ({})", self.differing, firsts())
                };
                format!(
                    "truncated: {} of {} bytes present ({side}; {diff})",
                    self.len, self.form_len
                )
            }
            Verdict::Unknown | Verdict::Invalid => self.verdict.name().to_string(),
        }
    }

    fn describe_compact(&self, c: &CompactDetail) -> String {
        let list = |what: &str| {
            let list: Vec<String> = self
                .first_differences
                .iter()
                .map(|j| j.to_string())
                .collect();
            let more = if self.differing > self.first_differences.len() {
                ", …"
            } else {
                ""
            };
            format!("{what} {}{more}", list.join(", "))
        };
        let side = if self.form_offset > 0 {
            "the start of the file cuts it"
        } else {
            "the end of the file cuts it"
        };
        match (self.verdict, c.found_by) {
            (Verdict::Intact, _) if c.other_packing => format!(
                "intact: the table's 65536 entries in another packing (stored form {} bytes, \
                 not the compact lock's)",
                self.form_len
            ),
            (Verdict::Intact, _) => "intact".to_string(),
            (Verdict::Modified, FoundBy::Content) => format!(
                "modified: {} of {} bytes differ ({}; {}); {}",
                self.differing,
                self.form_len,
                c.parts(),
                list("bytes"),
                c.decoded_text()
            ),
            (Verdict::Modified, FoundBy::Header) => {
                format!("modified: a valid stored form, {}", c.decoded_text())
            }
            (Verdict::Truncated, FoundBy::Content) => {
                let diff = if self.differing == 0 {
                    "all present bytes intact".to_string()
                } else {
                    format!(
                        "{} present bytes differ ({}; {})",
                        self.differing,
                        c.parts(),
                        list("bytes")
                    )
                };
                format!(
                    "truncated: {} of {} bytes present ({side}; {diff})",
                    self.len, self.form_len
                )
            }
            (Verdict::Truncated, FoundBy::Header) => format!(
                "truncated: its header declares {} bytes, {} present ({side})",
                self.form_len, self.len
            ),
            (Verdict::Unknown, _) => {
                let nearest = match &c.nearest {
                    Some((names, m)) => {
                        format!(
                            "; nearest {}: {m} of 65536 entries equal",
                            names.join(" = ")
                        )
                    }
                    None => String::new(),
                };
                format!(
                    "unknown: a valid compact stored form of {} bytes with actlut's header \
                     that decodes to none of the known tables{nearest}",
                    self.form_len
                )
            }
            (Verdict::Invalid, _) => format!(
                "invalid: actlut's compact header on bytes that are not a stored form ({})",
                c.decoded_text()
            ),
        }
    }
}

/// How a found table relates to a lock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LockStatus {
    /// The lock has an entry for one of its names with its hash.
    InLock,
    /// The lock has entries for its names, with other hashes: the table in the
    /// artifact is not the one the lock describes.
    Differs {
        /// The lock's hash for the first name.
        expected: [u8; 32],
    },
    /// The lock has no entry for any of its names (or the copy is not intact).
    NotInLock,
}

impl LockStatus {
    /// Whether the table is exactly the lock's.
    pub fn is_in_lock(&self) -> bool {
        matches!(self, LockStatus::InLock)
    }
}

/// A table's SHA-256 found stored raw in the artifact (actlut's manifest, or a
/// `*_SHA256` constant): the artifact names that table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    /// The names with this hash.
    pub names: Vec<String>,
    /// The hash.
    pub sha256: [u8; 32],
    /// File offset of its first occurrence.
    pub offset: u64,
    /// Whether the table it names is in the artifact.
    pub status: ListedStatus,
}

/// Whether a table that an artifact names by its hash is in the artifact.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ListedStatus {
    /// An intact copy with that hash is present.
    Intact,
    /// The best copy found under one of its names is not intact: its
    /// [`Verdict`], differing entries and present bytes.
    Damaged {
        /// Modified or truncated (or an intact copy of other bytes).
        verdict: Verdict,
        /// Differing entries of that copy.
        differing: usize,
        /// Present bytes of that copy.
        present: usize,
        /// Bytes of the whole form.
        of: usize,
    },
    /// No copy of it at all.
    Missing,
}

impl Listed {
    /// `None` when the named table is intact, else a line such as
    /// `manifest lists gelu_f16, but its bytes are modified (4 entries)`
    /// ([`offset`](Self::offset) says where the hash is).
    pub fn problem(&self) -> Option<String> {
        let names = self.names.join(" = ");
        let what = match self.status {
            ListedStatus::Intact => return None,
            ListedStatus::Damaged {
                verdict: Verdict::Truncated,
                present,
                of,
                ..
            } => format!("truncated ({present} of {of} bytes present)"),
            ListedStatus::Damaged {
                verdict: Verdict::Intact,
                ..
            } => "other bytes (an intact copy of a table with another hash)".to_string(),
            ListedStatus::Damaged { differing, .. } => format!(
                "modified ({differing} entr{})",
                if differing == 1 { "y" } else { "ies" }
            ),
            ListedStatus::Missing => "not in the file".to_string(),
        };
        Some(format!("manifest lists {names}, but its bytes are {what}"))
    }
}

/// What [`Index::scan`] found in one artifact.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Bytes scanned.
    pub bytes: u64,
    /// Every copy found, by increasing offset.
    pub found: Vec<Found>,
    /// Every known table hash found stored raw, with whether its table is here.
    pub listed: Vec<Listed>,
    /// More than [`MAX_FOUND`] candidates were reported, or verifying them
    /// would have compared more than [`BUDGET_PER_BYTE`] entries per byte of
    /// input: the scan stopped verifying them (a problem: exit status 1).
    pub too_many: bool,
    /// Candidate table starts compared with their reference (a measure of
    /// the work the scan did).
    pub candidates: u64,
    /// Entries compared while verifying them.
    pub compared: u64,
    /// The most matching key windows of a compact candidate that was
    /// compared in full and not reported (see [`compact::is_evidence`]).
    pub compact_rejected_chunks: usize,
    /// The most matching evidence bytes, per mille of those present, of a
    /// compact candidate wholly in the file, with a matching key window,
    /// compared in full and not reported: the margin of
    /// [`compact::MIN_MATCHING_PER_MILLE`] on this input. Candidates whose
    /// sampled bytes ([`compact::SAMPLES`]) match less than
    /// [`compact::MIN_SAMPLED_PER_MILLE`] are not compared in full.
    pub compact_rejected_share: u32,
    /// The same for candidates that an end of the file cuts off: the margin
    /// of [`compact::MIN_CUT_MATCHING_PER_MILLE`].
    pub compact_rejected_cut_share: u32,
}

impl Report {
    /// Every problem, one line each: a copy that is modified, truncated or not
    /// in `lock`, and a table named by its hash that is not here intact. An
    /// audit passes when this is empty.
    pub fn problems(&self, lock: &[Entry]) -> Vec<String> {
        let mut out: Vec<String> = self.found.iter().filter_map(|f| f.problem(lock)).collect();
        out.extend(self.listed.iter().filter_map(Listed::problem));
        if self.too_many {
            out.push(format!(
                "too many table candidates (over {MAX_FOUND} found, or over {BUDGET_PER_BYTE} entries compared per byte): the scan stopped verifying them"
            ));
        }
        out
    }
}

/// One byte order of one form of one reference, as stored in artifacts.
struct Image {
    reference: usize,
    /// 0: the table; `i`: `extra[i - 1]`.
    form: usize,
    order: ByteOrder,
    unit: usize,
    bytes: Vec<u8>,
    /// Bit `j`: entry `j` is a surprise (see [`is_surprise`]).
    change_points: Vec<u64>,
    small: bool,
    /// Below [`MIN_CONTENT_ENTRIES`]: found by its exact bytes only, and
    /// reported only when listed.
    tiny: bool,
    /// The most common entry (of a small form): matching entries equal to it
    /// do not count towards [`MIN_INFORMATIVE_SMALL`], so that a fill of a
    /// table's saturated value is no evidence.
    modal: u16,
    /// A compact stored form ([`Form::compact`]).
    compact: bool,
    /// Of a compact form: bit `o`: the window at byte `o` is a key.
    indexed: Vec<u64>,
    /// Of a compact form: the offsets of the bytes that lie in a key
    /// window, ascending.
    covered: Vec<u32>,
}

/// The keys of one compact stored form ([`Index::compact_keys`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompactKeys {
    /// The table's names.
    pub name: String,
    /// Bytes of the stored form.
    pub bytes: usize,
    /// Windows that are keys.
    pub keys: usize,
    /// Bytes that lie in a key window (the form's evidence).
    pub covered: usize,
    /// The fewest bytes an attacker who knows the keys changes to hide the
    /// form from the search by content ([`compact::hiding_cost`]).
    pub hiding_cost: usize,
}

impl Image {
    fn is_key(&self, off: usize) -> bool {
        self.indexed[off / 64] >> (off % 64) & 1 == 1
    }

    /// Of a compact form: the offsets of its keys, ascending.
    fn key_offsets(&self) -> Vec<usize> {
        (0..self.bytes.len()).filter(|&o| self.is_key(o)).collect()
    }

    fn entries(&self) -> usize {
        self.bytes.len() / self.unit
    }

    fn entry(&self, j: usize) -> u16 {
        entry_at(&self.bytes, j * self.unit, self.unit, self.order)
    }

    fn is_change_point(&self, j: usize) -> bool {
        self.change_points[j / 64] >> (j % 64) & 1 == 1
    }
}

/// The most common entry of `bytes` (the smallest of equally common ones).
fn modal_entry(bytes: &[u8], unit: usize) -> u16 {
    let mut counts: HashMap<u16, usize> = HashMap::new();
    for j in 0..bytes.len() / unit {
        *counts
            .entry(entry_at(bytes, j * unit, unit, ByteOrder::Little))
            .or_insert(0) += 1;
    }
    counts
        .into_iter()
        .max_by_key(|&(v, n)| (n, core::cmp::Reverse(v)))
        .map_or(0, |(v, _)| v)
}

fn entry_at(bytes: &[u8], at: usize, unit: usize, order: ByteOrder) -> u16 {
    match (unit, order) {
        (1, _) => u16::from(bytes[at]),
        (_, ByteOrder::Big) => u16::from_be_bytes([bytes[at], bytes[at + 1]]),
        _ => u16::from_le_bytes([bytes[at], bytes[at + 1]]),
    }
}

/// Whether the last step of `e` (four entries) differs from both steps
/// before it: a surprise that neither a constant step (a run, a count)
/// nor an alternating one (`0 1 1 2 2 3`, the halving of small inputs)
/// predicts.
fn is_surprise(e: &[u16; 4], mask: u16) -> bool {
    let d = |i: usize| e[i + 1].wrapping_sub(e[i]) & mask;
    d(2) != d(1) && d(2) != d(0)
}

/// Whether the steps of `values` repeat with period 1 or 2 (a run, a
/// count, an alternation), wrapping at `mask + 1`.
fn is_periodic(values: &[u16], mask: u16) -> bool {
    let d: Vec<u16> = values
        .windows(2)
        .map(|w| w[1].wrapping_sub(w[0]) & mask)
        .collect();
    d.windows(3).all(|w| w[2] == w[0])
}

/// Whether the steps of a three-entry gram are both -1, 0 or +1 (a slow ramp,
/// which binaries hold in many unrelated tables).
fn is_slow(values: &[u16], mask: u16) -> bool {
    values.windows(2).all(|w| {
        let d = w[1].wrapping_sub(w[0]) & mask;
        d <= 1 || d == mask
    })
}

/// Whether `values` form an arithmetic progression (wrapping at `mask + 1`).
fn is_progression(values: &[u16], mask: u16) -> bool {
    let step = values[1].wrapping_sub(values[0]) & mask;
    values
        .windows(2)
        .all(|w| w[1].wrapping_sub(w[0]) & mask == step)
}

#[derive(Clone, Copy, Debug)]
struct Site {
    /// An image, or [`NEEDLE`] for a table hash.
    image: u32,
    /// The gram's byte offset in the image, or the needle's index.
    offset: u32,
}

const NEEDLE: u32 = u32::MAX;

/// splitmix64's finalizer.
#[inline(always)]
fn mix(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Exact keys (grams, hash prefixes) to sites, behind a one-word Bloom filter.
struct Grams {
    filter: Vec<u64>,
    shift: u32,
    slots: Vec<u32>,
    mask: usize,
    keys: Vec<u64>,
    ranges: Vec<u32>,
    sites: Vec<Site>,
}

impl Grams {
    /// Groups `pairs` by key. A gram found in more than one reference (the
    /// NaN and infinity entries that every table of a format shares, runs two
    /// functions have in common) is dropped: it points at no one table, and
    /// would make every table a candidate wherever any of them is.
    /// Small grams (`reference_of` is `None`) are too few to drop: their
    /// candidates cost 256 comparisons each.
    fn new(mut pairs: Vec<(u64, Site)>, reference_of: Option<&[usize]>) -> Grams {
        pairs.sort_unstable_by_key(|&(k, s)| (k, s.image, s.offset));
        let mut keys = Vec::new();
        let mut ranges = vec![0u32];
        let mut sites = Vec::new();
        let mut i = 0;
        while i < pairs.len() {
            let k = pairs[i].0;
            let mut j = i;
            while j < pairs.len() && pairs[j].0 == k {
                j += 1;
            }
            let group = &pairs[i..j];
            let mut grams = group.iter().filter(|(_, s)| s.image != NEEDLE);
            let one_reference = reference_of.is_none_or(|of| {
                let first = grams.clone().next().map(|(_, s)| of[s.image as usize]);
                grams
                    .clone()
                    .all(|(_, s)| Some(of[s.image as usize]) == first)
            });
            let keep_grams = one_reference && grams.by_ref().count() <= MAX_SITES;
            let kept = group
                .iter()
                .filter(|(_, s)| s.image == NEEDLE || keep_grams);
            let before = sites.len();
            sites.extend(kept.map(|&(_, s)| s));
            if sites.len() > before {
                keys.push(k);
                ranges.push(sites.len() as u32);
            }
            i = j;
        }
        // 32 bits per key: the filter answers for every offset of the
        // input, and a false hit costs a probe of the hash table.
        let words = (keys.len() * 32 / 64).next_power_of_two().max(64);
        let shift = 64 - words.trailing_zeros();
        let mut filter = vec![0u64; words];
        let slots_len = (keys.len() * 2).next_power_of_two().max(16);
        let mut slots = vec![0u32; slots_len];
        let mask = slots_len - 1;
        let mut grams = Grams {
            filter: Vec::new(),
            shift,
            slots: Vec::new(),
            mask,
            keys: Vec::new(),
            ranges: Vec::new(),
            sites: Vec::new(),
        };
        for (n, &k) in keys.iter().enumerate() {
            let (word, m) = grams.filter_bits(k);
            filter[word] |= m;
            let mut s = mix(k) as usize & mask;
            while slots[s] != 0 {
                s = (s + 1) & mask;
            }
            slots[s] = n as u32 + 1;
        }
        grams.filter = filter;
        grams.slots = slots;
        grams.keys = keys;
        grams.ranges = ranges;
        grams.sites = sites;
        grams
    }

    #[inline(always)]
    fn maybe(&self, key: u64) -> bool {
        let (word, m) = self.filter_bits(key);
        self.filter[word] & m == m
    }

    /// One multiply: the word from the top bits, two bits from the middle.
    #[inline(always)]
    fn filter_bits(&self, key: u64) -> (usize, u64) {
        let h = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let m = (1 << ((h >> 24) & 63)) | (1 << ((h >> 30) & 63));
        ((h >> self.shift) as usize, m)
    }

    fn get(&self, key: u64) -> &[Site] {
        let mut s = mix(key) as usize & self.mask;
        loop {
            let n = self.slots[s];
            if n == 0 {
                return &[];
            }
            let n = n as usize - 1;
            if self.keys[n] == key {
                return &self.sites[self.ranges[n] as usize..self.ranges[n + 1] as usize];
            }
            s = (s + 1) & self.mask;
        }
    }
}

struct Needle {
    sha256: [u8; 32],
    names: Vec<String>,
}

/// The reference tables, cut into grams, ready to scan artifacts.
pub struct Index {
    refs: Vec<Reference>,
    images: Vec<Image>,
    large: Grams,
    /// The keys of compact stored forms ([`compact::KEY_BYTES`] each).
    compact: Grams,
    small: Grams,
    /// The first 8 bytes of every table below [`MIN_CONTENT_ENTRIES`].
    exact: Grams,
    needles: Vec<Needle>,
    max_len: usize,
    /// Every 16-bit reference's entries, to name what a compact stored form
    /// found by its header decodes to.
    known: Vec<compact::Known>,
    /// Random per index (per process): picks the bytes a compact candidate's
    /// sampled comparison looks at ([`compact::SAMPLES`]), which an attacker
    /// therefore cannot pick out to change.
    seed: u64,
}

fn swap16(bytes: &[u8]) -> Vec<u8> {
    bytes.chunks_exact(2).flat_map(|c| [c[1], c[0]]).collect()
}

fn key_le(bytes: &[u8]) -> u64 {
    let mut k = [0u8; 8];
    k[..bytes.len()].copy_from_slice(bytes);
    u64::from_le_bytes(k)
}

impl Index {
    /// Indexes `refs` (see [`Reference::generate_all`] and [`merge_aliases`]),
    /// and their hashes as names an artifact may list.
    pub fn new(refs: Vec<Reference>) -> Index {
        Index::with_lock(refs, &[])
    }

    /// [`Index::new`], and also the hashes of `lock` as names an artifact may
    /// list (a lock of another version may have other hashes).
    pub fn with_lock(refs: Vec<Reference>, lock: &[Entry]) -> Index {
        let mut images = Vec::new();
        for (r, reference) in refs.iter().enumerate() {
            let unit = reference.format.entry_bytes();
            let forms = core::iter::once((unit, &reference.bytes_le))
                .chain(reference.extra.iter().map(|f| (f.unit, &f.bytes_le)));
            for (form, (unit, bytes_le)) in forms.enumerate() {
                let orders: &[ByteOrder] = if unit == 2 {
                    &[ByteOrder::Little, ByteOrder::Big]
                } else {
                    &[ByteOrder::Bytes]
                };
                for &order in orders {
                    let bytes = if order == ByteOrder::Big {
                        swap16(bytes_le)
                    } else {
                        bytes_le.clone()
                    };
                    let mut image = Image {
                        reference: r,
                        form,
                        order,
                        unit,
                        small: bytes.len() < SMALL_FORM_BYTES,
                        tiny: form == 0 && reference.format.entries() < MIN_CONTENT_ENTRIES,
                        modal: modal_entry(&bytes, unit),
                        change_points: vec![0; bytes.len() / unit / 64 + 1],
                        compact: form > 0 && reference.extra[form - 1].compact,
                        indexed: Vec::new(),
                        covered: Vec::new(),
                        bytes,
                    };
                    let mask = if unit == 1 { 0xFF } else { 0xFFFF };
                    for j in 3..image.entries() {
                        let e = [
                            image.entry(j - 3),
                            image.entry(j - 2),
                            image.entry(j - 1),
                            image.entry(j),
                        ];
                        // A small form is too short to ask for four entries
                        // per surprise: a change of step (three entries) is
                        // one, and the half of its entries a candidate
                        // must match keeps alternations from passing.
                        let surprise = if image.small {
                            !is_progression(&e[1..], mask)
                        } else {
                            is_surprise(&e, mask)
                        };
                        if surprise {
                            image.change_points[j / 64] |= 1 << (j % 64);
                        }
                    }
                    images.push(image);
                }
            }
        }
        let mut large = Vec::new();
        let mut small = Vec::new();
        let mut exact = Vec::new();
        let mut compact_keys = Vec::new();
        for (i, image) in images.iter().enumerate() {
            let b = &image.bytes;
            let site = |offset: usize| Site {
                image: i as u32,
                offset: offset as u32,
            };
            if image.compact {
                for off in compact::key_offsets(b) {
                    compact_keys.push((key_le(&b[off..off + compact::KEY_BYTES]), site(off)));
                }
            } else if image.tiny {
                if b.len() >= LARGE_GRAM {
                    exact.push((key_le(&b[..LARGE_GRAM]), site(0)));
                }
            } else if image.small {
                let before = small.len();
                for off in 0..=b.len().saturating_sub(SMALL_GRAM) {
                    let g = &b[off..off + SMALL_GRAM];
                    let v = [u16::from(g[0]), u16::from(g[1]), u16::from(g[2])];
                    if !is_progression(&v, 0xFF) && !is_slow(&v, 0xFF) {
                        small.push((key_le(g), site(off)));
                    }
                }
                if small.len() - before < MIN_SMALL_GRAMS && image.unit == 1 {
                    for off in 0..=b.len().saturating_sub(LARGE_GRAM) {
                        let g = &b[off..off + LARGE_GRAM];
                        let v: Vec<u16> = g.iter().map(|&x| u16::from(x)).collect();
                        if !is_progression(&v, 0xFF) && !is_periodic(&v, 0xFF) {
                            large.push((key_le(g), site(off)));
                        }
                    }
                }
            } else {
                let per = LARGE_GRAM / image.unit;
                let mask = if image.unit == 1 { 0xFF } else { 0xFFFF };
                for off in (0..=b.len() - LARGE_GRAM).step_by(LARGE_GRAM) {
                    let v: Vec<u16> = (0..per)
                        .map(|k| entry_at(b, off + k * image.unit, image.unit, image.order))
                        .collect();
                    if !is_progression(&v, mask) && !is_periodic(&v, mask) {
                        large.push((key_le(&b[off..off + LARGE_GRAM]), site(off)));
                    }
                }
            }
        }
        let mut needles: Vec<Needle> = Vec::new();
        let mut add_needle = |sha256: [u8; 32], names: &[String]| match needles
            .iter_mut()
            .find(|n| n.sha256 == sha256)
        {
            Some(n) => {
                for name in names {
                    if !n.names.contains(name) {
                        n.names.push(name.clone());
                    }
                }
            }
            None => needles.push(Needle {
                sha256,
                names: names.to_vec(),
            }),
        };
        for r in &refs {
            add_needle(r.sha256, &r.names);
        }
        for e in lock {
            add_needle(e.sha256, core::slice::from_ref(&e.name));
        }
        for (n, needle) in needles.iter().enumerate() {
            large.push((
                key_le(&needle.sha256[..8]),
                Site {
                    image: NEEDLE,
                    offset: n as u32,
                },
            ));
        }
        // A header declares up to `MAX_STORED_BYTES`: keep that much behind.
        let max_len = images
            .iter()
            .map(|i| i.bytes.len())
            .chain([compact::MAX_STORED_BYTES])
            .max()
            .unwrap_or(0);
        let reference_of: Vec<usize> = images.iter().map(|i| i.reference).collect();
        let large = Grams::new(large, Some(&reference_of));
        // Compact forms may share keys with one another (one group): a
        // candidate of each is compared byte for byte, and of overlapping
        // ones the one with the most matching bytes is kept. This gives the
        // forms of similar tables (`gelu_bf16`, `gelu_tanh_bf16`) more keys.
        // A key found at more than `MAX_SITES` places is dropped.
        let group = vec![0; images.len()];
        let compact_grams = Grams::new(compact_keys, Some(&group));
        // The windows of each compact form that survived as keys.
        for (i, image) in images.iter_mut().enumerate() {
            if !image.compact {
                continue;
            }
            let mut bits = compact::offset_bits(image.bytes.len());
            for off in compact::key_offsets(&image.bytes) {
                let key = key_le(&image.bytes[off..off + compact::KEY_BYTES]);
                if compact_grams
                    .get(key)
                    .iter()
                    .any(|s| s.image == i as u32 && s.offset as usize == off)
                {
                    bits[off / 64] |= 1 << (off % 64);
                }
            }
            image.indexed = bits;
            let mut covered = Vec::new();
            for k in image.key_offsets() {
                let from = covered.last().map_or(k, |&c: &u32| k.max(c as usize + 1));
                covered.extend((from..k + compact::KEY_BYTES).map(|o| o as u32));
            }
            image.covered = covered;
        }
        let known = refs
            .iter()
            .enumerate()
            .filter(|(_, r)| r.format.entries() == actlut_codegen::compact::ENTRIES)
            .map(|(i, r)| compact::Known {
                reference: i,
                entries: r
                    .bytes_le
                    .chunks_exact(2)
                    .map(|c| u16::from_le_bytes([c[0], c[1]]))
                    .collect(),
            })
            .collect();
        Index {
            refs,
            large,
            compact: compact_grams,
            small: Grams::new(small, None),
            exact: Grams::new(exact, None),
            images,
            needles,
            max_len,
            known,
            seed: {
                use std::hash::BuildHasher;
                std::collections::hash_map::RandomState::new().hash_one(0x5EED_u64)
            },
        }
    }

    /// Keys of each compact stored form: its name, its length, how many
    /// of its windows are keys (a candidate needs [`compact::MIN_KEYS`] of
    /// them matching) and the fewest bytes that hide it
    /// ([`compact::hiding_cost`]).
    pub fn compact_keys(&self) -> Vec<CompactKeys> {
        self.images
            .iter()
            .filter(|i| i.compact)
            .map(|i| {
                let keys = i.key_offsets();
                let mut covered = 0;
                let mut until = 0;
                for &k in &keys {
                    covered += (k + compact::KEY_BYTES).saturating_sub(until.max(k));
                    until = k + compact::KEY_BYTES;
                }
                CompactKeys {
                    name: self.refs[i.reference].names.join(" = "),
                    bytes: i.bytes.len(),
                    keys: keys.len(),
                    covered,
                    hiding_cost: compact::hiding_cost(&keys),
                }
            })
            .collect()
    }

    /// The indexed references.
    pub fn references(&self) -> &[Reference] {
        &self.refs
    }

    /// Number of grams indexed (large and small), for diagnostics.
    pub fn grams(&self) -> (usize, usize) {
        (self.large.keys.len(), self.small.keys.len())
    }

    /// Every table in `data` (see [`Scanner`]).
    pub fn scan(&self, data: &[u8]) -> Report {
        let mut s = Scanner::new(self);
        for block in data.chunks(BLOCK_BYTES) {
            s.feed(block);
        }
        s.finish()
    }

    /// Every table in what `reader` yields, read in blocks of [`BLOCK_BYTES`]:
    /// memory stays bounded by the index, a block and two table lengths,
    /// whatever the size of the input.
    ///
    /// # Errors
    ///
    /// The reader's errors ([`std::io::ErrorKind::Interrupted`] is retried).
    pub fn scan_reader<R: Read>(&self, mut reader: R) -> std::io::Result<Report> {
        let mut s = Scanner::new(self);
        let mut block = vec![0u8; BLOCK_BYTES];
        loop {
            match reader.read(&mut block) {
                Ok(0) => return Ok(s.finish()),
                Ok(n) => s.feed(&block[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }
}

/// An artifact read piece by piece: [`feed`](Self::feed) it bytes in order,
/// then [`finish`](Self::finish). It keeps two table lengths of bytes behind
/// the scan position, so a table that straddles two pieces is found.
pub struct Scanner<'a> {
    index: &'a Index,
    buf: Vec<u8>,
    /// Absolute offset of `buf[0]`.
    base: u64,
    /// Next absolute position to probe.
    next: u64,
    /// Gram hits (votes) of every candidate still within reach.
    seen: HashMap<(u32, i64), u32>,
    pending: Vec<(u32, i64)>,
    found: Vec<Found>,
    listed: Vec<(usize, u64)>,
    /// Where each image below [`MIN_CONTENT_ENTRIES`] was first found byte
    /// for byte.
    exact: HashMap<u32, u64>,
    /// Offsets of `ACTLUTC1` not yet looked at.
    headers: Vec<u64>,
    /// Compact stored forms found by their header.
    by_header: Vec<Found>,
    /// See [`Report::compact_rejected_chunks`].
    compact_rejected_chunks: usize,
    /// See [`Report::compact_rejected_share`].
    compact_rejected_share: u32,
    /// See [`Report::compact_rejected_cut_share`].
    compact_rejected_cut_share: u32,
    too_many: bool,
    candidates: u64,
    compared: u64,
}

/// Bytes past a probe position that must be present before it is probed in
/// the middle of a file (a hash is 32 bytes; a table below
/// [`MIN_CONTENT_ENTRIES`] at most 64).
const LOOKAHEAD: usize = 64;

impl<'a> Scanner<'a> {
    /// A scanner at the start of an artifact.
    pub fn new(index: &'a Index) -> Scanner<'a> {
        Scanner {
            index,
            buf: Vec::new(),
            base: 0,
            next: 0,
            seen: HashMap::new(),
            pending: Vec::new(),
            found: Vec::new(),
            listed: Vec::new(),
            exact: HashMap::new(),
            headers: Vec::new(),
            by_header: Vec::new(),
            compact_rejected_chunks: 0,
            compact_rejected_share: 0,
            compact_rejected_cut_share: 0,
            too_many: false,
            candidates: 0,
            compared: 0,
        }
    }

    fn end(&self) -> u64 {
        self.base + self.buf.len() as u64
    }

    /// The next bytes of the artifact.
    pub fn feed(&mut self, data: &[u8]) {
        self.buf.extend_from_slice(data);
        let end = self.end();
        if end >= self.next + LOOKAHEAD as u64 {
            self.probe(end - LOOKAHEAD as u64 + 1);
        }
        self.verify_ready(false);
        self.verify_headers(false);
        // Keep two table lengths behind the scan position: every candidate
        // still to come starts after one, and every pending one after two.
        let keep = self.next.saturating_sub(2 * self.index.max_len as u64);
        if keep > self.base {
            let drop = (keep - self.base) as usize;
            self.buf.drain(..drop);
            self.base = keep;
            let horizon = keep as i64;
            self.seen.retain(|&(_, s), _| s >= horizon);
            if self.seen.len() > 1 << 22 {
                self.seen.clear();
            }
        }
    }

    /// Probes every position in `[self.next, to)`.
    fn probe(&mut self, to: u64) {
        let Scanner {
            index,
            buf,
            base,
            next,
            seen,
            pending,
            listed,
            exact,
            headers,
            ..
        } = self;
        let from = (*next - *base) as usize;
        let to_i = (to - *base) as usize;
        let n = buf.len();
        let mut candidate = |image: u32, start: i64| {
            let votes = seen.entry((image, start)).or_insert(0);
            if *votes == 0 {
                pending.push((image, start));
            }
            *votes += 1;
        };
        // Compact keys at every offset, 64 offsets at a time: the filter
        // words of all 64 are loaded without a branch between them (their
        // cache misses overlap), then the few that may hold a key are looked
        // up.
        let key_end = to_i.min((n + 1).saturating_sub(compact::KEY_BYTES));
        let mut block = from;
        while block < key_end {
            let len = (key_end - block).min(64);
            let mut maybe = 0u64;
            for (t, w) in buf[block..block + len + compact::KEY_BYTES - 1]
                .windows(compact::KEY_BYTES)
                .enumerate()
            {
                let k = u64::from(u32::from_le_bytes([w[0], w[1], w[2], w[3]]));
                maybe |= u64::from(index.compact.maybe(k)) << t;
            }
            while maybe != 0 {
                let i = block + maybe.trailing_zeros() as usize;
                maybe &= maybe - 1;
                let k = key_le(&buf[i..i + compact::KEY_BYTES]);
                for site in index.compact.get(k) {
                    candidate(site.image, (*base + i as u64) as i64 - site.offset as i64);
                }
            }
            block += len;
        }
        for i in from..to_i {
            let (large, small) = if i + 8 <= n {
                let x = u64::from_le_bytes(buf[i..i + 8].try_into().expect("8 bytes"));
                (Some(x), x & 0xFF_FFFF)
            } else if i + SMALL_GRAM <= n {
                (None, key_le(&buf[i..i + SMALL_GRAM]))
            } else {
                continue;
            };
            if let Some(x) = large {
                if x == compact::MAGIC_U64 {
                    headers.push(*base + i as u64);
                }
                if index.exact.maybe(x) {
                    for site in index.exact.get(x) {
                        let bytes = &index.images[site.image as usize].bytes;
                        if i + bytes.len() <= n && buf[i..i + bytes.len()] == bytes[..] {
                            exact.entry(site.image).or_insert(*base + i as u64);
                        }
                    }
                }
                if index.large.maybe(x) {
                    for site in index.large.get(x) {
                        if site.image == NEEDLE {
                            let needle = &index.needles[site.offset as usize];
                            if i + 32 <= n
                                && buf[i..i + 32] == needle.sha256
                                && !listed.iter().any(|&(k, _)| k == site.offset as usize)
                            {
                                listed.push((site.offset as usize, *base + i as u64));
                            }
                        } else {
                            candidate(site.image, (*base + i as u64) as i64 - site.offset as i64);
                        }
                    }
                }
            }
            if index.small.maybe(small) {
                for site in index.small.get(small) {
                    candidate(site.image, (*base + i as u64) as i64 - site.offset as i64);
                }
            }
        }
        *next = to;
    }

    /// Verifies the pending candidates whose every byte has been probed (so
    /// that all their votes are counted), or all of them at the end of the
    /// file. A candidate of a large form needs [`MIN_VOTES_LARGE`] gram hits:
    /// a lone coincidental hit is not worth comparing 65,536 entries.
    fn verify_ready(&mut self, eof: bool) {
        let end = self.end();
        let probed = self.next as i64;
        let mut ready = Vec::new();
        let mut i = 0;
        while i < self.pending.len() {
            let (image, start) = self.pending[i];
            let im = &self.index.images[image as usize];
            // Ready once every candidate that could overlap it is probed too,
            // so that they are compared in order of votes.
            if eof || start + (im.bytes.len() + self.index.max_len) as i64 <= probed {
                self.pending.swap_remove(i);
                let votes = self.seen.get(&(image, start)).copied().unwrap_or(u32::MAX);
                if im.small || votes >= MIN_VOTES_LARGE {
                    ready.push((votes, image, start));
                }
            } else {
                i += 1;
            }
        }
        // Most votes first: the copy itself before the shifted and
        // cross-table coincidences that its bytes also imply.
        ready.sort_unstable_by(|a, b| b.cmp(a));
        for (_, image, start) in ready {
            let im = &self.index.images[image as usize];
            let (lo, hi) = (start, start + im.bytes.len() as i64);
            // An intact copy of a form at least as long, overlapping this
            // candidate, outranks it whatever it holds: skip the comparison.
            // So does, for a compact candidate, any compact form found by its
            // content (reported, with more key hits): the other starts its
            // keys imply (a window found at several offsets of the stored
            // forms) are not compared one by one.
            let shadowed = self.found.iter().rev().take(64).any(|f| {
                (f.verdict == Verdict::Intact && f.form_len >= im.bytes.len()
                    || im.compact && f.compact.is_some())
                    && (f.offset as i64) < hi
                    && lo < (f.offset + f.len as u64) as i64
            });
            if shadowed {
                continue;
            }
            let budget = BUDGET_PER_BYTE * end + BUDGET_ALLOWANCE;
            if self.found.len() >= MAX_FOUND || self.compared > budget {
                self.too_many = true;
                continue;
            }
            self.candidates += 1;
            if !im.compact {
                self.compared += im.entries() as u64;
            }
            let found = if im.compact {
                let (found, (keys, share, complete)) = self.verify_compact(image as usize, start);
                if found.is_none() {
                    self.compact_rejected_chunks = self.compact_rejected_chunks.max(keys);
                    if keys >= 1 && complete {
                        self.compact_rejected_share = self.compact_rejected_share.max(share);
                    } else if keys >= 1 {
                        self.compact_rejected_cut_share =
                            self.compact_rejected_cut_share.max(share);
                    }
                }
                found
            } else {
                self.verify(image as usize, start)
            };
            if let Some(f) = found {
                self.found.push(f);
            }
        }
    }

    /// Compares a candidate compact stored form byte for byte (see
    /// [`compact`]); also returns its matching keys, its matching evidence
    /// bytes per mille of those present, and whether it is wholly present.
    fn verify_compact(&mut self, image: usize, start: i64) -> (Option<Found>, (usize, u32, bool)) {
        let im = &self.index.images[image];
        let n = im.bytes.len() as i64;
        let lo = start.max(0).max(self.base as i64);
        let hi = (start + n).min(self.end() as i64);
        if hi - lo < LARGE_GRAM as i64 {
            return (None, (0, 0, false));
        }
        let at = |j: i64| (start + j - self.base as i64) as usize;
        let (j0, j1) = (lo - start, hi - start);
        // The present bytes that lie in a key window (the evidence).
        let c0 = im.covered.partition_point(|&o| (o as i64) < j0);
        let c1 = im.covered.partition_point(|&o| (o as i64) < j1);
        let covered = &im.covered[c0..c1];
        if covered.is_empty() {
            return (None, (0, 0, false));
        }
        // A sampled comparison first: a start that some coincidental key
        // hits imply (the stored forms share many windows) costs
        // `SAMPLES` bytes, not the whole form.
        let mut x = mix(self.index.seed ^ (image as u64) << 48 ^ start as u64);
        let mut sampled = 0;
        for _ in 0..compact::SAMPLES {
            x = mix(x.wrapping_add(0x9E37_79B9_7F4A_7C15));
            let j = covered[(x % covered.len() as u64) as usize] as usize;
            sampled += usize::from(self.buf[at(j as i64)] == im.bytes[j]);
        }
        self.compared += compact::SAMPLES as u64;
        if !compact::passes_sample(sampled) {
            return (None, (0, 0, false));
        }
        self.compared += (j1 - j0) as u64;
        let covered_matching = covered
            .iter()
            .filter(|&&j| self.buf[at(j as i64)] == im.bytes[j as usize])
            .count();
        let mut evidence = 0usize;
        for o in j0..=j1 - compact::KEY_BYTES as i64 {
            let o = o as usize;
            if im.is_key(o) {
                let from = at(o as i64);
                if self.buf[from..from + compact::KEY_BYTES] == im.bytes[o..o + compact::KEY_BYTES]
                {
                    evidence += 1;
                }
            }
        }
        let dir_end = actlut_codegen::compact::HEADER_BYTES + 4 * (actlut_codegen::compact::ENTRIES >> im.bytes[8]);
        let mut parts = [0usize; 3];
        let mut first = Vec::new();
        let mut differing = 0;
        for j in j0..j1 {
            if self.buf[at(j)] != im.bytes[j as usize] {
                differing += 1;
                let part = if (j as usize) < actlut_codegen::compact::HEADER_BYTES {
                    0
                } else if (j as usize) < dir_end {
                    1
                } else {
                    2
                };
                parts[part] += 1;
                if first.len() < FIRST_DIFFERENCES {
                    first.push(j as usize);
                }
            }
        }
        let share = (covered_matching * 1000 / covered.len()) as u32;
        let complete = j0 == 0 && j1 == n;
        if !compact::is_evidence(evidence, covered_matching, covered.len(), complete) {
            return (None, (evidence, share, complete));
        }
        let reference = &self.index.refs[im.reference];
        let form = &reference.extra[im.form - 1];
        let present = &self.buf[at(j0)..at(j1)];
        let (verdict, decoded, logical, sha256) = if !complete {
            (Verdict::Truncated, Decoded::Absent, None, None)
        } else if differing == 0 {
            (
                Verdict::Intact,
                Decoded::Same,
                Some(reference.sha256),
                Some(form.sha256),
            )
        } else {
            // What a compact build runs: its compiled-in header (the known
            // one) over the directory and pool found here.
            let mut bytes = im.bytes[..actlut_codegen::compact::HEADER_BYTES].to_vec();
            bytes.extend_from_slice(&present[actlut_codegen::compact::HEADER_BYTES..]);
            let (decoded, logical) = match actlut_codegen::compact::CompactRef::from_bytes(&bytes) {
                Err(e) => (Decoded::Invalid(e.to_string()), None),
                Ok(view) => {
                    let entries = compact::decode_all(&view);
                    let known = self
                        .index
                        .known
                        .iter()
                        .find(|k| k.reference == im.reference)
                        .expect("a compact form of a 16-bit reference");
                    let logical = actlut_codegen::sha256(&actlut_codegen::table_bytes_le(reference.format, &entries));
                    match compact::compare(&entries, &known.entries) {
                        (0, _) => (Decoded::Same, Some(logical)),
                        (entries, first) => (Decoded::Differs { entries, first }, Some(logical)),
                    }
                }
            };
            (
                Verdict::Modified,
                decoded,
                logical,
                Some(actlut_codegen::sha256(present)),
            )
        };
        if verdict == Verdict::Modified {
            self.compared += actlut_codegen::compact::ENTRIES as u64;
        }
        let found = Found {
            offset: lo as u64,
            len: (j1 - j0) as usize,
            form_offset: j0 as usize,
            form_len: n as usize,
            order: ByteOrder::Bytes,
            names: reference.names.clone(),
            format: reference.format,
            form: form.label.clone(),
            verdict,
            differing,
            matching: (j1 - j0) as usize - differing,
            evidence,
            first_differences: first,
            sha256,
            compact: Some(CompactDetail {
                found_by: FoundBy::Content,
                header: parts[0],
                directory: parts[1],
                pool: parts[2],
                decoded,
                other_packing: false,
                logical_sha256: logical,
                nearest: None,
            }),
        };
        (Some(found), (evidence, share, complete))
    }

    /// Looks at every `ACTLUTC1` whose declared length is in (or, at the
    /// end of the file, past) the buffer (see [`compact`]).
    fn verify_headers(&mut self, eof: bool) {
        let end = self.end();
        let mut i = 0;
        while i < self.headers.len() {
            let p = self.headers[i];
            let at = (p - self.base) as usize;
            let h = &self.buf[at..];
            let declared = if h.len() >= actlut_codegen::compact::HEADER_BYTES {
                compact::plausible_header(&h[..actlut_codegen::compact::HEADER_BYTES])
            } else if eof {
                None
            } else {
                i += 1;
                continue;
            };
            let found = match declared {
                None => None,
                Some(Err(declared)) => Some(self.header_found(
                    p,
                    actlut_codegen::compact::HEADER_BYTES,
                    Verdict::Invalid,
                    Decoded::Invalid(format!(
                        "its header declares {declared} bytes, more than any stored form ({})",
                        compact::MAX_STORED_BYTES
                    )),
                )),
                Some(Ok(len)) if p + len as u64 > end => {
                    if !eof {
                        i += 1;
                        continue;
                    }
                    let mut f = self.header_found(
                        p,
                        (end - p) as usize,
                        Verdict::Truncated,
                        Decoded::Absent,
                    );
                    f.form_len = len;
                    Some(f)
                }
                Some(Ok(len)) => {
                    let budget = BUDGET_PER_BYTE * end + BUDGET_ALLOWANCE;
                    if self.compared > budget {
                        self.too_many = true;
                        None
                    } else {
                        // Validating, hashing and decoding: count it all, so
                        // that headers crafted at every few bytes stop at the
                        // budget.
                        self.compared += (2 * actlut_codegen::compact::ENTRIES + len) as u64;
                        Some(self.evaluate_header(p, len))
                    }
                }
            };
            self.headers.swap_remove(i);
            if let Some(f) = found {
                self.by_header.push(f);
            }
        }
    }

    /// A compact form found by its header, as yet of no known table (its
    /// SHA-256 is set where it is valid).
    fn header_found(&self, p: u64, len: usize, verdict: Verdict, decoded: Decoded) -> Found {
        Found {
            offset: p,
            len,
            form_offset: 0,
            form_len: len,
            order: ByteOrder::Bytes,
            names: Vec::new(),
            format: Format::F16,
            form: COMPACT_FORM.to_string(),
            verdict,
            differing: 0,
            matching: 0,
            evidence: 0,
            first_differences: Vec::new(),
            sha256: None,
            compact: Some(CompactDetail {
                found_by: FoundBy::Header,
                header: 0,
                directory: 0,
                pool: 0,
                decoded,
                other_packing: false,
                logical_sha256: None,
                nearest: None,
            }),
        }
    }

    /// Validates, hashes and decodes the stored form a plausible header
    /// declares, `len` bytes at `p`, all in the buffer.
    fn evaluate_header(&self, p: u64, len: usize) -> Found {
        let at = (p - self.base) as usize;
        let bytes = &self.buf[at..at + len];
        let view = match actlut_codegen::compact::CompactRef::from_bytes(bytes) {
            Ok(view) => view,
            Err(e) => {
                return self.header_found(p, len, Verdict::Invalid, Decoded::Invalid(e.to_string()))
            }
        };
        let sha = actlut_codegen::sha256(bytes);
        let mut f = self.header_found(p, len, Verdict::Intact, Decoded::Same);
        f.sha256 = Some(sha);
        let index = self.index;
        let name = |f: &mut Found, r: usize| {
            f.names = index.refs[r].names.clone();
            f.format = index.refs[r].format;
        };
        let known_form = index
            .images
            .iter()
            .find(|im| im.compact && index.refs[im.reference].extra[im.form - 1].sha256 == sha);
        let detail = f.compact.as_mut().expect("a compact detail");
        if let Some(im) = known_form {
            detail.logical_sha256 = Some(index.refs[im.reference].sha256);
            f.matching = actlut_codegen::compact::ENTRIES;
            name(&mut f, im.reference);
            return f;
        }
        let entries = compact::decode_all(&view);
        let logical = actlut_codegen::sha256(&actlut_codegen::table_bytes_le(Format::F16, &entries));
        detail.logical_sha256 = Some(logical);
        let same = index
            .known
            .iter()
            .find(|k| index.refs[k.reference].sha256 == logical);
        if let Some(k) = same {
            detail.other_packing = true;
            f.matching = actlut_codegen::compact::ENTRIES;
            name(&mut f, k.reference);
            return f;
        }
        let Some((k, matching)) = compact::nearest(&index.known, &entries) else {
            f.verdict = Verdict::Unknown;
            return f;
        };
        let known = &index.known[k];
        let (differing, first) = compact::compare(&entries, &known.entries);
        f.matching = matching;
        if matching >= actlut_codegen::compact::ENTRIES / 2 {
            f.verdict = Verdict::Modified;
            f.differing = differing;
            f.first_differences = first.clone();
            detail.decoded = Decoded::Differs {
                entries: differing,
                first,
            };
            name(&mut f, known.reference);
        } else {
            f.verdict = Verdict::Unknown;
            f.format = index.refs[known.reference].format;
            detail.nearest = Some((index.refs[known.reference].names.clone(), matching));
        }
        f
    }

    fn verify(&self, image: usize, start: i64) -> Option<Found> {
        let im = &self.index.images[image];
        let u = im.unit as i64;
        let n = im.entries() as i64;
        let lo = start.max(0).max(self.base as i64);
        let hi = (start + n * u).min(self.end() as i64);
        // Whole entries inside [lo, hi).
        let e0 = (lo - start + u - 1) / u;
        let e1 = (hi - start) / u;
        if e1 - e0 < 3 {
            return None;
        }
        let (mut differing, mut matching, mut evidence) = (0usize, 0usize, 0usize);
        // Matching entries other than the most common value (small forms).
        let mut informative = 0usize;
        let mut first = Vec::new();
        let (mut m1, mut m2, mut m3) = (false, false, false);
        for j in e0..e1 {
            let at = (start + j * u - self.base as i64) as usize;
            let ju = j as usize * im.unit;
            let eq = self.buf[at..at + im.unit] == im.bytes[ju..ju + im.unit];
            if eq {
                matching += 1;
                if im.entry(j as usize) != im.modal {
                    informative += 1;
                }
                if m1 && m2 && (m3 || im.small) && im.is_change_point(j as usize) {
                    evidence += 1;
                }
            } else {
                differing += 1;
                if first.len() < FIRST_DIFFERENCES {
                    first.push(j as usize);
                }
            }
            m3 = m2;
            m2 = m1;
            m1 = eq;
        }
        let (needed, least, informed) = if im.small {
            (
                MIN_EVIDENCE_SMALL,
                MIN_MATCHING_SMALL,
                MIN_INFORMATIVE_SMALL,
            )
        } else {
            let needed = if im.unit == 2 {
                MIN_EVIDENCE_WORDS
            } else {
                MIN_EVIDENCE_LARGE
            };
            (needed, MIN_MATCHING_LARGE, 0)
        };
        if evidence < needed || matching < least || informative < informed {
            return None;
        }
        let reference = &self.index.refs[im.reference];
        let complete = e0 == 0 && e1 == n;
        let verdict = if !complete {
            Verdict::Truncated
        } else if differing == 0 {
            Verdict::Intact
        } else {
            Verdict::Modified
        };
        let offset = (start + e0 * u) as u64;
        let len = ((e1 - e0) * u) as usize;
        let sha256 = match verdict {
            Verdict::Intact if im.form == 0 => Some(reference.sha256),
            Verdict::Intact => Some(reference.extra[im.form - 1].sha256),
            Verdict::Modified => {
                let at = (offset - self.base) as usize;
                let bytes = &self.buf[at..at + len];
                Some(if im.order == ByteOrder::Big {
                    actlut_codegen::sha256(&swap16(bytes))
                } else {
                    actlut_codegen::sha256(bytes)
                })
            }
            Verdict::Truncated | Verdict::Unknown | Verdict::Invalid => None,
        };
        Some(Found {
            offset,
            len,
            form_offset: (e0 * u) as usize,
            form_len: im.bytes.len(),
            order: im.order,
            names: reference.names.clone(),
            format: reference.format,
            form: if im.form == 0 {
                TABLE_FORM.to_string()
            } else {
                reference.extra[im.form - 1].label.clone()
            },
            verdict,
            differing,
            matching,
            evidence,
            first_differences: first,
            sha256,
            compact: None,
        })
    }

    /// Scans the last bytes and returns what the artifact holds. Of
    /// overlapping candidates the one with the most matching entries is kept.
    pub fn finish(mut self) -> Report {
        let end = self.end();
        if end > self.next {
            self.probe(end);
        }
        self.verify_ready(true);
        self.verify_headers(true);
        let mut found = core::mem::take(&mut self.found);
        found.sort_by(|a, b| {
            b.matching
                .cmp(&a.matching)
                .then(b.evidence.cmp(&a.evidence))
                .then(a.offset.cmp(&b.offset))
                .then(a.names.cmp(&b.names))
        });
        let mut kept: Vec<Found> = Vec::new();
        for f in found {
            let overlaps = kept
                .iter()
                .any(|k| f.offset < k.offset + k.len as u64 && k.offset < f.offset + f.len as u64);
            if !overlaps {
                kept.push(f);
            }
        }
        // A table below the content threshold counts only when the artifact
        // names it: present byte for byte, it is intact.
        for (&image, &offset) in &self.exact {
            let im = &self.index.images[image as usize];
            let reference = &self.index.refs[im.reference];
            let named = self
                .listed
                .iter()
                .any(|&(n, _)| self.index.needles[n].sha256 == reference.sha256);
            if named {
                kept.push(Found {
                    offset,
                    len: im.bytes.len(),
                    form_offset: 0,
                    form_len: im.bytes.len(),
                    order: im.order,
                    names: reference.names.clone(),
                    format: reference.format,
                    form: TABLE_FORM.to_string(),
                    verdict: Verdict::Intact,
                    differing: 0,
                    matching: im.entries(),
                    evidence: 0,
                    first_differences: Vec::new(),
                    sha256: Some(reference.sha256),
                    compact: None,
                });
            }
        }
        merge_headers(&mut kept, core::mem::take(&mut self.by_header));
        kept.sort_by(|a, b| a.offset.cmp(&b.offset).then(a.names.cmp(&b.names)));
        let mut listed: Vec<Listed> = self
            .listed
            .iter()
            .map(|&(n, offset)| {
                let needle = &self.index.needles[n];
                let named = |f: &&Found| f.names.iter().any(|x| needle.names.contains(x));
                // Intact in its own bytes, or as an intact extra stored form of
                // the same table (a compact encoding: its bytes are generated
                // from the table's, so they decode to exactly those entries).
                let status = if kept.iter().any(|f| {
                    f.verdict == Verdict::Intact
                        && (f.sha256 == Some(needle.sha256)
                            || (f.form != TABLE_FORM
                                && f.names.iter().any(|x| needle.names.contains(x))))
                }) {
                    ListedStatus::Intact
                } else if let Some(f) = kept.iter().filter(named).max_by_key(|f| f.matching) {
                    ListedStatus::Damaged {
                        verdict: f.verdict,
                        differing: f.differing,
                        present: f.len,
                        of: f.form_len,
                    }
                } else {
                    ListedStatus::Missing
                };
                Listed {
                    names: needle.names.clone(),
                    sha256: needle.sha256,
                    offset,
                    status,
                }
            })
            .collect();
        listed.sort_by_key(|l| l.offset);
        Report {
            bytes: end,
            found: kept,
            listed,
            too_many: self.too_many,
            candidates: self.candidates,
            compared: self.compared,
            compact_rejected_chunks: self.compact_rejected_chunks,
            compact_rejected_share: self.compact_rejected_share,
            compact_rejected_cut_share: self.compact_rejected_cut_share,
        }
    }
}

/// Adds the compact forms found by their header to those found by content.
/// A header at the start of a form found by content adds nothing (the byte
/// comparison says more), except a valid form of a known table's entries in
/// another packing: it explains the differing bytes of the content matches
/// of that table inside it, which are dropped.
fn merge_headers(kept: &mut Vec<Found>, by_header: Vec<Found>) {
    for h in by_header {
        let (lo, hi) = (h.offset, h.offset + h.len as u64);
        let other_packing = h.compact.as_ref().is_some_and(|c| c.other_packing);
        if other_packing {
            // What its content matched inside it (its own table in the
            // packing the lock records, or a similar table's form) is the
            // same bytes, judged against the wrong packing.
            kept.retain(|f| {
                !(f.compact.is_some() && lo <= f.offset && f.offset + f.len as u64 <= hi)
            });
        } else if kept
            .iter()
            .any(|f| f.compact.is_some() && f.offset == h.offset && f.form_offset == 0)
        {
            continue;
        }
        kept.push(h);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small_index() -> (Index, Vec<Reference>) {
        let refs = merge_aliases(vec![
            Reference::generate(Function::Gelu, Format::F16),
            Reference::generate(Function::Silu, Format::F16),
            Reference::generate(Function::Gelu, Format::Fp8E4M3),
            Reference::generate(Function::GeluTanh, Format::Fp8E4M3),
            Reference::generate(Function::Exp, Format::Fp8E5M2),
            Reference::generate(Function::Silu, Format::Fp8E4M3),
        ]);
        (Index::new(refs.clone()), refs)
    }

    fn noise(len: usize, seed: u64) -> Vec<u8> {
        let mut x = seed | 1;
        (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x >> 24) as u8
            })
            .collect()
    }

    fn summary(r: &Report) -> Vec<(u64, ByteOrder, &str, Verdict, usize)> {
        r.found
            .iter()
            .map(|f| {
                (
                    f.offset,
                    f.order,
                    f.names[0].as_str(),
                    f.verdict,
                    f.differing,
                )
            })
            .collect()
    }

    #[test]
    fn identical_tables_are_merged_into_one_reference_with_both_names() {
        let (_, refs) = small_index();
        assert_eq!(refs.len(), 5);
        assert_eq!(refs[2].names, ["gelu_fp8_e4m3", "gelu_tanh_fp8_e4m3"]);
    }

    #[test]
    fn finds_tables_in_either_byte_order_at_odd_offsets() {
        let (index, refs) = small_index();
        let mut data = vec![0x55u8; 3];
        data.extend_from_slice(&refs[0].bytes_le); // gelu_f16, little-endian
        data.extend_from_slice(&[1, 2, 3]);
        let be_at = data.len() as u64;
        data.extend_from_slice(&swap16(&refs[1].bytes_le)); // silu_f16, big-endian
        let e5_at = data.len() as u64;
        data.extend_from_slice(&refs[3].bytes_le);
        let r = index.scan(&data);
        assert_eq!(
            summary(&r),
            [
                (3, ByteOrder::Little, "gelu_f16", Verdict::Intact, 0),
                (be_at, ByteOrder::Big, "silu_f16", Verdict::Intact, 0),
                (e5_at, ByteOrder::Bytes, "exp_fp8_e5m2", Verdict::Intact, 0),
            ]
        );
        assert_eq!(r.found[1].sha256, Some(refs[1].sha256));
        assert!(r.problems(&[]).len() == 3, "no lock: nothing is in it");
    }

    #[test]
    fn a_changed_entry_is_reported_as_a_modified_table_with_its_own_hash() {
        let (index, refs) = small_index();
        let mut table = refs[0].bytes_le.clone();
        table[2 * 0x3C00] ^= 1; // gelu(1.0) off by one ulp
        let r = index.scan(&table);
        assert_eq!(
            summary(&r),
            [(0, ByteOrder::Little, "gelu_f16", Verdict::Modified, 1)]
        );
        assert_eq!(r.found[0].first_differences, [0x3C00]);
        assert_eq!(r.found[0].sha256, Some(actlut_codegen::sha256(&table)));
    }

    /// The issue's repro: one flipped bit in each of the four windows the
    /// previous audit anchored on hid the table.
    #[test]
    fn four_flipped_entries_in_the_old_anchor_windows_are_a_modified_table() {
        let (index, refs) = small_index();
        let mut gelu = refs[0].bytes_le.clone();
        for at in [23520, 32768, 92256, 98304] {
            gelu[at] ^= 1;
        }
        let r = index.scan(&gelu);
        assert_eq!(
            summary(&r),
            [(0, ByteOrder::Little, "gelu_f16", Verdict::Modified, 4)]
        );
        assert_eq!(r.found[0].first_differences, [11760, 16384, 46128, 49152]);
        let silu = &refs[4];
        assert_eq!(silu.names, ["silu_fp8_e4m3"]);
        let mut bytes = silu.bytes_le.clone();
        for at in [32, 64, 144, 192] {
            bytes[at] ^= 1;
        }
        let mut data = noise(5000, 7);
        data[1234..1490].copy_from_slice(&bytes);
        let r = index.scan(&data);
        assert_eq!(
            summary(&r),
            [(
                1234,
                ByteOrder::Bytes,
                "silu_fp8_e4m3",
                Verdict::Modified,
                4
            )]
        );
    }

    #[test]
    fn a_fifth_of_the_entries_changed_at_random_is_a_modified_table() {
        let (index, refs) = small_index();
        let mut gelu = refs[0].bytes_le.clone();
        let r = noise(65536 * 4, 99);
        let mut changed = 0;
        for j in 0..65536 {
            if r[4 * j] < 51 {
                gelu[2 * j] ^= r[4 * j + 1] | 1;
                changed += 1;
            }
        }
        let mut data = noise(300_001, 5);
        data.extend_from_slice(&swap16(&gelu));
        data.extend(noise(1000, 6));
        let rep = index.scan(&data);
        assert_eq!(
            summary(&rep),
            [(
                300_001,
                ByteOrder::Big,
                "gelu_f16",
                Verdict::Modified,
                changed
            )]
        );
    }

    #[test]
    fn a_table_cut_off_by_either_end_of_the_file_is_truncated() {
        let (index, refs) = small_index();
        let r = index.scan(&refs[0].bytes_le[..100_000]);
        assert_eq!(
            summary(&r),
            [(0, ByteOrder::Little, "gelu_f16", Verdict::Truncated, 0)]
        );
        assert_eq!((r.found[0].len, r.found[0].form_offset), (100_000, 0));
        assert!(r.found[0]
            .describe()
            .contains("100000 of 131072 bytes present"));
        let r = index.scan(&refs[0].bytes_le[31_073..]);
        assert_eq!(
            summary(&r),
            [(1, ByteOrder::Little, "gelu_f16", Verdict::Truncated, 0)]
        );
        // The first whole entry is at byte 1 of the file.
        let r2 = index.scan(&refs[0].bytes_le[31_073 - 1..]);
        assert_eq!(r2.found[0].form_offset, 31_072);
        assert_eq!(r.found[0].form_offset, 31_074);
    }

    #[test]
    fn random_constant_and_counting_data_hold_no_tables() {
        let (index, _) = small_index();
        assert!(index.scan(&[]).found.is_empty());
        assert!(index.scan(&noise(1 << 22, 3)).found.is_empty());
        assert!(index.scan(&vec![0u8; 1 << 18]).found.is_empty());
        assert!(index.scan(&vec![0xFFu8; 1 << 18]).found.is_empty());
        let count16: Vec<u8> = (0..=u16::MAX).flat_map(|v| v.to_le_bytes()).collect();
        assert!(index.scan(&count16).found.is_empty());
        let count8: Vec<u8> = (0..1 << 16).map(|v| v as u8).collect();
        assert!(index.scan(&count8).found.is_empty());
    }

    /// The detection policy, table by table: every table of at least
    /// [`MIN_CONTENT_ENTRIES`] entries is found by its content alone; a
    /// smaller one (FP6, FP4) is not searched unless the artifact names it by
    /// its SHA-256, and then it is found intact, or missing when absent.
    #[test]
    fn every_table_is_found_intact_alone_in_noise_in_either_byte_order() {
        let refs = Reference::generate_all();
        let index = Index::new(refs.clone());
        let mut small = 0;
        for (i, r) in refs.iter().enumerate() {
            let mut images = vec![(ByteOrder::Little, r.bytes_le.clone())];
            if r.format.entry_bytes() == 2 {
                images.push((ByteOrder::Big, swap16(&r.bytes_le)));
            } else {
                images[0].0 = ByteOrder::Bytes;
            }
            for (order, bytes) in images {
                let mut data = noise(5000 + i, i as u64);
                data.extend_from_slice(&bytes);
                data.extend(noise(3000, 1000 + i as u64));
                let rep = index.scan(&data);
                let at = 5000 + i as u64;
                let intact = [(at, order, r.names[0].as_str(), Verdict::Intact, 0)];
                if r.format.entries() >= MIN_CONTENT_ENTRIES {
                    assert_eq!(summary(&rep), intact, "{:?}", r.names);
                    continue;
                }
                small += 1;
                // Unlisted: below the threshold, no verdict at all.
                assert!(
                    rep.found.is_empty() && rep.listed.is_empty(),
                    "{:?}",
                    r.names
                );
                // Listed (its hash after the table, as a manifest stores it).
                let mut named = data.clone();
                named.extend_from_slice(&r.sha256);
                let rep = index.scan(&named);
                assert_eq!(summary(&rep), intact, "{:?}", r.names);
                assert_eq!(rep.listed.len(), 1, "{:?}", r.names);
                assert_eq!(rep.listed[0].status, ListedStatus::Intact);
                assert!(rep.listed[0].problem().is_none());
                // Listed but one entry changed: missing, a problem.
                named[at as usize + bytes.len() / 2] ^= 1;
                let rep = index.scan(&named);
                assert!(rep.found.is_empty(), "{:?}", r.names);
                assert_eq!(rep.listed[0].status, ListedStatus::Missing);
                assert!(rep.listed[0].problem().is_some());
            }
        }
        assert!(small > 0, "the FP6 and FP4 tables are in the list");
    }

    /// Tables below [`MIN_CONTENT_ENTRIES`] at the start and the very end of
    /// a file, named by their hashes before them, are found.
    #[test]
    fn listed_small_tables_are_found_at_either_end_of_the_file() {
        let refs = merge_aliases(vec![
            Reference::generate(Function::Gelu, Format::Fp4E2M1),
            Reference::generate(Function::Tanh, Format::Fp6E3M2),
        ]);
        let index = Index::new(refs.clone());
        let mut data = refs[0].bytes_le.clone();
        data.extend_from_slice(&refs[0].sha256);
        data.extend_from_slice(&refs[1].sha256);
        data.extend(noise(100, 9));
        let tail = data.len() as u64;
        data.extend_from_slice(&refs[1].bytes_le);
        let r = index.scan(&data);
        assert_eq!(
            summary(&r),
            [
                (0, ByteOrder::Bytes, "gelu_fp4_e2m1", Verdict::Intact, 0),
                (tail, ByteOrder::Bytes, "tanh_fp6_e3m2", Verdict::Intact, 0),
            ]
        );
        assert!(r.problems(&[]).len() == 2, "no lock: nothing is in it");
        assert!(r.listed.iter().all(|l| l.status == ListedStatus::Intact));
    }

    /// A saturating table of small integers that a codec library holds: it
    /// matches `softsign_fp8_e5m2fnuz` on 69 entries (the identity part) with
    /// 8 changes of step, enough for a quarter of the table but not for half.
    #[test]
    fn a_codec_clip_table_is_not_a_softsign_table() {
        let hex = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f\
                   202122232425262728292a2b2c2d2e2f3031323334353536373838393a3a3b3b\
                   3c3c3d3d3d3e3e3e3f3f3f3f0000000000000000000000000001020304050607\
                   08090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f2021222324252627\
                   28292a2b2c2d2e2f303132333435363738393a3b3b3c3d3e3e3f404041414242\
                   43434344444445454545000000000000000102030405060708090a0b0c0d0e0f\
                   101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f\
                   303132333435363738393a3b3c3d3e3f40414142434444454646474748484949";
        let clip: Vec<u8> = (0..hex.len() / 2)
            .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
            .collect();
        assert_eq!(clip.len(), 256);
        let softsign = Reference::generate(Function::Softsign, Format::Fp8E5M2Fnuz);
        let index = Index::new(vec![softsign.clone()]);
        let mut data = noise(1000, 5);
        data.extend_from_slice(&clip);
        data.extend(noise(1000, 6));
        assert_eq!(summary(&index.scan(&data)), []);
        // The same place holds the real table: found.
        data[1000..1256].copy_from_slice(&softsign.bytes_le);
        assert_eq!(
            summary(&index.scan(&data)),
            [(
                1000,
                ByteOrder::Bytes,
                "softsign_fp8_e5m2fnuz",
                Verdict::Intact,
                0
            )]
        );
    }

    /// Extra stored forms (a compact encoding, say) are found like tables,
    /// with their label, in both byte orders for 2-byte words.
    #[test]
    fn an_extra_form_is_found_intact_or_modified_under_its_label() {
        let gelu = Reference::generate(Function::Gelu, Format::Bf16);
        let form = noise(20_000, 42);
        let small = noise(300, 43);
        let r = gelu.with_form("compact-pool", 2, form.clone()).with_form(
            "compact-dir",
            1,
            small.clone(),
        );
        let index = Index::new(vec![r]);
        let mut data = noise(777, 1);
        data.extend_from_slice(&swap16(&form));
        data.extend(noise(100, 2));
        let dir_at = data.len() as u64;
        let mut dir = small.clone();
        dir[10] ^= 0x80;
        data.extend_from_slice(&dir);
        let rep = index.scan(&data);
        let got: Vec<_> = rep
            .found
            .iter()
            .map(|f| (f.offset, f.order, f.form.as_str(), f.verdict, f.differing))
            .collect();
        assert_eq!(
            got,
            [
                (777, ByteOrder::Big, "compact-pool", Verdict::Intact, 0),
                (
                    dir_at,
                    ByteOrder::Bytes,
                    "compact-dir",
                    Verdict::Modified,
                    1
                ),
            ]
        );
        assert_eq!(rep.found[0].sha256, Some(actlut_codegen::sha256(&form)));
        assert_eq!(rep.found[0].label(), "gelu_bf16 (compact-pool)");
        // An intact extra form needs no lock line of its own; a modified one
        // is a problem.
        assert_eq!(rep.problems(&[]).len(), 1);
    }

    /// A table stored in its compact form only (a `compact` build), with its
    /// logical SHA-256 listed: found under the form's label, and the listed
    /// table counts as intact; a changed byte of the form makes it damaged.
    #[test]
    fn a_listed_table_stored_compact_is_intact_and_a_changed_form_is_not() {
        let table = actlut_codegen::table(Function::Gelu, Format::Bf16);
        let stored =
            actlut_codegen::compact_lock::stored_form_of(Function::Gelu, Format::Bf16, &table).unwrap();
        let gelu = Reference::generate(Function::Gelu, Format::Bf16)
            .with_compact(stored.clone())
            .unwrap();
        let index = Index::new(vec![gelu.clone()]);
        // Its identity is the table's: the lock's line of the logical entries.
        let lock = [Entry {
            name: "gelu_bf16".to_string(),
            function: Function::Gelu,
            format: Format::Bf16,
            entries: 65536,
            bytes: 131072,
            sha256: gelu.sha256,
            reference: "r".to_string(),
        }];
        for damage in [false, true] {
            let mut form = stored.clone();
            if damage {
                let mid = form.len() / 2;
                form[mid] ^= 0x04;
            }
            let mut data = noise(500, 3);
            data.extend_from_slice(&gelu.sha256);
            data.extend(noise(64, 4));
            data.extend_from_slice(&form);
            data.extend(noise(500, 5));
            let rep = index.scan(&data);
            assert_eq!(rep.found.len(), 1, "{damage}");
            assert_eq!(rep.found[0].form, "compact");
            assert_eq!(rep.listed.len(), 1);
            if damage {
                assert_ne!(rep.found[0].verdict, Verdict::Intact);
                assert_ne!(rep.listed[0].status, ListedStatus::Intact);
                assert!(!rep.problems(&lock).is_empty());
            } else {
                assert_eq!(rep.found[0].verdict, Verdict::Intact);
                assert_eq!(rep.listed[0].status, ListedStatus::Intact);
                assert!(rep.problems(&lock).is_empty(), "{:?}", rep.problems(&lock));
                // A lock without the table: not in it.
                assert_eq!(rep.problems(&[]).len(), 1);
            }
        }
    }

    /// An input crafted so that every 16 bytes imply another table start with
    /// two votes (a table's pairs of chunks in reverse order) cannot make the
    /// scan quadratic: the verification stops at its budget and the report
    /// says so.
    #[test]
    fn verification_work_is_bounded_by_the_input_size() {
        let (index, refs) = small_index();
        let data: Vec<u8> = refs[0]
            .bytes_le
            .chunks_exact(16)
            .rev()
            .flatten()
            .copied()
            .collect();
        let r = index.scan(&data);
        assert!(r.too_many, "{} candidates", r.candidates);
        assert!(r.compared <= BUDGET_PER_BYTE * data.len() as u64 + BUDGET_ALLOWANCE + 65_536);
        assert!(r
            .problems(&[])
            .iter()
            .any(|p| p.starts_with("too many table candidates")));
    }

    #[test]
    fn memory_stays_bounded_while_feeding_piece_by_piece() {
        let (index, refs) = small_index();
        let mut s = Scanner::new(&index);
        let mut data = noise(3_000_000, 11);
        data[2_000_000..2_131_072].copy_from_slice(&refs[0].bytes_le);
        for piece in data.chunks(4093) {
            s.feed(piece);
            assert!(s.buf.len() <= 2 * index.max_len + 4093 + LOOKAHEAD);
        }
        let r = s.finish();
        assert_eq!(
            summary(&r),
            [(2_000_000, ByteOrder::Little, "gelu_f16", Verdict::Intact, 0)]
        );
    }

    #[test]
    fn a_hash_in_the_artifact_requires_its_table_intact() {
        let (index, refs) = small_index();
        let lock = [Entry {
            name: "gelu_f16".to_string(),
            function: Function::Gelu,
            format: Format::F16,
            entries: 65536,
            bytes: 131072,
            sha256: refs[0].sha256,
            reference: "r".to_string(),
        }];
        let mut data = noise(1000, 1);
        data[100..132].copy_from_slice(&refs[0].sha256);
        let r = index.scan(&data);
        assert_eq!(r.listed.len(), 1);
        assert_eq!(
            (r.listed[0].offset, &r.listed[0].status),
            (100, &ListedStatus::Missing)
        );
        assert_eq!(r.problems(&lock).len(), 1);
        data.extend_from_slice(&refs[0].bytes_le);
        assert!(index.scan(&data).problems(&lock).is_empty());
        let n = data.len();
        data[n - 2] ^= 0x40;
        let r = index.scan(&data);
        let p = r.problems(&lock);
        assert_eq!(p.len(), 2, "{p:?}");
        assert!(
            p[1] == "manifest lists gelu_f16, but its bytes are modified (1 entry)",
            "{p:?}"
        );
    }
}
