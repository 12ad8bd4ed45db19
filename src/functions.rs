//! One module per function (`actlut::gelu`, `actlut::sigmoid`, …), each with the
//! typed, raw-bits and slice entry points of every enabled format.

/// Items of one 16-bit float format inside a function module.
#[allow(unused_macros)] // unused when no function feature is enabled
macro_rules! float16_items {
    (
        $fname:literal, $feature:literal, $fmt:literal, $fmt_feature:literal, $ty:ident,
        $TABLE:ident, $one:ident, $bits:ident, $apply:ident, $map:ident,
        $apply_bits:ident, $map_bits:ident
    ) => {
        #[cfg(feature = $fmt_feature)]
        #[doc = concat!("`", $fname, "` of one `", $fmt, "` value: one table load.")]
        ///
        /// # Accuracy
        ///
        /// Correctly rounded (docs/SEMANTICS.md) at every input, NaN, ±inf, ±0 and
        /// subnormals included; bit-identical to the computed path.
        #[doc = concat!("\nRequires the features `", $feature, "` and `", $fmt_feature, "`.")]
        #[inline]
        pub fn $one(x: half::$ty) -> half::$ty {
            half::$ty::from_bits(crate::tables::$TABLE[usize::from(x.to_bits())])
        }

        #[cfg(feature = $fmt_feature)]
        #[doc = concat!("`", $fname, "` of one `", $fmt, "` given and returned as raw bits.")]
        #[doc = concat!("\nRequires the features `", $feature, "` and `", $fmt_feature, "`.")]
        #[inline]
        pub fn $bits(x: u16) -> u16 {
            crate::tables::$TABLE[usize::from(x)]
        }

        #[cfg(feature = $fmt_feature)]
        #[doc = concat!("Applies `", $fname, "` in place to every `", $fmt, "` of `xs`.")]
        #[doc = concat!("\nRequires the features `", $feature, "` and `", $fmt_feature, "`.")]
        #[inline]
        pub fn $apply(xs: &mut [half::$ty]) {
            use half::slice::HalfFloatSliceExt;
            crate::kernels::apply_u16(&crate::tables::$TABLE, xs.reinterpret_cast_mut());
        }

        #[cfg(feature = $fmt_feature)]
        #[doc = concat!("Writes `", $fname, "` of every `", $fmt, "` of `xs` to `ys`.")]
        ///
        /// # Panics
        ///
        /// If `xs.len() != ys.len()`; the message names both lengths.
        #[doc = concat!("\nRequires the features `", $feature, "` and `", $fmt_feature, "`.")]
        #[inline]
        #[track_caller]
        pub fn $map(xs: &[half::$ty], ys: &mut [half::$ty]) {
            use half::slice::HalfFloatSliceExt;
            crate::kernels::map_u16(
                &crate::tables::$TABLE,
                xs.reinterpret_cast(),
                ys.reinterpret_cast_mut(),
            );
        }

        #[cfg(feature = $fmt_feature)]
        #[doc = concat!("Applies `", $fname, "` in place to raw `", $fmt, "` bit patterns.")]
        #[doc = concat!("\nRequires the features `", $feature, "` and `", $fmt_feature, "`.")]
        #[inline]
        pub fn $apply_bits(xs: &mut [u16]) {
            crate::kernels::apply_u16(&crate::tables::$TABLE, xs);
        }

        #[cfg(feature = $fmt_feature)]
        #[doc = concat!("Writes `", $fname, "` of raw `", $fmt, "` bit patterns `xs` to `ys`.")]
        ///
        /// # Panics
        ///
        /// If `xs.len() != ys.len()`; the message names both lengths.
        #[doc = concat!("\nRequires the features `", $feature, "` and `", $fmt_feature, "`.")]
        #[inline]
        #[track_caller]
        pub fn $map_bits(xs: &[u16], ys: &mut [u16]) {
            crate::kernels::map_u16(&crate::tables::$TABLE, xs, ys);
        }
    };
}

/// Items of one 8-bit float format inside a function module (raw bytes: Rust
/// has no standard fp8 type).
#[allow(unused_macros)] // unused when no function feature is enabled
macro_rules! float8_items {
    (
        $fname:literal, $feature:literal, $fmt:literal, $fmt_feature:literal,
        $TABLE:ident, $bits:ident, $apply:ident, $map:ident
    ) => {
        #[cfg(feature = $fmt_feature)]
        #[doc = concat!("`", $fname, "` of one `", $fmt, "` value given and returned as its byte.")]
        ///
        /// # Accuracy
        ///
        /// Correctly rounded (docs/SEMANTICS.md) at every one of the 256 inputs.
        #[doc = concat!("\nRequires the features `", $feature, "` and `", $fmt_feature, "`.")]
        #[inline]
        pub fn $bits(x: u8) -> u8 {
            crate::tables::$TABLE[usize::from(x)]
        }

        #[cfg(feature = $fmt_feature)]
        #[doc = concat!("Applies `", $fname, "` in place to `", $fmt, "` bytes (SIMD byte permutes: see [`kernels`](crate::kernels)).")]
        #[doc = concat!("\nRequires the features `", $feature, "` and `", $fmt_feature, "`.")]
        #[inline]
        pub fn $apply(xs: &mut [u8]) {
            crate::kernels::apply_u8(&crate::tables::$TABLE, xs);
        }

        #[cfg(feature = $fmt_feature)]
        #[doc = concat!("Writes `", $fname, "` of the `", $fmt, "` bytes `xs` to `ys`.")]
        ///
        /// # Panics
        ///
        /// If `xs.len() != ys.len()`; the message names both lengths.
        #[doc = concat!("\nRequires the features `", $feature, "` and `", $fmt_feature, "`.")]
        #[inline]
        #[track_caller]
        pub fn $map(xs: &[u8], ys: &mut [u8]) {
            crate::kernels::map_u8(&crate::tables::$TABLE, xs, ys);
        }
    };
}

macro_rules! function_modules {
    ($( $variant:ident, $module:ident, $fname:literal, $feature:literal, $def:literal,
        $F16:ident, $BF16:ident, $E4M3:ident, $E5M2:ident,
        $cf16:ident, $cbf16:ident, $cf32:ident; )*) => {
        $(
            #[cfg(feature = $feature)]
            #[doc = concat!("`", $fname, "`: ", $def, ", over every enabled format.")]
            ///
            /// Each entry point is one table load per element; every result is the
            /// correctly rounded value of the exact function.
            #[doc = concat!("\nRequires the feature `", $feature, "`, and each item its format's feature.")]
            pub mod $module {
                float16_items!($fname, $feature, "f16", "f16", f16, $F16,
                    f16, f16_bits, apply_f16, map_f16, apply_f16_bits, map_f16_bits);
                float16_items!($fname, $feature, "bf16", "bf16", bf16, $BF16,
                    bf16, bf16_bits, apply_bf16, map_bf16, apply_bf16_bits, map_bf16_bits);
                float8_items!($fname, $feature, "fp8_e4m3", "fp8-e4m3", $E4M3,
                    fp8_e4m3_bits, apply_fp8_e4m3, map_fp8_e4m3);
                float8_items!($fname, $feature, "fp8_e5m2", "fp8-e5m2", $E5M2,
                    fp8_e5m2_bits, apply_fp8_e5m2, map_fp8_e5m2);
            }
        )*
    };
}

for_each_function!(function_modules);
