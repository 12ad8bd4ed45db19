//! The FP4 shared-scale lookup of [`crate::mx`] as a table shape of the one
//! driver ([`TableShape::Fp4`](super::TableShape::Fp4)).
//!
//! The table is one shared scale's row, [`Fp4Row`]: the 16 outputs of the 16
//! FP4 codes as byte planes. An index is one packed byte (two codes, the first
//! element in the low nibble) and an entry the pair of outputs it gives, so a
//! block of MXFP4 (16 bytes) or NVFP4 (8 bytes) is one run of the driver over
//! its scale's row. The SIMD blocks (`pshufb`, `tbl`, `i8x16.swizzle`, in the
//! per-architecture modules) unpack 8 bytes into 16 codes and shuffle each
//! output byte plane by them; [`Fp4Scalar`] reads the row's 16 outputs once
//! per run. [`map_blocks`] runs a kernel over whole blocks, each with its
//! scale's row.

use core::marker::PhantomData;

use super::driver::{run, Block};
use super::{LookupTable, TableShape};
use crate::element::FloatOutput;

/// One shared scale's row of an FP4 table: the output for each of the 16 FP4
/// codes, stored as byte planes (`planes[k][c]` is byte `k`, in memory order,
/// of the output for code `c`), one 64-byte cache line. A
/// [`LookupTable`] of the kernels: the index is a packed byte (two codes, the
/// first in the low nibble), the entry the two outputs.
///
/// ```
/// use actlut::kernels::{Fp4Row, Kernel};
///
/// let row = Fp4Row::<f32>::from_fn(|code| f32::from(code) * 0.5);
/// assert_eq!(row.get(3), 1.5);
/// let mut out = [[0.0f32; 2]; 2];
/// Kernel::Scalar.map(&row, &[0x21, 0xF0], &mut out)?;
/// assert_eq!(out, [[0.5, 1.0], [0.0, 7.5]]);
/// # Ok::<(), actlut::MapError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(64))]
pub struct Fp4Row<O> {
    pub(super) planes: [[u8; 16]; 4],
    _out: PhantomData<O>,
}

impl<O: FloatOutput> Fp4Row<O> {
    /// The row whose code `c` (0..16) gives `value(c)`.
    pub fn from_fn(value: impl Fn(u8) -> O) -> Self {
        let mut planes = [[0u8; 16]; 4];
        for c in 0..16u8 {
            for (plane, byte) in planes.iter_mut().zip(native_bytes(value(c))) {
                plane[usize::from(c)] = byte;
            }
        }
        Fp4Row {
            planes,
            _out: PhantomData,
        }
    }

    /// The output for `code` (its low 4 bits).
    #[inline(always)]
    pub fn get(&self, code: u8) -> O {
        let c = usize::from(code & 0xF);
        from_native_bytes([
            self.planes[0][c],
            self.planes[1][c],
            self.planes[2][c],
            self.planes[3][c],
        ])
    }
}

/// The value's bytes in memory order (the first `O::BYTES` are used): the
/// planes interleaved by the SIMD blocks are then the outputs on either
/// endianness.
fn native_bytes<O: FloatOutput>(value: O) -> [u8; 4] {
    let mut b = value.to_le();
    if cfg!(target_endian = "big") {
        b[..O::BYTES].reverse();
    }
    b
}

/// The inverse of [`native_bytes`].
#[inline(always)]
fn from_native_bytes<O: FloatOutput>(mut b: [u8; 4]) -> O {
    if cfg!(target_endian = "big") {
        b[..O::BYTES].reverse();
    }
    O::from_le(b)
}

impl<O: FloatOutput> LookupTable for Fp4Row<O> {
    type Index = u8;
    type Entry = [O; 2];
    const SHAPE: TableShape = TableShape::Fp4;
    #[inline(always)]
    fn entry(&self, byte: u8) -> [O; 2] {
        [self.get(byte & 0xF), self.get(byte >> 4)]
    }
}

/// The portable FP4 block: the row's 16 outputs assembled once per run, then
/// one load per output.
pub(super) struct Fp4Scalar;

impl<O: FloatOutput> Block<Fp4Row<O>> for Fp4Scalar {
    const LANES: usize = 8;
    type State = [O; 16];

    #[inline(always)]
    unsafe fn prepare(row: &Fp4Row<O>) -> [O; 16] {
        core::array::from_fn(|c| row.get(c as u8))
    }

    #[inline(always)]
    unsafe fn block(values: &[O; 16], _: &Fp4Row<O>, src: *const u8, dst: *mut [O; 2]) {
        for k in 0..8 {
            // SAFETY: the caller vouches for 8 readable bytes at `src` and 8
            // writable pairs at `dst` (index and entry types differ: never in
            // place).
            unsafe {
                let b = src.add(k).read();
                dst.add(k)
                    .write([values[usize::from(b & 0xF)], values[usize::from(b >> 4)]]);
            }
        }
    }
}

/// The chunk-and-tail driver with [`Fp4Scalar`].
///
/// # Safety
///
/// The driver's contract: `src` valid for reads of `len` bytes, `dst` for
/// writes of `len` pairs, not overlapping.
#[inline]
pub(super) unsafe fn fp4_scalar<O: FloatOutput>(
    row: &Fp4Row<O>,
    src: *const u8,
    dst: *mut [O; 2],
    len: usize,
) {
    // SAFETY: this function's contract is the driver's; the block needs no
    // target feature.
    unsafe { run::<Fp4Row<O>, Fp4Scalar>(row, src, dst, len) }
}

/// A kernel over whole blocks: each block of `block_bytes` packed bytes
/// through the row of its scale, with one [`Block`] run by the driver, the
/// loop over blocks compiled with the block's target features.
///
/// # Safety
///
/// The CPU has the kernel's target features; `packed` is `scales.len() *
/// block_bytes` bytes and `pairs` as many pairs.
pub(super) type BlocksKernel<O> = unsafe fn(&[Fp4Row<O>; 256], &[u8], &[u8], &mut [[O; 2]], usize);

/// The loop of every [`BlocksKernel`]: one run of the driver with `B` per
/// block, over its scale's row.
///
/// # Safety
///
/// As [`BlocksKernel`], for `B`'s target features.
#[inline(always)]
pub(super) unsafe fn run_blocks<O: FloatOutput, B: Block<Fp4Row<O>>>(
    rows: &[Fp4Row<O>; 256],
    packed: &[u8],
    scales: &[u8],
    pairs: &mut [[O; 2]],
    block_bytes: usize,
) {
    for ((block, &s), pairs) in packed
        .chunks_exact(block_bytes)
        .zip(scales)
        .zip(pairs.chunks_exact_mut(block_bytes))
    {
        // SAFETY: the caller guarantees B's target features; `block` is
        // `block_bytes` bytes and `pairs` `block_bytes` pairs, a shared and a
        // mutable borrow (no overlap).
        unsafe {
            run::<Fp4Row<O>, B>(
                &rows[usize::from(s)],
                block.as_ptr(),
                pairs.as_mut_ptr(),
                block_bytes,
            )
        };
    }
}

/// [`run_blocks`] with [`Fp4Scalar`].
///
/// # Safety
///
/// As [`BlocksKernel`].
pub(super) unsafe fn blocks_scalar<O: FloatOutput>(
    rows: &[Fp4Row<O>; 256],
    packed: &[u8],
    scales: &[u8],
    pairs: &mut [[O; 2]],
    block_bytes: usize,
) {
    // SAFETY: the contract is the caller's; the block needs no target feature.
    unsafe { run_blocks::<O, Fp4Scalar>(rows, packed, scales, pairs, block_bytes) }
}
