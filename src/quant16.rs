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
//! use actlut::Function;
//! use actlut::quant::Rounding;
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

use actlut_core::quant::Pipeline;

use crate::quant::{Op, QuantError, Rounding};

#[cfg(feature = "alloc")]
extern crate alloc;

/// The number of entries of a table over 16-bit codes.
pub const ENTRIES: usize = 65_536;

/// The element types, one family with `quant`'s and `mx`'s ([`crate::element`]).
pub use crate::element::Input16;
use crate::element::{Bits, BitsMut, FloatOutput, Output, QuantOutput};

/// Fills `buffer` with the table of `pipeline`, after checking its length.
fn fill<Out: Output>(pipeline: &Pipeline, buffer: &mut [Out]) -> Result<(), QuantError> {
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
fn float_pipeline<In: Input16, Out: FloatOutput>(
    op: Op,
    scale: f32,
    zero_point: i32,
) -> Result<Pipeline, QuantError> {
    Pipeline::new(op, In::TYPE, scale, zero_point, Out::STAGE)
}

/// The requantized pipeline of `op` over `In` codes.
fn quant_pipeline<In: Input16, Out: QuantOutput>(
    op: Op,
    scale: f32,
    zero_point: i32,
    out_scale: f32,
    out_zero_point: i32,
    rounding: Rounding,
) -> Result<Pipeline, QuantError> {
    let stage = Out::stage(out_scale, out_zero_point);
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
pub fn map<In: Input16, Out: Output>(table: &[Out; ENTRIES], values: &[In], out: &mut [Out]) {
    let codes = In::bits(values);
    crate::errors::check_lengths(codes.len(), out.len());
    // 16-bit outputs through the 16-bit kernels; the others with a plain loop.
    if let (Bits::U16(t), BitsMut::U16(o)) = (Out::bits(table), Out::bits_mut(&mut *out)) {
        let t: &[u16; ENTRIES] = t.try_into().expect("65,536 entries");
        crate::kernels::map_u16(t, codes, o);
        return;
    }
    for (o, &c) in out.iter_mut().zip(codes) {
        *o = table[usize::from(c)];
    }
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
pub struct LeTable16<'a, Out: Output> {
    bytes: &'a [u8],
    _out: PhantomData<Out>,
}

impl<'a, Out: Output> LeTable16<'a, Out> {
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
        crate::errors::check_lengths(values.len(), out.len());
        for (o, &v) in out.iter_mut().zip(values) {
            *o = self.lookup(v);
        }
    }
}

/// The spline stored form of a 16-bit table: a cubic predictor through knots plus the entries
/// it misses, exact by construction (`actlut_core::spline`; 3,240 bytes for the TFLite 16x8
/// sigmoid, docs/quant16.md). Build one with `actlut_codegen::spline::pack_pipeline` in a build
/// script or with `actlut quant --spline`, embed it with `include_bytes!`, and read it with
/// [`SplineRef::from_bytes`].
pub use actlut_core::spline::{SplineError, SplineRef};

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
/// use actlut_codegen::quant::{OutputType, Pipeline, QuantType, Rounding};
/// use actlut_codegen::Function;
/// let out = OutputType::I16 { scale: 1.0 / 32768.0, zero_point: 0 };
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
pub fn map_spline<In: Input16, Out: Output>(table: &SplineRef<'_>, values: &[In], out: &mut [Out]) {
    crate::errors::check_lengths(values.len(), out.len());
    let codes = In::bits(values);
    match Out::bits_mut(&mut *out) {
        BitsMut::U16(bits) => crate::kernels::map_best(table, codes, bits),
        _ => {
            for (o, &v) in out.iter_mut().zip(codes) {
                *o = Out::from_entry(u32::from(table.get(v)));
            }
        }
    }
}

/// A fused table over the 65,536 codes of `In` (`i16`, `u16`) with outputs of type `Out`,
/// held in a buffer the caller owns. See the [module docs](self).
#[derive(Clone, Copy, Debug)]
pub struct DequantTable16<'a, In: Input16, Out: Output> {
    table: &'a [Out; ENTRIES],
    pipeline: Pipeline,
    _input: PhantomData<In>,
}

impl<'a, In: Input16, Out: Output> DequantTable16<'a, In, Out> {
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

impl<'a, In: Input16, Out: FloatOutput> DequantTable16<'a, In, Out> {
    /// Builds the table of `op` (an [`Op`] or a [`Function`](crate::Function); the identity is a
    /// plain dequantization) after dequantizing with `scale`
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
    /// use actlut::Function;
    /// use actlut::quant::Op;
    /// use actlut::quant16::DequantTable16;
    /// use half::f16;
    /// let mut buffer = vec![f16::ZERO; 65_536];
    /// let t = DequantTable16::<u16, f16>::new_in(&mut buffer, Op::from(actlut::Function::Identity), 0.5, 32768)?;
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

impl<'a, In: Input16, Out: QuantOutput> DequantTable16<'a, In, Out> {
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
    /// use actlut::Function;
    /// use actlut::quant::Rounding;
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
/// use actlut::Function;
/// use actlut::quant::Rounding;
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
pub struct BoxedDequantTable16<In: Input16, Out: Output> {
    table: alloc::boxed::Box<[Out; ENTRIES]>,
    pipeline: Pipeline,
    _input: PhantomData<In>,
}

#[cfg(feature = "alloc")]
impl<In: Input16, Out: Output> BoxedDequantTable16<In, Out> {
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
    /// [`PackError::Output`](actlut_core::spline::PackError) for `f32`, `i8` and `u8`
    /// outputs (not 16 bits wide).
    ///
    /// ```
    /// use actlut::Function;
    /// use actlut::quant::Rounding;
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
    pub fn spline(&self) -> Result<alloc::vec::Vec<u8>, actlut_core::spline::PackError> {
        actlut_core::spline::pack_pipeline(&self.pipeline)
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
impl<In: Input16, Out: FloatOutput> BoxedDequantTable16<In, Out> {
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
impl<In: Input16, Out: QuantOutput> BoxedDequantTable16<In, Out> {
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
