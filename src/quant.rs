//! Fused dequantize → function (→ requantize) tables for quantized data, built at run time
//! without allocation.
//!
//! A [`DequantTable`] holds, inline, one output per input code: the result of the unfused
//! pipeline of docs/SEMANTICS.md ("Quantized domains"), stage by stage in `f32` as ONNX defines it:
//!
//! 1. `x = (q − zero_point) as f32 * scale` (the difference exact, the product rounded once);
//! 2. `y = f(x)` rounded to the output format: `f32` through [`computed::f32`], `f16`/`bf16`
//!    correctly rounded from the exact `x`; or `y = x` for [`Function::Identity`](crate::Function::Identity);
//! 3. for `i8`/`u8` outputs, `saturate(round_half_to_even(y / out_scale) + out_zero_point)`,
//!    the division in `f32`.
//!
//! Applying the table is then one load per element, bit-identical to the pipeline.
//!
//! ```
//! use actlut::Function;
//! use actlut::quant::DequantTable;
//!
//! let gelu = DequantTable::<i8, f32>::new(Function::Gelu, 0.05, -3)?;
//! let codes = [-3i8, 17, -128, 127];
//! let mut out = [0f32; 4];
//! gelu.map(&codes, &mut out);
//! assert_eq!(out[0], 0.0); // q = zero_point: x = 0
//! assert_eq!(out[1], 0.841_344_75); // x = 1.0
//! assert_eq!(gelu.lookup(17), out[1]);
//!
//! // Requantized to u8, and a parameter error that names itself.
//! let q = DequantTable::<u8, u8>::requantized(Function::Sigmoid, 0.1, 128, 1.0 / 256.0, 0)?;
//! assert_eq!(q.lookup(128), 128); // sigmoid(0) = 0.5 → 128
//! let err = DequantTable::<u8, f32>::new(Function::Tanh, 0.0, 0).unwrap_err();
//! assert_eq!(err.to_string(), "scale must be finite and positive, got 0.0");
//! # Ok::<(), actlut::quant::QuantError>(())
//! ```
//!
//! 16-bit inputs (`i16`, `u16`: TFLite 16x8, ONNX opset 21) have tables of 65,536 entries,
//! built into a caller's buffer by [`crate::quant16`]. Requantized tables take a [`Rounding`]
//! (`requantized_with`): ties to even by default (ONNX), or away from zero (TFLite).
//!
//! Inputs are `i8`, `u8`, the 4-bit [`I4`] and [`U4`] and the 2-bit [`I2`] and [`U2`]: unpacked
//! (one value per `i8`/`u8`, range-checked) with [`DequantTable`], or packed (ONNX: the 4-bit
//! types two per byte, the 2-bit types four, the first element in the lowest bits) with
//! [`PackedDequantTable`], whose 256 entries are the outputs of a byte's values, keyed by the
//! whole byte. Outputs are `f32`, [`half::f16`], [`half::bf16`], and requantized `i8`/`u8`.
//! Build-time alternatives are `actlut_codegen::builder` (from a build script) and, with the
//! `macros` feature, the `dequant_table!` macro (a `static` table from literal parameters,
//! checked at compile time); all three compute entries with
//! [`actlut_core::quant::Pipeline`], so they agree.
//!
//! # Accuracy
//!
//! Stages 1 and 3 are exact `f32` operations. Stage 2 into `f16` or `bf16` is the correct
//! rounding of `f(x)` at the exact `x` (the MPFR oracle finds no exception over every
//! dequantized value of 14 scales and 100,000 random `f32` inputs per function and format);
//! the reference reports, through `actlut_core::quant::eval_value_traced`, any input it
//! could only round faithfully (within 0.5 ulp + 2^-40). Stage 2 into `f32` has the accuracy of
//! [`computed::f32`]: correctly rounded except within 2^-40 of an `f32` rounding boundary
//! (the oracle finds 66 in 1,065,536 inputs, all sigmoid near 0: `1/2 + x/4` on a midpoint),
//! and always within 0.5 ulp + 2^-40. NaN results (log or rsqrt of a negative `x`) requantize
//! to `out_zero_point`.
//!
//! [`computed::f32`]: crate::computed::f32

use core::marker::PhantomData;

use actlut_core::quant::Pipeline;
pub use actlut_core::quant::{Op, QuantError, QuantType, Rounding};

use crate::element::{Bits, BitsMut};
/// The element types, one family with `quant16`'s and `mx`'s ([`crate::element`]).
pub use crate::element::{
    FloatOutput, Input, Input2, Input4, Input8, Output, PackedInput, QuantOutput, I2, I4, U2, U4,
};

#[cfg(feature = "macros")]
#[cfg_attr(docsrs, doc(cfg(feature = "macros")))]
pub use actlut_macros::dequant_table;

/// What `dequant_table!` expansions name; not part of the API.
#[doc(hidden)]
pub mod __private {
    pub use actlut_core::Function;
    pub use half;
}

/// A fused dequantize → function (→ requantize) table over the codes of `In`, with outputs of
/// type `Out`, held inline (`[Out; 256]`; 4-bit inputs use the first 16 slots, 2-bit ones the
/// first 4). See the
/// [module docs](self).
#[derive(Clone, Copy, Debug)]
pub struct DequantTable<In: Input, Out: Output> {
    table: [Out; 256],
    op: Op,
    scale: f32,
    zero_point: i32,
    _input: PhantomData<In>,
}

impl<In: Input, Out: Output> DequantTable<In, Out> {
    fn build(pipeline: Result<Pipeline, QuantError>) -> Result<Self, QuantError> {
        let p = pipeline?;
        let mut table = [Out::ZERO; 256];
        for (code, t) in table.iter_mut().take(In::TYPE.codes()).enumerate() {
            *t = Out::from_entry(p.entry(code as u16));
        }
        Ok(DequantTable {
            table,
            op: p.op(),
            scale: p.scale(),
            zero_point: p.zero_point(),
            _input: PhantomData,
        })
    }

    /// A table from precomputed entries, without checks: what `dequant_table!` expands to.
    #[doc(hidden)]
    pub const fn from_parts_unchecked(
        table: [Out; 256],
        op: Op,
        scale: f32,
        zero_point: i32,
    ) -> Self {
        DequantTable {
            table,
            op,
            scale,
            zero_point,
            _input: PhantomData,
        }
    }

    /// The entries, indexed by code: 256 for 8-bit inputs (an `i8` value `v` at `v as u8`),
    /// 16 for 4-bit ones (indexed by the nibble: `I4` −1 at 15), 4 for 2-bit ones (`I2` −1 at
    /// 3).
    ///
    /// ```
    /// use actlut::Function;
    /// use actlut::quant::DequantTable;
    /// let t = DequantTable::<i8, f32>::new(Function::Tanh, 0.1, 0)?;
    /// assert_eq!(t.entries().len(), 256);
    /// assert_eq!(t.entries()[255], t.lookup(-1));
    /// # Ok::<(), actlut::quant::QuantError>(())
    /// ```
    pub fn entries(&self) -> &[Out] {
        &self.table[..In::TYPE.codes()]
    }

    /// The op applied after dequantization.
    ///
    /// ```
    /// use actlut::Function;
    /// use actlut::quant::{DequantTable, Op};
    /// let t = DequantTable::<u8, f32>::new(Function::Erf, 0.1, 3)?;
    /// assert_eq!((t.op(), t.scale(), t.zero_point()), (Op::from(Function::Erf), 0.1, 3));
    /// # Ok::<(), actlut::quant::QuantError>(())
    /// ```
    pub fn op(&self) -> Op {
        self.op
    }

    /// The input scale.
    ///
    /// ```
    /// use actlut::Function;
    /// use actlut::quant::DequantTable;
    /// assert_eq!(DequantTable::<u8, f32>::new(Function::Erf, 0.1, 3)?.scale(), 0.1);
    /// # Ok::<(), actlut::quant::QuantError>(())
    /// ```
    pub fn scale(&self) -> f32 {
        self.scale
    }

    /// The input zero point.
    ///
    /// ```
    /// use actlut::Function;
    /// use actlut::quant::DequantTable;
    /// assert_eq!(DequantTable::<u8, f32>::new(Function::Erf, 0.1, 3)?.zero_point(), 3);
    /// # Ok::<(), actlut::quant::QuantError>(())
    /// ```
    pub fn zero_point(&self) -> i32 {
        self.zero_point
    }

    /// The output for one value, or [`QuantError::OutOfRange`] naming the value if it is
    /// outside the input type (only possible for 4- and 2-bit inputs).
    ///
    /// ```
    /// use actlut::quant::{DequantTable, Op, I4};
    /// let t = DequantTable::<I4, f32>::new(Op::from(actlut::Function::Identity), 0.5, 0)?;
    /// assert_eq!(t.get(-8), Ok(-4.0));
    /// assert_eq!(t.get(100).unwrap_err().to_string(), "value 100 is outside i4 (-8..=7)");
    /// # Ok::<(), actlut::quant::QuantError>(())
    /// ```
    pub fn get(&self, value: In::Value) -> Result<Out, QuantError> {
        let v: i32 = value.into();
        if In::TYPE.contains(v) {
            Ok(self.table[usize::from(In::TYPE.code(v))])
        } else {
            Err(QuantError::OutOfRange {
                value: v,
                ty: In::TYPE,
            })
        }
    }
}

impl<In: Input, Out: FloatOutput> DequantTable<In, Out> {
    /// The table of `op` (an [`Op`] or a [`Function`](crate::Function); the identity is a plain
    /// dequantization) after
    /// dequantizing with `scale` and `zero_point`, with float outputs.
    ///
    /// # Errors
    ///
    /// [`QuantError::Scale`] if `scale` is not finite and positive, [`QuantError::ZeroPoint`]
    /// if `zero_point` is not a value of `In`.
    ///
    /// ```
    /// use actlut::Function;
    /// use actlut::quant::{DequantTable, U4};
    /// use half::f16;
    /// let t = DequantTable::<U4, f16>::new(Function::Exp, 0.25, 8)?;
    /// assert_eq!(t.entries().len(), 16);
    /// assert_eq!(t.get(8)?, f16::ONE); // exp(0)
    /// # Ok::<(), actlut::quant::QuantError>(())
    /// ```
    pub fn new(op: impl Into<Op>, scale: f32, zero_point: i32) -> Result<Self, QuantError> {
        Self::build(Pipeline::new(
            op.into(),
            In::TYPE,
            scale,
            zero_point,
            Out::STAGE,
        ))
    }
}

impl<In: Input, Out: QuantOutput> DequantTable<In, Out> {
    /// The table of `op` after dequantizing with `scale` and `zero_point`, requantized with
    /// `out_scale` and `out_zero_point` to `i8` or `u8`.
    ///
    /// # Errors
    ///
    /// As [`new`](DequantTable::new), and the same for `out_scale` and `out_zero_point`.
    ///
    /// ```
    /// use actlut::Function;
    /// use actlut::quant::DequantTable;
    /// let t = DequantTable::<i8, i8>::requantized(Function::Hardswish, 0.1, 0, 0.05, -128)?;
    /// assert_eq!(t.lookup(0), -128); // hardswish(0) = 0: the output zero point
    /// assert_eq!(t.lookup(127), 126); // hardswish(12.7) = 12.7; 12.7 / 0.05 = 254; 254 − 128
    /// assert_eq!(t.lookup(-128), -128); // hardswish(−12.8) = −0
    /// let s = DequantTable::<i8, i8>::requantized(Function::Exp, 0.1, 0, 0.05, 0)?;
    /// assert_eq!(s.lookup(100), 127); // e^10 / 0.05 saturates
    /// assert!(DequantTable::<i8, u8>::requantized(Function::Gelu, 0.1, 0, 0.1, 256).is_err());
    /// # Ok::<(), actlut::quant::QuantError>(())
    /// ```
    pub fn requantized(
        op: impl Into<Op>,
        scale: f32,
        zero_point: i32,
        out_scale: f32,
        out_zero_point: i32,
    ) -> Result<Self, QuantError> {
        Self::requantized_with(
            op,
            scale,
            zero_point,
            out_scale,
            out_zero_point,
            Rounding::TiesToEven,
        )
    }

    /// [`requantized`](Self::requantized) with ties rounded by `rounding`: ties to even
    /// (ONNX, the default of `requantized`) or away from zero (TFLite, CMSIS-NN, ExecuTorch).
    ///
    /// # Errors
    ///
    /// As [`requantized`](Self::requantized).
    ///
    /// ```
    /// use actlut::quant::{DequantTable, Op, Rounding};
    /// let away = DequantTable::<i8, i8>::requantized_with(
    ///     Op::from(actlut::Function::Identity), 1.0, 0, 2.0, 0, Rounding::TiesAwayFromZero,
    /// )?;
    /// assert_eq!([away.lookup(1), away.lookup(3), away.lookup(-3)], [1, 2, -2]);
    /// let even = DequantTable::<i8, i8>::requantized(Op::from(actlut::Function::Identity), 1.0, 0, 2.0, 0)?;
    /// assert_eq!([even.lookup(1), even.lookup(3), even.lookup(-3)], [0, 2, -2]);
    /// # Ok::<(), actlut::quant::QuantError>(())
    /// ```
    pub fn requantized_with(
        op: impl Into<Op>,
        scale: f32,
        zero_point: i32,
        out_scale: f32,
        out_zero_point: i32,
        rounding: Rounding,
    ) -> Result<Self, QuantError> {
        Self::build(
            Pipeline::new(
                op.into(),
                In::TYPE,
                scale,
                zero_point,
                Out::stage(out_scale, out_zero_point),
            )
            .map(|p| p.with_rounding(rounding)),
        )
    }
}

impl<In: Input8, Out: Output> DequantTable<In, Out> {
    /// The output for one value: one load.
    ///
    /// ```
    /// use actlut::Function;
    /// use actlut::quant::DequantTable;
    /// let t = DequantTable::<u8, f32>::new(Function::Exp, 0.5, 10)?;
    /// assert_eq!(t.lookup(10), 1.0);
    /// # Ok::<(), actlut::quant::QuantError>(())
    /// ```
    #[inline]
    pub fn lookup(&self, value: In::Value) -> Out {
        self.table[In::index(value)]
    }

    /// Writes the output of every value of `values` to `out`.
    ///
    /// # Panics
    ///
    /// If `values.len() != out.len()`, with a message that names both lengths:
    /// `actlut: source slice length (3) does not match destination slice length (2)`.
    ///
    /// ```
    /// use actlut::Function;
    /// use actlut::quant::DequantTable;
    /// let t = DequantTable::<i8, f32>::new(Function::Silu, 0.25, 0)?;
    /// let mut out = [0f32; 3];
    /// t.map(&[0, 4, -4], &mut out);
    /// assert_eq!(out[0], 0.0);
    /// assert_eq!(out[1], t.lookup(4));
    /// # Ok::<(), actlut::quant::QuantError>(())
    /// ```
    #[inline]
    #[track_caller]
    pub fn map(&self, values: &[In::Value], out: &mut [Out]) {
        crate::errors::check_lengths(values.len(), out.len());
        map_indices(&self.table, In::bytes(values), out);
    }
}

impl<Out: Output> DequantTable<I4, Out> {
    /// Writes the output of every unpacked value of `values` to `out`.
    ///
    /// # Errors
    ///
    /// [`QuantError::Lengths`] naming both lengths if `values.len() != out.len()` (nothing is
    /// written then); [`QuantError::Value`] naming the first value outside −8..=7 and its index;
    /// the outputs before it are written.
    ///
    /// ```
    /// use actlut::Function;
    /// use actlut::quant::{DequantTable, I4};
    /// let t = DequantTable::<I4, f32>::new(Function::Tanh, 0.5, 0)?;
    /// let mut out = [0f32; 3];
    /// t.map(&[-8, 0, 7], &mut out)?;
    /// let err = t.map(&[1, 2, 9], &mut out).unwrap_err();
    /// assert_eq!(err.to_string(), "codes[2] = 9 is outside i4 (-8..=7)");
    /// # Ok::<(), actlut::quant::QuantError>(())
    /// ```
    pub fn map(&self, values: &[i8], out: &mut [Out]) -> Result<(), QuantError> {
        map_checked(&self.table, QuantType::I4, values, out)
    }
}

impl<Out: Output> DequantTable<U4, Out> {
    /// Writes the output of every unpacked value of `values` to `out`.
    ///
    /// # Errors
    ///
    /// [`QuantError::Lengths`] naming both lengths if `values.len() != out.len()` (nothing is
    /// written then); [`QuantError::Value`] naming the first value above 15 and its index; the
    /// outputs before it are written.
    ///
    /// ```
    /// use actlut::Function;
    /// use actlut::quant::{DequantTable, U4};
    /// let t = DequantTable::<U4, f32>::new(Function::Sigmoid, 1.0, 8)?;
    /// let mut out = [0f32; 2];
    /// t.map(&[8, 15], &mut out)?;
    /// assert_eq!(out[0], 0.5);
    /// assert_eq!(t.map(&[16, 0], &mut out).unwrap_err().to_string(), "codes[0] = 16 is outside u4 (0..=15)");
    /// # Ok::<(), actlut::quant::QuantError>(())
    /// ```
    pub fn map(&self, values: &[u8], out: &mut [Out]) -> Result<(), QuantError> {
        map_checked(&self.table, QuantType::U4, values, out)
    }
}

impl<Out: Output> DequantTable<I2, Out> {
    /// Writes the output of every unpacked value of `values` to `out`.
    ///
    /// # Errors
    ///
    /// [`QuantError::Lengths`] naming both lengths if `values.len() != out.len()` (nothing is
    /// written then); [`QuantError::Value`] naming the first value outside −2..=1 and its index;
    /// the outputs before it are written.
    ///
    /// ```
    /// use actlut::Function;
    /// use actlut::quant::{DequantTable, I2};
    /// let t = DequantTable::<I2, f32>::new(Function::Tanh, 0.5, 0)?;
    /// let mut out = [0f32; 2];
    /// t.map(&[-2, 1], &mut out)?;
    /// assert_eq!(out, [(-1f32).tanh(), 0.5f32.tanh()]);
    /// let err = t.map(&[0, 2], &mut out).unwrap_err();
    /// assert_eq!(err.to_string(), "codes[1] = 2 is outside i2 (-2..=1)");
    /// # Ok::<(), actlut::quant::QuantError>(())
    /// ```
    pub fn map(&self, values: &[i8], out: &mut [Out]) -> Result<(), QuantError> {
        map_checked(&self.table, QuantType::I2, values, out)
    }
}

impl<Out: Output> DequantTable<U2, Out> {
    /// Writes the output of every unpacked value of `values` to `out`.
    ///
    /// # Errors
    ///
    /// [`QuantError::Lengths`] naming both lengths if `values.len() != out.len()` (nothing is
    /// written then); [`QuantError::Value`] naming the first value above 3 and its index; the
    /// outputs before it are written.
    ///
    /// ```
    /// use actlut::quant::{DequantTable, Op, U2};
    /// let t = DequantTable::<U2, f32>::new(Op::from(actlut::Function::Identity), 1.0, 1)?;
    /// let mut out = [0f32; 2];
    /// t.map(&[0, 3], &mut out)?;
    /// assert_eq!(out, [-1.0, 2.0]);
    /// assert!(t.map(&[4, 0], &mut out).is_err());
    /// # Ok::<(), actlut::quant::QuantError>(())
    /// ```
    pub fn map(&self, values: &[u8], out: &mut [Out]) -> Result<(), QuantError> {
        map_checked(&self.table, QuantType::U2, values, out)
    }
}

/// The outputs of range-checked values (the 4- and 2-bit inputs, unpacked).
fn map_checked<V: Copy + Into<i32>, Out: Copy>(
    table: &[Out; 256],
    ty: QuantType,
    values: &[V],
    out: &mut [Out],
) -> Result<(), QuantError> {
    if values.len() != out.len() {
        return Err(QuantError::Lengths {
            values: values.len(),
            outputs: out.len(),
        });
    }
    for (i, (o, &v)) in out.iter_mut().zip(values).enumerate() {
        let v: i32 = v.into();
        if !ty.contains(v) {
            return Err(QuantError::Value {
                parameter: "codes",
                index: i,
                value: v,
                ty,
            });
        }
        *o = table[usize::from(ty.code(v))];
    }
    Ok(())
}

impl DequantTable<i8, i8> {
    /// Replaces every value of `values` by its output, in place.
    ///
    /// ```
    /// use actlut::Function;
    /// use actlut::quant::DequantTable;
    /// let t = DequantTable::<i8, i8>::requantized(Function::Gelu, 0.05, 0, 0.05, 0)?;
    /// let mut v = [0i8, 20, -20];
    /// t.apply(&mut v);
    /// assert_eq!(v, [0, 17, -3]); // gelu(1) = 0.84, gelu(-1) = -0.16
    /// # Ok::<(), actlut::quant::QuantError>(())
    /// ```
    #[inline]
    pub fn apply(&self, values: &mut [i8]) {
        let table: &[u8; 256] = zerocopy::transmute_ref!(&self.table);
        crate::kernels::apply_u8(table, zerocopy::IntoBytes::as_mut_bytes(values));
    }
}

impl DequantTable<u8, u8> {
    /// Replaces every value of `values` by its output, in place.
    ///
    /// ```
    /// use actlut::quant::{DequantTable, Op};
    /// let t = DequantTable::<u8, u8>::requantized(Op::from(actlut::Function::Identity), 1.0, 0, 2.0, 0)?;
    /// let mut v = [0u8, 3, 200];
    /// t.apply(&mut v);
    /// assert_eq!(v, [0, 2, 100]); // 1.5 ties to even
    /// # Ok::<(), actlut::quant::QuantError>(())
    /// ```
    #[inline]
    pub fn apply(&self, values: &mut [u8]) {
        crate::kernels::apply_u8(&self.table, values);
    }
}

/// A fused table over packed data: for each byte, the outputs of its `N` values, the first in
/// the lowest bits (ONNX's packing): the 4-bit types two per byte (`N = 2`, the default), the
/// 2-bit types four (`N = 4`). 256 groups held inline.
///
/// ```
/// use actlut::Function;
/// use actlut::quant::{PackedDequantTable, I2, I4};
/// let t = PackedDequantTable::<I4, f32>::new(Function::Softsign, 1.0, 0)?;
/// // 0x8F holds −1 (low nibble 0xF) then −8 (high nibble 0x8).
/// assert_eq!(t.lookup(0x8F), [-0.5, -8.0 / 9.0]);
/// let mut out = [0f32; 3]; // three values in two bytes: the last high nibble is padding
/// t.map(&[0x8F, 0x01], &mut out);
/// assert_eq!(out, [-0.5, -8.0 / 9.0, 0.5]);
/// // Four 2-bit values per byte: 0b10_11_00_01 holds 1, 0, −1, −2.
/// let t2 = PackedDequantTable::<I2, f32, 4>::new(Function::Softsign, 1.0, 0)?;
/// assert_eq!(t2.lookup(0b10_11_00_01), [0.5, 0.0, -0.5, -2.0 / 3.0]);
/// # Ok::<(), actlut::quant::QuantError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct PackedDequantTable<In: PackedInput<N>, Out: Output, const N: usize = 2> {
    groups: [[Out; N]; 256],
    unpacked: DequantTable<In, Out>,
}

impl<In: PackedInput<N>, Out: Output, const N: usize> PackedDequantTable<In, Out, N> {
    fn from_unpacked(unpacked: DequantTable<In, Out>) -> Self {
        let bits = In::TYPE.bits();
        let mask = (1usize << bits) - 1;
        let mut groups = [[Out::ZERO; N]; 256];
        for (b, g) in groups.iter_mut().enumerate() {
            for (k, o) in g.iter_mut().enumerate() {
                *o = unpacked.table[(b >> (k as u32 * bits)) & mask];
            }
        }
        PackedDequantTable { groups, unpacked }
    }

    /// A table from precomputed parts, without checks: what `dequant_table!` expands to.
    #[doc(hidden)]
    pub const fn from_parts_unchecked(
        groups: [[Out; N]; 256],
        unpacked: DequantTable<In, Out>,
    ) -> Self {
        PackedDequantTable { groups, unpacked }
    }

    /// The table of unpacked values it was built from.
    ///
    /// ```
    /// use actlut::Function;
    /// use actlut::quant::{PackedDequantTable, I4};
    /// let t = PackedDequantTable::<I4, f32>::new(Function::Gelu, 0.5, 0)?;
    /// assert_eq!(t.lookup(0x21), [t.unpacked().entries()[1], t.unpacked().entries()[2]]);
    /// # Ok::<(), actlut::quant::QuantError>(())
    /// ```
    pub fn unpacked(&self) -> &DequantTable<In, Out> {
        &self.unpacked
    }

    /// The groups of outputs, indexed by byte.
    ///
    /// ```
    /// use actlut::quant::{PackedDequantTable, Op, U4};
    /// let t = PackedDequantTable::<U4, f32>::new(Op::from(actlut::Function::Identity), 1.0, 0)?;
    /// assert_eq!(t.entries()[0x21], [1.0, 2.0]);
    /// # Ok::<(), actlut::quant::QuantError>(())
    /// ```
    pub fn entries(&self) -> &[[Out; N]; 256] {
        &self.groups
    }

    /// The outputs of the `N` values of `byte`: the lowest bits first.
    ///
    /// ```
    /// use actlut::quant::{PackedDequantTable, Op, I4};
    /// let t = PackedDequantTable::<I4, f32>::new(Op::from(actlut::Function::Identity), 1.0, 0)?;
    /// assert_eq!(t.lookup(0x7F), [-1.0, 7.0]);
    /// # Ok::<(), actlut::quant::QuantError>(())
    /// ```
    #[inline]
    pub fn lookup(&self, byte: u8) -> [Out; N] {
        self.groups[usize::from(byte)]
    }

    /// Writes the outputs of the values packed in `packed` to `out`, `N` per byte, the lowest
    /// bits first. `out` may be shorter than `N * packed.len()` by less than `N`: the last
    /// byte's unused high fields are padding.
    ///
    /// # Panics
    ///
    /// If `out.len()` is not between `N * packed.len() − N + 1` and `N * packed.len()` (or
    /// both are empty).
    ///
    /// ```
    /// use actlut::quant::{PackedDequantTable, Op, U2, U4};
    /// let t = PackedDequantTable::<U4, u8>::requantized(Op::from(actlut::Function::Identity), 1.0, 0, 1.0, 0)?;
    /// let mut out = [0u8; 4];
    /// t.map(&[0x21, 0x43], &mut out);
    /// assert_eq!(out, [1, 2, 3, 4]);
    /// let t2 = PackedDequantTable::<U2, u8, 4>::requantized(Op::from(actlut::Function::Identity), 1.0, 0, 1.0, 0)?;
    /// let mut out = [0u8; 5]; // five values in two bytes
    /// t2.map(&[0b00_01_10_11, 0b00_00_00_10], &mut out);
    /// assert_eq!(out, [3, 2, 1, 0, 2]);
    /// # Ok::<(), actlut::quant::QuantError>(())
    /// ```
    #[track_caller]
    pub fn map(&self, packed: &[u8], out: &mut [Out]) {
        let n = out.len();
        let full = N * packed.len();
        let least = full.saturating_sub(N - 1).max(usize::from(full > 0));
        assert!(
            (least..=full).contains(&n),
            "map: {} packed bytes hold {} values, not {n}",
            packed.len(),
            Span(least, full)
        );
        let mut chunks = out.chunks_exact_mut(N);
        for (o, &b) in (&mut chunks).zip(packed) {
            o.copy_from_slice(&self.groups[usize::from(b)]);
        }
        let rest = chunks.into_remainder();
        if !rest.is_empty() {
            let last = &self.groups[usize::from(packed[packed.len() - 1])];
            rest.copy_from_slice(&last[..rest.len()]);
        }
    }
}

/// How many values some packed bytes hold, for a message: `4 or 3` (two per byte) or
/// `5..=8` (four per byte).
struct Span(usize, usize);

impl core::fmt::Display for Span {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if self.1 == self.0 + 1 {
            write!(f, "{} or {}", self.1, self.0)
        } else {
            write!(f, "{}..={}", self.0, self.1)
        }
    }
}

impl<In: PackedInput<N>, Out: FloatOutput, const N: usize> PackedDequantTable<In, Out, N> {
    /// The packed table of `op` after dequantizing with `scale` and `zero_point`.
    ///
    /// # Errors
    ///
    /// As [`DequantTable::new`].
    ///
    /// ```
    /// use actlut::Function;
    /// use actlut::quant::{PackedDequantTable, I4};
    /// use half::f16;
    /// let t = PackedDequantTable::<I4, f16>::new(Function::Exp, 1.0, 0)?;
    /// assert_eq!(t.lookup(0x00), [f16::ONE, f16::ONE]);
    /// # Ok::<(), actlut::quant::QuantError>(())
    /// ```
    pub fn new(op: impl Into<Op>, scale: f32, zero_point: i32) -> Result<Self, QuantError> {
        DequantTable::new(op, scale, zero_point).map(Self::from_unpacked)
    }
}

impl<In: PackedInput<N>, Out: QuantOutput, const N: usize> PackedDequantTable<In, Out, N> {
    /// The packed table of `op` after dequantizing, requantized to `i8` or `u8`.
    ///
    /// # Errors
    ///
    /// As [`DequantTable::requantized`].
    ///
    /// ```
    /// use actlut::Function;
    /// use actlut::quant::{PackedDequantTable, U4};
    /// let t = PackedDequantTable::<U4, i8>::requantized(Function::Hardswish, 1.0, 0, 0.1, 0)?;
    /// assert_eq!(t.lookup(0x0F), [127, 0]); // low nibble 15: hardswish(15) / 0.1 saturates
    /// assert!(PackedDequantTable::<U4, i8>::requantized(Function::Exp, 1.0, 16, 0.1, 0).is_err());
    /// # Ok::<(), actlut::quant::QuantError>(())
    /// ```
    pub fn requantized(
        op: impl Into<Op>,
        scale: f32,
        zero_point: i32,
        out_scale: f32,
        out_zero_point: i32,
    ) -> Result<Self, QuantError> {
        DequantTable::requantized(op, scale, zero_point, out_scale, out_zero_point)
            .map(Self::from_unpacked)
    }

    /// [`requantized`](Self::requantized) with ties rounded by `rounding`.
    ///
    /// # Errors
    ///
    /// As [`DequantTable::requantized`].
    ///
    /// ```
    /// use actlut::quant::{PackedDequantTable, Op, Rounding, U4};
    /// let t = PackedDequantTable::<U4, u8>::requantized_with(
    ///     Op::from(actlut::Function::Identity), 1.0, 0, 2.0, 0, Rounding::TiesAwayFromZero,
    /// )?;
    /// assert_eq!(t.lookup(0x51), [1, 3]); // 0.5 → 1, 2.5 → 3
    /// # Ok::<(), actlut::quant::QuantError>(())
    /// ```
    pub fn requantized_with(
        op: impl Into<Op>,
        scale: f32,
        zero_point: i32,
        out_scale: f32,
        out_zero_point: i32,
        rounding: Rounding,
    ) -> Result<Self, QuantError> {
        DequantTable::requantized_with(op, scale, zero_point, out_scale, out_zero_point, rounding)
            .map(Self::from_unpacked)
    }
}

/// `out[i] = table[indices[i]]` through the byte kernel of the output's width (byte → byte,
/// byte → 16-bit, byte → 32-bit): bits in, bits out, so NaN payloads are kept.
/// `indices.len() == out.len()`.
#[inline]
fn map_indices<T: Output>(table: &[T; 256], indices: &[u8], out: &mut [T]) {
    const N: &str = "256 entries";
    match (T::bits(table), T::bits_mut(out)) {
        (Bits::U8(t), BitsMut::U8(o)) => crate::kernels::map_u8(t.try_into().expect(N), indices, o),
        (Bits::U16(t), BitsMut::U16(o)) => {
            crate::kernels::map_u8_u16(t.try_into().expect(N), indices, o)
        }
        (Bits::U32(t), BitsMut::U32(o)) => {
            crate::kernels::map_u8_u32(t.try_into().expect(N), indices, o)
        }
        _ => unreachable!("a table and its outputs have one width"),
    }
}
