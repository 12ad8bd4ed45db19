//! The derivatives against the independent MPFR oracle (`actlut_oracle::derivative`):
//!
//! - every output of `eval_op` for a derivative op, for every function (at its defaults, and
//!   for the functions with constants at the models' constants and a few more) and every format
//!   (65,536 inputs for f16 and bf16, 256 for the fp8 formats, 64 for FP6, 16 for FP4), equals
//!   the oracle's correctly rounded `f'`;
//! - the error bound that the reference attaches to each derivative evaluation (plain and
//!   refined) is a true bound at every finite nonzero input of every format;
//! - `eval_op_f32` of a derivative op at every f16-representable input and at seeded random `f32` inputs
//!   is within 0.5 ulp + 2^-40 of the exact value, and the number of results that are not
//!   correctly rounded is printed.
//!
//! Run: `cargo test -p actlut-oracle --release --test derivative -- --nocapture` (prints, per
//! derivative and format, the hard cases of the reference and of the oracle).

use actlut_codegen::{
    eval_op_f32, eval_op_traced, evaluate, evaluate_refined, Evaluation, Format, Function, Op,
    Path as CorePath,
};
use actlut_oracle::derivative::{
    derivative_exact_rational, derivative_reference, derivative_reference_converting,
    describe_derivative, evaluate_derivative as mpfr, is_derivative_rounding_within,
};
use actlut_oracle::{
    decode, finite_to_float, finite_to_rational, Act, Decoded, Fmt, Func, Path, BASE_PREC,
};
use rug::{Float, Rational};
use std::fmt::Write as _;
use std::time::Instant;

/// At most this many mismatches are listed in a failure message.
const LISTED: usize = 20;

fn threads() -> u32 {
    std::thread::available_parallelism().map_or(1, |n| n.get()) as u32
}

/// Runs `work` over `0..n` split across the machine's cores (interleaved, so that slow regions
/// are shared) and collects the results.
fn parallel<T: Send>(n: u32, work: impl Fn(u32) -> T + Sync) -> Vec<T> {
    let threads = threads();
    let work = &work;
    let mut out: Vec<T> = Vec::new();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    (t..n)
                        .step_by(threads as usize)
                        .map(work)
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for w in workers {
            out.extend(w.join().expect("worker panicked"));
        }
    });
    out
}

fn oracle_format(format: Format) -> Fmt {
    Fmt::from_name(format.name())
        .unwrap_or_else(|| panic!("format {} unknown to the oracle", format.name()))
}

/// The derivative op of the op text `text` (`softcap(cap=30)`), and the oracle's function with
/// the constants `values` (in declared order).
fn pair(text: &str, act: Act, values: &[&str]) -> (Op, Func) {
    let op: Op = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
    (op.with_derivative(true), Func::new(act, values))
}

/// Compares every input of every format of `function`'s derivative at its defaults.
fn check(function: Function, act: Act) {
    check_op(Op::from(function).with_derivative(true), Func::from(act));
}

/// Compares every input of every format of the derivative op `op` (the oracle's `func`);
/// prints the hard cases of both sides per format; fails listing mismatches.
fn check_op(op: Op, func: Func) {
    let function = op.function();
    assert!(op.is_derivative());
    assert_eq!(
        function.name(),
        func.act.name(),
        "test wired to the wrong function"
    );
    let label = format!("{op}");
    let mut failures = Vec::new();
    let mut mismatches = 0;
    for format in Format::ALL {
        let fmt = oracle_format(format);
        if !format.can_represent_derivative(function) {
            // log' and rsqrt' over FP6 and FP4: NaN below zero, no NaN in the format.
            assert!(fmt.saturates(), "{label} {}", fmt.name());
            continue;
        }
        let start = Instant::now();
        let results = parallel(format.entries() as u32, |bits| {
            let want = derivative_reference(func.clone(), fmt, bits);
            let (got, path) =
                eval_op_traced(&op, format, bits as u16).unwrap_or_else(|e| panic!("{e}"));
            (bits, want, u32::from(got), path)
        });
        let refined = results.iter().filter(|r| r.3 == CorePath::Refined).count();
        let raised = results
            .iter()
            .filter(|r| matches!(r.1.path, Path::Raised { .. }))
            .count();
        let exact = results
            .iter()
            .filter(|r| matches!(r.1.path, Path::Exact { .. }))
            .count();
        let ties = results
            .iter()
            .filter(|r| r.1.path == Path::Exact { tie: true })
            .count();
        let mut bad: Vec<_> = results
            .iter()
            .filter(|r| r.1.bits != r.2)
            .map(|r| (r.0, r.1.bits, r.2))
            .collect();
        bad.sort_unstable();
        println!(
            "{:<24} {:<12}: {} inputs; reference: {refined} refined (hard cases); \
             oracle: {raised} above {BASE_PREC} bits, {exact} exact rationals of which {ties} \
             ties; {} mismatches; {:.2} s",
            label,
            fmt.name(),
            results.len(),
            bad.len(),
            start.elapsed().as_secs_f64(),
        );
        mismatches += bad.len();
        for &(bits, want, got) in bad.iter().take(LISTED.saturating_sub(failures.len())) {
            let (input, value) = describe_derivative(func.clone(), fmt, bits);
            failures.push(format!(
                "{}' {}: input {bits:#06x} = {input}: expected {want:#06x}, got {got:#06x}; \
                 MPFR value {value}",
                label,
                fmt.name()
            ));
        }
    }
    if mismatches > 0 {
        let mut msg = format!(
            "{mismatches} outputs of {label} differ from the MPFR oracle (first {}):\n",
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
        fn every_function_has_an_exhaustive_derivative_test() {
            let tested = [$(Function::$function.name()),*];
            // The functions with a constant without default are tested at constant sets below.
            for function in Function::ALL.into_iter().filter(|f| f.has_defaults()) {
                assert!(
                    tested.contains(&function.name()),
                    "no oracle test for {}'",
                    function.name()
                );
            }
        }
    };
}

exhaustive_tests! {
    gelu_derivative_tables_match_mpfr_on_every_input: Gelu => Gelu;
    gelu_tanh_derivative_tables_match_mpfr_on_every_input: GeluTanh => GeluTanh;
    sigmoid_derivative_tables_match_mpfr_on_every_input: Sigmoid => Sigmoid;
    tanh_derivative_tables_match_mpfr_on_every_input: Tanh => Tanh;
    silu_derivative_tables_match_mpfr_on_every_input: Silu => Silu;
    mish_derivative_tables_match_mpfr_on_every_input: Mish => Mish;
    softplus_derivative_tables_match_mpfr_on_every_input: Softplus => Softplus;
    softsign_derivative_tables_match_mpfr_on_every_input: Softsign => Softsign;
    elu_derivative_tables_match_mpfr_on_every_input: Elu => Elu;
    selu_derivative_tables_match_mpfr_on_every_input: Selu => Selu;
    hardsigmoid_derivative_tables_match_mpfr_on_every_input: Hardsigmoid => Hardsigmoid;
    hardswish_derivative_tables_match_mpfr_on_every_input: Hardswish => Hardswish;
    erf_derivative_tables_match_mpfr_on_every_input: Erf => Erf;
    exp_derivative_tables_match_mpfr_on_every_input: Exp => Exp;
    log_derivative_tables_match_mpfr_on_every_input: Log => Log;
    rsqrt_derivative_tables_match_mpfr_on_every_input: Rsqrt => Rsqrt;
    gelu_quick_derivative_tables_match_mpfr_on_every_input: GeluQuick => GeluQuick;
    logsigmoid_derivative_tables_match_mpfr_on_every_input: Logsigmoid => Logsigmoid;
    identity_derivative_tables_match_mpfr_on_every_input: Identity => Identity;
    relu_derivative_tables_match_mpfr_on_every_input: Relu => Relu;
    relu2_derivative_tables_match_mpfr_on_every_input: Relu2 => Relu2;
    relu6_derivative_tables_match_mpfr_on_every_input: Relu6 => Relu6;
    leaky_relu_derivative_tables_match_mpfr_on_every_input: LeakyRelu => LeakyRelu;
    hardtanh_derivative_tables_match_mpfr_on_every_input: Hardtanh => Hardtanh;
    celu_derivative_tables_match_mpfr_on_every_input: Celu => Celu;
    situ_derivative_tables_match_mpfr_on_every_input: Situ => Situ;
    swiglu_oai_derivative_tables_match_mpfr_on_every_input: SwigluOai => SwigluOai;
    swish_derivative_tables_match_mpfr_on_every_input: Swish => Swish;
    laplace_derivative_tables_match_mpfr_on_every_input: Laplace => Laplace;
    sqrtsoftplus_derivative_tables_match_mpfr_on_every_input: Sqrtsoftplus => Sqrtsoftplus;
}

/// The derivatives of the functions with constants at the models' constants and a few more
/// (every format, every input): each row is (op text, the oracle's function, its constants).
#[test]
fn derivatives_with_constants_match_mpfr_on_every_input() {
    let sets: &[(&str, Act, &[&str])] = &[
        ("softcap(cap=30)", Act::Softcap, &["30"]),
        ("softcap(cap=50)", Act::Softcap, &["50"]),
        ("softcap(cap=2.5)", Act::Softcap, &["2.5"]),
        ("situ(beta=4)", Act::Situ, &["4"]),
        ("situ(beta=0.5)", Act::Situ, &["0.5"]),
        (
            "swiglu_oai(alpha=1.702,limit=7)",
            Act::SwigluOai,
            &["1.702", "7"],
        ),
        (
            "swiglu_oai(alpha=1.703125,limit=2.5)",
            Act::SwigluOai,
            &["1.703125", "2.5"],
        ),
        ("leaky_relu(alpha=0.01)", Act::LeakyRelu, &["0.01"]),
        ("leaky_relu(alpha=0.2)", Act::LeakyRelu, &["0.2"]),
        ("leaky_relu(alpha=-0.5)", Act::LeakyRelu, &["-0.5"]),
        ("prelu(weight=0.25)", Act::Prelu, &["0.25"]),
        ("prelu(weight=0)", Act::Prelu, &["0"]),
        ("elu(alpha=0.5)", Act::Elu, &["0.5"]),
        ("elu(alpha=2.5)", Act::Elu, &["2.5"]),
        ("celu(alpha=0.3)", Act::Celu, &["0.3"]),
        ("hardtanh(min=-2,max=2)", Act::Hardtanh, &["-2", "2"]),
        ("hardtanh(min=0,max=6)", Act::Hardtanh, &["0", "6"]),
        ("hardtanh(min=0.5,max=0.5)", Act::Hardtanh, &["0.5", "0.5"]),
        ("swish(beta=1.702)", Act::Swish, &["1.702"]),
        ("swish(beta=2)", Act::Swish, &["2"]),
        ("laplace(mu=0,sigma=1)", Act::Laplace, &["0", "1"]),
        (
            "gelu_clipped(min=-10,max=10)",
            Act::GeluClipped,
            &["-10", "10"],
        ),
        ("gelu_clipped(min=0,max=1)", Act::GeluClipped, &["0", "1"]),
        (
            "xielu(alpha_p=0.8,alpha_n=0.8)",
            Act::Xielu,
            &["0.8", "0.8", "0.5", "-0.000001"],
        ),
        (
            "xielu(alpha_p=1.2,alpha_n=0.3,beta=0.5,eps=-0.5)",
            Act::Xielu,
            &["1.2", "0.3", "0.5", "-0.5"],
        ),
    ];
    for &(text, act, values) in sets {
        let (op, func) = pair(text, act, values);
        check_op(op, func);
    }
}

/// `|exact − (hi + lo)|` as an `f64`, the exact value from MPFR at 256 bits, or as a rational
/// where `f'` is rational (so that a claimed exact value is checked exactly).
fn distance(act: &Func, x: &Float, xr: &Rational, ev: &Evaluation) -> f64 {
    if ev.hi.is_infinite() {
        // An f64 overflow (exp' of a large bf16): right only if the exact value overflows too.
        let exact = mpfr(act.clone(), x, xr, BASE_PREC);
        let beyond =
            exact.is_sign_negative() == ev.hi.is_sign_negative() && exact.clone().abs() > f64::MAX;
        return if beyond { 0.0 } else { f64::INFINITY };
    }
    let approx = Rational::from_f64(ev.hi).expect("finite") + Rational::from_f64(ev.lo).unwrap();
    if let Some(exact) = derivative_exact_rational(act.clone(), xr) {
        return Float::with_val(BASE_PREC, &(exact - approx).abs()).to_f64();
    }
    let exact = mpfr(act.clone(), x, xr, BASE_PREC);
    Float::with_val(BASE_PREC, &exact - &Float::with_val(BASE_PREC, &approx))
        .abs()
        .to_f64()
}

/// The largest `|exact − (hi + lo)| / error_bound` over the finite nonzero inputs of `format`,
/// and the inputs where the bound fails.
fn bound_check(
    function: Function,
    format: Format,
    pick: fn(Op, f64) -> Option<Evaluation>,
) -> (f64, Vec<String>) {
    let act = Func::from(Act::from_name(function.name()).expect("the oracle knows every function"));
    let op = Op::from(function).with_derivative(true);
    let fmt = oracle_format(format);
    let results = parallel(format.entries() as u32, |bits| {
        let Decoded::Finite {
            negative,
            significand,
            exponent,
        } = decode(fmt, bits)
        else {
            return (0.0, None);
        };
        let x = format.decode(bits as u16);
        let Some(ev) = pick(op, x) else {
            return (0.0, None);
        };
        let xf = finite_to_float(negative, significand, exponent, BASE_PREC);
        let xr = finite_to_rational(negative, significand, exponent);
        let diff = distance(&act, &xf, &xr, &ev);
        if ev.error_bound == 0.0 {
            let bad = (diff != 0.0)
                .then(|| format!("{bits:#06x} ({x:e}): claimed exact, off by {diff:e}"));
            return (0.0, bad);
        }
        let ratio = diff / ev.error_bound;
        let bad = (ratio > 1.0).then(|| {
            format!(
                "{bits:#06x} ({x:e}): error {diff:e} > bound {:e}",
                ev.error_bound
            )
        });
        (ratio, bad)
    });
    let worst = results.iter().map(|r| r.0).fold(0.0, f64::max);
    (worst, results.into_iter().filter_map(|r| r.1).collect())
}

/// The bound of every derivative evaluation holds at every finite nonzero input of every
/// format (the plain one, and the refined one where there is one).
#[test]
fn derivative_error_bounds_hold_on_every_input() {
    let mut failures = Vec::new();
    for function in Function::ALL.into_iter().filter(|f| f.has_defaults()) {
        for format in Format::ALL {
            if !format.can_represent_derivative(function) {
                continue;
            }
            let (worst, bad) = bound_check(function, format, evaluate);
            let (worst_r, bad_r) = bound_check(function, format, evaluate_refined);
            println!(
                "{}_derivative_{}: worst error / bound = {worst:.2e} (plain), {worst_r:.2e} \
                 (refined)",
                function.name(),
                format.name()
            );
            for b in bad.into_iter().chain(bad_r) {
                failures.push(format!(
                    "{}_derivative_{}: {b}",
                    function.name(),
                    format.name()
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} bound violations, first: {:#?}",
        failures.len(),
        &failures[..failures.len().min(LISTED)]
    );
}

/// Seeded random `f32` inputs per derivative beyond every f16 value (release; fewer in debug
/// builds); `ACTLUT_ORACLE_F32_INPUTS` overrides it.
const F32_RANDOM_INPUTS: usize = if cfg!(debug_assertions) {
    5_000
} else {
    100_000
};
/// Precision ladder of the `f32` reference: 128 bits leave 72 bits of margin for a 24-bit
/// result after the guard.
const F32_PRECS: [u32; 3] = [128, 1024, 4096];

/// SplitMix64: a small, well-mixed, seedable generator.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Every f16 value as `f32` bits (decoded by the oracle), the short dyadics `±m·2^-e` (m odd
/// below 64, 10 ≤ e ≤ 40: where `f'(0) + c·x` with a dyadic `c` lands on an `f32` midpoint, as
/// `silu'` at `(2k+1)·2^-24` and `elu'` at `−2^-25` do), then `n` seeded random `f32`: a
/// quarter uniform over all bit patterns, the rest log-uniform in magnitude over [2^-24, 2^8).
fn f32_inputs(n: usize) -> Vec<u32> {
    let mut v: Vec<u32> = (0..=u16::MAX)
        .map(|b| match decode(Fmt::F16, b) {
            Decoded::Nan => 0x7FC0_0000 | (u32::from(b & 0x8000) << 16),
            Decoded::Inf { negative } => (u32::from(negative) << 31) | 0x7F80_0000,
            Decoded::Zero { negative } => u32::from(negative) << 31,
            Decoded::Finite {
                negative,
                significand,
                exponent,
            } => finite_to_float(negative, significand, exponent, 24)
                .to_f32()
                .to_bits(),
        })
        .collect();
    for e in 10..=40 {
        for m in (1..64).step_by(2) {
            let x = m as f32 * (-(e as f32)).exp2();
            v.extend([x.to_bits(), (-x).to_bits()]);
        }
    }
    let mut state = 0xAC71_D3E1_0000_0041;
    for i in 0..n {
        let r = splitmix(&mut state);
        v.push(if i % 4 == 0 {
            r as u32
        } else {
            let sign = ((r >> 63) as u32) << 31;
            let exp = 127 - 24 + (((r >> 32) as u32) % 32);
            sign | exp << 23 | (r as u32 & 0x007F_FFFF)
        });
    }
    v
}

/// `eval_op_f32` of a derivative op is within 0.5 ulp + 2^-40 (relative) of the exact `f'` at every
/// input, and exactly the bits of docs/SEMANTICS.md at special inputs; the results that are
/// not correctly rounded are counted and printed.
#[test]
fn eval_op_f32_of_derivatives_is_within_half_an_ulp_plus_2_pow_minus_40_of_mpfr() {
    let n = std::env::var("ACTLUT_ORACLE_F32_INPUTS")
        .ok()
        .map(|s| s.parse().expect("ACTLUT_ORACLE_F32_INPUTS is a count"))
        .unwrap_or(F32_RANDOM_INPUTS);
    let xs = f32_inputs(n);
    let mut failures = Vec::new();
    for function in Function::ALL.into_iter().filter(|f| f.has_defaults()) {
        let act = Act::from_name(function.name()).expect("the oracle knows every function");
        let op = Op::from(function).with_derivative(true);
        let start = Instant::now();
        let results = parallel(xs.len() as u32, |i| {
            let bits = xs[i as usize];
            let want = derivative_reference_converting(act, Fmt::F32, Fmt::F32, bits, &F32_PRECS);
            let got = eval_op_f32(&op, f32::from_bits(bits)).to_bits();
            if got == want.bits {
                (None, None)
            } else if want.path != Path::Special
                && is_derivative_rounding_within(act, Fmt::F32, Fmt::F32, bits, got, -40)
            {
                (Some((bits, want.bits, got)), None)
            } else {
                (
                    None,
                    Some(format!(
                        "{}' at {:e} ({bits:#010x}): MPFR {:e} ({:#010x}), eval_op_f32 \
                         {:e} ({got:#010x})",
                        act.name(),
                        f32::from_bits(bits),
                        f32::from_bits(want.bits),
                        want.bits,
                        f32::from_bits(got),
                    )),
                )
            }
        });
        let faithful_only: Vec<_> = results.iter().filter_map(|r| r.0).collect();
        let examples: Vec<String> = faithful_only
            .iter()
            .take(3)
            .map(|&(x, want, got)| {
                let f = |b: u32| f32::from_bits(b);
                format!("{:e}: {:e} not {:e}", f(x), f(got), f(want))
            })
            .collect();
        println!(
            "eval_op_f32 derivative {:<11}: {} inputs, {} not correctly rounded but within the \
             bound{}{}; {:.2} s",
            act.name(),
            xs.len(),
            faithful_only.len(),
            if examples.is_empty() { "" } else { ", e.g. " },
            examples.join("; "),
            start.elapsed().as_secs_f64()
        );
        failures.extend(results.into_iter().filter_map(|r| r.1));
    }
    assert!(
        failures.is_empty(),
        "{} results break the documented bound, first: {:#?}",
        failures.len(),
        &failures[..failures.len().min(LISTED)]
    );
}
