//! Comparing a peer with actlut's correctly rounded table over every input.
//!
//! # Distance in ulps
//!
//! Each non-NaN bit pattern `b` of a 16-bit format (sign in bit 15) sits at the
//! integer [`ordinal`]`(b)`: `b` itself when the sign bit is clear, `−(b & 0x7FFF)`
//! when it is set. This ordering is monotone in the value: `+0` and `−0` both
//! sit at 0, consecutive representable values (subnormals included) are 1 apart,
//! and `±inf` is one step past the largest finite value of its sign. The error of
//! a result in ulps of the format is `|ordinal(got) − ordinal(correct)|`
//! ([`ulp_distance`]); a NaN has no ordinal.
//!
//! # What counts as wrong
//!
//! A result is wrong when its bits differ from the correct bits, except that any
//! NaN equals any NaN (payloads are not compared). So `−0` for `+0` is wrong at a
//! distance of 0 ulps, and a NaN where a number is correct (or a number where NaN
//! is correct) is wrong with no distance: [`Comparison`] counts those separately.

use crate::{Format, Kernel};

/// The input range counted apart in [`Comparison::wrong_typical`]: `|x| ≤ 8`.
pub const TYPICAL: f32 = 8.0;

/// Whether `bits` is a NaN of `format`.
pub fn is_nan(format: Format, bits: u16) -> bool {
    let (exponent, mantissa) = match format {
        Format::F16 => (0x7C00, 0x03FF),
        Format::Bf16 => (0x7F80, 0x007F),
    };
    bits & exponent == exponent && bits & mantissa != 0
}

/// The position of a non-NaN bit pattern on the monotone integer ordering of the
/// format (see the module docs): `+0` and `−0` are both 0.
pub fn ordinal(bits: u16) -> i32 {
    let magnitude = i32::from(bits & 0x7FFF);
    if bits & 0x8000 == 0 {
        magnitude
    } else {
        -magnitude
    }
}

/// The distance in ulps between two non-NaN bit patterns of the same format:
/// `|ordinal(a) − ordinal(b)|`.
pub fn ulp_distance(a: u16, b: u16) -> u32 {
    ordinal(a).abs_diff(ordinal(b))
}

/// The input where a peer is furthest from the correct result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Worst {
    /// The input bit pattern (the lowest one, if several are as far).
    pub input: u16,
    /// The peer's result.
    pub got: u16,
    /// The correctly rounded result.
    pub expected: u16,
    /// `ulp_distance(got, expected)`.
    pub ulps: u32,
}

/// How one peer compares with the correct results over every input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// Inputs whose result is wrong (see the module docs), NaN mismatches included.
    pub wrong: u32,
    /// Of the wrong results, those at inputs with `|x| ≤ 8` ([`TYPICAL`]), where
    /// pre-activations usually are.
    pub wrong_typical: u32,
    /// Of the wrong results, those where one side is NaN and the other is not.
    pub nan_mismatches: u32,
    /// Of the wrong results, those one ulp from the correct result (a neighbour
    /// of it: a faithful rounding).
    pub one_ulp: u32,
    /// The largest error in ulps over the wrong results that are not NaN
    /// mismatches; `None` if there is no such result.
    pub worst: Option<Worst>,
}

/// Compares `got[i]` with `expected[i]`, the results for input `i`, for every
/// input `i` of `format`.
///
/// # Panics
///
/// If `got` does not hold 65,536 results.
pub fn compare(format: Format, expected: &[u16; 65536], got: &[u16]) -> Comparison {
    assert_eq!(got.len(), 65536, "one result per input");
    let mut result = Comparison {
        wrong: 0,
        wrong_typical: 0,
        nan_mismatches: 0,
        one_ulp: 0,
        worst: None,
    };
    for ((input, &got), &expected) in (0..=u16::MAX).zip(got).zip(expected) {
        let (got_nan, expected_nan) = (is_nan(format, got), is_nan(format, expected));
        if got == expected || (got_nan && expected_nan) {
            continue;
        }
        result.wrong += 1;
        if format.to_f32(input).abs() <= TYPICAL {
            result.wrong_typical += 1;
        }
        if got_nan || expected_nan {
            result.nan_mismatches += 1;
            continue;
        }
        let ulps = ulp_distance(got, expected);
        if ulps == 1 {
            result.one_ulp += 1;
        }
        if result.worst.is_none_or(|w| ulps > w.ulps) {
            result.worst = Some(Worst {
                input,
                got,
                expected,
                ulps,
            });
        }
    }
    result
}

/// Every bit pattern, in order: the inputs of an exhaustive run.
pub fn all_inputs() -> Vec<u16> {
    (0..=u16::MAX).collect()
}

/// The results of `kernel` on every input, in input order.
pub fn run_all(kernel: Kernel) -> Vec<u16> {
    let xs = all_inputs();
    let mut ys = vec![0; xs.len()];
    kernel.map_bits(&xs, &mut ys);
    ys
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ulp_distance_is_zero_across_signed_zeros_and_one_between_neighbours() {
        assert_eq!(ulp_distance(0x0000, 0x8000), 0);
        assert_eq!(ulp_distance(0x0001, 0x8001), 2); // smallest subnormals of both signs
        assert_eq!(ulp_distance(0x3C00, 0x3C01), 1);
        assert_eq!(ulp_distance(0x7BFF, 0x7C00), 1); // f16 max to +inf
        assert_eq!(ulp_distance(0xBC00, 0x3C00), 2 * 0x3C00);
    }

    #[test]
    fn ordinal_is_monotone_in_the_value_on_every_non_nan_pattern() {
        for format in Format::ALL {
            let mut finite: Vec<u16> = (0..=u16::MAX).filter(|b| !is_nan(format, *b)).collect();
            finite.sort_by(|a, b| {
                format
                    .to_f32(*a)
                    .partial_cmp(&format.to_f32(*b))
                    .unwrap()
                    .then(ordinal(*a).cmp(&ordinal(*b)))
            });
            for pair in finite.windows(2) {
                let (a, b) = (pair[0], pair[1]);
                let step = ordinal(b) - ordinal(a);
                let same_value = format.to_f32(a) == format.to_f32(b);
                assert!(
                    step == 1 || (same_value && step == 0),
                    "{}: {a:#06x} then {b:#06x}",
                    format.name()
                );
            }
        }
    }

    #[test]
    fn nan_is_equal_to_any_nan_and_a_nan_mismatch_is_counted_apart() {
        let expected: Box<[u16; 65536]> = vec![0x7E00; 65536].try_into().unwrap();
        let mut got = vec![0x7E01u16; 65536];
        assert_eq!(compare(Format::F16, &expected, &got).wrong, 0);
        got[5] = 0x3C00;
        got[0x7C00] = 0x8000; // at +inf: outside |x| ≤ 8
        let c = compare(Format::F16, &expected, &got);
        assert_eq!(
            (c.wrong, c.wrong_typical, c.nan_mismatches, c.worst),
            (2, 1, 2, None)
        );
    }

    #[test]
    fn worst_is_the_lowest_input_of_the_largest_error() {
        let expected: Box<[u16; 65536]> = vec![0x3C00; 65536].try_into().unwrap();
        let mut got = vec![0x3C00u16; 65536];
        got[3] = 0x3C02;
        got[7] = 0x3BFE;
        got[8] = 0x3C01;
        let c = compare(Format::Bf16, &expected, &got);
        assert_eq!((c.wrong, c.wrong_typical, c.one_ulp), (3, 3, 1));
        assert_eq!(
            c.worst,
            Some(Worst {
                input: 3,
                got: 0x3C02,
                expected: 0x3C00,
                ulps: 2
            })
        );
    }
}
