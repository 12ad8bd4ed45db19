//! Compact stored forms (`ACTLUTC1`, see [`actlut_codegen::compact`]) in artifacts.
//!
//! A build with actlut's `compact` feature embeds each 16-bit table as its
//! stored form: a 16-byte header, a directory of `u32`s and a byte pool. Its
//! `CompactRef` is built at compile time, so the running program never reads
//! the header again: an edited firmware can change or zero the header and
//! still run the edited directory and pool. The audit therefore finds stored
//! forms in two ways that do not depend on each other:
//!
//! 1. **By content**, whatever the header holds. Every window of
//!    [`KEY_BYTES`] (4) bytes of a known stored form after its header, at
//!    every offset, that is *distinctive* ([`key_offsets`]: at least
//!    [`MIN_DISTINCT_BYTES`] different byte values, neither a progression nor
//!    periodic as bytes, and not part of a progression of `u32`s; a window
//!    two stored forms share is a key of both) is a key of the index; the
//!    bytes that lie in a key window are the form's *evidence bytes*. A
//!    candidate start with [`MIN_KEYS`] key hits has [`SAMPLES`] of its
//!    evidence bytes, drawn at random, compared first, and is compared in
//!    full when a quarter of them match ([`MIN_SAMPLED_PER_MILLE`]). It is
//!    reported when at least [`MIN_KEYS`] of its keys and half of its present
//!    evidence bytes ([`MIN_MATCHING_PER_MILLE`], at least
//!    [`MIN_MATCHING_BYTES`]; [`MIN_CUT_MATCHING_PER_MILLE`] when an end of
//!    the file cuts it off) match ([`is_evidence`]). So to hide a form whose
//!    header is gone, an attacker who knows the keys must change a byte in
//!    every key window but one ([`hiding_cost`]: about one in five of its
//!    evidence bytes, 60 bytes of `tanh_bf16`, 768 of `gelu_bf16`, 2,518 of
//!    `log_f16`); changes outside the key windows, however many, never hide
//!    it. Its verdict says how many bytes differ in the
//!    header, the directory and the pool, and what the found directory and
//!    pool decode to under the known header (the one a compact build compiles
//!    in): the same 65,536 entries, or how many differ.
//! 2. **By header.** Every `ACTLUTC1` followed by a plausible header
//!    ([`plausible_header`]: a valid page shift, offset scale, layout and
//!    reserved byte, so that the magic constant in the code that checks
//!    stored forms is not one) is parsed with
//!    [`CompactRef::from_bytes`](actlut_codegen::compact::CompactRef::from_bytes) over
//!    the length it declares. A known stored form is intact; otherwise its
//!    65,536 entries are decoded and compared with every known 16-bit table:
//!    the same entries in another packing are intact (and said so), a table
//!    with at least half of its entries equal is modified, anything else is an
//!    unknown compact table, and a header whose form does not validate or
//!    runs past the end of the file is an invalid or truncated form: all of
//!    those are problems.

use std::string::{String, ToString};
use std::vec::Vec;
use std::{format, vec};

use actlut_codegen::compact::{
    CompactRef, ENTRIES, HEADER_BYTES, MAGIC, MAX_PAGE_SHIFT, MIN_PAGE_SHIFT,
};

/// Bytes of a key: a window of a stored form at any offset after its header.
/// Short keys make a form expensive to hide: one changed byte breaks at most
/// [`KEY_BYTES`] of them, so an attacker who knows every key must change about
/// one byte in four or five of the stretches where they lie
/// ([`hiding_cost`]).
pub const KEY_BYTES: usize = 4;

/// Matching keys ([`key_offsets`]) a candidate found by content needs.
/// It needs this many key hits to be compared at all, so an attacker who
/// knows the keys can leave one.
pub const MIN_KEYS: usize = 2;

/// Matching bytes, per mille of the present bytes that lie in a key window
/// (its *evidence bytes*), that a candidate needs. The other bytes (runs,
/// counts, the zero high bytes of directory entries) are what unrelated
/// files also hold: counted over all present bytes, the zeros at the end of
/// ordinary ELF files matched half of a cut-off directory.
pub const MIN_MATCHING_PER_MILLE: usize = 500;

/// Matching bytes, per mille of the present evidence bytes, that a candidate
/// cut off by an end of the file needs: the tails of ordinary files (ELF
/// section headers, small integers) matched up to 52% of the few evidence
/// bytes of a directory's start (`mish_f16`, 63 bytes) and 45% of 143
/// (`sigmoid_f16`); a copy that a partial dump cuts off is byte for byte.
pub const MIN_CUT_MATCHING_PER_MILLE: usize = 900;

/// Matching evidence bytes a candidate needs however little of it is
/// present, so that the few bytes of a form that one end of a file cuts off
/// are no evidence.
pub const MIN_MATCHING_BYTES: usize = 128;

/// Whether a candidate with `keys` matching keys and `matching` of its
/// `evidence` present evidence bytes equal to the known stored form is
/// reported: [`MIN_KEYS`] keys, [`MIN_MATCHING_PER_MILLE`] of the evidence
/// bytes ([`MIN_CUT_MATCHING_PER_MILLE`] unless the form is `complete`ly in
/// the file), and [`MIN_MATCHING_BYTES`] of them. Changing bytes outside the key
/// windows, however many, never hides a form.
pub fn is_evidence(keys: usize, matching: usize, evidence: usize, complete: bool) -> bool {
    let per_mille = if complete {
        MIN_MATCHING_PER_MILLE
    } else {
        MIN_CUT_MATCHING_PER_MILLE
    };
    keys >= MIN_KEYS && matching >= MIN_MATCHING_BYTES && matching * 1000 >= per_mille * evidence
}

/// Evidence bytes of a candidate compared first, drawn at random (with
/// replacement) from those present, anew for every candidate from a seed
/// made at random when the index is made: it is compared in full only when
/// at least [`MIN_SAMPLED_PER_MILLE`] of them match. A candidate that the
/// full comparison would report (half of its present evidence bytes or more
/// equal) fails that with probability below e^-32 (Hoeffding), and since the
/// places are random an attacker cannot pick them out.
pub const SAMPLES: usize = 256;

/// Matching sampled bytes ([`SAMPLES`]), per mille, that a candidate needs to
/// be compared in full.
pub const MIN_SAMPLED_PER_MILLE: usize = 250;

/// Whether `matching` of [`SAMPLES`] sampled bytes let a candidate be
/// compared in full ([`MIN_SAMPLED_PER_MILLE`]).
pub fn passes_sample(matching: usize) -> bool {
    matching * 1000 >= MIN_SAMPLED_PER_MILLE * SAMPLES
}

/// Different byte values a key holds at least.
pub const MIN_DISTINCT_BYTES: usize = 3;

/// The longest valid stored form: the largest directory (pages of 16
/// entries) and a pool that a valid directory can address (a page starting
/// at the largest offset of the words layout, plus the 4-byte read). A
/// header that declares more is invalid.
pub const MAX_STORED_BYTES: usize = HEADER_BYTES + 4 * (ENTRIES >> MIN_PAGE_SHIFT) + MAX_POOL_BYTES;

/// The largest pool a plausible header may declare (see [`MAX_STORED_BYTES`]).
pub const MAX_POOL_BYTES: usize = 2 * (0xFFFF + (1 << MAX_PAGE_SHIFT)) + 4;

/// Entries sampled from each known table to pick the nearest one to an
/// unknown stored form before comparing it in full.
const SAMPLE_STEP: usize = 64;

/// The magic as the little-endian `u64` the scan reads.
pub(crate) const MAGIC_U64: u64 = u64::from_le_bytes(MAGIC);

/// Whether a window of [`KEY_BYTES`] of a stored form carries evidence: at
/// least [`MIN_DISTINCT_BYTES`] different byte values, and its bytes neither
/// an arithmetic progression nor periodic. Constant runs, counts and
/// alternations are what unrelated binaries also hold.
pub fn is_distinctive(window: &[u8]) -> bool {
    debug_assert_eq!(window.len(), KEY_BYTES);
    let mut seen = [false; 256];
    let mut distinct = 0;
    for &b in window {
        if !seen[usize::from(b)] {
            seen[usize::from(b)] = true;
            distinct += 1;
        }
    }
    if distinct < MIN_DISTINCT_BYTES {
        return false;
    }
    let bytes: Vec<u16> = window.iter().map(|&b| u16::from(b)).collect();
    !crate::is_progression(&bytes, 0xFF) && !crate::is_periodic(&bytes, 0xFF)
}

/// The stored length a header declares, when it is plausible: the magic,
/// a page shift in 4..=8, an offset scale and layout that
/// [`CompactRef::from_bytes`] accepts, a zero reserved byte. `Err` with the
/// declared length when the pool length alone is implausible (over
/// [`MAX_POOL_BYTES`]); `None` when the header is not one.
pub fn plausible_header(h: &[u8]) -> Option<Result<usize, u64>> {
    if h.len() < HEADER_BYTES || h[..8] != MAGIC {
        return None;
    }
    let (k, scale, layout, reserved) = (h[8], h[9], h[10], h[11]);
    let ok = (MIN_PAGE_SHIFT..=MAX_PAGE_SHIFT).contains(&u32::from(k))
        && match layout {
            0 => scale <= 2,
            1 => scale == 0,
            _ => false,
        }
        && reserved == 0;
    if !ok {
        return None;
    }
    let pool = u32::from_le_bytes([h[12], h[13], h[14], h[15]]) as usize;
    let len = HEADER_BYTES + 4 * (ENTRIES >> k) + pool;
    Some(if pool > MAX_POOL_BYTES {
        Err(len as u64)
    } else {
        Ok(len)
    })
}

/// The 65,536 entries a valid stored form decodes to.
pub fn decode_all(view: &CompactRef<'_>) -> Vec<u16> {
    (0..=u16::MAX).map(|x| view.get(x)).collect()
}

/// How a compact stored form was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoundBy {
    /// Its keys and bytes matched a known stored form's (whatever its header
    /// holds).
    Content,
    /// Its `ACTLUTC1` header.
    Header,
}

/// What a found stored form's directory and pool decode to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decoded {
    /// Exactly the known table's 65,536 entries.
    Same,
    /// Entries that differ from the known table's: how many, and the first
    /// few inputs.
    Differs {
        /// Differing entries (of 65,536).
        entries: usize,
        /// The first few differing inputs.
        first: Vec<usize>,
    },
    /// Not a valid stored form: why.
    Invalid(String),
    /// Not all of it is in the file.
    Absent,
}

/// The part of a [`Found`](crate::Found) that only compact stored forms
/// have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompactDetail {
    /// By content or by header.
    pub found_by: FoundBy,
    /// Differing bytes in the header (0..16), the directory and the pool
    /// (found by content; 0 when found by header).
    pub header: usize,
    /// See [`header`](Self::header).
    pub directory: usize,
    /// See [`header`](Self::header).
    pub pool: usize,
    /// What it decodes to (found by content: its directory and pool under
    /// the known header, which a compact build compiles in; found by header:
    /// under its own header).
    pub decoded: Decoded,
    /// A valid stored form of the same entries as a known table, but other
    /// bytes than the known stored form (another packing).
    pub other_packing: bool,
    /// SHA-256 of the decoded entries (little-endian), when they are the
    /// known table's or it decodes at all.
    pub logical_sha256: Option<[u8; 32]>,
    /// Found by header, not a known table: the nearest known table's names
    /// and its matching entries (of 65,536).
    pub nearest: Option<(Vec<String>, usize)>,
}

impl CompactDetail {
    /// `header 8, pool 1` (the parts with differing bytes).
    pub fn parts(&self) -> String {
        let parts: Vec<String> = [
            ("header", self.header),
            ("directory", self.directory),
            ("pool", self.pool),
        ]
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(p, n)| format!("{p} {n}"))
        .collect();
        parts.join(", ")
    }

    /// What the decode says, as a clause.
    pub fn decoded_text(&self) -> String {
        match &self.decoded {
            Decoded::Same => "it decodes to the table's 65536 entries".to_string(),
            Decoded::Differs { entries, first } => {
                let list: Vec<String> = first.iter().map(|j| j.to_string()).collect();
                let more = if *entries > first.len() { ", …" } else { "" };
                format!(
                    "it decodes to {entries} of 65536 entries changed (inputs {}{more})",
                    list.join(", ")
                )
            }
            Decoded::Invalid(why) => format!("it does not decode ({why})"),
            Decoded::Absent => "not all of it is present".to_string(),
        }
    }
}

/// A known table's entries, sampled to find the one nearest to a decoded
/// stored form.
pub(crate) struct Known {
    /// Index into the references.
    pub reference: usize,
    pub entries: Vec<u16>,
}

/// Differing entries of `a` against `b`, and the first few inputs.
pub(crate) fn compare(a: &[u16], b: &[u16]) -> (usize, Vec<usize>) {
    let mut n = 0;
    let mut first = Vec::new();
    for (j, (x, y)) in a.iter().zip(b).enumerate() {
        if x != y {
            n += 1;
            if first.len() < crate::FIRST_DIFFERENCES {
                first.push(j);
            }
        }
    }
    (n, first)
}

/// The known table nearest to `entries` (most entries equal, judged on every
/// [`SAMPLE_STEP`]th entry, then counted in full): its position in `known`
/// and its matching entries.
pub(crate) fn nearest(known: &[Known], entries: &[u16]) -> Option<(usize, usize)> {
    let best = known.iter().enumerate().max_by_key(|(i, k)| {
        let m = (0..ENTRIES)
            .step_by(SAMPLE_STEP)
            .filter(|&j| k.entries[j] == entries[j])
            .count();
        (m, core::cmp::Reverse(*i))
    })?;
    let (differing, _) = compare(&best.1.entries, entries);
    Some((best.0, ENTRIES - differing))
}

/// The offsets of a stored form after its header whose window of
/// [`KEY_BYTES`] is distinctive ([`is_distinctive`]) and whose `u32` does not
/// lie in an arithmetic progression of three `u32`s 4 bytes apart (a run of
/// directory entries whose addend grows by a constant, at any phase:
/// unrelated binaries hold such runs, Intel's media driver byte for byte 128
/// bytes of `softsign_f16`'s directory).
pub fn key_offsets(bytes: &[u8]) -> Vec<usize> {
    let u32_at = |at: usize| {
        bytes
            .get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let progression = |a: Option<usize>| {
        let Some(a) = a else { return false };
        match (u32_at(a), u32_at(a + 4), u32_at(a + 8)) {
            (Some(x), Some(y), Some(z)) => y.wrapping_sub(x) == z.wrapping_sub(y),
            _ => false,
        }
    };
    let in_progression = |off: usize| {
        progression(off.checked_sub(8)) || progression(off.checked_sub(4)) || progression(Some(off))
    };
    // The header is no evidence of the content: its magic is every form's,
    // and it may be zeroed.
    (HEADER_BYTES..(bytes.len() + 1).saturating_sub(KEY_BYTES))
        .filter(|&off| is_distinctive(&bytes[off..off + KEY_BYTES]) && !in_progression(off))
        .collect()
}

/// One bit per byte offset.
pub(crate) fn offset_bits(len: usize) -> Vec<u64> {
    vec![0; len / 64 + 1]
}

/// The fewest bytes an attacker who knows the keys must change so that no
/// start of the form gathers [`MIN_KEYS`] key hits: every key window but one
/// must hold a changed byte, so changing fewer always leaves the form found
/// (with half of its bytes in place). `keys` are the key offsets, ascending.
/// The fewest bytes that hit every window is what the greedy choice gives
/// (the last byte of the first window not yet hit, and so on: windows are
/// intervals of one length); sparing one window saves at most one byte, so
/// this is that count minus one (and hiding takes it or one more).
pub fn hiding_cost(keys: &[usize]) -> usize {
    greedy_hits(keys).len().saturating_sub(MIN_KEYS - 1)
}

/// The bytes the greedy choice changes to hit every window of `keys`.
pub(crate) fn greedy_hits(keys: &[usize]) -> Vec<usize> {
    let mut hits: Vec<usize> = Vec::new();
    for &k in keys {
        if hits.last().is_some_and(|&h| k <= h) {
            continue;
        }
        hits.push(k + KEY_BYTES - 1);
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::noise;
    use crate::{merge_aliases, Found, Index, Reference, Report, Verdict};
    use actlut_codegen::compact::{compact, Layout};
    use actlut_codegen::lock::Entry;
    use actlut_codegen::{Format, Function};
    use std::sync::OnceLock;

    type Indexed = (Index, Vec<(String, Vec<u8>)>, Vec<Entry>);

    /// Every 16-bit table with its compact stored form, indexed once, and
    /// their lock.
    fn indexed() -> &'static Indexed {
        static INDEX: OnceLock<Indexed> = OnceLock::new();
        INDEX.get_or_init(|| {
            let mut refs = Vec::new();
            let mut forms = Vec::new();
            let mut lock = Vec::new();
            for (function, format) in actlut_codegen::table_pairs() {
                if format.entries() != ENTRIES {
                    continue;
                }
                let stored = actlut_codegen::compact_lock::stored_form(function, format).unwrap();
                forms.push((actlut_codegen::table_name(function, format), stored.clone()));
                let r = Reference::generate(function, format);
                lock.push(Entry {
                    name: r.names[0].clone(),
                    function,
                    format,
                    entries: ENTRIES,
                    bytes: 2 * ENTRIES,
                    sha256: r.sha256,
                    reference: "r".to_string(),
                });
                refs.push(r.with_compact(stored).unwrap());
            }
            (Index::new(merge_aliases(refs)), forms, lock)
        })
    }

    fn index() -> (&'static Index, &'static [(String, Vec<u8>)]) {
        let (index, forms, _) = indexed();
        (index, forms)
    }

    /// The problems of `r` against the lock of the 16-bit tables.
    fn problems(r: &Report) -> Vec<String> {
        r.problems(&indexed().2)
    }

    fn form(name: &str) -> Vec<u8> {
        let (_, forms) = index();
        forms.iter().find(|(n, _)| n == name).unwrap().1.clone()
    }

    /// `before` bytes of noise, `form`, `after` bytes of noise.
    fn embed(form: &[u8], before: usize, after: usize) -> Vec<u8> {
        let mut data = noise(before, before as u64 + 7);
        data.extend_from_slice(form);
        data.extend(noise(after, after as u64 + 9));
        data
    }

    fn scan(data: &[u8]) -> Report {
        index().0.scan(data)
    }

    fn only(r: &Report) -> &Found {
        assert_eq!(r.found.len(), 1, "{:#?}", r.found);
        &r.found[0]
    }

    fn detail(f: &Found) -> &CompactDetail {
        f.compact.as_ref().expect("a compact form")
    }

    #[test]
    fn every_shipped_stored_form_is_found_intact_alone_in_noise() {
        let (index, forms) = index();
        assert_eq!(forms.len(), 36);
        for (i, (name, stored)) in forms.iter().enumerate() {
            let r = index.scan(&embed(stored, 1000 + 7 * i, 500));
            let f = only(&r);
            assert!(f.names.contains(name), "{name}: {:?}", f.names);
            assert_eq!(
                (f.offset, f.verdict),
                (1000 + 7 * i as u64, Verdict::Intact)
            );
            assert_eq!(f.label(), format!("{} (compact)", f.names.join(" = ")));
            assert_eq!(detail(f).found_by, FoundBy::Content);
            assert!(problems(&r).is_empty(), "{name}: {:?}", problems(&r));
        }
        // Each takes a changed byte in about one in five of the bytes that
        // lie in its key windows (`ACTLUT_PRINT_KEYS=1` prints them all).
        let keys = index.compact_keys();
        if std::env::var_os("ACTLUT_PRINT_KEYS").is_some() {
            for k in &keys {
                std::eprintln!("{k:?}");
            }
        }
        for k in keys {
            assert!(k.hiding_cost >= 60, "{k:?}");
            assert!(6 * k.hiding_cost >= k.covered, "{k:?}");
        }
    }

    #[test]
    fn an_intact_form_is_found_at_any_offset_and_at_either_end() {
        let gelu = form("gelu_bf16");
        for before in [0, 1, 2, 3, 5, 8, 13, 4093, 65_537] {
            for after in [0, 1, 7, 300] {
                let f = only(&scan(&embed(&gelu, before, after))).clone();
                assert_eq!(
                    (f.offset, f.len, f.verdict),
                    (before as u64, gelu.len(), Verdict::Intact),
                    "{before} {after}"
                );
            }
        }
    }

    #[test]
    fn changed_pool_bytes_are_a_modified_form_with_their_count_and_entries() {
        let gelu = form("gelu_bf16");
        let pool_at = gelu.len() - 2000;
        for k in [1usize, 2, 5, 40, 300] {
            let mut bad = gelu.clone();
            for j in 0..k {
                bad[pool_at - 3 * j] ^= 0x01;
            }
            let r = scan(&embed(&bad, 777, 333));
            let f = only(&r);
            assert_eq!((f.verdict, f.differing), (Verdict::Modified, k), "{k}");
            let d = detail(f);
            assert_eq!((d.header, d.directory, d.pool), (0, 0, k));
            assert!(
                matches!(d.decoded, Decoded::Differs { entries, .. } if entries >= 1),
                "{k}: {:?}",
                d.decoded
            );
            assert_eq!(problems(&r).len(), 1);
            assert!(problems(&r)[0].contains(&format!("modified: {k} of")));
        }
    }

    #[test]
    fn a_changed_directory_entry_names_the_changed_inputs() {
        let gelu = form("gelu_bf16");
        let k = usize::from(gelu[8]);
        let page = 100;
        let mut bad = gelu.clone();
        // The addend of page 100: every entry of the page moves by one.
        bad[HEADER_BYTES + 4 * page + 2] ^= 0x01;
        let f = only(&scan(&embed(&bad, 64, 64))).clone();
        assert_eq!(f.verdict, Verdict::Modified);
        let d = detail(&f);
        assert_eq!((d.header, d.directory, d.pool), (0, 1, 0));
        let Decoded::Differs { entries, first } = &d.decoded else {
            panic!("{:?}", d.decoded);
        };
        assert_eq!(*entries, 1 << k);
        assert_eq!(first[0], page << k);
    }

    #[test]
    fn a_changed_or_zeroed_header_does_not_hide_a_form() {
        let gelu = form("gelu_bf16");
        // Magic changed, magic zeroed, whole header zeroed: with and without
        // a pool byte flipped too.
        for (header, flip_pool) in [
            (1usize, false),
            (8, false),
            (16, false),
            (8, true),
            (16, true),
        ] {
            let mut bad = gelu.clone();
            for b in &mut bad[..header] {
                *b = if header == 1 { b'X' } else { 0 };
            }
            if flip_pool {
                let n = bad.len();
                bad[n - 100] ^= 0x10;
            }
            let r = scan(&embed(&bad, 5000, 5000));
            let f = only(&r);
            let d = detail(f);
            assert_eq!(f.verdict, Verdict::Modified, "{header} {flip_pool}");
            assert_eq!(d.found_by, FoundBy::Content);
            let changed = (0..header).filter(|&j| bad[j] != gelu[j]).count();
            assert_eq!(d.header, changed);
            assert!(changed >= header.min(8));
            assert_eq!(d.pool, usize::from(flip_pool));
            // The header alone changed: the directory and pool still decode
            // to the table (as the compiled-in header reads them), yet the
            // bytes are not the locked ones.
            assert_eq!(d.decoded == Decoded::Same, !flip_pool, "{:?}", d.decoded);
            assert!(!problems(&r).is_empty());
        }
    }

    #[test]
    fn a_stripped_header_is_a_modified_or_truncated_form() {
        let gelu = form("gelu_bf16");
        let body = &gelu[HEADER_BYTES..];
        let r = scan(&embed(body, 4000, 100));
        let f = only(&r);
        assert_eq!((f.verdict, f.offset), (Verdict::Modified, 4000 - 16));
        assert!(detail(f).header > 0 && detail(f).directory == 0 && detail(f).pool == 0);
        assert!(!problems(&r).is_empty());
        // At the very start of the file, the missing header is cut off.
        let r = scan(&embed(body, 0, 100));
        let f = only(&r);
        assert_eq!(
            (f.verdict, f.form_offset, f.offset),
            (Verdict::Truncated, 16, 0)
        );
        assert!(!problems(&r).is_empty());
    }

    #[test]
    fn a_form_cut_off_by_either_end_of_the_file_is_truncated() {
        let gelu = form("gelu_bf16");
        for keep in [gelu.len() / 2, gelu.len() - 1, 1500] {
            let r = scan(&embed(&gelu[..keep], 3000, 0));
            let f = only(&r);
            assert_eq!(
                (f.verdict, f.len, f.form_offset),
                (Verdict::Truncated, keep, 0)
            );
            assert!(
                f.describe().contains("the end of the file cuts it"),
                "{}",
                f.describe()
            );
            let r = scan(&embed(&gelu[gelu.len() - keep..], 0, 3000));
            let f = only(&r);
            assert_eq!(f.verdict, Verdict::Truncated, "{keep}");
            assert_eq!((f.offset, f.form_offset), (0, gelu.len() - keep));
            assert!(!problems(&r).is_empty());
        }
    }

    #[test]
    fn one_table_s_form_under_another_s_header_is_a_problem() {
        let gelu = form("gelu_bf16");
        let tanh = form("tanh_bf16");
        let mut mixed = tanh[..HEADER_BYTES].to_vec();
        mixed.extend_from_slice(&gelu[HEADER_BYTES..]);
        let r = scan(&embed(&mixed, 900, 900));
        assert!(!r.found.is_empty());
        assert!(
            r.found.iter().all(|f| f.verdict != Verdict::Intact),
            "{:#?}",
            r.found
        );
        assert!(!problems(&r).is_empty());
        let f = r.found.iter().find(|f| f.names == ["gelu_bf16"]).unwrap();
        assert_eq!(f.verdict, Verdict::Modified);
        assert!(detail(f).header > 0);
    }

    /// A random table, compacted: valid, with actlut's header, of no known
    /// table. Found only by its header, and a problem.
    #[test]
    fn a_valid_form_of_an_unknown_table_is_a_problem() {
        let entries: Vec<u16> = noise(2 * ENTRIES, 3)
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]) & 0x00FF)
            .collect();
        let stored = compact("random", &entries, Layout::Bytes)
            .unwrap()
            .to_bytes();
        let r = scan(&embed(&stored, 123, 456));
        let f = only(&r);
        assert_eq!((f.verdict, f.offset), (Verdict::Unknown, 123));
        assert_eq!(detail(f).found_by, FoundBy::Header);
        assert_eq!(f.label(), "unknown (compact)");
        assert_eq!(problems(&r).len(), 1);
        // A known table with over half of its entries changed: modified.
        let mut gelu = actlut_codegen::table(Function::Gelu, Format::Bf16);
        for (j, e) in gelu.iter_mut().enumerate().step_by(3) {
            *e ^= (j as u16) | 1;
        }
        let stored = compact("gelu-changed", &gelu, Layout::Bytes)
            .unwrap()
            .to_bytes();
        let r = scan(&embed(&stored, 50, 50));
        let f = r
            .found
            .iter()
            .find(|f| detail(f).found_by == FoundBy::Header)
            .unwrap();
        assert_eq!(f.verdict, Verdict::Modified);
        assert_eq!(f.names, ["gelu_bf16"]);
        assert_eq!(f.differing, ENTRIES.div_ceil(3));
        assert!(!problems(&r).is_empty());
    }

    #[test]
    fn another_packing_of_a_known_table_is_intact_and_says_so() {
        let gelu = actlut_codegen::table(Function::Gelu, Format::Bf16);
        let words = compact("gelu_bf16", &gelu, Layout::Words)
            .unwrap()
            .to_bytes();
        let r = scan(&embed(&words, 300, 300));
        let f = only(&r);
        assert_eq!((f.verdict, f.offset), (Verdict::Intact, 300));
        assert!(detail(f).other_packing);
        assert!(f.describe().contains("another packing"));
        assert!(problems(&r).is_empty(), "{:?}", problems(&r));
    }

    #[test]
    fn a_header_whose_form_does_not_validate_is_invalid() {
        let gelu = form("gelu_bf16");
        // A directory entry pointing past the pool: only the header finds
        // what is wrong with the length; the content still matches.
        let mut bad = gelu.clone();
        bad[12..16].copy_from_slice(&(u32::MAX / 2).to_le_bytes());
        let r = scan(&embed(&bad[..HEADER_BYTES], 10, 10));
        assert_eq!(only(&r).verdict, Verdict::Invalid);
        assert_eq!(problems(&r).len(), 1);
        // The magic constant of code that checks stored forms, followed by
        // instruction bytes: not a header, no report.
        let mut code = noise(200, 1);
        code[50..58].copy_from_slice(&MAGIC);
        code[58] = 0x48;
        assert!(scan(&code).found.is_empty());
        // A plausible header on a body that does not validate.
        let mut body = gelu[..HEADER_BYTES].to_vec();
        body.extend(vec![0xFFu8; gelu.len() - HEADER_BYTES]);
        let r = scan(&embed(&body, 10, 10));
        let f = only(&r);
        assert_eq!(f.verdict, Verdict::Invalid);
        assert!(
            f.describe().contains("reads past the end of the pool"),
            "{}",
            f.describe()
        );
    }

    #[test]
    fn many_forms_concatenated_are_each_found_intact() {
        let (_, forms) = index();
        let mut data = Vec::new();
        let mut starts = Vec::new();
        for (name, stored) in forms.iter().take(12) {
            starts.push((data.len() as u64, name.clone()));
            data.extend_from_slice(stored);
        }
        let r = scan(&data);
        let got: Vec<(u64, Verdict)> = r.found.iter().map(|f| (f.offset, f.verdict)).collect();
        let want: Vec<(u64, Verdict)> = starts.iter().map(|(o, _)| (*o, Verdict::Intact)).collect();
        assert_eq!(got, want);
        for (f, (_, name)) in r.found.iter().zip(&starts) {
            assert!(f.names.contains(name));
        }
        assert!(problems(&r).is_empty());
    }

    /// Valid stored forms one after another, each to be validated, hashed
    /// and decoded (65,536 entries for 1,300 bytes): the work stops at the
    /// budget, and the report says so.
    #[test]
    fn headers_crafted_back_to_back_stop_at_the_budget() {
        let constant = vec![0x1234u16; ENTRIES];
        let form = compact("constant", &constant, Layout::Bytes)
            .unwrap()
            .to_bytes();
        assert!(form.len() < 1400, "{}", form.len());
        let data: Vec<u8> = form
            .iter()
            .copied()
            .cycle()
            .take(form.len() * 1500)
            .collect();
        let r = scan(&data);
        assert!(r.too_many);
        let budget = crate::BUDGET_PER_BYTE * data.len() as u64 + crate::BUDGET_ALLOWANCE;
        assert!(
            r.compared <= budget + 2 * ENTRIES as u64 + form.len() as u64,
            "{}",
            r.compared
        );
        assert!(r.found.iter().all(|f| f.verdict == Verdict::Unknown));
        assert!(
            r.found.len() > 100 && r.found.len() < 1500,
            "{}",
            r.found.len()
        );
        assert!(problems(&r)
            .iter()
            .any(|p| p.starts_with("too many table candidates")));
    }

    #[test]
    fn noise_runs_and_counts_hold_no_compact_form() {
        for data in [
            noise(1 << 21, 5),
            vec![0u8; 1 << 18],
            (0..1 << 18).map(|v| v as u8).collect(),
            (0..=u16::MAX).flat_map(|v| v.to_le_bytes()).collect(),
        ] {
            let r = scan(&data);
            assert!(
                r.found.is_empty(),
                "{:?}",
                r.found
                    .iter()
                    .map(|f| (f.offset, f.label(), f.verdict, f.matching, f.evidence))
                    .collect::<Vec<_>>()
            );
            assert!(r.compact_rejected_share < MIN_MATCHING_PER_MILLE as u32 / 4);
        }
    }

    /// The bytes that hide a form from the search by content: the greedy
    /// choice of [`hiding_cost`] over every key window but the first, and the
    /// form with them changed and its magic zeroed (so that its header does
    /// not find it either).
    fn hidden(image_bytes: &[u8], keys: &[usize]) -> (Vec<usize>, Vec<u8>) {
        // Its hits are the last bytes of windows that start after the first
        // key: none lies in the first key's window.
        let hits = greedy_hits(&keys[1..]);
        let mut bad = image_bytes.to_vec();
        bad[..8].fill(0);
        for &h in &hits {
            bad[h] ^= 0x40;
        }
        (hits, bad)
    }

    /// Key windows of `bytes` that `bad` leaves as they were.
    fn intact_keys(bytes: &[u8], bad: &[u8], keys: &[usize]) -> usize {
        keys.iter()
            .filter(|&&k| bad[k..k + KEY_BYTES] == bytes[k..k + KEY_BYTES])
            .count()
    }

    fn key_image(name: &str) -> (Vec<u8>, Vec<usize>) {
        let (index, _) = index();
        let image = index
            .images
            .iter()
            .find(|im| im.compact && index.refs[im.reference].names.iter().any(|n| n == name))
            .unwrap();
        (image.bytes.clone(), image.key_offsets())
    }

    /// An attacker who knows the keys zeroes the magic and changes one byte
    /// in every key window but one: [`hiding_cost`] bytes or one more, and
    /// then nothing is reported. Any one of those changes undone leaves two
    /// keys, and the form is found, modified, by its keys and its bytes.
    #[test]
    fn hiding_a_form_takes_a_changed_byte_in_every_key_window_but_one() {
        for name in ["tanh_bf16", "exp_f16", "log_bf16", "erf_bf16"] {
            let (bytes, keys) = key_image(name);
            let (hits, bad) = hidden(&bytes, &keys);
            let cost = hiding_cost(&keys);
            assert!(hits.len() == cost || hits.len() == cost + 1, "{name}");
            assert!(intact_keys(&bytes, &bad, &keys) <= 1);
            let r = scan(&embed(&bad, 2000, 2000));
            assert_eq!(r.found, [], "{name}: hidden with {} bytes", hits.len());
            for undo in [0, hits.len() / 2, hits.len() - 1] {
                let mut less = bad.clone();
                less[hits[undo]] = bytes[hits[undo]];
                assert!(intact_keys(&bytes, &less, &keys) >= MIN_KEYS);
                let r = scan(&embed(&less, 2000, 2000));
                let f = only(&r);
                assert_eq!((f.verdict, f.offset), (Verdict::Modified, 2000), "{name}");
                assert!(f.evidence >= MIN_KEYS, "{name}");
                let changed = less.iter().zip(&bytes).filter(|(a, b)| a != b).count();
                assert_eq!(f.differing, changed);
                assert!(!problems(&r).is_empty());
            }
        }
    }

    /// Changing fewer bytes than [`hiding_cost`] anywhere but the header
    /// always leaves two key windows, so the form is always found: a byte in
    /// every other key window, in every fourth, or in a random choice of
    /// windows.
    #[test]
    fn fewer_changes_than_the_hiding_cost_always_leave_the_form_found() {
        let mut seed = 17u64;
        for name in ["tanh_bf16", "elu_bf16", "gelu_bf16"] {
            let (bytes, keys) = key_image(name);
            let budget = hiding_cost(&keys) - 1;
            for pattern in 0..6 {
                let mut bad = bytes.clone();
                bad[..8].fill(0);
                let mut left = budget;
                for (n, &k) in keys.iter().enumerate() {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let pick = match pattern {
                        0 => n.is_multiple_of(2),
                        1 => n.is_multiple_of(4),
                        _ => !(seed >> 33).is_multiple_of(3),
                    };
                    if pick && left > 0 && bad[k] == bytes[k] {
                        bad[k + (seed >> 40) as usize % KEY_BYTES] ^= 0x01;
                        left -= 1;
                    }
                }
                let r = scan(&embed(&bad, 3000, 1000));
                let f = only(&r);
                assert_eq!(
                    (f.verdict, f.offset),
                    (Verdict::Modified, 3000),
                    "{name} {pattern}"
                );
                assert!(!problems(&r).is_empty());
            }
        }
    }

    /// Intel's media driver (`iHD_drv_video.so`) holds three runs of `u32`s
    /// that grow by `0x0020_0000`, byte for byte the directory entries
    /// 32..64 of `softsign_f16`'s stored form (offset 0, addends
    /// `0x0380, 0x03A0, …`): 16 chunks of 8 bytes, each with four different
    /// byte values. Such a run is a progression of `u32`s, no evidence.
    #[test]
    fn a_run_of_directory_entries_in_progression_is_not_a_form() {
        let softsign = form("softsign_f16");
        let run = &softsign[128..256];
        assert_eq!(&run[..8], &[0, 0, 0x80, 3, 0, 0, 0xA0, 3]);
        let mut data = noise(3000, 1);
        data[1000..1128].copy_from_slice(run);
        assert_eq!(scan(&data).found, []);
    }

    #[test]
    fn keys_exclude_runs_counts_and_progressions_of_u32s() {
        assert!(!is_distinctive(&[0; 4]));
        assert!(!is_distinctive(&[0, 1, 2, 3]));
        assert!(!is_distinctive(&[0, 2, 5, 7])); // period 2
        assert!(!is_distinctive(&[9, 9, 1, 1]));
        assert!(!is_distinctive(&[3, 0, 3, 0]));
        assert!(is_distinctive(&[0x34, 0x12, 0x80, 0x3F]));
        // Directory entries whose addend grows by 0x20: no key at any phase.
        let mut run = vec![0xA5u8; 16];
        for k in 0..8u32 {
            run.extend_from_slice(&(0x0380_0000 + (k << 21)).to_le_bytes());
        }
        assert_eq!(key_offsets(&run), []);
    }
}
