//! The spline 16-bit lookup (`actlut_codegen::spline`): the portable block over
//! [`SplineRef::get`], the decode [`SplineRef::from_bytes`] made safe (every read is
//! bounds-checked and in bounds). The cubic and the exception scan have no
//! SIMD form yet; the shape plugs into the one driver like the others.

use actlut_core::spline::SplineRef;

use super::driver::kernel_fn;
use super::scalar::Scalar;

kernel_fn!(#[inline] spline_scalar: SplineRef<'_> => Scalar);
