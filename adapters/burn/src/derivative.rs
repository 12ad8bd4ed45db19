//! The derivative of an op for the backward pass: actlut's exact derivative, the op with
//! `with_derivative(true)` evaluated by [`actlut::eval_op_f32`] (correctly rounded to `f32`)
//! and, for the 16-bit tables, by [`actlut::fill_table`].

use actlut::Op;

/// The derivative of `op` at `x`, correctly rounded to `f32`: what the backward pass of
/// [`crate::apply_op`] multiplies an `F32` gradient by.
///
/// actlut's exact derivative, [`actlut::eval_op_f32`] of `op.with_derivative(true)`: for every
/// function and every value of its constants (`softcap(cap=30)`, `elu(alpha=0.5)`). At a kink
/// the value is the limit from the left, as actlut's docs/SEMANTICS.md states (relu′(0) = 0,
/// hardswish′(−3) = 0, hardsigmoid′(3) = 1/6); `log` and `rsqrt` have NaN derivatives below
/// zero. NaN in, NaN out.
///
/// # Errors
///
/// [`Error::SecondDerivative`](crate::Error::SecondDerivative) when `op` is itself a
/// derivative: actlut has no second derivatives.
///
/// ```
/// use actlut_burn::{derivative, Function, Op};
/// assert_eq!(derivative(&Op::from(Function::Sigmoid), 0.0)?, 0.25);
/// assert_eq!(derivative(&Op::from(Function::Gelu), 0.0)?, 0.5);
/// assert_eq!(derivative(&Op::from(Function::Exp), 1.0)?, core::f32::consts::E);
/// // softcap(x) = 30·tanh(x/30): softcap′(0) = 1.
/// assert_eq!(derivative(&"softcap(cap=30)".parse()?, 0.0)?, 1.0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn derivative(op: &Op, x: f32) -> Result<f32, crate::Error> {
    Ok(F32Path::derivative_of(op)?.at(x))
}

/// An op evaluated at an `f32` by actlut's computed path ([`actlut::eval_op_f32`]): a
/// function, or (for the backward pass) its derivative.
#[derive(Clone, Copy, Debug)]
pub(crate) struct F32Path {
    /// The op (the derivative, for the backward pass).
    op: Op,
}

impl F32Path {
    /// The path for `op`.
    pub(crate) fn of(op: &Op) -> F32Path {
        F32Path { op: *op }
    }

    /// The path for the derivative of `op`, or [`crate::Error::SecondDerivative`] when `op`
    /// is a derivative itself.
    pub(crate) fn derivative_of(op: &Op) -> Result<F32Path, crate::Error> {
        if op.is_derivative() {
            return Err(crate::Error::SecondDerivative { op: *op });
        }
        Ok(F32Path::of(&op.with_derivative(true)))
    }

    /// The value at `x`, correctly rounded to `f32`.
    pub(crate) fn at(self, x: f32) -> f32 {
        actlut::eval_op_f32(&self.op, x)
    }
}
