//! An adversary that transforms instead of flipping entries: for each
//! transformation, applied with the fewest entry changes it needs, the
//! stated hiding cost must hold (fewer changes than the cost are reported),
//! whatever the audit's author thought of.
//!
//! - substitution by another known 8-bit table, at every shift that
//!   overlaps the copy (the attacker writes the table that changes the
//!   fewest entries intact over the copy; far off, over a part of it, it
//!   changes only that part);
//! - nesting: every 8-bit table with one entry changed, inside a copy of a
//!   16-bit table;
//! - byte order and the compact envelope: `rule.rs` (reported whatever the
//!   number of changes).

use crate::common;

use actlut_audit::{found_by_content, has_content, ByteOrder, Index, Reference};
use common::noise;

#[test]
#[ignore = "tens of seconds in debug: .ci/steps/30-audit.sh runs it in release (--include-ignored)"]
fn no_substitution_by_another_8_bit_table_at_any_shift_beats_the_stated_cost() {
    let refs = Reference::generate_all();
    let index = Index::new(refs.clone());
    let costs = index.hiding_costs();
    let small: Vec<&Reference> = refs
        .iter()
        .filter(|r| r.format.entries() == 256 && found_by_content(r.format) && has_content(r))
        .collect();
    let mut checked = 0;
    let mut cheapest = usize::MAX;
    for t in &small {
        let cost = costs
            .iter()
            .find(|c| c.order == ByteOrder::Bytes && c.names == t.names)
            .unwrap()
            .hiding_cost;
        for shift in -255i64..=255 {
            // U written intact at the copy's place + shift: the copy's
            // bytes become U's where they overlap (U's others lie outside
            // it, free). The one that changes the fewest entries at this shift.
            let at = 1000usize;
            let u_at = (at as i64 + shift) as usize;
            let changes = |u: &Reference| {
                let over = |j: &usize| (u_at..u_at + 256).contains(&(at + j));
                let differs = |j: &usize| u.bytes_le[at + j - u_at] != t.bytes_le[*j];
                (0..256).filter(over).filter(differs).count()
            };
            let others = small
                .iter()
                .filter(|u| shift != 0 || !std::ptr::eq(**u, *t));
            let mut best: Vec<_> = others.map(|u| (changes(u), u)).collect();
            best.sort_by_key(|c| c.0);
            checked += 1;
            // No change is no attack: the copy is intact.
            for &(changes, u) in best.iter().filter(|c| c.0 > 0 && c.0 < cost).take(1) {
                cheapest = cheapest.min(changes);
                let mut data = noise(3000, 17);
                data[at..at + 256].copy_from_slice(&t.bytes_le);
                data[u_at..u_at + 256].copy_from_slice(&u.bytes_le);
                // Fewer changes than the cost: the copy must be reported,
                // a problem at its place under its own name.
                let r = index.scan(&data);
                let problems = r.problems(&[]);
                let name = &t.names[0];
                assert!(
                    r.found.iter().any(|f| f.offset == at as u64
                        && f.names.contains(name)
                        && f.verdict != actlut_audit::Verdict::Intact),
                    "{name} turned into {} shifted {shift} with {changes} changes (cost {cost}) is hidden: {problems:?}",
                    u.names[0]
                );
            }
        }
    }
    assert_eq!(checked, small.len() * 511);
    assert!(
        cheapest <= 3,
        "the search reaches the cheap substitutions: {cheapest}"
    );
}

#[test]
#[ignore = "tens of seconds in debug: .ci/steps/30-audit.sh runs it in release (--include-ignored)"]
fn every_8_bit_table_with_one_change_nested_in_a_16_bit_copy_is_reported() {
    let index = common::index();
    let refs = index.references();
    let hosts: Vec<&Reference> = refs
        .iter()
        .filter(|r| ["mish_bf16", "gelu_f16", "tanh_bf16"].contains(&r.names[0].as_str()))
        .collect();
    assert_eq!(hosts.len(), 3);
    for (k, t) in refs
        .iter()
        .filter(|r| r.format.entries() == 256 && found_by_content(r.format) && has_content(r))
        .enumerate()
    {
        let host = hosts[k % 3];
        let mut copy = t.bytes_le.clone();
        copy[37] ^= 1;
        let mut data = noise(2000, k as u64);
        let at = data.len();
        data.extend_from_slice(&host.bytes_le);
        data.extend(noise(2000, k as u64 + 1));
        let place = at + 2 * 0x3C00 + k;
        data[place..place + 256].copy_from_slice(&copy);
        let r = index.scan(&data);
        assert!(
            r.found.iter().any(|f| f.offset == place as u64
                && f.names.contains(&t.names[0])
                && f.differing == 1),
            "{} inside {}: {:?}",
            t.names[0],
            host.names[0],
            r.problems(&[])
        );
    }
}
