//! The index of known tables: every form in each byte order, cut into the grams the scan looks up.

use std::sync::Arc;

use actlut_codegen::lock::Entry;

use crate::compact;
use crate::filter::{is_periodic, is_progression, mix, Filter};
use crate::limits::*;
use crate::reference::{ByteOrder, Reference};

/// One byte order of one form of one reference, as stored in artifacts.
pub(crate) struct Image {
    pub(crate) reference: usize,
    /// 0: the table; `i`: `extra[i - 1]`.
    pub(crate) form: usize,
    pub(crate) order: ByteOrder,
    pub(crate) unit: usize,
    /// Its bytes (in little-endian order shared with [`crate::declared::Known`]).
    pub(crate) bytes: Arc<[u8]>,
    /// Bit `j`: entry `j` is a surprise (see [`is_surprise`]).
    pub(crate) change_points: Vec<u64>,
    pub(crate) small: bool,
    /// Below [`MIN_CONTENT_ENTRIES`], or a table over an unsigned format
    /// ([`found_by_content`]), or one without content ([`has_content`]): not
    /// searched by content; a byte table is found by its exact bytes and
    /// reported only when listed, a 16-bit one only at its declaration.
    pub(crate) tiny: bool,
    /// The most common entry (of a small form): matching entries equal to it
    /// do not count towards [`MIN_INFORMATIVE_SMALL`], so that a fill of a
    /// table's saturated value is no evidence.
    pub(crate) modal: u16,
    /// A compact stored form ([`Form::compact`]).
    pub(crate) compact: bool,
    /// Of a compact form: bit `o`: the window at byte `o` is a key.
    pub(crate) indexed: Vec<u64>,
    /// Of a compact form: the offsets of the bytes that lie in a key
    /// window, ascending.
    pub(crate) covered: Vec<u32>,
    /// Of a compact form: how many of [`Image::covered`] lie before its
    /// [`compact::used_end`] (the evidence a decode reads).
    pub(crate) used_covered: usize,
    /// Of a compact form: its [`compact::used_end`].
    pub(crate) used_end: usize,
    /// Of a compact form: the matching keys a candidate needs
    /// ([`compact::min_keys`] of its layout).
    pub(crate) min_keys: usize,
    /// Bit `w`: entry `w` starts the evidence window of a pair gram
    /// ([`Image::pair_list`]).
    pub(crate) pair_windows: Vec<u64>,
    /// The entries that are surprises, ascending.
    pub(crate) surprise_list: Vec<u32>,
    /// The evidence windows of its pair grams ([`pair_window`]), ascending.
    /// Two entries are always a progression: a pair is evidence of this
    /// table only with the entry that breaks the progression, so that a
    /// count, a constant or any other progression of codes (`0, 2, 4, …`,
    /// which `relu2`'s doubling exponents follow for long runs) matches none.
    pub(crate) pair_list: Vec<u32>,
    /// Of an 8-bit table: its features ([`FEATURE_REACH`]), each as its two
    /// entries `(j, j + d)`, ascending.
    pub(crate) features: Vec<(u32, u32)>,
    /// Of an 8-bit table: bit `j`: entry `j` is in a feature (its
    /// distinctive part), and how many are.
    pub(crate) distinctive: Vec<u64>,
    pub(crate) distinctive_count: usize,
    /// Of an 8-bit table: its place among the 8-bit tables (the scan keeps
    /// the votes of each in a ring of its own).
    pub(crate) slot: u32,
}

/// The keys of one compact stored form ([`Index::compact_keys`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompactKeys {
    /// The table's names.
    pub name: String,
    /// The form's label: [`crate::limits::COMPACT_FORM`] (bytes layout) or
    /// [`crate::limits::COMPACT_WORDS_FORM`] (words layout).
    pub form: String,
    /// Bytes of the stored form.
    pub bytes: usize,
    /// Windows that are keys.
    pub keys: usize,
    /// Bytes that lie in a key window (the form's evidence).
    pub covered: usize,
    /// The fewest bytes an attacker who knows the keys changes to hide the
    /// form from the search by content ([`compact::form_hiding_cost`]; 0 for
    /// a form the search cannot find).
    pub hiding_cost: usize,
}

/// Whether bit `j` of `words` is set (none is past their end).
pub(crate) fn bit(words: &[u64], j: usize) -> bool {
    words.get(j / 64).is_some_and(|w| w >> (j % 64) & 1 == 1)
}

fn set_bit(words: &mut [u64], j: usize) {
    words[j / 64] |= 1 << (j % 64);
}

/// How many bits of `words` are set.
pub(crate) fn ones(words: &[u64]) -> usize {
    words.iter().map(|w| w.count_ones() as usize).sum()
}

/// One bit per index below `len`, those of `set` set.
pub(crate) fn bits(len: usize, set: impl IntoIterator<Item = usize>) -> Vec<u64> {
    let mut words = vec![0; len / 64 + 1];
    set.into_iter().for_each(|j| set_bit(&mut words, j));
    words
}

impl Image {
    pub(crate) fn is_key(&self, off: usize) -> bool {
        bit(&self.indexed, off)
    }

    /// Of a compact form: the offsets of its keys, ascending.
    pub(crate) fn key_offsets(&self) -> Vec<usize> {
        (0..self.bytes.len()).filter(|&o| self.is_key(o)).collect()
    }

    pub(crate) fn entries(&self) -> usize {
        self.bytes.len() / self.unit
    }

    pub(crate) fn entry(&self, j: usize) -> u16 {
        entry_at(&self.bytes, j * self.unit, self.unit, self.order)
    }

    /// Its entries, in its byte order.
    fn values(&self) -> Vec<u16> {
        (0..self.entries()).map(|j| self.entry(j)).collect()
    }

    /// Whether three entries from `j` on are the evidence window of a pair
    /// gram ([`Image::pair_list`]).
    pub(crate) fn is_pair_window(&self, j: usize) -> bool {
        bit(&self.pair_windows, j)
    }

    /// Whether this image is found and judged by its features (an 8-bit
    /// table, or any other form of single bytes under [`SMALL_FORM_BYTES`]).
    pub(crate) fn by_features(&self) -> bool {
        self.small && self.unit == 1 && !self.tiny
    }

    pub(crate) fn is_change_point(&self, j: usize) -> bool {
        bit(&self.change_points, j)
    }
}

/// The most common entry of `bytes` read in `order` (the smallest of equally
/// common ones), counted in an array of every value, not hashed: every
/// entry of every image is counted while the index is built.
pub(crate) fn modal_entry(bytes: &[u8], unit: usize, order: ByteOrder) -> u16 {
    let mut counts = vec![0u32; 1 << (8 * unit)];
    for j in 0..bytes.len() / unit {
        counts[usize::from(entry_at(bytes, j * unit, unit, order))] += 1;
    }
    let most = (0..counts.len()).max_by_key(|&v| (counts[v], core::cmp::Reverse(v)));
    most.map_or(0, |v| v as u16)
}

/// The evidence window of the pair gram `j, j + 1` of the 16-bit table of
/// entries `e` ([`Image::pair_list`]): `j - 1` when entries `j - 1 ..= j + 1`
/// are no progression, else `j` when entries `j ..= j + 2` are none, else
/// none; and none when the [`COUNT_CONTEXT`] entries that end with the
/// window are a rounded count ([`is_near_count`]).
pub(crate) fn pair_window(e: &[u16], j: usize) -> Option<u32> {
    let breaks = |w: usize| {
        w + 2 < e.len()
            && !is_progression(&e[w..w + 3], 0xFFFF)
            && !is_near_count(&e[(w + 3).saturating_sub(COUNT_CONTEXT)..w + 3])
    };
    (j.saturating_sub(1)..=j)
        .find(|&w| breaks(w))
        .map(|w| w as u32)
}

/// Whether entries `j, j + 1` of the 16-bit table of entries `e` are a
/// pair gram: their step is not a run or a step of one (which counts, the
/// identity and the code tables of binaries are full of), and they have an
/// evidence window ([`pair_window`]).
fn is_pair_gram(e: &[u16], j: usize) -> bool {
    let step = e[j + 1].wrapping_sub(e[j]);
    step > 1 && step != 0xFFFF && pair_window(e, j).is_some()
}

/// Whether entry `j` (at least 3) of the entries `e` of a form that is not
/// small is a surprise ([`is_surprise`]); of 16-bit entries, one whose
/// [`COUNT_CONTEXT`] entries are no rounded count ([`is_near_count`]).
fn is_counted_surprise(e: &[u16], j: usize, mask: u16) -> bool {
    is_surprise(&[e[j - 3], e[j - 2], e[j - 1], e[j]], mask)
        && !(mask == 0xFFFF && is_near_count(&e[(j + 1).saturating_sub(COUNT_CONTEXT)..=j]))
}

pub(crate) fn entry_at(bytes: &[u8], at: usize, unit: usize, order: ByteOrder) -> u16 {
    match (unit, order) {
        (1, _) => u16::from(bytes[at]),
        (_, ByteOrder::Big) => u16::from_be_bytes([bytes[at], bytes[at + 1]]),
        _ => u16::from_le_bytes([bytes[at], bytes[at + 1]]),
    }
}

/// Whether the last step of `e` (four entries) differs from both steps
/// before it: a surprise that neither a constant step (a run, a count)
/// nor an alternating one (`0 1 1 2 2 3`, the halving of small inputs)
/// predicts.
pub(crate) fn is_surprise(e: &[u16; 4], mask: u16) -> bool {
    let d = |i: usize| e[i + 1].wrapping_sub(e[i]) & mask;
    d(2) != d(1) && d(2) != d(0)
}

/// Whether `values` (16-bit entries) follow a count up or down (`x + c`,
/// `c - x`: the identity shifted, what counters, indices and sorted values
/// hold) to within [`COUNT_JITTER`] code, entry by entry. A run of a table
/// that is a rounded count is no evidence of it, and it is what
/// many tables share (the identity part of `leaky_relu`, `relu2`'s and
/// `celu`'s scaled identities): a surprise or a pair whose
/// [`COUNT_CONTEXT`] entries are one is not counted, and not a gram.
pub(crate) fn is_near_count(values: &[u16]) -> bool {
    if values.len() < 2 {
        return true;
    }
    let off = |k: usize| i32::from(values[k].wrapping_sub(values[0]) as i16);
    [1i32, -1].iter().any(|&dir| {
        (1..values.len()).all(|k| (off(k) - dir * k as i32).abs() <= i32::from(COUNT_JITTER))
    })
}

/// Whether entries `j` and `j + d` of the 8-bit table `b` are a feature:
/// their step is not predicted ([`is_predicted_step`]), and the table's
/// entries from 3 before `j` to 3 after `j + d` are no ramp whose steps
/// repeat with a period of 1, 2 or 3: a progression of codes (`relu2`'s
/// doubling exponents step by 2, a square root's halving ones rise by one
/// every other entry) is what a file holds without any table, and a run of
/// a table that is also a run of such a sequence is no evidence of it.
pub(crate) fn is_feature(b: &[u8], j: usize, d: usize) -> bool {
    if is_predicted_step(b[j], b[j + d], d) {
        return false;
    }
    let lo = j.saturating_sub(3);
    let hi = (j + d + 3).min(b.len() - 1);
    let steps: Vec<u8> = (lo..hi).map(|k| b[k + 1].wrapping_sub(b[k])).collect();
    !(1..=3).any(|p| steps.len() >= 2 * p && (0..steps.len() - p).all(|k| steps[k] == steps[k + p]))
}

/// The features of the 8-bit table `b`, as `(j, d)`: entries `j` and
/// `j + d` ([`is_feature`]), by distance, then by place.
fn features_of(b: &[u8]) -> impl Iterator<Item = (usize, usize)> + '_ {
    (1..=FEATURE_REACH)
        .flat_map(move |d| (0..b.len().saturating_sub(d)).map(move |j| (j, d)))
        .filter(|&(j, d)| is_feature(b, j, d))
}

/// Whether the steps of a three-entry gram are both -1, 0 or +1 (a slow ramp,
/// which binaries hold in many unrelated tables).
pub(crate) fn is_slow(values: &[u16], mask: u16) -> bool {
    values.windows(2).all(|w| {
        let d = w[1].wrapping_sub(w[0]) & mask;
        d <= 1 || d == mask
    })
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Site {
    /// An image, or [`NEEDLE`] for a table hash.
    pub(crate) image: u32,
    /// The gram's byte offset in the image, or the needle's index.
    pub(crate) offset: u32,
}

pub(crate) const NEEDLE: u32 = u32::MAX;

fn site(image: u32, offset: usize) -> Site {
    let offset = offset as u32;
    Site { image, offset }
}

/// Exact keys (grams, hash prefixes) to sites, behind a one-word Bloom filter.
pub(crate) struct Grams {
    pub(crate) filter: Filter,
    pub(crate) slots: Vec<u32>,
    pub(crate) mask: usize,
    pub(crate) keys: Vec<u64>,
    pub(crate) ranges: Vec<u32>,
    pub(crate) sites: Vec<Site>,
}

impl Grams {
    /// [`Grams::with_max_sites`] with [`MAX_SITES`].
    pub(crate) fn new(pairs: Vec<(u64, Site)>) -> Grams {
        Grams::with_max_sites(pairs, MAX_SITES)
    }

    /// The keys and sites of `a` and `b` together, none dropped.
    pub(crate) fn merge(a: &Grams, b: &Grams) -> Grams {
        let mut pairs = Vec::new();
        for g in [a, b] {
            for (n, &k) in g.keys.iter().enumerate() {
                pairs.extend(g.sites_of(n).iter().map(|&s| (k, s)));
            }
        }
        Grams::with_max_sites(pairs, usize::MAX)
    }

    /// The sites of its `n`th key.
    fn sites_of(&self, n: usize) -> &[Site] {
        &self.sites[self.ranges[n] as usize..self.ranges[n + 1] as usize]
    }

    /// Groups `pairs` by key, dropping the grams of a key found at more than
    /// `max_sites` places (a table hash, [`NEEDLE`], is always kept).
    pub(crate) fn with_max_sites(mut pairs: Vec<(u64, Site)>, max_sites: usize) -> Grams {
        pairs.sort_unstable_by_key(|&(k, s)| (k, s.image, s.offset));
        let mut keys = Vec::new();
        let mut ranges = vec![0u32];
        let mut sites = Vec::new();
        for group in pairs.chunk_by(|a, b| a.0 == b.0) {
            let grams = group.iter().filter(|(_, s)| s.image != NEEDLE).count();
            let kept = group
                .iter()
                .filter(|(_, s)| s.image == NEEDLE || grams <= max_sites);
            let before = sites.len();
            sites.extend(kept.map(|&(_, s)| s));
            if sites.len() > before {
                keys.push(group[0].0);
                ranges.push(sites.len() as u32);
            }
        }
        let slots_len = (keys.len() * 2).next_power_of_two().max(16);
        let mut slots = vec![0u32; slots_len];
        let mask = slots_len - 1;
        for (n, &k) in keys.iter().enumerate() {
            let mut s = mix(k) as usize & mask;
            while slots[s] != 0 {
                s = (s + 1) & mask;
            }
            slots[s] = n as u32 + 1;
        }
        Grams {
            // 32 bits per key: the filter answers for every offset of the
            // input, and a false hit costs a probe of the hash table.
            filter: Filter::new(&keys),
            slots,
            mask,
            keys,
            ranges,
            sites,
        }
    }

    #[inline(always)]
    pub(crate) fn maybe(&self, key: u64) -> bool {
        self.filter.maybe(key)
    }

    pub(crate) fn get(&self, key: u64) -> &[Site] {
        let mut s = mix(key) as usize & self.mask;
        loop {
            let n = self.slots[s];
            if n == 0 {
                return &[];
            }
            let n = n as usize - 1;
            if self.keys[n] == key {
                return self.sites_of(n);
            }
            s = (s + 1) & self.mask;
        }
    }
}

pub(crate) struct Needle {
    pub(crate) sha256: [u8; 32],
    pub(crate) names: Vec<String>,
}

/// The reference tables, cut into grams, ready to scan artifacts.
pub struct Index {
    pub(crate) refs: Vec<Reference>,
    pub(crate) images: Vec<Image>,
    pub(crate) large: Grams,
    /// The pair grams of 16-bit tables ([`PAIR_GRAM`] bytes each).
    pub(crate) pairs: Grams,
    /// The keys of compact stored forms ([`compact::KEY_BYTES`] each) and
    /// the [`pairs`](Self::pairs) in one (both are 4-byte keys): what the
    /// scan probes, one filter for both.
    pub(crate) fours: Grams,
    pub(crate) small: Grams,
    /// The features of 8-bit tables ([`FEATURE_REACH`]), keyed by
    /// [`feature_key`].
    pub(crate) features: Grams,
    /// One bit per pair of bytes for each distance `d` in
    /// `1..=FEATURE_REACH` (bit `a | b << 8` of the `d - 1`th 65,536): some
    /// 8-bit table holds the feature `(a, b)` at distance `d`. The scan tests
    /// it at every byte, for every `d`, without a hash.
    pub(crate) feature_bits: Vec<u64>,
    /// Images found by their features.
    pub(crate) slots: usize,
    /// The first 8 bytes of every table below [`MIN_CONTENT_ENTRIES`].
    pub(crate) exact: Grams,
    /// The first 8 bytes of the manifest record name field of every known
    /// name ([`crate::manifest`]).
    pub(crate) name_fields: Grams,
    /// The keys of [`large`](Self::large), [`exact`](Self::exact) and
    /// [`name_fields`](Self::name_fields), and the record marker and compact
    /// header magic: what an 8-byte value may start.
    pub(crate) eight: Filter,
    pub(crate) needles: Vec<Needle>,
    /// What declaration records of the known tables look like
    /// ([`crate::declared`]).
    pub(crate) declared: crate::declared::Known,
    /// The manifest record marker as the scan reads it
    /// ([`crate::manifest::mark_u64`]).
    pub(crate) manifest_mark: u64,
    pub(crate) max_len: usize,
    /// The 16-bit references, to name what a compact stored form found by
    /// its header decodes to.
    pub(crate) known: Vec<usize>,
    /// Random per index (per process): picks the bytes a compact candidate's
    /// sampled comparison looks at ([`compact::SAMPLES`]), which an attacker
    /// therefore cannot pick out to change.
    pub(crate) seed: u64,
    /// Evidence every candidate needs beyond what the guarantee assumes
    /// (0; see [`Index::weakened`]).
    pub(crate) extra_evidence: usize,
}

/// The key of the feature of bytes `a` then `b`, `d` bytes apart.
#[inline(always)]
pub(crate) fn feature_key(a: u8, b: u8, d: usize) -> u64 {
    u64::from(a) | u64::from(b) << 8 | (d as u64) << 16
}

/// Whether the step from `a` to `b` over `d` entries is one that a formula
/// predicts: none (a run), or one unit per entry either way (a count, the
/// identity).
pub(crate) fn is_predicted_step(a: u8, b: u8, d: usize) -> bool {
    let step = b.wrapping_sub(a);
    step == 0 || usize::from(step) == d || usize::from(step.wrapping_neg()) == d
}

/// Whether a table is searched by its content: a table of at least
/// [`MIN_CONTENT_ENTRIES`] entries over a signed format. The FP6 and FP4
/// tables are too short to tell from chance; the tables over the unsigned
/// formats (`fp8_e5m3fnu`, `fp8_e8m0fnu`), whose inputs are all positive, are
/// counts, fills and slow byte ramps (`elu` there is the identity map,
/// `logsigmoid` NaN everywhere, `rsqrt` over E8M0 a falling ramp of each
/// value twice), which binaries hold without any table. Both are found by
/// their exact bytes where the artifact names them by their SHA-256.
pub fn found_by_content(format: actlut_codegen::Format) -> bool {
    format.entries() >= MIN_CONTENT_ENTRIES && format.is_signed()
}

/// The functions whose tables are, over every format, runs and counts of codes (piecewise
/// linear with slopes 0 and 1): honest data (counters, fills) holds stretches of them by
/// chance, so none is searched by its content. (relu2 and leaky_relu have content: their
/// intact copies clear the evidence of other tables inside them.)
pub const PIECEWISE_LINEAR: [&str; 4] = ["identity", "relu", "relu6", "hardtanh"];

/// Whether the table named `name` (`<op>_<format>`) is verified at its declaration only,
/// never searched by its content: a derivative table (`gelu_derivative_bf16`; derivatives are
/// mostly runs, steps and constants: relu' is 0 then 1, identity' is 1 everywhere) or a table
/// of a [`PIECEWISE_LINEAR`] function.
pub fn declared_only(name: &str) -> bool {
    let op = actlut_codegen::Format::ALL
        .iter()
        .find_map(|f| name.strip_suffix(f.name())?.strip_suffix('_'))
        .unwrap_or(name);
    op.ends_with("_derivative") || PIECEWISE_LINEAR.contains(&op)
}

/// Whether a table's bytes hold evidence that tells them from the runs and counts binaries
/// hold without any table: a 16-bit table with twice the surprises a candidate needs
/// ([`MIN_EVIDENCE_WORDS`]) or the pair grams ([`MIN_EVIDENCE_PAIRS`]), an 8-bit one with the
/// features a candidate needs ([`MIN_FEATURES`]). The identity, relu, relu6 and hardtanh over
/// f16 and bf16 and the identity over e4m3 and the fnuz formats have none: their entries
/// count or stand still but for a few (the identity *is* a count); nor, by rule, a
/// [`declared_only`] table (a derivative's, a piecewise-linear function's). Such a table is not
/// searched by its content; an actlut build declares it, and the audit verifies it where its
/// declaration stands (and a manifest that lists it sees it intact there).
pub fn has_content(reference: &Reference) -> bool {
    if reference.names.iter().all(|n| declared_only(n)) {
        return false;
    }
    let b = &reference.bytes_le;
    if reference.format.entry_bytes() == 2 {
        let e = le_entries(b);
        let surprises = (3..e.len())
            .filter(|&j| is_counted_surprise(&e, j, 0xFFFF))
            .count();
        let pairs = (0..e.len() - 1)
            .step_by(2)
            .filter(|&j| is_pair_gram(&e, j))
            .count();
        surprises >= 2 * MIN_EVIDENCE_WORDS || pairs >= MIN_EVIDENCE_PAIRS
    } else {
        features_of(b).count() >= MIN_FEATURES
    }
}

/// The 16-bit entries of the little-endian `bytes`.
pub(crate) fn le_entries(bytes: &[u8]) -> Vec<u16> {
    let entries = bytes.chunks_exact(2);
    entries.map(|c| u16::from_le_bytes([c[0], c[1]])).collect()
}

pub(crate) fn swap16(bytes: &[u8]) -> Vec<u8> {
    bytes.chunks_exact(2).flat_map(|c| [c[1], c[0]]).collect()
}

pub(crate) fn key_le(bytes: &[u8]) -> u64 {
    let mut k = [0u8; 8];
    k[..bytes.len()].copy_from_slice(bytes);
    u64::from_le_bytes(k)
}

impl Index {
    /// Indexes `refs` (see [`Reference::generate_all`] and [`merge_aliases`](crate::reference::merge_aliases)),
    /// and their hashes as names an artifact may list.
    pub fn new(refs: Vec<Reference>) -> Index {
        Index::with_lock(refs, &[])
    }

    /// [`Index::new`], and also the hashes of `lock` as names an artifact may
    /// list (a lock of another version may have other hashes).
    pub fn with_lock(refs: Vec<Reference>, lock: &[Entry]) -> Index {
        // Each form's little-endian bytes, once: its images and the known
        // declarations share them.
        let forms = |r: &Reference| r.forms().map(|f| f.1.into()).collect();
        let shared: Vec<Vec<Arc<[u8]>>> = refs.iter().map(forms).collect();
        let declared = crate::declared::Known::new(&refs, lock, &shared);
        let mut images = Vec::new();
        for (r, reference) in refs.iter().enumerate() {
            for (form, (unit, bytes_le)) in reference.forms().enumerate() {
                let orders: &[ByteOrder] = if unit == 2 {
                    &[ByteOrder::Little, ByteOrder::Big]
                } else {
                    &[ByteOrder::Bytes]
                };
                for &order in orders {
                    let bytes = match order {
                        ByteOrder::Big => swap16(bytes_le).into(),
                        _ => shared[r][form].clone(),
                    };
                    let mut image = Image {
                        reference: r,
                        form,
                        order,
                        unit,
                        small: bytes.len() < SMALL_FORM_BYTES,
                        // A table without content is not searched by its
                        // content, in any form: its compact stored forms
                        // are runs and counts too (their directories step
                        // as evenly as any array of offsets), found by their
                        // header and verified at their declaration.
                        tiny: (form == 0 || reference.extra[form - 1].compact)
                            && !(found_by_content(reference.format) && has_content(reference)),
                        modal: modal_entry(&bytes, unit, order),
                        change_points: Vec::new(),
                        compact: form > 0 && reference.extra[form - 1].compact,
                        indexed: Vec::new(),
                        covered: Vec::new(),
                        used_covered: 0,
                        used_end: 0,
                        min_keys: compact::MIN_KEYS,
                        pair_windows: Vec::new(),
                        surprise_list: Vec::new(),
                        pair_list: Vec::new(),
                        features: Vec::new(),
                        distinctive: Vec::new(),
                        distinctive_count: 0,
                        slot: 0,
                        bytes,
                    };
                    let mask = if unit == 1 { 0xFF } else { 0xFFFF };
                    let e = image.values();
                    // A small form is too short to ask for four entries per
                    // surprise: a change of step (three entries) is one, and
                    // the half of its entries a candidate must match keeps
                    // alternations from passing.
                    let surprises = (3..e.len()).filter(|&j| match image.small {
                        true => !is_progression(&e[j - 2..=j], mask),
                        false => is_counted_surprise(&e, j, mask),
                    });
                    image.surprise_list = surprises.map(|j| j as u32).collect();
                    let at = image.surprise_list.iter().map(|&j| j as usize);
                    image.change_points = bits(e.len(), at);
                    images.push(image);
                }
            }
        }
        let mut large = Vec::new();
        let mut small = Vec::new();
        let mut exact = Vec::new();
        let mut compact_keys = Vec::new();
        let mut pairs = Vec::new();
        let mut features = Vec::new();
        for (i, image) in images.iter().enumerate() {
            let b = &image.bytes;
            let site = |offset: usize| site(i as u32, offset);
            if image.form == 0 && image.unit == 2 && !image.small && !image.tiny {
                // Two entries at every even entry that are a pair gram: a
                // pair inside a progression of the table is no evidence of
                // it, and as a gram it would make every progression of codes
                // in a file a candidate of every table that holds one.
                let e = image.values();
                for j in (0..e.len() - 1).step_by(2).filter(|&j| is_pair_gram(&e, j)) {
                    pairs.push((key_le(&b[j * 2..j * 2 + PAIR_GRAM]), site(j * 2)));
                }
            }
            if image.compact {
                if image.tiny {
                    continue;
                }
                for off in compact::key_offsets(b) {
                    compact_keys.push((key_le(&b[off..off + compact::KEY_BYTES]), site(off)));
                }
            } else if image.tiny {
                // (A 16-bit table without content is verified at its declaration only.)
                if b.len() >= LARGE_GRAM && image.unit == 1 {
                    exact.push((key_le(&b[..LARGE_GRAM]), site(0)));
                }
            } else if image.by_features() {
                for (j, d) in features_of(b) {
                    features.push((feature_key(b[j], b[j + d], d), site(j)));
                }
            } else if image.small {
                // A short form of 16-bit words: its 3-byte windows.
                for off in 0..=b.len().saturating_sub(SMALL_GRAM) {
                    let g = &b[off..off + SMALL_GRAM];
                    let v = [u16::from(g[0]), u16::from(g[1]), u16::from(g[2])];
                    if !is_progression(&v, 0xFF) && !is_slow(&v, 0xFF) {
                        small.push((key_le(g), site(off)));
                    }
                }
            } else {
                let per = LARGE_GRAM / image.unit;
                let mask = if image.unit == 1 { 0xFF } else { 0xFFFF };
                // A 16-bit table's grams start at every entry: an attacker
                // must then break every unpredicted window of four entries
                // (every surprise among them), not one in four.
                let step = if image.form == 0 && image.unit == 2 {
                    image.unit
                } else {
                    LARGE_GRAM
                };
                let e = image.values();
                for off in (0..=b.len() - LARGE_GRAM).step_by(step) {
                    let v = &e[off / image.unit..off / image.unit + per];
                    if !is_progression(v, mask) && !is_periodic(v, mask) {
                        large.push((key_le(&b[off..off + LARGE_GRAM]), site(off)));
                    }
                }
            }
        }
        let mut needles: Vec<Needle> = Vec::new();
        let locked = lock
            .iter()
            .map(|e| (e.sha256, core::slice::from_ref(&e.name)));
        for (sha256, names) in refs.iter().map(|r| (r.sha256, &r.names[..])).chain(locked) {
            match needles.iter_mut().find(|n| n.sha256 == sha256) {
                Some(n) => {
                    for name in names {
                        if !n.names.contains(name) {
                            n.names.push(name.clone());
                        }
                    }
                }
                None => needles.push(Needle {
                    sha256,
                    names: names.to_vec(),
                }),
            }
        }
        let mut name_fields: Vec<(u64, Site)> = needles
            .iter()
            .flat_map(|n| &n.names)
            .filter_map(|name| actlut_codegen::record::name_field(name))
            .map(|field| (key_le(&field[..8]), site(0, 0)))
            .collect();
        name_fields.sort_unstable_by_key(|p| p.0);
        name_fields.dedup_by_key(|p| p.0);
        for (n, needle) in needles.iter().enumerate() {
            large.push((key_le(&needle.sha256[..8]), site(NEEDLE, n)));
        }
        // A header declares up to `MAX_STORED_BYTES`: keep that much behind.
        let max_len = images
            .iter()
            .map(|i| i.bytes.len())
            .chain([compact::MAX_STORED_BYTES])
            .max()
            .unwrap_or(0);
        // Grams that several references hold are kept (up to `MAX_SITES`
        // sites): dropping them would leave a table only the windows no
        // other table has, and an attacker fewer to break. The candidates
        // they imply in other tables at the same place are compared, and
        // explained away by the copy itself (`Scanner::finish`).
        let large = Grams::with_max_sites(large, MAX_SHARED_SITES);
        // Compact forms may share keys with one another: a candidate of
        // each is compared byte for byte, and of overlapping ones the one
        // with the most matching bytes is kept. This gives the forms of
        // similar tables (`gelu_bf16`, `gelu_tanh_bf16`) more keys. A key
        // found at more than `MAX_SITES` places is dropped.
        let compact_grams = Grams::new(compact_keys);
        let pairs = Grams::with_max_sites(pairs, MAX_SHARED_SITES);
        // Of each 16-bit table, the first entries of its pair grams.
        let mut pair_points = vec![Vec::new(); images.len()];
        for s in &pairs.sites {
            pair_points[s.image as usize].push(s.offset as usize / 2);
        }
        for (im, mut points) in images.iter_mut().zip(pair_points) {
            if !points.is_empty() {
                points.sort_unstable();
                points.dedup();
                let e = im.values();
                im.pair_list = points.iter().filter_map(|&j| pair_window(&e, j)).collect();
            }
            im.pair_windows = bits(im.entries(), im.pair_list.iter().map(|&w| w as usize));
        }
        // The windows of each compact form that survived as keys.
        for (i, image) in images.iter_mut().enumerate().filter(|(_, im)| im.compact) {
            let indexed = compact::key_offsets(&image.bytes)
                .into_iter()
                .filter(|&off| {
                    let key = key_le(&image.bytes[off..off + compact::KEY_BYTES]);
                    compact_grams
                        .get(key)
                        .iter()
                        .any(|s| s.image == i as u32 && s.offset as usize == off)
                });
            image.indexed = bits(image.bytes.len(), indexed);
            let mut covered = Vec::new();
            for k in image.key_offsets() {
                let from = covered.last().map_or(k, |&c: &u32| k.max(c as usize + 1));
                covered.extend((from..k + compact::KEY_BYTES).map(|o| o as u32));
            }
            let view = actlut_codegen::compact::CompactRef::from_bytes(&image.bytes)
                .expect("a compact form is validated by Reference::with_compact");
            let used_end = compact::used_end(&view);
            image.used_covered = covered.partition_point(|&o| (o as usize) < used_end);
            image.used_end = used_end;
            image.min_keys = compact::min_keys(view.layout());
            image.covered = covered;
        }
        let known = (0..refs.len())
            .filter(|&i| refs[i].format.entries() == actlut_codegen::compact::ENTRIES)
            .collect();
        let fours = Grams::merge(&compact_grams, &pairs);
        // Features shared by several tables (the halving of small inputs
        // that GELU, SiLU and Mish have in common) stay: each table counts
        // its own at its own start.
        let features = Grams::new(features);
        let mut feature_bits = vec![0u64; FEATURE_REACH << 10];
        for (n, &k) in features.keys.iter().enumerate() {
            let d = (k >> 16) as usize;
            set_bit(&mut feature_bits, (d - 1) << 16 | (k & 0xFFFF) as usize);
            for s in features.sites_of(n) {
                let j = s.offset;
                images[s.image as usize].features.push((j, j + d as u32));
            }
        }
        let mut slots = 0;
        for im in images.iter_mut().filter(|im| im.by_features()) {
            im.features.sort_unstable();
            let ends = im.features.iter().flat_map(|&(a, b)| [a, b]);
            im.distinctive = bits(im.entries(), ends.map(|j| j as usize));
            im.distinctive_count = ones(&im.distinctive);
            im.slot = slots;
            slots += 1;
        }
        let exact = Grams::new(exact);
        let name_fields = Grams::new(name_fields);
        let manifest_mark = crate::manifest::mark_u64();
        let mut eight_keys = vec![manifest_mark, compact::MAGIC_U64];
        for g in [&large, &exact, &name_fields] {
            eight_keys.extend_from_slice(&g.keys);
        }
        eight_keys.extend(declared.keys());
        Index {
            manifest_mark,
            declared,
            eight: Filter::new(&eight_keys),
            refs,
            large,
            fours,
            pairs,
            small: Grams::new(small),
            features,
            feature_bits,
            slots: slots as usize,
            exact,
            name_fields,
            images,
            needles,
            max_len,
            known,
            extra_evidence: 0,
            seed: {
                use std::hash::BuildHasher;
                std::collections::hash_map::RandomState::new().hash_one(0x5EED_u64)
            },
        }
    }

    /// The [`CompactKeys`] of each compact stored form.
    pub fn compact_keys(&self) -> Vec<CompactKeys> {
        self.images
            .iter()
            .filter(|i| i.compact)
            .map(|i| {
                // A key window that reaches into the padding after the last
                // page can be cut off for nothing (`compact::is_evidence`):
                // the cost counts only those a decode reads all of.
                let keys: Vec<usize> = i
                    .key_offsets()
                    .into_iter()
                    .filter(|&k| k + compact::KEY_BYTES <= i.used_end)
                    .collect();
                let windows = keys.iter().flat_map(|&k| k..k + compact::KEY_BYTES);
                let covered = ones(&bits(i.bytes.len(), windows));
                CompactKeys {
                    name: self.refs[i.reference].names.join(" = "),
                    form: self.refs[i.reference].extra[i.form - 1].label.clone(),
                    bytes: i.bytes.len(),
                    keys: keys.len(),
                    covered,
                    hiding_cost: compact::form_hiding_cost(&keys, covered, i.min_keys),
                }
            })
            .collect()
    }

    /// The bytes of the compact stored form labelled `form`
    /// ([`crate::limits::compact_form_label`]) of the table `name` and the offsets of
    /// its key windows ([`compact::key_offsets`] as indexed): what an
    /// attacker who knows the index must break.
    pub fn compact_form_keys(&self, name: &str, form: &str) -> Option<(Vec<u8>, Vec<usize>)> {
        self.images
            .iter()
            .find(|im| {
                im.compact
                    && self.refs[im.reference].extra[im.form - 1].label == form
                    && self.refs[im.reference].names.iter().any(|n| n == name)
            })
            .map(|im| (im.bytes.to_vec(), im.key_offsets()))
    }

    /// The evidence a candidate of `image` needs to be reported: matching
    /// surprises, or matching key windows of a compact form.
    pub(crate) fn needed(&self, image: usize) -> usize {
        let im = &self.images[image];
        if im.compact {
            im.min_keys
        } else if im.by_features() {
            MIN_FEATURES
        } else if im.small {
            MIN_EVIDENCE_SMALL
        } else if im.unit == 2 {
            MIN_EVIDENCE_WORDS
        } else {
            MIN_EVIDENCE_LARGE
        }
    }

    /// This index, with an audit that asks every candidate for `extra` more
    /// gram hits (16-bit), matching surprises, pair grams or features than
    /// [`hiding_costs`](Self::hiding_costs) assumes: weaker than the
    /// guarantee it states. For tests only: `audit/tests/audit/adaptive.rs` shows
    /// that its adaptive attack then hides tables with fewer changes than
    /// their stated hiding cost, so that it would fail an audit weakened so.
    #[doc(hidden)]
    pub fn weakened(mut self, extra: usize) -> Index {
        self.extra_evidence = extra;
        self
    }

    /// Whether `name` is the name of a known table (of a reference, or of the
    /// lock given to [`Index::with_lock`]).
    pub(crate) fn knows_name(&self, name: &str) -> bool {
        self.needles
            .iter()
            .any(|n| n.names.iter().any(|x| x == name))
    }

    /// The indexed references.
    pub fn references(&self) -> &[Reference] {
        &self.refs
    }

    /// Judges the bytes of one declaration record and its table, `bytes`
    /// starting at the record (at file offset `offset`), as the scan does:
    /// `None` when they are no record. `native` is the byte order the file
    /// declares, if any.
    pub fn judge_declaration(
        &self,
        offset: u64,
        bytes: &[u8],
        native: Option<ByteOrder>,
    ) -> Option<crate::declared::Declared> {
        self.declared.judge_costed(offset, bytes, native).0
    }
}
