//! What the audit guarantees, table by table, derived from the index itself.
//!
//! A copy of a table is reported (intact, modified or truncated) when three
//! things hold, all read off the table's own entries ([`Index::new`] decides
//! which entries count):
//!
//! 1. **Found.** For a 16-bit table, two of its *grams* whose starts lie at
//!    least [`VOTE_SPREAD`] bytes apart are in place: every entry of the
//!    window equal to the table's, at its position. Its grams are the indexed
//!    windows of [`LARGE_GRAM`] bytes at every entry and its
//!    [`PAIR_GRAM`]-byte pairs at every other entry. For an 8-bit table,
//!    [`MIN_FEATURES`] of its *features* are in place: a feature is two
//!    entries up to [`FEATURE_REACH`] apart whose step is neither 0 nor one
//!    unit per entry, in place when both entries are, whatever lies between
//!    them.
//! 2. **Evidence.** For a 16-bit table, [`MIN_EVIDENCE_WORDS`] of its
//!    *surprises* are in place (a surprise is an entry whose step differs
//!    from the two steps before it, and it counts when it and the three
//!    entries before it are in place), or [`MIN_EVIDENCE_PAIRS`] of its pair
//!    grams. For an 8-bit table, the features of the first condition.
//! 3. **Matching.** At least [`MIN_MATCHING_LARGE`] entries (16-bit) or
//!    [`MIN_MATCHING_SMALL`] entries of which [`MIN_INFORMATIVE_SMALL`] are
//!    not the table's most common value, and [`MIN_DISTINCTIVE_PER_MILLE`]
//!    of its distinctive entries (8-bit), are in place.
//!
//! The table's *distinctive part* is the entries that lie in a gram or a
//! feature: entries that no simple rule predicts (a constant run, a count,
//! an alternation: such windows are not indexed).
//!
//! Whatever else was changed, a copy in which those three hold is reported:
//! under its own name, or, when the changes have made it closer to another
//! known table than to its own (so that a candidate of that table at the
//! same place matches more entries), as a modified copy of that table. Both
//! are exit 1. So an attacker must change enough entries to break one of
//! them. The fewest entries that break the first meet every gram but those
//! of one cluster (grams starting within [`VOTE_SPREAD`] bytes): at least
//! `stab(grams) - stab(cluster)` for the largest cluster, where `stab` is the
//! smallest number of entries that meets every window (computed exactly,
//! greedily: windows are intervals of entries). The second needs all but
//! `needed - 1` surprise windows met, and (16-bit) all but
//! `MIN_EVIDENCE_PAIRS - 1` pair grams: at least the larger of `stab(S) -
//! (needed - 1)` and `stab(P) - (MIN_EVIDENCE_PAIRS - 1)` (removing one
//! window from a set lowers its `stab` by at most one). For an 8-bit table
//! both are the fewest entries that leave at most `MIN_FEATURES - 1` of its
//! features whole, computed exactly by [`fewest_to_break`] (features are not
//! intervals: a changed entry between a feature's two entries leaves it
//! whole). The third needs all but `MIN_MATCHING - 1` entries changed. The
//! [`HidingCost`] of a table is the least of the three: **a copy with fewer
//! entries changed than its hiding cost is always reported**. It is a lower
//! bound, proved by the argument above; the adaptive attack of
//! `audit/tests/audit/adaptive.rs` measures how close an attacker who knows all
//! this gets to it.
//!
//! One more way to hide a copy is to turn it into another known table (or a
//! compact form) intact, placed at most [`clearing_reach`] bytes off the
//! copy's start: the audit reports that table, and an intact copy clears the
//! evidence inside it. [`HidingCost::substitute`] is the cheapest, counted
//! as its changed entries plus the fewest that break the evidence wholly
//! after it, when cheaper than breaking the three conditions. A copy farther
//! off clears only an echo, a copy changed in [`far_differing`] entries: no
//! hiding cost exceeds that. In a file that declares its byte order (ELF,
//! wasm, Mach-O, PE, COFF, archives of them) a copy in the other order
//! clears nothing. In a raw image, a smooth 16-bit table read one byte off in
//! the other byte order is itself on all but a few entries, so a copy can
//! become its own intact twin: [`HidingCost::hiding_cost_raw`] counts that.

use actlut_codegen::Format;

use crate::index::{bits, ones, Image, Index};
use crate::limits::*;
use crate::reference::ByteOrder;

/// The hiding cost of one table in one byte order, and what it is made of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HidingCost {
    /// The table's names.
    pub names: Vec<String>,
    /// Its format.
    pub format: Format,
    /// The byte order of this image ([`ByteOrder::Bytes`] for 8-bit tables).
    pub order: ByteOrder,
    /// Entries of the table.
    pub entries: usize,
    /// Entries in its distinctive part (in at least one gram).
    pub distinctive: usize,
    /// Its grams.
    pub grams: usize,
    /// Its surprises.
    pub surprises: usize,
    /// The fewest entries that leave too few grams in place.
    pub to_unfind: usize,
    /// The fewest entries that leave too little evidence in place.
    pub to_disprove: usize,
    /// The fewest entries that leave too few entries matching.
    pub to_unmatch: usize,
    /// The least of the three, or of [`substitute`](Self::substitute) when
    /// that is cheaper: fewer changed entries than this and the copy is
    /// reported.
    pub hiding_cost: usize,
    /// A known image near the copy that hides it with fewer changed entries
    /// than the three above, or `any intact copy further off` (an echo,
    /// [`far_differing`]), and how many. `None` when every one needs more.
    pub substitute: Option<(String, usize)>,
    /// The hiding cost in a file that does not declare its byte order (a
    /// raw image): a copy may also become an intact copy in the other byte
    /// order, a byte away ([`substitute_raw`](Self::substitute_raw)).
    pub hiding_cost_raw: usize,
    /// The cheapest substitute in any byte order, when cheaper than the
    /// three conditions.
    pub substitute_raw: Option<(String, usize)>,
}

/// The smallest number of points that meets every interval `[a, b]`
/// (inclusive): sort by right end, take the right end of each interval not
/// yet met. Optimal for intervals.
pub fn stab(intervals: &mut [(usize, usize)]) -> usize {
    intervals.sort_unstable_by_key(|&(a, b)| (b, a));
    let mut last = None;
    let mut points = 0;
    for &(a, b) in intervals.iter() {
        if last.is_none_or(|p| p < a) {
            last = Some(b);
            points += 1;
        }
    }
    points
}

/// The fewest entries to change so that at most `keep` of `pairs` keep both
/// of their entries unchanged, as those entries, ascending: an 8-bit table's
/// features are such pairs, and a copy with `MIN_FEATURES - 1` or fewer of
/// them in place is neither found nor evidence. Exact (dynamic programming
/// over the entries, with the changes among the last `reach` of them and the
/// pairs kept so far as the state), not a greedy bound.
///
/// # Panics
///
/// If two entries of a pair lie more than 8 apart, or a pair is not
/// `(a, b)` with `a < b`.
///
/// ```
/// use actlut_audit::fewest_to_break;
/// let path = [(0, 1), (1, 2), (2, 3), (3, 4)];
/// // Two changes break all four pairs (no one entry is in more than two).
/// assert_eq!(fewest_to_break(&path, 0).len(), 2);
/// // Keeping one is no cheaper: one change leaves two.
/// assert_eq!(fewest_to_break(&path, 1).len(), 2);
/// // Keeping two, one change will do (entry 2 leaves (0, 1) and (3, 4)).
/// assert_eq!(fewest_to_break(&path, 2).len(), 1);
/// ```
pub fn fewest_to_break(pairs: &[(usize, usize)], keep: usize) -> Vec<usize> {
    if pairs.len() <= keep {
        return Vec::new();
    }
    let reach = pairs
        .iter()
        .map(|&(a, b)| {
            assert!(a < b, "a pair is two entries, the first before the second");
            b - a
        })
        .max()
        .unwrap_or(1);
    assert!(reach <= 8, "pairs at most 8 entries apart");
    let n = pairs.iter().map(|&(_, b)| b + 1).max().unwrap_or(0);
    // The pairs ending at each entry, by distance.
    let mut ending = vec![Vec::new(); n];
    for &(a, b) in pairs {
        ending[b].push(b - a);
    }
    let states = 1usize << reach;
    let width = states * (keep + 1);
    const NONE: u32 = u32::MAX;
    // cost[v][state]: fewest changes among entries 0..v; `state` is the
    // changes among the last `reach` entries (bit 0: entry v - 1) and the
    // pairs kept. `from[v][state]`: the state before entry v was decided
    // (whether it was changed is bit 0 of `state`).
    let mut cost = vec![NONE; width];
    cost[0] = 0;
    let mut from: Vec<Vec<u32>> = Vec::with_capacity(n);
    for ends in &ending {
        let mut next = vec![NONE; width];
        let mut back = vec![0u32; width];
        for (state, &c) in cost.iter().enumerate() {
            if c == NONE {
                continue;
            }
            let (changed, kept) = (state % states, state / states);
            let unbroken = ends
                .iter()
                .filter(|&&d| changed >> (d - 1) & 1 == 0)
                .count();
            for change in [false, true] {
                let k = kept + if change { 0 } else { unbroken };
                if k > keep {
                    continue;
                }
                let shifted = (changed << 1 | usize::from(change)) & (states - 1);
                let to = k * states + shifted;
                let c = c + u32::from(change);
                if c < next[to] {
                    next[to] = c;
                    back[to] = state as u32;
                }
            }
        }
        cost = next;
        from.push(back);
    }
    let (mut state, _) = cost
        .iter()
        .enumerate()
        .filter(|(_, &c)| c != NONE)
        .min_by_key(|(_, &c)| c)
        .expect("changing every entry keeps no pair");
    let mut entries = Vec::new();
    for v in (0..n).rev() {
        if state & 1 == 1 {
            entries.push(v);
        }
        state = from[v][state] as usize;
    }
    entries.reverse();
    entries
}

/// The fewest changed entries that leave a copy of `w` too few grams to be
/// compared: for an 8-bit table none may remain; for a 16-bit one, what
/// remains must lie within [`VOTE_SPREAD`] bytes (its first and last gram
/// closer than that), so at least all grams minus the most that one such
/// cluster holds: `stab(all) - max over clusters of stab(cluster)`. The
/// grams of `w` are sorted ([`Index::windows`]).
fn unfind_cost(w: &Windows) -> usize {
    let total = stab(&mut w.grams.clone());
    if w.grams_needed <= 1 {
        return total;
    }
    let spread = VOTE_SPREAD.div_ceil(w.unit);
    let mut cluster_best = 0;
    for (i, &(a, _)) in w.grams.iter().enumerate() {
        let mut cluster: Vec<(usize, usize)> = w.grams[i..]
            .iter()
            .copied()
            .take_while(|&(b, _)| b < a + spread)
            .collect();
        cluster_best = cluster_best.max(stab(&mut cluster));
    }
    total.saturating_sub(cluster_best)
}

/// The windows of `v` that start at entry `e` or after.
fn from(v: &[(usize, usize)], e: usize) -> Vec<(usize, usize)> {
    v.iter().copied().filter(|x| x.0 >= e).collect()
}

/// The windows, in entries, that a copy of one image needs in place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Windows {
    /// The table's first name.
    pub name: String,
    /// The byte order of the image.
    pub order: ByteOrder,
    /// Bytes per entry.
    pub unit: usize,
    /// Entries of the table.
    pub entries: usize,
    /// Every gram, as an inclusive interval of entries.
    pub grams: Vec<(usize, usize)>,
    /// How many grams a copy needs in place to be compared.
    pub grams_needed: usize,
    /// Every surprise's window (the surprise and the entries before it that
    /// must match), as an inclusive interval of entries.
    pub surprises: Vec<(usize, usize)>,
    /// How many surprises a copy needs in place.
    pub surprises_needed: usize,
    /// Every pair gram (16-bit tables), as an inclusive interval of entries:
    /// also grams, and evidence enough when [`MIN_EVIDENCE_PAIRS`] are in
    /// place.
    pub pairs: Vec<(usize, usize)>,
    /// How many pair grams in place are evidence enough
    /// ([`MIN_EVIDENCE_PAIRS`]).
    pub pairs_needed: usize,
    /// Every feature (8-bit tables; [`FEATURE_REACH`]), as its two entries:
    /// in place when both are, whatever lies between them. An 8-bit table
    /// has no grams or surprises: its features are both.
    pub features: Vec<(usize, usize)>,
    /// How many features a copy needs in place to be compared and reported.
    pub features_needed: usize,
}

impl Index {
    fn table_images(&self) -> impl Iterator<Item = (usize, &Image)> {
        self.images
            .iter()
            .enumerate()
            .filter(|(_, im)| im.form == 0 && !im.tiny)
    }

    /// The windows each table image needs in place (the attack surface: what
    /// an attacker who read the source must break), for every table of at
    /// least [`MIN_CONTENT_ENTRIES`] entries in each byte order.
    pub fn windows(&self) -> Vec<Windows> {
        let mut per: Vec<Vec<(usize, usize)>> = vec![Vec::new(); self.images.len()];
        for s in &self.pairs.sites {
            let j = s.offset as usize / 2;
            per[s.image as usize].push((j, j + 1));
        }
        for (grams, len) in [(&self.large, LARGE_GRAM), (&self.small, SMALL_GRAM)] {
            for s in &grams.sites {
                let Some(im) = self.images.get(s.image as usize) else {
                    continue; // a hash, not a gram
                };
                let first = s.offset as usize / im.unit;
                let last = (s.offset as usize + len - 1) / im.unit;
                per[s.image as usize].push((first, last));
            }
        }
        self.table_images()
            .map(|(i, im)| {
                let before = if im.small { 2 } else { 3 };
                let surprises = if im.by_features() {
                    Vec::new()
                } else {
                    (0..im.entries())
                        .filter(|&j| im.is_change_point(j))
                        .map(|j| (j - before, j))
                        .collect()
                };
                let mut grams = per[i].clone();
                grams.sort_unstable();
                grams.dedup();
                // A pair gram is evidence with the third entry that breaks
                // its progression ([`Image::pair_list`]).
                let pairs: Vec<(usize, usize)> = im
                    .pair_list
                    .iter()
                    .map(|&w| (w as usize, w as usize + 2))
                    .collect();
                let features = im
                    .features
                    .iter()
                    .map(|&(a, b)| (a as usize, b as usize))
                    .collect();
                Windows {
                    name: self.refs[im.reference].names[0].clone(),
                    order: im.order,
                    unit: im.unit,
                    entries: im.entries(),
                    grams,
                    grams_needed: if im.small {
                        1
                    } else {
                        MIN_VOTES_LARGE as usize + self.extra_evidence
                    },
                    surprises,
                    surprises_needed: self.needed(i) + self.extra_evidence,
                    pairs,
                    pairs_needed: MIN_EVIDENCE_PAIRS + self.extra_evidence,
                    features,
                    features_needed: MIN_FEATURES + self.extra_evidence,
                }
            })
            .collect()
    }

    /// The known image (a table or a compact form, which may clear when
    /// intact) that hides `im`'s copy with the fewest changed entries, if
    /// fewer than `bound`: at every byte shift up to [`clearing_reach`] either
    /// way (bytes it puts outside the copy are free), the entries it changes
    /// and the fewest that break the evidence wholly after it (`w`'s: it
    /// clears what lies in it, and any other copy that clears starts near it).
    fn cheapest_substitute(
        &self,
        (im, w): (&Image, &Windows),
        bound: usize,
        same_order: bool,
    ) -> Option<(String, usize)> {
        let reach = clearing_reach(im.unit) as i64;
        let mut best: Option<(String, usize)> = None;
        let mut memo = std::collections::BTreeMap::new();
        let mut after = |e: usize| {
            *memo.entry(e).or_insert_with(|| {
                let f = fewest_to_break(&from(&w.features, e), 0).len();
                f.max(stab(&mut from(&w.surprises, e)))
                    .max(stab(&mut from(&w.pairs, e)))
            })
        };
        let orders = |y: &&Image| !same_order || y.order == im.order || y.unit.min(im.unit) == 1;
        for y in self.images.iter().filter(orders) {
            for shift in -reach..=reach {
                if shift == 0 && std::ptr::eq(y, im) {
                    continue;
                }
                let end = (shift + y.bytes.len() as i64).max(0) as usize;
                let rest = after(end.div_ceil(im.unit));
                let limit = best.as_ref().map_or(bound, |b| b.1).saturating_sub(rest);
                let first = shift.max(0) as usize / im.unit;
                let byte = |i: usize| y.bytes.get(i.wrapping_sub(shift as usize));
                let differs = |i: usize| byte(i).is_some_and(|&b| b != im.bytes[i]);
                let entries = first..end.div_ceil(im.unit).min(im.entries());
                let differs = |j: usize| (j * im.unit..(j + 1) * im.unit).any(differs);
                let differ = entries.filter(|&j| differs(j)).take(limit).count();
                if differ < limit {
                    let (name, order) = (&self.refs[y.reference].names[0], y.order.short_name());
                    let name = std::format!("{name} ({order}, {shift:+} bytes)");
                    best = Some((name, differ + rest));
                }
            }
        }
        best
    }

    /// The hiding cost of every table of at least [`MIN_CONTENT_ENTRIES`]
    /// entries, in each byte order (see the [module](crate::guarantee) documentation).
    pub fn hiding_costs(&self) -> Vec<HidingCost> {
        let windows = self.windows();
        self.table_images()
            .zip(windows)
            .map(|((_, im), w)| {
                let grams = w.grams.iter().flat_map(|&(a, b)| a..=b);
                let features = w.features.iter().flat_map(|&(a, b)| [a, b]);
                let covered = bits(im.entries(), grams.chain(features));
                let (to_unfind, to_disprove) = if im.by_features() {
                    // Found and evidence both: its features.
                    let n = fewest_to_break(&w.features, w.features_needed - 1).len();
                    (n, n)
                } else {
                    // Evidence is surprises or, for a 16-bit table, pair
                    // grams: both must be brought under what is needed.
                    let surprises =
                        stab(&mut w.surprises.clone()).saturating_sub(w.surprises_needed - 1);
                    let pairs = stab(&mut w.pairs.clone()).saturating_sub(w.pairs_needed - 1);
                    (unfind_cost(&w), surprises.max(pairs))
                };
                let to_unmatch = if im.small {
                    let informative = (0..im.entries())
                        .filter(|&j| im.entry(j) != im.modal)
                        .count();
                    // At least half its distinctive entries must match.
                    let d = im.distinctive_count;
                    let need = (d * MIN_DISTINCTIVE_PER_MILLE).div_ceil(1000);
                    (im.entries() + 1)
                        .saturating_sub(MIN_MATCHING_SMALL)
                        .min((informative + 1).saturating_sub(MIN_INFORMATIVE_SMALL))
                        .min((d + 1).saturating_sub(need))
                } else {
                    (im.entries() + 1).saturating_sub(MIN_MATCHING_LARGE)
                };
                let reference = &self.refs[im.reference];
                let bound = to_unfind.min(to_disprove).min(to_unmatch);
                // A copy changed in `far_differing` entries is an echo, which any copy clears.
                let far = far_differing(im.unit);
                let far = |s: Option<(String, usize)>| match s {
                    s if s.as_ref().map_or(bound, |s| s.1) <= far => s,
                    _ => Some(("any intact copy further off".into(), far)),
                };
                let substitute = far(self.cheapest_substitute((im, &w), bound, true));
                let raw = far(self.cheapest_substitute((im, &w), bound, false));
                HidingCost {
                    names: reference.names.clone(),
                    format: reference.format,
                    order: im.order,
                    entries: im.entries(),
                    distinctive: ones(&covered),
                    grams: w.grams.len(),
                    surprises: w.surprises.len(),
                    to_unfind,
                    to_disprove,
                    to_unmatch,
                    hiding_cost: substitute.as_ref().map_or(bound, |s| s.1.min(bound)),
                    substitute,
                    hiding_cost_raw: raw.as_ref().map_or(bound, |s| s.1.min(bound)),
                    substitute_raw: raw,
                }
            })
            .collect()
    }
}

/// The hiding costs as the Markdown table of `docs/audit.md`: one row per
/// table, little-endian images only for 16-bit tables (both orders have the
/// same costs but for their own substitutes).
pub fn markdown_table(costs: &[HidingCost]) -> String {
    use std::fmt::Write as _;
    let mut out = String::from(
        "| table | entries | distinctive entries | to unfind | to disprove | **hiding cost** (ELF, wasm) | hiding cost (raw image) | cheapest substitute (raw image) |\n\
         |---|---:|---:|---:|---:|---:|---:|---|\n",
    );
    for c in costs.iter().filter(|c| c.order != ByteOrder::Big) {
        let sub = c
            .substitute_raw
            .as_ref()
            .map_or("-".into(), |(n, d)| std::format!("{n}: {d}"));
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | **{}** | {} | {} |",
            c.names.join(" = "),
            c.entries,
            c.distinctive,
            c.to_unfind,
            c.to_disprove,
            c.hiding_cost,
            c.hiding_cost_raw,
            sub
        );
    }
    out
}
