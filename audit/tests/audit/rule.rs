//! The one rule for undeclared content, against the evasions it closes:
//! every input is built by the test (no frozen file), and each must be a
//! problem that names the tampered table.
//!
//! - the byte-order twin: a 16-bit table changed so that its bytes, read one
//!   byte earlier, are an intact copy in the other byte order, for every
//!   16-bit table, in a PIE executable (this test's own), an `ET_EXEC` ELF
//!   and a wasm module;
//! - the compact envelope: a stored form whose declared pool length is
//!   enlarged to enclose the next form, whose magic is zeroed and one pool
//!   byte changed, with an intact copy of that form appended;
//! - nesting: silu_fp8_e4m3 with one entry changed inside a copy of
//!   mish_bf16.

use crate::common;

use actlut_audit::{ByteOrder, Report, Verdict};
use actlut_codegen::compact::HEADER_BYTES;
use actlut_codegen::{Format, Function};
use common::{compact_form, index, noise, table_le};

/// Every 16-bit table: its name and little-endian bytes.
fn tables_16() -> Vec<(String, Vec<u8>)> {
    // The tables with content (`actlut_audit::has_content`), one per byte string (an alias,
    // swish_f16 of silu_f16, is reported under every name of its bytes).
    index()
        .references()
        .iter()
        .filter(|r| r.format.entries() == 65_536 && actlut_audit::has_content(r))
        .map(|r| (r.names[0].clone(), r.bytes_le.clone()))
        .collect()
}

/// The twin transformation at `at` of `data`: the table's bytes so changed
/// that the bytes from `at - 1` on are the table's intact big-endian copy.
/// Returns how many entries of the little-endian copy at `at` it changed.
fn write_twin(data: &mut [u8], at: usize, table: &[u8]) -> usize {
    let be: Vec<u8> = table.chunks_exact(2).flat_map(|c| [c[1], c[0]]).collect();
    data[at..at + table.len()].copy_from_slice(table);
    data[at - 1..at - 1 + be.len()].copy_from_slice(&be);
    data[at..at + table.len()]
        .chunks_exact(2)
        .zip(table.chunks_exact(2))
        .filter(|(a, b)| a != b)
        .count()
}

/// Writes the twin of every 16-bit table into `data` from `first` on, and
/// checks that each tampered copy is a problem under its name, as a
/// modified little-endian copy, and that each intact big-endian copy is a
/// problem too (a foreign byte order).
fn assert_every_twin_is_reported(mut data: Vec<u8>, first: usize, what: &str) {
    let tables = tables_16();
    let stride = 131_072 + 4099;
    assert!(
        data.len() >= first + tables.len() * stride,
        "{what}: too short"
    );
    let mut placed = Vec::new();
    for (k, (name, table)) in tables.iter().enumerate() {
        let at = first + k * stride;
        let changed = write_twin(&mut data, at, table);
        assert!(changed > 0 && changed < 65_536, "{name}: {changed}");
        placed.push((name, at, changed));
    }
    let report = index().scan(&data);
    let problems = report.problems(&[]);
    assert!(!report.too_many, "{what}: {}", report.stopped());
    for (name, at, changed) in placed {
        let tampered = format!(" at {at:#010x}: modified: {changed} of 65536");
        assert!(
            problems
                .iter()
                .any(|p| (p.starts_with(&format!("{name} at "))
                    || p.starts_with(&format!("{name} = ")))
                    && p.contains(&tampered)),
            "{what}: {name} ({changed} entries changed) is not reported: {problems:#?}"
        );
        let twin = report
            .found
            .iter()
            .find(|f| f.offset == at as u64 - 1 && f.names[0] == *name)
            .unwrap_or_else(|| panic!("{what}: the twin of {name} is not reported"));
        assert_eq!(
            (twin.verdict, twin.order, twin.foreign_order),
            (Verdict::Intact, ByteOrder::Big, true),
            "{what}: {name}"
        );
        assert!(twin.problem(&[]).unwrap().contains("big-endian"), "{what}");
    }
}

#[test]
fn the_byte_order_twin_of_every_16_bit_table_is_reported_in_a_pie_executable() {
    // This test's own executable: a little-endian PIE (ET_DYN) ELF.
    let exe = std::fs::read(std::env::current_exe().unwrap()).unwrap();
    assert_eq!(&exe[..4], b"\x7FELF");
    assert_eq!((exe[5], u16::from_le_bytes([exe[16], exe[17]])), (1, 3));
    let mut data = exe.clone();
    // The tables overwrite the executable's own bytes from 64 KiB on, as
    // they would lie in its read-only data.
    let need = 65_536 + tables_16().len() * (131_072 + 4099) + 4096;
    if data.len() < need {
        data.extend(noise(need - data.len(), 3));
    }
    assert_every_twin_is_reported(data, 65_536, "PIE");
}

#[test]
#[ignore = "tens of seconds in debug: .ci/steps/30-audit.sh runs it in release (--include-ignored)"]
fn the_byte_order_twin_of_every_16_bit_table_is_reported_in_an_et_exec_elf() {
    // An ELF64 little-endian executable header (ET_EXEC, x86_64), then noise.
    let mut data = vec![0u8; 64];
    data[..16].copy_from_slice(b"\x7FELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00");
    data[16..18].copy_from_slice(&2u16.to_le_bytes()); // ET_EXEC
    data[18..20].copy_from_slice(&62u16.to_le_bytes()); // EM_X86_64
    data[20..24].copy_from_slice(&1u32.to_le_bytes());
    data.extend(noise(tables_16().len() * (131_072 + 4099) + 8192, 5));
    assert_every_twin_is_reported(data, 4096, "ET_EXEC");
}

/// A valid wasm module: one memory large enough, and one active data
/// segment at address 0 holding `bytes`.
fn wasm_module(bytes: &[u8]) -> (Vec<u8>, usize) {
    fn leb(v: usize, out: &mut Vec<u8>) {
        common::leb(v as u64, out)
    }
    let mut m = b"\0asm\x01\x00\x00\x00".to_vec();
    let mut memory = vec![1, 0];
    leb(bytes.len().div_ceil(65_536), &mut memory);
    m.push(5);
    leb(memory.len(), &mut m);
    m.extend(memory);
    let mut data = vec![1, 0, 0x41, 0, 0x0B];
    leb(bytes.len(), &mut data);
    let head = data.len();
    m.push(11);
    leb(data.len() + bytes.len(), &mut m);
    let at = m.len() + head;
    m.extend(data);
    m.extend_from_slice(bytes);
    (m, at)
}

#[test]
#[ignore = "tens of seconds in debug: .ci/steps/30-audit.sh runs it in release (--include-ignored)"]
fn the_byte_order_twin_of_every_16_bit_table_is_reported_in_a_wasm_module() {
    let segment = noise(tables_16().len() * (131_072 + 4099) + 8192, 9);
    let (module, at) = wasm_module(&segment);
    std::fs::create_dir_all(env!("CARGO_TARGET_TMPDIR")).unwrap();
    assert_every_twin_is_reported(module, at + 4096, "wasm");
}

/// The twin in a raw image (no declared byte order) hides the table: what
/// the rule leaves, and the raw-image hiding cost counts.
#[test]
fn in_a_raw_image_an_intact_twin_in_the_other_order_clears_what_it_overlaps() {
    let (name, table) = tables_16()
        .into_iter()
        .find(|(n, _)| n == "hardsigmoid_bf16")
        .unwrap();
    let mut data = noise(400_000, 11);
    let changed = write_twin(&mut data, 100_001, &table);
    let report = index().scan(&data);
    assert!(report.problems(&[]).iter().all(|p| !p.contains("modified")));
    assert!(report.found.iter().any(|f| f.names[0] == name
        && f.order == ByteOrder::Big
        && f.verdict == Verdict::Intact
        && !f.foreign_order));
    assert_eq!(
        changed, 8,
        "docs/audit.md: hardsigmoid_bf16's raw-image cost"
    );
}

fn problems_naming(report: &Report, name: &str) -> Vec<String> {
    report
        .problems(&[])
        .into_iter()
        .filter(|p| p.starts_with(name))
        .collect()
}

#[test]
fn a_compact_form_enlarged_to_enclose_the_next_hides_nothing_inside_it() {
    let outer = compact_form(Function::Gelu, Format::Bf16);
    let inner = compact_form(Function::Hardsigmoid, Format::Bf16);
    let mut enlarged = outer.clone();
    let pool = u32::from_le_bytes(outer[12..16].try_into().unwrap());
    enlarged[12..16].copy_from_slice(&(pool + inner.len() as u32).to_le_bytes());
    let mut changed = inner.clone();
    changed[..8].fill(0);
    let last = changed.len() - 1;
    changed[last] ^= 0x01;
    // An ELF64 little-endian header, the enlarged form with the changed one
    // inside its declared extent, and an intact copy of the inner form for
    // a manifest to find.
    let mut data = vec![0u8; 64];
    data[..8].copy_from_slice(b"\x7FELF\x02\x01\x01\x00");
    data.extend(noise(1000, 1));
    let at = data.len();
    data.extend_from_slice(&enlarged);
    let inner_at = data.len();
    data.extend_from_slice(&changed);
    data.extend(noise(1000, 2));
    data.extend_from_slice(&inner);
    data.extend(noise(1000, 3));
    // The enlarged form is still valid and decodes to gelu_bf16.
    let view = actlut_codegen::compact::CompactRef::from_bytes(
        &data[at..at + enlarged.len() + inner.len()],
    )
    .expect("the enlarged form is valid");
    assert_eq!(
        view.get(0x3F80),
        actlut_codegen::table(Function::Gelu, Format::Bf16)[0x3F80]
    );
    let report = index().scan(&data);
    let hard = problems_naming(&report, "hardsigmoid_bf16");
    assert!(
        hard.iter().any(|p| p.starts_with(&format!(
            "hardsigmoid_bf16 (compact) at {inner_at:#010x}: modified"
        ))),
        "{:#?}",
        report.problems(&[])
    );
    assert!(inner.len() > HEADER_BYTES);
}

#[test]
fn an_8_bit_table_with_one_change_nested_in_a_16_bit_copy_is_reported() {
    let mish = table_le(Function::Mish, Format::Bf16);
    let mut silu = table_le(Function::Silu, Format::Fp8E4M3);
    silu[100] ^= 1;
    for place in [2 * 0x3F80, 1001, 2 * 0xBF80 + 1, 131_072 - 256] {
        let mut data = vec![0u8; 64];
        data[..8].copy_from_slice(b"\x7FELF\x02\x01\x01\x00");
        data.extend(noise(3000, 4));
        let at = data.len();
        data.extend_from_slice(&mish);
        data[at + place..at + place + 256].copy_from_slice(&silu);
        data.extend(noise(3000, 5));
        let report = index().scan(&data);
        let silu_at = at + place;
        assert!(
            problems_naming(&report, "silu_fp8_e4m3")
                .iter()
                // (Named with its aliases: `silu_fp8_e4m3 = swish_fp8_e4m3`.)
                .any(|p| p.starts_with("silu_fp8_e4m3 ")
                    && p.contains(&format!(" at {silu_at:#010x}: modified: 1 of 256"))),
            "{place}: {:#?}",
            report.problems(&[])
        );
        assert!(!problems_naming(&report, "mish_bf16").is_empty());
    }
}
