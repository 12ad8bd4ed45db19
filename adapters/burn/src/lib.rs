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
//! # Ops with constants
//!
//! [`apply_op`] takes an actlut [`Op`]: a function with its constants as exact decimals
//! (`"softcap(cap=30)".parse()`, `"leaky_relu(alpha=0.2)"`, `Op::with_constants`). A function
//! at its default constants uses actlut's built-in table; any other op's table (per op and
//! dtype, 128 KiB) is filled on its first use by [`actlut::fill_table`] (every entry the
//! exact value rounded once, milliseconds per table) and kept in a process-wide cache for the
//! life of the process, so later calls are one lookup. `F32` tensors evaluate the op
//! element by element ([`actlut::eval_op_f32`]). [`apply`] is `apply_op` of a
//! [`Function`] at its defaults.
//!
//! # Gradients
//!
//! Under `Autodiff`, the backward pass multiplies the incoming gradient by the exact
//! derivative at the forward input: `f'(x)` correctly rounded to `f32` (actlut's computed path
//! of `op.with_derivative(true)`, [`derivative`]; for `F16`/`BF16` tabulated once per op over
//! the 65,536 inputs, 256 KiB, cached like the tables above), then the product `grad · f'(x)`
//! formed in `f32` and rounded once into the tensor's dtype, as burn's own `mul` does. So a
//! 16-bit gradient is the exact product rounded once except where the `f32` values put it on
//! a midpoint of the dtype (a near-tie: the tests count them, a few per 65,536), and an `F32`
//! gradient is within an `f32` ulp of the exact product. Multiplying by the derivative rounded
//! to the 16-bit dtype instead (its table, what [`apply_op`] of the derivative op gives) would
//! round twice at 16-bit precision, an error of up to about one unit on a large share of the
//! gradients (BENCHMARKS.md, the training step, measures it). At a kink `f'` takes the limit from the left (actlut's
//! docs/SEMANTICS.md); `log` and `rsqrt` have NaN derivatives below zero, as their values are
//! NaN there.
//!
//! The derivative is actlut's for every op, constants included (`softcap(cap=30)`,
//! `elu(alpha=0.5)`): `f32` values from [`actlut::eval_op_f32`], a derivative op's 16-bit
//! table from [`actlut::fill_table`]. A derivative op (`op.with_derivative(true)`) applies
//! like any op, but not to a tracked tensor ([`Error::SecondDerivative`]).
//!
//! # Errors, never panics
//!
//! [`apply`], [`apply_op`] and the methods of [`ActivationExt`] return [`Error`]: a dtype
//! without a path ([`Error::Dtype`]), a backend without a kernel ([`Error::Device`]), a table
//! that is compiled out ([`Error::MissingTable`], naming the cargo features of actlut to
//! enable), a function whose constant must be given ([`Error::Op`]), a table
//! actlut cannot make ([`Error::Eval`]), a derivative op on a tracked tensor
//! ([`Error::SecondDerivative`]).
//! The backend extension [`ActlutBackend`] itself is the low-level form that burn's
//! dispatch calls: it panics where [`apply`] returns an error.
//!
//! # Versions and dependencies
//!
//! burn 0.22 (`>=0.22.1, <0.23`) with its `flex`, `autodiff` and `extension` features,
//! re-exported as [`burn`], and actlut's [`Function`] and [`Op`], re-exported: `actlut-burn`
//! is the one dependency a user needs. Rust 1.95 (burn 0.22's minimum; actlut's is 1.89).
//!
//! # Features
//!
//! - `all` (default): every function's `f16` and `bf16` table. Without it, enable the
//!   tables you use on actlut itself
//!   (`actlut = { version = "0.1", default-features = false, features = ["gelu", "bf16"] }`).

// `Error` carries the op it names (an `Op` is 208 bytes, no heap: its constants as exact
// rationals); the `Result`s that return it are per tensor, never per element.
#![allow(clippy::result_large_err)]

pub use burn;

/// The function to apply: actlut's [`Function`], re-exported so
/// that `actlut-burn` is the one dependency a user needs.
pub use actlut::Function;

/// A function with its constants (and whether it is the derivative): actlut's [`Op`], what
/// [`apply_op`] applies (`"softcap(cap=30)".parse()`, `Op::with_constants`).
pub use actlut::Op;

mod derivative;
mod flex;
mod table;

pub use derivative::derivative;

use burn::backend::autodiff::checkpoint::strategy::CheckpointStrategy;
use burn::backend::{backend_extension, tensor::FloatTensor, Autodiff, Dispatch, Flex};
use burn::tensor::{DType, Tensor};

/// The error of [`apply`] and [`apply_op`]: the op, the dtype, the device or the table, each
/// with what to do.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Error {
    /// The tensor's dtype has neither a table nor the exact computed path.
    Dtype {
        /// The op requested.
        op: Op,
        /// The tensor's dtype.
        dtype: DType,
    },
    /// The tensor is not on burn's Flex CPU backend (or `Autodiff` over it).
    Device {
        /// The op requested.
        op: Op,
        /// The tensor's device, as burn prints it.
        device: String,
    },
    /// The table is not compiled in: the message names the cargo features to enable.
    MissingTable(actlut::MissingTable),
    /// [`apply`] of a function with a constant without default (softcap's `cap`): the message
    /// names the constant; give it with [`apply_op`].
    Op(actlut::OpError),
    /// actlut cannot make the op's table over this dtype: an op whose constants put an
    /// input too close to a rounding boundary for its evaluation to settle
    /// ([`actlut::EvalError::Unsettled`]; known for no op).
    Eval {
        /// The op (the derivative, for the backward pass).
        op: Op,
        /// The tensor's dtype.
        dtype: DType,
        /// actlut's error.
        error: actlut::EvalError,
    },
    /// A derivative op on a tracked tensor: its backward pass would need the second
    /// derivative, which actlut does not have.
    SecondDerivative {
        /// The derivative op.
        op: Op,
    },
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Dtype { op, dtype } => write!(
                f,
                "actlut_burn: no {op} for dtype {dtype:?}: actlut has tables for F16 and BF16 \
                 and computes F32 exactly; convert the tensor with `cast`"
            ),
            Error::Device { op, device } => write!(
                f,
                "actlut_burn: {op} has no kernel on {device}: actlut's tables run on burn's Flex \
                 CPU backend; move the tensor with `to_device(&Device::flex())`"
            ),
            Error::MissingTable(e) => write!(f, "actlut_burn: {e}"),
            Error::Op(e) => write!(f, "actlut_burn: {e}; use `apply_op`"),
            Error::Eval { op, dtype, error } => {
                write!(f, "actlut_burn: no {op} for dtype {dtype:?}: {error}")
            }
            Error::SecondDerivative { op } => write!(
                f,
                "actlut_burn: {op} on a tracked tensor: its backward pass needs the second \
                 derivative, which actlut does not have; apply it to an untracked tensor \
                 (`x.clone().detach().set_require_grad(false)`)"
            ),
        }
    }
}

impl std::error::Error for Error {}

impl From<actlut::MissingTable> for Error {
    fn from(e: actlut::MissingTable) -> Error {
        Error::MissingTable(e)
    }
}

impl From<actlut::OpError> for Error {
    fn from(e: actlut::OpError) -> Error {
        Error::Op(e)
    }
}

/// actlut's ops as a burn backend extension (`#[backend_extension]`), implemented for
/// [`Flex`] and for [`Autodiff`] over it (with the backward pass of the crate docs).
///
/// The low-level form that burn's `Dispatch` routes: it panics on a dtype, a backend or a
/// table that [`apply_op`] reports as an [`Error`]; call [`apply_op`] instead.
#[backend_extension(Flex, Autodiff)]
pub trait ActlutBackend: burn::backend::Backend {
    /// `op` of every element of `x`, a tensor of the same shape and dtype.
    fn actlut_op(x: FloatTensor<Self>, op: Op) -> FloatTensor<Self>;
}

impl ActlutBackend for Flex {
    fn actlut_op(x: FloatTensor<Self>, op: Op) -> FloatTensor<Self> {
        flex::forward(x, &op).unwrap_or_else(|e| panic!("{e}"))
    }
}

impl<C: CheckpointStrategy> ActlutBackend for Autodiff<Flex, C> {
    fn actlut_op(x: FloatTensor<Self>, op: Op) -> FloatTensor<Self> {
        flex::forward_autodiff::<C>(x, &op).unwrap_or_else(|e| panic!("{e}"))
    }
}

/// What [`apply_op`] checks before dispatching: the backend, the dtype, the table (filled
/// here on first use), and for a tracked tensor the derivative's.
fn check<const D: usize>(x: &Tensor<D>, op: &Op) -> Result<(), Error> {
    let tracked = match x.clone().try_into_primitive::<Autodiff<Flex>>() {
        Ok(t) => Some(t.is_tracked()),
        Err(_) => x.clone().try_into_primitive::<Flex>().ok().map(|_| false),
    };
    let Some(tracked) = tracked else {
        return Err(Error::Device {
            op: *op,
            device: format!("{:?}", x.device()),
        });
    };
    flex::check_dtype(x.dtype(), op, tracked)
}

/// `activation` (at its default constants) of every element of `x`: [`apply_op`] of
/// `Op::new(activation)`.
///
/// # Errors
///
/// As [`apply_op`], and [`Error::Op`] for a function with a constant without default
/// (softcap, prelu, gelu_clipped, xielu).
pub fn apply<const D: usize>(x: Tensor<D>, activation: Function) -> Result<Tensor<D>, Error> {
    apply_op(x, &Op::new(activation)?)
}

/// `op` of every element of `x`, a tensor of the same shape and dtype (see the crate docs for
/// dtypes, layouts, gradients and errors).
///
/// ```
/// use actlut_burn::burn::tensor::{DType, Device, Tensor};
/// use actlut_burn::Op;
///
/// let x = Tensor::<1>::from_floats([-60.0, 0.0, 15.0], &Device::flex()).cast(DType::BF16);
/// let op: Op = "softcap(cap=30)".parse()?;
/// let y = actlut_burn::apply_op(x, &op)?; // the bf16 table of 30·tanh(x/30), filled once
/// assert_eq!(y.cast(DType::F32).into_data().try_to_vec::<f32>()?, [-28.875, 0.0, 13.875]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// [`Error::Device`], [`Error::Dtype`], [`Error::MissingTable`] (a function at its defaults
/// whose built-in table is compiled out), [`Error::Eval`] (a table actlut cannot make), and
/// on a tracked tensor the same for the derivative ([`Error::SecondDerivative`] for a
/// derivative op).
pub fn apply_op<const D: usize>(x: Tensor<D>, op: &Op) -> Result<Tensor<D>, Error> {
    check(&x, op)?;
    let y = <Dispatch as ActlutBackend>::actlut_op(x.into_dispatch(), *op);
    Ok(Tensor::from_dispatch(y))
}

/// actlut's activations as methods of burn's float [`Tensor`].
pub trait ActivationExt: Sized {
    /// [`apply`]`(self, activation)`.
    fn activation(self, activation: Function) -> Result<Self, Error>;
    /// [`apply_op`]`(self, op)`.
    fn activation_op(self, op: &Op) -> Result<Self, Error>;
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

    fn activation_op(self, op: &Op) -> Result<Self, Error> {
        apply_op(self, op)
    }
}
