//! Fused tables over 16-bit quantized codes (`actlut::quant16`) against the unfused pipeline
//! of docs/SEMANTICS.md, computed stage by stage in this file, on every one of the 65,536
//! codes: `i16` and `u16` inputs, every output type (`f32`, `f16`, `bf16`, `i16`, `u16`, `i8`,
//! `u8`), both roundings, the identity and a set of functions; the slice maps through every
//! available 16-bit kernel; and every bad parameter an `Err` naming it.

mod kernel_harness;

use actlut::element::{FloatOutput, Input16, QuantOutput};
use actlut::quant::{Op, QuantError, QuantType, Rounding};
use actlut::quant16::{map, DequantTable16};
use actlut::Function;
use actlut_codegen::quant::eval_value;
use actlut_codegen::Format;
use half::{bf16, f16};

fn ops() -> Vec<Op> {
    vec![
        Op::from(Function::Identity),
        Op::from(Function::Sigmoid),
        Op::from(Function::Tanh),
        Op::from(Function::Gelu),
        Op::from(Function::Hardswish),
        Op::from(Function::Log),
    ]
}

// The unfused pipeline, stage by stage.

fn stage1(q: i32, scale: f32, zero_point: i32) -> f32 {
    let d = (q - zero_point) as f32; // |q − zp| ≤ 65535 < 2^24: exact
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
        // half's conversions from f32 round once.
        (Function::Identity, Format::F16) => f16::from_f32(x).to_bits(),
        (Function::Identity, _) => bf16::from_f32(x).to_bits(),
        (f, _) => eval_value(f, format, f64::from(x)),
    }
}

/// Stage 3 with std's roundings on the `f32` quotient.
fn stage3(y: f32, out_scale: f32, out_zero_point: i32, ty: QuantType, r: Rounding) -> i32 {
    if y.is_nan() {
        return out_zero_point;
    }
    let v = y / out_scale;
    let v = match r {
        Rounding::TiesToEven => v.round_ties_even(),
        Rounding::TiesAwayFromZero => v.round(),
    };
    (f64::from(v) + f64::from(out_zero_point)).clamp(f64::from(ty.min()), f64::from(ty.max()))
        as i32
}

/// The value of the code whose bits are `i`.
fn value<In: Input16>(i: usize) -> i32 {
    In::TYPE.value(i as u16)
}

fn float_tables<In: Input16>(scale: f32, zp: i32) {
    for op in ops() {
        let what = |o: &str| {
            format!(
                "{} {} -> {o}: scale {scale:e}, zp {zp}",
                In::TYPE.name(),
                op
            )
        };
        let mut b32 = vec![0f32; 65_536];
        let t = DequantTable16::<In, f32>::new_in(&mut b32, op, scale, zp).unwrap();
        for (i, &got) in t.entries().iter().enumerate() {
            let want = stage2_f32(op, stage1(value::<In>(i), scale, zp));
            assert_eq!(got.to_bits(), want.to_bits(), "{} at {i:#06x}", what("f32"));
        }
        let mut bh = vec![f16::ZERO; 65_536];
        let t = DequantTable16::<In, f16>::new_in(&mut bh, op, scale, zp).unwrap();
        for (i, &got) in t.entries().iter().enumerate() {
            let want = stage2_half(op, Format::F16, stage1(value::<In>(i), scale, zp));
            assert_eq!(got.to_bits(), want, "{} at {i:#06x}", what("f16"));
        }
        let mut bb = vec![bf16::ZERO; 65_536];
        let t = DequantTable16::<In, bf16>::new_in(&mut bb, op, scale, zp).unwrap();
        for (i, &got) in t.entries().iter().enumerate() {
            let want = stage2_half(op, Format::Bf16, stage1(value::<In>(i), scale, zp));
            assert_eq!(got.to_bits(), want, "{} at {i:#06x}", what("bf16"));
        }
    }
}

fn quant_table<In: Input16, Out: QuantOutput + Into<i32> + Default + Clone>(
    op: Op,
    scale: f32,
    zp: i32,
    out_scale: f32,
    out_zp: i32,
    r: Rounding,
) {
    let mut buf = vec![Out::default(); 65_536];
    let t =
        DequantTable16::<In, Out>::requantized_in(&mut buf, op, scale, zp, out_scale, out_zp, r)
            .unwrap();
    assert_eq!(t.rounding(), r);
    for (i, &got) in t.entries().iter().enumerate() {
        let y = stage2_f32(op, stage1(value::<In>(i), scale, zp));
        let want = stage3(y, out_scale, out_zp, Out::TYPE, r);
        assert_eq!(
            got.into(),
            want,
            "{} {} -> {} ({}) at {i:#06x}",
            In::TYPE.name(),
            op,
            Out::TYPE.name(),
            r.name()
        );
    }
}

fn quant_tables<In: Input16>(scale: f32, zp: i32) {
    for op in ops() {
        for r in Rounding::ALL {
            quant_table::<In, i16>(op, scale, zp, 1.0 / 32768.0, 0, r);
            quant_table::<In, u16>(op, scale, zp, 1.0 / 1024.0, 32768, r);
            quant_table::<In, i8>(op, scale, zp, 1.0 / 64.0, -3, r);
            quant_table::<In, u8>(op, scale, zp, 1.0 / 128.0, 128, r);
        }
    }
}

#[test]
fn i16_float_tables_equal_the_unfused_pipeline_on_every_code() {
    float_tables::<i16>(1.0 / 4096.0, 0); // TFLite 16x8
    float_tables::<i16>(0.001, -32768);
}

#[test]
fn u16_float_tables_equal_the_unfused_pipeline_on_every_code() {
    float_tables::<u16>(0.000_5, 32768);
    float_tables::<u16>(0.37, 65535);
}

#[test]
fn i16_requantized_tables_equal_the_unfused_pipeline_on_every_code_in_both_roundings() {
    quant_tables::<i16>(1.0 / 4096.0, 0);
    quant_tables::<i16>(0.003, 1000);
}

#[test]
fn u16_requantized_tables_equal_the_unfused_pipeline_on_every_code_in_both_roundings() {
    quant_tables::<u16>(1.0 / 8192.0, 32768);
}

#[test]
fn entry_i_is_the_code_with_bit_pattern_i() {
    let mut buf = vec![0i16; 65_536];
    let id = DequantTable16::<i16, i16>::requantized_in(
        &mut buf,
        Op::from(Function::Identity),
        1.0,
        0,
        1.0,
        0,
        Rounding::TiesToEven,
    )
    .unwrap();
    assert_eq!(id.entries()[0x8000], -32768);
    assert_eq!(id.entries()[0xFFFF], -1);
    assert_eq!(id.entries()[0x7FFF], 32767);
    assert_eq!(id.lookup(-32768), -32768);
    let mut buf = vec![0u16; 65_536];
    let id = DequantTable16::<u16, u16>::requantized_in(
        &mut buf,
        Op::from(Function::Identity),
        1.0,
        0,
        1.0,
        0,
        Rounding::TiesToEven,
    )
    .unwrap();
    assert!(id
        .entries()
        .iter()
        .enumerate()
        .all(|(i, &e)| usize::from(e) == i));
}

#[test]
fn identity_i16_to_i8_with_256_times_the_scale_has_ties_at_every_odd_multiple_of_128() {
    // y = q / 256 in output units: a tie exactly when q ≡ 128 (mod 256). Ties to even and
    // away disagree where the even neighbour is toward zero: q / 256 = ±(2m + 1/2).
    let mk = |r| {
        let mut buf = vec![0i8; 65_536];
        DequantTable16::<i16, i8>::requantized_in(
            &mut buf,
            Op::from(Function::Identity),
            1.0,
            0,
            256.0,
            0,
            r,
        )
        .unwrap();
        buf
    };
    let (even, away) = (mk(Rounding::TiesToEven), mk(Rounding::TiesAwayFromZero));
    let differing: Vec<i32> = (0..65_536)
        .filter(|&i| even[i] != away[i])
        .map(|i| i as u16 as i16 as i32)
        .collect();
    let mut listed: Vec<i32> = (0..64)
        .flat_map(|m| [-(512 * m + 128), 512 * m + 128])
        .collect();
    listed.retain(|&q| (-32768..=32767).contains(&q));
    let mut d = differing.clone();
    d.sort_unstable();
    listed.sort_unstable();
    assert_eq!(d, listed);
    assert_eq!(d.len(), 128);
}

#[test]
fn maps_equal_lookups_through_every_available_16_bit_kernel() {
    let mut rng = kernel_harness::Rng(0x9E37_79B9_7F4A_7C15);
    let buf: Vec<u16> = (0..kernel_harness::MAX_LEN + 64)
        .map(|_| rng.next() as u16)
        .collect();
    let mut b = vec![0i16; 65_536];
    let t = DequantTable16::<i16, i16>::requantized_in(
        &mut b,
        Function::Sigmoid,
        1.0 / 4096.0,
        0,
        1.0 / 32768.0,
        0,
        Rounding::TiesAwayFromZero,
    )
    .unwrap();
    let bits: Box<[u16; 65_536]> = t
        .entries()
        .iter()
        .map(|&e| e as u16)
        .collect::<Vec<_>>()
        .into_boxed_slice()
        .try_into()
        .unwrap();
    kernel_harness::check_map::<[u16; 65_536]>(&[&*bits], &buf, 0xA5A5);
    // The typed map, for every output width.
    let values: Vec<i16> = buf.iter().map(|&c| c as i16).collect();
    for len in [0, 1, 7, 8, 9, 31, 64, 65, 300] {
        let mut out = vec![0i16; len];
        t.map(&values[..len], &mut out);
        let want: Vec<i16> = values[..len].iter().map(|&v| t.lookup(v)).collect();
        assert_eq!(out, want, "{len}");
    }
    check_typed::<f16>(&values);
    check_typed::<bf16>(&values);
    check_typed::<f32>(&values);
}

fn check_typed<Out: FloatOutput + Default + Clone + PartialEq + std::fmt::Debug>(values: &[i16]) {
    let mut b = vec![Out::default(); 65_536];
    let t = DequantTable16::<i16, Out>::new_in(&mut b, Function::Tanh, 0.001, 0).unwrap();
    let mut out = vec![Out::default(); values.len()];
    map(t.entries(), values, &mut out);
    for (o, &v) in out.iter().zip(values) {
        assert_eq!(*o, t.lookup(v));
    }
}

#[test]
#[should_panic(expected = "source slice length (3) does not match destination slice length (2)")]
fn map_with_different_lengths_panics_naming_both() {
    let mut b = vec![f16::ZERO; 65_536];
    let t =
        DequantTable16::<u16, f16>::new_in(&mut b, Op::from(Function::Identity), 1.0, 0).unwrap();
    t.map(&[1, 2, 3], &mut [f16::ZERO; 2]);
}

#[test]
fn bad_parameters_are_errors_naming_the_argument() {
    let mut b = vec![0f32; 65_536];
    for s in [0.0, -1.0, f32::NAN, f32::INFINITY] {
        let e = DequantTable16::<i16, f32>::new_in(&mut b, Op::from(Function::Identity), s, 0)
            .unwrap_err();
        assert!(
            matches!(
                e,
                QuantError::Scale {
                    parameter: "scale",
                    ..
                }
            ),
            "{e:?}"
        );
    }
    // Too small: 32768 · scale < 2^-126.
    let line = f32::MIN_POSITIVE / 32768.0;
    assert!(
        DequantTable16::<i16, f32>::new_in(&mut b, Op::from(Function::Identity), line, 0).is_ok()
    );
    let e = DequantTable16::<i16, f32>::new_in(&mut b, Op::from(Function::Identity), line / 2.0, 0)
        .unwrap_err();
    assert!(matches!(
        e,
        QuantError::ScaleTooSmall {
            parameter: "scale",
            distance: 32768,
            ..
        }
    ));
    assert!(e.to_string().contains("2^-126"), "{e}");
    for zp in [-32769, 32768] {
        let e = DequantTable16::<i16, f32>::new_in(&mut b, Op::from(Function::Identity), 1.0, zp)
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("zero_point = {zp} is outside i16 (-32768..=32767)")
        );
    }
    let e = DequantTable16::<u16, f32>::new_in(&mut b, Op::from(Function::Identity), 1.0, -1)
        .unwrap_err();
    assert_eq!(e.to_string(), "zero_point = -1 is outside u16 (0..=65535)");
    for len in [0, 65_535, 65_537] {
        let mut short = vec![0f32; len];
        let e =
            DequantTable16::<i16, f32>::new_in(&mut short, Op::from(Function::Identity), 1.0, 0)
                .unwrap_err();
        assert_eq!(
            e,
            QuantError::Length {
                parameter: "buffer",
                len,
                expected: 65_536
            }
        );
    }
    let mut b = vec![0i8; 65_536];
    let r = Rounding::TiesToEven;
    let e = DequantTable16::<i16, i8>::requantized_in(
        &mut b,
        Op::from(Function::Identity),
        1.0,
        0,
        1.0,
        128,
        r,
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "out_zero_point = 128 is outside i8 (-128..=127)"
    );
    let e = DequantTable16::<i16, i8>::requantized_in(
        &mut b,
        Op::from(Function::Identity),
        1.0,
        0,
        0.0,
        0,
        r,
    )
    .unwrap_err();
    assert!(matches!(
        e,
        QuantError::Scale {
            parameter: "out_scale",
            ..
        }
    ));
    let mut b = vec![0u16; 65_536];
    let e = DequantTable16::<i16, u16>::requantized_in(
        &mut b,
        Op::from(Function::Identity),
        1.0,
        0,
        1.0,
        65536,
        r,
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "out_zero_point = 65536 is outside u16 (0..=65535)"
    );
}

#[test]
fn nan_results_give_the_output_zero_point() {
    let mut b = vec![0i16; 65_536];
    let t = DequantTable16::<i16, i16>::requantized_in(
        &mut b,
        Function::Log,
        0.01,
        0,
        0.01,
        -77,
        Rounding::TiesAwayFromZero,
    )
    .unwrap();
    assert!((-32768..0).all(|q| t.lookup(q as i16) == -77));
    assert_eq!(t.lookup(0), -32768); // log(+0) = −inf saturates
}

#[cfg(feature = "alloc")]
#[test]
fn boxed_tables_equal_buffer_tables() {
    use actlut::quant16::BoxedDequantTable16;
    let r = Rounding::TiesAwayFromZero;
    let boxed = BoxedDequantTable16::<i16, u8>::requantized(
        Function::Sigmoid,
        1.0 / 4096.0,
        0,
        1.0 / 256.0,
        0,
        r,
    )
    .unwrap();
    let mut b = vec![0u8; 65_536];
    let t = DequantTable16::<i16, u8>::requantized_in(
        &mut b,
        Function::Sigmoid,
        1.0 / 4096.0,
        0,
        1.0 / 256.0,
        0,
        r,
    )
    .unwrap();
    assert_eq!(boxed.table().entries(), t.entries());
    let f = BoxedDequantTable16::<u16, bf16>::new(Function::Gelu, 0.01, 100).unwrap();
    assert_eq!(f.table().lookup(100), bf16::ZERO);
}

#[test]
fn spline_tables_equal_the_full_tables_on_every_code() {
    use actlut::quant16::{map_spline, SplineRef};
    use actlut_codegen::quant::{OutputType, Pipeline};
    for f in [Function::Sigmoid, Function::Tanh] {
        let out = OutputType::I16 {
            scale: 1.0 / 32768.0,
            zero_point: 0,
        };
        let p = Pipeline::new(f.into(), QuantType::I16, 1.0 / 4096.0, 0, out)
            .unwrap()
            .with_rounding(Rounding::TiesAwayFromZero);
        let stored = actlut_codegen::spline::pack_pipeline(&p).unwrap();
        assert!(stored.len() <= 8 * 1024);
        let spline = SplineRef::from_bytes(&stored).unwrap();
        let mut b = vec![0i16; 65_536];
        let full = DequantTable16::<i16, i16>::requantized_in(
            &mut b,
            f,
            1.0 / 4096.0,
            0,
            1.0 / 32768.0,
            0,
            Rounding::TiesAwayFromZero,
        )
        .unwrap();
        let codes: Vec<i16> = (0..=u16::MAX).map(|c| c as i16).collect();
        let mut out = vec![0i16; 65_536];
        map_spline(&spline, &codes, &mut out);
        assert_eq!(&out[..], &full.entries()[..], "{}", f.name());
        // Every available spline kernel on every length and offset (the harness).
        let mut rng = kernel_harness::Rng(0x5EED_5917);
        let buf: Vec<u16> = (0..kernel_harness::MAX_LEN + 64)
            .map(|_| rng.next() as u16)
            .collect();
        kernel_harness::check_map::<SplineRef<'_>>(&[&spline], &buf, 0xA5A5);
        kernel_harness::check_apply::<u16, SplineRef<'_>>(&[&spline], &buf);
    }
}

/// `actlut quant`'s output, committed: the TFLite 16x8 sigmoid (input scale 2^-12, output
/// scale 2^-15, zero points 0, ties away), full and spline forms. Regenerate with
/// `actlut quant sigmoid --in i16 --scale 2^-12 --zero-point 0 --out i16 --out-scale 2^-15
/// --rounding ties-away [--spline] --output tests/data/sigmoid_i16.{bin,spline}`; the CLI's
/// tests check that it writes these bytes.
static SIGMOID_FULL: actlut::quant16::LeTable16<'static, i16> =
    actlut::quant16::LeTable16::from_le_bytes(include_bytes!("data/sigmoid_i16.bin"));
static SIGMOID_SPLINE: actlut::quant16::SplineRef<'static> =
    match actlut::quant16::SplineRef::from_bytes(include_bytes!("data/sigmoid_i16.spline")) {
        Ok(s) => s,
        Err(_) => panic!("not a spline stored form"),
    };

#[test]
fn quant_output_loads_from_include_bytes_into_statics_in_both_forms() {
    let mut buf = vec![0i16; 65_536];
    let t = DequantTable16::<i16, i16>::requantized_in(
        &mut buf,
        Function::Sigmoid,
        1.0 / 4096.0,
        0,
        1.0 / 32768.0,
        0,
        Rounding::TiesAwayFromZero,
    )
    .unwrap();
    let codes: Vec<i16> = (0..=u16::MAX).map(|b| b as i16).collect();
    let (mut full, mut spline) = (vec![0i16; 65_536], vec![0i16; 65_536]);
    SIGMOID_FULL.map(&codes, &mut full);
    actlut::quant16::map_spline(&SIGMOID_SPLINE, &codes, &mut spline);
    for (i, &want) in t.entries().iter().enumerate() {
        assert_eq!(full[i], want, "full form, code bits {i:#06x}");
        assert_eq!(spline[i], want, "spline form, code bits {i:#06x}");
        assert_eq!(SIGMOID_FULL.lookup(i as u16 as i16), want);
    }
    // The views borrow the embedded bytes: no copy.
    assert_eq!(
        SIGMOID_FULL.as_bytes().as_ptr(),
        include_bytes!("data/sigmoid_i16.bin").as_ptr()
    );
}

#[test]
fn a_quant_file_of_the_wrong_length_or_width_is_refused() {
    use actlut::quant16::LeTable16;
    let bytes = include_bytes!("data/sigmoid_i16.bin");
    // The i16 file read as f32 entries (4 bytes each) or as u8 entries (1 byte each).
    for (len, expected, got) in [
        (
            bytes.len(),
            262_144,
            LeTable16::<f32>::try_from_le_bytes(bytes).map(|_| ()),
        ),
        (
            bytes.len(),
            65_536,
            LeTable16::<u8>::try_from_le_bytes(bytes).map(|_| ()),
        ),
        (
            131_071,
            131_072,
            LeTable16::<i16>::try_from_le_bytes(&bytes[1..]).map(|_| ()),
        ),
    ] {
        assert_eq!(
            got,
            Err(QuantError::Length {
                parameter: "bytes",
                len,
                expected
            })
        );
    }
}

/// The panicking constructor names the entry count (a `should_panic` test,
/// so that targets whose panics abort, such as wasm32-wasip1, skip it).
#[test]
#[should_panic(expected = "65,536 entries")]
fn a_quant_file_of_the_wrong_length_panics_in_the_const_constructor_naming_the_count() {
    let bytes = include_bytes!("data/sigmoid_i16.bin");
    let _ = actlut::quant16::LeTable16::<i16>::from_le_bytes(&bytes[..2]);
}
