//! Number formats: exact decoding of every bit pattern to `f64`, and one
//! round-to-nearest-even encoding from `f64`.
//!
//! Each format is one [`Spec`] (its width, fields, bias, special values and
//! names, ml_dtypes' among them); every list of formats in actlut derives from
//! [`Format::ALL`] and these specs.

/// A table format: the number format of a table's inputs and outputs.
///
/// Every format here is a subset of `f64`, so decoding is exact and a value is
/// rounded exactly once when it is encoded.
///
/// The 6- and 4-bit formats (FP6, FP4) hold their code in the low bits of a
/// `u16` (and of a byte in tables); the bits above the format's width are
/// ignored by [`decode`](Self::decode), [`is_nan`](Self::is_nan) and
/// [`eval`](crate::eval), as they are for the 8-bit formats.
///
/// Each format's name in ml_dtypes (numpy's `float16` for `f16`) is
/// [`dtype_name`](Self::dtype_name); other libraries' names parse too
/// ([`str::parse`], [`names::FORMAT_NAMES`](crate::names::FORMAT_NAMES)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Format {
    /// IEEE 754 binary16: 1 sign, 5 exponent, 10 fraction bits, bias 15, max 65504.
    F16,
    /// bfloat16: 1 sign, 8 exponent, 7 fraction bits, bias 127, max ≈ 3.39e38.
    /// Subnormals are real values, not flushed.
    Bf16,
    /// OCP FP8 E4M3 ("fn", ml_dtypes' `float8_e4m3fn`): 1 sign, 4 exponent, 3 fraction
    /// bits, bias 7, max 448, no infinities, NaN is `S.1111.111` only. Not the IEEE-like
    /// `float8_e4m3`, which is [`Fp8E4M3Ieee`](Self::Fp8E4M3Ieee).
    Fp8E4M3,
    /// OCP FP8 E5M2: 1 sign, 5 exponent, 2 fraction bits, bias 15, max 57344,
    /// IEEE-like with ±inf and NaN `S.11111.{01,10,11}`.
    Fp8E5M2,
    /// `float8_e4m3fnuz` (AMD MI300, ml_dtypes): 1 sign, 4 exponent, 3 fraction
    /// bits, bias 8, max 240. No infinities and no −0: the only NaN is `0x80`,
    /// every zero is `0x00`, and an overflow becomes that NaN.
    Fp8E4M3Fnuz,
    /// `float8_e5m2fnuz` (AMD MI300, ml_dtypes): 1 sign, 5 exponent, 2 fraction
    /// bits, bias 16, max 57344. The special values of [`Fp8E4M3Fnuz`](Self::Fp8E4M3Fnuz).
    Fp8E5M2Fnuz,
    /// OCP MX FP6 E2M3: 1 sign, 2 exponent, 3 fraction bits, bias 1, max 7.5.
    /// Every code is finite (no infinities, no NaN); an overflow saturates to ±7.5.
    Fp6E2M3,
    /// OCP MX FP6 E3M2: 1 sign, 3 exponent, 2 fraction bits, bias 3, max 28.
    /// Every code is finite; an overflow saturates to ±28.
    Fp6E3M2,
    /// OCP MX FP4 E2M1: 1 sign, 2 exponent, 1 fraction bit, bias 1; the values
    /// ±{0, 0.5, 1, 1.5, 2, 3, 4, 6}. Every code is finite; an overflow saturates to ±6.
    Fp4E2M1,
    /// `float8_e3m4` (ml_dtypes): 1 sign, 3 exponent, 4 fraction bits, bias 3, max 15.5;
    /// IEEE-like: ±inf `S.111.0000`, NaN `S.111.xxxx` otherwise, default NaN `0x78`.
    Fp8E3M4,
    /// `float8_e4m3` (ml_dtypes, LLVM's `Float8E4M3`): the IEEE-like E4M3, 1 sign, 4
    /// exponent, 3 fraction bits, bias 7, max 240; ±inf `S.1111.000`, NaN `S.1111.xxx`
    /// otherwise, default NaN `0x7C`. actlut's `fp8_e4m3` is the other E4M3 ("fn").
    Fp8E4M3Ieee,
    /// `float8_e4m3b11fnuz` (ml_dtypes; Graphcore): 1 sign, 4 exponent, 3 fraction bits,
    /// bias 11, max 30; the special values of [`Fp8E4M3Fnuz`](Self::Fp8E4M3Fnuz).
    Fp8E4M3B11Fnuz,
    /// `float8_e5m3fnu` (ml_dtypes; NVIDIA's UE5M3 scale): no sign, 5 exponent, 3 fraction
    /// bits, bias 15, max 114688; no infinities, `0xFF` the only NaN. A negative value
    /// becomes that NaN (docs/SEMANTICS.md).
    Fp8E5M3Fnu,
    /// `float8_e8m0fnu` (ml_dtypes, PyTorch; the OCP MX scale E8M0): the powers of two
    /// 2^(code − 127) for codes 0..=254, and `0xFF` the NaN. No sign, no zero, no
    /// fraction: zero and negative values become the NaN (docs/SEMANTICS.md).
    Fp8E8M0Fnu,
}

/// How a format spends its special bit patterns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Specials {
    /// IEEE: all-ones exponent is ±inf (zero fraction) or NaN.
    Ieee,
    /// No infinities; only the all-ones magnitude is NaN (OCP E4M3FN; the unsigned
    /// E5M3FNU and E8M0FNU, whose all-ones code is their NaN).
    OnesNan,
    /// "fnuz": no infinities, no −0; the negative-zero pattern is the only NaN.
    Fnuz,
    /// OCP MX FP6/FP4: every pattern is a finite number; overflow saturates.
    Finite,
}

/// One format, as data: every property of [`Format`] is read from its spec.
#[derive(Clone, Copy, Debug)]
struct Spec {
    /// actlut's name (table names): `fp8_e4m3`.
    name: &'static str,
    /// The runtime crate's cargo feature: `fp8-e4m3`.
    feature: &'static str,
    /// The numpy dtype's name: ml_dtypes' (`float8_e4m3fn`), numpy's `float16` for f16.
    dtype: &'static str,
    /// Total width in bits.
    width: u32,
    /// Stored fraction bits (significand bits minus the hidden bit).
    frac: u32,
    /// Exponent field width.
    exp: u32,
    /// Exponent bias.
    bias: i32,
    specials: Specials,
    /// Bit that quiets a NaN (the top fraction bit; 0 where a format's NaN is kept as it is).
    quiet: u16,
    /// Whether the top bit is a sign (all but E5M3FNU and E8M0FNU).
    signed: bool,
    /// Whether the exponent field 0 holds zero and the subnormals (all but E8M0FNU, where
    /// it is the binade of 2^-127: there is no zero).
    zero: bool,
}

/// A signed format of `width` bits with zero and subnormals, whose NaNs are kept as they
/// are (`quiet` 0).
#[allow(clippy::too_many_arguments)]
const fn plain(
    name: &'static str,
    feature: &'static str,
    dtype: &'static str,
    width: u32,
    frac: u32,
    exp: u32,
    bias: i32,
    specials: Specials,
) -> Spec {
    Spec {
        name,
        feature,
        dtype,
        width,
        frac,
        exp,
        bias,
        specials,
        quiet: 0,
        signed: true,
        zero: true,
    }
}

/// An IEEE-like signed format: all-ones exponent ±inf and NaN, the top fraction bit quiets.
const fn ieee(
    name: &'static str,
    feature: &'static str,
    dtype: &'static str,
    width: u32,
    frac: u32,
    exp: u32,
    bias: i32,
) -> Spec {
    Spec {
        quiet: 1 << (frac - 1),
        ..plain(name, feature, dtype, width, frac, exp, bias, Specials::Ieee)
    }
}

impl Format {
    /// Every format, in a fixed order (the order of the lock file; formats added
    /// later come last, so that existing lock lines stay where they are).
    pub const ALL: [Format; 14] = [
        Format::F16,
        Format::Bf16,
        Format::Fp8E4M3,
        Format::Fp8E5M2,
        Format::Fp8E4M3Fnuz,
        Format::Fp8E5M2Fnuz,
        Format::Fp6E2M3,
        Format::Fp6E3M2,
        Format::Fp4E2M1,
        Format::Fp8E3M4,
        Format::Fp8E4M3Ieee,
        Format::Fp8E4M3B11Fnuz,
        Format::Fp8E5M3Fnu,
        Format::Fp8E8M0Fnu,
    ];

    /// The one description of the format.
    const fn spec(self) -> Spec {
        use Specials::*;
        match self {
            Format::F16 => ieee("f16", "f16", "float16", 16, 10, 5, 15),
            Format::Bf16 => ieee("bf16", "bf16", "bfloat16", 16, 7, 8, 127),
            Format::Fp8E4M3 => plain("fp8_e4m3", "fp8-e4m3", "float8_e4m3fn", 8, 3, 4, 7, OnesNan),
            Format::Fp8E5M2 => ieee("fp8_e5m2", "fp8-e5m2", "float8_e5m2", 8, 2, 5, 15),
            Format::Fp8E4M3Fnuz => plain(
                "fp8_e4m3fnuz",
                "fp8-e4m3fnuz",
                "float8_e4m3fnuz",
                8,
                3,
                4,
                8,
                Fnuz,
            ),
            Format::Fp8E5M2Fnuz => plain(
                "fp8_e5m2fnuz",
                "fp8-e5m2fnuz",
                "float8_e5m2fnuz",
                8,
                2,
                5,
                16,
                Fnuz,
            ),
            Format::Fp6E2M3 => plain("fp6_e2m3", "fp6-e2m3", "float6_e2m3fn", 6, 3, 2, 1, Finite),
            Format::Fp6E3M2 => plain("fp6_e3m2", "fp6-e3m2", "float6_e3m2fn", 6, 2, 3, 3, Finite),
            Format::Fp4E2M1 => plain("fp4_e2m1", "fp4-e2m1", "float4_e2m1fn", 4, 1, 2, 1, Finite),
            Format::Fp8E3M4 => ieee("fp8_e3m4", "fp8-e3m4", "float8_e3m4", 8, 4, 3, 3),
            Format::Fp8E4M3Ieee => ieee("fp8_e4m3ieee", "fp8-e4m3ieee", "float8_e4m3", 8, 3, 4, 7),
            Format::Fp8E4M3B11Fnuz => plain(
                "fp8_e4m3b11fnuz",
                "fp8-e4m3b11fnuz",
                "float8_e4m3b11fnuz",
                8,
                3,
                4,
                11,
                Fnuz,
            ),
            Format::Fp8E5M3Fnu => Spec {
                signed: false,
                ..plain(
                    "fp8_e5m3fnu",
                    "fp8-e5m3fnu",
                    "float8_e5m3fnu",
                    8,
                    3,
                    5,
                    15,
                    OnesNan,
                )
            },
            Format::Fp8E8M0Fnu => Spec {
                signed: false,
                zero: false,
                ..plain(
                    "fp8_e8m0fnu",
                    "fp8-e8m0fnu",
                    "float8_e8m0fnu",
                    8,
                    0,
                    8,
                    127,
                    OnesNan,
                )
            },
        }
    }

    /// The format's name as used in table names: `f16`, `bf16`, `fp8_e4m3`,
    /// `fp8_e5m2`, `fp8_e4m3fnuz`, `fp8_e5m2fnuz`, `fp6_e2m3`, `fp6_e3m2`, `fp4_e2m1`,
    /// `fp8_e3m4`, `fp8_e4m3ieee`, `fp8_e4m3b11fnuz`, `fp8_e5m3fnu`, `fp8_e8m0fnu`.
    pub const fn name(self) -> &'static str {
        self.spec().name
    }

    /// The cargo feature of the runtime crate that enables this format's tables:
    /// the [`name`](Self::name) in kebab case (`fp8-e4m3`, `fp6-e2m3`, …).
    pub const fn feature(self) -> &'static str {
        self.spec().feature
    }

    /// The name of the format's numpy dtype: ml_dtypes' (`bfloat16`, `float8_e4m3fn`,
    /// `float8_e4m3`, `float6_e2m3fn`, `float8_e8m0fnu`, …), and numpy's own `float16` for
    /// `f16`. Every float dtype of ml_dtypes 0.7 is the dtype of one format.
    ///
    /// ```
    /// use actlut_core::Format;
    /// assert_eq!(Format::Fp8E4M3.dtype_name(), "float8_e4m3fn");
    /// assert_eq!(Format::Fp8E4M3Ieee.dtype_name(), "float8_e4m3");
    /// ```
    pub const fn dtype_name(self) -> &'static str {
        self.spec().dtype
    }

    /// Looks a format up by its [`name`](Self::name) only; [`str::parse`] also takes
    /// feature names and other libraries' names.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Width of one value in bits (16, 8, 6 or 4).
    pub const fn bits(self) -> u32 {
        self.spec().width
    }

    /// Stored fraction bits (the significand's bits after the hidden one): 10
    /// for f16, 7 for bf16, 3 for E4M3, 2 for E5M2, 1 for FP4, 0 for E8M0.
    pub const fn fraction_bits(self) -> u32 {
        self.spec().frac
    }

    /// The exponent bias: 15 for f16, 127 for bf16, 7 for E4M3, 8 for
    /// E4M3FNUZ, 16 for E5M2FNUZ, 11 for E4M3B11FNUZ.
    pub const fn exponent_bias(self) -> i32 {
        self.spec().bias
    }

    /// Number of distinct bit patterns, which is the number of entries of a table
    /// over this format: 65,536, 256, 64 or 16.
    pub const fn entries(self) -> usize {
        1 << self.spec().width
    }

    /// Bytes of one table entry: 2 for the 16-bit formats, 1 for the others (a
    /// 6- or 4-bit code sits in the low bits of its byte).
    pub const fn entry_bytes(self) -> usize {
        self.spec().width.div_ceil(8) as usize
    }

    /// Bytes of one whole table: `entries() * entry_bytes()`.
    pub const fn table_bytes(self) -> usize {
        self.entries() * self.entry_bytes()
    }

    /// Mask of the bits of one code: `0xFFFF`, `0xFF`, `0x3F` or `0x0F`.
    pub const fn code_mask(self) -> u16 {
        ((1u32 << self.spec().width) - 1) as u16
    }

    /// The sign bit, or 0 for the unsigned formats.
    const fn sign_bit(self) -> u16 {
        if self.spec().signed {
            1 << (self.spec().width - 1)
        } else {
            0
        }
    }

    /// Mask of the magnitude bits (everything but the sign).
    const fn mag_mask(self) -> u16 {
        self.code_mask() & !self.sign_bit()
    }

    /// Whether the format has a sign bit: every format but `fp8_e5m3fnu` and
    /// `fp8_e8m0fnu`, whose values are all positive.
    pub const fn is_signed(self) -> bool {
        self.spec().signed
    }

    /// Whether the format has a zero: every format but `fp8_e8m0fnu`, whose smallest
    /// value is 2^-127.
    pub const fn has_zero(self) -> bool {
        self.spec().zero
    }

    /// Whether the format has ±infinity (f16, bf16, E5M2, E3M4, the IEEE E4M3).
    pub const fn has_inf(self) -> bool {
        matches!(self.spec().specials, Specials::Ieee)
    }

    /// Whether the format has a NaN: every format but the OCP MX FP6 and FP4 ones.
    pub const fn has_nan(self) -> bool {
        !matches!(self.spec().specials, Specials::Finite)
    }

    /// Whether the format has −0: every signed format but the fnuz ones, whose
    /// negative-zero pattern is their NaN.
    pub const fn has_negative_zero(self) -> bool {
        self.spec().signed && !matches!(self.spec().specials, Specials::Fnuz)
    }

    /// Whether a value beyond the largest finite one saturates to ±max (FP6,
    /// FP4: OCP MX and ml_dtypes) rather than becoming ±inf or NaN.
    pub const fn saturates(self) -> bool {
        matches!(self.spec().specials, Specials::Finite)
    }

    /// Bit pattern of the largest finite positive value.
    pub const fn max_finite_bits(self) -> u16 {
        let s = self.spec();
        match s.specials {
            Specials::Ieee => ((1u16 << s.exp) - 2) << s.frac | ((1u16 << s.frac) - 1),
            // S.1111.110 (or 0xFE unsigned): the all-ones pattern is NaN.
            Specials::OnesNan => self.mag_mask() - 1,
            // Every positive pattern is finite.
            Specials::Fnuz | Specials::Finite => self.mag_mask(),
        }
    }

    /// Bit pattern of +inf, or `None` for formats without infinities.
    pub const fn inf_bits(self) -> Option<u16> {
        let s = self.spec();
        match s.specials {
            Specials::Ieee => Some(((1u16 << s.exp) - 1) << s.frac),
            _ => None,
        }
    }

    /// The positive default quiet NaN: the result of a NaN made from a non-NaN
    /// input (`0x7E00`, `0x7FC0`, `0x7F`, `0x7E`, `0x78` for E3M4, `0x7C` for the IEEE
    /// E4M3; `0x80` for the fnuz formats and `0xFF` for the unsigned ones, whose only NaN
    /// it is).
    ///
    /// # Panics
    ///
    /// For a format without NaN (FP6, FP4; see [`has_nan`](Self::has_nan)).
    pub const fn default_nan_bits(self) -> u16 {
        let s = self.spec();
        match s.specials {
            Specials::Ieee => ((1u16 << s.exp) - 1) << s.frac | s.quiet,
            Specials::OnesNan => self.mag_mask(),
            Specials::Fnuz => self.sign_bit(),
            Specials::Finite => panic!("the OCP MX FP6 and FP4 formats have no NaN"),
        }
    }

    /// Whether `bits` encodes a NaN (bits above the format's width are ignored).
    pub const fn is_nan(self, bits: u16) -> bool {
        let s = self.spec();
        let mag = bits & self.mag_mask();
        match s.specials {
            Specials::Ieee => {
                let inf = ((1u16 << s.exp) - 1) << s.frac;
                mag > inf
            }
            Specials::OnesNan => mag == self.mag_mask(),
            Specials::Fnuz => bits & self.code_mask() == self.sign_bit(),
            Specials::Finite => false,
        }
    }

    /// The same NaN, quieted: sign and payload kept, quiet bit set (E4M3 has one
    /// NaN per sign, and the fnuz and unsigned formats one NaN in all: those are kept).
    pub const fn quiet_nan(self, bits: u16) -> u16 {
        bits | self.spec().quiet
    }

    /// The unbiased exponent of the binade whose exponent field is `field`: the
    /// subnormals' (field 0) is that of field 1, except in E8M0, where field 0 is a
    /// binade of its own.
    const fn binade(self, field: i32) -> i32 {
        let s = self.spec();
        if field == 0 && s.zero {
            1 - s.bias
        } else {
            field - s.bias
        }
    }

    /// Decodes a bit pattern to its exact value. NaN patterns decode to an `f64`
    /// NaN with the pattern's sign (the fnuz NaN `0x80` to a negative one, as
    /// ml_dtypes does; the unsigned formats' NaN to a positive one). Bits above the
    /// format's width are ignored.
    pub fn decode(self, bits: u16) -> f64 {
        let s = self.spec();
        let bits = bits & self.code_mask();
        let neg = bits & self.sign_bit() != 0;
        let e = i32::from((bits >> s.frac) & ((1 << s.exp) - 1));
        let f = f64::from(bits & ((1 << s.frac) - 1));
        let emax_field = (1 << s.exp) - 1;
        let mag = if self.is_nan(bits) {
            f64::NAN
        } else if s.specials == Specials::Ieee && e == emax_field {
            f64::INFINITY
        } else if e == 0 && s.zero {
            // Subnormal: f · 2^(1 − bias − frac). Exact: a small integer times a power of two.
            libm::scalbn(f, self.binade(0) - s.frac as i32)
        } else {
            libm::scalbn(
                f + f64::from(1u32 << s.frac),
                self.binade(e) - s.frac as i32,
            )
        };
        if neg {
            -mag
        } else {
            mag
        }
    }

    /// What a value beyond the largest finite one becomes, with the sign bits
    /// `sign`: ±inf, NaN of the sign (E4M3; the unsigned formats' NaN), the NaN `0x80`
    /// (fnuz), or ±max (FP6, FP4).
    const fn overflow_bits(self, sign: u16) -> u16 {
        match self.spec().specials {
            Specials::Ieee | Specials::OnesNan => match self.inf_bits() {
                Some(inf) => sign | inf,
                None => sign | self.mag_mask(),
            },
            Specials::Fnuz => self.sign_bit(),
            Specials::Finite => sign | self.max_finite_bits(),
        }
    }

    /// A zero with the sign bits `sign`: +0 where the format has no −0, and the NaN
    /// in E8M0, which has no zero.
    const fn zero_bits(self, sign: u16) -> u16 {
        if !self.has_zero() {
            self.default_nan_bits()
        } else if self.has_negative_zero() {
            sign
        } else {
            0
        }
    }

    /// Encodes `v` with a single rounding to nearest, ties to even, following
    /// docs/SEMANTICS.md: subnormals rounded as subnormals; a value whose rounding
    /// (with unbounded exponent) exceeds the largest finite value becomes ±inf
    /// (f16, bf16, E5M2, E3M4, the IEEE E4M3), NaN with the value's sign (E4M3), the
    /// NaN `0x80` (fnuz), the NaN `0xFF` (the unsigned formats), or saturates to ±max
    /// (FP6, FP4); ±inf likewise. A negative value that rounds to zero is −0, or +0 in
    /// the fnuz formats, which have no −0. A NaN `v` becomes the positive default NaN.
    ///
    /// The unsigned formats hold no negative value: every negative `v`, however small,
    /// becomes their NaN (−0 is +0 in E5M3FNU). E8M0 has no zero: ±0 becomes its NaN,
    /// and a positive value below 2^-127 rounds to 2^-127. With no fraction bit, a tie
    /// of E8M0 (3·2^(k−1), between 2^(k−1) and 2^k) goes to the even multiple of the
    /// binade's quantum 2^(k−1), which is 2^k: up. All as ml_dtypes converts.
    ///
    /// # Panics
    ///
    /// If `v` is NaN and the format has no NaN (FP6, FP4): no code could hold it.
    pub fn encode(self, v: f64) -> u16 {
        let s = self.spec();
        if v.is_nan() {
            if !self.has_nan() {
                panic!("{}: cannot encode NaN, the format has no NaN", self.name());
            }
            return self.default_nan_bits();
        }
        let negative = v.is_sign_negative();
        if negative && !s.signed && v != 0.0 {
            return self.default_nan_bits();
        }
        let sign = if negative { self.sign_bit() } else { 0 };
        let a = v.abs();
        let overflow = self.overflow_bits(sign);
        if a == f64::INFINITY {
            return overflow;
        }
        if a == 0.0 {
            return self.zero_bits(sign);
        }
        let emin = self.binade(0);
        // floor(log2 a): frexp gives a = m·2^e with m in [0.5, 1).
        let e = libm::frexp(a).1 - 1;
        // The quantum (value of one unit in the last place) at a's binade, or the
        // subnormal quantum below the normal range.
        let mut q_exp = e.max(emin) - s.frac as i32;
        // a / quantum, exact: scaling by a power of two into [0, 2^(frac+1)).
        let n = libm::scalbn(a, -q_exp);
        let mut int = round_half_even(n);
        let hidden = 1u64 << s.frac;
        if int == hidden << 1 {
            // Rounded up into the next binade.
            int = hidden;
            q_exp += 1;
        }
        if int == 0 {
            if !s.zero {
                // No zero to round to: the smallest value is the nearest.
                int = hidden;
            } else {
                return self.zero_bits(sign);
            }
        }
        let (field, fraction) = if int >= hidden {
            (q_exp + s.frac as i32 + s.bias, int - hidden)
        } else {
            (0, int)
        };
        // Unbounded-exponent rounding: compare against the largest finite pattern.
        let max = self.max_finite_bits();
        let max_field = i32::from(max >> s.frac);
        if field > max_field || (field == max_field && fraction > u64::from(max) & (hidden - 1)) {
            return overflow;
        }
        sign | (field as u16) << s.frac | fraction as u16
    }

    /// The exact value halfway between the finite magnitudes `mag` and `mag + 1`
    /// (bit patterns without sign); for the largest finite magnitude, the
    /// overflow threshold `max + quantum/2`, the quantum of max's binade (which is
    /// no rounding boundary in a [saturating](Self::saturates) format).
    pub(crate) fn upper_boundary(self, mag: u16) -> f64 {
        let v = self.decode(mag);
        if mag == self.max_finite_bits() {
            let s = self.spec();
            let field = i32::from(mag >> s.frac);
            v + libm::scalbn(0.5, self.binade(field) - s.frac as i32)
        } else {
            (v + self.decode(mag + 1)) / 2.0
        }
    }

    /// Whether the magnitude bits `mag` encode a finite value.
    pub(crate) fn is_finite_mag(self, mag: u16) -> bool {
        mag <= self.max_finite_bits()
    }

    /// The magnitude bits (sign cleared) of `bits`.
    pub(crate) fn mag(self, bits: u16) -> u16 {
        bits & self.mag_mask()
    }

    /// Whether the sign bit of `bits` is set (never, in the unsigned formats).
    pub fn is_sign_negative(self, bits: u16) -> bool {
        bits & self.sign_bit() != 0
    }
}

/// Rounds a non-negative `f64` below 2^53 to the nearest integer, ties to even.
fn round_half_even(n: f64) -> u64 {
    let f = libm::floor(n);
    let d = n - f; // exact: n and f share their binade or f is 0
    let i = f as u64;
    if d > 0.5 || (d == 0.5 && i & 1 == 1) {
        i + 1
    } else {
        i
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Format {
        /// The pattern of the smallest normal value: exponent field 1 (0 in E8M0).
        fn field_one(self) -> u16 {
            if self.has_zero() {
                1 << self.fraction_bits()
            } else {
                0
            }
        }
    }
    use half::{bf16, f16};

    #[test]
    fn f16_decode_matches_half_on_every_input() {
        for b in 0..=u16::MAX {
            let ours = Format::F16.decode(b);
            let theirs = f16::from_bits(b).to_f64();
            if theirs.is_nan() {
                assert!(ours.is_nan(), "{b:#06x}");
                assert!(Format::F16.is_nan(b), "{b:#06x}");
                assert_eq!(
                    ours.is_sign_negative(),
                    theirs.is_sign_negative(),
                    "{b:#06x}"
                );
            } else {
                assert_eq!(ours.to_bits(), theirs.to_bits(), "{b:#06x}");
                assert!(!Format::F16.is_nan(b), "{b:#06x}");
            }
        }
    }

    #[test]
    fn bf16_decode_matches_half_on_every_input() {
        for b in 0..=u16::MAX {
            let ours = Format::Bf16.decode(b);
            let theirs = bf16::from_bits(b).to_f64();
            if theirs.is_nan() {
                assert!(ours.is_nan() && Format::Bf16.is_nan(b), "{b:#06x}");
            } else {
                assert_eq!(ours.to_bits(), theirs.to_bits(), "{b:#06x}");
            }
        }
    }

    /// Every finite value round-trips, for every format.
    #[test]
    fn encode_decode_round_trips_every_finite_pattern() {
        for fmt in Format::ALL {
            for b in (0..fmt.entries()).map(|i| i as u16) {
                let v = fmt.decode(b);
                if v.is_nan() || v.is_infinite() {
                    continue;
                }
                assert_eq!(fmt.encode(v), b, "{fmt:?} {b:#06x}");
            }
        }
    }

    /// Midpoints between neighbours round to the even one, and points just off
    /// the midpoint round to the nearer neighbour; checked for every adjacent pair.
    #[test]
    fn encode_rounds_every_midpoint_to_even_and_neighbours_to_nearest() {
        for fmt in Format::ALL {
            for mag in 0..fmt.max_finite_bits() {
                let lo = fmt.decode(mag);
                let hi = fmt.decode(mag + 1);
                let mid = (lo + hi) / 2.0;
                // The even one; without fraction bits (E8M0) the even multiple of the
                // lower value's quantum, which is the upper value.
                let even = if mag & 1 == 0 && fmt.fraction_bits() > 0 {
                    mag
                } else {
                    mag + 1
                };
                assert_eq!(fmt.encode(mid), even, "{fmt:?} mid above {mag:#x}");
                let below = f64::from_bits(mid.to_bits() - 1);
                let above = f64::from_bits(mid.to_bits() + 1);
                assert_eq!(fmt.encode(below), mag, "{fmt:?} below mid {mag:#x}");
                assert_eq!(fmt.encode(above), mag + 1, "{fmt:?} above mid {mag:#x}");
                // Negative side mirrors with the sign bit set (but a fnuz zero is +0);
                // an unsigned format has no negative value: its NaN.
                let neg = if !fmt.is_signed() {
                    fmt.default_nan_bits()
                } else if mag == 0 && !fmt.has_negative_zero() {
                    0
                } else {
                    fmt.sign_bit() | mag
                };
                assert_eq!(fmt.encode(-below), neg, "{fmt:?} -below mid {mag:#x}");
            }
        }
    }

    /// The f16 conversion from f32 in `half` is correctly rounded (one rounding from
    /// f32), so on every f32 it must agree with ours applied to the exact f64.
    #[test]
    fn f16_encode_matches_half_from_f32_on_a_sweep() {
        let mut b: u32 = 0;
        loop {
            let x = f32::from_bits(b);
            if !x.is_nan() {
                let ours = Format::F16.encode(f64::from(x));
                let theirs = f16::from_f32(x).to_bits();
                assert_eq!(ours, theirs, "{x:e} ({b:#010x})");
                let ours = Format::Bf16.encode(f64::from(x));
                let theirs = bf16::from_f32(x).to_bits();
                assert_eq!(ours, theirs, "bf16 {x:e} ({b:#010x})");
            }
            b = match b.checked_add(4093) {
                Some(n) => n,
                None => break,
            };
        }
    }

    #[test]
    fn overflow_rules_per_format() {
        // f16: 65520 is the tie between 65504 (odd) and 2^16 (even): inf.
        assert_eq!(Format::F16.encode(65519.99), 0x7BFF);
        assert_eq!(Format::F16.encode(65520.0), 0x7C00);
        assert_eq!(Format::F16.encode(-1e300), 0xFC00);
        // e4m3: (448, 464) rounds down to 448, 464 is a tie to even (448), above is NaN.
        assert_eq!(Format::Fp8E4M3.encode(463.9), 0x7E);
        assert_eq!(Format::Fp8E4M3.encode(464.0), 0x7E);
        assert_eq!(Format::Fp8E4M3.encode(464.1), 0x7F);
        assert_eq!(Format::Fp8E4M3.encode(f64::NEG_INFINITY), 0xFF);
        // e5m2: max 57344, threshold 61440 ties to even = inf.
        assert_eq!(Format::Fp8E5M2.encode(61439.0), 0x7B);
        assert_eq!(Format::Fp8E5M2.encode(61440.0), 0x7C);
        // Underflow: half the smallest subnormal ties to +0 / −0.
        assert_eq!(Format::F16.encode(libm::scalbn(1.0, -25)), 0x0000);
        assert_eq!(Format::F16.encode(-libm::scalbn(1.0, -25)), 0x8000);
        assert_eq!(Format::F16.encode(1.5 * libm::scalbn(1.0, -24)), 0x0002);
        assert_eq!(Format::Bf16.encode(-libm::scalbn(1.0, -200)), 0x8000);
    }

    #[test]
    fn special_patterns() {
        assert_eq!(Format::F16.default_nan_bits(), 0x7E00);
        assert_eq!(Format::Bf16.default_nan_bits(), 0x7FC0);
        assert_eq!(Format::Fp8E4M3.default_nan_bits(), 0x7F);
        assert_eq!(Format::Fp8E5M2.default_nan_bits(), 0x7E);
        assert_eq!(Format::F16.max_finite_bits(), 0x7BFF);
        assert_eq!(Format::Bf16.max_finite_bits(), 0x7F7F);
        assert_eq!(Format::Fp8E4M3.max_finite_bits(), 0x7E);
        assert_eq!(Format::Fp8E5M2.max_finite_bits(), 0x7B);
        assert_eq!(Format::Fp8E4M3.decode(0x7E), 448.0);
        assert_eq!(Format::Fp8E5M2.decode(0x7B), 57344.0);
        assert!(Format::Fp8E4M3.decode(0x7F).is_nan());
        assert!(Format::Fp8E4M3.decode(0xFF).is_nan());
        assert_eq!(Format::Fp8E4M3.decode(0x78), 256.0);
        assert_eq!(Format::Fp8E5M2.decode(0x7C), f64::INFINITY);
        assert!(Format::Fp8E5M2.decode(0x7D).is_nan());
        assert_eq!(Format::Fp8E4M3.decode(0x01), libm::scalbn(1.0, -9));
        assert_eq!(Format::Fp8E5M2.decode(0x01), libm::scalbn(1.0, -16));
    }

    /// The formats added for AMD fnuz fp8 and OCP MX FP6/FP4.
    const NEW: [Format; 5] = [
        Format::Fp8E4M3Fnuz,
        Format::Fp8E5M2Fnuz,
        Format::Fp6E2M3,
        Format::Fp6E3M2,
        Format::Fp4E2M1,
    ];

    /// Every code of every format: a NaN code decodes to NaN and nothing else
    /// does; every other code is its own encoding (so no two codes share a value,
    /// −0 included).
    #[test]
    fn every_code_of_every_format_is_its_own_encoding() {
        for fmt in Format::ALL {
            for b in (0..fmt.entries()).map(|i| i as u16) {
                let v = fmt.decode(b);
                assert_eq!(v.is_nan(), fmt.is_nan(b), "{fmt:?} {b:#06x}");
                if !v.is_nan() {
                    assert_eq!(fmt.encode(v), b, "{fmt:?} {b:#06x} = {v:e}");
                }
            }
        }
    }

    /// Codes 0..=max are strictly increasing in value, and the sign bit mirrors
    /// them, for every format.
    #[test]
    fn codes_are_ordered_like_their_values() {
        for fmt in Format::ALL {
            let max = fmt.max_finite_bits();
            for mag in 0..max {
                assert!(fmt.decode(mag) < fmt.decode(mag + 1), "{fmt:?} {mag:#x}");
            }
            for mag in (1..=max).filter(|_| fmt.is_signed()) {
                let neg = fmt.decode(fmt.sign_bit() | mag);
                assert_eq!(neg, -fmt.decode(mag), "{fmt:?} -{mag:#x}");
            }
        }
    }

    #[test]
    fn the_new_formats_have_the_values_of_their_specs() {
        let fp4: [f64; 8] = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0];
        for (code, want) in fp4.iter().enumerate() {
            assert_eq!(Format::Fp4E2M1.decode(code as u16), *want);
            assert_eq!(Format::Fp4E2M1.decode(code as u16 | 8), -*want);
        }
        let cases: [(Format, f64, f64, f64); 5] = [
            // (format, largest finite value, smallest normal, smallest subnormal)
            (Format::Fp8E4M3Fnuz, 240.0, 0.0078125, 0.0009765625),
            (
                Format::Fp8E5M2Fnuz,
                57344.0,
                3.0517578125e-5,
                7.62939453125e-6,
            ),
            (Format::Fp6E2M3, 7.5, 1.0, 0.125),
            (Format::Fp6E3M2, 28.0, 0.25, 0.0625),
            (Format::Fp4E2M1, 6.0, 1.0, 0.5),
        ];
        for (fmt, max, min_normal, min_sub) in cases {
            assert_eq!(fmt.decode(fmt.max_finite_bits()), max, "{fmt:?}");
            assert_eq!(fmt.decode(1 << (fmt.spec().frac)), min_normal, "{fmt:?}");
            assert_eq!(fmt.decode(1), min_sub, "{fmt:?}");
            assert_eq!(fmt.inf_bits(), None, "{fmt:?}");
            assert!(!fmt.has_inf());
        }
        assert_eq!(Format::Fp8E4M3Fnuz.max_finite_bits(), 0x7F);
        assert_eq!(Format::Fp6E2M3.max_finite_bits(), 0x1F);
        assert_eq!(Format::Fp4E2M1.max_finite_bits(), 0x07);
        assert_eq!(
            NEW.map(|f| (f.entries(), f.entry_bytes(), f.table_bytes(), f.code_mask())),
            [
                (256, 1, 256, 0xFF),
                (256, 1, 256, 0xFF),
                (64, 1, 64, 0x3F),
                (64, 1, 64, 0x3F),
                (16, 1, 16, 0x0F)
            ]
        );
        for fmt in NEW {
            assert_eq!(Format::from_name(fmt.name()), Some(fmt));
            assert_eq!(fmt.feature(), fmt.name().replace('_', "-"));
        }
    }

    /// fnuz: the only NaN is 0x80; NaN, ±inf and overflow give it; every zero is +0.
    #[test]
    fn fnuz_special_values() {
        for fmt in [Format::Fp8E4M3Fnuz, Format::Fp8E5M2Fnuz] {
            let nans: std::vec::Vec<u16> = (0..256).filter(|&b| fmt.is_nan(b)).collect();
            assert_eq!(nans, [0x80], "{fmt:?}");
            assert!(fmt.has_nan() && !fmt.has_negative_zero() && !fmt.saturates());
            assert_eq!(fmt.default_nan_bits(), 0x80);
            assert_eq!(fmt.quiet_nan(0x80), 0x80);
            assert!(fmt.decode(0x80).is_nan());
            assert_eq!(fmt.decode(0x00).to_bits(), 0.0f64.to_bits());
            for v in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1e9, -1e9] {
                assert_eq!(fmt.encode(v), 0x80, "{fmt:?} {v}");
            }
            for v in [-0.0, -1e-30, 0.0, 1e-30] {
                assert_eq!(fmt.encode(v), 0x00, "{fmt:?} {v}");
            }
        }
        // Above 240 the quantum is 16: up to 248 (exclusive) rounds to 240; 248 is the
        // tie between 240 (odd) and 256 (even, beyond the range): NaN.
        let f = Format::Fp8E4M3Fnuz;
        assert_eq!(f.encode(247.9), 0x7F);
        assert_eq!(f.encode(248.0), 0x80);
        assert_eq!(f.encode(-247.9), 0xFF);
        assert_eq!(f.encode(-248.0), 0x80);
        // Half the smallest subnormal ties to zero, +0 on both sides; just above is 2^-10.
        assert_eq!(f.encode(libm::scalbn(1.0, -11)), 0x00);
        assert_eq!(f.encode(-libm::scalbn(1.0, -11)), 0x00);
        assert_eq!(f.encode(-libm::scalbn(1.0, -11) * 1.0001), 0x81);
        let f = Format::Fp8E5M2Fnuz;
        assert_eq!(f.encode(61439.0), 0x7F);
        assert_eq!(f.encode(61440.0), 0x80);
        assert_eq!(f.encode(-libm::scalbn(1.0, -18)), 0x00);
        assert_eq!(f.encode(libm::scalbn(1.5, -18)), 0x01);
    }

    /// FP6 and FP4: no NaN, no inf; overflow and ±inf saturate; −0 exists.
    #[test]
    fn fp6_fp4_saturate_and_keep_signed_zeros() {
        for fmt in [Format::Fp6E2M3, Format::Fp6E3M2, Format::Fp4E2M1] {
            assert!(!fmt.has_nan() && fmt.has_negative_zero() && fmt.saturates());
            assert!((0..fmt.entries() as u16).all(|b| !fmt.is_nan(b) && fmt.decode(b).is_finite()));
            let max = fmt.max_finite_bits();
            let neg = fmt.sign_bit();
            for v in [f64::INFINITY, 1e300, 2.0 * fmt.decode(max)] {
                assert_eq!(fmt.encode(v), max, "{fmt:?} {v}");
                assert_eq!(fmt.encode(-v), neg | max, "{fmt:?} -{v}");
            }
            assert_eq!(fmt.encode(-0.0), neg);
            assert_eq!(fmt.encode(-1e-300), neg);
            assert_eq!(fmt.decode(neg).to_bits(), (-0.0f64).to_bits());
        }
        let f = Format::Fp4E2M1;
        assert_eq!(f.encode(5.0), 0x6); // tie between 4 (even) and 6
        assert_eq!(f.encode(5.0001), 0x7);
        assert_eq!(f.encode(7.0), 0x7); // max + ulp/2: saturates, no NaN to go to
        assert_eq!(f.encode(2.5), 0x4); // tie between 2 (even) and 3
        assert_eq!(f.encode(0.25), 0x0); // half the smallest subnormal: tie to 0
        assert_eq!(f.encode(-0.25), 0x8);
        assert_eq!(f.encode(0.2501), 0x1);
        assert_eq!(f.encode(0.75), 0x2); // tie between 0.5 (odd) and 1
        assert_eq!(Format::Fp6E2M3.encode(7.75), 0x1F);
        assert_eq!(Format::Fp6E2M3.encode(0.0625), 0x00);
        assert_eq!(Format::Fp6E2M3.encode(0.1875), 0x02); // tie between 0.125 and 0.25
        assert_eq!(Format::Fp6E3M2.encode(30.0), 0x1F);
        assert_eq!(Format::Fp6E3M2.encode(26.0), 0x1E); // tie between 24 (even) and 28
    }

    /// The formats named by ml_dtypes (fifth round): their values, special patterns and
    /// overflow thresholds, from their definitions (ml_dtypes' `finfo` and the OCP MX spec).
    #[test]
    fn the_ml_dtypes_formats_have_the_values_of_their_specs() {
        let p = |e| libm::scalbn(1.0, e);
        // (format, largest finite value, smallest normal, smallest positive value)
        let cases = [
            (Format::Fp8E3M4, 15.5, 0.25, p(-6)),
            (Format::Fp8E4M3Ieee, 240.0, p(-6), p(-9)),
            (Format::Fp8E4M3B11Fnuz, 30.0, p(-10), p(-13)),
            (Format::Fp8E5M3Fnu, 114688.0, p(-14), p(-17)),
            (Format::Fp8E8M0Fnu, p(127), p(-127), p(-127)),
        ];
        for (fmt, max, min_normal, smallest) in cases {
            assert_eq!(fmt.decode(fmt.max_finite_bits()), max, "{fmt:?}");
            assert_eq!(fmt.decode(fmt.field_one()), min_normal, "{fmt:?}");
            let first = (0..fmt.entries() as u16).find(|&b| fmt.decode(b) > 0.0);
            assert_eq!(first.map(|b| fmt.decode(b)), Some(smallest), "{fmt:?}");
            assert_eq!(Format::from_name(fmt.name()), Some(fmt));
            assert_eq!(fmt.feature(), fmt.name().replace('_', "-"));
        }
        // IEEE-like: ±inf, NaN is the rest of the top binade, the top fraction bit quiets.
        for (fmt, inf, nan, quiet) in [
            (Format::Fp8E3M4, 0x70, 0x78, 0x08),
            (Format::Fp8E4M3Ieee, 0x78, 0x7C, 0x04),
        ] {
            assert_eq!(fmt.inf_bits(), Some(inf));
            assert_eq!(fmt.default_nan_bits(), nan);
            assert_eq!(fmt.quiet_nan(inf + 1), inf + 1 + quiet);
            assert_eq!(fmt.decode(inf), f64::INFINITY);
            assert_eq!(fmt.decode(0x80 | inf), f64::NEG_INFINITY);
            let nans = (0..256).filter(|&b| fmt.is_nan(b)).count();
            assert_eq!(nans, 2 * (inf as usize ^ 0x7F), "{fmt:?}");
            assert_eq!(fmt.encode(1e9), inf);
            assert_eq!(fmt.encode(-0.0), 0x80);
        }
        // Overflow thresholds: max + quantum/2, a tie that goes to the even max (odd max:
        // beyond).
        assert_eq!(Format::Fp8E3M4.encode(15.75), 0x70); // 15.5 = 0x6F is odd: tie up, inf
        assert_eq!(Format::Fp8E3M4.encode(15.74), 0x6F);
        assert_eq!(Format::Fp8E4M3Ieee.encode(247.9), 0x77);
        assert_eq!(Format::Fp8E4M3Ieee.encode(248.0), 0x78);
        // b11 fnuz: 0x80 the one NaN, overflow above 30 (quantum 2: 31 is a tie, 30 odd).
        let f = Format::Fp8E4M3B11Fnuz;
        assert_eq!(
            (0..256)
                .filter(|&b| f.is_nan(b))
                .collect::<std::vec::Vec<u16>>(),
            [0x80]
        );
        assert_eq!(f.encode(30.99), 0x7F);
        assert_eq!(f.encode(31.0), 0x80);
        assert_eq!(f.encode(-0.0), 0x00);
        assert_eq!(f.encode(-31.0), 0x80);
    }

    /// The unsigned formats: no sign bit, `0xFF` the one NaN, and every negative value,
    /// however small, is that NaN. E8M0 has no zero and no fraction.
    #[test]
    fn the_unsigned_formats_hold_no_negative_value_and_e8m0_no_zero() {
        for fmt in [Format::Fp8E5M3Fnu, Format::Fp8E8M0Fnu] {
            assert!(!fmt.is_signed() && !fmt.has_negative_zero() && !fmt.has_inf());
            assert_eq!((0..256).filter(|&b| fmt.is_nan(b)).count(), 1);
            assert!(fmt.is_nan(0xFF) && fmt.default_nan_bits() == 0xFF);
            assert!((0..256).all(|b| !fmt.is_sign_negative(b)));
            assert!((0..255).all(|b| fmt.decode(b) >= 0.0));
            for v in [
                -1.0,
                -1e-300,
                f64::NEG_INFINITY,
                f64::INFINITY,
                1e300,
                f64::NAN,
            ] {
                assert_eq!(fmt.encode(v), 0xFF, "{fmt:?} {v}");
            }
        }
        let f = Format::Fp8E5M3Fnu;
        assert!(f.has_zero());
        assert_eq!(f.encode(-0.0), 0x00);
        assert_eq!(f.encode(0.0), 0x00);
        assert_eq!(f.decode(0x78), 1.0);
        assert_eq!(f.decode(0x80), 2.0); // the top bit is an exponent bit
                                         // max 114688 = 0xFE; 118784 = max + quantum/2 ties to the even max; beyond: NaN.
        assert_eq!(f.encode(118784.0), 0xFE);
        assert_eq!(f.encode(118785.0), 0xFF);
        // Half the smallest subnormal 2^-17 ties to zero.
        assert_eq!(f.encode(libm::scalbn(1.0, -18)), 0x00);
        assert_eq!(f.encode(libm::scalbn(1.01, -18)), 0x01);
        let f = Format::Fp8E8M0Fnu;
        assert!(!f.has_zero() && f.fraction_bits() == 0);
        for code in 0..255u16 {
            assert_eq!(f.decode(code), libm::scalbn(1.0, i32::from(code) - 127));
        }
        assert_eq!(f.encode(0.0), 0xFF);
        assert_eq!(f.encode(-0.0), 0xFF);
        // Below 2^-127, the nearest value is 2^-127.
        assert_eq!(f.encode(libm::scalbn(1.0, -200)), 0x00);
        assert_eq!(f.encode(f64::from_bits(1)), 0x00);
        // Ties 3·2^(k−1) go up; just below stays.
        assert_eq!(f.encode(1.5), 0x80);
        assert_eq!(f.encode(3.0), 0x81);
        assert_eq!(f.encode(0.75), 0x7F);
        assert_eq!(f.encode(2.99), 0x80);
        // max 2^127; 1.5·2^127 (the tie above it) and beyond: NaN.
        assert_eq!(f.encode(1.49 * libm::scalbn(1.0, 127)), 0xFE);
        assert_eq!(f.encode(1.5 * libm::scalbn(1.0, 127)), 0xFF);
    }

    /// Bits above a code's width are ignored by decode and is_nan.
    #[test]
    fn stray_high_bits_are_ignored_when_decoding() {
        for fmt in Format::ALL.into_iter().filter(|f| f.bits() < 16) {
            for b in 0..fmt.entries() as u16 {
                for high in [fmt.code_mask() + 1, 0xFF00 & !fmt.code_mask(), 0x8000] {
                    let d = fmt.decode(b | high);
                    assert_eq!(
                        d.to_bits(),
                        fmt.decode(b).to_bits(),
                        "{fmt:?} {b:#x}|{high:#x}"
                    );
                    assert_eq!(fmt.is_nan(b | high), fmt.is_nan(b));
                }
            }
        }
    }

    #[test]
    #[should_panic(expected = "fp4_e2m1: cannot encode NaN, the format has no NaN")]
    fn encoding_nan_into_a_format_without_nan_panics() {
        Format::Fp4E2M1.encode(f64::NAN);
    }

    #[test]
    #[should_panic(expected = "have no NaN")]
    fn a_format_without_nan_has_no_default_nan() {
        Format::Fp6E3M2.default_nan_bits();
    }
}
