//! The Flex kernels: the forward pass over a `FlexTensor` of any layout, and the autodiff
//! op with its backward pass.

use actlut::half::slice::HalfFloatSliceExt as _;
use actlut::half::{bf16, f16};
use actlut::{Format, Op};
use burn::backend::autodiff::checkpoint::base::Checkpointer;
use burn::backend::autodiff::checkpoint::strategy::CheckpointStrategy;
use burn::backend::autodiff::grads::Gradients;
use burn::backend::autodiff::ops::{Backward, Ops, OpsKind};
use burn::backend::tensor::FloatTensor;
use burn::backend::{Autodiff, Flex};
use burn::tensor::{Bytes, DType};
use burn_flex::{FlexTensor, Layout};

use crate::derivative::F32Path;
use crate::table::{table, table_f32};
use crate::Error;

/// `Ok` where `dtype` has a path for `op` (a table that is compiled in or can be filled, or
/// `F32` with an op actlut evaluates), and, when `tracked`, for its derivative too.
pub(crate) fn check_dtype(dtype: DType, op: &Op, tracked: bool) -> Result<(), Error> {
    match dtype {
        DType::F16 => check_typed::<f16>(op, tracked),
        DType::BF16 => check_typed::<bf16>(op, tracked),
        DType::F32 => check_typed::<f32>(op, tracked),
        dtype => Err(Error::Dtype { op: *op, dtype }),
    }
}

fn check_typed<E: Elem>(op: &Op, tracked: bool) -> Result<(), Error> {
    E::path(op)?;
    if tracked {
        E::derivative_path(op)?;
    }
    Ok(())
}

/// An element type of the paths: its dtype, how an op is evaluated over it (a table, or the
/// computed path), and its slice maps.
trait Elem: bytemuck::Pod + burn::tensor::Element + Default {
    const DTYPE: DType;
    /// An op made ready for this type: a table, or the computed path.
    type Path: Copy;
    /// The derivative made ready: `f'(x)` correctly rounded to `f32` at every `x` of the type.
    type DerivativePath: Copy;
    /// The path of `op`, or why there is none.
    fn path(op: &Op) -> Result<Self::Path, Error>;
    /// The path of `op`'s derivative, or why there is none.
    fn derivative_path(op: &Op) -> Result<Self::DerivativePath, Error>;
    /// `f'(x)` correctly rounded to `f32`.
    fn derivative_at(p: Self::DerivativePath, x: Self) -> f32;
    /// `out = f(x)` over contiguous slices of the same length.
    fn map(p: Self::Path, x: &[Self], out: &mut [Self]);
    /// `x = f(x)` in place.
    fn apply(p: Self::Path, x: &mut [Self]);
    fn to_f32(self) -> f32;
    fn from_f32(v: f32) -> Self;
}

/// The table path of the two 16-bit types.
macro_rules! half_elem {
    ($t:ty, $dtype:expr, $format:expr) => {
        impl Elem for $t {
            const DTYPE: DType = $dtype;
            type Path = &'static [u16; 65536];
            type DerivativePath = &'static [f32; 65536];
            fn path(op: &Op) -> Result<Self::Path, Error> {
                table(op, $format)
            }
            fn derivative_path(op: &Op) -> Result<Self::DerivativePath, Error> {
                if op.is_derivative() {
                    return Err(Error::SecondDerivative { op: *op });
                }
                Ok(table_f32(&op.with_derivative(true), $format))
            }
            fn derivative_at(t: Self::DerivativePath, x: $t) -> f32 {
                t[usize::from(x.to_bits())]
            }
            fn map(t: Self::Path, x: &[$t], out: &mut [$t]) {
                actlut::kernels::map_u16(t, x.reinterpret_cast(), out.reinterpret_cast_mut());
            }
            fn apply(t: Self::Path, x: &mut [$t]) {
                actlut::kernels::apply_u16(t, x.reinterpret_cast_mut());
            }
            fn to_f32(self) -> f32 {
                <$t>::to_f32(self)
            }
            fn from_f32(v: f32) -> $t {
                <$t>::from_f32(v)
            }
        }
    };
}

half_elem!(f16, DType::F16, Format::F16);
half_elem!(bf16, DType::BF16, Format::Bf16);

impl Elem for f32 {
    const DTYPE: DType = DType::F32;
    type Path = F32Path;
    type DerivativePath = F32Path;
    fn path(op: &Op) -> Result<F32Path, Error> {
        Ok(F32Path::of(op))
    }
    fn derivative_path(op: &Op) -> Result<F32Path, Error> {
        F32Path::derivative_of(op)
    }
    fn derivative_at(p: F32Path, x: f32) -> f32 {
        p.at(x)
    }
    fn map(p: F32Path, x: &[f32], out: &mut [f32]) {
        for (y, &x) in out.iter_mut().zip(x) {
            *y = p.at(x);
        }
    }
    fn apply(p: F32Path, x: &mut [f32]) {
        for x in x {
            *x = p.at(*x);
        }
    }
    fn to_f32(self) -> f32 {
        self
    }
    fn from_f32(v: f32) -> f32 {
        v
    }
}

/// Whether `x`'s elements are its whole buffer, in order.
fn is_dense<E: Elem>(x: &FlexTensor) -> bool {
    let n = x.layout().num_elements();
    x.layout().contiguous_offsets() == Some((0, n)) && x.bytes().len() == n * size_of::<E>()
}

/// `f(x)` over a tensor of element type `E`: in place when `x` owns a dense buffer alone,
/// otherwise into a new contiguous buffer.
fn forward_typed<E: Elem>(mut x: FlexTensor, op: &Op) -> Result<FlexTensor, Error> {
    let path = E::path(op)?;
    if is_dense::<E>(&x) {
        if let Some(buf) = x.try_storage_mut::<E>() {
            E::apply(path, buf);
            return Ok(x);
        }
    }
    let shape = x.layout().shape().clone();
    let n = x.layout().num_elements();
    let mut out = vec![E::default(); n];
    match x.layout().contiguous_offsets() {
        Some((start, end)) => E::map(path, &x.storage::<E>()[start..end], &mut out),
        None => {
            let c = x.to_contiguous();
            let src = c.as_slice::<E>().expect("contiguous");
            E::map(path, src, &mut out);
        }
    }
    Ok(FlexTensor::new(
        Bytes::from_elems(out),
        Layout::contiguous(shape),
        E::DTYPE,
    ))
}

/// `op` of every element of `x` (Flex), or the error [`crate::apply_op`] reports.
pub(crate) fn forward(x: FlexTensor, op: &Op) -> Result<FlexTensor, Error> {
    match x.dtype() {
        DType::F16 => forward_typed::<f16>(x, op),
        DType::BF16 => forward_typed::<bf16>(x, op),
        DType::F32 => forward_typed::<f32>(x, op),
        dtype => Err(Error::Dtype { op: *op, dtype }),
    }
}

/// The elements of `x` in logical order, as a contiguous slice (copied only if `x` is a
/// view).
fn contiguous<E: Elem>(x: &FlexTensor) -> std::borrow::Cow<'_, [E]> {
    match x.as_slice::<E>() {
        Some(s) => std::borrow::Cow::Borrowed(s),
        None => std::borrow::Cow::Owned(x.to_contiguous().as_slice::<E>().unwrap().to_vec()),
    }
}

/// `grad · f'(x)`: `f'(x)` correctly rounded to `f32` (actlut's computed path of the
/// derivative, tabulated over the 65,536 inputs of a 16-bit type), the product formed in `f32`
/// and rounded once to `E`, as burn's own `mul` does.
fn backward_typed<E: Elem>(
    x: &FlexTensor,
    grad: &FlexTensor,
    op: &Op,
) -> Result<FlexTensor, Error> {
    let d = E::derivative_path(op)?;
    let xs = contiguous::<E>(x);
    let gs = contiguous::<E>(grad);
    assert_eq!(
        xs.len(),
        gs.len(),
        "actlut_burn: gradient and input shapes differ"
    );
    let out: Vec<E> = xs
        .iter()
        .zip(gs.iter())
        .map(|(&x, &g)| E::from_f32(g.to_f32() * E::derivative_at(d, x)))
        .collect();
    Ok(FlexTensor::new(
        Bytes::from_elems(out),
        Layout::contiguous(x.layout().shape().clone()),
        E::DTYPE,
    ))
}

/// The backward pass of an op: the gradient times `f'` at the forward input.
///
/// # Panics
///
/// Never for a tensor that the forward pass recorded: it made the derivative's path (or
/// reported why there is none) before recording.
pub(crate) fn backward(x: &FlexTensor, grad: &FlexTensor, op: &Op) -> FlexTensor {
    // The gradient has the output's dtype, which is the input's.
    let g = match x.dtype() {
        DType::F16 => backward_typed::<f16>(x, grad, op),
        DType::BF16 => backward_typed::<bf16>(x, grad, op),
        DType::F32 => backward_typed::<f32>(x, grad, op),
        dtype => unreachable!("the forward pass refused {dtype:?}"),
    };
    g.unwrap_or_else(|e| panic!("{e}"))
}

/// The autodiff op: its state is the forward input.
#[derive(Debug)]
struct ActlutBackward {
    op: Op,
}

impl Backward<Flex, 1> for ActlutBackward {
    type State = FlexTensor;

    fn backward(self, ops: Ops<Self::State, 1>, grads: &mut Gradients, _: &mut Checkpointer) {
        let [parent] = ops.parents;
        let grad = grads.consume::<Flex>(&ops.node);
        if let Some(parent) = parent {
            grads.register::<Flex>(parent.id, backward(&ops.state, &grad, &self.op));
        }
    }
}

/// `op` of every element of `x` (`Autodiff<Flex>`), recording the backward pass when `x` is
/// tracked (after making the derivative's path, so that the backward pass cannot fail).
pub(crate) fn forward_autodiff<C: CheckpointStrategy>(
    x: FloatTensor<Autodiff<Flex, C>>,
    op: &Op,
) -> Result<FloatTensor<Autodiff<Flex, C>>, Error> {
    let dtype = x.primitive().dtype();
    check_dtype(dtype, op, x.is_tracked())?;
    let backward = ActlutBackward { op: *op };
    match backward.prepare::<C>([x.node()]).compute_bound().stateful() {
        OpsKind::Tracked(prep) => {
            let input = x.primitive().clone();
            let output = forward(x.into_primitive(), op)?;
            Ok(prep.finish(input, output))
        }
        OpsKind::UnTracked(prep) => Ok(prep.finish(forward(x.into_primitive(), op)?)),
    }
}
