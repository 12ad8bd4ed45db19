//! The scan's first test of a value: a one-word Bloom filter, the hash its
//! tables share, and the runs, counts and alternations no value is
//! evidence in. A leaf module: it imports nothing of the audit.

/// splitmix64's finalizer.
#[inline(always)]
pub(crate) fn mix(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// A one-word Bloom filter of keys without sites: the scan's first test of
/// the 8-byte value at every offset, for everything it may start (a gram, a
/// hash, a manifest record, a compact header, a table below the content
/// threshold), so that one load answers for them all.
pub(crate) struct Filter {
    words: Vec<u64>,
    shift: u32,
}

impl Filter {
    pub(crate) fn new(keys: &[u64]) -> Filter {
        let words = (keys.len() * 32 / 64).next_power_of_two().max(64);
        let mut f = Filter {
            words: vec![0; words],
            shift: 64 - words.trailing_zeros(),
        };
        for &k in keys {
            let (w, m) = filter_bits(k, f.shift);
            f.words[w] |= m;
        }
        f
    }

    #[inline(always)]
    pub(crate) fn maybe(&self, key: u64) -> bool {
        let (w, m) = filter_bits(key, self.shift);
        self.words[w] & m == m
    }
}

/// One multiply: the word from the top bits, three bits from the middle.
#[inline(always)]
fn filter_bits(key: u64, shift: u32) -> (usize, u64) {
    let h = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let m = (1 << ((h >> 24) & 63)) | (1 << ((h >> 30) & 63)) | (1 << ((h >> 36) & 63));
    ((h >> shift) as usize, m)
}

/// Whether the steps of `values` repeat with period 1 or 2 (a run, a
/// count, an alternation), wrapping at `mask + 1`.
pub(crate) fn is_periodic(values: &[u16], mask: u16) -> bool {
    let d = |i: usize| values[i + 1].wrapping_sub(values[i]) & mask;
    (0..values.len().saturating_sub(3)).all(|i| d(i + 2) == d(i))
}

/// Whether `values` form an arithmetic progression (wrapping at `mask + 1`).
pub(crate) fn is_progression(values: &[u16], mask: u16) -> bool {
    let step = values[1].wrapping_sub(values[0]) & mask;
    values
        .windows(2)
        .all(|w| w[1].wrapping_sub(w[0]) & mask == step)
}
