//! Compact stored forms (`ACTLUTC1`, see [`crate::compact`]) in artifacts.
//!
//! A build with actlut's `compact` feature embeds each 16-bit table as its
//! stored form: a 16-byte header, a directory of `u32`s and a byte pool. Its
//! `CompactRef` is built at compile time, so the running program never reads
//! the header again: an edited firmware can change or zero the header and
//! still run the edited directory and pool. The audit therefore finds stored
//! forms in two ways that do not depend on each other:
//!
//! 1. **By content**, whatever the header holds. Every 8-byte chunk of a known
//!    stored form after its header (at offsets that are multiples of 8 from
//!    its start; a chunk two stored forms share is a key of both) that is
//!    *distinctive* ([`is_distinctive`]: at least [`MIN_DISTINCT_BYTES`]
//!    different byte values, and neither a progression nor periodic as bytes,
//!    16-bit or 32-bit words) is a key of the index. A candidate start with
//!    two key hits is compared byte for byte with the known stored form, and
//!    it is reported when at least [`MIN_COMPACT_CHUNKS`] of its indexed
//!    chunks match exactly. Its verdict says how many bytes differ in the
//!    header, the directory and the pool, and what the found directory and
//!    pool decode to under the known header (the one a compact build compiles
//!    in): the same 65,536 entries, or how many differ.
//! 2. **By header.** Every `ACTLUTC1` followed by a plausible header
//!    ([`plausible_header`]: a valid page shift, offset scale, layout and
//!    reserved byte, so that the magic constant in the code that checks
//!    stored forms is not one) is parsed with
//!    [`CompactRef::from_bytes`](crate::compact::CompactRef::from_bytes) over
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

use crate::compact::{CompactRef, ENTRIES, HEADER_BYTES, MAGIC, MAX_PAGE_SHIFT, MIN_PAGE_SHIFT};

/// Matching distinctive chunks (8 bytes each, see [`is_distinctive`]) a
/// candidate found by content needs to be reported. On the 3,387 files of
/// `/usr/bin` and `/usr/lib/x86_64-linux-gnu` no rejected candidate matched
/// more than 5, and on the 52,328 files of a Rust sysroot none matched one;
/// the shipped stored forms have 33 (`tanh_bf16`) to 1,220 (`log_f16`).
pub const MIN_COMPACT_CHUNKS: usize = 12;

/// Matching distinctive chunks that, with at least half of the present
/// bytes matching ([`MIN_MATCHING_PER_MILLE`]), also make a candidate found
/// by content reported: a form whose keys an attacker changed in part, or a
/// small one (`tanh_bf16` has 33 keys), is still found as long as most of
/// its bytes are in place.
pub const MIN_CHUNKS_WITH_BYTES: usize = 2;

/// Matching bytes, per mille of the present bytes, that a candidate with
/// [`MIN_CHUNKS_WITH_BYTES`] matching chunks needs (the most common byte of a
/// shipped stored form makes up at most 36% of it, so a run of one value
/// cannot pass).
pub const MIN_MATCHING_PER_MILLE: usize = 500;

/// Whether a candidate with `chunks` matching distinctive chunks and
/// `matching` of its `present` bytes equal to the known stored form is
/// reported: [`MIN_COMPACT_CHUNKS`] chunks, or [`MIN_CHUNKS_WITH_BYTES`]
/// and [`MIN_MATCHING_PER_MILLE`] of the bytes.
pub fn is_evidence(chunks: usize, matching: usize, present: usize) -> bool {
    chunks >= MIN_COMPACT_CHUNKS
        || (chunks >= MIN_CHUNKS_WITH_BYTES && matching * 1000 >= MIN_MATCHING_PER_MILLE * present)
}

/// Different byte values a distinctive chunk holds at least.
pub const MIN_DISTINCT_BYTES: usize = 4;

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

/// Whether an 8-byte chunk of a stored form carries evidence: at least
/// [`MIN_DISTINCT_BYTES`] different byte values, and its bytes, its four
/// 16-bit words and its two 32-bit words are neither an arithmetic
/// progression nor periodic. Constant runs, counts, alternations and
/// repeated directory entries (the constant regions of a table all point at
/// one window of the pool) are what unrelated binaries also hold.
pub fn is_distinctive(chunk: &[u8]) -> bool {
    debug_assert_eq!(chunk.len(), 8);
    let mut seen = [false; 256];
    let mut distinct = 0;
    for &b in chunk {
        if !seen[usize::from(b)] {
            seen[usize::from(b)] = true;
            distinct += 1;
        }
    }
    if distinct < MIN_DISTINCT_BYTES {
        return false;
    }
    let bytes: Vec<u16> = chunk.iter().map(|&b| u16::from(b)).collect();
    if super::is_progression(&bytes, 0xFF) || super::is_periodic(&bytes, 0xFF) {
        return false;
    }
    let words: Vec<u16> = chunk
        .chunks_exact(2)
        .map(|w| u16::from_le_bytes([w[0], w[1]]))
        .collect();
    if super::is_progression(&words, 0xFFFF) || super::is_periodic(&words, 0xFFFF) {
        return false;
    }
    chunk[..4] != chunk[4..]
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
    /// Its chunks matched a known stored form's (whatever its header holds).
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

/// The part of a [`Found`](super::Found) that only compact stored forms
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
            if first.len() < super::FIRST_DIFFERENCES {
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

/// The chunk positions of a stored form after its header (multiples of 8
/// from its start) that are distinctive ([`is_distinctive`]) and whose two `u32`s do not continue
/// an arithmetic progression of the `u32`s around them (a run of directory
/// entries whose addend grows by a constant: the 8 bytes alone cannot show
/// it, and unrelated binaries hold such runs).
pub(crate) fn distinctive_chunks(bytes: &[u8]) -> Vec<usize> {
    let u32_at = |at: usize| {
        bytes
            .get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let in_progression = |off: usize| {
        let (a, b) = (u32_at(off), u32_at(off + 4));
        let (Some(a), Some(b)) = (a, b) else {
            return false;
        };
        let step = b.wrapping_sub(a);
        let before = off.checked_sub(4).and_then(u32_at);
        let after = u32_at(off + 8);
        before.is_some_and(|p| a.wrapping_sub(p) == step)
            || after.is_some_and(|n| n.wrapping_sub(b) == step)
    };
    // The header is no evidence of the content: its magic is every form's,
    // and it may be zeroed.
    (HEADER_BYTES..bytes.len().saturating_sub(7))
        .step_by(8)
        .filter(|&off| is_distinctive(&bytes[off..off + 8]) && !in_progression(off))
        .collect()
}

/// One bit per 8-byte chunk.
pub(crate) fn chunk_bits(len: usize) -> Vec<u64> {
    vec![0; len / 8 / 64 + 1]
}

#[cfg(test)]
mod tests {
    use super::super::{merge_aliases, Found, Index, Reference, Report, Verdict};
    use super::*;
    use crate::compact::{compact, Layout};
    use crate::lock::Entry;
    use crate::{Format, Function};
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
            for (function, format) in crate::table_pairs() {
                if format.entries() != ENTRIES {
                    continue;
                }
                let stored = crate::compact_lock::stored_form(function, format).unwrap();
                forms.push((crate::table_name(function, format), stored.clone()));
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

    fn noise(len: usize, seed: u64) -> Vec<u8> {
        let mut x = seed | 1;
        (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x >> 24) as u8
            })
            .collect()
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
        // Each has far more keys than a candidate needs.
        let keys = index.compact_keys();
        if std::env::var_os("ACTLUT_PRINT_KEYS").is_some() {
            std::eprintln!("{keys:?}");
        }
        for (name, keys) in keys {
            assert!(keys >= 2 * MIN_COMPACT_CHUNKS, "{name}: {keys} keys");
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
        let mut gelu = crate::table(Function::Gelu, Format::Bf16);
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
        let gelu = crate::table(Function::Gelu, Format::Bf16);
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
        let budget =
            super::super::BUDGET_PER_BYTE * data.len() as u64 + super::super::BUDGET_ALLOWANCE;
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
            assert!(r.found.is_empty());
            assert!(r.compact_rejected_chunks < MIN_COMPACT_CHUNKS);
        }
    }

    /// An attacker who knows the keys changes a byte in all of them but two
    /// and zeroes the magic: the form is still found, by its two keys and
    /// its bytes (most of them in place), and reported modified.
    #[test]
    fn a_form_with_all_but_two_keys_changed_and_no_magic_is_still_found() {
        let (index, _) = index();
        for name in ["tanh_bf16", "gelu_f16"] {
            let image = index
                .images
                .iter()
                .find(|im| im.compact && index.refs[im.reference].names.iter().any(|n| n == name))
                .unwrap();
            let keys: Vec<usize> = (0..image.bytes.len() / 8)
                .filter(|c| image.indexed[c / 64] >> (c % 64) & 1 == 1)
                .collect();
            let mut bad = image.bytes.clone();
            bad[..8].fill(0);
            for &c in &keys[2..] {
                bad[8 * c + 3] ^= 0x40;
            }
            let r = scan(&embed(&bad, 2000, 2000));
            let f = only(&r);
            assert_eq!(
                (f.verdict, f.offset, f.evidence),
                (Verdict::Modified, 2000, 2),
                "{name}"
            );
            let changed = bad.iter().zip(&image.bytes).filter(|(a, b)| a != b).count();
            assert_eq!(f.differing, changed);
            assert!(!problems(&r).is_empty());
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
    fn distinctive_chunks_exclude_runs_counts_and_repeated_entries() {
        assert!(!is_distinctive(&[0; 8]));
        assert!(!is_distinctive(&[0, 1, 2, 3, 4, 5, 6, 7]));
        assert!(!is_distinctive(&[0, 2, 5, 7, 10, 12, 15, 17])); // period 2
        assert!(!is_distinctive(&[1, 2, 3, 4, 1, 2, 3, 4])); // two equal u32s
        assert!(!is_distinctive(&[0x10, 0, 0x20, 0, 0x30, 0, 0x40, 0])); // u16 count
        assert!(!is_distinctive(&[9, 9, 9, 1, 1, 1, 9, 9]));
        assert!(is_distinctive(&[
            0x34, 0x12, 0x80, 0x3F, 0x74, 0x12, 0x81, 0x3F
        ]));
    }
}
