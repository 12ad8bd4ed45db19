//! An approximate vectorized `f32` kernel, as a performance-minded engineer
//! writes one: AVX2 + FMA + F16C, 8 lanes at a time.
//!
//! Per 8 elements: widen to `f32` (`vcvtph2ps` for `f16`; for `bf16` zero-extend
//! and shift left by 16), evaluate a fast approximation, round back to the
//! format to nearest-even (`vcvtps2ph` with round-to-nearest for `f16`; for
//! `bf16` an integer add of `0x7FFF` plus the kept lsb, then a shift, NaNs kept
//! and quieted). A tail shorter than 8 is padded into one more vector.
//!
//! The approximations:
//!
//! - `exp`: the argument clamped to [−87, 88] (so that 2^n stays a normal
//!   `f32`), Cody–Waite reduction `x = n·ln 2 + r` with `n = ⌊x·log2(e) + ½⌋`
//!   and ln 2 split in two constants, `e^r ≈ 1 + r + r²·P(r)` with Cephes'
//!   degree-5 polynomial `P`, and `2^n` built in the exponent bits;
//! - sigmoid: `1/(1 + exp(−x))` with an IEEE division (no `rcp` estimate);
//! - SiLU: `x/(1 + exp(−x))`;
//! - GELU: the tanh form `0.5·x·(1 + tanh(u))`, `u = √(2/π)·(x + 0.044715·x³)`,
//!   evaluated as `x/(1 + exp(−2u))`, which is the same function
//!   (`1 + tanh(u) = 2/(1 + e^(−2u))`) without the cancellation of `1 + tanh u`
//!   at negative `x`.
//!
//! The AVX2 path is chosen at run time (`is_x86_feature_detected!` for `avx2`,
//! `fma` and `f16c`); elsewhere the same formulas run one element at a time in
//! the `scalar_*` functions, operation for operation (FMA as `f32::mul_add`,
//! the clamps with the NaN behaviour of `vminps`/`vmaxps`), so both paths give
//! the same bits except possibly in NaN payloads (the tests check every input).
//!
//! # Accuracy
//!
//! Approximate: the polynomial is within a few `f32` ulps of `e^r`, the GELU is
//! the tanh approximation of the erf form, and the exp clamp makes sigmoid and
//! SiLU wrong in the far negative tail where `bf16` still has values. See
//! `docs/accuracy.md`.

use half::{bf16, f16};

/// Upper clamp of the exp argument: `2^n` stays finite (`n ≤ 127`).
pub(crate) const EXP_HI: f32 = 88.0;
/// Lower clamp of the exp argument: `2^n` stays normal (`n ≥ −126`).
pub(crate) const EXP_LO: f32 = -87.0;
/// log2(e).
pub(crate) const LOG2E: f32 = core::f32::consts::LOG2_E;
/// ln 2, high part: exact in few bits, so that `n·LN2_HI` is exact.
pub(crate) const LN2_HI: f32 = 355.0 / 512.0; // 0.693359375
/// ln 2, low part: `ln 2 − LN2_HI`.
#[allow(clippy::excessive_precision)] // Cephes' constant as published
pub(crate) const LN2_LO: f32 = -2.121_944_40e-4;
/// Cephes' polynomial for `(e^r − 1 − r)/r²` on [−ln2/2, ln2/2], highest
/// degree first (Cephes `expf.c`, as in the widely copied `avx_mathfun.h`).
#[allow(clippy::excessive_precision)] // Cephes' constants as published
pub(crate) const EXP_POLY: [f32; 6] = [
    1.987_569_150_0e-4,
    1.398_199_950_7e-3,
    8.333_451_907_3e-3,
    4.166_579_589_4e-2,
    1.666_666_545_9e-1,
    5.000_000_120_1e-1,
];
/// `2·√(2/π)`: the GELU argument `−2u = −x·(K0 + K1·x²)`.
#[allow(clippy::excessive_precision)]
pub(crate) const GELU_K0: f32 = 1.595_769_121_605_730_8;
/// `2·√(2/π)·0.044715`.
#[allow(clippy::excessive_precision)]
pub(crate) const GELU_K1: f32 = 0.071_354_816_272_600_3;

/// Whether the AVX2 path runs on this machine (x86_64 with `avx2`, `fma` and
/// `f16c`); otherwise the scalar functions do the work.
pub fn simd_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        crate::simd::available()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The fast `e^x` of the AVX2 kernel, one lane: clamp, Cody–Waite reduction,
/// Cephes polynomial, `2^n` in the exponent bits.
pub fn scalar_exp(x: f32) -> f32 {
    // vminps(hi, x) and vmaxps(lo, x): a NaN `x` passes through both.
    let x = if EXP_HI < x { EXP_HI } else { x };
    let x = if EXP_LO > x { EXP_LO } else { x };
    let n = x.mul_add(LOG2E, 0.5).floor();
    let r = (-n).mul_add(LN2_HI, x);
    let r = (-n).mul_add(LN2_LO, r);
    let mut p = EXP_POLY[0];
    for c in &EXP_POLY[1..] {
        p = p.mul_add(r, *c);
    }
    let y = p.mul_add(r * r, r) + 1.0;
    // `n` is an integer in [−126, 127] unless `x` is NaN (then `y` is NaN).
    let pow2 = f32::from_bits(((n as i32).wrapping_add(127) as u32) << 23);
    y * pow2
}

/// Sigmoid, one lane: `1/(1 + exp(−x))` with [`scalar_exp`].
pub fn scalar_sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + scalar_exp(-x))
}

/// SiLU, one lane: `x/(1 + exp(−x))` with [`scalar_exp`].
pub fn scalar_silu(x: f32) -> f32 {
    x / (1.0 + scalar_exp(-x))
}

/// GELU (tanh form), one lane: `x/(1 + exp(−x·(K0 + K1·x²)))` with
/// [`scalar_exp`], `K0 = 2√(2/π)`, `K1 = 0.044715·K0`.
pub fn scalar_gelu(x: f32) -> f32 {
    let p = (x * x).mul_add(-GELU_K1, -GELU_K0);
    x / (1.0 + scalar_exp(x * p))
}

/// `x` rounded to `bf16` bits the way the AVX2 kernel does: add `0x7FFF` plus
/// the lsb that is kept, shift right by 16; a NaN keeps its sign and top
/// payload bits and is quieted.
pub fn scalar_to_bf16_bits(x: f32) -> u16 {
    let bits = x.to_bits();
    if x.is_nan() {
        ((bits >> 16) | 0x0040) as u16
    } else {
        (bits.wrapping_add(0x7FFF + ((bits >> 16) & 1)) >> 16) as u16
    }
}

/// One of the three approximations, for the kernels' const generic parameter.
pub(crate) const GELU: u8 = 0;
/// See [`GELU`].
pub(crate) const SIGMOID: u8 = 1;
/// See [`GELU`].
pub(crate) const SILU: u8 = 2;

fn scalar_fn(which: u8) -> fn(f32) -> f32 {
    match which {
        GELU => scalar_gelu,
        SIGMOID => scalar_sigmoid,
        _ => scalar_silu,
    }
}

/// The scalar fallback over `f16`: `half`'s `from_f32` rounds to nearest-even
/// like `vcvtps2ph`.
fn scalar_map_f16(which: u8, xs: &[f16], ys: &mut [f16]) {
    let f = scalar_fn(which);
    for (y, x) in ys.iter_mut().zip(xs) {
        *y = f16::from_f32(f(x.to_f32()));
    }
}

/// The scalar fallback over `bf16`, rounding with [`scalar_to_bf16_bits`].
fn scalar_map_bf16(which: u8, xs: &[bf16], ys: &mut [bf16]) {
    let f = scalar_fn(which);
    for (y, x) in ys.iter_mut().zip(xs) {
        *y = bf16::from_bits(scalar_to_bf16_bits(f(x.to_f32())));
    }
}

fn map_f16(which: u8, xs: &[f16], ys: &mut [f16]) {
    #[cfg(target_arch = "x86_64")]
    if crate::simd::available() {
        use half::slice::HalfFloatSliceExt;
        crate::simd::map_f16(which, xs.reinterpret_cast(), ys.reinterpret_cast_mut());
        return;
    }
    scalar_map_f16(which, xs, ys);
}

fn map_bf16(which: u8, xs: &[bf16], ys: &mut [bf16]) {
    #[cfg(target_arch = "x86_64")]
    if crate::simd::available() {
        use half::slice::HalfFloatSliceExt;
        crate::simd::map_bf16(which, xs.reinterpret_cast(), ys.reinterpret_cast_mut());
        return;
    }
    scalar_map_bf16(which, xs, ys);
}

crate::slice_fns! {
    /// GELU (tanh form, fast exp) of every `f16` of `xs` into `ys`; AVX2 when available.
    gelu_f16: f16 => |xs, ys| map_f16(GELU, xs, ys);
    /// GELU (tanh form, fast exp) of every `bf16` of `xs` into `ys`; AVX2 when available.
    gelu_bf16: bf16 => |xs, ys| map_bf16(GELU, xs, ys);
    /// Sigmoid (fast exp) of every `f16` of `xs` into `ys`; AVX2 when available.
    sigmoid_f16: f16 => |xs, ys| map_f16(SIGMOID, xs, ys);
    /// Sigmoid (fast exp) of every `bf16` of `xs` into `ys`; AVX2 when available.
    sigmoid_bf16: bf16 => |xs, ys| map_bf16(SIGMOID, xs, ys);
    /// SiLU (fast exp) of every `f16` of `xs` into `ys`; AVX2 when available.
    silu_f16: f16 => |xs, ys| map_f16(SILU, xs, ys);
    /// SiLU (fast exp) of every `bf16` of `xs` into `ys`; AVX2 when available.
    silu_bf16: bf16 => |xs, ys| map_bf16(SILU, xs, ys);
}

/// The scalar fallback as slice functions, whatever the CPU: the same bits as
/// the AVX2 path (NaN payloads aside).
pub mod scalar {
    crate::slice_fns! {
        /// GELU over `f16` by the scalar fallback, whatever the CPU.
        gelu_f16: f16 => |xs, ys| super::scalar_map_f16(super::GELU, xs, ys);
        /// GELU over `bf16` by the scalar fallback, whatever the CPU.
        gelu_bf16: bf16 => |xs, ys| super::scalar_map_bf16(super::GELU, xs, ys);
        /// Sigmoid over `f16` by the scalar fallback, whatever the CPU.
        sigmoid_f16: f16 => |xs, ys| super::scalar_map_f16(super::SIGMOID, xs, ys);
        /// Sigmoid over `bf16` by the scalar fallback, whatever the CPU.
        sigmoid_bf16: bf16 => |xs, ys| super::scalar_map_bf16(super::SIGMOID, xs, ys);
        /// SiLU over `f16` by the scalar fallback, whatever the CPU.
        silu_f16: f16 => |xs, ys| super::scalar_map_f16(super::SILU, xs, ys);
        /// SiLU over `bf16` by the scalar fallback, whatever the CPU.
        silu_bf16: bf16 => |xs, ys| super::scalar_map_bf16(super::SILU, xs, ys);
    }
}

/// The scalar fallback of the approx_simd peer of `function` over `format`, for
/// comparing the two paths.
///
/// # Panics
///
/// For a function other than GELU, sigmoid and SiLU.
pub fn scalar_kernel(function: actlut::Function, format: crate::Format) -> crate::Kernel {
    crate::kernel!(scalar, function, format)
        .unwrap_or_else(|| panic!("no approx_simd kernel for {}", function.name()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_exp_is_close_to_exp_over_its_range() {
        let mut worst = 0f64;
        let mut x = -87.0f32;
        while x <= 88.0 {
            let exact = f64::from(x).exp();
            let rel = ((f64::from(scalar_exp(x)) - exact) / exact).abs();
            worst = worst.max(rel);
            x += 0.001_7;
        }
        assert!(worst < 4e-7, "worst relative error {worst}");
    }

    #[test]
    fn fast_exp_clamps_and_passes_nan() {
        assert_eq!(scalar_exp(0.0), 1.0);
        assert!(scalar_exp(f32::INFINITY).is_finite());
        assert!(scalar_exp(f32::NEG_INFINITY) > 0.0);
        assert!(scalar_exp(f32::NAN).is_nan());
    }

    #[test]
    fn bf16_rounding_is_half_rne_on_every_f32_of_a_sweep() {
        // half's bf16::from_f32 rounds to nearest-even too; compare on a sweep
        // of bit patterns with every low-half pattern class.
        for hi in (0..=u16::MAX).step_by(7) {
            for lo in [0u32, 1, 0x7FFF, 0x8000, 0x8001, 0xFFFF] {
                let x = f32::from_bits((u32::from(hi) << 16) | lo);
                let ours = scalar_to_bf16_bits(x);
                let half = bf16::from_f32(x).to_bits();
                if x.is_nan() {
                    assert!(bf16::from_bits(ours).is_nan());
                } else {
                    assert_eq!(ours, half, "at {:#010x}", x.to_bits());
                }
            }
        }
    }
}
