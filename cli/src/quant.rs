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

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

use actlut_codegen::builder::entry_bytes;
use actlut_codegen::compact::{compact, Layout};
use actlut_codegen::quant::{Op, OutputType, Pipeline, QuantType, Rounding};

use crate::dump::write_file;
use crate::{emit, usage, Failure};

/// The usage text of `actlut quant`.
pub const USAGE: &str = "\
       actlut quant FUNCTION --in i16|u16|i8|u8|i4|u4|i2|u2 --scale S --zero-point Z
                    --out f32|f16|bf16|i16|u16|i8|u8 [--out-scale S --out-zero-point Z]
                    [--rounding ties-even|ties-away] [--compact | --spline] --output FILE";

/// The help paragraph of `actlut quant`.
pub const HELP: &str = "\
  quant      write the fused table of FUNCTION (a function name, or identity) over
             the codes of --in, dequantized with --scale and --zero-point, then
             rounded to --out (requantized with --out-scale and --out-zero-point,
             default 0, rounding ties by --rounding, default ties-even) to FILE:
             entry i for the code whose bits are i, little-endian, each as wide as
             the output type; prints the file's SHA-256. Scales are decimals,
             fractions (1/4096) or powers of two (2^-12), rounded once to the
             nearest f32. --compact writes the compact stored form
             of a 16-bit table (16-bit input and output), --spline its spline
             stored form (a cubic predictor and the entries it misses)";

/// Parsed arguments.
struct Args {
    function: Option<String>,
    input: Option<String>,
    scale: Option<String>,
    zero_point: Option<String>,
    out: Option<String>,
    out_scale: Option<String>,
    out_zero_point: Option<String>,
    rounding: Option<String>,
    compact: bool,
    spline: bool,
    output: Option<PathBuf>,
}

fn parse(args: &[OsString]) -> Result<Args, Failure> {
    let mut a = Args {
        function: None,
        input: None,
        scale: None,
        zero_point: None,
        out: None,
        out_scale: None,
        out_zero_point: None,
        rounding: None,
        compact: false,
        spline: false,
        output: None,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        if arg == "--output" {
            let path = it
                .next()
                .ok_or_else(|| usage("`--output` needs a file".to_string()))?;
            a.output = Some(PathBuf::from(path));
            continue;
        }
        let s = arg
            .to_str()
            .ok_or_else(|| usage(format!("unknown argument `{}`", arg.to_string_lossy())))?;
        if s == "--compact" {
            a.compact = true;
            continue;
        }
        if s == "--spline" {
            a.spline = true;
            continue;
        }
        let (key, inline) = match s.split_once('=') {
            Some((k, v)) if k.starts_with("--") => (k, Some(v.to_string())),
            _ => (s, None),
        };
        let slot = match key {
            "--in" => &mut a.input,
            "--scale" => &mut a.scale,
            "--zero-point" => &mut a.zero_point,
            "--out" => &mut a.out,
            "--out-scale" => &mut a.out_scale,
            "--out-zero-point" => &mut a.out_zero_point,
            "--rounding" => &mut a.rounding,
            "--output" => {
                a.output = inline.map(PathBuf::from);
                continue;
            }
            _ if s.starts_with('-') && s.parse::<f64>().is_err() => {
                return Err(usage(format!("unknown option `{s}`")));
            }
            _ => {
                if a.function.is_some() {
                    return Err(usage(format!("unexpected argument `{s}`")));
                }
                a.function = Some(s.to_string());
                continue;
            }
        };
        if slot.is_some() {
            return Err(usage(format!("`{key}` given twice")));
        }
        let value = match inline {
            Some(v) => v,
            None => it
                .next()
                .and_then(|v| v.to_str())
                .ok_or_else(|| usage(format!("`{key}` needs a value")))?
                .to_string(),
        };
        *slot = Some(value);
    }
    Ok(a)
}

fn required<'a>(v: &'a Option<String>, what: &str) -> Result<&'a str, Failure> {
    v.as_deref()
        .ok_or_else(|| usage(format!("`quant` needs {what}")))
}

/// A scale: a decimal (`0.000244140625`), a fraction of positive integers (`1/4096`) or a
/// power of two (`2^-12`), rounded once to the nearest `f32`, ties to even. Rust's `f32`
/// parsing is correctly rounded for decimals; a fraction is divided exactly
/// ([`ratio_to_f32`]) and a power of two is built from its exponent, so `1/4096`, `2^-12`
/// and `0.000244140625` are the same `f32`.
fn parse_scale(option: &str, s: &str) -> Result<f32, Failure> {
    let bad = |why: &str| Failure(format!("{option} {s}: {why}"));
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
        let int = |t: &str| -> Result<u64, Failure> {
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

fn parse_int(option: &str, s: &str) -> Result<i32, Failure> {
    s.parse::<i64>()
        .map_err(|_| Failure(format!("{option} {s}: not an integer")))
        .map(|v| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32)
}

/// Runs `actlut quant` with the arguments after `quant`.
pub fn run(args: &[OsString]) -> Result<ExitCode, Failure> {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        emit(&format!("usage: {}\n\n  {HELP}\n", USAGE.trim_start()));
        return Ok(ExitCode::SUCCESS);
    }
    let a = parse(args)?;
    let function = required(&a.function, "a FUNCTION (a function name or identity)")?;
    let op = Op::from_name(function).ok_or_else(|| {
        let names: Vec<&str> = actlut_codegen::Function::ALL
            .iter()
            .map(|f| f.name())
            .collect();
        Failure(format!(
            "unknown function `{function}`: expected identity or one of {}",
            names.join(", ")
        ))
    })?;
    let input_name = required(&a.input, "--in TYPE")?;
    let input = QuantType::from_name(input_name).ok_or_else(|| {
        let names: Vec<&str> = QuantType::ALL.iter().map(|t| t.name()).collect();
        Failure(format!(
            "--in {input_name}: expected one of {}",
            names.join(", ")
        ))
    })?;
    let scale = parse_scale("--scale", required(&a.scale, "--scale S")?)?;
    let zero_point = parse_int("--zero-point", required(&a.zero_point, "--zero-point Z")?)?;
    let out_name = required(&a.out, "--out TYPE")?;
    let float = match out_name {
        "f32" => Some(OutputType::F32),
        "f16" => Some(OutputType::F16),
        "bf16" => Some(OutputType::Bf16),
        "i16" | "u16" | "i8" | "u8" => None,
        _ => {
            return Err(Failure(format!(
                "--out {out_name}: expected f32, f16, bf16, i16, u16, i8 or u8"
            )))
        }
    };
    let output = match float {
        Some(o) => {
            for (given, option) in [
                (&a.out_scale, "--out-scale"),
                (&a.out_zero_point, "--out-zero-point"),
                (&a.rounding, "--rounding"),
            ] {
                if given.is_some() {
                    return Err(Failure(format!(
                        "{option} applies only to requantized outputs (i16, u16, i8, u8), not {out_name}"
                    )));
                }
            }
            o
        }
        None => {
            let s = a.out_scale.as_deref().ok_or_else(|| {
                Failure(format!(
                    "--out {out_name} needs --out-scale (a requantized output)"
                ))
            })?;
            let out_scale = parse_scale("--out-scale", s)?;
            let out_zp = match &a.out_zero_point {
                Some(z) => parse_int("--out-zero-point", z)?,
                None => 0,
            };
            let ty = QuantType::from_name(out_name).expect("an integer output type");
            OutputType::requantized(ty, out_scale, out_zp).expect("an 8- or 16-bit type")
        }
    };
    let rounding = match &a.rounding {
        None => Rounding::TiesToEven,
        Some(r) => Rounding::from_name(r)
            .ok_or_else(|| Failure(format!("--rounding {r}: expected ties-even or ties-away")))?,
    };
    let path = a
        .output
        .ok_or_else(|| usage("`quant` needs --output FILE".to_string()))?;
    let pipeline = Pipeline::new(op, input, scale, zero_point, output)
        .map_err(|e| Failure(format!("{}: {e}", option_of(&e.to_string()))))?
        .with_rounding(rounding);
    let mut entries = vec![0u32; input.codes()];
    pipeline.fill(&mut entries);
    if a.compact && a.spline {
        return Err(Failure("give --compact or --spline, not both".to_string()));
    }
    if (a.compact || a.spline) && (input.bits() != 16 || output.bytes() != 2) {
        return Err(Failure(format!(
            "{} needs a 16-bit table: a 16-bit input (i16, u16) and a 16-bit output \
             (f16, bf16, i16, u16), not {} -> {out_name}",
            if a.compact { "--compact" } else { "--spline" },
            input.name()
        )));
    }
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
    write_file(&path, &bytes)?;
    emit(&format!(
        "{}  {}\n",
        actlut_codegen::hex(&actlut_codegen::sha256(&bytes)),
        path.display()
    ));
    Ok(ExitCode::SUCCESS)
}

/// The command-line option a pipeline error message is about.
fn option_of(message: &str) -> &'static str {
    for (parameter, option) in [
        ("out_scale", "--out-scale"),
        ("out_zero_point", "--out-zero-point"),
        ("scale", "--scale"),
        ("zero_point", "--zero-point"),
    ] {
        if message.starts_with(parameter) {
            return option;
        }
    }
    "quant"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scale(s: &str) -> Result<f32, String> {
        parse_scale("--scale", s).map_err(|f| f.0)
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
            assert!(
                err.contains(says) && err.starts_with(&format!("--scale {s}:")),
                "{s}: {err}"
            );
        }
    }
}
