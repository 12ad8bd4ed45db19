//! Compact stored forms: a candidate found by its key windows compared byte for byte, and
//! every `ACTLUTC1` header validated, hashed and decoded.

use actlut_codegen::compact::{CompactRef, ENTRIES, HEADER_BYTES};
use actlut_codegen::Format;

use crate::compact::{self, CompactDetail, Decoded, FoundBy};
use crate::filter::mix;
use crate::index::le_entries;
use crate::limits::*;
use crate::reference::ByteOrder;
use crate::report::Kind;
use crate::report::{Found, Verdict};

use super::verify::{within, Evidence};
use super::Scanner;

impl Scanner<'_> {
    /// Compares a candidate compact stored form byte for byte (see
    /// [`compact`]); one its evidence does not prove raises the report's
    /// `compact_rejected_*` counters.
    pub(crate) fn verify_compact(&mut self, image: usize, start: i64) -> Option<(Found, Evidence)> {
        let im = &self.index.images[image];
        let n = im.bytes.len() as i64;
        let lo = start.max(0).max(self.base as i64);
        let hi = (start + n).min(self.end() as i64);
        if hi - lo < LARGE_GRAM as i64 {
            return None;
        }
        let at = |j: i64| (start + j - self.base as i64) as usize;
        let (j0, j1) = (lo - start, hi - start);
        // The present bytes that lie in a key window (the evidence).
        let covered = within(&im.covered, j0, j1);
        if covered.is_empty() {
            return None;
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
            return None;
        }
        let len = (j1 - j0) as usize;
        self.compared += len as u64;
        let covered_matching = covered
            .iter()
            .filter(|&&j| self.buf[at(j as i64)] == im.bytes[j as usize])
            .count();
        let key = compact::KEY_BYTES;
        let evidence_at: Vec<(u64, u64)> = (j0 as usize..=j1 as usize - key)
            .filter(|&o| im.is_key(o) && self.buf[at(o as i64)..][..key] == im.bytes[o..o + key])
            .map(|o| (start + o as i64) as u64)
            .map(|p| (p, p + key as u64 - 1))
            .collect();
        let evidence = evidence_at.len();
        // The differing bytes, by part: header, directory, pool.
        let dir_end = HEADER_BYTES + 4 * (ENTRIES >> im.bytes[8]);
        let mut parts = [0usize; 3];
        let mut first = Vec::new();
        for j in (j0 as usize..j1 as usize).filter(|&j| self.buf[at(j as i64)] != im.bytes[j]) {
            parts[usize::from(j >= HEADER_BYTES) + usize::from(j >= dir_end)] += 1;
            if first.len() < FIRST_DIFFERENCES {
                first.push(j);
            }
        }
        let differing: usize = parts.iter().sum();
        let share = (covered_matching * 1000 / covered.len()) as u32;
        let complete = j0 == 0 && j1 == n;
        // Cut off by an end of the file: also judged against the whole
        // form's evidence, the bytes past the end counted as changed.
        let whole = (!complete).then_some(im.used_covered);
        let least = im.min_keys;
        if !compact::is_evidence(evidence, least, covered_matching, covered.len(), whole) {
            self.compact_rejected_chunks = self.compact_rejected_chunks.max(evidence);
            let most = if complete {
                &mut self.compact_rejected_share
            } else {
                &mut self.compact_rejected_cut_share
            };
            if evidence >= 1 {
                *most = (*most).max(share);
            }
            return None;
        }
        let reference = &self.index.refs[im.reference];
        let form = &reference.extra[im.form - 1];
        let present = &self.buf[at(j0)..at(j1)];
        let sha256 = complete.then(|| match differing {
            0 => form.sha256,
            _ => actlut_codegen::sha256(present),
        });
        let (verdict, decoded, logical) = if !complete {
            (Verdict::Truncated, Decoded::Absent, None)
        } else if differing == 0 {
            (Verdict::Intact, Decoded::Same, Some(reference.sha256))
        } else {
            self.compared += ENTRIES as u64;
            // What a compact build runs: its compiled-in header (the known
            // one) over the directory and pool found here.
            let mut bytes = im.bytes[..HEADER_BYTES].to_vec();
            bytes.extend_from_slice(&present[HEADER_BYTES..]);
            let (decoded, logical) = match CompactRef::from_bytes(&bytes) {
                Err(e) => (Decoded::Invalid(e.to_string()), None),
                Ok(view) => {
                    let entries = compact::decode_all(&view);
                    let table = actlut_codegen::table_bytes_le(reference.format, &entries);
                    let logical = Some(actlut_codegen::sha256(&table));
                    match compact::compare(&entries, &le_entries(&reference.bytes_le)) {
                        (0, _) => (Decoded::Same, logical),
                        (entries, first) => (Decoded::Differs { entries, first }, logical),
                    }
                }
            };
            (Verdict::Modified, decoded, logical)
        };
        let mut found = Found {
            form_offset: j0 as usize,
            form_len: n as usize,
            names: reference.names.clone(),
            format: reference.format,
            form: form.label.clone(),
            differing,
            matching: len - differing,
            evidence,
            first_differences: first,
            sha256,
            ..header_found(lo as u64, len, verdict, decoded)
        };
        let detail = found.compact.as_mut().expect("a compact detail");
        [detail.header, detail.directory, detail.pool] = parts;
        (detail.found_by, detail.logical_sha256) = (FoundBy::Content, logical);
        Some((found, Evidence::new(evidence_at, None)))
    }

    /// Looks at every `ACTLUTC1` whose declared length is in (or, at the
    /// end of the file, past) the buffer (see [`compact`]).
    pub(crate) fn verify_headers(&mut self, eof: bool) {
        let end = self.end();
        let mut i = 0;
        while i < self.headers.len() {
            let p = self.headers[i];
            let h = &self.buf[(p - self.base) as usize..];
            let declared = h.get(..HEADER_BYTES).and_then(compact::plausible_header);
            // A header, or a declared form, that the next bytes may complete.
            let waits = match declared {
                Some(Ok(len)) => p + len as u64 > end,
                _ => h.len() < HEADER_BYTES,
            };
            if waits && !eof {
                i += 1;
                continue;
            }
            self.headers.swap_remove(i);
            // Every header is a finding or nothing; each finding costs the
            // budget, and one whose declared form is in the buffer costs
            // validating, hashing and decoding it too.
            let Some(declared) = declared else { continue };
            let cost = match declared {
                Ok(len) if p + len as u64 <= end => {
                    FINDING_COST + DECODE_COST_PER_ENTRY * ENTRIES as u64 + len as u64
                }
                _ => FINDING_COST,
            };
            if !self.keep(Kind::Header, p) || !self.spend(cost, Kind::Header, p) {
                continue;
            }
            let found = match declared {
                Err(declared) => header_found(
                    p,
                    HEADER_BYTES,
                    Verdict::Invalid,
                    Decoded::Invalid(format!(
                        "its header declares {declared} bytes, more than any stored form ({})",
                        compact::MAX_STORED_BYTES
                    )),
                ),
                Ok(len) if p + len as u64 > end => Found {
                    form_len: len,
                    ..header_found(p, (end - p) as usize, Verdict::Truncated, Decoded::Absent)
                },
                Ok(len) => self.evaluate_header(p, len),
            };
            self.by_header.push(found);
        }
    }

    /// Validates, hashes and decodes the stored form a plausible header
    /// declares, `len` bytes at `p`, all in the buffer.
    pub(crate) fn evaluate_header(&self, p: u64, len: usize) -> Found {
        let at = (p - self.base) as usize;
        let bytes = &self.buf[at..at + len];
        let view = match CompactRef::from_bytes(bytes) {
            Ok(view) => view,
            Err(e) => {
                return header_found(p, len, Verdict::Invalid, Decoded::Invalid(e.to_string()))
            }
        };
        let sha = actlut_codegen::sha256(bytes);
        let mut f = header_found(p, len, Verdict::Intact, Decoded::Same);
        f.form = compact_form_label(view.layout()).to_string();
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
            f.matching = ENTRIES;
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
            .find(|&&r| index.refs[r].sha256 == logical);
        if let Some(&r) = same {
            detail.other_packing = true;
            f.matching = ENTRIES;
            name(&mut f, r);
            return f;
        }
        f.verdict = Verdict::Unknown;
        let Some(r) = compact::nearest(&index.refs, &index.known, &entries) else {
            return f;
        };
        let (differing, first) = compact::compare(&entries, &le_entries(&index.refs[r].bytes_le));
        let matching = ENTRIES - differing;
        f.matching = matching;
        if matching >= ENTRIES / 2 {
            f.verdict = Verdict::Modified;
            f.differing = differing;
            f.first_differences = first.clone();
            detail.decoded = Decoded::Differs {
                entries: differing,
                first,
            };
            name(&mut f, r);
        } else {
            f.format = index.refs[r].format;
            detail.nearest = Some((index.refs[r].names.clone(), matching));
        }
        f
    }
}

/// A compact form found by its header, as yet of no known table (its
/// SHA-256 is set where it is valid).
fn header_found(p: u64, len: usize, verdict: Verdict, decoded: Decoded) -> Found {
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
