//! Times the one library call, `actlut_audit::audit` (the file's headers,
//! its SHA-256 and the scan), on each crafted input class against random
//! bytes of the same size, and prints the ratio per byte: the budget bounds
//! the worst to a small multiple of random data.
//!
//! - `cargo run --release -p actlut-audit --example crafted-timing [SIZE]`:
//!   every class at SIZE (megabytes, or kibibytes with a `k`: `256k`;
//!   default 2);
//! - `... -- SIZE CLASS`: one class (and random bytes);
//! - `... -- small [CLASS]`: every class (or one) at 4 KiB, 16 KiB, 64 KiB,
//!   256 KiB, 1 MiB and 4 MiB, one line per size;
//! - `... -- SIZE CLASS --write FILE`: writes that class to FILE (for
//!   `/usr/bin/time -v actlut audit FILE`: docs/audit.md measures memory so).

#[path = "../tests/audit/common/mod.rs"]
mod common;

use std::time::Instant;

use actlut_audit::{audit, Lock, Report};

/// Bytes of a size argument: megabytes, or kibibytes with a `k`.
fn bytes_of(arg: &str) -> usize {
    match arg.strip_suffix('k') {
        Some(k) => k.parse::<usize>().expect("a number of kibibytes") << 10,
        None => arg.parse::<usize>().expect("a number of megabytes") << 20,
    }
}

/// The best of `runs` audits of `data`: seconds, and the last report.
fn time(lock: &Lock, data: &[u8], runs: usize) -> (f64, Report) {
    let mut best = f64::MAX;
    let mut report = None;
    for _ in 0..runs {
        let t = Instant::now();
        let r = audit(data, lock).expect("bytes are audited");
        best = best.min(t.elapsed().as_secs_f64());
        report = Some(r);
    }
    (best, report.expect("audited"))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let index = common::index();
    let lock = Lock::new(
        "built-in lock",
        actlut_codegen::lock::parse(actlut_audit::BUILTIN_LOCK).expect("the lock"),
        index.references().to_vec(),
    );
    let size = args.first().map_or("2", String::as_str);
    let only = args.get(1).filter(|a| *a != "--write");
    if let (Some(class), Some(path)) = (only, args.iter().skip_while(|a| *a != "--write").nth(1)) {
        let data = common::crafted::crafted(index, class, bytes_of(size));
        std::fs::write(path, data).expect("write");
        return;
    }
    let sizes: Vec<usize> = if size == "small" {
        [
            4usize << 10,
            16 << 10,
            64 << 10,
            256 << 10,
            1 << 20,
            4 << 20,
        ]
        .to_vec()
    } else {
        vec![bytes_of(size)]
    };
    println!("| input | bytes | seconds | per MB | per byte, against random bytes | stopped | findings | candidates | entries compared |");
    println!("|---|---:|---:|---:|---:|---|---:|---:|---:|");
    for len in sizes {
        // Best of several runs (one from 8 MB on), to keep one slow run on
        // a shared machine out.
        let runs = if len >= 8 << 20 {
            1
        } else if len >= 1 << 20 {
            3
        } else {
            9
        };
        let mut random = None;
        for class in common::crafted::CLASSES {
            if only.is_some_and(|o| o != class && class != "random") {
                continue;
            }
            let data = common::crafted::crafted(index, class, len);
            let (best, r) = time(&lock, &data, runs);
            let per_mb = best / len as f64 * f64::from(1 << 20);
            let base = *random.get_or_insert(per_mb);
            println!(
                "| {class} | {len} | {best:.4} | {per_mb:.4} | {:.1}x | {} | {} | {} | {} |",
                per_mb / base,
                r.too_many,
                r.found.len() + r.records.len() + r.declared.len(),
                r.candidates,
                r.compared
            );
        }
    }
}
