//! Fused dequantize → function (→ requantize) tables over 16-bit quantized codes (`i16`,
//! `u16`): TFLite / LiteRT 16x8, CMSIS-NN s16 and ONNX opset 21 activations, exact for any
//! scale and zero point.
//!
//! An `i16` or `u16` code has 65,536 values, an `f16` table's domain. A [`DequantTable16`]
//! holds one output per code, computed by the same pipeline as the 8-bit tables of
//! [`crate::quant`] (docs/SEMANTICS.md, "Quantized domains"): dequantize in `f32`, `f`
//! correctly rounded, requantize in `f32` with the chosen [`Rounding`]. Entry `i` is the
//! output for the code whose bit pattern is `i` (`i16` −32768 is entry `0x8000`).
//!
//! A table is 128 KiB for 16-bit outputs (256 KiB for `f32`), too large for most stacks, so
//! it is built without allocation into a buffer the caller owns (a region of an arena, a
//! `Vec`, a static buffer), or, with the `alloc` feature, boxed
//! (`BoxedDequantTable16`). At build time, a build script writes it as a `static` with
//! `actlut_codegen::builder::Builder` (the `dequant_table!` macro refuses 16-bit inputs), and
//! [`map`] applies such a static.
//!
//! ```
//! use actlut::quant::{Function, Rounding};
//! use actlut::quant16::DequantTable16;
//!
//! // TFLite 16x8 logistic: input scale 2^-12, output scale 2^-15, zero points 0, ties away.
//! let mut buffer = vec![0i16; 65_536];
//! let sigmoid = DequantTable16::<i16, i16>::requantized_in(
//!     &mut buffer, Function::Sigmoid, 1.0 / 4096.0, 0, 1.0 / 32768.0, 0,
//!     Rounding::TiesAwayFromZero,
//! )?;
//! assert_eq!(sigmoid.lookup(0), 16384); // sigmoid(0) = 0.5
//! assert_eq!(sigmoid.lookup(32767), 32757); // sigmoid(8 − 2^-12) · 2^15 = 32757.0086
//! let mut out = [0i16; 3];
//! sigmoid.map(&[-32768, 0, 4096], &mut out);
//! assert_eq!(out, [11, 16384, 23955]); // sigmoid(−8), sigmoid(0), sigmoid(1) in 2^-15
//! # Ok::<(), actlut::quant::QuantError>(())
//! ```
//!
//! Slice maps with 16-bit outputs (`f16`, `bf16`, `i16`, `u16`) go through the 16-bit
//! kernels of [`crate::kernels`] ([`map_u16`](crate::kernels::map_u16)); `f32`, `i8` and `u8`
//! outputs through the plain loop.
//!
//! # Accuracy
//!
//! As [`crate::quant`]: stages 1 and 3 are exact `f32` operations, stage 2 into `f16`/`bf16`
//! is correctly rounded, into `f32` it is [`crate::computed::f32`]. NaN results requantize to
//! `out_zero_point`.

use core::marker::PhantomData;

use actlut_codegen::quant::{Output as Stage, Pipeline};

use crate::quant::{Op, QuantError, QuantType, Rounding};

#[cfg(feature = "alloc")]
extern crate alloc;

/// The number of entries of a table over 16-bit codes.
pub const ENTRIES: usize = 65_536;

mod sealed {
    pub trait Sealed {}
    impl Sealed for i16 {}
    impl Sealed for u16 {}
    impl Sealed for i8 {}
    impl Sealed for u8 {}
    impl Sealed for f32 {}
    impl Sealed for half::f16 {}
    impl Sealed for half::bf16 {}
}

/// A 16-bit quantized input type: `i16` or `u16`.
///
/// ```
/// use actlut::quant16::Input16;
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

/// An output element type of a 16-bit table: `f32`, [`half::f16`], [`half::bf16`]
/// ([`FloatOutput16`]), or requantized `i16`, `u16`, `i8`, `u8` ([`QuantOutput16`]).
///
/// ```
/// use actlut::quant16::Output16;
/// assert_eq!(<i16 as Output16>::from_entry(0xFFFF), -1);
/// ```
pub trait Output16: sealed::Sealed + Copy + 'static {
    /// A placeholder value.
    const ZERO: Self;
    /// The bytes of one entry in a table's little-endian file (`actlut quant`'s output).
    const BYTES: usize;
    /// The value of a table entry's bits (as `actlut_codegen::quant::Pipeline::entry` gives
    /// them).
    fn from_entry(bits: u32) -> Self;
    /// The outputs as their 16-bit bits, for the 16-bit kernels; `None` for `f32`, `i8`, `u8`.
    #[doc(hidden)]
    #[inline]
    fn bits_mut(_out: &mut [Self]) -> Option<&mut [u16]> {
        None
    }
    /// `out[i] = table[codes[i]]`. `codes.len() == out.len()`.
    #[doc(hidden)]
    #[inline]
    #[track_caller]
    fn map_codes(table: &[Self; ENTRIES], codes: &[u16], out: &mut [Self]) {
        crate::lengths::check_lengths(codes.len(), out.len());
        for (o, &c) in out.iter_mut().zip(codes) {
            *o = table[usize::from(c)];
        }
    }
}

impl Output16 for f32 {
    const ZERO: Self = 0.0;
    const BYTES: usize = 4;
    fn from_entry(bits: u32) -> Self {
        f32::from_bits(bits)
    }
}
impl Output16 for i8 {
    const ZERO: Self = 0;
    const BYTES: usize = 1;
    fn from_entry(bits: u32) -> Self {
        bits as u8 as i8
    }
}
impl Output16 for u8 {
    const ZERO: Self = 0;
    const BYTES: usize = 1;
    fn from_entry(bits: u32) -> Self {
        bits as u8
    }
}
impl Output16 for u16 {
    const ZERO: Self = 0;
    const BYTES: usize = 2;
    fn from_entry(bits: u32) -> Self {
        bits as u16
    }
    #[inline]
    fn bits_mut(out: &mut [u16]) -> Option<&mut [u16]> {
        Some(out)
    }
    #[inline]
    #[track_caller]
    fn map_codes(table: &[u16; ENTRIES], codes: &[u16], out: &mut [u16]) {
        crate::kernels::map_u16(table, codes, out);
    }
}
impl Output16 for i16 {
    const ZERO: Self = 0;
    const BYTES: usize = 2;
    fn from_entry(bits: u32) -> Self {
        bits as u16 as i16
    }
    #[inline]
    fn bits_mut(out: &mut [i16]) -> Option<&mut [u16]> {
        Some(zerocopy::transmute_mut!(out))
    }
    #[inline]
    #[track_caller]
    fn map_codes(table: &[i16; ENTRIES], codes: &[u16], out: &mut [i16]) {
        let table: &[u16; ENTRIES] = zerocopy::transmute_ref!(table);
        let out: &mut [u16] = zerocopy::transmute_mut!(out);
        crate::kernels::map_u16(table, codes, out);
    }
}
/// The `f16`/`bf16` outputs' `map_codes`: through their bits, with the 16-bit kernel.
#[inline]
#[track_caller]
fn map_codes_half<T>(table: &[T; ENTRIES], codes: &[u16], out: &mut [T])
where
    [T]: half::slice::HalfFloatSliceExt,
{
    use half::slice::HalfFloatSliceExt;
    let table: &[u16; ENTRIES] = table
        .as_slice()
        .reinterpret_cast()
        .try_into()
        .expect("65,536 entries");
    crate::kernels::map_u16(table, codes, out.reinterpret_cast_mut());
}
impl Output16 for half::f16 {
    const ZERO: Self = half::f16::ZERO;
    const BYTES: usize = 2;
    fn from_entry(bits: u32) -> Self {
        half::f16::from_bits(bits as u16)
    }
    #[inline]
    fn bits_mut(out: &mut [half::f16]) -> Option<&mut [u16]> {
        use half::slice::HalfFloatSliceExt;
        Some(out.reinterpret_cast_mut())
    }
    #[inline]
    #[track_caller]
    fn map_codes(table: &[half::f16; ENTRIES], codes: &[u16], out: &mut [half::f16]) {
        map_codes_half(table, codes, out);
    }
}
impl Output16 for half::bf16 {
    const ZERO: Self = half::bf16::ZERO;
    const BYTES: usize = 2;
    fn from_entry(bits: u32) -> Self {
        half::bf16::from_bits(bits as u16)
    }
    #[inline]
    fn bits_mut(out: &mut [half::bf16]) -> Option<&mut [u16]> {
        use half::slice::HalfFloatSliceExt;
        Some(out.reinterpret_cast_mut())
    }
    #[inline]
    #[track_caller]
    fn map_codes(table: &[half::bf16; ENTRIES], codes: &[u16], out: &mut [half::bf16]) {
        map_codes_half(table, codes, out);
    }
}

/// A floating-point output (`f32`, `f16`, `bf16`): tables built with `new_in`.
pub trait FloatOutput16: Output16 {
    #[doc(hidden)]
    const STAGE: Stage;
}
impl FloatOutput16 for f32 {
    const STAGE: Stage = Stage::F32;
}
impl FloatOutput16 for half::f16 {
    const STAGE: Stage = Stage::F16;
}
impl FloatOutput16 for half::bf16 {
    const STAGE: Stage = Stage::Bf16;
}

/// A requantized output (`i16`, `u16`, `i8`, `u8`): tables built with `requantized_in`.
pub trait QuantOutput16: Output16 {
    /// The output's quantized type.
    const TYPE: QuantType;
}
impl QuantOutput16 for i16 {
    const TYPE: QuantType = QuantType::I16;
}
impl QuantOutput16 for u16 {
    const TYPE: QuantType = QuantType::U16;
}
impl QuantOutput16 for i8 {
    const TYPE: QuantType = QuantType::I8;
}
impl QuantOutput16 for u8 {
    const TYPE: QuantType = QuantType::U8;
}

/// Fills `buffer` with the table of `pipeline`, after checking its length.
fn fill<Out: Output16>(pipeline: &Pipeline, buffer: &mut [Out]) -> Result<(), QuantError> {
    if buffer.len() != ENTRIES {
        return Err(QuantError::Length {
            parameter: "buffer",
            len: buffer.len(),
            expected: ENTRIES,
        });
    }
    for (i, e) in buffer.iter_mut().enumerate() {
        *e = Out::from_entry(pipeline.entry(i as u16));
    }
    Ok(())
}

/// The float pipeline of `op` over `In` codes.
fn float_pipeline<In: Input16, Out: FloatOutput16>(
    op: Op,
    scale: f32,
    zero_point: i32,
) -> Result<Pipeline, QuantError> {
    Pipeline::new(op, In::TYPE, scale, zero_point, Out::STAGE)
}

/// The requantized pipeline of `op` over `In` codes.
fn quant_pipeline<In: Input16, Out: QuantOutput16>(
    op: Op,
    scale: f32,
    zero_point: i32,
    out_scale: f32,
    out_zero_point: i32,
    rounding: Rounding,
) -> Result<Pipeline, QuantError> {
    let stage = Stage::requantized(Out::TYPE, out_scale, out_zero_point)
        .expect("QuantOutput16 types are 8- or 16-bit");
    Pipeline::new(op, In::TYPE, scale, zero_point, stage).map(|p| p.with_rounding(rounding))
}

/// `out[i] = table[values[i]]` over a 16-bit table (entry `i` for the code of bits `i`), for
/// a table from a build script's `static` or any other source.
///
/// # Panics
///
/// If `values.len() != out.len()`; the message names both lengths.
///
/// ```
/// let table: [i16; 65_536] = core::array::from_fn(|i| (i as u16 as i16).saturating_mul(2));
/// let mut out = [0i16; 3];
/// actlut::quant16::map(&table, &[-1i16, 0, 20_000], &mut out);
/// assert_eq!(out, [-2, 0, 32767]);
/// ```
#[inline]
#[track_caller]
pub fn map<In: Input16, Out: Output16>(table: &[Out; ENTRIES], values: &[In], out: &mut [Out]) {
    Out::map_codes(table, In::bits(values), out);
}

/// A full 16-bit table read in place from its little-endian bytes: `actlut quant`'s output
/// (entry `i` for the code whose bits are `i`, each `Out::BYTES` wide), embedded with
/// `include_bytes!` or held in any `&[u8]`. No copy and no decoding pass: each lookup
/// assembles its entry from the bytes, so the bytes need no alignment, on any host.
///
/// [`from_le_bytes`](Self::from_le_bytes) is a `const fn`: in a `static`, a file of the
/// wrong length is a compile error. (The slice kernels of [`map`] need an aligned
/// `&[Out; 65536]`; this view maps element by element.)
///
/// ```
/// use actlut::quant16::LeTable16;
/// // A file as `actlut quant … --out i16` writes it (here, two entries per code shown).
/// static BYTES: [u8; 131_072] = {
///     let mut b = [0u8; 131_072];
///     b[2] = 0x34; // entry 1 = 0x1234
///     b[3] = 0x12;
///     b
/// };
/// static TABLE: LeTable16<'static, i16> = LeTable16::from_le_bytes(&BYTES);
/// assert_eq!(TABLE.lookup(1i16), 0x1234);
/// let mut out = [0i16; 2];
/// TABLE.map(&[0i16, 1], &mut out);
/// assert_eq!(out, [0, 0x1234]);
/// assert!(LeTable16::<f32>::try_from_le_bytes(&BYTES).is_err()); // f32 files are 256 KiB
/// ```
#[derive(Clone, Copy, Debug)]
pub struct LeTable16<'a, Out: Output16> {
    bytes: &'a [u8],
    _out: PhantomData<Out>,
}

impl<'a, Out: Output16> LeTable16<'a, Out> {
    /// The length of the file: 65,536 entries of `Out::BYTES` bytes.
    pub const LEN_BYTES: usize = ENTRIES * Out::BYTES;

    /// The view over `bytes`, or [`QuantError::Length`] (parameter `bytes`) when they are
    /// not [`LEN_BYTES`](Self::LEN_BYTES) long.
    pub const fn try_from_le_bytes(bytes: &'a [u8]) -> Result<Self, QuantError> {
        if bytes.len() != Self::LEN_BYTES {
            return Err(QuantError::Length {
                parameter: "bytes",
                len: bytes.len(),
                expected: Self::LEN_BYTES,
            });
        }
        Ok(LeTable16 {
            bytes,
            _out: PhantomData,
        })
    }

    /// The view over `bytes`.
    ///
    /// # Panics
    ///
    /// If `bytes` is not [`LEN_BYTES`](Self::LEN_BYTES) long: at compile time when it
    /// initializes a `static` or a `const`.
    #[track_caller]
    pub const fn from_le_bytes(bytes: &'a [u8]) -> Self {
        match Self::try_from_le_bytes(bytes) {
            Ok(t) => t,
            Err(_) => panic!(
                "LeTable16::from_le_bytes: the bytes are not 65,536 entries of the output type \
                 (131,072 bytes for 16-bit outputs, 262,144 for f32, 65,536 for 8-bit)"
            ),
        }
    }

    /// The bytes.
    pub const fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The entry of the code `value`.
    #[inline]
    pub fn lookup<In: Input16>(&self, value: In) -> Out {
        let at = value.index() * Out::BYTES;
        let mut le = [0u8; 4];
        le[..Out::BYTES].copy_from_slice(&self.bytes[at..at + Out::BYTES]);
        Out::from_entry(u32::from_le_bytes(le))
    }

    /// `out[i]` = the entry of `values[i]`.
    ///
    /// # Panics
    ///
    /// If `values.len() != out.len()`; the message names both lengths.
    #[track_caller]
    pub fn map<In: Input16>(&self, values: &[In], out: &mut [Out]) {
        crate::lengths::check_lengths(values.len(), out.len());
        for (o, &v) in out.iter_mut().zip(values) {
            *o = self.lookup(v);
        }
    }
}

/// The spline stored form of a 16-bit table: a cubic predictor through knots plus the entries
/// it misses, exact by construction (`actlut_codegen::spline`; 3,240 bytes for the TFLite 16x8
/// sigmoid, docs/quant16.md). Build one with `actlut_codegen::spline::pack_pipeline` in a build
/// script or with `actlut quant --spline`, embed it with `include_bytes!`, and read it with
/// [`SplineRef::from_bytes`].
pub use actlut_codegen::spline::{SplineError, SplineRef};

/// `out[i]` = entry `values[i]` of a spline stored form, as `Out`'s bits (`i16`, `u16`,
/// `f16`, `bf16`), through the spline kernel of [`crate::kernels`]
/// (`Kernel::best(TableShape::Spline16)`, the portable block over [`SplineRef::get`]).
///
/// # Panics
///
/// If `values.len() != out.len()`; the message names both lengths.
///
/// ```
/// use actlut::quant16::{map_spline, SplineRef};
/// use actlut_codegen::quant::{Output, Pipeline, QuantType, Rounding};
/// use actlut_codegen::Function;
/// let out = Output::I16 { scale: 1.0 / 32768.0, zero_point: 0 };
/// let p = Pipeline::new(Function::Tanh.into(), QuantType::I16, 1.0 / 4096.0, 0, out)?
///     .with_rounding(Rounding::TiesAwayFromZero);
/// let stored = actlut_codegen::spline::pack_pipeline(&p).unwrap();
/// let t = SplineRef::from_bytes(&stored).unwrap();
/// let mut y = [0i16; 3];
/// map_spline(&t, &[0i16, 4096, -32768], &mut y);
/// assert_eq!(y, [0, 24956, -32768]); // tanh(0), tanh(1), tanh(−8) in units of 2^-15
/// # Ok::<(), actlut::quant::QuantError>(())
/// ```
#[track_caller]
pub fn map_spline<In: Input16, Out: Output16>(
    table: &SplineRef<'_>,
    values: &[In],
    out: &mut [Out],
) {
    crate::lengths::check_lengths(values.len(), out.len());
    let codes = In::bits(values);
    match Out::bits_mut(&mut *out) {
        Some(bits) => crate::kernels::map_best(table, codes, bits),
        None => {
            for (o, &v) in out.iter_mut().zip(codes) {
                *o = Out::from_entry(u32::from(table.get(v)));
            }
        }
    }
}

/// A fused table over the 65,536 codes of `In` (`i16`, `u16`) with outputs of type `Out`,
/// held in a buffer the caller owns. See the [module docs](self).
#[derive(Clone, Copy, Debug)]
pub struct DequantTable16<'a, In: Input16, Out: Output16> {
    table: &'a [Out; ENTRIES],
    pipeline: Pipeline,
    _input: PhantomData<In>,
}

impl<'a, In: Input16, Out: Output16> DequantTable16<'a, In, Out> {
    fn build(
        buffer: &'a mut [Out],
        pipeline: Result<Pipeline, QuantError>,
    ) -> Result<Self, QuantError> {
        let pipeline = pipeline?;
        fill(&pipeline, buffer)?;
        let table: &'a [Out; ENTRIES] = (&*buffer).try_into().expect("checked by fill");
        Ok(DequantTable16 {
            table,
            pipeline,
            _input: PhantomData,
        })
    }

    /// The entries, indexed by the code's bits.
    pub fn entries(&self) -> &'a [Out; ENTRIES] {
        self.table
    }

    /// The op applied after dequantization.
    pub fn op(&self) -> Op {
        self.pipeline.op()
    }

    /// The input scale.
    pub fn scale(&self) -> f32 {
        self.pipeline.scale()
    }

    /// The input zero point.
    pub fn zero_point(&self) -> i32 {
        self.pipeline.zero_point()
    }

    /// The requantization rounding (ties to even for float outputs, where it does not apply).
    pub fn rounding(&self) -> Rounding {
        self.pipeline.rounding()
    }

    /// The output for one value: one load.
    #[inline]
    pub fn lookup(&self, value: In) -> Out {
        self.table[value.index()]
    }

    /// Writes the output of every value of `values` to `out`.
    ///
    /// # Panics
    ///
    /// If `values.len() != out.len()`; the message names both lengths.
    #[inline]
    #[track_caller]
    pub fn map(&self, values: &[In], out: &mut [Out]) {
        map(self.table, values, out);
    }
}

impl<'a, In: Input16, Out: FloatOutput16> DequantTable16<'a, In, Out> {
    /// Builds the table of `op` (a [`Function`](crate::quant::Function), an
    /// [`Activation`](crate::Activation) or [`Op::Identity`]) after dequantizing with `scale`
    /// and `zero_point`, with float outputs, into `buffer`.
    ///
    /// # Errors
    ///
    /// [`QuantError::Scale`] if `scale` is not finite and positive,
    /// [`QuantError::ScaleTooSmall`] if every code dequantizes to zero or a subnormal,
    /// [`QuantError::ZeroPoint`] if `zero_point` is not a value of `In`,
    /// [`QuantError::Length`] naming `buffer` if it does not hold exactly 65,536 entries.
    ///
    /// ```
    /// use actlut::quant::{Function, Op};
    /// use actlut::quant16::DequantTable16;
    /// use half::f16;
    /// let mut buffer = vec![f16::ZERO; 65_536];
    /// let t = DequantTable16::<u16, f16>::new_in(&mut buffer, Op::Identity, 0.5, 32768)?;
    /// assert_eq!(t.lookup(32770), f16::ONE);
    /// let mut short = [f16::ZERO; 16];
    /// let e = DequantTable16::<u16, f16>::new_in(&mut short, Function::Gelu, 0.5, 0).unwrap_err();
    /// assert_eq!(e.to_string(), "buffer has 16 entries, but the table has 65536");
    /// # Ok::<(), actlut::quant::QuantError>(())
    /// ```
    pub fn new_in(
        buffer: &'a mut [Out],
        op: impl Into<Op>,
        scale: f32,
        zero_point: i32,
    ) -> Result<Self, QuantError> {
        Self::build(
            buffer,
            float_pipeline::<In, Out>(op.into(), scale, zero_point),
        )
    }
}

impl<'a, In: Input16, Out: QuantOutput16> DequantTable16<'a, In, Out> {
    /// Builds the table of `op` after dequantizing with `scale` and `zero_point`, requantized
    /// with `out_scale`, `out_zero_point` and `rounding`, into `buffer`.
    ///
    /// # Errors
    ///
    /// As [`new_in`](DequantTable16::new_in), and [`QuantError::Scale`] /
    /// [`QuantError::ZeroPoint`] for `out_scale` and `out_zero_point` (a zero point the output
    /// type cannot hold).
    ///
    /// ```
    /// use actlut::quant::{Function, Rounding};
    /// use actlut::quant16::DequantTable16;
    /// let mut buffer = vec![0u8; 65_536];
    /// let e = DequantTable16::<i16, u8>::requantized_in(
    ///     &mut buffer, Function::Tanh, 0.001, 0, 1.0 / 128.0, 300, Rounding::TiesToEven,
    /// ).unwrap_err();
    /// assert_eq!(e.to_string(), "out_zero_point = 300 is outside u8 (0..=255)");
    /// # Ok::<(), actlut::quant::QuantError>(())
    /// ```
    pub fn requantized_in(
        buffer: &'a mut [Out],
        op: impl Into<Op>,
        scale: f32,
        zero_point: i32,
        out_scale: f32,
        out_zero_point: i32,
        rounding: Rounding,
    ) -> Result<Self, QuantError> {
        let p = quant_pipeline::<In, Out>(
            op.into(),
            scale,
            zero_point,
            out_scale,
            out_zero_point,
            rounding,
        );
        Self::build(buffer, p)
    }
}

/// A [`DequantTable16`] that owns its entries on the heap (the `alloc` feature).
///
/// ```
/// use actlut::quant::{Function, Rounding};
/// use actlut::quant16::BoxedDequantTable16;
/// let t = BoxedDequantTable16::<i16, i8>::requantized(
///     Function::Tanh, 1.0 / 4096.0, 0, 1.0 / 128.0, 0, Rounding::TiesAwayFromZero,
/// )?;
/// assert_eq!(t.table().lookup(-32768), -128); // tanh(−8) · 128 = −127.99…, saturated
/// # Ok::<(), actlut::quant::QuantError>(())
/// ```
#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
#[derive(Clone, Debug)]
pub struct BoxedDequantTable16<In: Input16, Out: Output16> {
    table: alloc::boxed::Box<[Out; ENTRIES]>,
    pipeline: Pipeline,
    _input: PhantomData<In>,
}

#[cfg(feature = "alloc")]
impl<In: Input16, Out: Output16> BoxedDequantTable16<In, Out> {
    fn build(pipeline: Result<Pipeline, QuantError>) -> Result<Self, QuantError> {
        let pipeline = pipeline?;
        let mut v = alloc::vec![Out::ZERO; ENTRIES];
        fill(&pipeline, &mut v)?;
        let table: alloc::boxed::Box<[Out; ENTRIES]> = v
            .into_boxed_slice()
            .try_into()
            .unwrap_or_else(|_| unreachable!("65,536 entries"));
        Ok(BoxedDequantTable16 {
            table,
            pipeline,
            _input: PhantomData,
        })
    }

    /// The table's spline stored form (see [`SplineRef`]), packed at run time and checked on
    /// every code: a few KiB for smooth requantized tables (3,240 bytes for the TFLite 16x8
    /// sigmoid). The entries are the table's bits as `u16`.
    ///
    /// # Errors
    ///
    /// [`PackError::Output`](actlut_codegen::spline::PackError) for `f32`, `i8` and `u8`
    /// outputs (not 16 bits wide).
    ///
    /// ```
    /// use actlut::quant::{Function, Rounding};
    /// use actlut::quant16::{map_spline, BoxedDequantTable16, SplineRef};
    /// let t = BoxedDequantTable16::<i16, i16>::requantized(
    ///     Function::Sigmoid, 1.0 / 4096.0, 0, 1.0 / 32768.0, 0, Rounding::TiesAwayFromZero,
    /// )?;
    /// let stored = t.spline().unwrap();
    /// assert!(stored.len() <= 8 * 1024);
    /// let s = SplineRef::from_bytes(&stored).unwrap();
    /// let mut y = [0i16; 2];
    /// map_spline(&s, &[0i16, -32768], &mut y);
    /// assert_eq!(y, [t.table().lookup(0), t.table().lookup(-32768)]);
    /// # Ok::<(), actlut::quant::QuantError>(())
    /// ```
    pub fn spline(&self) -> Result<alloc::vec::Vec<u8>, actlut_codegen::spline::PackError> {
        actlut_codegen::spline::pack_pipeline(&self.pipeline)
    }

    /// The table, borrowed: `lookup`, `map`, `entries`.
    pub fn table(&self) -> DequantTable16<'_, In, Out> {
        DequantTable16 {
            table: &self.table,
            pipeline: self.pipeline,
            _input: PhantomData,
        }
    }
}

#[cfg(feature = "alloc")]
impl<In: Input16, Out: FloatOutput16> BoxedDequantTable16<In, Out> {
    /// [`DequantTable16::new_in`] into a new box.
    ///
    /// # Errors
    ///
    /// As [`DequantTable16::new_in`] (except `buffer`).
    pub fn new(op: impl Into<Op>, scale: f32, zero_point: i32) -> Result<Self, QuantError> {
        Self::build(float_pipeline::<In, Out>(op.into(), scale, zero_point))
    }
}

#[cfg(feature = "alloc")]
impl<In: Input16, Out: QuantOutput16> BoxedDequantTable16<In, Out> {
    /// [`DequantTable16::requantized_in`] into a new box.
    ///
    /// # Errors
    ///
    /// As [`DequantTable16::requantized_in`] (except `buffer`).
    pub fn requantized(
        op: impl Into<Op>,
        scale: f32,
        zero_point: i32,
        out_scale: f32,
        out_zero_point: i32,
        rounding: Rounding,
    ) -> Result<Self, QuantError> {
        Self::build(quant_pipeline::<In, Out>(
            op.into(),
            scale,
            zero_point,
            out_scale,
            out_zero_point,
            rounding,
        ))
    }
}
