//! What the per-function modules (`actlut::gelu`, …) are made of: the templates of their
//! entry points, one macro per kind of format, and the lookups over codes in the low bits of a
//! byte (FP6, FP4) that they call.
//!
//! The generated `src/generated/functions.rs` holds one module per function, gated on the
//! function's feature, and in it one invocation per format of the template that fits the
//! format: [`typed16`] for the 16-bit formats with a `half` type, [`byte_codes`] for the
//! formats coded in a byte (the fp8 formats through the SIMD byte kernels, the narrower FP6
//! and FP4 codes through [`apply_codes`]). Each template gates its items on the format's
//! feature: every gate is stated once, here or in the generated module.

/// The entry points of one function over one 16-bit format with a `half` type: the typed
/// value, raw-bits and slice functions, each one table load per element (full or compact,
/// by the type of `crate::tables::read_table!($table)`; with `self-check`, every table is
/// read through its checked form, verified before its first use). The form with
/// `read: [table, full]` always reads the full table (a derivative table, which has no
/// compact form).
#[allow(unused_macros)] // unused in a build without a function feature
macro_rules! typed16 {
    (
        function: $fname:literal, feature: $ffeat:literal,
        format: $fmt:literal, format_feature: $fmtfeat:literal, ty: $ty:ty, table: $table:ident,
        items: [$one:ident, $one_bits:ident, $apply:ident, $map:ident, $apply_bits:ident, $map_bits:ident] $(,)?
    ) => {
        crate::functions::typed16! {
            function: $fname, feature: $ffeat,
            format: $fmt, format_feature: $fmtfeat, ty: $ty, table: $table,
            read: [read_table, selected],
            items: [$one, $one_bits, $apply, $map, $apply_bits, $map_bits],
        }
    };
    (
        function: $fname:literal, feature: $ffeat:literal,
        format: $fmt:literal, format_feature: $fmtfeat:literal, ty: $ty:ty, table: $table:ident,
        read: [$read:ident, $lookup:ident],
        items: [$one:ident, $one_bits:ident, $apply:ident, $map:ident, $apply_bits:ident, $map_bits:ident] $(,)?
    ) => {
        #[doc = concat!("`", $fname, "` of one `", $fmt, "` value: one table load.")]
        ///
        /// # Accuracy
        ///
        /// Correctly rounded (docs/SEMANTICS.md) at every input, NaN, ±inf, ±0 and
        /// subnormals included; bit-identical to the computed path.
        ///
        #[doc = concat!("Requires the features `", $ffeat, "` and `", $fmtfeat, "`.")]
        #[cfg(feature = $fmtfeat)]
        #[cfg_attr(docsrs, doc(cfg(all(feature = $ffeat, feature = $fmtfeat))))]
        #[inline]
        pub fn $one(x: $ty) -> $ty {
            <$ty>::from_bits(crate::read::$lookup::at(
                &crate::tables::$read!($table),
                x.to_bits(),
            ))
        }

        #[doc = concat!("`", $fname, "` of one `", $fmt, "` given and returned as raw bits.")]
        ///
        #[doc = concat!("Requires the features `", $ffeat, "` and `", $fmtfeat, "`.")]
        #[cfg(feature = $fmtfeat)]
        #[cfg_attr(docsrs, doc(cfg(all(feature = $ffeat, feature = $fmtfeat))))]
        #[inline]
        pub fn $one_bits(x: u16) -> u16 {
            crate::read::$lookup::at(&crate::tables::$read!($table), x)
        }

        #[doc = concat!("Applies `", $fname, "` in place to every `", $fmt, "` of `xs`.")]
        ///
        #[doc = concat!("Requires the features `", $ffeat, "` and `", $fmtfeat, "`.")]
        #[cfg(feature = $fmtfeat)]
        #[cfg_attr(docsrs, doc(cfg(all(feature = $ffeat, feature = $fmtfeat))))]
        #[inline]
        pub fn $apply(xs: &mut [$ty]) {
            use half::slice::HalfFloatSliceExt;
            crate::read::$lookup::apply(&crate::tables::$read!($table), xs.reinterpret_cast_mut());
        }

        #[doc = concat!("Writes `", $fname, "` of every `", $fmt, "` of `xs` to `ys`.")]
        ///
        /// # Panics
        ///
        /// If `xs.len() != ys.len()`, with a message that names both lengths:
        /// `actlut: source slice length (3) does not match destination slice length (2)`.
        ///
        #[doc = concat!("Requires the features `", $ffeat, "` and `", $fmtfeat, "`.")]
        #[cfg(feature = $fmtfeat)]
        #[cfg_attr(docsrs, doc(cfg(all(feature = $ffeat, feature = $fmtfeat))))]
        #[inline]
        #[track_caller]
        pub fn $map(xs: &[$ty], ys: &mut [$ty]) {
            use half::slice::HalfFloatSliceExt;
            crate::read::$lookup::map(
                &crate::tables::$read!($table),
                xs.reinterpret_cast(),
                ys.reinterpret_cast_mut(),
            );
        }

        #[doc = concat!("Applies `", $fname, "` in place to raw `", $fmt, "` bit patterns.")]
        ///
        #[doc = concat!("Requires the features `", $ffeat, "` and `", $fmtfeat, "`.")]
        #[cfg(feature = $fmtfeat)]
        #[cfg_attr(docsrs, doc(cfg(all(feature = $ffeat, feature = $fmtfeat))))]
        #[inline]
        pub fn $apply_bits(xs: &mut [u16]) {
            crate::read::$lookup::apply(&crate::tables::$read!($table), xs);
        }

        #[doc = concat!("Writes `", $fname, "` of raw `", $fmt, "` bit patterns `xs` to `ys`.")]
        ///
        /// # Panics
        ///
        /// If `xs.len() != ys.len()`, with a message that names both lengths:
        /// `actlut: source slice length (3) does not match destination slice length (2)`.
        ///
        #[doc = concat!("Requires the features `", $ffeat, "` and `", $fmtfeat, "`.")]
        #[cfg(feature = $fmtfeat)]
        #[cfg_attr(docsrs, doc(cfg(all(feature = $ffeat, feature = $fmtfeat))))]
        #[inline]
        #[track_caller]
        pub fn $map_bits(xs: &[u16], ys: &mut [u16]) {
            crate::read::$lookup::map(&crate::tables::$read!($table), xs, ys);
        }
    };
}
#[allow(unused_imports)]
pub(crate) use typed16;

/// The entry points of one function over one format coded in a byte: the raw-code value and
/// slice functions. A format of 256 codes (fp8) goes through the SIMD byte kernels
/// (`crate::kernels::apply_u8`); a narrower one (FP6, FP4) through [`apply_codes`], which
/// checks that no bit above the format's width is set.
#[allow(unused_macros)] // unused in a build without a function feature
macro_rules! byte_codes {
    // A byte of 256 codes.
    (
        function: $fname:literal, feature: $ffeat:literal,
        format: $fmt:literal, format_feature: $fmtfeat:literal, codes: 256, table: $table:ident,
        items: [$one_bits:ident, $apply_bits:ident, $map_bits:ident] $(,)?
    ) => {
        #[doc = concat!("`", $fname, "` of one `", $fmt, "` value given and returned as its raw bits.")]
        ///
        /// # Accuracy
        ///
        /// Correctly rounded (docs/SEMANTICS.md) at every one of the 256 inputs.
        ///
        #[doc = concat!("Requires the features `", $ffeat, "` and `", $fmtfeat, "`.")]
        #[cfg(feature = $fmtfeat)]
        #[cfg_attr(docsrs, doc(cfg(all(feature = $ffeat, feature = $fmtfeat))))]
        #[inline]
        #[track_caller]
        pub fn $one_bits(x: u8) -> u8 {
            crate::tables::table!($table)[usize::from(x)]
        }

        #[doc = concat!(
            "Applies `", $fname, "` in place to raw `", $fmt, "` values (SIMD byte permutes: see ",
            "[`kernels`](crate::kernels))."
        )]
        ///
        #[doc = concat!("Requires the features `", $ffeat, "` and `", $fmtfeat, "`.")]
        #[cfg(feature = $fmtfeat)]
        #[cfg_attr(docsrs, doc(cfg(all(feature = $ffeat, feature = $fmtfeat))))]
        #[inline]
        #[track_caller]
        pub fn $apply_bits(xs: &mut [u8]) {
            crate::kernels::apply_u8(crate::tables::table!($table), xs);
        }

        #[doc = concat!("Writes `", $fname, "` of the raw `", $fmt, "` values `xs` to `ys`.")]
        ///
        /// # Panics
        ///
        /// If `xs.len() != ys.len()`, with a message that names both lengths:
        /// `actlut: source slice length (3) does not match destination slice length (2)`.
        ///
        #[doc = concat!("Requires the features `", $ffeat, "` and `", $fmtfeat, "`.")]
        #[cfg(feature = $fmtfeat)]
        #[cfg_attr(docsrs, doc(cfg(all(feature = $ffeat, feature = $fmtfeat))))]
        #[inline]
        #[track_caller]
        pub fn $map_bits(xs: &[u8], ys: &mut [u8]) {
            crate::kernels::map_u8(crate::tables::table!($table), xs, ys);
        }
    };
    // Codes in the low bits of a byte.
    (
        function: $fname:literal, feature: $ffeat:literal,
        format: $fmt:literal, format_feature: $fmtfeat:literal, codes: $n:literal, table: $table:ident,
        items: [$one_bits:ident, $apply_bits:ident, $map_bits:ident] $(,)?
    ) => {
        #[doc = concat!("`", $fname, "` of one `", $fmt, "` value given and returned as its raw bits.")]
        ///
        /// # Accuracy
        ///
        #[doc = concat!("Correctly rounded (docs/SEMANTICS.md) at every one of the ", $n, " inputs.")]
        ///
        /// # Panics
        ///
        #[doc = concat!("If a code is ", $n, " or more (bits set above the format's width).")]
        ///
        #[doc = concat!("Requires the features `", $ffeat, "` and `", $fmtfeat, "`.")]
        #[cfg(feature = $fmtfeat)]
        #[cfg_attr(docsrs, doc(cfg(all(feature = $ffeat, feature = $fmtfeat))))]
        #[inline]
        #[track_caller]
        pub fn $one_bits(x: u8) -> u8 {
            crate::functions::code(crate::tables::table!($table), x)
        }

        #[doc = concat!("Applies `", $fname, "` in place to raw `", $fmt, "` values.")]
        ///
        /// # Panics
        ///
        #[doc = concat!("If a code is ", $n, " or more (bits set above the format's width).")]
        ///
        #[doc = concat!("Requires the features `", $ffeat, "` and `", $fmtfeat, "`.")]
        #[cfg(feature = $fmtfeat)]
        #[cfg_attr(docsrs, doc(cfg(all(feature = $ffeat, feature = $fmtfeat))))]
        #[inline]
        #[track_caller]
        pub fn $apply_bits(xs: &mut [u8]) {
            crate::functions::apply_codes(crate::tables::table!($table), xs);
        }

        #[doc = concat!("Writes `", $fname, "` of the raw `", $fmt, "` values `xs` to `ys`.")]
        ///
        /// # Panics
        ///
        /// If `xs.len() != ys.len()`, with a message that names both lengths:
        /// `actlut: source slice length (3) does not match destination slice length (2)`;
        #[doc = concat!("if a code is ", $n, " or more (bits set above the format's width).")]
        ///
        #[doc = concat!("Requires the features `", $ffeat, "` and `", $fmtfeat, "`.")]
        #[cfg(feature = $fmtfeat)]
        #[cfg_attr(docsrs, doc(cfg(all(feature = $ffeat, feature = $fmtfeat))))]
        #[inline]
        #[track_caller]
        pub fn $map_bits(xs: &[u8], ys: &mut [u8]) {
            crate::functions::map_codes(crate::tables::table!($table), xs, ys);
        }
    };
}
#[allow(unused_imports)]
pub(crate) use byte_codes;

/// Looks up every code of `xs` in place in `table`, a table over codes in the
/// low bits of a byte (fewer than 256 entries).
///
/// # Panics
///
/// On a code outside the table, naming it and its position.
#[allow(dead_code)] // used by the formats whose codes do not fill a byte
#[track_caller]
pub(crate) fn apply_codes(table: &[u8], xs: &mut [u8]) {
    for (i, x) in xs.iter_mut().enumerate() {
        *x = lookup_code(table, *x, i);
    }
}

/// Writes the lookup of every code of `xs` in `table` to `ys` (see
/// [`apply_codes`]).
///
/// # Panics
///
/// If `xs.len() != ys.len()`, or on a code outside the table.
#[allow(dead_code)] // used by the formats whose codes do not fill a byte
#[track_caller]
pub(crate) fn map_codes(table: &[u8], xs: &[u8], ys: &mut [u8]) {
    crate::errors::check_lengths(xs.len(), ys.len());
    for (i, (y, &x)) in ys.iter_mut().zip(xs).enumerate() {
        *y = lookup_code(table, x, i);
    }
}

/// Looks up one code in `table`, a table over codes in the low bits of a byte.
///
/// # Panics
///
/// On a code outside the table, naming it.
#[allow(dead_code)] // used by the formats whose codes do not fill a byte
#[inline]
#[track_caller]
pub(crate) fn code(table: &[u8], code: u8) -> u8 {
    match table.get(usize::from(code)) {
        Some(&y) => y,
        None => outside(table, code, None),
    }
}

#[track_caller]
fn lookup_code(table: &[u8], code: u8, index: usize) -> u8 {
    match table.get(usize::from(code)) {
        Some(&y) => y,
        None => outside(table, code, Some(index)),
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn outside(table: &[u8], code: u8, index: Option<usize>) -> ! {
    match index {
        Some(i) => panic!(
            "code {code:#04x} at index {i} is outside the {}-entry table (bits set above the format's width)",
            table.len()
        ),
        None => panic!(
            "code {code:#04x} is outside the {}-entry table (bits set above the format's width)",
            table.len()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: [u8; 16] = [0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39, 42, 45];

    #[test]
    fn codes_are_looked_up_in_place_and_out_of_place() {
        let mut xs = [0u8, 15, 7, 1];
        let mut ys = [0u8; 4];
        map_codes(&TABLE, &xs, &mut ys);
        apply_codes(&TABLE, &mut xs);
        assert_eq!(xs, [0, 45, 21, 3]);
        assert_eq!(ys, xs);
    }

    #[test]
    #[should_panic(expected = "code 0x10 at index 2 is outside the 16-entry table")]
    fn a_code_with_stray_high_bits_panics_naming_it() {
        apply_codes(&TABLE, &mut [1, 2, 0x10]);
    }

    #[test]
    #[should_panic(expected = "code 0x10 is outside the 16-entry table")]
    fn one_code_with_stray_high_bits_panics_naming_it() {
        assert_eq!(code(&TABLE, 15), 45);
        code(&TABLE, 0x10);
    }

    #[test]
    #[should_panic(
        expected = "source slice length (2) does not match destination slice length (1)"
    )]
    fn mismatched_lengths_panic() {
        map_codes(&TABLE, &[1, 2], &mut [0]);
    }
}
