//! The lock: the committed manifest of expected table hashes (`tables/actlut.lock`).
//!
//! One line per table, whitespace-separated columns:
//!
//! ```text
//! # name        function  format  entries  bytes   sha256                                                            reference
//! gelu_f16      gelu      f16     65536    131072  1f0c...                                                           actlut-codegen 0.1.0
//! ```
//!
//! Lines starting with `#` and blank lines are ignored. The reference column is
//! the rest of the line.
//!
//! [`parse`] is the one reader of the lock, for the build script and the
//! `actlut` command alike, with one strictness: besides every line's syntax, a
//! UTF-8 byte order mark, a last line without its newline (a truncated file),
//! a reference column that differs between lines, and a missing table are all
//! errors.

use std::format;
use std::string::String;
use std::vec::Vec;

use crate::{Format, Function};

/// One line of the lock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The table's name, `<function>_<format>`.
    pub name: String,
    /// The function.
    pub function: Function,
    /// Whether the table is the function's derivative (its name and its function column
    /// then say `<function>_derivative`).
    pub derivative: bool,
    /// The format.
    pub format: Format,
    /// Number of entries (65,536 or 256).
    pub entries: usize,
    /// Number of bytes (131,072 or 256).
    pub bytes: usize,
    /// SHA-256 of the table's little-endian bytes.
    pub sha256: [u8; 32],
    /// The reference version that produced it.
    pub reference: String,
}

/// An error in a lock file: the line number (1-based) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

impl core::fmt::Display for ParseError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for ParseError {}

/// Parses a lock file's text. Every line is checked: the name must be
/// `<function>_<format>` of a known function and format, the sizes must be the
/// format's, the hash 64 hex digits, and no name may repeat. Then the whole:
///
/// - a UTF-8 byte order mark (BOM) is an error (line 1);
/// - the text must end with a newline: a last line without one is a file cut
///   short (an error on that line);
/// - every line must have the same reference column (a line cut short in its
///   last column, or edited);
/// - every table actlut can generate must have its line (see [`check_complete`]).
pub fn parse(text: &str) -> Result<Vec<Entry>, ParseError> {
    let out = parse_text(text)?;
    check_same_reference(text, &out, |e| &e.reference)?;
    check_complete(&out).map_err(|message| ParseError {
        line: text.lines().count().max(1),
        message,
    })?;
    Ok(out)
}

/// The checks of [`parse`] on the text and on each line on its own: no BOM,
/// a final newline, and every line well formed. Shared by every lock of the
/// crate (the table lock and the compact lock).
pub(crate) fn parse_text(text: &str) -> Result<Vec<Entry>, ParseError> {
    if text.starts_with('\u{FEFF}') {
        return Err(ParseError {
            line: 1,
            message: String::from(
                "the lock starts with a UTF-8 byte order mark (BOM): save it as UTF-8 without BOM",
            ),
        });
    }
    // Before the lines: a line cut short is reported as what it is.
    if !text.is_empty() && !text.ends_with('\n') {
        return Err(ParseError {
            line: text.lines().count(),
            message: String::from(
                "the last line does not end with a newline: the lock is truncated",
            ),
        });
    }
    parse_lines(text)
}

/// Every entry's reference (as `key` reads it) must be the first entry's: a
/// line cut short in its last column, or edited, is an error on its line.
pub(crate) fn check_same_reference(
    text: &str,
    entries: &[Entry],
    key: impl Fn(&Entry) -> &str,
) -> Result<(), ParseError> {
    if let Some(first) = entries.first()
        && let Some(odd) = entries.iter().find(|e| key(e) != key(first))
    {
        return Err(ParseError {
            line: line_of(text, &odd.name),
            message: format!(
                "{}: reference `{}` differs from `{}` of the other lines (a truncated or edited lock)",
                odd.name,
                key(odd),
                key(first)
            ),
        });
    }
    Ok(())
}

/// The 1-based line of the entry named `name`.
fn line_of(text: &str, name: &str) -> usize {
    text.lines()
        .position(|l| l.split_whitespace().next() == Some(name))
        .map_or(1, |i| i + 1)
}

/// Checks that `entries` has one entry for every table actlut can generate: a
/// lock that lost lines is an error, not a shorter list of allowed tables.
pub fn check_complete(entries: &[Entry]) -> Result<(), String> {
    let all = crate::builtin_tables().count();
    let missing: Vec<String> = crate::builtin_tables()
        .map(|(op, fo)| crate::op_table_name(&op, fo))
        .filter(|n| !entries.iter().any(|e| &e.name == n))
        .collect();
    match missing.len() {
        0 => Ok(()),
        n if n == all => Err(String::from("the lock has no entries")),
        n => Err(format!(
            "the lock is incomplete: {n} of {all} tables missing (first: {})",
            missing[0]
        )),
    }
}

/// The lines of a lock, each checked on its own (syntax, sizes, hash, no
/// repeated name), without the whole-file checks of [`parse`].
fn parse_lines(text: &str) -> Result<Vec<Entry>, ParseError> {
    let mut out: Vec<Entry> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let err = |message: String| ParseError {
            line: line_no,
            message,
        };
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let cols: Vec<&str> = trimmed.split_whitespace().collect();
        if cols.len() < 7 {
            return Err(err(format!(
                "expected 7 columns (name function format entries bytes sha256 reference), found {}",
                cols.len()
            )));
        }
        let (function_name, derivative) = match cols[1].strip_suffix("_derivative") {
            Some(name) => (name, true),
            None => (cols[1], false),
        };
        let function = Function::from_name(function_name)
            .ok_or_else(|| err(format!("unknown function `{}`", cols[1])))?;
        if !function.has_defaults() {
            return Err(err(format!(
                "`{}` has no built-in tables (a constant without default): the lock has no line for it",
                cols[1]
            )));
        }
        let format = Format::from_name(cols[2])
            .ok_or_else(|| err(format!("unknown format `{}`", cols[2])))?;
        let op = crate::Op::from(function).with_derivative(derivative);
        if derivative && !format.can_represent_derivative(function) {
            return Err(err(format!(
                "`{}` has no built-in table over {} (a derivative NaN where the format has none)",
                cols[1], cols[2]
            )));
        }
        let expected_name = crate::op_table_name(&op, format);
        if cols[0] != expected_name {
            return Err(err(format!(
                "table name `{}` does not match function `{}` and format `{}` (expected `{expected_name}`)",
                cols[0], cols[1], cols[2]
            )));
        }
        let entries: usize = cols[3]
            .parse()
            .map_err(|_| err(format!("entries `{}` is not a number", cols[3])))?;
        let bytes: usize = cols[4]
            .parse()
            .map_err(|_| err(format!("bytes `{}` is not a number", cols[4])))?;
        if entries != format.entries() || bytes != format.table_bytes() {
            return Err(err(format!(
                "{expected_name}: a {} table has {} entries and {} bytes, the lock says {entries} and {bytes}",
                format.name(),
                format.entries(),
                format.table_bytes()
            )));
        }
        let sha256 = parse_hex32(cols[5]).ok_or_else(|| {
            err(format!(
                "{expected_name}: sha256 `{}` is not 64 hex digits",
                cols[5]
            ))
        })?;
        if out.iter().any(|e| e.name == expected_name) {
            return Err(err(format!("{expected_name} appears twice")));
        }
        out.push(Entry {
            name: expected_name,
            function,
            derivative,
            format,
            entries,
            bytes,
            sha256,
            reference: cols[6..].join(" "),
        });
    }
    Ok(out)
}

/// Parses 64 hexadecimal digits.
pub fn parse_hex32(s: &str) -> Option<[u8; 32]> {
    if s.len() != 64 || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

/// Renders lock entries as the lock file's text, with its `@generated` header.
pub fn render(entries: &[Entry]) -> String {
    let mut s = String::new();
    s.push_str(concat!(
        "# ",
        "\x40generated by `cargo run --release -p actlut-codegen --example regenerate-lock`: do not edit.\n",
        "# The expected SHA-256 of every table actlut can generate, over its little-endian bytes.\n",
        "# Every build of actlut checks the tables it generates against these lines.\n",
        "# name function format entries bytes sha256 reference\n",
    ));
    for e in entries {
        s.push_str(&render_line(e));
    }
    s
}

/// One lock line, with its newline: the columns of every lock of the crate.
pub(crate) fn render_line(e: &Entry) -> String {
    format!(
        "{:<22} {:<12} {:<9} {:>6} {:>7} {} {}\n",
        e.name,
        op_column(e),
        e.format.name(),
        e.entries,
        e.bytes,
        crate::hex(&e.sha256),
        e.reference
    )
}

/// The function column of a lock line: the function's name, with `_derivative` for a
/// derivative table.
fn op_column(e: &Entry) -> String {
    if e.derivative {
        format!("{}_derivative", e.function.name())
    } else {
        String::from(e.function.name())
    }
}

/// Renders `tables/SHA256SUMS`: coreutils `sha256sum` lines for `<name>.bin` dumps.
pub fn render_sha256sums(entries: &[Entry]) -> String {
    let mut s = String::new();
    // The function tables, which `actlut dump` writes; the derivative tables' hashes are
    // in the lock.
    for e in entries.iter().filter(|e| !e.derivative) {
        s.push_str(&format!("{}  {}.bin\n", crate::hex(&e.sha256), e.name));
    }
    s
}

/// Generates every built-in table ([`crate::builtin_tables`]: every function and every
/// derivative over every format) and returns its lock entry. Slow in debug builds: millions of
/// evaluations.
pub fn generate_all() -> Vec<Entry> {
    let mut out = Vec::new();
    for (op, format) in crate::builtin_tables() {
        out.push(entry_for_op(
            &op,
            format,
            &crate::builtin_table(&op, format),
        ));
    }
    out
}

/// The lock entry of a generated function table.
pub fn entry_for(function: Function, format: Format, table: &[u16]) -> Entry {
    entry_for_op(&crate::Op::from(function), format, table)
}

/// The lock entry of a generated built-in table of `op` (a function with its default
/// constants, or its derivative).
pub fn entry_for_op(op: &crate::Op, format: Format, table: &[u16]) -> Entry {
    let bytes = crate::table_bytes_le(format, table);
    Entry {
        name: crate::op_table_name(op, format),
        function: op.function(),
        derivative: op.is_derivative(),
        format,
        entries: format.entries(),
        bytes: bytes.len(),
        sha256: crate::sha256(&bytes),
        reference: String::from(crate::REFERENCE_VERSION),
    }
}
