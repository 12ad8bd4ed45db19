//! Conversions between `f32` and every 8-bit float format of [`Format::ALL`], as raw bytes:
//! one generic implementation, [`Fp8`], read from each format's description, and the named
//! functions of the OCP FP8 formats E4M3FN and E5M2 and of AMD's `float8_e4m3fnuz` and
//! `float8_e5m2fnuz`.
//!
//! Widening ([`Fp8::to_f32`], [`e4m3_to_f32`], …) is exact. Narrowing ([`Fp8::from_f32`],
//! [`f32_to_e4m3`], …) rounds once, to nearest, ties to even, with the overflow rules of
//! docs/SEMANTICS.md: E5M2 overflows to ±inf; E4M3FN has no infinities, so values in
//! (448, 464) round down to 448, 464 is a tie that goes to 448 (even), and anything larger,
//! ±inf included, becomes NaN with the value's sign (ml_dtypes' and PyTorch's non-saturating
//! conversion). Subnormals are converted, not flushed.
//!
//! ```
//! use actlut::fp8;
//!
//! assert_eq!(fp8::f32_to_e4m3(1.0), 0x38);
//! assert_eq!(fp8::e4m3_to_f32(0x38), 1.0);
//! assert_eq!(fp8::f32_to_e4m3(463.9), 0x7E); // 448
//! assert_eq!(fp8::f32_to_e4m3(465.0), 0x7F); // NaN, no infinity in E4M3
//! assert_eq!(fp8::f32_to_e5m2(-1e9), 0xFC); // −inf
//! assert_eq!(fp8::e5m2_to_f32(0x7B), 57344.0);
//! ```
//!
//! Every other 8-bit format through [`Fp8`]:
//!
//! ```
//! use actlut::{fp8::Fp8, Format};
//!
//! let e8m0 = Fp8::new(Format::Fp8E8M0Fnu).unwrap();
//! assert_eq!(e8m0.from_f32(3.0), 0x81); // a tie between 2 and 4: up, to 4 = 2^(129 − 127)
//! assert_eq!(e8m0.to_f32(0x81), 4.0);
//! assert_eq!(e8m0.from_f32(0.0), 0xFF); // no zero: NaN
//! let e4m3 = Fp8::new(Format::Fp8E4M3Ieee).unwrap(); // ml_dtypes' float8_e4m3
//! assert_eq!(e4m3.from_f32(1e6), 0x78); // +inf
//! assert!(Fp8::new(Format::F16).is_none());
//! ```
//!
//! # NaN
//!
//! Conversions keep a NaN's sign and as much of its payload as fits, and quiet it (IEEE 754's
//! recommendation, and the rule the tables follow): E5M2 keeps the top two fraction bits and
//! sets its quiet bit `0x02` (E3M4 and the IEEE-like E4M3 likewise, with `0x08` and `0x04`);
//! E4M3FN has one NaN per sign (`0x7F`, `0xFF`). ml_dtypes, which the tests compare with on
//! every code and on boundary and random `f32` inputs, agrees everywhere except that it drops
//! NaN payloads.
//!
//! The fnuz formats ([`e4m3fnuz_to_f32`], [`f32_to_e4m3fnuz`], [`e5m2fnuz_to_f32`],
//! [`f32_to_e5m2fnuz`], and `float8_e4m3b11fnuz` through [`Fp8`]) have no infinities and no
//! −0: `0x80` is their only NaN, and NaN, ±inf and overflow all become it; every zero is
//! `0x00`. The unsigned formats (`float8_e5m3fnu`, `float8_e8m0fnu`) have `0xFF` as their
//! only NaN, and every negative value becomes it; E8M0 has no zero either (docs/SEMANTICS.md).
//! ml_dtypes agrees on every vector.
//!
//! These are the same roundings as [`Format::encode`](crate::Format::encode) and
//! [`Format::decode`](crate::Format::decode) (which the tests check exhaustively), written on
//! bits so that they are fast at run time.

use actlut_core::Format;

/// The conversions of one 8-bit float format, from and to `f32`, on its raw bytes: what the
/// bit manipulation needs of the format, read from its one description ([`Fp8::new`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fp8 {
    /// The format.
    format: Format,
    /// Stored fraction bits.
    frac: u32,
    /// Exponent bias.
    bias: i32,
    /// Whether the all-ones exponent is ±inf/NaN (E5M2, E3M4, the IEEE E4M3).
    ieee: bool,
    /// fnuz: `0x80` is the only NaN, there is no −0, and overflow gives `0x80`.
    fnuz: bool,
    /// Whether the top bit is a sign (all but E5M3FNU and E8M0FNU).
    signed: bool,
    /// Whether the exponent field 0 holds zero and subnormals (all but E8M0FNU).
    zero: bool,
}

const E4M3: Fp8 = Fp8::of(Format::Fp8E4M3);
const E5M2: Fp8 = Fp8::of(Format::Fp8E5M2);
const E4M3FNUZ: Fp8 = Fp8::of(Format::Fp8E4M3Fnuz);
const E5M2FNUZ: Fp8 = Fp8::of(Format::Fp8E5M2Fnuz);

impl Fp8 {
    /// The conversions of `format`, or `None` when it is not an 8-bit format (f16, bf16,
    /// FP6 and FP4 are not).
    ///
    /// ```
    /// use actlut::{fp8::Fp8, Format};
    /// let all: Vec<Format> = Format::ALL.into_iter().filter(|&f| Fp8::new(f).is_some()).collect();
    /// assert!(all.iter().all(|f| f.bits() == 8) && all.len() == 9);
    /// ```
    pub const fn new(format: Format) -> Option<Fp8> {
        if format.bits() != 8 {
            return None;
        }
        Some(Fp8 {
            format,
            frac: format.fraction_bits(),
            bias: format.exponent_bias(),
            ieee: format.has_inf(),
            fnuz: format.is_signed() && !format.has_negative_zero(),
            signed: format.is_signed(),
            zero: format.has_zero(),
        })
    }

    /// The parameters of `format`, which must be an 8-bit float (checked at compile time:
    /// the constants above are `const`).
    const fn of(format: Format) -> Fp8 {
        match Fp8::new(format) {
            Some(f) => f,
            None => panic!("not an 8-bit format"),
        }
    }

    /// The format converted.
    pub const fn format(self) -> Format {
        self.format
    }

    /// The magnitude bits: all but the sign.
    const fn mag_mask(&self) -> u32 {
        if self.signed {
            0x7F
        } else {
            0xFF
        }
    }

    /// The magnitude of +inf (IEEE-like) or of the NaN that overflow becomes (E4M3FN: `0x7F`;
    /// the unsigned formats: `0xFF`); for fnuz, `0x80`, one past every finite magnitude.
    const fn overflow(&self) -> u32 {
        if self.ieee {
            self.mag_mask() >> self.frac << self.frac
        } else if self.fnuz {
            0x80
        } else {
            self.mag_mask()
        }
    }

    /// The code of an overflow (or an infinity, or a NaN for fnuz) of sign bit `sign`.
    const fn overflow_code(&self, sign: u8) -> u8 {
        if self.fnuz {
            0x80
        } else {
            sign | self.overflow() as u8
        }
    }

    /// A zero of sign bit `sign`: +0 in fnuz, which has no −0; the NaN in E8M0, which has
    /// no zero.
    const fn zero(&self, sign: u8) -> u8 {
        if !self.zero {
            self.mag_mask() as u8
        } else if self.fnuz {
            0
        } else {
            sign
        }
    }

    /// The value of `code` as `f32` (exact). NaNs keep their sign and payload and are
    /// quieted; the fnuz NaN `0x80` gives a negative NaN, as ml_dtypes does.
    ///
    /// ```
    /// use actlut::{fp8::Fp8, Format};
    /// let e5m3 = Fp8::new(Format::Fp8E5M3Fnu).unwrap(); // unsigned
    /// assert_eq!(e5m3.to_f32(0x80), 2.0);
    /// assert!(e5m3.to_f32(0xFF).is_nan());
    /// ```
    pub fn to_f32(self, code: u8) -> f32 {
        let sign = if self.signed {
            u32::from(code & 0x80) << 24
        } else {
            0
        };
        let mag = u32::from(code) & self.mag_mask();
        let exp = mag >> self.frac;
        let fraction = mag & ((1 << self.frac) - 1);
        let top_exp = self.mag_mask() >> self.frac;
        let bits = if self.ieee && exp == top_exp {
            // ±inf, or a NaN: payload to the top of the f32 fraction, quieted.
            let payload = fraction << (23 - self.frac);
            let quiet = if fraction != 0 { 0x0040_0000 } else { 0 };
            sign | 0x7F80_0000 | payload | quiet
        } else if self.fnuz && code == 0x80 {
            // The one fnuz NaN: the sign of its pattern, as ml_dtypes gives it.
            0xFFC0_0000
        } else if !self.ieee && !self.fnuz && mag == self.mag_mask() {
            sign | 0x7FC0_0000
        } else {
            // (significand, power of two of its last bit): a subnormal, or a normal number
            // with its hidden bit (E8M0's field 0 is a binade, not the subnormals).
            let (m, e) = if exp == 0 && self.zero {
                (fraction, 1 - self.bias - self.frac as i32)
            } else {
                (
                    fraction | 1 << self.frac,
                    exp as i32 - self.bias - self.frac as i32,
                )
            };
            // Exact: at most 4 significant bits times a power of two inside f64's range, and
            // every value of the format is an f32 (E8M0's 2^-127 a subnormal one).
            let v = m as f64 * f64::from_bits(((e + 1023) as u64) << 52);
            sign | (v as f32).to_bits()
        };
        f32::from_bits(bits)
    }

    /// `x` rounded once, to nearest, ties to even, to this format, with the rules of
    /// [`Format::encode`](crate::Format::encode).
    ///
    /// # Accuracy
    ///
    /// Correctly rounded, with the format's overflow, NaN and zero rules
    /// (docs/SEMANTICS.md); equal to ml_dtypes' `float32` conversion on every committed
    /// vector.
    ///
    /// ```
    /// use actlut::{fp8::Fp8, Format};
    /// let e3m4 = Fp8::new(Format::Fp8E3M4).unwrap();
    /// assert_eq!(e3m4.from_f32(1.0), 0x30);
    /// assert_eq!(e3m4.from_f32(-16.0), 0xF0); // −inf
    /// ```
    pub fn from_f32(self, x: f32) -> u8 {
        let b = x.to_bits();
        let negative = b >> 31 == 1;
        let a = b & 0x7FFF_FFFF;
        let sign = if negative && self.signed { 0x80 } else { 0 };
        if a > 0x7F80_0000 {
            // NaN: sign and the top payload bits kept, quieted.
            return if self.fnuz {
                0x80
            } else if self.ieee {
                let payload = (a >> (23 - self.frac)) & ((1 << self.frac) - 1);
                sign | (self.overflow() | payload | 1 << (self.frac - 1)) as u8
            } else {
                sign | self.mag_mask() as u8
            };
        }
        if negative && !self.signed && a != 0 {
            // An unsigned format holds no negative value (−inf included): its NaN.
            return self.mag_mask() as u8;
        }
        if a == 0x7F80_0000 {
            return self.overflow_code(sign);
        }
        if a == 0 {
            return self.zero(sign);
        }
        // |x| = m · 2^e2, m below 2^24 (with its hidden bit for a normal f32).
        let f32_exp = (a >> 23) as i32;
        let (m, e2) = if f32_exp == 0 {
            (a, -149)
        } else {
            ((a & 0x007F_FFFF) | 0x0080_0000, f32_exp - 150)
        };
        // floor(log2 |x|), and the format's smallest binade (E8M0's field 0 is one).
        let e = 31 - m.leading_zeros() as i32 + e2;
        let emin = i32::from(self.zero) - self.bias;
        // The quantum 2^q of the result: that of x's binade, or the subnormal one.
        let q = e.max(emin) - self.frac as i32;
        let shift = q - e2;
        let qmin = emin - self.frac as i32;
        if shift > 24 {
            // |x| < 2^(q−1): below half a quantum; in E8M0 the smallest value is nearest.
            return if self.zero { self.zero(sign) } else { 0 };
        }
        let n = if shift <= 0 {
            m << -shift
        } else {
            let shift = shift as u32;
            let mut n = m >> shift;
            let rem = m & ((1 << shift) - 1);
            let half = 1 << (shift - 1);
            if rem > half || (rem == half && n & 1 == 1) {
                n += 1;
            }
            n
        };
        // n · 2^q as bits: each binade above the smallest quantum adds 2^frac, and a hidden
        // bit (or a carry out of the binade) lands in the exponent field; E8M0's smallest
        // binade has its hidden bit in field 0.
        let hidden_in_zero = if self.zero { 0 } else { 1 << self.frac };
        let mag = ((q - qmin) as u32) * (1 << self.frac) + n;
        if mag < hidden_in_zero {
            // E8M0 below 2^-127 (rounded to zero): the smallest value is nearest.
            return 0;
        }
        let mag = mag - hidden_in_zero;
        if mag >= self.overflow() {
            self.overflow_code(sign)
        } else if mag == 0 && self.zero {
            self.zero(sign)
        } else {
            sign | mag as u8
        }
    }
}

/// The value of an OCP FP8 E4M3FN byte as `f32` (exact).
///
/// `0x7F` and `0xFF`, the only NaNs, give a quiet `f32` NaN of the same sign.
///
/// ```
/// assert_eq!(actlut::fp8::e4m3_to_f32(0x7E), 448.0);
/// assert_eq!(actlut::fp8::e4m3_to_f32(0x01), 2f32.powi(-9));
/// assert!(actlut::fp8::e4m3_to_f32(0xFF).is_nan());
/// ```
pub fn e4m3_to_f32(code: u8) -> f32 {
    E4M3.to_f32(code)
}

/// The value of an OCP FP8 E5M2 byte as `f32` (exact).
///
/// NaNs keep their sign and payload and are quieted.
///
/// ```
/// assert_eq!(actlut::fp8::e5m2_to_f32(0x3C), 1.0);
/// assert_eq!(actlut::fp8::e5m2_to_f32(0xFC), f32::NEG_INFINITY);
/// assert_eq!(actlut::fp8::e5m2_to_f32(0x7D).to_bits(), 0x7FE0_0000);
/// ```
pub fn e5m2_to_f32(code: u8) -> f32 {
    E5M2.to_f32(code)
}

/// `x` rounded once, to nearest, ties to even, to OCP FP8 E4M3FN.
///
/// # Accuracy
///
/// Correctly rounded; overflow (a rounding above 448) and ±inf give NaN with the sign of `x`
/// (`0x7F` / `0xFF`); NaN gives the NaN of its sign.
///
/// ```
/// assert_eq!(actlut::fp8::f32_to_e4m3(0.1), 0x1D); // 0.1015625
/// assert_eq!(actlut::fp8::f32_to_e4m3(464.0), 0x7E); // a tie: 448
/// assert_eq!(actlut::fp8::f32_to_e4m3(f32::NEG_INFINITY), 0xFF);
/// ```
pub fn f32_to_e4m3(x: f32) -> u8 {
    E4M3.from_f32(x)
}

/// `x` rounded once, to nearest, ties to even, to OCP FP8 E5M2.
///
/// # Accuracy
///
/// Correctly rounded; a rounding above 57344 gives ±inf. NaN keeps its sign and top two
/// payload bits and is quieted.
///
/// ```
/// assert_eq!(actlut::fp8::f32_to_e5m2(1.0), 0x3C);
/// assert_eq!(actlut::fp8::f32_to_e5m2(61440.0), 0x7C); // the tie above 57344: inf
/// assert_eq!(actlut::fp8::f32_to_e5m2(f32::NAN), 0x7E);
/// ```
pub fn f32_to_e5m2(x: f32) -> u8 {
    E5M2.from_f32(x)
}

/// The value of a `float8_e4m3fnuz` byte (AMD MI300) as `f32` (exact).
///
/// `0x80`, the only NaN, gives a quiet `f32` NaN with the sign bit set (ml_dtypes' result).
///
/// ```
/// assert_eq!(actlut::fp8::e4m3fnuz_to_f32(0x7F), 240.0);
/// assert_eq!(actlut::fp8::e4m3fnuz_to_f32(0x40), 1.0);
/// assert!(actlut::fp8::e4m3fnuz_to_f32(0x80).is_nan());
/// ```
pub fn e4m3fnuz_to_f32(code: u8) -> f32 {
    E4M3FNUZ.to_f32(code)
}

/// The value of a `float8_e5m2fnuz` byte (AMD MI300) as `f32` (exact).
///
/// `0x80`, the only NaN, gives a quiet `f32` NaN with the sign bit set.
///
/// ```
/// assert_eq!(actlut::fp8::e5m2fnuz_to_f32(0x7F), 57344.0);
/// assert_eq!(actlut::fp8::e5m2fnuz_to_f32(0x01), 2f32.powi(-17));
/// ```
pub fn e5m2fnuz_to_f32(code: u8) -> f32 {
    E5M2FNUZ.to_f32(code)
}

/// `x` rounded once, to nearest, ties to even, to `float8_e4m3fnuz`.
///
/// # Accuracy
///
/// Correctly rounded. The format has no infinities and no −0: NaN, ±inf and every overflow
/// (a rounding above 240) give the NaN `0x80`, and a negative value that rounds to zero gives
/// `0x00` (ml_dtypes' rules).
///
/// ```
/// assert_eq!(actlut::fp8::f32_to_e4m3fnuz(1.0), 0x40);
/// assert_eq!(actlut::fp8::f32_to_e4m3fnuz(247.0), 0x7F); // 240
/// assert_eq!(actlut::fp8::f32_to_e4m3fnuz(248.0), 0x80); // a tie above 240: NaN
/// assert_eq!(actlut::fp8::f32_to_e4m3fnuz(-0.0), 0x00);
/// ```
pub fn f32_to_e4m3fnuz(x: f32) -> u8 {
    E4M3FNUZ.from_f32(x)
}

/// `x` rounded once, to nearest, ties to even, to `float8_e5m2fnuz`.
///
/// # Accuracy
///
/// Correctly rounded, with the special values of [`f32_to_e4m3fnuz`]: NaN, ±inf and a
/// rounding above 57344 give `0x80`; zeros are `0x00`.
///
/// ```
/// assert_eq!(actlut::fp8::f32_to_e5m2fnuz(1.0), 0x40);
/// assert_eq!(actlut::fp8::f32_to_e5m2fnuz(f32::NEG_INFINITY), 0x80);
/// ```
pub fn f32_to_e5m2fnuz(x: f32) -> u8 {
    E5M2FNUZ.from_f32(x)
}

/// The built-in fp8 tables over the `float8` crate's typed values (feature `float8`; candle
/// and mistral.rs use these types): the same tables as the raw-byte entry points, one load per
/// value. Implemented for every [`BuiltinTables`](crate::BuiltinTables) type.
///
/// ```
/// # #[cfg(all(feature = "float8", feature = "gelu", feature = "fp8-e4m3"))] {
/// use actlut::{Float8Tables, Function};
/// use float8::F8E4M3;
/// let x = F8E4M3::from_bits(0x38); // 1.0
/// assert_eq!(Function::Gelu.fp8_e4m3(x)?.to_bits(), actlut::gelu::fp8_e4m3_bits(0x38));
/// let mut xs = [x, F8E4M3::from_bits(0xB8)];
/// Function::Gelu.apply_fp8_e4m3(&mut xs)?;
/// # }
/// # Ok::<(), actlut::MissingTable>(())
/// ```
#[cfg(feature = "float8")]
#[cfg_attr(docsrs, doc(cfg(feature = "float8")))]
pub trait Float8Tables: crate::builtin::BuiltinTables {
    /// `self` at one `F8E4M3`: one table load.
    fn fp8_e4m3(self, x: float8::F8E4M3) -> Result<float8::F8E4M3, crate::errors::MissingTable> {
        let t = self.table_fp8_e4m3()?;
        Ok(float8::F8E4M3::from_bits(t[usize::from(x.to_bits())]))
    }

    /// Applies `self` in place to every `F8E4M3` of `xs`.
    fn apply_fp8_e4m3(self, xs: &mut [float8::F8E4M3]) -> Result<(), crate::errors::MissingTable> {
        let t = self.table_fp8_e4m3()?;
        for x in xs {
            *x = float8::F8E4M3::from_bits(t[usize::from(x.to_bits())]);
        }
        Ok(())
    }

    /// Writes `self` of every `F8E4M3` of `xs` to `ys`.
    ///
    /// # Errors
    ///
    /// [`MapError::MissingTable`](crate::MapError::MissingTable) when the table is not
    /// compiled in, [`MapError::LengthMismatch`](crate::MapError::LengthMismatch) naming both
    /// lengths when `xs.len() != ys.len()`; `ys` is then unchanged.
    fn map_fp8_e4m3(
        self,
        xs: &[float8::F8E4M3],
        ys: &mut [float8::F8E4M3],
    ) -> Result<(), crate::kernels::MapError> {
        let t = self.table_fp8_e4m3()?;
        crate::errors::LengthMismatch::check(xs.len(), ys.len())?;
        for (y, x) in ys.iter_mut().zip(xs) {
            *y = float8::F8E4M3::from_bits(t[usize::from(x.to_bits())]);
        }
        Ok(())
    }

    /// `self` at one `F8E5M2`: one table load.
    fn fp8_e5m2(self, x: float8::F8E5M2) -> Result<float8::F8E5M2, crate::errors::MissingTable> {
        let t = self.table_fp8_e5m2()?;
        Ok(float8::F8E5M2::from_bits(t[usize::from(x.to_bits())]))
    }

    /// Applies `self` in place to every `F8E5M2` of `xs`.
    fn apply_fp8_e5m2(self, xs: &mut [float8::F8E5M2]) -> Result<(), crate::errors::MissingTable> {
        let t = self.table_fp8_e5m2()?;
        for x in xs {
            *x = float8::F8E5M2::from_bits(t[usize::from(x.to_bits())]);
        }
        Ok(())
    }

    /// Writes `self` of every `F8E5M2` of `xs` to `ys`.
    ///
    /// # Errors
    ///
    /// [`MapError::MissingTable`](crate::MapError::MissingTable) when the table is not
    /// compiled in, [`MapError::LengthMismatch`](crate::MapError::LengthMismatch) naming both
    /// lengths when `xs.len() != ys.len()`; `ys` is then unchanged.
    fn map_fp8_e5m2(
        self,
        xs: &[float8::F8E5M2],
        ys: &mut [float8::F8E5M2],
    ) -> Result<(), crate::kernels::MapError> {
        let t = self.table_fp8_e5m2()?;
        crate::errors::LengthMismatch::check(xs.len(), ys.len())?;
        for (y, x) in ys.iter_mut().zip(xs) {
            *y = float8::F8E5M2::from_bits(t[usize::from(x.to_bits())]);
        }
        Ok(())
    }
}

#[cfg(feature = "float8")]
impl<T: crate::builtin::BuiltinTables> Float8Tables for T {}
