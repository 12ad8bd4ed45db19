//! Regenerates `tables/actlut.lock` and `tables/SHA256SUMS` from the reference
//! evaluation (every function × every format), and `tables/actlut-compact.lock`,
//! the hashes of the compact stored forms of the 16-bit tables.
//!
//! ```text
//! cargo run --release -p actlut-codegen --example regenerate-lock
//! ```
//!
//! Run it only after a deliberate change of the reference math, and review the
//! diff: every changed line is a table whose bytes changed.

use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("tables");
    let entries = actlut_codegen::lock::generate_all();
    std::fs::write(
        root.join("actlut.lock"),
        actlut_codegen::lock::render(&entries),
    )
    .expect("write tables/actlut.lock");
    std::fs::write(
        root.join("SHA256SUMS"),
        actlut_codegen::lock::render_sha256sums(&entries),
    )
    .expect("write tables/SHA256SUMS");
    let compact = actlut_codegen::compact_lock::generate_all().unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(
        root.join("actlut-compact.lock"),
        actlut_codegen::compact_lock::render(&compact),
    )
    .expect("write tables/actlut-compact.lock");
    println!(
        "wrote {} entries and {} compact entries to {}",
        entries.len(),
        compact.len(),
        root.display()
    );
}
