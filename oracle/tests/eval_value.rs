//! `actlut_codegen::quant::eval_value`, stage 2 of the quantized tables for `f16` and `bf16`
//! outputs (a function at an `f32` value, rounded once to the output format), against MPFR.
//!
//! Inputs: every dequantized value `(q − zp)·scale` (difference −255..=255) of a set of scales
//! from the smallest subnormal to `f32::MAX`, where tiny scales make the function's value sit
//! on midpoints of the output format, and seeded random `f32` values. The claim: a result that
//! `eval_value_traced` reports [`Certainty::Correct`] is the correct rounding; one it reports
//! [`Certainty::Faithful`] is within 0.5 ulp + 2^-40. The test prints how many are faithful
//! only.
//!
//! Run: `cargo test -p actlut-oracle --release --test eval_value -- --nocapture`.

use actlut_codegen::quant::{dequantize, eval_value_traced, Certainty};
use actlut_codegen::{Format, Function};
use actlut_oracle::{is_rounding_within, reference_converting, Act, Fmt, Path};
use std::fmt::Write as _;

const PRECS: [u32; 3] = [128, 1024, 4096];
const LISTED: usize = 20;

const SCALES: [f32; 14] = [
    1.0e-45,
    1.0e-30,
    2.980_232_2e-8, // 2^-25
    3.051_757_8e-5, // 2^-15
    1.0e-3,
    0.05,
    0.1,
    0.333_333_34,
    1.0,
    1.000_976_6, // 1 + 2^-10
    7.5,
    100.0,
    1.0e30,
    f32::MAX,
];

/// Random inputs per function and format.
const RANDOM: usize = if cfg!(debug_assertions) {
    5_000
} else {
    100_000
};

fn inputs() -> Vec<f32> {
    let mut v: Vec<f32> = SCALES
        .iter()
        .flat_map(|&s| (-255..=255).map(move |d| dequantize(d, s, 0)))
        .collect();
    // SplitMix64, seeded.
    let mut state: u64 = 0x0E7A_1FA1_0E00_0001;
    for _ in 0..RANDOM {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        let sign = ((z >> 63) as u32) << 31;
        let exp = 127 - 30 + (((z >> 32) as u32) % 40);
        v.push(f32::from_bits(sign | exp << 23 | (z as u32 & 0x007F_FFFF)));
    }
    v.sort_unstable_by_key(|x| x.to_bits());
    v.dedup_by_key(|x| x.to_bits());
    v
}

#[test]
fn eval_value_is_correct_where_it_says_so_and_faithful_elsewhere() {
    let xs = inputs();
    let mut failures = Vec::new();
    let mut faithful_total = 0;
    for function in Function::ALL.into_iter().filter(|f| f.has_defaults()) {
        let act = Act::from_name(function.name()).unwrap();
        for (format, fmt) in [(Format::F16, Fmt::F16), (Format::Bf16, Fmt::Bf16)] {
            let (mut correct, mut flagged_correct, mut faithful) = (0, 0, Vec::new());
            let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
            let results: Vec<_> = std::thread::scope(|scope| {
                let workers: Vec<_> = (0..threads)
                    .map(|t| {
                        let xs = &xs;
                        scope.spawn(move || {
                            xs.iter()
                                .skip(t)
                                .step_by(threads)
                                .map(|&x| {
                                    let bits = x.to_bits();
                                    let want =
                                        reference_converting(act, Fmt::F32, fmt, bits, &PRECS);
                                    let (got, r) =
                                        eval_value_traced(function, format, f64::from(x));
                                    let within = got as u32 != want.bits
                                        && want.path != Path::Special
                                        && is_rounding_within(
                                            act,
                                            Fmt::F32,
                                            fmt,
                                            bits,
                                            u32::from(got),
                                            -40,
                                        );
                                    (x, want.bits, u32::from(got), r, within)
                                })
                                .collect::<Vec<_>>()
                        })
                    })
                    .collect();
                workers
                    .into_iter()
                    .flat_map(|w| w.join().unwrap())
                    .collect()
            });
            for (x, want, got, r, within) in results {
                match (got == want, r) {
                    (true, Certainty::Correct) => correct += 1,
                    (true, Certainty::Faithful) => flagged_correct += 1,
                    (false, Certainty::Faithful) if within => faithful.push(x),
                    (false, _) => failures.push(format!(
                        "{} {} at {x:e} ({:#010x}): MPFR {want:#06x}, eval_value {got:#06x} \
                         ({r:?})",
                        act.name(),
                        fmt.name(),
                        x.to_bits()
                    )),
                }
            }
            faithful_total += faithful.len();
            println!(
                "eval_value {:<11} {:<4}: {} inputs, {correct} correct, {flagged_correct} \
                 flagged faithful but correct, {} faithful only{}",
                act.name(),
                fmt.name(),
                xs.len(),
                faithful.len(),
                faithful
                    .iter()
                    .take(3)
                    .map(|x| format!(" {x:e}"))
                    .collect::<String>()
            );
        }
    }
    println!("eval_value: {faithful_total} results faithful only (not correctly rounded)");
    if !failures.is_empty() {
        let mut msg = format!("{} wrong results (first {}):\n", failures.len(), LISTED);
        for f in failures.iter().take(LISTED) {
            writeln!(msg, "  {f}").unwrap();
        }
        panic!("{msg}");
    }
}
