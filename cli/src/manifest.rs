//! `actlut manifest`: every table of this build, its hashes and definition.

use std::fmt::Write as _;

use actlut::manifest::{self, Table};
use actlut_codegen::compact_lock;

use crate::json::{json_list, json_str};
use crate::tables::compact_lock_entries;

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
        let _ = writeln!(
            s,
            "{{\n  \"reference\": {},\n  \"tables\": [",
            json_str(manifest::REFERENCE_VERSION)
        );
        for (i, t) in manifest::TABLES.iter().enumerate() {
            let _ = writeln!(
                s,
                "    {{\"name\": {}, \"function\": {}, \"format\": {}, \"entries\": {}, \"bytes\": {}, \
                 \"sha256\": \"{}\", \"stored_bytes\": {}, \"stored_sha256\": {}, \"definition\": {}, \
                 \"aliases\": {}}}{}",
                json_str(t.name),
                json_str(t.function.name()),
                json_str(t.format.name()),
                t.entries(),
                t.bytes(),
                t.sha256_hex(),
                stored(t).map_or("null".to_string(), |(n, _)| n.to_string()),
                stored(t).map_or("null".to_string(), |(_, h)| format!("\"{h}\"")),
                json_str(t.definition()),
                json_list(&aliases(t)),
                if i + 1 < manifest::TABLES.len() { "," } else { "" }
            );
        }
        s.push_str("  ]\n}\n");
        return s;
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
