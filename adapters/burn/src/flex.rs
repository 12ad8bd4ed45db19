//! The Flex kernels: the forward pass over a `FlexTensor` of any layout, and the autodiff
//! op with its backward pass.

use actlut::half::{bf16, f16};
use actlut::BuiltinTables as _;
use actlut::Function;
use burn::backend::autodiff::checkpoint::base::Checkpointer;
use burn::backend::autodiff::checkpoint::strategy::CheckpointStrategy;
use burn::backend::autodiff::grads::Gradients;
use burn::backend::autodiff::ops::{Backward, Ops, OpsKind};
use burn::backend::tensor::FloatTensor;
use burn::backend::{Autodiff, Flex};
use burn::tensor::{Bytes, DType};
use burn_flex::{FlexTensor, Layout};

use crate::Error;

/// `Ok` where `dtype` has a path for `activation` (a compiled-in table, or `F32`).
pub(crate) fn check_dtype(dtype: DType, activation: Function) -> Result<(), Error> {
    match dtype {
        DType::F16 => activation.table_f16().map(|_| ()).map_err(Error::from),
        DType::BF16 => activation.table_bf16().map(|_| ()).map_err(Error::from),
        DType::F32 => Ok(()),
        dtype => Err(Error::Dtype { activation, dtype }),
    }
}

/// An element type of the paths: its dtype and its slice maps.
trait Elem: bytemuck::Pod + burn::tensor::Element + Default {
    const DTYPE: DType;
    /// `out = f(x)` over contiguous slices.
    fn map(act: Function, x: &[Self], out: &mut [Self]) -> Result<(), Error>;
    /// `x = f(x)` in place.
    fn apply(act: Function, x: &mut [Self]) -> Result<(), Error>;
    fn to_f32(self) -> f32;
    fn from_f32(v: f32) -> Self;
}

fn map_err(e: actlut::MapError) -> Error {
    match e {
        actlut::MapError::MissingTable(t) => Error::MissingTable(t),
        // The output is allocated with the input's length.
        other => unreachable!("{other}"),
    }
}

impl Elem for f16 {
    const DTYPE: DType = DType::F16;
    fn map(act: Function, x: &[f16], out: &mut [f16]) -> Result<(), Error> {
        act.map_f16(x, out).map_err(map_err)
    }
    fn apply(act: Function, x: &mut [f16]) -> Result<(), Error> {
        act.apply_f16(x).map_err(Error::from)
    }
    fn to_f32(self) -> f32 {
        self.to_f32()
    }
    fn from_f32(v: f32) -> f16 {
        f16::from_f32(v)
    }
}

impl Elem for bf16 {
    const DTYPE: DType = DType::BF16;
    fn map(act: Function, x: &[bf16], out: &mut [bf16]) -> Result<(), Error> {
        act.map_bf16(x, out).map_err(map_err)
    }
    fn apply(act: Function, x: &mut [bf16]) -> Result<(), Error> {
        act.apply_bf16(x).map_err(Error::from)
    }
    fn to_f32(self) -> f32 {
        self.to_f32()
    }
    fn from_f32(v: f32) -> bf16 {
        bf16::from_f32(v)
    }
}

impl Elem for f32 {
    const DTYPE: DType = DType::F32;
    fn map(act: Function, x: &[f32], out: &mut [f32]) -> Result<(), Error> {
        actlut::computed::map_f32(act, x, out);
        Ok(())
    }
    fn apply(act: Function, x: &mut [f32]) -> Result<(), Error> {
        actlut::computed::apply_f32(act, x);
        Ok(())
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
fn forward_typed<E: Elem>(mut x: FlexTensor, act: Function) -> Result<FlexTensor, Error> {
    if is_dense::<E>(&x) {
        if let Some(buf) = x.try_storage_mut::<E>() {
            E::apply(act, buf)?;
            return Ok(x);
        }
    }
    let shape = x.layout().shape().clone();
    let n = x.layout().num_elements();
    let mut out = vec![E::default(); n];
    match x.layout().contiguous_offsets() {
        Some((start, end)) => E::map(act, &x.storage::<E>()[start..end], &mut out)?,
        None => {
            let c = x.to_contiguous();
            let src = c.as_slice::<E>().expect("contiguous");
            E::map(act, src, &mut out)?;
        }
    }
    Ok(FlexTensor::new(
        Bytes::from_elems(out),
        Layout::contiguous(shape),
        E::DTYPE,
    ))
}

/// `activation` of every element of `x` (Flex), or the error [`crate::apply`] reports.
pub(crate) fn forward(x: FlexTensor, act: Function) -> Result<FlexTensor, Error> {
    match x.dtype() {
        DType::F16 => forward_typed::<f16>(x, act),
        DType::BF16 => forward_typed::<bf16>(x, act),
        DType::F32 => forward_typed::<f32>(x, act),
        dtype => Err(Error::Dtype {
            activation: act,
            dtype,
        }),
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

/// `grad · f'(x)`, formed in `f32` and rounded once to `E`.
fn backward_typed<E: Elem>(x: &FlexTensor, grad: &FlexTensor, act: Function) -> FlexTensor {
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
        .map(|(&x, &g)| E::from_f32(g.to_f32() * crate::derivative(act, x.to_f32())))
        .collect();
    FlexTensor::new(
        Bytes::from_elems(out),
        Layout::contiguous(x.layout().shape().clone()),
        E::DTYPE,
    )
}

/// The backward pass of an activation: the gradient times `f'` at the forward input.
pub(crate) fn backward(x: &FlexTensor, grad: &FlexTensor, act: Function) -> FlexTensor {
    // The gradient has the output's dtype, which is the input's.
    match x.dtype() {
        DType::F16 => backward_typed::<f16>(x, grad, act),
        DType::BF16 => backward_typed::<bf16>(x, grad, act),
        DType::F32 => backward_typed::<f32>(x, grad, act),
        dtype => unreachable!("the forward pass refused {dtype:?}"),
    }
}

/// The autodiff op: its state is the forward input.
#[derive(Debug)]
struct ActlutBackward {
    activation: Function,
}

impl Backward<Flex, 1> for ActlutBackward {
    type State = FlexTensor;

    fn backward(self, ops: Ops<Self::State, 1>, grads: &mut Gradients, _: &mut Checkpointer) {
        let [parent] = ops.parents;
        let grad = grads.consume::<Flex>(&ops.node);
        if let Some(parent) = parent {
            grads.register::<Flex>(parent.id, backward(&ops.state, &grad, self.activation));
        }
    }
}

/// `activation` of every element of `x` (`Autodiff<Flex>`), recording the backward pass
/// when `x` is tracked.
pub(crate) fn forward_autodiff<C: CheckpointStrategy>(
    x: FloatTensor<Autodiff<Flex, C>>,
    act: Function,
) -> Result<FloatTensor<Autodiff<Flex, C>>, Error> {
    check_dtype(x.primitive().dtype(), act)?;
    let op = ActlutBackward { activation: act };
    match op.prepare::<C>([x.node()]).compute_bound().stateful() {
        OpsKind::Tracked(prep) => {
            let input = x.primitive().clone();
            let output = forward(x.into_primitive(), act)?;
            Ok(prep.finish(input, output))
        }
        OpsKind::UnTracked(prep) => Ok(prep.finish(forward(x.into_primitive(), act)?)),
    }
}
