//! Every output of `actlut_codegen::eval`, for every function, every format (f16 and bf16:
//! 65,536 input bit patterns each; fp8 E4M3 and E5M2: 256 each), against the independent MPFR
//! oracle.
//!
//! Run: `cargo test -p actlut-oracle --release -- --nocapture` (prints, per function and format,
//! how many inputs needed more than the base precision).

use actlut_codegen::{eval, Format, Function};
use actlut_oracle::{describe, reference, Act, Fmt, Path, BASE_PREC, RAISED_PRECS};
use std::fmt::Write as _;
use std::time::Instant;

/// At most this many mismatches are listed in a failure message.
const LISTED: usize = 20;

#[derive(Default)]
struct Tally {
    special: usize,
    base: usize,
    raised: [usize; RAISED_PRECS.len()],
    exact: usize,
    ties: usize,
    /// (input bits, expected, got)
    mismatches: Vec<(u32, u32, u32)>,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.special += other.special;
        self.base += other.base;
        for (a, b) in self.raised.iter_mut().zip(other.raised) {
            *a += b;
        }
        self.exact += other.exact;
        self.ties += other.ties;
        self.mismatches.extend(other.mismatches);
    }

    fn hard(&self) -> usize {
        self.raised.iter().sum::<usize>() + self.exact
    }
}

/// Compares one (function, format) over all inputs, split across the machine's cores.
fn run(function: Function, format: Format, act: Act, fmt: Fmt) -> Tally {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()) as u32;
    let mut total = Tally::default();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let mut tally = Tally::default();
                    // Interleaved, so that slow regions (large magnitudes, subnormals) are shared.
                    for bits in (t..format.entries() as u32).step_by(threads as usize) {
                        let want = reference(act, fmt, bits);
                        match want.path {
                            Path::Special => tally.special += 1,
                            Path::Base => tally.base += 1,
                            Path::Raised { prec } => {
                                let k = RAISED_PRECS.iter().position(|&p| p == prec).unwrap();
                                tally.raised[k] += 1;
                            }
                            Path::Exact { tie } => {
                                tally.exact += 1;
                                tally.ties += tie as usize;
                            }
                            Path::Side => unreachable!(
                                "{bits:#x}: a value of a format is never one of its midpoints"
                            ),
                        }
                        let got = u32::from(eval(function, format, bits as u16));
                        if got != want.bits {
                            tally.mismatches.push((bits, want.bits, got));
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
    total.mismatches.sort_unstable();
    total
}

/// Checks every format of `function`; prints the hard-case counts; fails listing mismatches.
fn check(function: Function, act: Act) {
    assert_eq!(
        function.name(),
        act.name(),
        "test wired to the wrong function"
    );
    let mut failures = Vec::new();
    let mut mismatch_count = 0;
    for format in Format::ALL {
        let fmt = Fmt::from_name(format.name())
            .unwrap_or_else(|| panic!("format {} unknown to the oracle", format.name()));
        if !format.can_represent(function) {
            // log and rsqrt over FP6 and FP4: no table (no NaN for x < 0).
            assert!(fmt.saturates(), "{} {}", act.name(), fmt.name());
            continue;
        }
        let start = Instant::now();
        let tally = run(function, format, act, fmt);
        let raised: Vec<String> = RAISED_PRECS
            .iter()
            .zip(tally.raised)
            .map(|(p, n)| format!("{n} at {p} bits"))
            .collect();
        println!(
            "oracle {:<11} {:<8}: {} special, {} decided at {BASE_PREC} bits, {} hard \
             (near a midpoint at {BASE_PREC} bits: {}, {} exact rational of which {} exact ties); \
             {} mismatches; {:.2} s",
            act.name(),
            fmt.name(),
            tally.special,
            tally.base,
            tally.hard(),
            raised.join(", "),
            tally.exact,
            tally.ties,
            tally.mismatches.len(),
            start.elapsed().as_secs_f64(),
        );
        mismatch_count += tally.mismatches.len();
        for &(bits, want, got) in &tally.mismatches {
            if failures.len() < LISTED {
                let (input, value) = describe(act, fmt, bits);
                failures.push(format!(
                    "{} {}: input {bits:#06x} = {input}: expected {want:#06x}, got {got:#06x}; \
                     MPFR value {value}",
                    act.name(),
                    fmt.name()
                ));
            }
        }
    }
    if mismatch_count > 0 {
        let mut msg = format!(
            "{mismatch_count} outputs of {} differ from the MPFR oracle (first {}):\n",
            act.name(),
            failures.len()
        );
        for f in &failures {
            writeln!(msg, "  {f}").unwrap();
        }
        panic!("{msg}");
    }
}

macro_rules! exhaustive_tests {
    ($($test:ident: $function:ident => $act:ident;)*) => {
        $(
            #[test]
            fn $test() {
                check(Function::$function, Act::$act);
            }
        )*

        #[test]
        fn every_codegen_function_has_an_exhaustive_test() {
            let tested = [$(Function::$function.name()),*];
            // Every function with built-in tables (the others: tests/constants.rs).
            for function in Function::ALL.into_iter().filter(|f| f.has_defaults()) {
                assert!(tested.contains(&function.name()), "no oracle test for {}", function.name());
            }
        }
    };
}

exhaustive_tests! {
    gelu_tables_match_mpfr_on_every_input: Gelu => Gelu;
    gelu_tanh_tables_match_mpfr_on_every_input: GeluTanh => GeluTanh;
    sigmoid_tables_match_mpfr_on_every_input: Sigmoid => Sigmoid;
    tanh_tables_match_mpfr_on_every_input: Tanh => Tanh;
    silu_tables_match_mpfr_on_every_input: Silu => Silu;
    mish_tables_match_mpfr_on_every_input: Mish => Mish;
    softplus_tables_match_mpfr_on_every_input: Softplus => Softplus;
    softsign_tables_match_mpfr_on_every_input: Softsign => Softsign;
    elu_tables_match_mpfr_on_every_input: Elu => Elu;
    selu_tables_match_mpfr_on_every_input: Selu => Selu;
    hardsigmoid_tables_match_mpfr_on_every_input: Hardsigmoid => Hardsigmoid;
    hardswish_tables_match_mpfr_on_every_input: Hardswish => Hardswish;
    erf_tables_match_mpfr_on_every_input: Erf => Erf;
    exp_tables_match_mpfr_on_every_input: Exp => Exp;
    log_tables_match_mpfr_on_every_input: Log => Log;
    rsqrt_tables_match_mpfr_on_every_input: Rsqrt => Rsqrt;
    gelu_quick_tables_match_mpfr_on_every_input: GeluQuick => GeluQuick;
    logsigmoid_tables_match_mpfr_on_every_input: Logsigmoid => Logsigmoid;
    identity_tables_match_mpfr_on_every_input: Identity => Identity;
    relu_tables_match_mpfr_on_every_input: Relu => Relu;
    relu2_tables_match_mpfr_on_every_input: Relu2 => Relu2;
    relu6_tables_match_mpfr_on_every_input: Relu6 => Relu6;
    leaky_relu_tables_match_mpfr_on_every_input: LeakyRelu => LeakyRelu;
    hardtanh_tables_match_mpfr_on_every_input: Hardtanh => Hardtanh;
    celu_tables_match_mpfr_on_every_input: Celu => Celu;
    situ_tables_match_mpfr_on_every_input: Situ => Situ;
    swiglu_oai_tables_match_mpfr_on_every_input: SwigluOai => SwigluOai;
    swish_tables_match_mpfr_on_every_input: Swish => Swish;
    laplace_tables_match_mpfr_on_every_input: Laplace => Laplace;
    sqrtsoftplus_tables_match_mpfr_on_every_input: Sqrtsoftplus => Sqrtsoftplus;
}

#[test]
fn the_oracle_knows_every_format_of_codegen_and_nothing_else() {
    for format in Format::ALL {
        let fmt = Fmt::from_name(format.name())
            .unwrap_or_else(|| panic!("the oracle has no format {}", format.name()));
        assert_eq!(
            u64::from(format.bits()),
            u64::from(fmt.width()),
            "{}",
            fmt.name()
        );
        assert_eq!(format.entries() as u64, fmt.entries(), "{}", fmt.name());
    }
    for fmt in Fmt::ALL {
        assert!(
            Format::from_name(fmt.name()).is_some(),
            "codegen has no format {}",
            fmt.name()
        );
    }
}
