//! `actlut quant`: writes one fused quantized table (dequantize → function → requantize) to a
//! file, for inspection, diffing or embedding, and prints its SHA-256.
//!
//! ```text
//! actlut quant FUNCTION --in i16|u16|i8|u8|i4|u4 --scale S --zero-point Z
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
use actlut_codegen::quant::{Op, Output, Pipeline, QuantType, Rounding};

use crate::dump::write_file;
use crate::{emit, usage, Failure};

/// The usage text of `actlut quant`.
pub const USAGE: &str = "\
       actlut quant FUNCTION --in i16|u16|i8|u8|i4|u4 --scale S --zero-point Z
                    --out f32|f16|bf16|i16|u16|i8|u8 [--out-scale S --out-zero-point Z]
                    [--rounding ties-even|ties-away] [--compact | --spline] --output FILE";

/// The help paragraph of `actlut quant`.
pub const HELP: &str = "\
  quant      write the fused table of FUNCTION (a function name, or identity) over
             the codes of --in, dequantized with --scale and --zero-point, then
             rounded to --out (requantized with --out-scale and --out-zero-point,
             default 0, rounding ties by --rounding, default ties-even) to FILE:
             entry i for the code whose bits are i, little-endian, each as wide as
             the output type; prints the file's SHA-256. Scales are decimals
             rounded to the nearest f32. --compact writes the compact stored form
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

/// A decimal scale, rounded once to the nearest `f32` (Rust's `f32` parsing is correctly
/// rounded).
fn parse_scale(option: &str, s: &str) -> Result<f32, Failure> {
    let lower = s.to_ascii_lowercase();
    if lower.contains("inf") || lower.contains("nan") {
        return Err(Failure(format!(
            "{option} {s}: a scale must be finite and positive"
        )));
    }
    s.parse::<f32>()
        .map_err(|_| Failure(format!("{option} {s}: not a decimal number")))
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
        Failure(format!(
            "--in {input_name}: expected i16, u16, i8, u8, i4 or u4"
        ))
    })?;
    let scale = parse_scale("--scale", required(&a.scale, "--scale S")?)?;
    let zero_point = parse_int("--zero-point", required(&a.zero_point, "--zero-point Z")?)?;
    let out_name = required(&a.out, "--out TYPE")?;
    let float = match out_name {
        "f32" => Some(Output::F32),
        "f16" => Some(Output::F16),
        "bf16" => Some(Output::Bf16),
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
            Output::requantized(ty, out_scale, out_zp).expect("an 8- or 16-bit type")
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
