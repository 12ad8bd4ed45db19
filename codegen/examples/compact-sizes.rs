//! Sizes of the compact forms of every 16-bit table, beside the full table and
//! the simple page-dedup scheme, and the time compaction adds to generation:
//!
//! ```text
//! cargo run --release -p actlut-codegen --example compact-sizes
//! ```
//!
//! The simple scheme: pages of `P` entries (the best `P` of 16..=256 per table),
//! each distinct page stored once as `u16`s relative to its first entry, and a
//! directory of 4 bytes (`u16` offset, `u16` addend) per page. `bytes` and
//! `words` are the two layouts of `actlut_codegen::compact`. The output is the
//! size table of `docs/compact.md` (Markdown).

use std::collections::{BTreeMap, HashSet};
use std::time::{Duration, Instant};

use actlut_codegen::compact::{compact, CompactRef, CompactTable, Layout};
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

struct Row {
    name: String,
    format: Format,
    simple: usize,
    bytes: CompactTable,
    words: CompactTable,
}

fn main() {
    let mut generate = Duration::ZERO;
    let mut compaction = [Duration::ZERO; 2];
    let mut rows = Vec::new();
    for format in Format::ALL.into_iter().filter(|f| f.entry_bytes() == 2) {
        for function in Function::ALL.into_iter().filter(|f| f.has_defaults()) {
            let name = table_name(function, format);
            // Each step's best of three runs: the machine may be busy.
            let (mut t, mut cs) = (Vec::new(), Vec::new());
            let (mut g, mut k) = (Duration::MAX, [Duration::MAX; 2]);
            for _ in 0..3 {
                let t0 = Instant::now();
                t = table(function, format);
                g = g.min(t0.elapsed());
                cs.clear();
                for (layout, k) in Layout::ALL.into_iter().zip(&mut k) {
                    let t1 = Instant::now();
                    cs.push(compact(&name, &t, layout).unwrap_or_else(|e| panic!("{e}")));
                    *k = (*k).min(t1.elapsed());
                }
            }
            generate += g;
            for (total, k) in compaction.iter_mut().zip(k) {
                *total += k;
            }
            for c in &cs {
                let stored = c.to_bytes();
                let view = CompactRef::from_bytes(&stored).expect("a stored form compact() made");
                assert_eq!(view.stored_len(), stored.len());
            }
            let words = cs.pop().expect("two layouts");
            let bytes = cs.pop().expect("two layouts");
            rows.push(Row {
                simple: simple_scheme(&t),
                name,
                format,
                bytes,
                words,
            });
        }
    }
    println!("| table | full | simple | bytes | page | wide pages | dir | pool | words | page |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let mut totals = BTreeMap::new();
    for r in &rows {
        let full = r.format.table_bytes();
        let b = &r.bytes;
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.name,
            kib(full),
            kib(r.simple),
            kib(b.stored_len()),
            1 << b.page_shift(),
            b.wide_pages(),
            kib(4 * b.dir().len()),
            kib(b.pool().len()),
            kib(r.words.stored_len()),
            1 << r.words.page_shift(),
        );
        for key in [r.format.name(), "all"] {
            let e = totals.entry(key).or_insert((0, 0, 0, 0, 0));
            e.0 += 1;
            e.1 += full;
            e.2 += r.simple;
            e.3 += b.stored_len();
            e.4 += r.words.stored_len();
        }
    }
    for (key, (n, full, simple, bytes, words)) in &totals {
        println!(
            "| **{n} {key}** | {} | {} | {} | | | | | {} | |",
            kib(*full),
            kib(*simple),
            kib(*bytes),
            kib(*words)
        );
    }
    println!();
    println!("Sizes in KiB (1,024 bytes), stored forms with their 16-byte header.");
    println!();
    println!(
        "generation of {} tables: {:.1} ms",
        rows.len(),
        generate.as_secs_f64() * 1e3
    );
    for (layout, c) in Layout::ALL.into_iter().zip(compaction) {
        println!(
            "compaction, {} layout: {:.1} ms ({:.1}% of generation)",
            layout.name(),
            c.as_secs_f64() * 1e3,
            100.0 * c.as_secs_f64() / generate.as_secs_f64(),
        );
    }
    println!("(each step: the best of 3 runs)");
}
