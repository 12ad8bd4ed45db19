//! The file ranges of the copies that clear what lies in them: what
//! [`super::verify`] fills and [`super::merge`] reads.

use std::collections::BTreeMap;

/// The file ranges of the clearing copies found so far: merged, by start
/// (`.0`), and each by its own start (`.1`, the longest of those with one).
#[derive(Default)]
pub(crate) struct Claimed(pub(crate) BTreeMap<u64, u64>, pub(crate) BTreeMap<u64, u64>);

impl Claimed {
    /// The ranges that meet `[a, b)`: of the merged ones; with `near`
    /// `(k, r)`, of those that start `r` bytes or fewer from `k` (by start).
    fn meeting(
        &self,
        a: u64,
        b: u64,
        near: Option<(i64, u64)>,
    ) -> impl Iterator<Item = (u64, u64)> + '_ {
        let merged = near
            .is_none()
            .then(|| self.0.range(..b).rev().take_while(move |r| *r.1 > a));
        let starts = near.map(|(k, r)| {
            let end = (k + r as i64 + 1).max(0) as u64;
            self.1.range(((k - r as i64).max(0) as u64).min(end)..end)
        });
        let near = starts
            .into_iter()
            .flatten()
            .filter(move |r| *r.0 < b && a < *r.1);
        merged
            .into_iter()
            .flatten()
            .chain(near)
            .map(|(&x, &y)| (x, y))
    }

    /// Whether some byte of `[a, b]` is in a range ([`meeting`](Self::meeting)).
    pub(crate) fn overlaps(&self, a: u64, b: u64, near: Option<(i64, u64)>) -> bool {
        self.meeting(a, b + 1, near).next().is_some()
    }

    /// The parts of `[lo, hi)` outside the ranges ([`meeting`](Self::meeting)), in order.
    pub(crate) fn uncovered(
        &self,
        (lo, hi): (u64, u64),
        near: Option<(i64, u64)>,
    ) -> Vec<(u64, u64)> {
        let mut spans: Vec<(u64, u64)> = self.meeting(lo, hi, near).collect();
        spans.sort_unstable();
        let (mut open, mut reach) = (Vec::new(), lo);
        for (a, b) in spans {
            if a > reach {
                open.push((reach, a));
            }
            reach = reach.max(b);
        }
        if reach < hi {
            open.push((reach, hi));
        }
        open
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
