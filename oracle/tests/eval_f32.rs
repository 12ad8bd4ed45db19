//! `actlut_codegen::eval_f32` (the runtime's `computed::*_f32`) against MPFR, for every
//! function: at every f16-representable value (65,536 inputs) and at seeded random `f32`
//! inputs: 1,000,000 per function in release builds (as `.ci/steps/25-oracle.sh` runs it),
//! 100,000 in debug builds (`cargo test --workspace`); set `ACTLUT_ORACLE_F32_INPUTS` to
//! change it.
//!
//! The documented claim is: correctly rounded except within 2^-40 (relative) of an `f32`
//! rounding boundary, and always the correct rounding of some value within 2^-40 of the exact
//! one (0.5 ulp + 2^-40). The test asserts the second part at every input, and that special
//! inputs (NaN, ±inf, ±0, domain errors, exact zeros) give exactly the bits docs/SEMANTICS.md
//! fixes. It prints how many results are not correctly rounded.
//!
//! Run: `cargo test -p actlut-oracle --release --test eval_f32 -- --nocapture`.

use actlut_codegen::{eval_f32, Function};
use actlut_oracle::{
    decode, evaluate, finite_to_float, finite_to_rational, reference_with_precisions, round_float,
    Act, Decoded, Fmt, Path, GUARD_BITS,
};
use rug::Float;
use std::fmt::Write as _;

/// Precision ladder of the reference: 128 bits settle all but exact midpoints (96 bits of
/// margin for a 24-bit result); the raised ones exist for the rest.
const PRECS: [u32; 3] = [128, 1024, 4096];
/// Precision of the value the faithful bound is checked against.
const CHECK_PREC: u32 = 256;
/// The claimed relative error bound of the evaluation behind `eval_f32`: 2^-40.
const REL_BOUND_LOG2: i32 = -40;
/// Random inputs per function unless `ACTLUT_ORACLE_F32_INPUTS` says otherwise: fewer in debug
/// builds, where the reference is about ten times slower.
const DEFAULT_RANDOM_INPUTS: usize = if cfg!(debug_assertions) {
    100_000
} else {
    1_000_000
};
/// The seed of the random inputs (the same inputs on every run).
const SEED: u64 = 0xAC71_E7F3_2000_0001;
/// At most this many failures are listed.
const LISTED: usize = 20;

/// SplitMix64: a small, well-mixed, seedable generator.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Every f16 value as `f32` bits (exact), then `n` seeded random `f32` bit patterns: a quarter
/// uniform over all 2^32 patterns (every exponent, NaNs and infinities included), the rest with
/// magnitudes log-uniform in [2^-24, 2^8), where the functions are neither constant nor
/// trivially linear.
fn inputs(n: usize) -> Vec<u32> {
    let mut v: Vec<u32> = (0..=u16::MAX).map(|b| half_to_f32(b).to_bits()).collect();
    let mut rng = SplitMix64(SEED);
    for i in 0..n {
        let r = rng.next();
        let bits = if i % 4 == 0 {
            r as u32
        } else {
            let sign = ((r >> 63) as u32) << 31;
            let exp = 127 - 24 + (((r >> 32) as u32) % 32);
            sign | exp << 23 | (r as u32 & 0x007F_FFFF)
        };
        v.push(bits);
    }
    v
}

/// f16 bits to f32, decoded by the oracle (independently of codegen).
fn half_to_f32(b: u16) -> f32 {
    match decode(Fmt::F16, b) {
        Decoded::Nan => f32::from_bits(
            (u32::from(b & 0x8000) << 16) | 0x7F80_0000 | (u32::from(b & 0x03FF) << 13),
        ),
        Decoded::Inf { negative } => {
            if negative {
                f32::NEG_INFINITY
            } else {
                f32::INFINITY
            }
        }
        Decoded::Zero { negative } => {
            if negative {
                -0.0
            } else {
                0.0
            }
        }
        Decoded::Finite {
            negative,
            significand,
            exponent,
        } => finite_to_float(negative, significand, exponent, 24).to_f32(),
    }
}

#[derive(Default)]
struct Tally {
    inputs: usize,
    special: usize,
    correctly_rounded: usize,
    /// Faithful but not correctly rounded: (input bits, correct bits, got bits).
    faithful_only: Vec<(u32, u32, u32)>,
    /// Outside the claimed bound, or a wrong special value: messages.
    failures: Vec<String>,
}

impl Tally {
    fn add(&mut self, o: Tally) {
        self.inputs += o.inputs;
        self.special += o.special;
        self.correctly_rounded += o.correctly_rounded;
        self.faithful_only.extend(o.faithful_only);
        self.failures.extend(o.failures);
    }
}

/// Whether `got` is the correct `f32` rounding of a value within 2^-40 (relative) of the exact
/// value at the finite nonzero input `bits`.
fn within_claimed_bound(act: Act, bits: u32, got: u32) -> bool {
    let Decoded::Finite {
        negative,
        significand,
        exponent,
    } = decode(Fmt::F32, bits)
    else {
        return false;
    };
    let x = finite_to_float(negative, significand, exponent, CHECK_PREC);
    let xr = finite_to_rational(negative, significand, exponent);
    let v = evaluate(act, &x, &xr, CHECK_PREC);
    let mut delta = Float::with_val(CHECK_PREC, v.abs_ref());
    delta <<= REL_BOUND_LOG2;
    let lo = Float::with_val(CHECK_PREC, &v - &delta);
    let hi = Float::with_val(CHECK_PREC, &v + &delta);
    let margin = CHECK_PREC - GUARD_BITS;
    got == round_float(Fmt::F32, &lo, margin).bits || got == round_float(Fmt::F32, &hi, margin).bits
}

fn run(function: Function, act: Act, xs: &[u32]) -> Tally {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut total = Tally::default();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let mut tally = Tally::default();
                    for &bits in xs.iter().skip(t).step_by(threads) {
                        tally.inputs += 1;
                        let want = reference_with_precisions(act, Fmt::F32, bits, &PRECS);
                        let got = eval_f32(function, f32::from_bits(bits)).to_bits();
                        if want.path == Path::Special {
                            tally.special += 1;
                        }
                        if got == want.bits {
                            tally.correctly_rounded += 1;
                        } else if want.path != Path::Special && within_claimed_bound(act, bits, got)
                        {
                            tally.faithful_only.push((bits, want.bits, got));
                        } else {
                            tally.failures.push(format!(
                                "{} at {:e} ({bits:#010x}): MPFR {:e} ({:#010x}), eval_f32 {:e} \
                                 ({got:#010x}){}",
                                act.name(),
                                f32::from_bits(bits),
                                f32::from_bits(want.bits),
                                want.bits,
                                f32::from_bits(got),
                                if want.path == Path::Special {
                                    " at a special input"
                                } else {
                                    ", beyond 0.5 ulp + 2^-40"
                                },
                            ));
                        }
                    }
                    tally
                })
            })
            .collect();
        for w in workers {
            total.add(w.join().expect("worker panicked"));
        }
    });
    total.faithful_only.sort_unstable();
    total
}

#[test]
fn eval_f32_is_within_half_an_ulp_plus_2_pow_minus_40_of_mpfr() {
    let n = std::env::var("ACTLUT_ORACLE_F32_INPUTS")
        .ok()
        .map(|s| s.parse().expect("ACTLUT_ORACLE_F32_INPUTS is a count"))
        .unwrap_or(DEFAULT_RANDOM_INPUTS);
    let xs = inputs(n);
    let mut failures = Vec::new();
    let mut not_cr_total = 0;
    for function in Function::ALL.into_iter().filter(|f| f.has_defaults()) {
        let act = Act::from_name(function.name()).expect("the oracle knows every function");
        let tally = run(function, act, &xs);
        not_cr_total += tally.faithful_only.len();
        let examples: Vec<String> = tally
            .faithful_only
            .iter()
            .take(3)
            .map(|&(x, want, got)| {
                format!(
                    "{:e}: {:e} not {:e}",
                    f32::from_bits(x),
                    f32::from_bits(got),
                    f32::from_bits(want)
                )
            })
            .collect();
        println!(
            "eval_f32 {:<11}: {} inputs ({} special), {} correctly rounded, {} not correctly \
             rounded but within the bound{}{}; {} failures",
            act.name(),
            tally.inputs,
            tally.special,
            tally.correctly_rounded,
            tally.faithful_only.len(),
            if examples.is_empty() { "" } else { ", e.g. " },
            examples.join("; "),
            tally.failures.len(),
        );
        failures.extend(tally.failures);
    }
    println!(
        "eval_f32: {not_cr_total} results not correctly rounded over {} functions × {} inputs",
        Function::ALL.iter().filter(|f| f.has_defaults()).count(),
        xs.len()
    );
    if !failures.is_empty() {
        let mut msg = format!(
            "{} results of eval_f32 break the documented bound (first {}):\n",
            failures.len(),
            failures.len().min(LISTED)
        );
        for f in failures.iter().take(LISTED) {
            writeln!(msg, "  {f}").unwrap();
        }
        panic!("{msg}");
    }
}

#[test]
fn the_input_set_covers_every_f16_value_and_is_seeded() {
    let a = inputs(1000);
    assert_eq!(a, inputs(1000), "the same inputs on every run");
    assert_eq!(a.len(), 65_536 + 1000);
    assert_eq!(a[0x3C00], 1.0f32.to_bits());
    assert_eq!(a[0x0001], 2f32.powi(-24).to_bits());
    assert_eq!(a[0xFC00], f32::NEG_INFINITY.to_bits());
    assert_eq!(a[0x7E00], 0x7FC0_0000);
    let distinct: std::collections::HashSet<_> = a[65_536..].iter().collect();
    assert!(distinct.len() > 990);
}
