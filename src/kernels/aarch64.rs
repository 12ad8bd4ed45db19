//! NEON byte lookup: `tbl` over the first 64 entries, then `tbx` over each
//! further 64 with the index lowered by 64 (out-of-range lanes keep their
//! value). The module is compiled only where NEON is a target feature, so not
//! on soft-float targets such as `aarch64-unknown-none-softfloat`.

use core::arch::aarch64::*;

use super::driver::{kernel_fn, Block};

/// NEON byte lookup, 16 bytes per block.
pub(super) struct Neon;

impl Block<[u8; 256]> for Neon {
    const LANES: usize = 16;
    /// The table as four quadruples of 16-byte registers.
    type State = [uint8x16x4_t; 4];

    #[inline(always)]
    unsafe fn prepare(table: &[u8; 256]) -> [uint8x16x4_t; 4] {
        // SAFETY: NEON is a target feature of this build (the module's cfg);
        // each quadruple reads 64 bytes at 64·k, inside the 256-byte table.
        core::array::from_fn(|k| unsafe { vld1q_u8_x4(table.as_ptr().add(64 * k)) })
    }

    #[inline(always)]
    unsafe fn block(q: &[uint8x16x4_t; 4], _: &[u8; 256], src: *const u8, dst: *mut u8) {
        // SAFETY: NEON is a target feature of this build; the caller vouches for
        // 16 readable bytes at `src` and 16 writable at `dst`; vld1q/vst1q need
        // no alignment; the load precedes the store (in place).
        unsafe {
            let v = vld1q_u8(src);
            let sixty_four = vdupq_n_u8(64);
            let mut r = vqtbl4q_u8(q[0], v);
            let mut idx = v;
            for quad in &q[1..] {
                idx = vsubq_u8(idx, sixty_four);
                r = vqtbx4q_u8(r, *quad, idx);
            }
            vst1q_u8(dst, r);
        }
    }
}

kernel_fn!(#[inline] u8_neon: [u8; 256] => Neon);

/// FP4 shared-scale rows (`kernels/fp4.rs`) with NEON: 8 packed bytes
/// unpacked into 16 codes, each output byte plane looked up with `tbl`, the
/// planes interleaved by one structured store (`st2`/`st4`).
pub(super) struct NeonFp4;

impl<O: crate::element::FloatOutput> Block<super::Fp4Row<O>> for NeonFp4 {
    const LANES: usize = 8;
    /// The row's byte planes.
    type State = [uint8x16_t; 4];

    #[inline(always)]
    unsafe fn prepare(row: &super::Fp4Row<O>) -> [uint8x16_t; 4] {
        // SAFETY: NEON is a target feature of this build; each plane is 16
        // readable bytes.
        core::array::from_fn(|k| unsafe { vld1q_u8(row.planes[k].as_ptr()) })
    }

    #[inline(always)]
    unsafe fn block(
        planes: &[uint8x16_t; 4],
        _: &super::Fp4Row<O>,
        src: *const u8,
        dst: *mut [O; 2],
    ) {
        // SAFETY: NEON is a target feature of this build; the caller vouches
        // for 8 readable bytes at `src` and 8 writable pairs (16 outputs of
        // `O::BYTES` bytes) at `dst`; vld1/vst2/vst4 need no alignment.
        unsafe {
            let v = vcombine_u8(vld1_u8(src), vdup_n_u8(0));
            let lo = vandq_u8(v, vdupq_n_u8(0x0F));
            let hi = vshrq_n_u8::<4>(v);
            let c = vzip1q_u8(lo, hi);
            let dst = dst.cast::<u8>();
            let b0 = vqtbl1q_u8(planes[0], c);
            let b1 = vqtbl1q_u8(planes[1], c);
            if O::BYTES == 2 {
                vst2q_u8(dst, uint8x16x2_t(b0, b1));
            } else {
                let b2 = vqtbl1q_u8(planes[2], c);
                let b3 = vqtbl1q_u8(planes[3], c);
                vst4q_u8(dst, uint8x16x4_t(b0, b1, b2, b3));
            }
        }
    }
}

/// The chunk-and-tail driver with [`NeonFp4`].
///
/// # Safety
///
/// `src` is valid for reads of `len` bytes and `dst` for writes of `len`
/// pairs; they do not overlap.
#[inline]
pub(super) unsafe fn fp4_neon<O: crate::element::FloatOutput>(
    row: &super::Fp4Row<O>,
    src: *const u8,
    dst: *mut [O; 2],
    len: usize,
) {
    // SAFETY: this function's contract is the driver's; NEON is a target
    // feature of this build.
    unsafe { super::driver::run::<super::Fp4Row<O>, NeonFp4>(row, src, dst, len) }
}

/// The blocks of an FP4 table with [`NeonFp4`] (`kernels/fp4.rs`, `run_blocks`).
///
/// # Safety
///
/// The CPU has this function's target features; `packed` is `scales.len() *
/// block_bytes` bytes and `pairs` as many pairs.
#[inline]
pub(super) unsafe fn fp4_blocks_neon<O: crate::element::FloatOutput>(
    rows: &[super::Fp4Row<O>; 256],
    packed: &[u8],
    scales: &[u8],
    pairs: &mut [[O; 2]],
    block_bytes: usize,
) {
    // SAFETY: this function's contract is `run_blocks`'s.
    unsafe { super::fp4::run_blocks::<O, NeonFp4>(rows, packed, scales, pairs, block_bytes) }
}
