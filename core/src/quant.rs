//! Quantized domains: fused dequantize → function (→ requantize) tables.
//!
//! docs/SEMANTICS.md defines a fused table as the unfused pipeline, stage by stage, in `f32`, as
//! ONNX defines its operators. For a quantized input `q`:
//!
//! 1. [`dequantize`]: `x = (q − zero_point) as f32 * scale`: the difference is exact in `f32`,
//!    the product is rounded once.
//! 2. `y = f(x)` rounded to the output format: [`eval_f32`](crate::eval_f32) for `f32`
//!    outputs, [`eval_value`] (correct rounding of `f` at the exact value `x`) for `f16` and
//!    `bf16` outputs. The op `identity` ([`Function::Identity`](crate::Function::Identity)) keeps `x`
//!    (rounded once to `f16`/`bf16`).
//! 3. For requantized outputs only, [`requantize_with`]:
//!    `saturate(round(y / out_scale) + out_zero_point)`, the division in `f32`, `round` to
//!    nearest with ties by the pipeline's [`Rounding`] (to even by default, as ONNX; away from
//!    zero as TFLite), decided on the `f32` quotient.
//!
//! A table has one entry per input code: 65,536 for `i16`/`u16` and 256 for `i8`/`u8` (indexed
//! by the code's bits, so `i16` −32768 is entry `0x8000`), 16 for `i4`/`u4` (indexed by the
//! nibble, so `i4` −1 is entry 15), 4 for `i2`/`u2` (indexed by the 2-bit code, so `i2` −1 is
//! entry 3). [`Pipeline`] validates the parameters and computes
//! entries; the runtime type `actlut::quant::DequantTable`, the builder (`actlut_codegen::builder`)
//! for build scripts and the `actlut_macros::dequant_table!` macro all fill their tables
//! with it, so they agree by construction.
//!
//! ```
//! use actlut_core::quant::{OutputType, Pipeline, QuantType};
//! use actlut_core::Function;
//!
//! let p = Pipeline::new(Function::Gelu.into(), QuantType::I8, 0.05, -3, OutputType::F32)?;
//! // q = 17: x = (17 + 3) · 0.05 = 1.0 (rounded in f32), gelu(1.0) = 0.8413447.
//! assert_eq!(f32::from_bits(p.entry(17)), 0.841_344_75);
//! # Ok::<(), actlut_core::quant::QuantError>(())
//! ```

use crate::settle::{settle, IntoFormat, Outcome};
use crate::Format;

/// The op a fused table applies between dequantization and output ([`crate::Op`]; the
/// identity is [`Function::Identity`](crate::Function::Identity)).
pub use crate::Op;
use core::fmt;

/// An integer type of quantized data.
///
/// ```
/// use actlut_core::quant::QuantType;
/// let t = QuantType::I4;
/// assert_eq!((t.name(), t.min(), t.max(), t.codes()), ("i4", -8, 7, 16));
/// assert!(t.contains(-8) && !t.contains(8));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum QuantType {
    /// Signed 8-bit, −128..=127.
    I8,
    /// Unsigned 8-bit, 0..=255.
    U8,
    /// Signed 4-bit, −8..=7 (two's complement nibble).
    I4,
    /// Unsigned 4-bit, 0..=15.
    U4,
    /// Signed 16-bit, −32768..=32767.
    I16,
    /// Unsigned 16-bit, 0..=65535.
    U16,
    /// Signed 2-bit, −2..=1 (two's complement, ONNX `INT2`, ml_dtypes `int2`).
    I2,
    /// Unsigned 2-bit, 0..=3 (ONNX `UINT2`, ml_dtypes `uint2`).
    U2,
}

impl QuantType {
    /// Every quantized type.
    pub const ALL: [QuantType; 8] = [
        QuantType::I8,
        QuantType::U8,
        QuantType::I4,
        QuantType::U4,
        QuantType::I16,
        QuantType::U16,
        QuantType::I2,
        QuantType::U2,
    ];

    /// The types of at most 8 bits, whose tables have at most 256 entries.
    pub const SMALL: [QuantType; 6] = [
        QuantType::I8,
        QuantType::U8,
        QuantType::I4,
        QuantType::U4,
        QuantType::I2,
        QuantType::U2,
    ];

    /// The type's name: `i8`, `u8`, `i4`, `u4`, `i16`, `u16`, `i2`, `u2`.
    pub const fn name(self) -> &'static str {
        match self {
            QuantType::I8 => "i8",
            QuantType::U8 => "u8",
            QuantType::I4 => "i4",
            QuantType::U4 => "u4",
            QuantType::I16 => "i16",
            QuantType::U16 => "u16",
            QuantType::I2 => "i2",
            QuantType::U2 => "u2",
        }
    }

    /// Looks a type up by its [`name`](Self::name).
    ///
    /// ```
    /// use actlut_core::quant::QuantType;
    /// assert_eq!(QuantType::from_name("u4"), Some(QuantType::U4));
    /// assert_eq!(QuantType::from_name("i16"), Some(QuantType::I16));
    /// assert_eq!(QuantType::from_name("i32"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<QuantType> {
        QuantType::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The smallest value.
    pub const fn min(self) -> i32 {
        match self {
            QuantType::I8 => -128,
            QuantType::U8 | QuantType::U4 | QuantType::U16 | QuantType::U2 => 0,
            QuantType::I4 => -8,
            QuantType::I2 => -2,
            QuantType::I16 => -32768,
        }
    }

    /// The largest value.
    pub const fn max(self) -> i32 {
        match self {
            QuantType::I8 => 127,
            QuantType::U8 => 255,
            QuantType::I4 => 7,
            QuantType::U4 => 15,
            QuantType::I2 => 1,
            QuantType::U2 => 3,
            QuantType::I16 => 32767,
            QuantType::U16 => 65535,
        }
    }

    /// Whether `value` lies in `min()..=max()`.
    pub const fn contains(self, value: i32) -> bool {
        value >= self.min() && value <= self.max()
    }

    /// Number of codes, which is the number of entries of a table over this type: 65,536,
    /// 256, 16 or 4.
    pub const fn codes(self) -> usize {
        match self {
            QuantType::I16 | QuantType::U16 => 65_536,
            QuantType::I8 | QuantType::U8 => 256,
            QuantType::I4 | QuantType::U4 => 16,
            QuantType::I2 | QuantType::U2 => 4,
        }
    }

    /// The number of bits of a code: 16, 8, 4 or 2.
    pub const fn bits(self) -> u32 {
        match self {
            QuantType::I16 | QuantType::U16 => 16,
            QuantType::I8 | QuantType::U8 => 8,
            QuantType::I4 | QuantType::U4 => 4,
            QuantType::I2 | QuantType::U2 => 2,
        }
    }

    /// Whether the type is signed.
    pub const fn is_signed(self) -> bool {
        matches!(
            self,
            QuantType::I8 | QuantType::I4 | QuantType::I16 | QuantType::I2
        )
    }

    /// The value of a code: its bits read as this type (for 8-bit types the low byte, for
    /// 4-bit types the low nibble, for 2-bit types the low two bits).
    ///
    /// ```
    /// use actlut_core::quant::QuantType;
    /// assert_eq!(QuantType::I16.value(0x8000), -32768);
    /// assert_eq!(QuantType::U16.value(0x8000), 32768);
    /// assert_eq!(QuantType::I8.value(0xFF), -1);
    /// assert_eq!(QuantType::U8.value(0xFF), 255);
    /// assert_eq!(QuantType::I4.value(0x0F), -1);
    /// assert_eq!(QuantType::I4.value(0x08), -8);
    /// assert_eq!(QuantType::U4.value(0x0F), 15);
    /// assert_eq!(QuantType::I2.value(0x3), -1);
    /// assert_eq!(QuantType::I2.value(0x2), -2);
    /// assert_eq!(QuantType::U2.value(0x3), 3);
    /// ```
    pub const fn value(self, code: u16) -> i32 {
        match self {
            QuantType::I16 => code as i16 as i32,
            QuantType::U16 => code as i32,
            QuantType::I8 => code as u8 as i8 as i32,
            QuantType::U8 => code as u8 as i32,
            QuantType::I4 => (((code as u8) << 4) as i8 >> 4) as i32,
            QuantType::U4 => (code & 0x0F) as i32,
            QuantType::I2 => (((code as u8) << 6) as i8 >> 6) as i32,
            QuantType::U2 => (code & 0x03) as i32,
        }
    }

    /// The code of a value in range: the inverse of [`value`](Self::value) (a table index).
    ///
    /// ```
    /// use actlut_core::quant::QuantType;
    /// assert_eq!(QuantType::I8.code(-1), 0xFF);
    /// assert_eq!(QuantType::I4.code(-8), 0x08);
    /// assert_eq!(QuantType::I16.code(-32768), 0x8000);
    /// assert_eq!(QuantType::I2.code(-1), 0x3);
    /// ```
    pub const fn code(self, value: i32) -> u16 {
        match self {
            QuantType::I4 | QuantType::U4 => (value as u16) & 0x0F,
            QuantType::I2 | QuantType::U2 => (value as u16) & 0x03,
            QuantType::I8 | QuantType::U8 => (value as u16) & 0xFF,
            QuantType::I16 | QuantType::U16 => value as u16,
        }
    }

    /// The largest `|q − zero_point|` over the codes `q` of this type.
    ///
    /// ```
    /// use actlut_core::quant::QuantType;
    /// assert_eq!(QuantType::I16.max_distance(0), 32768);
    /// assert_eq!(QuantType::U16.max_distance(0), 65535);
    /// ```
    pub const fn max_distance(self, zero_point: i32) -> i32 {
        let up = self.max() - zero_point;
        let down = zero_point - self.min();
        if up > down {
            up
        } else {
            down
        }
    }

    /// `Ok(())` if `zero_point` is a value of this type, else the error naming `parameter`.
    ///
    /// ```
    /// use actlut_core::quant::QuantType;
    /// assert!(QuantType::U8.check_zero_point("zero_point", 255).is_ok());
    /// let e = QuantType::U8.check_zero_point("out_zero_point", -1).unwrap_err();
    /// assert_eq!(e.to_string(), "out_zero_point = -1 is outside u8 (0..=255)");
    /// ```
    pub const fn check_zero_point(
        self,
        parameter: &'static str,
        zero_point: i32,
    ) -> Result<(), QuantError> {
        if self.contains(zero_point) {
            Ok(())
        } else {
            Err(QuantError::ZeroPoint {
                parameter,
                value: zero_point,
                ty: self,
            })
        }
    }
}

/// Stage 2 for an `f32` output: `op` at `x`, rounded once to `f32` ([`eval_op_f32`](crate::eval_op_f32);
/// `x` itself for the identity).
///
/// ```
/// use actlut_core::quant::apply_f32;
/// use actlut_core::{eval_f32, Function, Op};
/// assert_eq!(apply_f32(&Op::from(Function::Tanh), 0.5), eval_f32(Function::Tanh, 0.5));
/// assert_eq!(apply_f32(&Op::from(Function::Identity), 0.1), 0.1);
/// ```
pub fn apply_f32(op: &Op, x: f32) -> f32 {
    crate::eval_op_f32(op, x)
}

/// Stage 2 for an output in `format`: [`eval_value`] of `op` at the exact value `x` (for the
/// identity, `x` rounded once into `format`).
///
/// ```
/// use actlut_core::quant::apply_format;
/// use actlut_core::{Format, Function, Op};
/// let id = Op::from(Function::Identity);
/// assert_eq!(apply_format(&id, Format::F16, 1.0), 0x3C00);
/// assert_eq!(apply_format(&id, Format::F16, 1e6), 0x7C00); // overflows to inf
/// ```
///
/// # Panics
///
/// For a derivative op, as [`apply_f32`].
pub fn apply_format(op: &Op, format: Format, x: f32) -> u16 {
    eval_value(*op, format, f64::from(x))
}

/// The output of a fused table.
///
/// ```
/// use actlut_core::quant::OutputType;
/// assert_eq!(OutputType::Bf16.name(), "bf16");
/// assert_eq!(OutputType::U8 { scale: 0.1, zero_point: 0 }.name(), "u8");
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum OutputType {
    /// `f32`.
    F32,
    /// IEEE binary16 bits.
    F16,
    /// bfloat16 bits.
    Bf16,
    /// The `f32` result requantized to `i8` with this scale and zero point.
    I8 {
        /// `out_scale`: finite and positive.
        scale: f32,
        /// `out_zero_point`: in −128..=127.
        zero_point: i32,
    },
    /// The `f32` result requantized to `u8` with this scale and zero point.
    U8 {
        /// `out_scale`: finite and positive.
        scale: f32,
        /// `out_zero_point`: in 0..=255.
        zero_point: i32,
    },
    /// The `f32` result requantized to `i16` with this scale and zero point.
    I16 {
        /// `out_scale`: finite and positive.
        scale: f32,
        /// `out_zero_point`: in −32768..=32767.
        zero_point: i32,
    },
    /// The `f32` result requantized to `u16` with this scale and zero point.
    U16 {
        /// `out_scale`: finite and positive.
        scale: f32,
        /// `out_zero_point`: in 0..=65535.
        zero_point: i32,
    },
}

impl OutputType {
    /// The output type's name: `f32`, `f16`, `bf16`, `i8`, `u8`, `i16`, `u16`.
    pub const fn name(self) -> &'static str {
        match self {
            OutputType::F32 => "f32",
            OutputType::F16 => "f16",
            OutputType::Bf16 => "bf16",
            OutputType::I8 { .. } => "i8",
            OutputType::U8 { .. } => "u8",
            OutputType::I16 { .. } => "i16",
            OutputType::U16 { .. } => "u16",
        }
    }

    /// A requantized output of type `ty` (`i8`, `u8`, `i16` or `u16`) with this scale and zero
    /// point; `None` for a 4- or 2-bit `ty`.
    ///
    /// ```
    /// use actlut_core::quant::{OutputType, QuantType};
    /// assert_eq!(
    ///     OutputType::requantized(QuantType::I16, 0.5, 3),
    ///     Some(OutputType::I16 { scale: 0.5, zero_point: 3 })
    /// );
    /// assert_eq!(OutputType::requantized(QuantType::U4, 0.5, 3), None);
    /// ```
    pub const fn requantized(ty: QuantType, scale: f32, zero_point: i32) -> Option<OutputType> {
        Some(match ty {
            QuantType::I8 => OutputType::I8 { scale, zero_point },
            QuantType::U8 => OutputType::U8 { scale, zero_point },
            QuantType::I16 => OutputType::I16 { scale, zero_point },
            QuantType::U16 => OutputType::U16 { scale, zero_point },
            QuantType::I4 | QuantType::U4 | QuantType::I2 | QuantType::U2 => return None,
        })
    }

    /// For a requantized output, its type, `out_scale` and `out_zero_point`; `None` for a
    /// float output.
    ///
    /// ```
    /// use actlut_core::quant::{OutputType, QuantType};
    /// let o = OutputType::U16 { scale: 0.25, zero_point: 7 };
    /// assert_eq!(o.requantization(), Some((QuantType::U16, 0.25, 7)));
    /// assert_eq!(OutputType::F16.requantization(), None);
    /// ```
    pub const fn requantization(self) -> Option<(QuantType, f32, i32)> {
        match self {
            OutputType::F32 | OutputType::F16 | OutputType::Bf16 => None,
            OutputType::I8 { scale, zero_point } => Some((QuantType::I8, scale, zero_point)),
            OutputType::U8 { scale, zero_point } => Some((QuantType::U8, scale, zero_point)),
            OutputType::I16 { scale, zero_point } => Some((QuantType::I16, scale, zero_point)),
            OutputType::U16 { scale, zero_point } => Some((QuantType::U16, scale, zero_point)),
        }
    }

    /// The width of one entry in bytes: 4 for `f32`, 2 for `f16`, `bf16`, `i16`, `u16`, 1 for
    /// `i8` and `u8`.
    pub const fn bytes(self) -> usize {
        match self {
            OutputType::F32 => 4,
            OutputType::F16
            | OutputType::Bf16
            | OutputType::I16 { .. }
            | OutputType::U16 { .. } => 2,
            OutputType::I8 { .. } | OutputType::U8 { .. } => 1,
        }
    }
}

/// How requantization rounds `y / out_scale` to an integer when it lies exactly halfway
/// between two.
///
/// The tie is decided on the `f32` quotient the pipeline computes (as ONNX Runtime, TFLite and
/// CMSIS-NN do), not on the exact quotient: `0.25 / 0.1` rounds in `f32` to exactly 2.5, a tie.
///
/// ```
/// use actlut_core::quant::{requantize_with, QuantType, Rounding};
/// assert_eq!(Rounding::default(), Rounding::TiesToEven);
/// assert_eq!(requantize_with(0.25, 0.1, 0, QuantType::I8, Rounding::TiesToEven), 2);
/// assert_eq!(requantize_with(0.25, 0.1, 0, QuantType::I8, Rounding::TiesAwayFromZero), 3);
/// assert_eq!(requantize_with(-0.25, 0.1, 0, QuantType::I8, Rounding::TiesAwayFromZero), -3);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Rounding {
    /// Round half to even (ONNX `QuantizeLinear`, IEEE 754 `roundTiesToEven`). The default.
    #[default]
    TiesToEven,
    /// Round half away from zero (C's `round`, `std::round`: TFLite / LiteRT, CMSIS-NN,
    /// ExecuTorch).
    TiesAwayFromZero,
}

impl Rounding {
    /// Both roundings, the default first.
    pub const ALL: [Rounding; 2] = [Rounding::TiesToEven, Rounding::TiesAwayFromZero];

    /// `ties-even` or `ties-away`.
    pub const fn name(self) -> &'static str {
        match self {
            Rounding::TiesToEven => "ties-even",
            Rounding::TiesAwayFromZero => "ties-away",
        }
    }

    /// Looks a rounding up by its [`name`](Self::name), with `_` accepted for `-`.
    ///
    /// ```
    /// use actlut_core::quant::Rounding;
    /// assert_eq!(Rounding::from_name("ties_away"), Some(Rounding::TiesAwayFromZero));
    /// assert_eq!(Rounding::from_name("ties-even"), Some(Rounding::TiesToEven));
    /// assert_eq!(Rounding::from_name("nearest"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Rounding> {
        match name {
            "ties-even" | "ties_even" => Some(Rounding::TiesToEven),
            "ties-away" | "ties_away" => Some(Rounding::TiesAwayFromZero),
            _ => None,
        }
    }
}

/// An invalid parameter of a quantized table, or an invalid quantized value.
///
/// ```
/// use actlut_core::quant::{check_scale, QuantError};
/// let e = check_scale("scale", f32::NAN).unwrap_err();
/// assert!(matches!(e, QuantError::Scale { parameter: "scale", .. }));
/// assert_eq!(e.to_string(), "scale must be finite and positive, got NaN");
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum QuantError {
    /// A scale that is not finite and positive.
    Scale {
        /// `scale` or `out_scale`.
        parameter: &'static str,
        /// The value given.
        value: f32,
    },
    /// A zero point outside its type's range.
    ZeroPoint {
        /// `zero_point` or `out_zero_point`.
        parameter: &'static str,
        /// The value given.
        value: i32,
        /// The type whose range it must lie in.
        ty: QuantType,
    },
    /// A value of an unpacked 4-bit slice outside its type's range.
    Value {
        /// The slice parameter (`codes`).
        parameter: &'static str,
        /// Position in the slice.
        index: usize,
        /// The value found.
        value: i32,
        /// The 4-bit type.
        ty: QuantType,
    },
    /// A single value outside its 4-bit type's range (`DequantTable::get`).
    OutOfRange {
        /// The value given.
        value: i32,
        /// The 4-bit type.
        ty: QuantType,
    },
    /// A scale so small that every code dequantizes to zero or a subnormal `f32`: the code
    /// farthest from the zero point gives `|x| < 2^-126`.
    ScaleTooSmall {
        /// `scale`.
        parameter: &'static str,
        /// The value given.
        value: f32,
        /// The input type.
        ty: QuantType,
        /// The largest `|q − zero_point|` of the type.
        distance: i32,
    },
    /// A buffer whose length is not the table's number of entries.
    Length {
        /// The buffer parameter.
        parameter: &'static str,
        /// Its length.
        len: usize,
        /// The number of entries required.
        expected: usize,
    },
    /// The op is a derivative: the quantized pipeline evaluates functions only (a derivative's
    /// table over a float format is [`fill_table`](crate::fill_table)'s).
    Derivative {
        /// Its function.
        function: crate::Function,
    },
    /// The value and output slices of a map have different lengths.
    Lengths {
        /// Length of the value slice.
        values: usize,
        /// Length of the output slice.
        outputs: usize,
    },
}

impl fmt::Display for QuantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            QuantError::Scale { parameter, value } => {
                write!(f, "{parameter} must be finite and positive, got {value:?}")
            }
            QuantError::ZeroPoint {
                parameter,
                value,
                ty,
            } => write!(
                f,
                "{parameter} = {value} is outside {} ({}..={})",
                ty.name(),
                ty.min(),
                ty.max()
            ),
            QuantError::Value {
                parameter,
                index,
                value,
                ty,
            } => write!(
                f,
                "{parameter}[{index}] = {value} is outside {} ({}..={})",
                ty.name(),
                ty.min(),
                ty.max()
            ),
            QuantError::Derivative { function } => write!(
                f,
                "{}_derivative: the quantized pipeline evaluates functions, not derivatives",
                function.name()
            ),
            QuantError::Lengths { values, outputs } => write!(
                f,
                "actlut: source slice length ({values}) does not match destination slice length ({outputs})"
            ),
            QuantError::OutOfRange { value, ty } => write!(
                f,
                "value {value} is outside {} ({}..={})",
                ty.name(),
                ty.min(),
                ty.max()
            ),
            QuantError::ScaleTooSmall {
                parameter,
                value,
                ty,
                distance,
            } => write!(
                f,
                "{parameter} = {value:?} is so small that every {} code dequantizes to zero or a \
                 subnormal ({distance} · {parameter} < 2^-126)",
                ty.name()
            ),
            QuantError::Length {
                parameter,
                len,
                expected,
            } => write!(
                f,
                "{parameter} has {len} entries, but the table has {expected}"
            ),
        }
    }
}

impl core::error::Error for QuantError {}

/// `Ok(())` if `scale` is finite and positive, else the error naming `parameter`.
///
/// ```
/// use actlut_core::quant::check_scale;
/// assert!(check_scale("scale", 1e-45).is_ok());
/// assert!(check_scale("scale", -0.0).is_err());
/// assert!(check_scale("out_scale", f32::INFINITY).is_err());
/// ```
pub fn check_scale(parameter: &'static str, scale: f32) -> Result<(), QuantError> {
    if scale.is_finite() && scale > 0.0 {
        Ok(())
    } else {
        Err(QuantError::Scale {
            parameter,
            value: scale,
        })
    }
}

/// `Ok(())` unless `scale` is so small that every code of `ty` dequantizes to zero or a
/// subnormal: the line is `dequantize` of the code farthest from `zero_point`, which must be
/// at least `2^-126` (`f32::MIN_POSITIVE`) in magnitude. For an `i16` with zero point 0 that is
/// `32768 · scale ≥ 2^-126`, so `scale ≥ 2^-141`.
///
/// ```
/// use actlut_core::quant::{check_scale_range, QuantType};
/// let line = f32::MIN_POSITIVE / 32768.0; // 2^-141
/// assert!(check_scale_range("scale", line, QuantType::I16, 0).is_ok());
/// let e = check_scale_range("scale", line / 2.0, QuantType::I16, 0).unwrap_err();
/// assert!(e.to_string().starts_with("scale = 1.8e-43 is so small"), "{e}");
/// ```
pub fn check_scale_range(
    parameter: &'static str,
    scale: f32,
    ty: QuantType,
    zero_point: i32,
) -> Result<(), QuantError> {
    let distance = ty.max_distance(zero_point);
    if (distance as f32 * scale).abs() >= f32::MIN_POSITIVE {
        Ok(())
    } else {
        Err(QuantError::ScaleTooSmall {
            parameter,
            value: scale,
            ty,
            distance,
        })
    }
}

/// Stage 1: `(q − zero_point)` converted exactly to `f32`, times `scale`, rounded once.
///
/// The difference of two values of 16-bit types is at most 65,535 in magnitude, so it is exact
/// in `f32`; the product may overflow to ±inf for huge scales (and the function is then taken at
/// ±inf). A zero difference gives +0.
///
/// ```
/// use actlut_core::quant::dequantize;
/// assert_eq!(dequantize(17, 0.05, -3), 20.0 * 0.05f32);
/// assert_eq!(dequantize(-3, 0.05, -3).to_bits(), 0);
/// ```
pub fn dequantize(q: i32, scale: f32, zero_point: i32) -> f32 {
    (q - zero_point) as f32 * scale
}

/// Stage 3 (ONNX QuantizeLinear): `saturate(round_half_to_even(y / scale) + zero_point)` into
/// `ty`, the division in `f32`. ±inf saturate; NaN (log or rsqrt of a negative value) maps to
/// `zero_point`, as if it were 0: an integer type has no NaN, and ONNX leaves the case open.
///
/// ```
/// use actlut_core::quant::{requantize, QuantType};
/// assert_eq!(requantize(0.25, 0.1, 0, QuantType::I8), 2); // 2.5 ties to even
/// assert_eq!(requantize(-0.25, 0.1, 0, QuantType::I8), -2);
/// assert_eq!(requantize(1e9, 0.1, 10, QuantType::U8), 255);
/// assert_eq!(requantize(f32::NAN, 0.1, 10, QuantType::U8), 10);
/// ```
pub fn requantize(y: f32, scale: f32, zero_point: i32, ty: QuantType) -> i32 {
    requantize_with(y, scale, zero_point, ty, Rounding::TiesToEven)
}

/// Stage 3 with either [`Rounding`]: `saturate(round(y / scale) + zero_point)` into `ty`, the
/// division in `f32` and the tie decided on that `f32` quotient. ±inf saturate; NaN maps to
/// `zero_point`.
///
/// ```
/// use actlut_core::quant::{requantize_with, QuantType, Rounding};
/// let away = Rounding::TiesAwayFromZero;
/// assert_eq!(requantize_with(1.5, 1.0, 0, QuantType::I16, away), 2);
/// assert_eq!(requantize_with(2.5, 1.0, 0, QuantType::I16, away), 3);
/// assert_eq!(requantize_with(-2.5, 1.0, 0, QuantType::I16, away), -3);
/// assert_eq!(requantize_with(2.4999998, 1.0, 0, QuantType::I16, away), 2);
/// assert_eq!(requantize_with(1e9, 1.0, -5, QuantType::U16, away), 65535);
/// ```
pub fn requantize_with(
    y: f32,
    scale: f32,
    zero_point: i32,
    ty: QuantType,
    rounding: Rounding,
) -> i32 {
    let v = y / scale;
    // f32 values of magnitude 2^23 and above are integers.
    const TWO_23: f32 = 8_388_608.0;
    let r = if v.abs() < TWO_23 {
        let a = v.abs();
        let t = match rounding {
            // Adding and subtracting 2^23 rounds an f32 below 2^23 in magnitude to an
            // integer with the current (nearest-even) rounding.
            Rounding::TiesToEven => (a + TWO_23) - TWO_23,
            // The integer part is exact (`as` truncates, below 2^23 it fits), and so is the
            // fraction `a − trunc(a)`: it is `a` itself below 1, and above 1
            // `trunc(a) ≤ a < 2 · trunc(a)` (Sterbenz).
            Rounding::TiesAwayFromZero => {
                let t = a as i32 as f32;
                if a - t >= 0.5 {
                    t + 1.0
                } else {
                    t
                }
            }
        };
        if v < 0.0 {
            -t
        } else {
            t
        }
    } else {
        v
    };
    // `as` saturates (and maps NaN to 0); the zero point is at most 65,535 in magnitude.
    (r as i32)
        .saturating_add(zero_point)
        .clamp(ty.min(), ty.max())
}

/// Whether a result of [`eval_value_traced`] is known to be correctly rounded.
///
/// ```
/// use actlut_core::quant::{eval_value_traced, Certainty};
/// use actlut_core::{Format, Function};
/// assert_eq!(eval_value_traced(Function::Exp, Format::Bf16, 1.0), (0x402E, Certainty::Correct));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Certainty {
    /// The exact value was settled: correctly rounded.
    Correct,
    /// Neither the plain nor the refined evaluation lay farther than its error bound (2^-40
    /// relative) from a rounding boundary: the result is the rounding of the `f64`
    /// evaluation, within 0.5 ulp + 2^-40 of the exact value.
    Faithful,
}

/// `op` (an [`Op`], or a [`Function`](crate::Function) at its default constants) at the exact
/// value `x`, rounded once, to nearest, ties to even, into `format`, with the special values
/// of docs/SEMANTICS.md (a NaN `x` gives the default NaN).
///
/// This is [`eval`](crate::eval) for an input given as a value rather than bits (the same
/// evaluation, so `eval_value(f, fmt, fmt.decode(b)) == eval(f, fmt, b)` for every non-NaN
/// pattern `b`); the quantized tables use it for `x` in `f32`.
///
/// # Accuracy
///
/// Correctly rounded, except where the exact value lies within 2^-40 (relative) of a rounding
/// boundary of `format` and neither the refined evaluation nor the sign of `f(x) − x` settles
/// it: there the result is faithful (see [`Certainty::Faithful`]; [`eval_value_traced`] tells
/// which). No input that is itself a value of `format` is such a case. For other inputs the
/// typical hard case is an `x` that is itself a midpoint of `format` where `f(x)` is within
/// 2^-40 of `x` (gelu of a large `x`, tanh of a tiny one): those are settled by the side of
/// `x` on which `f(x)` lies. The MPFR oracle checks this on every dequantized value of a set
/// of scales and on random `f32` inputs.
///
/// ```
/// use actlut_core::quant::eval_value;
/// use actlut_core::{eval, Format, Function};
/// assert_eq!(eval_value(Function::Gelu, Format::F16, 1.0), eval(Function::Gelu, Format::F16, 0x3C00));
/// ```
///
/// # Panics
///
/// For a derivative op (the quantized pipeline evaluates functions only), and for a function
/// with a constant without default (the conversion to an [`Op`]).
pub fn eval_value(op: impl Into<Op>, format: Format, x: f64) -> u16 {
    eval_value_traced(op, format, x).0
}

/// [`eval_value`], and whether the result is known to be correctly rounded.
///
/// ```
/// use actlut_core::quant::{eval_value_traced, Certainty};
/// use actlut_core::{Format, Function};
/// // gelu(96.09375) lies just below x, which is the f16 midpoint of 0x5601 and 0x5602.
/// assert_eq!(eval_value_traced(Function::Gelu, Format::F16, 96.093_75), (0x5601, Certainty::Correct));
/// ```
///
/// # Panics
///
/// As [`eval_value`].
pub fn eval_value_traced(op: impl Into<Op>, format: Format, x: f64) -> (u16, Certainty) {
    let op = op.into();
    if op.is_derivative() {
        panic!(
            "actlut-core: {}",
            QuantError::Derivative {
                function: op.function()
            }
        );
    }
    let facts = crate::facts_of(&op);
    if x.is_nan() {
        return (format.default_nan_bits(), Certainty::Correct);
    }
    match settle(facts, op.args(), x, &IntoFormat(format)) {
        Outcome::Settled(r, _) => (r, Certainty::Correct),
        Outcome::DefaultNan => (format.default_nan_bits(), Certainty::Correct),
        Outcome::Unsettled(v) => (format.encode(v.hi + v.lo), Certainty::Faithful),
    }
}

/// A validated fused pipeline: input type and dequantization parameters, the op, and the
/// output. Computes table entries.
///
/// ```
/// use actlut_core::quant::{OutputType, Pipeline, QuantType};
/// use actlut_core::{Function, Op};
/// let p = Pipeline::new(Function::Identity.into(), QuantType::U4, 0.5, 8, OutputType::F16)?;
/// assert_eq!((p.op(), p.input(), p.scale(), p.zero_point()), (Op::from(Function::Identity), QuantType::U4, 0.5, 8));
/// assert_eq!(p.output(), OutputType::F16);
/// assert_eq!(p.entry(10), 0x3C00); // (10 − 8) · 0.5 = 1
/// # Ok::<(), actlut_core::quant::QuantError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pipeline {
    op: Op,
    input: QuantType,
    scale: f32,
    zero_point: i32,
    output: OutputType,
    rounding: Rounding,
}

impl Pipeline {
    /// Validates the parameters: `scale` (and an output's `out_scale`) finite and positive,
    /// for 16-bit inputs `scale` large enough that some code dequantizes to a normal `f32`
    /// ([`check_scale_range`]; 8- and 4-bit tables accept every positive scale, their
    /// tests cover subnormal dequantized values), `zero_point` a value of `input` (and
    /// `out_zero_point` of the output type). Requantization rounds ties to even; see [`with_rounding`](Self::with_rounding).
    ///
    /// ```
    /// use actlut_core::quant::{OutputType, Pipeline, QuantError, QuantType};
    /// use actlut_core::Function;
    /// let bad = Pipeline::new(Function::Identity.into(), QuantType::U8, 0.1, 256, OutputType::F32);
    /// assert_eq!(
    ///     bad.unwrap_err().to_string(),
    ///     "zero_point = 256 is outside u8 (0..=255)"
    /// );
    /// let bad = Pipeline::new(Function::Identity.into(), QuantType::I8, 0.1, 0, OutputType::I8 { scale: -1.0, zero_point: 0 });
    /// assert!(matches!(bad, Err(QuantError::Scale { parameter: "out_scale", .. })));
    /// ```
    pub fn new(
        op: Op,
        input: QuantType,
        scale: f32,
        zero_point: i32,
        output: OutputType,
    ) -> Result<Pipeline, QuantError> {
        if op.is_derivative() {
            return Err(QuantError::Derivative {
                function: op.function(),
            });
        }
        check_scale("scale", scale)?;
        input.check_zero_point("zero_point", zero_point)?;
        if input.bits() == 16 {
            check_scale_range("scale", scale, input, zero_point)?;
        }
        if let Some((ty, scale, zero_point)) = output.requantization() {
            check_scale("out_scale", scale)?;
            ty.check_zero_point("out_zero_point", zero_point)?;
        }
        Ok(Pipeline {
            op,
            input,
            scale,
            zero_point,
            output,
            rounding: Rounding::TiesToEven,
        })
    }

    /// The same pipeline with requantization rounding ties by `rounding` (no effect on float
    /// outputs).
    ///
    /// ```
    /// use actlut_core::quant::{OutputType, Pipeline, QuantType, Rounding};
    /// use actlut_core::Function;
    /// let out = OutputType::I8 { scale: 2.0, zero_point: 0 };
    /// let p = Pipeline::new(Function::Identity.into(), QuantType::I8, 1.0, 0, out)?;
    /// let away = p.with_rounding(Rounding::TiesAwayFromZero);
    /// assert_eq!((p.entry(1), away.entry(1)), (0, 1)); // 1 / 2 = 0.5
    /// assert_eq!((p.entry(0xFD), away.entry(0xFD)), (0xFE, 0xFE)); // −1.5 → −2 either way
    /// assert_eq!(away.rounding(), Rounding::TiesAwayFromZero);
    /// # Ok::<(), actlut_core::quant::QuantError>(())
    /// ```
    pub const fn with_rounding(self, rounding: Rounding) -> Pipeline {
        Pipeline { rounding, ..self }
    }

    /// The requantization rounding.
    pub const fn rounding(&self) -> Rounding {
        self.rounding
    }

    /// The op.
    pub const fn op(&self) -> Op {
        self.op
    }

    /// The input type.
    pub const fn input(&self) -> QuantType {
        self.input
    }

    /// The input scale.
    pub const fn scale(&self) -> f32 {
        self.scale
    }

    /// The input zero point.
    pub const fn zero_point(&self) -> i32 {
        self.zero_point
    }

    /// The output.
    pub const fn output(&self) -> OutputType {
        self.output
    }

    /// The entry for `code` (only the low byte for 8-bit inputs, the low nibble for 4-bit
    /// ones), as bits: `f32` bits, `f16`/`bf16` bits, or the requantized value's bits (`i8`
    /// and `i16` as their two's complement: `i8` −1 is `0xFF`, `i16` −1 is `0xFFFF`).
    ///
    /// ```
    /// use actlut_core::quant::{OutputType, Pipeline, QuantType};
    /// use actlut_core::Function;
    /// let p = Pipeline::new(Function::Identity.into(), QuantType::I8, 1.0, 0, OutputType::I8 { scale: 2.0, zero_point: 0 })?;
    /// assert_eq!(p.entry(0xFF), 0); // −1 / 2 = −0.5 ties to 0
    /// assert_eq!(p.entry(0xFD), 0xFE); // −3 / 2 = −1.5 ties to −2
    /// # Ok::<(), actlut_core::quant::QuantError>(())
    /// ```
    pub fn entry(&self, code: u16) -> u32 {
        let x = dequantize(self.input.value(code), self.scale, self.zero_point);
        match self.output {
            OutputType::F32 => apply_f32(&self.op, x).to_bits(),
            OutputType::F16 => u32::from(apply_format(&self.op, Format::F16, x)),
            OutputType::Bf16 => u32::from(apply_format(&self.op, Format::Bf16, x)),
            OutputType::I8 { scale, zero_point }
            | OutputType::U8 { scale, zero_point }
            | OutputType::I16 { scale, zero_point }
            | OutputType::U16 { scale, zero_point } => {
                let y = apply_f32(&self.op, x);
                requantized_bits(self.output, y, scale, zero_point, self.rounding)
            }
        }
    }

    /// Fills `out` with every entry: `out[i] = entry(i)`.
    ///
    /// # Panics
    ///
    /// If `out.len()` is not the input's [`codes`](QuantType::codes).
    ///
    /// ```
    /// use actlut_core::quant::{OutputType, Pipeline, QuantType};
    /// use actlut_core::Function;
    /// let p = Pipeline::new(Function::Identity.into(), QuantType::U4, 1.0, 0, OutputType::F32)?;
    /// let mut t = [0u32; 16];
    /// p.fill(&mut t);
    /// assert_eq!(f32::from_bits(t[15]), 15.0);
    /// # Ok::<(), actlut_core::quant::QuantError>(())
    /// ```
    pub fn fill(&self, out: &mut [u32]) {
        assert_eq!(
            out.len(),
            self.input.codes(),
            "a table over {} has {} entries",
            self.input.name(),
            self.input.codes()
        );
        for (i, o) in out.iter_mut().enumerate() {
            *o = self.entry(i as u16);
        }
    }
}

/// The bits of `y` requantized into a requantized `output` (`i8`/`i16` as two's complement).
fn requantized_bits(output: OutputType, y: f32, scale: f32, zero_point: i32, r: Rounding) -> u32 {
    let Some((ty, _, _)) = output.requantization() else {
        return y.to_bits();
    };
    let q = requantize_with(y, scale, zero_point, ty, r);
    if ty.bits() == 16 {
        u32::from(q as u16)
    } else {
        u32::from(q as u8)
    }
}

/// The entry bits of an `f32` stage-2 result `y` for `output`, as [`Pipeline::entry`] would
/// give them had stage 2 produced `y`: its bits for `f32`, rounded once to `f16`/`bf16`, or
/// requantized with `rounding`. Build scripts use it for functions of their own.
///
/// ```
/// use actlut_core::quant::{output_bits, OutputType, Rounding};
/// assert_eq!(output_bits(OutputType::F16, 1.0, Rounding::TiesToEven), 0x3C00);
/// let o = OutputType::I16 { scale: 0.5, zero_point: 0 };
/// assert_eq!(output_bits(o, -0.75, Rounding::TiesAwayFromZero), 0xFFFE); // −1.5 → −2
/// ```
pub fn output_bits(output: OutputType, y: f32, rounding: Rounding) -> u32 {
    match output {
        OutputType::F32 => y.to_bits(),
        OutputType::F16 => u32::from(Format::F16.encode(f64::from(y))),
        OutputType::Bf16 => u32::from(Format::Bf16.encode(f64::from(y))),
        OutputType::I8 { scale, zero_point }
        | OutputType::U8 { scale, zero_point }
        | OutputType::I16 { scale, zero_point }
        | OutputType::U16 { scale, zero_point } => {
            requantized_bits(output, y, scale, zero_point, rounding)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Function;

    #[test]
    fn values_and_codes_are_inverse_on_every_code() {
        for ty in QuantType::ALL {
            let mut seen = [false; 65_536];
            for code in (0..ty.codes()).map(|i| i as u16) {
                let v = ty.value(code);
                assert!(ty.contains(v), "{} {code}", ty.name());
                assert_eq!(ty.code(v), code, "{} {v}", ty.name());
                seen[(v - ty.min()) as usize] = true;
            }
            assert!(seen[..=(ty.max() - ty.min()) as usize].iter().all(|&s| s));
        }
    }

    #[test]
    fn requantize_rounds_half_to_even_and_saturates() {
        for (y, want) in [
            (0.5f32, 0),
            (1.5, 2),
            (2.5, 2),
            (-0.5, 0),
            (-1.5, -2),
            (-2.5, -2),
            (0.49999997, 0),
            (1e30, 127),
            (-1e30, -128),
            (f32::INFINITY, 127),
            (f32::NEG_INFINITY, -128),
            (f32::NAN, 0),
            (8_388_609.0, 127),
        ] {
            assert_eq!(requantize(y, 1.0, 0, QuantType::I8), want, "{y}");
        }
        // On every f32 in a range, against std's rounding.
        for k in -300_000..300_000 {
            let y = k as f32 * 0.25e-3;
            let want = (y / 0.01f32).round_ties_even().clamp(-128.0, 127.0) as i32;
            assert_eq!(requantize(y, 0.01, 0, QuantType::I8), want, "{y}");
        }
    }

    #[test]
    fn eval_value_agrees_with_eval_on_every_pattern_of_every_format() {
        for (function, format) in crate::table_pairs() {
            {
                for b in (0..format.entries()).map(|i| i as u16) {
                    let x = format.decode(b);
                    if x.is_nan() {
                        continue;
                    }
                    let (v, r) = eval_value_traced(function, format, x);
                    assert_eq!(r, Certainty::Correct);
                    assert_eq!(
                        v,
                        crate::eval(function, format, b),
                        "{}_{} at {b:#06x}",
                        function.name(),
                        format.name()
                    );
                }
            }
        }
    }

    #[test]
    fn an_input_on_a_midpoint_is_settled_by_the_side_of_the_function() {
        // gelu(96.09375) lies below x by about e^-4617; x is the f16 midpoint of 0x5601 (odd)
        // and 0x5602 (even).
        let r = eval_value_traced(Function::Gelu, Format::F16, 96.093_75);
        assert_eq!(r, (0x5601, Certainty::Correct));
        let r = eval_value_traced(Function::Gelu, Format::F16, -96.093_75);
        assert_eq!(r, (0x8000, Certainty::Correct));
        // softplus lies above x: 3001 is the midpoint of 3000 (0x69DC) and 3002 (0x69DD).
        let r = eval_value_traced(Function::Softplus, Format::F16, 3001.0);
        assert_eq!(r, (0x69DD, Certainty::Correct));
        // tanh of a tiny midpoint (2^-25, half the smallest f16 subnormal) lies below it.
        let r = eval_value_traced(Function::Tanh, Format::F16, libm::scalbn(1.0, -25));
        assert_eq!(r, (0x0000, Certainty::Correct));
        let r = eval_value_traced(Function::Tanh, Format::F16, -3.0 * libm::scalbn(1.0, -25));
        assert_eq!(r, (0x8001, Certainty::Correct));
    }

    #[test]
    fn bad_parameters_name_themselves() {
        let p = |s, z, o| Pipeline::new(Function::Identity.into(), QuantType::I4, s, z, o);
        for s in [0.0, -0.0, -1.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            match p(s, 0, OutputType::F32) {
                Err(QuantError::Scale {
                    parameter: "scale",
                    value,
                }) => assert_eq!(value.to_bits(), s.to_bits()),
                other => panic!("{s}: {other:?}"),
            }
        }
        assert!(p(f32::from_bits(1), 0, OutputType::F32).is_ok());
        // 16-bit inputs: the smallest scale whose farthest code (−32768) dequantizes to a
        // normal f32 (2^-126 / 2^15), and the next smaller one.
        let p16 = |s, z| {
            Pipeline::new(
                Function::Identity.into(),
                QuantType::I16,
                s,
                z,
                OutputType::F32,
            )
        };
        let line = f32::MIN_POSITIVE / 32768.0;
        assert!(p16(line, 0).is_ok());
        assert!(matches!(
            p16(f32::from_bits(line.to_bits() - 1), 0),
            Err(QuantError::ScaleTooSmall {
                parameter: "scale",
                distance: 32768,
                ty: QuantType::I16,
                ..
            })
        ));
        // With the zero point at 32767 the farthest code is −32768, at distance 65535: the
        // line is the smallest scale with 65535 · scale ≥ 2^-126 after rounding.
        let mut s = f32::MIN_POSITIVE / 65535.0;
        while 65535.0 * s >= f32::MIN_POSITIVE {
            s = f32::from_bits(s.to_bits() - 1);
        }
        assert!(p16(s, 32767).is_err());
        assert!(p16(f32::from_bits(s.to_bits() + 1), 32767).is_ok());
        let u16_line = Pipeline::new(
            Function::Identity.into(),
            QuantType::U16,
            s,
            0,
            OutputType::F32,
        );
        assert!(u16_line.is_err()); // distance 65535 too
        assert!(matches!(
            p16(1.0, 32768),
            Err(QuantError::ZeroPoint {
                parameter: "zero_point",
                value: 32768,
                ..
            })
        ));
        assert!(p(f32::MAX, 0, OutputType::F32).is_ok());
        assert!(matches!(
            p(1.0, 8, OutputType::F32),
            Err(QuantError::ZeroPoint {
                parameter: "zero_point",
                value: 8,
                ty: QuantType::I4
            })
        ));
        assert!(p(1.0, -8, OutputType::F32).is_ok());
        assert!(matches!(
            p(
                1.0,
                0,
                OutputType::U8 {
                    scale: 1.0,
                    zero_point: -1
                }
            ),
            Err(QuantError::ZeroPoint {
                parameter: "out_zero_point",
                value: -1,
                ty: QuantType::U8
            })
        ));
        assert!(matches!(
            p(
                1.0,
                0,
                OutputType::I8 {
                    scale: f32::NAN,
                    zero_point: 0
                }
            ),
            Err(QuantError::Scale {
                parameter: "out_scale",
                ..
            })
        ));
    }
}
