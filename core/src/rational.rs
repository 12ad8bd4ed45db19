//! [`Rational`]: the exact value of a constant, as written.

use crate::exact::{Big, Exact};
use core::cmp::Ordering;
use core::fmt;
use core::str::FromStr;

/// An exact rational number: the value of a function's constant (softcap's `cap`, leaky_relu's
/// `alpha`, …), `no_std` and without a heap.
///
/// A constant is the exact number written: `1.702` is `1702/1000`, never its `f32` or `bf16`
/// rounding; `1/6` is one sixth. It is parsed from decimal text (`30`, `1.702`, `-1e-6`,
/// `2.5E+3`) or fraction text (`1/6`, `-7/3`) without going through a binary float, and built
/// from an `f32` or `f64` as the shortest decimal that converts back to it (what Rust's
/// `Display` prints and what Python's `repr` of a `float` prints: `0.01f32` is `1/100`).
///
/// The numerator fits an `i128` and the denominator a `u128` (after reduction): a value beyond
/// is an error ([`RationalError::TooLarge`]), as are NaN and the infinities.
///
/// # One spelling per value
///
/// [`Display`](fmt::Display) writes the canonical text, the one used in op names
/// (`softcap(cap=30)`): a value whose denominator divides a power of ten as a plain decimal
/// (`30`, `0.01`, `-0.000001`, `1.703125`: no exponent, no trailing zeros, `0.` before a
/// fraction below one), any other as a reduced fraction (`1/6`, `-7/3`). Parsing the text
/// gives the value back; equal values have equal text.
///
/// ```
/// use actlut_core::Rational;
/// let a: Rational = "1.702".parse()?;
/// assert_eq!((a.numerator(), a.denominator()), (851, 500));
/// assert_eq!(a.to_string(), "1.702");
/// assert_eq!("-1e-6".parse::<Rational>()?.to_string(), "-0.000001");
/// assert_eq!("2/12".parse::<Rational>()?.to_string(), "1/6");
/// assert_eq!(Rational::try_from(0.01f64)?, "0.01".parse()?);
/// assert_eq!(Rational::try_from(1.703125f32)?.to_string(), "1.703125");
/// assert!("1.702".parse::<Rational>()? < "1.703125".parse()?);
/// # Ok::<(), actlut_core::RationalError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rational {
    /// The numerator, coprime to `den`; `0` for zero.
    num: i128,
    /// The denominator, at least 1; `1` for zero.
    den: u128,
}

/// Why a text or a float is not a [`Rational`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RationalError {
    /// Not a number: the text is not a decimal (`1.702`, `-1e-6`) or a fraction (`1/6`).
    Syntax,
    /// A fraction with denominator zero.
    ZeroDenominator,
    /// NaN or an infinity.
    NotFinite,
    /// The exact value needs a numerator beyond `i128` or a denominator beyond `u128`.
    TooLarge,
}

impl fmt::Display for RationalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RationalError::Syntax => {
                "not a number: expected a decimal (30, 1.702, -1e-6) or a fraction (1/6)"
            }
            RationalError::ZeroDenominator => "a fraction with denominator zero",
            RationalError::NotFinite => "not finite: a constant is a finite number",
            RationalError::TooLarge => {
                "too large for an exact constant: the reduced numerator must fit an i128 and \
                 the denominator a u128"
            }
        })
    }
}

impl core::error::Error for RationalError {}

const fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

impl Rational {
    /// Zero.
    pub const ZERO: Rational = Rational { num: 0, den: 1 };
    /// One.
    pub const ONE: Rational = Rational { num: 1, den: 1 };

    /// `num/den`, reduced.
    ///
    /// # Errors
    ///
    /// [`RationalError::ZeroDenominator`] when `den` is 0; [`RationalError::TooLarge`] when
    /// `num` is `i128::MIN`.
    ///
    /// ```
    /// use actlut_core::Rational;
    /// assert_eq!(Rational::new(-4, 6)?.to_string(), "-2/3");
    /// # Ok::<(), actlut_core::RationalError>(())
    /// ```
    pub const fn new(num: i128, den: u128) -> Result<Rational, RationalError> {
        if den == 0 {
            return Err(RationalError::ZeroDenominator);
        }
        if num == i128::MIN {
            return Err(RationalError::TooLarge);
        }
        Ok(Rational::reduce(num < 0, num.unsigned_abs(), den))
    }

    /// `±mag/den` reduced; the reduced numerator is at most `mag`, so it fits when `mag` does
    /// (callers pass `mag < 2^127`).
    const fn reduce(neg: bool, mag: u128, den: u128) -> Rational {
        if mag == 0 {
            return Rational::ZERO;
        }
        let g = gcd(mag, den);
        let m = (mag / g) as i128;
        Rational {
            num: if neg { -m } else { m },
            den: den / g,
        }
    }

    /// `num/den` that is already reduced, for constants written in code: a compile error
    /// (in a `const`) or a panic when it is not (`den` 0, or a common factor).
    ///
    /// ```
    /// use actlut_core::Rational;
    /// const ALPHA: Rational = Rational::reduced(851, 500); // 1.702
    /// assert_eq!(ALPHA.to_string(), "1.702");
    /// ```
    ///
    /// # Panics
    ///
    /// When `num/den` is not in lowest terms with `den > 0`, or `num` is `i128::MIN`.
    pub const fn reduced(num: i128, den: u128) -> Rational {
        assert!(
            den > 0 && num != i128::MIN,
            "Rational::reduced: zero denominator"
        );
        assert!(
            (num == 0 && den == 1) || (num != 0 && gcd(num.unsigned_abs(), den) == 1),
            "Rational::reduced: not in lowest terms"
        );
        Rational { num, den }
    }

    /// The integer `v`.
    pub const fn from_integer(v: i64) -> Rational {
        Rational {
            num: v as i128,
            den: 1,
        }
    }

    /// The numerator (coprime to the denominator, negative for a negative value).
    pub const fn numerator(self) -> i128 {
        self.num
    }

    /// The denominator (at least 1).
    pub const fn denominator(self) -> u128 {
        self.den
    }

    /// Whether the value is zero.
    pub const fn is_zero(self) -> bool {
        self.num == 0
    }

    /// Whether the value is above zero.
    pub const fn is_positive(self) -> bool {
        self.num > 0
    }

    /// Whether the value is below zero.
    pub const fn is_negative(self) -> bool {
        self.num < 0
    }

    /// `−self`.
    pub const fn neg(self) -> Rational {
        Rational {
            num: -self.num,
            den: self.den,
        }
    }

    /// Whether the denominator divides a power of ten (the value has a finite decimal
    /// expansion, written as a decimal by `Display`).
    pub const fn is_decimal(self) -> bool {
        let mut d = self.den;
        while d.is_multiple_of(2) {
            d /= 2;
        }
        while d.is_multiple_of(5) {
            d /= 5;
        }
        d == 1
    }

    /// The value as an exact [`Exact`].
    pub(crate) fn exact(self) -> Exact {
        Exact::ratio(self.num < 0, self.num.unsigned_abs(), self.den)
    }

    /// The value rounded once to the nearest `f64` (ties to even).
    ///
    /// ```
    /// use actlut_core::Rational;
    /// assert_eq!("0.01".parse::<Rational>()?.to_f64(), 0.01);
    /// assert_eq!("1/3".parse::<Rational>()?.to_f64(), 1.0 / 3.0);
    /// # Ok::<(), actlut_core::RationalError>(())
    /// ```
    pub fn to_f64(self) -> f64 {
        self.to_f64_pair().0
    }

    /// `(hi, lo)`: `hi` the value rounded to the nearest `f64`, `lo` the rest `value − hi`
    /// rounded to the nearest `f64`, so `|value − (hi + lo)| ≤ 2^-53·|lo|`; `lo` is zero
    /// exactly when `hi` is the value, and otherwise has the sign of `value − hi`.
    pub(crate) fn to_f64_pair(self) -> (f64, f64) {
        const EXACT: u128 = 1 << 53;
        let mag = self.num.unsigned_abs();
        if mag <= EXACT && self.den <= EXACT {
            // Both exact in f64: the quotient is correctly rounded, and its remainder
            // n − hi·d is exact (fma).
            let (n, d) = (self.num as f64, self.den as f64);
            let hi = n / d;
            let rem = libm::fma(-hi, d, n);
            return (hi, rem / d);
        }
        // A value of at most 128 bits over 128 bits, and the rest after its nearest f64 (at
        // most 181 + 128 bits over 256): far within a Big.
        let v = self.exact();
        let hi = v.to_f64().expect("a rational fits");
        let rest = v.add(&Exact::from_f64(hi).neg()).expect("the rest fits");
        (hi, rest.to_f64().expect("the rest fits"))
    }

    /// The value of the shortest decimal that converts back to `v` (Rust's `Display`,
    /// Python's `repr`): `0.1f64` is `1/10`, `0.1f32` is `1/10` too.
    ///
    /// # Errors
    ///
    /// [`RationalError::NotFinite`] for NaN and ±inf, [`RationalError::TooLarge`] when the
    /// decimal does not fit (`1e-300`, `1e40`).
    pub fn from_f64(v: f64) -> Result<Rational, RationalError> {
        if !v.is_finite() {
            return Err(RationalError::NotFinite);
        }
        let mut buf = Buf::new();
        fmt::write(&mut buf, format_args!("{v:e}")).map_err(|_| RationalError::TooLarge)?;
        buf.as_str().parse()
    }

    /// [`from_f64`](Self::from_f64) for an `f32`: the shortest decimal that converts back to
    /// the `f32`.
    ///
    /// # Errors
    ///
    /// As [`from_f64`](Self::from_f64) (`1e-40f32` needs a denominator of `10^40`).
    pub fn from_f32(v: f32) -> Result<Rational, RationalError> {
        if !v.is_finite() {
            return Err(RationalError::NotFinite);
        }
        let mut buf = Buf::new();
        fmt::write(&mut buf, format_args!("{v:e}")).map_err(|_| RationalError::TooLarge)?;
        buf.as_str().parse()
    }
}

/// A small text buffer for `{:e}` of a float (at most about 25 bytes).
struct Buf {
    bytes: [u8; 48],
    len: usize,
}

impl Buf {
    fn new() -> Buf {
        Buf {
            bytes: [0; 48],
            len: 0,
        }
    }

    fn as_str(&self) -> &str {
        core::str::from_utf8(&self.bytes[..self.len]).unwrap_or("")
    }
}

impl fmt::Write for Buf {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        if end > self.bytes.len() {
            return Err(fmt::Error);
        }
        self.bytes[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

impl TryFrom<f64> for Rational {
    type Error = RationalError;
    /// [`Rational::from_f64`].
    fn try_from(v: f64) -> Result<Rational, RationalError> {
        Rational::from_f64(v)
    }
}

impl TryFrom<f32> for Rational {
    type Error = RationalError;
    /// [`Rational::from_f32`].
    fn try_from(v: f32) -> Result<Rational, RationalError> {
        Rational::from_f32(v)
    }
}

impl From<i64> for Rational {
    fn from(v: i64) -> Rational {
        Rational::from_integer(v)
    }
}

impl From<i32> for Rational {
    fn from(v: i32) -> Rational {
        Rational::from_integer(i64::from(v))
    }
}

impl From<u32> for Rational {
    fn from(v: u32) -> Rational {
        Rational::from_integer(i64::from(v))
    }
}

impl PartialOrd for Rational {
    fn partial_cmp(&self, other: &Rational) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Rational {
    fn cmp(&self, other: &Rational) -> Ordering {
        self.exact()
            .compare(&other.exact())
            .expect("two rationals compare within a Big")
    }
}

/// Parses the digits `s` (ASCII digits only, at least one) into a `u128`, or `None` on
/// overflow. Leading zeros are skipped.
fn digits(s: &str) -> Option<u128> {
    s.bytes().try_fold(0u128, |acc, b| {
        acc.checked_mul(10)?.checked_add(u128::from(b - b'0'))
    })
}

fn all_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// `2^a · 5^b`, or `None` when it does not fit a `u128`.
fn pow25(a: u32, b: u32) -> Option<u128> {
    let two = 1u128.checked_shl(a).filter(|_| a < 128)?;
    let five = 5u128.checked_pow(b)?;
    two.checked_mul(five)
}

/// Parses a decimal: `[+-]digits[.digits][(e|E)[+-]digits]`, or `[+-].digits…`.
fn parse_decimal(s: &str) -> Result<Rational, RationalError> {
    let (neg, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let (mantissa, exp) = match body.find(['e', 'E']) {
        Some(i) => {
            let e = &body[i + 1..];
            let (eneg, edigits) = match e.as_bytes().first() {
                Some(b'-') => (true, &e[1..]),
                Some(b'+') => (false, &e[1..]),
                _ => (false, e),
            };
            if !all_digits(edigits) {
                return Err(RationalError::Syntax);
            }
            // An exponent beyond what any fitting value needs (|exponent| of 10^38 plus the
            // 39 digits a u128 holds) saturates; the value is then too large or too small.
            let mag = edigits
                .trim_start_matches('0')
                .parse::<i64>()
                .unwrap_or(if edigits.trim_start_matches('0').is_empty() {
                    0
                } else {
                    i64::MAX / 2
                })
                .min(1 << 20);
            (&body[..i], if eneg { -mag } else { mag })
        }
        None => (body, 0),
    };
    let (int, frac) = match mantissa.find('.') {
        Some(i) => (&mantissa[..i], &mantissa[i + 1..]),
        None => (mantissa, ""),
    };
    if (int.is_empty() && frac.is_empty())
        || (!int.is_empty() && !all_digits(int))
        || (!frac.is_empty() && !all_digits(frac))
    {
        return Err(RationalError::Syntax);
    }
    // The significant digits: leading zeros of the integer part and trailing zeros of the
    // fraction carry no value.
    let frac = frac.trim_end_matches('0');
    let int = int.trim_start_matches('0');
    let mut exp10 = exp - frac.len() as i64;
    // The digit string int ++ frac, without leading zeros (int may be empty).
    let (head, tail) = if int.is_empty() {
        ("", frac.trim_start_matches('0'))
    } else {
        (int, frac)
    };
    if head.is_empty() && tail.is_empty() {
        return Ok(Rational::ZERO);
    }
    // Trailing zeros of the whole digit string go to the exponent.
    let (head, tail) = if tail.is_empty() {
        let h = head.trim_end_matches('0');
        exp10 += (head.len() - h.len()) as i64;
        (h, "")
    } else {
        (head, tail)
    };
    if head.len() + tail.len() > 39 {
        return Err(RationalError::TooLarge);
    }
    let mut d = digits(head).unwrap_or(0);
    if !tail.is_empty() {
        let t = digits(tail).ok_or(RationalError::TooLarge)?;
        d = 10u128
            .checked_pow(tail.len() as u32)
            .and_then(|scale| d.checked_mul(scale)?.checked_add(t))
            .ok_or(RationalError::TooLarge)?;
    }
    // value = d · 10^exp10, d without trailing zeros.
    let fits = |m: u128| m < 1 << 127;
    if exp10 >= 0 {
        let scale = 10u128
            .checked_pow(u32::try_from(exp10).map_err(|_| RationalError::TooLarge)?)
            .ok_or(RationalError::TooLarge)?;
        let m = d.checked_mul(scale).ok_or(RationalError::TooLarge)?;
        if !fits(m) {
            return Err(RationalError::TooLarge);
        }
        return Ok(Rational::reduce(neg, m, 1));
    }
    // d / (2^k · 5^k): cancel d's factors of 2 and 5 before forming the denominator.
    let k = u32::try_from(-exp10).map_err(|_| RationalError::TooLarge)?;
    let (mut a, mut b) = (k, k);
    while a > 0 && d.is_multiple_of(2) {
        d /= 2;
        a -= 1;
    }
    while b > 0 && d.is_multiple_of(5) {
        d /= 5;
        b -= 1;
    }
    let den = pow25(a, b).ok_or(RationalError::TooLarge)?;
    if !fits(d) {
        return Err(RationalError::TooLarge);
    }
    Ok(Rational::reduce(neg, d, den))
}

/// Parses a fraction `[+-]digits/digits`.
fn parse_fraction(s: &str, slash: usize) -> Result<Rational, RationalError> {
    let (n, d) = (&s[..slash], &s[slash + 1..]);
    let (neg, n) = match n.as_bytes().first() {
        Some(b'-') => (true, &n[1..]),
        Some(b'+') => (false, &n[1..]),
        _ => (false, n),
    };
    if !all_digits(n) || !all_digits(d) {
        return Err(RationalError::Syntax);
    }
    let n = digits(n).ok_or(RationalError::TooLarge)?;
    let d = digits(d).ok_or(RationalError::TooLarge)?;
    if d == 0 {
        return Err(RationalError::ZeroDenominator);
    }
    let g = gcd(n, d).max(1);
    let (n, d) = (n / g, d / g);
    if n >= 1 << 127 {
        return Err(RationalError::TooLarge);
    }
    Ok(Rational::reduce(neg, n, d))
}

impl FromStr for Rational {
    type Err = RationalError;

    /// Parses decimal text (`30`, `1.702`, `-1e-6`, `.5`, `2.5E+3`) or fraction text (`1/6`,
    /// `-7/3`), exactly. No spaces, no `_`; `inf` and `nan` are [`RationalError::NotFinite`].
    fn from_str(s: &str) -> Result<Rational, RationalError> {
        let lower = |t: &str| {
            t.eq_ignore_ascii_case("inf")
                || t.eq_ignore_ascii_case("infinity")
                || t.eq_ignore_ascii_case("nan")
        };
        let unsigned = s.strip_prefix(['-', '+']).unwrap_or(s);
        if lower(unsigned) {
            return Err(RationalError::NotFinite);
        }
        match s.find('/') {
            Some(i) => parse_fraction(s, i),
            None => parse_decimal(s),
        }
    }
}

impl fmt::Display for Rational {
    /// The canonical text: a decimal when the denominator divides a power of ten and the
    /// digits fit a `u128` (`30`, `0.01`, `-1.5`), a reduced fraction otherwise (`1/6`, and
    /// `5764607523034235/576460752303423488`, the double nearest 0.01, whose 59 decimals
    /// would not parse back).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.num < 0 {
            f.write_str("-")?;
        }
        let mag = self.num.unsigned_abs();
        if !self.is_decimal() {
            return write!(f, "{mag}/{}", self.den);
        }
        // den = 2^a·5^b: the value has k = max(a, b) decimals, its digits are
        // mag·2^(k−a)·5^(k−b).
        let (mut d, mut a, mut b) = (self.den, 0u32, 0u32);
        while d.is_multiple_of(2) {
            d /= 2;
            a += 1;
        }
        while d.is_multiple_of(5) {
            d /= 5;
            b += 1;
        }
        let k = a.max(b);
        let scale = |x: Big, p: u64, n: u32| {
            (0..n).fold(x, |acc, _| {
                acc.mul(&Big::from_u128(u128::from(p)))
                    .expect("a decimal of a u128 fits")
            })
        };
        let digits_big = scale(scale(Big::from_u128(mag), 2, k - a), 5, k - b);
        // The parser reads back a decimal of at most 39 significant digits (a u128); a longer
        // one (the double nearest 0.01 has 59) is written as its reduced fraction, so that
        // every canonical text parses to its value.
        if digits_big.to_u128().is_none() {
            return write!(f, "{mag}/{}", self.den);
        }
        // Its decimal digits, least significant first (at most 39 + 128 of them).
        let mut buf = [0u8; 200];
        let mut n = 0;
        let mut rest = digits_big;
        while !rest.is_zero() || n <= k as usize {
            let (q, r) = rest.divrem_small(10);
            buf[n] = b'0' + r as u8;
            n += 1;
            rest = q;
        }
        // buf[..n] reversed is the integer part then k decimals; at least one integer digit.
        for i in (k as usize..n).rev() {
            f.write_str(core::str::from_utf8(&buf[i..=i]).unwrap_or("?"))?;
        }
        if k > 0 {
            f.write_str(".")?;
            for i in (0..k as usize).rev() {
                f.write_str(core::str::from_utf8(&buf[i..=i]).unwrap_or("?"))?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Rational {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Rational({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    fn r(s: &str) -> Rational {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    /// Every canonical text parses back to its value: a decimal too long for the parser (the
    /// double nearest 0.01, 59 decimals; 2^-100) is written as a fraction.
    #[test]
    fn canonical_text_parses_back() {
        let near = Rational::new(5_764_607_523_034_235, 1 << 59).unwrap();
        assert_eq!(near.to_string(), "5764607523034235/576460752303423488");
        let tiny = Rational::new(1, 1 << 100).unwrap();
        for v in [
            near,
            tiny,
            r("0.01"),
            r("-1.5"),
            r("1/6"),
            r("1e-30"),
            r("123456789e20"),
        ] {
            assert_eq!(r(&v.to_string()), v, "{v}");
        }
        for num in [1i128, 3, -7, 1 << 100, -(1 << 126)] {
            for den in [1u128, 2, 5, 10, 1 << 60, 1 << 127, 5u128.pow(50)] {
                let v = Rational::new(num, den).unwrap();
                assert_eq!(r(&v.to_string()), v, "{num}/{den}");
            }
        }
    }

    #[test]
    fn decimals_parse_exactly_and_print_canonically() {
        for (text, num, den, canonical) in [
            ("30", 30, 1, "30"),
            ("1.702", 851, 500, "1.702"),
            ("-1e-6", -1, 1_000_000, "-0.000001"),
            ("0.01", 1, 100, "0.01"),
            ("1.703125", 109, 64, "1.703125"),
            ("+2.50", 5, 2, "2.5"),
            (".5", 1, 2, "0.5"),
            ("5.", 5, 1, "5"),
            ("1000e-3", 1, 1, "1"),
            ("2.5E+3", 2500, 1, "2500"),
            ("0.707107", 707_107, 1_000_000, "0.707107"),
            ("0.282095", 56419, 200_000, "0.282095"),
            ("-0", 0, 1, "0"),
            ("0e99999999999", 0, 1, "0"),
            ("1/6", 1, 6, "1/6"),
            ("-2/12", -1, 6, "-1/6"),
            ("4/2", 2, 1, "2"),
            ("3/8", 3, 8, "0.375"),
            ("-7/3", -7, 3, "-7/3"),
            (
                "0.000000000000000000000000000000000001",
                1,
                10u128.pow(36),
                "0.000000000000000000000000000000000001",
            ),
        ] {
            let v = r(text);
            assert_eq!((v.numerator(), v.denominator()), (num, den), "{text}");
            assert_eq!(v.to_string(), canonical, "{text}");
            assert_eq!(r(canonical), v, "{canonical} parses back");
        }
    }

    #[test]
    fn bad_text_and_sizes_are_errors() {
        for s in [
            "", "-", ".", "1.2.3", "1e", "e5", "1x", " 1", "1_000", "0x10", "1/", "/2", "1/-2",
            "1.5/2",
        ] {
            assert_eq!(s.parse::<Rational>(), Err(RationalError::Syntax), "{s:?}");
        }
        assert_eq!(
            "1/0".parse::<Rational>(),
            Err(RationalError::ZeroDenominator)
        );
        for s in ["inf", "-inf", "NaN", "Infinity"] {
            assert_eq!(s.parse::<Rational>(), Err(RationalError::NotFinite), "{s}");
        }
        for s in [
            "1e39",
            "1e-39",
            "1e-300",
            "12345678901234567890123456789012345678901",
            "1/340282366920938463463374607431768211457",
        ] {
            assert_eq!(s.parse::<Rational>(), Err(RationalError::TooLarge), "{s}");
        }
        // 5·10^-39 = 1/(2^39·5^38) still fits a u128 denominator.
        assert_eq!(r("5e-39").numerator(), 1);
    }

    #[test]
    fn floats_are_their_shortest_decimal() {
        assert_eq!(Rational::from_f64(0.01), Ok(r("0.01")));
        assert_eq!(Rational::from_f32(0.01), Ok(r("0.01")));
        assert_eq!(Rational::from_f32(1.702), Ok(r("1.702")));
        assert_eq!(Rational::from_f64(-0.0), Ok(Rational::ZERO));
        assert_eq!(Rational::from_f64(1e-300), Err(RationalError::TooLarge));
        assert_eq!(Rational::from_f64(f64::NAN), Err(RationalError::NotFinite));
        // Every f32 of a range converts back from its rational.
        let mut b = 0x3000_0000u32;
        while b < 0x5000_0000 {
            let v = f32::from_bits(b);
            let q = Rational::from_f32(v).unwrap();
            assert_eq!(q.to_f64() as f32, v, "{v:e}");
            b += 0x0001_3579;
        }
    }

    #[test]
    fn order_and_conversion_are_exact() {
        assert!(r("1.702") < r("1.703125"));
        assert!(r("-1/3") < r("-0.3333"));
        assert!(r("1/3") > r("0.3333333333333333333333333333333333"));
        assert_eq!(r("1/3").to_f64(), 1.0 / 3.0);
        let (hi, lo) = r("0.01").to_f64_pair();
        assert_eq!(hi, 0.01);
        assert!(lo < 0.0 && lo > -1e-18, "{lo}"); // 0.01 in f64 lies above 1/100
        let big = r("123456789012345678901234567.000000001");
        let (hi, lo) = big.to_f64_pair();
        assert_eq!(hi, 123456789012345678901234567.0);
        assert!(lo != 0.0);
        assert_eq!(r("0.5").to_f64_pair(), (0.5, 0.0));
    }
}
