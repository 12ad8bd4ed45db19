//! actlut's exact activation functions as [candle](https://docs.rs/candle-core) ops.
//!
//! ```
//! use actlut_candle::candle_core::{DType, Device, Tensor};
//! use actlut_candle::{Function, ActivationExt as _};
//!
//! # fn main() -> actlut_candle::candle_core::Result<()> {
//! let x = Tensor::new(&[-1.0f32, 0.0, 1.0, 2.0], &Device::Cpu)?.to_dtype(DType::BF16)?;
//! let y = actlut_candle::apply(&x, Function::Gelu)?; // a new tensor
//! assert_eq!(y.to_dtype(DType::F32)?.to_vec1::<f32>()?, [-0.158203125, 0.0, 0.83984375, 1.953125]);
//! let z = x.exact_gelu()?; // the same, through the extension trait
//! # let _ = z;
//! x.activation_inplace(Function::Silu)?; // in place
//! # Ok(()) }
//! ```
//!
//! Every result is the entry of actlut's table: the exact function at the
//! input, rounded once to the tensor's format (ties to even), for every input,
//! NaN and infinities included (docs/SEMANTICS.md of actlut).
//!
//! # Dtypes
//!
//! | dtype | how |
//! |---|---|
//! | `F16`, `BF16` | actlut's 65,536-entry table: one load per element |
//! | `F8E4M3` | actlut's 256-entry `fp8_e4m3` table |
//! | `F32` | actlut's exact computed path ([`actlut::computed::map_f32`]): correctly rounded wherever its evaluation settles the rounding (every case measured against MPFR), one evaluation per element, no table |
//! | any other (`F64`, integers, `F6E2M3`, `F6E3M2`, `F4`, `F8E8M0`) | an error that names the dtypes that work |
//!
//! `F32` takes the computed path rather than an error: a model kept in `F32`
//! gets the same exact function as one in `F16`, at the cost of an evaluation
//! per element instead of a load, and without a 16 GiB table. `F64` has no
//! exact path in actlut (its computed path rounds to `f32`), so it is an error
//! rather than a silently less accurate result; candle stores `F6E2M3`, `F6E3M2`,
//! `F4` and `F8E8M0` as raw bytes without element semantics, so they are
//! errors too.
//!
//! # Layouts
//!
//! Any layout: contiguous (a slice kernel of actlut over the whole buffer),
//! transposed, narrowed, permuted or broadcast (element by element through
//! the same table). The result is a new contiguous tensor of the same shape.
//! [`apply_inplace`] writes into the tensor's own storage (candle's
//! `InplaceOp1`); candle refuses it for a tensor with repeated elements (a
//! broadcast), and it changes every tensor that shares the storage.
//!
//! # Devices
//!
//! The CPU only. On a CUDA or Metal tensor the op returns candle's error for
//! an op that has no kernel on that device (`Error::Cuda`, `Error::Metal`),
//! whose message names the device and says to move the tensor to the CPU.
//!
//! # Errors, never panics
//!
//! A function whose table is compiled out (this crate's default feature `all`
//! off and actlut's function feature not enabled) gives a candle
//! [`candle_core::Error`] whose message names the cargo features of
//! actlut to enable; so does a format (the `f16`, `bf16` and `fp8-e4m3`
//! features of actlut).
//!
//! # Ops with constants
//!
//! [`apply_op`] takes an actlut [`Op`]: a function with its constants as exact decimals
//! (`"softcap(cap=30)".parse()`, `"leaky_relu(alpha=0.2)"`, `Op::with_constants`). A function
//! at its default constants uses actlut's built-in table; any other op's table (per op and
//! dtype: 128 KiB over `F16`/`BF16`, 256 bytes over `F8E4M3`) is filled on its first use by
//! [`actlut::fill_table`] (every entry the exact value rounded once, milliseconds per 16-bit
//! table) and kept in a process-wide cache for the life of the process, so later calls are
//! one lookup. `F32` evaluates the op element by element ([`actlut::eval_op_f32`]). A table
//! actlut cannot make is a candle error that says why.
//!
//! # Gradients
//!
//! [`apply`] and [`apply_op`] record candle's backward op (`CustomOp1::bwd`): the gradient
//! of the input is `grad · f'(x)`, where `f'(x)` is the exact derivative
//! (`op.with_derivative(true)`) at the forward input correctly rounded to `f32` (actlut's
//! computed path, tabulated once per op over the inputs of an `F16`, `BF16` or `F8E4M3`
//! tensor and cached), and the product is formed in `f32` and rounded once into the tensor's
//! dtype. candle then adds it to its zero-initialised gradient store, which makes a −0 +0
//! and, for `BF16`, flushes a gradient below `f32`'s normal range to zero (the tests count
//! both). So a 16-bit gradient is the exact product rounded once except
//! where the `f32` values put it on a midpoint of the dtype (a near-tie: the tests count
//! them, a few per 65,536); multiplying by the derivative rounded to the 16-bit dtype (what
//! [`apply_op`] of the derivative op gives) would round twice at 16-bit precision. At a kink
//! `f'` takes the limit from the left (actlut's docs/SEMANTICS.md).
//!
//! The derivative is actlut's for every op, constants included (`softcap(cap=30)`,
//! `elu(alpha=0.5)`): `f32` values from [`actlut::eval_op_f32`], a derivative op's table from
//! [`actlut::fill_table`]. [`apply_inplace`] has no backward pass.
//!
//! # Versions
//!
//! candle-core 0.11 (`>=0.11.0, <0.12`), re-exported as [`candle_core`] so
//! that the types match, and actlut's [`Function`] is re-exported too:
//! `actlut-candle` is the one dependency a user needs. No actlut crate depends on candle; this crate is not
//! part of actlut's `no_std` builds.
//!
//! # Features
//!
//! - `all` (default): every function's `f16`, `bf16` and `fp8_e4m3` table.
//!   Without it, enable the tables you use on actlut itself
//!   (`actlut = { version = "0.1", default-features = false, features = ["gelu", "bf16"] }`).

pub use candle_core;

/// The function to apply: actlut's [`Function`],
/// re-exported so that `actlut-candle` is the one dependency a user needs.
pub use actlut::Function;

/// A function with its constants (and whether it is the derivative): actlut's [`Op`], what
/// [`apply_op`] applies (`"softcap(cap=30)".parse()`, `Op::with_constants`).
pub use actlut::Op;

mod table;

use actlut::half::slice::HalfFloatSliceExt as _;
use actlut::half::{bf16, f16};
use actlut::Format;
use candle_core::backend::BackendStorage as _;
use candle_core::{
    CpuStorage, CudaStorage, CustomOp1, DType, Error, InplaceOp1, Layout, MetalStorage, Result,
    Shape, Tensor,
};
use float8::F8E4M3;
use table::{table, table_f32, F32Path, TableError};

/// The dtypes with a table.
const TABLE_DTYPES: &str = "F16, BF16 and F8E4M3";

/// An actlut op as a candle op: [`CustomOp1`] (out of place, with the backward pass of the
/// crate docs) and [`InplaceOp1`] (in place), CPU only.
///
/// ```
/// use actlut_candle::{candle_core::{Device, Tensor, DType}, ActlutOp, Function};
/// # fn main() -> actlut_candle::candle_core::Result<()> {
/// let x = Tensor::zeros(4, DType::F16, &Device::Cpu)?;
/// let y = x.apply_op1_no_bwd(&ActlutOp::new(Function::Sigmoid.into()))?;
/// assert_eq!(y.to_dtype(DType::F32)?.to_vec1::<f32>()?, [0.5; 4]);
/// # Ok(()) }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActlutOp {
    op: Op,
}

impl ActlutOp {
    /// The candle op that applies `op`.
    pub const fn new(op: Op) -> ActlutOp {
        ActlutOp { op }
    }

    /// The op it applies.
    pub const fn op(self) -> Op {
        self.op
    }

    /// The error for a dtype without a table.
    fn unsupported(self, dtype: DType) -> Error {
        Error::Msg(format!(
            "actlut_candle: no {} for dtype {dtype:?}: actlut has tables for {TABLE_DTYPES} \
             and computes F32 exactly; convert the tensor with `to_dtype`",
            self.op
        ))
    }

    /// The error for a device without a kernel.
    fn no_kernel(self, device: &str) -> String {
        format!(
            "actlut_candle: {} has no {device} kernel: actlut's tables run on the CPU; \
             move the tensor with `to_device(&Device::Cpu)`",
            self.op
        )
    }

    /// The table of the op over `format`, or a candle error that says why there is none.
    fn table<E: table::Entry>(self, format: Format) -> Result<&'static [E]> {
        table(&self.op, format).map_err(|e| self.table_error(e, format.name()))
    }

    /// The `f32` path of the op.
    fn f32_path(self) -> F32Path {
        F32Path::of(&self.op)
    }

    /// A table that cannot be had, as a candle error: a compiled-out table names the cargo
    /// features to enable; an op actlut cannot evaluate says why.
    fn table_error(self, e: TableError, format: &str) -> Error {
        match e {
            TableError::Missing(e) => Error::Msg(format!("actlut_candle: {e}")),
            TableError::Eval(e) => {
                Error::Msg(format!("actlut_candle: no {}_{format} table: {e}", self.op))
            }
        }
    }
}

/// A 16-bit table as the kernels take it.
fn table16(t: &'static [u16]) -> &'static [u16; 65536] {
    t.try_into().expect("a 16-bit table has 65,536 entries")
}

impl CustomOp1 for ActlutOp {
    fn name(&self) -> &'static str {
        "actlut"
    }

    fn cpu_fwd(&self, storage: &CpuStorage, layout: &Layout) -> Result<(CpuStorage, Shape)> {
        let shape = layout.shape().clone();
        let out = match storage {
            CpuStorage::F16(src) => {
                let t = table16(self.table(Format::F16)?);
                CpuStorage::F16(map_typed(
                    src,
                    layout,
                    |x: f16| f16::from_bits(t[usize::from(x.to_bits())]),
                    |xs, ys| {
                        actlut::kernels::map_u16(
                            t,
                            xs.reinterpret_cast(),
                            ys.reinterpret_cast_mut(),
                        )
                    },
                )?)
            }
            CpuStorage::BF16(src) => {
                let t = table16(self.table(Format::Bf16)?);
                CpuStorage::BF16(map_typed(
                    src,
                    layout,
                    |x: bf16| bf16::from_bits(t[usize::from(x.to_bits())]),
                    |xs, ys| {
                        actlut::kernels::map_u16(
                            t,
                            xs.reinterpret_cast(),
                            ys.reinterpret_cast_mut(),
                        )
                    },
                )?)
            }
            CpuStorage::F8E4M3(src) => {
                let t: &[u8] = self.table(Format::Fp8E4M3)?;
                let one = |x: F8E4M3| F8E4M3::from_bits(t[usize::from(x.to_bits())]);
                CpuStorage::F8E4M3(map_typed(src, layout, one, |xs, ys| {
                    for (y, &x) in ys.iter_mut().zip(xs) {
                        *y = one(x);
                    }
                })?)
            }
            CpuStorage::F32(src) => {
                let p = self.f32_path();
                CpuStorage::F32(map_typed(
                    src,
                    layout,
                    |x| p.at(x),
                    |xs, ys| {
                        for (y, &x) in ys.iter_mut().zip(xs) {
                            *y = p.at(x);
                        }
                    },
                )?)
            }
            other => return Err(self.unsupported(other.dtype())),
        };
        Ok((out, shape))
    }

    fn cuda_fwd(&self, _: &CudaStorage, _: &Layout) -> Result<(CudaStorage, Shape)> {
        Err(Error::Cuda(self.no_kernel("CUDA").into()))
    }

    fn metal_fwd(&self, _: &MetalStorage, _: &Layout) -> Result<(MetalStorage, Shape)> {
        Err(Error::Metal(self.no_kernel("Metal").into()))
    }

    /// `grad_res · f'(arg)`: `f'(x)` correctly rounded to `f32` at the forward input (actlut's
    /// computed path of the derivative, tabulated over a 16- or 8-bit dtype's inputs), the
    /// product formed in `f32` and rounded once into the dtype.
    fn bwd(&self, arg: &Tensor, _res: &Tensor, grad_res: &Tensor) -> Result<Option<Tensor>> {
        if self.op.is_derivative() {
            return Err(Error::Msg(format!(
                "actlut_candle: no backward pass for {}: it needs the second derivative, \
                 which actlut does not have",
                self.op
            )));
        }
        let product = GradProduct {
            op: self.op.with_derivative(true),
        };
        Ok(Some(grad_res.apply_op2_no_bwd(arg, &product)?))
    }
}

/// The backward pass's product: `grad · f'(x)` for the derivative op `op`, `f'(x)` correctly
/// rounded to `f32` (a table over the dtype's inputs, or the `f32` path), the product formed
/// in `f32` and rounded once into the dtype, element by element.
struct GradProduct {
    op: Op,
}

impl GradProduct {
    /// `f'(x)` correctly rounded to `f32` at every value of `format`.
    fn table(&self, format: Format) -> &'static [f32] {
        table_f32(&self.op, format)
    }
}

/// `g · d(x)` over two tensors of one shape, any layouts, rounded once by `round`.
fn product<T: Copy>(
    g: &[T],
    gl: &Layout,
    x: &[T],
    xl: &Layout,
    d: impl Fn(T) -> f32,
    to_f32: impl Fn(T) -> f32,
    round: impl Fn(f32) -> T,
) -> Vec<T> {
    use candle_core::cpu_backend::unary_map;
    let gs = unary_map(g, gl, |v| v);
    let xs = unary_map(x, xl, |v| v);
    gs.into_iter()
        .zip(xs)
        .map(|(g, x)| round(to_f32(g) * d(x)))
        .collect()
}

impl candle_core::CustomOp2 for GradProduct {
    fn name(&self) -> &'static str {
        "actlut-backward"
    }

    fn cpu_fwd(
        &self,
        grad: &CpuStorage,
        gl: &Layout,
        arg: &CpuStorage,
        al: &Layout,
    ) -> Result<(CpuStorage, Shape)> {
        let out = match (grad, arg) {
            (CpuStorage::F16(g), CpuStorage::F16(x)) => {
                let t = self.table(Format::F16);
                CpuStorage::F16(product(
                    g,
                    gl,
                    x,
                    al,
                    |x: f16| t[usize::from(x.to_bits())],
                    f16::to_f32,
                    f16::from_f32,
                ))
            }
            (CpuStorage::BF16(g), CpuStorage::BF16(x)) => {
                let t = self.table(Format::Bf16);
                CpuStorage::BF16(product(
                    g,
                    gl,
                    x,
                    al,
                    |x: bf16| t[usize::from(x.to_bits())],
                    bf16::to_f32,
                    bf16::from_f32,
                ))
            }
            (CpuStorage::F8E4M3(g), CpuStorage::F8E4M3(x)) => {
                let t = self.table(Format::Fp8E4M3);
                CpuStorage::F8E4M3(product(
                    g,
                    gl,
                    x,
                    al,
                    |x: F8E4M3| t[usize::from(x.to_bits())],
                    |v: F8E4M3| v.to_f32(),
                    F8E4M3::from_f32,
                ))
            }
            (CpuStorage::F32(g), CpuStorage::F32(x)) => {
                let p = F32Path::of(&self.op);
                CpuStorage::F32(product(g, gl, x, al, |x| p.at(x), |g| g, |v| v))
            }
            (_, other) => return Err(ActlutOp::new(self.op).unsupported(other.dtype())),
        };
        Ok((out, al.shape().clone()))
    }
}

/// Out of place over any layout: the slice kernel `contiguous` over a
/// contiguous tensor, `one` element by element otherwise.
fn map_typed<T: Copy + Default>(
    src: &[T],
    layout: &Layout,
    one: impl Fn(T) -> T,
    contiguous: impl FnOnce(&[T], &mut [T]),
) -> Result<Vec<T>> {
    Ok(match layout.contiguous_offsets() {
        Some((start, end)) => {
            let mut out = vec![T::default(); end - start];
            contiguous(&src[start..end], &mut out);
            out
        }
        None => candle_core::cpu_backend::unary_map(src, layout, one),
    })
}

/// In place over any layout without repeated elements: the slice kernel over a
/// contiguous tensor, element by element in the order of the strides
/// otherwise.
fn apply_typed<T: Copy>(
    buf: &mut [T],
    layout: &Layout,
    one: impl Fn(T) -> T,
    contiguous: impl FnOnce(&mut [T]),
) -> Result<()> {
    if let Some((start, end)) = layout.contiguous_offsets() {
        contiguous(&mut buf[start..end]);
        return Ok(());
    }
    for_each_offset(layout, |i| buf[i] = one(buf[i]));
    Ok(())
}

/// Calls `f` with the storage offset of every element of `layout`.
fn for_each_offset(layout: &Layout, mut f: impl FnMut(usize)) {
    let dims = layout.dims();
    let stride = layout.stride();
    if dims.contains(&0) {
        return;
    }
    let Some((&inner_len, outer)) = dims.split_last() else {
        f(layout.start_offset());
        return;
    };
    let inner_stride = stride[dims.len() - 1];
    let mut index = vec![0usize; outer.len()];
    let mut base = layout.start_offset();
    loop {
        for k in 0..inner_len {
            f(base + k * inner_stride);
        }
        // The next outer index, last dimension fastest.
        let mut d = outer.len();
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            index[d] += 1;
            base += stride[d];
            if index[d] < outer[d] {
                break;
            }
            base -= stride[d] * outer[d];
            index[d] = 0;
        }
    }
}

impl InplaceOp1 for ActlutOp {
    fn name(&self) -> &'static str {
        "actlut"
    }

    fn cpu_fwd(&self, storage: &mut CpuStorage, layout: &Layout) -> Result<()> {
        match storage {
            CpuStorage::F16(buf) => {
                let t = table16(self.table(Format::F16)?);
                apply_typed(
                    buf,
                    layout,
                    |x: f16| f16::from_bits(t[usize::from(x.to_bits())]),
                    |xs| actlut::kernels::apply_u16(t, xs.reinterpret_cast_mut()),
                )
            }
            CpuStorage::BF16(buf) => {
                let t = table16(self.table(Format::Bf16)?);
                apply_typed(
                    buf,
                    layout,
                    |x: bf16| bf16::from_bits(t[usize::from(x.to_bits())]),
                    |xs| actlut::kernels::apply_u16(t, xs.reinterpret_cast_mut()),
                )
            }
            CpuStorage::F8E4M3(buf) => {
                let t: &[u8] = self.table(Format::Fp8E4M3)?;
                let one = |x: F8E4M3| F8E4M3::from_bits(t[usize::from(x.to_bits())]);
                apply_typed(buf, layout, one, |xs| {
                    for x in xs {
                        *x = one(*x);
                    }
                })
            }
            CpuStorage::F32(buf) => {
                let p = self.f32_path();
                apply_typed(
                    buf,
                    layout,
                    |x| p.at(x),
                    |xs| {
                        for x in xs {
                            *x = p.at(*x);
                        }
                    },
                )
            }
            other => Err(self.unsupported(other.dtype())),
        }
    }

    fn cuda_fwd(&self, _: &mut CudaStorage, _: &Layout) -> Result<()> {
        Err(Error::Cuda(self.no_kernel("CUDA").into()))
    }

    fn metal_fwd(&self, _: &mut MetalStorage, _: &Layout) -> Result<()> {
        Err(Error::Metal(self.no_kernel("Metal").into()))
    }
}

/// `Op::new(activation)` as a candle error naming the constant to give.
fn op_of(activation: Function) -> Result<Op> {
    Op::new(activation).map_err(|e| Error::Msg(format!("actlut_candle: {e}; use `apply_op`")))
}

/// `activation` (at its default constants) of every element of `x`: [`apply_op`] of
/// `Op::new(activation)`; an error for a function with a constant without default (softcap,
/// prelu, gelu_clipped, xielu), naming the constant.
pub fn apply(x: &Tensor, activation: Function) -> Result<Tensor> {
    apply_op(x, &op_of(activation)?)
}

/// `op` of every element of `x`, as a new contiguous tensor of the same shape and dtype, with
/// the backward pass of the crate docs (see them for dtypes, layouts and errors).
///
/// ```
/// use actlut_candle::candle_core::{DType, Device, Tensor};
/// use actlut_candle::Op;
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let x = Tensor::new(&[-60.0f32, 0.0, 15.0], &Device::Cpu)?.to_dtype(DType::BF16)?;
/// let op: Op = "softcap(cap=30)".parse()?;
/// let y = actlut_candle::apply_op(&x, &op)?; // the bf16 table of 30·tanh(x/30), filled once
/// assert_eq!(y.to_dtype(DType::F32)?.to_vec1::<f32>()?, [-28.875, 0.0, 13.875]);
/// # Ok(()) }
/// ```
pub fn apply_op(x: &Tensor, op: &Op) -> Result<Tensor> {
    x.apply_op1(ActlutOp::new(*op))
}

/// `activation` of every element of `x`, written into `x`'s storage (every
/// tensor that shares it sees the change). candle refuses a tensor with
/// repeated elements (a broadcast).
pub fn apply_inplace(x: &Tensor, activation: Function) -> Result<()> {
    apply_op_inplace(x, &op_of(activation)?)
}

/// [`apply_inplace`] of an [`Op`]. In place ops have no backward pass (candle's
/// `InplaceOp1`).
pub fn apply_op_inplace(x: &Tensor, op: &Op) -> Result<()> {
    x.inplace_op1(&ActlutOp::new(*op))
}

/// actlut's activations as methods of [`Tensor`].
pub trait ActivationExt {
    /// [`apply`]`(self, activation)`.
    fn activation(&self, activation: Function) -> Result<Tensor>;
    /// [`apply_op`]`(self, op)`.
    fn activation_op(&self, op: &Op) -> Result<Tensor>;
    /// [`apply_inplace`]`(self, activation)`.
    fn activation_inplace(&self, activation: Function) -> Result<()>;
    /// [`apply_op_inplace`]`(self, op)`.
    fn activation_op_inplace(&self, op: &Op) -> Result<()>;
    /// The exact GELU (erf form): what candle's `gelu_erf` approximates.
    fn exact_gelu(&self) -> Result<Tensor> {
        self.activation(Function::Gelu)
    }
}

impl ActivationExt for Tensor {
    fn activation(&self, activation: Function) -> Result<Tensor> {
        apply(self, activation)
    }

    fn activation_op(&self, op: &Op) -> Result<Tensor> {
        apply_op(self, op)
    }

    fn activation_inplace(&self, activation: Function) -> Result<()> {
        apply_inplace(self, activation)
    }

    fn activation_op_inplace(&self, op: &Op) -> Result<()> {
        apply_op_inplace(self, op)
    }
}

/// The README's example, compiled and run as a doctest (a program with its own `main`).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
