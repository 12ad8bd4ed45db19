//! Prints the audit's hiding cost of every table (`Index::hiding_costs`):
//! the fewest entries an attacker must change so that a copy is not
//! reported, and what it is made of. `docs/audit.md` holds its output:
//!
//! ```text
//! cargo run --release -p actlut-audit --example hiding-costs > /tmp/costs.md
//! ```

use actlut_audit::{Index, Reference};

fn main() {
    let index = Index::new(Reference::generate_all());
    println!("| table | order | entries | distinctive | grams | surprises | to unfind | to disprove | to unmatch | **hiding cost** (ELF, wasm) | cheaper substitute | hiding cost (raw image) | cheaper substitute |");
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---|");
    for c in index.hiding_costs() {
        let sub = |s: &Option<(String, usize)>| {
            s.as_ref()
                .map_or("-".to_string(), |(n, d)| format!("{n}: {d}"))
        };
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | **{}** | {} | {} | {} |",
            c.names.join(" = "),
            c.order.short_name(),
            c.entries,
            c.distinctive,
            c.grams,
            c.surprises,
            c.to_unfind,
            c.to_disprove,
            c.to_unmatch,
            c.hiding_cost,
            sub(&c.substitute),
            c.hiding_cost_raw,
            sub(&c.substitute_raw)
        );
    }
}
