//! The `float8` crate's `F8E4M3` and `F8E5M2` against actlut (feature `float8`): the typed
//! entry points read the same tables as the raw-byte ones, and float8's own conversions are
//! compared with `actlut::fp8` and the committed ml_dtypes vectors, every disagreement
//! classified (docs/SEMANTICS.md lists them).
#![cfg(all(feature = "float8", feature = "fp8-e4m3", feature = "fp8-e5m2"))]

use actlut::{fp8, BuiltinTables, Float8Tables, Function};
use float8::{F8E4M3, F8E5M2};

mod vector_file;
use vector_file::vectors;

#[test]
fn typed_fp8_entry_points_read_the_fp8_tables_on_every_code() {
    for act in Function::ALL {
        let (Ok(e4), Ok(e5)) = (act.table_fp8_e4m3(), act.table_fp8_e5m2()) else {
            continue;
        };
        let xs4: Vec<F8E4M3> = (0..=255).map(F8E4M3::from_bits).collect();
        let xs5: Vec<F8E5M2> = (0..=255).map(F8E5M2::from_bits).collect();
        let mut ys4 = vec![F8E4M3::from_bits(0); 256];
        let mut ys5 = vec![F8E5M2::from_bits(0); 256];
        act.map_fp8_e4m3(&xs4, &mut ys4).unwrap();
        act.map_fp8_e5m2(&xs5, &mut ys5).unwrap();
        let mut in_place4 = xs4.clone();
        let mut in_place5 = xs5.clone();
        act.apply_fp8_e4m3(&mut in_place4).unwrap();
        act.apply_fp8_e5m2(&mut in_place5).unwrap();
        for c in 0..256 {
            let name = act.name();
            assert_eq!(ys4[c].to_bits(), e4[c], "{name} e4m3 {c:#04x}");
            assert_eq!(in_place4[c].to_bits(), e4[c], "{name} e4m3 {c:#04x}");
            assert_eq!(act.fp8_e4m3(xs4[c]).unwrap().to_bits(), e4[c]);
            assert_eq!(ys5[c].to_bits(), e5[c], "{name} e5m2 {c:#04x}");
            assert_eq!(in_place5[c].to_bits(), e5[c], "{name} e5m2 {c:#04x}");
            assert_eq!(act.fp8_e5m2(xs5[c]).unwrap().to_bits(), e5[c]);
        }
    }
}

#[test]
fn typed_map_with_mismatched_lengths_is_an_error_naming_both() {
    let xs = [F8E4M3::from_bits(0); 2];
    let mut ys = [F8E4M3::from_bits(7); 1];
    let err = Function::ALL[0].map_fp8_e4m3(&xs, &mut ys).unwrap_err();
    assert_eq!(
        err,
        actlut::MapError::LengthMismatch(actlut::LengthMismatch { src: 2, dst: 1 })
    );
    assert_eq!(ys[0].to_bits(), 7, "nothing written");
}

/// float8 widens every non-NaN code to the same value as actlut and ml_dtypes; its NaNs lose
/// their sign and payload (it returns the canonical f16 NaN 0x7FFF, widened).
#[test]
fn float8_widening_agrees_except_for_nan_sign_and_payload() {
    let e4 = vectors(include_str!("vectors/float8_e4m3fn_decode.txt"));
    let e5 = vectors(include_str!("vectors/float8_e5m2_decode.txt"));
    let mut nan_differences = 0;
    for (code, want) in e4 {
        let ours = fp8::e4m3_to_f32(code as u8);
        let theirs = F8E4M3::from_bits(code as u8).to_f32();
        if ours.is_nan() {
            assert!(theirs.is_nan() && f32::from_bits(want).is_nan());
            nan_differences += usize::from(theirs.to_bits() != ours.to_bits());
        } else {
            assert_eq!(theirs.to_bits(), ours.to_bits(), "e4m3 {code:#04x}");
            assert_eq!(ours.to_bits(), want, "e4m3 {code:#04x}");
        }
    }
    for (code, want) in e5 {
        let ours = fp8::e5m2_to_f32(code as u8);
        let theirs = F8E5M2::from_bits(code as u8).to_f32();
        if ours.is_nan() {
            assert!(theirs.is_nan() && f32::from_bits(want).is_nan());
            nan_differences += usize::from(theirs.to_bits() != ours.to_bits());
        } else {
            assert_eq!(theirs.to_bits(), ours.to_bits(), "e5m2 {code:#04x}");
        }
    }
    // e4m3: 0xFF (sign lost); e5m2: the 6 NaNs, each with a sign or payload float8 drops.
    assert!(nan_differences >= 1, "{nan_differences}");
}

/// How float8's narrowing (`from_f32`) differs from actlut's (= ml_dtypes'), per class.
#[derive(Debug, Default, PartialEq)]
struct Differences {
    /// |x| at or above the overflow threshold (464, 61440; ±inf included): float8 saturates to
    /// ±max, actlut gives NaN (E4M3) or ±inf (E5M2), as ml_dtypes and docs/SEMANTICS.md.
    saturated: usize,
}

fn compare_narrowing<F: Fn(f32) -> u8, G: Fn(f32) -> u8>(
    name: &str,
    max: f32,
    threshold: f32,
    ours: F,
    theirs: G,
    inputs: impl Iterator<Item = u32>,
    d: &mut Differences,
) {
    for bits in inputs {
        let x = f32::from_bits(bits);
        let (a, b) = (ours(x), theirs(x));
        if a == b {
            continue;
        }
        let sign = if x.is_sign_negative() { 0x80 } else { 0 };
        if x.abs() >= threshold && !x.is_nan() {
            // float8 saturates; the tie at the threshold goes to NaN/inf in actlut.
            assert_eq!(b & 0x7F, max_code(name), "{name} {x:e}: float8 {b:#04x}");
            assert_eq!(b & 0x80, sign);
            d.saturated += 1;
        } else {
            panic!("{name} {x:e} ({bits:#010x}): actlut {a:#04x}, float8 {b:#04x}, max {max}");
        }
    }
}

fn max_code(name: &str) -> u8 {
    if name == "e4m3" {
        0x7E
    } else {
        0x7B
    }
}

#[test]
fn float8_narrowing_differs_from_actlut_and_ml_dtypes_only_by_saturating() {
    let mut d4 = Differences::default();
    let mut d5 = Differences::default();
    // Every f32 high half with low halves 0, 1, 0x8000, 0xFFFF (every rounding class).
    let sweep = || {
        (0..=u16::MAX).flat_map(|hi| [0u32, 1, 0x8000, 0xFFFF].map(|lo| u32::from(hi) << 16 | lo))
    };
    let e4 = |x| F8E4M3::from_f32(x).to_bits();
    let e5 = |x| F8E5M2::from_f32(x).to_bits();
    compare_narrowing("e4m3", 448.0, 464.0, fp8::f32_to_e4m3, e4, sweep(), &mut d4);
    compare_narrowing(
        "e5m2",
        57344.0,
        61440.0,
        fp8::f32_to_e5m2,
        e5,
        sweep(),
        &mut d5,
    );
    // And the ml_dtypes vectors (actlut equals them: tests/tables/fp8_conversions.rs).
    let v4 = vectors(include_str!("vectors/float8_e4m3fn_from_f32.txt"));
    let v5 = vectors(include_str!("vectors/float8_e5m2_from_f32.txt"));
    compare_narrowing(
        "e4m3",
        448.0,
        464.0,
        fp8::f32_to_e4m3,
        e4,
        v4.iter().map(|v| v.0),
        &mut d4,
    );
    compare_narrowing(
        "e5m2",
        57344.0,
        61440.0,
        fp8::f32_to_e5m2,
        e5,
        v5.iter().map(|v| v.0),
        &mut d5,
    );
    println!("float8 vs actlut: e4m3 {d4:?}, e5m2 {d5:?}");
    assert!(d4.saturated > 0 && d5.saturated > 0);
    // The examples of docs/SEMANTICS.md: below the threshold both round to 448 (no double
    // rounding: float8 rounds once from the exact f64), at and above it they part.
    assert_eq!(F8E4M3::from_f32(463.9).to_bits(), 0x7E);
    assert_eq!(fp8::f32_to_e4m3(463.9), 0x7E);
    assert_eq!(F8E4M3::from_f32(464.0).to_bits(), 0x7E);
    assert_eq!(fp8::f32_to_e4m3(464.0), 0x7E); // the tie goes to even, 448
    assert_eq!(F8E4M3::from_f32(1e6).to_bits(), 0x7E);
    assert_eq!(fp8::f32_to_e4m3(1e6), 0x7F);
    assert_eq!(F8E5M2::from_f32(f32::INFINITY).to_bits(), 0x7B);
    assert_eq!(fp8::f32_to_e5m2(f32::INFINITY), 0x7C);
}
