//! The file ranges of the copies that clear what lies in them, merged: what
//! [`super::verify`] fills and [`super::merge`] reads.

/// The file ranges of the copies reported so far, merged, by start.
#[derive(Default)]
pub(crate) struct Claimed(pub(crate) std::collections::BTreeMap<u64, u64>);

impl Claimed {
    /// Whether some byte of `[a, b]` is in a range.
    pub(crate) fn overlaps(&self, a: u64, b: u64) -> bool {
        self.0
            .range(..=b)
            .next_back()
            .is_some_and(|(_, &hi)| a < hi)
    }

    /// Forgets the ranges that end by `t`: no byte before it is asked about again.
    pub(crate) fn forget_before(&mut self, t: u64) {
        let mut after = self.0.split_off(&t);
        after.extend(self.0.pop_last().filter(|&(_, hi)| hi > t));
        self.0 = after;
    }

    pub(crate) fn insert(&mut self, mut lo: u64, mut hi: u64) {
        if lo >= hi {
            return;
        }
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
