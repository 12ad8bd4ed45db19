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

/// The text of the compact lock, `tables/actlut-compact.lock`.
pub fn compact_lock_text() -> String {
    std::fs::read_to_string(repo_file("tables/actlut-compact.lock"))
        .expect("read tables/actlut-compact.lock")
}

/// The lines of the compact lock: the stored-form hash of every 16-bit table.
pub fn compact_lock_entries() -> Vec<actlut_codegen::lock::Entry> {
    actlut_codegen::compact_lock::parse(&compact_lock_text())
        .expect("parse tables/actlut-compact.lock")
}
