//! The compact packer: turns a full 16-bit table into its stored form
//! ([`compact`]), and checks a stored form against the table on every input
//! ([`verify`]). Build scripts only; the stored form's layout and its reader
//! are `actlut_core::compact` (no_std), re-exported here.

pub use actlut_core::compact::*;

use core::fmt;

use std::collections::HashMap;
use std::string::String;
use std::vec::Vec;

/// Why a table could not be compacted. It names the table: a build fails
/// with it, never silently ships a wrong table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompactError {
    /// The table does not have 65,536 entries.
    Length {
        /// The table's name.
        name: String,
        /// Its length.
        len: usize,
    },
    /// The compact form decodes to a different entry (a bug in the
    /// compaction, or a corrupted stored form given to [`verify`]).
    Mismatch {
        /// The table's name.
        name: String,
        /// The first input whose entries differ.
        input: u16,
        /// The full table's entry.
        expected: u16,
        /// The compact form's entry.
        actual: u16,
    },
    /// The serialized form is not a valid stored form.
    Stored {
        /// The table's name.
        name: String,
        /// What is wrong with it.
        error: StoredFormError,
    },
}

impl fmt::Display for CompactError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompactError::Length { name, len } => {
                write!(f, "compact table {name}: {len} entries, not {ENTRIES}")
            }
            CompactError::Mismatch {
                name,
                input,
                expected,
                actual,
            } => write!(
                f,
                "compact table {name} does not round-trip: input {input:#06x} decodes to \
                 {actual:#06x}, the table holds {expected:#06x}"
            ),
            CompactError::Stored { name, error } => {
                write!(f, "compact table {name}: invalid stored form: {error}")
            }
        }
    }
}

impl std::error::Error for CompactError {}

/// An owned compact table, as [`compact`] builds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompactTable {
    layout: Layout,
    page_shift: u32,
    offset_scale: u32,
    dir: Vec<u32>,
    pool: Vec<u8>,
}

impl CompactTable {
    /// The entry for input bits `x`.
    #[inline]
    pub fn get(&self, x: u16) -> u16 {
        let x = u32::from(x);
        let d = self.dir[(x >> self.page_shift) as usize];
        let i = x & ((1 << self.page_shift) - 1);
        match self.layout {
            Layout::Bytes => decode(d, i, self.offset_scale, &self.pool),
            Layout::Words => decode_words(d, i, &self.pool),
        }
    }

    /// The layout of the pool and the directory entries.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// `k`: pages hold `2^k` entries.
    pub fn page_shift(&self) -> u32 {
        self.page_shift
    }

    /// Page starts are `offset << offset_scale` bytes into the pool.
    pub fn offset_scale(&self) -> u32 {
        self.offset_scale
    }

    /// The directory (see the [module docs](super) for the entry layout).
    pub fn dir(&self) -> &[u32] {
        &self.dir
    }

    /// The pool, padded so that a 4-byte read at any entry stays inside it.
    pub fn pool(&self) -> &[u8] {
        &self.pool
    }

    /// Number of pages with 16-bit residuals (every page in the words layout).
    pub fn wide_pages(&self) -> usize {
        match self.layout {
            Layout::Bytes => self.dir.iter().filter(|&&d| d & WIDE_BIT != 0).count(),
            Layout::Words => self.dir.len(),
        }
    }

    /// Length of the stored form in bytes: what the table costs in a binary.
    pub fn stored_len(&self) -> usize {
        HEADER_BYTES + 4 * self.dir.len() + self.pool.len()
    }

    /// The stored form (layout in the [module docs](super)).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.stored_len());
        out.extend_from_slice(&MAGIC);
        out.push(self.page_shift as u8);
        out.push(self.offset_scale as u8);
        out.extend_from_slice(&[self.layout.code(), 0]);
        out.extend_from_slice(&(self.pool.len() as u32).to_le_bytes());
        for d in &self.dir {
            out.extend_from_slice(&d.to_le_bytes());
        }
        out.extend_from_slice(&self.pool);
        out
    }
}

/// Checks that `view` decodes to `table` on all 65,536 inputs.
pub fn verify(name: &str, table: &[u16], view: &CompactRef<'_>) -> Result<(), CompactError> {
    if table.len() != ENTRIES {
        return Err(CompactError::Length {
            name: name.into(),
            len: table.len(),
        });
    }
    for (x, &expected) in table.iter().enumerate() {
        let actual = view.get(x as u16);
        if actual != expected {
            return Err(CompactError::Mismatch {
                name: name.into(),
                input: x as u16,
                expected,
                actual,
            });
        }
    }
    Ok(())
}

/// Compacts a 65,536-entry table in `layout`: searches the page sizes from
/// 64 entries toward the smaller stored form, keeps the smallest, and checks
/// that its stored form decodes to `table` on every input before returning
/// it. `name` names the table in errors.
pub fn compact(name: &str, table: &[u16], layout: Layout) -> Result<CompactTable, CompactError> {
    if table.len() != ENTRIES {
        return Err(CompactError::Length {
            name: name.into(),
            len: table.len(),
        });
    }
    let hashes = TableHashes::new(table);
    let pack = |k: u32| match layout {
        Layout::Bytes => (0..=MAX_OFFSET_SCALE)
            .find_map(|scale| Packer::new(k, scale).pack(table, &hashes))
            .expect("offset scale 2 addresses any pool of at most 128 KiB"),
        Layout::Words => WordPacker::new(k).pack(table, &hashes),
    };
    // The stored size is close to unimodal in the page size (the directory
    // halves as the pool grows): walk from 64-entry pages toward the
    // smaller neighbour and stop at the first page size that is no better.
    let mut best = pack(6);
    let mut down = true;
    let mut k = 6;
    loop {
        let next = if down { k - 1 } else { k + 1 };
        if !(MIN_PAGE_SHIFT..=MAX_PAGE_SHIFT).contains(&next) {
            break;
        }
        let c = pack(next);
        if c.stored_len() < best.stored_len() {
            best = c;
            k = next;
        } else if down && k == 6 {
            down = false;
        } else {
            break;
        }
    }
    let bytes = best.to_bytes();
    let view = CompactRef::from_bytes(&bytes).map_err(|error| CompactError::Stored {
        name: name.into(),
        error,
    })?;
    verify(name, table, &view)?;
    Ok(best)
}

/// Polynomial hash base for windows of differences (odd, mixes well).
const BASE: u64 = 0x9E37_79B9_7F4A_7C15;

/// Keys are already hashes: the map uses them as they are.
#[derive(Default)]
struct IdHasher(u64);

impl core::hash::Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

type IdMap<V> = HashMap<u64, V, core::hash::BuildHasherDefault<IdHasher>>;

/// One packing of a table at page size `2^k` and offset scale `scale`.
struct Packer {
    k: u32,
    scale: u32,
    pool: Vec<u8>,
    /// `prefix[n]`: hash of the first `n` differences of the pool
    /// (`pool[j + 1] - pool[j]`, offset by 256).
    prefix: Vec<u64>,
    /// `BASE^n`.
    powers: Vec<u64>,
    /// Hash of a window's `P - 1` differences -> its first start in the pool.
    windows: IdMap<u32>,
    /// Hash of a wide page's residuals -> its start.
    wide: IdMap<u32>,
}

/// A difference between neighbouring entries, as hashed: the wrapping
/// 16-bit difference plus one. For a narrow page it is the same whether
/// taken between residual bytes or between the table's entries.
fn diff(a: u8, b: u8) -> u64 {
    u64::from((i32::from(b) - i32::from(a)) as u16) + 1
}

/// Prefix hashes of the whole table's differences, computed once and shared
/// by every packing: the hash of any page's first `n` differences is O(1).
struct TableHashes {
    prefix: Vec<u64>,
}

impl TableHashes {
    fn new(table: &[u16]) -> TableHashes {
        let mut prefix = Vec::with_capacity(table.len());
        let mut h = 0u64;
        prefix.push(h);
        for w in table.windows(2) {
            h = h.wrapping_mul(BASE).wrapping_add(wdiff(w[0], w[1]));
            prefix.push(h);
        }
        TableHashes { prefix }
    }

    /// Hash of the differences `s..s + n` of the table (`powers[n] = BASE^n`).
    fn page(&self, s: usize, n: usize, powers: &[u64]) -> u64 {
        self.prefix[s + n].wrapping_sub(self.prefix[s].wrapping_mul(powers[n]))
    }
}

impl Packer {
    fn new(k: u32, scale: u32) -> Packer {
        let p = 1usize << k;
        let mut powers = Vec::with_capacity(p + 1);
        let mut x = 1u64;
        for _ in 0..=p {
            powers.push(x);
            x = x.wrapping_mul(BASE);
        }
        Packer {
            k,
            scale,
            pool: Vec::new(),
            prefix: std::vec![0],
            powers,
            windows: IdMap::with_capacity_and_hasher(1 << 12, Default::default()),
            wide: IdMap::default(),
        }
    }

    /// Hash of the differences `j..j + n` of the pool.
    fn pool_hash(&self, j: usize, n: usize) -> u64 {
        self.prefix[j + n].wrapping_sub(self.prefix[j].wrapping_mul(self.powers[n]))
    }

    fn push(&mut self, bytes: &[u8]) {
        let p = 1usize << self.k;
        let old = self.pool.len();
        for &b in bytes {
            if let Some(&last) = self.pool.last() {
                let h = self.prefix[self.prefix.len() - 1];
                self.prefix
                    .push(h.wrapping_mul(BASE).wrapping_add(diff(last, b)));
            }
            self.pool.push(b);
        }
        // Index every window of P bytes that ends in the new bytes.
        let first = (old + 1).saturating_sub(p);
        let align = 1usize << self.scale;
        let mut j = first.next_multiple_of(align);
        while j + p <= self.pool.len() {
            let h = self.pool_hash(j, p - 1);
            self.windows.entry(h).or_insert(j as u32);
            j += align;
        }
    }

    fn entry(&self, start: usize, wide: bool, addend: u16) -> Option<u32> {
        let o = start >> self.scale;
        if start & ((1 << self.scale) - 1) != 0 || o > 0x7FFF {
            return None;
        }
        Some(o as u32 | if wide { WIDE_BIT } else { 0 } | u32::from(addend) << 16)
    }

    /// Packs the table, or `None` if the pool outgrows the offsets of this scale.
    fn pack(mut self, table: &[u16], hashes: &TableHashes) -> Option<CompactTable> {
        let p = 1usize << self.k;
        let mut dir = Vec::with_capacity(ENTRIES >> self.k);
        let mut res = std::vec![0u8; p];
        for (n, page) in table.chunks_exact(p).enumerate() {
            let v0 = page[0];
            let rel = |v: u16| i32::from(v.wrapping_sub(v0) as i16);
            let (lo, hi) = page
                .iter()
                .fold((0, 0), |(lo, hi), &v| (rel(v).min(lo), rel(v).max(hi)));
            let d = if hi - lo <= 255 {
                for (r, &v) in res.iter_mut().zip(page) {
                    *r = (rel(v) - lo) as u8;
                }
                self.narrow(&res, n * p, hashes, v0)?
            } else {
                self.wide_page(page)?
            };
            dir.push(d);
        }
        self.pool.extend_from_slice(&[0; READ_BYTES - 1]);
        Some(CompactTable {
            layout: Layout::Bytes,
            page_shift: self.k,
            offset_scale: self.scale,
            dir,
            pool: self.pool,
        })
    }

    /// The directory entry of a narrow page with residuals `res` (entries
    /// `res[i] + res_base`) whose first entry is `v0`.
    fn narrow(&mut self, res: &[u8], s: usize, hashes: &TableHashes, v0: u16) -> Option<u32> {
        let p = res.len();
        // h(n): hash of the first n differences of res (those of the table).
        let h = |n: usize| hashes.page(s, n, &self.powers);
        let addend_for = |w0: u8| v0.wrapping_sub(u16::from(w0));
        if let Some(&j) = self.windows.get(&h(p - 1)) {
            let j = j as usize;
            let w = &self.pool[j..j + p];
            let c = i32::from(w[0]) - i32::from(res[0]);
            if w.iter()
                .zip(res)
                .all(|(&a, &b)| i32::from(a) - i32::from(b) == c)
            {
                return self.entry(j, false, addend_for(w[0]));
            }
        }
        // Overlap the pool's tail with the page's head, longest first.
        let len = self.pool.len();
        let align = (1usize << self.scale) - 1;
        let (lo, hi) = res
            .iter()
            .fold((255u8, 0u8), |(l, h), &r| (l.min(r), h.max(r)));
        for o in (1..p.min(len + 1)).rev() {
            let start = len - o;
            if start & align != 0 || h(o - 1) != self.pool_hash(start, o - 1) {
                continue;
            }
            let c = i32::from(self.pool[start]) - i32::from(res[0]);
            if i32::from(lo) + c < 0 || i32::from(hi) + c > 255 {
                continue;
            }
            let tail = &self.pool[start..];
            if tail
                .iter()
                .zip(res)
                .all(|(&a, &b)| i32::from(a) - i32::from(b) == c)
            {
                let e = self.entry(start, false, addend_for(self.pool[start]))?;
                let rest: Vec<u8> = res[o..].iter().map(|&r| (i32::from(r) + c) as u8).collect();
                self.push(&rest);
                return Some(e);
            }
        }
        let start = len.next_multiple_of(align + 1);
        let e = self.entry(start, false, addend_for(res[0]))?;
        let pad = std::vec![0u8; start - len];
        self.push(&pad);
        self.push(res);
        Some(e)
    }

    /// The directory entry of a wide page (residuals from its first entry).
    fn wide_page(&mut self, page: &[u16]) -> Option<u32> {
        let v0 = page[0];
        let mut hash = 0u64;
        for &v in page {
            hash = hash
                .wrapping_mul(BASE)
                .wrapping_add(u64::from(v.wrapping_sub(v0)) + 1);
        }
        if let Some(&j) = self.wide.get(&hash) {
            let j = j as usize;
            let same = page.iter().enumerate().all(|(i, &v)| {
                u16::from_le_bytes([self.pool[j + 2 * i], self.pool[j + 2 * i + 1]])
                    == v.wrapping_sub(v0)
            });
            if same {
                return self.entry(j, true, v0);
            }
        }
        let len = self.pool.len();
        let start = len.next_multiple_of(1 << self.scale);
        let e = self.entry(start, true, v0)?;
        let mut bytes = std::vec![0u8; start - len];
        for &v in page {
            bytes.extend_from_slice(&v.wrapping_sub(v0).to_le_bytes());
        }
        self.push(&bytes);
        self.wide.entry(hash).or_insert(start as u32);
        Some(e)
    }
}

/// One packing of a table in the words layout at page size `2^k`.
struct WordPacker {
    k: u32,
    pool: Vec<u16>,
    /// `prefix[n]`: hash of the first `n` wrapping differences of the pool.
    prefix: Vec<u64>,
    /// `BASE^n`.
    powers: Vec<u64>,
    /// Hash of a window's `P - 1` differences -> its first start.
    windows: IdMap<u32>,
}

fn wdiff(a: u16, b: u16) -> u64 {
    u64::from(b.wrapping_sub(a)) + 1
}

impl WordPacker {
    fn new(k: u32) -> WordPacker {
        let p = Packer::new(k, 0);
        WordPacker {
            k,
            pool: Vec::new(),
            prefix: std::vec![0],
            powers: p.powers,
            windows: p.windows,
        }
    }

    fn pool_hash(&self, j: usize, n: usize) -> u64 {
        self.prefix[j + n].wrapping_sub(self.prefix[j].wrapping_mul(self.powers[n]))
    }

    fn push(&mut self, words: &[u16]) {
        let p = 1usize << self.k;
        let old = self.pool.len();
        for &w in words {
            if let Some(&last) = self.pool.last() {
                let h = self.prefix[self.prefix.len() - 1];
                self.prefix
                    .push(h.wrapping_mul(BASE).wrapping_add(wdiff(last, w)));
            }
            self.pool.push(w);
        }
        // Index every window of P entries that ends in the new entries.
        let mut j = (old + 1).saturating_sub(p);
        while j + p <= self.pool.len() {
            let h = self.pool_hash(j, p - 1);
            self.windows.entry(h).or_insert(j as u32);
            j += 1;
        }
    }

    /// Packs the table: every page is a window of the pool up to a constant.
    /// Offsets always fit 16 bits: the pool holds at most the table's
    /// 65,536 entries, so every page starts below 65,536 - P.
    fn pack(mut self, table: &[u16], hashes: &TableHashes) -> CompactTable {
        let p = 1usize << self.k;
        let mut dir = Vec::with_capacity(ENTRIES >> self.k);
        for (n, page) in table.chunks_exact(p).enumerate() {
            let powers = &self.powers;
            let h = |m: usize| hashes.page(n * p, m, powers);
            // `page` equals `w` plus a constant (mod 2^16).
            let same = |w: &[u16]| {
                let c = page[0].wrapping_sub(w[0]);
                w.iter().zip(page).all(|(&a, &b)| a.wrapping_add(c) == b)
            };
            if let Some(&j) = self.windows.get(&h(p - 1)) {
                let j = j as usize;
                if same(&self.pool[j..j + p]) {
                    dir.push(j as u32 | u32::from(page[0].wrapping_sub(self.pool[j])) << 16);
                    continue;
                }
            }
            // Overlap the pool's tail with the page's head, longest first.
            let len = self.pool.len();
            let overlap = (1..p.min(len + 1)).rev().find(|&o| {
                h(o - 1) == self.pool_hash(len - o, o - 1) && same(&self.pool[len - o..])
            });
            let start = len - overlap.unwrap_or(0);
            let c = match overlap {
                Some(_) => page[0].wrapping_sub(self.pool[start]),
                None => page[0],
            };
            let rest: Vec<u16> = page[len - start..]
                .iter()
                .map(|&v| v.wrapping_sub(c))
                .collect();
            self.push(&rest);
            dir.push(start as u32 | u32::from(c) << 16);
        }
        let mut pool = Vec::with_capacity(2 * self.pool.len() + READ_BYTES);
        for w in &self.pool {
            pool.extend_from_slice(&w.to_le_bytes());
        }
        pool.extend_from_slice(&[0; READ_BYTES - 2]);
        CompactTable {
            layout: Layout::Words,
            page_shift: self.k,
            offset_scale: 0,
            dir,
            pool,
        }
    }
}
