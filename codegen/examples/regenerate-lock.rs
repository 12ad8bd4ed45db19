//! Regenerates `tables/actlut.lock` and `tables/SHA256SUMS` from the reference
//! evaluation (every function × every format), and the compact locks,
//! `tables/actlut-compact.lock` and `tables/actlut-compact-words.lock`: the
//! hashes of the compact stored forms of the 16-bit tables in each layout.
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
    let mut compact = 0;
    for layout in actlut_codegen::compact::Layout::ALL {
        let lock =
            actlut_codegen::compact_lock::generate_all(layout).unwrap_or_else(|e| panic!("{e}"));
        let file = actlut_codegen::compact_lock::file_name(layout);
        std::fs::write(
            root.join(file),
            actlut_codegen::compact_lock::render(&lock, layout),
        )
        .unwrap_or_else(|e| panic!("write tables/{file}: {e}"));
        compact += lock.len();
    }
    println!(
        "wrote {} entries and {} compact entries (both layouts) to {}",
        entries.len(),
        compact,
        root.display()
    );
}
