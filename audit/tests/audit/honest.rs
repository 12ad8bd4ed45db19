//! No false reports on honest files that earlier audits reported: text that
//! merely holds a marker (an rlib's metadata documents the records), a wasm
//! component (what `wasm32-wasip2` builds), an object file with `.bss`
//! before the table's section (what GNU as writes), and files over
//! `container::IN_MEMORY_BYTES`, read in pieces. The system sweep and the
//! project's own artifacts are `scripts/audit-sweep.sh` (in
//! `.ci/steps/30-audit.sh`).

use crate::common;

use actlut_audit::container::{inspect, inspect_file, IN_MEMORY_BYTES};
use actlut_audit::{audit, Lock, Report};
use actlut_codegen::record::{Declaration, Representation, StoredOrder};
use actlut_codegen::{Format, Function};

fn lock() -> Lock {
    Lock::new(
        "test",
        actlut_codegen::lock::parse(actlut_audit::BUILTIN_LOCK).unwrap(),
        common::index().references().to_vec(),
    )
}

fn problems(r: &Report, lock: &Lock) -> Vec<String> {
    r.problems(&lock.entries)
}

/// gelu_fp8_e4m3's declaration and table.
fn declared() -> Vec<u8> {
    let t = common::table_le(Function::Gelu, Format::Fp8E4M3);
    let d = Declaration::new(
        "gelu_fp8_e4m3",
        Representation::Full,
        1,
        StoredOrder::Little,
        256,
        actlut_codegen::sha256(&t),
    );
    [&d.to_bytes()[..], &t].concat()
}

/// An ar archive of `members`.
fn ar(members: &[(&str, &[u8])]) -> Vec<u8> {
    let mut out = b"!<arch>\n".to_vec();
    for (name, data) in members {
        out.extend_from_slice(
            format!(
                "{:<16}{:<12}{:<6}{:<6}{:<8}{:<10}`\n",
                name,
                0,
                0,
                0,
                644,
                data.len()
            )
            .as_bytes(),
        );
        out.extend_from_slice(data);
        if data.len() % 2 == 1 {
            out.push(b'\n');
        }
    }
    out
}

#[test]
fn bytes_that_hold_the_markers_are_neither_a_declaration_nor_a_record() {
    let lock = lock();
    // What an rlib's metadata holds: the documentation of the records.
    let doc = b"every table static opens with a 128-byte declaration: the marker `ACTLUTDT`, \
        then version, representation, width; a manifest record holds the marker `ACTLUTM1`, the \
        table's name padded with NUL bytes to 32 bytes, and its SHA-256. "
        .repeat(3);
    // And what it holds of the constants: the markers among encoded bytes.
    let constants = b"\x00\x00\x01\x08ACTLUTM1\x00\x00\x01\x08\x00\x00\x08ACTLUTDT\x00\x00\x01\x08\x00\x00\x07Compact\x00\x00\x01\x08\x00\x00\x05Width";
    let member = [
        &common::noise(3000, 1)[..],
        &doc,
        constants,
        &common::noise(3000, 2),
    ]
    .concat();
    for file in [
        member.clone(),
        ar(&[("lib.rmeta", &member), ("actlut.o", &declared())]),
    ] {
        let r = audit(&file, &lock).unwrap();
        assert_eq!(problems(&r, &lock), Vec::<String>::new());
        assert!(
            r.records.is_empty() && r.declared.len() <= 1,
            "{:?} {:?}",
            r.records,
            r.declared
        );
    }
    // A record or declaration with its marker intact and a field changed
    // is still one, and a problem.
    let mut bad = declared();
    bad[8] = 7;
    let r = audit(&bad, &lock).unwrap();
    assert!(
        problems(&r, &lock)
            .iter()
            .any(|p| p.contains("does not parse")),
        "{:?}",
        problems(&r, &lock)
    );
}

/// A wasm component (layer 1), its core module in a section: little-endian
/// and not malformed; its declared table verified; one cut off, malformed.
#[test]
fn a_wasm_component_is_read_as_little_endian_and_passes() {
    let lock = lock();
    let module = {
        let mut m = b"\0asm\x01\0\0\0".to_vec();
        let data = declared();
        m.push(11); // data section
        m.extend_from_slice(&leb(data.len() as u32));
        m.extend_from_slice(&data);
        m
    };
    let mut component = b"\0asm\x0d\0\x01\0".to_vec();
    component.push(1); // core module section
    component.extend_from_slice(&leb(module.len() as u32));
    component.extend_from_slice(&module);
    let c = inspect(&component[..], component.len() as u64);
    assert_eq!((c.kind, c.problem.clone()), ("wasm component", None));
    assert_eq!(c.order, Some(actlut_audit::ByteOrder::Little));
    let r = audit(&component, &lock).unwrap();
    assert_eq!(problems(&r, &lock), Vec::<String>::new());
    assert_eq!(r.declared.len(), 1);
    let cut = &component[..component.len() - 10];
    let c = inspect(cut, cut.len() as u64);
    assert!(c.problem.is_some_and(|p| p.contains("runs past the end")));
}

fn leb(mut v: u32) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let b = (v & 0x7F) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return out;
        }
        out.push(b | 0x80);
    }
}

/// An object file as GNU as writes one: a non-empty `.bss` before the
/// section that holds the declared table.
#[test]
fn an_object_file_with_bss_before_the_tables_section_passes() {
    use object::write::Object;
    use object::{Architecture, BinaryFormat, Endianness, SectionKind};
    let lock = lock();
    let mut o = Object::new(BinaryFormat::Elf, Architecture::X86_64, Endianness::Little);
    let bss = o.add_section(Vec::new(), b".bss".to_vec(), SectionKind::UninitializedData);
    o.append_section_bss(bss, 4096, 64);
    let data = o.add_section(
        Vec::new(),
        b".rodata.gelu".to_vec(),
        SectionKind::ReadOnlyData,
    );
    o.append_section_data(data, &declared(), 64);
    let file = o.write().unwrap();
    let r = audit(&file, &lock).unwrap();
    assert_eq!(problems(&r, &lock), Vec::<String>::new());
    assert_eq!(r.declared.len(), 1);
    assert_eq!(r.kind, "ELF");
}

/// A minimal well-formed ELF64 relocatable (its header, a null section and
/// `.shstrtab`) of machine `machine`, stored in the byte order `big` says,
/// with `EI_DATA` saying `ei_data`.
fn elf_of_machine(machine: u16, big: bool, ei_data: u8) -> Vec<u8> {
    let h = |v: u16| {
        if big {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        }
        .to_vec()
    };
    let w = |v: u32| {
        if big {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        }
        .to_vec()
    };
    let q = |v: u64| {
        if big {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        }
        .to_vec()
    };
    let names = b"\0.shstrtab\0";
    let shoff = (64 + names.len() as u64).next_multiple_of(8);
    let mut f = b"\x7fELF".to_vec();
    f.extend([2, ei_data, 1, 0]);
    f.extend([0; 8]);
    for part in [
        h(1),       // e_type: ET_REL
        h(machine), // e_machine
        w(1),       // e_version
        q(0),       // e_entry
        q(0),       // e_phoff
        q(shoff),   // e_shoff
        w(0),       // e_flags
        h(64),      // e_ehsize
        h(0),       // e_phentsize
        h(0),       // e_phnum
        h(64),      // e_shentsize
        h(2),       // e_shnum
        h(1),       // e_shstrndx
    ] {
        f.extend(part);
    }
    f.extend_from_slice(names);
    f.resize(shoff as usize + 64, 0); // the null section
    for part in [
        w(1),
        w(3), // SHT_STRTAB
        q(0),
        q(0),
        q(64),
        q(names.len() as u64),
        w(0),
        w(0),
        q(1),
        q(0),
    ] {
        f.extend(part);
    }
    f
}

/// Well-formed ELF files of the registered machines above 255 (Kalray KVX
/// 256, WDC 65816 257, LoongArch 258, KungFu32 259, Tachyum 261, the AMD
/// AIEngine 264, ...) pass: the attack on this design found them reported
/// as `MALFORMED ... which is no machine`. The byte-order check they pass
/// still holds: no two bytes name a machine in both orders, so KVX's file
/// with its `EI_DATA` flipped, and the WDC 65816's, are bad input.
#[test]
fn elf_files_of_the_registered_machines_above_255_pass() {
    let lock = lock();
    for machine in [
        62u16, 256, 257, 258, 259, 260, 261, 262, 263, 264, 265, 266, 267, 268, 269,
    ] {
        let f = elf_of_machine(machine, false, 1);
        let r = audit(&f, &lock).unwrap();
        assert_eq!(problems(&r, &lock), Vec::<String>::new(), "{machine}");
        assert_eq!(r.kind, "ELF");
    }
    // Big-endian, where the machine is not little-endian only.
    for machine in [22u16, 259, 264, 0x9026] {
        let f = elf_of_machine(machine, true, 2);
        let r = audit(&f, &lock).unwrap();
        assert_eq!(problems(&r, &lock), Vec::<String>::new(), "{machine}");
    }
    // EI_DATA lying, and the header but `e_machine` stored in the order it
    // declares (the loader reads `e_machine` in its own order, and nothing
    // else of the header that `e_ehsize` would tell): each machine's bytes
    // name no machine, or one of the other order only, in the order
    // EI_DATA declares.
    for (machine, big) in [(62u16, false), (256, false), (257, false), (22, true)] {
        let mut f = elf_of_machine(machine, !big, if big { 1 } else { 2 });
        let stored = if big {
            machine.to_be_bytes()
        } else {
            machine.to_le_bytes()
        };
        f[18..20].copy_from_slice(&stored);
        let r = audit(&f, &lock).unwrap();
        assert!(
            r.malformed
                .as_deref()
                .is_some_and(|m| m.contains("e_machine")),
            "{machine}: {:?}",
            r.malformed
        );
    }
}

/// A file over `IN_MEMORY_BYTES` is read in pieces: the same verdicts on
/// its headers as a small file's (an ELF whose section runs past the end;
/// an archive of members in both byte orders), and an honest one passes.
#[test]
#[ignore = "writes four 65 MiB files: run by .ci/steps/30-audit.sh"]
fn files_over_the_in_memory_size_are_read_in_pieces_with_the_same_verdicts() {
    let dir = std::env::temp_dir().join(format!("actlut-honest-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let big = (IN_MEMORY_BYTES + 4096) as usize;
    let elf = |cut: bool| {
        use object::write::Object;
        use object::{Architecture, BinaryFormat, Endianness, SectionKind};
        let mut o = Object::new(BinaryFormat::Elf, Architecture::X86_64, Endianness::Little);
        let s = o.add_section(Vec::new(), b".rodata".to_vec(), SectionKind::ReadOnlyData);
        o.append_section_data(s, &declared(), 64);
        let mut f = o.write().unwrap();
        if cut {
            // The first section's size made to run past the end.
            let shoff = u64::from_le_bytes(f[0x28..0x30].try_into().unwrap()) as usize;
            let s1 = shoff + 64;
            f[s1 + 32..s1 + 40].copy_from_slice(&(1u64 << 40).to_le_bytes());
        }
        f
    };
    let check = |name: &str, bytes: Vec<u8>, padded: bool| {
        let mut bytes = bytes;
        if padded {
            bytes.resize(big, 0);
        }
        let path = dir.join(name);
        std::fs::write(&path, &bytes).unwrap();
        let f = std::fs::File::open(&path).unwrap();
        inspect_file(&f, bytes.len() as u64).unwrap()
    };
    for padded in [false, true] {
        let ok = check("ok.o", elf(false), padded);
        assert_eq!(
            (ok.kind, ok.problem.clone()),
            ("ELF", None),
            "padded {padded}"
        );
        let cut = check("cut.o", elf(true), padded);
        assert!(
            cut.problem
                .as_deref()
                .is_some_and(|p| p.contains("runs past the end")),
            "padded {padded}: {cut:?}"
        );
    }
    // Members of both byte orders: the second an ELF header declaring
    // big-endian s390x.
    let mut be = elf(false);
    be[5] = 2;
    be[18..20].copy_from_slice(&22u16.to_be_bytes());
    be[0x34..0x36].copy_from_slice(&64u16.to_be_bytes());
    let mixed = ar(&[("a.o", &elf(false)), ("b.o", &be[..64])]);
    for padded in [false, true] {
        let mut bytes = mixed.clone();
        if padded {
            // A third member pads the archive.
            bytes = ar(&[
                ("a.o", &elf(false)),
                ("b.o", &be[..64]),
                ("pad", &vec![0u8; big]),
            ]);
        }
        let path = dir.join("mixed.a");
        std::fs::write(&path, &bytes).unwrap();
        let f = std::fs::File::open(&path).unwrap();
        let c = inspect_file(&f, bytes.len() as u64).unwrap();
        assert!(
            c.problem.as_deref().is_some_and(|p| p.contains("member")),
            "padded {padded}: {c:?}"
        );
    }
    // An honest archive of members larger than a read buffer (8 KiB): each
    // member's first bytes are read at their own offset, and the next
    // member header is still read where it is.
    let member = |fill: u8| {
        use object::write::Object;
        use object::{Architecture, BinaryFormat, Endianness, SectionKind};
        let mut o = Object::new(BinaryFormat::Elf, Architecture::X86_64, Endianness::Little);
        let s = o.add_section(Vec::new(), b".rodata".to_vec(), SectionKind::ReadOnlyData);
        o.append_section_data(s, &vec![fill; 100_000], 64);
        o.append_section_data(s, &declared(), 64);
        o.write().unwrap()
    };
    let (a, b, c) = (member(1), member(2), member(3));
    let bytes = ar(&[
        ("a.o", &a),
        ("b.o", &b),
        ("c.o", &c),
        ("pad", &vec![0u8; big]),
    ]);
    let path = dir.join("honest.a");
    std::fs::write(&path, &bytes).unwrap();
    let f = std::fs::File::open(&path).unwrap();
    let c = inspect_file(&f, bytes.len() as u64).unwrap();
    assert_eq!((c.kind, c.problem.clone()), ("ar archive", None), "{c:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The sixth attack round: over `IN_MEMORY_BYTES`, a universal Mach-O file, a COFF object
/// and an archive of ARM64 COFF objects declared no byte order (the pieces reader knew
/// neither the universal magic nor COFF's machines, and archive members by two machines
/// only), so a table in the other order passed as in a raw image. The pieces reader now
/// knows a file by its first bytes as the whole-file reader does: each of these declares
/// the same kind and order at any size.
#[test]
#[ignore = "writes six 65 MiB files: run by .ci/steps/30-audit.sh"]
fn large_files_declare_the_byte_order_small_ones_do() {
    use object::{Architecture, BinaryFormat};
    let big = (IN_MEMORY_BYTES + 4096) as usize;
    let macho = object_declaring(BinaryFormat::MachO, Architecture::X86_64);
    // A universal file of one x86-64 slice at 4096 (cputype 0x01000007, subtype 3).
    let mut fat = vec![0u8; 4096];
    fat[..4].copy_from_slice(&0xCAFE_BABEu32.to_be_bytes());
    fat[4..8].copy_from_slice(&1u32.to_be_bytes());
    for (k, v) in [0x0100_0007u32, 3, 4096, macho.len() as u32, 12]
        .into_iter()
        .enumerate()
    {
        fat[8 + 4 * k..12 + 4 * k].copy_from_slice(&v.to_be_bytes());
    }
    fat.extend_from_slice(&macho);
    let coff_arm = object_declaring(BinaryFormat::Coff, Architecture::Aarch64);
    let coff_x64 = object_declaring(BinaryFormat::Coff, Architecture::X86_64);
    let cases: [(&str, Vec<u8>, Vec<u8>); 6] = [
        ("macho.o", macho.clone(), macho.clone()),
        ("fat", fat.clone(), fat),
        ("arm64.obj", coff_arm.clone(), coff_arm.clone()),
        ("x64.obj", coff_x64.clone(), coff_x64.clone()),
        (
            "arm64.lib",
            ar(&[("a.obj", &coff_arm), ("b.obj", &coff_arm)]),
            ar(&[
                ("a.obj", &coff_arm),
                ("b.obj", &coff_arm),
                ("pad", &vec![0u8; big]),
            ]),
        ),
        (
            "macho.a",
            ar(&[("a.o", &macho)]),
            ar(&[("a.o", &macho), ("pad", &vec![0u8; big])]),
        ),
    ];
    for (name, small, large) in cases {
        let (small, large) = at_both_sizes(name, &small, &large);
        assert_eq!(small.problem, None, "{name}: {small:?}");
        assert_eq!(small.order, Some(actlut_audit::ByteOrder::Little), "{name}");
        assert_eq!(
            (large.kind, large.order, large.problem),
            (small.kind, small.order, None),
            "{name}"
        );
    }
}

/// The seventh attack round, over `IN_MEMORY_BYTES`: a member named `__.SYMDEF.o` or `//`
/// after the first member was skipped as a symbol or name table wherever it stood (`object`
/// reads those names as special only at an archive's opening), a universal file of more than
/// 52,428 slices was bytes, a file opening with `MZ` but no PE signature was a PE image, and
/// slices that all name one large archive read it once each (hours for 52,428). Each now
/// gets the verdict a file under `IN_MEMORY_BYTES` gets: the member read, the slices read,
/// bytes, and the overlap a problem once the parts read pass `MAX_PARTS_READ` times the file.
#[test]
#[ignore = "writes 65 MiB files: run by .ci/steps/30-audit.sh"]
fn large_files_get_the_verdicts_of_small_ones() {
    use object::{Architecture, BinaryFormat};
    let big = (IN_MEMORY_BYTES + 4096) as usize;
    let elf = object_declaring(BinaryFormat::Elf, Architecture::X86_64);
    // A universal file of `slices`, each (offset, size), after its table.
    let universal = |slices: &[(u32, u32)], body: &[u8], at: usize| {
        let mut f = vec![0u8; at];
        f[..4].copy_from_slice(&0xCAFE_BABEu32.to_be_bytes());
        f[4..8].copy_from_slice(&(slices.len() as u32).to_be_bytes());
        for (i, &(offset, size)) in slices.iter().enumerate() {
            let e = 8 + 20 * i;
            for (k, v) in [0x0100_0007u32, 3, offset, size, 0].into_iter().enumerate() {
                f[e + 4 * k..e + 4 * k + 4].copy_from_slice(&v.to_be_bytes());
            }
        }
        f.extend_from_slice(body);
        f
    };
    // 60,000 slices, each a Mach-O header with no load commands (x86-64, little-endian).
    let mut header = [0u8; 32];
    header[..4].copy_from_slice(&0xFEED_FACFu32.to_le_bytes());
    header[4..8].copy_from_slice(&0x0100_0007u32.to_le_bytes());
    header[8..12].copy_from_slice(&3u32.to_le_bytes());
    header[12..16].copy_from_slice(&1u32.to_le_bytes());
    let n = 60_000u32;
    let at = 8 + 20 * n as usize;
    let many: Vec<(u32, u32)> = (0..n).map(|i| (at as u32 + 32 * i, 32)).collect();
    let many = universal(&many, &header.repeat(n as usize), at);
    // Seven slices that all name one archive covering most of the file.
    let overlapping = |len: usize| {
        let archive = ar(&[("a.o", &elf), ("pad", &vec![0u8; len])]);
        universal(&[(4096, archive.len() as u32); 7], &archive, 4096)
    };
    // `MZ` whose e_lfanew points at no PE signature: an MS-DOS program, bytes.
    let mut mz = vec![0u8; 4096];
    mz[..2].copy_from_slice(b"MZ");
    mz[0x3C..0x40].copy_from_slice(&128u32.to_le_bytes());
    let cases: [(&str, Vec<u8>, Vec<u8>); 5] = [
        (
            "symdef.a",
            ar(&[("a.o", &elf), ("__.SYMDEF.o/", &elf)]),
            ar(&[
                ("a.o", &elf),
                ("__.SYMDEF.o/", &elf),
                ("pad", &vec![0u8; big]),
            ]),
        ),
        (
            "names.a",
            ar(&[("a.o", &elf), ("//", &elf)]),
            ar(&[("a.o", &elf), ("//", &elf), ("pad", &vec![0u8; big])]),
        ),
        ("many", many.clone(), many),
        ("overlap", overlapping(1 << 20), overlapping(big)),
        ("mz", mz.clone(), mz),
    ];
    for (name, small, large) in cases {
        let (small, large) = at_both_sizes(name, &small, &large);
        assert_eq!(
            (large.kind, large.order),
            (small.kind, small.order),
            "{name}"
        );
        assert_eq!(
            large.problem.is_some(),
            small.problem.is_some(),
            "{name}: {small:?} {large:?}"
        );
        match name {
            "overlap" => assert!(
                large
                    .problem
                    .as_deref()
                    .is_some_and(|p| p.contains("overlap")),
                "{large:?}"
            ),
            "mz" => assert_eq!(large.kind, "bytes"),
            _ => assert_eq!(large.order, Some(actlut_audit::ByteOrder::Little), "{name}"),
        }
    }
}

/// An ar archive whose symbol table (`kind`: `/`, `/SYM64/` or `__.SYMDEF`)
/// names the offsets `named` returns from its members' header offsets, then
/// `members` as [`ar`] writes them.
fn ar_with_symbols(
    kind: &str,
    members: &[(&str, &[u8])],
    named: impl Fn(&[u64]) -> Vec<u64>,
) -> Vec<u8> {
    let count = named(&vec![0; members.len()]).len();
    let strings: Vec<u8> = (0..count)
        .flat_map(|i| format!("s{i:03}\0").into_bytes())
        .collect();
    let table = |offsets: &[u64]| {
        let mut t = Vec::new();
        match kind {
            "/" => {
                t.extend((count as u32).to_be_bytes());
                offsets
                    .iter()
                    .for_each(|&o| t.extend((o as u32).to_be_bytes()));
                t.extend(&strings);
            }
            "/SYM64/" => {
                t.extend((count as u64).to_be_bytes());
                offsets.iter().for_each(|&o| t.extend(o.to_be_bytes()));
                t.extend(&strings);
            }
            _ => {
                t.extend((count as u32 * 8).to_le_bytes());
                for (i, &o) in offsets.iter().enumerate() {
                    t.extend((i as u32 * 5).to_le_bytes());
                    t.extend((o as u32).to_le_bytes());
                }
                t.extend((strings.len() as u32).to_le_bytes());
                t.extend(&strings);
            }
        }
        t.resize(t.len().next_multiple_of(8), 0);
        t
    };
    let mut at = 8 + 60 + table(&vec![0; count]).len() as u64;
    let mut headers = Vec::new();
    for (_, data) in members {
        headers.push(at);
        at += 60 + data.len().next_multiple_of(2) as u64;
    }
    let table = table(&named(&headers));
    let mut out = ar(&[(kind, &table)]);
    out.extend_from_slice(&ar(members)[8..]);
    out
}

/// The eighth attack round: an ar archive whose symbol table names a member
/// header hidden in another member's data (a linker loads it; the audit,
/// reading the members, never does) was bad input under `IN_MEMORY_BYTES`
/// and passed over it, where the symbol table was not read. Now the table
/// is read at any size, with the same problem; an honest large archive with
/// a symbol table stays clean, and one whose symbol table is larger than the
/// audit reads of a file read in pieces (32 MiB) is a problem.
#[test]
#[ignore = "writes five 65 MiB files: run by .ci/steps/30-audit.sh"]
fn a_large_archive_has_its_symbol_table_checked() {
    use object::{Architecture, BinaryFormat};
    let big = (IN_MEMORY_BYTES + 4096) as usize;
    let elf = object_declaring(BinaryFormat::Elf, Architecture::X86_64);
    // A member of raw bytes that hides a member header and `elf` 4 bytes in,
    // then `pad` zeros.
    let cover = |pad: usize| {
        let mut c = b"data".to_vec();
        c.extend_from_slice(&ar(&[("gelu.o/", &elf)])[8..]);
        c.resize(c.len() + pad, 0);
        c
    };
    for kind in ["/", "/SYM64/", "__.SYMDEF"] {
        let attack = |pad: usize| {
            let cover = cover(pad);
            ar_with_symbols(kind, &[("blob.bin", &cover)], |h| vec![h[0], h[0] + 64])
        };
        let (small, large) = at_both_sizes("hidden.a", &attack(4096), &attack(big));
        // The hidden header, where the table's second offset points.
        let small_file = attack(4096);
        let at = small_file.windows(7).position(|w| w == b"gelu.o/").unwrap();
        let want = format!("malformed ar archive file: its symbol table names a member at offset {at:#x}, which is not one of its members");
        let named = |c: &actlut_audit::container::Container| {
            assert_eq!(c.problem.as_deref(), Some(&want[..]), "{kind}");
        };
        named(&small);
        named(&large);
        assert_eq!(
            (large.kind, large.order),
            (small.kind, small.order),
            "{kind}"
        );
    }
    // Honest: the table names both members; at both sizes, little-endian
    // and clean.
    let honest = |pad: usize| {
        let pad = vec![0u8; pad];
        ar_with_symbols("/", &[("a.o/", &elf), ("pad/", &pad)], |h| {
            vec![h[0], h[0], h[1]]
        })
    };
    let (small, large) = at_both_sizes("honest.a", &honest(4096), &honest(big));
    for c in [small, large] {
        assert_eq!(
            (c.kind, c.order, c.problem),
            ("ar archive", Some(actlut_audit::ByteOrder::Little), None)
        );
    }
    // A symbol table (no symbols, padded) of `mib` MiB; an archive over the
    // bound passes under `IN_MEMORY_BYTES` (read whole) and is a problem
    // over it, saying so.
    let table = |mib: usize| {
        let mut t = vec![0u8; mib << 20];
        t[..4].copy_from_slice(&0u32.to_be_bytes());
        t
    };
    let over_the_bound = |name: &str, archive: &dyn Fn(usize) -> Vec<u8>| {
        let (small, large) = at_both_sizes(name, &archive(4096), &archive(big));
        assert_eq!(small.problem, None);
        let said = large.problem.as_deref().unwrap_or_default();
        assert!(said.contains("its symbol table ends"), "{large:?}");
        assert!(said.contains("all its archives together"), "{large:?}");
    };
    // One table of 33 MiB.
    let huge = table(33);
    over_the_bound("huge.a", &|pad| {
        ar(&[("/", &huge), ("a.o/", &elf), ("pad/", &vec![0u8; pad])])
    });
    // Two archives in one, each with a table of 20 MiB: each within the
    // bound, together over it (what nested tables hold adds up, so the bound
    // is the file's).
    let inner = ar(&[("/", &table(20)), ("a.o/", &elf)]);
    over_the_bound("nested.a", &|pad| {
        ar(&[
            ("one.a/", &inner),
            ("two.a/", &inner),
            ("pad/", &vec![0u8; pad]),
        ])
    });
}

/// A little-endian object file of `format` for `arch` whose `.rodata` holds
/// gelu_fp8_e4m3's declaration and table.
fn object_declaring(format: object::BinaryFormat, arch: object::Architecture) -> Vec<u8> {
    use object::write::Object;
    let mut o = Object::new(format, arch, object::Endianness::Little);
    let s = o.add_section(
        Vec::new(),
        b".rodata".to_vec(),
        object::SectionKind::ReadOnlyData,
    );
    o.append_section_data(s, &declared(), 64);
    o.write().unwrap()
}

/// What the headers of `small` say read whole, and those of `large` (padded
/// with zeros past `IN_MEMORY_BYTES` if shorter) read in pieces from a file.
fn at_both_sizes(
    name: &str,
    small: &[u8],
    large: &[u8],
) -> (
    actlut_audit::container::Container,
    actlut_audit::container::Container,
) {
    let dir = std::env::temp_dir().join(format!("actlut-sizes-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut bytes = large.to_vec();
    let big = (IN_MEMORY_BYTES + 4096) as usize;
    if bytes.len() < big {
        bytes.resize(big, 0);
    }
    let path = dir.join(name);
    std::fs::write(&path, &bytes).unwrap();
    let f = std::fs::File::open(&path).unwrap();
    let large = inspect_file(&f, bytes.len() as u64).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    (inspect(small, small.len() as u64), large)
}

/// The ninth attack round, over `IN_MEMORY_BYTES`: an ELF file whose symbol
/// table links to no string table was malformed at its own size and passed
/// once padded (the large reader checked only the header tables); a raw
/// image opening with `4c 01` (the i386 COFF machine) was bytes at its own
/// size and a little-endian COFF file once padded; an archive member was
/// read by its ELF header alone, a wasm member not at all. A file over
/// `IN_MEMORY_BYTES` is now read by the code that reads one in memory, each
/// member and slice as a file of its own: every case gets the small file's
/// kind, order and verdict.
#[test]
#[ignore = "writes 65 MiB files: run by .ci/steps/30-audit.sh"]
fn large_files_are_read_by_the_code_that_reads_small_ones() {
    use object::{Architecture, BinaryFormat};
    let elf = object_declaring(BinaryFormat::Elf, Architecture::X86_64);
    let headers = section_headers(&elf);
    let patched = |sh_type: u32, field: usize, value: u64| {
        let mut e = elf.clone();
        let (at, _) = *headers.iter().find(|h| h.1 == sh_type).unwrap();
        e[at + field..at + field + 8].copy_from_slice(&value.to_le_bytes());
        e
    };
    // The symbol table's sh_link (at 40, 4 bytes; the next 4 are sh_info,
    // kept) names no section.
    let mut unlinked = elf.clone();
    let (symtab, _) = *headers.iter().find(|h| h.1 == 2).unwrap();
    unlinked[symtab + 40..symtab + 44].copy_from_slice(&0x7FFFu32.to_le_bytes());
    // `.rodata`'s file part (sh_offset at 24) past the end of the member.
    let past = patched(1, 24, 1 << 40);
    // A raw image: the COFF machine bytes, then a declared table.
    let mut raw = vec![0x4C, 0x01];
    raw.extend(std::iter::repeat_n(0x5A, 4094));
    raw.extend_from_slice(&declared());
    // A wasm member whose one section runs past the member's end.
    let mut wasm = b"\0asm\x01\0\0\0\x0b".to_vec();
    wasm.extend_from_slice(&leb(1 << 20));
    wasm.extend_from_slice(&declared());
    let big = (IN_MEMORY_BYTES + 4096) as usize;
    let pad = vec![0u8; big];
    let cases = [
        (
            "unlinked",
            unlinked.clone(),
            unlinked,
            Some("Invalid ELF section index"),
        ),
        ("raw", raw.clone(), raw, None),
        (
            "elf-member.a",
            ar(&[("a.o", &past)]),
            ar(&[("a.o", &past), ("pad", &pad)]),
            Some("runs past the end of the file"),
        ),
        (
            "wasm-member.a",
            ar(&[("a.wasm", &wasm)]),
            ar(&[("a.wasm", &wasm), ("pad", &pad)]),
            Some("runs past the end of the file"),
        ),
        (
            "honest.a",
            ar(&[("a.o", &elf)]),
            ar(&[("a.o", &elf), ("pad", &pad)]),
            None,
        ),
        // A long BSD name whose first byte is a NUL: `object` reads it as
        // empty, not as `__.SYMDEF`, and the member as a member.
        (
            "bsd.a",
            ar(&[(
                "#1/20",
                &[b"\0_.SYMDEF\0\0\0\0\0\0\0\0\0\0\0", &elf[..]].concat(),
            )]),
            ar(&[
                (
                    "#1/20",
                    &[b"\0_.SYMDEF\0\0\0\0\0\0\0\0\0\0\0", &elf[..]].concat(),
                ),
                ("pad", &pad),
            ]),
            None,
        ),
    ];
    for (name, small, large, problem) in cases {
        let (small, large) = at_both_sizes(name, &small, &large);
        assert_eq!(
            (large.kind, large.order, large.problem.is_some()),
            (small.kind, small.order, small.problem.is_some()),
            "{name}: {small:?} {large:?}"
        );
        match problem {
            Some(why) => assert!(
                large.problem.as_deref().is_some_and(|p| p.contains(why)),
                "{name}: {large:?}"
            ),
            None => assert_eq!(large.problem, None, "{name}"),
        }
    }
}

/// The ninth attack round: a wasm module over `IN_MEMORY_BYTES` of empty
/// sections took 26 times the time of random bytes, its walk uncharged (a
/// seek and an 8 KiB read per 2-byte section). It is now read through, and
/// each section is charged to the scan's budget; such a module passes (no
/// table, nothing wrong), and its charge stays within the file's budget.
#[test]
#[ignore = "writes a 65 MiB file: run by .ci/steps/30-audit.sh"]
fn a_large_wasm_module_of_empty_sections_is_charged_for_each() {
    let big = (IN_MEMORY_BYTES + 4096) as usize;
    let mut module = b"\0asm\x01\0\0\0".to_vec();
    module.resize(big, 0);
    let (small, large) = at_both_sizes("sections.wasm", &module[..1 << 20], &module);
    assert_eq!((small.kind, small.problem.clone()), ("wasm", None));
    assert_eq!((large.kind, large.problem), ("wasm", None));
    let sections = (big as u64 - 8) / 2;
    assert!(large.cost >= 8 * sections, "{} for {sections}", large.cost);
    assert!(large.cost <= actlut_audit::BUDGET_PER_BYTE * big as u64);
}

/// The ninth attack round: in an archive over `IN_MEMORY_BYTES`, a member
/// whose BSD name (`#1/N`) is as long as the member was read into memory
/// whole as its name (1.19 GB resident for a 1 GiB archive). A name is read
/// up to [`actlut_audit::container`]'s piece of 1 MiB (no special member's
/// name is longer): the reads charged for the file, each as many bytes as it
/// holds in memory, stay under 2 MiB, and the archive is what it is at its
/// own size.
#[test]
#[ignore = "writes a 65 MiB file: run by .ci/steps/30-audit.sh"]
fn a_large_archive_member_with_a_name_as_long_as_itself_is_not_read_whole() {
    let big = IN_MEMORY_BYTES as usize + 4096;
    let long = |n: usize| ar(&[(&format!("#1/{n}"), &vec![0x41u8; n])]);
    let (small, large) = at_both_sizes("bsd-long.a", &long(4096), &long(big));
    assert_eq!(
        (large.kind, large.order, large.problem.clone()),
        (small.kind, small.order, small.problem)
    );
    // One unit of cost per 8 bytes read, and 64 per read.
    assert!(large.cost < (2 << 20) / 8, "{}", large.cost);
}

/// Over `IN_MEMORY_BYTES`, the headers and symbol tables `object` reads of
/// a file are held in a cache of at most 64 MiB (`OBJECT_BYTES`), so that
/// memory stays bounded: an ELF file whose symbol table takes 63 MiB is
/// read (209 MB resident, docs/audit.md), one whose symbol table takes
/// 100 MiB is a problem that says why.
#[test]
#[ignore = "writes files of 130 and 170 MB: run by .ci/steps/30-audit.sh"]
fn a_large_file_whose_symbol_tables_pass_the_cache_bound_is_a_problem() {
    use object::{Architecture, BinaryFormat};
    let elf = object_declaring(BinaryFormat::Elf, Architecture::X86_64);
    let (symtab, _) = *section_headers(&elf).iter().find(|h| h.1 == 2).unwrap();
    for (mib, problem) in [(63u64, false), (100, true)] {
        let size = (mib << 20) / 24 * 24;
        let mut e = elf.clone();
        let at = IN_MEMORY_BYTES;
        e[symtab + 24..symtab + 32].copy_from_slice(&at.to_le_bytes());
        e[symtab + 32..symtab + 40].copy_from_slice(&size.to_le_bytes());
        e.resize((at + size) as usize + 4096, 0);
        let (_, large) = at_both_sizes(&format!("symtab-{mib}"), &elf, &e);
        assert_eq!(large.kind, "ELF");
        assert_eq!(large.problem.is_some(), problem, "{mib} MiB: {large:?}");
        if problem {
            let said = large.problem.unwrap();
            assert!(
                said.contains("its headers and symbol tables take more than"),
                "{said}"
            );
        }
    }
}

/// The file offset and type (`sh_type`) of each section header of the
/// little-endian 64-bit ELF file `elf`.
fn section_headers(elf: &[u8]) -> Vec<(usize, u32)> {
    let file = object::read::elf::ElfFile64::<object::LittleEndian>::parse(elf).unwrap();
    let shoff = file.elf_header().e_shoff.get(object::LittleEndian) as usize;
    (0..file.elf_section_table().len())
        .map(|i| {
            let at = shoff + 64 * i;
            (
                at,
                u32::from_le_bytes(elf[at + 4..at + 8].try_into().unwrap()),
            )
        })
        .collect()
}

/// The tenth attack round: an object file of one codegen unit of an honest
/// debug build holds actlut's manifest (every table's SHA-256) and none of
/// the tables, which other codegen units hold: every table was MISSING. A
/// relocatable object is one part of a build, and a table its manifest names
/// is not missing from it; the same hashes in a file that is no object still
/// name missing tables, and a damaged copy in an object is still a problem.
#[test]
fn a_relocatable_object_is_not_missing_the_tables_of_other_objects() {
    use object::write::Object;
    use object::{Architecture, BinaryFormat, Endianness, SectionKind};
    let lock = lock();
    let sha = lock
        .entries
        .iter()
        .find(|e| e.name == "gelu_f16")
        .unwrap()
        .sha256;
    let object = |contents: &[u8]| {
        let mut o = Object::new(BinaryFormat::Elf, Architecture::X86_64, Endianness::Little);
        let s = o.add_section(Vec::new(), b".rodata".to_vec(), SectionKind::ReadOnlyData);
        o.append_section_data(s, contents, 64);
        o.write().unwrap()
    };
    let names = object(&sha);
    let r = audit(&names, &lock).unwrap();
    assert_eq!(problems(&r, &lock), Vec::<String>::new());
    assert!(r.nothing_verified());
    let raw = [&[0x5Au8; 4096][..], &sha, &[0x5A; 4096]].concat();
    let r = audit(&raw, &lock).unwrap();
    assert!(
        problems(&r, &lock)
            .iter()
            .any(|p| p.contains("not in the file")),
        "{:?}",
        problems(&r, &lock)
    );
    let mut damaged = declared();
    let at = damaged.len() - 100;
    damaged[at] ^= 1;
    let r = audit(&object(&[&sha[..], &damaged].concat()), &lock).unwrap();
    assert!(!problems(&r, &lock).is_empty());
}
