//! The compact 16-bit lookup (docs/compact.md): the parts of a validated
//! [`CompactRef`] every block reads, the per-element decode without bounds
//! checks, and the portable block.
//!
//! Both layouts run through one decode. With `d = dir[x >> k]`, `i = x & (P - 1)`:
//!
//! ```text
//! wide = -(d >> 15 & 1) | force
//! at   = ((d & offset_mask) << scale) + i + (i & wide)
//! t[x] = (u16le(pool[at..]) & (wide | 0xFF)) + (d >> 16)      (mod 2^16)
//! ```
//!
//! The bytes layout has `offset_mask = 0x7FFF`, its own `scale` and
//! `force = 0`: exactly its decode. The words layout has `offset_mask =
//! 0xFFFF`, `scale = 1` and `force = !0`, so `at = 2 (offset + i)` and the
//! mask keeps all 16 bits: exactly its decode too. One `or` per element (or
//! per vector) buys both layouts the same kernels.
//!
//! Why no read is out of bounds: [`CompactRef::from_bytes`] is the only
//! constructor of a `CompactRef`, and it accepts a stored form only if the
//! directory holds `65,536 >> k` entries of 4 bytes (so `4 (x >> k) + 4` is
//! inside it for every `x`) and a **4-byte** read at every entry of every page
//! (`at` above, for every `i < P`) lies inside the pool. The blocks read 4 bytes
//! at a directory entry and 2 or 4 bytes at `at`.

use actlut_codegen::compact::{CompactRef, Layout};

use super::driver::{kernel_fn, Block};

/// What a block needs from a compact table: its two parts as pointers and the
/// constants of the unified decode.
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
    /// The bits of a directory entry that hold the page start.
    pub offset_mask: u32,
    /// Page starts are `(d & offset_mask) << scale` bytes into the pool.
    pub scale: u32,
    /// Or-ed into the width mask: all ones for the words layout.
    pub force: u32,
}

impl Parts {
    /// The parts of `table`.
    #[inline(always)]
    pub fn of(table: &CompactRef<'_>) -> Parts {
        let k = table.page_shift();
        let (offset_mask, scale, force) = match table.layout() {
            Layout::Bytes => (0x7FFF, table.offset_scale(), 0),
            Layout::Words => (0xFFFF, 1, !0),
        };
        Parts {
            dir: table.dir_bytes().as_ptr(),
            pool: table.pool().as_ptr(),
            k,
            in_page: (1 << k) - 1,
            offset_mask,
            scale,
            force,
        }
    }

    /// The entry for input `x`: `table.get(x)` without bounds checks.
    ///
    /// # Safety
    ///
    /// `self` is [`Parts::of`] a [`CompactRef`] that is still borrowed (its
    /// bytes are alive).
    #[inline(always)]
    pub unsafe fn decode(&self, x: u16) -> u16 {
        let x = u32::from(x);
        // SAFETY: `x >> k < 65,536 >> k`, the directory's length in entries
        // (validated by `from_bytes`, see the module docs), so the 4 bytes at
        // `4 (x >> k)` are inside it; read_unaligned needs no alignment.
        let d = u32::from_le(unsafe {
            self.dir
                .add(4 * (x >> self.k) as usize)
                .cast::<u32>()
                .read_unaligned()
        });
        let i = x & self.in_page;
        let wide = (((d << 16) as i32 >> 31) as u32) | self.force;
        let at = ((d & self.offset_mask) << self.scale) + i + (i & wide);
        // SAFETY: `at` is entry `i < P` of the page of `d`, where `from_bytes`
        // checked that a 4-byte read lies inside the pool; this reads 2.
        let raw =
            u16::from_le(unsafe { self.pool.add(at as usize).cast::<u16>().read_unaligned() });
        (raw & (wide as u16 | 0xFF)).wrapping_add((d >> 16) as u16)
    }
}

/// The portable compact block: eight indices read first, then eight decodes
/// without bounds checks (the validated view vouches for every read), each
/// result stored on its own.
pub(super) struct Scalar;

impl Block<CompactRef<'_>> for Scalar {
    const LANES: usize = 8;
    type State = Parts;

    #[inline(always)]
    unsafe fn prepare(table: &CompactRef<'_>) -> Parts {
        Parts::of(table)
    }

    #[inline(always)]
    unsafe fn block(p: &Parts, _: &CompactRef<'_>, src: *const u16, dst: *mut u16) {
        // SAFETY: the caller vouches for 8 readable elements at `src`.
        let idx: [u16; 8] = core::array::from_fn(|k| unsafe { src.add(k).read() });
        for (k, &x) in idx.iter().enumerate() {
            // SAFETY: `p` is the parts of the table the driver holds borrowed;
            // the caller vouches for 8 writable elements at `dst`; all indices
            // were read above (in place).
            unsafe { dst.add(k).write(p.decode(x)) };
        }
    }
}

kernel_fn!(#[inline] compact_scalar: compact => Scalar);
