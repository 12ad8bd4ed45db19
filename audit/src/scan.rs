//! The scan of one artifact: probing every offset, verifying candidates, and the report.

use std::collections::HashMap;
use std::format;
use std::string::ToString;
use std::vec::Vec;

use actlut_codegen::Format;

use crate::compact::{self, CompactDetail, Decoded, FoundBy};
use crate::index::{feature_key, key_le, mix, swap16, NEEDLE};
use crate::manifest::{Record, MARK, MARK_U64, RECORD_BYTES};
use crate::*;

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
    /// Gram hits (votes) of every candidate still within reach.
    pub(crate) seen: HashMap<(u32, i64), Votes>,
    /// Feature hits of the starts of 8-bit tables still within reach: for
    /// each such table a ring of [`FEATURE_RING`] `(start, hits)`, at
    /// `start mod FEATURE_RING` (a start gets its hits from the
    /// `256 + FEATURE_REACH` bytes after it, so two starts in reach never
    /// share a place).
    pub(crate) feature_votes: Vec<(i64, u32)>,
    /// Starts of 8-bit tables with [`MIN_FEATURES`] hits whose matching
    /// bytes are not counted yet (once all their bytes are read): only
    /// those with enough join [`pending`](Self::pending), so that what waits
    /// there stays bounded by the tables, not by the input.
    pub(crate) unchecked: Vec<(u32, i64)>,
    pub(crate) pending: Vec<(u32, i64)>,
    pub(crate) found: Vec<Found>,
    /// Where the evidence of each of [`found`](Self::found) lies.
    pub(crate) evidence_at: Vec<Evidence>,
    pub(crate) listed: Vec<(usize, u64)>,
    /// Where each image below [`MIN_CONTENT_ENTRIES`] was first found byte
    /// for byte.
    pub(crate) exact: HashMap<u32, u64>,
    /// Offsets of `ACTLUTC1` not yet looked at.
    pub(crate) headers: Vec<u64>,
    /// Offsets of manifest records not yet read, and whether each was found
    /// by its name field (not its marker).
    pub(crate) record_at: Vec<(u64, bool)>,
    /// Manifest records found.
    pub(crate) records: Vec<Record>,
    /// Offsets of declaration records not yet judged ([`crate::declared`]).
    pub(crate) declared_at: Vec<u64>,
    /// Declaration records judged.
    pub(crate) declared: Vec<crate::declared::Declared>,
    /// Compact stored forms found by their header.
    pub(crate) by_header: Vec<Found>,
    /// See [`Report::compact_rejected_chunks`].
    pub(crate) compact_rejected_chunks: usize,
    /// See [`Report::compact_rejected_share`].
    pub(crate) compact_rejected_share: u32,
    /// See [`Report::compact_rejected_cut_share`].
    pub(crate) compact_rejected_cut_share: u32,
    pub(crate) too_many: bool,
    /// The byte order the file declares (an ELF header's, or a wasm
    /// module's), once its first bytes are read.
    pub(crate) native: Option<ByteOrder>,
    /// See [`Report::rejected_surprises`] and [`Report::rejected_pairs`].
    pub(crate) rejected: core::cell::Cell<(usize, usize)>,
    /// See [`Report::rejected_features`] and [`Report::rejected_matching`].
    pub(crate) rejected_small: core::cell::Cell<(usize, usize)>,
    /// See [`Report::rejected_distinctive_per_mille`].
    pub(crate) rejected_distinctive: core::cell::Cell<u32>,
    pub(crate) candidates: u64,
    pub(crate) compared: u64,
}

/// Bytes past a probe position that must be present before it is probed in
/// the middle of a file (a hash is 32 bytes; a table below
/// [`MIN_CONTENT_ENTRIES`] at most 64).
pub(crate) const LOOKAHEAD: usize = 64;

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
            seen: HashMap::new(),
            feature_votes: vec![(i64::MIN, 0); index.slots * FEATURE_RING],
            unchecked: Vec::new(),
            pending: Vec::new(),
            found: Vec::new(),
            evidence_at: Vec::new(),
            listed: Vec::new(),
            exact: HashMap::new(),
            headers: Vec::new(),
            record_at: Vec::new(),
            records: Vec::new(),
            declared_at: Vec::new(),
            declared: Vec::new(),
            by_header: Vec::new(),
            compact_rejected_chunks: 0,
            compact_rejected_share: 0,
            compact_rejected_cut_share: 0,
            too_many: false,
            native: None,
            rejected: core::cell::Cell::new((0, 0)),
            rejected_small: core::cell::Cell::new((0, 0)),
            rejected_distinctive: core::cell::Cell::new(0),
            candidates: 0,
            compared: 0,
        }
    }

    pub(crate) fn end(&self) -> u64 {
        self.base + self.buf.len() as u64
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
        self.verify_ready(false);
        self.verify_headers(false);
        self.read_records();
        self.read_declared(false);
        // Keep two table lengths behind the scan position: every candidate
        // still to come starts after one, and every pending one after two;
        // and every declaration record not yet judged.
        let keep = self.next.saturating_sub(2 * self.index.max_len as u64);
        let keep = self.declared_at.iter().fold(keep, |k, &p| k.min(p));
        if keep > self.base {
            let drop = (keep - self.base) as usize;
            self.buf.drain(..drop);
            self.base = keep;
            let horizon = keep as i64;
            self.seen.retain(|&(_, s), _| s >= horizon);
            if self.seen.len() > 1 << 22 {
                // Forgetting votes could hide a copy whose grams lie on
                // either side of the flood: the scan says it stopped.
                self.too_many = true;
                self.seen.clear();
            }
        }
    }

    /// Probes every position in `[self.next, to)`.
    pub(crate) fn probe(&mut self, to: u64) {
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
            record_at,
            declared_at,
            ..
        } = self;
        let from = (*next - *base) as usize;
        let to_i = (to - *base) as usize;
        let n = buf.len();
        let mut candidate = |image: u32, start: i64, offset: u32| {
            let votes = seen.entry((image, start)).or_insert(Votes {
                hits: 0,
                first: offset,
                last: offset,
            });
            if votes.hits == 0 {
                pending.push((image, start));
            }
            votes.hits += 1;
            votes.first = votes.first.min(offset);
            votes.last = votes.last.max(offset);
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
                maybe |= u64::from(index.fours.maybe(k)) << t;
            }
            while maybe != 0 {
                let i = block + maybe.trailing_zeros() as usize;
                maybe &= maybe - 1;
                let k = key_le(&buf[i..i + compact::KEY_BYTES]);
                for site in index.fours.get(k) {
                    candidate(
                        site.image,
                        (*base + i as u64) as i64 - site.offset as i64,
                        site.offset,
                    );
                }
            }
            block += len;
        }
        // The grams, hashes, headers and records at one offset (the 8-byte
        // value there, and the 3-byte one).
        let mut at_offset = |i: usize| {
            let (large, small) = if i + 8 <= n {
                let x = u64::from_le_bytes(buf[i..i + 8].try_into().expect("8 bytes"));
                (Some(x), x & 0xFF_FFFF)
            } else if i + SMALL_GRAM <= n {
                (None, key_le(&buf[i..i + SMALL_GRAM]))
            } else {
                return;
            };
            if let Some(x) = large {
                if x == compact::MAGIC_U64 {
                    headers.push(*base + i as u64);
                }
                index.declared.probe(x, *base + i as u64, declared_at);
                if x == MARK_U64 {
                    record_at.push((*base + i as u64, false));
                } else if index.name_fields.maybe(x) && !index.name_fields.get(x).is_empty() {
                    if let Some(at) = (*base + i as u64).checked_sub(MARK.len() as u64) {
                        record_at.push((at, true));
                    }
                    if let Some(at) =
                        (*base + i as u64).checked_sub(crate::declared::DECLARATION_NAME_AT as u64)
                    {
                        declared_at.push(at);
                    }
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
                            candidate(
                                site.image,
                                (*base + i as u64) as i64 - site.offset as i64,
                                site.offset,
                            );
                        }
                    }
                }
            }
            if index.small.maybe(small) {
                for site in index.small.get(small) {
                    candidate(
                        site.image,
                        (*base + i as u64) as i64 - site.offset as i64,
                        site.offset,
                    );
                }
            }
        };
        // The features of 8-bit tables at one offset, for each distance: a
        // bit per pair of bytes, then the tables that hold a hit.
        let per_distance: [&[u64; 1 << 10]; FEATURE_REACH] = core::array::from_fn(|d| {
            index.feature_bits[d << 10..(d + 1) << 10]
                .try_into()
                .expect("1024 words per distance")
        });
        let bit = |d: usize, a: u8, b: u8| -> u64 {
            let k = usize::from(a) | usize::from(b) << 8;
            per_distance[d - 1][k >> 6] >> (k & 63) & 1
        };
        let votes = &mut self.feature_votes;
        let unchecked = &mut self.unchecked;
        let rejected_small = &self.rejected_small;
        let budget = BUDGET_PER_BYTE * (*base + n as u64) + BUDGET_ALLOWANCE;
        let mut compared = self.compared;
        let mut over_budget = false;
        let mut feature_pending = Vec::new();
        let mut features_at = |i: usize| {
            for d in 1..=FEATURE_REACH.min(n - 1 - i) {
                let b = buf[i + d];
                if bit(d, buf[i], b) == 0 {
                    continue;
                }
                for site in index.features.get(feature_key(buf[i], b, d)) {
                    let start = (*base + i as u64) as i64 - site.offset as i64;
                    let slot = index.images[site.image as usize].slot as usize;
                    let v = &mut votes[slot * FEATURE_RING + (start as usize & (FEATURE_RING - 1))];
                    if v.0 != start {
                        *v = (start, 0);
                    }
                    v.1 += 1;
                    if v.1 != MIN_FEATURES as u32 {
                        continue;
                    }
                    // Three features at one start of an 8-bit table are
                    // common in smooth data (16-bit tables, ramps): count
                    // its matching bytes, eight at a time, as soon as they
                    // are read (they are unless the block ends within the
                    // table); only a start with enough waits to be compared.
                    let bytes = &index.images[site.image as usize].bytes;
                    let at = start - *base as i64;
                    if at < 0 || at as usize + bytes.len() > n {
                        unchecked.push((site.image, start));
                    } else if compared > budget {
                        over_budget = true;
                    } else {
                        let here = &buf[at as usize..][..bytes.len()];
                        if enough_matching(here, bytes, &mut compared, rejected_small) {
                            feature_pending.push((site.image, start));
                        }
                    }
                }
            }
        };
        // 64 offsets at a time: every filter is tested at every offset
        // without a branch between them (their cache misses overlap), then
        // the few offsets that may hold something are looked at.
        let small_keys = !index.small.keys.is_empty();
        let mut block = from;
        while block < to_i {
            let len = (to_i - block).min(64);
            if block + len + 8 > n {
                // The last bytes of the file.
                for i in block..to_i {
                    at_offset(i);
                    features_at(i);
                }
                break;
            }
            let (mut grams, mut feats) = (0u64, 0u64);
            for (t, w) in buf[block..block + len + 7].windows(8).enumerate() {
                let x = u64::from_le_bytes(w.try_into().expect("8 bytes"));
                let small = small_keys && index.small.maybe(x & 0xFF_FFFF);
                let any = index.eight.maybe(x) | small;
                grams |= u64::from(any) << t;
                let f = bit(1, w[0], w[1]) | bit(2, w[0], w[2]) | bit(3, w[0], w[3]);
                feats |= f << t;
            }
            while grams != 0 {
                at_offset(block + grams.trailing_zeros() as usize);
                grams &= grams - 1;
            }
            while feats != 0 {
                features_at(block + feats.trailing_zeros() as usize);
                feats &= feats - 1;
            }
            block += len;
        }
        pending.extend(feature_pending);
        self.compared = compared;
        self.too_many |= over_budget;
        *next = to;
    }

    /// Verifies the pending candidates whose every byte has been probed (so
    /// that all their votes are counted), or all of them at the end of the
    /// file. A candidate of a large form needs [`MIN_VOTES_LARGE`] gram hits:
    /// a lone coincidental hit is not worth comparing 65,536 entries.
    pub(crate) fn verify_ready(&mut self, eof: bool) {
        let end = self.end();
        // Three features at one start of an 8-bit table are common in smooth
        // data (16-bit tables, ramps): count its matching bytes, eight at a
        // time, as soon as they are read; only a start with enough waits to
        // be compared.
        let mut k = 0;
        while k < self.unchecked.len() {
            let (image, start) = self.unchecked[k];
            let im = &self.index.images[image as usize];
            if !eof && start + im.bytes.len() as i64 > end as i64 {
                k += 1;
                continue;
            }
            self.unchecked.swap_remove(k);
            if self.compared > BUDGET_PER_BYTE * end + BUDGET_ALLOWANCE {
                self.too_many = true;
                continue;
            }
            let (here, there) = self.present(image as usize, start);
            let mut compared = self.compared;
            let enough = enough_matching(here, there, &mut compared, &self.rejected_small);
            self.compared = compared;
            if enough {
                self.pending.push((image, start));
            }
        }
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
                let votes = self.seen.get(&(image, start)).copied();
                let hits = votes.map_or(u32::MAX, |v| v.hits);
                let spread = votes.map_or(u32::MAX, |v| v.last - v.first);
                let enough = if im.compact {
                    hits >= MIN_VOTES_LARGE
                } else {
                    hits >= MIN_VOTES_LARGE + self.index.extra_evidence as u32
                        && spread as usize >= VOTE_SPREAD
                };
                if im.small || enough {
                    ready.push((hits, image, start));
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
            // A candidate that lies wholly inside intact copies already found
            // has no evidence of its own: every byte it could match is theirs
            // (see `finish`). Skip it. Nothing else is skipped.
            let open = uncovered(&self.found, lo.max(0) as u64, hi.max(0) as u64);
            if open.is_empty() {
                continue;
            }
            // Overlapping intact copies: a candidate is compared in full only
            // when the part outside them holds the evidence it needs.
            if !im.compact && open != [(lo.max(0) as u64, hi.max(0) as u64)] {
                let (own, pairs, looked) = self.evidence_in(image as usize, start, &open);
                self.compared += looked;
                if own < self.index.needed(image as usize) && pairs < MIN_EVIDENCE_PAIRS {
                    continue;
                }
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
            if let Some((f, at)) = found {
                self.found.push(f);
                self.evidence_at.push(at);
            }
        }
    }

    /// The part of `image` at `start` that is in the buffer, and the same
    /// part of its reference.
    pub(crate) fn present(&self, image: usize, start: i64) -> (&[u8], &[u8]) {
        let im = &self.index.images[image];
        let lo = start.max(self.base as i64);
        let hi = (start + im.bytes.len() as i64)
            .min(self.end() as i64)
            .max(lo);
        let here = &self.buf[(lo - self.base as i64) as usize..(hi - self.base as i64) as usize];
        let there = &im.bytes[(lo - start) as usize..(hi - start) as usize];
        (here, there)
    }

    /// Compares a candidate compact stored form byte for byte (see
    /// [`compact`]); also returns its matching keys, its matching evidence
    /// bytes per mille of those present, and whether it is wholly present.
    pub(crate) fn verify_compact(
        &mut self,
        image: usize,
        start: i64,
    ) -> (Option<(Found, Evidence)>, (usize, u32, bool)) {
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
        let mut evidence_at = Vec::new();
        for o in j0..=j1 - compact::KEY_BYTES as i64 {
            let o = o as usize;
            if im.is_key(o) {
                let from = at(o as i64);
                if self.buf[from..from + compact::KEY_BYTES] == im.bytes[o..o + compact::KEY_BYTES]
                {
                    evidence += 1;
                    let p = (start + o as i64) as u64;
                    evidence_at.push((p, p));
                }
            }
        }
        let dir_end = actlut_codegen::compact::HEADER_BYTES
            + 4 * (actlut_codegen::compact::ENTRIES >> im.bytes[8]);
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
                    let logical = actlut_codegen::sha256(&actlut_codegen::table_bytes_le(
                        reference.format,
                        &entries,
                    ));
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
        let evidence_at = Evidence {
            at: evidence_at,
            needed: compact::MIN_KEYS,
            pairs_at: Vec::new(),
        };
        (Some((found, evidence_at)), (evidence, share, complete))
    }

    /// Looks at every `ACTLUTC1` whose declared length is in (or, at the
    /// end of the file, past) the buffer (see [`compact`]).
    pub(crate) fn verify_headers(&mut self, eof: bool) {
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
    pub(crate) fn header_found(
        &self,
        p: u64,
        len: usize,
        verdict: Verdict,
        decoded: Decoded,
    ) -> Found {
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
    pub(crate) fn evaluate_header(&self, p: u64, len: usize) -> Found {
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
        let logical =
            actlut_codegen::sha256(&actlut_codegen::table_bytes_le(Format::F16, &entries));
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

    /// The matching surprises and pair grams of the candidate `image` at
    /// `start` whose entries lie in `ranges` (file offsets), as
    /// [`verify`](Self::verify) counts them, and the entries looked at.
    pub(crate) fn evidence_in(
        &self,
        image: usize,
        start: i64,
        ranges: &[(u64, u64)],
    ) -> (usize, usize, u64) {
        let im = &self.index.images[image];
        let u = im.unit as i64;
        let n = im.entries() as i64;
        let lo = start.max(0).max(self.base as i64);
        let hi = (start + n * u).min(self.end() as i64);
        let (e0, e1) = ((lo - start + u - 1) / u, (hi - start) / u);
        let eq = |j: i64| {
            let at = (start + j * u - self.base as i64) as usize;
            let ju = j as usize * im.unit;
            self.buf[at..at + im.unit] == im.bytes[ju..ju + im.unit]
        };
        let before: i64 = if im.small { 2 } else { 3 };
        let (mut evidence, mut pairs, mut looked) = (0, 0, 0u64);
        if im.by_features() {
            // Features whose two entries both lie in `ranges`.
            let inside = |j: i64| {
                let p = (start + j * u) as u64;
                j >= e0 && j < e1 && ranges.iter().any(|&(a, b)| a <= p && p < b)
            };
            for &(a, b) in &im.features {
                let (a, b) = (i64::from(a), i64::from(b));
                if inside(a) && inside(b) {
                    looked += 2;
                    evidence += usize::from(eq(a) && eq(b));
                }
            }
            return (evidence, 0, looked);
        }
        for &(a, b) in ranges {
            // Entries in [a, b) (each surprise with the entries before it
            // that it needs, each pair with its second entry).
            let first = ((a as i64 - start + u - 1) / u).max(e0);
            let last = ((b as i64 - start) / u).min(e1);
            let within = |list: &[u32]| {
                let from = list.partition_point(|&j| (j as i64) < first);
                let to = list.partition_point(|&j| (j as i64) < last);
                list[from..to.max(from)].to_vec()
            };
            for j in within(&im.surprise_list) {
                let j = j as i64;
                if j - before >= e0 {
                    looked += before as u64 + 1;
                    evidence += usize::from((j - before..=j).all(eq));
                }
            }
            for j in within(&im.pair_list) {
                let j = j as i64;
                if j + 1 < e1 {
                    looked += 2;
                    pairs += usize::from(eq(j) && eq(j + 1));
                }
            }
        }
        (evidence, pairs, looked)
    }

    pub(crate) fn verify(&self, image: usize, start: i64) -> Option<(Found, Evidence)> {
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
        let mut evidence_at = Vec::new();
        let mut pairs_at = Vec::new();
        // Of an 8-bit table: which entries match, for its features.
        let mut matches = if im.by_features() {
            vec![false; im.entries()]
        } else {
            Vec::new()
        };
        let from = (start + e0 * u - self.base as i64) as usize;
        let here = &self.buf[from..from + ((e1 - e0) * u) as usize];
        let there = &im.bytes[(e0 * u) as usize..(e1 * u) as usize];
        for j in e0..e1 {
            let k = ((j - e0) * u) as usize;
            // One or two bytes, compared without a call.
            let eq = here[k] == there[k] && (im.unit == 1 || here[k + 1] == there[k + 1]);
            if let Some(m) = matches.get_mut(j as usize) {
                *m = eq;
            }
            if eq {
                matching += 1;
                if im.entry(j as usize) != im.modal {
                    informative += 1;
                }
                if m1
                    && m2
                    && (m3 || im.small)
                    && !im.by_features()
                    && im.is_change_point(j as usize)
                {
                    evidence += 1;
                    let p = (start + j * u) as u64;
                    evidence_at.push((p, p));
                }
                if m1 && j > 0 && im.is_pair_point(j as usize - 1) {
                    pairs_at.push((start + (j - 1) * u) as u64);
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
        let mut distinctive_share = 1000;
        if im.by_features() {
            let distinctive = (0..im.entries())
                .filter(|&j| matches[j] && im.distinctive[j / 64] >> (j % 64) & 1 == 1)
                .count();
            distinctive_share = distinctive * 1000 / im.distinctive_count.max(1);
            for &(a, b) in &im.features {
                if matches[a as usize] && matches[b as usize] {
                    evidence += 1;
                    evidence_at
                        .push(((start + i64::from(a)) as u64, (start + i64::from(b)) as u64));
                }
            }
        }
        let (needed, least, informed) = if im.by_features() {
            (MIN_FEATURES, MIN_MATCHING_SMALL, MIN_INFORMATIVE_SMALL)
        } else if im.small {
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
        let needed = needed + self.index.extra_evidence;
        let proved =
            evidence >= needed || pairs_at.len() >= MIN_EVIDENCE_PAIRS + self.index.extra_evidence;
        if !proved
            || matching < least
            || informative < informed
            || distinctive_share < MIN_DISTINCTIVE_PER_MILLE
        {
            if im.unit == 2 && !im.small {
                let (s, p) = self.rejected.get();
                self.rejected.set((s.max(evidence), p.max(pairs_at.len())));
            } else if im.by_features() {
                let (f, m) = self.rejected_small.get();
                let m = if proved { m.max(matching) } else { m };
                self.rejected_small.set((f.max(evidence), m));
                if proved {
                    let d = self.rejected_distinctive.get();
                    self.rejected_distinctive
                        .set(d.max(distinctive_share as u32));
                }
            }
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
        let found = Found {
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
        };
        Some((
            found,
            Evidence {
                at: evidence_at,
                needed,
                pairs_at,
            },
        ))
    }

    /// Scans the last bytes and returns what the artifact holds.
    ///
    /// No candidate hides another. Every intact copy is reported. Every other
    /// candidate is reported when enough of its evidence (its matching
    /// surprises, or key windows for a compact form) lies outside the copies
    /// reported before it: intact copies first, then by matching entries. An
    /// intact copy so explains only its own bytes: a modified copy that it
    /// overlaps is still reported on the evidence of the rest, wherever
    /// either lies; what it does hide is a coincidence of its own bytes (a
    /// similar table, the same table shifted), which has no evidence outside it.
    pub fn finish(mut self) -> Report {
        let end = self.end();
        if end > self.next {
            self.probe(end);
        }
        self.verify_ready(true);
        self.verify_headers(true);
        self.read_records();
        self.record_at.clear();
        self.read_declared(true);
        let found = core::mem::take(&mut self.found);
        let evidence = core::mem::take(&mut self.evidence_at);
        let mut order: Vec<usize> = (0..found.len()).collect();
        // In a file that declares its byte order, copies in that order (and
        // of single bytes) come first: a copy in the other order that
        // overlaps one of them, intact or not, is the same bytes read a byte
        // off (smooth 16-bit tables agree with themselves so shifted on all
        // but a few entries), and never hides it.
        let foreign = |f: &Found| {
            self.native
                .is_some_and(|n| f.order != ByteOrder::Bytes && f.order != n)
        };
        order.sort_by(|&a, &b| {
            let (a, b) = (&found[a], &found[b]);
            foreign(a)
                .cmp(&foreign(b))
                .then((b.verdict == Verdict::Intact).cmp(&(a.verdict == Verdict::Intact)))
                .then(b.matching.cmp(&a.matching))
                .then(b.evidence.cmp(&a.evidence))
                .then(a.offset.cmp(&b.offset))
                .then(a.names.cmp(&b.names))
        });
        let mut claimed = Claimed::default();
        let mut kept: Vec<Found> = Vec::new();
        for i in order {
            let f = &found[i];
            // A foreign-order intact copy over a native copy already
            // reported is the same bytes, shifted: judged like a candidate.
            let over_native = foreign(f)
                && (f.offset..f.offset + f.len as u64)
                    .step_by(64)
                    .any(|p| claimed.contains(p));
            let judged = f.verdict != Verdict::Intact || over_native;
            if judged && !evidence[i].enough_outside(&claimed) {
                continue;
            }
            claimed.insert(f.offset, f.offset + f.len as u64);
            kept.push(found[i].clone());
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
            rejected_surprises: self.rejected.get().0,
            rejected_pairs: self.rejected.get().1,
            rejected_features: self.rejected_small.get().0,
            rejected_matching: self.rejected_small.get().1,
            rejected_distinctive_per_mille: self.rejected_distinctive.get(),
            malformed: None,
            declared: {
                let mut declared = core::mem::take(&mut self.declared);
                declared.sort_by_key(|d| d.offset);
                declared
            },
            records: {
                let mut records = core::mem::take(&mut self.records);
                records.sort_by_key(|r| r.offset);
                records.dedup_by_key(|r| r.offset);
                records
            },
        }
    }

    /// Reads the manifest records whose bytes are all in the buffer (see
    /// [`crate::manifest`]); a record found by its name field must name a
    /// known table.
    fn read_records(&mut self) {
        let end = self.end();
        let mut i = 0;
        while i < self.record_at.len() {
            let (p, by_name) = self.record_at[i];
            if p + RECORD_BYTES as u64 > end {
                i += 1;
                continue;
            }
            self.record_at.swap_remove(i);
            if p < self.base {
                continue;
            }
            let at = (p - self.base) as usize;
            if let Some(r) = Record::parse(&self.buf[at..], p, by_name) {
                if r.marked || self.index.knows_name(&r.name) {
                    self.records.push(r);
                }
            }
        }
    }
}

/// Adds the compact forms found by their header to those found by content.
/// A header at the start of a form found by content adds nothing (the byte
/// comparison says more), except a valid form of a known table's entries in
/// another packing: it explains the differing bytes of the content matches
/// of that table inside it, which are dropped.
pub(crate) fn merge_headers(kept: &mut Vec<Found>, by_header: Vec<Found>) {
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

/// Where a verified candidate's evidence lies, and how much of it a report
/// needs.
pub(crate) struct Evidence {
    /// File offsets of its matching surprises (or matching key windows), as
    /// the first and last byte that must lie outside the copies reported
    /// before it (one byte; an 8-bit table's feature: its two entries).
    pub(crate) at: Vec<(u64, u64)>,
    /// The evidence a candidate of its kind needs to be reported.
    pub(crate) needed: usize,
    /// File offsets of its matching pair grams (16-bit tables): evidence
    /// enough when [`MIN_EVIDENCE_PAIRS`] of them are its own.
    pub(crate) pairs_at: Vec<u64>,
}

impl Evidence {
    /// Whether enough of it lies outside `claimed`.
    fn enough_outside(&self, claimed: &Claimed) -> bool {
        let own = self
            .at
            .iter()
            .filter(|&&(a, b)| !claimed.contains(a) && !claimed.contains(b))
            .count();
        let own_pairs = self
            .pairs_at
            .iter()
            .filter(|&&p| !claimed.contains(p))
            .count();
        own >= self.needed || own_pairs >= MIN_EVIDENCE_PAIRS
    }
}

/// The file ranges of the copies reported so far, merged, by start.
#[derive(Default)]
struct Claimed(std::collections::BTreeMap<u64, u64>);

impl Claimed {
    fn contains(&self, p: u64) -> bool {
        self.0
            .range(..=p)
            .next_back()
            .is_some_and(|(_, &hi)| p < hi)
    }

    fn insert(&mut self, mut lo: u64, mut hi: u64) {
        if lo >= hi {
            return;
        }
        // Merge with every range that overlaps or touches [lo, hi).
        while let Some((&a, &b)) = self.0.range(..=hi).next_back() {
            if b < lo {
                break;
            }
            self.0.remove(&a);
            lo = lo.min(a);
            hi = hi.max(b);
        }
        self.0.insert(lo, hi);
    }
}

/// The parts of `[lo, hi)` outside the intact copies among the last
/// [`found`] (the recent ones: candidates are verified near where they lie),
/// in order. Only intact copies: a modified or coincidental one found first
/// must not keep a better candidate from being compared.
fn uncovered(found: &[Found], lo: u64, hi: u64) -> Vec<(u64, u64)> {
    let mut spans: Vec<(u64, u64)> = found
        .iter()
        .rev()
        .take(256)
        .filter(|f| f.verdict == Verdict::Intact)
        .map(|f| (f.offset, f.offset + f.len as u64))
        .filter(|&(a, b)| a < hi && lo < b)
        .collect();
    spans.sort_unstable();
    let mut open = Vec::new();
    let mut reach = lo;
    for (a, b) in spans {
        if a > reach {
            open.push((reach, a));
        }
        reach = reach.max(b);
    }
    if reach < hi {
        open.push((reach, hi));
    }
    open
}

/// The byte order a file's header declares: an ELF's `EI_DATA`, or a wasm
/// module (little-endian). `None` for anything else (a raw image).
fn declared_order(head: &[u8]) -> Option<ByteOrder> {
    match head {
        [0x7F, b'E', b'L', b'F', _, 1, ..] => Some(ByteOrder::Little),
        [0x7F, b'E', b'L', b'F', _, 2, ..] => Some(ByteOrder::Big),
        [0, b'a', b's', b'm', ..] => Some(ByteOrder::Little),
        _ => None,
    }
}

/// The gram hits of one candidate start: how many, and the first and last
/// of their offsets in the form.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Votes {
    pub(crate) hits: u32,
    pub(crate) first: u32,
    pub(crate) last: u32,
}

/// Whether an 8-bit candidate's bytes `here` match its reference's `there`
/// on [`MIN_MATCHING_SMALL`] bytes, counted eight at a time (a cost of one
/// entry per eight in `compared`); the most a rejected one matched is kept in
/// `rejected` (see [`Report::rejected_matching`]).
fn enough_matching(
    here: &[u8],
    there: &[u8],
    compared: &mut u64,
    rejected: &core::cell::Cell<(usize, usize)>,
) -> bool {
    let matching = matching_bytes(here, there);
    *compared += (there.len() / 8) as u64;
    if matching < MIN_MATCHING_SMALL {
        let (f, m) = rejected.get();
        rejected.set((f, m.max(matching)));
        return false;
    }
    true
}

/// The bytes of `here` equal to those of `there` at the same place, eight at
/// a time.
fn matching_bytes(here: &[u8], there: &[u8]) -> usize {
    let mut a = here.chunks_exact(8);
    let mut b = there.chunks_exact(8);
    let mut n = 0;
    for (x, y) in a.by_ref().zip(b.by_ref()) {
        let d = u64::from_le_bytes(x.try_into().expect("8 bytes"))
            ^ u64::from_le_bytes(y.try_into().expect("8 bytes"));
        // The high bit of each byte of `z` is set where `d`'s byte is 0.
        const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
        let z = !(((d & LOW7) + LOW7) | d | LOW7);
        n += z.count_ones() as usize;
    }
    n + a
        .remainder()
        .iter()
        .zip(b.remainder())
        .filter(|(x, y)| x == y)
        .count()
}
