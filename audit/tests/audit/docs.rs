//! `docs/audit.md` holds the hiding-cost table the index derives, byte for
//! byte (regenerate it with `cargo run --release -p actlut-audit --example
//! hiding-costs`).

use actlut_audit::{markdown_table, ByteOrder, Index, Reference};

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

/// The README's audit section quotes the hiding costs: the least of a 16-bit
/// table in an ELF file, and the median, the most and silu_fp8_e4m3's of the
/// 8-bit tables, and the range of those another table nearly equals.
#[test]
fn the_readme_quotes_the_hiding_costs_the_index_derives() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md"))
        .expect("read README.md");
    let readme = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    let costs = Index::new(Reference::generate_all()).hiding_costs();
    let least16 = costs
        .iter()
        .filter(|c| c.entries == 65536 && c.order == ByteOrder::Little)
        .min_by_key(|c| c.hiding_cost)
        .unwrap();
    let bytes: Vec<_> = costs
        .iter()
        .filter(|c| c.order == ByteOrder::Bytes)
        .collect();
    let mut all: Vec<usize> = bytes.iter().map(|c| c.hiding_cost).collect();
    all.sort_unstable();
    let silu = bytes
        .iter()
        .find(|c| c.names[0] == "silu_fp8_e4m3")
        .unwrap();
    let close: Vec<usize> = bytes
        .iter()
        .filter(|c| c.substitute.is_some() && c.hiding_cost <= 12)
        .map(|c| c.hiding_cost)
        .collect();
    let wants = [
        format!(
            "at least {} changed entries for a 16-bit table ({};",
            least16.hiding_cost, least16.names[0]
        ),
        format!(
            "8-bit tables need a median of {} changed entries, up to {} (silu_fp8_e4m3: {}), but {} to {} where another table is that close",
            all[all.len() / 2],
            all[all.len() - 1],
            silu.hiding_cost,
            close.iter().min().unwrap(),
            close.iter().max().unwrap()
        ),
    ];
    for want in wants {
        assert!(readme.contains(&want), "README.md should say: {want}");
    }
}

/// docs/audit.md's cost section states the budget's allowance in whole
/// 16-bit tables: the constant's.
#[test]
fn the_docs_state_the_budget_allowance_of_the_code() {
    let docs = audit_md_words();
    let tables = actlut_audit::BUDGET_ALLOWANCE / 65_536;
    let want = format!("`BUDGET_ALLOWANCE` ({tables} whole 16-bit tables)");
    assert!(docs.contains(&want), "docs/audit.md must say {want}");
}

/// docs/audit.md's cost section states the op allowance in 16-bit tables.
#[test]
fn the_docs_state_the_op_allowance_of_the_code() {
    let docs = audit_md_words();
    let per = actlut_audit::ops::RECOMPUTE_COST_PER_ENTRY;
    let tables = actlut_audit::OP_ALLOWANCE / (65_536 * per);
    let words = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
    ];
    let want = format!(
        "`RECOMPUTE_COST_PER_ENTRY` ({per}) per entry computed, but for the first {} 16-bit tables' worth",
        words[tables as usize]
    );
    assert!(docs.contains(&want), "docs/audit.md must say {want}");
}

/// docs/audit.md's figures for near ops: the share, what it is of a 16-bit
/// and an 8-bit table, and the honest op it quotes.
#[test]
fn the_docs_state_the_near_op_share_and_its_example() {
    use actlut_codegen::{Format, Function};
    let docs = audit_md_words();
    let share = actlut_audit::NEAR_OP_SHARE;
    let want = format!(
        "fewer than one in {share} of its entries (`NEAR_OP_SHARE`: 1,{:03} of a 16-bit table, {} of an 8-bit one)",
        65_536 / share - 1_000,
        256 / share
    );
    assert!(docs.contains(&want), "docs/audit.md must say {want}");
    let op: actlut_codegen::Op = "situ(beta=8)".parse().unwrap();
    let situ = actlut_codegen::op_table(&op, Format::Fp8E4M3).unwrap();
    let silu = actlut_codegen::table(Function::Silu, Format::Fp8E4M3);
    let differ = situ.iter().zip(&silu).filter(|(a, b)| a != b).count();
    let want =
        format!("`situ(beta=8)_fp8_e4m3` is `silu_fp8_e4m3` but for {differ} of 256 entries");
    assert!(docs.contains(&want), "docs/audit.md must say {want}");
    assert!(differ > 256 / share, "an honest op nearer than the share");
}

/// docs/audit.md with its whitespace runs made single spaces (a sentence
/// may wrap anywhere).
fn audit_md_words() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/audit.md"))
        .expect("read docs/audit.md")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}
