//! The compact locks: the committed SHA-256 of every compact stored form, one
//! lock per layout ([`file_name`]): `tables/actlut-compact.lock` for the bytes
//! layout, which a build of actlut with its `compact` feature embeds, and
//! `tables/actlut-compact-words.lock` for the words layout, which it embeds
//! with `compact-words`. The build checks the stored forms it embeds against
//! the lock of their layout.
//!
//! The lines have the format of the table lock ([`crate::lock`]) and [`parse`]
//! reads them with its strictness (no BOM, a final newline, every line well
//! formed, one reference version, every 16-bit table present): the name, function, format, entries and
//! bytes columns are the logical table's (65,536 entries, 131,072 bytes), the
//! `sha256` column is the hash of the **stored form**, and the reference column
//! gives the stored form's length and layout before the reference version:
//!
//! ```text
//! gelu_bf16   gelu   bf16   65536  131072 <sha256 of the stored form> stored=6348 layout=bytes actlut-codegen 0.1.0
//! ```
//!
//! Every line of a lock has its layout ([`parse`] refuses a line of the other
//! one), so the two files cannot be swapped unnoticed.
//!
//! A table's identity stays the hash of its logical entries in
//! `tables/actlut.lock`; this file pins the output of the compaction, which
//! depends on the packing algorithm as well as on the table.

use std::format;
use std::string::String;
use std::vec::Vec;

use crate::compact::{compact, CompactError, Layout};
use crate::lock::{Entry, ParseError};
use crate::{Format, Function};

/// The layout actlut's `compact` feature embeds: the smallest one. Its
/// `compact-words` feature embeds [`Layout::Words`] instead.
pub const DEFAULT_LAYOUT: Layout = Layout::Bytes;

/// The file under `tables/` that holds the compact lock of `layout`:
/// `actlut-compact.lock` (bytes) or `actlut-compact-words.lock` (words).
pub const fn file_name(layout: Layout) -> &'static str {
    match layout {
        Layout::Bytes => "actlut-compact.lock",
        Layout::Words => "actlut-compact-words.lock",
    }
}

/// The stored form of `function` over the 16-bit `format` in `layout`:
/// compacted from the generated table and checked on all 65,536 inputs.
///
/// # Errors
///
/// [`CompactError`] naming the table if the compaction does not round-trip.
pub fn stored_form(
    function: Function,
    format: Format,
    layout: Layout,
) -> Result<Vec<u8>, CompactError> {
    let table = crate::table(function, format);
    stored_form_of(function, format, &table, layout)
}

/// The stored form of an already generated table (see [`stored_form`]).
///
/// # Errors
///
/// [`CompactError`] naming the table if the compaction does not round-trip.
pub fn stored_form_of(
    function: Function,
    format: Format,
    table: &[u16],
    layout: Layout,
) -> Result<Vec<u8>, CompactError> {
    let name = crate::table_name(function, format);
    Ok(compact(&name, table, layout)?.to_bytes())
}

/// The compact lock line of a stored form in `layout`.
pub fn entry_for(function: Function, format: Format, stored: &[u8], layout: Layout) -> Entry {
    Entry {
        name: crate::table_name(function, format),
        function,
        derivative: false,
        format,
        entries: format.entries(),
        bytes: format.table_bytes(),
        sha256: crate::sha256(stored),
        reference: format!(
            "stored={} layout={} {}",
            stored.len(),
            layout.name(),
            crate::REFERENCE_VERSION
        ),
    }
}

/// The layout a compact lock line records (`layout=L` in its reference
/// column), if it has a known one.
pub fn layout_of(entry: &Entry) -> Option<Layout> {
    let name = entry
        .reference
        .split_whitespace()
        .find_map(|w| w.strip_prefix("layout="))?;
    Layout::ALL.into_iter().find(|l| l.name() == name)
}

/// The stored length a compact lock line records (`stored=N` in its reference
/// column), if it has one.
pub fn stored_len(entry: &Entry) -> Option<usize> {
    entry
        .reference
        .split_whitespace()
        .find_map(|w| w.strip_prefix("stored="))
        .and_then(|n| n.parse().ok())
}

/// Whether actlut's `compact` feature stores the tables of `format` in the
/// compact form: every 16-bit format.
pub fn is_compacted(format: Format) -> bool {
    crate::emit::is_16_bit(format)
}

/// Compacts every 16-bit table in `layout` and returns its compact lock line.
///
/// # Errors
///
/// The first [`CompactError`], naming its table.
pub fn generate_all(layout: Layout) -> Result<Vec<Entry>, CompactError> {
    crate::table_pairs()
        .filter(|&(_, format)| is_compacted(format))
        .map(|(function, format)| {
            stored_form(function, format, layout).map(|s| entry_for(function, format, &s, layout))
        })
        .collect()
}

/// Renders compact lock entries as the text of the lock of `layout`
/// ([`file_name`]), with its `@generated` header.
pub fn render(entries: &[Entry], layout: Layout) -> String {
    let mut s = String::from(concat!(
        "# ",
        "\x40generated by `cargo run --release -p actlut-codegen --example regenerate-lock`: do not edit.\n",
    ));
    s.push_str(match layout {
        Layout::Bytes => {
            "# The expected SHA-256 of every compact stored form (the `compact` feature of actlut).\n"
        }
        Layout::Words => concat!(
            "# The expected SHA-256 of every compact stored form in the words layout (the\n",
            "# `compact-words` feature of actlut).\n"
        ),
    });
    s.push_str(concat!(
        "# Columns as in actlut.lock: name, function, format, entries and bytes of the logical\n",
        "# table; sha256 of the stored form; its length and layout, then the reference version.\n",
        "# name function format entries bytes sha256 reference\n",
    ));
    for e in entries {
        s.push_str(&crate::lock::render_line(e));
    }
    s
}

/// Parses the compact lock of `layout` ([`file_name`]) with the strictness of
/// [`crate::lock::parse`]: a BOM, a last line without its newline, a bad line,
/// a line of another layout, a reference version that differs between lines
/// (the words after `stored=` and `layout=`, which differ from table to
/// table) or a missing 16-bit table is an error.
///
/// # Errors
///
/// [`ParseError`] naming the line and the problem.
pub fn parse(text: &str, layout: Layout) -> Result<Vec<Entry>, ParseError> {
    let entries = crate::lock::parse_text(text)?;
    for e in &entries {
        if stored_len(e).is_none() || !is_compacted(e.format) {
            return Err(ParseError {
                line: line_of(text, &e.name),
                message: format!(
                    "{}: not a compact lock line (a 16-bit table with `stored=N layout=L` before its reference)",
                    e.name
                ),
            });
        }
        if layout_of(e) != Some(layout) {
            return Err(ParseError {
                line: line_of(text, &e.name),
                message: format!(
                    "{}: not a line of the {} layout's compact lock ({})",
                    e.name,
                    layout.name(),
                    e.reference
                ),
            });
        }
    }
    crate::lock::check_same_reference(text, &entries, version_of)?;
    let missing: Vec<String> = crate::table_pairs()
        .filter(|&(_, f)| is_compacted(f))
        .map(|(fu, fo)| crate::table_name(fu, fo))
        .filter(|n| !entries.iter().any(|e| &e.name == n))
        .collect();
    if let Some(first) = missing.first() {
        return Err(ParseError {
            line: text.lines().count().max(1),
            message: format!(
                "the compact lock is incomplete: {} stored forms missing (first: {first})",
                missing.len()
            ),
        });
    }
    Ok(entries)
}

/// The reference version of a compact lock line: its reference column without
/// the per-table `stored=` and `layout=` words.
fn version_of(e: &Entry) -> &str {
    let r = e.reference.as_str();
    let mut rest = r;
    for _ in 0..2 {
        let t = rest.trim_start();
        if t.starts_with("stored=") || t.starts_with("layout=") {
            rest = t.split_once(' ').map_or("", |(_, tail)| tail);
        }
    }
    rest.trim_start()
}

/// The 1-based line of the entry named `name`.
fn line_of(text: &str, name: &str) -> usize {
    text.lines()
        .position(|l| l.split_whitespace().next() == Some(name))
        .map_or(1, |i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn committed(layout: Layout) -> String {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tables")
            .join(file_name(layout));
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    #[test]
    fn both_committed_compact_locks_parse_and_cover_every_16bit_table() {
        for layout in Layout::ALL {
            let entries = parse(&committed(layout), layout).unwrap();
            let want = crate::table_pairs()
                .filter(|&(_, f)| is_compacted(f))
                .count();
            assert_eq!(entries.len(), want, "{}", file_name(layout));
            assert!(
                entries
                    .iter()
                    .all(|e| version_of(e) == crate::REFERENCE_VERSION
                        && layout_of(e) == Some(layout))
            );
        }
    }

    #[test]
    fn a_lock_read_as_the_other_layouts_or_with_one_line_of_it_is_an_error() {
        let (bytes, words) = (committed(Layout::Bytes), committed(Layout::Words));
        let e = parse(&bytes, Layout::Words).unwrap_err();
        assert!(e.message.contains("words layout"), "{e}");
        let e = parse(&words, Layout::Bytes).unwrap_err();
        assert!(e.message.contains("bytes layout"), "{e}");
        // One words line in the bytes lock: the same name, the other hash.
        let line = |text: &str| {
            text.lines()
                .find(|l| l.starts_with("gelu_f16 "))
                .unwrap()
                .to_string()
        };
        let mixed = bytes.replacen(&line(&bytes), &line(&words), 1);
        let e = parse(&mixed, Layout::Bytes).unwrap_err();
        assert!(
            e.message.starts_with("gelu_f16: not a line of the bytes"),
            "{e}"
        );
        assert_eq!(e.line, line_of(&mixed, "gelu_f16"));
    }

    #[test]
    fn a_bom_a_cut_line_another_version_or_a_lost_line_is_an_error() {
        for layout in Layout::ALL {
            let good = committed(layout);
            let bom = parse(&format!("\u{FEFF}{good}"), layout).unwrap_err();
            assert!(bom.message.contains("BOM"), "{bom}");
            let cut = parse(&good[..good.len() - 1], layout).unwrap_err();
            assert!(cut.message.contains("truncated"), "{cut}");
            let last = good.lines().last().unwrap();
            let other = good.replacen(
                &format!("{}\n", last),
                &format!(
                    "{}\n",
                    last.replace(crate::REFERENCE_VERSION, "actlut-codegen 9.9.9")
                ),
                1,
            );
            let e = parse(&other, layout).unwrap_err();
            assert!(e.message.contains("differs"), "{e}");
            let lost = good.replacen(&format!("{}\n", last), "", 1);
            let e = parse(&lost, layout).unwrap_err();
            assert!(e.message.contains("incomplete"), "{e}");
        }
    }
}
