//! `actlut ulp FUNCTION FORMAT FILE [--derivative] [--json]`: grades an implementation's
//! outputs against actlut's correctly rounded table.
//!
//! FUNCTION is an op's text: a function (`gelu`, an engine's name such as `gelu_10`), with
//! constants in parentheses (`softcap(cap=30)`). The table is the built-in one when the op has
//! one (a function at its default constants), otherwise it is filled at run time
//! ([`actlut::fill_table`]) with the same entries.
//!
//! FILE holds the implementation's output for every input of FORMAT, in input
//! bit-pattern order, little-endian, one entry each. Each entry is compared
//! with the table's; the distance between two values is their ordinal distance
//! (how many representable values of FORMAT lie between them, plus one), with
//! `−0` and `+0` one step apart. The grading and the text report are
//! [`actlut::ulp`]'s; this module parses the arguments, reads FILE and renders
//! the JSON report ([`json`]), which the Python package shares.

use std::path::{Path, PathBuf};

use actlut::ulp::{ordinals, Grade, ReportOptions, Tolerance, Wrong};
use actlut::{BuiltinTables as _, Format, Op, TableRef};
use serde::Serialize;

use crate::output::to_json;
use crate::{values, Failure, Io, Stop};

/// The worst inputs listed, by default.
const DEFAULT_WORST: usize = 10;

/// What `actlut ulp --help` prints before the arguments.
fn long_about() -> String {
    // The file's size for each format, from `Format::ALL`: "131072 bytes for
    // f16, bf16; 256 for fp8_e4m3, ...".
    let mut sizes: Vec<(usize, Vec<&str>)> = Vec::new();
    for f in Format::ALL {
        match sizes.iter_mut().find(|(b, _)| *b == f.table_bytes()) {
            Some((_, names)) => names.push(f.name()),
            None => sizes.push((f.table_bytes(), vec![f.name()])),
        }
    }
    let sizes: Vec<String> = sizes
        .iter()
        .enumerate()
        .map(|(i, (bytes, names))| {
            let unit = if i == 0 { " bytes" } else { "" };
            format!("{bytes}{unit} for {}", names.join(", "))
        })
        .collect();
    format!(
        "Grade an implementation of FUNCTION over FORMAT against actlut's correctly rounded \
         table.\n\n\
         FUNCTION is a function's name, or an op: a function with constants, as exact \
         decimals or fractions (softcap(cap=30), leaky_relu(alpha=0.2), hardtanh(min=-2,max=2), \
         situ(beta=1/3)); a constant left out takes its default, and one without default must be \
         given (softcap's cap). Other engines' names are accepted (transformers' gelu_10 and \
         gelu_pytorch_tanh, vLLM's swigluoai, PyTorch's SiLU). --derivative grades the \
         derivative's table instead (or write gelu_derivative). A function at its default \
         constants has a built-in table; any other op's table is filled at run time.\n\n\
         FILE holds the implementation's output for every input of FORMAT, in input bit-pattern \
         order (0x0000, 0x0001, ...), little-endian, one entry each (one byte per code in the \
         formats of at most 8 bits): {}.\n\n\
         It prints the number of entries that are not correctly rounded, the maximum error in \
         ulps (the ordinal distance between the two values: -0 and +0 are one step apart, +-inf \
         one step past the largest finite value), a histogram by ulp, the worst inputs with the \
         correct result and the reference value, and the entries that are NaN where a number is \
         due, or a number where NaN is due. A NaN where NaN is due is correct; a NaN payload \
         other than the table's is counted apart.",
        sizes.join("; ")
    )
}

/// What `actlut ulp --help` prints after the arguments.
const AFTER_LONG_HELP: &str = "\
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

/// `actlut ulp FUNCTION FORMAT FILE [--json] [--worst N]`.
#[derive(clap::Args)]
#[command(
    about = "Grade an implementation of FUNCTION over FORMAT against the exact table: the \
             entries not correctly rounded, the maximum error in ulps, a histogram and the worst \
             inputs",
    long_about = long_about(),
    after_long_help = AFTER_LONG_HELP
)]
pub(crate) struct Args {
    /// The function: a table name's prefix, its cargo feature (`gelu-tanh`) or another
    /// engine's name for it (`gelu_erf`, `SiLU`, `gelu_10`), with its constants if any
    /// (`softcap(cap=30)`, `leaky_relu(alpha=0.2)`)
    #[arg(value_parser = values::op())]
    function: Op,
    /// The format of the inputs and outputs: a name, its cargo feature (`fp8-e4m3`), its
    /// numpy dtype (`float8_e4m3fn`) or another library's name for it (`torch.float8_e4m3fn`)
    #[arg(value_parser = values::format())]
    format: Format,
    /// The implementation's output for every input, in input bit-pattern order
    file: PathBuf,
    /// Grade the function's derivative (its table `<op>_derivative_<format>`)
    #[arg(long)]
    derivative: bool,
    /// Print one JSON object: table, function, op (the op's canonical text), format, entries, mismatches, max_ulp (null
    /// when a NaN stands for a number or the reverse), max_numeric_ulp (the largest error
    /// between two numbers), histogram, nan_for_number, number_for_nan, invalid_codes,
    /// nan_payloads_differ, worst (each with midpoint_ulps, the exact value's distance from the
    /// nearest rounding midpoint), hidden_by (the wrong entries each tolerance passes)
    #[arg(long)]
    json: bool,
    /// List the N worst inputs
    #[arg(long, value_name = "N", default_value_t = DEFAULT_WORST)]
    worst: usize,
    /// Also count the wrong entries that |got - correct| <= ATOL + RTOL*|correct| passes
    /// (besides torch.testing.assert_close's and numpy.allclose's defaults, always counted)
    #[arg(long, value_name = "RTOL", requires = "atol", value_parser = tolerance, allow_negative_numbers = true)]
    rtol: Option<f64>,
    /// The absolute tolerance that goes with --rtol
    #[arg(long, value_name = "ATOL", requires = "rtol", value_parser = tolerance, allow_negative_numbers = true)]
    atol: Option<f64>,
}

/// A tolerance: a finite, non-negative number.
fn tolerance(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!("`{s}` is not a finite, non-negative number")),
    }
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

/// Runs `actlut ulp`.
pub(crate) fn run(a: &Args, io: &mut Io) -> Result<u8, Stop> {
    let op = a
        .function
        .with_derivative(a.derivative || a.function.is_derivative());
    let table = op_table(&op, a.format)?;
    let name = format!("{op}_{}", a.format.name());
    let got = read_entries(&a.file, a.format, &format!("{name} outputs"))?;
    let g = Grade::against_op(op, a.format, table, &ordinals(a.format), &got);
    let mut opts = ReportOptions::new(a.worst);
    if let (Some(rtol), Some(atol)) = (a.rtol, a.atol) {
        opts.tolerances.push(Tolerance::Given { rtol, atol });
    }
    io.emit(&if a.json {
        json(&g, &opts)
    } else {
        g.text_with(&opts)
    })?;
    Ok(if g.mismatches.is_empty() { 0 } else { 1 })
}

/// The table of `op` over `format`: the built-in one for a function at its default constants,
/// otherwise filled at run time by [`actlut::fill_table`] (kept for the rest of the process,
/// which grades one table).
fn op_table(op: &Op, format: Format) -> Result<TableRef, Failure> {
    if op.is_default() && !op.is_derivative() {
        return op
            .function()
            .table(format)
            .map_err(|e| Failure(e.to_string()));
    }
    let fail = |e: actlut::EvalError| match e {
        // A message that names the table itself.
        actlut::EvalError::NoTable { .. } => Failure(e.to_string()),
        _ => Failure(format!("{op}_{}: {e}", format.name())),
    };
    Ok(if format.entry_bytes() == 2 {
        let mut t = Box::new([0u16; 65536]);
        actlut::fill_table(op, format, &mut t[..]).map_err(fail)?;
        TableRef::U16(Box::leak(t))
    } else {
        let mut t = vec![0u8; format.entries()];
        actlut::fill_table(op, format, &mut t).map_err(fail)?;
        TableRef::U8(t.leak())
    })
}

/// The report of `actlut ulp --json`: one JSON object and a newline, listing
/// the worst inputs and the tolerances of `opts`. Its keys are docs/ulp.md's;
/// the Python package's `Grade.to_json` returns it.
pub fn json(g: &Grade, opts: &ReportOptions) -> String {
    to_json(&Report::new(g, opts), 0)
}

/// The object of `actlut ulp --json`.
#[derive(Serialize)]
struct Report {
    table: String,
    function: &'static str,
    /// The op's canonical text: `gelu`, `softcap(cap=30)`, `gelu_derivative`.
    op: String,
    format: &'static str,
    entries: usize,
    mismatches: usize,
    /// `None` (null) when some error is unbounded.
    max_ulp: Option<u32>,
    max_numeric_ulp: u32,
    /// Every distance, in increasing order.
    histogram: Vec<Bucket>,
    nan_for_number: usize,
    number_for_nan: usize,
    invalid_codes: usize,
    nan_payloads_differ: usize,
    worst: Vec<Worst>,
    /// How many wrong entries each tolerance passes.
    hidden_by: Vec<Hidden>,
}

/// One tolerance and the wrong entries it passes.
#[derive(Serialize)]
struct Hidden {
    /// `torch`, `numpy` or `given`.
    tolerance: &'static str,
    /// `assert_close's default bf16 tolerance`.
    description: String,
    rtol: f64,
    atol: f64,
    count: usize,
}

/// One distance of the histogram and its number of entries.
#[derive(Serialize)]
struct Bucket {
    ulps: u32,
    count: usize,
}

/// One of the worst inputs: [`actlut::ulp::Shown`], the distance (null when
/// unbounded) and the kind of error.
#[derive(Serialize)]
struct Worst {
    input: String,
    input_value: String,
    got: String,
    got_value: String,
    correct: String,
    correct_value: String,
    exact: String,
    ulps: Option<u32>,
    kind: &'static str,
    /// The exact value's signed distance from the nearest rounding midpoint,
    /// in ulps (null where NaN is due or the exact value is infinite).
    midpoint_ulps: Option<f64>,
    /// The bound on its error, in ulps.
    midpoint_error: Option<f64>,
}

impl Report {
    fn new(g: &Grade, opts: &ReportOptions) -> Report {
        Report {
            table: g.table_name(),
            function: g.function.name(),
            op: g.op.to_string(),
            format: g.format.name(),
            entries: g.entries,
            mismatches: g.mismatches.len(),
            max_ulp: g.max_ulp(),
            max_numeric_ulp: g.max_numeric_ulp(),
            histogram: g
                .histogram()
                .into_iter()
                .map(|(ulps, count)| Bucket { ulps, count })
                .collect(),
            nan_for_number: g.count(Wrong::NanForNumber),
            number_for_nan: g.count(Wrong::NumberForNan),
            invalid_codes: g.count(Wrong::InvalidCode),
            nan_payloads_differ: g.nan_payloads_differ,
            worst: g
                .worst_beyond(opts.worst, opts.beyond)
                .iter()
                .map(|m| {
                    let v = g.shown(m);
                    let midpoint = g.midpoint(m).filter(|d| d.ulps.is_finite());
                    Worst {
                        input: v.input,
                        input_value: v.input_value,
                        got: v.got,
                        got_value: v.got_value,
                        correct: v.correct,
                        correct_value: v.correct_value,
                        exact: v.exact,
                        ulps: match m.wrong {
                            Wrong::Ulps(d) => Some(d),
                            _ => None,
                        },
                        kind: m.wrong.kind(),
                        midpoint_ulps: midpoint.map(|d| d.ulps),
                        midpoint_error: midpoint.map(|d| d.error_bound),
                    }
                })
                .collect(),
            hidden_by: opts
                .tolerances
                .iter()
                .zip(g.hidden_by_each(&opts.tolerances))
                .map(|(&t, count)| {
                    let (rtol, atol) = t.rtol_atol(g.format);
                    Hidden {
                        tolerance: t.key(),
                        description: t.describe(g.format),
                        rtol,
                        atol,
                        count,
                    }
                })
                .collect(),
        }
    }
}
