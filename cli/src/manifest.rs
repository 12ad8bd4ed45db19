//! `actlut manifest`: every table of this build, its hashes and definition.

use std::fmt::Write as _;

use actlut::manifest::{self, Table};
use actlut_codegen::compact_lock;
use serde::Serialize;

use crate::output::to_json;
use crate::tables::compact_lock_entries;
use crate::{Io, Stop};

/// `actlut manifest [--json]`.
#[derive(clap::Args)]
#[command(
    about = "List every table: name, format, entries, bytes, SHA-256 and definition",
    long_about = "List every table: name, format, entries, bytes, SHA-256 (of the entries: the \
                  table's identity), then for each 16-bit table the size and SHA-256 of its \
                  compact stored form (what the `compact` feature embeds, \
                  tables/actlut-compact.lock; `-` for smaller tables), and the definition."
)]
pub(crate) struct Args {
    /// Print one JSON object: reference, and tables (each with name, function, format,
    /// entries, bytes, sha256, stored_bytes, stored_sha256, definition, aliases)
    #[arg(long)]
    json: bool,
}

/// Runs `actlut manifest`.
pub(crate) fn run(a: &Args, io: &mut Io) -> Result<u8, Stop> {
    io.emit(&manifest_text(a.json))?;
    Ok(0)
}

/// The object of `actlut manifest --json`.
#[derive(Serialize)]
struct Manifest {
    reference: &'static str,
    tables: Vec<Entry>,
}

/// One table of [`Manifest`].
#[derive(Serialize)]
struct Entry {
    name: &'static str,
    function: &'static str,
    format: &'static str,
    entries: usize,
    bytes: usize,
    sha256: String,
    /// The compact stored form's length, for a 16-bit table (null otherwise).
    stored_bytes: Option<usize>,
    /// The compact stored form's SHA-256, for a 16-bit table (null otherwise).
    stored_sha256: Option<String>,
    definition: &'static str,
    /// The other tables with the same bytes.
    aliases: Vec<String>,
}

/// The manifest as text, or as JSON with `json`.
pub(crate) fn manifest_text(json: bool) -> String {
    let mut s = String::new();
    let aliases = |t: &Table| -> Vec<String> { t.aliases().map(|a| a.name.to_string()).collect() };
    let compact = compact_lock_entries();
    // The compact stored form's length and SHA-256, for a 16-bit table.
    let stored = |t: &Table| -> Option<(usize, String)> {
        let e = compact.iter().find(|e| e.name == t.name)?;
        let len = compact_lock::stored_len(e)?;
        Some((len, actlut_codegen::hex(&e.sha256)))
    };
    if json {
        let tables = manifest::TABLES
            .iter()
            .map(|t| Entry {
                name: t.name,
                function: t.function.name(),
                format: t.format.name(),
                entries: t.entries(),
                bytes: t.bytes(),
                sha256: t.sha256_hex().to_string(),
                stored_bytes: stored(t).map(|(n, _)| n),
                stored_sha256: stored(t).map(|(_, h)| h),
                definition: t.definition(),
                aliases: aliases(t),
            })
            .collect();
        return to_json(
            &Manifest {
                reference: manifest::REFERENCE_VERSION,
                tables,
            },
            2,
        );
    }
    let _ = writeln!(
        s,
        "# {} tables, reference {}",
        manifest::TABLES.len(),
        manifest::REFERENCE_VERSION
    );
    let _ = writeln!(
        s,
        "# sha256: of the entries (the identity); stored, stored_sha256: the compact stored form"
    );
    let _ = writeln!(
        s,
        "# {:<20} {:<9} {:>7} {:>7} {:<64} {:>6} {:<64} definition",
        "name", "format", "entries", "bytes", "sha256", "stored", "stored_sha256"
    );
    for t in manifest::TABLES {
        let a = aliases(t);
        let note = if a.is_empty() {
            String::new()
        } else {
            format!("  [same bytes as {}]", a.join(", "))
        };
        let (len, sha) = stored(t).map_or(("-".to_string(), "-".to_string()), |(n, h)| {
            (n.to_string(), h)
        });
        let _ = writeln!(
            s,
            "{:<22} {:<9} {:>7} {:>7} {} {len:>6} {sha:<64} {}{note}",
            t.name,
            t.format.name(),
            t.entries(),
            t.bytes(),
            t.sha256_hex(),
            t.definition()
        );
    }
    s
}
