//! actlut's computed path per element: the exact reference evaluation, no table.
//!
//! `actlut::computed::f16_bits(Function::Gelu, x)` and its `bf16` twin for every
//! element: what actlut costs where a table is too large to carry.
//!
//! # Accuracy
//!
//! Correctly rounded on every input, bit-identical to actlut's tables (the
//! accuracy report checks it again over every input).

use actlut::{computed, Function};

fn map_f16(xs: &[half::f16], ys: &mut [half::f16], act: Function) {
    for (y, x) in ys.iter_mut().zip(xs) {
        *y = half::f16::from_bits(computed::f16_bits(act, x.to_bits()));
    }
}

fn map_bf16(xs: &[half::bf16], ys: &mut [half::bf16], act: Function) {
    for (y, x) in ys.iter_mut().zip(xs) {
        *y = half::bf16::from_bits(computed::bf16_bits(act, x.to_bits()));
    }
}

crate::slice_fns! {
    /// GELU of every `f16` of `xs` into `ys`, computed exactly per element.
    gelu_f16: f16 => |xs, ys| map_f16(xs, ys, Function::Gelu);
    /// GELU of every `bf16` of `xs` into `ys`, computed exactly per element.
    gelu_bf16: bf16 => |xs, ys| map_bf16(xs, ys, Function::Gelu);
    /// Sigmoid of every `f16` of `xs` into `ys`, computed exactly per element.
    sigmoid_f16: f16 => |xs, ys| map_f16(xs, ys, Function::Sigmoid);
    /// Sigmoid of every `bf16` of `xs` into `ys`, computed exactly per element.
    sigmoid_bf16: bf16 => |xs, ys| map_bf16(xs, ys, Function::Sigmoid);
    /// SiLU of every `f16` of `xs` into `ys`, computed exactly per element.
    silu_f16: f16 => |xs, ys| map_f16(xs, ys, Function::Silu);
    /// SiLU of every `bf16` of `xs` into `ys`, computed exactly per element.
    silu_bf16: bf16 => |xs, ys| map_bf16(xs, ys, Function::Silu);
}
