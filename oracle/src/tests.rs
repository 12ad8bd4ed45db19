//! Tests of the oracle itself: decoder, both roundings on hand-checked values, exhaustive
//! round trips and ties, and the MPFR formulas against plain f64 ones away from boundaries.

use super::*;

const MARGIN: u32 = BASE_PREC - GUARD_BITS;

/// num/den · 2^shift as an exact rational.
fn q(num: i64, den: u64, shift: i32) -> Rational {
    let mut r = Rational::from((num, den));
    if shift >= 0 {
        r <<= shift as u32;
    } else {
        r >>= shift.unsigned_abs();
    }
    r
}

/// The value of a rational at BASE_PREC bits (exact for the dyadic values used here).
fn fl(r: &Rational) -> Float {
    Float::with_val(BASE_PREC, r)
}

/// Asserts both roundings give `bits` for `r`, and returns (near, tie).
fn check(fmt: Fmt, r: Rational, bits: u32) -> (bool, bool) {
    let rf = round_float(fmt, &fl(&r), MARGIN);
    let (rb, tie) = round_rational(fmt, &r);
    assert_eq!(
        rf.bits,
        bits,
        "round_float {} of {r}: {:#06x} != {bits:#06x}",
        fmt.name(),
        rf.bits
    );
    assert_eq!(
        rb,
        bits,
        "round_rational {} of {r}: {rb:#06x} != {bits:#06x}",
        fmt.name()
    );
    (rf.near_midpoint, tie)
}

#[test]
fn decoder_reads_hand_checked_patterns() {
    use Decoded::*;
    let fin = |negative, significand, exponent| Finite {
        negative,
        significand,
        exponent,
    };
    assert_eq!(decode(Fmt::F16, 0x3C00_u32), fin(false, 1024, -10)); // 1
    assert_eq!(decode(Fmt::F16, 0xC000_u32), fin(true, 1024, -9)); // -2
    assert_eq!(decode(Fmt::F16, 0x0001_u32), fin(false, 1, -24)); // 2^-24
    assert_eq!(decode(Fmt::F16, 0x03FF_u32), fin(false, 1023, -24)); // largest subnormal
    assert_eq!(decode(Fmt::F16, 0x0400_u32), fin(false, 1024, -24)); // 2^-14
    assert_eq!(decode(Fmt::F16, 0x7BFF_u32), fin(false, 2047, 5)); // 65504
    assert_eq!(decode(Fmt::F16, 0x7C00_u32), Inf { negative: false });
    assert_eq!(decode(Fmt::F16, 0xFC00_u32), Inf { negative: true });
    assert_eq!(decode(Fmt::F16, 0xFC01_u32), Nan);
    assert_eq!(decode(Fmt::F16, 0x7E00_u32), Nan);
    assert_eq!(decode(Fmt::F16, 0x8000_u32), Zero { negative: true });
    assert_eq!(decode(Fmt::Bf16, 0x3F80_u32), fin(false, 128, -7)); // 1
    assert_eq!(decode(Fmt::Bf16, 0x0001_u32), fin(false, 1, -133)); // 2^-133
    assert_eq!(decode(Fmt::Bf16, 0x0080_u32), fin(false, 128, -133)); // 2^-126
    assert_eq!(decode(Fmt::Bf16, 0x7F7F_u32), fin(false, 255, 120)); // ≈ 3.39e38
    assert_eq!(decode(Fmt::Bf16, 0xFF80_u32), Inf { negative: true });
    assert_eq!(decode(Fmt::Bf16, 0x7FC0_u32), Nan);
    assert_eq!(decode(Fmt::Bf16, 0xFF81_u32), Nan);
    assert_eq!(Fmt::F16.default_nan(), 0x7E00);
    assert_eq!(Fmt::Bf16.default_nan(), 0x7FC0);
    assert_eq!(Fmt::F16.quiet_bit(), 0x0200);
    assert_eq!(Fmt::Bf16.quiet_bit(), 0x0040);
    assert_eq!(Fmt::F16.inf_bits(), Some(0x7C00));
    assert_eq!(Fmt::Bf16.inf_bits(), Some(0x7F80));
}

#[test]
fn fp8_decoder_reads_hand_checked_patterns() {
    use Decoded::*;
    let fin = |negative, significand, exponent| Finite {
        negative,
        significand,
        exponent,
    };
    let e4 = Fmt::Fp8E4M3;
    assert_eq!(decode(e4, 0x38_u32), fin(false, 8, -3)); // 1
    assert_eq!(decode(e4, 0x01_u32), fin(false, 1, -9)); // 2^-9
    assert_eq!(decode(e4, 0x07_u32), fin(false, 7, -9)); // largest subnormal
    assert_eq!(decode(e4, 0x08_u32), fin(false, 8, -9)); // 2^-6
    assert_eq!(decode(e4, 0x78_u32), fin(false, 8, 5)); // 256: no infinity in E4M3
    assert_eq!(decode(e4, 0x7E_u32), fin(false, 14, 5)); // 448
    assert_eq!(decode(e4, 0xFE_u32), fin(true, 14, 5)); // -448
    assert_eq!(decode(e4, 0x7F_u32), Nan);
    assert_eq!(decode(e4, 0xFF_u32), Nan);
    assert_eq!(decode(e4, 0x80_u32), Zero { negative: true });
    let e5 = Fmt::Fp8E5M2;
    assert_eq!(decode(e5, 0x3C_u32), fin(false, 4, -2)); // 1
    assert_eq!(decode(e5, 0x01_u32), fin(false, 1, -16)); // 2^-16
    assert_eq!(decode(e5, 0x7B_u32), fin(false, 7, 13)); // 57344
    assert_eq!(decode(e5, 0x7C_u32), Inf { negative: false });
    assert_eq!(decode(e5, 0xFC_u32), Inf { negative: true });
    for nan in [0x7D_u32, 0x7E, 0x7F, 0xFD, 0xFE, 0xFF] {
        assert_eq!(decode(e5, nan), Nan, "{nan:#04x}");
    }
    let nans = |fmt: Fmt| {
        (0..fmt.entries() as u32)
            .filter(|&b| decode(fmt, b) == Nan)
            .count()
    };
    assert_eq!(nans(e4), 2);
    assert_eq!(nans(e5), 6);
    assert_eq!(e4.default_nan(), 0x7F);
    assert_eq!(e5.default_nan(), 0x7E);
    assert_eq!(e4.quiet_bit(), 0);
    assert_eq!(e5.quiet_bit(), 0x02);
    assert_eq!(e4.inf_bits(), None);
    assert_eq!(e5.inf_bits(), Some(0x7C));
    assert_eq!(e4.max_finite(), 0x7E);
    assert_eq!(e5.max_finite(), 0x7B);
    assert_eq!(Fmt::F32.max_finite(), f32::MAX.to_bits());
    assert_eq!(Fmt::F32.default_nan(), f32::NAN.to_bits());
    assert_eq!(Fmt::F32.qmin(), -149);
}

#[test]
fn fp8_rounding_matches_hand_checked_values() {
    let e4 = Fmt::Fp8E4M3;
    // Overflow without infinities: (448, 464) rounds down to 448, 464 is the tie between 448
    // (even significand 14) and 480 (15, unbounded exponent): 448. Above it NaN, signed.
    check(e4, q(448, 1, 0), 0x7E);
    check(e4, q(4639, 10, 0), 0x7E);
    assert_eq!(check(e4, q(464, 1, 0), 0x7E), (true, true));
    check(e4, q(-464, 1, 0), 0xFE);
    check(e4, q(464, 1, 0) + q(1, 1, -100), 0x7F);
    check(e4, q(-464, 1, 0) - q(1, 1, -100), 0xFF);
    check(e4, q(480, 1, 0), 0x7F);
    check(e4, q(1, 1, 40), 0x7F);
    let inf = Float::with_val(53, f64::INFINITY);
    assert_eq!(round_float(e4, &inf, MARGIN).bits, 0x7F);
    assert_eq!(round_float(e4, &-inf, MARGIN).bits, 0xFF);
    // 256..448 are ordinary values (the top binade), with quantum 32: 272 ties to 256.
    assert_eq!(check(e4, q(272, 1, 0), 0x78), (true, true));
    assert_eq!(check(e4, q(304, 1, 0), 0x7A), (true, true));
    // Subnormals: quantum 2^-9; 2^-10 ties to +0, 3·2^-10 ties to 2·2^-9.
    assert_eq!(check(e4, q(1, 1, -10), 0x00), (true, true));
    check(e4, q(-1, 1, -10), 0x80);
    check(e4, q(1, 1, -10) + q(1, 1, -200), 0x01);
    assert_eq!(check(e4, q(3, 1, -10), 0x02), (true, true));
    check(e4, q(15, 1, -10), 0x08); // midpoint of 0x07 and 0x08: even 0x08
    check(e4, q(1, 3, 0), 0x2B); // 0.34375 (0.3125 is 0x2A)
    check(e4, q(-1, 10, 0), 0x9D); // -0.1015625
    let e5 = Fmt::Fp8E5M2;
    check(e5, q(57344, 1, 0), 0x7B);
    assert_eq!(check(e5, q(61440, 1, 0), 0x7C), (true, true)); // tie: even is inf
    check(e5, q(61439, 1, 0), 0x7B);
    check(e5, q(-61440, 1, 0), 0xFC);
    assert_eq!(check(e5, q(1, 1, -17), 0x00), (true, true));
    check(e5, q(3, 1, -17), 0x02);
    check(e5, q(1, 3, 0), 0x35); // 0.3125
    check(e5, q(1, 10, 0), 0x2E); // 0.09375
                                  // f32: the overflow threshold (2^128 - 2^103) ties to even, inf.
    let f = Fmt::F32;
    check(f, q(1, 1, 128) - q(1, 1, 104), f32::MAX.to_bits());
    assert_eq!(
        check(f, q(1, 1, 128) - q(1, 1, 103), 0x7F80_0000),
        (true, true)
    );
    check(f, q(1, 1, -149), 1);
    assert_eq!(check(f, q(1, 1, -150), 0), (true, true));
    check(f, q(-3, 1, -150), 0x8000_0002);
    check(f, q(1, 3, 0), (1.0f32 / 3.0).to_bits());
    check(f, q(1, 10, 0), 0.1f32.to_bits());
}

#[test]
fn fp8_special_inputs_follow_the_semantics() {
    let r = |a, f, b: u32| reference(a, f, b).bits;
    use Act::*;
    use Fmt::*;
    // NaN in: E4M3 keeps its one NaN per sign; E5M2 quiets with | 0x02.
    assert_eq!(r(Gelu, Fp8E4M3, 0x7F), 0x7F);
    assert_eq!(r(Exp, Fp8E4M3, 0xFF), 0xFF);
    assert_eq!(r(Gelu, Fp8E5M2, 0x7D), 0x7F);
    assert_eq!(r(Exp, Fp8E5M2, 0xFD), 0xFF);
    assert_eq!(r(Exp, Fp8E5M2, 0xFE), 0xFE);
    // Domain errors: the positive default NaN.
    assert_eq!(r(Log, Fp8E4M3, 0xB8), 0x7F);
    assert_eq!(r(Rsqrt, Fp8E5M2, 0x81), 0x7E);
    assert_eq!(r(Log, Fp8E5M2, 0xFC), 0x7E);
    // Infinite results: ±inf in E5M2, NaN with the infinity's sign in E4M3.
    assert_eq!(r(Log, Fp8E4M3, 0x00), 0xFF);
    assert_eq!(r(Log, Fp8E4M3, 0x80), 0xFF);
    assert_eq!(r(Rsqrt, Fp8E4M3, 0x00), 0x7F);
    assert_eq!(r(Rsqrt, Fp8E4M3, 0x80), 0xFF);
    assert_eq!(r(Log, Fp8E5M2, 0x80), 0xFC);
    assert_eq!(r(Rsqrt, Fp8E5M2, 0x00), 0x7C);
    // Overflow: exp(448) is NaN in E4M3 and inf in E5M2 (exp(16) ≈ 8.9e6 > 57344).
    assert_eq!(r(Exp, Fp8E4M3, 0x7E), 0x7F);
    assert_eq!(r(Exp, Fp8E5M2, 0x4C), 0x7C);
    // E4M3 exp(6) = 403.4 → 416 (0x7D; the midpoint is 400); exp(6.5) = 665 → NaN.
    assert_eq!(r(Exp, Fp8E4M3, 0x4C), 0x7D);
    assert_eq!(r(Exp, Fp8E4M3, 0x4D), 0x7F);
    // Limits in E5M2.
    assert_eq!(r(Gelu, Fp8E5M2, 0xFC), 0x80);
    assert_eq!(r(Tanh, Fp8E5M2, 0xFC), 0xBC);
    assert_eq!(r(Exp, Fp8E5M2, 0x7C), 0x7C);
    // Zeros and exact zeros.
    assert_eq!(r(Gelu, Fp8E4M3, 0x80), 0x80);
    assert_eq!(r(Sigmoid, Fp8E4M3, 0x80), 0x30); // 0.5
    assert_eq!(r(Hardswish, Fp8E4M3, 0xC4), 0x80); // x = -3
    assert_eq!(r(Log, Fp8E4M3, 0x38), 0x00); // ln 1
}

#[test]
fn f16_rounding_matches_hand_checked_values() {
    let f = Fmt::F16;
    // Overflow: 65504 is the max; 65520 is the midpoint to 65536 (unbounded): even is inf.
    check(f, q(6551999, 100, 0), 0x7BFF); // 65519.99
    check(f, q(65504, 1, 0), 0x7BFF);
    assert_eq!(check(f, q(65520, 1, 0), 0x7C00), (true, true));
    check(f, q(-65520, 1, 0), 0xFC00);
    check(f, q(10_000_000_000, 1, 0), 0x7C00);
    // Subnormals: 2^-25 is half the smallest subnormal: a tie, to even 0.
    assert_eq!(check(f, q(1, 1, -25), 0x0000), (true, true));
    check(f, q(-1, 1, -25), 0x8000);
    check(f, q(1, 1, -25) + q(1, 1, -200), 0x0001);
    check(f, q(1, 1, -24), 0x0001);
    assert_eq!(check(f, q(3, 1, -25), 0x0002), (true, true)); // 1.5·2^-24: tie to even 2
    check(f, q(5, 1, -25), 0x0002); // 2.5·2^-24
    check(f, q(7, 1, -25), 0x0004); // 3.5·2^-24
    check(f, q(1, 1, -14), 0x0400);
    check(f, q(2047, 1, -25), 0x0400); // midpoint of 0x03FF and 0x0400
    check(f, q(1, 10_000_000_000, 0), 0x0000);
    check(f, q(-1, 10_000_000_000, 0), 0x8000);
    // Normal ties.
    check(f, q(1, 1, 0), 0x3C00);
    assert_eq!(check(f, q(2049, 1, -11), 0x3C00), (true, true)); // 1 + 2^-11
    check(f, q(2051, 1, -11), 0x3C02); // 1 + 3·2^-11
    check(f, q(2049, 1, -11) + q(1, 1, -60), 0x3C01);
    check(f, q(2049, 1, -11) - q(1, 1, -60), 0x3C00);
    check(f, q(2049, 1, 0), 0x6800); // 2049: tie 2048 / 2050
    check(f, q(2051, 1, 0), 0x6802); // 2051: tie 2050 / 2052
                                     // Ordinary values.
    check(f, q(1, 3, 0), 0x3555);
    check(f, q(-1, 3, 0), 0xB555);
    check(f, q(1, 10, 0), 0x2E66);
    assert_eq!(
        round_float(f, &Float::with_val(200, Constant::Pi), 190).bits,
        0x4248
    );
    assert_eq!(
        round_float(f, &Float::with_val(200, Constant::Log2), 190).bits,
        0x398C
    );
    // Zeros and infinities keep their sign.
    let inf = Float::with_val(53, f64::INFINITY);
    assert_eq!(round_float(f, &inf, MARGIN).bits, 0x7C00);
    assert_eq!(round_float(f, &-inf, MARGIN).bits, 0xFC00);
    assert_eq!(
        round_float(f, &Float::with_val(53, -0.0), MARGIN).bits,
        0x8000
    );
}

#[test]
fn bf16_rounding_matches_hand_checked_values() {
    let f = Fmt::Bf16;
    check(f, q(1, 1, 0), 0x3F80);
    assert_eq!(check(f, q(257, 1, -8), 0x3F80), (true, true)); // 1 + 2^-8: tie to even
    check(f, q(259, 1, -8), 0x3F82); // 1 + 3·2^-8: tie to even (up)
    check(f, q(257, 1, -8) + q(1, 1, -100), 0x3F81);
    // Overflow: max is (2 - 2^-7)·2^127; the midpoint (2 - 2^-8)·2^127 goes to inf.
    check(f, q(255, 1, 120), 0x7F7F);
    assert_eq!(check(f, q(511, 1, 119), 0x7F80), (true, true));
    check(f, q(511, 1, 119) - q(1, 1, 0), 0x7F7F);
    check(f, q(-511, 1, 119), 0xFF80);
    // Subnormals: the smallest is 2^-133.
    check(f, q(1, 1, -133), 0x0001);
    assert_eq!(check(f, q(1, 1, -134), 0x0000), (true, true));
    check(f, q(-1, 1, -134), 0x8000);
    check(f, q(3, 1, -134), 0x0002);
    check(f, q(1, 1, -134) + q(1, 1, -300), 0x0001);
    check(f, q(1, 1, -126), 0x0080);
    check(f, q(255, 1, -134), 0x0080); // midpoint of 0x007F and 0x0080
                                       // Ordinary values.
    check(f, q(1, 3, 0), 0x3EAB);
    check(f, q(1, 10, 0), 0x3DCD);
    assert_eq!(
        round_float(f, &Float::with_val(200, Constant::Pi), 190).bits,
        0x4049
    );
    assert_eq!(
        round_float(f, &Float::with_val(200, Constant::Log2), 190).bits,
        0x3F31
    );
}

#[test]
fn near_midpoint_flag_follows_the_margin() {
    let at = |extra_shift: i32| {
        let v = fl(&(q(2049, 1, -11) + q(1, 1, extra_shift)));
        round_float(Fmt::F16, &v, MARGIN).near_midpoint
    };
    assert!(!at(-100));
    assert!(!at(-200));
    assert!(at(-240));
    assert!(!round_float(Fmt::F16, &fl(&q(1, 3, 0)), MARGIN).near_midpoint);
}

#[test]
fn every_value_rounds_to_itself() {
    for fmt in Fmt::ALL {
        for bits in 0..fmt.entries() as u32 {
            let v = match decode(fmt, bits) {
                Decoded::Nan => continue,
                Decoded::Inf { negative } => Float::with_val(
                    53,
                    if negative {
                        f64::NEG_INFINITY
                    } else {
                        f64::INFINITY
                    },
                ),
                Decoded::Zero { negative } => {
                    Float::with_val(53, if negative { -0.0 } else { 0.0 })
                }
                Decoded::Finite {
                    negative,
                    significand,
                    exponent,
                } => {
                    let r = finite_to_rational(negative, significand, exponent);
                    assert_eq!(
                        round_rational(fmt, &r),
                        (bits, false),
                        "{} {bits:#06x}",
                        fmt.name()
                    );
                    finite_to_float(negative, significand, exponent, 64)
                }
            };
            let r = round_float(fmt, &v, 50);
            assert_eq!(
                r,
                Rounded {
                    bits,
                    near_midpoint: false
                },
                "{} {bits:#06x}",
                fmt.name()
            );
        }
    }
}

#[test]
fn every_midpoint_rounds_to_even() {
    for fmt in Fmt::ALL {
        // A saturating format's top "midpoint" is no boundary: checked in
        // fp6_fp4_round_and_saturate_by_hand.
        let top = fmt.max_finite() - u32::from(fmt.saturates());
        for lo in 0..=top {
            // Midpoint between lo and lo + 1. Above the max finite, lo + 1 stands for the next
            // value with unbounded exponent: 2^(emax+1) for IEEE formats (inf), 480 for E4M3
            // (the NaN pattern S.1111.111).
            let value = |b: u32| match decode(fmt, b) {
                Decoded::Finite {
                    negative,
                    significand,
                    exponent,
                } => finite_to_rational(negative, significand, exponent),
                Decoded::Zero { .. } => Rational::new(),
                Decoded::Inf { .. } | Decoded::Nan => {
                    assert_eq!(b, fmt.overflow_bits());
                    let Decoded::Finite {
                        significand,
                        exponent,
                        ..
                    } = decode(fmt, fmt.max_finite())
                    else {
                        unreachable!()
                    };
                    finite_to_rational(false, significand + 1, exponent)
                }
            };
            let mid = (value(lo) + value(lo + 1)) / 2u32;
            // Without a fraction bit (E8M0) both neighbours have significand 1: the tie goes
            // to the even multiple of the lower one's quantum, the upper one.
            let even = if lo % 2 == 0 && fmt.fraction_bits() > 0 {
                lo
            } else {
                lo + 1
            };
            let (bits, tie) = round_rational(fmt, &mid);
            assert_eq!(
                (bits, tie),
                (even, true),
                "{} midpoint above {lo:#06x}",
                fmt.name()
            );
            let r = round_float(fmt, &fl(&mid), MARGIN);
            assert_eq!(
                r,
                Rounded {
                    bits: even,
                    near_midpoint: true
                },
                "{} {lo:#06x}",
                fmt.name()
            );
            let neg = round_rational(fmt, &-mid).0;
            let want = if !fmt.is_signed() {
                fmt.default_nan() // no negative value in an unsigned format
            } else if even == 0 {
                fmt.zero(true)
            } else if fmt.is_fnuz() && even == fmt.overflow_bits() {
                even // the one NaN, unsigned
            } else {
                even | fmt.sign_bit()
            };
            assert_eq!(neg, want, "{} -midpoint above {lo:#06x}", fmt.name());
        }
    }
}

/// The formats ml_dtypes names (float8_e3m4, float8_e4m3, float8_e4m3b11fnuz,
/// float8_e5m3fnu, float8_e8m0fnu), decoded and rounded by hand from their definitions.
#[test]
fn ml_dtypes_formats_decode_and_round_by_hand() {
    use Decoded::*;
    let fin = |negative, significand, exponent| Finite {
        negative,
        significand,
        exponent,
    };
    // E3M4: bias 3, 4 fraction bits; 0x70 inf, 0x71..=0x7F NaN.
    let f = Fmt::Fp8E3M4;
    assert_eq!(decode(f, 0x30_u32), fin(false, 16, -4)); // 1
    assert_eq!(decode(f, 0x6F_u32), fin(false, 31, -1)); // 15.5
    assert_eq!(decode(f, 0x01_u32), fin(false, 1, -6)); // 2^-6
    assert_eq!(decode(f, 0xF0_u32), Inf { negative: true });
    assert_eq!(decode(f, 0x71_u32), Nan);
    assert_eq!((f.default_nan(), f.quiet_bit()), (0x78, 0x08));
    assert!(check(f, q(63, 4, 0), 0x70).1); // 15.75: tie above 15.5 (odd): inf
                                            // The IEEE-like E4M3: bias 7; 0x78 inf, max 240.
    let f = Fmt::Fp8E4M3Ieee;
    assert_eq!(decode(f, 0x77_u32), fin(false, 15, 4)); // 240
    assert_eq!(decode(f, 0x78_u32), Inf { negative: false });
    assert_eq!(decode(f, 0x7F_u32), Nan);
    assert_eq!(
        (f.default_nan(), f.quiet_bit(), f.max_finite()),
        (0x7C, 0x04, 0x77)
    );
    check(f, q(-248, 1, 0), 0xF8); // the tie above −240: −inf
                                   // E4M3 B11 fnuz: bias 11, max 30 = 0x7F, 0x80 the NaN.
    let f = Fmt::Fp8E4M3B11Fnuz;
    assert_eq!(f.bias(), 11);
    assert_eq!(decode(f, 0x7F_u32), fin(false, 15, 1)); // 30
    assert_eq!(decode(f, 0x08_u32), fin(false, 8, -13)); // 2^-10
    assert_eq!(decode(f, 0x80_u32), Nan);
    check(f, q(31, 1, 0), 0x80); // tie above 30 (odd): the NaN
    check(f, q(-1, 1, -20), 0x00); // no −0
                                   // E5M3 FNU: no sign, bias 15; 0xFE = 114688, 0xFF NaN; negatives are NaN.
    let f = Fmt::Fp8E5M3Fnu;
    assert_eq!((f.exponent_bits(), f.bias(), f.sign_bit()), (5, 15, 0));
    assert_eq!(decode(f, 0x78_u32), fin(false, 8, -3)); // 1
    assert_eq!(decode(f, 0x80_u32), fin(false, 8, -2)); // 2: the top bit is an exponent bit
    assert_eq!(decode(f, 0xFE_u32), fin(false, 14, 13)); // 114688
    assert_eq!(decode(f, 0xFF_u32), Nan);
    assert_eq!(decode(f, 0x00_u32), Zero { negative: false });
    check(f, q(118784, 1, 0), 0xFE); // the tie above max (even): max
    assert_eq!(round_rational(f, &q(118785, 1, 0)).0, 0xFF);
    assert_eq!(round_rational(f, &q(-1, 1, -30)).0, 0xFF);
    assert_eq!(round_float(f, &fl(&q(-1, 1, -30)), MARGIN).bits, 0xFF);
    assert_eq!(
        (f.zero(true), f.overflow(false), f.overflow(true)),
        (0, 0xFF, 0xFF)
    );
    // E8M0 FNU: 2^(code − 127), 0xFF NaN; no zero.
    let f = Fmt::Fp8E8M0Fnu;
    assert_eq!(
        (f.exponent_bits(), f.bias(), f.emin(), f.qmin()),
        (8, 127, -127, -127)
    );
    for code in 0..255u32 {
        assert_eq!(decode(f, code), fin(false, 1, code as i32 - 127));
    }
    assert_eq!(decode(f, 0xFF_u32), Nan);
    assert_eq!(f.zero(false), 0xFF);
    check(f, q(3, 1, 0), 0x81); // 3: a tie between 2 and 4, up
    check(f, q(3, 1, -128), 0x01); // 1.5·2^-127: a tie between 2^-127 and 2^-126, up
    check(f, q(1, 1, -200), 0x00); // below 2^-127: the smallest value is the nearest
    check(f, q(149, 100, 127), 0xFE); // 1.49·2^127: max
    check(f, q(3, 1, 126), 0xFF); // 1.5·2^127: the tie above max, the NaN
    check(f, q(-1, 1, 0), 0xFF); // no negative value
    assert_eq!(round_rational(f, &Rational::new()), (0xFF, false)); // no zero
}

#[test]
fn float_and_rational_roundings_agree_off_midpoints() {
    for fmt in Fmt::ALL {
        let emin = fmt.qmin() - 4;
        let emax = fmt.bias() + 3;
        for k in (1..4000i64).step_by(7) {
            for shift in (emin..=emax).step_by(3) {
                for den in [3u64, 7, 641] {
                    if k % den as i64 == 0 {
                        continue; // dyadic
                    }
                    let r = q(k, den, shift - 12);
                    let a = round_float(fmt, &fl(&r), MARGIN);
                    let (b, tie) = round_rational(fmt, &r);
                    assert!(!tie && !a.near_midpoint, "{r}");
                    assert_eq!(a.bits, b, "{} {r}", fmt.name());
                }
            }
        }
    }
}

#[test]
fn selu_constants_are_the_exact_decimals() {
    let l = decimal_rational(SELU_LAMBDA);
    assert_eq!(
        l,
        Rational::from((
            "10507009873554804934193349852946"
                .parse::<Integer>()
                .unwrap(),
            Integer::from(Integer::u_pow_u(10, 31))
        ))
    );
    let lf = selu_lambda(BASE_PREC);
    let diff = Float::with_val(BASE_PREC, &lf - &fl(&l)).abs();
    assert!(diff < Float::with_val(BASE_PREC, 1) >> (BASE_PREC as i32 - 1));
    assert_eq!(
        round_float(Fmt::F16, &minus_lambda_alpha(BASE_PREC), MARGIN).bits,
        0xBF08
    );
    assert_eq!(reference(Act::Selu, Fmt::F16, 0xFC00).bits, 0xBF08); // -λα ≈ -1.7581
    assert_eq!(reference(Act::Selu, Fmt::Bf16, 0xFF80).bits, 0xBFE1);
}

#[test]
fn special_inputs_follow_the_semantics() {
    let r = |a, f, b| reference(a, f, b).bits;
    use Act::*;
    use Fmt::*;
    // NaN in → same NaN, quieted.
    assert_eq!(r(Gelu, F16, 0x7C01), 0x7E01);
    assert_eq!(r(Exp, F16, 0xFD55), 0xFF55);
    assert_eq!(r(Tanh, Bf16, 0xFF81), 0xFFC1);
    assert_eq!(r(Tanh, Bf16, 0x7FC0), 0x7FC0);
    // Domain errors → default NaN.
    assert_eq!(r(Log, F16, 0xBC00), 0x7E00);
    assert_eq!(r(Rsqrt, Bf16, 0x8001), 0x7FC0);
    assert_eq!(r(Log, Bf16, 0xFF80), 0x7FC0);
    // Zeros.
    assert_eq!(r(Log, F16, 0x8000), 0xFC00);
    assert_eq!(r(Log, F16, 0x0000), 0xFC00);
    assert_eq!(r(Rsqrt, F16, 0x0000), 0x7C00);
    assert_eq!(r(Rsqrt, F16, 0x8000), 0xFC00);
    assert_eq!(r(Gelu, Bf16, 0x8000), 0x8000);
    assert_eq!(r(Sigmoid, F16, 0x8000), 0x3800);
    assert_eq!(r(Hardsigmoid, Bf16, 0x8000), 0x3F00);
    assert_eq!(r(Exp, Bf16, 0x8000), 0x3F80);
    assert_eq!(r(Softplus, F16, 0x8000), 0x398C); // ln 2
    assert_eq!(r(Elu, F16, 0x8000), 0x8000);
    // Limits.
    assert_eq!(r(Gelu, F16, 0xFC00), 0x8000);
    assert_eq!(r(Sigmoid, F16, 0xFC00), 0x0000);
    assert_eq!(r(Tanh, Bf16, 0xFF80), 0xBF80);
    assert_eq!(r(Rsqrt, F16, 0x7C00), 0x0000);
    assert_eq!(r(Log, F16, 0x7C00), 0x7C00);
    // Exact zeros at nonzero inputs.
    assert_eq!(r(Log, F16, 0x3C00), 0x0000);
    assert_eq!(r(Hardsigmoid, F16, 0xC200), 0x0000); // x = -3
    assert_eq!(r(Hardswish, F16, 0xC200), 0x8000); // x = -3
    assert_eq!(r(Hardswish, Bf16, 0xC040), 0x8000); // x = -3
}

#[test]
fn hand_checked_function_values() {
    let r = |a, f, b| reference(a, f, b).bits;
    use Act::*;
    use Fmt::*;
    // gelu(1) = Φ(1) = 0.841344746…: f16 0x3ABB = 0.84130859, 0x3ABC = 0.84179688.
    assert_eq!(r(Gelu, F16, 0x3C00), 0x3ABB);
    // erf(1) = 0.842700793: f16 0x3ABE = 0.84277344 (0x3ABD = 0.84228516).
    assert_eq!(r(Erf, F16, 0x3C00), 0x3ABE);
    // exp(1) = 2.718281828: f16 0x4170 = 2.71875; bf16 0x402E = 2.71875.
    assert_eq!(r(Exp, F16, 0x3C00), 0x4170);
    assert_eq!(r(Exp, Bf16, 0x3F80), 0x402E);
    // rsqrt(4) = 0.5 exactly; log(2) = ln 2.
    assert_eq!(r(Rsqrt, F16, 0x4400), 0x3800);
    assert_eq!(r(Log, F16, 0x4000), 0x398C);
    // hardswish(1) = 4/6: f16 0x3955 = 0.66650391 (0x3956 = 0.66699219).
    assert_eq!(r(Hardswish, F16, 0x3C00), 0x3955);
    // bf16 gelu of the smallest subnormal: x/2 is a tie in f64, the exact value lies above it.
    assert_eq!(r(Gelu, Bf16, 0x0001), 0x0001);
    assert_eq!(r(Gelu, Bf16, 0x8001), 0x8000);
    assert_eq!(r(Silu, Bf16, 0x0001), 0x0001);
    assert_eq!(r(GeluTanh, Bf16, 0x0001), 0x0001);
    // f16 gelu of -65504 underflows to -0.
    assert_eq!(r(Gelu, F16, 0xFBFF), 0x8000);
}

#[test]
fn near_midpoints_are_settled_at_a_raised_precision_or_exactly() {
    // bf16 gelu/silu of the smallest subnormal x = 2^-133: the value is x/2 (a midpoint) plus
    // about x²/2.5, i.e. 2^-134 above it relatively: near at a 150-bit base, settled at 1024.
    let ladder = [150, 1024];
    for act in [Act::Gelu, Act::Silu, Act::GeluTanh] {
        let r = reference_with_precisions(act, Fmt::Bf16, 0x0001, &ladder);
        assert_eq!(
            r,
            Reference {
                bits: 0x0001,
                path: Path::Raised { prec: 1024 }
            },
            "{}",
            act.name()
        );
        let r = reference_with_precisions(act, Fmt::Bf16, 0x8001, &ladder);
        assert_eq!(
            r,
            Reference {
                bits: 0x8000,
                path: Path::Raised { prec: 1024 }
            },
            "{}",
            act.name()
        );
        assert_eq!(
            reference(act, Fmt::Bf16, 0x0001),
            Reference {
                bits: 0x0001,
                path: Path::Base
            }
        );
    }
    // hardswish's x(x+3)/6 is exactly a midpoint at some dyadic x: settled by the exact
    // rational, to the even neighbour.
    let tie = (0..=0xFFFF_u32)
        .find(|&b| {
            matches!(
                reference(Act::Hardswish, Fmt::F16, b).path,
                Path::Exact { tie: true }
            )
        })
        .expect("hardswish f16 has exact ties");
    let Decoded::Finite {
        negative,
        significand,
        exponent,
    } = decode(Fmt::F16, tie)
    else {
        panic!()
    };
    let x = finite_to_rational(negative, significand, exponent);
    let value = exact_rational(Act::Hardswish, &x).unwrap();
    let (bits, is_tie) = round_rational(Fmt::F16, &value);
    assert!(is_tie);
    assert_eq!(bits % 2, 0, "ties go to the even neighbour");
    assert_eq!(reference(Act::Hardswish, Fmt::F16, tie).bits, bits);
}

#[test]
#[should_panic(expected = "stays within")]
fn an_undecidable_input_panics_instead_of_guessing() {
    reference_with_precisions(Act::Gelu, Fmt::Bf16, 0x0001, &[150]);
}

/// Plain f64 formulas, accurate to a few ulps (times small condition numbers) on f16 inputs.
fn f64_formula(act: Act, x: f64) -> Option<f64> {
    let softplus = |x: f64| {
        if x > 0.0 {
            x + (-x).exp().ln_1p()
        } else {
            x.exp().ln_1p()
        }
    };
    let lambda: f64 = SELU_LAMBDA.parse().unwrap();
    let alpha: f64 = SELU_ALPHA.parse().unwrap();
    Some(match act {
        Act::Gelu | Act::Erf => return None, // no erf in std
        Act::GeluTanh => {
            let z = (2.0 / std::f64::consts::PI).sqrt() * (x + 0.044715 * x * x * x);
            x / (1.0 + (-2.0 * z).exp())
        }
        Act::Sigmoid => 1.0 / (1.0 + (-x).exp()),
        Act::Tanh => x.tanh(),
        Act::Silu => x / (1.0 + (-x).exp()),
        Act::Mish => x * softplus(x).tanh(),
        Act::Softplus => softplus(x),
        Act::Softsign => x / (1.0 + x.abs()),
        Act::Elu => {
            if x > 0.0 {
                x
            } else {
                x.exp_m1()
            }
        }
        Act::Selu => {
            if x > 0.0 {
                lambda * x
            } else {
                lambda * alpha * x.exp_m1()
            }
        }
        Act::Hardsigmoid => (x / 6.0 + 0.5).clamp(0.0, 1.0),
        Act::Hardswish => x * (x / 6.0 + 0.5).clamp(0.0, 1.0),
        Act::Exp => x.exp(),
        Act::Log => x.ln(),
        Act::Rsqrt => 1.0 / x.sqrt(),
        Act::GeluQuick => x / (1.0 + (-1.702 * x).exp()),
        Act::Logsigmoid => -softplus(-x),
        // At the default constants.
        Act::Identity => x,
        Act::Relu => x.max(0.0),
        Act::Relu2 => x.max(0.0) * x.max(0.0),
        Act::Relu6 => x.clamp(0.0, 6.0),
        Act::LeakyRelu => {
            if x > 0.0 {
                x
            } else {
                0.01 * x
            }
        }
        Act::Hardtanh => x.clamp(-1.0, 1.0),
        Act::Celu => {
            if x > 0.0 {
                x
            } else {
                x.exp_m1()
            }
        }
        Act::Situ => 4.0 * (x / 4.0).tanh() / (1.0 + (-x).exp()),
        Act::SwigluOai => {
            let c = x.min(7.0);
            c / (1.0 + (-1.702 * c).exp())
        }
        Act::Swish => x / (1.0 + (-x).exp()),
        Act::Sqrtsoftplus => softplus(x).sqrt(),
        // No erf in std; no defaults.
        Act::Laplace | Act::Prelu | Act::Softcap | Act::GeluClipped | Act::Xielu => return None,
    })
}

#[test]
fn mpfr_formulas_agree_with_f64_formulas_away_from_midpoints() {
    let fmt = Fmt::F16;
    for act in Act::ALL {
        let (mut compared, mut skipped) = (0, 0);
        for bits in 0..=0xFFFF_u32 {
            let Decoded::Finite {
                negative,
                significand,
                exponent,
            } = decode(fmt, bits)
            else {
                continue;
            };
            if negative && matches!(act, Act::Log | Act::Rsqrt) {
                continue;
            }
            let x = finite_to_float(negative, significand, exponent, 64).to_f64();
            let Some(y) = f64_formula(act, x) else { break };
            if y == 0.0
                && matches!(
                    act,
                    Act::Hardsigmoid
                        | Act::Hardswish
                        | Act::Log
                        | Act::Relu
                        | Act::Relu2
                        | Act::Relu6
                )
            {
                continue; // exact zeros: their sign is a rule, not a rounding
            }
            let approx = round_float(fmt, &Float::with_val(53, y), 36);
            if approx.near_midpoint {
                skipped += 1;
                continue;
            }
            let exact = reference(act, fmt, bits).bits;
            assert_eq!(
                exact,
                approx.bits,
                "{} f16 {bits:#06x} = {x}: f64 {y}",
                act.name()
            );
            compared += 1;
        }
        if f64_formula(act, 1.0).is_some() {
            // Exact ties (hardswish) are skipped here; everything else must be comparable.
            assert!(
                skipped * 20 < compared,
                "{}: {compared} compared, {skipped} skipped",
                act.name()
            );
        }
    }
}

#[test]
fn an_input_that_is_itself_a_midpoint_is_settled_by_the_side_of_the_function() {
    // gelu(96.09375) = x − x·Φ(−x), below x by about e^-4617: beyond 4096 bits. x (an f32) is
    // the f16 midpoint of 96.0625 (0x5601, odd) and 96.125 (0x5602, even): ties-to-even would
    // say 0x5602, the value lies below the midpoint, so 0x5601.
    let x = 96.093_75f32.to_bits();
    let r = reference_converting(Act::Gelu, Fmt::F32, Fmt::F16, x, &[128, 1024, 4096]);
    assert_eq!(
        r,
        Reference {
            bits: 0x5601,
            path: Path::Side
        }
    );
    // softplus lies above x: the midpoint rounds up, to the odd neighbour here.
    let x = 3000.0f32.to_bits(); // f16 spacing is 2 in [2048, 4096): 3000 is a value
    let r = reference_converting(Act::Softplus, Fmt::F32, Fmt::F16, x, &[128, 1024, 4096]);
    assert_eq!(r.bits, 0x69DC); // 3000 is representable: no side needed
    let x = 3001.0f32.to_bits(); // midpoint of 3000 (0x69DC) and 3002 (0x69DD)
    let r = reference_converting(Act::Softplus, Fmt::F32, Fmt::F16, x, &[128, 1024, 4096]);
    assert_eq!(
        r,
        Reference {
            bits: 0x69DD,
            path: Path::Side
        }
    );
    // An input that is not a midpoint still panics when undecidable (see below); and inputs
    // of the output format never take this path (mpfr.rs asserts it on every table input).
    assert_eq!(side_of_input(Act::Exp, false), None);
}

/// The added formats' decoders, read by hand from their specs (OCP MX v1.0, ml_dtypes).
#[test]
fn fnuz_fp6_fp4_decoders_read_hand_checked_patterns() {
    let value = |fmt: Fmt, bits: u32| match decode(fmt, bits) {
        Decoded::Finite {
            negative,
            significand,
            exponent,
        } => finite_to_float(negative, significand, exponent, 64).to_f64(),
        Decoded::Zero { negative } => {
            if negative {
                -0.0
            } else {
                0.0
            }
        }
        Decoded::Inf { .. } => panic!("{} has no infinity", fmt.name()),
        Decoded::Nan => f64::NAN,
    };
    // fnuz: bias 8 / 16; 0x80 the only NaN; max 240 / 57344.
    let e4 = Fmt::Fp8E4M3Fnuz;
    let e5 = Fmt::Fp8E5M2Fnuz;
    assert_eq!((e4.bias(), e5.bias()), (8, 16));
    assert_eq!(value(e4, 0x7F), 240.0);
    assert_eq!(value(e4, 0xFF), -240.0);
    assert_eq!(value(e4, 0x40), 1.0);
    assert_eq!(value(e4, 0x01), 2f64.powi(-10));
    assert_eq!(value(e5, 0x7F), 57344.0);
    assert_eq!(value(e5, 0x40), 1.0);
    assert_eq!(value(e5, 0x01), 2f64.powi(-17));
    for fmt in [e4, e5] {
        let nans: Vec<u32> = (0..256)
            .filter(|&b| decode(fmt, b) == Decoded::Nan)
            .collect();
        assert_eq!(nans, [0x80], "{}", fmt.name());
        assert_eq!(fmt.default_nan(), 0x80);
        assert_eq!(fmt.max_finite(), 0x7F);
        assert_eq!((fmt.overflow(false), fmt.overflow(true)), (0x80, 0x80));
        assert_eq!((fmt.zero(false), fmt.zero(true)), (0, 0));
    }
    // FP6 E2M3: bias 1, max 7.5; E3M2: bias 3, max 28; FP4 E2M1: ±{0, .5, 1, 1.5, 2, 3, 4, 6}.
    let (m3, m2, f4) = (Fmt::Fp6E2M3, Fmt::Fp6E3M2, Fmt::Fp4E2M1);
    assert_eq!((m3.bias(), m2.bias(), f4.bias()), (1, 3, 1));
    assert_eq!(value(m3, 0x1F), 7.5);
    assert_eq!(value(m3, 0x01), 0.125);
    assert_eq!(value(m3, 0x08), 1.0);
    assert_eq!(value(m2, 0x1F), 28.0);
    assert_eq!(value(m2, 0x01), 0.0625);
    assert_eq!(value(m2, 0x0C), 1.0);
    let fp4: Vec<f64> = (0..8).map(|b| value(f4, b)).collect();
    assert_eq!(fp4, [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0]);
    for fmt in [m3, m2, f4] {
        assert!((0..fmt.entries() as u32).all(|b| decode(fmt, b) != Decoded::Nan));
        assert_eq!(value(fmt, fmt.sign_bit()).to_bits(), (-0.0f64).to_bits());
        assert_eq!(fmt.overflow(true), fmt.sign_bit() | fmt.max_finite());
    }
}

/// fnuz: overflow and infinities are the NaN 0x80, zeros are +0; FP6 and FP4 saturate.
#[test]
fn fnuz_fp6_fp4_round_and_saturate_by_hand() {
    let r = |fmt: Fmt, n: i64, d: u64, s: i32| round_rational(fmt, &q(n, d, s)).0;
    let e4 = Fmt::Fp8E4M3Fnuz;
    assert_eq!(r(e4, 2479, 10, 0), 0x7F); // 247.9 → 240
    assert_eq!(r(e4, 248, 1, 0), 0x80); // tie between 240 and 256: NaN
    assert_eq!(r(e4, -248, 1, 0), 0x80);
    assert_eq!(r(e4, -1, 1, -11), 0x00); // −2^-11 ties to +0
    assert_eq!(r(e4, -3, 1, -12), 0x81); // −0.75·2^-10 → −2^-10
    let inf = Float::with_val(53, f64::INFINITY);
    assert_eq!(round_float(e4, &inf, MARGIN).bits, 0x80);
    assert_eq!(round_float(e4, &-inf.clone(), MARGIN).bits, 0x80);
    assert_eq!(
        round_float(e4, &Float::with_val(53, -0.0), MARGIN).bits,
        0x00
    );
    assert_eq!(r(Fmt::Fp8E5M2Fnuz, 61440, 1, 0), 0x80);
    assert_eq!(r(Fmt::Fp8E5M2Fnuz, 61439, 1, 0), 0x7F);
    let f4 = Fmt::Fp4E2M1;
    assert_eq!(r(f4, 7, 1, 0), 0x7); // max + ulp/2 saturates
    assert_eq!(r(f4, -1000, 1, 0), 0xF);
    assert_eq!(r(f4, 5, 1, 0), 0x6); // tie between 4 and 6: even
    assert_eq!(r(f4, -1, 1, -2), 0x8); // −0.25 ties to −0
    assert_eq!(round_float(f4, &inf, MARGIN).bits, 0x7);
    assert_eq!(r(Fmt::Fp6E2M3, 31, 4, 0), 0x1F); // 7.75
    assert_eq!(r(Fmt::Fp6E3M2, 30, 1, 0), 0x1F); // 30: saturates to 28
    assert_eq!(r(Fmt::Fp6E3M2, 26, 1, 0), 0x1E); // tie between 24 and 28
}

#[test]
fn constants_parse_as_exact_rationals() {
    assert_eq!(rational("1.702"), Rational::from((851, 500)));
    assert_eq!(rational("-1e-6"), Rational::from((-1, 1_000_000)));
    assert_eq!(rational("2.5E+3"), Rational::from(2500));
    assert_eq!(rational("-7/3"), Rational::from((-7, 3)));
    assert_eq!(rational("0.707107"), Rational::from((707_107, 1_000_000)));
    let f = Func::new(Act::Softcap, &["30"]);
    assert_eq!(f.label(), "softcap(cap=30)");
    assert_eq!(Func::default_of(Act::Softcap), None);
    assert_eq!(Func::from(Act::LeakyRelu).k, vec![Rational::from((1, 100))]);
    // Every function with constants names them; the ones with all defaults build.
    for act in Act::ALL {
        let all = act.constants().iter().all(|(_, d)| d.is_some());
        assert_eq!(Func::default_of(act).is_some(), all, "{}", act.name());
    }
}

#[test]
fn a_limit_on_a_midpoint_is_settled_by_the_side_it_is_approached_from() {
    // softcap(cap=30) over e5m2: 30 lies halfway between 28 and 32, and softcap(57344) is
    // 30·(1 − 2e^(−3822.9…)) below it: 28.
    let f = Func::new(Act::Softcap, &["30"]);
    let r = reference(&f, Fmt::Fp8E5M2, 0x7B);
    assert_eq!((r.bits, r.path), (0x4F, Path::Side));
    // At +inf the value is 30 itself, an exact tie: to even, 32 (0x50).
    let r = reference(&f, Fmt::Fp8E5M2, 0x7C);
    assert_eq!(r.bits, 0x50);
}
