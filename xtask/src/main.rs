//! actlut's development tasks, run as `cargo xtask <task>` (the alias of
//! `.cargo/config.toml`):
//!
//! ```text
//! cargo xtask regenerate-api   write src/generated/ and tests/generated/api.rs
//! ```
//!
//! `regenerate-api` writes actlut's committed run-time API from `Function::ALL ×
//! Format::ALL` ([`api`] is the generator). Run it after adding a function or a format, or
//! after changing the generator, and commit the result: `xtask/tests/generated_api.rs` fails
//! while the committed files differ from what the generator writes.

use std::path::Path;
use std::process::ExitCode;

mod api;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["regenerate-api"] => {
            regenerate_api();
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("usage: cargo xtask regenerate-api");
            ExitCode::from(2)
        }
    }
}

/// Writes every generated file that differs from what is committed.
fn regenerate_api() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for (path, text) in api::generate() {
        let file = root.join(path);
        if std::fs::read_to_string(&file).is_ok_and(|old| old == text) {
            continue;
        }
        std::fs::create_dir_all(file.parent().expect("a file has a folder"))
            .unwrap_or_else(|e| panic!("cannot create the folder of {path}: {e}"));
        std::fs::write(&file, text).unwrap_or_else(|e| panic!("cannot write {path}: {e}"));
        println!("wrote {path}");
    }
}
