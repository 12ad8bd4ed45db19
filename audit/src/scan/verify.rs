//! Candidate verification: each candidate start that has the votes compared with its
//! reference entry by entry, and where its evidence lies.

use core::cell::Cell;
use std::string::ToString;
use std::vec::Vec;

use crate::index::{bit, swap16, Image};
use crate::limits::*;
use crate::reference::ByteOrder;
use crate::report::Kind;
use crate::report::{Found, Verdict};

use super::cover::Claimed;
use super::{take_ready, Scanner, Votes};

impl Scanner<'_> {
    /// Verifies the pending candidates whose every byte has been probed (so
    /// that all their votes are counted), or all of them at the end of the
    /// file. A candidate of a large form needs [`MIN_VOTES_LARGE`] gram hits:
    /// a lone coincidental hit is not worth comparing 65,536 entries.
    pub(crate) fn verify_ready(&mut self, eof: bool) {
        let end = self.end();
        // The starts of 8-bit tables whose bytes are all read now: only one
        // with enough matching bytes waits to be compared (`unchecked`).
        let index = self.index;
        let read = |(image, start): (u32, i64)| {
            eof || start + index.images[image as usize].bytes.len() as i64 <= end as i64
        };
        for (image, start) in take_ready(&mut self.unchecked, read) {
            if !self.spend(0, Kind::Candidate, start.max(0) as u64) {
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
        // Ready once every candidate that could overlap it is probed too,
        // so that they are compared in order of votes.
        let is_ready = |image: u32, start: i64| {
            let im = &index.images[image as usize];
            eof || start + (im.bytes.len() + index.max_len) as i64 <= probed
        };
        // A candidate without votes (an 8-bit table's, found by its
        // features; or one whose votes a flood made the scan forget) has
        // as many as can be.
        let worth = |image: u32, votes: Option<Votes>| {
            let im = &index.images[image as usize];
            let hits = votes.map_or(u32::MAX, |v| v.hits);
            let spread = votes.map_or(u32::MAX, |v| v.last - v.first);
            let extra = index.extra_evidence as u32;
            let enough = hits >= MIN_VOTES_LARGE
                && (im.compact
                    || (hits >= MIN_VOTES_LARGE + extra && spread as usize >= VOTE_SPREAD));
            (im.small || enough).then_some(hits)
        };
        let mut ready = Vec::new();
        for (image, start) in take_ready(&mut self.pending, |(i, s)| is_ready(i, s)) {
            // An 8-bit table's starts get feature hits, never gram votes (it
            // has none to look up): its matching bytes rank it, so that the
            // copy itself comes before the similar tables it also matches.
            let (votes, rank) = if index.images[image as usize].by_features() {
                let (here, there) = self.present(image as usize, start);
                let matching = matching_bytes(here, there) as u32;
                self.compared += (there.len() / 8) as u64;
                (None, Some(matching))
            } else {
                let key = self.vote_key.key(image, start);
                (self.seen.get(&key).map(|&v| Votes::unpack(v)), None)
            };
            if let Some(hits) = worth(image, votes) {
                ready.push((
                    rank.unwrap_or(hits),
                    image,
                    start,
                    votes.map(|v| (v.first, v.last)),
                ));
            }
        }
        // The candidates with votes, in one pass over them (not a lookup
        // of each, which misses the cache when they are many): a ready one
        // gets no more votes (its bytes are all probed), so it leaves.
        let key = self.vote_key;
        self.seen.retain(|&k, votes| {
            let (image, start) = key.split(k);
            if !is_ready(image, start) {
                return true;
            }
            let votes = Votes::unpack(*votes);
            if let Some(hits) = worth(image, Some(votes)) {
                ready.push((hits, image, start, Some((votes.first, votes.last))));
            }
            false
        });
        // Most votes (or matching bytes) first: the copy itself before the
        // shifted and cross-table coincidences that its bytes also imply.
        ready.sort_unstable_by(|a, b| b.cmp(a));
        for (_, image, start, voted) in ready {
            let im = &self.index.images[image as usize];
            let (lo, hi) = (start, start + im.bytes.len() as i64);
            // A candidate none of whose evidence lies outside the intact
            // copies in the file's byte order found so far is cleared by
            // them (see `finish`): every byte it could match is theirs.
            // Skip it; but a candidate with any evidence of its own is
            // compared in full and judged on it.
            let (at, to) = (lo.max(0) as u64, hi.max(0) as u64);
            // Nothing more, uncharged, once the budget is spent.
            if !self.spend(0, Kind::Candidate, at) {
                continue;
            }
            let mut open = self.cover.uncovered((at, to), None);
            // Copies further off than `clearing_reach` clear only an echo.
            if !im.compact && open != [(at, to)] && !self.differs(image as usize, start) {
                let near = Some((start, clearing_reach(im.unit)));
                open = self.cover.uncovered((at, to), near);
            }
            // A declared table's own extent is compared still (`declared_extents`).
            let declared_extent = lo >= 0 && self.declared_extents.contains(&(at, to));
            if !declared_extent {
                if open.is_empty() {
                    continue;
                }
                // A compact form's evidence is its hits: a candidate all of
                // whose hits (each gram whole) lie inside those copies has
                // none of its own, and is cleared by them as at the end
                // (`finish`).
                if let (true, Some((first, last))) = (im.compact, voted) {
                    let a = (start + i64::from(first)).max(0) as u64;
                    let b = (start + i64::from(last)).max(0) as u64 + GRAM_REACH as u64;
                    if !open.iter().any(|&(x, y)| x < b && a < y) {
                        continue;
                    }
                }
                if !im.compact && open != [(at, to)] {
                    let (own, looked) = self.evidence_outside(image as usize, start, &open);
                    self.compared += looked;
                    if own == 0 {
                        continue;
                    }
                }
            }
            if !self.keep(Kind::Candidate, at) {
                continue;
            }
            // A comparison costs its entries, and an 8-bit table's its
            // features too (a compact form counts its own bytes, sampled
            // first).
            let cost = if im.compact {
                0
            } else {
                (im.entries() + im.features.len()) as u64 + CANDIDATE_COST
            };
            // An 8-bit candidate's share of distinctive entries first, in one
            // pass over its bytes: most starts with three features in smooth
            // data (code tables) lack it.
            if im.by_features()
                && (!self.spend(im.entries() as u64, Kind::Candidate, at)
                    || !self.distinctive_enough(image as usize, start))
            {
                continue;
            }
            // Its evidence first, entry by entry over its surprises and
            // pairs only: most coincidences lack it, and cost that much, not
            // the whole table.
            if !im.compact && !im.by_features() {
                let (proved, looked) = self.proves(image as usize, start);
                if !self.spend(looked, Kind::Candidate, at) || !proved {
                    continue;
                }
            }
            if !self.spend(cost, Kind::Candidate, at) {
                continue;
            }
            self.candidates += 1;
            let found = if im.compact {
                self.verify_compact(image as usize, start)
            } else {
                self.verify(image as usize, start)
            };
            if let Some((f, at)) = found {
                self.compared += FINDING_COST;
                if clears(&f, self.native) {
                    self.cover.insert(f.offset, f.offset + f.len as u64);
                }
                self.found.push(f);
                self.evidence_at.push(at);
            }
        }
    }

    /// Whether the candidate `image` at `start` differs from its table in
    /// [`far_differing`] of its present entries (as [`verify`](Self::verify)
    /// counts them): an echo, which any intact copy it overlaps clears.
    fn differs(&mut self, image: usize, start: i64) -> bool {
        let im = &self.index.images[image];
        let (e0, e1) = self.present_entries(image, start);
        let mut left = far_differing(im.unit);
        let mut differs = |j| !self.entries_match(im, start, j, 1) && (left -= 1, left == 0).1;
        self.compared += (e0..e1)
            .position(&mut differs)
            .map_or((e1 - e0).max(0) as usize, |p| p + 1) as u64;
        left == 0
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

    /// Whether the `entries` entries from entry `j` of the candidate `im` at
    /// `start` (in the buffer) equal its reference's ([`span_eq`]).
    fn entries_match(&self, im: &Image, start: i64, j: i64, entries: i64) -> bool {
        let u = im.unit;
        let at = (start + j * u as i64 - self.base as i64) as usize;
        let (ja, len) = (j as usize * u, entries as usize * u);
        span_eq(&self.buf, at, &im.bytes, ja, len)
    }

    /// The entries `e0..e1` of the candidate `image` at `start` that lie
    /// wholly in the file and in the buffer.
    fn present_entries(&self, image: usize, start: i64) -> (i64, i64) {
        let im = &self.index.images[image];
        let u = im.unit as i64;
        let lo = start.max(0).max(self.base as i64);
        let hi = (start + im.entries() as i64 * u).min(self.end() as i64);
        ((lo - start + u - 1) / u, (hi - start) / u)
    }

    /// How many items of evidence of the candidate `image` at `start`
    /// (matching surprises, pair grams and features, as
    /// [`verify`](Self::verify) counts them) lie wholly in `open` (file
    /// ranges, sorted: the parts of the candidate outside the intact copies
    /// that could clear it), and the entries looked at.
    pub(crate) fn evidence_outside(
        &self,
        image: usize,
        start: i64,
        open: &[(u64, u64)],
    ) -> (usize, u64) {
        let im = &self.index.images[image];
        let (u, (e0, e1)) = (im.unit as i64, self.present_entries(image, start));
        let eq = |j: i64, entries: i64| self.entries_match(im, start, j, entries);
        let in_open = |p: i64| {
            let k = open.partition_point(|&(_, b)| b <= p as u64);
            open.get(k).is_some_and(|&(a, _)| a <= p as u64)
        };
        // An item spans entries `a..=b`; it is the candidate's own when no
        // byte of it is in a clearing copy (its first and its last are
        // outside them: the copies are longer than an item).
        let outside = |a: i64, b: i64| in_open(start + a * u) && in_open(start + b * u + u - 1);
        // Of an 8-bit table, its features (their two entries compared); of
        // any other, its surprises and pairs (all their entries).
        let features = im.features.iter().map(|&(a, b)| (a, b, true));
        let before = if im.small { 2 } else { 3 };
        let surprises = im.surprise_list.iter().map(|&j| (j - before, j, false));
        let pairs = im.pair_list.iter().map(|&w| (w, w + 2, false));
        let items = surprises.chain(pairs).filter(|_| !im.by_features());
        let (mut own, mut looked) = (0usize, 0u64);
        for (a, b, ends) in features.chain(items) {
            let (a, b) = (i64::from(a), i64::from(b));
            if a >= e0 && b < e1 && outside(a, b) {
                looked += if ends { 2 } else { (b - a + 1) as u64 };
                let matching = if ends {
                    eq(a, 1) && eq(b, 1)
                } else {
                    eq(a, b - a + 1)
                };
                own += usize::from(matching);
            }
        }
        (own, looked)
    }

    /// Whether the candidate `image` at `start` (a table of 16-bit words or
    /// a large form) has the evidence [`verify`](Self::verify) needs (its
    /// surprises or its pairs), and the entries looked at; one that has not
    /// counts in [`Report::rejected_surprises`] and
    /// [`Report::rejected_pairs`].
    pub(crate) fn proves(&self, image: usize, start: i64) -> (bool, u64) {
        let im = &self.index.images[image];
        let (e0, e1) = self.present_entries(image, start);
        let extra = self.index.extra_evidence;
        let needed = self.index.needed(image) + extra;
        let before: i64 = if im.small { 2 } else { 3 };
        let (mut surprises, mut pairs, mut looked) = (0usize, 0usize, 0u64);
        // Each item's entries are compared at once, as one word of up to
        // eight bytes; only the items wholly present are looked at (the
        // lists are in order).
        let span = |j: i64, entries: i64| self.entries_match(im, start, j, entries);
        for &j in within(&im.surprise_list, e0 + before, e1) {
            let j = i64::from(j);
            looked += 1;
            if span(j - before, before + 1) {
                surprises += 1;
                if surprises >= needed {
                    return (true, looked);
                }
            }
        }
        for &w in within(&im.pair_list, e0, e1 - 2) {
            looked += 1;
            if span(i64::from(w), 3) {
                pairs += 1;
                if pairs >= MIN_EVIDENCE_PAIRS + extra {
                    return (true, looked);
                }
            }
        }
        if im.unit == 2 && !im.small {
            keep_most(&self.rejected, surprises, pairs);
        }
        (false, looked)
    }

    /// Whether the 8-bit candidate `image` at `start` has the matching,
    /// informative and distinctive entries [`verify`](Self::verify) needs
    /// (its features aside); one that has not counts in
    /// [`Report::rejected_matching`] and
    /// [`Report::rejected_distinctive_per_mille`].
    pub(crate) fn distinctive_enough(&self, image: usize, start: i64) -> bool {
        let im = &self.index.images[image];
        let (here, there) = self.present(image, start);
        let skip = (start.max(self.base as i64) - start) as usize;
        let (mut matching, mut informative, mut distinctive) = (0usize, 0usize, 0usize);
        for (k, (a, b)) in here.iter().zip(there).enumerate() {
            if a == b {
                matching += 1;
                informative += usize::from(u16::from(*b) != im.modal);
                distinctive += usize::from(bit(&im.distinctive, k + skip));
            }
        }
        let share = distinctive * 1000 / im.distinctive_count.max(1);
        let enough = matching >= MIN_MATCHING_SMALL
            && informative >= MIN_INFORMATIVE_SMALL
            && share >= MIN_DISTINCTIVE_PER_MILLE;
        if !enough {
            keep_most(&self.rejected_small, 0, matching);
            let d = &self.rejected_distinctive;
            d.set(d.get().max(share as u32));
        }
        enough
    }

    pub(crate) fn verify(&self, image: usize, start: i64) -> Option<(Found, Evidence)> {
        let im = &self.index.images[image];
        let (u, n) = (im.unit as i64, im.entries() as i64);
        let (e0, e1) = self.present_entries(image, start);
        if e1 - e0 < 3 {
            return None;
        }
        let (mut differing, mut matching, mut evidence) = (0usize, 0usize, 0usize);
        // Matching entries other than the most common value (small forms).
        let mut informative = 0usize;
        let mut first = Vec::new();
        let (mut m1, mut m2, mut m3) = (false, false, false);
        let (mut evidence_at, mut pairs_at) = (Vec::new(), Vec::new());
        // Of other tables than 8-bit ones: the entries before a surprise
        // that its evidence spans.
        let (by_surprises, back) = (!im.by_features(), if im.small { 2 } else { 3 });
        // Of an 8-bit table: which entries match, for its features.
        let mut matches = vec![false; if im.by_features() { im.entries() } else { 0 }];
        let from = (start + e0 * u - self.base as i64) as usize;
        let here = &self.buf[from..from + ((e1 - e0) * u) as usize];
        let there = &im.bytes[(e0 * u) as usize..(e1 * u) as usize];
        // Of a word of eight bytes, the entries (bytes or 16-bit words),
        // which are 0 where `here` and `there` agree.
        let lanes = if u == 1 {
            0x0101_0101_0101_0101u64
        } else {
            0x0001_0001_0001_0001
        };
        let per_word = 8 / u;
        let mut j = e0;
        while j < e1 {
            let k = ((j - e0) * u) as usize;
            // Eight bytes with no matching entry, once the first differences
            // are noted, only add to `differing` (and break the runs of
            // matches): a word at a time, as most entries of a coincidence
            // differ.
            if first.len() >= FIRST_DIFFERENCES && (u == 1 || u == 2) && j + per_word <= e1 {
                let d = u64::from_le_bytes(here[k..k + 8].try_into().expect("8 bytes"))
                    ^ u64::from_le_bytes(there[k..k + 8].try_into().expect("8 bytes"));
                // Some entry of `d` is 0 exactly when this is not 0.
                if d.wrapping_sub(lanes) & !d & lanes << (8 * u - 1) == 0 {
                    differing += per_word as usize;
                    (m1, m2, m3) = (false, false, false);
                    j += per_word;
                    continue;
                }
            }
            // One or two bytes, compared without a call.
            let eq = here[k] == there[k] && (im.unit == 1 || here[k + 1] == there[k + 1]);
            if let Some(m) = matches.get_mut(j as usize) {
                *m = eq;
            }
            if eq {
                matching += 1;
                informative += usize::from(im.entry(j as usize) != im.modal);
                if m1 && m2 && (m3 || im.small) && by_surprises && im.is_change_point(j as usize) {
                    evidence += 1;
                    let p = (start + (j - back) * u) as u64;
                    evidence_at.push((p, (start + j * u + u - 1) as u64));
                }
                if m1 && m2 && j > 1 && im.is_pair_window(j as usize - 2) {
                    let p = (start + (j - 2) * u) as u64;
                    pairs_at.push((p, p + 3 * u as u64 - 1));
                }
            } else {
                differing += 1;
                if first.len() < FIRST_DIFFERENCES {
                    first.push(j as usize);
                }
            }
            (m3, m2, m1) = (m2, m1, eq);
            j += 1;
        }
        // Of an 8-bit table, its share of distinctive entries was counted
        // by its gate (`distinctive_enough`): here, its features.
        if im.by_features() {
            for &(a, b) in &im.features {
                if matches[a as usize] && matches[b as usize] {
                    evidence += 1;
                    evidence_at
                        .push(((start + i64::from(a)) as u64, (start + i64::from(b)) as u64));
                }
            }
        }
        let (least, informed) = if im.small {
            (MIN_MATCHING_SMALL, MIN_INFORMATIVE_SMALL)
        } else {
            (MIN_MATCHING_LARGE, 0)
        };
        let needed = self.index.needed(image) + self.index.extra_evidence;
        let proved =
            evidence >= needed || pairs_at.len() >= MIN_EVIDENCE_PAIRS + self.index.extra_evidence;
        if !proved || matching < least || informative < informed {
            if im.unit == 2 && !im.small {
                keep_most(&self.rejected, evidence, pairs_at.len());
            } else if im.by_features() {
                keep_most(&self.rejected_small, evidence, 0);
            }
            return None;
        }
        let verdict = if e0 != 0 || e1 != n {
            Verdict::Truncated
        } else if differing == 0 {
            Verdict::Intact
        } else {
            Verdict::Modified
        };
        let (offset, len) = ((start + e0 * u) as u64, ((e1 - e0) * u) as usize);
        let whole = whole_copy(self.index, im, offset);
        let sha256 = match verdict {
            Verdict::Intact => whole.sha256,
            Verdict::Modified => {
                let bytes = &self.buf[(offset - self.base) as usize..][..len];
                let swapped = (im.order == ByteOrder::Big).then(|| swap16(bytes));
                Some(actlut_codegen::sha256(swapped.as_deref().unwrap_or(bytes)))
            }
            Verdict::Truncated | Verdict::Unknown | Verdict::Invalid => None,
        };
        let form_offset = (e0 * u) as usize;
        let first_differences = first;
        let found = Found {
            len,
            form_offset,
            verdict,
            differing,
            matching,
            evidence,
            first_differences,
            sha256,
            ..whole
        };
        evidence_at.extend(pairs_at);
        let near = (differing < far_differing(im.unit)).then_some((start, clearing_reach(im.unit)));
        Some((found, Evidence::new(evidence_at, near)))
    }
}

/// An intact copy of `im` whole at `offset` (a copy compared, or a table
/// found by its exact bytes): its names, format, form and hash.
pub(super) fn whole_copy(index: &crate::Index, im: &Image, offset: u64) -> Found {
    let reference = &index.refs[im.reference];
    // The stored form found, if not the table.
    let extra = im.form.checked_sub(1).map(|f| &reference.extra[f]);
    let len = im.bytes.len();
    Found {
        offset,
        len,
        form_offset: 0,
        form_len: len,
        order: im.order,
        names: reference.names.clone(),
        format: reference.format,
        form: extra.map_or(TABLE_FORM.to_string(), |f| f.label.clone()),
        verdict: Verdict::Intact,
        differing: 0,
        matching: im.entries(),
        evidence: 0,
        first_differences: Vec::new(),
        sha256: Some(extra.map_or(reference.sha256, |f| f.sha256)),
        compact: None,
        foreign_order: false,
    }
}

/// Whether an 8-bit candidate's bytes `here` match its reference's `there`
/// on [`MIN_MATCHING_SMALL`] bytes, counted eight at a time (a cost of one
/// entry per eight in `compared`); the most a rejected one matched is kept in
/// `rejected` (see [`Report::rejected_matching`]).
pub(super) fn enough_matching(
    here: &[u8],
    there: &[u8],
    compared: &mut u64,
    rejected: &Cell<(usize, usize)>,
) -> bool {
    let matching = matching_bytes(here, there);
    *compared += (there.len() / 8) as u64;
    if matching < MIN_MATCHING_SMALL {
        keep_most(rejected, 0, matching);
        return false;
    }
    true
}

/// Raises the most rejected candidates had, kept in `most`, to `a` and `b`.
fn keep_most(most: &Cell<(usize, usize)>, a: usize, b: usize) {
    let (x, y) = most.get();
    most.set((x.max(a), y.max(b)));
}

/// The entries of `list` (ascending) in `[from, to)`.
pub(super) fn within(list: &[u32], from: i64, to: i64) -> &[u32] {
    let a = list.partition_point(|&j| i64::from(j) < from);
    let b = list.partition_point(|&j| i64::from(j) < to);
    &list[a..b.max(a)]
}

/// Whether the `len` bytes at `here[at..]` equal those at `there[ja..]`:
/// as one word when `len` is 8 or 4 (four or two 16-bit entries), without a
/// call to `memcmp` (the surprises, pairs and features of a candidate are
/// compared so, a few entries at a time).
#[inline(always)]
fn span_eq(here: &[u8], at: usize, there: &[u8], ja: usize, len: usize) -> bool {
    let (x, y) = (&here[at..at + len], &there[ja..ja + len]);
    match len {
        8 => {
            u64::from_ne_bytes(x.try_into().expect("8 bytes"))
                == u64::from_ne_bytes(y.try_into().expect("8 bytes"))
        }
        4 => {
            u32::from_ne_bytes(x.try_into().expect("4 bytes"))
                == u32::from_ne_bytes(y.try_into().expect("4 bytes"))
        }
        _ => x.iter().zip(y).all(|(a, b)| a == b),
    }
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

/// Whether `f` clears the candidates whose evidence lies wholly inside it:
/// an intact copy found by its content, in the byte order the file declares
/// (`native`; of single bytes; in either order when the file declares
/// none). A copy in the other order of a file that declares one clears
/// nothing: actlut never writes one.
pub(super) fn clears(f: &Found, native: Option<ByteOrder>) -> bool {
    let by_content = f
        .compact
        .as_ref()
        .is_none_or(|c| c.found_by == crate::compact::FoundBy::Content);
    f.verdict == Verdict::Intact && by_content && in_order(f.order, native)
}

/// Whether `order` is of single bytes, or the one `native` declares (any,
/// when it declares none).
fn in_order(order: ByteOrder, native: Option<ByteOrder>) -> bool {
    order == ByteOrder::Bytes || native.is_none_or(|n| n == order)
}

/// Where a verified candidate's evidence lies.
pub(crate) struct Evidence {
    /// Each matching item of its evidence (a surprise with the entries
    /// before it, a pair gram, a feature's two entries, a compact key
    /// window), as the file offsets of its first and last byte; emptied
    /// once [`settled`](Self::settled).
    pub(crate) at: Vec<(u64, u64)>,
    /// [`any_outside`](Self::any_outside) of the clearing copies, once every
    /// copy that could overlap it is verified ([`Scanner::settle`]): its
    /// items are then let go, so that memory does not grow with the
    /// findings.
    pub(crate) settled: Option<bool>,
    /// A table's candidate's start and [`clearing_reach`], when it differs
    /// from its table in fewer than [`far_differing`] entries: only copies
    /// that start so near it clear it. `None` for an echo and a compact form.
    pub(crate) near: Option<(i64, u64)>,
}

impl Evidence {
    /// Unsettled evidence at `at`, of a candidate cleared by the copies `near` (see [`Self::near`]).
    pub(crate) fn new(at: Vec<(u64, u64)>, near: Option<(i64, u64)>) -> Evidence {
        Evidence {
            at,
            settled: None,
            near,
        }
    }

    /// Whether some item of it has no byte in `cover`: then the candidate
    /// has evidence of its own. An item that overlaps a clearing copy is
    /// that copy's bytes but for at most the three entries of it beyond the
    /// copy's end: the same bytes read a byte or an entry off.
    pub(super) fn any_outside(&self, cover: &Claimed) -> bool {
        self.settled.unwrap_or_else(|| {
            self.at
                .iter()
                .any(|&(a, b)| !cover.overlaps(a, b, self.near))
        })
    }
}

impl Scanner<'_> {
    /// Settles the evidence of every copy found whose clearing copies are
    /// all verified (the scan is two form lengths past its end: a copy that
    /// overlaps it starts before its end and is verified once probed one
    /// form length past its own end), or of all at the end of the file.
    pub(crate) fn settle(&mut self, eof: bool) {
        let reach = 2 * self.index.max_len as u64;
        for k in self.unsettled..self.found.len() {
            let f = &self.found[k];
            if !eof && f.offset + f.len as u64 + reach > self.next {
                break;
            }
            let e = &mut self.evidence_at[k];
            if e.settled.is_none() {
                e.settled = Some(e.any_outside(&self.cover));
                e.at = Vec::new();
            }
            self.unsettled = k + 1;
        }
    }
}
