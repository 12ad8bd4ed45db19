//! Fused quantized tables against the unfused pipeline of docs/SEMANTICS.md, computed stage by stage
//! in this file: for every input code, every op (16 functions and the identity), every input
//! and output type, and many (scale, zero point) pairs (tiny and huge scales, zero points at
//! the limits of their type).

use actlut::quant::{
    DequantTable, Input, Op, PackedDequantTable, PackedInput, QuantError, QuantType, I2, I4, U2, U4,
};
use actlut::Function;
use actlut_codegen::quant::eval_value;
use actlut_codegen::Format;
use half::{bf16, f16};

/// Every op: the identity, then the other functions with built-in tables (at their default
/// constants).
fn ops() -> Vec<Op> {
    std::iter::once(Op::from(Function::Identity))
        .chain(
            Function::ALL
                .into_iter()
                .filter(|&f| f.has_defaults() && f != Function::Identity)
                .map(Op::from),
        )
        .collect()
}

const SCALES: [f32; 13] = [
    1.0e-45, // the smallest subnormal
    1.0e-30,
    2.980_232_2e-8, // 2^-25
    1.0e-3,
    0.05,
    0.1,
    0.333_333_34,
    1.0,
    7.5,
    100.0,
    1.0e30,
    3.0e36,
    f32::MAX,
];

/// Zero points of a type: its limits, zero where it is a value, and one more.
fn zero_points(ty: QuantType) -> Vec<i32> {
    let mut z = vec![ty.min(), ty.max(), (ty.min() + ty.max()) / 2];
    if ty.contains(0) {
        z.push(0);
    }
    if ty.contains(-3) {
        z.push(-3);
    }
    z.sort_unstable();
    z.dedup();
    z
}

/// Every value of a type, as i32.
fn values(ty: QuantType) -> std::ops::RangeInclusive<i32> {
    ty.min()..=ty.max()
}

// The unfused pipeline, stage by stage.

fn stage1(q: i32, scale: f32, zero_point: i32) -> f32 {
    let d = (q - zero_point) as f32; // |q − zp| ≤ 255: exact
    d * scale
}

fn stage2_f32(op: Op, x: f32) -> f32 {
    match op.function() {
        Function::Identity => x,
        f => actlut::computed::f32(f, x),
    }
}

fn stage2_half(op: Op, format: Format, x: f32) -> u16 {
    match (op.function(), format) {
        // half's conversions from f32 round once (checked exhaustively in codegen's tests).
        (Function::Identity, Format::F16) => f16::from_f32(x).to_bits(),
        (Function::Identity, _) => bf16::from_f32(x).to_bits(),
        (f, _) => eval_value(f, format, f64::from(x)),
    }
}

fn stage3(y: f32, out_scale: f32, out_zero_point: i32, ty: QuantType) -> i32 {
    if y.is_nan() {
        return out_zero_point;
    }
    let r = (y / out_scale).round_ties_even();
    (r + out_zero_point as f32).clamp(ty.min() as f32, ty.max() as f32) as i32
}

/// Checks one table over every value of its input type with `expect(q)` as the unfused value.
fn check_table<In: Input, Out: actlut::quant::Output + std::fmt::Debug>(
    what: &dyn Fn() -> String,
    table: &DequantTable<In, Out>,
    eq: impl Fn(Out, Out) -> bool,
    expect: impl Fn(i32) -> Out,
) {
    let ty = In::TYPE;
    assert_eq!(table.entries().len(), ty.codes());
    for q in values(ty) {
        let got = table.entries()[usize::from(ty.code(q))];
        let want = expect(q);
        assert!(
            eq(got, want),
            "{} at q = {q}: fused {got:?}, unfused {want:?}",
            what()
        );
    }
}

fn same_f32(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits()
}

fn float_outputs_equal_the_unfused_pipeline<In: Input>() {
    let ty = In::TYPE;
    let mut tables = 0;
    for op in ops() {
        for scale in SCALES {
            for zp in zero_points(ty) {
                let what = || format!("{} {}: scale {scale:e}, zero point {zp}", ty.name(), op);
                let t = DequantTable::<In, f32>::new(op, scale, zp).unwrap();
                check_table(&|| what() + " -> f32", &t, same_f32, |q| {
                    stage2_f32(op, stage1(q, scale, zp))
                });
                let t = DequantTable::<In, f16>::new(op, scale, zp).unwrap();
                check_table(
                    &|| what() + " -> f16",
                    &t,
                    |a, b| a.to_bits() == b.to_bits(),
                    |q| f16::from_bits(stage2_half(op, Format::F16, stage1(q, scale, zp))),
                );
                let t = DequantTable::<In, bf16>::new(op, scale, zp).unwrap();
                check_table(
                    &|| what() + " -> bf16",
                    &t,
                    |a, b| a.to_bits() == b.to_bits(),
                    |q| bf16::from_bits(stage2_half(op, Format::Bf16, stage1(q, scale, zp))),
                );
                tables += 3;
            }
        }
    }
    assert!(tables > 500);
}

const OUT_PARAMS_I8: [(f32, i32); 4] =
    [(0.05, 0), (0.003_906_25, -128), (1.0e-3, 127), (1.0e30, 0)];
const OUT_PARAMS_U8: [(f32, i32); 4] = [(0.05, 0), (0.003_906_25, 128), (1.0e-3, 255), (1.0e30, 0)];

fn requantized_outputs_equal_the_unfused_pipeline<In: Input>() {
    let ty = In::TYPE;
    for op in ops() {
        for scale in SCALES {
            for zp in zero_points(ty) {
                for (os, ozp) in OUT_PARAMS_I8 {
                    let t = DequantTable::<In, i8>::requantized(op, scale, zp, os, ozp).unwrap();
                    let what = || {
                        format!(
                            "{} {} -> i8: scale {scale:e}, zero point {zp}, out {os:e}, {ozp}",
                            ty.name(),
                            op
                        )
                    };
                    check_table(
                        &what,
                        &t,
                        |a, b| a == b,
                        |q| {
                            let y = stage2_f32(op, stage1(q, scale, zp));
                            stage3(y, os, ozp, QuantType::I8) as i8
                        },
                    );
                }
                for (os, ozp) in OUT_PARAMS_U8 {
                    let t = DequantTable::<In, u8>::requantized(op, scale, zp, os, ozp).unwrap();
                    let what = || {
                        format!(
                            "{} {} -> u8: scale {scale:e}, zero point {zp}, out {os:e}, {ozp}",
                            ty.name(),
                            op
                        )
                    };
                    check_table(
                        &what,
                        &t,
                        |a, b| a == b,
                        |q| {
                            let y = stage2_f32(op, stage1(q, scale, zp));
                            stage3(y, os, ozp, QuantType::U8) as u8
                        },
                    );
                }
            }
        }
    }
}

#[test]
fn i8_float_tables_equal_the_unfused_pipeline_on_every_code() {
    float_outputs_equal_the_unfused_pipeline::<i8>();
}

#[test]
fn u8_float_tables_equal_the_unfused_pipeline_on_every_code() {
    float_outputs_equal_the_unfused_pipeline::<u8>();
}

#[test]
fn i4_and_u4_float_tables_equal_the_unfused_pipeline_on_every_code() {
    float_outputs_equal_the_unfused_pipeline::<I4>();
    float_outputs_equal_the_unfused_pipeline::<U4>();
}

#[test]
fn i2_and_u2_float_tables_equal_the_unfused_pipeline_on_every_code() {
    float_outputs_equal_the_unfused_pipeline::<I2>();
    float_outputs_equal_the_unfused_pipeline::<U2>();
}

#[test]
fn requantized_tables_equal_the_unfused_pipeline_on_every_code() {
    requantized_outputs_equal_the_unfused_pipeline::<i8>();
    requantized_outputs_equal_the_unfused_pipeline::<u8>();
    requantized_outputs_equal_the_unfused_pipeline::<I4>();
    requantized_outputs_equal_the_unfused_pipeline::<U4>();
    requantized_outputs_equal_the_unfused_pipeline::<I2>();
    requantized_outputs_equal_the_unfused_pipeline::<U2>();
}

#[test]
fn lookup_map_get_and_apply_agree_with_the_entries() {
    let t = DequantTable::<i8, f32>::new(Function::Gelu, 0.05, -3).unwrap();
    let all: Vec<i8> = (-128..=127).collect();
    let mut out = vec![0f32; 256];
    t.map(&all, &mut out);
    for (&q, &y) in all.iter().zip(&out) {
        assert_eq!(y.to_bits(), t.lookup(q).to_bits());
        assert_eq!(y.to_bits(), t.get(q).unwrap().to_bits());
        assert_eq!(y.to_bits(), t.entries()[usize::from(q as u8)].to_bits());
    }
    let r = DequantTable::<i8, i8>::requantized(Function::Silu, 0.1, 5, 0.07, -2).unwrap();
    let mut v = all.clone();
    r.apply(&mut v);
    let mut m = vec![0i8; 256];
    r.map(&all, &mut m);
    assert_eq!(v, m);
    let r =
        DequantTable::<u8, u8>::requantized(Op::from(Function::Identity), 0.1, 5, 0.1, 5).unwrap();
    let all: Vec<u8> = (0..=255).collect();
    let mut v = all.clone();
    r.apply(&mut v);
    assert_eq!(
        v, all,
        "identity with equal parameters requantizes every code to itself"
    );
    // A Function and an Op give the same table.
    let a = DequantTable::<u8, f16>::new(Function::Mish, 0.02, 100).unwrap();
    let c = DequantTable::<u8, f16>::new(Op::from(Function::Mish), 0.02, 100).unwrap();
    assert_eq!(a.entries(), c.entries());
    assert_eq!(
        (a.scale(), a.zero_point(), a.op()),
        (0.02, 100, Op::from(Function::Mish))
    );
}

/// `map` of a table against its single lookups, bit for bit, on every length
/// 0..=300 and every offset 0..64 (long slices go through the SIMD kernels).
fn check_map<In, Out>(
    t: &DequantTable<In, Out>,
    from_byte: fn(u8) -> In::Value,
    bits: fn(Out) -> u32,
) where
    In: actlut::quant::Input8,
    Out: actlut::quant::Output + std::fmt::Debug,
{
    let buf: Vec<In::Value> = (0..300 + 64)
        .map(|i: u32| from_byte((i.wrapping_mul(2_654_435_761) >> 13) as u8))
        .collect();
    for offset in 0..64 {
        for len in 0..=300 {
            let values = &buf[offset..offset + len];
            let want: Vec<u32> = values.iter().map(|&v| bits(t.lookup(v))).collect();
            let mut out = vec![t.entries()[0]; len];
            t.map(values, &mut out);
            let got: Vec<u32> = out.into_iter().map(bits).collect();
            assert_eq!(got, want, "map, length {len}, offset {offset}");
        }
    }
}

#[test]
fn wide_output_tables_map_every_length_and_offset() {
    // Entries with both signs of zero and NaNs (log of negative values) check
    // that the kernels move bits, not values.
    let f = DequantTable::<i8, f32>::new(Function::Log, 0.5, 0).unwrap();
    assert!(f.entries().iter().any(|e| e.is_nan()));
    check_map(&f, |b| b as i8, f32::to_bits);
    let h = DequantTable::<u8, f16>::new(Function::Gelu, 0.1, 128).unwrap();
    check_map(&h, |b| b, |v| u32::from(v.to_bits()));
    let b = DequantTable::<i8, bf16>::new(Function::Silu, 0.07, -3).unwrap();
    check_map(&b, |b| b as i8, |v| u32::from(v.to_bits()));
}

/// `map` and `apply` of a byte-output table against its entries, on every length
/// 0..=300 and every offset 0..64 (long slices go through the SIMD byte kernels).
fn check_byte_outputs<In, Out>(t: &DequantTable<In, Out>, from_byte: fn(u8) -> In::Value)
where
    In: actlut::quant::Input8,
    In::Value: PartialEq + std::fmt::Debug,
    Out: actlut::quant::Output + PartialEq + std::fmt::Debug,
{
    let buf: Vec<In::Value> = (0..300 + 64)
        .map(|i: u32| from_byte((i.wrapping_mul(2_654_435_761) >> 13) as u8))
        .collect();
    for offset in 0..64 {
        for len in 0..=300 {
            let values = &buf[offset..offset + len];
            let want: Vec<Out> = values.iter().map(|&v| t.lookup(v)).collect();
            let mut out = vec![t.entries()[0]; len];
            t.map(values, &mut out);
            assert_eq!(out, want, "map, length {len}, offset {offset}");
        }
    }
}

#[test]
fn byte_output_tables_map_and_apply_every_length_and_offset() {
    let i8_i8 = DequantTable::<i8, i8>::requantized(Function::Silu, 0.1, 5, 0.07, -2).unwrap();
    let u8_u8 = DequantTable::<u8, u8>::requantized(Function::Gelu, 0.05, 128, 0.03, 10).unwrap();
    let i8_u8 =
        DequantTable::<i8, u8>::requantized(Function::Sigmoid, 0.05, 0, 1.0 / 255.0, 0).unwrap();
    let u8_i8 =
        DequantTable::<u8, i8>::requantized(Function::Tanh, 0.03, 128, 1.0 / 127.0, 0).unwrap();
    check_byte_outputs(&i8_i8, |b| b as i8);
    check_byte_outputs(&u8_u8, |b| b);
    check_byte_outputs(&i8_u8, |b| b as i8);
    check_byte_outputs(&u8_i8, |b| b);
    // In place, against the entries.
    for len in [0, 1, 63, 64, 65, 255, 256, 1000] {
        let values: Vec<i8> = (0..len).map(|i| (i * 37) as i8).collect();
        let mut v = values.clone();
        i8_i8.apply(&mut v);
        let want: Vec<i8> = values
            .iter()
            .map(|&q| i8_i8.entries()[usize::from(q as u8)])
            .collect();
        assert_eq!(v, want, "i8 apply, length {len}");
        let values: Vec<u8> = (0..len).map(|i| (i * 91) as u8).collect();
        let mut v = values.clone();
        u8_u8.apply(&mut v);
        let want: Vec<u8> = values
            .iter()
            .map(|&q| u8_u8.entries()[usize::from(q)])
            .collect();
        assert_eq!(v, want, "u8 apply, length {len}");
    }
}

#[test]
#[should_panic(
    expected = "actlut: source slice length (3) does not match destination slice length (2)"
)]
fn map_with_mismatched_lengths_panics() {
    let t = DequantTable::<u8, f32>::new(Function::Exp, 0.1, 0).unwrap();
    t.map(&[1, 2, 3], &mut [0.0; 2]);
}

/// The unpacked 4-bit maps return a `Result`: a length mismatch is an `Err`
/// naming both lengths, with the message of the panic above, and nothing is
/// written.
#[test]
fn unpacked_4_bit_maps_with_mismatched_lengths_are_errors_naming_both() {
    let i4 = DequantTable::<I4, f32>::new(Function::Tanh, 0.5, 0).unwrap();
    let mut out = [7.0f32; 2];
    let e = i4.map(&[1, 2, 3], &mut out).unwrap_err();
    assert_eq!(
        e,
        QuantError::Lengths {
            values: 3,
            outputs: 2
        }
    );
    assert_eq!(
        e.to_string(),
        "actlut: source slice length (3) does not match destination slice length (2)"
    );
    let u4 = DequantTable::<U4, f32>::new(Function::Tanh, 0.5, 0).unwrap();
    assert_eq!(
        u4.map(&[1], &mut out),
        Err(QuantError::Lengths {
            values: 1,
            outputs: 2
        })
    );
    assert_eq!(out, [7.0; 2]);
}

#[test]
fn packed_tables_hold_both_nibbles_of_every_byte_low_first() {
    fn check<In: actlut::quant::Input4>() {
        let p = PackedDequantTable::<In, f32>::new(Function::Tanh, 0.3, In::TYPE.min()).unwrap();
        let u = DequantTable::<In, f32>::new(Function::Tanh, 0.3, In::TYPE.min()).unwrap();
        assert_eq!(p.unpacked().entries(), u.entries());
        let bytes: Vec<u8> = (0..=255).collect();
        let mut out = vec![0f32; 512];
        p.map(&bytes, &mut out);
        for b in 0..=255u8 {
            let want = [
                u.entries()[usize::from(b & 0xF)],
                u.entries()[usize::from(b >> 4)],
            ];
            assert_eq!(p.lookup(b), want, "{b:#04x}");
            assert_eq!(p.entries()[usize::from(b)], want);
            assert_eq!(out[2 * usize::from(b)..][..2], want);
        }
        // An odd number of values: the last high nibble is padding.
        let mut odd = vec![0f32; 511];
        p.map(&bytes, &mut odd);
        assert_eq!(odd[..], out[..511]);
        let r =
            PackedDequantTable::<In, u8>::requantized(Op::from(Function::Identity), 1.0, 0, 1.0, 0)
                .unwrap();
        for b in 0..=255u8 {
            let [lo, hi] = r.lookup(b);
            let val = |nib: u8| In::TYPE.value(nib.into()).clamp(0, 255) as u8;
            assert_eq!([lo, hi], [val(b & 0xF), val(b >> 4)], "{b:#04x}");
        }
    }
    check::<I4>();
    check::<U4>();
}

/// ONNX packs INT2/UINT2 four per byte, the first element in bits 0–1 (onnx.numpy_helper's
/// `_pack_2bitx4`): every byte's group is its four values' entries in that order, and a map
/// of 4k − 3 … 4k values reads them.
#[test]
fn packed_2_bit_tables_hold_the_four_values_of_every_byte_lowest_first() {
    fn check<In: PackedInput<4>>() {
        let p = PackedDequantTable::<In, f32, 4>::new(Function::Tanh, 0.3, In::TYPE.min()).unwrap();
        let u = DequantTable::<In, f32>::new(Function::Tanh, 0.3, In::TYPE.min()).unwrap();
        assert_eq!(u.entries().len(), 4);
        assert_eq!(p.unpacked().entries(), u.entries());
        let bytes: Vec<u8> = (0..=255).collect();
        let mut out = vec![0f32; 1024];
        p.map(&bytes, &mut out);
        for b in 0..=255u8 {
            let want = [0, 2, 4, 6].map(|shift| u.entries()[usize::from((b >> shift) & 3)]);
            assert_eq!(p.lookup(b), want, "{b:#04x}");
            assert_eq!(out[4 * usize::from(b)..][..4], want);
        }
        for short in 1..4 {
            let mut part = vec![0f32; 1024 - short];
            p.map(&bytes, &mut part);
            assert_eq!(part[..], out[..1024 - short]);
        }
        let r = PackedDequantTable::<In, i8, 4>::requantized(
            Op::from(actlut::Function::Identity),
            1.0,
            0,
            1.0,
            0,
        )
        .unwrap();
        for b in 0..=255u8 {
            let want = [0, 2, 4, 6].map(|shift| In::TYPE.value(((b >> shift) & 3).into()) as i8);
            assert_eq!(r.lookup(b), want, "{b:#04x}");
        }
    }
    check::<I2>();
    check::<U2>();
    // The byte ONNX writes for INT2 [1, 0, −1, −2]: 0b10_11_00_01.
    let t = PackedDequantTable::<I2, i8, 4>::requantized(
        Op::from(actlut::Function::Identity),
        1.0,
        0,
        1.0,
        0,
    )
    .unwrap();
    assert_eq!(t.lookup(0b10_11_00_01), [1, 0, -1, -2]);
}

#[test]
#[should_panic(expected = "2 packed bytes hold 5..=8 values, not 4")]
fn packed_2_bit_map_with_a_wrong_length_panics() {
    let p = PackedDequantTable::<U2, f32, 4>::new(Op::from(actlut::Function::Identity), 1.0, 0)
        .unwrap();
    p.map(&[0, 0], &mut [0.0; 4]);
}

#[test]
fn unpacked_2_bit_values_outside_the_type_are_errors_naming_index_and_value() {
    let t = DequantTable::<I2, f32>::new(Op::from(actlut::Function::Identity), 1.0, 0).unwrap();
    let mut out = [0f32; 3];
    let e = t.map(&[1, -2, 2], &mut out).unwrap_err();
    assert_eq!(
        e,
        QuantError::Value {
            parameter: "codes",
            index: 2,
            value: 2,
            ty: QuantType::I2
        }
    );
    assert_eq!(out[..2], [1.0, -2.0]);
    assert_eq!(
        t.get(-3).unwrap_err().to_string(),
        "value -3 is outside i2 (-2..=1)"
    );
    let u = DequantTable::<U2, f32>::new(Op::from(actlut::Function::Identity), 1.0, 0).unwrap();
    assert!(u.map(&[4], &mut [0.0]).is_err());
    assert_eq!(
        u.map(&[0, 1], &mut [0.0]).unwrap_err(),
        QuantError::Lengths {
            values: 2,
            outputs: 1
        }
    );
}

#[test]
#[should_panic(expected = "2 packed bytes hold 4 or 3 values, not 2")]
fn packed_map_with_a_wrong_length_panics() {
    let p = PackedDequantTable::<U4, f32>::new(Op::from(Function::Identity), 1.0, 0).unwrap();
    p.map(&[0, 0], &mut [0.0; 2]);
}

#[test]
fn out_of_range_unpacked_4_bit_values_are_errors_naming_index_and_value() {
    let t = DequantTable::<I4, f32>::new(Function::Gelu, 0.5, 0).unwrap();
    let mut out = [0f32; 4];
    for bad in [-128i8, -9, 8, 127] {
        let err = t.map(&[0, 1, bad, 2], &mut out).unwrap_err();
        assert_eq!(
            err,
            QuantError::Value {
                parameter: "codes",
                index: 2,
                value: i32::from(bad),
                ty: QuantType::I4
            }
        );
        assert_eq!(
            err.to_string(),
            format!("codes[2] = {bad} is outside i4 (-8..=7)")
        );
        // One value on its own: the error names that value, not a slice position.
        let err = t.get(bad).unwrap_err();
        assert_eq!(
            err,
            QuantError::OutOfRange {
                value: i32::from(bad),
                ty: QuantType::I4
            }
        );
        assert_eq!(
            err.to_string(),
            format!("value {bad} is outside i4 (-8..=7)")
        );
    }
    let u = DequantTable::<U4, f32>::new(Op::from(Function::Identity), 1.0, 0).unwrap();
    assert_eq!(
        u.get(100).unwrap_err().to_string(),
        "value 100 is outside u4 (0..=15)"
    );
    let all: Vec<i8> = (-8..=7).collect();
    let mut out = vec![0f32; 16];
    t.map(&all, &mut out).unwrap();
    let u = DequantTable::<U4, u8>::requantized(Function::Sigmoid, 0.5, 8, 0.01, 0).unwrap();
    let mut out = [0u8; 2];
    let err = u.map(&[15, 16], &mut out).unwrap_err();
    assert_eq!(err.to_string(), "codes[1] = 16 is outside u4 (0..=15)");
    for v in 0..=255u8 {
        assert_eq!(u.get(v).is_ok(), v <= 15);
    }
}

#[test]
fn bad_parameters_are_errors_naming_the_parameter_and_value() {
    for s in [
        0.0f32,
        -0.0,
        -1.0,
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
    ] {
        let e = DequantTable::<i8, f32>::new(Function::Gelu, s, 0).unwrap_err();
        assert!(
            matches!(e, QuantError::Scale { parameter: "scale", value } if value.to_bits() == s.to_bits()),
            "{e:?}"
        );
        assert!(e
            .to_string()
            .starts_with("scale must be finite and positive, got "));
        let e = DequantTable::<i8, u8>::requantized(Function::Gelu, 1.0, 0, s, 0).unwrap_err();
        assert!(
            matches!(
                e,
                QuantError::Scale {
                    parameter: "out_scale",
                    ..
                }
            ),
            "{e:?}"
        );
        let e =
            PackedDequantTable::<I4, i8>::requantized(Function::Gelu, 1.0, 0, s, 0).unwrap_err();
        assert!(
            matches!(
                e,
                QuantError::Scale {
                    parameter: "out_scale",
                    ..
                }
            ),
            "{e:?}"
        );
    }
    let zp = |ty: QuantType, v: i32| -> Result<(), QuantError> {
        match ty {
            QuantType::I8 => {
                DequantTable::<i8, f32>::new(Op::from(actlut::Function::Identity), 1.0, v)
                    .map(|_| ())
            }
            QuantType::U8 => {
                DequantTable::<u8, f32>::new(Op::from(actlut::Function::Identity), 1.0, v)
                    .map(|_| ())
            }
            QuantType::I4 => {
                DequantTable::<I4, f32>::new(Op::from(actlut::Function::Identity), 1.0, v)
                    .map(|_| ())
            }
            QuantType::U4 => {
                PackedDequantTable::<U4, f32>::new(Op::from(actlut::Function::Identity), 1.0, v)
                    .map(|_| ())
            }
            QuantType::I2 => {
                DequantTable::<I2, f32>::new(Op::from(actlut::Function::Identity), 1.0, v)
                    .map(|_| ())
            }
            QuantType::U2 => {
                PackedDequantTable::<U2, f32, 4>::new(Op::from(actlut::Function::Identity), 1.0, v)
                    .map(|_| ())
            }
            QuantType::I16 | QuantType::U16 => unreachable!("tests/quant16.rs"),
        }
    };
    for ty in QuantType::SMALL {
        for v in -300..=300 {
            let r = zp(ty, v);
            if ty.contains(v) {
                assert!(r.is_ok(), "{} {v}", ty.name());
            } else {
                assert_eq!(
                    r.unwrap_err(),
                    QuantError::ZeroPoint {
                        parameter: "zero_point",
                        value: v,
                        ty
                    },
                );
            }
        }
    }
    for v in [-129, 128, 1000] {
        let e = DequantTable::<u8, i8>::requantized(Function::Gelu, 1.0, 0, 1.0, v).unwrap_err();
        assert_eq!(
            e,
            QuantError::ZeroPoint {
                parameter: "out_zero_point",
                value: v,
                ty: QuantType::I8
            }
        );
        assert_eq!(
            e.to_string(),
            format!("out_zero_point = {v} is outside i8 (-128..=127)")
        );
    }
    for v in [-1, 256] {
        let e = DequantTable::<u8, u8>::requantized(Function::Gelu, 1.0, 0, 1.0, v).unwrap_err();
        assert_eq!(
            e,
            QuantError::ZeroPoint {
                parameter: "out_zero_point",
                value: v,
                ty: QuantType::U8
            }
        );
    }
}

#[test]
fn hand_checked_entries() {
    // q = zero point → x = +0: gelu(+0) = +0, sigmoid(0) = 0.5, log(+0) = −inf.
    let g = DequantTable::<u8, f32>::new(Function::Gelu, 0.1, 7).unwrap();
    assert_eq!(g.lookup(7).to_bits(), 0);
    let l = DequantTable::<u8, f32>::new(Function::Log, 0.1, 7).unwrap();
    assert_eq!(l.lookup(7), f32::NEG_INFINITY);
    assert!(l.lookup(6).is_nan()); // log of a negative value
                                   // log's NaN requantizes to the output zero point.
    let lq = DequantTable::<u8, u8>::requantized(Function::Log, 0.1, 7, 0.1, 42).unwrap();
    assert_eq!(lq.lookup(6), 42);
    // Huge scales overflow stage 1 to ±inf: the function's limits.
    let e = DequantTable::<i8, f32>::new(Function::Exp, f32::MAX, 0).unwrap();
    assert_eq!(e.lookup(2), f32::INFINITY);
    assert_eq!(e.lookup(-2), 0.0);
    let t = DequantTable::<i8, bf16>::new(Function::Tanh, f32::MAX, 0).unwrap();
    assert_eq!(t.lookup(-2), bf16::NEG_ONE);
    // f16 output: exp(1.0) = 2.71828… → 2.71875 (0x4170).
    let e = DequantTable::<i8, f16>::new(Function::Exp, 0.5, 0).unwrap();
    assert_eq!(e.lookup(2).to_bits(), 0x4170);
}

/// 8-bit codes requantized to 16 bits (`i16`, `u16` are [`QuantOutput`]s like `i8` and `u8`):
/// every entry is the unfused pipeline's, and `map`, through the byte → 16-bit kernel, gives
/// every lookup.
#[test]
fn eight_bit_codes_requantized_to_i16_and_u16_equal_the_pipeline_on_every_code() {
    use actlut_codegen::quant::{OutputType, Pipeline, QuantType};
    let op = Op::from(actlut::Function::Tanh);
    let codes: Vec<i8> = (-128..=127).collect();

    let t = DequantTable::<i8, i16>::requantized(op, 0.03, 2, 1.0 / 32768.0, 7).unwrap();
    let stage = OutputType::I16 {
        scale: 1.0 / 32768.0,
        zero_point: 7,
    };
    let p = Pipeline::new(op, QuantType::I8, 0.03, 2, stage).unwrap();
    let mut out = vec![0i16; codes.len()];
    t.map(&codes, &mut out);
    for (&c, &y) in codes.iter().zip(&out) {
        let want = p.entry(u16::from(c as u8)) as u16 as i16;
        assert_eq!(t.lookup(c), want, "i16 code {c}");
        assert_eq!(y, want, "i16 map, code {c}");
    }

    let t = DequantTable::<i8, u16>::requantized(op, 0.03, 2, 1.0 / 32768.0, 32768).unwrap();
    let stage = OutputType::U16 {
        scale: 1.0 / 32768.0,
        zero_point: 32768,
    };
    let p = Pipeline::new(op, QuantType::I8, 0.03, 2, stage).unwrap();
    let mut out = vec![0u16; codes.len()];
    t.map(&codes, &mut out);
    for (&c, &y) in codes.iter().zip(&out) {
        let want = p.entry(u16::from(c as u8)) as u16;
        assert_eq!(t.lookup(c), want, "u16 code {c}");
        assert_eq!(y, want, "u16 map, code {c}");
    }
    // tanh(−128·0.03 … 127·0.03) spans most of (−1, 1): the outputs are not all one value.
    assert!(out.iter().min() < out.iter().max());
}
