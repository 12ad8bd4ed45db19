//! Compact stored forms: a candidate found by its key windows compared byte for byte, and
//! every `ACTLUTC1` header validated, hashed and decoded.

use std::format;
use std::string::ToString;
use std::vec::Vec;

use actlut_codegen::Format;

use crate::compact::{self, CompactDetail, Decoded, FoundBy};
use crate::filter::mix;
use crate::limits::*;
use crate::reference::ByteOrder;
use crate::report::Kind;
use crate::report::{Found, Verdict};

use super::verify::Evidence;
use super::Scanner;

impl Scanner<'_> {
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
        // Each draw is splitmix64's output for its own counter, so the draws
        // do not wait on one another, and a multiply (not a division) maps it
        // to a place among the evidence bytes.
        let x = mix(self.index.seed ^ (image as u64) << 48 ^ start as u64);
        let places = covered.len() as u128;
        // The draws stop, 16 at a time, once the outcome is settled: so many
        // match that the candidate passes, or so many miss that the rest
        // could not make it pass. The outcome is the one all `SAMPLES` give,
        // and so is the charge.
        const DRAWS: usize = 16;
        const _: () = assert!(compact::SAMPLES.is_multiple_of(DRAWS));
        let mut sampled = 0;
        let mut drawn = 0;
        while drawn < compact::SAMPLES
            && !compact::passes_sample(sampled)
            && compact::passes_sample(sampled + compact::SAMPLES - drawn)
        {
            for s in drawn as u64 + 1..=(drawn + DRAWS) as u64 {
                let r = mix(x.wrapping_add(s.wrapping_mul(0x9E37_79B9_7F4A_7C15)));
                let j = covered[((u128::from(r) * places) >> 64) as usize] as usize;
                sampled += usize::from(self.buf[at(j as i64)] == im.bytes[j]);
            }
            drawn += DRAWS;
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
                    evidence_at.push((p, p + compact::KEY_BYTES as u64 - 1));
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
        // Cut off by an end of the file: also judged against the whole
        // form's evidence, the bytes past the end counted as changed.
        let whole = (!complete).then_some(im.used_covered);
        if !compact::is_evidence(
            evidence,
            im.min_keys,
            covered_matching,
            covered.len(),
            whole,
        ) {
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
            foreign_order: false,
        };
        let evidence_at = Evidence::new(evidence_at);
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
            // Every header is a finding or nothing; each finding costs the
            // budget, and one whose declared form is in the buffer costs
            // validating, hashing and decoding it too.
            let cost = match declared {
                None => 0,
                Some(Ok(len)) if p + len as u64 <= end => {
                    FINDING_COST + (2 * actlut_codegen::compact::ENTRIES + len) as u64
                }
                Some(_) => FINDING_COST,
            };
            if matches!(declared, Some(Ok(len)) if p + len as u64 > end) && !eof {
                i += 1;
                continue;
            }
            self.headers.swap_remove(i);
            if cost == 0 || !self.keep(Kind::Header, p) || !self.spend(cost, Kind::Header, p) {
                continue;
            }
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
                    let mut f = self.header_found(
                        p,
                        (end - p) as usize,
                        Verdict::Truncated,
                        Decoded::Absent,
                    );
                    f.form_len = len;
                    Some(f)
                }
                Some(Ok(len)) => Some(self.evaluate_header(p, len)),
            };
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
            foreign_order: false,
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
        f.form = crate::limits::compact_form_label(view.layout()).to_string();
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
            f.form = index.refs[im.reference].extra[im.form - 1].label.clone();
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
}
