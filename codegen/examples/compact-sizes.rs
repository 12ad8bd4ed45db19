//! Sizes of the compact form of every 16-bit table, beside the full table and
//! the simple page-dedup scheme, and the time compaction adds to generation:
//!
//! ```text
//! cargo run --release -p actlut-codegen --example compact-sizes
//! ```
//!
//! The simple scheme: pages of `P` entries (the best `P` of 16..=256 per table),
//! each distinct page stored once as `u16`s relative to its first entry, and a
//! directory of 4 bytes (`u16` offset, `u16` addend) per page.
//!
//! The output is the size table of `docs/compact.md` (Markdown).

use std::collections::HashSet;
use std::time::{Duration, Instant};

use actlut_codegen::compact::{compact, CompactRef};
use actlut_codegen::{table, table_name, Format, Function};

/// Bytes of the simple scheme at its best page size.
fn simple_scheme(t: &[u16]) -> usize {
    (4..=8)
        .map(|k| {
            let p = 1usize << k;
            let distinct: HashSet<Vec<u16>> = t
                .chunks_exact(p)
                .map(|page| page.iter().map(|v| v.wrapping_sub(page[0])).collect())
                .collect();
            4 * (t.len() / p) + 2 * p * distinct.len()
        })
        .min()
        .expect("five page sizes")
}

fn kib(bytes: usize) -> String {
    format!("{:.1}", bytes as f64 / 1024.0)
}

fn main() {
    let mut generate = Duration::ZERO;
    let mut compaction = Duration::ZERO;
    let mut rows = Vec::new();
    for format in Format::ALL.into_iter().filter(|f| f.entry_bytes() == 2) {
        for function in Function::ALL {
            let name = table_name(function, format);
            // Each step's best of three runs: the machine may be busy.
            let (mut t, mut c) = (Vec::new(), None);
            let (mut g, mut k) = (Duration::MAX, Duration::MAX);
            for _ in 0..3 {
                let t0 = Instant::now();
                t = table(function, format);
                let t1 = Instant::now();
                c = Some(compact(&name, &t).unwrap_or_else(|e| panic!("{e}")));
                let t2 = Instant::now();
                g = g.min(t1 - t0);
                k = k.min(t2 - t1);
            }
            generate += g;
            compaction += k;
            let c = c.expect("three runs");
            let bytes = c.to_bytes();
            let view = CompactRef::from_bytes(&bytes).expect("a stored form compact() made");
            assert_eq!(view.stored_len(), bytes.len());
            rows.push((name, format, simple_scheme(&t), c));
        }
    }
    println!(
        "| table | full KiB | simple KiB | compact KiB | page | wide pages | dir KiB | pool KiB |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    let mut totals = std::collections::BTreeMap::new();
    for (name, format, simple, c) in &rows {
        let full = format.table_bytes();
        println!(
            "| {name} | {} | {} | {} | {} | {} | {} | {} |",
            kib(full),
            kib(*simple),
            kib(c.stored_len()),
            1 << c.page_shift(),
            c.wide_pages(),
            kib(4 * c.dir().len()),
            kib(c.pool().len()),
        );
        for key in [format.name(), "all"] {
            let e = totals.entry(key).or_insert((0, 0, 0, 0));
            e.0 += 1;
            e.1 += full;
            e.2 += simple;
            e.3 += c.stored_len();
        }
    }
    for (key, (n, full, simple, compact)) in &totals {
        println!(
            "| **{n} {key}** | {} | {} | {} | | | | |",
            kib(*full),
            kib(*simple),
            kib(*compact)
        );
    }
    println!();
    println!(
        "generation {:.1} ms, compaction {:.1} ms ({:.1}% of generation), {} tables, \
         best of 3 runs each",
        generate.as_secs_f64() * 1e3,
        compaction.as_secs_f64() * 1e3,
        100.0 * compaction.as_secs_f64() / generate.as_secs_f64(),
        rows.len()
    );
}
