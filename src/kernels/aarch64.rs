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
