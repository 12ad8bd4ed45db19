//! `docs/audit.md` holds the hiding-cost table the index derives, byte for
//! byte (regenerate it with `cargo run --release -p actlut-audit --example
//! hiding-costs`).

use actlut_audit::{markdown_table, Index, Reference};

#[test]
fn the_hiding_cost_table_in_the_docs_is_the_one_the_index_derives() {
    let docs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/audit.md"))
        .expect("read docs/audit.md");
    let begin = "<!-- hiding-costs begin -->\n";
    let end = "<!-- hiding-costs end -->";
    let from = docs.find(begin).expect("the table's begin marker") + begin.len();
    let to = docs.find(end).expect("the table's end marker");
    let want = markdown_table(&Index::new(Reference::generate_all()).hiding_costs());
    assert!(
        docs[from..to] == want,
        "docs/audit.md's hiding costs are stale: regenerate them with \
         `cargo run --release -p actlut-audit --example hiding-costs`"
    );
}
