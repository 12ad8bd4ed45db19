//! An adaptive attacker against the audit, as it was attacked: run the
//! audit, break whatever evidence of the table it still matched, repeat.
//! The attacker knows the source: which windows the index holds for the
//! table (`Index::windows`), and so which of them its changes have broken.
//!
//! The claim tested: the audit reports the table until the attack has
//! changed at least the table's stated hiding cost (`Index::hiding_costs`).
//! CI runs every 16-bit table in one byte order and every 8-bit table; the
//! ignored test runs both byte orders and a slower attack (one change per
//! round, each after a new audit).

use crate::common;

use std::collections::BTreeSet;
use std::sync::OnceLock;

use actlut_audit::{
    fewest_to_break, stab, ByteOrder, HidingCost, Index, Reference, Verdict, Windows,
};
use common::noise;

fn index() -> &'static Index {
    static INDEX: OnceLock<Index> = OnceLock::new();
    INDEX.get_or_init(|| Index::new(Reference::generate_all()))
}

/// The table's bytes as stored in `order`.
fn image(r: &Reference, order: ByteOrder) -> Vec<u8> {
    match order {
        ByteOrder::Big => r
            .bytes_le
            .chunks_exact(2)
            .flat_map(|c| [c[1], c[0]])
            .collect(),
        _ => r.bytes_le.clone(),
    }
}

/// What an attack did: the changes it made, and whether the audit still
/// reported the table after them (under its name, or as a modified copy of
/// another table over its place: exit 1 either way).
struct Outcome {
    changed: usize,
    reported: bool,
    rounds: usize,
}

/// Attacks the copy of `w`'s table at `at` in `data` until `index`'s audit
/// no longer reports it or `max_changes` entries are changed. Each round
/// runs the audit; if it still reports the table, the attacker takes the
/// windows that are still in place (grams, or surprises: whichever needs
/// fewer changes to break; an 8-bit table's features), and changes the
/// entries that meet the most of them (the greedy stabbing points; for
/// features, an optimal set: `fewest_to_break`), `per_round` at most, by one
/// unit in the last place (the binary still runs, with wrong results). When
/// the audit reports the copy as another table, modified (the changes made
/// it closer to that one, or to a table a byte away), the attacker breaks
/// that table's windows next, where it lies, until `enough` entries are
/// changed: the claim tested is only that fewer do not hide the copy.
#[allow(clippy::too_many_arguments)]
fn attack(
    index: &Index,
    w: &Windows,
    data: &mut [u8],
    at: usize,
    max_changes: usize,
    first_round: usize,
    per_round: usize,
    enough: usize,
) -> Outcome {
    let len = w.entries * w.unit;
    // Changed bytes (absolute), and the entries of the copy they are in.
    let mut bytes: BTreeSet<usize> = BTreeSet::new();
    let mut changed: BTreeSet<usize> = BTreeSet::new();
    let all = index.windows();
    let mut rounds = 0;
    loop {
        rounds += 1;
        let report = index.scan(data);
        // Reported: under its name, or as a modified copy of another table
        // over its place (exit 1 all the same). Turned into another table
        // intact, it is hidden: the hiding cost counts that as a substitute.
        let own = report
            .found
            .iter()
            .find(|f| f.offset == at as u64 && f.order == w.order && f.names[0] == w.name);
        let other = report.found.iter().find(|f| {
            let over = (f.offset as usize) < at + len && at < f.offset as usize + f.len;
            over && f.verdict != Verdict::Intact
        });
        if own.is_none() && changed.len() >= enough {
            return Outcome {
                changed: changed.len(),
                reported: false,
                rounds,
            };
        }
        let Some(f) = own.or(other) else {
            return Outcome {
                changed: changed.len(),
                reported: false,
                rounds,
            };
        };
        if changed.len() >= max_changes {
            return Outcome {
                changed: changed.len(),
                reported: true,
                rounds,
            };
        }
        let (t, base) = if f.names[0] == w.name && f.order == w.order {
            (w, at)
        } else {
            let t = all
                .iter()
                .find(|x| x.name == f.names[0] && x.order == f.order)
                .unwrap();
            (t, f.offset as usize - f.form_offset)
        };
        // Whether entry `j` of the target is changed.
        let hit = |j: usize| {
            bytes
                .range(base + j * t.unit..base + (j + 1) * t.unit)
                .next()
                .is_some()
        };
        let live = |windows: &[(usize, usize)]| -> Vec<(usize, usize)> {
            windows
                .iter()
                .copied()
                .filter(|&(a, b)| (a..=b).all(|j| !hit(j)))
                .collect()
        };
        let mut points = Vec::new();
        if t.features.is_empty() {
            let grams = live(&t.grams);
            let surprises = live(&t.surprises);
            let pairs = live(&t.pairs);
            // Break whichever is cheaper to bring under what the audit
            // needs: its grams, or its evidence (surprises and pair grams
            // both).
            let cost = |v: &[(usize, usize)], needed: usize| {
                stab(&mut v.to_vec()).saturating_sub(needed - 1)
            };
            let evidence_cost =
                cost(&surprises, t.surprises_needed).max(cost(&pairs, t.pairs_needed));
            let mut target = if cost(&grams, t.grams_needed) <= evidence_cost {
                grams
            } else {
                surprises.into_iter().chain(pairs).collect()
            };
            // The greedy stabbing points of the target, in order.
            target.sort_unstable_by_key(|&(a, b)| (b, a));
            let mut last = None;
            for &(a, b) in &target {
                if last.is_none_or(|p| p < a) {
                    last = Some(b);
                    points.push(b);
                }
            }
        } else {
            // A feature is in place while both its entries are.
            let features: Vec<(usize, usize)> = t
                .features
                .iter()
                .copied()
                .filter(|&(a, b)| !hit(a) && !hit(b))
                .collect();
            points = fewest_to_break(&features, t.features_needed - 1);
        }
        if points.is_empty() {
            // Nothing left of the windows, yet reported (on what an entry
            // count or a byte-shifted copy still matches): change entries
            // not changed yet, in order.
            points = (0..t.entries).filter(|&j| !hit(j)).collect();
        }
        let room = max_changes - changed.len();
        // The first round stops one short of the hiding cost (the claim is
        // that the table is still reported then); later rounds take
        // `per_round`.
        let take = if rounds == 1 { first_round } else { per_round };
        for &j in points.iter().take(take.min(room)) {
            let low = if t.order == ByteOrder::Big {
                t.unit - 1
            } else {
                0
            };
            let byte = base + j * t.unit + low;
            data[byte] ^= 1;
            bytes.insert(byte);
            if (at..at + len).contains(&byte) {
                changed.insert((byte - at) / w.unit);
            }
        }
    }
}

/// The first bytes of a 64-bit ELF file that declares `order` (the audit
/// reads only its byte order), then noise.
fn elf_like(order: ByteOrder, len: usize, seed: u64) -> Vec<u8> {
    let mut data = noise(len, seed);
    let ei_data = if order == ByteOrder::Big { 2 } else { 1 };
    data[..6].copy_from_slice(&[0x7F, b'E', b'L', b'F', 2, ei_data]);
    data
}

/// The reference of the table named `name` in `index`.
fn reference<'a>(index: &'a Index, name: &str) -> &'a Reference {
    index
        .references()
        .iter()
        .find(|r| r.names[0] == name)
        .unwrap()
}

/// A little-endian ELF-like file of `noise_len` bytes, `table`, and as much
/// noise again: the table lies at `noise_len`.
fn elf_with(table: &[u8], noise_len: usize, seed: u64) -> Vec<u8> {
    let mut data = elf_like(ByteOrder::Little, noise_len, seed);
    data.extend_from_slice(table);
    data.extend(noise(noise_len, seed + 1));
    data
}

/// The hiding cost of `w`'s image.
fn cost_of<'a>(costs: &'a [HidingCost], w: &Windows) -> &'a HidingCost {
    costs
        .iter()
        .find(|c| c.names[0] == w.name && c.order == w.order)
        .unwrap()
}

/// Attacks every table image of `orders` (and every 8-bit one), in a file
/// that declares its byte order (`elf`) or in a raw image, and checks that
/// none is hidden by fewer changes than its hiding cost there.
fn run(orders: &[ByteOrder], elf: bool, bytes_too: bool, per_round: fn(usize) -> usize) {
    let index = index();
    let costs = index.hiding_costs();
    let mut lines = Vec::new();
    for w in index.windows() {
        if !(orders.contains(&w.order) || bytes_too && w.order == ByteOrder::Bytes) {
            continue;
        }
        let c = cost_of(&costs, &w);
        let bytes = image(reference(index, &w.name), w.order);
        let at = 1000 + (c.entries % 7);
        let (mut data, cost) = if elf {
            (elf_like(w.order, at, c.entries as u64), c.hiding_cost)
        } else {
            (noise(at, c.entries as u64), c.hiding_cost_raw)
        };
        data.extend_from_slice(&bytes);
        data.extend(noise(1000, 3));
        let first = cost.saturating_sub(1).max(1);
        // Later rounds in steps of the ELF cost: in a raw image the copy's
        // own report goes only as slowly as in an ELF file, whatever its
        // substitute costs.
        let step = per_round(c.hiding_cost.max(cost));
        let out = attack(index, &w, &mut data, at, usize::MAX, first, step, cost);
        assert!(
            out.changed >= cost,
            "{} ({:?}): the attack hid it with {} changes, under the stated hiding cost {}",
            w.name,
            w.order,
            out.changed,
            cost
        );
        let line = format!(
            "{:<24} {:>2}  hiding cost {:>5}  hidden after {:>5} changes in {:>3} rounds",
            w.name,
            w.order.short_name(),
            cost,
            out.changed,
            out.rounds
        );
        lines.push(line);
    }
    println!("{}", lines.join("\n"));
}

/// Every 16-bit table (little-endian in an ELF-like file, big-endian in a raw
/// image) and every 8-bit table: the first round changes one entry fewer
/// than the hiding cost (the table must still be reported), later rounds
/// break what is left, a few audits a table.
#[test]
#[ignore = "tens of seconds in debug: .ci/steps/30-audit.sh runs it in release (--include-ignored)"]
fn the_adaptive_attack_needs_at_least_the_hiding_cost_of_every_table() {
    run(&[ByteOrder::Little], true, true, |cost| cost.max(1));
    run(&[ByteOrder::Big], false, false, |cost| cost.max(1));
}

/// The same in both byte orders, with an audit after every tenth of what is
/// left (slower: `cargo test --release -p actlut-audit --test audit
/// adaptive:: -- --ignored`).
#[test]
#[ignore = "minutes: both byte orders, smaller steps"]
fn the_adaptive_attack_in_small_steps_needs_at_least_the_hiding_cost() {
    for elf in [true, false] {
        run(&[ByteOrder::Little, ByteOrder::Big], elf, elf, |cost| {
            (cost / 10).max(1)
        });
    }
}

/// The evasions that hid tables from the earlier audit, rebuilt by
/// the same attack with the same number of changed entries, in a
/// little-endian ELF-like file: each table is still reported, as modified,
/// and the audit has a problem (exit status 1).
#[test]
fn the_evasions_that_hid_tables_before_are_reported_now() {
    let index = index();
    for (name, changes) in [
        ("elu_bf16", 59),
        ("tanh_bf16", 65),
        ("gelu_bf16", 104),
        ("silu_fp8_e4m3", 38),
    ] {
        let w = index
            .windows()
            .into_iter()
            .find(|w| w.name == name && w.order != ByteOrder::Big)
            .unwrap();
        let mut data = elf_with(&reference(index, name).bytes_le, 5000, 1);
        let out = attack(index, &w, &mut data, 5000, changes, changes, 1, changes);
        assert_eq!(out.changed, changes, "{name}");
        assert!(out.reported, "{name}: hidden by {changes} changes");
        let report = index.scan(&data);
        assert!(
            report
                .problems(&[])
                .iter()
                // Under its name, or every name of its bytes (`elu_bf16 = celu_bf16`).
                .any(|p| (p.starts_with(&format!("{name} at "))
                    || p.starts_with(&format!("{name} = ")))
                    && p.contains(&format!(" at 0x00001388: modified: {changes} of"))),
            "{name}: {:?}",
            report.problems(&[])
        );
    }
}

/// The test above has teeth: against an audit that asks every candidate for
/// two more gram hits, surprises, pairs or features than the hiding costs
/// assume (`Index::weakened`), the same attack hides 8-bit tables with one
/// change fewer than their stated hiding cost, so that test would fail. (Tables
/// with a close relative, such as `silu_fp8_e4m3` and `gelu_quick_fp8_e4m3`,
/// stay reported, as a modified copy of the relative.)
#[test]
#[ignore = "tens of seconds in debug: .ci/steps/30-audit.sh runs it in release (--include-ignored)"]
fn the_adaptive_attack_beats_the_stated_cost_of_a_weakened_audit() {
    let costs = index().hiding_costs();
    let weak = Index::new(Reference::generate_all()).weakened(2);
    let mut beaten = Vec::new();
    for w in weak.windows() {
        if w.order == ByteOrder::Big {
            continue;
        }
        let c = cost_of(&costs, &w);
        let mut data = elf_with(&reference(&weak, &w.name).bytes_le, 3000, 5);
        let first = c.hiding_cost.saturating_sub(1);
        let out = attack(&weak, &w, &mut data, 3000, first, first, 1, usize::MAX);
        if !out.reported && out.changed < c.hiding_cost {
            // The audit as built still reports it.
            assert!(
                index()
                    .scan(&data)
                    .found
                    .iter()
                    .any(|f| f.offset.abs_diff(3000) < 256 && f.verdict != Verdict::Intact),
                "{}: hidden from the audit itself after {} changes: {:?} {:?}",
                w.name,
                out.changed,
                index().scan(&data).found,
                c
            );
            beaten.push(w.name.clone());
        }
    }
    println!("hidden from the weakened audit under their hiding cost: {beaten:?}");
    // At least 30 of the 71 8-bit tables; no 16-bit one, whose bound is not
    // as tight (a two-hit or two-surprise weakening stays within its slack).
    assert!(beaten.len() >= 30, "{beaten:?}");
}
