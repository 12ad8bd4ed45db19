//! Grading an implementation against the exact tables: the ulp distance, the
//! counts and the report of `actlut ulp` (feature `alloc`).
//!
//! One implementation serves the `actlut ulp` command and the Python package's
//! `actlut.grade`: both call [`Grade::new`] and print [`Grade::text`] or the
//! JSON report of the `actlut-cli` library (`actlut_cli::ulp::json`), which
//! renders a [`Grade`] through serde and keeps this module `no_std` and free
//! of serde.
//!
//! The distance between two values of a format is their ordinal distance: how
//! many steps apart they are in the ordered list of the format's non-NaN
//! values ([`ordinals`]), where `−0` and `+0` are one step apart and `±inf` is
//! one step past the largest finite value. A NaN where a NaN is due is correct
//! whatever its payload (counted apart in [`Grade::nan_payloads_differ`]).
//!
//! ```
//! # #[cfg(all(feature = "gelu", feature = "f16"))] {
//! use actlut::ulp::{Grade, Wrong};
//! use actlut::{BuiltinTables, Format, Function};
//!
//! // The exact table, with one entry moved two values up.
//! let mut got: Vec<u16> = Function::Gelu.table(Format::F16).unwrap().iter().collect();
//! got[0x3C00] += 2; // gelu(1.0): two f16 values above the correctly rounded one
//! let g = Grade::new(Function::Gelu, Format::F16, &got).unwrap();
//! assert_eq!(g.mismatches.len(), 1);
//! assert_eq!(g.mismatches[0].wrong, Wrong::Ulps(2));
//! assert_eq!(g.max_ulp(), Some(2));
//! assert!(g.text(10).starts_with("gelu_f16: 1 of 65536 entries not correctly rounded\n"));
//! # }
//! ```

extern crate alloc;

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use core::fmt::Write as _;

use crate::builtin::BuiltinTables;
use crate::errors::LengthMismatch;
use crate::kernels::MapError;
use crate::table_ref::TableRef;
use actlut_core::{Format, Function, Op};

pub use actlut_core::{midpoint_distance, midpoint_distance_op, MidpointDistance};

/// The most distinct distances [`Grade::text`] lists one by one; with more,
/// it groups them between powers of two.
pub const TEXT_BUCKETS: usize = 16;

/// A closeness test as test suites write it: `got` passes for `expected` when
/// `|got − expected| ≤ atol + rtol·|expected|`, both taken as `f64` (what
/// `torch.testing.assert_close` and `numpy.allclose` compute when the
/// reference is exact in the dtype); an infinity or NaN passes only for the
/// same value (NaN never: neither library's default `equal_nan`).
///
/// [`Grade::hidden_by`] counts the wrong entries a tolerance lets through.
/// The presets are the libraries' defaults, read from their sources:
///
/// | preset | f16 | bf16 | other formats |
/// |---|---|---|---|
/// | [`Tolerance::Torch`]: `torch.testing.assert_close` (`_DTYPE_PRECISIONS` in `torch/testing/_comparison.py`) | rtol 1e-3, atol 1e-5 | rtol 1.6e-2, atol 1e-5 | rtol 0, atol 0 (no entry for the dtype: the default `(0.0, 0.0)`) |
/// | [`Tolerance::Numpy`]: `numpy.allclose`, `numpy.isclose` | rtol 1e-5, atol 1e-8 | the same | the same |
///
/// ```
/// use actlut::ulp::Tolerance;
/// use actlut::Format;
/// assert_eq!(Tolerance::Torch.rtol_atol(Format::Bf16), (0.016, 1e-5));
/// assert!(Tolerance::Torch.accepts(Format::Bf16, 1.0078125, 1.0));
/// assert!(!Tolerance::Numpy.accepts(Format::Bf16, 1.0078125, 1.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Tolerance {
    /// `torch.testing.assert_close`'s default tolerance for the format's dtype.
    Torch,
    /// `numpy.allclose`'s default tolerance.
    Numpy,
    /// A tolerance given by its two numbers (finite, non-negative).
    Given {
        /// The relative tolerance.
        rtol: f64,
        /// The absolute tolerance.
        atol: f64,
    },
}

impl Tolerance {
    /// The presets, in the order the reports list them.
    pub const PRESETS: [Tolerance; 2] = [Tolerance::Torch, Tolerance::Numpy];

    /// `(rtol, atol)` for `format`.
    pub const fn rtol_atol(self, format: Format) -> (f64, f64) {
        match self {
            Tolerance::Torch => match format {
                Format::F16 => (1e-3, 1e-5),
                Format::Bf16 => (0.016, 1e-5),
                _ => (0.0, 0.0),
            },
            Tolerance::Numpy => (1e-5, 1e-8),
            Tolerance::Given { rtol, atol } => (rtol, atol),
        }
    }

    /// The JSON `tolerance` of the preset: `torch`, `numpy` or `given`.
    pub const fn key(self) -> &'static str {
        match self {
            Tolerance::Torch => "torch",
            Tolerance::Numpy => "numpy",
            Tolerance::Given { .. } => "given",
        }
    }

    /// What the reports call it: `assert_close's default bf16 tolerance`,
    /// `numpy.allclose's default tolerance`, `rtol=0.01, atol=0`.
    pub fn describe(self, format: Format) -> String {
        match self {
            Tolerance::Torch => format!("assert_close's default {} tolerance", format.name()),
            Tolerance::Numpy => "numpy.allclose's default tolerance".to_string(),
            Tolerance::Given { rtol, atol } => {
                format!("rtol={}, atol={}", show_number(rtol), show_number(atol))
            }
        }
    }

    /// Whether `got` passes for `expected` over `format`.
    pub fn accepts(self, format: Format, got: f64, expected: f64) -> bool {
        if !got.is_finite() || !expected.is_finite() {
            return got == expected;
        }
        let (rtol, atol) = self.rtol_atol(format);
        (got - expected).abs() <= atol + rtol * expected.abs()
    }
}

/// [`Format::decode`], by a conversion for f16 and bf16 (the value is the
/// same; a grade of 65,536 wrong entries decodes each twice).
fn quick_value(format: Format, bits: u16) -> f64 {
    match format {
        Format::Bf16 => f64::from(f32::from_bits(u32::from(bits) << 16)),
        Format::F16 => half::f16::from_bits(bits).to_f64(),
        _ => format.decode(bits),
    }
}

/// A tolerance's number as the reports print it: `0.016`, `1e-5`, `0`.
fn show_number(v: f64) -> String {
    if v == 0.0 || (1e-3..1e4).contains(&v.abs()) {
        format!("{v}")
    } else {
        format!("{v:e}")
    }
}

/// What a report lists besides the counts ([`Grade::text_with`], and the JSON
/// report of `actlut ulp`).
#[derive(Clone, Debug, PartialEq)]
pub struct ReportOptions {
    /// How many of the worst inputs to list.
    pub worst: usize,
    /// List only the inputs more than this many ulps off (and the unbounded
    /// ones); 0 lists every wrong one.
    pub beyond: u32,
    /// The tolerances whose [`Grade::hidden_by`] count the report gives: the
    /// presets, and any given.
    pub tolerances: Vec<Tolerance>,
}

impl ReportOptions {
    /// The `worst` worst inputs, and the preset tolerances.
    pub fn new(worst: usize) -> ReportOptions {
        ReportOptions {
            worst,
            beyond: 0,
            tolerances: Tolerance::PRESETS.to_vec(),
        }
    }
}

/// What is wrong with one entry.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Wrong {
    /// A number this many values away from the correct number.
    Ulps(u32),
    /// NaN where a number is due.
    NanForNumber,
    /// A number where NaN is due.
    NumberForNan,
    /// Not a bit pattern of the format (FP6 and FP4 codes sit in the low bits
    /// of a byte; a byte at or above the format's number of codes is none).
    InvalidCode,
}

impl Wrong {
    /// The JSON `kind` of the error: `ulps`, `nan_for_number`,
    /// `number_for_nan` or `invalid_code`.
    pub const fn kind(self) -> &'static str {
        match self {
            Wrong::Ulps(_) => "ulps",
            Wrong::NanForNumber => "nan_for_number",
            Wrong::NumberForNan => "number_for_nan",
            Wrong::InvalidCode => "invalid_code",
        }
    }
}

/// One entry that is not correctly rounded.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Mismatch {
    /// The input bit pattern.
    pub input: u16,
    /// The implementation's output bits.
    pub got: u16,
    /// The table's (correctly rounded) output bits.
    pub correct: u16,
    /// How far apart they are.
    pub wrong: Wrong,
}

impl Mismatch {
    /// Unbounded errors first, then the largest distance, then the lowest input.
    fn badness(&self) -> (u32, core::cmp::Reverse<u16>) {
        let d = match self.wrong {
            Wrong::Ulps(d) => d,
            _ => u32::MAX,
        };
        (d, core::cmp::Reverse(self.input))
    }
}

/// The position of every non-NaN bit pattern of `format` in the order of the
/// values, `−0` one step below `+0`; `None` for NaN patterns. Indexed by bit
/// pattern, [`Format::entries`] long.
pub fn ordinals(format: Format) -> Vec<Option<i64>> {
    let values: Vec<f64> = (0..format.entries() as u32)
        .map(|b| format.decode(b as u16))
        .collect();
    let mut codes: Vec<u16> = (0..format.entries() as u32)
        .map(|b| b as u16)
        .filter(|&b| !format.is_nan(b))
        .collect();
    codes.sort_by(|&a, &b| {
        let (va, vb) = (values[usize::from(a)], values[usize::from(b)]);
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

/// The comparison of an implementation's outputs with the table, on every
/// input of the format.
#[derive(Clone, Debug)]
pub struct Grade {
    /// The function graded.
    pub function: Function,
    /// The op graded: the function with its constants, and whether it is the derivative
    /// ([`Grade::against_op`]); `Op::from(function)` for [`Grade::new`] and [`Grade::against`].
    pub op: Op,
    /// The format graded.
    pub format: Format,
    /// The number of entries compared: [`Format::entries`].
    pub entries: usize,
    /// Every entry that is not correctly rounded, in input order.
    pub mismatches: Vec<Mismatch>,
    /// Entries where both are NaN with different bits (counted correct).
    pub nan_payloads_differ: usize,
}

impl Grade {
    /// Grades `got`, the implementation's output bits for every input of
    /// `format` in input bit-pattern order (one `u16` per entry; byte formats
    /// in the low byte), against the table of `activation`.
    ///
    /// # Errors
    ///
    /// [`MapError::MissingTable`] when the table is not compiled in (or cannot
    /// exist), [`MapError::LengthMismatch`] when `got` does not have
    /// [`Format::entries`] entries (`src` is `got`'s length, `dst` the
    /// format's).
    pub fn new(function: Function, format: Format, got: &[u16]) -> Result<Grade, MapError> {
        let table = function.table(format)?;
        LengthMismatch::check(got.len(), format.entries())?;
        Ok(Grade::against(
            function,
            format,
            table,
            &ordinals(format),
            got,
        ))
    }

    /// [`Grade::new`] with the table and the format's [`ordinals`] given (to
    /// grade many implementations without ranking the format's values each
    /// time).
    ///
    /// # Panics
    ///
    /// If `got` or `ordinals` is not as long as the table.
    pub fn against(
        function: Function,
        format: Format,
        table: TableRef,
        ordinals: &[Option<i64>],
        got: &[u16],
    ) -> Grade {
        Grade::against_op(Op::from(function), format, table, ordinals, got)
    }

    /// [`Grade::against`] for an [`Op`]: a function with constants (`softcap(cap=30)`) or a
    /// derivative, whose `table` is the op's (a built-in one, or one filled at run time by
    /// [`fill_table`](crate::fill_table)). The reports name the table `<op>_<format>` and take
    /// the exact values and midpoints of the op.
    ///
    /// # Panics
    ///
    /// As [`Grade::against`].
    pub fn against_op(
        op: Op,
        format: Format,
        table: TableRef,
        ordinals: &[Option<i64>],
        got: &[u16],
    ) -> Grade {
        assert_eq!(got.len(), table.entries(), "one output per table entry");
        assert_eq!(
            ordinals.len(),
            table.entries(),
            "one ordinal per table entry"
        );
        let mut mismatches = Vec::new();
        let mut nan_payloads_differ = 0;
        for (input, (&g, c)) in got.iter().zip(table.iter()).enumerate() {
            if g == c {
                continue;
            }
            let wrong = if usize::from(g) >= format.entries() {
                Wrong::InvalidCode
            } else {
                match (ordinals[usize::from(g)], ordinals[usize::from(c)]) {
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
            function: op.function(),
            op,
            format,
            entries: got.len(),
            mismatches,
            nan_payloads_differ,
        }
    }

    /// The table's name: `gelu_f16`, `softcap(cap=30)_bf16`, `gelu_derivative_bf16`.
    pub fn table_name(&self) -> String {
        format!("{}_{}", self.op, self.format.name())
    }

    /// The number of mismatches of kind `w` (for [`Wrong::Ulps`], of exactly
    /// that distance).
    pub fn count(&self, w: Wrong) -> usize {
        self.mismatches.iter().filter(|m| m.wrong == w).count()
    }

    /// The largest distance, `None` when some error is unbounded (a NaN for a
    /// number, the reverse, or an invalid code), `Some(0)` when all are right.
    pub fn max_ulp(&self) -> Option<u32> {
        self.mismatches.iter().try_fold(0, |acc, m| match m.wrong {
            Wrong::Ulps(d) => Some(acc.max(d)),
            _ => None,
        })
    }

    /// The largest distance between two numbers (0 when there is none).
    pub fn max_numeric_ulp(&self) -> u32 {
        self.mismatches
            .iter()
            .filter_map(|m| match m.wrong {
                Wrong::Ulps(d) => Some(d),
                _ => None,
            })
            .max()
            .unwrap_or(0)
    }

    /// Count of numeric mismatches by distance.
    pub fn histogram(&self) -> BTreeMap<u32, usize> {
        // Distances are below the format's number of entries: count them in
        // an array, then keep the distances that occur.
        let mut counts = vec![0usize; self.format.entries() + 1];
        for m in &self.mismatches {
            if let Wrong::Ulps(d) = m.wrong {
                counts[(d as usize).min(self.format.entries())] += 1;
            }
        }
        counts
            .iter()
            .enumerate()
            .filter(|&(_, &n)| n > 0)
            .map(|(d, &n)| (d as u32, n))
            .collect()
    }

    /// The `n` worst mismatches: unbounded errors first, then by distance,
    /// ties by the lowest input.
    pub fn worst(&self, n: usize) -> Vec<Mismatch> {
        self.worst_beyond(n, 0)
    }

    /// The `n` worst mismatches more than `beyond` ulps off (every unbounded
    /// one counts as beyond), in the order of [`Grade::worst`].
    pub fn worst_beyond(&self, n: usize, beyond: u32) -> Vec<Mismatch> {
        // The n worst so far, worst first: one pass, no copy of the mismatches.
        let mut top: Vec<Mismatch> = Vec::with_capacity(n.saturating_add(1).min(1024));
        for m in &self.mismatches {
            if matches!(m.wrong, Wrong::Ulps(d) if d <= beyond) || n == 0 {
                continue;
            }
            let b = m.badness();
            if top.len() == n && top.last().is_some_and(|last| b <= last.badness()) {
                continue;
            }
            let at = top.partition_point(|t| t.badness() > b);
            top.insert(at, *m);
            top.truncate(n);
        }
        top
    }

    /// How many wrong entries `tolerance` lets through: those whose output
    /// and correct output, as `f64`, pass [`Tolerance::accepts`]. A NaN for a
    /// number (or the reverse) and an invalid code never pass; `−0` for `+0`
    /// always does (their difference is 0).
    pub fn hidden_by(&self, tolerance: Tolerance) -> usize {
        self.hidden_by_each(&[tolerance])[0]
    }

    /// [`Grade::hidden_by`] of each tolerance, in one pass over the wrong
    /// entries.
    pub fn hidden_by_each(&self, tolerances: &[Tolerance]) -> Vec<usize> {
        let f = self.format;
        let mut counts = vec![0; tolerances.len()];
        for m in &self.mismatches {
            if let Wrong::Ulps(_) = m.wrong {
                let (got, correct) = (quick_value(f, m.got), quick_value(f, m.correct));
                for (n, t) in counts.iter_mut().zip(tolerances) {
                    *n += usize::from(t.accepts(f, got, correct));
                }
            }
        }
        counts
    }

    /// Where the exact value at `m`'s input lies among the format's rounding
    /// midpoints ([`actlut_core::midpoint_distance_op`]): `None` where NaN is due (or where
    /// the op cannot be evaluated, which a graded table's op always can).
    pub fn midpoint(&self, m: &Mismatch) -> Option<MidpointDistance> {
        actlut_core::midpoint_distance_op(&self.op, self.format, m.input)
            .ok()
            .flatten()
    }

    /// The report of `actlut ulp` (its text form), listing the `worst` worst
    /// inputs and the preset tolerances: [`Grade::text_with`] with
    /// [`ReportOptions::new`].
    pub fn text(&self, worst: usize) -> String {
        self.text_with(&ReportOptions::new(worst))
    }

    /// The report of `actlut ulp` (its text form): the counts, the maximum,
    /// the unbounded errors, how many wrong entries each tolerance of `opts`
    /// lets through, the histogram, and the worst inputs `opts` asks for, each
    /// with the exact value's distance from the nearest rounding midpoint.
    pub fn text_with(&self, opts: &ReportOptions) -> String {
        let mut s = String::new();
        let f = self.format;
        let _ = writeln!(
            s,
            "{}: {} of {} entries not correctly rounded",
            self.table_name(),
            self.mismatches.len(),
            self.entries
        );
        let _ = match self.max_ulp() {
            Some(d) => writeln!(s, "max error: {d} ulp{}", if d == 1 { "" } else { "s" }),
            None => writeln!(
                s,
                "max error: unbounded (a NaN or invalid code where a number is due, or the \
                 reverse); {} ulps at most among numbers",
                self.max_numeric_ulp()
            ),
        };
        let _ = writeln!(
            s,
            "NaN where a number is due: {}",
            self.count(Wrong::NanForNumber)
        );
        let _ = writeln!(
            s,
            "number where NaN is due: {}",
            self.count(Wrong::NumberForNan)
        );
        let invalid = self.count(Wrong::InvalidCode);
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
            self.nan_payloads_differ
        );
        if !self.mismatches.is_empty() && !opts.tolerances.is_empty() {
            let _ = writeln!(
                s,
                "wrong entries a tolerance would pass (|got - correct| <= atol + rtol*|correct|):"
            );
            let hidden = self.hidden_by_each(&opts.tolerances);
            for (&t, hidden) in opts.tolerances.iter().zip(hidden) {
                let (rtol, atol) = t.rtol_atol(f);
                let _ = writeln!(
                    s,
                    "  {} of {} pass {} (rtol {}, atol {})",
                    hidden,
                    self.mismatches.len(),
                    t.describe(f),
                    show_number(rtol),
                    show_number(atol)
                );
            }
        }
        let h = self.histogram();
        if !h.is_empty() {
            let _ = writeln!(s, "histogram (ulps: entries):");
            for (range, n) in text_buckets(&h) {
                let _ = writeln!(s, "  {range:>13}: {n}");
            }
        }
        let worst = self.worst_beyond(opts.worst, opts.beyond);
        if !worst.is_empty() {
            if opts.beyond == 0 {
                let _ = writeln!(s, "worst inputs:");
            } else {
                let _ = writeln!(s, "worst inputs beyond {}:", what(Wrong::Ulps(opts.beyond)));
            }
            for m in worst {
                let _ = writeln!(s, "  {}", self.line(&m));
            }
        }
        s
    }

    /// One line of the worst inputs: `input 0x3800 (5e-1): got 0x3e9b
    /// (1.6513671875e0), correct 0x3e98 (1.6484375e0), exact
    /// 1.6487212707001282e0 (0.27 ulp below a midpoint): 3 ulps`.
    pub fn line(&self, m: &Mismatch) -> String {
        let v = self.shown(m);
        let midpoint = if v.midpoint.is_empty() {
            String::new()
        } else {
            format!(" ({})", v.midpoint)
        };
        format!(
            "input {} ({}): got {} ({}), correct {} ({}), exact {}{midpoint}: {}",
            v.input,
            v.input_value,
            v.got,
            v.got_value,
            v.correct,
            v.correct_value,
            v.exact,
            what(m.wrong)
        )
    }

    /// The inputs and outputs of `m` as the reports show them: bit patterns
    /// in hexadecimal (`0x3c00`), values as the shortest decimal that
    /// round-trips (`1e0`, `-0`, `NaN`, `invalid code`), and the exact value.
    pub fn shown(&self, m: &Mismatch) -> Shown {
        let f = self.format;
        Shown {
            input: hex(f, m.input),
            input_value: value(f, m.input),
            got: hex(f, m.got),
            got_value: value(f, m.got),
            correct: hex(f, m.correct),
            correct_value: value(f, m.correct),
            exact: exact(self.op, f, m.input),
            midpoint: self.midpoint(m).map(show_midpoint).unwrap_or_default(),
        }
    }
}

/// A midpoint distance as the reports print it: `0.27 ulp below a midpoint`,
/// `3.1e-5 ulp above a midpoint`, `on a midpoint`.
fn show_midpoint(d: MidpointDistance) -> String {
    let a = d.ulps.abs();
    let side = if d.ulps < 0.0 { "below" } else { "above" };
    if a == 0.0 {
        "on a midpoint".to_string()
    } else if a.is_infinite() {
        format!("infinitely far {side} every midpoint")
    } else if a >= 0.01 {
        format!("{a:.2} ulp {side} a midpoint")
    } else {
        format!("{a:.1e} ulp {side} a midpoint")
    }
}

/// A [`Mismatch`] as text ([`Grade::shown`]): what the text report prints on
/// a line of the worst inputs, and the JSON report (`actlut_cli::ulp::json`)
/// in its `worst` list.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Shown {
    /// The input bit pattern in hexadecimal: `0x3c00`, `0x38` (at least two digits).
    pub input: String,
    /// The input's value.
    pub input_value: String,
    /// The implementation's output bits.
    pub got: String,
    /// The implementation's output value.
    pub got_value: String,
    /// The table's (correctly rounded) output bits.
    pub correct: String,
    /// The table's output value.
    pub correct_value: String,
    /// The reference value before rounding to the format (17 significant
    /// digits), or `NaN` where NaN is due.
    pub exact: String,
    /// Where the exact value lies among the rounding midpoints
    /// ([`Grade::midpoint`]): `0.27 ulp below a midpoint`, `3.1e-5 ulp above
    /// a midpoint`; empty where NaN is due.
    pub midpoint: String,
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

/// The reference value of `op` at the input, before rounding to the format
/// (the `f64` evaluation actlut's tables are rounded from, 17 significant
/// digits), or `NaN` where NaN is due.
fn exact(op: Op, format: Format, input: u16) -> String {
    let x = format.decode(input);
    match actlut_core::evaluate(op, x) {
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

/// The histogram as text: one line per distance when there are at most
/// [`TEXT_BUCKETS`] distances, otherwise 1, 2, then ranges between powers of
/// two (3–4, 5–8, …). The JSON report always gives every distance.
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The table of `function` over `format` as bits, with entry `i` moved `k`
    /// values up for each `(i, k)` (the chosen inputs have positive outputs,
    /// where bit patterns follow the values).
    #[cfg(all(feature = "gelu", feature = "bf16"))]
    fn planted(function: Function, format: Format, moves: &[(u16, u16)]) -> Vec<u16> {
        let mut got: Vec<u16> = function.table(format).unwrap().iter().collect();
        for &(i, k) in moves {
            got[usize::from(i)] += k;
        }
        got
    }

    /// `hidden_by` counts the planted errors that `|got − correct| ≤ atol +
    /// rtol·|correct|` passes, as counted here from `half`'s values: +3 ulps
    /// pass torch's bf16 tolerance (rtol 0.016) near the top of a binade
    /// (3·2^-8 relative) but not at its bottom (3·2^-7), +7 never do, and
    /// numpy's (rtol 1e-5) passes none; −0 for +0 passes every tolerance.
    #[test]
    #[cfg(all(feature = "gelu", feature = "bf16"))]
    fn hidden_by_counts_what_each_tolerance_passes() {
        use half::bf16;
        let f = Format::Bf16;
        // gelu(x) ≈ x for x ≥ 4: inputs at the bottom (1.0·2^k) and top (1.98·2^k) of binades.
        let moves = [
            (0x4080, 3), // 4.0
            (0x40FE, 3), // 7.94
            (0x4180, 3), // 16.0
            (0x41FE, 3), // 31.75
            (0x4100, 7), // 8.0
            (0x417E, 7), // 15.9
        ];
        let mut got = planted(Function::Gelu, f, &moves);
        got[0] = 0x8000; // −0 for gelu(+0) = +0
        let g = Grade::new(Function::Gelu, f, &got).unwrap();
        assert_eq!(g.mismatches.len(), 7);
        let table: Vec<u16> = Function::Gelu.table(f).unwrap().iter().collect();
        let value = |b: u16| bf16::from_bits(b).to_f64();
        let independent = |rtol: f64, atol: f64| {
            (0..got.len())
                .filter(|&i| got[i] != table[i])
                .filter(|&i| {
                    let (a, e) = (value(got[i]), value(table[i]));
                    (a - e).abs() <= atol + rtol * e.abs()
                })
                .count()
        };
        assert_eq!(g.hidden_by(Tolerance::Torch), independent(0.016, 1e-5));
        assert_eq!(
            g.hidden_by(Tolerance::Torch),
            3,
            "two +3 near a binade's top, and −0"
        );
        assert_eq!(g.hidden_by(Tolerance::Numpy), independent(1e-5, 1e-8));
        assert_eq!(g.hidden_by(Tolerance::Numpy), 1);
        let given = Tolerance::Given {
            rtol: 0.06,
            atol: 0.0,
        };
        assert_eq!(g.hidden_by(given), independent(0.06, 0.0));
        assert_eq!(g.hidden_by(given), 7);
        // The text report gives each count, the JSON report's numbers.
        let text = g.text(10);
        assert!(
            text.contains(
                "\n  3 of 7 pass assert_close's default bf16 tolerance (rtol 0.016, atol 1e-5)\n"
            ),
            "{text}"
        );
        assert!(
            text.contains(
                "\n  1 of 7 pass numpy.allclose's default tolerance (rtol 1e-5, atol 1e-8)\n"
            ),
            "{text}"
        );
    }

    /// `worst_beyond` keeps the n worst in one pass: the same list as sorting
    /// every mismatch, on errors of many distances (ties broken by the input).
    #[test]
    #[cfg(all(feature = "gelu", feature = "bf16"))]
    fn the_worst_are_those_a_full_sort_puts_first() {
        let f = Format::Bf16;
        let mut got: Vec<u16> = Function::Gelu.table(f).unwrap().iter().collect();
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..5000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let i = (state % 0x7F00) as usize; // positive inputs
            got[i] = got[i].wrapping_add((state >> 40) as u16 % 9).min(0x7F7F);
        }
        got[0x3F80] = 0x7FC0; // NaN for a number: unbounded, first
        let g = Grade::new(Function::Gelu, f, &got).unwrap();
        let mut all = g.mismatches.clone();
        all.sort_by_key(|m| core::cmp::Reverse(m.badness()));
        for n in [0, 1, 5, 10, 100, all.len(), all.len() + 3] {
            assert_eq!(g.worst(n), all[..n.min(all.len())], "n = {n}");
        }
        for beyond in [1, 4, 7] {
            let want: Vec<Mismatch> = all
                .iter()
                .filter(|m| !matches!(m.wrong, Wrong::Ulps(d) if d <= beyond))
                .take(10)
                .copied()
                .collect();
            assert_eq!(g.worst_beyond(10, beyond), want, "beyond {beyond}");
        }
        assert_eq!(g.worst(1)[0].wrong, Wrong::NanForNumber);
    }

    /// The quick conversion is `decode` on every pattern of f16 and bf16.
    #[test]
    fn quick_values_are_the_decoded_values() {
        for f in [Format::F16, Format::Bf16] {
            for b in 0..=u16::MAX {
                let (q, d) = (quick_value(f, b), f.decode(b));
                assert!(
                    q == d || (q.is_nan() && d.is_nan()),
                    "{} {b:#06x}",
                    f.name()
                );
                assert_eq!(
                    q.is_sign_negative(),
                    d.is_sign_negative(),
                    "{} {b:#06x}",
                    f.name()
                );
            }
        }
    }

    /// NaN never passes, an infinity only for itself; torch's default for a
    /// format without a dtype entry is exact.
    #[test]
    fn tolerances_pass_non_finite_values_only_when_equal() {
        let t = Tolerance::Given {
            rtol: 1.0,
            atol: 1.0,
        };
        assert!(!t.accepts(Format::F16, f64::NAN, f64::NAN));
        assert!(!t.accepts(Format::F16, f64::NAN, 1.0));
        assert!(t.accepts(Format::F16, f64::INFINITY, f64::INFINITY));
        assert!(!t.accepts(Format::F16, 65504.0, f64::INFINITY));
        assert!(!t.accepts(Format::F16, f64::INFINITY, 65504.0));
        assert!(t.accepts(Format::F16, 2.5, 2.0));
        assert_eq!(Tolerance::Torch.rtol_atol(Format::Fp8E4M3), (0.0, 0.0));
        assert!(Tolerance::Torch.accepts(Format::Fp8E4M3, -0.0, 0.0));
        assert!(!Tolerance::Torch.accepts(Format::Fp8E4M3, 1.125, 1.0));
        assert_eq!(
            Tolerance::Given {
                rtol: 0.01,
                atol: 0.0
            }
            .describe(Format::F16),
            "rtol=0.01, atol=0"
        );
    }

    /// Each listed input carries the exact value's distance from the nearest
    /// midpoint, from `actlut_core::midpoint_distance`; `beyond` lists only
    /// the larger errors.
    #[test]
    #[cfg(all(feature = "gelu", feature = "bf16"))]
    fn listed_inputs_carry_their_midpoint_distance() {
        let f = Format::Bf16;
        let got = planted(Function::Gelu, f, &[(0x4080, 3), (0x4100, 1)]);
        let g = Grade::new(Function::Gelu, f, &got).unwrap();
        for m in &g.mismatches {
            let d = actlut_core::midpoint_distance(Function::Gelu, f, m.input).unwrap();
            assert_eq!(g.midpoint(m), Some(d));
            assert!(g.line(m).contains(&show_midpoint(d)), "{}", g.line(m));
        }
        // gelu(8) = 8 − 8·Φ(−8), 5e-15 below a value of bf16: half an ulp from a midpoint.
        let m = g.mismatches.iter().find(|m| m.input == 0x4100).unwrap();
        assert!((g.midpoint(m).unwrap().ulps.abs() - 0.5).abs() < 1e-9);
        assert!(g.line(m).contains(" (0.50 ulp "), "{}", g.line(m));
        let opts = ReportOptions {
            beyond: 1,
            ..ReportOptions::new(10)
        };
        let text = g.text_with(&opts);
        assert!(
            text.contains("worst inputs beyond 1 ulp:\n  input 0x4080"),
            "{text}"
        );
        assert!(!text.contains("input 0x4100"), "{text}");
    }

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
