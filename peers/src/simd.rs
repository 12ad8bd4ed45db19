//! The AVX2 + FMA + F16C kernels of [`approx_simd`](crate::approx_simd): the
//! only module of this crate with `unsafe` code.
//!
//! Every function below mirrors a scalar function of `approx_simd` operation for
//! operation; the tests compare the two on every input and on every length from
//! 0 to 40.
#![allow(unsafe_code)]

use core::arch::x86_64::*;

use crate::approx_simd::{
    EXP_HI, EXP_LO, EXP_POLY, GELU, GELU_K0, GELU_K1, LN2_HI, LN2_LO, LOG2E, SIGMOID,
};

/// Whether this CPU has every feature the kernels use (cached by std after the
/// first call).
pub(crate) fn available() -> bool {
    is_x86_feature_detected!("avx2")
        && is_x86_feature_detected!("fma")
        && is_x86_feature_detected!("f16c")
}

/// The approximation `which` (`GELU`, `SIGMOID`, `SILU`) of `f16` bit patterns
/// `xs` into `ys`.
///
/// # Panics
///
/// If the CPU lacks a feature ([`available`] is false) or the lengths differ.
pub(crate) fn map_f16(which: u8, xs: &[u16], ys: &mut [u16]) {
    assert!(available(), "the AVX2 kernels need avx2, fma and f16c");
    assert_eq!(xs.len(), ys.len());
    // SAFETY: the CPU has avx2, fma and f16c (asserted above), the only
    // requirement of the `#[target_feature]` functions called.
    unsafe {
        match which {
            GELU => map_f16_avx2::<GELU>(xs, ys),
            SIGMOID => map_f16_avx2::<SIGMOID>(xs, ys),
            _ => map_f16_avx2::<{ crate::approx_simd::SILU }>(xs, ys),
        }
    }
}

/// [`map_f16`] over `bf16` bit patterns.
///
/// # Panics
///
/// If the CPU lacks a feature ([`available`] is false) or the lengths differ.
pub(crate) fn map_bf16(which: u8, xs: &[u16], ys: &mut [u16]) {
    assert!(available(), "the AVX2 kernels need avx2, fma and f16c");
    assert_eq!(xs.len(), ys.len());
    // SAFETY: the CPU has avx2, fma and f16c (asserted above), the only
    // requirement of the `#[target_feature]` functions called.
    unsafe {
        match which {
            GELU => map_bf16_avx2::<GELU>(xs, ys),
            SIGMOID => map_bf16_avx2::<SIGMOID>(xs, ys),
            _ => map_bf16_avx2::<{ crate::approx_simd::SILU }>(xs, ys),
        }
    }
}

/// Applies `kernel` to every full group of 8 and to the tail, padded with zeros
/// into one more group.
#[inline(always)]
fn by_eights(xs: &[u16], ys: &mut [u16], kernel: impl Fn(&[u16; 8]) -> [u16; 8]) {
    let mut xc = xs.chunks_exact(8);
    let mut yc = ys.chunks_exact_mut(8);
    for (x, y) in (&mut xc).zip(&mut yc) {
        let x: &[u16; 8] = x.try_into().expect("chunks of 8");
        y.copy_from_slice(&kernel(x));
    }
    let (x, y) = (xc.remainder(), yc.into_remainder());
    if !x.is_empty() {
        let mut padded = [0u16; 8];
        padded[..x.len()].copy_from_slice(x);
        y.copy_from_slice(&kernel(&padded)[..x.len()]);
    }
}

#[target_feature(enable = "avx2,fma,f16c")]
fn map_f16_avx2<const F: u8>(xs: &[u16], ys: &mut [u16]) {
    by_eights(xs, ys, |x| f16x8::<F>(x));
}

#[target_feature(enable = "avx2,fma,f16c")]
fn map_bf16_avx2<const F: u8>(xs: &[u16], ys: &mut [u16]) {
    by_eights(xs, ys, |x| bf16x8::<F>(x));
}

#[target_feature(enable = "avx2,fma,f16c")]
fn load(x: &[u16; 8]) -> __m128i {
    // SAFETY: `x` is 16 readable bytes; `loadu` has no alignment requirement.
    unsafe { _mm_loadu_si128(x.as_ptr().cast()) }
}

#[target_feature(enable = "avx2,fma,f16c")]
fn store(v: __m128i) -> [u16; 8] {
    let mut out = [0u16; 8];
    // SAFETY: `out` is 16 writable bytes; `storeu` has no alignment requirement.
    unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), v) };
    out
}

/// 8 `f16` in, 8 `f16` out: `vcvtph2ps`, the approximation, `vcvtps2ph` rounding
/// to nearest-even.
#[target_feature(enable = "avx2,fma,f16c")]
fn f16x8<const F: u8>(x: &[u16; 8]) -> [u16; 8] {
    let y = eval::<F>(_mm256_cvtph_ps(load(x)));
    store(_mm256_cvtps_ph::<_MM_FROUND_TO_NEAREST_INT>(y))
}

/// 8 `bf16` in, 8 `bf16` out: widened by a shift, rounded to nearest-even by an
/// integer add (`approx_simd::scalar_to_bf16_bits`), NaNs quieted.
#[target_feature(enable = "avx2,fma,f16c")]
fn bf16x8<const F: u8>(x: &[u16; 8]) -> [u16; 8] {
    let wide = _mm256_slli_epi32::<16>(_mm256_cvtepu16_epi32(load(x)));
    let y = eval::<F>(_mm256_castsi256_ps(wide));
    let bits = _mm256_castps_si256(y);
    let lsb = _mm256_and_si256(_mm256_srli_epi32::<16>(bits), _mm256_set1_epi32(1));
    let bias = _mm256_add_epi32(_mm256_set1_epi32(0x7FFF), lsb);
    let rounded = _mm256_srli_epi32::<16>(_mm256_add_epi32(bits, bias));
    let quiet_nan = _mm256_or_si256(_mm256_srli_epi32::<16>(bits), _mm256_set1_epi32(0x40));
    let is_nan = _mm256_castps_si256(_mm256_cmp_ps::<_CMP_UNORD_Q>(y, y));
    let out = _mm256_blendv_epi8(rounded, quiet_nan, is_nan);
    // Every lane is at most 0xFFFF: the unsigned saturating pack keeps it.
    store(_mm_packus_epi32(
        _mm256_castsi256_si128(out),
        _mm256_extracti128_si256::<1>(out),
    ))
}

/// The approximation `F` on 8 lanes (`approx_simd::scalar_gelu` and friends).
#[target_feature(enable = "avx2,fma,f16c")]
fn eval<const F: u8>(x: __m256) -> __m256 {
    let one = _mm256_set1_ps(1.0);
    let neg_x = _mm256_xor_ps(x, _mm256_set1_ps(-0.0));
    match F {
        GELU => {
            let p = _mm256_fmadd_ps(
                _mm256_mul_ps(x, x),
                _mm256_set1_ps(-GELU_K1),
                _mm256_set1_ps(-GELU_K0),
            );
            _mm256_div_ps(x, _mm256_add_ps(one, exp(_mm256_mul_ps(x, p))))
        }
        SIGMOID => _mm256_div_ps(one, _mm256_add_ps(one, exp(neg_x))),
        _ => _mm256_div_ps(x, _mm256_add_ps(one, exp(neg_x))),
    }
}

/// The fast exp on 8 lanes (`approx_simd::scalar_exp`).
#[target_feature(enable = "avx2,fma,f16c")]
fn exp(x: __m256) -> __m256 {
    // vminps/vmaxps return the second operand when either is NaN: NaN passes.
    let x = _mm256_min_ps(_mm256_set1_ps(EXP_HI), x);
    let x = _mm256_max_ps(_mm256_set1_ps(EXP_LO), x);
    let n = _mm256_floor_ps(_mm256_fmadd_ps(
        x,
        _mm256_set1_ps(LOG2E),
        _mm256_set1_ps(0.5),
    ));
    let r = _mm256_fnmadd_ps(n, _mm256_set1_ps(LN2_HI), x);
    let r = _mm256_fnmadd_ps(n, _mm256_set1_ps(LN2_LO), r);
    let mut p = _mm256_set1_ps(EXP_POLY[0]);
    for c in &EXP_POLY[1..] {
        p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(*c));
    }
    let y = _mm256_add_ps(
        _mm256_fmadd_ps(p, _mm256_mul_ps(r, r), r),
        _mm256_set1_ps(1.0),
    );
    let biased = _mm256_add_epi32(_mm256_cvttps_epi32(n), _mm256_set1_epi32(127));
    _mm256_mul_ps(y, _mm256_castsi256_ps(_mm256_slli_epi32::<23>(biased)))
}
