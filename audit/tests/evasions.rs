//! The previous round's load-map evasions of wasm modules, object files and
//! PE images (`audit/tests/loader.rs` at commit 59863df, 16 tests), under
//! this design (docs/audit.md, "What the audit does not promise"): the file
//! audit judges the file's bytes, and what a linker, a loader or a wasm
//! engine writes over a table is caught where it is written.
//!
//! Each class leaves every byte of the declared gelu_bf16 as built in the
//! file, so the file audit passes it (each test below fails the day the
//! file audit judges the class, so that docs/audit.md's table changes with
//! it). What catches it then:
//!
//! - an object file's relocation is applied by the linker: the linked file
//!   holds the changed table, and its file audit reports it
//!   ([`a_relocation_the_linker_applies_is_in_the_linked_file_and_reported`]);
//! - a wasm engine's or a loader's write is in the process only: the
//!   program's `self-check` verifies the table its code reads, in memory,
//!   before its first lookup, as `cli/tests/evasions.rs` shows on a real
//!   program with the ELF classes.
//!
//! The one class of these that is a problem of the file itself: a
//! declaration whose byte order is not its file's (XCOFF is big-endian).

#[path = "audit/common/mod.rs"]
mod common;

use common::{leb, sleb};

use actlut_audit::{Lock, Reference, Report};
use actlut_codegen::{Format, Function};
use object::write::{Object, Relocation, Symbol, SymbolSection};
use object::{
    Architecture, BinaryFormat, Endianness, RelocationEncoding, RelocationFlags, RelocationKind,
    SectionKind, SymbolFlags, SymbolKind, SymbolScope,
};

fn lock() -> Lock {
    Lock::new(
        "gelu_bf16",
        common::gelu_bf16_lock(),
        vec![Reference::generate(Function::Gelu, Format::Bf16)],
    )
}

fn declared(big: bool) -> Vec<u8> {
    common::declared_gelu_bf16(big)
}

/// The file audit of `bytes`, as `actlut audit` runs it.
fn audit(bytes: &[u8]) -> Report {
    actlut_audit::audit(bytes, &lock()).unwrap()
}

/// The file audit's problems, the declaration of gelu_bf16 found.
fn problems(bytes: &[u8]) -> Vec<String> {
    let l = lock();
    let r = actlut_audit::audit(bytes, &l).unwrap();
    assert!(
        r.declared.iter().any(|d| d.name() == Some("gelu_bf16")),
        "the declaration is found"
    );
    r.problems(&l.entries)
}

/// The file audit passes the file: gelu_bf16 declared, intact, no problem.
fn assert_file_passes(bytes: &[u8]) {
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

/// The address, in segment 0 at 0x100, of gelu(1.0)'s entry.
const OVER: i64 = 0x100 + 128 + 2 * 0x3f80;

/// The control: the table in an active segment, and other segments that
/// the engine writes before it or elsewhere.
#[test]
fn a_wasm_module_with_its_table_in_an_active_segment_passes() {
    let t = declared(false);
    assert_file_passes(&module(&[Seg::At(0x100, &t)], &[]));
    assert_file_passes(&module(
        &[
            Seg::At(OVER, &[0; 8]),
            Seg::At(0x100, &t),
            Seg::At(0x3_0000, &[1; 64]),
        ],
        &[],
    ));
}

/// A later data segment over the table (its last byte over the table's
/// first, or 8 bytes over gelu(1.0)): the engine writes it at
/// instantiation. The file passes; the program's self-check reports it.
#[test]
fn a_later_wasm_data_segment_over_a_declared_table_is_the_self_checks() {
    let t = declared(false);
    assert_file_passes(&module(&[Seg::At(0x100, &t), Seg::At(OVER, &[0; 8])], &[]));
    assert_file_passes(&module(&[Seg::At(0x100, &t), Seg::At(0xFF, &[0; 2])], &[]));
}

/// A segment's offset computed by an expression (one that wraps, one from a
/// global, one with an instruction the old emulation did not read): the
/// engine's, so the self-check's.
#[test]
fn a_wasm_segment_offset_that_wraps_is_the_self_checks() {
    let t = declared(false);
    let mut e = vec![0x41];
    sleb(-1, &mut e);
    e.push(0x41);
    sleb(OVER + 1, &mut e);
    e.push(0x6A); // i32.add
    assert_file_passes(&module(&[Seg::At(0x100, &t), Seg::Expr(e, &[0; 8])], &[]));
    let mut e = vec![0x23, 0, 0x41];
    sleb(-16, &mut e);
    e.push(0x6A);
    assert_file_passes(&module(&[Seg::Global(0, &t), Seg::Expr(e, &[0; 32])], &[]));
    let e = vec![0x41, 2, 0x41, 2, 0x6C]; // i32.mul
    assert_file_passes(&module(&[Seg::At(0x100, &t), Seg::Expr(e, &[0; 8])], &[]));
}

/// The declared table in a custom section, in no data segment: no engine
/// puts it in memory, so no program reads it; the file holds it intact,
/// and what the program reads (its own static) is the self-check's.
#[test]
fn a_wasm_table_outside_data_segments_is_not_read_by_any_program() {
    let t = declared(false);
    assert_file_passes(&module(&[], &[("x", t.clone())]));
    assert_file_passes(&module(
        &[Seg::At(0, &[1; 16])],
        &[("x", t), ("linking", vec![2])],
    ));
}

/// A later segment placed by an imported global (where it lands is the
/// host's choice): the self-check's.
#[test]
fn wasm_segments_placed_by_another_global_are_the_self_checks() {
    let t = declared(false);
    assert_file_passes(&module(&[Seg::At(0x100, &t), Seg::Global(0, &[0; 8])], &[]));
    assert_file_passes(&module(&[Seg::Global(0, &t), Seg::Global(0, &[])], &[]));
}

/// Two imports that a host may bind to one memory, a segment of the second
/// over the table in the first: the self-check's.
#[test]
fn segments_of_two_imported_memories_are_the_self_checks() {
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
    assert_file_passes(&m);
}

/// A wasm object file's `linking` section marking the table's segment
/// STRINGS (the linker merges it as strings): the linked module's bytes
/// are the linker's output, audited as a file of its own, and what the
/// program reads is the self-check's.
#[test]
fn a_wasm_segment_marked_strings_is_the_linked_files() {
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
    assert_file_passes(&module(&[Seg::At(0x100, &t)], &[("linking", linking(0))]));
    assert_file_passes(&module(&[Seg::At(0x100, &t)], &[("linking", linking(1))]));
}

/// A passive segment, placed by the code (`memory.init`): the self-check's.
#[test]
fn a_passive_wasm_segment_is_the_self_checks() {
    let t = declared(false);
    assert_file_passes(&module(&[Seg::Passive(&t), Seg::At(0, &[0; 8])], &[]));
}

/// A wasm relocation (`reloc.DATA`) at gelu(1.0)'s entry, and a `reloc.`
/// section that does not parse: applied by the linker, so in the linked
/// module's bytes (audited as a file of its own).
#[test]
fn a_wasm_relocation_into_a_declared_table_is_the_linked_files() {
    let t = declared(false);
    let mut head = vec![1u8, 0, 0x41];
    sleb(0x100, &mut head);
    head.push(0x0B);
    leb(t.len() as u64, &mut head);
    let entry_at = head.len() as u64 + 128 + 2 * 0x3f80;
    let mut reloc = Vec::new();
    leb(2, &mut reloc);
    leb(1, &mut reloc);
    reloc.push(5); // R_WASM_MEMORY_ADDR_I32
    leb(entry_at, &mut reloc);
    leb(0, &mut reloc);
    sleb(0, &mut reloc);
    assert_file_passes(&module(&[Seg::At(0x100, &t)], &[("reloc.DATA", reloc)]));
    assert_file_passes(&module(
        &[Seg::At(0x100, &t)],
        &[("reloc.DATA", vec![0xFF])],
    ));
}

/// The data segment holding the table moved to another address, the table
/// intact there: the code reads the old address, which no longer holds it;
/// the self-check hashes the bytes at the reference the code reads.
#[test]
fn a_wasm_data_segment_moved_elsewhere_is_the_self_checks() {
    let t = declared(false);
    assert_file_passes(&module(&[Seg::At(0x2_0000, &t)], &[]));
}

// ---- object files and PE images ----

/// Relocations at gelu(1.0)'s entry in ELF objects (x86_64, and big-endian
/// PowerPC64), COFF and Mach-O objects: the object file's bytes are as
/// built, and pass; the linker applies them (below).
#[test]
fn a_relocation_into_a_declared_table_of_an_object_file_is_the_linked_files() {
    for (format, arch, endian) in [
        (BinaryFormat::Elf, Architecture::X86_64, Endianness::Little),
        (BinaryFormat::Elf, Architecture::PowerPc64, Endianness::Big),
        (BinaryFormat::Coff, Architecture::X86_64, Endianness::Little),
        (
            BinaryFormat::MachO,
            Architecture::X86_64,
            Endianness::Little,
        ),
        (
            BinaryFormat::MachO,
            Architecture::Aarch64,
            Endianness::Little,
        ),
    ] {
        assert_file_passes(&object_file(format, arch, endian, false));
        assert_file_passes(&object_file(format, arch, endian, true));
    }
}

/// What the linker writes is in the file it writes: the x86_64 ELF object
/// with a 64-bit absolute relocation at gelu(1.0)'s entry, linked by the
/// system's `cc` (as `rustc` links), gives an executable whose gelu_bf16
/// is changed in its bytes, and its file audit reports it; the object
/// without the relocation, linked alike, passes.
#[test]
#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
fn a_relocation_the_linker_applies_is_in_the_linked_file_and_reported() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("evasions-link");
    std::fs::create_dir_all(&dir).unwrap();
    let link = |reloc: bool| {
        let o = dir.join(format!("gelu-{reloc}.o"));
        let out = dir.join(format!("gelu-{reloc}"));
        std::fs::write(
            &o,
            object_file(
                BinaryFormat::Elf,
                Architecture::X86_64,
                Endianness::Little,
                reloc,
            ),
        )
        .unwrap();
        let status = std::process::Command::new("cc")
            .args(["-nostdlib", "-static", "-no-pie", "-Wl,-e,f", "-o"])
            .arg(&out)
            .arg(&o)
            .status()
            .expect("cc, the linker rustc uses here");
        assert!(status.success(), "cc failed: {status}");
        std::fs::read(&out).unwrap()
    };
    assert_file_passes(&link(false));
    let p = problems(&link(true));
    assert!(
        // The 8 bytes the relocation writes are 4 entries.
        p.iter()
            .any(|l| l.starts_with("declaration of gelu_bf16") && l.ends_with("4 entries differ")),
        "the linked table's change is not reported: {p:#?}"
    );
}

/// A declared table in a section marked `SHF_MERGE`, or `SHT_NOBITS` over
/// it, in an object file: the object's bytes pass; what the linker makes
/// of the section is in the linked file, audited as a file of its own.
#[test]
fn a_declared_table_in_a_mergeable_section_is_the_linked_files() {
    let mut f = object_file(
        BinaryFormat::Elf,
        Architecture::X86_64,
        Endianness::Little,
        false,
    );
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
    assert_file_passes(&f);
    f[at + 8] &= !0x10;
    f[at + 4..at + 8].copy_from_slice(&8u32.to_le_bytes()); // SHT_NOBITS
    assert_file_passes(&f);
}

/// An archive whose second member has the relocation: each member's bytes
/// as built, so the archive passes; the linker applies it (above).
#[test]
fn a_relocation_into_a_declared_table_of_an_archive_member_is_the_linked_files() {
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
    assert_file_passes(&common::ar(&[("a.o", &plain), ("b.o", &reloc)]));
}

/// A little-endian declaration in an XCOFF file (XCOFF is big-endian): a
/// problem of the file itself, which the file audit reports; the
/// big-endian one passes.
#[test]
fn an_xcoff_file_with_a_little_endian_declaration_is_reported_by_the_file_audit() {
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
    let r = audit(&xcoff(true));
    assert_eq!(r.kind, "XCOFF");
    assert_file_passes(&xcoff(true));
    let p = problems(&xcoff(false));
    assert!(
        !p.is_empty(),
        "a little-endian declaration in an XCOFF file passes"
    );
}

/// A PE image's base relocation (`IMAGE_REL_BASED_DIR64`) at gelu(1.0)'s
/// entry, and a relocation block that does not parse: the Windows loader
/// writes there when it maps the image elsewhere, in the process only, so
/// the file passes and the program's self-check reports it.
#[test]
fn a_base_relocation_into_a_declared_table_of_a_pe_image_is_the_self_checks() {
    assert_eq!(audit(&pe_image(false)).kind, "PE");
    assert_file_passes(&pe_image(false));
    assert_file_passes(&pe_image(true));
    let mut f = pe_image(true);
    let reloc = f
        .windows(8)
        .rposition(|w| w == b".reloc\0\0")
        .expect("the .reloc section header");
    let raw = u32::from_le_bytes(f[reloc + 20..reloc + 24].try_into().unwrap()) as usize;
    f[raw + 4..raw + 8].copy_from_slice(&8u32.to_le_bytes());
    assert_file_passes(&f);
}
