//! `actlut_codegen::midpoint_distance` (the exact value's distance from the nearest rounding
//! midpoint, in ulps of the format) against MPFR.
//!
//! The oracle computes the distance its own way: the format's non-negative values as exact
//! rationals from the oracle's decoder, the midpoints between neighbours (and the overflow
//! threshold, the midpoint above the largest finite value, where the format overflows rather
//! than saturates), each with its ulp (the two values' spacing); the exact value at 1,024 bits;
//! and the smallest distance in ulps among the midpoints around it. The claim: the crate's
//! distance lies within its stated `error_bound` of the oracle's (plus 2^-900 for the oracle's
//! own rounding), and is `±inf` only where the exact value is beyond `f64`'s range.
//!
//! Sample: every input of the byte formats (fp8, FP6, FP4) for every function; for f16 and
//! bf16, every hard case (the inputs the refined evaluation settles: the nearest to a
//! midpoint), the 64 inputs whose distance the crate finds smallest (the near-midpoint cases a
//! kernel is most likely to miss), and 256 seeded random inputs, per function.
//!
//! Run: `cargo test -p actlut-oracle --release --test midpoint -- --nocapture`.

use actlut_codegen::{eval_traced, midpoint_distance, table_pairs, Format, Function, Path};
use actlut_oracle::{decode, evaluate, finite_to_float, finite_to_rational, Act, Decoded, Fmt};
use rug::{Float, Rational};
use std::cmp::Ordering;
use std::fmt::Write as _;

const PREC: u32 = 1024;
const LISTED: usize = 20;

/// The format's midpoints in magnitude: `(midpoint, ulp)`, increasing.
fn midpoints(fmt: Fmt) -> Vec<(Rational, Rational)> {
    // The non-negative codes: below the sign bit, or every code of an unsigned format.
    let positive = if fmt.is_signed() {
        fmt.sign_bit()
    } else {
        fmt.entries() as u32
    };
    let mut values: Vec<Rational> = (0..positive)
        .filter_map(|b| match decode(fmt, b) {
            Decoded::Zero { .. } => Some(Rational::new()),
            Decoded::Finite {
                negative: false,
                significand,
                exponent,
            } => Some(finite_to_rational(false, significand, exponent)),
            _ => None,
        })
        .collect();
    values.sort();
    values.dedup();
    if !fmt.saturates() {
        // The value the exponent range would have next, one quantum of the largest value's
        // binade above it (E8M0: twice it): the overflow threshold lies halfway.
        let Decoded::Finite {
            significand,
            exponent,
            ..
        } = decode(fmt, fmt.max_finite())
        else {
            unreachable!("the largest finite value is finite")
        };
        values.push(finite_to_rational(false, significand + 1, exponent));
    }
    values
        .windows(2)
        .map(|w| {
            let ulp = Rational::from(&w[1] - &w[0]);
            (Rational::from(&w[0] + &w[1]) / 2u32, ulp)
        })
        .collect()
}

/// The oracle's signed distance (value order) of `v` from the midpoint nearest in ulps.
fn oracle_distance(mids: &[(Rational, Rational)], v: &Float) -> Float {
    let a = Float::with_val(PREC, v.abs_ref());
    // The first midpoint above |v|; the nearest in ulps is among its neighbours.
    let i = mids.partition_point(|(m, _)| Float::with_val(PREC, m) <= a);
    let lo = i.saturating_sub(2);
    let hi = (i + 2).min(mids.len());
    let d = mids[lo..hi]
        .iter()
        .map(|(m, u)| (a.clone() - Float::with_val(PREC, m)) / Float::with_val(PREC, u))
        .min_by(|x, y| {
            x.clone()
                .abs()
                .partial_cmp(&y.clone().abs())
                .expect("finite")
        })
        .expect("a midpoint");
    if v.is_sign_negative() {
        -d
    } else {
        d
    }
}

/// The oracle's format for a crate format.
fn fmt_of(format: Format) -> Fmt {
    Fmt::from_name(format.name()).expect("the oracle knows every table format")
}

/// The inputs of the sample for one pair (see the module doc).
fn sample(function: Function, format: Format) -> Vec<u16> {
    let all = (0..format.entries()).map(|i| i as u16);
    if format.entries() <= 256 {
        return all.collect();
    }
    let mut hard: Vec<u16> = Vec::new();
    let mut nearest: Vec<(f64, u16)> = Vec::new();
    for b in all {
        if eval_traced(function, format, b).1 == Path::Refined {
            hard.push(b);
        }
        if let Some(d) = midpoint_distance(function, format, b) {
            nearest.push((d.ulps.abs(), b));
        }
    }
    nearest.sort_by(|x, y| x.partial_cmp(y).expect("not NaN"));
    let mut v: Vec<u16> = hard;
    v.extend(nearest.iter().take(64).map(|&(_, b)| b));
    // SplitMix64, seeded per pair.
    let mut state = 0x5EED_0000_0000_0042u64 ^ ((function as u64) << 8) ^ format.entries() as u64;
    for _ in 0..256 {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        v.push((z ^ (z >> 31)) as u16);
    }
    v.sort_unstable();
    v.dedup();
    v
}

#[test]
fn midpoint_distances_match_mpfr_on_hard_nearest_and_random_inputs() {
    let mut failures = String::new();
    let mut failed = 0;
    let (mut checked, mut hard_checked) = (0usize, 0usize);
    let mut max_bound = [0f64; 2]; // plain, refined
    for (function, format) in table_pairs() {
        let act = Act::from_name(function.name()).expect("the oracle knows every function");
        let fmt = fmt_of(format);
        let mids = midpoints(fmt);
        let xs = sample(function, format);
        let results: Vec<(u16, Option<String>)> = std::thread::scope(|scope| {
            let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
            let chunks: Vec<&[u16]> = xs.chunks(xs.len().div_ceil(threads)).collect();
            let workers: Vec<_> = chunks
                .into_iter()
                .map(|chunk| {
                    let mids = &mids;
                    scope.spawn(move || {
                        chunk
                            .iter()
                            .map(|&b| (b, check(function, format, act, fmt, mids, b)))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            workers
                .into_iter()
                .flat_map(|w| w.join().expect("worker"))
                .collect()
        });
        for (b, fail) in results {
            let Some(d) = midpoint_distance(function, format, b) else {
                continue;
            };
            checked += 1;
            // The precision within the format's range (beyond it the distance, and its
            // bound, grow with the value).
            let inside = d.ulps.abs() <= 0.5 + d.error_bound;
            match d.path {
                Path::Refined => {
                    hard_checked += 1;
                    max_bound[1] = max_bound[1].max(d.error_bound);
                }
                Path::Direct if inside => max_bound[0] = max_bound[0].max(d.error_bound),
                _ => {}
            }
            if let Some(f) = fail {
                failed += 1;
                if failed <= LISTED {
                    let _ = writeln!(
                        failures,
                        "{}_{} {b:#06x}: {f}",
                        function.name(),
                        format.name()
                    );
                }
            }
        }
    }
    println!(
        "midpoint distances: {checked} inputs checked against MPFR ({hard_checked} hard cases); \
         largest error bound within half an ulp: {:.3e} ulp (plain), {:.3e} ulp (refined)",
        max_bound[0], max_bound[1]
    );
    assert!(hard_checked > 0, "the sample has hard cases");
    assert_eq!(
        failed, 0,
        "{failed} distances differ from MPFR's:\n{failures}"
    );
}

/// `None` when the crate's distance at `b` agrees with the oracle's, else what differs.
fn check(
    function: Function,
    format: Format,
    act: Act,
    fmt: Fmt,
    mids: &[(Rational, Rational)],
    b: u16,
) -> Option<String> {
    let got = midpoint_distance(function, format, b);
    let (negative, significand, exponent) = match decode(fmt, u32::from(b)) {
        Decoded::Finite {
            negative,
            significand,
            exponent,
        } => (negative, significand, exponent),
        // Special inputs: NaN gives None; ±0 and ±inf give exact values (core's unit tests).
        Decoded::Nan => return got.map(|d| format!("NaN input gave {d:?}")),
        _ => return None,
    };
    if negative && matches!(act, Act::Log | Act::Rsqrt) {
        return got.map(|d| format!("outside the domain, yet {d:?}"));
    }
    let Some(got) = got else {
        return Some("None for a number".into());
    };
    let x = finite_to_float(negative, significand, exponent, PREC);
    let xr = finite_to_rational(negative, significand, exponent);
    let v = evaluate(act, &x, &xr, PREC);
    if v.is_zero() {
        // An exact zero (log 1, hardsigmoid and hardswish at −3 and below) or an underflow of
        // MPFR's range: 0.5 ulp from half the smallest subnormal.
        return (got.ulps.abs() != 0.5).then(|| format!("{got:?} for a zero value"));
    }
    let want = oracle_distance(mids, &v);
    if got.ulps.is_infinite() {
        // Only beyond f64's range.
        let beyond = Float::with_val(PREC, v.abs_ref()) > Float::with_val(PREC, f64::MAX);
        let same_sign = (got.ulps > 0.0) == (want.cmp0() == Some(Ordering::Greater));
        return (!(beyond && same_sign)).then(|| format!("{got:?}; MPFR {want:.20e}"));
    }
    let mut tiny = Float::with_val(PREC, 1);
    tiny >>= 900;
    let slack = Float::with_val(PREC, got.error_bound) + tiny;
    let diff = Float::with_val(PREC, &want - got.ulps).abs();
    // Within the bound of a value of the format both midpoints are 0.5 ulp away, and which
    // is nearer is not decided: the magnitude must agree, the sign may be either.
    let want_abs = Float::with_val(PREC, want.abs_ref());
    let undecided = Float::with_val(PREC, got.ulps.abs() - 0.5).abs() <= slack
        && Float::with_val(PREC, &want_abs - 0.5f64).abs() <= slack;
    let magnitude = Float::with_val(PREC, &want_abs - got.ulps.abs()).abs();
    let ok = diff <= slack || (undecided && magnitude <= slack);
    (!ok).then(|| format!("{got:?}; MPFR {:.20e} (off by {:.3e})", want, diff))
}
