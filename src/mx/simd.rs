//! The FP4 (scale, code) lookup with 16-byte shuffles: each block's 16 or 32 codes are
//! unpacked into one byte per element, and every output byte plane of the scale's row is
//! shuffled by them (`pshufb`, `tbl`, `i8x16.swizzle`), then the planes are interleaved into
//! little-endian outputs. Bit-identical to [`super::map_scalar`] (tests/mx.rs checks every
//! kernel on every block count, offset and byte value).
//!
//! Lengths are checked by the caller: `packed.len() == scales.len() * block_bytes` and
//! `out.len() == 2 * packed.len()`, with `block_bytes` 16 (MXFP4) or 8 (NVFP4).

use super::{Output, Row};

#[cfg(target_arch = "x86_64")]
pub(super) use x86::map_ssse3;

#[cfg(target_arch = "aarch64")]
pub(super) use neon::map_neon;

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(super) use wasm::map_simd128;

/// The (block, scale, output) triples of a checked input.
fn blocks<'a, O>(
    packed: &'a [u8],
    scales: &'a [u8],
    out: &'a mut [O],
    block_bytes: usize,
) -> impl Iterator<Item = ((&'a [u8], &'a u8), &'a mut [O])> {
    assert!(block_bytes == 16 || block_bytes == 8);
    assert_eq!(packed.len(), scales.len() * block_bytes);
    assert_eq!(out.len(), 2 * packed.len());
    packed
        .chunks_exact(block_bytes)
        .zip(scales)
        .zip(out.chunks_exact_mut(2 * block_bytes))
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{blocks, Output, Row};
    use core::arch::x86_64::*;

    /// SSSE3 kernel.
    pub(in crate::mx) fn map_ssse3<O: Output>(
        rows: &[Row; 256],
        packed: &[u8],
        scales: &[u8],
        out: &mut [O],
        block_bytes: usize,
    ) {
        assert!(std_detect_ssse3(), "SSSE3 is not available");
        // SAFETY: SSSE3 is available (checked just above); the lengths are checked in
        // `blocks`.
        unsafe { map(rows, packed, scales, out, block_bytes) }
    }

    fn std_detect_ssse3() -> bool {
        crate::mx::Fp4Kernel::Ssse3.is_available()
    }

    #[target_feature(enable = "ssse3")]
    unsafe fn map<O: Output>(
        rows: &[Row; 256],
        packed: &[u8],
        scales: &[u8],
        out: &mut [O],
        block_bytes: usize,
    ) {
        let mask = _mm_set1_epi8(0x0F);
        for ((block, &s), out) in blocks(packed, scales, out, block_bytes) {
            let row = &rows[usize::from(s)];
            // SAFETY: `block` has `block_bytes` (16 or 8) readable bytes.
            let v = unsafe {
                if block_bytes == 16 {
                    _mm_loadu_si128(block.as_ptr().cast())
                } else {
                    _mm_loadl_epi64(block.as_ptr().cast())
                }
            };
            let lo = _mm_and_si128(v, mask);
            let hi = _mm_and_si128(_mm_srli_epi16::<4>(v), mask);
            let dst = out.as_mut_ptr().cast::<u8>();
            // SAFETY: `out` holds 2 · block_bytes elements of O::BYTES bytes: 16 elements
            // from `dst`, and for 16-byte blocks 16 more after them.
            unsafe {
                expand::<O>(row, _mm_unpacklo_epi8(lo, hi), dst);
                if block_bytes == 16 {
                    expand::<O>(row, _mm_unpackhi_epi8(lo, hi), dst.add(16 * O::BYTES));
                }
            }
        }
    }

    /// Writes the 16 outputs of the codes `c` (one per byte, < 16) to `dst`.
    ///
    /// # Safety
    ///
    /// SSSE3 must be available and `dst` valid for `16 * O::BYTES` bytes of writes.
    #[target_feature(enable = "ssse3")]
    #[inline]
    unsafe fn expand<O: Output>(row: &Row, c: __m128i, dst: *mut u8) {
        // SAFETY: each plane is 16 bytes; `dst` is valid per this function's contract.
        unsafe {
            let plane = |k: usize| _mm_loadu_si128(row.planes[k].as_ptr().cast());
            let b0 = _mm_shuffle_epi8(plane(0), c);
            let b1 = _mm_shuffle_epi8(plane(1), c);
            let w01lo = _mm_unpacklo_epi8(b0, b1);
            let w01hi = _mm_unpackhi_epi8(b0, b1);
            if O::BYTES == 2 {
                _mm_storeu_si128(dst.cast(), w01lo);
                _mm_storeu_si128(dst.add(16).cast(), w01hi);
            } else {
                let b2 = _mm_shuffle_epi8(plane(2), c);
                let b3 = _mm_shuffle_epi8(plane(3), c);
                let w23lo = _mm_unpacklo_epi8(b2, b3);
                let w23hi = _mm_unpackhi_epi8(b2, b3);
                _mm_storeu_si128(dst.cast(), _mm_unpacklo_epi16(w01lo, w23lo));
                _mm_storeu_si128(dst.add(16).cast(), _mm_unpackhi_epi16(w01lo, w23lo));
                _mm_storeu_si128(dst.add(32).cast(), _mm_unpacklo_epi16(w01hi, w23hi));
                _mm_storeu_si128(dst.add(48).cast(), _mm_unpackhi_epi16(w01hi, w23hi));
            }
        }
    }
}

#[cfg(target_arch = "aarch64")]
mod neon {
    use super::{blocks, Output, Row};
    use core::arch::aarch64::*;

    /// NEON kernel (NEON is part of the aarch64 baseline).
    pub(in crate::mx) fn map_neon<O: Output>(
        rows: &[Row; 256],
        packed: &[u8],
        scales: &[u8],
        out: &mut [O],
        block_bytes: usize,
    ) {
        for ((block, &s), out) in blocks(packed, scales, out, block_bytes) {
            let row = &rows[usize::from(s)];
            let dst = out.as_mut_ptr().cast::<u8>();
            // SAFETY: NEON is always available on aarch64; `block` has `block_bytes` (16 or 8)
            // readable bytes; `out` holds 2 · block_bytes elements of O::BYTES bytes, which
            // `expand` writes 16 at a time.
            unsafe {
                let v = if block_bytes == 16 {
                    vld1q_u8(block.as_ptr())
                } else {
                    vcombine_u8(vld1_u8(block.as_ptr()), vdup_n_u8(0))
                };
                let lo = vandq_u8(v, vdupq_n_u8(0x0F));
                let hi = vshrq_n_u8::<4>(v);
                expand::<O>(row, vzip1q_u8(lo, hi), dst);
                if block_bytes == 16 {
                    expand::<O>(row, vzip2q_u8(lo, hi), dst.add(16 * O::BYTES));
                }
            }
        }
    }

    /// Writes the 16 outputs of the codes `c` (< 16) to `dst`, interleaving the byte planes
    /// with one structured store (`st2`/`st4`).
    ///
    /// # Safety
    ///
    /// `dst` must be valid for `16 * O::BYTES` bytes of writes.
    #[inline]
    unsafe fn expand<O: Output>(row: &Row, c: uint8x16_t, dst: *mut u8) {
        // SAFETY: each plane is 16 bytes; `dst` is valid per this function's contract.
        unsafe {
            let b0 = vqtbl1q_u8(vld1q_u8(row.planes[0].as_ptr()), c);
            let b1 = vqtbl1q_u8(vld1q_u8(row.planes[1].as_ptr()), c);
            if O::BYTES == 2 {
                vst2q_u8(dst, uint8x16x2_t(b0, b1));
            } else {
                let b2 = vqtbl1q_u8(vld1q_u8(row.planes[2].as_ptr()), c);
                let b3 = vqtbl1q_u8(vld1q_u8(row.planes[3].as_ptr()), c);
                vst4q_u8(dst, uint8x16x4_t(b0, b1, b2, b3));
            }
        }
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod wasm {
    use super::{blocks, Output, Row};
    use core::arch::wasm32::*;

    /// simd128 kernel (enabled at compile time).
    pub(in crate::mx) fn map_simd128<O: Output>(
        rows: &[Row; 256],
        packed: &[u8],
        scales: &[u8],
        out: &mut [O],
        block_bytes: usize,
    ) {
        for ((block, &s), out) in blocks(packed, scales, out, block_bytes) {
            let row = &rows[usize::from(s)];
            // SAFETY: `block` has `block_bytes` (16 or 8) readable bytes.
            let v = unsafe {
                if block_bytes == 16 {
                    v128_load(block.as_ptr().cast())
                } else {
                    v128_load64_zero(block.as_ptr().cast())
                }
            };
            let lo = v128_and(v, u8x16_splat(0x0F));
            let hi = u8x16_shr(v, 4);
            let c0 =
                u8x16_shuffle::<0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23>(lo, hi);
            let c1 = u8x16_shuffle::<8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31>(
                lo, hi,
            );
            let dst = out.as_mut_ptr().cast::<u8>();
            // SAFETY: `out` holds 2 · block_bytes elements of O::BYTES bytes: 16 from `dst`,
            // and for 16-byte blocks 16 more.
            unsafe {
                expand::<O>(row, c0, dst);
                if block_bytes == 16 {
                    expand::<O>(row, c1, dst.add(16 * O::BYTES));
                }
            }
        }
    }

    /// Writes the 16 outputs of the codes `c` (< 16) to `dst`.
    ///
    /// # Safety
    ///
    /// `dst` must be valid for `16 * O::BYTES` bytes of writes.
    #[inline]
    unsafe fn expand<O: Output>(row: &Row, c: v128, dst: *mut u8) {
        // SAFETY: each plane is 16 bytes; `dst` is valid per this function's contract.
        unsafe {
            let plane = |k: usize| v128_load(row.planes[k].as_ptr().cast());
            let b0 = u8x16_swizzle(plane(0), c);
            let b1 = u8x16_swizzle(plane(1), c);
            let w01lo =
                u8x16_shuffle::<0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23>(b0, b1);
            let w01hi = u8x16_shuffle::<8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31>(
                b0, b1,
            );
            if O::BYTES == 2 {
                v128_store(dst.cast(), w01lo);
                v128_store(dst.add(16).cast(), w01hi);
            } else {
                let b2 = u8x16_swizzle(plane(2), c);
                let b3 = u8x16_swizzle(plane(3), c);
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
