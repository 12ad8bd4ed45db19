//! The compact 16-bit lookup (docs/compact.md): the parts of a validated
//! [`CompactRef`] every block reads, the per-element decode without bounds
//! checks, and the portable block.
//!
//! With `d = dir[x >> k]` and `i = x & (P - 1)`, two decodes give the same bits:
//!
//! - **per element** ([`Parts::decode`], the portable block): words layout
//!   `pool16[(d & 0xFFFF) + i] + (d >> 16)`; bytes layout a branch on the
//!   width bit, `pool[s + i]` for a narrow page (one byte load: as few
//!   instructions as the words layout) or `u16le(pool[s + 2i..])` for a wide
//!   one, plus `d >> 16`, with `s = (d & 0x7FFF) << scale`; `d & 0xFFFF`
//!   and `d >> 16` are read as the entry's two 16-bit halves (two loads, no
//!   mask or shift);
//! - **branch-free**, for the gather kernels (every lane its own page):
//!
//! ```text
//! wide = -(d >> 15 & 1) | force
//! at   = ((d & offset_mask) << scale) + i + (i & wide)
//! t[x] = (u16le(pool[at..]) & (wide | 0xFF)) + (d >> 16)      (mod 2^16)
//! ```
//!
//! where the bytes layout has `offset_mask = 0x7FFF`, its own `scale` and
//! `force = 0`, and the words layout `offset_mask = 0xFFFF`, `scale = 1` and
//! `force = !0` (so `at = 2 (offset + i)` and the mask keeps all 16 bits).
//!
//! Every block is compiled once per *form* (the bytes layout at each of its
//! three offset scales, and the words layout: a const parameter), so these
//! are constants and fold away; the kernel function matches the table's form
//! once per slice.
//!
//! Why no read is out of bounds: [`CompactRef::from_bytes`] is the only
//! constructor of a `CompactRef`, and it accepts a stored form only if the
//! directory holds `65,536 >> k` entries of 4 bytes (so `4 (x >> k) + 4` is
//! inside it for every `x`) and a **4-byte** read at every entry of every page
//! (`at` above, for every `i < P`) lies inside the pool. The blocks read 4 bytes
//! at a directory entry and 2 or 4 bytes at `at`.

use actlut_core::compact::{CompactRef, Layout, WIDE_BIT};

use super::driver::{kernel_fn, Block};

/// The four decodes, one per stored form, as the const parameter of the
/// blocks: the kernel function matches on the table's form once per slice and
/// runs the block compiled for it, so the decode has no run-time constants
/// (no variable shift, no `force`).
pub(super) const BYTES0: u8 = 0;
/// Bytes layout, page starts in units of 2 bytes.
pub(super) const BYTES1: u8 = 1;
/// Bytes layout, page starts in units of 4 bytes.
pub(super) const BYTES2: u8 = 2;
/// Words layout.
pub(super) const WORDS: u8 = 3;

/// The form of `table`: [`BYTES0`], [`BYTES1`], [`BYTES2`] or [`WORDS`].
#[inline(always)]
pub(super) fn form(table: &CompactRef<'_>) -> u8 {
    match table.layout() {
        // `from_bytes` accepts scales 0..=2 only.
        Layout::Bytes => table.offset_scale().min(2) as u8,
        Layout::Words => WORDS,
    }
}

/// What a block needs from a compact table: its two parts as pointers and its
/// page shift.
#[derive(Clone, Copy)]
pub(super) struct Parts {
    /// The directory: `65,536 >> k` little-endian `u32`s.
    pub dir: *const u8,
    /// The pool: a 4-byte read at any entry of any page is inside it.
    pub pool: *const u8,
    /// `k`: pages of `2^k` entries.
    pub k: u32,
    /// `2^k - 1`.
    pub in_page: u32,
}

impl Parts {
    /// The parts of `table`, once its stored header in memory is checked
    /// against the view ([`CompactRef::check_header`]: a panic for an edited
    /// binary, never a decode with the wrong parameters).
    #[inline(always)]
    pub fn of(table: &CompactRef<'_>) -> Parts {
        table.check_header();
        let k = table.page_shift();
        Parts {
            dir: table.dir_bytes().as_ptr(),
            pool: table.pool().as_ptr(),
            k,
            in_page: (1 << k) - 1,
        }
    }

    /// The entry for input `x` of a table of form `F`: `table.get(x)` without
    /// bounds checks.
    ///
    /// # Safety
    ///
    /// `self` is [`Parts::of`] a [`CompactRef`] of form `F` ([`form`]) that is
    /// still borrowed (its bytes are alive).
    #[inline(always)]
    pub unsafe fn decode<const F: u8>(&self, x: u16) -> u16 {
        let x = u32::from(x);
        // The directory entry as its two halves, each read on its own: the
        // start (with the width bit) and the addend. Two loads instead of a
        // mask and a shift of one: on a Zen 5 the portable loop ran 15% faster
        // so where its branch is predicted, 1–3% on fresh inputs (BENCHMARKS.md,
        // "The same run on an AMD Zen 5 with AVX-512").
        // SAFETY: `x >> k < 65,536 >> k`, the directory's length in entries
        // (validated by `from_bytes`, see the module docs), so the 4 bytes at
        // `4 (x >> k)` are inside it: these read its first 2 and its last 2;
        // read_unaligned needs no alignment.
        let (low, addend) = unsafe {
            let entry = self.dir.add(4 * (x >> self.k) as usize);
            (
                u16::from_le(entry.cast::<u16>().read_unaligned()),
                u16::from_le(entry.add(2).cast::<u16>().read_unaligned()),
            )
        };
        let (low, i) = (u32::from(low), x & self.in_page);
        if F == WORDS {
            let at = 2 * (low + i);
            // SAFETY: `at` is entry `i < P` of this entry's page, where
            // `from_bytes` checked that a 4-byte read lies inside the pool;
            // this reads 2.
            let raw = unsafe { self.pool.add(at as usize).cast::<u16>().read_unaligned() };
            return u16::from_le(raw).wrapping_add(addend);
        }
        // A branch on the page's width, not the branch-free mask: a narrow
        // page (all but 1–23 pages of every shipped table) is then one byte
        // load at `start + i`, where the start is the low half itself (its
        // width bit is clear), and the branch is mispredicted only when an
        // input lands on a wide page.
        let raw = if low & WIDE_BIT == 0 {
            // SAFETY: as below; this reads 1 byte.
            u16::from(unsafe { self.pool.add(((low << F) + i) as usize).read() })
        } else {
            let start = (low & 0x7FFF) << F;
            // SAFETY: `start + 2i` is entry `i < P` of this entry's wide page,
            // where `from_bytes` checked that a 4-byte read lies inside the
            // pool; this reads 2.
            u16::from_le(unsafe {
                self.pool
                    .add((start + 2 * i) as usize)
                    .cast::<u16>()
                    .read_unaligned()
            })
        };
        raw.wrapping_add(addend)
    }
}

/// The portable compact block for form `F`: eight elements, each index read,
/// decoded without bounds checks (the validated view vouches for every read)
/// and its result stored before the next index is read. In place that is
/// still right (element `k`'s store overwrites only index `k`, already read),
/// and it keeps the block's registers free: reading all eight indices first
/// held them in eight registers and spilled the slice pointers, which cost
/// the words layout a fifth of its speed on a Zen 5 (0.50 against 0.39 ns
/// per element).
pub(super) struct Scalar<const F: u8>;

impl<const F: u8> Block<CompactRef<'_>> for Scalar<F> {
    const LANES: usize = 8;
    type State = Parts;

    #[inline(always)]
    unsafe fn prepare(table: &CompactRef<'_>) -> Parts {
        Parts::of(table)
    }

    #[inline(always)]
    unsafe fn block(p: &Parts, _: &CompactRef<'_>, src: *const u16, dst: *mut u16) {
        for k in 0..8 {
            // SAFETY: the caller vouches for 8 readable elements at `src` and 8
            // writable at `dst`, either apart or at the same address (then the
            // store to `dst + k` follows the read of `src + k` and precedes
            // only reads of later indices); `p` is the parts of the table the
            // driver holds borrowed, of form `F` (the kernel function matched
            // it).
            unsafe {
                let x = src.add(k).read();
                dst.add(k).write(p.decode::<F>(x));
            }
        }
    }
}

kernel_fn!(#[inline] compact_scalar: compact => Scalar);
