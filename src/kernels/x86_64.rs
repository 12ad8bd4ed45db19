//! x86_64 kernels.
//!
//! - 256-entry byte lookup with AVX2: 16 `vpshufb` lookups (one per high nibble,
//!   each over 16 table entries broadcast to both lanes) and a 15-`vpblendvb`
//!   tree that picks, per byte, the lookup of its high nibble.
//! - 65,536-entry 16-bit lookup with SSE2: indices from 64-bit loads, table
//!   loads folded into `pinsrw`, one 128-bit store per eight elements.

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

/// `ys[i] = table[xs[i]]` for a 65,536-entry table, eight elements per step:
/// the eight indices come from two 64-bit loads and are split with shifts, the
/// eight table loads are folded into `pinsrw` (SSE2, every x86_64 CPU), and the
/// result is one 128-bit store. That is 11 memory operations per 8 elements
/// where the plain loop issues 24 (index load, table load and store each).
#[cfg(target_feature = "sse2")]
pub(super) fn map_u16_sse2(table: &[u16; 65_536], xs: &[u16], ys: &mut [u16]) {
    debug_assert_eq!(xs.len(), ys.len());
    let mut xc = xs.chunks_exact(8);
    let mut yc = ys.chunks_exact_mut(8);
    for (x, y) in (&mut xc).zip(&mut yc) {
        let v = lookup8(table, x);
        // SAFETY: `y` is exactly 8 u16 = 16 writable bytes; storeu has no
        // alignment requirement.
        unsafe { _mm_storeu_si128(y.as_mut_ptr().cast(), v) };
    }
    super::scalar::map_u16(table, xc.remainder(), yc.into_remainder());
}

/// `xs[i] = table[xs[i]]` with the kernel of [`map_u16_sse2`]: each group of
/// eight is read completely before it is overwritten.
#[cfg(target_feature = "sse2")]
pub(super) fn apply_u16_sse2(table: &[u16; 65_536], xs: &mut [u16]) {
    let mut c = xs.chunks_exact_mut(8);
    for x in &mut c {
        let v = lookup8(table, x);
        // SAFETY: `x` is exactly 8 u16 = 16 writable bytes; storeu has no
        // alignment requirement.
        unsafe { _mm_storeu_si128(x.as_mut_ptr().cast(), v) };
    }
    super::scalar::apply_u16(table, c.into_remainder());
}

/// The eight table entries of the eight indices of `x` (`x.len() == 8`), as one
/// vector in index order.
#[cfg(target_feature = "sse2")]
#[inline(always)]
fn lookup8(table: &[u16; 65_536], x: &[u16]) -> __m128i {
    assert!(x.len() == 8);
    // SAFETY: `x` has 8 elements, so bytes 0..8 and 8..16 of it are readable;
    // read_unaligned has no alignment requirement. x86_64 is little-endian, so
    // bits 16k..16k+16 of each word are element k of its half.
    let (a, b) = unsafe {
        let p = x.as_ptr().cast::<u64>();
        (p.read_unaligned(), p.add(1).read_unaligned())
    };
    // A u16 index into a 65,536-entry table needs no bounds check.
    lanes16(|k| {
        let w = if k < 4 { a } else { b };
        table[usize::from((w >> (16 * (k % 4))) as u16)]
    })
}

/// The vector of `entry(0)`, …, `entry(7)`: the first by `movd`, the others
/// inserted by `pinsrw` (which loads the entry straight into its lane when
/// `entry` is a table load).
#[cfg(target_feature = "sse2")]
#[inline(always)]
fn lanes16(entry: impl Fn(u32) -> u16) -> __m128i {
    let e = |k| i32::from(entry(k));
    // SAFETY: these intrinsics need SSE2 only, which this function is compiled
    // for (`cfg(target_feature = "sse2")`, on by default on x86_64 targets).
    unsafe {
        let v = _mm_cvtsi32_si128(e(0));
        let v = _mm_insert_epi16::<1>(v, e(1));
        let v = _mm_insert_epi16::<2>(v, e(2));
        let v = _mm_insert_epi16::<3>(v, e(3));
        let v = _mm_insert_epi16::<4>(v, e(4));
        let v = _mm_insert_epi16::<5>(v, e(5));
        let v = _mm_insert_epi16::<6>(v, e(6));
        _mm_insert_epi16::<7>(v, e(7))
    }
}

/// The 256-entry table as four 64-byte registers.
#[cfg(feature = "avx512vbmi")]
#[allow(clippy::incompatible_msrv)] // the `avx512vbmi` feature needs Rust 1.89
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn load_table_512(table: &[u8; 256]) -> [__m512i; 4] {
    // SAFETY: each of the four loads reads bytes 64k..64k+64 of the 256-byte
    // table; loadu has no alignment requirement.
    core::array::from_fn(|k| unsafe { _mm512_loadu_si512(table[64 * k..].as_ptr().cast()) })
}

/// `table[v]` for the 64 bytes of `v`: `vpermi2b` looks up the low 7 bits of
/// each byte in entries 0..128 and in entries 128..256, and the top bit picks
/// between the two.
#[cfg(feature = "avx512vbmi")]
#[allow(clippy::incompatible_msrv)] // the `avx512vbmi` feature needs Rust 1.89
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn lookup64(t: &[__m512i; 4], v: __m512i) -> __m512i {
    // permutex2var_epi8(a, idx, b): byte i is (idx[i] bit 6 ? b : a)[idx[i] & 63].
    let low = _mm512_permutex2var_epi8(t[0], v, t[1]);
    let high = _mm512_permutex2var_epi8(t[2], v, t[3]);
    // mask_blend(k, a, b): byte i is k[i] ? b[i] : a[i]; k[i] is bit 7 of v[i].
    _mm512_mask_blend_epi8(_mm512_movepi8_mask(v), low, high)
}

/// `dst[i] = table[src[i]]` with AVX-512 VBMI; `src` and `dst` have the same length.
#[cfg(feature = "avx512vbmi")]
pub(super) fn map_vbmi(table: &[u8; 256], src: &[u8], dst: &mut [u8]) {
    debug_assert_eq!(src.len(), dst.len());
    // SAFETY: the caller (`ByteKernel::map`) checked that the CPU has
    // AVX-512 F, BW and VBMI.
    unsafe { map_vbmi_impl(table, src, dst) }
}

#[cfg(feature = "avx512vbmi")]
#[allow(clippy::incompatible_msrv)] // the `avx512vbmi` feature needs Rust 1.89
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn map_vbmi_impl(table: &[u8; 256], src: &[u8], dst: &mut [u8]) {
    let t = load_table_512(table);
    let mut s = src.chunks_exact(64);
    let mut d = dst.chunks_exact_mut(64);
    for (sc, dc) in (&mut s).zip(&mut d) {
        // SAFETY: `sc` and `dc` are exactly 64 bytes long; loadu/storeu have no
        // alignment requirement.
        unsafe {
            let v = _mm512_loadu_si512(sc.as_ptr().cast());
            _mm512_storeu_si512(dc.as_mut_ptr().cast(), lookup64(&t, v));
        }
    }
    super::scalar::map_u8(table, s.remainder(), d.into_remainder());
}

/// `xs[i] = table[xs[i]]` with AVX-512 VBMI.
#[cfg(feature = "avx512vbmi")]
pub(super) fn apply_vbmi(table: &[u8; 256], xs: &mut [u8]) {
    // SAFETY: the caller (`ByteKernel::apply`) checked that the CPU has
    // AVX-512 F, BW and VBMI.
    unsafe { apply_vbmi_impl(table, xs) }
}

#[cfg(feature = "avx512vbmi")]
#[allow(clippy::incompatible_msrv)] // the `avx512vbmi` feature needs Rust 1.89
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn apply_vbmi_impl(table: &[u8; 256], xs: &mut [u8]) {
    let t = load_table_512(table);
    let mut c = xs.chunks_exact_mut(64);
    for xc in &mut c {
        // SAFETY: `xc` is exactly 64 bytes long; loadu/storeu have no alignment
        // requirement.
        unsafe {
            let v = _mm512_loadu_si512(xc.as_ptr().cast());
            _mm512_storeu_si512(xc.as_mut_ptr().cast(), lookup64(&t, v));
        }
    }
    super::scalar::apply_u8(table, c.into_remainder());
}

/// `dst[i] = table[src[i]]` for a 256-entry table of 32-bit values, eight
/// elements per step: the indices come from one 64-bit load, each entry is
/// loaded straight into a vector register (`movd`), two `punpckldq` and one
/// `punpcklqdq` assemble four of them, and two 128-bit stores write the eight.
#[cfg(target_feature = "sse2")]
pub(super) fn map_u8_u32_sse2(table: &[u32; 256], src: &[u8], dst: &mut [u32]) {
    debug_assert_eq!(src.len(), dst.len());
    let mut s = src.chunks_exact(8);
    let mut d = dst.chunks_exact_mut(8);
    for (sc, dc) in (&mut s).zip(&mut d) {
        // SAFETY: `sc` is exactly 8 readable bytes; read_unaligned has no
        // alignment requirement.
        let w = unsafe { sc.as_ptr().cast::<u64>().read_unaligned() };
        // Byte k of a little-endian word is element k.
        let t = |k: u32| table[usize::from((w >> (8 * k)) as u8)] as i32;
        // SAFETY: the intrinsics need SSE2, which this function is compiled for;
        // `dc` is exactly 8 u32 = 32 writable bytes, written as two unaligned
        // 16-byte stores.
        unsafe {
            let e = |k| _mm_cvtsi32_si128(t(k));
            let lo = _mm_unpacklo_epi64(
                _mm_unpacklo_epi32(e(0), e(1)),
                _mm_unpacklo_epi32(e(2), e(3)),
            );
            let hi = _mm_unpacklo_epi64(
                _mm_unpacklo_epi32(e(4), e(5)),
                _mm_unpacklo_epi32(e(6), e(7)),
            );
            _mm_storeu_si128(dc.as_mut_ptr().cast(), lo);
            _mm_storeu_si128(dc.as_mut_ptr().add(4).cast(), hi);
        }
    }
    for (d, s) in d.into_remainder().iter_mut().zip(s.remainder()) {
        *d = table[usize::from(*s)];
    }
}

/// `dst[i] = table[src[i]]` for a 256-entry table of 16-bit values, eight
/// elements per step: indices from one 64-bit load, entries loaded into lanes by
/// `pinsrw`, one 128-bit store.
#[cfg(target_feature = "sse2")]
pub(super) fn map_u8_u16_sse2(table: &[u16; 256], src: &[u8], dst: &mut [u16]) {
    debug_assert_eq!(src.len(), dst.len());
    let mut s = src.chunks_exact(8);
    let mut d = dst.chunks_exact_mut(8);
    for (sc, dc) in (&mut s).zip(&mut d) {
        // SAFETY: `sc` is exactly 8 readable bytes; read_unaligned has no
        // alignment requirement.
        let w = unsafe { sc.as_ptr().cast::<u64>().read_unaligned() };
        // Byte k of a little-endian word is element k.
        let v = lanes16(|k| table[usize::from((w >> (8 * k)) as u8)]);
        // SAFETY: `dc` is exactly 8 u16 = 16 writable bytes; storeu has no
        // alignment requirement.
        unsafe { _mm_storeu_si128(dc.as_mut_ptr().cast(), v) };
    }
    for (d, s) in d.into_remainder().iter_mut().zip(s.remainder()) {
        *d = table[usize::from(*s)];
    }
}
