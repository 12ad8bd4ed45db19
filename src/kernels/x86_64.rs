//! AVX2 byte lookup: 16 `vpshufb` lookups (one per high nibble, each over 16
//! table entries broadcast to both lanes) and a 15-`vpblendvb` tree that picks,
//! per byte, the lookup of its high nibble.

use core::arch::x86_64::*;

/// The 16 sixteen-entry slices of the table, each broadcast to both 128-bit lanes.
#[target_feature(enable = "avx2")]
fn load_luts(table: &[u8; 256]) -> [__m256i; 16] {
    core::array::from_fn(|k| {
        let mut lane = [0u8; 16];
        lane.copy_from_slice(&table[16 * k..16 * k + 16]);
        // SAFETY: `lane` is 16 readable bytes; loadu has no alignment requirement.
        let v = unsafe { _mm_loadu_si128(lane.as_ptr().cast()) };
        _mm256_broadcastsi128_si256(v)
    })
}

/// `table[v]` for the 32 bytes of `v`.
#[target_feature(enable = "avx2")]
fn lookup32(luts: &[__m256i; 16], v: __m256i) -> __m256i {
    let low = _mm256_and_si256(v, _mm256_set1_epi8(0x0F));
    // vpblendvb selects by each byte's top bit: move bit 4, 5, 6 of every byte
    // there (16-bit shifts carry bits across bytes only below bit 3, never into
    // bit 7 of the receiving byte).
    let sel = [
        _mm256_slli_epi16::<3>(v),
        _mm256_slli_epi16::<2>(v),
        _mm256_slli_epi16::<1>(v),
        v,
    ];
    let mut level: [__m256i; 16] = core::array::from_fn(|k| _mm256_shuffle_epi8(luts[k], low));
    let mut width = 16;
    for s in sel {
        width /= 2;
        for j in 0..width {
            level[j] = _mm256_blendv_epi8(level[2 * j], level[2 * j + 1], s);
        }
    }
    level[0]
}

/// `dst[i] = table[src[i]]`; `src` and `dst` have the same length.
pub(super) fn map_avx2(table: &[u8; 256], src: &[u8], dst: &mut [u8]) {
    debug_assert_eq!(src.len(), dst.len());
    // SAFETY: the caller (`ByteKernel::map`) checked that AVX2 is available.
    unsafe { map_avx2_impl(table, src, dst) }
}

#[target_feature(enable = "avx2")]
fn map_avx2_impl(table: &[u8; 256], src: &[u8], dst: &mut [u8]) {
    let luts = load_luts(table);
    let mut s = src.chunks_exact(32);
    let mut d = dst.chunks_exact_mut(32);
    for (sc, dc) in (&mut s).zip(&mut d) {
        // SAFETY: `sc` and `dc` are exactly 32 bytes long; loadu/storeu have no
        // alignment requirement.
        unsafe {
            let v = _mm256_loadu_si256(sc.as_ptr().cast());
            _mm256_storeu_si256(dc.as_mut_ptr().cast(), lookup32(&luts, v));
        }
    }
    super::scalar::map_u8(table, s.remainder(), d.into_remainder());
}

/// `xs[i] = table[xs[i]]`.
pub(super) fn apply_avx2(table: &[u8; 256], xs: &mut [u8]) {
    // SAFETY: the caller (`ByteKernel::apply`) checked that AVX2 is available.
    unsafe { apply_avx2_impl(table, xs) }
}

#[target_feature(enable = "avx2")]
fn apply_avx2_impl(table: &[u8; 256], xs: &mut [u8]) {
    let luts = load_luts(table);
    let mut c = xs.chunks_exact_mut(32);
    for xc in &mut c {
        // SAFETY: `xc` is exactly 32 bytes long; loadu/storeu have no alignment
        // requirement.
        unsafe {
            let v = _mm256_loadu_si256(xc.as_ptr().cast());
            _mm256_storeu_si256(xc.as_mut_ptr().cast(), lookup32(&luts, v));
        }
    }
    super::scalar::apply_u8(table, c.into_remainder());
}
