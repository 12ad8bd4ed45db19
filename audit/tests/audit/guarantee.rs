//! The exact lower bounds behind the hiding costs ([`actlut_audit::guarantee`]): the
//! fewest entries that break a set of features or meet every window, against brute force.

use actlut_audit::{fewest_to_break, stab};

#[test]
fn fewest_to_break_is_the_fewest_entries_leaving_at_most_keep_pairs() {
    let mut x = 987654321u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for round in 0..300 {
        // Pairs at most 3 apart among 12 entries, as features are.
        let mut pairs = Vec::new();
        for _ in 0..(next() % 14) {
            let a = (next() % 11) as usize;
            let b = (a + 1 + (next() % 3) as usize).min(11);
            if a < b && !pairs.contains(&(a, b)) {
                pairs.push((a, b));
            }
        }
        let keep = round % 4;
        let kept = |m: u32| {
            pairs
                .iter()
                .filter(|&&(a, b)| m >> a & 1 == 0 && m >> b & 1 == 0)
                .count()
        };
        let best = (0u32..1 << 12)
            .filter(|&m| kept(m) <= keep)
            .map(u32::count_ones)
            .min()
            .unwrap() as usize;
        let got = fewest_to_break(&pairs, keep);
        assert_eq!(got.len(), best, "{pairs:?} keep {keep}");
        let m = got.iter().fold(0u32, |m, &j| m | 1 << j);
        assert!(
            kept(m) <= keep,
            "{pairs:?} keep {keep}: {got:?} leaves too many"
        );
    }
}

#[test]
fn stab_is_the_fewest_points_meeting_every_interval() {
    assert_eq!(stab(&mut []), 0);
    assert_eq!(stab(&mut [(0, 3), (4, 7), (8, 11)]), 3);
    // Every window of four at every offset of 0..=11: entries 3, 7, 11.
    let mut all: Vec<_> = (0..=8).map(|a| (a, a + 3)).collect();
    assert_eq!(stab(&mut all), 3);
    // Brute force over small sets: no fewer points meet them all.
    let mut x = 12345u64;
    for _ in 0..200 {
        let mut iv = Vec::new();
        for _ in 0..6 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let a = (x % 12) as usize;
            iv.push((a, a + (x >> 8) as usize % 4));
        }
        let best = (0u32..1 << 16)
            .filter(|m| iv.iter().all(|&(a, b)| (a..=b).any(|p| m >> p & 1 == 1)))
            .map(|m| m.count_ones() as usize)
            .min()
            .unwrap();
        assert_eq!(stab(&mut iv.clone()), best, "{iv:?}");
    }
}

/// A table found by its exact bytes (one without content, or over an
/// unsigned format) clears what lies in it, so it is a substitute too: an
/// independent attack wrote an intact `hardtanh_fp8_e5m2` over
/// `tanh_fp8_e5m2`, 14 entries changed, and nothing was reported, where the
/// hiding cost said 16. It now says 14, by that substitute.
#[test]
fn a_table_found_by_its_exact_bytes_is_a_substitute() {
    let index = actlut_audit::Index::new(actlut_audit::Reference::generate_all());
    let costs = index.hiding_costs();
    let tanh = costs
        .iter()
        .find(|c| c.names[0] == "tanh_fp8_e5m2")
        .unwrap();
    assert_eq!(tanh.hiding_cost, 14);
    let (name, cost) = tanh.substitute.as_ref().unwrap();
    assert!(
        name.starts_with("hardtanh_fp8_e5m2 (u8, +0 bytes)"),
        "{name}"
    );
    assert_eq!(*cost, 14);
}
