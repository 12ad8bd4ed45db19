//! Times the scan on each crafted input class against random bytes, per
//! megabyte, and prints the ratio: the budget bounds the worst to a small
//! multiple of random data.
//!
//! `cargo run --release -p actlut-audit --example crafted-timing [MB]`
//! (default 2), or `... -- MB CLASS` for one class (and random bytes), or
//! `... -- MB CLASS --write FILE` to write that class to FILE (for
//! `/usr/bin/time -v actlut audit FILE`: docs/audit.md measures memory so).

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::Instant;

fn main() {
    let mb: usize = std::env::args()
        .nth(1)
        .map_or(2, |s| s.parse().expect("a number of megabytes"));
    let index = common::index();
    if let (Some(class), Some(path)) = (
        std::env::args().nth(2),
        std::env::args().skip_while(|a| a != "--write").nth(1),
    ) {
        std::fs::write(&path, common::crafted::crafted(index, &class, mb << 20)).expect("write");
        return;
    }
    let mut random = None;
    println!("| input ({mb} MB) | seconds | per MB | vs random | stopped | findings | candidates | entries compared |");
    println!("|---|---:|---:|---:|---|---:|---:|---:|");
    let only = std::env::args().nth(2);
    for class in common::crafted::CLASSES {
        if only
            .as_deref()
            .is_some_and(|o| o != class && class != "random")
        {
            continue;
        }
        let data = common::crafted::crafted(index, class, mb << 20);
        // Best of three (one run from 8 MB on), to keep one slow run on a
        // shared machine out.
        let mut best = f64::MAX;
        let mut report = None;
        for _ in 0..if mb >= 8 { 1 } else { 3 } {
            let t = Instant::now();
            let r = index.scan(&data);
            best = best.min(t.elapsed().as_secs_f64());
            report = Some(r);
        }
        let r = report.expect("scanned");
        let per_mb = best / mb as f64;
        let base = *random.get_or_insert(per_mb);
        println!(
            "| {class} | {best:.3} | {per_mb:.4} | {:.1}x | {} | {} | {} | {} |",
            per_mb / base,
            r.too_many,
            r.found.len() + r.records.len(),
            r.candidates,
            r.compared
        );
    }
}
