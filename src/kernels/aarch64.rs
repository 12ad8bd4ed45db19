//! NEON byte lookup: `tbl` over the first 64 entries, then `tbx` over each
//! further 64 with the index lowered by 64 (out-of-range lanes keep their value).

use core::arch::aarch64::*;

/// The table as four quadruples of 16-byte registers.
fn load_quads(table: &[u8; 256]) -> [uint8x16x4_t; 4] {
    // SAFETY: each quadruple reads 64 bytes at 64·k, inside the 256-byte table;
    // NEON is always enabled on aarch64.
    core::array::from_fn(|k| unsafe { vld1q_u8_x4(table.as_ptr().add(64 * k)) })
}

#[inline(always)]
fn lookup16(q: &[uint8x16x4_t; 4], v: uint8x16_t) -> uint8x16_t {
    // SAFETY: NEON is always enabled on aarch64; these are register operations.
    unsafe {
        let sixty_four = vdupq_n_u8(64);
        let mut r = vqtbl4q_u8(q[0], v);
        let mut idx = v;
        for quad in &q[1..] {
            idx = vsubq_u8(idx, sixty_four);
            r = vqtbx4q_u8(r, *quad, idx);
        }
        r
    }
}

pub(super) fn map_neon(table: &[u8; 256], src: &[u8], dst: &mut [u8]) {
    let q = load_quads(table);
    let mut s = src.chunks_exact(16);
    let mut d = dst.chunks_exact_mut(16);
    for (sc, dc) in (&mut s).zip(&mut d) {
        // SAFETY: `sc` and `dc` are exactly 16 bytes; vld1q/vst1q need no alignment.
        unsafe { vst1q_u8(dc.as_mut_ptr(), lookup16(&q, vld1q_u8(sc.as_ptr()))) }
    }
    super::scalar::map_u8(table, s.remainder(), d.into_remainder());
}

pub(super) fn apply_neon(table: &[u8; 256], xs: &mut [u8]) {
    let q = load_quads(table);
    let mut c = xs.chunks_exact_mut(16);
    for xc in &mut c {
        // SAFETY: `xc` is exactly 16 bytes; vld1q/vst1q need no alignment.
        unsafe { vst1q_u8(xc.as_mut_ptr(), lookup16(&q, vld1q_u8(xc.as_ptr()))) }
    }
    super::scalar::apply_u8(table, c.into_remainder());
}
