//! Block-scaled inputs, dequantized → function, fused: OCP MX blocks (32 element codes sharing
//! one E8M0 power-of-two scale) and NVFP4 blocks (16 FP4 E2M1 codes sharing one FP8 E4M3 scale,
//! times an `f32` global scale).
//!
//! # The operation
//!
//! Each element becomes `y = f(decode(code) · scale)`, **correctly rounded once** to the output
//! type (`f32`, `bf16` or `f16`) from the exact dequantized value, where `f` is one of the
//! [`Function`](crate::Function)s or the identity ([`Function::Identity`](crate::Function::Identity), a plain dequantization). The product is exact
//! in `f64`: an element has at most 4 significant bits, an E8M0 scale is a power of two between
//! 2^-127 and 2^127, an E4M3 scale has 4 significant bits and an `f32` global scale 24, so the
//! product has at most 32 significant bits and lies between 2^-159 and 2^143, well inside `f64`
//! (but not always inside `f32`: `6 · 2^127` dequantizes to `f32` +inf, correctly rounded).
//!
//! ```
//! use actlut::mx::{MxFp4Table, Op};
//! use actlut::Function;
//! use half::bf16;
//!
//! // One block: codes 1.0 (0x2) and −2.0 (0xC), then zeros; scale 2^1 (E8M0 code 128).
//! let mut packed = [0u8; 16];
//! packed[0] = 0xC2; // low nibble first: element 0 = 0x2, element 1 = 0xC
//! let table = MxFp4Table::<bf16>::new(Function::Gelu);
//! let mut out = [bf16::ZERO; 32];
//! table.map(&packed, &[128], &mut out)?;
//! assert_eq!(out[0], bf16::from_f32(1.953125)); // gelu(2.0) = 1.9545…, rounded to bf16
//! // The same bits as the table-free computed path at −4.0 = −2.0 · 2^1.
//! assert_eq!(out[1], actlut::computed::bf16(actlut::Function::Gelu, bf16::from_f32(-4.0)));
//! # Ok::<(), actlut::mx::BlockError>(())
//! ```
//!
//! # Layouts
//!
//! - **Blocks are separate from their scales**: the element codes of all blocks in one slice,
//!   the scales in another (one per block), the outputs in a third; this is the layout of the OCP
//!   MX tensors and of ONNX's block dequantization. [`MX_BLOCK`] = 32, [`NVFP4_BLOCK`] = 16.
//! - **FP4 is packed** two codes per byte, the **first element in the low nibble** (OCP MX,
//!   ONNX's 4-bit types, PyTorch's `float4_e2m1fn_x2`): an MXFP4 block is 16 bytes, an NVFP4
//!   block 8.
//! - **FP6 and FP8 are one code per byte** (FP6 in the low 6 bits). Packed FP6 (four codes in
//!   three bytes) is not read here: unpack it first.
//!
//! # Special values
//!
//! - **E8M0 scale `0xFF` is NaN**: every output of its block is NaN (OCP MX: a NaN scale makes
//!   the whole block NaN), the output's default quiet NaN (`f32` `0x7FC0_0000`, `bf16` `0x7FC0`,
//!   `f16` `0x7E00`). So is a NaN element (E4M3 `S.1111.111`, E5M2 NaNs) and a NaN NVFP4 block
//!   scale (E4M3 `0x7F`/`0xFF`). E8M0 has no zero: code `0x00` is 2^-127.
//! - An infinite element (E5M2 ±inf) times a scale is ±inf, and `f` gives its limit there
//!   (docs/SEMANTICS.md).
//!
//! # Errors
//!
//! Every entry point checks its input before it writes anything, and returns a [`BlockError`]
//! that names the block or the value: a code slice that is not a whole number of blocks (a
//! ragged tail), a scale count that does not match the block count, an output slice of the wrong
//! length, an FP6 code with bits set above its 6 bits (a packing error upstream; never silently
//! masked), an NVFP4 global scale that is NaN, infinite, zero or negative, and an NVFP4 block
//! scale with its sign bit set (NVFP4 block scales are positive; a negative one would flip the
//! block's signs).
//!
//! # Speed
//!
//! FP4 has 16 codes and at most 256 scales: [`MxFp4Table`] and [`Nvfp4Table`] hold the output
//! for every (scale, code) pair, 16 KiB for `f32` outputs (one 64-byte row per scale), built once
//! (4,096 evaluations) and then read with one 16-byte shuffle per 16 outputs and output byte
//! (`pshufb` with SSSE3 on x86_64, `tbl` with NEON on aarch64, `i8x16_swizzle` with simd128 on
//! wasm32; the FP4 kernels of [`crate::kernels`]). FP6 and FP8 blocks ([`map_mx`]) have 64 or 256 codes: a table over
//! every scale would not fit in L1, so each block's outputs are memoized per code for the current
//! scale, on the stack, and reused while consecutive blocks share a scale. BENCHMARKS.md has the
//! measurements.

use core::fmt;

pub use actlut_core::quant::Op;

use crate::element::FloatOutput;
use actlut_core::Format;

use crate::kernels::{Fp4Row, Kernel, KernelUnavailable};

/// Elements per OCP MX block.
pub const MX_BLOCK: usize = 32;
/// Elements per NVFP4 block.
pub const NVFP4_BLOCK: usize = 16;

/// The element format of an MX block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Element {
    /// MXFP4: OCP FP4 E2M1, two codes per byte (low nibble first).
    Fp4E2M1,
    /// MXFP6: OCP FP6 E2M3, one code per byte (low 6 bits).
    Fp6E2M3,
    /// MXFP6: OCP FP6 E3M2, one code per byte (low 6 bits).
    Fp6E3M2,
    /// MXFP8: OCP FP8 E4M3FN, one code per byte.
    Fp8E4M3,
    /// MXFP8: OCP FP8 E5M2, one code per byte.
    Fp8E5M2,
}

impl Element {
    /// The element's number format.
    pub const fn format(self) -> Format {
        match self {
            Element::Fp4E2M1 => Format::Fp4E2M1,
            Element::Fp6E2M3 => Format::Fp6E2M3,
            Element::Fp6E3M2 => Format::Fp6E3M2,
            Element::Fp8E4M3 => Format::Fp8E4M3,
            Element::Fp8E5M2 => Format::Fp8E5M2,
        }
    }

    /// Bytes of one MX block's codes: 16 for FP4 (packed), 32 for the others.
    pub const fn block_bytes(self) -> usize {
        match self {
            Element::Fp4E2M1 => MX_BLOCK / 2,
            _ => MX_BLOCK,
        }
    }

    /// The exact value of one code, or `None` for a code with bits set above the format's
    /// width (FP4: 4 bits, FP6: 6). NaN codes give `f64` NaN.
    ///
    /// ```
    /// use actlut::mx::Element;
    /// assert_eq!(Element::Fp4E2M1.value(0x7), Some(6.0));
    /// assert_eq!(Element::Fp6E3M2.value(0x1F), Some(28.0));
    /// assert_eq!(Element::Fp6E2M3.value(0x40), None); // stray bit 6
    /// ```
    pub fn value(self, code: u8) -> Option<f64> {
        let f = self.format();
        (u16::from(code) & !f.code_mask() == 0).then(|| f.decode(u16::from(code)))
    }
}

/// The value of an E8M0 scale code: 2^(code − 127), exact; `0xFF` is NaN.
///
/// ```
/// assert_eq!(actlut::mx::e8m0_to_f64(127), 1.0);
/// assert_eq!(actlut::mx::e8m0_to_f64(0), 2f64.powi(-127));
/// assert!(actlut::mx::e8m0_to_f64(0xFF).is_nan());
/// ```
pub fn e8m0_to_f64(code: u8) -> f64 {
    if code == 0xFF {
        f64::NAN
    } else {
        // 2^(code − 127) as an f64 bit pattern: biased exponent code − 127 + 1023.
        f64::from_bits((u64::from(code) + 896) << 52)
    }
}

/// The value of an E8M0 scale code as `f32`: 2^(code − 127), exact (code 0, 2^-127, is an
/// `f32` subnormal); `0xFF` is NaN.
///
/// ```
/// assert_eq!(actlut::mx::e8m0_to_f32(130), 8.0);
/// assert_eq!(actlut::mx::e8m0_to_f32(0).to_bits(), 0x0040_0000);
/// ```
pub fn e8m0_to_f32(code: u8) -> f32 {
    e8m0_to_f64(code) as f32
}

/// The scalar reference of every block entry point: `op` at `element · scale`, where `element`
/// and `scale` are exact values (NaN allowed), rounded once to `O`; NaN gives [`FloatOutput::NAN`].
///
/// ```
/// use actlut::mx::{reference, Op};
/// assert_eq!(reference::<f32>(Op::from(actlut::Function::Identity), 6.0, 2f64.powi(127)), f32::INFINITY);
/// assert!(reference::<f32>(Op::from(actlut::Function::Identity), 1.0, f64::NAN).is_nan());
/// ```
pub fn reference<O: FloatOutput>(op: Op, element: f64, scale: f64) -> O {
    let x = element * scale; // exact for every element and scale of this module
    if x.is_nan() {
        O::NAN
    } else {
        O::from_value(op, x)
    }
}

/// Why a block entry point refused its input.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum BlockError {
    /// The code slice ends inside a block: block `block` has `bytes` of its `block_bytes` bytes.
    RaggedTail {
        /// Index of the incomplete block.
        block: usize,
        /// Bytes present of that block.
        bytes: usize,
        /// Bytes of a whole block.
        block_bytes: usize,
    },
    /// One scale per block is needed: `blocks` blocks, `scales` scales.
    ScaleCount {
        /// Blocks in the code slice.
        blocks: usize,
        /// Scales given.
        scales: usize,
    },
    /// The output slice must have one element per input element.
    OutputLength {
        /// Elements in the blocks.
        expected: usize,
        /// Length of the output slice.
        found: usize,
    },
    /// A code has bits set above its format's width (FP6: bits 6 and 7).
    StrayBits {
        /// The block.
        block: usize,
        /// The element's index within the block.
        index: usize,
        /// The code byte.
        code: u8,
    },
    /// The NVFP4 global scale is NaN, infinite, zero or negative.
    GlobalScale {
        /// The value given.
        value: f32,
    },
    /// An NVFP4 block scale has its sign bit set (E4M3 `0xB8` is −1): NVFP4
    /// scales are positive, and a negative one would flip the block's signs.
    NegativeScale {
        /// The block.
        block: usize,
        /// Its scale code.
        scale: u8,
    },
    /// The kernel asked for cannot run FP4 rows here.
    Kernel(KernelUnavailable),
}

impl fmt::Display for BlockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            BlockError::RaggedTail {
                block,
                bytes,
                block_bytes,
            } => write!(
                f,
                "block {block} is incomplete: {bytes} of its {block_bytes} bytes (a ragged tail)"
            ),
            BlockError::ScaleCount { blocks, scales } => {
                write!(f, "{blocks} blocks need {blocks} scales, found {scales}")
            }
            BlockError::OutputLength { expected, found } => {
                write!(
                    f,
                    "the blocks hold {expected} elements, the output has {found}"
                )
            }
            BlockError::StrayBits { block, index, code } => write!(
                f,
                "block {block}, element {index}: code {code:#04x} has bits above its width"
            ),
            BlockError::GlobalScale { value } => write!(
                f,
                "the NVFP4 global scale must be finite and positive, found {value:e}"
            ),
            BlockError::NegativeScale { block, scale } => write!(
                f,
                "block {block}: the NVFP4 block scale {scale:#04x} is negative (sign bit set); \
                 NVFP4 block scales are positive"
            ),
            BlockError::Kernel(e) => e.fmt(f),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for BlockError {}

/// Checks the code, scale and output lengths: `Ok(blocks)`.
fn check_block_lengths(
    codes: usize,
    block_bytes: usize,
    scales: usize,
    elements_per_block: usize,
    out: usize,
) -> Result<usize, BlockError> {
    let blocks = codes / block_bytes;
    if !codes.is_multiple_of(block_bytes) {
        return Err(BlockError::RaggedTail {
            block: blocks,
            bytes: codes % block_bytes,
            block_bytes,
        });
    }
    if scales != blocks {
        return Err(BlockError::ScaleCount { blocks, scales });
    }
    if out != blocks * elements_per_block {
        return Err(BlockError::OutputLength {
            expected: blocks * elements_per_block,
            found: out,
        });
    }
    Ok(blocks)
}

/// The block scale of a shared-scale FP4 table ([`Fp4Table`]): OCP MX's E8M0
/// ([`Mx`]) or NVFP4's E4M3 ([`Nvfp4`]). Sealed.
pub trait BlockScale: scale_sealed::Sealed + Copy + fmt::Debug + 'static {
    /// Elements per block: [`MX_BLOCK`] or [`NVFP4_BLOCK`].
    const BLOCK: usize;
    /// The scale's format, for messages: `E8M0`, `E4M3`.
    const SCALE_FORMAT: &'static str;
    /// Whether `scale` is a scale this format accepts in a block.
    #[doc(hidden)]
    fn accepts(scale: u8) -> bool;
}

mod scale_sealed {
    pub trait Sealed {}
    impl Sealed for super::Mx {}
    impl Sealed for super::Nvfp4 {}
}

/// OCP MXFP4: 32 elements per block, one E8M0 power-of-two scale each
/// (every code is a scale; `0xFF` is NaN).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mx {}

/// NVFP4: 16 elements per block, one FP8 E4M3 scale each, which must be
/// positive (the sign bit clear; `0x7F` is NaN), times an `f32` global scale
/// folded into the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Nvfp4 {}

impl BlockScale for Mx {
    const BLOCK: usize = MX_BLOCK;
    const SCALE_FORMAT: &'static str = "E8M0";
    fn accepts(_: u8) -> bool {
        true
    }
}

impl BlockScale for Nvfp4 {
    const BLOCK: usize = NVFP4_BLOCK;
    const SCALE_FORMAT: &'static str = "E4M3";
    /// NVFP4 block scales are positive: a set sign bit would flip the signs of
    /// the whole block, silently.
    fn accepts(scale: u8) -> bool {
        scale & 0x80 == 0
    }
}

/// A fused shared-scale FP4 table: the output of `op` for every (block scale,
/// FP4 E2M1 code) pair, one 64-byte row ([`Fp4Row`]) per scale, 16 KiB, built
/// once without allocation, and read by the FP4 kernels of
/// [`crate::kernels`]. [`MxFp4Table`] and [`Nvfp4Table`] are its two forms.
#[derive(Clone, Copy, Debug)]
pub struct Fp4Table<S: BlockScale, O: FloatOutput> {
    rows: [Fp4Row<O>; 256],
    _scale: core::marker::PhantomData<S>,
}

/// A fused MXFP4 table: the output of `op` for every (E8M0 scale, FP4 E2M1 code) pair, 16 KiB
/// (one 64-byte row per scale), built once without allocation.
///
/// ```
/// use actlut::mx::{MxFp4Table, Op};
/// let t = MxFp4Table::<f32>::new(Op::from(actlut::Function::Identity));
/// assert_eq!(t.lookup(127 + 3, 0x7), 48.0); // 6 · 2^3
/// assert!(t.lookup(0xFF, 0x7).is_nan()); // the NaN scale
/// ```
pub type MxFp4Table<O> = Fp4Table<Mx, O>;

/// A fused NVFP4 table: the output of `op` for every (E4M3 block scale, FP4 E2M1 code) pair,
/// with the tensor's `f32` global scale folded in; 16 KiB, built once without allocation.
///
/// ```
/// use actlut::mx::{Nvfp4Table, Op};
/// let t = Nvfp4Table::<f32>::new(Op::from(actlut::Function::Identity), 0.5)?;
/// assert_eq!(t.lookup(0x38, 0x7), 3.0); // 6 · 1.0 (E4M3 0x38) · 0.5
/// assert!(Nvfp4Table::<f32>::new(Op::from(actlut::Function::Identity), 0.0).is_err());
/// # Ok::<(), actlut::mx::BlockError>(())
/// ```
pub type Nvfp4Table<O> = Fp4Table<Nvfp4, O>;

impl<S: BlockScale, O: FloatOutput> Fp4Table<S, O> {
    fn with_scale(scale: impl Fn(u8) -> f64, op: Op) -> Self {
        let rows = core::array::from_fn(|s| {
            let scale = scale(s as u8);
            Fp4Row::from_fn(|c| reference::<O>(op, Format::Fp4E2M1.decode(u16::from(c)), scale))
        });
        Fp4Table {
            rows,
            _scale: core::marker::PhantomData,
        }
    }

    /// The output for one block `scale` and FP4 `code` (its low 4 bits).
    pub fn lookup(&self, scale: u8, code: u8) -> O {
        self.rows[usize::from(scale)].get(code)
    }

    /// The row of one block scale: the outputs of its 16 codes, a table of
    /// [`crate::kernels`].
    pub fn row(&self, scale: u8) -> &Fp4Row<O> {
        &self.rows[usize::from(scale)]
    }

    /// Dequantizes FP4 blocks through the table: `packed` holds `S::BLOCK / 2`
    /// bytes per block (16 for MXFP4, 8 for NVFP4; two codes per byte, the
    /// first element in the low nibble), `scales` one block scale per block,
    /// `out` `S::BLOCK` elements per block. Uses
    /// [`Kernel::best`]`(TableShape::Fp4)` (see [`crate::kernels`]).
    ///
    /// # Errors
    ///
    /// [`BlockError::RaggedTail`], [`BlockError::ScaleCount`],
    /// [`BlockError::OutputLength`], or for NVFP4 [`BlockError::NegativeScale`]
    /// (a block scale with its sign bit set), before anything is written.
    pub fn map(&self, packed: &[u8], scales: &[u8], out: &mut [O]) -> Result<(), BlockError> {
        self.check(packed, scales, out)?;
        crate::kernels::map_fp4_blocks(None, &self.rows, packed, scales, out, S::BLOCK / 2)
            .map_err(BlockError::Kernel)
    }

    /// [`map`](Self::map) with a chosen kernel.
    ///
    /// # Errors
    ///
    /// As [`map`](Self::map), and [`BlockError::Kernel`] if the kernel cannot
    /// run FP4 rows on this CPU or target
    /// ([`Kernel::is_available_for`]`(TableShape::Fp4)`); nothing is written
    /// then.
    pub fn map_with(
        &self,
        kernel: Kernel,
        packed: &[u8],
        scales: &[u8],
        out: &mut [O],
    ) -> Result<(), BlockError> {
        self.check(packed, scales, out)?;
        crate::kernels::map_fp4_blocks(Some(kernel), &self.rows, packed, scales, out, S::BLOCK / 2)
            .map_err(BlockError::Kernel)
    }

    /// The checks of [`map`](Self::map).
    fn check(&self, packed: &[u8], scales: &[u8], out: &[O]) -> Result<(), BlockError> {
        let block_bytes = S::BLOCK / 2;
        check_block_lengths(packed.len(), block_bytes, scales.len(), S::BLOCK, out.len())?;
        if let Some(block) = scales.iter().position(|&s| !S::accepts(s)) {
            return Err(BlockError::NegativeScale {
                block,
                scale: scales[block],
            });
        }
        Ok(())
    }
}

impl<O: FloatOutput> Fp4Table<Mx, O> {
    /// The MXFP4 table of `op` (4,096 correctly rounded evaluations).
    pub fn new(op: impl Into<Op>) -> Self {
        Self::with_scale(e8m0_to_f64, op.into())
    }
}

impl<O: FloatOutput> Fp4Table<Nvfp4, O> {
    /// The NVFP4 table of `op` for blocks of a tensor with this global scale
    /// (4,096 correctly rounded evaluations).
    ///
    /// # Errors
    ///
    /// [`BlockError::GlobalScale`] if `global_scale` is NaN, infinite, zero or negative.
    pub fn new(op: impl Into<Op>, global_scale: f32) -> Result<Self, BlockError> {
        if !(global_scale.is_finite() && global_scale > 0.0) {
            return Err(BlockError::GlobalScale {
                value: global_scale,
            });
        }
        let g = f64::from(global_scale);
        // E4M3 (≤ 4 significant bits) times an f32 (≤ 24): exact in f64.
        let scale = |s: u8| Format::Fp8E4M3.decode(u16::from(s)) * g;
        Ok(Self::with_scale(scale, op.into()))
    }
}

/// Dequantizes MX blocks of any element format → `op`, correctly rounded to `O`: `codes` holds
/// the element codes ([`Element::block_bytes`] per block: FP4 packed two per byte, low nibble
/// first; FP6 and FP8 one per byte), `scales` one E8M0 scale per block, `out` 32 elements per
/// block.
///
/// Without a prebuilt table: each output is evaluated once per distinct (code, scale) within a
/// run of blocks with the same scale, memoized on the stack. For MXFP4 with a fixed `op`,
/// [`MxFp4Table`] is faster.
///
/// ```
/// use actlut::mx::{map_mx, Element, Op};
/// let codes = [0x08u8; 32]; // FP6 E2M3 1.0
/// let mut out = [0f32; 32];
/// map_mx(Op::from(actlut::Function::Identity), Element::Fp6E2M3, &codes, &[127 - 2], &mut out)?;
/// assert_eq!(out, [0.25; 32]);
/// # Ok::<(), actlut::mx::BlockError>(())
/// ```
///
/// # Errors
///
/// As [`MxFp4Table::map`], and [`BlockError::StrayBits`] for an FP6 code with bit 6 or 7 set;
/// all before anything is written.
pub fn map_mx<O: FloatOutput>(
    op: Op,
    element: Element,
    codes: &[u8],
    scales: &[u8],
    out: &mut [O],
) -> Result<(), BlockError> {
    let block_bytes = element.block_bytes();
    check_block_lengths(codes.len(), block_bytes, scales.len(), MX_BLOCK, out.len())?;
    let format = element.format();
    let mask = format.code_mask();
    if element != Element::Fp4E2M1 {
        for (block, chunk) in codes.chunks_exact(block_bytes).enumerate() {
            if let Some(index) = chunk.iter().position(|&c| u16::from(c) & !mask != 0) {
                return Err(BlockError::StrayBits {
                    block,
                    index,
                    code: chunk[index],
                });
            }
        }
    }
    let mut memo = Memo::<O>::new();
    for ((block, &s), out) in codes
        .chunks_exact(block_bytes)
        .zip(scales)
        .zip(out.chunks_exact_mut(MX_BLOCK))
    {
        if s == 0xFF {
            out.fill(O::NAN);
            continue;
        }
        memo.set_scale(s);
        let scale = e8m0_to_f64(s);
        let mut value = |c: u8| memo.get(c, || reference(op, format.decode(u16::from(c)), scale));
        if element == Element::Fp4E2M1 {
            for (&b, o) in block.iter().zip(out.chunks_exact_mut(2)) {
                o[0] = value(b & 0xF);
                o[1] = value(b >> 4);
            }
        } else {
            for (&c, o) in block.iter().zip(out.iter_mut()) {
                *o = value(c);
            }
        }
    }
    Ok(())
}

/// The outputs for one scale, filled on first use of each code (a bitmap says which are
/// known, so a new scale clears 32 bytes, not the values).
struct Memo<O> {
    scale: Option<u8>,
    known: [u64; 4],
    values: [O; 256],
}

impl<O: FloatOutput> Memo<O> {
    fn new() -> Self {
        Memo {
            scale: None,
            known: [0; 4],
            values: [O::NAN; 256],
        }
    }

    fn set_scale(&mut self, s: u8) {
        if self.scale != Some(s) {
            self.scale = Some(s);
            self.known = [0; 4];
        }
    }

    #[inline]
    fn get(&mut self, code: u8, compute: impl FnOnce() -> O) -> O {
        let (word, bit) = (usize::from(code >> 6), 1u64 << (code & 63));
        if self.known[word] & bit == 0 {
            self.values[usize::from(code)] = compute();
            self.known[word] |= bit;
        }
        self.values[usize::from(code)]
    }
}
