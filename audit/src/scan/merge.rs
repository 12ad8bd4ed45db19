//! Report merging: the verified candidates, the forms found by their header, the tables
//! below the content threshold and the hashes the file names, made one [`Report`].

use std::string::ToString;
use std::vec::Vec;

use crate::*;

use super::Scanner;

impl Scanner<'_> {
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
            records: {
                let mut records = core::mem::take(&mut self.records);
                records.sort_by_key(|r| r.offset);
                records.dedup_by_key(|r| r.offset);
                records
            },
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

/// The file ranges of the copies reported so far, merged, by start.
#[derive(Default)]
pub(super) struct Claimed(std::collections::BTreeMap<u64, u64>);

impl Claimed {
    pub(super) fn contains(&self, p: u64) -> bool {
        self.0
            .range(..=p)
            .next_back()
            .is_some_and(|(_, &hi)| p < hi)
    }

    pub(super) fn insert(&mut self, mut lo: u64, mut hi: u64) {
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
