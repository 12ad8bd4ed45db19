//! wasm `simd128` blocks (the module is compiled only with the `simd128`
//! target feature).
//!
//! - Byte lookup: `i8x16.swizzle` gives 0 for lane indices ≥ 16, so or-ing the
//!   16 lookups of `v − 16·k` over each 16-entry slice `k` leaves, in every
//!   lane, exactly the entry of its own slice.
//! - 16-bit lookup: eight indices from two 64-bit loads, each entry put into its
//!   lane with `i16x8.replace_lane`, one 128-bit store.
//!
//! Compact tables have no `simd128` block: the lane kernel (each lane the
//! scalar decode, put in place with `replace_lane`) ran slower under node than
//! the portable loop on both layouts (docs/compact.md, "Which kernel runs").

use core::arch::wasm32::*;

use super::driver::{kernel_fn, Block};

/// `simd128` blocks: 16 bytes of a byte table, or 8 elements of a 16-bit table.
pub(super) struct Simd128;

impl Block<[u8; 256]> for Simd128 {
    const LANES: usize = 16;
    /// The table as 16 slices of 16 entries.
    type State = [v128; 16];

    #[inline(always)]
    unsafe fn prepare(table: &[u8; 256]) -> [v128; 16] {
        core::array::from_fn(|k| {
            let b = &table[16 * k..16 * k + 16];
            u8x16(
                b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12],
                b[13], b[14], b[15],
            )
        })
    }

    #[inline(always)]
    unsafe fn block(slices: &[v128; 16], _: &[u8; 256], src: *const u8, dst: *mut u8) {
        // SAFETY: the caller vouches for 16 readable bytes at `src`; v128_load
        // accepts unaligned pointers.
        let v = unsafe { v128_load(src.cast()) };
        let mut r = u8x16_splat(0);
        for (k, s) in slices.iter().enumerate() {
            let idx = u8x16_sub(v, u8x16_splat(16 * k as u8));
            r = v128_or(r, u8x16_swizzle(*s, idx));
        }
        // SAFETY: the caller vouches for 16 writable bytes at `dst`; v128_store
        // accepts unaligned pointers; the load above precedes it (in place).
        unsafe { v128_store(dst.cast(), r) };
    }
}

impl Block<[u16; 65_536]> for Simd128 {
    const LANES: usize = 8;
    type State = ();

    #[inline(always)]
    unsafe fn prepare(_: &[u16; 65_536]) {}

    #[inline(always)]
    unsafe fn block(_: &(), table: &[u16; 65_536], src: *const u16, dst: *mut u16) {
        // SAFETY: the caller vouches for 8 readable u16 = 16 bytes at `src`;
        // read_unaligned has no alignment requirement. wasm is little-endian, so
        // bits 16k..16k+16 of each word are element k of its half.
        let (a, b) = unsafe {
            let p = src.cast::<u64>();
            (p.read_unaligned(), p.add(1).read_unaligned())
        };
        // A u16 index into a 65,536-entry table needs no bounds check.
        let t = |w: u64, k: u32| table[usize::from((w >> (16 * k)) as u16)];
        let v = u16x8_splat(t(a, 0));
        let v = u16x8_replace_lane::<1>(v, t(a, 1));
        let v = u16x8_replace_lane::<2>(v, t(a, 2));
        let v = u16x8_replace_lane::<3>(v, t(a, 3));
        let v = u16x8_replace_lane::<4>(v, t(b, 0));
        let v = u16x8_replace_lane::<5>(v, t(b, 1));
        let v = u16x8_replace_lane::<6>(v, t(b, 2));
        let v = u16x8_replace_lane::<7>(v, t(b, 3));
        // SAFETY: the caller vouches for 8 writable u16 = 16 bytes at `dst`;
        // v128_store has no alignment requirement; the indices were read above.
        unsafe { v128_store(dst.cast(), v) };
    }
}

kernel_fn!(#[inline] u8_simd128: [u8; 256] => Simd128);
kernel_fn!(#[inline] u16_simd128: [u16; 65_536] => Simd128);

/// FP4 shared-scale rows (`kernels/fp4.rs`) with `simd128`: 8 packed bytes
/// unpacked into 16 codes, each output byte plane looked up with
/// `i8x16.swizzle`, the planes interleaved by shuffles.
pub(super) struct Simd128Fp4;

impl<O: crate::element::FloatOutput> Block<super::Fp4Row<O>> for Simd128Fp4 {
    const LANES: usize = 8;
    /// The row's byte planes.
    type State = [v128; 4];

    #[inline(always)]
    unsafe fn prepare(row: &super::Fp4Row<O>) -> [v128; 4] {
        // SAFETY: each plane is 16 readable bytes; v128_load needs no alignment.
        core::array::from_fn(|k| unsafe { v128_load(row.planes[k].as_ptr().cast()) })
    }

    #[inline(always)]
    unsafe fn block(planes: &[v128; 4], _: &super::Fp4Row<O>, src: *const u8, dst: *mut [O; 2]) {
        // SAFETY: the caller vouches for 8 readable bytes at `src` and 8
        // writable pairs (16 outputs of `O::BYTES` bytes) at `dst`; the loads
        // and stores need no alignment.
        unsafe {
            let v = v128_load64_zero(src.cast());
            let lo = v128_and(v, u8x16_splat(0x0F));
            let hi = u8x16_shr(v, 4);
            let c = u8x16_shuffle::<0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23>(lo, hi);
            let dst = dst.cast::<u8>();
            let b0 = u8x16_swizzle(planes[0], c);
            let b1 = u8x16_swizzle(planes[1], c);
            let w01lo =
                u8x16_shuffle::<0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23>(b0, b1);
            let w01hi = u8x16_shuffle::<8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31>(
                b0, b1,
            );
            if O::BYTES == 2 {
                v128_store(dst.cast(), w01lo);
                v128_store(dst.add(16).cast(), w01hi);
            } else {
                let b2 = u8x16_swizzle(planes[2], c);
                let b3 = u8x16_swizzle(planes[3], c);
                let w23lo =
                    u8x16_shuffle::<0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23>(b2, b3);
                let w23hi =
                    u8x16_shuffle::<8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31>(
                        b2, b3,
                    );
                v128_store(
                    dst.cast(),
                    u16x8_shuffle::<0, 8, 1, 9, 2, 10, 3, 11>(w01lo, w23lo),
                );
                v128_store(
                    dst.add(16).cast(),
                    u16x8_shuffle::<4, 12, 5, 13, 6, 14, 7, 15>(w01lo, w23lo),
                );
                v128_store(
                    dst.add(32).cast(),
                    u16x8_shuffle::<0, 8, 1, 9, 2, 10, 3, 11>(w01hi, w23hi),
                );
                v128_store(
                    dst.add(48).cast(),
                    u16x8_shuffle::<4, 12, 5, 13, 6, 14, 7, 15>(w01hi, w23hi),
                );
            }
        }
    }
}

/// The chunk-and-tail driver with [`Simd128Fp4`].
///
/// # Safety
///
/// `src` is valid for reads of `len` bytes and `dst` for writes of `len`
/// pairs; they do not overlap.
#[inline]
pub(super) unsafe fn fp4_simd128<O: crate::element::FloatOutput>(
    row: &super::Fp4Row<O>,
    src: *const u8,
    dst: *mut [O; 2],
    len: usize,
) {
    // SAFETY: this function's contract is the driver's; simd128 is a target
    // feature of this build.
    unsafe { super::driver::run::<super::Fp4Row<O>, Simd128Fp4>(row, src, dst, len) }
}

/// The blocks of an FP4 table with [`Simd128Fp4`] (`kernels/fp4.rs`, `run_blocks`).
///
/// # Safety
///
/// The CPU has this function's target features; `packed` is `scales.len() *
/// block_bytes` bytes and `pairs` as many pairs.
#[inline]
pub(super) unsafe fn fp4_blocks_simd128<O: crate::element::FloatOutput>(
    rows: &[super::Fp4Row<O>; 256],
    packed: &[u8],
    scales: &[u8],
    pairs: &mut [[O; 2]],
    block_bytes: usize,
) {
    // SAFETY: this function's contract is `run_blocks`'s.
    unsafe { super::fp4::run_blocks::<O, Simd128Fp4>(rows, packed, scales, pairs, block_bytes) }
}
