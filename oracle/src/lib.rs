//! Independent MPFR reference for actlut's tables.
//!
//! This crate shares no code with `actlut-codegen`: it decodes input bit patterns itself,
//! evaluates each activation function with MPFR (through `rug`) at [`BASE_PREC`] bits, and
//! rounds the result once, to nearest, ties to even, into the output format with its own
//! rounding ([`round_float`], [`round_rational`]). The contract it checks is
//! `docs/SEMANTICS.md`.
//!
//! # Hard cases
//!
//! A value computed at `prec` bits is only close to the exact one. When it lies within
//! 2^-([`BASE_PREC`] - [`GUARD_BITS`]) (relative) of a rounding boundary, i.e. of a midpoint
//! between two adjacent format values, the input is re-evaluated at each precision of
//! [`RAISED_PRECS`] in turn. Where the function's value at that input is rational
//! (softsign, hardsigmoid, hardswish, elu and selu for x > 0), the exact value is rounded
//! instead with [`round_rational`], which settles exact ties by ties-to-even. An input that is
//! still undecided at the last precision makes [`reference()`] panic: the oracle never guesses.
//!
//! The derivatives of every function are the module [`derivative`], on the same ladder.

use rug::float::Constant;
use rug::ops::NegAssign;
use rug::{Float, Integer, Rational};
use std::cmp::Ordering;

/// Working precision of the first evaluation, in bits.
pub const BASE_PREC: u32 = 256;
/// Precisions tried, in order, for an input whose first evaluation is near a midpoint.
pub const RAISED_PRECS: [u32; 2] = [1024, 4096];
/// A value computed at `prec` bits is "near" a midpoint when it lies within
/// 2^-(prec - GUARD_BITS) of it, relative to the value. The guard covers the few roundings of
/// each formula and their amplification by the function's condition number (at most ~2^9 for
/// in-range results here, e.g. erfc's 2t² for gelu).
pub const GUARD_BITS: u32 = 32;

/// selu's λ, as the exact decimal of docs/SEMANTICS.md.
pub const SELU_LAMBDA: &str = "1.0507009873554804934193349852946";
/// selu's α, as the exact decimal of docs/SEMANTICS.md.
pub const SELU_ALPHA: &str = "1.6732632423543772848170429916717";

/// A number format, described by its own parameters (not codegen's).
///
/// Bit patterns of every format are carried in a `u32`; the 16- and 8-bit formats use its low
/// bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fmt {
    /// IEEE 754 binary16: 1 sign, 5 exponent, 10 fraction bits, bias 15.
    F16,
    /// bfloat16: 1 sign, 8 exponent, 7 fraction bits, bias 127.
    Bf16,
    /// OCP FP8 E4M3 "fn": 1 sign, 4 exponent, 3 fraction bits, bias 7; no infinities, NaN is
    /// only S.1111.111, the largest finite value is 448 (S.1111.110).
    Fp8E4M3,
    /// OCP FP8 E5M2: 1 sign, 5 exponent, 2 fraction bits, bias 15; IEEE-like.
    Fp8E5M2,
    /// float8_e4m3fnuz: 1 sign, 4 exponent, 3 fraction bits, bias 8; no infinities, no −0:
    /// 0x80 is the only NaN, every zero is +0, and an overflow (or an infinity) is that NaN.
    Fp8E4M3Fnuz,
    /// float8_e5m2fnuz: 1 sign, 5 exponent, 2 fraction bits, bias 16; the special values of
    /// [`Fmt::Fp8E4M3Fnuz`].
    Fp8E5M2Fnuz,
    /// OCP MX FP6 E2M3: 1 sign, 2 exponent, 3 fraction bits, bias 1; every pattern is finite
    /// and an overflow saturates to ±max (7.5).
    Fp6E2M3,
    /// OCP MX FP6 E3M2: 1 sign, 3 exponent, 2 fraction bits, bias 3; every pattern finite,
    /// saturating (max 28).
    Fp6E3M2,
    /// OCP MX FP4 E2M1: 1 sign, 2 exponent, 1 fraction bit, bias 1; every pattern finite,
    /// saturating (max 6).
    Fp4E2M1,
    /// float8_e3m4: 1 sign, 3 exponent, 4 fraction bits, bias 3; IEEE-like (max 15.5).
    Fp8E3M4,
    /// float8_e4m3 (IEEE-like): 1 sign, 4 exponent, 3 fraction bits, bias 7; ±inf S.1111.000,
    /// NaN S.1111.xxx otherwise (max 240).
    Fp8E4M3Ieee,
    /// float8_e4m3b11fnuz: 1 sign, 4 exponent, 3 fraction bits, bias 11; the special values of
    /// [`Fmt::Fp8E4M3Fnuz`] (max 30).
    Fp8E4M3B11Fnuz,
    /// float8_e5m3fnu: no sign, 5 exponent, 3 fraction bits, bias 15; 0xFF is the only NaN
    /// (max 114688); a negative value, or an overflow, is that NaN.
    Fp8E5M3Fnu,
    /// float8_e8m0fnu: no sign, 8 exponent bits and no fraction, bias 127: 2^(code − 127) for
    /// codes 0..=254 and the NaN 0xFF. No zero: a zero or negative value is the NaN, and a
    /// positive value below 2^-127 rounds to 2^-127.
    Fp8E8M0Fnu,
    /// IEEE 754 binary32 (for checking `f32` evaluations; there are no `f32` tables).
    F32,
}

impl Fmt {
    /// Every table format the oracle knows.
    pub const ALL: [Fmt; 14] = [
        Fmt::F16,
        Fmt::Bf16,
        Fmt::Fp8E4M3,
        Fmt::Fp8E5M2,
        Fmt::Fp8E4M3Fnuz,
        Fmt::Fp8E5M2Fnuz,
        Fmt::Fp6E2M3,
        Fmt::Fp6E3M2,
        Fmt::Fp4E2M1,
        Fmt::Fp8E3M4,
        Fmt::Fp8E4M3Ieee,
        Fmt::Fp8E4M3B11Fnuz,
        Fmt::Fp8E5M3Fnu,
        Fmt::Fp8E8M0Fnu,
    ];

    /// The snake-case name used in table names (`"f16"`, `"bf16"`, `"fp8_e4m3"`,
    /// `"fp8_e5m2"`; `"f32"`).
    pub const fn name(self) -> &'static str {
        match self {
            Fmt::F16 => "f16",
            Fmt::Bf16 => "bf16",
            Fmt::Fp8E4M3 => "fp8_e4m3",
            Fmt::Fp8E5M2 => "fp8_e5m2",
            Fmt::Fp8E4M3Fnuz => "fp8_e4m3fnuz",
            Fmt::Fp8E5M2Fnuz => "fp8_e5m2fnuz",
            Fmt::Fp6E2M3 => "fp6_e2m3",
            Fmt::Fp6E3M2 => "fp6_e3m2",
            Fmt::Fp4E2M1 => "fp4_e2m1",
            Fmt::Fp8E3M4 => "fp8_e3m4",
            Fmt::Fp8E4M3Ieee => "fp8_e4m3ieee",
            Fmt::Fp8E4M3B11Fnuz => "fp8_e4m3b11fnuz",
            Fmt::Fp8E5M3Fnu => "fp8_e5m3fnu",
            Fmt::Fp8E8M0Fnu => "fp8_e8m0fnu",
            Fmt::F32 => "f32",
        }
    }

    /// The table format with this name, if the oracle knows it.
    pub fn from_name(name: &str) -> Option<Fmt> {
        Fmt::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Width of a bit pattern.
    pub const fn width(self) -> u32 {
        match self {
            Fmt::F16 | Fmt::Bf16 => 16,
            Fmt::Fp6E2M3 | Fmt::Fp6E3M2 => 6,
            Fmt::Fp4E2M1 => 4,
            Fmt::F32 => 32,
            _ => 8,
        }
    }

    /// Number of bit patterns (2^width).
    pub const fn entries(self) -> u64 {
        1 << self.width()
    }

    /// Significand bits including the hidden bit.
    pub const fn precision(self) -> u32 {
        match self {
            Fmt::F16 => 11,
            Fmt::Bf16 => 8,
            Fmt::Fp8E3M4 => 5,
            Fmt::Fp8E4M3
            | Fmt::Fp8E4M3Fnuz
            | Fmt::Fp6E2M3
            | Fmt::Fp8E4M3Ieee
            | Fmt::Fp8E4M3B11Fnuz
            | Fmt::Fp8E5M3Fnu => 4,
            Fmt::Fp8E5M2 | Fmt::Fp8E5M2Fnuz | Fmt::Fp6E3M2 => 3,
            Fmt::Fp4E2M1 => 2,
            Fmt::Fp8E8M0Fnu => 1,
            Fmt::F32 => 24,
        }
    }

    /// Whether the top bit is a sign: all but the unsigned E5M3FNU and E8M0FNU.
    pub const fn is_signed(self) -> bool {
        !matches!(self, Fmt::Fp8E5M3Fnu | Fmt::Fp8E8M0Fnu)
    }

    /// Exponent field width: what the sign and the stored fraction leave.
    pub const fn exponent_bits(self) -> u32 {
        self.width() - self.is_signed() as u32 - self.fraction_bits()
    }

    /// Exponent bias: 2^(exponent bits − 1) − 1, except the fnuz formats' 2^(exponent bits − 1)
    /// and float8_e4m3b11fnuz's 11.
    pub const fn bias(self) -> i32 {
        let ieee = (1 << (self.exponent_bits() - 1)) - 1;
        if matches!(self, Fmt::Fp8E4M3B11Fnuz) {
            11
        } else if self.is_fnuz() {
            ieee + 1
        } else {
            ieee
        }
    }

    /// Whether the all-ones exponent encodes ±inf and NaN (IEEE), rather than ordinary values
    /// (E4M3 "fn", the fnuz formats, FP6, FP4, the unsigned formats).
    pub const fn has_inf(self) -> bool {
        matches!(
            self,
            Fmt::F16 | Fmt::Bf16 | Fmt::Fp8E5M2 | Fmt::Fp8E3M4 | Fmt::Fp8E4M3Ieee | Fmt::F32
        )
    }

    /// The fnuz formats: the negative-zero pattern is the one NaN, and there is no −0.
    pub const fn is_fnuz(self) -> bool {
        matches!(
            self,
            Fmt::Fp8E4M3Fnuz | Fmt::Fp8E5M2Fnuz | Fmt::Fp8E4M3B11Fnuz
        )
    }

    /// The OCP MX FP6 and FP4 formats: every pattern is finite (no NaN, no infinity), and a
    /// value beyond the largest finite one saturates to it.
    pub const fn saturates(self) -> bool {
        matches!(self, Fmt::Fp6E2M3 | Fmt::Fp6E3M2 | Fmt::Fp4E2M1)
    }

    /// Whether the format has a zero (all but E8M0FNU, whose exponent field 0 is the binade
    /// of 2^-127).
    pub const fn has_zero(self) -> bool {
        !matches!(self, Fmt::Fp8E8M0Fnu)
    }

    /// Whether the format has −0 (the signed formats but the fnuz ones).
    pub const fn has_negative_zero(self) -> bool {
        self.is_signed() && !self.is_fnuz()
    }

    /// The bits of an exact zero of the given sign: +0 where the format has no −0, and the NaN
    /// in E8M0FNU, which has no zero.
    pub const fn zero(self, negative: bool) -> u32 {
        if !self.has_zero() {
            self.default_nan()
        } else if negative && self.has_negative_zero() {
            self.sign_bit()
        } else {
            0
        }
    }

    /// What a value beyond the largest finite one (or an infinity) of the given sign becomes:
    /// ±inf; NaN of the sign for E4M3; the NaN 0x80 for fnuz; ±max for FP6 and FP4; the NaN
    /// 0xFF for the unsigned formats.
    pub const fn overflow(self, negative: bool) -> u32 {
        if self.is_fnuz() {
            return self.sign_bit();
        }
        if !self.is_signed() {
            return self.default_nan();
        }
        let sign = if negative { self.sign_bit() } else { 0 };
        sign | self.overflow_bits()
    }

    /// Stored fraction bits.
    pub const fn fraction_bits(self) -> u32 {
        self.precision() - 1
    }

    /// Exponent of the smallest normal number: 2^emin (E8M0FNU: 2^-127, its exponent field 0).
    pub const fn emin(self) -> i32 {
        if self.has_zero() {
            1 - self.bias()
        } else {
            -self.bias()
        }
    }

    /// Exponent of one unit in the last place of subnormals (the smallest subnormal is 2^qmin).
    pub const fn qmin(self) -> i32 {
        self.emin() - self.fraction_bits() as i32
    }

    /// The all-ones exponent field with a zero fraction: +inf for IEEE-like formats (for E4M3
    /// it is the finite value 256).
    pub const fn all_ones_exponent(self) -> u32 {
        ((1u32 << self.exponent_bits()) - 1) << self.fraction_bits()
    }

    /// Bits of +inf, if the format has infinities.
    pub const fn inf_bits(self) -> Option<u32> {
        if self.has_inf() {
            Some(self.all_ones_exponent())
        } else {
            None
        }
    }

    /// Bits of the largest finite positive value.
    pub const fn max_finite(self) -> u32 {
        if self.has_inf() {
            self.all_ones_exponent() - 1
        } else if matches!(self, Fmt::Fp8E4M3) {
            self.sign_bit() - 2
        } else if !self.is_signed() {
            // 0xFF is the NaN.
            self.entries() as u32 - 2
        } else {
            // fnuz, FP6, FP4: every positive pattern is finite.
            self.sign_bit() - 1
        }
    }

    /// What a positive overflow, or +inf, becomes: +inf; for E4M3 (which has no infinities)
    /// the positive NaN `0x7F`; for fnuz the NaN `0x80`; for FP6 and FP4 the largest finite
    /// value; for the unsigned formats the NaN `0xFF`. The negative one is
    /// [`Fmt::overflow`]`(true)`.
    pub const fn overflow_bits(self) -> u32 {
        if self.has_inf() {
            self.all_ones_exponent()
        } else if self.is_fnuz() {
            self.sign_bit()
        } else if self.saturates() {
            self.max_finite()
        } else if !self.is_signed() {
            self.default_nan()
        } else {
            self.sign_bit() - 1
        }
    }

    /// The sign bit (0 for the unsigned formats).
    pub const fn sign_bit(self) -> u32 {
        if self.is_signed() {
            1 << (self.width() - 1)
        } else {
            0
        }
    }

    /// The bit that quiets a NaN (top fraction bit); 0 for E4M3, fnuz and the unsigned
    /// formats, whose NaNs are kept as they are (and for FP6 and FP4, which have none).
    pub const fn quiet_bit(self) -> u32 {
        if self.has_inf() {
            1 << (self.fraction_bits() - 1)
        } else {
            0
        }
    }

    /// The positive default quiet NaN (f16 `0x7E00`, bf16 `0x7FC0`, e4m3 `0x7F`, e5m2 `0x7E`,
    /// e3m4 `0x78`, the IEEE e4m3 `0x7C`, fnuz `0x80`, the unsigned `0xFF`, f32 `0x7FC0_0000`).
    ///
    /// # Panics
    /// For FP6 and FP4, which have no NaN.
    pub const fn default_nan(self) -> u32 {
        if self.has_inf() {
            self.all_ones_exponent() | self.quiet_bit()
        } else if self.is_fnuz() {
            self.sign_bit()
        } else if self.saturates() {
            panic!("FP6 and FP4 have no NaN")
        } else if !self.is_signed() {
            self.entries() as u32 - 1
        } else {
            self.sign_bit() - 1
        }
    }
}

/// A decoded input bit pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decoded {
    /// Any NaN.
    Nan,
    /// ±infinity.
    Inf {
        /// Sign bit set.
        negative: bool,
    },
    /// ±0.
    Zero {
        /// Sign bit set.
        negative: bool,
    },
    /// A nonzero finite value: `(-1)^negative · significand · 2^exponent`, exactly.
    Finite {
        /// Sign bit set.
        negative: bool,
        /// Integer significand, hidden bit included for normal numbers (never 0).
        significand: u32,
        /// Power of two of the significand's last bit.
        exponent: i32,
    },
}

/// Decodes `bits` of `fmt` (a `u8`, `u16` or `u32`); subnormals are real values.
///
/// # Panics
/// If `bits` has bits set above the format's width.
pub fn decode(fmt: Fmt, bits: impl Into<u32>) -> Decoded {
    let bits: u32 = bits.into();
    assert!(
        u64::from(bits) < fmt.entries(),
        "{bits:#x} is not a {} bit pattern",
        fmt.name()
    );
    if fmt.is_fnuz() && bits == fmt.sign_bit() {
        return Decoded::Nan;
    }
    if !fmt.is_signed() && u64::from(bits) == fmt.entries() - 1 {
        // The unsigned formats' one NaN: every bit set.
        return Decoded::Nan;
    }
    let negative = bits & fmt.sign_bit() != 0;
    let fb = fmt.fraction_bits();
    let exp_field = (bits & !fmt.sign_bit()) >> fb;
    let fraction = bits & ((1 << fb) - 1);
    let exp_max = (1u32 << fmt.exponent_bits()) - 1;
    if exp_field == exp_max && fmt.has_inf() {
        if fraction == 0 {
            Decoded::Inf { negative }
        } else {
            Decoded::Nan
        }
    } else if fmt == Fmt::Fp8E4M3 && exp_field == exp_max && fraction == (1 << fb) - 1 {
        // E4M3: only S.1111.111 is NaN; the rest of the top binade is finite.
        Decoded::Nan
    } else if exp_field == 0 && fmt.has_zero() {
        if fraction == 0 {
            Decoded::Zero { negative }
        } else {
            Decoded::Finite {
                negative,
                significand: fraction,
                exponent: fmt.qmin(),
            }
        }
    } else {
        Decoded::Finite {
            negative,
            significand: fraction | (1 << fb),
            exponent: exp_field as i32 - fmt.bias() - fb as i32,
        }
    }
}

/// The exact value of a nonzero finite input as an MPFR number of `prec` bits (exact when
/// `prec` is at least the format's precision).
pub fn finite_to_float(negative: bool, significand: u32, exponent: i32, prec: u32) -> Float {
    let mut x = Float::with_val(prec, significand);
    x <<= exponent;
    if negative {
        x.neg_assign();
    }
    x
}

/// The exact value of a nonzero finite input as a rational.
pub fn finite_to_rational(negative: bool, significand: u32, exponent: i32) -> Rational {
    let mut x = Rational::from(significand);
    if exponent >= 0 {
        x <<= exponent as u32;
    } else {
        x >>= exponent.unsigned_abs();
    }
    if negative {
        x.neg_assign();
    }
    x
}

/// The result of rounding an approximate value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rounded {
    /// The rounded value's bits (round to nearest, ties to even).
    pub bits: u32,
    /// The value lies within 2^-margin_bits (relative) of a midpoint, or on one: the bits are
    /// only trustworthy if the value is exact.
    pub near_midpoint: bool,
}

/// Packs a rounded magnitude `n · 2^q` (with `q >= qmin`, and `n < 2^precision` unless `q` is
/// the quantum of the binade the value rounded up out of) into bits, overflowing to infinity
/// (or, for E4M3, to NaN with the value's sign; fnuz: to the NaN 0x80; FP6, FP4: to ±max).
/// A zero magnitude is a zero of the value's sign, +0 in the fnuz formats.
fn pack(fmt: Fmt, negative: bool, q: i64, n: u64) -> u32 {
    if negative && !fmt.is_signed() {
        // An unsigned format holds no negative value.
        return fmt.default_nan();
    }
    let sign = if negative { fmt.sign_bit() } else { 0 };
    if !fmt.has_zero() {
        // E8M0: no fraction, so n·2^q is 2^q (n = 1) or 2^(q+1) (n = 2, a tie or more above
        // 1.5·2^q), and its code is its exponent plus the bias; n = 0 (below 2^-127 by more
        // than half of it) is nearest to 2^-127, the smallest value, as there is no zero.
        assert_eq!(fmt.fraction_bits(), 0, "{}", fmt.name());
        let exponent = q + n.max(1) as i64 - 1;
        let code = (exponent + i64::from(fmt.bias())).max(0);
        return if code > i64::from(fmt.max_finite()) {
            fmt.overflow(negative)
        } else {
            code as u32
        };
    }
    if n == 0 {
        return fmt.zero(negative);
    }
    // (q - qmin) counts binades above the subnormal quantum: each adds 2^fraction_bits to the
    // bit pattern, and n carries the hidden bit into the exponent field. A carry out of the
    // top binade (n = 2^precision) lands on the next exponent, so the formula is uniform.
    // For E4M3 the pattern after the largest finite one (S.1111.110) is S.1111.111, NaN: a
    // value that rounds above 448 with unbounded exponent lands there or beyond.
    let magnitude = (q - fmt.qmin() as i64) * (1i64 << fmt.fraction_bits()) + n as i64;
    if magnitude > i64::from(fmt.max_finite()) {
        fmt.overflow(negative)
    } else {
        sign | magnitude as u32
    }
}

/// Rounds `v` once, to nearest, ties to even, into `fmt`, with subnormals and overflow to ±inf
/// when the rounding with unbounded exponent exceeds the largest finite value (E4M3: to NaN
/// with the value's sign, as for ±inf itself; fnuz: the NaN 0x80; FP6 and FP4 saturate to ±max).
/// A negative value that rounds to zero gives -0 (+0 in the fnuz formats, which have no −0);
/// zeros and infinities keep their sign where the format can. Also reports whether `v`
/// lies within 2^-margin_bits (relative) of a midpoint. Panics on NaN.
pub fn round_float(fmt: Fmt, v: &Float, margin_bits: u32) -> Rounded {
    assert!(!v.is_nan(), "round_float: NaN");
    let negative = v.is_sign_negative();
    let settled = |bits| Rounded {
        bits,
        near_midpoint: false,
    };
    if negative && !fmt.is_signed() {
        // An unsigned format holds no negative value, however small: its NaN.
        return settled(fmt.default_nan());
    }
    if v.is_infinite() {
        return settled(fmt.overflow(negative));
    }
    if v.is_zero() {
        // A zero here stands for a nonzero value below MPFR's exponent range (exact zeros are
        // [`Fmt::zero`]'s): in E8M0, which has no zero, 2^-127 is the nearest value.
        return settled(if fmt.has_zero() {
            fmt.zero(negative)
        } else {
            0
        });
    }
    let prec = v.prec();
    // |v| in [2^e, 2^(e+1)).
    let e = v.get_exp().expect("finite nonzero") as i64 - 1;
    let q = e.max(fmt.emin() as i64) - fmt.fraction_bits() as i64;
    // s = |v| / 2^q, exact (a shift), below 2^precision.
    let mut s = Float::with_val(prec, v.abs_ref());
    s <<= i32::try_from(-q).expect("exponent in range");
    let floor = Float::with_val(prec, s.floor_ref());
    let frac = Float::with_val(prec, &s - &floor); // exact
    let mut n = floor.to_integer().expect("finite").to_u64().expect("small");
    let round_up = match frac.partial_cmp(&0.5).expect("not NaN") {
        Ordering::Greater => true,
        Ordering::Less => false,
        Ordering::Equal => n % 2 == 1,
    };
    let distance = Float::with_val(prec, &frac - 0.5).abs();
    let mut margin = s.clone();
    margin >>= margin_bits;
    let near_midpoint = distance <= margin;
    if round_up {
        n += 1;
    }
    Rounded {
        bits: pack(fmt, negative, q, n),
        near_midpoint,
    }
}

/// The exact rounding of a rational: bits, and whether `r` is exactly a midpoint (a tie,
/// settled to even). Zero gives +0 (E8M0's NaN): callers decide the sign of exact zeros. A
/// negative value in an unsigned format gives its NaN.
pub fn round_rational(fmt: Fmt, r: &Rational) -> (u32, bool) {
    let negative = r.cmp0() == Ordering::Less;
    if r.cmp0() == Ordering::Equal {
        return (fmt.zero(false), false);
    }
    if negative && !fmt.is_signed() {
        return (fmt.default_nan(), false);
    }
    let num = r.numer().clone().abs();
    let den = r.denom().clone();
    // floor(log2 |r|): |r| in (2^(e0-1), 2^(e0+1)).
    let e0 = num.significant_bits() as i64 - den.significant_bits() as i64;
    let below = if e0 >= 0 {
        num < (den.clone() << e0 as u32)
    } else {
        (num.clone() << (-e0) as u32) < den
    };
    let e = if below { e0 - 1 } else { e0 };
    let q = e.max(fmt.emin() as i64) - fmt.fraction_bits() as i64;
    // s = |r| / 2^q = num' / den'.
    let (num_s, den_s) = if q >= 0 {
        (num, den << q as u32)
    } else {
        (num << (-q) as u32, den)
    };
    let (n, rem) = num_s.div_rem_floor(den_s.clone());
    let mut n = n.to_u64().expect("small");
    let twice_rem = rem << 1u32;
    let (round_up, tie) = match twice_rem.cmp(&den_s) {
        Ordering::Greater => (true, false),
        Ordering::Less => (false, false),
        Ordering::Equal => (n % 2 == 1, true),
    };
    if round_up {
        n += 1;
    }
    (pack(fmt, negative, q, n), tie)
}

/// The activation functions of docs/SEMANTICS.md, as the oracle defines them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Act {
    /// x·Φ(x) = (x/2)·erfc(−x/√2)
    Gelu,
    /// (x/2)·(1 + tanh(√(2/π)·(x + 0.044715·x³)))
    GeluTanh,
    /// 1/(1 + e^−x)
    Sigmoid,
    /// tanh x
    Tanh,
    /// x·sigmoid(x)
    Silu,
    /// x·tanh(softplus(x))
    Mish,
    /// ln(1 + e^x)
    Softplus,
    /// x/(1 + |x|)
    Softsign,
    /// x for x > 0, else alpha·(e^x − 1)
    Elu,
    /// λ·x for x > 0, else λ·α·(e^x − 1)
    Selu,
    /// max(0, min(1, x/6 + 1/2))
    Hardsigmoid,
    /// x·hardsigmoid(x)
    Hardswish,
    /// erf x
    Erf,
    /// e^x
    Exp,
    /// ln x
    Log,
    /// 1/√x
    Rsqrt,
    /// x·sigmoid(1.702·x), 1.702 the exact decimal
    GeluQuick,
    /// ln sigmoid(x) = −softplus(−x)
    Logsigmoid,
    /// x
    Identity,
    /// x for x > 0, else +0
    Relu,
    /// x² for x > 0, else +0
    Relu2,
    /// min(max(0, x), 6), +0 below
    Relu6,
    /// x for x > 0, else alpha·x
    LeakyRelu,
    /// x for x > 0, else weight·x
    Prelu,
    /// min for x ≤ min, max for x ≥ max, x between
    Hardtanh,
    /// x for x > 0, else alpha·(e^(x/alpha) − 1)
    Celu,
    /// cap·tanh(x/cap)
    Softcap,
    /// beta·tanh(x/beta)·sigmoid(x)
    Situ,
    /// c·sigmoid(alpha·c), c = min(x, limit)
    SwigluOai,
    /// x·sigmoid(beta·x)
    Swish,
    /// (1 + erf((x − mu)/(sigma·√2)))/2
    Laplace,
    /// √ln(1 + e^x)
    Sqrtsoftplus,
    /// gelu(x) clamped to [min, max]
    GeluClipped,
    /// alpha_p·x² + beta·x for x > 0, else (e^min(x, eps) − 1 − x)·alpha_n + beta·x
    Xielu,
}

impl Act {
    /// Every function the oracle knows.
    pub const ALL: [Act; 34] = [
        Act::Gelu,
        Act::GeluTanh,
        Act::Sigmoid,
        Act::Tanh,
        Act::Silu,
        Act::Mish,
        Act::Softplus,
        Act::Softsign,
        Act::Elu,
        Act::Selu,
        Act::Hardsigmoid,
        Act::Hardswish,
        Act::Erf,
        Act::Exp,
        Act::Log,
        Act::Rsqrt,
        Act::GeluQuick,
        Act::Logsigmoid,
        Act::Identity,
        Act::Relu,
        Act::Relu2,
        Act::Relu6,
        Act::LeakyRelu,
        Act::Prelu,
        Act::Hardtanh,
        Act::Celu,
        Act::Softcap,
        Act::Situ,
        Act::SwigluOai,
        Act::Swish,
        Act::Laplace,
        Act::Sqrtsoftplus,
        Act::GeluClipped,
        Act::Xielu,
    ];

    /// The snake-case name used in table names.
    pub const fn name(self) -> &'static str {
        match self {
            Act::Gelu => "gelu",
            Act::GeluTanh => "gelu_tanh",
            Act::Sigmoid => "sigmoid",
            Act::Tanh => "tanh",
            Act::Silu => "silu",
            Act::Mish => "mish",
            Act::Softplus => "softplus",
            Act::Softsign => "softsign",
            Act::Elu => "elu",
            Act::Selu => "selu",
            Act::Hardsigmoid => "hardsigmoid",
            Act::Hardswish => "hardswish",
            Act::Erf => "erf",
            Act::Exp => "exp",
            Act::Log => "log",
            Act::Rsqrt => "rsqrt",
            Act::GeluQuick => "gelu_quick",
            Act::Logsigmoid => "logsigmoid",
            Act::Identity => "identity",
            Act::Relu => "relu",
            Act::Relu2 => "relu2",
            Act::Relu6 => "relu6",
            Act::LeakyRelu => "leaky_relu",
            Act::Prelu => "prelu",
            Act::Hardtanh => "hardtanh",
            Act::Celu => "celu",
            Act::Softcap => "softcap",
            Act::Situ => "situ",
            Act::SwigluOai => "swiglu_oai",
            Act::Swish => "swish",
            Act::Laplace => "laplace",
            Act::Sqrtsoftplus => "sqrtsoftplus",
            Act::GeluClipped => "gelu_clipped",
            Act::Xielu => "xielu",
        }
    }

    /// The function with this name, if the oracle knows it.
    pub fn from_name(name: &str) -> Option<Act> {
        Act::ALL.into_iter().find(|a| a.name() == name)
    }

    /// The constants, in docs/SEMANTICS.md's order: name and default (the exact decimal, or
    /// `None` for a constant without default).
    pub const fn constants(self) -> &'static [(&'static str, Option<&'static str>)] {
        match self {
            Act::Elu | Act::Celu => &[("alpha", Some("1"))],
            Act::LeakyRelu => &[("alpha", Some("0.01"))],
            Act::Prelu => &[("weight", None)],
            Act::Hardtanh => &[("min", Some("-1")), ("max", Some("1"))],
            Act::Softcap => &[("cap", None)],
            Act::Situ => &[("beta", Some("4"))],
            Act::SwigluOai => &[("alpha", Some("1.702")), ("limit", Some("7"))],
            Act::Swish => &[("beta", Some("1"))],
            Act::Laplace => &[("mu", Some("0.707107")), ("sigma", Some("0.282095"))],
            Act::GeluClipped => &[("min", None), ("max", None)],
            Act::Xielu => &[
                ("alpha_p", None),
                ("alpha_n", None),
                ("beta", Some("0.5")),
                ("eps", Some("-0.000001")),
            ],
            _ => &[],
        }
    }
}

/// A function with the exact values of its constants (in [`Act::constants`]' order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Func {
    /// The function.
    pub act: Act,
    /// The constants' values.
    pub k: Vec<Rational>,
}

impl Func {
    /// `act` with the constants given as decimal or fraction text, in order.
    ///
    /// # Panics
    /// If the number of values is not the function's, or a text is not a number.
    pub fn new(act: Act, values: &[&str]) -> Func {
        assert_eq!(
            values.len(),
            act.constants().len(),
            "{} has {} constants",
            act.name(),
            act.constants().len()
        );
        Func {
            act,
            k: values.iter().map(|v| rational(v)).collect(),
        }
    }

    /// `act` at its default constants, or `None` when one has no default.
    pub fn default_of(act: Act) -> Option<Func> {
        let values: Option<Vec<&str>> = act.constants().iter().map(|(_, d)| *d).collect();
        Some(Func::new(act, &values?))
    }

    /// The constant `i` (in declared order).
    pub(crate) fn c(&self, i: usize) -> &Rational {
        &self.k[i]
    }

    /// The constant `i` at `prec` bits.
    pub(crate) fn cf(&self, i: usize, prec: u32) -> Float {
        Float::with_val(prec, &self.k[i])
    }

    /// A name for messages: `softcap(cap=30)`, with the values as reduced fractions.
    pub fn label(&self) -> String {
        if self.k.is_empty() {
            return self.act.name().into();
        }
        let parts: Vec<String> = self
            .act
            .constants()
            .iter()
            .zip(&self.k)
            .map(|((n, _), v)| format!("{n}={v}"))
            .collect();
        format!("{}({})", self.act.name(), parts.join(","))
    }
}

/// A function at its default constants.
///
/// # Panics
/// When a constant has no default.
impl From<Act> for Func {
    fn from(act: Act) -> Func {
        Func::default_of(act)
            .unwrap_or_else(|| panic!("{} has a constant without default", act.name()))
    }
}

impl From<&Func> for Func {
    fn from(f: &Func) -> Func {
        f.clone()
    }
}

/// A decimal (`1.702`, `-1e-6`, `30`) or fraction (`1/6`, `-7/3`) text as an exact rational.
///
/// # Panics
/// If the text is not one.
pub fn rational(s: &str) -> Rational {
    if let Some((n, d)) = s.split_once('/') {
        let n: Integer = n.parse().expect("a numerator");
        let d: Integer = d.parse().expect("a denominator");
        return Rational::from((n, d));
    }
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let (mantissa, exp) = match body.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.parse::<i32>().expect("an exponent")),
        None => (body, 0),
    };
    let mut r = decimal_rational(mantissa);
    let ten = Rational::from(10);
    for _ in 0..exp.unsigned_abs() {
        if exp > 0 {
            r *= &ten;
        } else {
            r /= &ten;
        }
    }
    if neg {
        r.neg_assign();
    }
    r
}

/// How a reference output was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// A special input or an exact special value (NaN, ±inf, ±0, domain errors, exact zeros).
    Special,
    /// Decided at [`BASE_PREC`] bits.
    Base,
    /// Near a midpoint at [`BASE_PREC`], decided at this higher precision.
    Raised {
        /// The precision that decided it.
        prec: u32,
    },
    /// Near a midpoint at [`BASE_PREC`], decided by rounding the exact rational value.
    Exact {
        /// The exact value is a midpoint (settled to even).
        tie: bool,
    },
    /// Near a midpoint at every precision, where that midpoint is a point the function is
    /// known to lie strictly on one side of (see [`pinned_points`]): the input itself (gelu at
    /// a large `x`, `x − x·Φ(−x)` with a residual below 2^-4000 relative), or a limit (softcap
    /// near its cap).
    Side,
}

/// The sign of `f(x) − x` where it is known for every finite nonzero `x` of the sign given,
/// and where `f(x)` can lie closer to `x` than any fixed precision resolves (an exponentially
/// small residual): gelu, gelu_tanh, silu and mish lie below `x` for `x > 0`
/// (`x·g(x)` with `0 < g < 1`), softplus above it (`x + ln(1 + e^−x)`); tanh and softsign
/// lie strictly between 0 and `x`.
pub fn side_of_input(act: Act, x_negative: bool) -> Option<Ordering> {
    use Act::*;
    match (act, x_negative) {
        (Gelu | GeluTanh | Silu | Mish | GeluQuick | Swish | SwigluOai, false) => {
            Some(Ordering::Less)
        }
        (Softplus, _) => Some(Ordering::Greater),
        // ln sigmoid(x) = x − ln(1 + e^x) < x.
        (Logsigmoid, _) => Some(Ordering::Less),
        (Tanh | Softsign | Softcap | Situ, false) => Some(Ordering::Less),
        (Tanh | Softsign | Softcap | Situ, true) => Some(Ordering::Greater),
        // x + alpha·(e^(x/alpha) − 1 − x/alpha) > x.
        (Celu, true) => Some(Ordering::Greater),
        _ => None,
    }
}

/// The points that `f(x)` can approach closer than any precision resolves, with the side of
/// each where `f(x)` lies: the input itself ([`side_of_input`]), and the limits that the
/// function approaches from one side (softcap's ±cap, situ's beta, elu's and celu's −alpha).
pub fn pinned_points(f: &Func, x: &Rational) -> Vec<(Rational, Ordering)> {
    let negative = x.cmp0() == Ordering::Less;
    let mut out: Vec<(Rational, Ordering)> = side_of_input(f.act, negative)
        .map(|side| (x.clone(), side))
        .into_iter()
        .collect();
    match (f.act, negative) {
        (Act::Softcap, false) => out.push((f.c(0).clone(), Ordering::Less)),
        (Act::Softcap, true) => out.push((-f.c(0).clone(), Ordering::Greater)),
        (Act::Situ, false) => out.push((f.c(0).clone(), Ordering::Less)),
        (Act::Celu, true) => out.push((-f.c(0).clone(), Ordering::Greater)),
        // alpha·(e^x − 1) = alpha·x + alpha·(e^x − 1 − x), the second term positive: above
        // alpha·x (by a residual beyond every precision for tiny x), and above −alpha.
        (Act::Elu, true) => {
            out.push((f.c(0).clone() * x, Ordering::Greater));
            out.push((-f.c(0).clone(), Ordering::Greater));
        }
        // Past the limit the value is limit·sigmoid(alpha·limit), below limit.
        (Act::SwigluOai, false) if x > f.c(1) => out.push((f.c(1).clone(), Ordering::Less)),
        // √softplus(x) > √x, by a residual beyond every precision for large x: a point when
        // x is a rational square (an f32 input whose root is a midpoint of the output).
        (Act::Sqrtsoftplus, false)
            if x.numer().is_perfect_square() && x.denom().is_perfect_square() =>
        {
            let root = Rational::from((x.numer().clone().sqrt(), x.denom().clone().sqrt()));
            out.push((root, Ordering::Greater));
        }
        // For x ≤ eps: alpha_n·e^x + [(beta − alpha_n)·x − alpha_n], above the rational.
        (Act::Xielu, true) if x <= f.c(3) => {
            let p = (f.c(2).clone() - f.c(1)) * x - f.c(1);
            out.push((p, Ordering::Greater));
        }
        _ => {}
    }
    out
}

/// A reference output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reference {
    /// The correctly rounded output bits.
    pub bits: u32,
    /// How they were obtained.
    pub path: Path,
}

/// Special values that the rules of docs/SEMANTICS.md produce directly.
enum Value {
    Zero {
        negative: bool,
    },
    Inf {
        negative: bool,
    },
    DefaultNan,
    /// An ordinary real number at a given precision, rounded like any other.
    Real(Box<dyn Fn(u32) -> Float>),
    /// An exact rational (a constant): rounded exactly; zero is +0.
    Exact(Rational),
}

fn one(prec: u32) -> Float {
    Float::with_val(prec, 1)
}
fn half(prec: u32) -> Float {
    Float::with_val(prec, 0.5)
}
fn ln2(prec: u32) -> Float {
    Float::with_val(prec, Constant::Log2)
}
fn minus_lambda_alpha(prec: u32) -> Float {
    let mut v = selu_lambda(prec) * selu_alpha(prec);
    v.neg_assign();
    v
}

fn selu_lambda(prec: u32) -> Float {
    Float::with_val(prec, Float::parse(SELU_LAMBDA).expect("decimal"))
}
fn selu_alpha(prec: u32) -> Float {
    Float::with_val(prec, Float::parse(SELU_ALPHA).expect("decimal"))
}

/// A decimal string as an exact rational ("1.05" → 105/100).
fn decimal_rational(s: &str) -> Rational {
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    let digits: Integer = format!("{int}{frac}").parse().expect("decimal digits");
    Rational::from((
        digits,
        Integer::from(Integer::u_pow_u(10, frac.len() as u32)),
    ))
}

/// The clamp of a special value `g` of gelu (−0, +0, +inf) to gelu_clipped's `[min, max]`.
fn clipped_special(f: &Func, g: Value) -> Value {
    let (min, max) = (f.c(0).clone(), f.c(1).clone());
    let sign = |v: &Value| match v {
        Value::Inf { negative: false } => Ordering::Greater,
        _ => Ordering::Equal,
    };
    // A zero compares equal to 0, an infinity beyond every constant.
    let at_or_below = |c: &Rational| match sign(&g) {
        Ordering::Greater => false,
        _ => c.cmp0() != Ordering::Less,
    };
    let at_or_above = |c: &Rational| match sign(&g) {
        Ordering::Greater => true,
        _ => c.cmp0() != Ordering::Greater,
    };
    if at_or_below(&min) {
        Value::Exact(min)
    } else if at_or_above(&max) {
        Value::Exact(max)
    } else {
        g
    }
}

/// The limit at −inf (`negative`) or +inf.
fn limit(f: &Func, negative: bool) -> Value {
    use Act::*;
    if negative {
        match f.act {
            Gelu | GeluTanh | Silu | Mish | Hardswish | GeluQuick | Situ | SwigluOai | Swish => {
                Value::Zero { negative: true }
            }
            Sigmoid | Softplus | Hardsigmoid | Exp | Relu | Relu2 | Relu6 | Laplace
            | Sqrtsoftplus => Value::Zero { negative: false },
            Tanh | Softsign | Erf => Value::Exact(Rational::from(-1)),
            Elu | Celu | Softcap => Value::Exact(-f.c(0).clone()),
            Selu => Value::Real(Box::new(minus_lambda_alpha)),
            Log | Rsqrt => Value::DefaultNan,
            Logsigmoid | Identity => Value::Inf { negative: true },
            LeakyRelu | Prelu => match f.c(0).cmp0() {
                Ordering::Greater => Value::Inf { negative: true },
                Ordering::Less => Value::Inf { negative: false },
                Ordering::Equal => Value::Zero { negative: true },
            },
            Hardtanh => Value::Exact(f.c(0).clone()),
            GeluClipped => clipped_special(f, Value::Zero { negative: true }),
            Xielu => match f.c(1).cmp(f.c(2)) {
                Ordering::Greater => Value::Inf { negative: false },
                Ordering::Less => Value::Inf { negative: true },
                Ordering::Equal => Value::Exact(-f.c(1).clone()),
            },
        }
    } else {
        match f.act {
            Gelu | GeluTanh | Silu | Mish | Softplus | Elu | Selu | Hardswish | Exp | Log
            | GeluQuick | Identity | Relu | Relu2 | LeakyRelu | Prelu | Celu | Swish
            | Sqrtsoftplus | Xielu => Value::Inf { negative: false },
            Sigmoid | Tanh | Softsign | Hardsigmoid | Erf | Laplace => Value::Real(Box::new(one)),
            Rsqrt => Value::Zero { negative: false },
            Logsigmoid => Value::Zero { negative: true },
            Relu6 => Value::Exact(Rational::from(6)),
            Hardtanh => Value::Exact(f.c(1).clone()),
            Softcap | Situ => Value::Exact(f.c(0).clone()),
            SwigluOai => {
                let g = f.clone();
                Value::Real(Box::new(move |prec| {
                    let l = g.cf(1, prec);
                    let k = Float::with_val(prec, &g.cf(0, prec) * &l);
                    x_over_one_plus_exp_neg(&l, &k, prec)
                }))
            }
            GeluClipped => clipped_special(f, Value::Inf { negative: false }),
        }
    }
}

/// The value at ±0.
fn at_zero(f: &Func, negative: bool) -> Value {
    use Act::*;
    match f.act {
        // Odd functions, x·g(x) with g(0) > 0, the linear functions keep the zero's sign.
        Gelu | GeluTanh | Tanh | Silu | Mish | Softsign | Elu | Selu | Hardswish | Erf
        | GeluQuick | Identity | LeakyRelu | Prelu | Celu | Softcap | Situ | SwigluOai | Swish => {
            Value::Zero { negative }
        }
        Relu | Relu2 | Relu6 => Value::Zero { negative: false },
        Sigmoid | Hardsigmoid => Value::Real(Box::new(half)),
        Softplus => Value::Real(Box::new(ln2)),
        Sqrtsoftplus => Value::Real(Box::new(|prec| ln2(prec).sqrt())),
        Exp => Value::Real(Box::new(one)),
        Log => Value::Inf { negative: true },
        Rsqrt => Value::Inf { negative },
        Logsigmoid => Value::Real(Box::new(|prec| -ln2(prec))),
        Hardtanh => {
            if f.c(0).cmp0() != Ordering::Less {
                Value::Exact(f.c(0).clone())
            } else if f.c(1).cmp0() != Ordering::Greater {
                Value::Exact(f.c(1).clone())
            } else {
                Value::Zero { negative }
            }
        }
        GeluClipped => clipped_special(f, Value::Zero { negative }),
        Laplace | Xielu => {
            let g = f.clone();
            Value::Real(Box::new(move |prec| {
                let x = Float::with_val(prec, 0);
                evaluate_func(&g, &x, &Rational::new(), prec, false)
            }))
        }
    }
}

fn value_bits(fmt: Fmt, value: Value) -> u32 {
    match value {
        Value::Zero { negative } => fmt.zero(negative),
        // E4M3 has no infinities: an infinite result is NaN with the infinity's sign (fnuz:
        // the NaN 0x80; FP6 and FP4 saturate).
        Value::Inf { negative } => fmt.overflow(negative),
        Value::DefaultNan => fmt.default_nan(),
        Value::Exact(r) => round_rational(fmt, &r).0,
        Value::Real(make) => {
            for prec in [BASE_PREC, RAISED_PRECS[0], RAISED_PRECS[1]] {
                let v = make(prec);
                let r = round_float(fmt, &v, prec - GUARD_BITS);
                if !r.near_midpoint {
                    return r.bits;
                }
            }
            panic!("a special value stays near a midpoint of {}", fmt.name())
        }
    }
}

/// The sign of f(x) for a finite nonzero x where f(x) is not exactly zero, where it is known
/// from the definition (`None` for xielu's negative side and gelu_clipped, whose sign the
/// evaluation gives).
fn value_is_negative(f: &Func, x: &Rational) -> Option<bool> {
    use Act::*;
    let neg = x.cmp0() == Ordering::Less;
    Some(match f.act {
        Gelu | GeluTanh | Tanh | Silu | Mish | Softsign | Elu | Selu | Hardswish | Erf
        | GeluQuick | Identity | Celu | Softcap | Situ | SwigluOai | Swish => neg,
        Sigmoid | Softplus | Hardsigmoid | Exp | Rsqrt | Relu | Relu2 | Relu6 | Laplace
        | Sqrtsoftplus => false,
        Log => *x < 1,
        Logsigmoid => true,
        LeakyRelu | Prelu => neg && f.c(0).cmp0() == Ordering::Greater,
        Hardtanh | GeluClipped | Xielu => return None,
    })
}

/// ln(1 + e^x) without cancellation or overflow: x + ln(1 + e^−x) for x > 0.
fn softplus(x: &Float, prec: u32) -> Float {
    if x.is_sign_positive() {
        let mut t = Float::with_val(prec, -x);
        t.exp_mut();
        t.ln_1p_mut();
        t + x
    } else {
        let mut t = Float::with_val(prec, x);
        t.exp_mut();
        t.ln_1p_mut();
        t
    }
}

/// x / (1 + e^(−k)), the form of x·sigmoid(k) that has no cancellation for any k.
fn x_over_one_plus_exp_neg(x: &Float, k: &Float, prec: u32) -> Float {
    let mut t = Float::with_val(prec, -k);
    t.exp_mut();
    t += 1;
    Float::with_val(prec, x / &t)
}

/// `c·tanh(x/c)`.
fn softcap_value(x: &Float, c: &Float, prec: u32) -> Float {
    let mut t = Float::with_val(prec, x / c);
    t.tanh_mut();
    t * c
}

/// The exact value when it is rational; `None` where the function is transcendental.
pub fn exact_rational(f: impl Into<Func>, x: &Rational) -> Option<Rational> {
    let f = f.into();
    let three = Rational::from(3);
    let positive = x.cmp0() == Ordering::Greater;
    match f.act {
        Act::Softsign => {
            let den = x.clone().abs() + 1u32;
            Some(Rational::from(x / &den))
        }
        Act::Elu | Act::Celu if positive => Some(x.clone()),
        Act::Selu if positive => Some(decimal_rational(SELU_LAMBDA) * x),
        Act::Hardsigmoid => Some(if *x >= three {
            Rational::from(1)
        } else if *x <= -three {
            Rational::new()
        } else {
            (x.clone() + 3u32) / 6u32
        }),
        Act::Hardswish => Some(if *x >= three {
            x.clone()
        } else if *x <= -three {
            Rational::new()
        } else {
            (x.clone() + 3u32) * x / 6u32
        }),
        Act::Identity => Some(x.clone()),
        Act::Relu => Some(if positive { x.clone() } else { Rational::new() }),
        Act::Relu2 => Some(if positive {
            x.clone() * x
        } else {
            Rational::new()
        }),
        Act::Relu6 => Some(if !positive {
            Rational::new()
        } else if *x >= 6 {
            Rational::from(6)
        } else {
            x.clone()
        }),
        Act::LeakyRelu | Act::Prelu => Some(if positive {
            x.clone()
        } else {
            f.c(0).clone() * x
        }),
        Act::Hardtanh => Some(if x <= f.c(0) {
            f.c(0).clone()
        } else if x >= f.c(1) {
            f.c(1).clone()
        } else {
            x.clone()
        }),
        Act::Xielu if positive => Some(f.c(0).clone() * x * x + f.c(2).clone() * x),
        Act::GeluClipped => {
            // Past a clamp the value is the constant: decided at the largest precision.
            let prec = RAISED_PRECS[1];
            let xf = Float::with_val(prec, x);
            match clip(&f, &gelu(&xf, prec, false), prec) {
                Clip::Below => Some(f.c(0).clone()),
                Clip::Above => Some(f.c(1).clone()),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Where gelu's value `g` (at `prec` bits) lies against gelu_clipped's clamps.
enum Clip {
    Below,
    Above,
    Inside,
    /// Within 2^-(prec − GUARD_BITS) of this clamp (0 for min, 1 for max).
    Near(usize),
}

fn clip(f: &Func, g: &Float, prec: u32) -> Clip {
    let mut margin = Float::with_val(prec, g.abs_ref());
    margin >>= prec - GUARD_BITS;
    for (i, want) in [(0, Ordering::Less), (1, Ordering::Greater)] {
        let d = Float::with_val(prec, g - f.c(i));
        if Float::with_val(prec, d.abs_ref()) <= margin {
            return Clip::Near(i);
        }
        if d.partial_cmp(&0) == Some(want) || d.is_zero() {
            return if i == 0 { Clip::Below } else { Clip::Above };
        }
    }
    Clip::Inside
}

/// `(x/2)·erfc(−x/√2)`. With `fast` (a value to be rounded, not measured): below −15 the value
/// is `x·erfc(u)/2` with `u = −x/√2 > 10.6`, at most `e^(−u²)/√(2π) < 2^-160`
/// (erfc(u) < e^(−u²)/(u·√π)): below half the smallest subnormal of every format (2^-150 for
/// `f32`), and on the same side of every nonzero constant (at least 2^-128 in magnitude) as
/// −2^-3000, which is returned instead (MPFR's erfc takes milliseconds for arguments between
/// 5 and 40).
fn gelu(x: &Float, prec: u32, fast: bool) -> Float {
    if fast && *x < -15 {
        let mut tiny = Float::with_val(prec, -1);
        tiny >>= 3000;
        return tiny;
    }
    let sqrt2 = Float::with_val(prec, 2).sqrt();
    let mut t = Float::with_val(prec, x / &sqrt2);
    t.neg_assign();
    t.erfc_mut();
    let mut v = Float::with_val(prec, x * &t);
    v >>= 1;
    v
}

/// f(x) at `prec` bits for a finite nonzero x (given exactly at `prec` bits and as a rational),
/// in the domain. Each step is one correctly rounded MPFR operation; formulas avoid
/// cancellation, so the relative error stays within a few units of 2^-prec times the
/// function's condition number.
pub fn evaluate(f: impl Into<Func>, x: &Float, xr: &Rational, prec: u32) -> Float {
    evaluate_func(&f.into(), x, xr, prec, false)
}

/// [`evaluate`]; with `fast`, a value to be rounded rather than measured: where the value is
/// certain to round to ∓0 or 1 in every format (gelu far below 0, laplace far from its
/// center), a stand-in that rounds the same is returned without computing it.
fn evaluate_func(f: &Func, x: &Float, xr: &Rational, prec: u32, fast: bool) -> Float {
    let rational = |f: &Func| Float::with_val(prec, &exact_rational(f, xr).expect("rational"));
    match f.act {
        Act::Gelu => gelu(x, prec, fast),
        Act::GeluTanh => {
            // (x/2)(1 + tanh z) = x / (1 + e^(−2z)), z = √(2/π)·(x + 0.044715·x³). A constant
            // given in `k` replaces √(2/π) (gelu_fast's truncated 0.7978845608: a check of the
            // engine's formula, not an actlut function).
            let c = Float::with_val(prec, &Rational::from((44715, 1_000_000)));
            let k = match f.k.first() {
                Some(k) => Float::with_val(prec, k),
                None => (Float::with_val(prec, 2) / Float::with_val(prec, Constant::Pi)).sqrt(),
            };
            let x3 = Float::with_val(prec, x * x) * x; // exact: at most 3·24 bits
            let inner = Float::with_val(prec, &c * &x3) + x;
            let mut two_z = k * inner;
            two_z <<= 1;
            x_over_one_plus_exp_neg(x, &two_z, prec)
        }
        Act::Sigmoid => x_over_one_plus_exp_neg(&one(prec), x, prec),
        Act::Tanh => Float::with_val(prec, x.tanh_ref()),
        Act::Silu => x_over_one_plus_exp_neg(x, x, prec),
        Act::Mish => {
            let mut t = softplus(x, prec);
            t.tanh_mut();
            t * x
        }
        Act::Softplus => softplus(x, prec),
        Act::Softsign => {
            let den = Float::with_val(prec, x.abs_ref()) + 1;
            Float::with_val(prec, x / &den)
        }
        Act::Elu => {
            if x.is_sign_positive() {
                x.clone()
            } else {
                Float::with_val(prec, x.exp_m1_ref()) * f.cf(0, prec)
            }
        }
        Act::Celu => {
            if x.is_sign_positive() {
                x.clone()
            } else {
                let a = f.cf(0, prec);
                let mut t = Float::with_val(prec, x / &a);
                t.exp_m1_mut();
                t * a
            }
        }
        Act::Selu => {
            if x.is_sign_positive() {
                selu_lambda(prec) * x
            } else {
                let la = selu_lambda(prec) * selu_alpha(prec);
                Float::with_val(prec, x.exp_m1_ref()) * la
            }
        }
        Act::Hardsigmoid
        | Act::Hardswish
        | Act::Identity
        | Act::Relu
        | Act::Relu2
        | Act::Relu6
        | Act::LeakyRelu
        | Act::Prelu
        | Act::Hardtanh => rational(f),
        Act::Erf => Float::with_val(prec, x.erf_ref()),
        Act::Exp => Float::with_val(prec, x.exp_ref()),
        Act::Log => Float::with_val(prec, x.ln_ref()),
        Act::Rsqrt => Float::with_val(prec, x.recip_sqrt_ref()),
        Act::GeluQuick => {
            // x / (1 + e^(−1.702·x)), 1.702 as the exact rational 1702/1000.
            let k = Float::with_val(prec, &Rational::from((1702, 1000)));
            let kx = Float::with_val(prec, &k * x);
            x_over_one_plus_exp_neg(x, &kx, prec)
        }
        Act::Logsigmoid => {
            // −softplus(−x). For large x, e^−x underflows MPFR's exponent range to 0: the value
            // is then a negative number below 2^-(2^30), which the caller rounds as −0.
            let minus_x = Float::with_val(prec, -x);
            -softplus(&minus_x, prec)
        }
        Act::Softcap => softcap_value(x, &f.cf(0, prec), prec),
        Act::Situ => {
            // beta·tanh(x/beta) / (1 + e^(−x))
            let s = softcap_value(x, &f.cf(0, prec), prec);
            x_over_one_plus_exp_neg(&s, x, prec)
        }
        Act::Swish => {
            let bx = Float::with_val(prec, &f.cf(0, prec) * x);
            x_over_one_plus_exp_neg(x, &bx, prec)
        }
        Act::SwigluOai => {
            // c = min(x, limit), decided exactly on the rational input.
            let c = if xr <= f.c(1) {
                x.clone()
            } else {
                f.cf(1, prec)
            };
            let ac = Float::with_val(prec, &f.cf(0, prec) * &c);
            x_over_one_plus_exp_neg(&c, &ac, prec)
        }
        Act::Laplace => {
            // erfc(−(x − mu)/(sigma·√2))/2, x − mu exact as a rational. With `fast`, past |u| = 10.5 the
            // value is within erfc(10.5)/2 < e^(−u²)/(2u·√π) < 2^-160 of 0 (u > 10.5) or of 1
            // (u < −10.5): beyond every format's resolution there (half the smallest f32
            // subnormal is 2^-150; 1 is a value of every format, 1 − 2^-25 its nearest
            // rounding boundary below), as 2^-3000 and 1 are, which are returned instead
            // (MPFR's erfc takes milliseconds for arguments between 5 and 40).
            let d = Float::with_val(prec, &(xr.clone() - f.c(0)));
            let s2 = f.cf(1, prec) * Float::with_val(prec, 2).sqrt();
            let mut u = Float::with_val(prec, &d / &s2);
            u.neg_assign();
            if fast && u > 10.5 {
                let mut tiny = Float::with_val(prec, 1);
                tiny >>= 3000;
                return tiny;
            }
            if fast && u < -10.5 {
                return one(prec);
            }
            u.erfc_mut();
            u >>= 1;
            u
        }
        Act::Sqrtsoftplus => softplus(x, prec).sqrt(),
        Act::GeluClipped => {
            let g = gelu(x, prec, fast);
            match clip(f, &g, prec) {
                Clip::Inside => g,
                Clip::Below | Clip::Near(0) => f.cf(0, prec),
                Clip::Above | Clip::Near(_) => f.cf(1, prec),
            }
        }
        Act::Xielu => {
            if xr.cmp0() == Ordering::Greater {
                return rational(f);
            }
            // (e^m − 1 − x)·alpha_n + beta·x, m = min(x, eps) decided exactly.
            let (an, b) = (f.cf(1, prec), f.cf(2, prec));
            let m = if xr <= f.c(3) {
                x.clone()
            } else {
                f.cf(3, prec)
            };
            let mut e = Float::with_val(prec, m.exp_m1_ref());
            e -= x;
            let t1 = e * an;
            let t2 = Float::with_val(prec, &b * x);
            t1 + t2
        }
    }
}

/// The correctly rounded output of `f` (an [`Act`] at its default constants, or a [`Func`])
/// in `fmt` for the input bit pattern `bits`.
///
/// # Panics
/// When an input stays within the near-midpoint margin at every precision of
/// [`RAISED_PRECS`] and the function has no exact rational value there.
pub fn reference(f: impl Into<Func>, fmt: Fmt, bits: u32) -> Reference {
    let [p1, p2] = RAISED_PRECS;
    reference_with_precisions(f, fmt, bits, &[BASE_PREC, p1, p2])
}

/// [`reference()`] with another ladder of precisions (the first one is the base): lets tests
/// exercise the raised-precision path with a deliberately short base precision.
///
/// # Panics
/// As [`reference()`], at the last precision of `precs`; also when `precs` is empty.
pub fn reference_with_precisions(
    f: impl Into<Func>,
    fmt: Fmt,
    bits: u32,
    precs: &[u32],
) -> Reference {
    reference_converting(f, fmt, fmt, bits, precs)
}

/// The correctly rounded output in `fmt` of `f` at the input bit pattern `bits` of another
/// format `input` (e.g. an `f32` input and an `f16` output, as quantized tables evaluate).
/// A NaN input gives the same NaN quieted when the formats are the same, and otherwise the
/// default NaN of `fmt`.
///
/// # Panics
/// As [`reference_with_precisions`].
pub fn reference_converting(
    f: impl Into<Func>,
    input: Fmt,
    fmt: Fmt,
    bits: u32,
    precs: &[u32],
) -> Reference {
    let f = f.into();
    let special = |bits| Reference {
        bits,
        path: Path::Special,
    };
    let (negative, significand, exponent) = match decode(input, bits) {
        Decoded::Nan if input == fmt => return special(bits | fmt.quiet_bit()),
        Decoded::Nan => return special(fmt.default_nan()),
        Decoded::Inf { negative } => return special(value_bits(fmt, limit(&f, negative))),
        Decoded::Zero { negative } => return special(value_bits(fmt, at_zero(&f, negative))),
        Decoded::Finite {
            negative,
            significand,
            exponent,
        } => (negative, significand, exponent),
    };
    let xr = finite_to_rational(negative, significand, exponent);
    // Domain errors and exact zeros at nonzero inputs.
    match f.act {
        Act::Log | Act::Rsqrt if negative => return special(fmt.default_nan()),
        Act::Log if xr == 1 => return special(fmt.zero(false)),
        Act::Hardsigmoid if xr <= -3 => return special(fmt.zero(false)),
        Act::Hardswish if xr <= -3 => return special(fmt.zero(true)),
        Act::Relu | Act::Relu2 | Act::Relu6 if negative => return special(fmt.zero(false)),
        Act::LeakyRelu | Act::Prelu if negative && f.c(0).cmp0() == Ordering::Equal => {
            return special(fmt.zero(true))
        }
        _ => {}
    }
    // Rational values are rounded exactly (a tie is settled to even, and an exact zero is
    // +0, as the constants of docs/SEMANTICS.md are).
    if matches!(
        f.act,
        Act::Identity
            | Act::Relu
            | Act::Relu2
            | Act::Relu6
            | Act::LeakyRelu
            | Act::Prelu
            | Act::Hardtanh
    ) || (f.act == Act::Xielu && !negative)
    {
        let exact = exact_rational(&f, &xr).expect("rational");
        let (bits, tie) = round_rational(fmt, &exact);
        let bits = if exact.cmp0() == Ordering::Equal {
            fmt.zero(false)
        } else {
            bits
        };
        return Reference {
            bits,
            path: Path::Exact { tie },
        };
    }
    let mut last = None;
    for (i, &prec) in precs.iter().enumerate() {
        let x = finite_to_float(negative, significand, exponent, prec);
        let mut v = evaluate_func(&f, &x, &xr, prec, true);
        assert!(
            !v.is_nan(),
            "{} {}: NaN at {bits:#06x}",
            f.label(),
            fmt.name()
        );
        if let Some(expect_negative) = value_is_negative(&f, &xr) {
            if v.is_zero() {
                // An underflow of the working range: the exact value is nonzero, of known sign.
                if v.is_sign_negative() != expect_negative {
                    v.neg_assign();
                }
            }
            assert_eq!(
                v.is_sign_negative(),
                expect_negative,
                "{} {}: sign of {v} at {bits:#06x}",
                f.label(),
                fmt.name()
            );
        }
        let r = round_float(fmt, &v, prec - GUARD_BITS);
        if !r.near_midpoint {
            let path = if i == 0 {
                Path::Base
            } else {
                Path::Raised { prec }
            };
            return Reference { bits: r.bits, path };
        }
        if let Some(exact) = exact_rational(&f, &xr) {
            let (bits, tie) = round_rational(fmt, &exact);
            let bits = if exact.cmp0() == Ordering::Equal {
                fmt.zero(false)
            } else {
                bits
            };
            return Reference {
                bits,
                path: Path::Exact { tie },
            };
        }
        last = Some(v);
    }
    // Still near a midpoint: if that midpoint is a point the function lies strictly on a
    // known side of (the input itself, or a limit it approaches), f(x) rounds like a value
    // just off it on that side. (Otherwise the point lies at least a quantum of the input
    // format away from every midpoint, and a residual that small cannot bridge that: such a
    // case would be a coincidence beyond every precision, and panics below.)
    let prec = *precs.last().expect("a precision");
    for (p, side) in pinned_points(&f, &xr) {
        let (_, p_is_midpoint) = round_rational(fmt, &p);
        let near_p = last.as_ref().is_some_and(|v: &Float| {
            let pf = Float::with_val(prec, &p);
            let mut margin = Float::with_val(prec, pf.abs_ref());
            margin >>= prec - GUARD_BITS;
            Float::with_val(prec, v - &pf).abs() <= margin
        });
        if p_is_midpoint && near_p {
            let mut nudge = p.clone().abs();
            nudge >>= 64u32;
            let off = match side {
                Ordering::Less => p.clone() - nudge,
                _ => p.clone() + nudge,
            };
            return Reference {
                bits: round_rational(fmt, &off).0,
                path: Path::Side,
            };
        }
    }
    panic!(
        "{} {}: input {bits:#06x} = {} stays within 2^-{} of a midpoint at {} bits: {}",
        f.label(),
        fmt.name(),
        Float::with_val(64, &xr),
        prec - GUARD_BITS,
        prec,
        last.expect("evaluated")
    )
}

/// Whether `got` (bits of `fmt`) is the correct rounding of some value within
/// 2^rel_log2 (relative) of the exact `f` at the finite nonzero input `bits` of `input`: a
/// faithful result under that error bound (0.5 ulp + 2^rel_log2). `false` for other inputs.
pub fn is_rounding_within(
    f: impl Into<Func>,
    input: Fmt,
    fmt: Fmt,
    bits: u32,
    got: u32,
    rel_log2: i32,
) -> bool {
    let f = f.into();
    rounds_within(input, fmt, bits, got, rel_log2, |negative, x, xr| {
        in_domain(&f, negative).then(|| evaluate_func(&f, x, xr, BASE_PREC, false))
    })
}

/// The input's value and f(input) at [`BASE_PREC`] bits, for messages.
pub fn describe(f: impl Into<Func>, fmt: Fmt, bits: u32) -> (String, String) {
    let f = f.into();
    describe_with(fmt, bits, |negative, x, xr| {
        in_domain(&f, negative).then(|| evaluate_func(&f, x, xr, BASE_PREC, false))
    })
}

/// Whether `f` is defined at an input of this sign (log and rsqrt are not below zero).
fn in_domain(f: &Func, negative: bool) -> bool {
    !(negative && matches!(f.act, Act::Log | Act::Rsqrt))
}

/// What [`is_rounding_within`] and its derivative's twin share: at the finite nonzero input
/// `bits` of `input`, the exact value `value(negative, x, x as a rational)` (`None` outside
/// the domain: `false`), moved by 2^rel_log2 of itself either way, and `got` compared with
/// the rounding of either end into `fmt`.
pub(crate) fn rounds_within(
    input: Fmt,
    fmt: Fmt,
    bits: u32,
    got: u32,
    rel_log2: i32,
    value: impl Fn(bool, &Float, &Rational) -> Option<Float>,
) -> bool {
    let Decoded::Finite {
        negative,
        significand,
        exponent,
    } = decode(input, bits)
    else {
        return false;
    };
    let x = finite_to_float(negative, significand, exponent, BASE_PREC);
    let xr = finite_to_rational(negative, significand, exponent);
    let Some(v) = value(negative, &x, &xr) else {
        return false;
    };
    let mut delta = Float::with_val(BASE_PREC, v.abs_ref());
    delta <<= rel_log2;
    let lo = Float::with_val(BASE_PREC, &v - &delta);
    let hi = Float::with_val(BASE_PREC, &v + &delta);
    let margin = BASE_PREC - GUARD_BITS;
    got == round_float(fmt, &lo, margin).bits || got == round_float(fmt, &hi, margin).bits
}

/// What [`describe`] and its derivative's twin share: the input `bits` of `fmt` and the
/// exact value there (`value` as for [`rounds_within`]), as text for messages.
pub(crate) fn describe_with(
    fmt: Fmt,
    bits: u32,
    value: impl Fn(bool, &Float, &Rational) -> Option<Float>,
) -> (String, String) {
    match decode(fmt, bits) {
        Decoded::Nan => ("NaN".into(), "NaN".into()),
        Decoded::Inf { negative } => {
            let s = if negative { "-inf" } else { "+inf" };
            (s.into(), format!("limit at {s}"))
        }
        Decoded::Zero { negative } => {
            let s = if negative { "-0" } else { "+0" };
            (s.into(), format!("value at {s}"))
        }
        Decoded::Finite {
            negative,
            significand,
            exponent,
        } => {
            let x = finite_to_float(negative, significand, exponent, BASE_PREC);
            let xr = finite_to_rational(negative, significand, exponent);
            let shown = match value(negative, &x, &xr) {
                Some(v) => format!("{v:.40e}"),
                None => "NaN (outside the domain)".into(),
            };
            (format!("{x:.12e}"), shown)
        }
    }
}

pub mod derivative;

#[cfg(test)]
mod tests;
