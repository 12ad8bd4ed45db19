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
//! # Gradients
//!
//! None: the ops are for inference. [`apply`] returns a tensor without a
//! backward op (like `Tensor::apply_op1_no_bwd`).
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

use actlut::half::{bf16, f16};
use actlut::{BuiltinTables as _, Float8Tables as _};
use candle_core::backend::BackendStorage as _;
use candle_core::{
    CpuStorage, CudaStorage, CustomOp1, DType, Error, InplaceOp1, Layout, MetalStorage, Result,
    Shape, Tensor,
};
use float8::F8E4M3;

/// The dtypes with a table.
const TABLE_DTYPES: &str = "F16, BF16 and F8E4M3";

/// An actlut activation as a candle op: [`CustomOp1`] (out of place) and
/// [`InplaceOp1`] (in place), CPU only.
///
/// ```
/// use actlut_candle::{candle_core::{Device, Tensor, DType}, ActlutOp};
/// # fn main() -> actlut_candle::candle_core::Result<()> {
/// let x = Tensor::zeros(4, DType::F16, &Device::Cpu)?;
/// let y = x.apply_op1_no_bwd(&ActlutOp::new(actlut::Function::Sigmoid))?;
/// assert_eq!(y.to_dtype(DType::F32)?.to_vec1::<f32>()?, [0.5; 4]);
/// # Ok(()) }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActlutOp {
    activation: Function,
}

impl ActlutOp {
    /// The op that applies `activation`.
    pub const fn new(activation: Function) -> ActlutOp {
        ActlutOp { activation }
    }

    /// The activation it applies.
    pub const fn activation(self) -> Function {
        self.activation
    }

    /// The error for a dtype without a table.
    fn unsupported(self, dtype: DType) -> Error {
        Error::Msg(format!(
            "actlut_candle: no {} for dtype {dtype:?}: actlut has tables for {TABLE_DTYPES} \
             and computes F32 exactly; convert the tensor with `to_dtype`",
            self.activation.name()
        ))
    }

    /// The error for a device without a kernel.
    fn no_kernel(self, device: &str) -> String {
        format!(
            "actlut_candle: {} has no {device} kernel: actlut's tables run on the CPU; \
             move the tensor with `to_device(&Device::Cpu)`",
            self.activation.name()
        )
    }
}

/// A table that is not compiled in, as a candle error that names the cargo
/// features to enable.
fn missing(e: actlut::MissingTable) -> Error {
    Error::Msg(format!("actlut_candle: {e}"))
}

/// A failed slice map (a table not compiled in, or, never here, mismatched
/// lengths), as a candle error with actlut's message.
fn map_failed(e: actlut::MapError) -> Error {
    Error::Msg(format!("actlut_candle: {e}"))
}

impl CustomOp1 for ActlutOp {
    fn name(&self) -> &'static str {
        "actlut"
    }

    fn cpu_fwd(&self, storage: &CpuStorage, layout: &Layout) -> Result<(CpuStorage, Shape)> {
        let act = self.activation;
        let shape = layout.shape().clone();
        let out = match storage {
            CpuStorage::F16(src) => {
                let table = act.table_f16().map_err(missing)?;
                CpuStorage::F16(map_typed(
                    src,
                    layout,
                    |x: f16| f16::from_bits(table[usize::from(x.to_bits())]),
                    |xs, ys| act.map_f16(xs, ys),
                )?)
            }
            CpuStorage::BF16(src) => {
                let table = act.table_bf16().map_err(missing)?;
                CpuStorage::BF16(map_typed(
                    src,
                    layout,
                    |x: bf16| bf16::from_bits(table[usize::from(x.to_bits())]),
                    |xs, ys| act.map_bf16(xs, ys),
                )?)
            }
            CpuStorage::F8E4M3(src) => {
                let table = act.table_fp8_e4m3().map_err(missing)?;
                CpuStorage::F8E4M3(map_typed(
                    src,
                    layout,
                    |x: F8E4M3| F8E4M3::from_bits(table[usize::from(x.to_bits())]),
                    |xs, ys| act.map_fp8_e4m3(xs, ys),
                )?)
            }
            CpuStorage::F32(src) => CpuStorage::F32(map_typed(
                src,
                layout,
                |x: f32| actlut::computed::f32(act, x),
                |xs, ys| {
                    actlut::computed::map_f32(act, xs, ys);
                    Ok(())
                },
            )?),
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
}

/// Out of place over any layout: the slice kernel `contiguous` over a
/// contiguous tensor, `one` element by element otherwise.
fn map_typed<T: Copy + Default>(
    src: &[T],
    layout: &Layout,
    one: impl Fn(T) -> T,
    contiguous: impl FnOnce(&[T], &mut [T]) -> std::result::Result<(), actlut::MapError>,
) -> Result<Vec<T>> {
    Ok(match layout.contiguous_offsets() {
        Some((start, end)) => {
            let mut out = vec![T::default(); end - start];
            contiguous(&src[start..end], &mut out).map_err(map_failed)?;
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
    contiguous: impl FnOnce(&mut [T]) -> std::result::Result<(), actlut::MissingTable>,
) -> Result<()> {
    if let Some((start, end)) = layout.contiguous_offsets() {
        return contiguous(&mut buf[start..end]).map_err(missing);
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
        let act = self.activation;
        match storage {
            CpuStorage::F16(buf) => {
                let table = act.table_f16().map_err(missing)?;
                apply_typed(
                    buf,
                    layout,
                    |x: f16| f16::from_bits(table[usize::from(x.to_bits())]),
                    |xs| act.apply_f16(xs),
                )
            }
            CpuStorage::BF16(buf) => {
                let table = act.table_bf16().map_err(missing)?;
                apply_typed(
                    buf,
                    layout,
                    |x: bf16| bf16::from_bits(table[usize::from(x.to_bits())]),
                    |xs| act.apply_bf16(xs),
                )
            }
            CpuStorage::F8E4M3(buf) => {
                let table = act.table_fp8_e4m3().map_err(missing)?;
                apply_typed(
                    buf,
                    layout,
                    |x: F8E4M3| F8E4M3::from_bits(table[usize::from(x.to_bits())]),
                    |xs| act.apply_fp8_e4m3(xs),
                )
            }
            CpuStorage::F32(buf) => apply_typed(
                buf,
                layout,
                |x: f32| actlut::computed::f32(act, x),
                |xs| {
                    actlut::computed::apply_f32(act, xs);
                    Ok(())
                },
            ),
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

/// `activation` of every element of `x`, as a new contiguous tensor of the
/// same shape and dtype (see the crate docs for dtypes, layouts and errors).
pub fn apply(x: &Tensor, activation: Function) -> Result<Tensor> {
    x.apply_op1_no_bwd(&ActlutOp::new(activation))
}

/// `activation` of every element of `x`, written into `x`'s storage (every
/// tensor that shares it sees the change). candle refuses a tensor with
/// repeated elements (a broadcast).
pub fn apply_inplace(x: &Tensor, activation: Function) -> Result<()> {
    x.inplace_op1(&ActlutOp::new(activation))
}

/// actlut's activations as methods of [`Tensor`].
pub trait ActivationExt {
    /// [`apply`]`(self, activation)`.
    fn activation(&self, activation: Function) -> Result<Tensor>;
    /// [`apply_inplace`]`(self, activation)`.
    fn activation_inplace(&self, activation: Function) -> Result<()>;
    /// The exact GELU (erf form): what candle's `gelu_erf` approximates.
    fn exact_gelu(&self) -> Result<Tensor> {
        self.activation(Function::Gelu)
    }
}

impl ActivationExt for Tensor {
    fn activation(&self, activation: Function) -> Result<Tensor> {
        apply(self, activation)
    }

    fn activation_inplace(&self, activation: Function) -> Result<()> {
        apply_inplace(self, activation)
    }
}
