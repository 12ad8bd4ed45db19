//! The file ranges of the copies that clear what lies in them: what
//! [`super::verify`] fills and [`super::merge`] reads.

use std::collections::BTreeMap;

/// The file ranges of the clearing copies found so far: merged, by start
/// (`.0`), and each by its own start (`.1`, the longest of those with one).
#[derive(Default)]
pub(crate) struct Claimed(pub(crate) BTreeMap<u64, u64>, pub(crate) BTreeMap<u64, u64>);

impl Claimed {
    /// Whether some byte of `[a, b]` is in a range; with `near` `(k, r)`,
    /// in one that starts `r` bytes or fewer from `k`.
    pub(crate) fn overlaps(&self, a: u64, b: u64, near: Option<(i64, u64)>) -> bool {
        let Some((k, r)) = near else {
            let last = self.0.range(..=b).next_back();
            return last.is_some_and(|(_, &hi)| a < hi);
        };
        let (lo, hi) = ((k - r as i64).max(0) as u64, k + r as i64);
        hi >= 0 && self.1.range(lo..=hi as u64).any(|(&x, &y)| x <= b && a < y)
    }

    /// Forgets the ranges that end by `t`, and the starts more than 16 bytes
    /// before it: no byte and no copy before `t` is asked about again.
    pub(crate) fn forget_before(&mut self, t: u64) {
        let mut after = self.0.split_off(&t);
        after.extend(self.0.pop_last().filter(|&(_, hi)| hi > t));
        self.0 = after;
        self.1 = self
            .1
            .split_off(&t.saturating_sub(crate::limits::clearing_reach(1)));
    }

    pub(crate) fn insert(&mut self, mut lo: u64, mut hi: u64) {
        if lo >= hi {
            return;
        }
        let longest = self.1.entry(lo).or_default();
        *longest = hi.max(*longest);
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
