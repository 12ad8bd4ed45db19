//! `dequant_table!` (feature `macros`) gives, at compile time, the same tables as
//! `DequantTable::new` / `requantized` at run time, for every input type, every output type,
//! packed and unpacked, and parameters at their limits.
//!
//! Run: `cargo test -p actlut --features macros --test quant_macro`.
#![cfg(feature = "macros")]

use actlut::dequant_table;
use actlut::quant::{
    DequantTable, Input, Op, Output, PackedDequantTable, PackedInput, I2, I4, U2, U4,
};
use actlut::Function;
use half::{bf16, f16};

fn bits<T: Output + std::fmt::Debug>(t: &[T]) -> Vec<String> {
    // Debug of f32 NaN hides the sign: compare through the bits where there are any.
    t.iter().map(|v| format!("{v:?}")).collect()
}

fn f32_bits(t: &[f32]) -> Vec<u32> {
    t.iter().map(|v| v.to_bits()).collect()
}

fn same<In: Input, Out: Output + std::fmt::Debug>(
    name: &str,
    compiled: &DequantTable<In, Out>,
    run_time: &DequantTable<In, Out>,
) {
    assert_eq!(bits(compiled.entries()), bits(run_time.entries()), "{name}");
    assert_eq!(compiled.op(), run_time.op(), "{name}");
    assert_eq!(
        compiled.scale().to_bits(),
        run_time.scale().to_bits(),
        "{name}"
    );
    assert_eq!(compiled.zero_point(), run_time.zero_point(), "{name}");
}

fn same_packed<In: PackedInput<N>, Out: Output + std::fmt::Debug, const N: usize>(
    name: &str,
    compiled: &PackedDequantTable<In, Out, N>,
    run_time: &PackedDequantTable<In, Out, N>,
) {
    same(name, compiled.unpacked(), run_time.unpacked());
    for b in 0..=255u8 {
        assert_eq!(
            bits(&compiled.lookup(b)),
            bits(&run_time.lookup(b)),
            "{name} {b:#04x}"
        );
    }
}

dequant_table!(static GELU_I8_F32: i8 -> f32 = gelu, scale = 0.05, zero_point = -3);
dequant_table!(static LOG_U8_F32: u8 -> f32 = log, scale = 0.1, zero_point = 7);
dequant_table!(static EXP_I8_F32_HUGE: i8 -> f32 = exp, scale = 3.4028235e38, zero_point = 127);
dequant_table!(static TANH_I8_F16_TINY: i8 -> f16 = tanh, scale = 1e-45, zero_point = -128);
dequant_table!(static SILU_U8_BF16: u8 -> bf16 = silu, scale = 0.0625, zero_point = 255);
dequant_table!(static ID_I4_F32: i4 -> f32 = identity, scale = 0.5, zero_point = 7);
dequant_table!(static ERF_U4_F16: u4 -> f16 = erf, scale = 0.25, zero_point = 8);
dequant_table!(
    /// Requantized: sigmoid of u8 activations back to u8.
    pub static SIGMOID_U8_U8: u8 -> u8 = sigmoid,
        scale = 0.1, zero_point = 128, out_scale = 0.00390625, out_zero_point = 0,
);
dequant_table!(static HARDSWISH_I8_I8: i8 -> i8 = hardswish,
    scale = 0.1, zero_point = 0, out_scale = 0.05, out_zero_point = -128);
dequant_table!(static GELU_TANH_I4_I8: i4 -> i8 = gelu_tanh,
    scale = 1, zero_point = -8, out_scale = 0.02, out_zero_point = 127);
dequant_table!(static MISH_P_I4_F32: packed i4 -> f32 = mish, scale = 0.3, zero_point = -1);
dequant_table!(static SOFTPLUS_P_U4_BF16: packed u4 -> bf16 = softplus, scale = 0.5, zero_point = 15);
dequant_table!(static RSQRT_P_U4_U8: packed u4 -> u8 = rsqrt,
    scale = 0.125, zero_point = 0, out_scale = 0.01, out_zero_point = 0);
dequant_table!(static TANH_I2_F32: i2 -> f32 = tanh, scale = 0.75, zero_point = -1);
dequant_table!(static GELU_P_I2_F16: packed i2 -> f16 = gelu, scale = 0.5, zero_point = 1);
dequant_table!(static EXP_P_U2_U8: packed u2 -> u8 = exp,
    scale = 1, zero_point = 2, out_scale = 0.1, out_zero_point = 0);

#[test]
fn macro_tables_equal_run_time_tables() {
    same(
        "gelu i8 f32",
        &GELU_I8_F32,
        &DequantTable::new(Function::Gelu, 0.05, -3).unwrap(),
    );
    assert_eq!(
        f32_bits(LOG_U8_F32.entries()),
        f32_bits(
            DequantTable::<u8, f32>::new(Function::Log, 0.1, 7)
                .unwrap()
                .entries()
        ),
        "log: NaN and -inf entries keep their bits"
    );
    same(
        "exp huge",
        &EXP_I8_F32_HUGE,
        &DequantTable::new(Function::Exp, f32::MAX, 127).unwrap(),
    );
    same(
        "tanh tiny",
        &TANH_I8_F16_TINY,
        &DequantTable::new(Function::Tanh, f32::from_bits(1), -128).unwrap(),
    );
    same(
        "silu u8 bf16",
        &SILU_U8_BF16,
        &DequantTable::new(Function::Silu, 0.0625, 255).unwrap(),
    );
    same(
        "identity i4",
        &ID_I4_F32,
        &DequantTable::<I4, f32>::new(Op::from(Function::Identity), 0.5, 7).unwrap(),
    );
    same(
        "erf u4",
        &ERF_U4_F16,
        &DequantTable::<U4, f16>::new(Function::Erf, 0.25, 8).unwrap(),
    );
    same(
        "sigmoid u8 u8",
        &SIGMOID_U8_U8,
        &DequantTable::requantized(Function::Sigmoid, 0.1, 128, 0.003_906_25, 0).unwrap(),
    );
    same(
        "hardswish i8 i8",
        &HARDSWISH_I8_I8,
        &DequantTable::requantized(Function::Hardswish, 0.1, 0, 0.05, -128).unwrap(),
    );
    same(
        "gelu_tanh i4 i8",
        &GELU_TANH_I4_I8,
        &DequantTable::<I4, i8>::requantized(Function::GeluTanh, 1.0, -8, 0.02, 127).unwrap(),
    );
    same_packed(
        "mish packed i4",
        &MISH_P_I4_F32,
        &PackedDequantTable::new(Function::Mish, 0.3, -1).unwrap(),
    );
    same_packed(
        "softplus packed u4",
        &SOFTPLUS_P_U4_BF16,
        &PackedDequantTable::<U4, bf16>::new(Function::Softplus, 0.5, 15).unwrap(),
    );
    same_packed(
        "rsqrt packed u4 u8",
        &RSQRT_P_U4_U8,
        &PackedDequantTable::<U4, u8>::requantized(Function::Rsqrt, 0.125, 0, 0.01, 0).unwrap(),
    );
    same(
        "tanh i2",
        &TANH_I2_F32,
        &DequantTable::<I2, f32>::new(Function::Tanh, 0.75, -1).unwrap(),
    );
    same_packed(
        "gelu packed i2",
        &GELU_P_I2_F16,
        &PackedDequantTable::<I2, f16, 4>::new(Function::Gelu, 0.5, 1).unwrap(),
    );
    same_packed(
        "exp packed u2 u8",
        &EXP_P_U2_U8,
        &PackedDequantTable::<U2, u8, 4>::requantized(Function::Exp, 1.0, 2, 0.1, 0).unwrap(),
    );
}

#[test]
fn macro_tables_are_usable_in_statics_and_const_contexts() {
    static REF: &DequantTable<i8, f32> = &GELU_I8_F32;
    assert_eq!(REF.lookup(-3).to_bits(), 0);
    let mut out = [0f32; 2];
    MISH_P_I4_F32.map(&[0x10], &mut out);
    assert_eq!(out, MISH_P_I4_F32.lookup(0x10));
}
