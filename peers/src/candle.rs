//! candle-core's CPU ops, on a tensor built from the slice and copied back.
//!
//! Each call does what a user of candle pays for one activation over a buffer
//! of their own: `Tensor::from_slice` (an allocation and a copy in), the op (an
//! allocation for the result), `to_vec1` (an allocation and a copy out) and a
//! copy into `ys`. candle evaluates `f16`/`bf16` ops element by element in the
//! format's own arithmetic (`half`'s operators, each rounding to the format):
//!
//! - [`gelu_f16`]: `Tensor::gelu_erf`, i.e. `f16::from_f64` of
//!   `(erf(x/√2) + 1)·0.5·x` evaluated in `f64` with candle's own `erf`;
//! - [`gelu_tanh_f16`]: `Tensor::gelu`, candle's default GELU: the tanh
//!   approximation `0.5·x·(1 + tanh(√(2/π)·x·(1 + 0.044715·x²)))`, every
//!   operation rounded to `f16`, `tanh` through `f32` (`std`, i.e. the platform's
//!   libm);
//! - [`silu_f16`]: `Tensor::silu`, `x/(1 + exp(−x))` in `f16` arithmetic, `exp`
//!   through `f32`;
//! - [`sigmoid_f16`]: candle-core has no sigmoid (candle-nn has it, as a custom
//!   op). This is that op re-stated on candle-core's `CustomOp1`: candle-nn's
//!   CPU forward, `(x.neg().exp() + 1).recip()` through `num_traits::Float`, over
//!   `candle_core::cpu_backend::unary_map`.
//!
//! candle splits elementwise ops over its thread pool (`CANDLE_NUM_THREADS`,
//! by default every core) for tensors of 64 Ki elements or more; the other
//! peers run on one thread. The custom sigmoid runs on one thread.
//!
//! # Accuracy
//!
//! Not correctly rounded (`docs/accuracy.md`). The ops that go through `f32`
//! `exp`/`tanh` use the platform's libm, whose results may differ between
//! machines and C libraries.
//!
//! # Panics
//!
//! Every function panics if candle returns an error (it does not for these
//! contiguous 1-D CPU tensors), and if `xs.len() != ys.len()`.

use candle_core::{CpuStorage, CustomOp1, Device, Layout, Shape, Tensor, WithDType};

/// Runs `op` on a CPU tensor made from `xs` and copies the result into `ys`.
fn through_tensor<T: WithDType>(
    xs: &[T],
    ys: &mut [T],
    op: impl FnOnce(&Tensor) -> candle_core::Result<Tensor>,
) {
    let run = || -> candle_core::Result<()> {
        let input = Tensor::from_slice(xs, xs.len(), &Device::Cpu)?;
        let output = op(&input)?.to_vec1::<T>()?;
        ys.copy_from_slice(&output);
        Ok(())
    };
    run().unwrap_or_else(|e| panic!("candle failed: {e}"));
}

/// candle-nn's sigmoid (`candle_nn::ops::sigmoid`), CPU forward only.
struct Sigmoid;

impl CustomOp1 for Sigmoid {
    fn name(&self) -> &'static str {
        "sigmoid"
    }

    fn cpu_fwd(
        &self,
        storage: &CpuStorage,
        layout: &Layout,
    ) -> candle_core::Result<(CpuStorage, Shape)> {
        use candle_core::backend::BackendStorage;
        use candle_core::cpu_backend::unary_map;

        fn fwd<T: num_traits::Float>(v: T) -> T {
            (v.neg().exp() + T::one()).recip()
        }

        let storage = match storage {
            CpuStorage::BF16(slice) => CpuStorage::BF16(unary_map(slice, layout, fwd)),
            CpuStorage::F16(slice) => CpuStorage::F16(unary_map(slice, layout, fwd)),
            CpuStorage::F32(slice) => CpuStorage::F32(unary_map(slice, layout, fwd)),
            CpuStorage::F64(slice) => CpuStorage::F64(unary_map(slice, layout, fwd)),
            other => candle_core::bail!("sigmoid: unsupported dtype {:?}", other.dtype()),
        };
        Ok((storage, layout.shape().clone()))
    }
}

fn sigmoid(t: &Tensor) -> candle_core::Result<Tensor> {
    t.apply_op1_no_bwd(&Sigmoid)
}

crate::slice_fns! {
    /// GELU (erf form) of every `f16` of `xs` into `ys`: candle's `gelu_erf`.
    gelu_f16: f16 => |xs, ys| through_tensor(xs, ys, Tensor::gelu_erf);
    /// GELU (erf form) of every `bf16` of `xs` into `ys`: candle's `gelu_erf`.
    gelu_bf16: bf16 => |xs, ys| through_tensor(xs, ys, Tensor::gelu_erf);
    /// GELU by candle's default `gelu`, the tanh approximation, over `f16`.
    gelu_tanh_f16: f16 => |xs, ys| through_tensor(xs, ys, Tensor::gelu);
    /// GELU by candle's default `gelu`, the tanh approximation, over `bf16`.
    gelu_tanh_bf16: bf16 => |xs, ys| through_tensor(xs, ys, Tensor::gelu);
    /// Sigmoid of every `f16` of `xs` into `ys`: candle-nn's sigmoid op.
    sigmoid_f16: f16 => |xs, ys| through_tensor(xs, ys, sigmoid);
    /// Sigmoid of every `bf16` of `xs` into `ys`: candle-nn's sigmoid op.
    sigmoid_bf16: bf16 => |xs, ys| through_tensor(xs, ys, sigmoid);
    /// SiLU of every `f16` of `xs` into `ys`: candle's `silu`.
    silu_f16: f16 => |xs, ys| through_tensor(xs, ys, Tensor::silu);
    /// SiLU of every `bf16` of `xs` into `ys`: candle's `silu`.
    silu_bf16: bf16 => |xs, ys| through_tensor(xs, ys, Tensor::silu);
}

#[cfg(test)]
mod tests {
    use super::*;
    use half::{bf16, f16};

    #[test]
    fn candle_sigmoid_is_candle_nn_formula_in_the_format_arithmetic() {
        let xs: Vec<f16> = (0..=u16::MAX).step_by(97).map(f16::from_bits).collect();
        let mut ys = vec![f16::ZERO; xs.len()];
        sigmoid_f16(&xs, &mut ys);
        for (x, y) in xs.iter().zip(&ys) {
            let expected =
                f16::from_f32(1.0 / (f16::from_f32((-*x).to_f32().exp()) + f16::ONE).to_f32());
            assert!(
                y.to_bits() == expected.to_bits() || (y.is_nan() && expected.is_nan()),
                "at {:#06x}: {y} against {expected}",
                x.to_bits()
            );
        }
    }

    #[test]
    fn candle_peers_handle_empty_and_large_slices() {
        let mut empty: [bf16; 0] = [];
        silu_bf16(&[], &mut empty);
        // 64 Ki elements and more go through candle's thread pool.
        let xs = vec![bf16::ONE; 70_000];
        let mut ys = vec![bf16::ZERO; xs.len()];
        gelu_bf16(&xs, &mut ys);
        assert!(ys.iter().all(|y| *y == bf16::from_f32(0.8413)));
    }
}
