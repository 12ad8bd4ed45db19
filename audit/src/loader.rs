//! Where the program reads what the audit judged: the loader's map of the
//! file.
//!
//! The scan judges the file's bytes. A program does not read its tables from
//! the file but from memory, where the loader (or the linker, for an object
//! file) put them, and a format has its own means of putting other bytes
//! there. So for every declared table (its declaration and its stored
//! bytes), every manifest record and every intact copy found by content,
//! the audit reads the file's own load map and requires:
//!
//! - **ELF executables and shared objects** (`ET_EXEC`, `ET_DYN`): a
//!   declared table or record lies wholly in the file part of a `PT_LOAD`
//!   segment (else the program never reads those bytes). No other `PT_LOAD`
//!   maps anything over it: not another part of the file, not a zero page,
//!   not the zero fill of a segment's tail. Where every segment can be mapped
//!   by pages (its `p_vaddr - p_offset` a multiple of the page size: the
//!   largest of 64, 16 and 4 KiB that divides them all and that the machine
//!   can have), segments are compared by whole pages, as the kernel maps
//!   them; else byte for byte. Physical addresses (`p_paddr`, what a flasher
//!   writes for firmware) are compared byte for byte, too. No relocation
//!   writes into it: those of `PT_DYNAMIC` (`DT_RELA`, `DT_REL`, `DT_RELR`,
//!   `DT_JMPREL`) and those of every relocation section
//!   (`SHT_REL`, `SHT_RELA`, `SHT_RELR`, `SHT_CREL`); a copy relocation
//!   writes from its target to the end of memory, as far as the audit can
//!   tell. Android's packed relocations, which the audit does not read, are
//!   a problem.
//! - **ELF relocatable objects** (`ET_REL`: a `.o`, the members of a static
//!   library or an rlib): no relocation the linker applies targets a
//!   declared table or record, and its section, if allocated, is not
//!   mergeable (`SHF_MERGE`: the linker could merge and reorder its
//!   entries). A table in a section the linker does not copy (an rlib's
//!   metadata holds such copies) is not linked at all.
//! - **wasm modules:** a declared table or record lies wholly in one data
//!   segment. If that segment is active, no later active segment of the same
//!   memory is written over it at instantiation. Segments placed by a global
//!   (`global.get`) are compared with those placed by the same global; with
//!   any other, the audit cannot tell, and that is a problem. Relocations of
//!   a wasm object file (`reloc.*` sections) must not target it.
//! - **Mach-O, PE, COFF and XCOFF files:** no relocation of a section
//!   targets it (as `object` reads them), nor, in a PE image, a base
//!   relocation.
//! - **ar archives:** each member, as a file of its own.
//!
//! A table's static is plain data, with no pointer in it, so an honest build
//! has no relocation into it and no segment over it. What is left out is in
//! `docs/audit.md` ("What the program's loader does to the bytes").

use std::format;
use std::string::{String, ToString};
use std::vec::Vec;

use object::read::elf::{
    Dyn as _, FileHeader, ProgramHeader as _, Rel as _, Rela as _, SectionHeader as _,
};
use object::{elf, Endianness, FileKind, Object, ObjectSection, ReadRef};

use crate::container::MAX_NESTING;
use crate::report::Report;
use crate::Verdict;

/// A range of file bytes the program is expected to read as they are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    /// File offset of the first byte.
    pub start: u64,
    /// File offset just past the last byte.
    pub end: u64,
    /// What it is, as a problem names it.
    pub what: String,
    /// Whether the build declares it (a declaration and its table, or a
    /// manifest record): then it must also lie where the loader reads it.
    /// A copy found by content is only held to "nothing is written over
    /// it".
    pub declared: bool,
}

/// The spans of a report: every declaration with its table, every manifest
/// record, and every intact copy found by content.
pub fn spans(report: &Report) -> Vec<Span> {
    let mut out = Vec::new();
    for d in &report.declared {
        let (len, name) = match &d.declaration {
            Ok(x) => (u64::from(x.len), x.name().to_string()),
            Err(_) => (0, d.shown_name.clone()),
        };
        out.push(Span {
            start: d.offset,
            end: d.table_offset() + len,
            what: format!("declared table {name} at {:#x}", d.offset),
            declared: true,
        });
    }
    for r in &report.records {
        out.push(Span {
            start: r.offset,
            end: r.offset + crate::manifest::RECORD_BYTES as u64,
            what: format!("manifest record of {} at {:#x}", r.name, r.offset),
            declared: true,
        });
    }
    for f in &report.found {
        if f.verdict == Verdict::Intact {
            out.push(Span {
                start: f.offset,
                end: f.offset + f.len as u64,
                what: format!(
                    "{} at {:#x}",
                    f.names.first().map(String::as_str).unwrap_or("table"),
                    f.offset
                ),
                declared: false,
            });
        }
    }
    out
}

/// Judges where the loader puts each of `report`'s spans in the `len`-byte
/// artifact `data`, and records the problems in [`Report::loaded`].
pub fn judge_report<'d, R: ReadRef<'d>>(report: &mut Report, data: R, len: u64) {
    let spans = spans(report);
    report.loaded = judge(data, len, &spans);
}

/// One problem line per span that the loader does not leave as the file
/// holds it (see the module's documentation), and one per load map the
/// audit cannot read while spans lie in it.
pub fn judge<'d, R: ReadRef<'d>>(data: R, len: u64, spans: &[Span]) -> Vec<String> {
    let mut out = Problems::new(spans.len());
    if !spans.is_empty() {
        judge_at(data, len, 0, spans, &mut out, 0);
    }
    out.lines()
}

/// The problems found so far: the first reason for each span, then those of
/// the file.
struct Problems {
    per_span: Vec<Option<String>>,
    file: Vec<String>,
}

impl Problems {
    fn new(n: usize) -> Problems {
        Problems {
            per_span: std::vec![None; n],
            file: Vec::new(),
        }
    }

    fn span(&mut self, i: usize, spans: &[Span], why: impl FnOnce() -> String) {
        if self.per_span[i].is_none() {
            self.per_span[i] = Some(format!("{}: {}", spans[i].what, why()));
        }
    }

    fn file(&mut self, why: String) {
        if !self.file.contains(&why) {
            self.file.push(why);
        }
    }

    fn lines(self) -> Vec<String> {
        let mut out: Vec<String> = self.per_span.into_iter().flatten().collect();
        out.extend(self.file);
        out
    }
}

/// The spans that lie, at least in part, in `[base, base + len)`, with
/// their index.
fn inside(spans: &[Span], base: u64, len: u64) -> Vec<(usize, u64, u64)> {
    spans
        .iter()
        .enumerate()
        .filter(|(_, s)| s.start < base + len && s.end > base)
        .map(|(i, s)| (i, s.start, s.end))
        .collect()
}

fn judge_at<'d, R: ReadRef<'d>>(
    data: R,
    len: u64,
    base: u64,
    spans: &[Span],
    out: &mut Problems,
    depth: usize,
) {
    let here = inside(spans, base, len);
    if here.is_empty() {
        return;
    }
    let head = data.read_bytes_at(0, len.min(64)).unwrap_or(&[]);
    if head.starts_with(b"!<arch>\n") || head.starts_with(b"<bigaf>\n") {
        if depth > MAX_NESTING {
            return; // The container's problem already.
        }
        let Ok(file) = object::read::archive::ArchiveFile::parse(data) else {
            return;
        };
        for member in file.members().flatten() {
            let (at, size) = member.file_range();
            if let Ok(bytes) = member.data(data) {
                judge_at(bytes, size, base + at, spans, out, depth + 1);
            }
        }
        return;
    }
    match FileKind::parse(data) {
        Ok(FileKind::MachOFat32) => {
            fat::<R, object::macho::FatArch32>(data, base, spans, out, depth)
        }
        Ok(FileKind::MachOFat64) => {
            fat::<R, object::macho::FatArch64>(data, base, spans, out, depth)
        }
        Ok(FileKind::Elf32) => {
            if let Ok(f) = object::read::elf::ElfFile32::<Endianness, R>::parse(data) {
                Elf::new(&f, base, spans, out).judge(&here);
            }
        }
        Ok(FileKind::Elf64) => {
            if let Ok(f) = object::read::elf::ElfFile64::<Endianness, R>::parse(data) {
                Elf::new(&f, base, spans, out).judge(&here);
            }
        }
        Ok(FileKind::Wasm) => {
            if let Ok(bytes) = data.read_bytes_at(0, len) {
                wasm(bytes, base, spans, &here, out);
            }
        }
        Ok(_) => {
            if let Ok(f) = object::File::parse(data) {
                relocations(&f, data, base, spans, &here, out);
            }
        }
        Err(_) => {}
    }
}

/// A universal Mach-O file: each slice, as a file of its own.
fn fat<'d, R: ReadRef<'d>, Fat: object::read::macho::FatArch>(
    data: R,
    base: u64,
    spans: &[Span],
    out: &mut Problems,
    depth: usize,
) {
    if depth > MAX_NESTING {
        return;
    }
    let Ok(file) = object::read::macho::MachOFatFile::<Fat>::parse(data) else {
        return;
    };
    for arch in file.arches() {
        let (at, size) = arch.file_range();
        if let Ok(bytes) = arch.data(data) {
            judge_at(bytes, size, base + at, spans, out, depth + 1);
        }
    }
}

/// Whether `[a, b)` and `[c, d)` share a byte.
fn overlaps(a: u64, b: u64, c: u64, d: u64) -> bool {
    a < d && c < b
}

/// A `PT_LOAD` segment, its fields widened.
#[derive(Clone, Copy, Debug)]
struct Load {
    index: usize,
    offset: u64,
    vaddr: u64,
    paddr: u64,
    filesz: u64,
    memsz: u64,
}

impl Load {
    /// The file bytes it maps.
    fn file_end(&self) -> u64 {
        self.offset.saturating_add(self.filesz.min(self.memsz))
    }
}

/// The largest page size that Linux can have on the machine `machine`.
fn max_page(machine: elf::Machine) -> u64 {
    match machine {
        elf::EM_386 | elf::EM_X86_64 | elf::EM_ARM | elf::EM_RISCV | elf::EM_S390 => 4096,
        _ => 65_536,
    }
}

fn down(v: u64, g: u64) -> u64 {
    v - v % g
}

fn up(v: u64, g: u64) -> u64 {
    v.checked_next_multiple_of(g).unwrap_or(u64::MAX)
}

struct Elf<'a, 'd, H: FileHeader<Endian = Endianness>, R: ReadRef<'d>> {
    file: &'a object::read::elf::ElfFile<'d, H, R>,
    base: u64,
    spans: &'a [Span],
    out: &'a mut Problems,
    loads: Vec<Load>,
    /// Granularity of the virtual address comparison: a page size, or 1.
    page: u64,
}

impl<'a, 'd, H: FileHeader<Endian = Endianness>, R: ReadRef<'d>> Elf<'a, 'd, H, R> {
    fn new(
        file: &'a object::read::elf::ElfFile<'d, H, R>,
        base: u64,
        spans: &'a [Span],
        out: &'a mut Problems,
    ) -> Self {
        let e = file.endian();
        let mut loads = Vec::new();
        for (index, p) in file.elf_program_headers().iter().enumerate() {
            if p.p_type(e) == elf::PT_LOAD {
                loads.push(Load {
                    index,
                    offset: p.p_offset(e).into(),
                    vaddr: p.p_vaddr(e).into(),
                    paddr: p.p_paddr(e).into(),
                    filesz: p.p_filesz(e).into(),
                    memsz: p.p_memsz(e).into(),
                });
            }
        }
        let machine = file.elf_header().e_machine(e);
        let page = [65_536, 16_384, 4096]
            .into_iter()
            .filter(|&g| g <= max_page(machine))
            .find(|&g| {
                loads
                    .iter()
                    .all(|l| l.vaddr.wrapping_sub(l.offset) % g == 0)
            })
            .unwrap_or(1);
        Elf {
            file,
            base,
            spans,
            out,
            loads,
            page,
        }
    }

    fn judge(mut self, here: &[(usize, u64, u64)]) {
        let e = self.file.endian();
        let kind = self.file.elf_header().e_type(e);
        // File offsets inside this file.
        let local: Vec<(usize, u64, u64)> = here
            .iter()
            .map(|&(i, s, t)| (i, s.saturating_sub(self.base), t - self.base))
            .collect();
        if kind == elf::ET_REL {
            self.relocatable(&local);
        } else if kind == elf::ET_EXEC || kind == elf::ET_DYN {
            self.executable(&local);
        }
    }

    /// The address ranges (virtual) at which the loader maps the file bytes
    /// `[s, t)`: one per `PT_LOAD` whose file part holds them all.
    fn mapped(&self, s: u64, t: u64) -> Vec<(Load, u64, u64)> {
        self.loads
            .iter()
            .filter(|l| l.offset <= s && t <= l.file_end())
            .map(|l| (*l, l.vaddr + (s - l.offset), l.vaddr + (t - l.offset)))
            .collect()
    }

    fn executable(&mut self, local: &[(usize, u64, u64)]) {
        let spans = self.spans;
        let mut placed = Vec::new();
        for &(i, s, t) in local {
            let maps = self.mapped(s, t);
            if maps.is_empty() {
                if spans[i].declared {
                    self.out.span(i, spans, || {
                        "it is not wholly in the file part of any loadable segment (PT_LOAD): the program does not read these bytes".into()
                    });
                }
                continue;
            }
            for (a, vs, vt) in maps {
                if let Some(why) = self.segment_over(&a, s, t, vs, vt) {
                    self.out.span(i, spans, || why);
                }
                placed.push((i, vs, vt));
            }
        }
        if !placed.is_empty() {
            self.dynamic_relocations(&placed);
        }
    }

    /// The first other `PT_LOAD` that writes into `[vs, vt)` (the virtual
    /// addresses at which `a` maps the file bytes `[s, t)`) or into its
    /// physical addresses.
    fn segment_over(&self, a: &Load, s: u64, t: u64, vs: u64, vt: u64) -> Option<String> {
        let g = self.page;
        let delta = |l: &Load| l.vaddr.wrapping_sub(l.offset);
        let pdelta = |l: &Load| l.paddr.wrapping_sub(l.offset);
        let ps = a.paddr.wrapping_add(s - a.offset);
        let pt = ps.wrapping_add(t - s);
        for b in &self.loads {
            if b.index == a.index || b.memsz == 0 {
                continue;
            }
            let end = b.vaddr.saturating_add(b.memsz);
            // Virtual: a segment of another delta maps its own pages over
            // whatever it covers; one of the same delta maps the same file
            // bytes, then zero-fills from its file end to the end of its
            // memory (by pages, to the end of that page).
            let written = if delta(b) != delta(a) {
                Some((down(b.vaddr, g), up(end, g)))
            } else if b.memsz > b.filesz {
                Some((b.vaddr.saturating_add(b.filesz), up(end, g)))
            } else {
                None
            };
            if let Some((ws, wt)) = written {
                if overlaps(ws, wt, vs, vt) {
                    return Some(format!(
                        "program header {} (PT_LOAD, file offset {:#x}) maps other bytes over it at run time, at {:#x}..{:#x}",
                        b.index, b.offset, ws, wt
                    ));
                }
            }
            // Physical: what a flasher writes, byte for byte.
            if pdelta(b) != pdelta(a) && b.filesz > 0 {
                let (ws, wt) = (b.paddr, b.paddr.saturating_add(b.filesz.min(b.memsz)));
                if overlaps(ws, wt, ps, pt) {
                    return Some(format!(
                        "program header {} (PT_LOAD, file offset {:#x}) writes other bytes over its physical addresses {:#x}..{:#x}",
                        b.index, b.offset, ps, pt
                    ));
                }
            }
        }
        None
    }

    /// Every relocation the dynamic loader (or a static program's start-up
    /// code, from its relocation sections) applies, against the virtual
    /// ranges `placed`.
    fn dynamic_relocations(&mut self, placed: &[(usize, u64, u64)]) {
        let e = self.file.endian();
        let data = self.file.data();
        let machine = self.file.elf_header().e_machine(e);
        let word: u64 = if self.file.is_64() { 8 } else { 4 };
        let mut ranges = placed.to_vec();
        ranges.sort_by_key(|r| r.1);
        let mut hits: Vec<(usize, String)> = Vec::new();
        let mut unread: Vec<String> = Vec::new();
        let mut check = |at: u64, end: u64, what: &dyn Fn() -> String| {
            // Ranges starting before `end`, of which any may reach `at`.
            let n = ranges.partition_point(|r| r.1 < end);
            for r in ranges[..n].iter().rev() {
                if overlaps(at, end, r.1, r.2) {
                    hits.push((r.0, what()));
                }
            }
        };
        let copy = |t: u32| is_copy(machine, t);
        // Relocation sections.
        let sections = self.file.elf_section_table();
        for (n, sh) in sections.iter().enumerate() {
            let name = sections.section_name(e, sh).unwrap_or(b"?");
            let name = String::from_utf8_lossy(name).into_owned();
            let name = &name;
            let what = |off: u64, t: u32| {
                move || {
                    format!("relocation section {name} (section {n}) writes at {off:#x} (type {t})")
                }
            };
            if let Ok(Some((rel, _))) = sh.rel(e, data) {
                for r in rel {
                    let off: u64 = r.r_offset(e).into();
                    let t = r.r_type(e).0;
                    let end = if copy(t) {
                        u64::MAX
                    } else {
                        off.saturating_add(word)
                    };
                    check(off, end, &what(off, t));
                }
            }
            if let Ok(Some((rela, _))) = sh.rela(e, data) {
                for r in rela {
                    let off: u64 = r.r_offset(e).into();
                    let t = r.r_type(e, false).0;
                    let end = if copy(t) {
                        u64::MAX
                    } else {
                        off.saturating_add(word)
                    };
                    check(off, end, &what(off, t));
                }
            }
            if let Ok(Some(relr)) = sh.relr(e, data) {
                for off in relr {
                    let off: u64 = off.into();
                    check(off, off.saturating_add(word), &what(off, 0));
                }
            }
            if let Ok(Some((crel, _))) = sh.crel(e, data) {
                for r in crel.flatten() {
                    let t = r.r_type.0;
                    let end = if copy(t) {
                        u64::MAX
                    } else {
                        r.r_offset.saturating_add(word)
                    };
                    check(r.r_offset, end, &what(r.r_offset, t));
                }
            }
            let t = sh.sh_type(e);
            if t == elf::SHT_ANDROID_REL || t == elf::SHT_ANDROID_RELA || t == elf::SHT_ANDROID_RELR
            {
                unread.push(format!(
                    "relocation section {name} (section {n}) holds Android packed relocations, which the audit does not read: it cannot tell whether they write into the tables"
                ));
            }
        }
        // PT_DYNAMIC: what the dynamic loader reads, section headers or not.
        for p in self.file.elf_program_headers() {
            let Ok(Some(dynamic)) = p.dynamic(e, data) else {
                continue;
            };
            let tag = |want: i64| {
                dynamic
                    .iter()
                    .find(|d| d.d_tag(e).0 == want)
                    .map(|d| -> u64 { d.d_val(e).into() })
            };
            for (at, size, ent, rela) in [
                (elf::DT_RELA.0, elf::DT_RELASZ.0, 3 * word, true),
                (elf::DT_REL.0, elf::DT_RELSZ.0, 2 * word, false),
                (elf::DT_JMPREL.0, elf::DT_PLTRELSZ.0, 0, false),
            ] {
                let (Some(addr), Some(size)) = (tag(at), tag(size)) else {
                    continue;
                };
                // DT_JMPREL's entries are DT_PLTREL's kind.
                let rela = if ent == 0 {
                    tag(elf::DT_PLTREL.0) == Some(u64::from(elf::DT_RELA.0 as u32))
                } else {
                    rela
                };
                let ent = if rela { 3 * word } else { 2 * word };
                let Some(bytes) = self.at_address(addr, size) else {
                    unread.push(format!(
                        "the dynamic table's relocations (tag {at}) at {addr:#x}, {size} bytes, are not in the file's loadable segments: the audit cannot read what they write"
                    ));
                    continue;
                };
                for entry in bytes.chunks_exact(ent as usize) {
                    let off = read_word(entry, word, e);
                    let info = read_word(&entry[word as usize..], word, e);
                    let t = if word == 8 {
                        info as u32
                    } else {
                        (info & 0xff) as u32
                    };
                    let end = if copy(t) {
                        u64::MAX
                    } else {
                        off.saturating_add(word)
                    };
                    check(off, end, &|| {
                        format!("a dynamic relocation (PT_DYNAMIC) writes at {off:#x} (type {t})")
                    });
                }
            }
            if let (Some(addr), Some(size)) = (tag(elf::DT_RELR.0), tag(elf::DT_RELRSZ.0)) {
                match self.at_address(addr, size) {
                    Some(bytes) => {
                        for off in relr(bytes, word, e) {
                            check(off, off.saturating_add(word), &|| {
                                format!("a relative relocation (DT_RELR) writes at {off:#x}")
                            });
                        }
                    }
                    None => unread.push(format!(
                        "the dynamic table's relative relocations (DT_RELR) at {addr:#x} are not in the file's loadable segments: the audit cannot read what they write"
                    )),
                }
            }
            for t in [
                elf::DT_ANDROID_REL.0,
                elf::DT_ANDROID_RELA.0,
                elf::DT_ANDROID_RELR.0,
            ] {
                if tag(t).is_some() {
                    unread.push(format!(
                        "the dynamic table has Android packed relocations (tag {t:#x}), which the audit does not read: it cannot tell whether they write into the tables"
                    ));
                }
            }
        }
        let spans = self.spans;
        for (i, why) in hits {
            self.out.span(i, spans, || why);
        }
        for u in unread {
            self.out.file(u);
        }
    }

    /// The file bytes at the virtual addresses `[addr, addr + size)`, when
    /// one `PT_LOAD` maps them all from the file.
    fn at_address(&self, addr: u64, size: u64) -> Option<&'d [u8]> {
        let l = self.loads.iter().find(|l| {
            l.vaddr <= addr
                && addr
                    .checked_add(size)
                    .is_some_and(|end| end <= l.vaddr + l.filesz.min(l.memsz))
        })?;
        self.file
            .data()
            .read_bytes_at(l.offset + (addr - l.vaddr), size)
            .ok()
    }

    fn relocatable(&mut self, local: &[(usize, u64, u64)]) {
        let e = self.file.endian();
        let data = self.file.data();
        let spans = self.spans;
        let sections = self.file.elf_section_table();
        if sections.is_empty() {
            return;
        }
        // Each span's section.
        for &(i, s, t) in local {
            if !spans[i].declared {
                continue;
            }
            let holder = sections.iter().find(|sh| {
                sh.file_range(e)
                    .is_some_and(|(o, n)| o <= s && t <= o.saturating_add(n))
            });
            // A section the linker does not copy (not allocated: an rlib's
            // metadata holds copies of the tables) is not linked at all.
            let why = match holder {
                Some(sh)
                    if sh.sh_flags(e).0 & elf::SHF_ALLOC.0 != 0
                        && sh.sh_flags(e).0 & elf::SHF_MERGE.0 != 0 =>
                {
                    Some(
                        "its section is mergeable (SHF_MERGE): the linker may merge and reorder its entries"
                            .to_string(),
                    )
                }
                _ => None,
            };
            if let Some(why) = why {
                self.out.span(i, spans, || why);
            }
        }
        // Relocations, against the file range of the section they target.
        for (n, sh) in sections.iter().enumerate() {
            let target = sh.sh_info(e) as usize;
            let Some((t_off, t_size)) = sections
                .section(object::SectionIndex(target))
                .ok()
                .and_then(|t| t.file_range(e))
            else {
                continue;
            };
            let name =
                String::from_utf8_lossy(sections.section_name(e, sh).unwrap_or(b"?")).into_owned();
            let mut offsets: Vec<u64> = Vec::new();
            if let Ok(Some((rel, _))) = sh.rel(e, data) {
                offsets.extend(rel.iter().map(|r| -> u64 { r.r_offset(e).into() }));
            }
            if let Ok(Some((rela, _))) = sh.rela(e, data) {
                offsets.extend(rela.iter().map(|r| -> u64 { r.r_offset(e).into() }));
            }
            if let Ok(Some((crel, _))) = sh.crel(e, data) {
                offsets.extend(crel.flatten().map(|r| r.r_offset));
            }
            for off in offsets {
                if off >= t_size {
                    continue;
                }
                let at = t_off + off;
                for &(i, s, t) in local {
                    if overlaps(at, at + 8, s, t) {
                        self.out.span(i, spans, || {
                            format!(
                                "relocation section {name} (section {n}) has the linker write at its file offset {:#x}",
                                self.base + at
                            )
                        });
                    }
                }
            }
        }
    }
}

/// Whether the ELF relocation type `t` of the machine `machine` is a copy
/// relocation (it copies a symbol's bytes, of the symbol's size).
fn is_copy(machine: elf::Machine, t: u32) -> bool {
    let copy: &[elf::RelocationType] = match machine {
        elf::EM_386 => &[elf::R_386_COPY],
        elf::EM_X86_64 => &[elf::R_X86_64_COPY],
        elf::EM_ARM => &[elf::R_ARM_COPY],
        elf::EM_AARCH64 => &[elf::R_AARCH64_COPY, elf::R_AARCH64_P32_COPY],
        elf::EM_RISCV => &[elf::R_RISCV_COPY],
        elf::EM_PPC | elf::EM_PPC64 => &[elf::R_PPC_COPY],
        elf::EM_S390 => &[elf::R_390_COPY],
        elf::EM_MIPS => &[elf::R_MIPS_COPY],
        elf::EM_LOONGARCH => &[elf::R_LARCH_COPY],
        elf::EM_SPARC | elf::EM_SPARCV9 => &[elf::R_SPARC_COPY],
        elf::EM_68K => &[elf::R_68K_COPY],
        // Unknown: any relocation may be one.
        _ => return true,
    };
    copy.iter().any(|c| c.0 == t)
}

fn read_word(b: &[u8], word: u64, e: Endianness) -> u64 {
    let little = e == Endianness::Little;
    if word == 8 {
        let a: [u8; 8] = b[..8].try_into().unwrap_or([0; 8]);
        if little {
            u64::from_le_bytes(a)
        } else {
            u64::from_be_bytes(a)
        }
    } else {
        let a: [u8; 4] = b[..4].try_into().unwrap_or([0; 4]);
        u64::from(if little {
            u32::from_le_bytes(a)
        } else {
            u32::from_be_bytes(a)
        })
    }
}

/// The addresses a `DT_RELR` table relocates: an even entry is an address
/// (and the next word is the base of a bitmap); an odd one a bitmap of the
/// `8 * word - 1` words after the base.
fn relr(bytes: &[u8], word: u64, e: Endianness) -> Vec<u64> {
    let mut out = Vec::new();
    let mut next = 0u64;
    for entry in bytes.chunks_exact(word as usize) {
        let v = read_word(entry, word, e);
        if v & 1 == 0 {
            out.push(v);
            next = v.wrapping_add(word);
        } else {
            let bits = 8 * word - 1;
            for k in 0..bits {
                if v >> (k + 1) & 1 == 1 {
                    out.push(next.wrapping_add(k * word));
                }
            }
            next = next.wrapping_add(bits * word);
        }
    }
    out
}

/// An offset expression of a wasm data segment: a global's value (or 0)
/// plus a constant.
fn wasm_offset(expr: &wasmparser::ConstExpr<'_>) -> Option<(Option<u32>, i64)> {
    use wasmparser::Operator as O;
    let mut global = None;
    let mut stack: Vec<i64> = Vec::new();
    for op in expr.get_operators_reader() {
        match op.ok()? {
            O::I32Const { value } => stack.push(i64::from(value as u32)),
            O::I64Const { value } => stack.push(value),
            O::GlobalGet { global_index } if global.is_none() => {
                global = Some(global_index);
                stack.push(0);
            }
            O::I32Add | O::I64Add => {
                let b = stack.pop()?;
                let a = stack.pop()?;
                stack.push(a.wrapping_add(b));
            }
            O::End => break,
            _ => return None,
        }
    }
    (stack.len() == 1).then(|| (global, stack[0]))
}

/// A wasm module: data segments and relocation sections.
fn wasm(bytes: &[u8], base: u64, spans: &[Span], here: &[(usize, u64, u64)], out: &mut Problems) {
    use wasmparser::Payload;
    struct Segment {
        data: (u64, u64),
        /// Memory, base global, address; `None` for a passive segment, or
        /// when the expression is not one the audit reads.
        place: Option<Option<(u32, Option<u32>, i64)>>,
    }
    let mut segments = Vec::new();
    // Payload range of each section, in order (what `reloc.*` sections
    // index).
    let mut sections: Vec<(u64, u64)> = Vec::new();
    let mut relocs = Vec::new();
    for payload in wasmparser::Parser::new(0).parse_all(bytes) {
        let Ok(payload) = payload else {
            return; // The container's problem.
        };
        if let Some((_, range)) = payload.as_section() {
            sections.push((range.start as u64, range.end as u64));
        }
        match &payload {
            Payload::DataSection(reader) => {
                for d in reader.clone() {
                    let Ok(d) = d else { return };
                    let start = d.data.as_ptr() as usize - bytes.as_ptr() as usize;
                    let place = match &d.kind {
                        wasmparser::DataKind::Passive => None,
                        wasmparser::DataKind::Active {
                            memory_index,
                            offset_expr,
                        } => Some(wasm_offset(offset_expr).map(|(g, c)| (*memory_index, g, c))),
                    };
                    segments.push(Segment {
                        data: (start as u64, (start + d.data.len()) as u64),
                        place,
                    });
                }
            }
            Payload::CustomSection(c) => {
                match c.as_known() {
                    wasmparser::KnownCustom::Reloc(r) => relocs.push(r),
                    _ if c.name().starts_with("reloc.") => out.file(format!(
                        "the wasm relocation section {} does not parse: the audit cannot tell where the linker writes",
                        c.name()
                    )),
                    _ => {}
                }
            }
            _ => {}
        }
    }
    for &(i, s, t) in here {
        let (s, t) = (s.saturating_sub(base), t - base);
        let Some(k) = segments.iter().position(|g| g.data.0 <= s && t <= g.data.1) else {
            if spans[i].declared {
                out.span(i, spans, || {
                    "it is not wholly in one data segment: the program does not read these bytes"
                        .into()
                });
            }
            continue;
        };
        let seg = &segments[k];
        let Some(place) = seg.place else {
            continue; // Passive: the code places it (docs/audit.md).
        };
        let Some((mem, global, addr)) = place else {
            out.span(i, spans, || {
                format!(
                    "data segment {k} is placed by an offset expression the audit does not read"
                )
            });
            continue;
        };
        let (a0, a1) = (
            addr + (s - seg.data.0) as i64,
            addr + (t - seg.data.0) as i64,
        );
        for (j, later) in segments.iter().enumerate().skip(k + 1) {
            let Some(p) = later.place else { continue };
            match p {
                None => out.span(i, spans, || {
                    format!("data segment {j}, written after its segment {k}, is placed by an offset expression the audit does not read")
                }),
                Some((m, g, c)) if m == mem => {
                    if g != global {
                        out.span(i, spans, || format!("data segment {j}, written after its segment {k}, is placed by another global: the audit cannot tell whether it is written over it"));
                    } else {
                        let len = (later.data.1 - later.data.0) as i64;
                        if c < a1 && a0 < c + len {
                            out.span(i, spans, || format!("data segment {j} is written over it at instantiation (memory {m}, addresses {c:#x}..{:#x})", c + len));
                        }
                    }
                }
                Some(_) => {}
            }
        }
    }
    for r in relocs {
        let Some(&(t_off, _)) = sections.get(r.section_index() as usize) else {
            out.file(format!(
                "a wasm relocation section targets section {}, which the module does not have",
                r.section_index()
            ));
            continue;
        };
        for entry in r.entries() {
            let Ok(entry) = entry else {
                out.file("a wasm relocation section does not parse".into());
                break;
            };
            let Ok(range) = entry.relocation_range() else {
                continue;
            };
            let (ws, wt) = (t_off + range.start as u64, t_off + range.end as u64);
            for &(i, s, t) in here {
                if overlaps(ws, wt, s.saturating_sub(base), t - base) {
                    out.span(i, spans, || format!("a wasm relocation (reloc.* section) has the linker write at its file offset {:#x}", base + ws));
                }
            }
        }
    }
}

/// Mach-O, PE, COFF and XCOFF: section relocations, and PE base
/// relocations.
fn relocations<'d, R: ReadRef<'d>>(
    file: &object::File<'d, R>,
    data: R,
    base: u64,
    spans: &[Span],
    here: &[(usize, u64, u64)],
    out: &mut Problems,
) {
    let mut hit = |at: u64, end: u64, why: &dyn Fn() -> String| {
        for &(i, s, t) in here {
            if overlaps(at, end, s - base, t - base) {
                out.span(i, spans, why);
            }
        }
    };
    for section in file.sections() {
        let Some((off, size)) = section.file_range() else {
            continue;
        };
        let name = section.name().unwrap_or("?").to_string();
        for (r_off, r) in section.relocations() {
            if r_off >= size {
                continue;
            }
            let width = u64::from(r.size()).div_ceil(8).max(8);
            let at = off + r_off;
            hit(at, at + width, &|| {
                format!(
                    "a relocation of section {name} has the linker write at file offset {:#x}",
                    base + at
                )
            });
        }
    }
    if let object::File::Pe32(pe) = file {
        pe_base(pe.data_directories(), pe.section_table(), data, &mut hit);
    }
    if let object::File::Pe64(pe) = file {
        pe_base(pe.data_directories(), pe.section_table(), data, &mut hit);
    }
}

/// What is told of a write into `[at, end)`: the reason, made when it hits.
type Hit<'a> = dyn FnMut(u64, u64, &dyn Fn() -> String) + 'a;

fn pe_base<'d, R: ReadRef<'d>>(
    dirs: object::read::pe::DataDirectories<'d>,
    sections: object::read::pe::SectionTable<'d>,
    data: R,
    hit: &mut Hit<'_>,
) {
    let Ok(Some(blocks)) = dirs.relocation_blocks(data, &sections) else {
        return;
    };
    for block in blocks.flatten() {
        for r in block {
            if let Some((off, _)) = sections.pe_file_range_at(r.virtual_address) {
                let at = u64::from(off);
                let va = r.virtual_address;
                hit(at, at + 8, &|| {
                    format!("a base relocation (PE) writes at address {va:#x} (file offset {at:#x}) when the image is rebased")
                });
            }
        }
    }
}
