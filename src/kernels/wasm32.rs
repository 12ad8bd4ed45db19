//! wasm `simd128` kernels.
//!
//! - Byte lookup: `i8x16.swizzle` gives 0 for lane indices ≥ 16, so or-ing the
//!   16 lookups of `v − 16·k` over each 16-entry slice `k` leaves, in every
//!   lane, exactly the entry of its own slice.
//! - 16-bit lookup: eight indices from two 64-bit loads, each entry put into its
//!   lane with `i16x8.replace_lane`, one 128-bit store.

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

/// The eight table entries of the eight indices of `x` (`x.len() == 8`).
#[inline(always)]
fn lookup8(table: &[u16; 65_536], x: &[u16]) -> v128 {
    assert!(x.len() == 8);
    // SAFETY: `x` has 8 elements, so bytes 0..8 and 8..16 of it are readable;
    // read_unaligned has no alignment requirement. wasm is little-endian, so
    // bits 16k..16k+16 of each word are element k of its half.
    let (a, b) = unsafe {
        let p = x.as_ptr().cast::<u64>();
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
    u16x8_replace_lane::<7>(v, t(b, 3))
}

/// `ys[i] = table[xs[i]]` for a 65,536-entry table, eight elements per step.
pub(super) fn map_u16_simd128(table: &[u16; 65_536], xs: &[u16], ys: &mut [u16]) {
    debug_assert_eq!(xs.len(), ys.len());
    let mut xc = xs.chunks_exact(8);
    let mut yc = ys.chunks_exact_mut(8);
    for (x, y) in (&mut xc).zip(&mut yc) {
        let v = lookup8(table, x);
        // SAFETY: `y` is exactly 8 u16 = 16 writable bytes; v128_store has no
        // alignment requirement.
        unsafe { v128_store(y.as_mut_ptr().cast(), v) };
    }
    super::scalar::map_u16(table, xc.remainder(), yc.into_remainder());
}

/// `xs[i] = table[xs[i]]`: each group of eight is read before it is written.
pub(super) fn apply_u16_simd128(table: &[u16; 65_536], xs: &mut [u16]) {
    let mut c = xs.chunks_exact_mut(8);
    for x in &mut c {
        let v = lookup8(table, x);
        // SAFETY: `x` is exactly 8 u16 = 16 writable bytes; v128_store has no
        // alignment requirement.
        unsafe { v128_store(x.as_mut_ptr().cast(), v) };
    }
    super::scalar::apply_u16(table, c.into_remainder());
}
