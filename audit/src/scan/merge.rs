//! Report merging: the verified candidates, the forms found by their header, the tables
//! below the content threshold and the hashes the file names, made one [`Report`].

use crate::limits::*;
use crate::manifest::Record;
use crate::report::{Found, Kind, Listed, ListedStatus, Report, Verdict};

use super::verify::clears;
use super::Scanner;

impl Scanner<'_> {
    /// Scans the last bytes and returns what the artifact holds.
    ///
    /// The one rule for content: a candidate with the evidence of a known
    /// table is reported, and is a problem, unless it is an intact copy in
    /// the file's declared byte order or every item of its evidence lies
    /// inside such copies (their bytes are the known tables',
    /// unchanged). Nothing else clears a candidate: not a copy in the other
    /// byte order, not a modified copy, not a compact form's declared
    /// extent; nested and overlapping copies are each judged. An intact
    /// copy in the other byte order of a file that declares one is reported
    /// as a problem ([`Found::foreign_order`]).
    pub fn finish(mut self) -> Report {
        let end = self.end();
        if end > self.next {
            self.probe(end);
        }
        self.read_declared(true);
        self.verify_ready(true);
        self.verify_headers(true);
        self.read_records();
        // What is left the end of the file cuts off: a record with its
        // marker intact is a problem, like a table cut off.
        for (p, by_name) in core::mem::take(&mut self.record_at) {
            let cut = (!by_name && p >= self.base)
                .then(|| Record::cut_off(&self.buf[(p - self.base) as usize..], p))
                .flatten();
            if let Some(r) = cut {
                if self.keep(Kind::Record, p) && self.spend(FINDING_COST, Kind::Record, p) {
                    self.records.push(r);
                }
            }
        }
        self.settle(true);
        let evidence = core::mem::take(&mut self.evidence_at);
        let mut kept = Vec::new();
        for (mut f, evidence) in core::mem::take(&mut self.found).into_iter().zip(evidence) {
            if f.verdict == Verdict::Intact {
                f.foreign_order = !clears(&f, self.native);
            }
            if f.verdict == Verdict::Intact || evidence.any_outside(&self.cover) {
                kept.push(f);
            }
        }
        // A table below the content threshold counts only when the artifact
        // names it: present byte for byte, it is intact.
        for (&image, &offset) in &self.exact {
            let im = &self.index.images[image as usize];
            let reference = &self.index.refs[im.reference];
            let named = |&(n, _): &(usize, u64)| self.index.needles[n].sha256 == reference.sha256;
            if self.listed.iter().any(named) {
                kept.push(super::verify::whole_copy(self.index, im, offset));
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
                // Or intact where its declaration stands, which names it and whose table
                // hashes to it: a table without content (`Reference::has_content`: the
                // identity, relu, relu6 and hardtanh over 16-bit formats are runs and counts)
                // is verified exactly there, not found by content.
                let status = if kept.iter().any(|f| {
                    f.verdict == Verdict::Intact
                        && (f.sha256 == Some(needle.sha256) || (f.form != TABLE_FORM && named(&f)))
                }) || self.declared.iter().any(|d| {
                    d.problem().is_none()
                        && d.actual == Some(needle.sha256)
                        && d.declaration.as_ref().is_ok_and(|x| {
                            x.representation == crate::declared::Representation::Full
                        })
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
            path: String::new(),
            kind: "bytes",
            file_sha256: [0; 32],
            bytes: end,
            found: kept,
            listed,
            too_many: self.too_many,
            unjudged: self.unjudged,
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
                crate::declared::mark_mixed_orders(&mut declared);
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
}

/// Adds the compact forms found by their header to those found by content.
/// A header at the start of a form found by content adds nothing (the byte
/// comparison says more), except a valid form of a known table in another
/// packing, which says so; every other one is reported. None removes what
/// content found inside its declared extent.
pub(crate) fn merge_headers(kept: &mut Vec<Found>, by_header: Vec<Found>) {
    let by_content: std::collections::HashSet<u64> = kept
        .iter()
        .filter(|f| f.compact.is_some() && f.form_offset == 0)
        .map(|f| f.offset)
        .collect();
    kept.extend(by_header.into_iter().filter(|h| {
        h.compact.as_ref().is_some_and(|c| c.other_packing) || !by_content.contains(&h.offset)
    }));
}
