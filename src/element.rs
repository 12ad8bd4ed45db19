//! The element types of the run-time tables, one sealed family: the quantized codes a table
//! is indexed by ([`Input`], [`Input8`], [`Input4`], [`Input2`] and [`PackedInput`] for `quant`,
//! [`Input16`] for `quant16`) and
//! the values it holds ([`Output`], with [`FloatOutput`] for the tables built from a function's
//! value and [`QuantOutput`] for the requantized ones), for `quant`, `quant16`, `mx` and the FP4
//! rows of `kernels`.
//!
//! It sits below the kernel layer: it names no kernel, and the kernels import it. An element
//! gives the lookups its bits ([`Output::bits`], [`Output::bits_mut`]), and the caller picks the
//! kernel for their width. Sealed: the tables and kernels exist for these types only.

use actlut_core::quant::{Op, OutputType, QuantType};
use actlut_core::Format;

mod sealed {
    pub trait Sealed {}
    impl Sealed for i8 {}
    impl Sealed for u8 {}
    impl Sealed for i16 {}
    impl Sealed for u16 {}
    impl Sealed for super::I4 {}
    impl Sealed for super::U4 {}
    impl Sealed for super::I2 {}
    impl Sealed for super::U2 {}
    impl Sealed for f32 {}
    impl Sealed for half::f16 {}
    impl Sealed for half::bf16 {}
}

/// Signed 4-bit input (−8..=7): unpacked as one `i8` per value, or packed two per byte.
///
/// ```
/// use actlut::Function;
/// use actlut::quant::{DequantTable, I4};
/// let t = DequantTable::<I4, f32>::new(Function::Exp, 0.5, 0)?;
/// assert_eq!(t.get(-8)?, (-4.0f32).exp());
/// # Ok::<(), actlut::quant::QuantError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum I4 {}

/// Unsigned 4-bit input (0..=15): unpacked as one `u8` per value, or packed two per byte.
///
/// ```
/// use actlut::quant::{Op, PackedDequantTable, U4};
/// let t = PackedDequantTable::<U4, u8>::requantized(Op::from(actlut::Function::Identity), 1.0, 0, 1.0, 0)?;
/// assert_eq!(t.lookup(0xF1), [1, 15]);
/// # Ok::<(), actlut::quant::QuantError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum U4 {}

/// Signed 2-bit input (−2..=1, ONNX `INT2`, ml_dtypes `int2`): unpacked as one `i8` per value,
/// or packed four per byte.
///
/// ```
/// use actlut::quant::{DequantTable, Op, I2};
/// let t = DequantTable::<I2, f32>::new(Op::from(actlut::Function::Identity), 0.5, 0)?;
/// assert_eq!(t.entries(), [0.0, 0.5, -1.0, -0.5]);
/// # Ok::<(), actlut::quant::QuantError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum I2 {}

/// Unsigned 2-bit input (0..=3, ONNX `UINT2`, ml_dtypes `uint2`): unpacked as one `u8` per
/// value, or packed four per byte.
///
/// ```
/// use actlut::quant::{Op, PackedDequantTable, U2};
/// let t = PackedDequantTable::<U2, u8, 4>::requantized(Op::from(actlut::Function::Identity), 1.0, 0, 1.0, 0)?;
/// assert_eq!(t.lookup(0b11_10_01_00), [0, 1, 2, 3]); // the first value in the low two bits
/// # Ok::<(), actlut::quant::QuantError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum U2 {}

/// A quantized input type: `i8`, `u8`, [`I4`], [`U4`], [`I2`], [`U2`].
///
/// ```
/// use actlut::element::{Input, I4};
/// use actlut::quant::QuantType;
/// assert_eq!(<I4 as Input>::TYPE, QuantType::I4);
/// assert_eq!(<u8 as Input>::TYPE.max(), 255);
/// ```
pub trait Input: sealed::Sealed + Copy + 'static {
    /// The element type of unpacked data: `i8` for signed inputs, `u8` for unsigned ones.
    type Value: Copy + Into<i32>;
    /// The type's range and name.
    const TYPE: QuantType;
}

impl Input for i8 {
    type Value = i8;
    const TYPE: QuantType = QuantType::I8;
}
impl Input for u8 {
    type Value = u8;
    const TYPE: QuantType = QuantType::U8;
}
impl Input for I4 {
    type Value = i8;
    const TYPE: QuantType = QuantType::I4;
}
impl Input for U4 {
    type Value = u8;
    const TYPE: QuantType = QuantType::U4;
}
impl Input for I2 {
    type Value = i8;
    const TYPE: QuantType = QuantType::I2;
}
impl Input for U2 {
    type Value = u8;
    const TYPE: QuantType = QuantType::U2;
}

/// An 8-bit input type (`i8`, `u8`): every value is valid, so lookups cannot fail.
///
/// ```
/// use actlut::element::Input8;
/// assert_eq!(<i8 as Input8>::index(-1), 255);
/// ```
pub trait Input8: Input {
    /// The table index of a value (its byte).
    fn index(value: Self::Value) -> usize;
    /// The values as their bytes (the table indices), for the byte kernels.
    #[doc(hidden)]
    fn bytes(values: &[Self::Value]) -> &[u8];
}
impl Input8 for i8 {
    #[inline(always)]
    fn index(value: i8) -> usize {
        usize::from(value as u8)
    }
    #[inline(always)]
    fn bytes(values: &[i8]) -> &[u8] {
        zerocopy::IntoBytes::as_bytes(values)
    }
}
impl Input8 for u8 {
    #[inline(always)]
    fn index(value: u8) -> usize {
        usize::from(value)
    }
    #[inline(always)]
    fn bytes(values: &[u8]) -> &[u8] {
        values
    }
}

/// A 4-bit input type ([`I4`], [`U4`]): values are range-checked, and can be packed.
///
/// ```
/// fn nibbles<In: actlut::quant::Input4>() -> usize { In::TYPE.codes() }
/// assert_eq!(nibbles::<actlut::quant::U4>(), 16);
/// ```
pub trait Input4: PackedInput<2> {}
impl Input4 for I4 {}
impl Input4 for U4 {}

/// A 2-bit input type ([`I2`], [`U2`]): values are range-checked, and can be packed.
///
/// ```
/// fn codes<In: actlut::quant::Input2>() -> usize { In::TYPE.codes() }
/// assert_eq!(codes::<actlut::quant::I2>(), 4);
/// ```
pub trait Input2: PackedInput<4> {}
impl Input2 for I2 {}
impl Input2 for U2 {}

/// An input type packed `PER_BYTE` values to a byte, the first value in the lowest bits (ONNX's
/// packing): the 4-bit types two to a byte, the 2-bit types four.
///
/// ```
/// use actlut::quant::{PackedInput, I2, U4};
/// fn per_byte<In: PackedInput<N>, const N: usize>() -> usize { N }
/// assert_eq!((per_byte::<U4, 2>(), per_byte::<I2, 4>()), (2, 4));
/// ```
pub trait PackedInput<const PER_BYTE: usize>: Input {}
impl PackedInput<2> for I4 {}
impl PackedInput<2> for U4 {}
impl PackedInput<4> for I2 {}
impl PackedInput<4> for U2 {}

/// A 16-bit quantized input type: `i16` or `u16`.
///
/// ```
/// use actlut::element::Input16;
/// assert_eq!(<i16 as Input16>::index(-32768), 0x8000);
/// assert_eq!(<u16 as Input16>::TYPE.max(), 65535);
/// ```
pub trait Input16: sealed::Sealed + Copy + 'static {
    /// The type's range and name.
    const TYPE: QuantType;
    /// The table index of a value: its bits.
    fn index(self) -> usize;
    /// The values as their bits (the table indices), for the 16-bit kernels.
    #[doc(hidden)]
    fn bits(values: &[Self]) -> &[u16];
}

impl Input16 for i16 {
    const TYPE: QuantType = QuantType::I16;
    #[inline(always)]
    fn index(self) -> usize {
        usize::from(self as u16)
    }
    #[inline(always)]
    fn bits(values: &[i16]) -> &[u16] {
        zerocopy::transmute_ref!(values)
    }
}

impl Input16 for u16 {
    const TYPE: QuantType = QuantType::U16;
    #[inline(always)]
    fn index(self) -> usize {
        usize::from(self)
    }
    #[inline(always)]
    fn bits(values: &[u16]) -> &[u16] {
        values
    }
}

/// Elements as their bits, for the lookups: the slice of bits of the element's width.
#[doc(hidden)]
pub enum Bits<'a> {
    /// One byte per element (`i8`, `u8`).
    U8(&'a [u8]),
    /// Two bytes per element (`i16`, `u16`, `f16`, `bf16`).
    U16(&'a [u16]),
    /// Four bytes per element (`f32`).
    U32(&'a [u32]),
}

/// [`Bits`], writable.
#[doc(hidden)]
pub enum BitsMut<'a> {
    /// One byte per element (`i8`, `u8`).
    U8(&'a mut [u8]),
    /// Two bytes per element (`i16`, `u16`, `f16`, `bf16`).
    U16(&'a mut [u16]),
    /// Four bytes per element (`f32`).
    U32(&'a mut [u32]),
}

/// A table's element type: `f32`, [`half::f16`], [`half::bf16`] ([`FloatOutput`]), `i8`, `u8`,
/// `i16`, `u16` ([`QuantOutput`]).
///
/// ```
/// use actlut::element::Output;
/// assert_eq!(<f32 as Output>::from_entry(0x3F80_0000), 1.0);
/// assert_eq!(<i8 as Output>::from_entry(0xFF), -1);
/// assert_eq!(<i16 as Output>::from_entry(0xFFFF), -1);
/// ```
pub trait Output: sealed::Sealed + Copy + 'static {
    /// A placeholder value for unused table slots.
    const ZERO: Self;
    /// Bytes of one value.
    #[doc(hidden)]
    const BYTES: usize;
    /// The value of a table entry's bits, in the low [`Self::BYTES`] bytes (as
    /// `actlut_core::quant::Pipeline::entry` gives them).
    fn from_entry(bits: u32) -> Self;
    /// The value's bits, in the low [`Self::BYTES`] bytes: the inverse of
    /// [`from_entry`](Self::from_entry).
    #[doc(hidden)]
    fn to_entry(self) -> u32;
    /// The values as their bits.
    #[doc(hidden)]
    fn bits(values: &[Self]) -> Bits<'_>;
    /// The values as their bits, writable.
    #[doc(hidden)]
    fn bits_mut(values: &mut [Self]) -> BitsMut<'_>;
    /// The value's little-endian bytes (the first [`Self::BYTES`] are used).
    #[doc(hidden)]
    #[inline]
    fn to_le(self) -> [u8; 4] {
        self.to_entry().to_le_bytes()
    }
    /// The value of little-endian bytes (the first [`Self::BYTES`] are read).
    #[doc(hidden)]
    #[inline]
    fn from_le(bytes: [u8; 4]) -> Self {
        Self::from_entry(u32::from_le_bytes(bytes))
    }
}

/// The [`Output`] items of a type whose bits are a zerocopy cast away.
macro_rules! output {
    ($ty:ty, $zero:expr, $bits:ident, $view:ident, |$b:ident| $from:expr, |$v:ident| $to:expr) => {
        impl Output for $ty {
            const ZERO: Self = $zero;
            const BYTES: usize = core::mem::size_of::<$bits>();
            #[inline]
            fn from_entry($b: u32) -> Self {
                $from
            }
            #[inline]
            fn to_entry(self) -> u32 {
                let $v = self;
                $to
            }
            #[inline]
            fn bits(values: &[Self]) -> Bits<'_> {
                Bits::$view(zerocopy::transmute_ref!(values))
            }
            #[inline]
            fn bits_mut(values: &mut [Self]) -> BitsMut<'_> {
                BitsMut::$view(zerocopy::transmute_mut!(values))
            }
        }
    };
}

output!(f32, 0.0, u32, U32, |b| f32::from_bits(b), |v| v.to_bits());
output!(i8, 0, u8, U8, |b| b as u8 as i8, |v| u32::from(v as u8));
output!(u8, 0, u8, U8, |b| b as u8, |v| u32::from(v));
output!(i16, 0, u16, U16, |b| b as u16 as i16, |v| u32::from(
    v as u16
));
output!(u16, 0, u16, U16, |b| b as u16, |v| u32::from(v));

/// The [`Output`] items of a `half` type, through its `u16` bits.
macro_rules! half_output {
    ($ty:ty) => {
        impl Output for $ty {
            const ZERO: Self = <$ty>::ZERO;
            const BYTES: usize = 2;
            #[inline]
            fn from_entry(bits: u32) -> Self {
                <$ty>::from_bits(bits as u16)
            }
            #[inline]
            fn to_entry(self) -> u32 {
                u32::from(self.to_bits())
            }
            #[inline]
            fn bits(values: &[Self]) -> Bits<'_> {
                use half::slice::HalfFloatSliceExt;
                Bits::U16(values.reinterpret_cast())
            }
            #[inline]
            fn bits_mut(values: &mut [Self]) -> BitsMut<'_> {
                use half::slice::HalfFloatSliceExt;
                BitsMut::U16(values.reinterpret_cast_mut())
            }
        }
    };
}

half_output!(half::f16);
half_output!(half::bf16);

/// A floating-point output (`f32`, `f16`, `bf16`): the tables built from a function's value
/// (`DequantTable::new`, `DequantTable16::new_in`, the `mx` tables).
///
/// ```
/// use actlut::quant::DequantTable;
/// use actlut::Function;
/// use half::bf16;
/// let t = DequantTable::<u8, bf16>::new(Function::Sigmoid, 0.1, 0)?;
/// assert_eq!(t.lookup(0), bf16::from_f32(0.5));
/// # Ok::<(), actlut::quant::QuantError>(())
/// ```
pub trait FloatOutput: Output {
    /// The stage of the quantized pipeline that rounds into this type.
    #[doc(hidden)]
    const STAGE: OutputType;
    /// The default quiet NaN: the output of a NaN element or of a block with a NaN scale.
    const NAN: Self;
    /// `op` at the exact value `x`, rounded once to this type.
    fn from_value(op: Op, x: f64) -> Self;
}

impl FloatOutput for f32 {
    const STAGE: OutputType = OutputType::F32;
    const NAN: Self = f32::NAN;
    fn from_value(op: Op, x: f64) -> Self {
        if is_identity(&op) {
            // One rounding from the exact value (an `as` cast rounds to nearest-even).
            x as f32
        } else {
            actlut_core::eval_op_value_f32(&op, x)
        }
    }
}

/// `op` at `x`, rounded once into the 16-bit `format`.
fn value_16(op: Op, format: Format, x: f64) -> u16 {
    if is_identity(&op) {
        format.encode(x)
    } else {
        actlut_core::quant::eval_value(op, format, x)
    }
}

/// Whether `op` is the identity (a plain dequantization: `x` rounded once, NaN as it is).
fn is_identity(op: &Op) -> bool {
    op.function() == actlut_core::Function::Identity && !op.is_derivative()
}

impl FloatOutput for half::bf16 {
    const STAGE: OutputType = OutputType::Bf16;
    const NAN: Self = half::bf16::from_bits(0x7FC0);
    fn from_value(op: Op, x: f64) -> Self {
        half::bf16::from_bits(value_16(op, Format::Bf16, x))
    }
}

impl FloatOutput for half::f16 {
    const STAGE: OutputType = OutputType::F16;
    const NAN: Self = half::f16::from_bits(0x7E00);
    fn from_value(op: Op, x: f64) -> Self {
        half::f16::from_bits(value_16(op, Format::F16, x))
    }
}

/// A requantized output (`i8`, `u8`, `i16`, `u16`): the tables built with `requantized`.
///
/// ```
/// use actlut::quant::{DequantTable, Op};
/// let t = DequantTable::<i8, u8>::requantized(Op::from(actlut::Function::Identity), 1.0, 0, 1.0, 128)?;
/// assert_eq!(t.lookup(-128), 0);
/// let wide = DequantTable::<i8, i16>::requantized(Op::from(actlut::Function::Identity), 1.0, 0, 1.0 / 256.0, 0)?;
/// assert_eq!(wide.lookup(-128), -32768);
/// # Ok::<(), actlut::quant::QuantError>(())
/// ```
pub trait QuantOutput: Output {
    /// The output's quantized type.
    const TYPE: QuantType;
    /// The stage of the quantized pipeline that requantizes into this type.
    #[doc(hidden)]
    fn stage(scale: f32, zero_point: i32) -> OutputType {
        OutputType::requantized(Self::TYPE, scale, zero_point).expect("an 8- or 16-bit type")
    }
}
impl QuantOutput for i8 {
    const TYPE: QuantType = QuantType::I8;
}
impl QuantOutput for u8 {
    const TYPE: QuantType = QuantType::U8;
}
impl QuantOutput for i16 {
    const TYPE: QuantType = QuantType::I16;
}
impl QuantOutput for u16 {
    const TYPE: QuantType = QuantType::U16;
}
