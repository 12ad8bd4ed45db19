//! wasm `simd128` byte lookup: `i8x16.swizzle` gives 0 for lane indices ≥ 16, so
//! or-ing the 16 lookups of `v − 16·k` over each 16-entry slice `k` leaves, in
//! every lane, exactly the entry of its own slice.

use core::arch::wasm32::*;

fn load_slices(table: &[u8; 256]) -> [v128; 16] {
    core::array::from_fn(|k| {
        let b = &table[16 * k..16 * k + 16];
        u8x16(
            b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
            b[14], b[15],
        )
    })
}

#[inline(always)]
fn lookup16(slices: &[v128; 16], v: v128) -> v128 {
    let mut r = u8x16_splat(0);
    for (k, s) in slices.iter().enumerate() {
        let idx = u8x16_sub(v, u8x16_splat(16 * k as u8));
        r = v128_or(r, u8x16_swizzle(*s, idx));
    }
    r
}

pub(super) fn map_simd128(table: &[u8; 256], src: &[u8], dst: &mut [u8]) {
    let slices = load_slices(table);
    let mut s = src.chunks_exact(16);
    let mut d = dst.chunks_exact_mut(16);
    for (sc, dc) in (&mut s).zip(&mut d) {
        // SAFETY: `sc` and `dc` are exactly 16 bytes; v128_load/store accept
        // unaligned pointers.
        unsafe {
            v128_store(
                dc.as_mut_ptr().cast(),
                lookup16(&slices, v128_load(sc.as_ptr().cast())),
            )
        }
    }
    super::scalar::map_u8(table, s.remainder(), d.into_remainder());
}

pub(super) fn apply_simd128(table: &[u8; 256], xs: &mut [u8]) {
    let slices = load_slices(table);
    let mut c = xs.chunks_exact_mut(16);
    for xc in &mut c {
        // SAFETY: `xc` is exactly 16 bytes; v128_load/store accept unaligned pointers.
        unsafe {
            v128_store(
                xc.as_mut_ptr().cast(),
                lookup16(&slices, v128_load(xc.as_ptr().cast())),
            )
        }
    }
    super::scalar::apply_u8(table, c.into_remainder());
}
