//! actlut's exact activation functions in [burn](https://burn.dev): every result is the
//! correctly rounded value of the function at the input, on tensors of burn's Flex CPU
//! backend of dtype `F16` and `BF16` (one table load per element) and `F32` (actlut's exact
//! computed path), of any layout, with a backward pass under `Autodiff`.
//!
//! ```
//! use actlut_burn::burn::tensor::{DType, Device, Tensor};
//! use actlut_burn::{Function, ActivationExt as _};
//!
//! let device = Device::flex();
//! let x = Tensor::<1>::from_floats([-1.0, 0.0, 1.0, 2.0], &device).cast(DType::BF16);
//! let y = actlut_burn::apply(x.clone(), Function::Gelu)?; // a Result: dtype, device, table
//! let z = x.exact_gelu()?; // the same, as a method
//! let want = [-0.158203125f32, 0.0, 0.83984375, 1.953125];
//! assert_eq!(y.cast(DType::F32).into_data().try_to_vec::<f32>()?, want);
//! assert_eq!(z.cast(DType::F32).into_data().try_to_vec::<f32>()?, want);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Dtypes
//!
//! | dtype | how |
//! |---|---|
//! | `F16`, `BF16` | actlut's 65,536-entry table: one load per element (actlut's slice kernels) |
//! | `F32` | actlut's exact computed path ([`actlut::computed::map_f32`]): correctly rounded wherever its evaluation settles the rounding (every case measured against MPFR), one evaluation per element |
//! | any other (`F64`, `Flex32`, integers, quantized) | [`Error::Dtype`], naming the dtype |
//!
//! `F64` is an error rather than a computation in `f32`, which would be silently less
//! accurate than the dtype promises.
//!
//! # Backend
//!
//! burn's **Flex** CPU backend (`Device::flex()`), and `Autodiff` over it
//! (`Device::flex().autodiff()`). Flex holds `F16` and `BF16` tensors; burn-ndarray, the
//! other CPU backend of burn 0.22 (deprecated there), has no 16-bit float tensors, so a
//! 16-bit model on it would never reach the tables. A tensor of any other backend (cubecl:
//! CUDA, ROCm, wgpu, Metal, Vulkan, the cubecl CPU runtime; LibTorch; NdArray) is
//! [`Error::Device`]: actlut's tables are CPU memory, and a cubecl kernel taking a
//! 128 KiB table as an input buffer would have to be written, compiled and tested per
//! runtime (WGSL has no 16-bit storage type, so the table would travel as `u32` words);
//! none is here. Move the tensor with `to_device(&Device::flex())`.
//!
//! # Layouts
//!
//! Any layout: a contiguous tensor goes through actlut's slice kernel (in place when the
//! tensor owns its buffer alone); a transposed, sliced, permuted or flipped view is made
//! contiguous first. The result has the input's shape and dtype.
//!
//! # Gradients
//!
//! Under `Autodiff`, the backward pass multiplies the incoming gradient by the function's
//! derivative `f'(x)` at the forward input ([`derivative`]): `f'` is evaluated by its closed
//! form in `f64` and rounded to `f32`; the product `grad · f'(x)` is formed in `f32` and
//! rounded once to the tensor's dtype. So the gradient of an `F32` tensor is within about
//! one `f32` ulp of the exact `grad · f'(x)` (the tests bound `f'` against a finite
//! difference of the function in `f64`), and that of an `F16`/`BF16` tensor is the exact
//! product correctly rounded in all but rare double-rounding cases. At the kinks of
//! `hardsigmoid`, `hardswish`, `elu` and `selu` the derivative is PyTorch's one-sided choice
//! ([`derivative`] documents each); `log` and `rsqrt` have NaN derivatives below zero, as
//! their values are NaN there.
//!
//! # Errors, never panics
//!
//! [`apply`] and the methods of [`ActivationExt`] return [`Error`]: a dtype without a path
//! ([`Error::Dtype`]), a backend without a kernel ([`Error::Device`]), a table that is
//! compiled out ([`Error::MissingTable`], naming the cargo features of actlut to enable).
//! The backend extension [`ActlutBackend`] itself is the low-level form that burn's
//! dispatch calls: it panics where [`apply`] returns an error.
//!
//! # Versions and dependencies
//!
//! burn 0.22 (`>=0.22.1, <0.23`) with its `flex`, `autodiff` and `extension` features,
//! re-exported as [`burn`], and actlut's [`Function`], re-exported: `actlut-burn` is the
//! one dependency a user needs. Rust 1.95 (burn 0.22's minimum; actlut's is 1.89).
//!
//! # Features
//!
//! - `all` (default): every function's `f16` and `bf16` table. Without it, enable the
//!   tables you use on actlut itself
//!   (`actlut = { version = "0.1", default-features = false, features = ["gelu", "bf16"] }`).

pub use burn;

/// The function to apply: actlut's [`Function`], re-exported so
/// that `actlut-burn` is the one dependency a user needs.
pub use actlut::Function;

mod derivative;
mod flex;

pub use derivative::derivative;

use burn::backend::autodiff::checkpoint::strategy::CheckpointStrategy;
use burn::backend::{backend_extension, tensor::FloatTensor, Autodiff, Dispatch, Flex};
use burn::tensor::{DType, Tensor};

/// The error of [`apply`]: the dtype, the device or the table, each with what to do.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Error {
    /// The tensor's dtype has neither a table nor the exact computed path.
    Dtype {
        /// The function requested.
        activation: Function,
        /// The tensor's dtype.
        dtype: DType,
    },
    /// The tensor is not on burn's Flex CPU backend (or `Autodiff` over it).
    Device {
        /// The function requested.
        activation: Function,
        /// The tensor's device, as burn prints it.
        device: String,
    },
    /// The table is not compiled in: the message names the cargo features to enable.
    MissingTable(actlut::MissingTable),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Dtype { activation, dtype } => write!(
                f,
                "actlut_burn: no {} for dtype {dtype:?}: actlut has tables for F16 and BF16 \
                 and computes F32 exactly; convert the tensor with `cast`",
                activation.name()
            ),
            Error::Device { activation, device } => write!(
                f,
                "actlut_burn: {} has no kernel on {device}: actlut's tables run on burn's Flex \
                 CPU backend; move the tensor with `to_device(&Device::flex())`",
                activation.name()
            ),
            Error::MissingTable(e) => write!(f, "actlut_burn: {e}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<actlut::MissingTable> for Error {
    fn from(e: actlut::MissingTable) -> Error {
        Error::MissingTable(e)
    }
}

/// actlut's activations as a burn backend extension (`#[backend_extension]`), implemented
/// for [`Flex`] and for [`Autodiff`] over it (with the backward pass of the crate docs).
///
/// The low-level form that burn's `Dispatch` routes: it panics on a dtype, a backend or a
/// table that [`apply`] reports as an [`Error`]; call [`apply`] instead.
#[backend_extension(Flex, Autodiff)]
pub trait ActlutBackend: burn::backend::Backend {
    /// `activation` of every element of `x`, a tensor of the same shape and dtype.
    fn actlut_activation(x: FloatTensor<Self>, activation: Function) -> FloatTensor<Self>;
}

impl ActlutBackend for Flex {
    fn actlut_activation(x: FloatTensor<Self>, activation: Function) -> FloatTensor<Self> {
        flex::forward(x, activation).unwrap_or_else(|e| panic!("{e}"))
    }
}

impl<C: CheckpointStrategy> ActlutBackend for Autodiff<Flex, C> {
    fn actlut_activation(x: FloatTensor<Self>, activation: Function) -> FloatTensor<Self> {
        flex::forward_autodiff::<C>(x, activation).unwrap_or_else(|e| panic!("{e}"))
    }
}

/// What [`apply`] checks before dispatching: the backend, the dtype, the table.
fn check<const D: usize>(x: &Tensor<D>, activation: Function) -> Result<(), Error> {
    let on_flex = x.clone().try_into_primitive::<Flex>().is_ok()
        || x.clone().try_into_primitive::<Autodiff<Flex>>().is_ok();
    if !on_flex {
        return Err(Error::Device {
            activation,
            device: format!("{:?}", x.device()),
        });
    }
    flex::check_dtype(x.dtype(), activation)
}

/// `activation` of every element of `x`, a tensor of the same shape and dtype (see the
/// crate docs for dtypes, layouts, gradients and errors).
pub fn apply<const D: usize>(x: Tensor<D>, activation: Function) -> Result<Tensor<D>, Error> {
    check(&x, activation)?;
    let y = <Dispatch as ActlutBackend>::actlut_activation(x.into_dispatch(), activation);
    Ok(Tensor::from_dispatch(y))
}

/// actlut's activations as methods of burn's float [`Tensor`].
pub trait ActivationExt: Sized {
    /// [`apply`]`(self, activation)`.
    fn activation(self, activation: Function) -> Result<Self, Error>;
    /// The exact GELU (erf form): what burn's `activation::gelu` computes in five tensor
    /// ops, each rounded to the tensor's dtype.
    fn exact_gelu(self) -> Result<Self, Error> {
        self.activation(Function::Gelu)
    }
    /// The tanh-form GELU, exactly (burn's `activation::gelu_approximate`).
    fn exact_gelu_tanh(self) -> Result<Self, Error> {
        self.activation(Function::GeluTanh)
    }
    /// The exact sigmoid.
    fn exact_sigmoid(self) -> Result<Self, Error> {
        self.activation(Function::Sigmoid)
    }
    /// The exact SiLU (`x·sigmoid(x)`).
    fn exact_silu(self) -> Result<Self, Error> {
        self.activation(Function::Silu)
    }
    /// The exact tanh.
    fn exact_tanh(self) -> Result<Self, Error> {
        self.activation(Function::Tanh)
    }
}

impl<const D: usize> ActivationExt for Tensor<D> {
    fn activation(self, activation: Function) -> Result<Self, Error> {
        apply(self, activation)
    }
}
