//! Prints the audit's hiding cost of every table (`Index::hiding_costs`) as
//! the Markdown table of `docs/audit.md`, which `audit/tests/audit/docs.rs` checks:
//!
//! ```text
//! cargo run --release -p actlut-audit --example hiding-costs
//! ```

use actlut_audit::{markdown_table, Index, Reference};

fn main() {
    let index = Index::new(Reference::generate_all());
    print!("{}", markdown_table(&index.hiding_costs()));
}
