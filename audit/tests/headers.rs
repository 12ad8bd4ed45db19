//! Reading a file's headers is bounded, whatever the file: the attack on
//! this design nested universal Mach-O files and ar archives so that every
//! slice named one archive whose member was such a file again, and reading
//! the headers took time cubic in the file (a 90 KB file about ten
//! minutes); and a 64 MiB archive whose symbol table named 13.4 million
//! members took 402 MB to check them (`memory.rs`). Parts that overlap are
//! now bad input once reading them reads more than `MAX_PARTS_READ` times
//! the file, and every byte read is charged to the scan's budget
//! (`Container::cost`); honest nesting passes.

#[path = "audit/common/mod.rs"]
mod common;

use actlut_audit::container::{inspect, MAX_NESTING, MAX_PARTS_READ};
use common::crafted::nested;

/// A 64-bit little-endian Mach-O object with no load commands.
fn macho() -> Vec<u8> {
    let mut m = Vec::new();
    for w in [0xfeed_facfu32, 0x0100_0007, 3, 1, 0, 0, 0, 0] {
        m.extend_from_slice(&w.to_le_bytes());
    }
    m
}

/// An ar archive of one member.
fn archive(member: &[u8]) -> Vec<u8> {
    common::ar(&[("m.o", member)])
}

#[test]
fn universal_slices_that_overlap_are_bad_input_read_in_bounded_time() {
    // 64 slices (24 KB): 262,144 Mach-O files read before; 1,500 slices
    // (90 KB): 3.4 billion, some ten minutes.
    for n in [64, 1500] {
        let f = nested(n);
        let len = f.len() as u64;
        let c = inspect(&f[..], len);
        let problem = c.problem.clone().unwrap_or_default();
        assert!(
            problem.starts_with("malformed universal Mach-O file: ")
                && problem.contains("overlap: reading their headers reads more than"),
            "{n}: {c:?}"
        );
        // What was read, charged to the budget: at most the bound, and the
        // part that crossed it.
        assert!(
            c.cost <= (MAX_PARTS_READ + 1) * len / 8,
            "{n}: {} units for {len} bytes",
            c.cost
        );
    }
}

/// Honest nesting passes: a universal file of two slices (distinct bytes),
/// and archives nested to the deepest the audit reads, each read once per
/// level.
#[test]
fn honest_nesting_passes_within_the_bound() {
    let mut other = macho();
    other[4..8].copy_from_slice(&0x0100_000Cu32.to_le_bytes()); // arm64
    let two = {
        let a = macho();
        let mut f = Vec::new();
        f.extend_from_slice(&0xcafe_babeu32.to_be_bytes());
        f.extend_from_slice(&2u32.to_be_bytes());
        for (cpu, at) in [(0x0100_0007u32, 64u32), (0x0100_000C, 96)] {
            for w in [cpu, 3, at, 32, 0] {
                f.extend_from_slice(&w.to_be_bytes());
            }
        }
        f.resize(64, 0);
        f.extend_from_slice(&a);
        f.extend_from_slice(&other);
        f
    };
    let c = inspect(&two[..], two.len() as u64);
    assert_eq!((c.kind, c.problem.as_deref()), ("universal Mach-O", None));
    let mut deep = archive(&two);
    for _ in 1..MAX_NESTING {
        deep = archive(&deep);
    }
    let c = inspect(&deep[..], deep.len() as u64);
    assert_eq!(
        (c.kind, c.problem.as_deref()),
        ("ar archive", None),
        "{c:?}"
    );
    assert!(c.cost <= MAX_PARTS_READ * deep.len() as u64 / 8);
}
