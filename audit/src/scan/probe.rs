//! The streaming probe: every offset of the artifact looked up in the index, each hit a vote
//! for a candidate start (grams, compact keys, 8-bit features), and the hashes, headers and
//! records it meets noted for the later stages.

use core::cell::Cell;

use crate::compact;
use crate::index::{feature_key, key_le, Site, NEEDLE};
use crate::limits::*;
use crate::manifest::MARK;
use crate::report::Kind;

use super::verify::enough_matching;
use super::{Scanner, Votes, FEATURE_RING, MAX_VOTING_STARTS};

impl Scanner<'_> {
    /// Probes every position in `[self.next, to)`.
    pub(crate) fn probe(&mut self, to: u64) {
        // Once the budget is spent, no new start gets votes: each hit that
        // would make one is counted as not judged.
        // Checked every 64 offsets, on what the block has spent so far.
        let budget_now = self.budget();
        let spent_before = self.compared;
        let voting = Cell::new(spent_before <= budget_now);
        let stopped_at = Cell::new(None::<u64>);
        let (new_starts, hits, feature_hits) = (Cell::new(0u64), Cell::new(0u64), Cell::new(0u64));
        let (mut skipped, mut first_skipped) = (0u64, None::<i64>);
        // What the block's votes and hits have cost so far.
        let cost = || {
            new_starts.get() * VOTE_COST + hits.get() * HIT_COST + feature_hits.get() * HIT_COST / 4
        };
        // Stops the votes once the budget is spent, at `block`.
        let check = |block: u64| {
            if voting.get() && spent_before + cost() > budget_now {
                voting.set(false);
                stopped_at.set(Some(block));
            }
        };
        let Scanner {
            index,
            buf,
            base,
            next,
            seen,
            vote_key,
            pending,
            listed,
            exact,
            cover,
            headers,
            record_at,
            declared_at,
            ..
        } = self;
        let (from, to_i, n) = ((*next - *base) as usize, (to - *base) as usize, buf.len());
        // A vote for the start that the site `site` of a hit at `at` implies.
        let mut candidate = |site: &Site, at: u64| {
            let start = at as i64 - site.offset as i64;
            let key = vote_key.key(site.image, start);
            // No room for a new start: rehashed in place (tombstones) under half full, else stop.
            if voting.get() && seen.len() == seen.capacity() && !seen.contains_key(&key) {
                if seen.len() >= MAX_VOTING_STARTS / 2 {
                    voting.set(false);
                    stopped_at.set(Some(at));
                } else {
                    seen.reserve(1);
                }
            }
            if !voting.get() {
                skipped += 1;
                first_skipped.get_or_insert(start.max(0));
                return;
            }
            hits.set(hits.get() + 1);
            let votes = seen.entry(key).or_insert_with(|| {
                new_starts.set(new_starts.get() + 1);
                Votes::new(site.offset).pack()
            });
            *votes = Votes::unpack(*votes).add(site.offset).pack();
        };
        // Compact keys at every offset, 64 offsets at a time: the filter
        // words of all 64 are loaded without a branch between them (their
        // cache misses overlap), then the few that may hold a key are looked
        // up.
        let key_end = to_i.min((n + 1).saturating_sub(compact::KEY_BYTES));
        let mut block = from;
        while block < key_end {
            check(*base + block as u64);
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
                    candidate(site, *base + i as u64);
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
            let at = *base + i as u64;
            if let Some(x) = large {
                if x == compact::MAGIC_U64 {
                    headers.push(at);
                }
                index.declared.probe(x, at, declared_at);
                if x == index.manifest_mark {
                    record_at.push((at, false));
                } else if index.name_fields.maybe(x) && !index.name_fields.get(x).is_empty() {
                    if let Some(at) = at.checked_sub(MARK.len() as u64) {
                        record_at.push((at, true));
                    }
                    if let Some(at) = at.checked_sub(crate::declared::DECLARATION_NAME_AT as u64) {
                        declared_at.push(at);
                    }
                }
                if index.exact.maybe(x) {
                    for site in index.exact.get(x) {
                        let bytes = &index.images[site.image as usize].bytes;
                        if i + bytes.len() <= n && buf[i..i + bytes.len()] == bytes[..] {
                            exact.entry(site.image).or_insert(at);
                            // A whole table of 256 bytes (one over an unsigned format) is an
                            // intact copy of a known table: like any, it clears the evidence
                            // of other tables inside it (a FP6 or FP4 table is too short to).
                            if bytes.len() >= MIN_CONTENT_ENTRIES {
                                cover.insert(at, at + bytes.len() as u64);
                            }
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
                                listed.push((site.offset as usize, at));
                            }
                        } else {
                            candidate(site, at);
                        }
                    }
                }
            }
            if index.small.maybe(small) {
                for site in index.small.get(small) {
                    candidate(site, at);
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
        let mut compared = spent_before;
        let (mut over_skipped, mut first_over) = (0u64, None::<i64>);
        let mut feature_pending = Vec::new();
        let mut features_at = |i: usize| {
            if !voting.get() {
                return;
            }
            for d in 1..=FEATURE_REACH.min(n - 1 - i) {
                let b = buf[i + d];
                // A pair some table has, passing the same test as the tables'
                // features (`is_feature`): where the data's steps around the
                // pair repeat with a period of 1 to 3 (a slow ramp, each value
                // twice), a table copied there would have the same steps, and no
                // feature there: nothing to look up.
                if bit(d, buf[i], b) == 0 || !crate::index::is_feature(buf, i, d) {
                    continue;
                }
                let sites = index.features.get(feature_key(buf[i], b, d));
                feature_hits.set(feature_hits.get() + sites.len() as u64);
                for site in sites {
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
                    // Its matching bytes counted as soon as they are read
                    // (unless the block ends within the table: `unchecked`).
                    let bytes = &index.images[site.image as usize].bytes;
                    let at = start - *base as i64;
                    if at < 0 || at as usize + bytes.len() > n {
                        unchecked.push((site.image, start));
                    } else if compared > budget_now {
                        over_skipped += 1;
                        first_over.get_or_insert(start.max(0));
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
            check(*base + block as u64);
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
        self.compared = compared + cost();
        // From where the votes stopped no start was looked for at all.
        if let Some(at) = stopped_at.get().or((!voting.get()).then_some(*next)) {
            self.not_judged(Kind::Candidate, at);
        }
        for (n, at) in [(skipped, first_skipped), (over_skipped, first_over)] {
            if let Some(at) = at {
                self.not_judged(Kind::Candidate, at as u64);
                self.unjudged.candidates += n - 1;
            }
        }
        self.next = to;
    }
}
