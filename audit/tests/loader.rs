//! Where the program reads the tables (docs/audit.md, "Where the program
//! reads the tables"), on crafted files: wasm modules whose data segments
//! or relocations write over a declared table; ELF, COFF and Mach-O object
//! files, written with `object`, with a relocation into one; a mergeable
//! section; an archive member; a PE image's base relocation; XCOFF's byte
//! order. In each, every byte of
//! the declared table is intact in the file; the untouched file passes.

mod common;

use common::{leb, sleb};

use actlut_audit::container::inspect;
use actlut_audit::{Index, Report};
use object::write::{Object, Relocation, Symbol, SymbolSection};
use object::{
    Architecture, BinaryFormat, Endianness, RelocationEncoding, RelocationFlags, RelocationKind,
    SectionKind, SymbolFlags, SymbolKind, SymbolScope,
};

fn lock() -> Vec<actlut_codegen::lock::Entry> {
    common::gelu_bf16_lock()
}

fn index() -> Index {
    common::gelu_bf16_index()
}

fn declared(big: bool) -> Vec<u8> {
    common::declared_gelu_bf16(big)
}

/// What `actlut audit` does with a file: its container, the scan, and the
/// load map.
fn audit(bytes: &[u8]) -> Report {
    let c = inspect(bytes, bytes.len() as u64);
    let mut r = index().scan_reader_in(bytes, c.order).unwrap();
    r.malformed = c.problem.clone();
    actlut_audit::loader::judge_report(&mut r, bytes, bytes.len() as u64);
    r
}

fn problems(bytes: &[u8]) -> Vec<String> {
    let r = audit(bytes);
    assert!(
        r.declared.iter().any(|d| d.name() == Some("gelu_bf16")),
        "the declaration is found"
    );
    r.problems(&lock())
}

fn assert_reported(bytes: &[u8], needle: &str) {
    let p = problems(bytes);
    assert!(
        p.iter()
            .any(|l| l.starts_with("declared table gelu_bf16") && l.contains(needle)),
        "no problem says {needle:?}: {p:#?}"
    );
}

fn assert_passes(bytes: &[u8]) {
    assert_eq!(problems(bytes), Vec::<String>::new());
}

// ---- wasm ----

fn section(id: u8, body: &[u8], out: &mut Vec<u8>) {
    out.push(id);
    leb(body.len() as u64, out);
    out.extend_from_slice(body);
}

/// A data segment.
enum Seg<'a> {
    /// Active, in memory 0, at `i32.const addr`.
    At(i64, &'a [u8]),
    /// Active, in memory 0, at `global.get g`.
    Global(u32, &'a [u8]),
    Passive(&'a [u8]),
    /// Active, in memory 0, at the offset expression `expr` (its
    /// instructions, before `end`).
    Expr(Vec<u8>, &'a [u8]),
}

/// A wasm module: a memory of 4 pages, an imported global (for segments
/// placed by a global), the data segments, then custom sections.
fn module(segments: &[Seg], custom: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let mut m = b"\0asm\x01\0\0\0".to_vec();
    // Import section: global "env" "base" i32, immutable.
    let mut import = vec![1];
    for s in ["env", "base"] {
        leb(s.len() as u64, &mut import);
        import.extend_from_slice(s.as_bytes());
    }
    import.extend([0x03, 0x7F, 0x00]);
    section(2, &import, &mut m);
    section(5, &[1, 0, 4], &mut m); // one memory, min 4 pages
    let mut data = Vec::new();
    leb(segments.len() as u64, &mut data);
    for s in segments {
        let bytes = match s {
            Seg::At(addr, b) => {
                data.extend([0, 0x41]);
                sleb(*addr, &mut data);
                data.push(0x0B);
                b
            }
            Seg::Global(g, b) => {
                data.extend([0, 0x23]);
                leb(u64::from(*g), &mut data);
                data.push(0x0B);
                b
            }
            Seg::Passive(b) => {
                data.push(1);
                b
            }
            Seg::Expr(e, b) => {
                data.push(0);
                data.extend_from_slice(e);
                data.push(0x0B);
                b
            }
        };
        leb(bytes.len() as u64, &mut data);
        data.extend_from_slice(bytes);
    }
    section(11, &data, &mut m);
    for (name, body) in custom {
        let mut c = Vec::new();
        leb(name.len() as u64, &mut c);
        c.extend_from_slice(name.as_bytes());
        c.extend_from_slice(body);
        section(0, &c, &mut m);
    }
    m
}

/// The address, in segment 0 at 0x100, of gelu(1.0)'s entry and its
/// neighbours.
const OVER: i64 = 0x100 + 128 + 2 * 0x3f80;

#[test]
fn a_wasm_module_with_its_table_in_an_active_segment_passes() {
    let t = declared(false);
    assert_passes(&module(&[Seg::At(0x100, &t)], &[]));
    // Another segment elsewhere, and one before it in the file over the
    // same addresses (the table's segment is written after it), change
    // nothing.
    assert_passes(&module(
        &[
            Seg::At(OVER, &[0; 8]),
            Seg::At(0x100, &t),
            Seg::At(0x3_0000, &[1; 64]),
        ],
        &[],
    ));
}

#[test]
fn a_later_wasm_data_segment_over_a_declared_table_is_reported() {
    let t = declared(false);
    assert_reported(
        &module(&[Seg::At(0x100, &t), Seg::At(OVER, &[0; 8])], &[]),
        "data segment 1 is written over it",
    );
    // Its last byte over the table's first.
    assert_reported(
        &module(&[Seg::At(0x100, &t), Seg::At(0xFF, &[0; 2])], &[]),
        "data segment 1 is written over it",
    );
}

/// `i32.add` wraps: `-1 + (OVER + 1)` is `OVER`, modulo 2^32 (the
/// extended-const proposal's instructions).
#[test]
fn a_wasm_segment_offset_that_wraps_is_read_as_the_engine_adds() {
    let t = declared(false);
    let mut e = vec![0x41];
    sleb(-1, &mut e);
    e.push(0x41);
    sleb(OVER + 1, &mut e);
    e.push(0x6A); // i32.add
    assert_reported(
        &module(&[Seg::At(0x100, &t), Seg::Expr(e, &[0; 8])], &[]),
        "data segment 1 is written over it",
    );
    // Placed by one global, the two ranges overlap on the circle of 2^32
    // addresses whatever the global's value: -16 from it, 32 bytes long,
    // reaches the table at +0.
    let mut e = vec![0x23, 0, 0x41];
    sleb(-16, &mut e);
    e.push(0x6A);
    assert_reported(
        &module(&[Seg::Global(0, &t), Seg::Expr(e, &[0; 32])], &[]),
        "data segment 1 is written over it",
    );
    // An instruction the audit does not read (i32.mul): a problem.
    let e = vec![0x41, 2, 0x41, 2, 0x6C];
    assert_reported(
        &module(&[Seg::At(0x100, &t), Seg::Expr(e, &[0; 8])], &[]),
        "offset expression the audit does not read",
    );
}

#[test]
fn a_wasm_table_outside_data_segments_is_reported() {
    let t = declared(false);
    assert_reported(
        &module(&[], &[("x", t.clone())]),
        "not wholly in one data segment",
    );
    // A custom section named `linking` (an object file's) changes nothing:
    // the module still instantiates, and reads only its segments.
    assert_reported(
        &module(
            &[Seg::At(0, &[1; 16])],
            &[("x", t.clone()), ("linking", vec![2])],
        ),
        "not wholly in one data segment",
    );
}

#[test]
fn wasm_segments_placed_by_another_global_are_reported() {
    let t = declared(false);
    // The table at `i32.const`, a later segment at the imported global:
    // where it lands is the host's choice.
    assert_reported(
        &module(&[Seg::At(0x100, &t), Seg::Global(0, &[0; 8])], &[]),
        "placed by another global",
    );
    // Both at the same global: compared, and apart.
    assert_passes(&module(&[Seg::Global(0, &t), Seg::Global(0, &[])], &[]));
}

/// Two imports of one memory: a host may pass the same memory for both, so
/// a segment of the second over the table in the first is reported.
#[test]
fn segments_of_two_imported_memories_are_compared_as_one() {
    let t = declared(false);
    let mut m = b"\0asm\x01\0\0\0".to_vec();
    let mut import = vec![2];
    for _ in 0..2 {
        for s in ["env", "memory"] {
            leb(s.len() as u64, &mut import);
            import.extend_from_slice(s.as_bytes());
        }
        import.extend([0x02, 0x00, 0x04]); // memory, min 4 pages
    }
    section(2, &import, &mut m);
    let mut data = vec![2];
    // Memory 0 at 0x100: the table. Memory 1 (flag 2, explicit index) at
    // OVER: 8 zero bytes.
    data.extend([0, 0x41]);
    sleb(0x100, &mut data);
    data.push(0x0B);
    leb(t.len() as u64, &mut data);
    data.extend_from_slice(&t);
    data.extend([2, 1, 0x41]);
    sleb(OVER, &mut data);
    data.push(0x0B);
    leb(8, &mut data);
    data.extend([0; 8]);
    section(11, &data, &mut m);
    assert_reported(&m, "an imported memory");
}

/// A wasm object file's `linking` section marks a segment STRINGS: the
/// linker merges it as strings (as ELF's SHF_MERGE).
#[test]
fn a_wasm_segment_marked_strings_is_reported() {
    let t = declared(false);
    let linking = |flags: u64| {
        let mut info = Vec::new();
        leb(1, &mut info); // one segment
        leb(1, &mut info);
        info.push(b'x');
        leb(0, &mut info); // alignment
        leb(flags, &mut info);
        let mut body = Vec::new();
        leb(2, &mut body); // version
        body.push(5); // WASM_SEGMENT_INFO
        leb(info.len() as u64, &mut body);
        body.extend(info);
        body
    };
    assert_passes(&module(&[Seg::At(0x100, &t)], &[("linking", linking(0))]));
    assert_reported(
        &module(&[Seg::At(0x100, &t)], &[("linking", linking(1))]),
        "marked STRINGS",
    );
}

#[test]
fn a_passive_wasm_segment_is_left_to_the_code() {
    // docs/audit.md, out of scope: the code places a passive segment.
    let t = declared(false);
    assert_passes(&module(&[Seg::Passive(&t), Seg::At(0, &[0; 8])], &[]));
}

#[test]
fn a_wasm_relocation_into_a_declared_table_is_reported() {
    let t = declared(false);
    let plain = module(&[Seg::At(0x100, &t)], &[]);
    // The data section's content starts with the segment count (1 byte)
    // and the segment's header: flags, i32.const, LEB, end, length.
    let mut head = vec![1u8, 0, 0x41];
    sleb(0x100, &mut head);
    head.push(0x0B);
    leb(t.len() as u64, &mut head);
    let entry_at = head.len() as u64 + 128 + 2 * 0x3f80;
    // reloc.DATA: target section 2 (import 0, memory 1, data 2); one
    // R_WASM_MEMORY_ADDR_I32 (5) with symbol 0 and addend 0.
    let mut reloc = Vec::new();
    leb(2, &mut reloc);
    leb(1, &mut reloc);
    reloc.push(5);
    leb(entry_at, &mut reloc);
    leb(0, &mut reloc);
    sleb(0, &mut reloc);
    let with = module(&[Seg::At(0x100, &t)], &[("reloc.DATA", reloc)]);
    assert_passes(&plain);
    assert_reported(&with, "wasm relocation");
    // A reloc section that does not parse is a problem of the file.
    let bad = module(&[Seg::At(0x100, &t)], &[("reloc.DATA", vec![0xFF])]);
    assert!(
        problems(&bad).iter().any(|p| p.contains("does not parse")),
        "{:?}",
        problems(&bad)
    );
}

// ---- object files ----

/// An object file of `format` with one read-only data section holding the
/// declared gelu_bf16, a second section, and, when `reloc`, an absolute
/// 64-bit relocation at the entry of gelu(1.0).
fn object_file(
    format: BinaryFormat,
    arch: Architecture,
    endian: Endianness,
    reloc: bool,
) -> Vec<u8> {
    let mut o = Object::new(format, arch, endian);
    let data = o.add_section(
        Vec::new(),
        b".rodata.gelu".to_vec(),
        SectionKind::ReadOnlyData,
    );
    let t = declared(endian == Endianness::Big);
    o.append_section_data(data, &t, 16);
    let text = o.add_section(Vec::new(), b".text".to_vec(), SectionKind::Text);
    o.append_section_data(text, &[0xC3; 16], 16);
    let sym = o.add_symbol(Symbol {
        name: b"f".to_vec(),
        value: 0,
        size: 16,
        kind: SymbolKind::Text,
        scope: SymbolScope::Linkage,
        weak: false,
        section: SymbolSection::Section(text),
        flags: SymbolFlags::None,
    });
    if reloc {
        o.add_relocation(
            data,
            Relocation {
                offset: 128 + 2 * 0x3f80,
                symbol: sym,
                addend: 0,
                flags: RelocationFlags::Generic {
                    kind: RelocationKind::Absolute,
                    encoding: RelocationEncoding::Generic,
                    size: 64,
                },
            },
        )
        .unwrap();
    }
    o.write().unwrap()
}

#[test]
fn a_relocation_into_a_declared_table_of_an_elf_object_is_reported() {
    let le = |r| {
        object_file(
            BinaryFormat::Elf,
            Architecture::X86_64,
            Endianness::Little,
            r,
        )
    };
    assert_passes(&le(false));
    assert_reported(&le(true), "has the linker write at");
    // Big-endian, 64-bit PowerPC.
    let be = |r| {
        object_file(
            BinaryFormat::Elf,
            Architecture::PowerPc64,
            Endianness::Big,
            r,
        )
    };
    assert_passes(&be(false));
    assert_reported(&be(true), "has the linker write at");
}

#[test]
fn a_declared_table_in_a_mergeable_section_is_reported() {
    let mut f = object_file(
        BinaryFormat::Elf,
        Architecture::X86_64,
        Endianness::Little,
        false,
    );
    // Set SHF_MERGE on the section that holds the table, read by the ELF64
    // layout.
    let shoff = u64::from_le_bytes(f[0x28..0x30].try_into().unwrap()) as usize;
    let n = u16::from_le_bytes([f[0x3C], f[0x3D]]) as usize;
    let at = (0..n)
        .map(|i| shoff + 64 * i)
        .find(|&h| {
            let off = u64::from_le_bytes(f[h + 24..h + 32].try_into().unwrap());
            let size = u64::from_le_bytes(f[h + 32..h + 40].try_into().unwrap());
            size > 100_000 && f[off as usize..off as usize + 8] == *b"ACTLUTDT"
        })
        .unwrap();
    f[at + 8] |= 0x10; // SHF_MERGE
    assert_reported(&f, "mergeable");
    // Another header over the same bytes, not allocated, does not hide it:
    // every allocated section the table overlaps is judged.
    let other = (0..n)
        .map(|i| shoff + 64 * i)
        .find(|&h| h != at && u32::from_le_bytes(f[h + 4..h + 8].try_into().unwrap()) == 1)
        .expect("another SHT_PROGBITS section");
    let (off, size) = (f[at + 24..at + 32].to_vec(), f[at + 32..at + 40].to_vec());
    f[other + 8..other + 16].fill(0);
    f[other + 24..other + 32].copy_from_slice(&off);
    f[other + 32..other + 40].copy_from_slice(&size);
    assert_reported(&f, "mergeable");
    // SHT_NOBITS over the table: the linker writes zeros there.
    f[at + 8] &= !0x10;
    f[at + 4..at + 8].copy_from_slice(&8u32.to_le_bytes());
    assert_reported(&f, "not SHT_PROGBITS");
}

fn ar(members: &[(&str, &[u8])]) -> Vec<u8> {
    common::ar(members)
}

#[test]
fn a_relocation_into_a_declared_table_of_an_archive_member_is_reported() {
    let plain = object_file(
        BinaryFormat::Elf,
        Architecture::X86_64,
        Endianness::Little,
        false,
    );
    let reloc = object_file(
        BinaryFormat::Elf,
        Architecture::X86_64,
        Endianness::Little,
        true,
    );
    assert_passes(&ar(&[("a.o", &plain)]));
    let lib = ar(&[("a.o", &plain), ("b.o", &reloc)]);
    let p = problems(&lib);
    // The member's table is reported, at its offset in the archive; the
    // first member's is not.
    let second = lib.len() - reloc.len();
    let hits: Vec<&String> = p
        .iter()
        .filter(|l| l.starts_with("declared table") && l.contains("has the linker write at"))
        .collect();
    assert_eq!(hits.len(), 1, "{p:#?}");
    assert!(
        hits[0].contains(&format!("{:#x}", second as u64 + reloc_offset(&reloc))),
        "{}",
        hits[0]
    );
}

/// Where the declaration lies in an object file.
fn reloc_offset(f: &[u8]) -> u64 {
    f.windows(8).position(|w| w == b"ACTLUTDT").unwrap() as u64
}

#[test]
fn a_relocation_into_a_declared_table_of_a_coff_or_mach_o_object_is_reported() {
    for (format, arch) in [
        (BinaryFormat::Coff, Architecture::X86_64),
        (BinaryFormat::MachO, Architecture::X86_64),
        (BinaryFormat::MachO, Architecture::Aarch64),
    ] {
        let f = |r| object_file(format, arch, Endianness::Little, r);
        assert_passes(&f(false));
        assert_reported(&f(true), "a relocation of section");
    }
}

#[test]
fn an_xcoff_file_declares_big_endian_and_a_little_endian_declaration_in_it_is_a_problem() {
    let xcoff = |big| {
        let mut o = Object::new(
            BinaryFormat::Xcoff,
            Architecture::PowerPc64,
            Endianness::Big,
        );
        let data = o.add_section(Vec::new(), b".data".to_vec(), SectionKind::Data);
        o.append_section_data(data, &declared(big), 16);
        o.write().unwrap()
    };
    let c = inspect(&xcoff(true)[..], xcoff(true).len() as u64);
    assert_eq!(
        (c.kind, c.order),
        ("XCOFF", Some(actlut_audit::ByteOrder::Big)),
        "{c:?}"
    );
    assert_passes(&xcoff(true));
    let p = problems(&xcoff(false));
    assert!(
        !p.is_empty(),
        "a little-endian declaration in an XCOFF file passes"
    );
}

/// A PE32+ image with gelu_bf16 declared in `.rdata`, and, when `reloc`, a
/// base relocation (`IMAGE_REL_BASED_DIR64`) at the entry of gelu(1.0):
/// the loader adds the rebase delta there when it maps the image elsewhere.
fn pe_image(reloc: bool) -> Vec<u8> {
    use object::pe;
    use object::write::pe::{NtHeaders, Writer};
    let table = declared(false);
    let mut buf = Vec::new();
    let mut w = Writer::new(true, 0x1000, 0x200, &mut buf);
    w.reserve_dos_header_and_stub();
    w.reserve_nt_headers(16);
    w.reserve_section_headers(if reloc { 2 } else { 1 });
    let rdata = w.reserve_rdata_section(table.len() as u32);
    if reloc {
        w.add_reloc(
            rdata.virtual_address + 128 + 2 * 0x3f80,
            pe::IMAGE_REL_BASED_DIR64,
        );
        w.reserve_reloc_section();
    }
    w.write_dos_header_and_stub().unwrap();
    w.write_nt_headers(NtHeaders {
        machine: pe::IMAGE_FILE_MACHINE_AMD64,
        time_date_stamp: 0,
        characteristics: pe::IMAGE_FILE_EXECUTABLE_IMAGE | pe::IMAGE_FILE_LARGE_ADDRESS_AWARE,
        major_linker_version: 14,
        minor_linker_version: 0,
        address_of_entry_point: 0,
        image_base: 0x1_4000_0000,
        major_operating_system_version: 6,
        minor_operating_system_version: 0,
        major_image_version: 0,
        minor_image_version: 0,
        major_subsystem_version: 6,
        minor_subsystem_version: 0,
        subsystem: pe::IMAGE_SUBSYSTEM_WINDOWS_CUI,
        dll_characteristics: pe::IMAGE_DLLCHARACTERISTICS_DYNAMIC_BASE,
        size_of_stack_reserve: 0x10_0000,
        size_of_stack_commit: 0x1000,
        size_of_heap_reserve: 0x10_0000,
        size_of_heap_commit: 0x1000,
    });
    w.write_section_headers();
    w.write_section(rdata.file_offset, &table);
    if reloc {
        w.write_reloc_section();
    }
    buf
}

#[test]
fn a_base_relocation_into_a_declared_table_of_a_pe_image_is_reported() {
    let c = inspect(&pe_image(false)[..], pe_image(false).len() as u64);
    assert_eq!(c.kind, "PE", "{c:?}");
    assert_passes(&pe_image(false));
    assert_reported(&pe_image(true), "base relocation (PE)");
    // A block the audit cannot read (an 8-byte block of no entries, after
    // which `object` stops): every table is reported.
    let mut f = pe_image(true);
    let reloc = f
        .windows(8)
        .rposition(|w| w == b".reloc\0\0")
        .expect("the .reloc section header");
    let raw = u32::from_le_bytes(f[reloc + 20..reloc + 24].try_into().unwrap()) as usize;
    f[raw + 4..raw + 8].copy_from_slice(&8u32.to_le_bytes());
    assert_reported(&f, "do not parse");
}

/// Out of scope (docs/audit.md, "Where the code reads"): the data segment
/// holding a declared table moved to another address, the table intact
/// there. The code reads the old address; the audit, which does not know
/// it, passes the module. This test fails the day the audit judges it, so
/// that the page changes with it.
#[test]
fn a_wasm_data_segment_moved_elsewhere_is_not_judged() {
    let t = declared(false);
    assert_passes(&module(&[Seg::At(0x100, &t)], &[]));
    assert_passes(&module(&[Seg::At(0x2_0000, &t)], &[]));
}
