//! Correct rounding of an approximate value with a proven error bound.
//!
//! A reference evaluation yields `hi + lo` (an unevaluated sum of two `f64`s)
//! and an absolute bound `err` on its distance from the exact value. The value
//! can be rounded correctly into a format when no rounding boundary (a midpoint
//! between neighbouring format values, or the overflow threshold) lies within
//! `err` of it. When one does, the evaluation is *unsettled* and a more precise
//! evaluation must decide.

use crate::format::Format;

/// An approximation `hi + lo` of an exact real value, with `|exact − (hi + lo)| ≤ err`.
/// `err == 0.0` means `hi + lo` is the exact value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Bounded {
    pub hi: f64,
    pub lo: f64,
    pub err: f64,
}

/// Relative error bound assumed for a plain `f64` evaluation through libm:
/// 2^-40, i.e. 8192 units in the last place of `f64`. libm's functions are
/// within 1–2 ulp; the formulas chain at most six operations, and the largest
/// argument-error amplification that matters (an exponential whose argument
/// carries a relative error, `|argument| ≲ 2^9`) adds below 2^11 ulp. Every
/// table entry is additionally verified against MPFR.
pub(crate) const REL: f64 = 1.0 / (1u64 << 40) as f64;

/// Absolute floor added to every bound: covers `f64` subnormal results, whose
/// relative error is unbounded but whose absolute error is a few 2^-1074. Far
/// below half the smallest subnormal of every table format.
pub(crate) const ABS: f64 = 1e-300;

impl Bounded {
    /// An exact value.
    pub const fn exact(v: f64) -> Self {
        Bounded {
            hi: v,
            lo: 0.0,
            err: 0.0,
        }
    }

    /// A plain `f64` evaluation with the default relative bound.
    pub fn evaluated(v: f64) -> Self {
        Bounded {
            hi: v,
            lo: 0.0,
            err: REL * v.abs() + ABS,
        }
    }

    /// `hi` exact plus `lo` within the default relative bound of `lo`.
    pub fn exact_plus(hi: f64, lo: f64) -> Self {
        Bounded {
            hi,
            lo,
            err: REL * lo.abs() + ABS,
        }
    }

    /// The same value with a bound of at least `err`.
    pub fn max_err(self, err: f64) -> Self {
        Bounded {
            err: self.err.max(err),
            ..self
        }
    }

    /// `hi` exact plus `lo = n / d` rounded once: exact when the remainder is zero.
    pub fn exact_plus_quotient(hi: f64, n: f64, d: f64) -> Self {
        let lo = n / d;
        let exact = libm::fma(lo, d, -n) == 0.0;
        Bounded {
            hi,
            lo,
            err: if exact { 0.0 } else { lo.abs() * f64::EPSILON },
        }
    }
}

/// `a + b = s + t` exactly (Knuth's TwoSum), for finite inputs.
pub(crate) fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    let t = (a - (s - bb)) + (b - bb);
    (s, t)
}

/// The next `f64` after `x` in the direction of the sign of `dir` (non-zero).
fn next_toward(x: f64, dir: f64) -> f64 {
    let up = dir > 0.0;
    if x == 0.0 {
        let tiny = f64::from_bits(1);
        return if up { tiny } else { -tiny };
    }
    let b = x.to_bits();
    let away = (x > 0.0) == up;
    f64::from_bits(if away { b + 1 } else { b - 1 })
}

/// A rounding boundary of a format, as a magnitude: the midpoint between two
/// neighbouring values, or the overflow threshold (the midpoint between the
/// largest finite value and the next value the exponent range would have).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Boundary {
    /// The boundary.
    at: f64,
    /// The format's value just below it (the spacing of the two values it
    /// separates is `2·(at − below)`, a power of two).
    below: f64,
}

impl Boundary {
    /// The boundary just above the magnitude bits `mag` (finite).
    fn above(fmt: Format, mag: u16) -> Boundary {
        Boundary {
            at: fmt.upper_boundary(mag),
            below: fmt.decode(mag),
        }
    }

    /// The spacing of the two values the boundary separates: one ulp there.
    fn ulp(self) -> f64 {
        2.0 * (self.at - self.below)
    }
}

/// The cell of reals (of one sign) that round to `r`: its lower and upper
/// boundaries in magnitude, `None` where the cell is unbounded (below: the
/// zero's cell reaches 0; above: an overflow, or a saturating format's
/// largest value).
fn cell(fmt: Format, r: u16) -> (Option<Boundary>, Option<Boundary>) {
    let mag = fmt.mag(r);
    if fmt.is_nan(r) || !fmt.is_finite_mag(mag) {
        // An overflow (±inf, or the NaN of E4M3 and fnuz, whose magnitude bits
        // say nothing): everything above the overflow threshold.
        return (Some(Boundary::above(fmt, fmt.max_finite_bits())), None);
    }
    let lower = (mag != 0).then(|| Boundary::above(fmt, mag - 1));
    // A saturating format's largest value takes everything above it.
    let upper =
        (!(fmt.saturates() && mag == fmt.max_finite_bits())).then(|| Boundary::above(fmt, mag));
    (lower, upper)
}

/// Where a bounded value lies among the rounding boundaries of a format.
enum Place {
    /// An infinite value (an exact infinite limit, or `hi + lo` beyond `f64`'s
    /// range): it rounds to these bits.
    Infinite(u16),
    /// A finite value: `s + t` (TwoSum of `hi + lo`), `a = |s|`, `ta` = `t` in
    /// the direction of growing magnitude, the candidate rounding `r` and the
    /// boundaries of its cell.
    Finite {
        s: f64,
        a: f64,
        ta: f64,
        r: u16,
        lower: Option<Boundary>,
        upper: Option<Boundary>,
    },
}

/// Locates the non-NaN `v` among the boundaries of `fmt`.
fn locate(fmt: Format, v: Bounded) -> Place {
    if v.hi.is_infinite() {
        // Only produced for exact infinite limits, or f64 overflow of a value far
        // beyond every format's range.
        return Place::Infinite(fmt.encode(v.hi));
    }
    // (TwoSum of −0 and +0 is +0: keep an exact signed zero as it is.)
    let (s, t) = if v.lo == 0.0 {
        (v.hi, 0.0)
    } else {
        two_sum(v.hi, v.lo)
    };
    if s.is_infinite() {
        return Place::Infinite(fmt.encode(s));
    }
    let a = s.abs();
    // t in the direction of growing magnitude.
    let ta = if s < 0.0 { -t } else { t };
    let mut r = fmt.encode(s);
    let (mut lower, mut upper) = cell(fmt, r);
    let on = |b: Option<Boundary>| b.is_some_and(|b| b.at == a);
    if t != 0.0 && (on(lower) || on(upper)) {
        // s is exactly a boundary and s + t lies off it, on t's side (s + t is
        // never itself a boundary then): that side's cell is the candidate.
        r = fmt.encode(next_toward(s, t));
        (lower, upper) = cell(fmt, r);
    }
    Place::Finite {
        s,
        a,
        ta,
        r,
        lower,
        upper,
    }
}

/// Rounds `v` into `fmt`, or `None` when a rounding boundary lies within `v.err`
/// of `v` (the caller must evaluate more precisely).
pub(crate) fn round(fmt: Format, v: Bounded) -> Option<u16> {
    if v.hi.is_nan() || v.lo.is_nan() || v.err.is_nan() {
        return None;
    }
    let (s, a, ta, r, lower, upper) = match locate(fmt, v) {
        Place::Infinite(r) => return Some(r),
        Place::Finite {
            s,
            a,
            ta,
            r,
            lower,
            upper,
        } => (s, a, ta, r, lower, upper),
    };
    // The sign of the value is the sign of the evaluation (as in every format, where it
    // decides between ±0 and the sign of a result). An unsigned format holds no negative
    // value: every one, however small, is its NaN; only an exact −0 is +0.
    if !fmt.is_signed() && s.is_sign_negative() && (s != 0.0 || v.err != 0.0) {
        return Some(fmt.default_nan_bits());
    }
    // A format without zero (E8M0) tells an exact zero (its NaN) from a tiny positive
    // value (its smallest value): an evaluation of 0 that is not exact settles nothing.
    if !fmt.has_zero() && s == 0.0 && v.err != 0.0 {
        return None;
    }
    if v.err == 0.0 {
        return Some(r);
    }
    // Margins to each boundary, computed with relative error ≤ 2^-52 (a − boundary
    // is exact by Sterbenz's lemma whenever it is small); demand twice the bound.
    let need = 2.0 * v.err;
    if let Some(lb) = lower
        && (a - lb.at) + ta <= need
    {
        return None;
    }
    if let Some(ub) = upper
        && (ub.at - a) - ta <= need
    {
        return None;
    }
    Some(r)
}

/// The signed distance of the value `v` from the nearer rounding boundary of
/// its cell in `fmt`, in ulps of the format at that boundary, and a bound on
/// the error of that distance: `(distance, bound)`. The distance is positive
/// when the value is greater than the boundary (in value order, not
/// magnitude): a value exactly on a format value is 0.5 ulp from both of its
/// boundaries and counts as below the upper one (`−0.5` for `+x`, `+0.5` for
/// `−x`). An infinite value is infinitely far (`±inf`, bound 0).
///
/// The bound is `v.err` in ulps of the boundary, plus the rounding errors of
/// the subtraction (0 when it is exact): the distance is the exact value's
/// within it.
pub(crate) fn midpoint_distance(fmt: Format, v: Bounded) -> (f64, f64) {
    let (s, a, ta, lower, upper) = match locate(fmt, v) {
        Place::Infinite(_) => {
            let d = if v.hi + v.lo < 0.0 {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            };
            return (d, 0.0);
        }
        Place::Finite {
            s,
            a,
            ta,
            lower,
            upper,
            ..
        } => (s, a, ta, lower, upper),
    };
    // In the direction of growing magnitude: above the lower boundary (≥ 0),
    // below the upper one (≤ 0), as `hi + lo` ulps: `(a − at) + ta` with the
    // rounding errors of both sums kept in `lo` (TwoSum), so an exact value's
    // distance is exact and values half an ulp from both boundaries are told
    // apart by their last bits; the division by the ulp (a power of two) is
    // exact. The bound adds the evaluation's error and `lo` itself.
    let from = |b: Boundary| {
        let (s1, t1) = two_sum(a, -b.at);
        let (s2, t2) = two_sum(s1, ta);
        let ulp = b.ulp();
        (
            s2 / ulp,
            (t1 + t2) / ulp,
            (v.err + t1.abs() + t2.abs()) / ulp,
        )
    };
    let (hi, lo, err) = match (lower.map(from), upper.map(from)) {
        (Some(l), Some(u)) => {
            // |l| − |u| = (l.hi + u.hi) + (l.lo + u.lo): the first sum is exact
            // when both are near 0.5 (Sterbenz), where the choice is close.
            if (l.0 + u.0) + (l.1 + u.1) < 0.0 {
                l
            } else {
                u
            }
        }
        (Some(l), None) => l,
        (None, Some(u)) => u,
        (None, None) => unreachable!("every cell has a boundary"),
    };
    let d = hi + lo;
    (if s.is_sign_negative() { -d } else { d }, err)
}

/// Rounds `v` to `f32` (once, to nearest-even), or `None` when a rounding
/// boundary lies within `v.err` of it.
pub(crate) fn round_f32(v: Bounded) -> Option<f32> {
    if v.hi.is_nan() || v.lo.is_nan() || v.err.is_nan() {
        return None;
    }
    let (s, t) = if v.hi.is_infinite() || v.lo == 0.0 {
        (v.hi, 0.0)
    } else {
        two_sum(v.hi, v.lo)
    };
    if s.is_infinite() {
        return Some(s as f32);
    }
    let a = s.abs();
    let ta = if s < 0.0 { -t } else { t };
    let val = |bits: u32| f64::from(f32::from_bits(bits));
    let max = f32::MAX.to_bits();
    let threshold = val(max) + (val(max) - val(max - 1)) / 2.0;
    let cell = |r: f32| {
        let m = r.abs().to_bits();
        let lower = match m {
            0 => None,
            m if m > max => Some(threshold),
            m => Some((val(m - 1) + val(m)) / 2.0),
        };
        let upper = match m {
            m if m == max => Some(threshold),
            m if m > max => None,
            m => Some((val(m) + val(m + 1)) / 2.0),
        };
        (lower, upper)
    };
    let mut r = s as f32;
    let (mut lower, mut upper) = cell(r);
    if t != 0.0 && (Some(a) == lower || Some(a) == upper) {
        r = next_toward(s, t) as f32;
        (lower, upper) = cell(r);
    }
    if v.err == 0.0 {
        return Some(r);
    }
    let need = 2.0 * v.err;
    if lower.is_some_and(|lb| (a - lb) + ta <= need)
        || upper.is_some_and(|ub| (ub - a) - ta <= need)
    {
        return None;
    }
    Some(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_midpoints_tie_to_even_and_exact_offsets_break_ties() {
        let f = Format::F16;
        // 1 + 2^-11 is the midpoint between 1 (even) and 1 + 2^-10.
        let mid = 1.0 + libm::scalbn(1.0, -11);
        assert_eq!(round(f, Bounded::exact(mid)), Some(0x3C00));
        // Exact value just above the midpoint, carried in lo.
        let v = Bounded {
            hi: mid,
            lo: 1e-30,
            err: 0.0,
        };
        assert_eq!(round(f, v), Some(0x3C01));
        let v = Bounded {
            hi: -mid,
            lo: -1e-30,
            err: 0.0,
        };
        assert_eq!(round(f, v), Some(0xBC01));
    }

    #[test]
    fn values_near_a_boundary_are_unsettled() {
        let f = Format::F16;
        let mid = 1.0 + libm::scalbn(1.0, -11);
        assert_eq!(round(f, Bounded::evaluated(mid)), None);
        assert_eq!(round(f, Bounded::evaluated(mid * (1.0 + 1e-14))), None);
        // Far enough away: settled.
        assert_eq!(
            round(f, Bounded::evaluated(mid * (1.0 + 1e-9))),
            Some(0x3C01)
        );
        assert_eq!(
            round(f, Bounded::evaluated(mid * (1.0 - 1e-9))),
            Some(0x3C00)
        );
        // The overflow threshold is a boundary too.
        assert_eq!(round(f, Bounded::evaluated(65520.0)), None);
        assert_eq!(round(f, Bounded::evaluated(65521.0)), Some(0x7C00));
        // So is half the smallest subnormal.
        assert_eq!(round(f, Bounded::evaluated(libm::scalbn(1.0, -25))), None);
    }

    /// A saturating format's largest value has no upper boundary, and an
    /// overflow into a NaN (E4M3, fnuz) has no upper boundary either.
    #[test]
    fn saturation_and_nan_overflow_cells() {
        let f = Format::Fp4E2M1;
        assert_eq!(round(f, Bounded::evaluated(7.0)), Some(0x7));
        assert_eq!(round(f, Bounded::evaluated(-1e6)), Some(0xF));
        assert_eq!(round(f, Bounded::evaluated(6.5)), Some(0x7));
        assert_eq!(round(f, Bounded::evaluated(5.0)), None);
        assert_eq!(round(f, Bounded::exact(5.0)), Some(0x6));
        assert_eq!(round(f, Bounded::exact(-0.0)), Some(0x8));
        let f = Format::Fp8E4M3Fnuz;
        assert_eq!(round(f, Bounded::evaluated(1e6)), Some(0x80));
        assert_eq!(round(f, Bounded::evaluated(-1e6)), Some(0x80));
        assert_eq!(round(f, Bounded::evaluated(248.0)), None);
        assert_eq!(round(f, Bounded::evaluated(-1e-9)), Some(0x00));
        assert_eq!(round(f, Bounded::exact(-0.0)), Some(0x00));
        let v = Bounded {
            hi: -libm::scalbn(1.0, -11),
            lo: -1e-30,
            err: 0.0,
        };
        assert_eq!(round(f, v), Some(0x81));
    }

    /// The distance from the nearer boundary, in ulps there, signed in value
    /// order: on a midpoint 0; on a value 0.5 below its upper boundary; at a
    /// binade's bottom the boundary below is half as far in absolute terms
    /// but as far in its own (smaller) ulps.
    #[test]
    fn midpoint_distances_are_in_ulps_of_the_nearer_boundary() {
        let f = Format::F16;
        let mid = 1.0 + libm::scalbn(1.0, -11); // between 1 and 1 + 2^-10
        assert_eq!(midpoint_distance(f, Bounded::exact(mid)), (0.0, 0.0));
        let above = Bounded {
            hi: mid,
            lo: libm::scalbn(1.0, -20),
            err: 0.0,
        };
        assert_eq!(midpoint_distance(f, above).0, libm::scalbn(1.0, -10));
        let d = midpoint_distance(f, Bounded::exact(-mid - libm::scalbn(1.0, -20))).0;
        assert_eq!(
            d,
            -libm::scalbn(1.0, -10),
            "beyond −mid in magnitude is below it"
        );
        assert_eq!(midpoint_distance(f, Bounded::exact(1.0)).0, -0.5);
        assert_eq!(midpoint_distance(f, Bounded::exact(-1.0)).0, 0.5);
        // Just below 1: the boundary 1 − 2^-12 has ulp 2^-11.
        let v = 1.0 - libm::scalbn(1.0, -12) + libm::scalbn(1.0, -14);
        assert_eq!(midpoint_distance(f, Bounded::exact(v)).0, 0.125);
        // Zeros: half the smallest subnormal is the boundary, one subnormal its ulp.
        assert_eq!(midpoint_distance(f, Bounded::exact(0.0)).0, -0.5);
        assert_eq!(midpoint_distance(f, Bounded::exact(-0.0)).0, 0.5);
        // The overflow threshold 65520 (ulp 32), and beyond it.
        assert_eq!(midpoint_distance(f, Bounded::exact(65520.0 + 8.0)).0, 0.25);
        assert_eq!(
            midpoint_distance(f, Bounded::exact(65520.0 + 320.0)).0,
            10.0
        );
        assert_eq!(
            midpoint_distance(f, Bounded::exact(f64::INFINITY)),
            (f64::INFINITY, 0.0)
        );
        // A saturating format's largest value has only the boundary below: FP4's
        // 6 is 1 ulp (2) above the midpoint 5.
        assert_eq!(
            midpoint_distance(Format::Fp4E2M1, Bounded::exact(7.0)).0,
            1.0
        );
        // The error bound is the evaluation's, in ulps, and a little more.
        let (d, e) = midpoint_distance(f, Bounded::evaluated(1.0));
        assert_eq!(d, -0.5);
        assert!(e >= REL / libm::scalbn(1.0, -10) && e < 2.0 * REL / libm::scalbn(1.0, -10));
        // An exact value's distance is exact.
        assert_eq!(
            midpoint_distance(f, Bounded::exact(1.0 + 3.0 * libm::scalbn(1.0, -13))).1,
            0.0
        );
    }

    /// An unsigned format makes every negative evaluation its NaN (an exact −0 is +0);
    /// E8M0 settles a zero only when it is exact.
    #[test]
    fn unsigned_and_zeroless_cells() {
        let f = Format::Fp8E5M3Fnu;
        assert_eq!(round(f, Bounded::evaluated(-1e-9)), Some(0xFF));
        assert_eq!(round(f, Bounded::evaluated(-1e9)), Some(0xFF));
        assert_eq!(round(f, Bounded::exact(-0.0)), Some(0x00));
        assert_eq!(round(f, Bounded::evaluated(-0.0)), Some(0xFF));
        assert_eq!(round(f, Bounded::evaluated(0.0)), Some(0x00));
        assert_eq!(round(f, Bounded::evaluated(1.0)), Some(0x78));
        // The overflow threshold 118784 is a boundary.
        assert_eq!(round(f, Bounded::evaluated(118784.0)), None);
        let f = Format::Fp8E8M0Fnu;
        assert_eq!(round(f, Bounded::exact(0.0)), Some(0xFF));
        assert_eq!(round(f, Bounded::evaluated(0.0)), None);
        assert_eq!(round(f, Bounded::evaluated(1e-300)), Some(0x00));
        assert_eq!(round(f, Bounded::evaluated(-2.0)), Some(0xFF));
        assert_eq!(round(f, Bounded::evaluated(3.0)), None);
        assert_eq!(round(f, Bounded::exact(3.0)), Some(0x81));
        assert_eq!(round(f, Bounded::evaluated(2.9)), Some(0x80));
    }

    #[test]
    fn tiny_positive_offset_settles_a_midpoint() {
        // gelu-like: x/2 exact on a midpoint plus a tiny positive term.
        let f = Format::Bf16;
        let x = 3.0 * libm::scalbn(1.0, -133); // odd subnormal: x/2 is a midpoint
        let v = Bounded::exact_plus(x / 2.0, x * x * 0.4);
        assert_eq!(round(f, v), Some(0x0002));
        let v = Bounded::exact_plus(-x / 2.0, x * x * 0.4);
        assert_eq!(round(f, v), Some(0x8001));
    }
}
