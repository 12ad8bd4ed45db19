//! The requantization rounding as a parameter: ties to even (the default, ONNX) and ties away
//! from zero (TFLite, CMSIS-NN, ExecuTorch), on every code of 8- and 4-bit tables. Expected
//! values come from std's `f32::round` (half away from zero) and `f32::round_ties_even`,
//! applied to the `f32` quotient of stage 3, and from exact rational arithmetic for the
//! listed ties.

use actlut::quant::{
    DequantTable, Input, Op, PackedDequantTable, QuantOutput, QuantType, Rounding, I4, U4,
};
use actlut_codegen::Function;

/// Every op: every function with built-in tables (the identity among them), at its
/// default constants.
fn ops() -> Vec<Op> {
    Function::ALL
        .into_iter()
        .filter(|f| f.has_defaults())
        .map(Op::from)
        .collect()
}

/// Stage 3 written out with std's roundings: `saturate(round(y / s) + zp)`, NaN to `zp`.
fn std_requantize(y: f32, s: f32, zp: i32, ty: QuantType, away: bool) -> i32 {
    let v = y / s;
    if v.is_nan() {
        return zp;
    }
    let r = if away { v.round() } else { v.round_ties_even() };
    (r.clamp(-1e9, 1e9) as i64 + i64::from(zp)).clamp(i64::from(ty.min()), i64::from(ty.max()))
        as i32
}

/// Checks one (op, scale, zero point, out scale, out zero point) for input `In` and output
/// `Out` on every code: the default is ties to even; ties away is std's `round`; the two
/// differ only where the `f32` quotient is an exact tie. Returns the number of differing codes.
fn check<In: Input, Out: QuantOutput + Into<i32> + PartialEq + std::fmt::Debug>(
    op: Op,
    scale: f32,
    zp: i32,
    out_scale: f32,
    out_zp: i32,
    out_ty: QuantType,
) -> usize {
    let y = DequantTable::<In, f32>::new(op, scale, zp).unwrap();
    let default = DequantTable::<In, Out>::requantized(op, scale, zp, out_scale, out_zp).unwrap();
    let even = DequantTable::<In, Out>::requantized_with(
        op,
        scale,
        zp,
        out_scale,
        out_zp,
        Rounding::TiesToEven,
    )
    .unwrap();
    let away = DequantTable::<In, Out>::requantized_with(
        op,
        scale,
        zp,
        out_scale,
        out_zp,
        Rounding::TiesAwayFromZero,
    )
    .unwrap();
    assert_eq!(default.entries(), even.entries());
    let mut differing = 0;
    for (i, &yi) in y.entries().iter().enumerate() {
        let what = format!("{} {} code {i:#x}", op, In::TYPE.name());
        let e: i32 = even.entries()[i].into();
        let a: i32 = away.entries()[i].into();
        assert_eq!(
            e,
            std_requantize(yi, out_scale, out_zp, out_ty, false),
            "{what}"
        );
        assert_eq!(
            a,
            std_requantize(yi, out_scale, out_zp, out_ty, true),
            "{what}"
        );
        if e != a {
            let v = yi / out_scale;
            assert_eq!(v.abs().fract(), 0.5, "{what}: differs off a tie");
            differing += 1;
        }
    }
    differing
}

#[test]
fn ties_away_differs_from_the_default_only_at_exact_f32_ties_on_every_code() {
    let params = [
        (0.05f32, -3, 0.02f32, 0),
        (0.1, 0, 0.05, -128),
        (0.25, 0, 1.0 / 16.0, 0),
        (1.0, 0, 2.0, 0),
        (0.5, 5, 0.25, 10),
    ];
    let mut differing = 0;
    for op in ops() {
        for (s, zp, os, ozp) in params {
            differing += check::<i8, i8>(op, s, zp, os, ozp, QuantType::I8);
            differing += check::<i8, u8>(op, s, zp, os, ozp + 128, QuantType::U8);
            differing += check::<u8, u8>(op, s, zp + 128, os, ozp + 128, QuantType::U8);
            differing += check::<I4, i8>(op, s, zp.clamp(-8, 7), os, ozp, QuantType::I8);
            differing += check::<U4, u8>(op, s, zp.clamp(0, 15), os, ozp + 128, QuantType::U8);
        }
    }
    // The parameters above are chosen to produce ties (the identity halving, hardswish).
    assert!(differing > 100, "{differing}");
}

#[test]
fn ties_away_changes_exactly_the_listed_codes_of_identity_i8_halved() {
    // y = q, out_scale 2: q / 2 is a tie for every odd q; ties to even and away disagree when
    // the even neighbour is the one toward zero, q / 2 = ±(2m + 1/2), q = ±(4m + 1).
    let listed: Vec<i32> = (0..32).flat_map(|m| [-(4 * m + 1), 4 * m + 1]).collect();
    let even =
        DequantTable::<i8, i8>::requantized(Op::from(Function::Identity), 1.0, 0, 2.0, 0).unwrap();
    let away = DequantTable::<i8, i8>::requantized_with(
        Op::from(Function::Identity),
        1.0,
        0,
        2.0,
        0,
        Rounding::TiesAwayFromZero,
    )
    .unwrap();
    let mut differing: Vec<i32> = (-128..=127i32)
        .filter(|&q| even.lookup(q as i8) != away.lookup(q as i8))
        .collect();
    differing.sort_unstable();
    let mut listed_sorted = listed.clone();
    listed_sorted.sort_unstable();
    assert_eq!(differing, listed_sorted);
    assert_eq!((away.lookup(1), even.lookup(1)), (1, 0));
    assert_eq!((away.lookup(-5), even.lookup(-5)), (-3, -2));
}

#[test]
fn ties_away_changes_exactly_the_listed_codes_of_hardswish_i8() {
    // x = k/4, y = hardswish(x) = x(x + 3)/6 = k(k + 12)/96 on (−3, 3), out_scale 1/16:
    // y · 16 = k(k + 12)/6. When 3 ∤ k(k + 12) it has a fraction of 1/6, 1/3, 2/3 or 5/6 (and y
    // is inexact in f32, but nowhere near a tie); when 3 | k it is n/2 with n = k(k + 12)/3,
    // exact in f32, a tie when n is odd: k = −9, −3, 3, 9 (y · 16 = −4.5, −4.5, 7.5, 31.5).
    // Outside (−3, 3) y is 0 or x, and y · 16 = 4k is an integer.
    let ties: Vec<i32> = (-11..=11)
        .filter(|k| (k * (k + 12)) % 3 == 0 && ((k * (k + 12)) / 3) % 2 != 0)
        .collect();
    assert_eq!(ties, [-9, -3, 3, 9]);
    // Ties to even and away agree at 7.5 (→ 8) and 31.5 (→ 32), disagree at −4.5 (−4, −5).
    let op = Op::from(Function::Hardswish);
    let even = DequantTable::<i8, i8>::requantized(op, 0.25, 0, 1.0 / 16.0, 0).unwrap();
    let away = DequantTable::<i8, i8>::requantized_with(
        op,
        0.25,
        0,
        1.0 / 16.0,
        0,
        Rounding::TiesAwayFromZero,
    )
    .unwrap();
    let differing: Vec<i32> = (-128..=127i32)
        .filter(|&q| even.lookup(q as i8) != away.lookup(q as i8))
        .collect();
    assert_eq!(differing, [-9, -3]);
    assert_eq!([even.lookup(-9), away.lookup(-9)], [-4, -5]);
    assert_eq!([even.lookup(3), away.lookup(3)], [8, 8]);
    assert_eq!([even.lookup(9), away.lookup(9)], [32, 32]);
}

#[test]
fn packed_tables_take_the_rounding_too() {
    let away = PackedDequantTable::<U4, u8>::requantized_with(
        Op::from(Function::Identity),
        1.0,
        0,
        2.0,
        0,
        Rounding::TiesAwayFromZero,
    )
    .unwrap();
    let even =
        PackedDequantTable::<U4, u8>::requantized(Op::from(Function::Identity), 1.0, 0, 2.0, 0)
            .unwrap();
    for b in 0..=255u8 {
        let half_up = |n: u8| n.div_ceil(2); // n / 2 rounded half up = away for n ≥ 0
        assert_eq!(
            away.lookup(b),
            [half_up(b & 0xF), half_up(b >> 4)],
            "{b:#04x}"
        );
        let even_of = |n: u8| (f32::from(n) / 2.0).round_ties_even() as u8;
        assert_eq!(
            even.lookup(b),
            [even_of(b & 0xF), even_of(b >> 4)],
            "{b:#04x}"
        );
    }
}

#[test]
fn rounding_names_parse_and_unknown_ones_do_not() {
    assert_eq!(Rounding::default(), Rounding::TiesToEven);
    for r in Rounding::ALL {
        assert_eq!(Rounding::from_name(r.name()), Some(r));
    }
    for bad in ["", "even", "nearest", "ties-to-even", "TIES_AWAY"] {
        assert_eq!(Rounding::from_name(bad), None, "{bad}");
    }
}

#[cfg(feature = "macros")]
#[test]
fn the_macro_takes_the_rounding_and_agrees_with_the_run_time_table() {
    actlut::dequant_table!(static AWAY: i8 -> i8 = hardswish, scale = 0.25, zero_point = 0,
        out_scale = 0.0625, out_zero_point = 0, rounding = ties_away);
    actlut::dequant_table!(static EVEN: i8 -> i8 = hardswish, scale = 0.25, zero_point = 0,
        out_scale = 0.0625, out_zero_point = 0, rounding = ties_even);
    let op = Op::from(Function::Hardswish);
    let run_time =
        |r| DequantTable::<i8, i8>::requantized_with(op, 0.25, 0, 1.0 / 16.0, 0, r).unwrap();
    assert_eq!(
        AWAY.entries(),
        run_time(Rounding::TiesAwayFromZero).entries()
    );
    assert_eq!(EVEN.entries(), run_time(Rounding::TiesToEven).entries());
    assert_eq!([EVEN.lookup(-9), AWAY.lookup(-9)], [-4, -5]);
}
