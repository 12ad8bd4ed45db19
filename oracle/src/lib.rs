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
    /// x for x > 0, else e^x − 1
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
}

impl Act {
    /// Every function the oracle knows.
    pub const ALL: [Act; 18] = [
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
        }
    }

    /// The function with this name, if the oracle knows it.
    pub fn from_name(name: &str) -> Option<Act> {
        Act::ALL.into_iter().find(|a| a.name() == name)
    }
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
    /// Near a midpoint at every precision, where the input itself is that midpoint and the
    /// function is known to lie strictly on one side of `x` (see [`side_of_input`]): e.g. gelu
    /// at a large `x`, `x − x·Φ(−x)` with a residual below 2^-4000 relative.
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
        (Gelu | GeluTanh | Silu | Mish | GeluQuick, false) => Some(Ordering::Less),
        (Softplus, _) => Some(Ordering::Greater),
        // ln sigmoid(x) = x − ln(1 + e^x) < x.
        (Logsigmoid, _) => Some(Ordering::Less),
        (Tanh | Softsign, false) => Some(Ordering::Less),
        (Tanh | Softsign, true) => Some(Ordering::Greater),
        _ => None,
    }
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
    /// An ordinary real number, rounded like any other.
    Real(fn(u32) -> Float),
}

fn one(prec: u32) -> Float {
    Float::with_val(prec, 1)
}
fn minus_one(prec: u32) -> Float {
    Float::with_val(prec, -1)
}
fn half(prec: u32) -> Float {
    Float::with_val(prec, 0.5)
}
fn ln2(prec: u32) -> Float {
    Float::with_val(prec, Constant::Log2)
}
fn minus_ln2(prec: u32) -> Float {
    -ln2(prec)
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

/// The limit at −inf (`negative`) or +inf.
fn limit(act: Act, negative: bool) -> Value {
    use Act::*;
    if negative {
        match act {
            Gelu | GeluTanh | Silu | Mish | Hardswish | GeluQuick => Value::Zero { negative: true },
            Sigmoid | Softplus | Hardsigmoid | Exp => Value::Zero { negative: false },
            Tanh | Softsign | Elu | Erf => Value::Real(minus_one),
            Selu => Value::Real(minus_lambda_alpha),
            Log | Rsqrt => Value::DefaultNan,
            Logsigmoid => Value::Inf { negative: true },
        }
    } else {
        match act {
            Gelu | GeluTanh | Silu | Mish | Softplus | Elu | Selu | Hardswish | Exp | Log
            | GeluQuick => Value::Inf { negative: false },
            Sigmoid | Tanh | Softsign | Hardsigmoid | Erf => Value::Real(one),
            Rsqrt => Value::Zero { negative: false },
            Logsigmoid => Value::Zero { negative: true },
        }
    }
}

/// The value at ±0.
fn at_zero(act: Act, negative: bool) -> Value {
    use Act::*;
    match act {
        // Odd functions, x·g(x) with g(0) > 0, elu and selu keep the zero's sign.
        Gelu | GeluTanh | Tanh | Silu | Mish | Softsign | Elu | Selu | Hardswish | Erf
        | GeluQuick => Value::Zero { negative },
        Sigmoid | Hardsigmoid => Value::Real(half),
        Softplus => Value::Real(ln2),
        Exp => Value::Real(one),
        Log => Value::Inf { negative: true },
        Rsqrt => Value::Inf { negative },
        Logsigmoid => Value::Real(minus_ln2),
    }
}

fn value_bits(fmt: Fmt, value: Value) -> u32 {
    match value {
        Value::Zero { negative } => fmt.zero(negative),
        // E4M3 has no infinities: an infinite result is NaN with the infinity's sign (fnuz:
        // the NaN 0x80; FP6 and FP4 would saturate, but no function of theirs is infinite).
        Value::Inf { negative } => fmt.overflow(negative),
        Value::DefaultNan => fmt.default_nan(),
        Value::Real(make) => {
            let v = make(BASE_PREC);
            let r = round_float(fmt, &v, BASE_PREC - GUARD_BITS);
            assert!(
                !r.near_midpoint,
                "special value {v} is near a midpoint of {}",
                fmt.name()
            );
            r.bits
        }
    }
}

/// The sign of f(x) for a finite nonzero x where f(x) is not exactly zero.
fn value_is_negative(act: Act, x: &Float) -> bool {
    use Act::*;
    match act {
        Gelu | GeluTanh | Tanh | Silu | Mish | Softsign | Elu | Selu | Hardswish | Erf
        | GeluQuick => x.is_sign_negative(),
        Sigmoid | Softplus | Hardsigmoid | Exp | Rsqrt => false,
        Log => *x < 1,
        Logsigmoid => true,
    }
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

/// The exact value when it is rational; `None` where the function is transcendental.
pub fn exact_rational(act: Act, x: &Rational) -> Option<Rational> {
    let three = Rational::from(3);
    match act {
        Act::Softsign => {
            let den = x.clone().abs() + 1u32;
            Some(Rational::from(x / &den))
        }
        Act::Elu if x.cmp0() == Ordering::Greater => Some(x.clone()),
        Act::Selu if x.cmp0() == Ordering::Greater => Some(decimal_rational(SELU_LAMBDA) * x),
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
        _ => None,
    }
}

/// f(x) at `prec` bits for a finite nonzero x (given exactly at `prec` bits and as a rational),
/// in the domain. Each step is one correctly rounded MPFR operation; formulas avoid
/// cancellation, so the relative error stays within a few units of 2^-prec times the
/// function's condition number.
pub fn evaluate(act: Act, x: &Float, xr: &Rational, prec: u32) -> Float {
    match act {
        Act::Gelu => {
            // (x/2)·erfc(−x/√2)
            let sqrt2 = Float::with_val(prec, 2).sqrt();
            let mut t = Float::with_val(prec, x / &sqrt2);
            t.neg_assign();
            t.erfc_mut();
            let mut v = Float::with_val(prec, x * &t);
            v >>= 1;
            v
        }
        Act::GeluTanh => {
            // (x/2)(1 + tanh z) = x / (1 + e^(−2z)), z = √(2/π)·(x + 0.044715·x³)
            let c = Float::with_val(prec, &Rational::from((44715, 1_000_000)));
            let k = (Float::with_val(prec, 2) / Float::with_val(prec, Constant::Pi)).sqrt();
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
                Float::with_val(prec, x.exp_m1_ref())
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
        Act::Hardsigmoid | Act::Hardswish => {
            Float::with_val(prec, &exact_rational(act, xr).expect("rational"))
        }
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
    }
}

/// The correctly rounded output of `act` in `fmt` for the input bit pattern `bits`.
///
/// # Panics
/// When an input stays within the near-midpoint margin at every precision of
/// [`RAISED_PRECS`] and the function has no exact rational value there.
pub fn reference(act: Act, fmt: Fmt, bits: u32) -> Reference {
    let [p1, p2] = RAISED_PRECS;
    reference_with_precisions(act, fmt, bits, &[BASE_PREC, p1, p2])
}

/// [`reference()`] with another ladder of precisions (the first one is the base): lets tests
/// exercise the raised-precision path with a deliberately short base precision.
///
/// # Panics
/// As [`reference()`], at the last precision of `precs`; also when `precs` is empty.
pub fn reference_with_precisions(act: Act, fmt: Fmt, bits: u32, precs: &[u32]) -> Reference {
    reference_converting(act, fmt, fmt, bits, precs)
}

/// The correctly rounded output in `fmt` of `act` at the input bit pattern `bits` of another
/// format `input` (e.g. an `f32` input and an `f16` output, as quantized tables evaluate).
/// A NaN input gives the same NaN quieted when the formats are the same, and otherwise the
/// default NaN of `fmt`.
///
/// # Panics
/// As [`reference_with_precisions`].
pub fn reference_converting(act: Act, input: Fmt, fmt: Fmt, bits: u32, precs: &[u32]) -> Reference {
    let special = |bits| Reference {
        bits,
        path: Path::Special,
    };
    let (negative, significand, exponent) = match decode(input, bits) {
        Decoded::Nan if input == fmt => return special(bits | fmt.quiet_bit()),
        Decoded::Nan => return special(fmt.default_nan()),
        Decoded::Inf { negative } => return special(value_bits(fmt, limit(act, negative))),
        Decoded::Zero { negative } => return special(value_bits(fmt, at_zero(act, negative))),
        Decoded::Finite {
            negative,
            significand,
            exponent,
        } => (negative, significand, exponent),
    };
    let xr = finite_to_rational(negative, significand, exponent);
    // Domain errors and exact zeros at nonzero inputs.
    match act {
        Act::Log | Act::Rsqrt if negative => return special(fmt.default_nan()),
        Act::Log if xr == 1 => return special(fmt.zero(false)),
        Act::Hardsigmoid if xr <= -3 => return special(fmt.zero(false)),
        Act::Hardswish if xr <= -3 => return special(fmt.zero(true)),
        _ => {}
    }
    let mut last = None;
    for (i, &prec) in precs.iter().enumerate() {
        let x = finite_to_float(negative, significand, exponent, prec);
        let mut v = evaluate(act, &x, &xr, prec);
        assert!(
            !v.is_nan(),
            "{} {}: NaN at {bits:#06x}",
            act.name(),
            fmt.name()
        );
        let expect_negative = value_is_negative(act, &x);
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
            act.name(),
            fmt.name()
        );
        let r = round_float(fmt, &v, prec - GUARD_BITS);
        if !r.near_midpoint {
            let path = if i == 0 {
                Path::Base
            } else {
                Path::Raised { prec }
            };
            return Reference { bits: r.bits, path };
        }
        if let Some(exact) = exact_rational(act, &xr) {
            let (bits, tie) = round_rational(fmt, &exact);
            return Reference {
                bits,
                path: Path::Exact { tie },
            };
        }
        last = Some(v);
    }
    // Still near a midpoint: if the input itself is that midpoint and f lies strictly on a known
    // side of it, f(x) rounds like a value just off x on that side. (If x is not a midpoint, it
    // lies at least a quantum of the input format away from every midpoint, and a residual that
    // small cannot bridge that: such a case would be a coincidence beyond every precision, and
    // panics below.)
    let (_, x_is_midpoint) = round_rational(fmt, &xr);
    let prec = *precs.last().expect("a precision");
    let near_x = last.as_ref().is_some_and(|v: &Float| {
        let x = finite_to_float(negative, significand, exponent, prec);
        let mut margin = Float::with_val(prec, x.abs_ref());
        margin >>= prec - GUARD_BITS;
        Float::with_val(prec, v - &x).abs() <= margin
    });
    if let (true, true, Some(side)) = (x_is_midpoint, near_x, side_of_input(act, negative)) {
        let mut nudge = xr.clone().abs();
        nudge >>= 64u32;
        let off = match side {
            Ordering::Less => xr.clone() - nudge,
            _ => xr.clone() + nudge,
        };
        return Reference {
            bits: round_rational(fmt, &off).0,
            path: Path::Side,
        };
    }
    panic!(
        "{} {}: input {bits:#06x} = {} stays within 2^-{} of a midpoint at {} bits: {}",
        act.name(),
        fmt.name(),
        Float::with_val(64, &xr),
        precs.last().expect("a precision") - GUARD_BITS,
        precs.last().expect("a precision"),
        last.expect("evaluated")
    )
}

/// Whether `got` (bits of `fmt`) is the correct rounding of some value within
/// 2^rel_log2 (relative) of the exact `act` at the finite nonzero input `bits` of `input`: a
/// faithful result under that error bound (0.5 ulp + 2^rel_log2). `false` for other inputs.
pub fn is_rounding_within(
    act: Act,
    input: Fmt,
    fmt: Fmt,
    bits: u32,
    got: u32,
    rel_log2: i32,
) -> bool {
    let Decoded::Finite {
        negative,
        significand,
        exponent,
    } = decode(input, bits)
    else {
        return false;
    };
    if negative && matches!(act, Act::Log | Act::Rsqrt) {
        return false;
    }
    let x = finite_to_float(negative, significand, exponent, BASE_PREC);
    let xr = finite_to_rational(negative, significand, exponent);
    let v = evaluate(act, &x, &xr, BASE_PREC);
    let mut delta = Float::with_val(BASE_PREC, v.abs_ref());
    delta <<= rel_log2;
    let lo = Float::with_val(BASE_PREC, &v - &delta);
    let hi = Float::with_val(BASE_PREC, &v + &delta);
    let margin = BASE_PREC - GUARD_BITS;
    got == round_float(fmt, &lo, margin).bits || got == round_float(fmt, &hi, margin).bits
}

/// The input's value and f(input) at [`BASE_PREC`] bits, for messages.
pub fn describe(act: Act, fmt: Fmt, bits: u32) -> (String, String) {
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
            let input = format!("{:.12e}", x);
            let in_domain = !(negative && matches!(act, Act::Log | Act::Rsqrt));
            let value = if in_domain {
                format!("{:.40e}", evaluate(act, &x, &xr, BASE_PREC))
            } else {
                "NaN (outside the domain)".into()
            };
            (input, value)
        }
    }
}

#[cfg(test)]
mod tests;
