//! Compact exact 16-bit tables: the same 65,536 entries in a fraction of the
//! bytes, decoded by two dependent loads plus an add.
//!
//! # The scheme
//!
//! The table is cut into pages of `P = 2^k` consecutive entries (`k` in 4..=8,
//! chosen per table). A `dir`ectory holds one `u32` per page: where the page's
//! residuals start in a shared `pool`, and an `addend`. Entry `x` is, with
//! `d = dir[x >> k]` and `i = x & (P - 1)`, the residual `i` of the page plus
//! `d >> 16`, a wrapping 16-bit add. Two [`Layout`]s trade size for speed.
//!
//! **Words** ([`Layout::Words`]): the pool is `u16` residuals, and
//!
//! ```text
//! t[x] = pool[(d & 0xFFFF) + i] + (d >> 16)                       (mod 2^16)
//! ```
//!
//! **Bytes** ([`Layout::Bytes`]): the pool is bytes. A page whose entries span
//! at most 255 is *narrow*, one byte per entry; the others are *wide*, one
//! little-endian `u16` per entry; bit 15 of `d` says which, and bits 0..15 give
//! the start in units of `2^scale` bytes (`scale`, 0..=2, is per table):
//!
//! ```text
//! s = (d & 0x7FFF) << scale
//! narrow page: t[x] = pool[s + i]                     + (d >> 16)   (mod 2^16)
//! wide page:   t[x] = u16::from_le(pool[s + 2i ..])   + (d >> 16)   (mod 2^16)
//! ```
//!
//! branch-free as one unaligned 16-bit load and a mask, with
//! `wide = -(d >> 15 & 1)` (all ones for a wide page):
//!
//! ```text
//! at   = ((d & 0x7FFF) << scale) + i + (i & wide)
//! t[x] = (u16le(pool[at..]) & (wide | 0xFF)) + (d >> 16)
//! ```
//!
//! In both layouts pages are shared through the whole pool, not only page by
//! page: a page is stored by pointing at *any* window of the pool that equals
//! its entries up to a constant (the addend absorbs the constant), and a new
//! page may start inside the pool's tail where the tail matches its beginning.
//! Runs where the result is constant, the input itself (`gelu(x) = x`) or the
//! input shifted by a constant (`x / 2` is an exponent step) all become one
//! window of the pool. The page size is searched from 64 entries toward the
//! smaller stored form.
//!
//! The scheme is exact for *every* table, not only smooth ones: a table of
//! random entries becomes all wide pages (no smaller than the full table, but
//! still exact), and the packer (`actlut_codegen::compact::compact`) checks every entry of the stored form before
//! it returns it.
//!
//! # Stored form
//!
//! The bytes that are embedded, hashed and audited (all little-endian):
//!
//! | bytes | content |
//! |---|---|
//! | 0..8 | magic `ACTLUTC1` |
//! | 8 | `k`, the page shift (4..=8; pages of `2^k` entries) |
//! | 9 | `scale`, the offset scale (0..=2; 0 in the words layout) |
//! | 10 | the layout: 0 bytes, 1 words |
//! | 11 | reserved, zero |
//! | 12..16 | pool length in bytes (`u32`) |
//! | 16.. | the directory: `65,536 >> k` entries of `u32` |
//! | then | the pool |
//!
//! [`CompactRef::from_bytes`] accepts a stored form only if every byte is
//! accounted for and every page's reads, including a 4-byte read at its last
//! entry (a 32-bit gather), lie inside the pool. So a valid view never reads
//! out of bounds, whatever the input.

use core::fmt;

/// The magic that starts every stored form.
pub const MAGIC: [u8; 8] = *b"ACTLUTC1";

/// Bytes before the directory in the stored form.
pub const HEADER_BYTES: usize = 16;

/// Number of entries of a 16-bit table.
pub const ENTRIES: usize = 65_536;

/// Smallest page shift: pages of 16 entries.
pub const MIN_PAGE_SHIFT: u32 = 4;

/// Largest page shift: pages of 256 entries.
pub const MAX_PAGE_SHIFT: u32 = 8;

/// Largest offset scale: page starts are multiples of `1 << scale` bytes.
pub const MAX_OFFSET_SCALE: u32 = 2;

/// Bytes a reader may load at a page's last entry: 4, so that a 32-bit gather at
/// any entry stays inside the pool.
pub const READ_BYTES: usize = 4;

/// Bit 15 of a directory entry: the page holds 16-bit residuals.
pub const WIDE_BIT: u32 = 1 << 15;

/// The entry at `i` (`i < page size`) of the page of directory entry `d` in
/// the bytes layout with offset scale `scale`: the decoding rule of the module
/// docs, shared by the reader and the packer's check.
///
/// # Panics
///
/// If the read falls outside `pool` (a validated [`CompactRef`] never does).
#[inline(always)]
pub fn decode(d: u32, i: u32, scale: u32, pool: &[u8]) -> u16 {
    let wide = ((d << 16) as i32 >> 31) as u32;
    let at = (((d & 0x7FFF) << scale) + i + (i & wide)) as usize;
    let raw = match pool.get(at..at + 2) {
        Some(&[lo, hi]) => u16::from_le_bytes([lo, hi]),
        _ => panic!("compact table: pool read out of bounds"),
    };
    (raw & (wide as u16 | 0xFF)).wrapping_add((d >> 16) as u16)
}

/// The entry at `i` of the page of directory entry `d` in the words layout.
///
/// # Panics
///
/// If the read falls outside `pool` (a validated [`CompactRef`] never does).
#[inline(always)]
pub fn decode_words(d: u32, i: u32, pool: &[u8]) -> u16 {
    let at = 2 * ((d & 0xFFFF) + i) as usize;
    let raw = match pool.get(at..at + 2) {
        Some(&[lo, hi]) => u16::from_le_bytes([lo, hi]),
        _ => panic!("compact table: pool read out of bounds"),
    };
    raw.wrapping_add((d >> 16) as u16)
}

/// How a stored form keeps its residuals: the choice between size and speed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// A byte pool of narrow pages (one byte per entry) and wide pages (a
    /// `u16` per entry), one width bit per page: the smallest form. The decode
    /// adds a width mask to the two loads and the add.
    Bytes,
    /// A pool of `u16` residuals (directory entry: `u16` offset in entries,
    /// `u16` addend): `t[x] = pool[offset + i] + addend`, two dependent loads
    /// and an add, and about a third larger than [`Layout::Bytes`].
    Words,
}

impl Layout {
    /// Both layouts.
    pub const ALL: [Layout; 2] = [Layout::Bytes, Layout::Words];

    /// The layout's name: `bytes` or `words`.
    pub const fn name(self) -> &'static str {
        match self {
            Layout::Bytes => "bytes",
            Layout::Words => "words",
        }
    }

    /// The layout's code in byte 10 of the stored form.
    pub const fn code(self) -> u8 {
        match self {
            Layout::Bytes => 0,
            Layout::Words => 1,
        }
    }
}

/// Why a byte slice is not a valid stored form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoredFormError {
    /// Shorter than the header.
    TooShort,
    /// The first 8 bytes are not [`MAGIC`].
    BadMagic,
    /// The page shift is outside 4..=8.
    BadPageShift(u8),
    /// The offset scale is above 2 (bytes layout) or not 0 (words layout).
    BadOffsetScale(u8),
    /// The layout code is neither 0 (bytes) nor 1 (words).
    BadLayout(u8),
    /// The reserved header bytes are not zero.
    Reserved,
    /// The length is not header + directory + pool.
    Length {
        /// The length the header implies.
        expected: usize,
        /// The slice's length.
        actual: usize,
    },
    /// A page would read past the end of the pool.
    PageOutOfBounds {
        /// The page's index in the directory.
        page: usize,
    },
}

impl fmt::Display for StoredFormError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoredFormError::TooShort => write!(f, "shorter than the {HEADER_BYTES}-byte header"),
            StoredFormError::BadMagic => write!(f, "does not start with the magic ACTLUTC1"),
            StoredFormError::BadPageShift(k) => {
                write!(
                    f,
                    "page shift {k} is outside {MIN_PAGE_SHIFT}..={MAX_PAGE_SHIFT}"
                )
            }
            StoredFormError::BadOffsetScale(s) => {
                write!(f, "offset scale {s} is not allowed for the layout")
            }
            StoredFormError::BadLayout(l) => write!(f, "unknown layout code {l}"),
            StoredFormError::Reserved => write!(f, "reserved header bytes are not zero"),
            StoredFormError::Length { expected, actual } => {
                write!(f, "{actual} bytes where the header implies {expected}")
            }
            StoredFormError::PageOutOfBounds { page } => {
                write!(f, "page {page} reads past the end of the pool")
            }
        }
    }
}

impl core::error::Error for StoredFormError {}

/// The 16-byte header of a stored form, parsed and checked: the one parser of
/// the header that the reader, the packer's checks, the audit and the tests
/// all call.
///
/// ```
/// use actlut_core::compact::{Header, Layout, StoredFormError, HEADER_BYTES};
/// let mut b = *b"ACTLUTC1\x06\x01\x00\x00\x10\x00\x00\x00";
/// let h = Header::parse(&b).unwrap();
/// assert_eq!((h.layout, h.page_shift, h.offset_scale, h.pool_len), (Layout::Bytes, 6, 1, 16));
/// assert_eq!(h.pages(), 1024);
/// assert_eq!(h.stored_len(), HEADER_BYTES + 4 * 1024 + 16);
/// b[8] = 3; // pages of 8 entries: below the smallest page shift
/// assert_eq!(Header::parse(&b), Err(StoredFormError::BadPageShift(3)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// How the pool keeps its residuals.
    pub layout: Layout,
    /// `k`: pages of `2^k` entries ([`MIN_PAGE_SHIFT`]..=[`MAX_PAGE_SHIFT`]).
    pub page_shift: u32,
    /// The offset scale (0..=[`MAX_OFFSET_SCALE`]; 0 in the words layout).
    pub offset_scale: u32,
    /// The pool's length in bytes.
    pub pool_len: usize,
}

impl Header {
    /// Parses and checks the header at the start of `bytes` (which may go on
    /// past the header): the magic, the page shift, the offset scale, the
    /// layout and the reserved byte. It does not look at the directory or the
    /// pool; [`CompactRef::from_bytes`] does.
    pub const fn parse(bytes: &[u8]) -> Result<Header, StoredFormError> {
        if bytes.len() < HEADER_BYTES {
            return Err(StoredFormError::TooShort);
        }
        let mut j = 0;
        while j < MAGIC.len() {
            if bytes[j] != MAGIC[j] {
                return Err(StoredFormError::BadMagic);
            }
            j += 1;
        }
        let k = bytes[8];
        if (k as u32) < MIN_PAGE_SHIFT || (k as u32) > MAX_PAGE_SHIFT {
            return Err(StoredFormError::BadPageShift(k));
        }
        let scale = bytes[9];
        if scale as u32 > MAX_OFFSET_SCALE {
            return Err(StoredFormError::BadOffsetScale(scale));
        }
        let layout = match bytes[10] {
            0 => Layout::Bytes,
            1 => Layout::Words,
            l => return Err(StoredFormError::BadLayout(l)),
        };
        if matches!(layout, Layout::Words) && scale != 0 {
            return Err(StoredFormError::BadOffsetScale(scale));
        }
        if bytes[11] != 0 {
            return Err(StoredFormError::Reserved);
        }
        Ok(Header {
            layout,
            page_shift: k as u32,
            offset_scale: scale as u32,
            pool_len: u32_at(bytes, 12) as usize,
        })
    }

    /// The number of pages, `65,536 >> k`: the directory's entries.
    pub const fn pages(&self) -> usize {
        ENTRIES >> self.page_shift
    }

    /// The whole stored form's length in bytes: header, directory and pool.
    pub const fn stored_len(&self) -> usize {
        HEADER_BYTES + 4 * self.pages() + self.pool_len
    }
}

/// A borrowed, validated view of a stored form: `no_std`, no allocation, usable
/// on `&'static` bytes (`include_bytes!`) and built at compile time by the
/// `const` [`CompactRef::from_bytes`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompactRef<'a> {
    layout: Layout,
    page_shift: u32,
    offset_scale: u32,
    /// The stored form's header, which every lookup holds to the fields
    /// above ([`CompactRef::header_is_intact`]).
    header: &'a [u8],
    dir: &'a [u8],
    pool: &'a [u8],
}

/// The panic of [`CompactRef::check_header`], out of line (the checks stay
/// small where they are inlined).
#[cold]
#[inline(never)]
fn header_changed() -> ! {
    panic!(
        "actlut: a compact table's stored header in memory is not the one its view was built \
         from (the binary was modified): refusing to decode it"
    )
}

/// Reads the little-endian `u32` at byte `at` of `b` (a `const` helper).
const fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

impl<'a> CompactRef<'a> {
    /// Validates a stored form and views it (see the [module docs](self) for the
    /// layout). Every directory entry is checked, so [`get`](Self::get) never
    /// reads out of bounds.
    pub const fn from_bytes(bytes: &'a [u8]) -> Result<Self, StoredFormError> {
        let header = match Header::parse(bytes) {
            Ok(h) => h,
            Err(e) => return Err(e),
        };
        let (layout, k, scale, pool_len) = (
            header.layout,
            header.page_shift,
            header.offset_scale,
            header.pool_len,
        );
        let pages = header.pages();
        let expected = header.stored_len();
        if bytes.len() != expected {
            return Err(StoredFormError::Length {
                expected,
                actual: bytes.len(),
            });
        }
        let (header_bytes, rest) = bytes.split_at(HEADER_BYTES);
        let (dir, pool) = rest.split_at(4 * pages);
        let last = (1usize << k) - 1;
        let mut p = 0;
        while p < pages {
            let d = u32_at(dir, 4 * p);
            let end = match layout {
                Layout::Bytes => {
                    let step = if d & WIDE_BIT != 0 { 2 } else { 1 };
                    (((d & 0x7FFF) as usize) << scale) + step * last
                }
                Layout::Words => 2 * ((d & 0xFFFF) as usize + last),
            };
            if end + READ_BYTES > pool_len {
                return Err(StoredFormError::PageOutOfBounds { page: p });
            }
            p += 1;
        }
        Ok(CompactRef {
            layout,
            page_shift: k,
            offset_scale: scale,
            header: header_bytes,
            dir,
            pool,
        })
    }

    /// Whether the stored form's header, read from memory now, is still the
    /// one this view was made from: its magic, page shift, offset scale,
    /// layout and pool length. A `static` view is made at compile time, so
    /// its fields are compiled into the program; its stored bytes are in the
    /// binary, where an edit can replace them (another stored form of the
    /// table, in the other layout or of another length, with its declaration
    /// rewritten to match, is a valid form that `actlut audit` finds intact).
    /// The lookups ([`get`](Self::get), the slice kernels, the expansions)
    /// check this first, so a form that is not the one the program was built
    /// with is a panic, never a wrong decode. The read goes through
    /// [`core::hint::black_box`], so that the compiler does not fold it into
    /// the constant it was at compile time.
    #[inline]
    pub fn header_is_intact(&self) -> bool {
        let h = core::hint::black_box(self.header);
        let pool = (self.pool.len() as u32).to_le_bytes();
        h.len() == HEADER_BYTES
            && h[..8] == MAGIC
            && u32::from(h[8]) == self.page_shift
            && u32::from(h[9]) == self.offset_scale
            && h[10] == self.layout.code()
            && h[11] == 0
            && h[12..16] == pool
    }

    /// Panics unless [`header_is_intact`](Self::header_is_intact).
    ///
    /// # Panics
    ///
    /// When the stored header in memory is not the one the view was made
    /// from: only an edited binary (or memory) gets there.
    #[inline]
    pub fn check_header(&self) {
        if !self.header_is_intact() {
            header_changed();
        }
    }

    /// The entry for input bits `x`: the same bits as the full table's `t[x]`.
    ///
    /// Every input is valid and never panics: [`from_bytes`](Self::from_bytes)
    /// checked that every read lies inside the stored form (the checks left in
    /// the code are never taken).
    ///
    /// # Panics
    ///
    /// When the stored header in memory is not the one the view was made
    /// from ([`check_header`](Self::check_header)): an edited binary.
    #[inline]
    pub fn get(&self, x: u16) -> u16 {
        self.check_header();
        let x = u32::from(x);
        let p = (x >> self.page_shift) as usize;
        let d = match self.dir.get(4 * p..4 * p + 4) {
            Some(&[a, b, c, d]) => u32::from_le_bytes([a, b, c, d]),
            _ => panic!("compact table: directory read out of bounds"),
        };
        let i = x & ((1 << self.page_shift) - 1);
        match self.layout {
            Layout::Bytes => decode(d, i, self.offset_scale, self.pool),
            Layout::Words => decode_words(d, i, self.pool),
        }
    }

    /// Writes all 65,536 entries into `out`: `out[x] == self.get(x)` for every
    /// `x`. `no_std`, no allocation, safe code: page by page, a narrow page
    /// is its run of pool bytes widened and added to the page's addend, a
    /// wide page (and every page of the words layout) its run of
    /// little-endian `u16`s plus the addend: one loop per page that the
    /// compiler vectorizes, no per-entry directory read. It cannot fail: a
    /// `CompactRef` exists only for a stored form that decodes
    /// ([`CompactRef::from_bytes`] is where a damaged header or pool is
    /// refused; [`CompactRef::expand_bytes_into`] validates and expands in
    /// one call).
    ///
    /// ```
    /// use actlut_core::compact::{CompactRef, HEADER_BYTES, MAGIC};
    /// // One page of 256 narrow entries at pool offset 0, addend 0x3C00, shared
    /// // by all 256 pages; pool bytes 0, 1, ..., 255 (plus the 4-byte read margin).
    /// let mut b = MAGIC.to_vec();
    /// b.extend_from_slice(&[8, 0, 0, 0]);
    /// b.extend_from_slice(&(256u32 + 3).to_le_bytes());
    /// for _ in 0..256 {
    ///     b.extend_from_slice(&(0x3C00u32 << 16).to_le_bytes());
    /// }
    /// b.extend((0..=255u8).chain([0; 3]));
    /// let view = CompactRef::from_bytes(&b).unwrap();
    /// let mut out = [0u16; 65_536];
    /// view.expand_into(&mut out);
    /// assert_eq!((out[0], out[255], out[256 + 7]), (0x3C00, 0x3CFF, 0x3C07));
    /// assert!((0..=u16::MAX).all(|x| out[usize::from(x)] == view.get(x)));
    /// ```
    ///
    /// # Panics
    ///
    /// As [`get`](Self::get), when the stored header in memory is not the one
    /// the view was made from.
    pub fn expand_into(&self, out: &mut [u16; ENTRIES]) {
        self.check_header();
        // The page size as a constant, so that each page's loop has a fixed
        // trip count the compiler unrolls and vectorizes.
        match self.page_shift {
            4 => self.expand_pages::<16>(out),
            5 => self.expand_pages::<32>(out),
            6 => self.expand_pages::<64>(out),
            7 => self.expand_pages::<128>(out),
            _ => self.expand_pages::<256>(out),
        }
    }

    /// [`CompactRef::expand_into`] for pages of `P` entries (`P` is
    /// `1 << page_shift`).
    fn expand_pages<const P: usize>(&self, out: &mut [u16; ENTRIES]) {
        debug_assert_eq!(P, 1 << self.page_shift);
        let words = |chunk: &mut [u16], src: &[u8], addend: u16| {
            for (o, w) in chunk.iter_mut().zip(src.chunks_exact(2)) {
                *o = u16::from_le_bytes([w[0], w[1]]).wrapping_add(addend);
            }
        };
        for (p, chunk) in out.chunks_exact_mut(P).enumerate() {
            let d = u32_at(self.dir, 4 * p);
            let addend = (d >> 16) as u16;
            // `from_bytes` checked that every entry of every page (and 4 bytes
            // at its last one) is inside the pool: these slices are in bounds.
            match self.layout {
                Layout::Bytes => {
                    let start = ((d & 0x7FFF) as usize) << self.offset_scale;
                    if d & WIDE_BIT == 0 {
                        let src = &self.pool[start..start + P];
                        for (o, &b) in chunk.iter_mut().zip(src) {
                            *o = u16::from(b).wrapping_add(addend);
                        }
                    } else {
                        words(chunk, &self.pool[start..start + 2 * P], addend);
                    }
                }
                Layout::Words => {
                    let start = 2 * (d & 0xFFFF) as usize;
                    words(chunk, &self.pool[start..start + 2 * P], addend);
                }
            }
        }
    }

    /// Validates `bytes` as a stored form ([`CompactRef::from_bytes`]) and
    /// expands it into `out` ([`CompactRef::expand_into`]). On a form that
    /// does not decode (a damaged header, a pool of the wrong length, a page
    /// that reads past the pool) it returns that [`StoredFormError`] and has
    /// not written to `out`: the validation comes before the first write, so
    /// no partly written table is ever returned as a table.
    ///
    /// ```
    /// use actlut_core::compact::{CompactRef, StoredFormError};
    /// let mut out = [7u16; 65_536];
    /// let err = CompactRef::expand_bytes_into(b"ACTLUTC2 not a stored form", &mut out);
    /// assert_eq!(err, Err(StoredFormError::BadMagic));
    /// assert!(out.iter().all(|&v| v == 7));
    /// ```
    pub fn expand_bytes_into(
        bytes: &'a [u8],
        out: &mut [u16; ENTRIES],
    ) -> Result<CompactRef<'a>, StoredFormError> {
        let view = CompactRef::from_bytes(bytes)?;
        view.expand_into(out);
        Ok(view)
    }

    /// The full table on the heap (the `alloc` feature): 128 KiB, filled by
    /// [`CompactRef::expand_into`].
    #[cfg(feature = "alloc")]
    pub fn expand(&self) -> alloc::boxed::Box<[u16; ENTRIES]> {
        let mut out: alloc::boxed::Box<[u16; ENTRIES]> = alloc::vec![0u16; ENTRIES]
            .into_boxed_slice()
            .try_into()
            .expect("a Vec of ENTRIES elements");
        self.expand_into(&mut out);
        out
    }

    /// The layout of the pool and the directory entries.
    pub const fn layout(&self) -> Layout {
        self.layout
    }

    /// `k`: pages hold `2^k` entries.
    pub const fn page_shift(&self) -> u32 {
        self.page_shift
    }

    /// Page starts are `offset << offset_scale` bytes into the pool.
    pub const fn offset_scale(&self) -> u32 {
        self.offset_scale
    }

    /// The directory's bytes: `65,536 >> k` little-endian `u32` entries.
    pub const fn dir_bytes(&self) -> &'a [u8] {
        self.dir
    }

    /// The pool's bytes. Any 4-byte read at any entry of any page is inside it.
    pub const fn pool(&self) -> &'a [u8] {
        self.pool
    }

    /// Length of the stored form in bytes.
    pub const fn stored_len(&self) -> usize {
        HEADER_BYTES + self.dir.len() + self.pool.len()
    }
}
