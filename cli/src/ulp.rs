//! `actlut ulp FUNCTION FORMAT FILE [--json]`: grades an implementation's
//! outputs against actlut's correctly rounded table.
//!
//! FILE holds the implementation's output for every input of FORMAT, in input
//! bit-pattern order, little-endian, one entry each. Each entry is compared
//! with the table's; the distance between two values is their ordinal distance
//! (how many representable values of FORMAT lie between them, plus one), with
//! `−0` and `+0` one step apart. The grading and both reports are
//! [`actlut::ulp`]'s, which the Python package shares; this module parses the
//! arguments and reads FILE.

use std::ffi::OsString;
use std::path::Path;
use std::process::ExitCode;

use actlut::ulp::{ordinals, Grade};
use actlut::{BuiltinTables as _, Format, Function};

use crate::{emit, Failure};

/// The worst inputs listed, by default.
const DEFAULT_WORST: usize = 10;

/// `actlut ulp --help`.
pub(crate) const USAGE: &str = "\
usage: actlut ulp FUNCTION FORMAT FILE [--json] [--worst N]

Grades an implementation of FUNCTION over FORMAT against actlut's correctly
rounded table. FILE holds the implementation's output for every input of
FORMAT, in input bit-pattern order (0x0000, 0x0001, ...), little-endian, one
entry each: 131072 bytes for f16 and bf16, 256 for the fp8 formats, 64 for FP6
and 16 for FP4 (one byte per code).

  FUNCTION   gelu, gelu_tanh, sigmoid, tanh, silu, ... (`actlut manifest` lists
             every table; a feature name such as `gelu-tanh` works too)
  FORMAT     f16, bf16, fp8_e4m3, fp8_e5m2, fp8_e4m3fnuz, fp8_e5m2fnuz,
             fp6_e2m3, fp6_e3m2, fp4_e2m1
  --json     one JSON object: entries, mismatches, max_ulp (null when a NaN
             stands for a number or the reverse), max_numeric_ulp (the largest
             error between two numbers), histogram, nan_for_number,
             number_for_nan, invalid_codes, nan_payloads_differ, worst
  --worst N  list the N worst inputs (default 10)

It prints the number of entries that are not correctly rounded, the maximum
error in ulps (the ordinal distance between the two values: -0 and +0 are one
step apart, +-inf one step past the largest finite value), a histogram by ulp,
the worst inputs with the correct result and the reference value, and the
entries that are NaN where a number is due, or a number where NaN is due. A
NaN where NaN is due is correct; a NaN payload other than the table's is
counted apart.

Producing FILE (here gelu over f16; bf16 alike):
  numpy:   x = np.arange(65536, dtype=np.uint16).view(np.float16)
           f(x).astype('<f2').tofile('gelu_f16.bin')
  PyTorch: x = torch.from_numpy(np.arange(65536, dtype=np.uint16)
                 .view(np.int16)).view(torch.float16)
           torch.nn.functional.gelu(x).view(torch.int16).numpy()
                 .astype('<i2').tofile('gelu_f16.bin')
  candle:  let x = Tensor::from_vec((0..=u16::MAX).map(f16::from_bits)
                 .collect::<Vec<_>>(), 65536, &Device::Cpu)?;
           let y: Vec<u8> = x.gelu_erf()?.to_vec1::<f16>()?.iter()
                 .flat_map(|v| v.to_bits().to_le_bytes()).collect();
           std::fs::write(\"gelu_f16.bin\", y)?;
  then:    actlut ulp gelu f16 gelu_f16.bin

exit status:
  0  every entry is correctly rounded
  1  some entry is not
  2  usage or I/O error (unknown function or format, no table for them, a
     missing, empty or non-regular FILE, a FILE of the wrong size)";

struct Args {
    act: Function,
    format: Format,
    file: OsString,
    json: bool,
    worst: usize,
}

fn usage(message: String) -> Failure {
    Failure(format!("{message} (try `actlut ulp --help`)"))
}

/// `Ok(None)`: `--help` was asked for.
fn parse(args: &[OsString]) -> Result<Option<Args>, Failure> {
    let mut json = false;
    let mut worst = DEFAULT_WORST;
    let mut positional = Vec::new();
    let mut only_positional = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let is_option = a.as_encoded_bytes().first() == Some(&b'-') && a != "-";
        if only_positional || !is_option {
            positional.push(a.clone());
            continue;
        }
        let s = a.to_str().unwrap_or("");
        match s {
            "--" => only_positional = true,
            "-h" | "--help" => return Ok(None),
            "--json" => json = true,
            "--worst" => {
                let n = it
                    .next()
                    .ok_or_else(|| usage("`--worst` needs a number".to_string()))?;
                worst = parse_worst(&n.to_string_lossy())?;
            }
            _ => match s.strip_prefix("--worst=") {
                Some(n) => worst = parse_worst(n)?,
                None => return Err(usage(format!("unknown option `{}`", a.to_string_lossy()))),
            },
        }
    }
    let [function, format, file] = <[OsString; 3]>::try_from(positional).map_err(|p| {
        usage(format!(
            "`ulp` takes FUNCTION FORMAT FILE, got {} argument{}",
            p.len(),
            if p.len() == 1 { "" } else { "s" }
        ))
    })?;
    let function = function.to_string_lossy();
    let act: Function = function
        .parse()
        .map_err(|e: actlut::UnknownFunction| Failure(e.to_string()))?;
    let format_name = format.to_string_lossy();
    let format = Format::ALL
        .into_iter()
        .find(|f| f.name() == format_name || f.feature() == format_name)
        .ok_or_else(|| {
            let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
            Failure(format!(
                "unknown format `{format_name}`: expected one of {}",
                names.join(", ")
            ))
        })?;
    Ok(Some(Args {
        act,
        format,
        file,
        json,
        worst,
    }))
}

fn parse_worst(n: &str) -> Result<usize, Failure> {
    n.parse()
        .map_err(|_| usage(format!("`--worst` needs a number, got `{n}`")))
}

/// Reads FILE: a regular file of exactly `bytes` bytes.
fn read_entries(path: &Path, format: Format, what: &str) -> Result<Vec<u16>, Failure> {
    let shown = path.display();
    let bytes = format.table_bytes();
    let expected = format!(
        "{bytes} bytes: {} entries of {} byte{} each, {what} for every input in bit-pattern order",
        format.entries(),
        format.entry_bytes(),
        if format.entry_bytes() == 1 { "" } else { "s" }
    );
    let meta =
        std::fs::metadata(path).map_err(|e| Failure(format!("cannot read `{shown}`: {e}")))?;
    if meta.is_dir() {
        return Err(Failure(format!(
            "`{shown}` is a directory; expected a file of {expected}"
        )));
    }
    if !meta.is_file() {
        return Err(Failure(format!(
            "`{shown}` is not a regular file; expected a file of {expected}"
        )));
    }
    if meta.len() == 0 {
        return Err(Failure(format!("`{shown}` is empty; expected {expected}")));
    }
    if meta.len() != bytes as u64 {
        return Err(Failure(format!(
            "`{shown}` has {} bytes; expected {expected}",
            meta.len()
        )));
    }
    let data = std::fs::read(path).map_err(|e| Failure(format!("cannot read `{shown}`: {e}")))?;
    if data.len() != bytes {
        return Err(Failure(format!(
            "`{shown}` changed while read: {} bytes; expected {expected}",
            data.len()
        )));
    }
    Ok(match format.entry_bytes() {
        2 => data
            .chunks_exact(2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .collect(),
        _ => data.iter().map(|&b| u16::from(b)).collect(),
    })
}

/// Runs `actlut ulp` with the arguments after `ulp`.
pub(crate) fn run(args: &[OsString]) -> Result<ExitCode, Failure> {
    let Some(a) = parse(args)? else {
        emit(&format!("{USAGE}\n"));
        return Ok(ExitCode::SUCCESS);
    };
    let table = a.act.table(a.format).map_err(|e| Failure(e.to_string()))?;
    let name = format!("{}_{}", a.act.name(), a.format.name());
    let got = read_entries(Path::new(&a.file), a.format, &format!("{name} outputs"))?;
    let g = Grade::against(a.act, a.format, table, &ordinals(a.format), &got);
    let text = if a.json {
        g.json(a.worst)
    } else {
        g.text(a.worst)
    };
    emit(&text);
    Ok(if g.mismatches.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
