//! The computed path: the same reference evaluation the tables are built from,
//! with no table. Bit-identical to the tables on every input (the tests check
//! all of them), and about two orders of magnitude slower: use it where a table
//! is too large to carry, or for `f32`.
//!
//! ```
//! use actlut::{computed, Activation};
//! use half::f16;
//!
//! let x = f16::from_f32(1.0);
//! assert_eq!(computed::f16(Activation::Gelu, x), f16::from_f32(0.8413));
//! assert_eq!(computed::gelu_f16(x), f16::from_f32(0.8413));
//! assert_eq!(computed::gelu_f32(1.0), 0.841_344_75);
//! ```

use crate::{Activation, Format};

/// `act` at one `f16`, computed.
pub fn f16(act: Activation, x: half::f16) -> half::f16 {
    half::f16::from_bits(f16_bits(act, x.to_bits()))
}

/// `act` at one `f16` given and returned as raw bits, computed.
pub fn f16_bits(act: Activation, x: u16) -> u16 {
    actlut_codegen::eval(act.function(), Format::F16, x)
}

/// `act` at one `bf16`, computed.
pub fn bf16(act: Activation, x: half::bf16) -> half::bf16 {
    half::bf16::from_bits(bf16_bits(act, x.to_bits()))
}

/// `act` at one `bf16` given and returned as raw bits, computed.
pub fn bf16_bits(act: Activation, x: u16) -> u16 {
    actlut_codegen::eval(act.function(), Format::Bf16, x)
}

/// `act` at one OCP FP8 E4M3FN byte, computed.
pub fn fp8_e4m3_bits(act: Activation, x: u8) -> u8 {
    actlut_codegen::eval(act.function(), Format::Fp8E4M3, u16::from(x)) as u8
}

/// `act` at one OCP FP8 E5M2 byte, computed.
pub fn fp8_e5m2_bits(act: Activation, x: u8) -> u8 {
    actlut_codegen::eval(act.function(), Format::Fp8E5M2, u16::from(x)) as u8
}

/// `act` at one `f32`, computed and rounded once to `f32`.
///
/// # Accuracy
///
/// Guaranteed within 0.5 ulp + 2^-40 (relative) of the exact value, and
/// correctly rounded wherever the reference evaluation settles the rounding.
/// Against MPFR, on every f16-representable input and 1,000,000 random `f32`
/// per function (17 million in all), every result was correctly rounded. NaN
/// inputs are kept and quieted; the other special inputs follow SEMANTICS.md.
///
/// Where the evaluation cannot settle the rounding, the result is the rounding
/// of the `f64` evaluation, whose last bits could follow the `libm` version
/// (any 0.2 from 0.2.8 on). Measured: over every f16-representable input and
/// 4,000,000 seeded random `f32` per function, `libm` 0.2.8 and 0.2.16 give the
/// same bits for all 16 functions (`.ci/steps/16-libm.sh` compares the oldest
/// and the newest `libm` 0.2). The 16-bit and fp8 functions and tables never
/// depend on it.
pub fn f32(act: Activation, x: f32) -> f32 {
    actlut_codegen::eval_f32(act.function(), x)
}

/// Applies `act` in place to every `f32` of `xs` (see [`f32()`] for accuracy).
pub fn apply_f32(act: Activation, xs: &mut [f32]) {
    let f = act.function();
    for x in xs {
        *x = actlut_codegen::eval_f32(f, *x);
    }
}

/// Writes `act` of every `f32` of `xs` to `ys` (see [`f32()`] for accuracy).
///
/// # Panics
///
/// If `xs.len() != ys.len()`; the message names both lengths.
#[track_caller]
pub fn map_f32(act: Activation, xs: &[f32], ys: &mut [f32]) {
    crate::kernels::check_lengths(xs.len(), ys.len());
    let f = act.function();
    for (y, x) in ys.iter_mut().zip(xs) {
        *y = actlut_codegen::eval_f32(f, *x);
    }
}

macro_rules! computed_shorthands {
    ($( $variant:ident, $module:ident, $fname:literal, $feature:literal, $def:literal,
        $F16:ident, $BF16:ident, $E4M3:ident, $E5M2:ident,
        $cf16:ident, $cbf16:ident, $cf32:ident; )*) => {
        $(
            #[doc = concat!("`", $fname, "` at one `f16`, computed: ", $def, ".")]
            pub fn $cf16(x: half::f16) -> half::f16 {
                f16(Activation::$variant, x)
            }

            #[doc = concat!("`", $fname, "` at one `bf16`, computed: ", $def, ".")]
            pub fn $cbf16(x: half::bf16) -> half::bf16 {
                bf16(Activation::$variant, x)
            }

            #[doc = concat!("`", $fname, "` at one `f32`, computed: ", $def, ". Accuracy: see [`f32()`].")]
            pub fn $cf32(x: f32) -> f32 {
                f32(Activation::$variant, x)
            }
        )*
    };
}

for_each_function!(computed_shorthands);
