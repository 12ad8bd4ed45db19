//! What the audit says about one artifact: each copy found, each table it names by hash, and the problems.

use std::format;
use std::string::{String, ToString};
use std::vec::Vec;

use actlut_codegen::lock::Entry;
use actlut_codegen::Format;

use crate::compact::{CompactDetail, FoundBy};
use crate::limits::{BUDGET_PER_BYTE, MAX_FOUND, TABLE_FORM};
use crate::reference::ByteOrder;

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
    /// [`TABLE_FORM`], or the label of an extra [`Form`](crate::Form).
    pub form: String,
    /// Intact, modified or truncated.
    pub verdict: Verdict,
    /// Present entries that differ from the reference.
    pub differing: usize,
    /// Present entries equal to the reference.
    pub matching: usize,
    /// Matching surprises (see the module documentation); 0 for a table
    /// below [`MIN_CONTENT_ENTRIES`](crate::MIN_CONTENT_ENTRIES), found by its exact bytes.
    pub evidence: usize,
    /// The first few differing entries (indices into the form).
    pub first_differences: Vec<usize>,
    /// SHA-256 of the found bytes in little-endian order, when the whole form
    /// is present (for an intact copy, the reference's hash).
    pub sha256: Option<[u8; 32]>,
    /// For a compact stored form: how it was found, which parts differ, and
    /// what it decodes to. For one found by content, [`differing`](Self::differing),
    /// [`matching`](Self::matching) and [`first_differences`](Self::first_differences)
    /// count bytes and [`evidence`](Self::evidence) matching key windows; for one
    /// found by its header only, they count decoded entries.
    pub compact: Option<CompactDetail>,
    /// An intact copy in the other byte order than the one the file
    /// declares ([`crate::container`]: an ELF's `EI_DATA`, a Mach-O file's
    /// magic; wasm, PE and COFF are little-endian): actlut
    /// never writes one, so it is a problem, and it clears nothing that
    /// overlaps it.
    pub foreign_order: bool,
}

impl Found {
    /// Entries in the whole form: those present, and those outside the file.
    pub fn form_entries(&self) -> usize {
        let unit = if self.order == ByteOrder::Bytes { 1 } else { 2 };
        self.matching + self.differing + (self.form_len - self.len) / unit
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
        let names = self.names.iter();
        let mut entries = names.filter_map(|n| lock.iter().find(|e| &e.name == n));
        let expected = entries.clone().next().map(|e| e.sha256);
        if entries.any(|e| e.sha256 == sha) {
            return LockStatus::InLock;
        }
        expected.map_or(LockStatus::NotInLock, |e| LockStatus::Differs {
            expected: e,
        })
    }

    /// One line describing what is wrong with this copy, or `None` when it is
    /// intact and in `lock`.
    pub fn problem(&self, lock: &[Entry]) -> Option<String> {
        let at = format!("{} at {:#010x}", self.label(), self.offset);
        match self.verdict {
            Verdict::Intact if self.foreign_order => Some(format!(
                "{at}: intact, but {}: the file declares the other byte order, and actlut \
                 never writes a table in the other order than its target's",
                self.order.name()
            )),
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
        let c = self.compact.as_ref();
        let by_header = c.is_some_and(|c| c.found_by == FoundBy::Header);
        let end = if self.form_offset > 0 { "start" } else { "end" };
        let side = format!("the {end} of the file cuts it");
        // A compact form found by content counts bytes, a table entries.
        let (unit, of) = match c {
            Some(_) => ("bytes", self.form_len),
            None => ("entries", self.form_entries()),
        };
        let firsts = || {
            let parts = c.map_or(String::new(), |c| format!("{}; ", c.parts()));
            let list = list_firsts(&self.first_differences, self.differing);
            format!("{parts}{unit} {list}")
        };
        match (self.verdict, c) {
            (Verdict::Intact, Some(c)) if c.other_packing => format!(
                "intact: the table's 65536 entries in another packing (stored form {} bytes, \
                 not the compact lock's)",
                self.form_len
            ),
            (Verdict::Intact, _) => "intact".to_string(),
            (Verdict::Modified, Some(c)) if by_header => {
                format!("modified: a valid stored form, {}", c.decoded_text())
            }
            (Verdict::Modified, _) => format!(
                "modified: {} of {of} {unit} differ ({}){}",
                self.differing,
                firsts(),
                c.map_or(String::new(), |c| format!("; {}", c.decoded_text()))
            ),
            (Verdict::Truncated, _) if by_header => format!(
                "truncated: its header declares {} bytes, {} present ({side})",
                self.form_len, self.len
            ),
            (Verdict::Truncated, _) => {
                let diff = if self.differing == 0 {
                    format!("all present {unit} intact")
                } else {
                    format!("{} present {unit} differ ({})", self.differing, firsts())
                };
                format!(
                    "truncated: {} of {} bytes present ({side}; {diff})",
                    self.len, self.form_len
                )
            }
            (Verdict::Unknown, Some(c)) => {
                let nearest = c.nearest.as_ref().map_or(String::new(), |(names, m)| {
                    let names = names.join(" = ");
                    format!("; nearest {names}: {m} of 65536 entries equal")
                });
                format!(
                    "unknown: a valid compact stored form of {} bytes with actlut's header \
                     that decodes to none of the known tables{nearest}",
                    self.form_len
                )
            }
            (Verdict::Invalid, Some(c)) => format!(
                "invalid: actlut's compact header on bytes that are not a stored form ({})",
                c.decoded_text()
            ),
            (Verdict::Unknown | Verdict::Invalid, None) => self.verdict.name().to_string(),
        }
    }
}

/// The first differences `first` of `all` (`3, 17, …`: the dots when there
/// are more).
pub(crate) fn list_firsts(first: &[usize], all: usize) -> String {
    let list: Vec<String> = first.iter().map(|j| j.to_string()).collect();
    let more = if all > first.len() { ", …" } else { "" };
    format!("{}{more}", list.join(", "))
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

/// What a scan whose budget ran out ([`Report::too_many`]) did not judge:
/// each is unknown, so the scan is a problem.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Unjudged {
    /// File offset of the first thing not judged.
    pub from: Option<u64>,
    /// Table candidates (content) not compared, or not given a start.
    pub candidates: u64,
    /// `ACTLUTC1` headers not looked at.
    pub headers: u64,
    /// Manifest records not read.
    pub records: u64,
    /// Declaration candidates (a marker, or a known header, hash or name
    /// field) not judged.
    pub declarations: u64,
    /// Whether findings were dropped because the files audited before this
    /// one in the same call kept the rest of one [`MAX_FOUND`]
    /// ([`Report::keep_at_most`]).
    pub shared: bool,
}

impl Unjudged {
    /// Counts one more thing of `kind` at `at` not judged.
    pub(crate) fn add(&mut self, kind: Kind, at: u64) {
        self.add_many(kind, at, 1);
    }

    /// Counts `n` more things of `kind`, the first at `at`, not judged.
    fn add_many(&mut self, kind: Kind, at: u64, n: u64) {
        self.from = Some(self.from.map_or(at, |f| f.min(at)));
        *match kind {
            Kind::Candidate => &mut self.candidates,
            Kind::Header => &mut self.headers,
            Kind::Record => &mut self.records,
            Kind::Declaration => &mut self.declarations,
        } += n;
    }
}

/// Keeps the first `*left` of `items` (and takes them from `*left`); what it
/// drops is counted in `unjudged` as `kind`. Whether it dropped any.
fn keep_first<T>(
    items: &mut Vec<T>,
    left: &mut usize,
    offset: impl Fn(&T) -> u64,
    kind: Kind,
    unjudged: &mut Unjudged,
) -> bool {
    let keep = items.len().min(*left);
    *left -= keep;
    let Some(first) = items.get(keep) else {
        return false;
    };
    unjudged.add_many(kind, offset(first), (items.len() - keep) as u64);
    items.truncate(keep);
    items.shrink_to_fit();
    true
}

/// The kinds of finding that share the scan's budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Candidate,
    Header,
    Record,
    Declaration,
}

/// What `audit` (or [`Index::scan`](crate::index::Index::scan))
/// found in one artifact.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The artifact's name in reports: its path, as given.
    pub path: String,
    /// What kind of file its headers say it is ([`crate::container::Container::kind`]:
    /// `ELF`, `wasm`, `ar archive`, …, or `bytes`).
    pub kind: &'static str,
    /// SHA-256 of the whole artifact (zeros from [`Index::scan`](crate::index::Index::scan),
    /// which does not hash it).
    pub file_sha256: [u8; 32],
    /// Bytes scanned.
    pub bytes: u64,
    /// Every copy found, by increasing offset.
    pub found: Vec<Found>,
    /// Every known table hash found stored raw, with whether its table is here.
    pub listed: Vec<Listed>,
    /// More than [`MAX_FOUND`] findings (copies, compact forms found by
    /// their header, manifest records and declarations together) were
    /// kept, or judging them would have compared more than
    /// [`BUDGET_PER_BYTE`] entries per byte of input: the scan stopped
    /// judging them (a problem: exit status 1), and
    /// [`unjudged`](Self::unjudged) counts what it did not judge.
    pub too_many: bool,
    /// What the scan did not judge once its budget ran out.
    pub unjudged: Unjudged,
    /// Candidate table starts compared with their reference (a measure of
    /// the work the scan did).
    pub candidates: u64,
    /// Entries compared while verifying them.
    pub compared: u64,
    /// The most matching key windows of a compact candidate that was
    /// compared in full and not reported (see [`compact::is_evidence`](crate::compact::is_evidence)).
    pub compact_rejected_chunks: usize,
    /// The most matching evidence bytes, per mille of those present, of a
    /// compact candidate wholly in the file, with a matching key window,
    /// compared in full and not reported: the margin of
    /// [`compact::MIN_MATCHING_PER_MILLE`](crate::compact::MIN_MATCHING_PER_MILLE) on this input. Candidates whose
    /// sampled bytes ([`compact::SAMPLES`](crate::compact::SAMPLES)) match less than
    /// [`compact::MIN_SAMPLED_PER_MILLE`](crate::compact::MIN_SAMPLED_PER_MILLE) are not compared in full.
    pub compact_rejected_share: u32,
    /// The same for candidates that an end of the file cuts off: the margin
    /// of [`compact::MIN_CUT_MATCHING_PER_MILLE`](crate::compact::MIN_CUT_MATCHING_PER_MILLE).
    pub compact_rejected_cut_share: u32,
    /// Every manifest record found by its structure ([`crate::manifest`]),
    /// by offset: each must hold the lock's hash for its name.
    pub records: Vec<crate::manifest::Record>,
    /// Every declaration record found ([`crate::declared`]), by offset: each
    /// must parse, hold the lock's hash and have its table intact after it.
    pub declared: Vec<crate::declared::Declared>,
    /// Why the file's headers (ELF, wasm, Mach-O, PE, ar archive) do not hold
    /// ([`crate::container::inspect`]; set by the caller that read them): a
    /// problem.
    pub malformed: Option<String>,
    /// The most matching surprises of a 16-bit table candidate that was
    /// compared in full and not reported: the margin of
    /// [`MIN_EVIDENCE_WORDS`](crate::MIN_EVIDENCE_WORDS) on this input.
    pub rejected_surprises: usize,
    /// The same for its matching pair grams: the margin of
    /// [`MIN_EVIDENCE_PAIRS`](crate::MIN_EVIDENCE_PAIRS).
    pub rejected_pairs: usize,
    /// The most matching features of an 8-bit table candidate that was
    /// compared and not reported (it had [`MIN_FEATURES`](crate::MIN_FEATURES)
    /// at its start, or it would not have been compared: this says how far
    /// above that the coincidences of this input went).
    pub rejected_features: usize,
    /// The most matching entries of an 8-bit table candidate with enough
    /// matching features that was not reported: the margin of
    /// [`MIN_MATCHING_SMALL`](crate::MIN_MATCHING_SMALL) (and
    /// [`MIN_INFORMATIVE_SMALL`](crate::MIN_INFORMATIVE_SMALL)) on this input.
    pub rejected_matching: usize,
    /// The largest share, per mille, of its distinctive entries that an
    /// 8-bit table candidate with enough matching features matched and was
    /// not reported: the margin of
    /// [`MIN_DISTINCTIVE_PER_MILLE`](crate::MIN_DISTINCTIVE_PER_MILLE).
    pub rejected_distinctive_per_mille: u32,
}

impl Report {
    /// Keeps at most `room` of its findings (copies found by content,
    /// manifest records, tables named by their hash, counted as table
    /// candidates, and declarations, the first by offset of each kind
    /// first), and returns how many it kept. What it drops is counted as not
    /// judged ([`unjudged`](Self::unjudged)) and makes it
    /// [`too_many`](Self::too_many) (a problem): `audit_all`
    /// so bounds the findings of all files together by one [`MAX_FOUND`](crate::MAX_FOUND).
    pub fn keep_at_most(&mut self, room: usize) -> usize {
        let mut left = room;
        let (l, u) = (&mut left, &mut self.unjudged);
        let dropped = keep_first(&mut self.found, l, |f| f.offset, Kind::Candidate, u)
            | keep_first(&mut self.records, l, |r| r.offset, Kind::Record, u)
            | keep_first(&mut self.listed, l, |h| h.offset, Kind::Candidate, u)
            | keep_first(&mut self.declared, l, |d| d.offset, Kind::Declaration, u);
        self.too_many |= dropped;
        self.unjudged.shared |= dropped;
        room - left
    }

    /// The line that says what a scan that ran out of budget did not judge.
    pub fn stopped(&self) -> String {
        let u = &self.unjudged;
        let from = u
            .from
            .map_or(String::new(), |at| format!(" from {at:#010x} on"));
        let shared = if u.shared {
            "; the files audited before it in this call kept the rest of the findings \
             (audit fewer files at once)"
        } else {
            ""
        };
        format!(
            "too many table candidates, headers or records (over {MAX_FOUND} found, or over \
             {BUDGET_PER_BYTE} entries compared per byte): the scan stopped; not judged{from}: \
             {} table candidates, {} compact headers, {} manifest records, {} declarations{shared}",
            u.candidates, u.headers, u.records, u.declarations
        )
    }

    /// Every problem, one line each (the messages of [`findings`](Self::findings)):
    /// a copy that is modified, truncated or not in `lock`, a table named by
    /// its hash that is not here intact, a record or declaration that does
    /// not hold, malformed headers, a scan that stopped. An audit passes when
    /// this is empty.
    pub fn problems(&self, lock: &[Entry]) -> Vec<String> {
        self.findings(lock).into_iter().map(|p| p.message).collect()
    }

    /// Every problem with where it lies in the file and what kind it is.
    pub fn findings(&self, lock: &[Entry]) -> Vec<Problem> {
        let at = |rule, offset, length, message: Option<String>| {
            message.map(|message| Problem {
                rule,
                offset,
                length,
                message,
            })
        };
        let found = self.found.iter().filter_map(|f| {
            let rule = match f.verdict {
                Verdict::Intact if f.foreign_order => Rule::ForeignByteOrder,
                Verdict::Intact => Rule::NotInLock,
                Verdict::Modified => Rule::Modified,
                Verdict::Truncated => Rule::Truncated,
                Verdict::Unknown | Verdict::Invalid => Rule::CompactForm,
            };
            at(rule, Some(f.offset), Some(f.len as u64), f.problem(lock))
        });
        let listed = self.listed.iter();
        let listed = listed.filter_map(|l| at(Rule::Listed, Some(l.offset), Some(32), l.problem()));
        let record_len = Some(crate::manifest::RECORD_BYTES as u64);
        let records = self.records.iter();
        let records =
            records.filter_map(|r| at(Rule::Record, Some(r.offset), record_len, r.problem(lock)));
        let declared = self.declared.iter().filter_map(|d| {
            let len = Some(d.table_offset() - d.offset);
            at(Rule::Declaration, Some(d.offset), len, d.problem())
        });
        let malformed = at(Rule::Malformed, None, None, self.malformed.clone());
        let stopped = self.too_many.then(|| self.stopped());
        let stopped = at(Rule::NotJudged, self.unjudged.from, None, stopped);
        found
            .chain(listed)
            .chain(records)
            .chain(declared)
            .chain(malformed)
            .chain(stopped)
            .collect()
    }

    /// Whether nothing was verified: no table found by content, no
    /// declaration, no table named by its hash. Not a confirmation of
    /// anything ([`NOTHING_VERIFIED`]).
    pub fn nothing_verified(&self) -> bool {
        self.found.is_empty()
            && self.declared.is_empty()
            && self.listed.is_empty()
            && self.records.is_empty()
    }

    /// Whether a table named `name` is here: a copy found under that name,
    /// or a declaration of it, or a table the file names by hash.
    pub fn holds(&self, name: &str) -> bool {
        let named = |names: &[String]| names.iter().any(|n| n == name);
        self.found.iter().any(|f| named(&f.names))
            || self.declared.iter().any(|d| d.name() == Some(name))
            || self.listed.iter().any(|l| named(&l.names))
    }
}

/// What every report says of a file in which nothing was verified.
pub const NOTHING_VERIFIED: &str = "no actlut table found: nothing was verified";

/// The kinds of problem, each a rule of the SARIF report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rule {
    /// A copy whose entries differ from its table's.
    Modified,
    /// A copy that an end of the file cuts off.
    Truncated,
    /// An intact copy of a table the lock does not hold with its hash.
    NotInLock,
    /// An intact copy in the other byte order than the file declares.
    ForeignByteOrder,
    /// A compact stored form of no known table, or not valid.
    CompactForm,
    /// A table the file names by its hash that is not here intact.
    Listed,
    /// A manifest record whose hash is not the lock's, or malformed.
    Record,
    /// A declaration that does not parse, or whose table does not hold.
    Declaration,
    /// Headers that do not hold.
    Malformed,
    /// What the scan did not judge once its budget ran out.
    NotJudged,
    /// A table the caller expects (`--expect`) that the file does not hold.
    Expected,
}

impl Rule {
    /// Every rule, in order.
    pub const ALL: [Rule; 11] = [
        Rule::Modified,
        Rule::Truncated,
        Rule::NotInLock,
        Rule::ForeignByteOrder,
        Rule::CompactForm,
        Rule::Listed,
        Rule::Record,
        Rule::Declaration,
        Rule::Malformed,
        Rule::NotJudged,
        Rule::Expected,
    ];

    /// Its identifier (`modified`, `bad-declaration`, …).
    pub const fn id(self) -> &'static str {
        match self {
            Rule::Modified => "modified",
            Rule::Truncated => "truncated",
            Rule::NotInLock => "not-in-lock",
            Rule::ForeignByteOrder => "foreign-byte-order",
            Rule::CompactForm => "compact-form",
            Rule::Listed => "named-table-missing",
            Rule::Record => "manifest-record",
            Rule::Declaration => "bad-declaration",
            Rule::Malformed => "malformed",
            Rule::NotJudged => "not-judged",
            Rule::Expected => "expected-table-missing",
        }
    }

    /// What it means, in one line.
    pub const fn description(self) -> &'static str {
        match self {
            Rule::Modified => "a copy of a known table whose entries differ",
            Rule::Truncated => "a copy of a known table cut off by an end of the file",
            Rule::NotInLock => "an intact table that the lock does not hold with its hash",
            Rule::ForeignByteOrder => {
                "an intact table in the other byte order than the file declares"
            }
            Rule::CompactForm => "a compact stored form of no known table, or not valid",
            Rule::Listed => "a table the file names by its SHA-256 that is not in it intact",
            Rule::Record => "a manifest record whose hash is not the lock's, or malformed",
            Rule::Declaration => {
                "a declaration that does not parse, or whose table is not its hash's"
            }
            Rule::Malformed => "file headers that do not hold",
            Rule::NotJudged => "what the scan did not judge once its budget ran out",
            Rule::Expected => "a table the caller expects that the file does not hold",
        }
    }
}

/// One problem: its kind, where it lies (file offset and bytes, when it has
/// a place) and one line that says what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Its kind.
    pub rule: Rule,
    /// File offset of what is wrong.
    pub offset: Option<u64>,
    /// Bytes of what is wrong from there.
    pub length: Option<u64>,
    /// The line.
    pub message: String,
}
