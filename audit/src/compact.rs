//! Compact stored forms (`ACTLUTC1`, see [`actlut_codegen::compact`]) in artifacts.
//!
//! A build with actlut's `compact` feature embeds each 16-bit table as its
//! stored form: a 16-byte header, a directory of `u32`s and a pool. Its
//! `CompactRef` is built at compile time, so the running program decodes
//! with the parameters compiled in; it checks the header in memory against
//! them before each lookup (`CompactRef::check_header`), but an edited
//! firmware can remove that check from its code, change or zero the header,
//! and still run the edited directory and pool. The audit therefore finds stored
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
//!    evidence bytes, 59 bytes of `tanh_bf16`, 767 of `gelu_bf16`, 2,515 of
//!    `log_f16` in the bytes layout), or enough evidence bytes to leave fewer
//!    than [`MIN_MATCHING_BYTES`] ([`form_hiding_cost`]: the cheaper of the
//!    two); changes outside the key windows, however many, never hide it. The
//!    words layout's pools count where their tables do, and a window of a
//!    `u16` count is no key ([`is_u16_count`]); its candidates need
//!    [`MIN_KEYS_WORDS`] keys, so some words-layout forms hold little
//!    evidence: `elu_bf16`'s 138 bytes (hidden by 11), `tanh_bf16`'s 85, fewer
//!    than the search needs (found by its header or its declaration only). Its verdict says how many bytes differ in the
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

use actlut_codegen::compact::{
    CompactRef, ENTRIES, HEADER_BYTES, MAGIC, MAX_PAGE_SHIFT, MIN_PAGE_SHIFT,
};

use crate::reference::{ByteOrder::Little, Reference};

/// Bytes of a key: a window of a stored form at any offset after its header.
/// Short keys make a form expensive to hide: one changed byte breaks at most
/// [`KEY_BYTES`] of them, so an attacker who knows every key must change about
/// one byte in four or five of the stretches where they lie
/// ([`hiding_cost`]).
pub const KEY_BYTES: usize = 4;

// A vote's gram reaches no further than `GRAM_REACH`, a key's included.
const _: () = assert!(crate::limits::GRAM_REACH >= KEY_BYTES);

/// Matching keys ([`key_offsets`]) a candidate found by content needs.
/// It needs this many key hits to be compared at all, so an attacker who
/// knows the keys can leave one.
pub const MIN_KEYS: usize = 2;

/// Matching keys a candidate of a words-layout form needs ([`min_keys`]).
/// The words layout's pools rise slowly where their tables do (counts with
/// steps of 1 to 3, residuals of near-linear pages), and so do ordinary
/// arrays (sorted offsets, jittered counts): such data held 2 to 6 keys of
/// `erf_bf16`'s words form and half of its evidence bytes, and was reported.
/// A real copy with fewer changes than the form's hiding cost keeps this many.
pub const MIN_KEYS_WORDS: usize = 16;

/// The matching keys a candidate of a form in `layout` needs: [`MIN_KEYS`]
/// (bytes layout) or [`MIN_KEYS_WORDS`].
pub const fn min_keys(layout: actlut_codegen::compact::Layout) -> usize {
    match layout {
        actlut_codegen::compact::Layout::Bytes => MIN_KEYS,
        actlut_codegen::compact::Layout::Words => MIN_KEYS_WORDS,
    }
}

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
/// reported: `min_keys` keys ([`min_keys`] of its layout), [`MIN_MATCHING_BYTES`] matching evidence
/// bytes, and [`MIN_MATCHING_PER_MILLE`] of the evidence bytes. A candidate
/// that an end of the file cuts off (`whole` is then `Some`: the evidence
/// bytes of the whole form in the part a decode reads, [`used_end`]) needs
/// [`MIN_CUT_MATCHING_PER_MILLE`] of those present, or
/// [`MIN_MATCHING_PER_MILLE`] of the whole form's, the bytes past the end
/// counted as changed: cutting a form off is never cheaper than changing
/// the bytes cut, and a form cut only where no decode reads (its header,
/// the padding after its last page) is judged as a whole one. Changing
/// bytes outside the key windows, however many, never hides a form.
pub fn is_evidence(
    keys: usize,
    min_keys: usize,
    matching: usize,
    evidence: usize,
    whole: Option<usize>,
) -> bool {
    let enough = |per_mille: usize, of: usize| matching * 1000 >= per_mille * of;
    keys >= min_keys
        && matching >= MIN_MATCHING_BYTES
        && match whole {
            None => enough(MIN_MATCHING_PER_MILLE, evidence),
            Some(whole) => {
                enough(MIN_CUT_MATCHING_PER_MILLE, evidence)
                    || enough(MIN_MATCHING_PER_MILLE, whole)
            }
        }
}

/// The end of the bytes of a valid stored form that some entry's decode
/// depends on: the end of its last page in the pool. The bytes after it are
/// padding (a 4-byte read at every entry must lie in the pool, but no entry's
/// value depends on the last 2 or 3 bytes), and the header before the
/// directory is compiled into the program: neither is read for a value, so a
/// form cut off only there has all the bytes its program reads.
pub fn used_end(view: &CompactRef<'_>) -> usize {
    let pages = ENTRIES >> view.page_shift();
    let page = 1usize << view.page_shift();
    let dir = view.dir_bytes();
    let end = (0..pages)
        .map(|p| {
            let low = usize::from(u16::from_le_bytes([dir[4 * p], dir[4 * p + 1]]));
            match view.layout() {
                actlut_codegen::compact::Layout::Words => 2 * (low + page),
                actlut_codegen::compact::Layout::Bytes => {
                    let pages = if low & 0x8000 == 0 { 1 } else { 2 };
                    ((low & 0x7FFF) << view.offset_scale()) + pages * page
                }
            }
        })
        .max()
        .unwrap_or(0);
    HEADER_BYTES + dir.len() + end
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
    let distinct = window
        .iter()
        .filter(|&&b| !core::mem::replace(&mut seen[usize::from(b)], true))
        .count();
    if distinct < MIN_DISTINCT_BYTES {
        return false;
    }
    let bytes: Vec<u16> = window.iter().map(|&b| u16::from(b)).collect();
    !crate::filter::is_progression(&bytes, 0xFF) && !crate::filter::is_periodic(&bytes, 0xFF)
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
    Some((pool <= MAX_POOL_BYTES).then_some(len).ok_or(len as u64))
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
            Decoded::Differs { entries, first } => format!(
                "it decodes to {entries} of 65536 entries changed (inputs {})",
                crate::report::list_firsts(first, *entries)
            ),
            Decoded::Invalid(why) => format!("it does not decode ({why})"),
            Decoded::Absent => "not all of it is present".to_string(),
        }
    }
}

/// Differing entries of `a` against `b`, and the first few inputs.
pub(crate) fn compare(a: &[u16], b: &[u16]) -> (usize, Vec<usize>) {
    let mut differing = a
        .iter()
        .zip(b)
        .enumerate()
        .filter_map(|(j, (x, y))| (x != y).then_some(j));
    let first: Vec<usize> = differing
        .by_ref()
        .take(crate::limits::FIRST_DIFFERENCES)
        .collect();
    (first.len() + differing.count(), first)
}

/// Of the references `known` ([`Index::known`](crate::index::Index)), the
/// one nearest to `entries`: most entries equal, judged on every
/// [`SAMPLE_STEP`]th entry.
pub(crate) fn nearest(refs: &[Reference], known: &[usize], entries: &[u16]) -> Option<usize> {
    let entry = |r: usize, j: usize| crate::index::entry_at(&refs[r].bytes_le, 2 * j, 2, Little);
    known.iter().copied().max_by_key(|&r| {
        let same = |&j: &usize| entry(r, j) == entries[j];
        let m = (0..ENTRIES).step_by(SAMPLE_STEP).filter(same).count();
        (m, core::cmp::Reverse(r))
    })
}

/// The offsets of a stored form after its header whose window of
/// [`KEY_BYTES`] is distinctive ([`is_distinctive`]) and whose `u32` does not
/// lie in an arithmetic progression of three `u32`s 4 bytes apart (a run of
/// directory entries whose addend grows by a constant, at any phase:
/// unrelated binaries hold such runs, Intel's media driver byte for byte 128
/// bytes of `softsign_f16`'s directory), and that is no window of a `u16`
/// count ([`is_u16_count`]).
pub fn key_offsets(bytes: &[u8]) -> Vec<usize> {
    let u32_at = |at: usize| {
        bytes
            .get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let progression = |a: Option<usize>| {
        a.and_then(|a| Some((u32_at(a)?, u32_at(a + 4)?, u32_at(a + 8)?)))
            .is_some_and(|(x, y, z)| y.wrapping_sub(x) == z.wrapping_sub(y))
    };
    let in_progression = |off: usize| [8, 4, 0].iter().any(|&b| progression(off.checked_sub(b)));
    // The header is no evidence of the content: its magic is every form's,
    // and it may be zeroed.
    (HEADER_BYTES..(bytes.len() + 1).saturating_sub(KEY_BYTES))
        .filter(|&off| {
            let w = &bytes[off..off + KEY_BYTES];
            is_distinctive(w) && !in_progression(off) && !is_u16_count(w)
        })
        .collect()
}

/// Whether the 4 bytes `w` are a window of a count of `u16`s (a step of ±1
/// or ±2, little- or big-endian, at either alignment): what index arrays
/// and identity tables hold, and what the words layout's pool holds where a
/// table counts (GELU of large inputs, the small inputs of erf). A window
/// there is no evidence of the form: before this rule, a `u16` count in
/// noise matched more than half of `erf_bf16`'s words-layout evidence.
pub fn is_u16_count(w: &[u8]) -> bool {
    let le = |i: usize| u16::from_le_bytes([w[i], w[i + 1]]);
    let be = |i: usize| u16::from_be_bytes([w[i], w[i + 1]]);
    [1u16, 0xFFFF].iter().any(|&s| {
        // Two whole entries, a then a + s.
        le(2).wrapping_sub(le(0)) == s
            || be(2).wrapping_sub(be(0)) == s
            // The high byte of a, b = a + s whole, the low byte of b + s
            // (little-endian; big-endian the other way round).
            || {
                let b = le(1);
                (b.wrapping_sub(s) >> 8) as u8 == w[0] && b.wrapping_add(s) as u8 == w[3]
            }
            || {
                let b = be(1);
                b.wrapping_sub(s) as u8 == w[0] && (b.wrapping_add(s) >> 8) as u8 == w[3]
            }
    })
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

/// The fewest bytes that hide a whole form from the search by content, by
/// whichever condition of [`is_evidence`] is cheapest to break: its keys
/// ([`hiding_cost`], every key window but `min_keys - 1` holding a changed
/// byte), or its matching evidence bytes, below
/// [`MIN_MATCHING_BYTES`] or below [`MIN_MATCHING_PER_MILLE`] of its
/// `covered` evidence bytes. 0 for a form with fewer evidence bytes than
/// [`MIN_MATCHING_BYTES`]: the search cannot find it (only its header, or its
/// declaration, can).
pub fn form_hiding_cost(keys: &[usize], covered: usize, min_keys: usize) -> usize {
    let needed = MIN_MATCHING_BYTES.max((covered * MIN_MATCHING_PER_MILLE).div_ceil(1000));
    // Matching bytes below `needed`: `covered - needed + 1` changed.
    let by_matching = (covered + 1).saturating_sub(needed);
    let by_keys = greedy_hits(keys).len().saturating_sub(min_keys - 1);
    by_keys.min(by_matching)
}

/// The bytes the greedy choice changes to hit every window of `keys`.
pub fn greedy_hits(keys: &[usize]) -> Vec<usize> {
    let mut hits: Vec<usize> = Vec::new();
    for &k in keys {
        if hits.last().is_none_or(|&h| h < k) {
            hits.push(k + KEY_BYTES - 1);
        }
    }
    hits
}
