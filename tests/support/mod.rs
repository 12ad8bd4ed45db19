//! The one home of the helpers that the tests and benches share: a seeded
//! generator and what is drawn from it. A test file uses it with `mod support;`
//! (a bench, or a test of another crate of the workspace, with
//! `#[path = ".../tests/support/mod.rs"] mod support;`).

#![allow(dead_code)] // each user takes part of it

mod rng;
#[allow(unused_imports)] // each user takes part of it
pub use rng::{random_bytes, Rng};

/// A file of the repository by its path from the root (`tables/actlut.lock`),
/// found from the crate that runs the test (actlut, or a crate one folder
/// below it).
pub fn repo_file(path: &str) -> std::path::PathBuf {
    let mut dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    loop {
        let candidate = dir.join(path);
        if candidate.exists() {
            return candidate;
        }
        assert!(
            dir.pop(),
            "{path} is in no folder above {}",
            env!("CARGO_MANIFEST_DIR")
        );
    }
}

/// The lines of the table lock, `tables/actlut.lock`.
pub fn lock_entries() -> Vec<actlut_codegen::lock::Entry> {
    let text =
        std::fs::read_to_string(repo_file("tables/actlut.lock")).expect("read tables/actlut.lock");
    actlut_codegen::lock::parse(&text).expect("parse tables/actlut.lock")
}

/// The text of the compact lock of the bytes layout, `tables/actlut-compact.lock`.
pub fn compact_lock_text() -> String {
    compact_lock_text_of(actlut_codegen::compact::Layout::Bytes)
}

/// The text of the compact lock of `layout` (`tables/actlut-compact.lock` or
/// `tables/actlut-compact-words.lock`).
pub fn compact_lock_text_of(layout: actlut_codegen::compact::Layout) -> String {
    let file = format!("tables/{}", actlut_codegen::compact_lock::file_name(layout));
    std::fs::read_to_string(repo_file(&file)).unwrap_or_else(|e| panic!("read {file}: {e}"))
}

/// The lines of the compact lock of the bytes layout: the stored-form hash of
/// every 16-bit table.
pub fn compact_lock_entries() -> Vec<actlut_codegen::lock::Entry> {
    compact_lock_entries_of(actlut_codegen::compact::Layout::Bytes)
}

/// The lines of the compact lock of `layout`.
pub fn compact_lock_entries_of(
    layout: actlut_codegen::compact::Layout,
) -> Vec<actlut_codegen::lock::Entry> {
    actlut_codegen::compact_lock::parse(&compact_lock_text_of(layout), layout)
        .unwrap_or_else(|e| panic!("parse the {} compact lock: {e}", layout.name()))
}

/// The layout of the compact stored forms this build embeds: words with the
/// `compact-words` feature, bytes otherwise. (Other crates' tests include
/// this module too, without that feature.)
#[allow(unexpected_cfgs)]
pub const EMBEDDED_LAYOUT: actlut_codegen::compact::Layout = if cfg!(feature = "compact-words") {
    actlut_codegen::compact::Layout::Words
} else {
    actlut_codegen::compact::Layout::Bytes
};
