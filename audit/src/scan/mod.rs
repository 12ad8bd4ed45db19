//! The scan of one artifact, by stage: [`probe`] looks up every offset, [`verify`] compares
//! the candidates with their references, [`headers`] judges compact stored forms and their
//! headers, [`records`] reads manifest records, and [`merge`] makes the report.

use std::collections::HashMap;
use std::io::Read;

use crate::index::Index;
use crate::limits::*;
use crate::manifest::Record;
use crate::reference::ByteOrder;
use crate::report::Report;
use crate::report::{Found, Kind, Unjudged};

mod cover;
mod declarations;
mod headers;
mod merge;
mod probe;
mod records;
mod verify;

use verify::Evidence;

/// An artifact read piece by piece: [`feed`](Self::feed) it bytes in order,
/// then [`finish`](Self::finish). It keeps two table lengths of bytes behind
/// the scan position, so a table that straddles two pieces is found.
pub struct Scanner<'a> {
    pub(crate) index: &'a Index,
    pub(crate) buf: Vec<u8>,
    /// Absolute offset of `buf[0]`.
    pub(crate) base: u64,
    /// Next absolute position to probe.
    pub(crate) next: u64,
    /// Gram hits (votes) of every candidate not yet compared, each packed
    /// in a word ([`VoteKey`], [`Votes::pack`]): a block's starts make the
    /// table larger than the cache, and 16 bytes an entry (not 32) halve the
    /// memory its lookups touch.
    pub(crate) seen: HashMap<u64, u64>,
    /// How [`seen`](Self::seen)'s keys pack a candidate.
    pub(crate) vote_key: VoteKey,
    /// Feature hits of the starts of 8-bit tables still within reach: for
    /// each such table a ring of [`FEATURE_RING`] `(start, hits)`, at
    /// `start mod FEATURE_RING` (a start gets its hits from the
    /// `256 + FEATURE_REACH` bytes after it, so two starts in reach never
    /// share a place).
    pub(crate) feature_votes: Vec<(i64, u32)>,
    /// Starts of 8-bit tables with [`MIN_FEATURES`] hits (common in smooth
    /// data: 16-bit tables, ramps) whose matching bytes, eight at a time, are
    /// not counted yet (once all their bytes are read): only those with
    /// enough join [`pending`](Self::pending), so that what waits there stays
    /// bounded by the tables, not by the input.
    pub(crate) unchecked: Vec<(u32, i64)>,
    /// Candidates to compare that have no votes in [`seen`](Self::seen):
    /// the starts of 8-bit tables with enough matching bytes (those with
    /// votes wait there).
    pub(crate) pending: Vec<(u32, i64)>,
    pub(crate) found: Vec<Found>,
    /// Where the evidence of each of [`found`](Self::found) lies.
    pub(crate) evidence_at: Vec<Evidence>,
    /// The found copies before this one have their evidence settled
    /// ([`Scanner::settle`]).
    pub(crate) unsettled: usize,
    /// The file ranges of the copies found so far that clear what lies in
    /// them ([`verify::clears`]), merged.
    pub(crate) cover: cover::Claimed,
    /// The file ranges of the declared full tables verified intact (each
    /// also in `cover`): a candidate at one of them exactly is compared
    /// still, and reported by its content too.
    pub(crate) declared_extents: std::collections::HashSet<(u64, u64)>,
    pub(crate) listed: Vec<(usize, u64)>,
    /// Where each image below [`MIN_CONTENT_ENTRIES`] was first found byte
    /// for byte.
    pub(crate) exact: HashMap<u32, u64>,
    /// Offsets of `ACTLUTC1` not yet looked at.
    pub(crate) headers: Vec<u64>,
    /// Offsets of manifest records not yet read, and whether each was found
    /// by its name field (not its marker).
    pub(crate) record_at: Vec<(u64, bool)>,
    pub(crate) records: Vec<Record>,
    /// Offsets of declaration records not yet judged ([`crate::declared`]).
    pub(crate) declared_at: Vec<u64>,
    pub(crate) declared: Vec<crate::declared::Declared>,
    /// The last declaration candidate judged: candidates come in order of
    /// offset, so one at or before it was judged already.
    pub(crate) declared_to: Option<u64>,
    /// Compact stored forms found by their header.
    pub(crate) by_header: Vec<Found>,
    /// The report's fields of the same names.
    pub(crate) compact_rejected_chunks: usize,
    pub(crate) compact_rejected_share: u32,
    pub(crate) compact_rejected_cut_share: u32,
    pub(crate) too_many: bool,
    /// What the scan did not judge once the budget ran out.
    pub(crate) unjudged: Unjudged,
    /// The byte order the file declares: its container's
    /// ([`crate::container::inspect`]), or else an ELF header's or a wasm
    /// module's, once its first bytes are read.
    pub(crate) native: Option<ByteOrder>,
    /// See [`Report::rejected_surprises`] and [`Report::rejected_pairs`].
    pub(crate) rejected: core::cell::Cell<(usize, usize)>,
    /// See [`Report::rejected_features`] and [`Report::rejected_matching`].
    pub(crate) rejected_small: core::cell::Cell<(usize, usize)>,
    /// See [`Report::rejected_distinctive_per_mille`].
    pub(crate) rejected_distinctive: core::cell::Cell<u32>,
    pub(crate) candidates: u64,
    pub(crate) compared: u64,
    /// What is left of [`OP_ALLOWANCE`]: recomputing the first declared ops
    /// is not charged to the budget.
    pub(crate) op_allowance: u64,
}

/// Bytes past a probe position that must be present before it is probed in
/// the middle of a file (a hash is 32 bytes; a table found by its exact
/// bytes, an 8-bit one, at most 256).
pub(crate) const LOOKAHEAD: usize = 256;

/// The capacity of the table of votes ([`Scanner::seen`]), allocated once and
/// never grown: 2 Mi slots of 16 bytes (36 MB). A start that finds no room
/// (past half of it, which tombstones can fill) stops the votes of its block,
/// and after a block, past half of it, the scan says it stopped and compares
/// the starts it holds as if they had every vote.
pub(crate) const MAX_VOTING_STARTS: usize = 7 << 18;

/// Starts of one 8-bit table whose feature hits are kept at once (a power of
/// two above 256 + [`FEATURE_REACH`]).
pub(crate) const FEATURE_RING: usize = 512;

impl<'a> Scanner<'a> {
    /// A scanner at the start of an artifact.
    pub fn new(index: &'a Index) -> Scanner<'a> {
        Scanner {
            index,
            buf: Vec::new(),
            base: 0,
            next: 0,
            seen: HashMap::with_capacity(MAX_VOTING_STARTS),
            vote_key: VoteKey::new(index),
            feature_votes: vec![(i64::MIN, 0); index.slots * FEATURE_RING],
            unchecked: Vec::new(),
            pending: Vec::new(),
            found: Vec::new(),
            evidence_at: Vec::new(),
            unsettled: 0,
            cover: cover::Claimed::default(),
            declared_extents: std::collections::HashSet::new(),
            listed: Vec::new(),
            exact: HashMap::new(),
            headers: Vec::new(),
            record_at: Vec::new(),
            records: Vec::new(),
            declared_at: Vec::new(),
            declared: Vec::new(),
            declared_to: None,
            by_header: Vec::new(),
            compact_rejected_chunks: 0,
            compact_rejected_share: 0,
            compact_rejected_cut_share: 0,
            too_many: false,
            unjudged: Unjudged::default(),
            native: None,
            rejected: core::cell::Cell::new((0, 0)),
            rejected_small: core::cell::Cell::new((0, 0)),
            rejected_distinctive: core::cell::Cell::new(0),
            candidates: 0,
            compared: 0,
            op_allowance: OP_ALLOWANCE,
        }
    }

    /// A scanner at the start of an artifact whose container declares the
    /// byte order `order` ([`crate::container::inspect`]: a Mach-O, PE or
    /// COFF file's, an ar archive's members'), when its first bytes declare
    /// none.
    pub fn with_order(index: &'a Index, order: Option<ByteOrder>) -> Scanner<'a> {
        let mut s = Scanner::new(index);
        s.native = order;
        s
    }

    pub(crate) fn end(&self) -> u64 {
        self.base + self.buf.len() as u64
    }

    /// The budget so far: [`BUDGET_PER_BYTE`] entries per byte read, plus
    /// [`BUDGET_ALLOWANCE`].
    pub(crate) fn budget(&self) -> u64 {
        BUDGET_PER_BYTE * self.end() + BUDGET_ALLOWANCE
    }

    /// Spends `cost` on judging a thing of `kind` at `at`, or, when the
    /// budget is spent, records that it was not judged and returns false.
    pub(crate) fn spend(&mut self, cost: u64, kind: Kind, at: u64) -> bool {
        if self.compared > self.budget() {
            return self.not_judged(kind, at);
        }
        self.compared += cost;
        true
    }

    /// Whether one more finding of `kind` at `at` may be kept: once
    /// [`MAX_FOUND`] findings of every kind are, it records that it was not
    /// judged and returns false.
    pub(crate) fn keep(&mut self, kind: Kind, at: u64) -> bool {
        let kept = self.found.len() + self.by_header.len() + self.records.len();
        kept + self.declared.len() < MAX_FOUND || self.not_judged(kind, at)
    }

    /// Records that a thing of `kind` at `at` was not judged; false.
    fn not_judged(&mut self, kind: Kind, at: u64) -> bool {
        self.too_many = true;
        self.unjudged.add(kind, at);
        false
    }

    /// The next bytes of the artifact.
    pub fn feed(&mut self, data: &[u8]) {
        self.buf.extend_from_slice(data);
        if self.base == 0 && self.native.is_none() {
            self.native = declared_order(&self.buf);
        }
        let end = self.end();
        if end >= self.next + LOOKAHEAD as u64 {
            self.probe(end - LOOKAHEAD as u64 + 1);
        }
        // Declared tables enter the cover before the copies around them are
        // compared and their evidence settled.
        self.read_declared(false);
        self.verify_ready(false);
        self.settle(false);
        self.verify_headers(false);
        self.read_records();
        // Keep two table lengths behind the scan position: every candidate
        // still to come starts after one, and every pending one after two;
        // and every declaration record not yet judged.
        let keep = self.next.saturating_sub(2 * self.index.max_len as u64);
        let keep = self.declared_at.iter().fold(keep, |k, &p| k.min(p));
        // Only copies found after `keep`, or not settled, ask the cover: forget the rest.
        let unsettled = self.found[self.unsettled..].iter().map(|f| f.offset);
        self.cover.forget_before(unsettled.fold(keep, u64::min));
        if keep > self.base {
            self.buf.drain(..(keep - self.base) as usize);
            self.base = keep;
            // The votes left are those of the candidates not yet ready
            // (`verify_ready` takes the others), all after `keep`.
            if self.seen.len() >= MAX_VOTING_STARTS / 2 {
                // Forgetting votes could hide a copy whose grams lie on
                // either side of the flood: the scan says it stopped. Its
                // candidates are still compared, as if they had every vote.
                self.too_many = true;
                let key = self.vote_key;
                self.pending.reserve_exact(self.seen.len());
                self.pending.extend(self.seen.keys().map(|&k| key.split(k)));
                self.seen.clear();
            }
        }
    }
}

/// The byte order a file's header declares: an ELF's `EI_DATA`, or a wasm
/// module (little-endian). `None` for anything else (a raw image).
fn declared_order(head: &[u8]) -> Option<ByteOrder> {
    match head {
        [0x7F, b'E', b'L', b'F', _, 1, ..] | [0, b'a', b's', b'm', ..] => Some(ByteOrder::Little),
        [0x7F, b'E', b'L', b'F', _, 2, ..] => Some(ByteOrder::Big),
        _ => None,
    }
}

/// Takes out of `items` those that are `ready`, in the order the stages
/// have always taken them: each one's place goes to the last item.
pub(crate) fn take_ready<T: Copy>(items: &mut Vec<T>, ready: impl Fn(T) -> bool) -> Vec<T> {
    let mut taken = Vec::new();
    let mut i = 0;
    while i < items.len() {
        if ready(items[i]) {
            taken.push(items.swap_remove(i));
        } else {
            i += 1;
        }
    }
    taken
}

/// The gram hits of one candidate start: how many, and the first and last
/// of their offsets in the form.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Votes {
    pub(crate) hits: u32,
    pub(crate) first: u32,
    pub(crate) last: u32,
}

impl Votes {
    /// The first vote for a start, at `offset` in its form.
    pub(crate) fn new(offset: u32) -> Votes {
        Votes {
            hits: 0,
            first: offset,
            last: offset,
        }
    }

    /// One more vote, at `offset` in the form.
    pub(crate) fn add(self, offset: u32) -> Votes {
        Votes {
            hits: self.hits + 1,
            first: self.first.min(offset),
            last: self.last.max(offset),
        }
    }

    /// In one word: `hits` in 24 bits, `first` and `last` in 20 each. A form
    /// is shorter than 2^20 bytes ([`VoteKey::new`] checks it), and a start
    /// gets at most one hit per byte of its form from each of the three
    /// tables of sites (compact keys, large grams, small grams), fewer than
    /// 2^22.
    pub(crate) fn pack(self) -> u64 {
        debug_assert!(self.hits < 1 << 24 && self.first < 1 << 20 && self.last < 1 << 20);
        u64::from(self.hits) << 40 | u64::from(self.first) << 20 | u64::from(self.last)
    }

    pub(crate) fn unpack(word: u64) -> Votes {
        Votes {
            hits: (word >> 40) as u32,
            first: (word >> 20) as u32 & 0xF_FFFF,
            last: word as u32 & 0xF_FFFF,
        }
    }
}

/// A candidate `(image, start)` as one word: the image in the low `bits`
/// bits, the start plus the longest form (a start lies at most that far
/// before the file) in the others.
#[derive(Clone, Copy, Debug)]
pub(crate) struct VoteKey {
    bits: u32,
    bias: i64,
}

impl VoteKey {
    fn new(index: &Index) -> VoteKey {
        assert!(
            index.max_len < 1 << 20,
            "a form's offsets fit the 20 bits `Votes::pack` gives them"
        );
        VoteKey {
            bits: u64::BITS - (index.images.len() as u64).leading_zeros(),
            bias: index.max_len as i64,
        }
    }

    #[inline(always)]
    pub(crate) fn key(self, image: u32, start: i64) -> u64 {
        debug_assert!(start + self.bias >= 0 && u64::from(image) >> self.bits == 0);
        ((start + self.bias) as u64) << self.bits | u64::from(image)
    }

    #[inline(always)]
    pub(crate) fn split(self, key: u64) -> (u32, i64) {
        let image = (key & ((1 << self.bits) - 1)) as u32;
        (image, (key >> self.bits) as i64 - self.bias)
    }
}

impl Index {
    /// Every table in `data` (see [`Scanner`]).
    pub fn scan(&self, data: &[u8]) -> Report {
        self.scan_reader_in(data, None, 0)
            .expect("reading bytes in memory cannot fail")
    }

    /// Every table in what `reader` yields, read in blocks of [`BLOCK_BYTES`]
    /// (memory stays bounded whatever the input's size), of a file whose
    /// container declares the byte order `order` ([`Scanner::with_order`]),
    /// with `spent` of the budget spent already (reading the file's headers:
    /// every stage charges one budget).
    ///
    /// # Errors
    ///
    /// The reader's errors ([`std::io::ErrorKind::Interrupted`] is retried).
    pub fn scan_reader_in<R: Read>(
        &self,
        mut reader: R,
        order: Option<ByteOrder>,
        spent: u64,
    ) -> std::io::Result<Report> {
        let mut s = Scanner::with_order(self, order);
        s.compared = spent;
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
