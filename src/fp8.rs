//! Conversions between `f32` and the OCP FP8 formats E4M3FN and E5M2, and AMD's
//! `float8_e4m3fnuz` and `float8_e5m2fnuz`, as raw bytes.
//!
//! Widening ([`e4m3_to_f32`], [`e5m2_to_f32`]) is exact. Narrowing ([`f32_to_e4m3`],
//! [`f32_to_e5m2`]) rounds once, to nearest, ties to even, with the overflow rules of
//! docs/SEMANTICS.md: E5M2 overflows to ±inf; E4M3FN has no infinities, so values in (448, 464)
//! round down to 448, 464 is a tie that goes to 448 (even), and anything larger, ±inf
//! included, becomes NaN with the value's sign (ml_dtypes' and PyTorch's non-saturating
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
//! # NaN
//!
//! Conversions keep a NaN's sign and as much of its payload as fits, and quiet it (IEEE 754's
//! recommendation, and the rule the tables follow): E5M2 keeps the top two fraction bits and
//! sets its quiet bit `0x02`; E4M3FN has one NaN per sign (`0x7F`, `0xFF`). ml_dtypes, which
//! the tests compare with on every code and on boundary and random `f32` inputs, agrees
//! everywhere except that it drops NaN payloads.
//!
//! The fnuz formats ([`e4m3fnuz_to_f32`], [`f32_to_e4m3fnuz`], [`e5m2fnuz_to_f32`],
//! [`f32_to_e5m2fnuz`]) have no infinities and no −0: `0x80` is their only NaN, and NaN, ±inf
//! and overflow all become it; every zero is `0x00`. ml_dtypes agrees on every vector.
//!
//! These are the same roundings as [`Format::encode`](crate::Format::encode) and
//! [`Format::decode`](crate::Format::decode) (which the tests check exhaustively), written on
//! bits so that they are fast at run time.

use actlut_core::Format;

/// What the bit manipulation below needs of an 8-bit format, read from its
/// one description, the format's `Spec` in actlut-codegen ([`Fp8::of`]).
struct Fp8 {
    /// Stored fraction bits.
    frac: u32,
    /// Exponent bias.
    bias: i32,
    /// Whether the all-ones exponent is ±inf/NaN (E5M2) rather than finite (E4M3FN, fnuz).
    ieee: bool,
    /// fnuz: `0x80` is the only NaN, there is no −0, and overflow gives `0x80`.
    fnuz: bool,
}

const E4M3: Fp8 = Fp8::of(Format::Fp8E4M3);
const E5M2: Fp8 = Fp8::of(Format::Fp8E5M2);
const E4M3FNUZ: Fp8 = Fp8::of(Format::Fp8E4M3Fnuz);
const E5M2FNUZ: Fp8 = Fp8::of(Format::Fp8E5M2Fnuz);

impl Fp8 {
    /// The parameters of `format`, which must be an 8-bit float with a NaN
    /// (checked at compile time: the constants above are `const`).
    const fn of(format: Format) -> Fp8 {
        assert!(format.bits() == 8 && format.has_nan(), "not an fp8 format");
        Fp8 {
            frac: format.fraction_bits(),
            bias: format.exponent_bias(),
            ieee: format.has_inf(),
            fnuz: !format.has_negative_zero(),
        }
    }
}

impl Fp8 {
    /// The magnitude of +inf (E5M2) or of the NaN that overflow becomes (E4M3FN: `0x7F`); for
    /// fnuz, `0x80`, one past every finite magnitude.
    const fn overflow(&self) -> u32 {
        if self.ieee {
            0x7F >> self.frac << self.frac
        } else if self.fnuz {
            0x80
        } else {
            0x7F
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

    /// A zero of sign bit `sign`: +0 in fnuz, which has no −0.
    const fn zero(&self, sign: u8) -> u8 {
        if self.fnuz {
            0
        } else {
            sign
        }
    }

    fn widen(&self, code: u8) -> f32 {
        let sign = u32::from(code & 0x80) << 24;
        let mag = u32::from(code & 0x7F);
        let exp = mag >> self.frac;
        let fraction = mag & ((1 << self.frac) - 1);
        let top_exp = 0x7F >> self.frac;
        let bits = if self.ieee && exp == top_exp {
            // ±inf, or a NaN: payload to the top of the f32 fraction, quieted.
            let payload = fraction << (23 - self.frac);
            let quiet = if fraction != 0 { 0x0040_0000 } else { 0 };
            sign | 0x7F80_0000 | payload | quiet
        } else if self.fnuz && code == 0x80 {
            // The one fnuz NaN: the sign of its pattern, as ml_dtypes gives it.
            0xFFC0_0000
        } else if !self.ieee && !self.fnuz && mag == 0x7F {
            sign | 0x7FC0_0000
        } else if exp == 0 {
            // Subnormal (or zero): fraction · 2^(1 − bias − frac), exact in f32.
            let v = fraction as f32
                * f32::from_bits(((127 + 1 - self.bias - self.frac as i32) as u32) << 23);
            sign | v.to_bits()
        } else {
            sign | ((exp as i32 - self.bias + 127) as u32) << 23 | fraction << (23 - self.frac)
        };
        f32::from_bits(bits)
    }

    fn narrow(&self, x: f32) -> u8 {
        let b = x.to_bits();
        let sign = ((b >> 24) & 0x80) as u8;
        let a = b & 0x7FFF_FFFF;
        if a > 0x7F80_0000 {
            // NaN: sign and the top payload bits kept, quieted.
            return if self.fnuz {
                0x80
            } else if self.ieee {
                let payload = (a >> (23 - self.frac)) & ((1 << self.frac) - 1);
                sign | (self.overflow() | payload | 1 << (self.frac - 1)) as u8
            } else {
                sign | 0x7F
            };
        }
        if a == 0x7F80_0000 {
            return self.overflow_code(sign);
        }
        let f32_exp = (a >> 23) as i32;
        if f32_exp == 0 {
            // f32 subnormals (and zeros) lie far below half the smallest fp8 subnormal.
            return self.zero(sign);
        }
        // |x| = m · 2^(f32_exp − 150), m with its hidden bit.
        let m = (a & 0x007F_FFFF) | 0x0080_0000;
        let emin = 1 - self.bias;
        // The quantum 2^q of the result: that of x's binade, or the subnormal one.
        let q = (f32_exp - 127).max(emin) - self.frac as i32;
        let shift = q - (f32_exp - 150);
        if shift > 24 {
            // |x| < 2^(q−1): below half a quantum.
            return self.zero(sign);
        }
        let shift = shift as u32;
        let mut n = m >> shift;
        let rem = m & ((1 << shift) - 1);
        let half = 1 << (shift - 1);
        if rem > half || (rem == half && n & 1 == 1) {
            n += 1;
        }
        // n · 2^q as bits: each binade above the subnormal quantum adds 2^frac, and a hidden
        // bit (or a carry out of the binade) lands in the exponent field.
        let qmin = emin - self.frac as i32;
        let mag = ((q - qmin) as u32) * (1 << self.frac) + n;
        if mag >= self.overflow() {
            self.overflow_code(sign)
        } else if mag == 0 {
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
    E4M3.widen(code)
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
    E5M2.widen(code)
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
    E4M3.narrow(x)
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
    E5M2.narrow(x)
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
    E4M3FNUZ.widen(code)
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
    E5M2FNUZ.widen(code)
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
    E4M3FNUZ.narrow(x)
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
    E5M2FNUZ.narrow(x)
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
