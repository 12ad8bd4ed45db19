//! The spline stored form (`actlut_codegen::spline`): exact on every entry of every table it
//! packs (smooth quantized activations, saturating and NaN-producing ones, float outputs and
//! random tables, which become all exceptions), at most 8 KiB for the TFLite 16x8 sigmoid and
//! tanh, and bytes that are not a valid stored form are errors, never out-of-bounds reads.

use actlut_codegen::quant::{Op, OutputType, Pipeline, QuantType, Rounding};
use actlut_codegen::spline::{pack, pack_pipeline, SplineError, SplineRef};
use actlut_codegen::Function;

fn entries(p: &Pipeline) -> Vec<u16> {
    let mut e = vec![0u32; 65_536];
    p.fill(&mut e);
    e.into_iter().map(|x| x as u16).collect()
}

/// Packs, checks every entry, and returns (stored bytes, exceptions).
fn check(name: &str, p: &Pipeline) -> (usize, usize) {
    let stored = pack_pipeline(p).unwrap();
    let view = SplineRef::from_bytes(&stored).unwrap();
    for (i, want) in entries(p).into_iter().enumerate() {
        assert_eq!(view.get(i as u16), want, "{name} at {i:#06x}");
    }
    println!(
        "{name}: {} bytes, pages of {}, {} exceptions",
        stored.len(),
        1 << view.page_shift(),
        view.exceptions()
    );
    (stored.len(), view.exceptions())
}

fn tflite(f: Function, r: Rounding) -> Pipeline {
    let out = OutputType::I16 {
        scale: 1.0 / 32768.0,
        zero_point: 0,
    };
    Pipeline::new(f.into(), QuantType::I16, 1.0 / 4096.0, 0, out)
        .unwrap()
        .with_rounding(r)
}

#[test]
fn tflite_sigmoid_and_tanh_are_exact_in_at_most_8_kib() {
    // The sizes docs/quant16.md and the CHANGELOG give (the packer is deterministic).
    let want = [
        (Function::Sigmoid, Rounding::TiesToEven, 3_264, 41),
        (Function::Sigmoid, Rounding::TiesAwayFromZero, 3_240, 35),
        (Function::Tanh, Rounding::TiesToEven, 3_316, 54),
        (Function::Tanh, Rounding::TiesAwayFromZero, 3_340, 60),
    ];
    for (f, r, bytes, exceptions) in want {
        let got = check(
            &format!("{} i16 -> i16 ({})", f.name(), r.name()),
            &tflite(f, r),
        );
        assert!(
            got.0 <= 8 * 1024,
            "{} {}: {} bytes",
            f.name(),
            r.name(),
            got.0
        );
        assert_eq!(got, (bytes, exceptions), "{} {}", f.name(), r.name());
    }
}

#[test]
fn other_tables_are_exact_on_every_entry() {
    let cases = [
        (
            "gelu u16 -> u16",
            Pipeline::new(
                Function::Gelu.into(),
                QuantType::U16,
                0.001,
                32768,
                OutputType::U16 {
                    scale: 0.0005,
                    zero_point: 1234,
                },
            )
            .unwrap(),
        ),
        (
            "exp i16 -> u16 (saturating)",
            Pipeline::new(
                Function::Exp.into(),
                QuantType::I16,
                0.001,
                0,
                OutputType::U16 {
                    scale: 0.01,
                    zero_point: 7,
                },
            )
            .unwrap(),
        ),
        (
            "log i16 -> i16 (NaN below the zero point)",
            Pipeline::new(
                Function::Log.into(),
                QuantType::I16,
                0.01,
                -100,
                OutputType::I16 {
                    scale: 1.0 / 4096.0,
                    zero_point: 7,
                },
            )
            .unwrap(),
        ),
        (
            "identity i16 -> i16",
            Pipeline::new(
                Op::from(Function::Identity),
                QuantType::I16,
                1.0,
                0,
                OutputType::I16 {
                    scale: 3.0,
                    zero_point: 0,
                },
            )
            .unwrap(),
        ),
        (
            "hardswish i16 -> i16",
            Pipeline::new(
                Function::Hardswish.into(),
                QuantType::I16,
                1.0 / 1024.0,
                0,
                OutputType::I16 {
                    scale: 1.0 / 2048.0,
                    zero_point: 0,
                },
            )
            .unwrap()
            .with_rounding(Rounding::TiesAwayFromZero),
        ),
        (
            "gelu i16 -> f16 (knots from the table)",
            Pipeline::new(
                Function::Gelu.into(),
                QuantType::I16,
                0.001,
                0,
                OutputType::F16,
            )
            .unwrap(),
        ),
    ];
    // The sizes docs/quant16.md gives.
    let bytes = [3_248, 4_884, 7_056, 3_100, 6_916, 90_684];
    for ((name, p), want) in cases.iter().zip(bytes) {
        assert_eq!(check(name, p).0, want, "{name}");
    }
}

#[test]
fn a_random_table_is_exact_as_exceptions() {
    let mut s = 0x9E37_79B9_7F4A_7C15u64;
    let table: Vec<u16> = (0..65_536)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s as u16
        })
        .collect();
    let stored = pack(&table, true, false, 8, 14, None).unwrap();
    let view = SplineRef::from_bytes(&stored).unwrap();
    assert!(view.exceptions() > 65_000);
    for (i, &want) in table.iter().enumerate() {
        assert_eq!(view.get(i as u16), want, "{i:#06x}");
    }
}

#[test]
fn invalid_stored_forms_are_errors() {
    let good = pack_pipeline(&tflite(Function::Tanh, Rounding::TiesAwayFromZero)).unwrap();
    assert!(SplineRef::from_bytes(&good).is_ok());
    assert_eq!(
        SplineRef::from_bytes(&good[..10]).unwrap_err(),
        SplineError::Length
    );
    assert_eq!(
        SplineRef::from_bytes(&good[..good.len() - 1]).unwrap_err(),
        SplineError::Length
    );
    let with = |at: usize, v: u8| {
        let mut b = good.clone();
        b[at] = v;
        SplineRef::from_bytes(&b).map(|_| ())
    };
    assert_eq!(with(0, b'X'), Err(SplineError::Magic));
    assert_eq!(with(8, 3), Err(SplineError::Header));
    assert_eq!(with(8, 9), Err(SplineError::Header));
    assert_eq!(with(9, 17), Err(SplineError::Header));
    assert_eq!(with(10, 4), Err(SplineError::Header));
    assert_eq!(with(11, 1), Err(SplineError::Header));
    // Every single-byte change of the header, the offsets and the exceptions is rejected or
    // gives a table whose every entry decodes without panicking.
    let view = SplineRef::from_bytes(&good).unwrap();
    let pages = 65_536 >> view.page_shift();
    let offsets = 16 + 8 * (pages + 1);
    let positions: Vec<usize> = (0..16).chain(offsets..good.len()).step_by(3).collect();
    for at in positions {
        for v in [0u8, 1, 0x7F, 0xFF] {
            let mut b = good.clone();
            b[at] = v;
            if let Ok(t) = SplineRef::from_bytes(&b) {
                for i in (0..=u16::MAX).step_by(97) {
                    let _ = t.get(i);
                }
            }
        }
    }
}
