//! The committed generated API (`src/generated/`, `tests/generated/api.rs`) is what its
//! generator writes today: a change of `Function::ALL`, `Format::ALL` or the generator
//! without `cargo xtask regenerate-api` fails here.

#[path = "../src/api.rs"]
#[allow(dead_code)]
mod api;

use std::path::Path;

#[test]
fn committed_generated_files_equal_a_fresh_generation() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut stale = Vec::new();
    for (path, text) in api::generate() {
        match std::fs::read_to_string(root.join(path)) {
            Ok(committed) if committed == text => {}
            Ok(committed) => {
                let line = committed
                    .lines()
                    .zip(text.lines())
                    .position(|(a, b)| a != b)
                    .unwrap_or(committed.lines().count().min(text.lines().count()));
                stale.push(format!("{path}: differs from line {}", line + 1));
            }
            Err(e) => stale.push(format!("{path}: {e}")),
        }
    }
    assert!(
        stale.is_empty(),
        "the committed generated files are stale:\n  {}\n\
         regenerate them with `cargo xtask regenerate-api` and commit",
        stale.join("\n  ")
    );
}

#[test]
fn every_generated_file_opens_with_its_regenerate_command() {
    for (path, text) in api::generate() {
        let first = text.lines().next().unwrap_or_default();
        assert!(
            first.starts_with("// \x40generated") && first.contains("cargo xtask regenerate-api"),
            "{path}: {first}"
        );
    }
}
