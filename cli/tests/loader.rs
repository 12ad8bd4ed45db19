//! Where the program reads its tables, in the real build: each
//! transformation below leaves every byte of every declared table and
//! record intact in the `actlut` binary, and makes the loader put other
//! bytes where the program reads one (docs/audit.md, "Where the program
//! reads the tables"). Each must be reported, naming the table.
//!
//! The binary's program headers, section headers and relocations are read
//! here by the ELF64 layout, independently of the audit.

use std::path::{Path, PathBuf};
use std::process::Command;

fn tmp(name: &str) -> PathBuf {
    let p = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&p);
    std::fs::create_dir_all(&p).unwrap();
    p
}

fn audit(dir: &Path, bytes: &[u8]) -> (Option<i32>, String) {
    let file = dir.join("artifact");
    std::fs::write(&file, bytes).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_actlut"))
        .args(["audit", "--json", file.to_str().unwrap()])
        .output()
        .expect("run actlut");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes(b[at..at + 2].try_into().unwrap())
}
fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}
fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
}
fn put32(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
}
fn put64(b: &mut [u8], at: usize, v: u64) {
    b[at..at + 8].copy_from_slice(&v.to_le_bytes());
}

/// A program header: its offset in the file, and its fields.
#[derive(Clone, Copy, Debug)]
struct Phdr {
    at: usize,
    kind: u32,
    offset: u64,
    vaddr: u64,
    filesz: u64,
}

fn phdrs(b: &[u8]) -> Vec<Phdr> {
    let (off, size, n) = (
        u64_at(b, 0x20) as usize,
        u16_at(b, 0x36) as usize,
        u16_at(b, 0x38) as usize,
    );
    (0..n)
        .map(|i| {
            let at = off + i * size;
            Phdr {
                at,
                kind: u32_at(b, at),
                offset: u64_at(b, at + 8),
                vaddr: u64_at(b, at + 16),
                filesz: u64_at(b, at + 32),
            }
        })
        .collect()
}

/// Rewrites the program header at `at` into a `PT_LOAD` (read-only).
fn make_load(
    b: &mut [u8],
    at: usize,
    offset: u64,
    vaddr: u64,
    paddr: u64,
    filesz: u64,
    memsz: u64,
) {
    put32(b, at, 1);
    put32(b, at + 4, 4);
    put64(b, at + 8, offset);
    put64(b, at + 16, vaddr);
    put64(b, at + 24, paddr);
    put64(b, at + 32, filesz);
    put64(b, at + 40, memsz);
    put64(b, at + 48, 4096);
}

/// The section header named `name`: (file offset of its header, sh_offset,
/// sh_size).
fn section(b: &[u8], name: &str) -> (usize, u64, u64) {
    let (off, size, n, names) = (
        u64_at(b, 0x28) as usize,
        u16_at(b, 0x3A) as usize,
        u16_at(b, 0x3C) as usize,
        u16_at(b, 0x3E) as usize,
    );
    let strtab = u64_at(b, off + names * size + 24) as usize;
    (0..n)
        .map(|i| off + i * size)
        .find(|&h| {
            let at = strtab + u32_at(b, h) as usize;
            let end = at + b[at..].iter().position(|&c| c == 0).unwrap();
            &b[at..end] == name.as_bytes()
        })
        .map(|h| (h, u64_at(b, h + 24), u64_at(b, h + 32)))
        .unwrap_or_else(|| panic!("no section {name}"))
}

/// The real build, the file offset of gelu_bf16's declaration, and the
/// virtual address of its table.
fn victim() -> (Vec<u8>, usize, u64) {
    let b = std::fs::read(env!("CARGO_BIN_EXE_actlut")).unwrap();
    assert_eq!(
        (&b[..4], b[4], b[5]),
        (&b"\x7FELF"[..], 2, 1),
        "an ELF64 LE"
    );
    let mut name = [0u8; 32];
    name[..9].copy_from_slice(b"gelu_bf16");
    let at = (0..b.len() - 128)
        .find(|&i| &b[i..i + 8] == b"ACTLUTDT" && b[i + 48..i + 80] == name)
        .expect("gelu_bf16 is declared");
    let load = phdrs(&b)
        .into_iter()
        .find(|p| p.kind == 1 && p.offset <= at as u64 && (at as u64) < p.offset + p.filesz)
        .expect("a PT_LOAD maps it");
    let vaddr = load.vaddr + (at as u64 + 128 - load.offset);
    (b, at, vaddr)
}

fn reported(dir: &Path, bytes: &[u8], needle: &str) -> String {
    let (code, json) = audit(dir, bytes);
    assert_eq!(code, Some(1), "{needle}: exit code");
    let line = json
        .split('"')
        .find(|l| l.contains("gelu_bf16") && l.contains(needle))
        .unwrap_or_else(|| panic!("no problem naming gelu_bf16 and {needle:?}"));
    line.to_string()
}

#[test]
fn the_real_build_passes_as_it_is() {
    let dir = tmp("loader-intact");
    let (b, _, _) = victim();
    let (code, json) = audit(&dir, &b);
    assert_eq!(
        code,
        Some(0),
        "{}",
        &json[json.len().saturating_sub(2000)..]
    );
}

/// The attack of the last round: 15 bytes of one program header.
#[test]
fn a_pt_note_turned_into_a_pt_load_over_a_table_is_reported() {
    let dir = tmp("loader-note");
    let (mut b, _, vaddr) = victim();
    let note = phdrs(&b)
        .into_iter()
        .find(|p| p.kind == 4)
        .expect("PT_NOTE");
    // The file's first page, mapped at the page of the table's entry 0x3f80.
    let page = (vaddr + 2 * 0x3f80) & !0xfff;
    make_load(&mut b, note.at, 0, page, page, 4096, 4096);
    let line = reported(&dir, &b, "maps other bytes over it");
    assert!(line.contains("PT_LOAD"), "{line}");
}

/// A segment of the same offset-to-address delta maps the same bytes, but
/// zero-fills its memory past its file part: over the table.
#[test]
fn a_segments_zero_fill_over_a_table_is_reported() {
    let dir = tmp("loader-zero");
    let (mut b, at, vaddr) = victim();
    let note = phdrs(&b).into_iter().find(|p| p.kind == 4).unwrap();
    let off = (at as u64) & !0xfff;
    let va = vaddr - (at as u64 + 128) + off;
    make_load(&mut b, note.at, off, va, va, 16, 0x2_0000);
    reported(&dir, &b, "maps other bytes over it");
}

/// What a flasher writes: another segment's bytes at the table's physical
/// addresses, its virtual ones far away.
#[test]
fn a_segment_over_a_tables_physical_addresses_is_reported() {
    let dir = tmp("loader-paddr");
    let (mut b, _, vaddr) = victim();
    let note = phdrs(&b).into_iter().find(|p| p.kind == 4).unwrap();
    make_load(&mut b, note.at, 0, 0x7000_0000, vaddr, 4096, 4096);
    reported(&dir, &b, "physical addresses");
}

/// The table left out of the file part of the segment that maps it: the
/// program reads zeros, or nothing, there.
#[test]
fn a_table_left_out_of_its_segments_file_part_is_reported() {
    let dir = tmp("loader-filesz");
    let (mut b, at, _) = victim();
    let load = phdrs(&b)
        .into_iter()
        .find(|p| p.kind == 1 && p.offset <= at as u64 && (at as u64) < p.offset + p.filesz)
        .unwrap();
    put64(&mut b, load.at + 32, at as u64 + 1000 - load.offset);
    reported(&dir, &b, "not wholly in the file part");
}

/// One `R_X86_64_RELATIVE` of `.rela.dyn` moved into the table: the dynamic
/// loader writes an address over four of its entries.
fn relocation_into_table(b: &mut [u8], vaddr: u64, kind: Option<u32>, target: u64) {
    let (_, off, size) = section(b, ".rela.dyn");
    let entry = (off..off + size)
        .step_by(24)
        .find(|&e| u32_at(b, e as usize + 8) == 8) // R_X86_64_RELATIVE
        .expect("a relative relocation") as usize;
    assert!(vaddr > 0);
    put64(b, entry, target);
    if let Some(k) = kind {
        put32(b, entry + 8, k);
    }
}

#[test]
fn a_dynamic_relocation_into_a_table_is_reported() {
    let dir = tmp("loader-rela");
    let (mut b, _, vaddr) = victim();
    relocation_into_table(&mut b, vaddr, None, vaddr + 2 * 0x3f80);
    let line = reported(&dir, &b, "writes at");
    assert!(line.contains("relocation"), "{line}");
}

/// The same with the section headers gone: the dynamic loader reads
/// `PT_DYNAMIC` only.
#[test]
fn a_dynamic_relocation_into_a_table_is_reported_without_section_headers() {
    let dir = tmp("loader-rela-noshdr");
    let (mut b, _, vaddr) = victim();
    relocation_into_table(&mut b, vaddr, None, vaddr + 2 * 0x3f80);
    put64(&mut b, 0x28, 0); // e_shoff
    b[0x3C..0x40].fill(0); // e_shnum, e_shstrndx
    reported(&dir, &b, "PT_DYNAMIC");
}

/// A copy relocation 64 bytes before the table: it copies a symbol of
/// another file's size, over the table.
#[test]
fn a_copy_relocation_before_a_table_is_reported() {
    let dir = tmp("loader-copy");
    let (mut b, _, vaddr) = victim();
    relocation_into_table(&mut b, vaddr, Some(5), vaddr - 64); // R_X86_64_COPY
    reported(&dir, &b, "(type 5)");
}

/// A relocation into a table's declaration, not its entries: the
/// declaration is part of what is judged.
#[test]
fn a_dynamic_relocation_into_a_declaration_is_reported() {
    let dir = tmp("loader-declaration");
    let (mut b, _, vaddr) = victim();
    // The declaration's hash field: 128 - 16 bytes before the table.
    relocation_into_table(&mut b, vaddr, None, vaddr - 112);
    reported(&dir, &b, "writes at");
}

/// The dynamic table's entries: (file offset of the entry, tag, value).
fn dynamic_entries(b: &[u8]) -> Vec<(usize, u64, u64)> {
    let (_, off, size) = section(b, ".dynamic");
    (off..off + size)
        .step_by(16)
        .map(|e| (e as usize, u64_at(b, e as usize), u64_at(b, e as usize + 8)))
        .collect()
}

/// The loader reads `PT_DYNAMIC` at its address, not its file offset: the
/// offset pointed at zeros (an empty table) changes nothing it does.
#[test]
fn pt_dynamic_is_read_at_its_address_not_its_file_offset() {
    let dir = tmp("loader-dynamic-vaddr");
    let (mut b, _, vaddr) = victim();
    relocation_into_table(&mut b, vaddr, None, vaddr + 2 * 0x3f80);
    let dynamic = phdrs(&b)
        .into_iter()
        .find(|p| p.kind == 2)
        .expect("PT_DYNAMIC");
    // 4 KiB of zeros appended: the offset now names an empty table.
    let zeros = b.len() as u64;
    b.extend(std::iter::repeat_n(0u8, 4096));
    put64(&mut b, dynamic.at + 8, zeros);
    put64(&mut b, 0x28, 0);
    b[0x3C..0x40].fill(0);
    reported(&dir, &b, "PT_DYNAMIC");
}

/// A loader keeps the last of a repeated tag: a second `DT_RELA` naming
/// other relocations is read too.
#[test]
fn a_second_dt_rela_is_read() {
    let dir = tmp("loader-dt-rela-twice");
    let (mut b, _, vaddr) = victim();
    // One relocation, R_X86_64_RELATIVE into the table, written over the
    // start of .eh_frame (in a PT_LOAD's file part).
    let (_, eh, _) = section(&b, ".eh_frame");
    let eh_vaddr = {
        let load = phdrs(&b)
            .into_iter()
            .find(|p| p.kind == 1 && p.offset <= eh && eh < p.offset + p.filesz)
            .unwrap();
        load.vaddr + (eh - load.offset)
    };
    put64(&mut b, eh as usize, vaddr + 2 * 0x3f80);
    put64(&mut b, eh as usize + 8, 8);
    put64(&mut b, eh as usize + 16, 0);
    // DT_FINI (13) turned into a second DT_RELA (7) naming it.
    let (at, _, _) = dynamic_entries(&b)
        .into_iter()
        .find(|e| e.1 == 13)
        .expect("DT_FINI");
    put64(&mut b, at, 7);
    put64(&mut b, at + 8, eh_vaddr);
    put64(&mut b, 0x28, 0);
    b[0x3C..0x40].fill(0);
    reported(&dir, &b, "PT_DYNAMIC");
}

/// A segment with no file part maps zero pages: one on the page of a
/// table's last bytes, past them, with a file offset that would make a
/// mapped segment unloadable, zeroes the table's tail.
#[test]
fn a_zero_page_segment_on_a_tables_page_is_reported() {
    let dir = tmp("loader-zero-page");
    let (mut b, _, vaddr) = victim();
    let end = vaddr + 131_072;
    assert!(end % 4096 < 4000, "the table's end is not near a page end");
    let note = phdrs(&b).into_iter().find(|p| p.kind == 4).unwrap();
    make_load(&mut b, note.at, 0x123, end + 8, end + 8, 0, 16);
    // The bytes it covers are the next table's; the page is gelu_bf16's too.
    reported(&dir, &b, "maps other bytes over it");
}

/// More program headers than Linux reads: not judged, so a problem.
#[test]
fn more_program_headers_than_a_loader_reads_is_a_problem() {
    let dir = tmp("loader-phnum");
    let (mut b, _, _) = victim();
    let at = b.len() as u64;
    b.extend(std::iter::repeat_n(0u8, 1200 * 56));
    put64(&mut b, 0x20, at);
    b[0x38..0x3A].copy_from_slice(&1200u16.to_le_bytes());
    let (code, json) = audit(&dir, &b);
    assert_eq!(code, Some(1));
    assert!(
        json.contains("program headers take 67200 bytes"),
        "{}",
        &json[json.len().saturating_sub(1500)..]
    );
}

/// Without `--json`, each problem of the load map is its own line.
#[test]
fn the_text_report_prints_each_load_map_problem() {
    let dir = tmp("loader-text");
    let (mut b, _, vaddr) = victim();
    relocation_into_table(&mut b, vaddr, None, vaddr + 2 * 0x3f80);
    let file = dir.join("artifact");
    std::fs::write(&file, &b).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_actlut"))
        .args(["audit", file.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text.lines()
            .any(|l| l.starts_with("  LOADED OVER: declared table gelu_bf16")),
        "{}",
        &text[text.len().saturating_sub(1500)..]
    );
}

/// The virtual address of the file offset `off`, through the `PT_LOAD`
/// that maps it.
fn vaddr_of(b: &[u8], off: u64) -> u64 {
    let load = phdrs(b)
        .into_iter()
        .find(|p| p.kind == 1 && p.offset <= off && off < p.offset + p.filesz)
        .expect("a PT_LOAD maps it");
    load.vaddr + (off - load.offset)
}

fn set_dynamic(b: &mut [u8], tag: u64, value: u64) {
    let (at, _, _) = dynamic_entries(b)
        .into_iter()
        .find(|e| e.1 == tag)
        .unwrap_or_else(|| panic!("tag {tag}"));
    put64(b, at + 8, value);
}

/// A relocation that rewrites a later relocation's target into a table:
/// as the file holds them, neither names a table; ld.so reads the second
/// after the first has written it.
#[test]
fn a_relocation_into_the_relocations_is_a_problem() {
    let dir = tmp("loader-self-modifying");
    let (mut b, _, vaddr) = victim();
    let (_, x, _) = section(&b, ".eh_frame");
    let xv = vaddr_of(&b, x);
    // A: R_X86_64_DTPOFF64 (17) of symbol 0 writes its addend, the table's
    // address, over B's r_offset. B: harmless as it stands.
    let entries = [(xv + 24, 17u64, vaddr + 0x100), (xv + 48, 17, 0)];
    for (k, (off, info, addend)) in entries.into_iter().enumerate() {
        let at = x as usize + 24 * k;
        put64(&mut b, at, off);
        put64(&mut b, at + 8, info);
        put64(&mut b, at + 16, addend);
    }
    set_dynamic(&mut b, 23, xv); // DT_JMPREL
    set_dynamic(&mut b, 2, 48); // DT_PLTRELSZ
    let (code, json) = audit(&dir, &b);
    assert_eq!(code, Some(1));
    assert!(
        json.contains("which the audit reads to know where the loader writes, is itself written"),
        "{}",
        &json[json.len().saturating_sub(1500)..]
    );
}

/// ld.so reads the dynamic table to `DT_NULL`, whatever `p_filesz` says.
#[test]
fn the_dynamic_table_is_read_to_dt_null_whatever_its_size() {
    let dir = tmp("loader-dynamic-filesz");
    let (mut b, _, vaddr) = victim();
    relocation_into_table(&mut b, vaddr, None, vaddr + 2 * 0x3f80);
    let dynamic = phdrs(&b).into_iter().find(|p| p.kind == 2).unwrap();
    put64(&mut b, dynamic.at + 32, 0); // p_filesz
    put64(&mut b, 0x28, 0);
    b[0x3C..0x40].fill(0);
    reported(&dir, &b, "PT_DYNAMIC");
}

/// A segment that maps a page over the relocation tables (by pages, as the
/// kernel maps it): what the audit read is not what ld.so reads.
#[test]
fn a_segment_over_the_relocation_tables_is_a_problem() {
    let dir = tmp("loader-overlay-relocations");
    let (mut b, _, _) = victim();
    let copy = (b.len() as u64).next_multiple_of(4096);
    let page0 = b[..4096].to_vec();
    b.resize(copy as usize, 0);
    b.extend_from_slice(&page0);
    let note = phdrs(&b).into_iter().find(|p| p.kind == 4).unwrap();
    // 16 bytes of page 0's copy at 0x800: the kernel maps its whole page.
    make_load(&mut b, note.at, copy + 0x800, 0x800, 0x800, 16, 16);
    let (code, json) = audit(&dir, &b);
    assert_eq!(code, Some(1));
    assert!(
        json.contains("which the audit reads to know where the loader writes, is mapped over"),
        "{}",
        &json[json.len().saturating_sub(1500)..]
    );
}

/// A tag repeated with many values: not read, a problem.
#[test]
fn a_dynamic_tag_repeated_with_many_values_is_a_problem() {
    let dir = tmp("loader-repeats");
    let (mut b, _, _) = victim();
    let rela = dynamic_entries(&b)
        .into_iter()
        .find(|e| e.1 == 7)
        .unwrap()
        .2;
    // DT_INIT, DT_FINI, DT_INIT_ARRAY, DT_FINI_ARRAY, DT_VERSYM: five more
    // DT_RELA values, 24 bytes apart.
    for (k, tag) in [12u64, 13, 25, 26, 0x6fff_fff0].into_iter().enumerate() {
        let (at, _, _) = dynamic_entries(&b)
            .into_iter()
            .find(|e| e.1 == tag)
            .unwrap();
        put64(&mut b, at, 7);
        put64(&mut b, at + 8, rela + 24 * (k as u64 + 1));
    }
    let (code, json) = audit(&dir, &b);
    assert_eq!(code, Some(1));
    assert!(
        json.contains("repeats tag 7"),
        "{}",
        &json[json.len().saturating_sub(1500)..]
    );
}

/// ld.so takes the load base from `PT_PHDR` (the kernel's `AT_PHDR` minus
/// its `p_vaddr`): one that names another address moves the dynamic table
/// and every relocation target.
#[test]
fn a_pt_phdr_that_is_not_where_the_program_headers_are_is_a_problem() {
    let dir = tmp("loader-pt-phdr");
    let (mut b, _, _) = victim();
    let phdr = phdrs(&b)
        .into_iter()
        .find(|p| p.kind == 6)
        .expect("PT_PHDR");
    put64(&mut b, phdr.at + 16, phdr.vaddr + 0x1000);
    let (code, json) = audit(&dir, &b);
    assert_eq!(code, Some(1));
    assert!(
        json.contains("its PT_PHDR"),
        "{}",
        &json[json.len().saturating_sub(1500)..]
    );
}

/// A table mapped at more addresses than the audit compares (a build maps
/// each byte once): a problem, not a long comparison.
#[test]
fn a_table_mapped_at_many_addresses_is_a_problem() {
    let dir = tmp("loader-many-maps");
    let (mut b, at, _) = victim();
    let page = (at as u64) & !0xfff;
    // Five program headers that are not PT_LOAD, each turned into one that
    // maps the table's pages at its own address.
    let slots: Vec<Phdr> = phdrs(&b)
        .into_iter()
        .filter(|p| p.kind != 1 && p.kind != 6 && p.kind != 2)
        .take(5)
        .collect();
    assert_eq!(slots.len(), 5);
    for (k, p) in slots.iter().enumerate() {
        let va = 0x1000_0000 * (k as u64 + 1) + page;
        make_load(&mut b, p.at, page, va, va, 0x3_0000, 0x3_0000);
    }
    reported(&dir, &b, "segments map it at different addresses");
}

/// ld.so writes the GOT header at `DT_PLTGOT` itself (GOT[1], GOT[2] under
/// lazy binding), with no relocation entry.
#[test]
fn ld_so_s_own_got_header_write_is_judged() {
    let dir = tmp("loader-pltgot");
    let (mut b, _, vaddr) = victim();
    set_dynamic(&mut b, 3, vaddr + 0x100 - 8); // DT_PLTGOT
    reported(&dir, &b, "DT_PLTGOT");
}

/// ld.so maps a segment's file part whatever its `p_memsz`.
#[test]
fn a_segment_whose_memsz_is_below_its_filesz_is_judged_by_its_file_part() {
    let dir = tmp("loader-memsz");
    let (mut b, _, vaddr) = victim();
    let note = phdrs(&b).into_iter().find(|p| p.kind == 4).unwrap();
    let page = (vaddr + 0x2000) & !0xfff;
    make_load(&mut b, note.at, 0x1000, page, page, 0x1000, 0);
    reported(&dir, &b, "maps other bytes over it");
}

/// The program headers mapped at a second address: the kernel's AT_PHDR
/// may name either, and ld.so takes its load base from it.
#[test]
fn program_headers_mapped_at_two_addresses_are_a_problem() {
    let dir = tmp("loader-phdr-twice");
    let (mut b, _, _) = victim();
    let note = phdrs(&b).into_iter().find(|p| p.kind == 4).unwrap();
    make_load(&mut b, note.at, 0, 0x4000_0000, 0x4000_0000, 0x1000, 0x1000);
    let (code, json) = audit(&dir, &b);
    assert_eq!(code, Some(1));
    assert!(
        json.contains("program headers are mapped at 2 addresses"),
        "{}",
        &json[json.len().saturating_sub(1500)..]
    );
}

/// A relocation writes its own width: an R_X86_64_RELATIVE (8 bytes) just
/// before the dynamic table, as GNU ld places `.fini_array`, is no problem;
/// a TLS descriptor (16 bytes) there is.
#[test]
fn a_relocation_writes_its_types_width() {
    let dir = tmp("loader-width");
    let (b, _, vaddr) = victim();
    let dynamic = phdrs(&b).into_iter().find(|p| p.kind == 2).unwrap();
    let mut plain = b.clone();
    relocation_into_table(&mut plain, vaddr, None, dynamic.vaddr - 8);
    let (code, json) = audit(&dir, &plain);
    assert_eq!(
        code,
        Some(0),
        "{}",
        &json[json.len().saturating_sub(1500)..]
    );
    let mut wide = b;
    relocation_into_table(&mut wide, vaddr, Some(36), dynamic.vaddr - 8); // R_X86_64_TLSDESC
    let (code, json) = audit(&dir, &wide);
    assert_eq!(code, Some(1));
    assert!(
        json.contains("the dynamic table at"),
        "{}",
        &json[json.len().saturating_sub(1500)..]
    );
}
