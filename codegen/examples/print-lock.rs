//! Prints the lock, `tables/actlut.lock`, as the reference evaluation computes
//! it here, to standard output: every function × every format.
//!
//! ```text
//! cargo run --release -p actlut-codegen --example print-lock | diff tables/actlut.lock -
//! ```
//!
//! Reproducibility checks run it on other targets (among them wasm32-wasip1
//! under node) and diff its output against the committed lock.

fn main() {
    let entries = actlut_codegen::lock::generate_all();
    print!("{}", actlut_codegen::lock::render(&entries));
}
