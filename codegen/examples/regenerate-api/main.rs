//! Regenerates actlut's committed run-time API, `src/generated/` and
//! `tests/generated/api.rs`, from `Function::ALL × Format::ALL` (`api.rs` is the
//! generator):
//!
//! ```text
//! cargo run -p actlut-codegen --example regenerate-api
//! ```
//!
//! Run it after adding a function or a format, or after changing `api.rs`, and commit
//! the result: `codegen/tests/generated_api.rs` fails while the committed files differ
//! from what `api.rs` generates.

use std::path::Path;

mod api;

fn main() {
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
