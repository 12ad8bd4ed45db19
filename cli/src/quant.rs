//! `actlut quant`: writes one fused quantized table (dequantize → function → requantize) to a
//! file, for inspection, diffing or embedding, and prints its SHA-256.
//!
//! ```text
//! actlut quant FUNCTION --in i16|u16|i8|u8|i4|u4|i2|u2 --scale S --zero-point Z
//!              --out f32|f16|bf16|i16|u16|i8|u8 [--out-scale S --out-zero-point Z]
//!              [--rounding ties-even|ties-away] [--compact | --spline] --output FILE
//! ```
//!
//! The entries are [`Pipeline::entry`] in code order (entry `i` for the code whose bits are
//! `i`), little-endian, each as wide as the output type. Scales are decimal numbers rounded
//! once to the nearest `f32` (as runtimes store them). `--compact` writes the compact stored
//! form (`ACTLUTC1`, the bytes layout) of a table with 16-bit inputs and 16-bit outputs
//! instead, `--spline` its spline stored form (`ACTLUTS1`, `actlut_codegen::spline`).

use std::path::PathBuf;

use actlut_codegen::builder::entry_bytes;
use actlut_codegen::compact::{compact, Layout};
use actlut_codegen::quant::{Op, OutputType, Pipeline, QuantError, QuantType, Rounding};
use clap::builder::PossibleValue;
use clap::error::ErrorKind;

use crate::output::write_file;
use crate::values::{self, listed, Named};
use crate::{Failure, Io, Stop};

/// `actlut quant --help` before the options.
const LONG_ABOUT: &str = "\
Write the fused table of FUNCTION (a function name, or identity; an op with constants such as \
softcap(cap=30) or leaky_relu(alpha=0.2); an engine's name such as gelu_10) over the codes of --in, \
dequantized with --scale and --zero-point, then rounded to --out (requantized with --out-scale \
and --out-zero-point, rounding ties by --rounding) to FILE: entry i for the code whose bits are \
i, little-endian, each as wide as the output type; print the file's SHA-256.

Scales are decimals, fractions (1/4096) or powers of two (2^-12), rounded once to the nearest \
f32. --compact writes the compact stored form of a 16-bit table (16-bit input and output), \
--spline its spline stored form (a cubic predictor and the entries it misses).";

/// `actlut quant FUNCTION --in T --scale S --zero-point Z --out T [...] --output FILE`.
#[derive(clap::Args)]
#[command(
    about = "Write a fused quantized table (dequantize, function, requantize) to a file \
             (docs/quant16.md)",
    long_about = LONG_ABOUT,
    after_help = "exit status: 0 written; 2 usage or I/O error"
)]
pub(crate) struct Args {
    /// The function: a function name (or its cargo feature, or an engine's name for it), or
    /// identity, with its constants if any (`softcap(cap=30)`, `leaky_relu(alpha=0.2)`)
    #[arg(value_parser = values::op())]
    function: Op,
    /// The function's derivative instead (`gelu_derivative`)
    #[arg(long)]
    derivative: bool,
    /// The input type, whose every code is an entry
    #[arg(long = "in", value_name = "TYPE", value_parser = input())]
    input: QuantType,
    /// The input's scale
    #[arg(long, value_name = "S", allow_hyphen_values = true, value_parser = parse_scale)]
    scale: f32,
    /// The input's zero point
    #[arg(long, value_name = "Z", allow_hyphen_values = true, value_parser = parse_int)]
    zero_point: i32,
    /// The output type: a float, or an integer type (requantized)
    #[arg(long, value_name = "TYPE", value_parser = out())]
    out: Out,
    /// The scale of a requantized output (required for one)
    #[arg(long, value_name = "S", allow_hyphen_values = true, value_parser = parse_scale)]
    out_scale: Option<f32>,
    /// The zero point of a requantized output [default: 0]
    #[arg(long, value_name = "Z", allow_hyphen_values = true, value_parser = parse_int)]
    out_zero_point: Option<i32>,
    /// How a requantized output rounds ties [default: ties-even]
    #[arg(long, value_name = "ROUNDING", value_parser = rounding())]
    rounding: Option<Rounding>,
    /// Write the compact stored form (a 16-bit table only)
    #[arg(long, conflicts_with = "spline")]
    compact: bool,
    /// Write the spline stored form (a 16-bit table only)
    #[arg(long)]
    spline: bool,
    /// The file to write
    #[arg(long, value_name = "FILE")]
    output: PathBuf,
}

/// An output type as `--out` names it: a float, or an integer type whose
/// scale and zero point come from `--out-scale` and `--out-zero-point`.
#[derive(Clone, Copy)]
enum Out {
    Float(OutputType),
    Requantized(QuantType),
}

/// The float output types.
const FLOAT_OUTPUTS: [OutputType; 3] = [OutputType::F32, OutputType::F16, OutputType::Bf16];

impl Out {
    /// Every output type: the floats, then the integer types a table can be
    /// requantized to (`QuantType::ALL` but the 4- and 2-bit ones).
    fn all() -> Vec<Out> {
        let ints = QuantType::ALL
            .into_iter()
            .filter(|&t| OutputType::requantized(t, 1.0, 0).is_some());
        FLOAT_OUTPUTS
            .into_iter()
            .map(Out::Float)
            .chain(ints.map(Out::Requantized))
            .collect()
    }

    fn name(self) -> &'static str {
        match self {
            Out::Float(o) => o.name(),
            Out::Requantized(t) => t.name(),
        }
    }
}

fn input() -> Named<QuantType> {
    Named::new(
        || {
            QuantType::ALL
                .iter()
                .map(|t| PossibleValue::new(t.name()))
                .collect()
        },
        |s| {
            QuantType::from_name(&s).ok_or_else(|| {
                format!(
                    "expected one of {}",
                    listed(QuantType::ALL.iter().map(|t| t.name()))
                )
            })
        },
    )
}

fn out() -> Named<Out> {
    Named::new(
        || {
            Out::all()
                .iter()
                .map(|o| PossibleValue::new(o.name()))
                .collect()
        },
        |s| {
            Out::all()
                .into_iter()
                .find(|o| o.name() == s)
                .ok_or_else(|| {
                    format!(
                        "expected one of {}",
                        listed(Out::all().iter().map(|o| o.name()))
                    )
                })
        },
    )
}

fn rounding() -> Named<Rounding> {
    Named::new(
        || {
            Rounding::ALL
                .iter()
                .map(|r| PossibleValue::new(r.name()))
                .collect()
        },
        |s| {
            Rounding::from_name(&s).ok_or_else(|| {
                format!(
                    "expected one of {}",
                    listed(Rounding::ALL.iter().map(|r| r.name()))
                )
            })
        },
    )
}

/// A scale: a decimal (`0.000244140625`), a fraction of positive integers (`1/4096`) or a
/// power of two (`2^-12`), rounded once to the nearest `f32`, ties to even. Rust's `f32`
/// parsing is correctly rounded for decimals; a fraction is divided exactly
/// ([`ratio_to_f32`]) and a power of two is built from its exponent, so `1/4096`, `2^-12`
/// and `0.000244140625` are the same `f32`.
fn parse_scale(s: &str) -> Result<f32, String> {
    let bad = |why: &str| why.to_string();
    let lower = s.to_ascii_lowercase();
    if lower.contains("inf") || lower.contains("nan") {
        return Err(bad("a scale must be finite and positive"));
    }
    if let Some(exp) = s.strip_prefix("2^") {
        let e: i32 = exp.parse().map_err(|_| {
            bad("not a power of two: expected 2^N with an integer N, such as 2^-12")
        })?;
        return pow2_f32(e)
            .ok_or_else(|| bad("outside f32: a power of two 2^N needs -149 <= N <= 127"));
    }
    if let Some((p, q)) = s.split_once('/') {
        let int = |t: &str| -> Result<u64, String> {
            if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad(
                    "not a fraction: expected P/Q with positive integers, such as 1/4096",
                ));
            }
            t.parse::<u64>()
                .map_err(|_| bad("a fraction's integers must be below 2^64"))
        };
        let (p, q) = (int(p)?, int(q)?);
        if q == 0 {
            return Err(bad("a fraction's denominator must not be 0"));
        }
        if p == 0 {
            return Err(bad("a scale must be finite and positive"));
        }
        return Ok(ratio_to_f32(p, q));
    }
    s.parse::<f32>().map_err(|_| {
        bad("not a number: expected a decimal (0.000244140625), a fraction (1/4096) or a power of two (2^-12)")
    })
}

/// `2^e` exactly, or `None` outside `f32`'s range (subnormals included).
fn pow2_f32(e: i32) -> Option<f32> {
    match e {
        -126..=127 => Some(f32::from_bits(((e + 127) as u32) << 23)),
        -149..=-127 => Some(f32::from_bits(1 << (e + 149))),
        _ => None,
    }
}

/// `p/q` rounded once to the nearest `f32`, ties to even, for `p, q` in `1..2^64` (the
/// quotient lies in `(2^-64, 2^64)`: always a normal `f32`). Integer arithmetic only: the
/// quotient to 25 bits and the remainder, so no double rounding.
fn ratio_to_f32(p: u64, q: u64) -> f32 {
    assert!(p > 0 && q > 0);
    let (p, q) = (u128::from(p), u128::from(q));
    // e = floor(log2(p/q)): p/q lies in [2^e, 2^(e+1)).
    let bits = |v: u128| 128 - v.leading_zeros() as i32;
    let mut e = bits(p) - bits(q);
    let shifted = |k: i32| if k >= 0 { (p << k, q) } else { (p, q << -k) };
    let (a, b) = shifted(-e);
    if a < b {
        e -= 1;
    }
    // m = floor(p/q · 2^(24-e)), in [2^24, 2^25): 24 significand bits and the rounding bit.
    let (num, den) = shifted(24 - e);
    let (m, sticky) = (num / den, num % den != 0);
    let mut sig = m >> 1;
    if m & 1 == 1 && (sticky || sig & 1 == 1) {
        sig += 1;
    }
    if sig == 1 << 24 {
        sig = 1 << 23;
        e += 1;
    }
    f32::from_bits(((e + 127) as u32) << 23 | (sig as u32 & 0x7F_FFFF))
}

/// An integer option: clamped to `i32` (a zero point that far out is out of every type's
/// range, which the pipeline reports).
fn parse_int(s: &str) -> Result<i32, String> {
    s.parse::<i64>()
        .map_err(|_| "not an integer".to_string())
        .map(|v| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32)
}

/// A usage error found after parsing: clap's error of `kind`.
fn usage(kind: ErrorKind, message: String) -> Stop {
    Stop::Usage(clap::Error::raw(kind, message))
}

/// A pipeline's error as the usage error of the option it is about: the
/// error's parameter (`scale`, `zero_point`, `out_scale`, `out_zero_point`)
/// is the id of the option's argument.
fn pipeline_error(e: &QuantError) -> Stop {
    let parameter = match *e {
        QuantError::Scale { parameter, .. }
        | QuantError::ZeroPoint { parameter, .. }
        | QuantError::ScaleTooSmall { parameter, .. } => Some(parameter),
        _ => None,
    };
    let mut cmd = <Args as clap::Args>::augment_args(clap::Command::new("quant"));
    cmd.build();
    match parameter.and_then(|p| cmd.get_arguments().find(|a| a.get_id() == p)) {
        Some(arg) => usage(
            ErrorKind::ValueValidation,
            format!("invalid value for '{arg}': {e}"),
        ),
        None => Stop::Failure(Failure(e.to_string())),
    }
}

/// Runs `actlut quant`.
pub(crate) fn run(a: &Args, io: &mut Io) -> Result<u8, Stop> {
    let output = match a.out {
        Out::Float(o) => {
            for (given, option) in [
                (a.out_scale.is_some(), "--out-scale"),
                (a.out_zero_point.is_some(), "--out-zero-point"),
                (a.rounding.is_some(), "--rounding"),
            ] {
                if given {
                    return Err(usage(
                        ErrorKind::ArgumentConflict,
                        format!(
                            "{option} applies only to requantized outputs ({}), not {}",
                            listed(
                                Out::all()
                                    .iter()
                                    .filter(|o| matches!(o, Out::Requantized(_)))
                                    .map(|o| o.name())
                            ),
                            o.name()
                        ),
                    ));
                }
            }
            o
        }
        Out::Requantized(ty) => {
            let out_scale = a.out_scale.ok_or_else(|| {
                usage(
                    ErrorKind::MissingRequiredArgument,
                    format!(
                        "--out {} needs --out-scale (a requantized output)",
                        ty.name()
                    ),
                )
            })?;
            OutputType::requantized(ty, out_scale, a.out_zero_point.unwrap_or(0))
                .expect("an 8- or 16-bit type")
        }
    };
    let (input, out_name) = (a.input, a.out.name());
    if (a.compact || a.spline) && (input.bits() != 16 || output.bytes() != 2) {
        return Err(usage(
            ErrorKind::ArgumentConflict,
            format!(
                "{} needs a 16-bit table: a 16-bit input (i16, u16) and a 16-bit output \
                 (f16, bf16, i16, u16), not {} -> {out_name}",
                if a.compact { "--compact" } else { "--spline" },
                input.name()
            ),
        ));
    }
    let op = a
        .function
        .with_derivative(a.derivative || a.function.is_derivative());
    let pipeline = Pipeline::new(op, input, a.scale, a.zero_point, output)
        .map_err(|e| pipeline_error(&e))?
        .with_rounding(a.rounding.unwrap_or_default());
    let mut entries = vec![0u32; input.codes()];
    pipeline.fill(&mut entries);
    let bytes = if a.spline {
        actlut_codegen::spline::pack_pipeline(&pipeline)
            .map_err(|e| Failure(format!("cannot pack the table: {e}")))?
    } else if a.compact {
        let words: Vec<u16> = entries.iter().map(|&e| e as u16).collect();
        compact("quant", &words, Layout::Bytes)
            .map_err(|e| Failure(format!("cannot compact the table: {e}")))?
            .to_bytes()
    } else {
        entry_bytes(output, &entries)
    };
    write_file(&a.output, &bytes)?;
    io.emit(&format!(
        "{}  {}\n",
        actlut_codegen::hex(&actlut_codegen::sha256(&bytes)),
        a.output.display()
    ))?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scale(s: &str) -> Result<f32, String> {
        parse_scale(s)
    }

    #[test]
    fn a_fraction_a_power_of_two_and_a_decimal_are_the_same_f32() {
        for (frac, pow, dec) in [
            ("1/4096", "2^-12", "0.000244140625"),
            ("1/32768", "2^-15", "0.000030517578125"),
            ("1/1", "2^0", "1"),
            ("8/1", "2^3", "8"),
            ("3/12", "2^-2", "0.25"),
        ] {
            let want: f32 = dec.parse().unwrap();
            assert_eq!(scale(frac), Ok(want), "{frac}");
            assert_eq!(scale(pow), Ok(want), "{pow}");
            assert_eq!(scale(dec), Ok(want), "{dec}");
        }
        assert_eq!(scale("2^-149"), Ok(f32::from_bits(1)));
        assert_eq!(scale("2^-127"), Ok(f32::from_bits(1 << 22)));
        assert_eq!(scale("2^127"), Ok(f32::from_bits(254 << 23)));
    }

    #[test]
    fn a_fraction_is_rounded_once_to_nearest_even() {
        // Denominators 2^a·5^b: the quotient is a finite decimal, which Rust's
        // (correctly rounded) decimal parsing rounds independently.
        for (p, q, dec) in [
            (1u64, 10u64, "0.1"),
            (1, 3, "0.3333333432674407958984375"), // the nearest f32, written out exactly
            (7, 1000, "0.007"),
            (123_456_789, 1_000_000, "123.456789"),
            (16_777_217, 1, "16777217"), // 2^24 + 1: a tie, to even (2^24)
            (16_777_219, 1, "16777219"), // 2^24 + 3: a tie, to even (2^24 + 4)
            (33_554_433, 2, "16777216.5"), // just above a tie: up
            (u64::MAX, 1, "18446744073709551615"),
            (
                1,
                u64::MAX,
                "0.0000000000000000000542101086242752217033113759205528043",
            ),
        ] {
            let want: f32 = dec.parse().unwrap();
            assert_eq!(ratio_to_f32(p, q), want, "{p}/{q}");
        }
        assert_eq!(ratio_to_f32(1, 3).to_bits(), 0x3EAA_AAAB);
        // A large sample of fractions against f64 division, which is exact or one
        // rounding away for these small integers: the f64 quotient of integers below
        // 2^21 is never within one f64 ulp of an f32 midpoint unless it is one.
        for p in (1..2_000_000u64).step_by(7919) {
            for q in (1..2_000_000u64).step_by(104_729) {
                let (x, y) = (ratio_to_f32(p, q), (p as f64 / q as f64) as f32);
                assert_eq!(x, y, "{p}/{q}");
            }
        }
    }

    #[test]
    fn bad_scales_are_named() {
        for (s, says) in [
            ("1/0", "denominator must not be 0"),
            ("2^", "not a power of two"),
            ("2^x", "not a power of two"),
            ("2^1.5", "not a power of two"),
            ("-1/4", "not a fraction"),
            ("1/-4", "not a fraction"),
            ("1/", "not a fraction"),
            ("/4", "not a fraction"),
            ("1.5/4", "not a fraction"),
            ("1/2/3", "not a fraction"),
            ("0/4", "finite and positive"),
            ("2^128", "outside f32"),
            ("2^-150", "outside f32"),
            ("2^99999999999", "not a power of two"),
            ("18446744073709551616/1", "below 2^64"),
            ("inf", "finite and positive"),
            ("x", "not a number"),
        ] {
            let err = scale(s).unwrap_err();
            assert!(err.contains(says), "{s}: {err}");
        }
    }
}
