//! The error bound that actlut-codegen attaches to each reference evaluation is
//! a true bound: for every finite non-zero input of every 16-bit format, the
//! exact value (MPFR, 256 bits) lies within `error_bound` of `hi + lo`, for the
//! plain evaluation and, where there is one, the refined evaluation. The
//! correctness of every table entry rests on this.

use actlut_codegen::{evaluate, evaluate_refined, Evaluation, Format, Function};
use actlut_oracle::{
    decode, evaluate as mpfr, finite_to_float, finite_to_rational, Act, Decoded, Fmt,
};
use rug::Float;

const PREC: u32 = 256;

/// Largest observed `|exact − (hi + lo)| / error_bound` over the inputs, and the
/// inputs where it exceeded 1.
fn check(
    function: Function,
    format: Format,
    pick: fn(Function, f64) -> Option<Evaluation>,
) -> (f64, Vec<String>) {
    let act = Act::from_name(function.name()).expect("oracle knows every function");
    let fmt = Fmt::from_name(format.name()).expect("oracle knows the format");
    let mut worst: f64 = 0.0;
    let mut bad = Vec::new();
    for i in 0..format.entries() {
        let bits = i as u16;
        let Decoded::Finite {
            negative,
            significand,
            exponent,
        } = decode(fmt, bits)
        else {
            continue;
        };
        let x = format.decode(bits);
        let Some(ev) = pick(function, x) else {
            continue;
        };
        let xf = finite_to_float(negative, significand, exponent, PREC);
        let xr = finite_to_rational(negative, significand, exponent);
        if matches!(act, Act::Log | Act::Rsqrt) && negative {
            continue;
        }
        let exact = mpfr(act, &xf, &xr, PREC);
        let approx = Float::with_val(PREC, ev.hi) + Float::with_val(PREC, ev.lo);
        let diff = Float::with_val(PREC, &exact - &approx).abs().to_f64();
        if ev.error_bound == 0.0 {
            if diff != 0.0 {
                bad.push(format!(
                    "{bits:#06x} ({x:e}): claimed exact, off by {diff:e}"
                ));
            }
            continue;
        }
        let ratio = diff / ev.error_bound;
        worst = worst.max(ratio);
        if ratio > 1.0 {
            bad.push(format!(
                "{bits:#06x} ({x:e}): error {diff:e} > bound {:e}",
                ev.error_bound
            ));
        }
    }
    (worst, bad)
}

#[test]
fn reference_error_bounds_hold_on_every_input() {
    let mut failures = Vec::new();
    std::thread::scope(|s| {
        let handles: Vec<_> = Function::ALL
            .into_iter()
            .filter(|f| f.has_defaults())
            .map(|function| {
                s.spawn(move || {
                    let mut out = Vec::new();
                    for format in [Format::F16, Format::Bf16, Format::Fp8E4M3, Format::Fp8E5M2] {
                        if Fmt::from_name(format.name()).is_none() {
                            continue;
                        }
                        let (worst, bad) = check(function, format, evaluate);
                        let (worst_r, bad_r) = check(function, format, evaluate_refined);
                        println!(
                            "{}_{}: worst error / bound = {worst:.2e} (plain), {worst_r:.2e} (refined)",
                            function.name(),
                            format.name()
                        );
                        for b in bad.into_iter().chain(bad_r) {
                            out.push(format!("{}_{}: {b}", function.name(), format.name()));
                        }
                    }
                    out
                })
            })
            .collect();
        for h in handles {
            failures.extend(h.join().unwrap());
        }
    });
    assert!(
        failures.is_empty(),
        "{} bound violations, first: {:#?}",
        failures.len(),
        &failures[..failures.len().min(20)]
    );
}
