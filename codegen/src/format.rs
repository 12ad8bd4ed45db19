//! Number formats: exact decoding of every bit pattern to `f64`, and one
//! round-to-nearest-even encoding from `f64`.

/// A table format: the number format of a table's inputs and outputs.
///
/// Every format here is a subset of `f64`, so decoding is exact and a value is
/// rounded exactly once when it is encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Format {
    /// IEEE 754 binary16: 1 sign, 5 exponent, 10 fraction bits, bias 15, max 65504.
    F16,
    /// bfloat16: 1 sign, 8 exponent, 7 fraction bits, bias 127, max ≈ 3.39e38.
    /// Subnormals are real values, not flushed.
    Bf16,
    /// OCP FP8 E4M3 ("fn"): 1 sign, 4 exponent, 3 fraction bits, bias 7, max 448,
    /// no infinities, NaN is `S.1111.111` only.
    Fp8E4M3,
    /// OCP FP8 E5M2: 1 sign, 5 exponent, 2 fraction bits, bias 15, max 57344,
    /// IEEE-like with ±inf and NaN `S.11111.{01,10,11}`.
    Fp8E5M2,
}

/// How a format spends its all-ones exponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Specials {
    /// IEEE: all-ones exponent is ±inf (zero fraction) or NaN.
    Ieee,
    /// OCP E4M3FN: no infinities; only all-ones exponent *and* fraction is NaN.
    E4M3Fn,
}

#[derive(Clone, Copy, Debug)]
struct Spec {
    /// Total width in bits.
    width: u32,
    /// Stored fraction bits (significand bits minus the hidden bit).
    frac: u32,
    /// Exponent field width.
    exp: u32,
    /// Exponent bias.
    bias: i32,
    specials: Specials,
    /// Bit that quiets a NaN (the top fraction bit; unused for E4M3FN).
    quiet: u16,
}

impl Format {
    /// Every format, in a fixed order (the order of the lock file).
    pub const ALL: [Format; 4] = [Format::F16, Format::Bf16, Format::Fp8E4M3, Format::Fp8E5M2];

    const fn spec(self) -> Spec {
        match self {
            Format::F16 => Spec {
                width: 16,
                frac: 10,
                exp: 5,
                bias: 15,
                specials: Specials::Ieee,
                quiet: 0x0200,
            },
            Format::Bf16 => Spec {
                width: 16,
                frac: 7,
                exp: 8,
                bias: 127,
                specials: Specials::Ieee,
                quiet: 0x0040,
            },
            Format::Fp8E4M3 => Spec {
                width: 8,
                frac: 3,
                exp: 4,
                bias: 7,
                specials: Specials::E4M3Fn,
                quiet: 0,
            },
            Format::Fp8E5M2 => Spec {
                width: 8,
                frac: 2,
                exp: 5,
                bias: 15,
                specials: Specials::Ieee,
                quiet: 0x02,
            },
        }
    }

    /// The format's name as used in table names: `f16`, `bf16`, `fp8_e4m3`, `fp8_e5m2`.
    pub const fn name(self) -> &'static str {
        match self {
            Format::F16 => "f16",
            Format::Bf16 => "bf16",
            Format::Fp8E4M3 => "fp8_e4m3",
            Format::Fp8E5M2 => "fp8_e5m2",
        }
    }

    /// The cargo feature of the runtime crate that enables this format's tables:
    /// `f16`, `bf16`, `fp8-e4m3`, `fp8-e5m2`.
    pub const fn feature(self) -> &'static str {
        match self {
            Format::F16 => "f16",
            Format::Bf16 => "bf16",
            Format::Fp8E4M3 => "fp8-e4m3",
            Format::Fp8E5M2 => "fp8-e5m2",
        }
    }

    /// Looks a format up by its [`name`](Self::name).
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Width of one value in bits (16 or 8).
    pub const fn bits(self) -> u32 {
        self.spec().width
    }

    /// Number of distinct bit patterns, which is the number of entries of a table
    /// over this format: 65,536 or 256.
    pub const fn entries(self) -> usize {
        1 << self.spec().width
    }

    /// Bytes of one table entry (2 or 1).
    pub const fn entry_bytes(self) -> usize {
        (self.spec().width / 8) as usize
    }

    /// Bytes of one whole table: `entries() * entry_bytes()`.
    pub const fn table_bytes(self) -> usize {
        self.entries() * self.entry_bytes()
    }

    const fn sign_bit(self) -> u16 {
        1 << (self.spec().width - 1)
    }

    /// Mask of the magnitude bits (everything but the sign).
    const fn mag_mask(self) -> u16 {
        self.sign_bit() - 1
    }

    /// Bit pattern of the largest finite positive value.
    pub const fn max_finite_bits(self) -> u16 {
        let s = self.spec();
        match s.specials {
            Specials::Ieee => ((1u16 << s.exp) - 2) << s.frac | ((1u16 << s.frac) - 1),
            // S.1111.110: the all-ones pattern is NaN.
            Specials::E4M3Fn => self.mag_mask() - 1,
        }
    }

    /// Bit pattern of +inf, or `None` for formats without infinities (E4M3).
    pub const fn inf_bits(self) -> Option<u16> {
        let s = self.spec();
        match s.specials {
            Specials::Ieee => Some(((1u16 << s.exp) - 1) << s.frac),
            Specials::E4M3Fn => None,
        }
    }

    /// The positive default quiet NaN: the result of a NaN made from a non-NaN
    /// input (`0x7E00`, `0x7FC0`, `0x7F`, `0x7E`).
    pub const fn default_nan_bits(self) -> u16 {
        let s = self.spec();
        match s.specials {
            Specials::Ieee => ((1u16 << s.exp) - 1) << s.frac | s.quiet,
            Specials::E4M3Fn => self.mag_mask(),
        }
    }

    /// Whether `bits` encodes a NaN.
    pub const fn is_nan(self, bits: u16) -> bool {
        let s = self.spec();
        let mag = bits & self.mag_mask();
        match s.specials {
            Specials::Ieee => {
                let inf = ((1u16 << s.exp) - 1) << s.frac;
                mag > inf
            }
            Specials::E4M3Fn => mag == self.mag_mask(),
        }
    }

    /// The same NaN, quieted: sign and payload kept, quiet bit set
    /// (E4M3 has one NaN per sign and keeps it).
    pub const fn quiet_nan(self, bits: u16) -> u16 {
        bits | self.spec().quiet
    }

    /// Decodes a bit pattern to its exact value. NaN patterns decode to an `f64`
    /// NaN with the pattern's sign. Bits above the format's width are ignored.
    pub fn decode(self, bits: u16) -> f64 {
        let s = self.spec();
        let bits = if s.width == 16 { bits } else { bits & 0xFF };
        let neg = bits & self.sign_bit() != 0;
        let e = i32::from((bits >> s.frac) & ((1 << s.exp) - 1));
        let f = f64::from(bits & ((1 << s.frac) - 1));
        let emax_field = (1 << s.exp) - 1;
        let mag = if self.is_nan(bits) {
            f64::NAN
        } else if s.specials == Specials::Ieee && e == emax_field {
            f64::INFINITY
        } else if e == 0 {
            // Subnormal: f · 2^(1 − bias − frac). Exact: a small integer times a power of two.
            libm::scalbn(f, 1 - s.bias - s.frac as i32)
        } else {
            libm::scalbn(f + f64::from(1u32 << s.frac), e - s.bias - s.frac as i32)
        };
        if neg {
            -mag
        } else {
            mag
        }
    }

    /// Encodes `v` with a single rounding to nearest, ties to even, following
    /// docs/SEMANTICS.md: subnormals rounded as subnormals; a value whose rounding
    /// (with unbounded exponent) exceeds the largest finite value becomes ±inf,
    /// or NaN with the value's sign on E4M3; a negative value that rounds to zero
    /// is −0. A NaN `v` becomes the positive default NaN.
    pub fn encode(self, v: f64) -> u16 {
        let s = self.spec();
        if v.is_nan() {
            return self.default_nan_bits();
        }
        let sign = if v.is_sign_negative() {
            self.sign_bit()
        } else {
            0
        };
        let a = v.abs();
        let overflow = sign | self.inf_bits().unwrap_or(self.mag_mask());
        if a == f64::INFINITY {
            return overflow;
        }
        if a == 0.0 {
            return sign;
        }
        let emin = 1 - s.bias;
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
            return sign;
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
    /// overflow threshold `max + ulp/2`.
    pub(crate) fn upper_boundary(self, mag: u16) -> f64 {
        let v = self.decode(mag);
        if mag == self.max_finite_bits() {
            v + (v - self.decode(mag - 1)) / 2.0
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

    /// Whether the sign bit of `bits` is set.
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
                let even = if mag & 1 == 0 { mag } else { mag + 1 };
                assert_eq!(fmt.encode(mid), even, "{fmt:?} mid above {mag:#x}");
                let below = f64::from_bits(mid.to_bits() - 1);
                let above = f64::from_bits(mid.to_bits() + 1);
                assert_eq!(fmt.encode(below), mag, "{fmt:?} below mid {mag:#x}");
                assert_eq!(fmt.encode(above), mag + 1, "{fmt:?} above mid {mag:#x}");
                // Negative side mirrors with the sign bit set.
                assert_eq!(fmt.encode(-below), fmt.sign_bit() | mag);
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
}
