//! Prints the lock, `tables/actlut.lock`, as the reference evaluation computes
//! it here, to standard output: every function × every format.
//!
//! ```text
//! cargo run --release -p actlut-codegen --example print-lock | diff tables/actlut.lock -
//! ```
//!
//! With `--compact` it prints the compact lock, `tables/actlut-compact.lock`:
//!
//! ```text
//! cargo run --release -p actlut-codegen --example print-lock -- --compact | diff tables/actlut-compact.lock -
//! ```
//!
//! Reproducibility checks run it on other targets (among them wasm32-wasip1
//! under node) and diff its output against the committed lock.

fn main() {
    if std::env::args().any(|a| a == "--compact") {
        let entries =
            actlut_codegen::compact_lock::generate_all().unwrap_or_else(|e| panic!("{e}"));
        print!("{}", actlut_codegen::compact_lock::render(&entries));
        return;
    }
    let entries = actlut_codegen::lock::generate_all();
    print!("{}", actlut_codegen::lock::render(&entries));
}
