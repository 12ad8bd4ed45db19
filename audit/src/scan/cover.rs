//! The file ranges of the copies that clear what lies in them, merged: what
//! [`super::verify`] fills and [`super::merge`] reads.

/// The file ranges of the copies reported so far, merged, by start.
#[derive(Default)]
pub(crate) struct Claimed(std::collections::BTreeMap<u64, u64>);

impl Claimed {
    /// Whether some byte of `[a, b]` is in a range.
    pub(crate) fn overlaps(&self, a: u64, b: u64) -> bool {
        self.0
            .range(..=b)
            .next_back()
            .is_some_and(|(_, &hi)| a < hi)
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
