//! Every file whose format states its byte order declares it, and in each
//! the byte-order twin of a declared 16-bit table (its declaration's byte 11
//! flipped and its table byte-swapped, so its hash still holds) is a
//! problem: `BAD DECLARATION` (it declares entries in the other order than
//! the file) and `FOREIGN BYTE ORDER` (its table is an intact copy in the
//! other order). Every file is built here, with minimal headers that
//! `object` parses: ELF of both orders, Mach-O of both magics, universal
//! Mach-O, PE, COFF, and ar archives of Mach-O, COFF and wasm members, of a
//! nested archive of an ELF member, and with GNU, GNU 64-bit and BSD symbol
//! tables. The untouched file of each passes. An ELF file whose `EI_DATA`
//! lies, and an archive whose symbol table names a member it does not
//! yield, are bad input.

use crate::common;

use actlut_audit::container::{inspect, Container, MAX_NESTING};
use actlut_audit::declared::{Declaration, Representation, StoredOrder};
use actlut_audit::{ByteOrder, Index, Reference, Report};
use actlut_codegen::{Format, Function};

/// The lock of gelu_bf16.
fn lock() -> Vec<actlut_codegen::lock::Entry> {
    common::gelu_bf16_lock()
}

fn index() -> Index {
    common::gelu_bf16_index()
}

/// The declared gelu_bf16 as a build for a target of `order` stores it (a
/// declaration, then its table), or its twin: the declaration's byte 11
/// saying the other order and the table byte-swapped.
fn declared(order: ByteOrder, twin: bool) -> Vec<u8> {
    let r = Reference::generate(Function::Gelu, Format::Bf16);
    let big = (order == ByteOrder::Big) != twin;
    let out = common::declared_gelu_bf16(big);
    // Only byte 11 of the record tells the two apart.
    let other = Declaration::new(
        "gelu_bf16",
        Representation::Full,
        2,
        if big {
            StoredOrder::Little
        } else {
            StoredOrder::Big
        },
        r.bytes_le.len() as u32,
        r.sha256,
    )
    .to_bytes();
    let changed: Vec<usize> = (0..128).filter(|&i| out[i] != other[i]).collect();
    assert_eq!(changed, [11]);
    out
}

/// What `actlut audit` does with a file: its container's byte order and
/// problem, then the scan.
fn audit(index: &Index, bytes: &[u8]) -> (Container, Report) {
    let c = inspect(bytes, bytes.len() as u64);
    let mut r = index.scan_reader_in(bytes, c.order, 0).unwrap();
    r.malformed = c.problem.clone();
    (c, r)
}

fn u32s(v: u32, big: bool) -> [u8; 4] {
    if big {
        v.to_be_bytes()
    } else {
        v.to_le_bytes()
    }
}

/// A Mach-O object file without load commands (x86_64, 64-bit; or
/// PowerPC, 32-bit, big-endian), then `payload`.
fn macho(big: bool, payload: &[u8]) -> Vec<u8> {
    let mut m = Vec::new();
    let (magic, cpu) = if big {
        (0xFEED_FACEu32, 18u32) // MH_MAGIC, CPU_TYPE_POWERPC
    } else {
        (0xFEED_FACF, 0x0100_0007) // MH_MAGIC_64, CPU_TYPE_X86_64
    };
    for v in [magic, cpu, 3, 1, 0, 0, 0] {
        m.extend(u32s(v, big));
    }
    if !big {
        m.extend([0; 4]);
    }
    m.extend_from_slice(payload);
    m
}

/// An arm64 Mach-O object file without load commands.
fn macho_arm64() -> Vec<u8> {
    let mut m = Vec::new();
    for v in [0xFEED_FACFu32, 0x0100_000C, 0, 1, 0, 0, 0, 0] {
        m.extend(v.to_le_bytes());
    }
    m
}

/// A universal Mach-O file of `slices` (each given its CPU type), at
/// 4096-byte boundaries.
fn universal(slices: &[(u32, &[u8])]) -> Vec<u8> {
    let mut f = Vec::new();
    f.extend(0xCAFE_BABEu32.to_be_bytes());
    f.extend((slices.len() as u32).to_be_bytes());
    let mut at = 4096;
    let mut placed = Vec::new();
    for (cpu, s) in slices {
        for v in [*cpu, 0, at as u32, s.len() as u32, 12] {
            f.extend(v.to_be_bytes());
        }
        placed.push(at);
        at = (at + s.len()).div_ceil(4096) * 4096;
    }
    for ((_, s), at) in slices.iter().zip(placed) {
        f.resize(at, 0);
        f.extend_from_slice(s);
    }
    f
}

/// A PE32+ image (x86_64) without sections, then `payload`.
fn pe(payload: &[u8]) -> Vec<u8> {
    let mut f = vec![0u8; 64];
    f[..2].copy_from_slice(b"MZ");
    f[0x3C..0x40].copy_from_slice(&64u32.to_le_bytes());
    f.extend(b"PE\0\0");
    f.extend(0x8664u16.to_le_bytes()); // IMAGE_FILE_MACHINE_AMD64
    f.extend(0u16.to_le_bytes()); // sections
    f.extend([0; 12]);
    f.extend(240u16.to_le_bytes()); // the optional header's size
    f.extend(0x22u16.to_le_bytes()); // executable, large-address aware
    let mut opt = vec![0u8; 240];
    opt[..2].copy_from_slice(&0x20Bu16.to_le_bytes()); // PE32+
    opt[32..36].copy_from_slice(&0x1000u32.to_le_bytes()); // section alignment
    opt[36..40].copy_from_slice(&0x200u32.to_le_bytes()); // file alignment
    opt[56..60].copy_from_slice(&0x1000u32.to_le_bytes()); // image size
    opt[60..64].copy_from_slice(&0x200u32.to_le_bytes()); // headers' size
    opt[108..112].copy_from_slice(&16u32.to_le_bytes()); // data directories
    f.extend(opt);
    f.extend_from_slice(payload);
    f
}

/// A COFF object file (x86_64) without sections or symbols, then `payload`.
fn coff(payload: &[u8]) -> Vec<u8> {
    let mut f = Vec::new();
    f.extend(0x8664u16.to_le_bytes());
    f.extend([0; 18]);
    f.extend_from_slice(payload);
    f
}

fn leb(v: usize, out: &mut Vec<u8>) {
    common::leb(v as u64, out)
}

/// A wasm module whose one custom section holds `payload`.
fn wasm(payload: &[u8]) -> Vec<u8> {
    let mut m = b"\0asm\x01\0\0\0".to_vec();
    let mut section = vec![1, b'x'];
    section.extend_from_slice(payload);
    m.push(0);
    leb(section.len(), &mut m);
    m.extend(section);
    m
}

/// A little-endian x86-64 ELF64 relocatable file without sections, then
/// `payload`.
fn elf(payload: &[u8]) -> Vec<u8> {
    elf_of(false, 62, payload) // EM_X86_64
}

/// An ELF64 relocatable file without sections for the machine `machine`,
/// big-endian or little-endian, then `payload`.
fn elf_of(big: bool, machine: u16, payload: &[u8]) -> Vec<u8> {
    let u16s = |v: u16| {
        if big {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        }
    };
    let mut f = vec![0u8; 64];
    f[..16].copy_from_slice(b"\x7FELF\x02\x01\x01\0\0\0\0\0\0\0\0\0");
    f[5] = if big { 2 } else { 1 };
    f[16..18].copy_from_slice(&u16s(1)); // ET_REL
    f[18..20].copy_from_slice(&u16s(machine));
    f[20..24].copy_from_slice(&u32s(1, big));
    f[52..54].copy_from_slice(&u16s(64)); // e_ehsize
    f.extend_from_slice(payload);
    f
}

/// The symbol table of an ar archive: GNU (`/`, 32-bit offsets), GNU
/// 64-bit (`/SYM64/`) or BSD (`__.SYMDEF`).
#[derive(Clone, Copy, Debug)]
enum Armap {
    Gnu,
    Gnu64,
    Bsd,
}

fn ar_header(name: &str, size: usize) -> Vec<u8> {
    let h = format!("{name:<16}{:<12}{:<6}{:<6}{:<8}{size:<10}`\n", 0, 0, 0, 644);
    assert_eq!(h.len(), 60);
    h.into_bytes()
}

/// An ar archive with a symbol table of `kind` and then `members` (GNU
/// names end in `/`, BSD names do not). The table's data ends with
/// `hidden`; `names` gives the member header offsets its symbols name, from
/// the offsets of the members' headers and of `hidden` in the file.
fn ar_indexed(
    kind: Armap,
    members: &[(&str, &[u8])],
    hidden: &[u8],
    mut names: impl FnMut(&[u64], u64) -> Vec<u64>,
) -> Vec<u8> {
    let count = names(&vec![0; members.len()], 0).len();
    let strings: Vec<u8> = (0..count)
        .flat_map(|i| format!("sym{i}\0").into_bytes())
        .collect();
    let table = |offsets: &[u64]| -> Vec<u8> {
        let mut t = Vec::new();
        match kind {
            Armap::Gnu => {
                t.extend((count as u32).to_be_bytes());
                offsets
                    .iter()
                    .for_each(|&o| t.extend((o as u32).to_be_bytes()));
                t.extend(&strings);
            }
            Armap::Gnu64 => {
                t.extend((count as u64).to_be_bytes());
                offsets.iter().for_each(|&o| t.extend(o.to_be_bytes()));
                t.extend(&strings);
            }
            Armap::Bsd => {
                t.extend((count as u32 * 8).to_le_bytes());
                for (i, &o) in offsets.iter().enumerate() {
                    t.extend((i as u32 * 5).to_le_bytes()); // "symN\0", N < 10
                    t.extend((o as u32).to_le_bytes());
                }
                t.extend((strings.len() as u32).to_le_bytes());
                t.extend(&strings);
            }
        }
        while t.len() % 8 != 0 {
            t.push(0);
        }
        t
    };
    let name = match kind {
        Armap::Gnu => "/",
        Armap::Gnu64 => "/SYM64/",
        Armap::Bsd => "__.SYMDEF",
    };
    let own = table(&vec![0; count]).len();
    let hidden_at = (8 + 60 + own) as u64;
    let mut at = 8 + 60 + own + hidden.len();
    at += at % 2;
    let mut headers = Vec::new();
    for (_, data) in members {
        headers.push(at as u64);
        at += 60 + data.len() + data.len() % 2;
    }
    let mut data = table(&names(&headers, hidden_at));
    assert_eq!(data.len(), own);
    data.extend_from_slice(hidden);
    let mut out = b"!<arch>\n".to_vec();
    out.extend(ar_header(name, data.len()));
    out.extend(&data);
    if data.len() % 2 == 1 {
        out.push(b'\n');
    }
    for (name, data) in members {
        out.extend(ar_header(name, data.len()));
        out.extend_from_slice(data);
        if data.len() % 2 == 1 {
            out.push(b'\n');
        }
    }
    out
}

/// An ar archive of `members`, GNU style.
fn ar(members: &[(&str, &[u8])]) -> Vec<u8> {
    common::ar(members)
}

/// Every container: its name, the order it declares, and the file of it
/// that holds `payload` (built for that order).
#[allow(clippy::type_complexity)]
fn containers() -> Vec<(&'static str, ByteOrder, Box<dyn Fn(&[u8]) -> Vec<u8>>)> {
    use ByteOrder::{Big, Little};
    vec![
        (
            "Mach-O, 64-bit, little-endian",
            Little,
            Box::new(|p| macho(false, p)),
        ),
        (
            "Mach-O, 32-bit, big-endian",
            Big,
            Box::new(|p| macho(true, p)),
        ),
        (
            "universal Mach-O (x86_64, arm64)",
            Little,
            Box::new(|p| {
                universal(&[
                    (0x0100_0007, &macho(false, p)),
                    (0x0100_000C, &macho_arm64()),
                ])
            }),
        ),
        ("PE32+", Little, Box::new(pe)),
        ("COFF", Little, Box::new(coff)),
        (
            "ar archive of Mach-O (a macOS static library)",
            Little,
            Box::new(|p| ar(&[("lib.rmeta", b"meta"), ("a.o", &macho(false, p))])),
        ),
        (
            "ar archive of big-endian Mach-O",
            Big,
            Box::new(|p| ar(&[("a.o", &macho(true, p))])),
        ),
        (
            "ar archive of COFF (a Windows .lib)",
            Little,
            Box::new(|p| ar(&[("a.obj", &coff(p))])),
        ),
        (
            "ar archive of wasm (a wasm32 rlib)",
            Little,
            Box::new(|p| ar(&[("lib.rmeta", b"meta"), ("a.o", &wasm(p))])),
        ),
        (
            "ar archive of an ar archive of ELF",
            Little,
            Box::new(|p| ar(&[("inner.a", &ar(&[("a.o", &elf(p))]))])),
        ),
        ("ELF, x86-64", Little, Box::new(elf)),
        (
            "ELF, s390x, big-endian",
            Big,
            Box::new(|p| elf_of(true, 22, p)), // EM_S390
        ),
        (
            "ar archive of ELF with a GNU symbol table",
            Little,
            Box::new(|p| {
                ar_indexed(
                    Armap::Gnu,
                    &[("lib.rmeta/", b"meta"), ("a.o/", &elf(p))],
                    &[],
                    |h, _| vec![h[1], h[1]],
                )
            }),
        ),
        (
            "ar archive of s390x ELF with a GNU 64-bit symbol table",
            Big,
            Box::new(|p| {
                ar_indexed(
                    Armap::Gnu64,
                    &[("a.o/", &elf_of(true, 22, p))],
                    &[],
                    |h, _| h.to_vec(),
                )
            }),
        ),
        (
            "ar archive of Mach-O with a BSD symbol table",
            Little,
            Box::new(|p| {
                ar_indexed(
                    Armap::Bsd,
                    &[("a.o", &macho(false, p)), ("b.o", &macho_arm64())],
                    &[],
                    |h, _| h.to_vec(),
                )
            }),
        ),
    ]
}

#[test]
fn every_file_whose_format_states_its_byte_order_declares_it_and_the_twin_in_it_is_a_problem() {
    let index = index();
    for (what, order, build) in containers() {
        let (c, r) = audit(&index, &build(&declared(order, false)));
        assert_eq!(c.order, Some(order), "{what}: {c:?}");
        assert_eq!(r.problems(&lock()), Vec::<String>::new(), "{what}");
        assert_eq!(r.declared.len(), 1, "{what}");
        let (c, r) = audit(&index, &build(&declared(order, true)));
        assert_eq!(c.order, Some(order), "{what}: {c:?}");
        let (other, own) = match order {
            ByteOrder::Big => ("little-endian", "big-endian"),
            _ => ("big-endian", "little-endian"),
        };
        let bad = format!("it declares {other} entries in a {own} file");
        let problems = r.problems(&lock());
        assert!(
            problems
                .iter()
                .any(|p| p.starts_with("declaration of gelu_bf16") && p.contains(&bad)),
            "{what}: {problems:#?}"
        );
        assert!(
            r.found
                .iter()
                .any(|f| f.foreign_order && f.problem(&lock()).is_some()),
            "{what}: no FOREIGN BYTE ORDER: {problems:#?}"
        );
    }
}

#[test]
fn containers_whose_parts_declare_both_orders_or_nest_too_deep_are_bad_input() {
    let index = index();
    let payload = declared(ByteOrder::Little, false);
    let mixed_slices = universal(&[
        (0x0100_0007, &macho(false, &payload)),
        (18, &macho(true, &[])),
    ]);
    let mixed_members = ar(&[("a.o", &macho(false, &payload)), ("b.o", &macho(true, &[]))]);
    let mixed_kinds = ar(&[("a.o", &elf(&payload)), ("b.o", &macho(true, &[]))]);
    // A PE signature without an optional header: no loader runs it.
    let mut bare_pe = pe(&[]);
    bare_pe.truncate(64 + 24);
    bare_pe[64 + 20..64 + 22].copy_from_slice(&0u16.to_le_bytes());
    bare_pe.extend_from_slice(&declared(ByteOrder::Little, true));
    let mut deep = elf(&payload);
    for _ in 0..=MAX_NESTING + 1 {
        deep = ar(&[("inner.a", &deep)]);
    }
    for (what, bytes, want) in [
        (
            "universal, both orders",
            mixed_slices,
            "malformed universal Mach-O file: slice 1 is a big-endian Mach-O file",
        ),
        (
            "ar of Mach-O, both orders",
            mixed_members,
            "malformed ar archive file: member b.o is a big-endian Mach-O file",
        ),
        (
            "ar of ELF and Mach-O, both orders",
            mixed_kinds,
            "malformed ar archive file: member b.o is a big-endian Mach-O file",
        ),
        ("archives nested too deep", deep, "nested more than"),
        (
            "PE without an optional header",
            bare_pe,
            "malformed PE file",
        ),
    ] {
        let (c, r) = audit(&index, &bytes);
        let p = c.problem.unwrap_or_else(|| panic!("{what}: no problem"));
        assert!(p.starts_with(want) || p.contains(want), "{what}: {p}");
        assert!(!r.problems(&lock()).is_empty(), "{what}");
    }
    // Nested exactly as deep as allowed: the ELF member's order.
    let mut nested = elf(&payload);
    for _ in 0..MAX_NESTING {
        nested = ar(&[("inner.a", &nested)]);
    }
    let (c, r) = audit(&index, &nested);
    assert_eq!((c.order, c.problem), (Some(ByteOrder::Little), None));
    assert!(r.problems(&lock()).is_empty());
}

#[test]
fn a_raw_image_a_java_class_file_and_a_thin_archive_declare_no_order() {
    let index = index();
    let payload = declared(ByteOrder::Little, true);
    let mut raw = b"RAW\0".to_vec();
    raw.extend_from_slice(&payload);
    // A Java class file opens with the universal magic.
    let mut class = vec![0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 52];
    class.extend_from_slice(&payload);
    // A thin archive's members are other files: its own bytes are scanned
    // as a raw image's.
    let mut thin = b"!<thin>\n".to_vec();
    thin.extend(ar_header("a.o/", payload.len()));
    thin.extend_from_slice(&payload);
    for (what, bytes) in [
        ("raw image", raw),
        ("Java class file", class),
        ("thin archive", thin),
    ] {
        let (c, r) = audit(&index, &bytes);
        assert_eq!(
            (c.kind, c.order, c.problem),
            ("bytes", None, None),
            "{what}"
        );
        // The twin reads as an intact build for a big-endian target.
        assert!(
            r.problems(&lock()).is_empty(),
            "{what}: {:#?}",
            r.problems(&lock())
        );
    }
}

/// The attack on an ELF file's byte order: `EI_DATA` turned to the other
/// order, `e_ehsize` written so that it reads 64 in that order (the loader
/// never reads it), every 16-bit declaration's byte 11 flipped and its
/// table byte-swapped. The file's `e_machine`, which the loader checks in
/// its own order, then reads as no machine.
#[test]
fn an_elf_file_whose_ei_data_lies_is_bad_input() {
    let index = index();
    let lie = |mut f: Vec<u8>| {
        f[5] = 3 - f[5];
        f.swap(52, 53);
        f
    };
    // x86-64 (62, stored `3e 00`) declared big-endian; s390x (22, `00 16`)
    // declared little-endian; LoongArch (258, `02 01`) declared big-endian.
    for (what, honest, attack, want) in [
        (
            "x86-64",
            elf(&declared(ByteOrder::Little, false)),
            lie(elf(&declared(ByteOrder::Little, true))),
            "malformed ELF file: its machine (e_machine) reads 0x3e00 in the byte order EI_DATA declares (big-endian), which is no machine",
        ),
        (
            "s390x",
            elf_of(true, 22, &declared(ByteOrder::Big, false)),
            lie(elf_of(true, 22, &declared(ByteOrder::Big, true))),
            "malformed ELF file: its machine (e_machine) reads 0x1600 in the byte order EI_DATA declares (little-endian), which is no machine",
        ),
        (
            "LoongArch",
            elf_of(false, 258, &declared(ByteOrder::Little, false)),
            lie(elf_of(false, 258, &declared(ByteOrder::Little, true))),
            "malformed ELF file: its machine (e_machine) reads 0x201 in the byte order EI_DATA declares (big-endian), which is no machine",
        ),
    ] {
        let (c, r) = audit(&index, &honest);
        assert_eq!(c.problem, None, "{what}");
        assert!(r.problems(&lock()).is_empty(), "{what}");
        let (c, r) = audit(&index, &attack);
        assert_eq!(c.problem.as_deref(), Some(want), "{what}");
        assert!(!r.problems(&lock()).is_empty(), "{what}");
    }
    // A machine of one byte order only, stored and declared in the other,
    // and EM_NONE.
    for (what, bytes, want) in [
        (
            "x86-64, big-endian",
            elf_of(true, 62, &declared(ByteOrder::Big, false)),
            "malformed ELF file: its machine (e_machine) is x86-64 (62), which is little-endian only, and EI_DATA declares big-endian",
        ),
        (
            "s390, little-endian",
            elf_of(false, 22, &declared(ByteOrder::Little, false)),
            "malformed ELF file: its machine (e_machine) is s390 (22), which is big-endian only, and EI_DATA declares little-endian",
        ),
        (
            "EM_NONE",
            elf_of(false, 0, &declared(ByteOrder::Little, false)),
            "malformed ELF file: its machine (e_machine) is 0 (EM_NONE), which no loader runs",
        ),
    ] {
        let (c, r) = audit(&index, &bytes);
        assert_eq!(c.problem.as_deref(), Some(want), "{what}");
        assert!(!r.problems(&lock()).is_empty(), "{what}");
    }
    // No two bytes of e_machine pass in both orders: EI_DATA cannot be
    // turned on any file without its header reading as no machine.
    let mut both = Vec::new();
    for stored in 0..=u16::MAX {
        let mut passes = [false; 2];
        for (i, big) in [false, true].into_iter().enumerate() {
            let mut f = elf_of(big, 0, &[]);
            f[18..20].copy_from_slice(&stored.to_le_bytes());
            passes[i] = inspect(&f[..], 64).problem.is_none();
        }
        if passes == [true, true] {
            both.push(stored);
        }
    }
    assert_eq!(both, Vec::<u16>::new());
}

/// The attack on an archive: a member header hidden where `members()` does
/// not look (in the symbol table's own data, or in another member's), and
/// the symbol table naming it, so that a linker links what the audit never
/// read. Every offset the symbol table names must be a member's.
#[test]
fn an_archive_whose_symbol_table_names_a_member_it_does_not_hold_is_bad_input() {
    let index = index();
    let named = |off: u64| {
        format!("malformed ar archive file: its symbol table names a member at offset {off:#x}, which is not one of its members")
    };
    // The control: the object named, an ordinary member.
    let visible = ar_indexed(
        Armap::Gnu,
        &[("t.o/", &elf(&declared(ByteOrder::Little, false)))],
        &[],
        |h, _| vec![h[0]],
    );
    let (c, r) = audit(&index, &visible);
    assert_eq!((c.order, c.problem), (Some(ByteOrder::Little), None));
    assert!(r.problems(&lock()).is_empty());
    // The attack: the little-endian object with the twin hidden in the
    // symbol table, a big-endian ELF header the one ordinary member.
    let twin = elf(&declared(ByteOrder::Little, true));
    let mut hidden = ar_header("t.o/", twin.len());
    hidden.extend(&twin);
    let be = elf_of(true, 21, &[]); // EM_PPC64
    let mut at = 0;
    let attack = ar_indexed(Armap::Gnu, &[("be.o/", &be)], &hidden, |_, h| {
        at = h;
        vec![h]
    });
    // `ar_indexed` calls `names` last with the real offsets.
    assert_eq!(&attack[at as usize..at as usize + 4], b"t.o/");
    let (c, r) = audit(&index, &attack);
    assert_eq!(c.problem, Some(named(at)));
    assert!(!r.problems(&lock()).is_empty());
    // In every kind of symbol table: a member header hidden in another
    // member's data, and an offset past the end of the file.
    let payload = declared(ByteOrder::Little, false);
    let cover = |object: &[u8]| {
        let mut c = b"data".to_vec();
        c.extend(ar_header("t.o/", object.len()));
        c.extend_from_slice(object);
        c
    };
    let (honest_cover, cover) = (cover(&elf(&payload)), cover(&twin));
    for kind in [Armap::Gnu, Armap::Gnu64, Armap::Bsd] {
        let names: [&str; 2] = match kind {
            Armap::Bsd => ["cover.bin", "a.o"],
            _ => ["cover.bin/", "a.o/"],
        };
        let a_o = elf(&payload);
        let honest = [(names[0], &honest_cover[..]), (names[1], &a_o[..])];
        let honest = ar_indexed(kind, &honest, &[], |h, _| vec![h[1], h[0]]);
        let (c, r) = audit(&index, &honest);
        assert_eq!(
            (c.order, c.problem),
            (Some(ByteOrder::Little), None),
            "{kind:?}"
        );
        assert!(r.problems(&lock()).is_empty(), "{kind:?}");
        let members = [(names[0], &cover[..]), (names[1], &a_o[..])];
        let mut inside = 0;
        let attack = ar_indexed(kind, &members, &[], |h, _| {
            inside = h[0] + 60 + 4;
            vec![h[1], inside]
        });
        assert_eq!(&attack[inside as usize..inside as usize + 4], b"t.o/");
        let (c, r) = audit(&index, &attack);
        assert_eq!(c.problem, Some(named(inside)), "{kind:?}");
        assert!(!r.problems(&lock()).is_empty(), "{kind:?}");
        let past = ar_indexed(kind, &members, &[], |h, _| vec![h[1], 1 << 24]);
        let (c, _) = audit(&index, &past);
        assert_eq!(c.problem, Some(named(1 << 24)), "{kind:?}");
    }
}
