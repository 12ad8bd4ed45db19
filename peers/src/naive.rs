//! The naive path: widen to `f32`, evaluate with `libm`, round back with `half`.
//!
//! What a user writes without actlut, one element at a time:
//!
//! - GELU: `0.5·x·(1 + erff(x·(1/√2)))`
//! - sigmoid: `1/(1 + expf(−x))`
//! - SiLU: `x·sigmoid(x)`
//!
//! `libm` is the pure-Rust port pinned at 0.2.16 (the same version as actlut's
//! reference math), so the results are the same on every platform; the `f32`
//! result is rounded to the format once, to nearest-even, by `half`'s
//! `from_f32`.
//!
//! # Accuracy
//!
//! Not correctly rounded: the `f32` evaluation is off by a few `f32` ulps, and
//! `1 + erf` cancels for negative `x`. `docs/accuracy.md` counts the inputs
//! where the result differs from the correctly rounded one.

use core::f32::consts::FRAC_1_SQRT_2;
use half::{bf16, f16};

/// GELU in `f32`: `0.5·x·(1 + erff(x/√2))`, with `x/√2` computed as `x·(1/√2)`.
pub fn gelu_f32(x: f32) -> f32 {
    0.5 * x * (1.0 + libm::erff(x * FRAC_1_SQRT_2))
}

/// Sigmoid in `f32`: `1/(1 + expf(−x))`.
pub fn sigmoid_f32(x: f32) -> f32 {
    1.0 / (1.0 + libm::expf(-x))
}

/// SiLU in `f32`: `x·sigmoid(x)`, with [`sigmoid_f32`].
pub fn silu_f32(x: f32) -> f32 {
    x * sigmoid_f32(x)
}

/// The `f32` formula of `function` (GELU, sigmoid or SiLU).
///
/// # Panics
///
/// For any other function.
pub fn f32_fn(function: actlut::Function) -> fn(f32) -> f32 {
    match function {
        actlut::Function::Gelu => gelu_f32,
        actlut::Function::Sigmoid => sigmoid_f32,
        actlut::Function::Silu => silu_f32,
        other => panic!("no naive formula for {}", other.name()),
    }
}

fn map_f16(xs: &[f16], ys: &mut [f16], f: fn(f32) -> f32) {
    for (y, x) in ys.iter_mut().zip(xs) {
        *y = f16::from_f32(f(x.to_f32()));
    }
}

fn map_bf16(xs: &[bf16], ys: &mut [bf16], f: fn(f32) -> f32) {
    for (y, x) in ys.iter_mut().zip(xs) {
        *y = bf16::from_f32(f(x.to_f32()));
    }
}

crate::slice_fns! {
    /// GELU of every `f16` of `xs` into `ys`, through [`gelu_f32`].
    gelu_f16: f16 => |xs, ys| map_f16(xs, ys, gelu_f32);
    /// GELU of every `bf16` of `xs` into `ys`, through [`gelu_f32`].
    gelu_bf16: bf16 => |xs, ys| map_bf16(xs, ys, gelu_f32);
    /// Sigmoid of every `f16` of `xs` into `ys`, through [`sigmoid_f32`].
    sigmoid_f16: f16 => |xs, ys| map_f16(xs, ys, sigmoid_f32);
    /// Sigmoid of every `bf16` of `xs` into `ys`, through [`sigmoid_f32`].
    sigmoid_bf16: bf16 => |xs, ys| map_bf16(xs, ys, sigmoid_f32);
    /// SiLU of every `f16` of `xs` into `ys`, through [`silu_f32`].
    silu_f16: f16 => |xs, ys| map_f16(xs, ys, silu_f32);
    /// SiLU of every `bf16` of `xs` into `ys`, through [`silu_f32`].
    silu_bf16: bf16 => |xs, ys| map_bf16(xs, ys, silu_f32);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn naive_gelu_at_one_is_phi_of_one_rounded() {
        let mut y = [f16::ZERO];
        gelu_f16(&[f16::ONE], &mut y);
        assert_eq!(y[0], f16::from_f32(0.8413));
    }

    #[test]
    fn naive_sigmoid_and_silu_at_zero() {
        let mut y = [bf16::ONE; 2];
        sigmoid_bf16(&[bf16::ZERO, bf16::NEG_ZERO], &mut y);
        assert_eq!(y, [bf16::from_f32(0.5); 2]);
        silu_bf16(&[bf16::ZERO, bf16::NEG_ZERO], &mut y);
        assert_eq!(y.map(bf16::to_bits), [0x0000, 0x8000]);
    }

    #[test]
    #[should_panic(expected = "3 inputs, 2 outputs")]
    fn naive_rejects_slices_of_different_lengths() {
        gelu_f16(&[f16::ZERO; 3], &mut [f16::ZERO; 2]);
    }
}
