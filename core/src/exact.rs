//! Exact rational arithmetic for the values that are rational: a constant of an [`Op`]
//! (`1.702`, `1/6`), `alpha·x` of leaky_relu, the clamps of hardtanh, `alpha_p·x² + beta·x` of
//! xielu. Their rounding is decided exactly, so an exact tie (the 21 subnormal results of
//! `leaky_relu(alpha=0.01)` over f16 that lie exactly halfway between two values) is settled to
//! even, never by an approximation.
//!
//! [`Big`] is a fixed-width unsigned integer (no heap: 1,024 bits, of which an operation uses
//! the limbs its operands occupy), [`Exact`] a signed `num/den · 2^exp` of two of them. An
//! operation whose result would not fit returns `None`: the caller reports the input unsettled
//! rather than guess. The sizes that occur are far below the limit: a constant fits 128 bits
//! over 128 bits, an input's significand 53 bits, and xielu's sum of two products about 520
//! bits for inputs in `f32`'s range.
//!
//! [`Op`]: crate::Op

use core::cmp::Ordering;

use crate::round::Bounded;

/// Limbs of a [`Big`]: 16 × 64 = 1,024 bits.
const LIMBS: usize = 16;

/// An unsigned integer below `2^1024`, little-endian limbs; `len` limbs are in use (the ones
/// above are zero).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Big {
    limbs: [u64; LIMBS],
    len: usize,
}

impl PartialEq for Big {
    fn eq(&self, other: &Big) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Big {}

impl PartialOrd for Big {
    fn partial_cmp(&self, other: &Big) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Big {
    fn cmp(&self, other: &Big) -> Ordering {
        if self.len != other.len {
            return self.len.cmp(&other.len);
        }
        for i in (0..self.len).rev() {
            match self.limbs[i].cmp(&other.limbs[i]) {
                Ordering::Equal => {}
                o => return o,
            }
        }
        Ordering::Equal
    }
}

impl Big {
    /// Zero.
    pub(crate) const ZERO: Big = Big {
        limbs: [0; LIMBS],
        len: 0,
    };

    /// `v`.
    pub(crate) const fn from_u128(v: u128) -> Big {
        let mut limbs = [0; LIMBS];
        limbs[0] = v as u64;
        limbs[1] = (v >> 64) as u64;
        let len = if limbs[1] != 0 {
            2
        } else if limbs[0] != 0 {
            1
        } else {
            0
        };
        Big { limbs, len }
    }

    /// Drops leading zero limbs from `len`.
    fn trim(mut self) -> Big {
        while self.len > 0 && self.limbs[self.len - 1] == 0 {
            self.len -= 1;
        }
        self
    }

    /// Whether the value is zero.
    pub(crate) const fn is_zero(&self) -> bool {
        self.len == 0
    }

    /// The number of significant bits (0 for zero).
    pub(crate) fn bits(&self) -> u32 {
        match self.len {
            0 => 0,
            n => 64 * (n as u32 - 1) + (64 - self.limbs[n - 1].leading_zeros()),
        }
    }

    /// The value, if it fits a `u128`.
    pub(crate) fn to_u128(self) -> Option<u128> {
        (self.len <= 2).then(|| u128::from(self.limbs[0]) | u128::from(self.limbs[1]) << 64)
    }

    /// `self · 2^n`, or `None` when it does not fit.
    pub(crate) fn shl(&self, n: u32) -> Option<Big> {
        if self.is_zero() {
            return Some(*self);
        }
        if self.bits() + n > 64 * LIMBS as u32 {
            return None;
        }
        let (words, bits) = ((n / 64) as usize, n % 64);
        let mut out = [0u64; LIMBS];
        for i in 0..self.len {
            out[i + words] |= self.limbs[i] << bits;
            if bits != 0 && i + words + 1 < LIMBS {
                out[i + words + 1] |= self.limbs[i] >> (64 - bits);
            }
        }
        Some(
            Big {
                limbs: out,
                len: (self.len + words + 1).min(LIMBS),
            }
            .trim(),
        )
    }

    /// `self / 2` (rounded down).
    fn shr1(&self) -> Big {
        let mut out = *self;
        for i in 0..self.len {
            let next = if i + 1 < self.len {
                self.limbs[i + 1]
            } else {
                0
            };
            out.limbs[i] = (self.limbs[i] >> 1) | (next << 63);
        }
        out.trim()
    }

    /// `self + other`, or `None` when it does not fit.
    pub(crate) fn add(&self, other: &Big) -> Option<Big> {
        let n = self.len.max(other.len);
        let mut out = [0u64; LIMBS];
        let mut carry = 0u64;
        for (i, o) in out.iter_mut().enumerate().take(n) {
            let (s1, c1) = self.limbs[i].overflowing_add(other.limbs[i]);
            let (s2, c2) = s1.overflowing_add(carry);
            *o = s2;
            carry = u64::from(c1) + u64::from(c2);
        }
        if carry != 0 {
            if n == LIMBS {
                return None;
            }
            out[n] = carry;
        }
        Some(
            Big {
                limbs: out,
                len: (n + 1).min(LIMBS),
            }
            .trim(),
        )
    }

    /// `self − other`, for `self ≥ other`.
    pub(crate) fn sub(&self, other: &Big) -> Big {
        debug_assert!(*self >= *other, "Big::sub below zero");
        let mut out = *self;
        let mut borrow = 0u64;
        for i in 0..self.len {
            let (d1, b1) = self.limbs[i].overflowing_sub(other.limbs[i]);
            let (d2, b2) = d1.overflowing_sub(borrow);
            out.limbs[i] = d2;
            borrow = u64::from(b1) + u64::from(b2);
        }
        out.trim()
    }

    /// `self · other`, or `None` when it does not fit.
    pub(crate) fn mul(&self, other: &Big) -> Option<Big> {
        if self.is_zero() || other.is_zero() {
            return Some(Big::ZERO);
        }
        if self.len + other.len > LIMBS + 1 {
            return None;
        }
        let mut out = [0u64; LIMBS + 1];
        for i in 0..self.len {
            let mut carry = 0u128;
            for j in 0..other.len {
                let t = u128::from(self.limbs[i]) * u128::from(other.limbs[j])
                    + u128::from(out[i + j])
                    + carry;
                out[i + j] = t as u64;
                carry = t >> 64;
            }
            out[i + other.len] = carry as u64;
        }
        if out[LIMBS] != 0 {
            return None;
        }
        let mut limbs = [0u64; LIMBS];
        limbs.copy_from_slice(&out[..LIMBS]);
        Some(
            Big {
                limbs,
                len: (self.len + other.len).min(LIMBS),
            }
            .trim(),
        )
    }

    /// `(self / d, self % d)` for a small non-zero divisor.
    pub(crate) fn divrem_small(&self, d: u64) -> (Big, u64) {
        let mut out = *self;
        let mut rem = 0u128;
        for i in (0..self.len).rev() {
            let cur = (rem << 64) | u128::from(self.limbs[i]);
            out.limbs[i] = (cur / u128::from(d)) as u64;
            rem = cur % u128::from(d);
        }
        (out.trim(), rem as u64)
    }
}

/// An exact rational value `(−1)^neg · num/den · 2^exp`, `den > 0`. Zero is `num = 0`, and
/// keeps the sign it was made with.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Exact {
    pub neg: bool,
    pub num: Big,
    pub den: Big,
    pub exp: i32,
}

impl Exact {
    /// `(−1)^neg · num/den`.
    pub(crate) fn ratio(neg: bool, num: u128, den: u128) -> Exact {
        debug_assert!(den != 0, "Exact::ratio: zero denominator");
        Exact {
            neg,
            num: Big::from_u128(num),
            den: Big::from_u128(den),
            exp: 0,
        }
    }

    /// The exact value of a finite `f64`.
    pub(crate) fn from_f64(x: f64) -> Exact {
        debug_assert!(x.is_finite(), "Exact::from_f64: {x}");
        let bits = x.to_bits();
        let field = ((bits >> 52) & 0x7FF) as i32;
        let frac = bits & ((1 << 52) - 1);
        let (m, e) = if field == 0 {
            (frac, -1074)
        } else {
            (frac | 1 << 52, field - 1075)
        };
        Exact {
            neg: x.is_sign_negative(),
            num: Big::from_u128(u128::from(m)),
            den: Big::from_u128(1),
            exp: e,
        }
    }

    /// Whether the value is zero.
    pub(crate) const fn is_zero(&self) -> bool {
        self.num.is_zero()
    }

    /// `−self`.
    pub(crate) const fn neg(self) -> Exact {
        Exact {
            neg: !self.neg,
            ..self
        }
    }

    /// `self · other`, or `None` when it does not fit.
    pub(crate) fn mul(&self, other: &Exact) -> Option<Exact> {
        Some(Exact {
            neg: self.neg != other.neg,
            num: self.num.mul(&other.num)?,
            den: self.den.mul(&other.den)?,
            exp: self.exp.checked_add(other.exp)?,
        })
    }

    /// `self + other`, or `None` when it does not fit. An exact zero sum is +0.
    pub(crate) fn add(&self, other: &Exact) -> Option<Exact> {
        if other.is_zero() {
            return Some(*self);
        }
        if self.is_zero() {
            return Some(*other);
        }
        let exp = self.exp.min(other.exp);
        let a = self
            .num
            .mul(&other.den)?
            .shl(u32::try_from(self.exp - exp).ok()?)?;
        let b = other
            .num
            .mul(&self.den)?
            .shl(u32::try_from(other.exp - exp).ok()?)?;
        let den = self.den.mul(&other.den)?;
        let (neg, num) = if self.neg == other.neg {
            (self.neg, a.add(&b)?)
        } else {
            match a.cmp(&b) {
                Ordering::Greater => (self.neg, a.sub(&b)),
                Ordering::Less => (other.neg, b.sub(&a)),
                Ordering::Equal => (false, Big::ZERO),
            }
        };
        Some(Exact { neg, num, den, exp })
    }

    /// The numeric order of `self` and `other` (zeros are equal whatever their sign), or
    /// `None` when the comparison does not fit.
    pub(crate) fn compare(&self, other: &Exact) -> Option<Ordering> {
        let d = self.add(&other.neg())?;
        Some(if d.is_zero() {
            Ordering::Equal
        } else if d.neg {
            Ordering::Less
        } else {
            Ordering::Greater
        })
    }

    /// The value rounded once, to nearest, ties to even, into a binary format with `frac`
    /// stored fraction bits and smallest normal exponent `emin` (subnormals included, the
    /// exponent unbounded above): the result as an `f64`, exact (`±inf` past `f64`'s range; a
    /// result that rounds to zero keeps the value's sign). `None` when an intermediate does
    /// not fit a [`Big`].
    ///
    /// `frac ≤ 52` and `emin ≥ −1022`: `f64` itself is `(52, −1022)`, `f32` `(23, −126)`, a
    /// table format `(fraction_bits, 1 − bias)`, whose encoding then maps the result (a value
    /// of the format, or a value past its largest finite one) to its bits.
    pub(crate) fn round(&self, frac: u32, emin: i32) -> Option<f64> {
        self.round_in(frac, emin, false)
    }

    /// The value rounded to `f64` to odd: truncated to 53 bits, the last set when any bit
    /// was dropped. Rounding that once more to nearest into a format of at most 51
    /// significant bits is the correct rounding of the exact value. `None` when an
    /// intermediate does not fit a [`Big`].
    pub(crate) fn to_f64_odd(self) -> Option<f64> {
        self.round_in(52, -1022, true)
    }

    /// The nearest `f64` as a [`Bounded`]: exact when the value is one, otherwise within
    /// half an ulp of `f64`.
    pub(crate) fn bounded(&self) -> Option<Bounded> {
        let h = self.to_f64()?;
        if self.compare(&Exact::from_f64(h))? == Ordering::Equal {
            return Some(Bounded::exact(h));
        }
        Some(Bounded {
            hi: h,
            lo: 0.0,
            err: libm::scalbn(h.abs(), -53) + libm::scalbn(1.0, -1074),
        })
    }

    /// [`round`](Self::round), or (`odd`) to odd: the dropped bits set the last kept one.
    fn round_in(&self, frac: u32, emin: i32, odd: bool) -> Option<f64> {
        let sign = |v: f64| if self.neg { -v } else { v };
        if self.num.is_zero() {
            return Some(sign(0.0));
        }
        // k = floor(log2(num/den)) + exp.
        let bl = self.num.bits() as i64 - self.den.bits() as i64;
        let at_least = if bl >= 0 {
            self.num >= self.den.shl(u32::try_from(bl).ok()?)?
        } else {
            self.num.shl(u32::try_from(-bl).ok()?)? >= self.den
        };
        let k = bl - i64::from(!at_least) + i64::from(self.exp);
        let q = k.max(i64::from(emin)) - i64::from(frac);
        if k < q - 1 {
            // Below half the quantum: rounds to zero, and is no tie (to odd: the smallest
            // quantum, the last bit set).
            let q = i32::try_from(q).ok()?;
            return Some(sign(if odd { libm::scalbn(1.0, q) } else { 0.0 }));
        }
        // n = floor(num/den · 2^(exp − q)) < 2^(frac + 2): a shift of the numerator or the
        // denominator whose size is bounded by the other's (num/den is within a factor
        // 2^(frac + 2) of 2^(q − exp)).
        let s = i64::from(self.exp) - q;
        let (mut a, b) = if s >= 0 {
            (self.num.shl(u32::try_from(s).ok()?)?, self.den)
        } else {
            (self.num, self.den.shl(u32::try_from(-s).ok()?)?)
        };
        let mut n: u64 = 0;
        let mut bi = b.shl(frac + 1)?;
        for i in (0..=frac + 1).rev() {
            if a >= bi {
                a = a.sub(&bi);
                n |= 1 << i;
            }
            bi = bi.shr1();
        }
        // The remainder a (of b): to odd, any remainder sets the last bit; to nearest, round
        // up past half, to even at half.
        if odd {
            if !a.is_zero() {
                n |= 1;
            }
        } else {
            match a.shl(1)?.cmp(&b) {
                Ordering::Greater => n += 1,
                Ordering::Equal if n & 1 == 1 => n += 1,
                _ => {}
            }
        }
        let q = i32::try_from(q).ok()?;
        Some(sign(libm::scalbn(n as f64, q)))
    }

    /// The value correctly rounded to `f64` (`None` when it does not fit a [`Big`]).
    pub(crate) fn to_f64(self) -> Option<f64> {
        self.round(52, -1022)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn big(v: u128) -> Big {
        Big::from_u128(v)
    }

    #[test]
    fn big_arithmetic_agrees_with_u128() {
        let vals = [
            0u128,
            1,
            2,
            3,
            0xFFFF_FFFF_FFFF_FFFF,
            1 << 64,
            (1 << 64) + 12345,
            u128::MAX >> 1,
            987_654_321_987_654_321,
        ];
        for &a in &vals {
            for &b in &vals {
                if let Some(s) = a.checked_add(b) {
                    assert_eq!(big(a).add(&big(b)).unwrap().to_u128(), Some(s));
                }
                if a >= b {
                    assert_eq!(big(a).sub(&big(b)).to_u128(), Some(a - b));
                }
                if let Some(p) = a.checked_mul(b) {
                    assert_eq!(big(a).mul(&big(b)).unwrap().to_u128(), Some(p));
                }
                assert_eq!(big(a).cmp(&big(b)), a.cmp(&b));
            }
            for n in [0, 1, 7, 63, 64, 65] {
                if let Some(s) = a.checked_shl(n).filter(|s| s >> n == a) {
                    assert_eq!(big(a).shl(n).unwrap().to_u128(), Some(s));
                }
            }
            assert_eq!(big(a).shr1().to_u128(), Some(a >> 1));
            assert_eq!(big(a).bits(), 128 - a.leading_zeros());
            if a != 0 {
                let (q, r) = big(a).divrem_small(10);
                assert_eq!((q.to_u128(), r), (Some(a / 10), (a % 10) as u64));
            }
        }
        // 2^1023 fits; 2^1024 does not.
        let top = big(1).shl(1023).unwrap();
        assert_eq!(top.bits(), 1024);
        assert!(top.shl(1).is_none());
        assert!(top.add(&top).is_none());
        assert!(top.mul(&big(2)).is_none());
    }

    #[test]
    fn rounding_a_ratio_is_correct_and_ties_go_to_even() {
        // 1/3 to f64 is the division's correctly rounded result.
        for (n, d) in [
            (1u128, 3u128),
            (2, 3),
            (1, 10),
            (7, 1000),
            (851, 500),
            (1, 6),
        ] {
            let want = n as f64 / d as f64;
            assert_eq!(Exact::ratio(false, n, d).to_f64(), Some(want), "{n}/{d}");
            assert_eq!(Exact::ratio(true, n, d).to_f64(), Some(-want), "-{n}/{d}");
        }
        // Halfway between 1 and 1 + 2^-10 in f16 (10 fraction bits): to even, 1.
        let mid = Exact::ratio(false, (1 << 11) + 1, 1 << 11);
        assert_eq!(mid.round(10, -14), Some(1.0));
        let mid = Exact::ratio(false, (1 << 11) + 3, 1 << 11);
        assert_eq!(mid.round(10, -14), Some(1.0 + 2.0 / 1024.0));
        // Subnormals: f16's smallest is 2^-24; 2^-25 is a tie to +0, 3·2^-25 to 2^-23.
        let tiny = Exact::from_f64(libm::scalbn(1.0, -25));
        assert_eq!(tiny.round(10, -14), Some(0.0));
        let tiny = Exact::from_f64(libm::scalbn(3.0, -25));
        assert_eq!(tiny.round(10, -14), Some(libm::scalbn(1.0, -23)));
        let below = Exact::from_f64(libm::scalbn(-1.0, -40));
        assert_eq!(
            below.round(10, -14).map(f64::to_bits),
            Some((-0.0f64).to_bits())
        );
        // The exponent is unbounded above: 65520 (f16's overflow threshold) ties to 65536.
        assert_eq!(Exact::ratio(false, 65520, 1).round(10, -14), Some(65536.0));
    }

    #[test]
    fn sums_products_and_comparisons_are_exact() {
        let a = Exact::ratio(false, 1, 100);
        let b = Exact::from_f64(0.01);
        assert_eq!(a.compare(&b), Some(Ordering::Less)); // 0.01 in f64 is above 1/100
        let d = b.add(&a.neg()).unwrap();
        let r = d.to_f64().unwrap();
        assert!(r > 0.0 && r < 1e-18, "{r}");
        let x = Exact::from_f64(-3.0);
        let p = a.mul(&x).unwrap();
        assert_eq!(p.to_f64(), Some(-0.03));
        assert_eq!(
            p.add(&Exact::ratio(false, 3, 100)).unwrap().to_f64(),
            Some(0.0)
        );
    }
}
