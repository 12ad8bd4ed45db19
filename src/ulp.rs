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
use actlut_core::{Format, Function};

/// The most distinct distances [`Grade::text`] lists one by one; with more,
/// it groups them between powers of two.
pub const TEXT_BUCKETS: usize = 16;

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
            function,
            format,
            entries: got.len(),
            mismatches,
            nan_payloads_differ,
        }
    }

    /// The table's name: `gelu_f16`.
    pub fn table_name(&self) -> String {
        format!("{}_{}", self.function.name(), self.format.name())
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
        self.histogram().keys().next_back().copied().unwrap_or(0)
    }

    /// Count of numeric mismatches by distance.
    pub fn histogram(&self) -> BTreeMap<u32, usize> {
        let mut h = BTreeMap::new();
        for m in &self.mismatches {
            if let Wrong::Ulps(d) = m.wrong {
                *h.entry(d).or_insert(0) += 1;
            }
        }
        h
    }

    /// The `n` worst mismatches: unbounded errors first, then by distance,
    /// ties by the lowest input.
    pub fn worst(&self, n: usize) -> Vec<Mismatch> {
        let mut w = self.mismatches.clone();
        w.sort_by_key(|m| core::cmp::Reverse(m.badness()));
        w.truncate(n);
        w
    }

    /// The report of `actlut ulp` (its text form), listing the `worst` worst
    /// inputs.
    pub fn text(&self, worst: usize) -> String {
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
        let h = self.histogram();
        if !h.is_empty() {
            let _ = writeln!(s, "histogram (ulps: entries):");
            for (range, n) in text_buckets(&h) {
                let _ = writeln!(s, "  {range:>13}: {n}");
            }
        }
        let worst = self.worst(worst);
        if !worst.is_empty() {
            let _ = writeln!(s, "worst inputs:");
            for m in worst {
                let v = self.shown(&m);
                let _ = writeln!(
                    s,
                    "  input {} ({}): got {} ({}), correct {} ({}), exact {}: {}",
                    v.input,
                    v.input_value,
                    v.got,
                    v.got_value,
                    v.correct,
                    v.correct_value,
                    v.exact,
                    what(m.wrong)
                );
            }
        }
        s
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
            exact: exact(self.function, f, m.input),
        }
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
fn exact(act: Function, format: Format, input: u16) -> String {
    let x = format.decode(input);
    match actlut_core::evaluate(act, x) {
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
