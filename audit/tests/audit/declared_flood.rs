//! Floods of declaration candidates: a known table's name field every few
//! bytes makes each a record whose marker was changed, until judged. Judging
//! one compares the known tables of that name with the bytes after it, in
//! place, and every byte compared is charged to the one budget: a crafted
//! flood is judged within it, or stops on it (a problem that says so).

use crate::common;

use actlut_audit::{Report, BUDGET_ALLOWANCE, BUDGET_PER_BYTE, FINDING_COST};
use actlut_codegen::compact::ENTRIES;
use actlut_codegen::record::{name_field, DECLARATION_BYTES, DECLARATION_NAME_AT};
use actlut_codegen::{Format, Function};

/// The most one step may spend past the budget before the next check (as
/// in `budget.rs`): one comparison of a whole 16-bit table with its finding,
/// or one block's probe.
const SLACK: u64 = 2 * ENTRIES as u64 + 40_000 + 2 * FINDING_COST + (1 << 20) * 8;

fn assert_within_budget(r: &Report, len: usize) {
    let budget = BUDGET_PER_BYTE * len as u64 + BUDGET_ALLOWANCE;
    assert!(
        r.compared <= budget + SLACK,
        "{} entries for a budget of {budget}",
        r.compared
    );
}

/// The result of a flood: judged, or stopped on the budget with its line.
fn judged_or_stopped(r: &Report) {
    if r.too_many {
        assert!(r.problems(&[]).contains(&r.stopped()));
    }
}

#[test]
fn a_flood_of_name_fields_every_32_bytes_is_judged_within_the_budget() {
    let mut unit = name_field("gelu_f16").expect("a name").to_vec();
    unit.resize(32, 0);
    let len = 4 << 20;
    let data: Vec<u8> = unit.iter().copied().cycle().take(len).collect();
    let r = common::index().scan(&data);
    assert_within_budget(&r, len);
    judged_or_stopped(&r);
    if !r.too_many {
        // Only the name field is a known table's: no record, no problem.
        assert!(r.declared.is_empty(), "{:?}", &r.declared[..1]);
        assert!(r.problems(&[]).is_empty(), "{:?}", r.problems(&[]));
    }
}

/// Each candidate is followed by the first `K` bytes of the table its name
/// field names: judging it compares them all before the first difference,
/// and the scan charges each byte compared. The same bytes without the name
/// fields naming no table (no candidates) are the baseline: the content search costs the
/// same in both.
#[test]
fn a_flood_of_name_fields_before_a_long_prefix_of_their_table_is_charged_every_byte_compared() {
    const K: usize = 60_000;
    const UNITS: usize = 8;
    let table = common::table_le(Function::Gelu, Format::F16);
    let flood = |named: bool| {
        let mut unit = vec![0u8; DECLARATION_BYTES];
        // No table is named `gelu_x16`: the same bytes but one, and no
        // candidate.
        let name = if named { "gelu_f16" } else { "gelu_x16" };
        unit[DECLARATION_NAME_AT..DECLARATION_NAME_AT + 32]
            .copy_from_slice(&name_field(name).expect("a name"));
        unit.extend_from_slice(&table[..K]);
        // The next candidate's first byte differs from the table's next one.
        assert_ne!(unit[0], table[K]);
        // 8 units, 481 KB. Against every table and stored form, the
        // content search alone spends about 147 entries per byte on them
        // (the words-layout compact forms share windows with the full
        // tables, so each cut-off copy of a table is also candidates of
        // them, each sampled), more than the 64 per byte of the budget: it
        // stops (a problem, which `judged_or_stopped` checks says so). The
        // index of gelu_f16 alone leaves the budget to what is measured
        // here, the comparisons of the candidates.
        unit.repeat(UNITS)
    };
    let index = actlut_audit::Index::new(vec![actlut_audit::Reference::generate(
        Function::Gelu,
        Format::F16,
    )]);
    let baseline = index.scan(&flood(false));
    let data = flood(true);
    let r = index.scan(&data);
    let full = common::index().scan(&data);
    assert_within_budget(&full, data.len());
    judged_or_stopped(&full);
    assert_within_budget(&r, data.len());
    judged_or_stopped(&r);
    // Cut copies of gelu_f16: problems, whatever else the scan says.
    assert!(!r.problems(&[]).is_empty());
    assert!(!baseline.too_many && !r.too_many);
    // A candidate is compared with a table only when a table's length of
    // bytes follows its record.
    let unit = DECLARATION_BYTES + K;
    let compared = (0..UNITS)
        .filter(|i| i * unit + DECLARATION_BYTES + table.len() <= data.len())
        .count() as u64;
    assert!(compared >= UNITS as u64 - 4);
    assert!(
        r.compared >= baseline.compared + compared * K as u64,
        "{} entries charged with {compared} candidates of {K} bytes compared each, {} without them",
        r.compared,
        baseline.compared
    );
}
