//! With the `compact` feature, a binary that uses `gelu` on `bf16` holds at
//! most 16 KiB of table data: checked on a real binary, this test's own
//! executable.
//!
//! This file references one table, through `actlut::gelu::bf16` and
//! `actlut::gelu::apply_bf16`, and nothing else of actlut that could reach a
//! table. The test finds every compact stored form in the executable by its
//! magic (`ACTLUTC1`, validated by `CompactRef::from_bytes`, as an audit
//! would), and searches it for every full 16-bit table actlut can generate:
//! there must be exactly one stored form, gelu_bf16's (its SHA-256 is the
//! compact lock's line: `tables/actlut-compact.lock`, or
//! `tables/actlut-compact-words.lock` with `compact-words`), of at most 16 KiB,
//! and no full table.
//!
//! The CI runs it in the builds the size claim is about:
//! `cargo test -p actlut --no-default-features --features compact,gelu,bf16 --test compact_binary`,
//! and the same with `compact-words`.

#![cfg(all(feature = "compact", feature = "gelu", feature = "bf16"))]
// WASI has no current_exe to read.
#![cfg(not(target_os = "wasi"))]

mod binary_scan;
mod support;

use binary_scan::{full_tables_in, stored_form_name, stored_forms};
use support::{compact_lock_entries_of, EMBEDDED_LAYOUT};

/// The budget of issue 12 for a `gelu` + `bf16` firmware: 16 KiB.
const TABLE_BUDGET: usize = 16 * 1024;

#[test]
fn a_gelu_bf16_binary_holds_one_compact_stored_form_of_at_most_16_kib_and_no_full_table() {
    // The table references of this binary: one value and one slice.
    let y = actlut::gelu::bf16(std::hint::black_box(half::bf16::from_f32(1.0)));
    assert_eq!(y.to_bits(), 0x3F57, "gelu(1.0) in bf16 is 0.8398 (0x3F57)");
    let mut xs = std::hint::black_box([half::bf16::ONE; 3]);
    actlut::gelu::apply_bf16(&mut xs);
    assert_eq!(xs, [y; 3]);

    let exe = std::env::current_exe().expect("current_exe");
    let binary = std::fs::read(&exe).expect("read the test executable");

    let forms = stored_forms(&binary);
    let entries = compact_lock_entries_of(EMBEDDED_LAYOUT);
    let names: Vec<String> = forms
        .iter()
        .map(|(_, b)| stored_form_name(&entries, b))
        .collect();
    assert_eq!(
        names,
        ["gelu_bf16"],
        "compact stored forms in {}",
        exe.display()
    );
    let total: usize = forms.iter().map(|(_, b)| b.len()).sum();
    assert!(
        total <= TABLE_BUDGET,
        "{total} bytes of compact table data, the budget is {TABLE_BUDGET}"
    );
    println!(
        "gelu_bf16: {total} bytes of table data in {}",
        exe.display()
    );

    let full = full_tables_in(&binary, cfg!(target_endian = "big"));
    assert!(
        full.is_empty(),
        "full 16-bit tables in the binary: {full:?}"
    );
}
