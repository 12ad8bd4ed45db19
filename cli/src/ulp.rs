//! `actlut ulp FUNCTION FORMAT FILE [--json]`: grades an implementation's
//! outputs against actlut's correctly rounded table.
//!
//! FILE holds the implementation's output for every input of FORMAT, in input
//! bit-pattern order, little-endian, one entry each. Each entry is compared
//! with the table's; the distance between two values is their ordinal distance
//! (how many representable values of FORMAT lie between them, plus one), with
//! `−0` and `+0` one step apart.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;

use actlut::{Activation, Format, TableRef};

use crate::json::json_str;
use crate::{emit, Failure};

/// The worst inputs listed, by default.
const DEFAULT_WORST: usize = 10;

/// The most distinct distances the text histogram lists one by one.
const TEXT_BUCKETS: usize = 16;

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

/// What is wrong with one entry.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Wrong {
    /// A number `ulps` steps away from the correct number.
    Ulps(u32),
    /// NaN where a number is due.
    NanForNumber,
    /// A number where NaN is due.
    NumberForNan,
    /// Not a bit pattern of the format (FP6 and FP4 codes sit in the low bits
    /// of a byte).
    InvalidCode,
}

/// One entry that is not correctly rounded.
#[derive(Clone, Copy, Debug)]
struct Mismatch {
    input: u16,
    got: u16,
    correct: u16,
    wrong: Wrong,
}

impl Mismatch {
    /// Unbounded errors first, then the largest distance, then the lowest input.
    fn badness(&self) -> (u32, std::cmp::Reverse<u16>) {
        let d = match self.wrong {
            Wrong::Ulps(d) => d,
            _ => u32::MAX,
        };
        (d, std::cmp::Reverse(self.input))
    }
}

/// The comparison of a whole file with the table.
struct Grade {
    entries: usize,
    mismatches: Vec<Mismatch>,
    /// Entries where both are NaN with different bits (counted correct).
    nan_payloads_differ: usize,
}

/// The position of every non-NaN bit pattern of `format` in the order of the
/// values, `−0` one step below `+0`; `None` for NaN patterns.
fn ordinals(format: Format) -> Vec<Option<i64>> {
    let mut codes: Vec<u16> = (0..format.entries() as u32)
        .map(|b| b as u16)
        .filter(|&b| !format.is_nan(b))
        .collect();
    codes.sort_by(|&a, &b| {
        let (va, vb) = (format.decode(a), format.decode(b));
        va.partial_cmp(&vb)
            .expect("no NaN left")
            .then_with(|| format.is_sign_negative(b).cmp(&format.is_sign_negative(a)))
    });
    let mut ord = vec![None; format.entries()];
    for (rank, &b) in codes.iter().enumerate() {
        ord[usize::from(b)] = Some(rank as i64);
    }
    ord
}

/// Compares `got` (one entry per input) with `table`.
fn grade(format: Format, table: TableRef, got: &[u16]) -> Grade {
    let ord = ordinals(format);
    let mut mismatches = Vec::new();
    let mut nan_payloads_differ = 0;
    for (input, (&g, c)) in got.iter().zip(table.iter()).enumerate() {
        if g == c {
            continue;
        }
        let wrong = if usize::from(g) >= format.entries() {
            Wrong::InvalidCode
        } else {
            match (ord[usize::from(g)], ord[usize::from(c)]) {
                (None, None) => {
                    nan_payloads_differ += 1;
                    continue;
                }
                (None, Some(_)) => Wrong::NanForNumber,
                (Some(_), None) => Wrong::NumberForNan,
                (Some(a), Some(b)) => Wrong::Ulps(a.abs_diff(b) as u32),
            }
        };
        mismatches.push(Mismatch {
            input: input as u16,
            got: g,
            correct: c,
            wrong,
        });
    }
    Grade {
        entries: got.len(),
        mismatches,
        nan_payloads_differ,
    }
}

impl Grade {
    fn count(&self, w: Wrong) -> usize {
        self.mismatches.iter().filter(|m| m.wrong == w).count()
    }

    /// The largest distance, `None` when some error is unbounded (a NaN for a
    /// number, the reverse, or an invalid code), `Some(0)` when all are right.
    fn max_ulp(&self) -> Option<u32> {
        self.mismatches.iter().try_fold(0, |acc, m| match m.wrong {
            Wrong::Ulps(d) => Some(acc.max(d)),
            _ => None,
        })
    }

    /// The largest distance between two numbers (0 when there is none).
    fn max_numeric_ulp(&self) -> u32 {
        self.histogram().keys().next_back().copied().unwrap_or(0)
    }

    /// Count of numeric mismatches by distance.
    fn histogram(&self) -> BTreeMap<u32, usize> {
        let mut h = BTreeMap::new();
        for m in &self.mismatches {
            if let Wrong::Ulps(d) = m.wrong {
                *h.entry(d).or_insert(0) += 1;
            }
        }
        h
    }

    fn worst(&self, n: usize) -> Vec<Mismatch> {
        let mut w = self.mismatches.clone();
        w.sort_by_key(|m| std::cmp::Reverse(m.badness()));
        w.truncate(n);
        w
    }
}

/// A value of the format as text: shortest decimal that round-trips through
/// `f64` (the format's values are all exact in `f64`).
fn value(format: Format, bits: u16) -> String {
    if usize::from(bits) >= format.entries() {
        return "invalid code".to_string();
    }
    show_f64(format.decode(bits))
}

fn show_f64(v: f64) -> String {
    if v.is_nan() {
        "NaN".to_string()
    } else if v.is_infinite() {
        if v < 0.0 { "-inf" } else { "inf" }.to_string()
    } else if v == 0.0 {
        if v.is_sign_negative() { "-0" } else { "0" }.to_string()
    } else {
        format!("{v:e}")
    }
}

/// The reference value of `act` at the input, before rounding to the format
/// (the `f64` evaluation actlut's tables are rounded from, 17 significant
/// digits), or `NaN` where NaN is due.
fn exact(act: Activation, format: Format, input: u16) -> String {
    let x = format.decode(input);
    match actlut_codegen::evaluate(act.function(), x) {
        Some(e) => {
            // `hi + lo` would turn a `-0` into `+0`.
            let v = if e.lo == 0.0 { e.hi } else { e.hi + e.lo };
            if v.is_finite() && v != 0.0 {
                format!("{v:.16e}")
            } else {
                show_f64(v)
            }
        }
        None => "NaN".to_string(),
    }
}

fn hex(format: Format, bits: u16) -> String {
    let digits = (format.entry_bytes() * 2).max(2);
    format!("0x{bits:0digits$x}")
}

fn what(w: Wrong) -> String {
    match w {
        Wrong::Ulps(1) => "1 ulp".to_string(),
        Wrong::Ulps(d) => format!("{d} ulps"),
        Wrong::NanForNumber => "NaN for a number".to_string(),
        Wrong::NumberForNan => "number for NaN".to_string(),
        Wrong::InvalidCode => "invalid code".to_string(),
    }
}

struct Args {
    act: Activation,
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
    let act: Activation = function
        .parse()
        .map_err(|e: actlut::UnknownActivation| Failure(e.to_string()))?;
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
    let g = grade(a.format, table, &got);
    let text = if a.json {
        json(&a, &name, &g)
    } else {
        text(&a, &name, &g)
    };
    emit(&text);
    Ok(if g.mismatches.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn text(a: &Args, name: &str, g: &Grade) -> String {
    let mut s = String::new();
    let f = a.format;
    let _ = writeln!(
        s,
        "{name}: {} of {} entries not correctly rounded",
        g.mismatches.len(),
        g.entries
    );
    let _ = match g.max_ulp() {
        Some(d) => writeln!(s, "max error: {d} ulp{}", if d == 1 { "" } else { "s" }),
        None => writeln!(
            s,
            "max error: unbounded (a NaN or invalid code where a number is due, or the reverse); \
             {} ulps at most among numbers",
            g.max_numeric_ulp()
        ),
    };
    let _ = writeln!(
        s,
        "NaN where a number is due: {}",
        g.count(Wrong::NanForNumber)
    );
    let _ = writeln!(
        s,
        "number where NaN is due: {}",
        g.count(Wrong::NumberForNan)
    );
    let invalid = g.count(Wrong::InvalidCode);
    if invalid > 0 {
        let _ = writeln!(
            s,
            "invalid codes (not a bit pattern of {}): {invalid}",
            f.name()
        );
    }
    let _ = writeln!(
        s,
        "NaN payloads other than the table's (counted correct): {}",
        g.nan_payloads_differ
    );
    let h = g.histogram();
    if !h.is_empty() {
        let _ = writeln!(s, "histogram (ulps: entries):");
        for (range, n) in text_buckets(&h) {
            let _ = writeln!(s, "  {range:>13}: {n}");
        }
    }
    let worst = g.worst(a.worst);
    if !worst.is_empty() {
        let _ = writeln!(s, "worst inputs:");
        for m in worst {
            let _ = writeln!(
                s,
                "  input {} ({}): got {} ({}), correct {} ({}), exact {}: {}",
                hex(f, m.input),
                value(f, m.input),
                hex(f, m.got),
                value(f, m.got),
                hex(f, m.correct),
                value(f, m.correct),
                exact(a.act, f, m.input),
                what(m.wrong)
            );
        }
    }
    s
}

/// The histogram as text: one line per distance when there are at most
/// [`TEXT_BUCKETS`] distances, otherwise 1, 2, then ranges between powers of
/// two (3–4, 5–8, …). `--json` always gives every distance.
fn text_buckets(h: &BTreeMap<u32, usize>) -> Vec<(String, usize)> {
    if h.len() <= TEXT_BUCKETS {
        return h.iter().map(|(d, n)| (d.to_string(), *n)).collect();
    }
    let mut out: Vec<(u32, u32, usize)> = Vec::new();
    for (&d, &n) in h {
        let (lo, hi) = if d <= 2 {
            (d, d)
        } else {
            let hi = d.next_power_of_two();
            (hi / 2 + 1, hi)
        };
        match out.last_mut() {
            Some(last) if last.0 == lo => last.2 += n,
            _ => out.push((lo, hi, n)),
        }
    }
    out.into_iter()
        .map(|(lo, hi, n)| {
            let range = if lo == hi {
                lo.to_string()
            } else {
                format!("{lo}–{hi}")
            };
            (range, n)
        })
        .collect()
}

fn json(a: &Args, name: &str, g: &Grade) -> String {
    let f = a.format;
    let max = g
        .max_ulp()
        .map_or_else(|| "null".to_string(), |d| d.to_string());
    let histogram: Vec<String> = g
        .histogram()
        .iter()
        .map(|(d, n)| format!("{{\"ulps\": {d}, \"count\": {n}}}"))
        .collect();
    let worst: Vec<String> = g
        .worst(a.worst)
        .iter()
        .map(|m| {
            let ulps = match m.wrong {
                Wrong::Ulps(d) => d.to_string(),
                _ => "null".to_string(),
            };
            format!(
                "{{\"input\": {}, \"input_value\": {}, \"got\": {}, \"got_value\": {}, \
                 \"correct\": {}, \"correct_value\": {}, \"exact\": {}, \"ulps\": {ulps}, \"kind\": {}}}",
                json_str(&hex(f, m.input)),
                json_str(&value(f, m.input)),
                json_str(&hex(f, m.got)),
                json_str(&value(f, m.got)),
                json_str(&hex(f, m.correct)),
                json_str(&value(f, m.correct)),
                json_str(&exact(a.act, f, m.input)),
                json_str(match m.wrong {
                    Wrong::Ulps(_) => "ulps",
                    Wrong::NanForNumber => "nan_for_number",
                    Wrong::NumberForNan => "number_for_nan",
                    Wrong::InvalidCode => "invalid_code",
                }),
            )
        })
        .collect();
    format!(
        "{{\"table\": {}, \"function\": {}, \"format\": {}, \"entries\": {}, \"mismatches\": {}, \
         \"max_ulp\": {max}, \"max_numeric_ulp\": {}, \"histogram\": [{}], \"nan_for_number\": {}, \"number_for_nan\": {}, \
         \"invalid_codes\": {}, \"nan_payloads_differ\": {}, \"worst\": [{}]}}\n",
        json_str(name),
        json_str(a.act.name()),
        json_str(f.name()),
        g.entries,
        g.mismatches.len(),
        g.max_numeric_ulp(),
        histogram.join(", "),
        g.count(Wrong::NanForNumber),
        g.count(Wrong::NumberForNan),
        g.count(Wrong::InvalidCode),
        g.nan_payloads_differ,
        worst.join(", "),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ordinal order agrees with the values, and ±0 are one step apart, in
    /// every format.
    #[test]
    fn ordinals_follow_the_values_with_signed_zeros_one_step_apart() {
        for f in Format::ALL {
            let ord = ordinals(f);
            let mut by_rank: Vec<(i64, u16)> = ord
                .iter()
                .enumerate()
                .filter_map(|(b, o)| o.map(|o| (o, b as u16)))
                .collect();
            by_rank.sort();
            for w in by_rank.windows(2) {
                assert_eq!(w[1].0, w[0].0 + 1, "{}: ranks are consecutive", f.name());
                let (a, b) = (f.decode(w[0].1), f.decode(w[1].1));
                assert!(a <= b, "{}: {a} before {b}", f.name());
            }
            if f.has_negative_zero() {
                let neg_zero = (0..f.entries() as u32)
                    .map(|b| b as u16)
                    .find(|&b| f.decode(b) == 0.0 && f.is_sign_negative(b))
                    .unwrap();
                assert_eq!(
                    ord[usize::from(neg_zero)],
                    Some(ord[0].unwrap() - 1),
                    "{}",
                    f.name()
                );
            }
        }
    }
}
