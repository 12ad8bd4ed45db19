//! Prints the lock, `tables/actlut.lock`, as the reference evaluation computes
//! it here, to standard output: every function × every format.
//!
//! ```text
//! cargo run --release -p actlut-codegen --example print-lock | diff tables/actlut.lock -
//! ```
//!
//! With `--compact` it prints the compact lock of the bytes layout,
//! `tables/actlut-compact.lock`, and with `--compact-words` the one of the
//! words layout, `tables/actlut-compact-words.lock`:
//!
//! ```text
//! cargo run --release -p actlut-codegen --example print-lock -- --compact | diff tables/actlut-compact.lock -
//! cargo run --release -p actlut-codegen --example print-lock -- --compact-words | diff tables/actlut-compact-words.lock -
//! ```
//!
//! Reproducibility checks run it on other targets (among them wasm32-wasip1
//! under node) and diff its output against the committed lock.

use actlut_codegen::compact::Layout;
use actlut_codegen::compact_lock;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let layout = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        [] => None,
        ["--compact"] => Some(Layout::Bytes),
        ["--compact-words"] => Some(Layout::Words),
        _ => {
            eprintln!("usage: print-lock [--compact | --compact-words]");
            std::process::exit(2);
        }
    };
    match layout {
        Some(layout) => {
            let entries = compact_lock::generate_all(layout).unwrap_or_else(|e| panic!("{e}"));
            print!("{}", compact_lock::render(&entries, layout));
        }
        None => {
            let entries = actlut_codegen::lock::generate_all();
            print!("{}", actlut_codegen::lock::render(&entries));
        }
    }
}
