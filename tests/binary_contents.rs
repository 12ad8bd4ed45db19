//! A binary carries only the tables it references: checked on a real binary,
//! this test's own executable.
//!
//! This file references exactly one table, through `actlut::gelu::f16`, and
//! nothing else of actlut that could reach a table (no `Function`, no
//! `actlut::tables`). Keep it that way: using any other table-reaching item of
//! actlut here makes the test fail, by design.
//!
//! The crate's default features compile every table (every function over
//! every format) into the library, so the linker has all but one to drop. The test regenerates every table's bytes with
//! `actlut-codegen` (in the target's byte order, as the build script embeds
//! them) and searches its own executable for each one. It needs the features
//! `gelu` and `f16`; the more other tables are enabled, the more it checks.
//!
//! Tables with identical bytes are one `static` under several names (for
//! example some fp8 tables of gelu and gelu_tanh); a copy of such bytes is
//! reported under every one of its names.

use std::collections::HashMap;

use actlut_codegen::{table, table_bytes_le, table_name, Format, Function};

/// One table as it sits in a binary of this target: its name and bytes.
struct Table {
    name: String,
    bytes: Vec<u8>,
}

/// Every table actlut can generate (every function × every format), in the
/// target's byte order, generated on every available core.
#[cfg(all(
    feature = "gelu",
    feature = "f16",
    not(feature = "compact"),
    not(target_os = "wasi")
))]
fn all_tables() -> Vec<Table> {
    let pairs: Vec<(Function, Format)> = actlut_codegen::table_pairs().collect();
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let chunk = pairs.len().div_ceil(threads);
    std::thread::scope(|s| {
        let handles: Vec<_> = pairs
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    part.iter()
                        .map(|&(f, fmt)| table_in_target_order(f, fmt))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("table generation panicked"))
            .collect()
    })
}

fn table_in_target_order(function: Function, format: Format) -> Table {
    let entries = table(function, format);
    let bytes = if cfg!(target_endian = "big") && format.entry_bytes() == 2 {
        entries.iter().flat_map(|v| v.to_be_bytes()).collect()
    } else {
        table_bytes_le(format, &entries)
    };
    assert_eq!(
        bytes.len(),
        format.table_bytes(),
        "{}",
        table_name(function, format)
    );
    Table {
        name: table_name(function, format),
        bytes,
    }
}

/// Every offset at which one of `tables` occurs whole in `haystack`, per table
/// (indexed like `tables`).
///
/// One pass over the haystack: each table is anchored by an 8-byte window of
/// its bytes (the entries from input 2.0 on, which differ between functions,
/// where the leading entries of many tables are zeros); a 16-bit prefilter on
/// the window's first two bytes rejects almost every offset with one array
/// load, and a candidate is only counted if the whole table compares equal.
fn occurrences(haystack: &[u8], tables: &[Table]) -> Vec<Vec<usize>> {
    const W: usize = 8;
    let mut anchors: HashMap<[u8; W], Vec<(usize, usize)>> = HashMap::new();
    let mut first_two = vec![false; 1 << 16];
    for (i, t) in tables.iter().enumerate() {
        let off = anchor_offset(&t.bytes);
        let window: [u8; W] = t.bytes[off..off + W].try_into().unwrap();
        first_two[usize::from(u16::from_le_bytes([window[0], window[1]]))] = true;
        anchors.entry(window).or_default().push((i, off));
    }
    let mut found = vec![Vec::new(); tables.len()];
    for (pos, w) in haystack.windows(W).enumerate() {
        if !first_two[usize::from(u16::from_le_bytes([w[0], w[1]]))] {
            continue;
        }
        let Some(candidates) = anchors.get(w) else {
            continue;
        };
        for &(i, off) in candidates {
            let bytes = &tables[i].bytes;
            let Some(start) = pos.checked_sub(off) else {
                continue;
            };
            if haystack.get(start..start + bytes.len()) == Some(bytes.as_slice()) {
                found[i].push(start);
            }
        }
    }
    found
}

/// Where a table's anchor window starts: at the entry for input bit pattern
/// 0x4000 (2.0 in f16 and bf16) or 0x40 (2.0 in both fp8 formats), moved on
/// while the window's bytes are all equal (a run of one value is too common).
fn anchor_offset(bytes: &[u8]) -> usize {
    let mut off = bytes.len() / 4;
    while off + 8 < bytes.len() && bytes[off..off + 8].iter().all(|&b| b == bytes[off]) {
        off += 1;
    }
    off.min(bytes.len() - 8)
}

// WASI has no current_exe to read. With `compact` the 16-bit tables are
// stored compact: tests/compact_binary.rs inspects that binary.
#[cfg(all(
    feature = "gelu",
    feature = "f16",
    not(feature = "compact"),
    not(target_os = "wasi")
))]
#[test]
fn binary_contains_the_gelu_f16_table_once_and_no_other_table() {
    // The one table reference of this binary.
    let y = actlut::gelu::f16(std::hint::black_box(half::f16::from_f32(1.0)));
    assert_eq!(y.to_bits(), 0x3ABB, "gelu(1.0) in f16 is 0.8413 (0x3ABB)");

    let exe = std::env::current_exe().expect("path of the test executable");
    let binary = std::fs::read(&exe).unwrap_or_else(|e| panic!("read {}: {e}", exe.display()));
    let tables = all_tables();
    assert_eq!(tables.len(), actlut_codegen::table_pairs().count());
    let found = occurrences(&binary, &tables);

    // A table of bytes 0, 1, 2, … (the identity over FP4, FP6 and fp8, whose entries are
    // their codes) is in any binary by chance: no evidence of a table.
    let counts =
        |t: &Table| t.bytes.len() <= 256 && t.bytes.iter().enumerate().all(|(i, &b)| b == i as u8);
    let present: Vec<String> = tables
        .iter()
        .zip(&found)
        .filter(|(t, at)| !at.is_empty() && !counts(t))
        .map(|(t, at)| {
            format!(
                "{} ({} cop{} at {at:x?})",
                t.name,
                at.len(),
                if at.len() == 1 { "y" } else { "ies" }
            )
        })
        .collect();
    let sixteen_bit: Vec<&str> = tables
        .iter()
        .zip(&found)
        .filter(|(t, at)| t.bytes.len() == Format::F16.table_bytes() && !at.is_empty())
        .map(|(t, _)| t.name.as_str())
        .collect();
    assert_eq!(
        sixteen_bit,
        ["gelu_f16"],
        "{}: expected exactly one 16-bit table, gelu_f16; found: {present:?}",
        exe.display()
    );
    assert_eq!(
        present.len(),
        1,
        "{}: expected no table besides gelu_f16; found: {present:?}",
        exe.display()
    );
    let gelu = tables.iter().position(|t| t.name == "gelu_f16").unwrap();
    assert_eq!(
        found[gelu].len(),
        1,
        "{}: gelu_f16 must be in the binary exactly once; found: {present:?}",
        exe.display()
    );
}

/// The search itself: it finds whole tables at any offset, odd ones included,
/// counts repeated copies, and ignores a truncated copy and a copy with one
/// byte changed.
#[test]
fn search_finds_whole_tables_at_any_offset_and_nothing_else() {
    let pick = |function, format| table_in_target_order(function, format);
    let tables = [
        pick(Function::Silu, Format::Bf16),
        pick(Function::Exp, Format::Fp8E4M3),
        pick(Function::Tanh, Format::F16),
        pick(Function::Log, Format::Fp8E5M2),
    ];
    let mut hay = vec![0u8; 3];
    let silu_at = hay.len();
    hay.extend_from_slice(&tables[0].bytes);
    hay.push(0x55);
    let exp_at = [hay.len(), hay.len() + 256 + 7];
    hay.extend_from_slice(&tables[1].bytes);
    hay.extend_from_slice(&[0; 7]);
    hay.extend_from_slice(&tables[1].bytes);
    // tanh_f16 with its last byte changed, and log_fp8_e5m2 cut short.
    let mut tanh = tables[2].bytes.clone();
    *tanh.last_mut().unwrap() ^= 1;
    hay.extend_from_slice(&tanh);
    hay.extend_from_slice(&tables[3].bytes[..255]);

    let found = occurrences(&hay, &tables);
    let names: Vec<&str> = tables.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        ["silu_bf16", "exp_fp8_e4m3", "tanh_f16", "log_fp8_e5m2"]
    );
    assert_eq!(found[0], [silu_at], "{}", names[0]);
    assert_eq!(found[1], exp_at, "{}", names[1]);
    assert!(found[2].is_empty(), "a changed copy is not {}", names[2]);
    assert!(found[3].is_empty(), "a truncated copy is not {}", names[3]);
}
