//! Where the program reads what the audit judged: the loader's map of the
//! file.
//!
//! The scan judges the file's bytes. A program does not read its tables from
//! the file but from memory, where the loader (or the linker, for an object
//! file) put them, and a format has its own means of putting other bytes
//! there. So for every declared table (its declaration and its stored
//! bytes), every manifest record and every intact copy found by content,
//! the audit reads the file's own load map and requires (docs/audit.md,
//! "Where the program reads the tables", has each rule and its tests):
//!
//! - **ELF executables and shared objects** (`ET_EXEC`, `ET_DYN`): a
//!   declared table or record lies wholly in the file part of a `PT_LOAD`
//!   (mapped at no more than [`MAX_REPEATS`] addresses), and no other
//!   `PT_LOAD` maps anything over it: other file bytes, zero pages, a zero
//!   fill; by whole pages where Linux can map every file-backed segment
//!   (page-congruent), byte for byte otherwise (firmware), and physical
//!   addresses byte for byte. No relocation writes into it, at its type's
//!   width: those of `PT_DYNAMIC` (read at its address, to `DT_NULL`, every
//!   distinct value of each tag), of every relocation section, and ld.so's
//!   own writes (`DT_PLTGOT`, `DT_TLSDESC_GOT`, MIPS's implicit GOT). What
//!   the audit reads to know this (program headers in memory, dynamic and
//!   relocation tables) must itself be neither relocated nor mapped over,
//!   and `PT_PHDR` must be where the program headers are mapped. What it
//!   cannot read (packed relocations, parse errors, more than its bounds) is
//!   a problem of the file.
//! - **ELF relocatable objects** (`ET_REL`: a `.o`, the members of a static
//!   library or an rlib): no relocation the linker applies targets a
//!   declared table or record (no further than its section's end), and
//!   every allocated section over it is one `SHT_PROGBITS` section holding
//!   it whole, not mergeable. A table in no allocated section (an rlib's
//!   metadata holds such copies) is not linked at all.
//! - **wasm modules:** a declared table or record lies wholly in one data
//!   segment, in a module with a memory (one without, an rlib's metadata,
//!   reads none); no later active segment of the same memory (imported
//!   memories counted as one) is written over it, offsets computed with
//!   wrapping and compared on the circle of addresses per base global; no
//!   `reloc.*` relocation targets it, and its segment is not marked
//!   `STRINGS`.
//! - **Mach-O, PE, COFF and XCOFF files:** no relocation of a section
//!   targets it (as `object` reads them), nor, in a PE image, a base
//!   relocation; base relocations that do not parse are a problem.
//! - **ar archives and universal Mach-O files:** each member or slice, as
//!   a file of its own.
//!
//! A table's static is plain data, with no pointer in it, so an honest build
//! has no relocation into it and no segment over it. What is left out is in
//! docs/audit.md ("What is out of scope"): above all, the audit reads data,
//! not code, and does not know the address the code reads a table at.

use std::format;
use std::string::{String, ToString};
use std::vec::Vec;

use object::read::elf::{FileHeader, ProgramHeader as _, Rel as _, Rela as _, SectionHeader as _};
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
    // By offset, so that the spans in a part of the file (an archive
    // member) are found by a binary search.
    let mut sorted = spans.to_vec();
    sorted.sort_by_key(|s| (s.start, s.end));
    let mut out = Problems::new(sorted.len());
    out.longest = sorted.iter().map(|s| s.end - s.start).max().unwrap_or(0);
    if !sorted.is_empty() {
        judge_at(data, len, 0, &sorted, &mut out, 0);
    }
    out.lines()
}

/// The problems found so far: the first reason for each span, then those of
/// the file.
struct Problems {
    per_span: Vec<Option<String>>,
    file: Vec<String>,
    /// The longest span's length: the spans that reach into a part of the
    /// file start at most this far before it.
    longest: u64,
}

impl Problems {
    fn new(n: usize) -> Problems {
        Problems {
            per_span: std::vec![None; n],
            file: Vec::new(),
            longest: 0,
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
fn inside(spans: &[Span], longest: u64, base: u64, len: u64) -> Vec<(usize, u64, u64)> {
    // `spans` are sorted by start: those that reach `base` start at most
    // `longest` before it.
    let from = spans.partition_point(|s| s.start < base.saturating_sub(longest));
    let to = spans.partition_point(|s| s.start < base + len);
    (from..to)
        .filter(|&i| spans[i].end > base)
        .map(|i| (i, spans[i].start, spans[i].end))
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
    let here = inside(spans, out.longest, base, len);
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
        Ok(FileKind::Elf32) => match object::read::elf::ElfFile32::<Endianness, R>::parse(data) {
            Ok(f) => Elf::new(&f, base, spans, out).judge(&here),
            Err(e) => out.file(format!(
                "the audit cannot read the ELF load map at {base:#x}: {e}"
            )),
        },
        Ok(FileKind::Elf64) => match object::read::elf::ElfFile64::<Endianness, R>::parse(data) {
            Ok(f) => Elf::new(&f, base, spans, out).judge(&here),
            Err(e) => out.file(format!(
                "the audit cannot read the ELF load map at {base:#x}: {e}"
            )),
        },
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

/// The bytes one relocation is taken to write from its target: two 64-bit
/// words (a TLS descriptor), in a 64-bit file or for x86-64 (whose x32
/// files write 64-bit fields too). In a 32-bit file of another machine, two
/// 32-bit words ([`REACH_32`]). In an object file, no further than the end
/// of the section it targets.
pub const REACH: u64 = 16;

/// [`REACH`] in a 32-bit file of a machine other than x86-64: a TLS
/// descriptor of two words, or a 64-bit field (MIPS n32, SPARC v8+).
pub const REACH_32: u64 = 8;

/// The reach of a relocation of an ELF file.
fn elf_reach(machine: elf::Machine, is_64: bool) -> u64 {
    if is_64 || machine == elf::EM_X86_64 {
        REACH
    } else {
        REACH_32
    }
}

/// Distinct write ranges kept before a file is a problem for that alone: a
/// build has none into its tables, so this many is an attack, and the
/// memory the hits take stays bounded.
pub const MAX_WRITES: usize = 1 << 16;

/// The ranges something writes into, among `targets` (the spans, in the
/// coordinates of the writes): disjoint, merged, each with the reason of
/// the first write into it. Adding a write and finding a span's are each
/// `O(log n)`.
struct Hits {
    targets: Vec<(u64, u64)>,
    map: std::collections::BTreeMap<u64, (u64, String)>,
    /// Writes into the targets that were not kept ([`MAX_WRITES`]).
    dropped: u64,
}

impl Hits {
    fn new(ranges: &[(usize, u64, u64)]) -> Hits {
        let mut r: Vec<(u64, u64)> = ranges.iter().map(|&(_, s, t)| (s, t)).collect();
        r.sort_unstable();
        let mut targets: Vec<(u64, u64)> = Vec::new();
        for (s, t) in r {
            match targets.last_mut() {
                Some(last) if s <= last.1 => last.1 = last.1.max(t),
                _ => targets.push((s, t)),
            }
        }
        Hits {
            targets,
            map: std::collections::BTreeMap::new(),
            dropped: 0,
        }
    }

    /// The last merged range of `map` that starts before `t`, if it ends
    /// after `s`.
    fn find(&self, s: u64, t: u64) -> Option<&String> {
        let (_, (end, why)) = self.map.range(..t).next_back()?;
        (*end > s).then_some(why)
    }

    /// A write into `[at, end)`, told by `why` if it is kept.
    fn add(&mut self, at: u64, end: u64, why: impl FnOnce() -> String) {
        if at >= end {
            return;
        }
        // Only writes into a target are kept.
        let n = self.targets.partition_point(|&(s, _)| s < end);
        if n == 0 || self.targets[n - 1].1 <= at {
            // The target before `end` ends before `at`; an earlier one ends
            // before it starts.
            return;
        }
        let (mut a, mut b) = (at, end);
        let mut reason = None;
        if let Some((&s, &(e, _))) = self.map.range(..=a).next_back() {
            if e >= a {
                let (e, w) = self.map.remove(&s).unwrap_or((e, String::new()));
                a = s;
                b = b.max(e);
                reason = Some(w);
            }
        }
        while let Some((&s, &(e, _))) = self.map.range(a..=b).next() {
            let (_, w) = self.map.remove(&s).unwrap_or((e, String::new()));
            b = b.max(e);
            reason.get_or_insert(w);
        }
        if reason.is_none() && self.map.len() >= MAX_WRITES {
            self.dropped += 1;
            return;
        }
        self.map.insert(a, (b, reason.unwrap_or_else(why)));
    }

    /// Each of `ranges` that a kept write reaches gets its reason; too many
    /// writes are a problem of the file.
    fn report(&self, ranges: &[(usize, u64, u64)], spans: &[Span], out: &mut Problems) {
        for &(i, s, t) in ranges {
            if let Some(why) = self.find(s, t) {
                out.span(i, spans, || why.clone());
            }
        }
        if self.dropped > 0 {
            out.file(format!(
                "more than {MAX_WRITES} separate relocations or segments write into the tables ({} more not listed)",
                self.dropped
            ));
        }
    }
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

/// Program headers beyond what Linux reads (64 KiB of them): such a file
/// does not load there, and the audit does not compare that many segments.
const MAX_PROGRAM_HEADER_BYTES: usize = 65_536;

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
        // Segments mapped from the file must be congruent to the page size
        // (offset and address), or Linux's mmap refuses them: then the file
        // is loaded byte for byte (firmware), if at all.
        let page = [65_536, 16_384, 4096]
            .into_iter()
            .filter(|&g| g <= max_page(machine))
            .find(|&g| {
                loads
                    .iter()
                    .filter(|l| l.filesz > 0)
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
            let bytes = std::mem::size_of_val(self.file.elf_program_headers());
            if bytes > MAX_PROGRAM_HEADER_BYTES {
                self.out.file(format!(
                    "its program headers take {bytes} bytes, more than the {MAX_PROGRAM_HEADER_BYTES} Linux reads: the audit does not judge where such a file's segments go"
                ));
                return;
            }
            self.executable(&local);
        }
    }

    /// The address ranges (virtual) at which the loader maps the file bytes
    /// `[s, t)`: one per `PT_LOAD` whose file part holds them all.
    ///
    /// Segments that map them alike (the same virtual and physical deltas)
    /// are one; a build maps each byte once.
    fn mapped(&self, s: u64, t: u64) -> Vec<(Load, u64, u64)> {
        let mut out: Vec<(Load, u64, u64)> = Vec::new();
        for l in self
            .loads
            .iter()
            .filter(|l| l.offset <= s && t <= l.file_end())
        {
            let delta = |x: &Load| {
                (
                    x.vaddr.wrapping_sub(x.offset),
                    x.paddr.wrapping_sub(x.offset),
                )
            };
            if out.iter().any(|(m, _, _)| delta(m) == delta(l)) {
                continue;
            }
            out.push((*l, l.vaddr + (s - l.offset), l.vaddr + (t - l.offset)));
            if out.len() > MAX_REPEATS {
                break;
            }
        }
        out
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
            if maps.len() > MAX_REPEATS {
                self.out.span(i, spans, || {
                    format!("more than {MAX_REPEATS} segments map it at different addresses: the audit does not judge where the program reads it")
                });
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
            if b.index == a.index || (b.memsz == 0 && b.filesz == 0) {
                continue;
            }
            // ld.so maps a segment's file part whatever its p_memsz (the
            // kernel refuses p_filesz > p_memsz, ld.so does not).
            let end = b.vaddr.saturating_add(b.memsz.max(b.filesz));
            // Virtual: a segment with no file part maps zero pages; one of
            // another delta maps its own pages over whatever it covers; one
            // of the same delta maps the same file bytes, then zero-fills
            // from its file end to the end of its memory (by pages, to the
            // end of that page).
            let written = if b.filesz == 0 || delta(b) != delta(a) {
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
                let (ws, wt) = (b.paddr, b.paddr.saturating_add(b.filesz));
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
    /// ranges `placed`. What the audit reads to know them (the program
    /// headers, the dynamic tables, the relocation tables) must itself be
    /// what the loader reads: no segment mapped over it, no relocation
    /// into it, else the file is a problem.
    fn dynamic_relocations(&mut self, placed: &[(usize, u64, u64)]) {
        let e = self.file.endian();
        let machine = self.file.elf_header().e_machine(e);
        let word: u64 = if self.file.is_64() { 8 } else { 4 };
        let mut unread: Vec<String> = Vec::new();
        // Virtual ranges of what the audit reads, each with its name.
        let mut meta: Vec<(u64, u64, String)> = Vec::new();
        // The relocation tables: their entries, their kind, their name.
        let mut tables: Vec<(&'d [u8], Kind, String)> = Vec::new();
        // What ld.so writes of its own, at addresses the dynamic table
        // gives: (from, to, what).
        let mut implicit: Vec<(u64, u64, String)> = Vec::new();

        // The program headers in memory: the kernel tells ld.so where
        // (AT_PHDR: where the PT_LOAD holding e_phoff maps it), and ld.so
        // takes the load base from PT_PHDR (AT_PHDR - p_vaddr), then reads
        // the dynamic table and every relocation target from that base. A
        // PT_PHDR that names another address moves them all.
        let header = self.file.elf_header();
        let phoff: u64 = header.e_phoff(e).into();
        let phbytes = std::mem::size_of_val(self.file.elf_program_headers()) as u64;
        let mapped = self.mapped(phoff, phoff + phbytes);
        // Only a program ld.so loads (or relocates itself: static PIE) reads
        // them there; firmware need not map them.
        let dynamic = self.file.elf_program_headers().iter().any(|p| {
            let t = p.p_type(e);
            t == elf::PT_DYNAMIC || t == elf::PT_INTERP
        });
        if dynamic && mapped.is_empty() {
            unread.push(
                "its program headers are not in the file part of a loadable segment: the loader reads them from memory, and the audit cannot tell what it finds there"
                    .to_string(),
            );
        }
        if dynamic && mapped.len() > 1 {
            unread.push(format!(
                "its program headers are mapped at {} addresses: the kernel tells ld.so one of them (AT_PHDR), and ld.so takes its load base from it",
                mapped.len()
            ));
        }
        for (_, vs, vt) in &mapped {
            meta.push((*vs, *vt, "the program headers".into()));
        }
        for p in self.file.elf_program_headers() {
            if p.p_type(e) != elf::PT_PHDR {
                continue;
            }
            let (off, va): (u64, u64) = (p.p_offset(e).into(), p.p_vaddr(e).into());
            if off != phoff || !mapped.iter().any(|&(_, vs, _)| vs == va) {
                unread.push(format!(
                    "its PT_PHDR ({off:#x} at {va:#x}) is not where its program headers are mapped: ld.so would take another load base, and read the dynamic table and write every relocation elsewhere"
                ));
            }
        }

        // PT_DYNAMIC: read at its address, as ld.so reads it, to DT_NULL
        // (whatever its p_filesz), every tag where it occurs.
        let dyn_size = std::mem::size_of::<H::Dyn>() as u64;
        let dynamics: Vec<u64> = self
            .file
            .elf_program_headers()
            .iter()
            .filter(|p| p.p_type(e) == elf::PT_DYNAMIC)
            .map(|p| p.p_vaddr(e).into())
            .collect();
        if dynamics.len() > MAX_REPEATS {
            self.out.file(format!(
                "it has {} dynamic tables (PT_DYNAMIC), more than the audit reads ({MAX_REPEATS}): it does not judge where their relocations write",
                dynamics.len()
            ));
            return;
        }
        for addr in dynamics {
            let views = self.bytes_from(addr);
            if views.is_empty() {
                unread.push(format!(
                    "its dynamic table (PT_DYNAMIC) at {addr:#x} is not in the file part of a loadable segment: the audit cannot read the relocations it names"
                ));
            }
            for bytes in views {
                let w = dyn_size as usize / 2;
                let mut entries: Vec<(i64, u64)> = Vec::new();
                for c in bytes.chunks_exact(dyn_size as usize) {
                    let tag = read_word(c, w as u64, e);
                    let tag = if w == 4 {
                        i64::from(tag as u32 as i32)
                    } else {
                        tag as i64
                    };
                    if tag == elf::DT_NULL.0 {
                        break;
                    }
                    entries.push((tag, read_word(&c[w..], w as u64, e)));
                }
                let len = (entries.len() as u64 + 1) * dyn_size;
                meta.push((addr, addr.saturating_add(len), "the dynamic table".into()));
                let values = |want: i64| -> Vec<u64> {
                    let mut v: Vec<u64> = entries
                        .iter()
                        .filter(|(t, _)| *t == want)
                        .map(|(_, v)| *v)
                        .collect();
                    v.sort_unstable();
                    v.dedup();
                    v
                };
                // ld.so's own writes: the GOT header at DT_PLTGOT (GOT[1] and
                // GOT[2] under lazy binding), the lazy TLS descriptor
                // resolver at DT_TLSDESC_GOT; on MIPS, the debugger's map at
                // DT_MIPS_RLD_MAP(_REL) and the whole GOT, which it relocates
                // without relocation entries.
                let one = |t: i64| values(t).into_iter().max();
                for g in values(elf::DT_PLTGOT.0) {
                    let words = if machine == elf::EM_MIPS {
                        let local = one(elf::DT_MIPS_LOCAL_GOTNO.0).unwrap_or(0);
                        let symbols = one(elf::DT_MIPS_SYMTABNO.0).unwrap_or(0);
                        let first = one(elf::DT_MIPS_GOTSYM.0).unwrap_or(0);
                        local.saturating_add(symbols.saturating_sub(first)).max(3)
                    } else {
                        3
                    };
                    implicit.push((
                        g,
                        g.saturating_add(words.saturating_mul(word)),
                        "ld.so's GOT header at DT_PLTGOT".into(),
                    ));
                }
                for g in values(elf::DT_TLSDESC_GOT.0) {
                    implicit.push((
                        g,
                        g.saturating_add(word),
                        "ld.so's TLS descriptor resolver at DT_TLSDESC_GOT".into(),
                    ));
                }
                if machine == elf::EM_MIPS {
                    for g in values(elf::DT_MIPS_RLD_MAP.0) {
                        implicit.push((
                            g,
                            g.saturating_add(word),
                            "ld.so's debugger map at DT_MIPS_RLD_MAP".into(),
                        ));
                    }
                    for (k, &(tag, v)) in entries.iter().enumerate() {
                        if tag == elf::DT_MIPS_RLD_MAP_REL.0 {
                            let g = addr.wrapping_add(k as u64 * dyn_size).wrapping_add(v);
                            implicit.push((
                                g,
                                g.saturating_add(word),
                                "ld.so's debugger map at DT_MIPS_RLD_MAP_REL".into(),
                            ));
                        }
                    }
                }
                let rela_plt = values(elf::DT_PLTREL.0);
                let jmprel_kinds: Vec<Kind> = if rela_plt.is_empty() {
                    std::vec![Kind::Rela, Kind::Rel]
                } else {
                    rela_plt
                        .iter()
                        .map(|&v| {
                            if v == elf::DT_RELA.0 as u64 {
                                Kind::Rela
                            } else {
                                Kind::Rel
                            }
                        })
                        .collect()
                };
                for (at, size, kinds) in [
                    (elf::DT_RELA.0, elf::DT_RELASZ.0, std::vec![Kind::Rela]),
                    (elf::DT_REL.0, elf::DT_RELSZ.0, std::vec![Kind::Rel]),
                    (elf::DT_JMPREL.0, elf::DT_PLTRELSZ.0, jmprel_kinds),
                    (elf::DT_RELR.0, elf::DT_RELRSZ.0, std::vec![Kind::Relr]),
                ] {
                    let (addrs, sizes) = (values(at), values(size));
                    if addrs.len() > MAX_REPEATS || sizes.len() > MAX_REPEATS {
                        unread.push(format!(
                            "its dynamic table repeats tag {at} or {size} more than {MAX_REPEATS} times: the audit does not judge where its relocations write"
                        ));
                        continue;
                    }
                    let Some(&size) = sizes.iter().max() else {
                        continue;
                    };
                    for addr in addrs {
                        let views = self.at_addresses(addr, size);
                        if views.is_empty() {
                            unread.push(format!(
                                "the relocations its dynamic table names (tag {at}) at {addr:#x}, {size} bytes, are not in the file part of one loadable segment: the audit cannot read what they write"
                            ));
                        }
                        meta.push((
                            addr,
                            addr.saturating_add(size),
                            format!("the relocations of tag {at}"),
                        ));
                        for v in views {
                            for &k in &kinds {
                                tables.push((v, k, "a dynamic relocation (PT_DYNAMIC)".into()));
                            }
                        }
                    }
                }
                for t in [
                    elf::DT_ANDROID_REL.0,
                    elf::DT_ANDROID_RELA.0,
                    elf::DT_ANDROID_RELR.0,
                ] {
                    if !values(t).is_empty() {
                        unread.push(format!(
                            "its dynamic table has Android packed relocations (tag {t:#x}), which the audit does not read: it cannot tell whether they write into the tables"
                        ));
                    }
                }
            }
        }

        // Relocation sections (a static program's start-up code applies
        // its own), each range read once, all of them at most twice the
        // file's size.
        let sections = self.file.elf_section_table();
        let mut seen = std::collections::BTreeSet::new();
        let mut read = 0u64;
        let limit = 2 * self.file.data().len().unwrap_or(0) + 65_536;
        let mut crels = Vec::new();
        for (n, sh) in sections.iter().enumerate() {
            let t = sh.sh_type(e);
            if t == elf::SHT_ANDROID_REL || t == elf::SHT_ANDROID_RELA || t == elf::SHT_ANDROID_RELR
            {
                unread.push(format!(
                    "section {n} holds Android packed relocations, which the audit does not read: it cannot tell whether they write into the tables"
                ));
                continue;
            }
            let kind = match t {
                elf::SHT_REL => Kind::Rel,
                elf::SHT_RELA => Kind::Rela,
                elf::SHT_RELR => Kind::Relr,
                elf::SHT_CREL => Kind::Crel,
                _ => continue,
            };
            let (off, size): (u64, u64) = (sh.sh_offset(e).into(), sh.sh_size(e).into());
            if !seen.insert((off, size, t.0)) {
                continue;
            }
            read = read.saturating_add(size);
            if read > limit {
                unread.push(
                    "its relocation sections overlap: they hold more than twice the file's bytes, more than the audit reads"
                        .to_string(),
                );
                break;
            }
            let name =
                String::from_utf8_lossy(sections.section_name(e, sh).unwrap_or(b"?")).into_owned();
            if sh.sh_flags(e).0 & elf::SHF_ALLOC.0 != 0 {
                let a: u64 = sh.sh_addr(e).into();
                meta.push((
                    a,
                    a.saturating_add(size),
                    format!("relocation section {name}"),
                ));
            }
            let what = format!("relocation section {name} (section {n})");
            match self.file.data().read_bytes_at(off, size) {
                Ok(bytes) if kind == Kind::Crel => crels.push((bytes, what)),
                Ok(bytes) => tables.push((bytes, kind, what)),
                Err(_) => unread.push(format!(
                    "{what} runs past the end of the file: the audit cannot tell where it writes"
                )),
            }
        }

        // Every relocation, against the spans and against what the audit
        // read.
        let mut hits = Hits::new(placed);
        let meta_ranges: Vec<(usize, u64, u64)> = meta
            .iter()
            .enumerate()
            .map(|(i, &(s, t, _))| (i, s, t))
            .collect();
        let mut over_meta = Hits::new(&meta_ranges);
        let is_64 = self.file.is_64();
        let reach = |off: u64, t: u32| off.saturating_add(written(machine, is_64, t));
        for (from, to, what) in &implicit {
            let why = || format!("{what} ({from:#x}..{to:#x})");
            hits.add(*from, *to, why);
            over_meta.add(*from, *to, why);
        }
        let mut add = |off: u64, end: u64, what: &str, t: u32| {
            let why = || format!("{what} writes at {off:#x} (type {t})");
            hits.add(off, end, why);
            over_meta.add(off, end, why);
        };
        for (bytes, kind, what) in &tables {
            match kind {
                Kind::Rela | Kind::Rel => {
                    let ent = if *kind == Kind::Rela {
                        3 * word
                    } else {
                        2 * word
                    };
                    for entry in bytes.chunks_exact(ent as usize) {
                        let off = read_word(entry, word, e);
                        let info = read_word(&entry[word as usize..], word, e);
                        let t = reloc_type(machine, word == 8, e == Endianness::Little, info);
                        add(off, reach(off, t), what, t);
                    }
                }
                // A relative relocation writes one word.
                Kind::Relr => relr(bytes, word, e, |off| {
                    add(off, off.saturating_add(word), what, 0)
                }),
                Kind::Crel => {}
            }
        }
        for (bytes, what) in crels {
            match object::read::elf::CrelIterator::new(bytes) {
                Ok(it) => {
                    for r in it {
                        match r {
                            Ok(r) => {
                                add(r.r_offset, reach(r.r_offset, r.r_type.0), &what, r.r_type.0)
                            }
                            Err(_) => {
                                unread.push(format!(
                                    "{what} does not parse: the audit cannot tell where it writes"
                                ));
                                break;
                            }
                        }
                    }
                }
                Err(_) => unread.push(format!(
                    "{what} does not parse: the audit cannot tell where it writes"
                )),
            }
        }
        hits.report(placed, self.spans, self.out);
        // What the audit read must be what the loader reads.
        for (i, &(s, t, ref name)) in meta.iter().enumerate() {
            if let Some(why) = over_meta.find(s, t) {
                unread.push(format!(
                    "{name} at {s:#x}, which the audit reads to know where the loader writes, is itself written: {why}"
                ));
            }
            for (a, vs, vt) in self.mapped_at(s, t) {
                let fs = a.offset + (vs - a.vaddr);
                if let Some(why) = self.segment_over(&a, fs, fs + (vt - vs), vs, vt) {
                    unread.push(format!(
                        "{name} at {s:#x}, which the audit reads to know where the loader writes, is mapped over: {why}"
                    ));
                }
            }
            let _ = i;
        }
        for u in unread {
            self.out.file(u);
        }
    }

    /// The `PT_LOAD`s whose file part maps the virtual addresses `[s, t)`,
    /// with those addresses.
    fn mapped_at(&self, s: u64, t: u64) -> Vec<(Load, u64, u64)> {
        self.loads
            .iter()
            .filter(|l| l.vaddr <= s && t <= l.vaddr.saturating_add(l.filesz.min(l.memsz)))
            .map(|l| (*l, s, t))
            .collect()
    }

    /// The file bytes from the virtual address `addr` to the end of the file
    /// part of each `PT_LOAD` that maps it.
    fn bytes_from(&self, addr: u64) -> Vec<&'d [u8]> {
        self.loads
            .iter()
            .filter(|l| l.vaddr <= addr && addr < l.vaddr.saturating_add(l.filesz.min(l.memsz)))
            .map(|l| {
                let at = addr - l.vaddr;
                (l.offset + at, l.filesz.min(l.memsz) - at)
            })
            .collect::<std::collections::BTreeSet<(u64, u64)>>()
            .into_iter()
            .take(2)
            .filter_map(|(off, n)| self.file.data().read_bytes_at(off, n).ok())
            .collect()
    }

    /// The file bytes at the virtual addresses `[addr, addr + size)`, from
    /// every `PT_LOAD` that maps them all from the file (a later one may map
    /// other bytes there: each is read).
    fn at_addresses(&self, addr: u64, size: u64) -> Vec<&'d [u8]> {
        self.loads
            .iter()
            .filter(|l| {
                l.vaddr <= addr
                    && addr
                        .checked_add(size)
                        .is_some_and(|end| end <= l.vaddr + l.filesz.min(l.memsz))
            })
            .map(|l| l.offset + (addr - l.vaddr))
            .collect::<std::collections::BTreeSet<u64>>()
            .into_iter()
            // A second view is a segment mapped over the first: reported as
            // such (the load map's own spans), and read once more at most.
            .take(2)
            .filter_map(|off| self.file.data().read_bytes_at(off, size).ok())
            .collect()
    }

    fn relocatable(&mut self, local: &[(usize, u64, u64)]) {
        let e = self.file.endian();
        let data = self.file.data();
        let spans = self.spans;
        let sections = self.file.elf_section_table();
        if sections.is_empty() {
            return;
        }
        // The allocated sections a declared span overlaps: it must lie
        // wholly in one that the linker copies byte for byte (SHT_PROGBITS,
        // not mergeable). A section the linker does not copy (not
        // allocated: an rlib's metadata holds copies of the tables) is not
        // linked at all.
        for &(i, s, t) in local {
            if !spans[i].declared {
                continue;
            }
            for (n, sh) in sections.iter().enumerate() {
                let flags = sh.sh_flags(e).0;
                if flags & elf::SHF_ALLOC.0 == 0 {
                    continue;
                }
                let (o, size): (u64, u64) = (sh.sh_offset(e).into(), sh.sh_size(e).into());
                if !overlaps(o, o.saturating_add(size), s, t) {
                    continue;
                }
                let why = if sh.sh_type(e) != elf::SHT_PROGBITS {
                    Some(format!(
                        "its bytes lie in allocated section {n} of type {}, not SHT_PROGBITS: the linker does not copy them (SHT_NOBITS: it writes zeros)",
                        sh.sh_type(e).0
                    ))
                } else if !(o <= s && t <= o + size) {
                    Some(format!(
                        "it is not wholly in section {n}: the linker may place its parts apart"
                    ))
                } else if flags & elf::SHF_MERGE.0 != 0 {
                    Some(format!(
                        "its section {n} is mergeable (SHF_MERGE): the linker may merge and reorder its entries"
                    ))
                } else {
                    None
                };
                if let Some(why) = why {
                    self.out.span(i, spans, || why);
                }
            }
        }
        // Relocations, against the file range of the section they target.
        let mut hits = Hits::new(local);
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
            let mut failed = None;
            match sh.rel(e, data) {
                Ok(Some((rel, _))) => {
                    offsets.extend(rel.iter().map(|r| -> u64 { r.r_offset(e).into() }))
                }
                Ok(None) => {}
                Err(err) => failed = Some(err),
            }
            match sh.rela(e, data) {
                Ok(Some((rela, _))) => {
                    offsets.extend(rela.iter().map(|r| -> u64 { r.r_offset(e).into() }))
                }
                Ok(None) => {}
                Err(err) => failed = Some(err),
            }
            match sh.crel(e, data) {
                Ok(Some((crel, _))) => {
                    for r in crel {
                        match r {
                            Ok(r) => offsets.push(r.r_offset),
                            Err(err) => {
                                failed = Some(err);
                                break;
                            }
                        }
                    }
                }
                Ok(None) => {}
                Err(err) => failed = Some(err),
            }
            if let Some(err) = failed {
                self.out.file(format!(
                    "relocation section {name} (section {n}) does not parse ({err}): the audit cannot tell where the linker writes"
                ));
            }
            for off in offsets {
                if off >= t_size {
                    continue;
                }
                let at = t_off + off;
                let base = self.base;
                // A relocation writes inside the section it targets.
                let reach = elf_reach(self.file.elf_header().e_machine(e), self.file.is_64());
                hits.add(at, (at + reach).min(t_off + t_size), || {
                    format!(
                        "relocation section {name} (section {n}) has the linker write at its file offset {:#x}",
                        base + at
                    )
                });
            }
        }
        hits.report(local, spans, self.out);
    }
}

/// The type of an ELF relocation from its `r_info`, as the machine lays it
/// out: the low byte of a 32-bit file's, the low 32 bits of a 64-bit
/// file's, but MIPS64's own (the top byte read little-endian, the low byte
/// big-endian; the bytes between are further types a relocation composes).
fn reloc_type(machine: elf::Machine, is_64: bool, little: bool, info: u64) -> u32 {
    if !is_64 {
        (info & 0xff) as u32
    } else if machine == elf::EM_MIPS {
        if little {
            (info >> 56) as u32
        } else {
            (info & 0xff) as u32
        }
    } else {
        info as u32
    }
}

/// The bytes a dynamic relocation of type `t` writes from its target: the
/// end of memory for a copy relocation (its size is a symbol's in another
/// file) and for any relocation of a machine the audit does not know; two
/// words for a TLS descriptor; 8 bytes for x32's 64-bit relocations; one
/// word for the rest.
fn written(machine: elf::Machine, is_64: bool, t: u32) -> u64 {
    let word = if is_64 { 8 } else { 4 };
    if machine == elf::EM_MIPS {
        return if t == elf::R_MIPS_COPY.0 {
            u64::MAX
        } else {
            word
        };
    }
    if is_copy(machine, t) {
        return u64::MAX;
    }
    let descriptor: &[u32] = match machine {
        elf::EM_X86_64 if !is_64 => {
            // x32: the 64-bit relocations write 8 bytes.
            if [1, 16, 17, 18, 36, 38].contains(&t) {
                return 8;
            }
            &[]
        }
        elf::EM_X86_64 => &[36],         // R_X86_64_TLSDESC
        elf::EM_386 => &[41],            // R_386_TLS_DESC
        elf::EM_AARCH64 => &[1031, 187], // R_AARCH64_TLSDESC, R_AARCH64_P32_TLSDESC
        elf::EM_ARM => &[13],            // R_ARM_TLS_DESC
        elf::EM_RISCV => &[12],          // R_RISCV_TLSDESC
        // LoongArch, s390, PowerPC, SPARC, m68k: two words for any.
        _ => return 2 * word,
    };
    if descriptor.contains(&t) {
        2 * word
    } else {
        word
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
        // MIPS64's r_info is laid out apart: any relocation may be one.
        elf::EM_MIPS => return true,
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

/// The addresses a `DT_RELR` table relocates, each given to `f`: an even
/// entry is an address (and the next word is the base of a bitmap); an odd
/// one a bitmap of the `8 * word - 1` words after the base.
fn relr(bytes: &[u8], word: u64, e: Endianness, mut f: impl FnMut(u64)) {
    let mut next = 0u64;
    for entry in bytes.chunks_exact(word as usize) {
        let v = read_word(entry, word, e);
        if v & 1 == 0 {
            f(v);
            next = v.wrapping_add(word);
        } else {
            let bits = 8 * word - 1;
            for k in 0..bits {
                if v >> (k + 1) & 1 == 1 {
                    f(next.wrapping_add(k * word));
                }
            }
            next = next.wrapping_add(bits * word);
        }
    }
}

/// The kinds of ELF relocation table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Rel,
    Rela,
    Relr,
    Crel,
}

/// Distinct values of one dynamic tag, or `PT_DYNAMIC` headers, the audit
/// reads: a build has one.
pub const MAX_REPEATS: usize = 4;

/// An offset expression of a wasm data segment: a global's value (or 0)
/// plus a constant, added with wrapping as the engine adds (`i32.add`
/// modulo 2^32, `i64.add` modulo 2^64: the caller reduces the sum by its
/// memory's address size). `None` for an expression the audit does not
/// read.
fn wasm_offset(expr: &wasmparser::ConstExpr<'_>) -> Option<(Option<u32>, u64)> {
    use wasmparser::Operator as O;
    let mut global = None;
    let mut stack: Vec<u64> = Vec::new();
    for op in expr.get_operators_reader() {
        match op.ok()? {
            O::I32Const { value } => stack.push(u64::from(value as u32)),
            O::I64Const { value } => stack.push(value as u64),
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
        /// Memory, base global, offset from it (wrapping); `None` for a
        /// passive segment, or when the expression is not one the audit
        /// reads.
        place: Option<Option<(u32, Option<u32>, u64)>>,
    }
    let mut segments = Vec::new();
    // Whether each memory, imported ones first, is 64-bit.
    let mut memory64: Vec<bool> = Vec::new();
    // Imported memories: two imports may name the same memory.
    let mut imported_memories = 0usize;
    // Segments an object file's `linking` section marks STRINGS, and
    // whether it does not parse.
    let mut merged: std::collections::BTreeSet<usize> = Default::default();
    let mut unreadable_linking = false;

    // Payload range of each section, in order (what `reloc.*` sections
    // index).
    let mut sections: Vec<(u64, u64)> = Vec::new();
    let mut relocs = Vec::new();
    for payload in wasmparser::Parser::new(0).parse_all(bytes) {
        let payload = match payload {
            Ok(p) => p,
            Err(e) => {
                out.file(format!(
                    "the audit cannot read the wasm module at {base:#x}: {e}"
                ));
                return;
            }
        };
        if let Some((_, range)) = payload.as_section() {
            sections.push((range.start as u64, range.end as u64));
        }
        match &payload {
            Payload::ImportSection(reader) => {
                for import in reader.clone().into_imports() {
                    match import {
                        Ok(i) => {
                            if let wasmparser::TypeRef::Memory(m) = i.ty {
                                memory64.push(m.memory64);
                                imported_memories += 1;
                            }
                        }
                        Err(_) => {
                            out.file(format!(
                                "the audit cannot read the wasm module's imports at {base:#x}"
                            ));
                            return;
                        }
                    }
                }
            }
            Payload::MemorySection(reader) => {
                for m in reader.clone() {
                    let Ok(m) = m else {
                        out.file(format!(
                            "the audit cannot read the wasm module's memories at {base:#x}"
                        ));
                        return;
                    };
                    memory64.push(m.memory64);
                }
            }
            Payload::DataSection(reader) => {
                for d in reader.clone() {
                    let d = match d {
                        Ok(d) => d,
                        Err(e) => {
                            out.file(format!(
                                "the audit cannot read the wasm module's data segments at {base:#x}: {e}"
                            ));
                            return;
                        }
                    };
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
                    // An object file's segment flags: the linker merges a
                    // segment marked STRINGS, as ELF's SHF_MERGE.
                    wasmparser::KnownCustom::Linking(l) => {
                        for sub in l {
                            match sub {
                                Ok(wasmparser::Linking::SegmentInfo(map)) => {
                                    for (k, seg) in map.into_iter().enumerate() {
                                        match seg {
                                            Ok(seg) if seg.flags.contains(wasmparser::SegmentFlags::STRINGS) => {
                                                merged.insert(k);
                                            }
                                            Ok(_) => {}
                                            Err(_) => unreadable_linking = true,
                                        }
                                    }
                                }
                                Ok(_) => {}
                                Err(_) => unreadable_linking = true,
                            }
                        }
                    }
                    _ if c.name() == "linking" => unreadable_linking = true,
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
    if unreadable_linking {
        out.file(format!(
            "the wasm linking section at {base:#x} does not parse: the audit cannot tell how the linker places its segments"
        ));
    }
    if segments.len() > MAX_DATA_SEGMENTS {
        out.file(format!(
            "it has {} data segments, more than the {MAX_DATA_SEGMENTS} a wasm engine instantiates: the audit does not judge where they write",
            segments.len()
        ));
        return;
    }
    // Each span's segment (segments lie in the file in order, apart), and
    // its addresses there.
    // Addresses wrap at the memory's address size: an engine computes a
    // segment's offset modulo it, and the segment must then fit in memory,
    // so two segments placed by one global overlap exactly when their
    // ranges overlap on that circle, whatever the global's value.
    let modulus = |mem: u32| -> u128 {
        if memory64.get(mem as usize).copied().unwrap_or(true) {
            1 << 64
        } else {
            1 << 32
        }
    };
    // Per segment: its spans, each with its address ranges on the circle.
    type Placed = Vec<(usize, Vec<(u128, u128)>)>;
    let mut by_segment: Vec<Placed> = Vec::new();
    by_segment.resize_with(segments.len(), Vec::new);
    let local: Vec<(usize, u64, u64)> = here
        .iter()
        .map(|&(i, s, t)| (i, s.saturating_sub(base), t - base))
        .collect();
    for &(i, s, t) in &local {
        let n = segments.partition_point(|g| g.data.0 <= s);
        let k = match n.checked_sub(1) {
            Some(k) if t <= segments[k].data.1 => k,
            _ => {
                // A module with memory reads only its data segments' bytes
                // there (an object file links only them); one with no
                // memory (an rlib's metadata) reads none.
                if spans[i].declared && !memory64.is_empty() {
                    out.span(i, spans, || {
                        "it is not wholly in one data segment: the program does not read these bytes"
                            .into()
                    });
                }
                continue;
            }
        };
        let seg = &segments[k];
        if merged.contains(&k) {
            out.span(i, spans, || {
                format!("its data segment {k} is marked STRINGS in the linking section: the linker merges it as strings")
            });
        }
        match seg.place {
            // Passive: the code places it (docs/audit.md).
            None => {}
            Some(None) => out.span(i, spans, || {
                format!(
                    "data segment {k} is placed by an offset expression the audit does not read"
                )
            }),
            Some(Some((mem, _, addr))) => {
                let m = modulus(mem);
                let a0 = (u128::from(addr) + u128::from(s - seg.data.0)) % m;
                by_segment[k].push((i, circle(a0, u128::from(t - s), m)));
            }
        }
    }
    // Instantiation writes the active segments in order: a span is
    // overwritten by a later one. From the last segment back, the later
    // segments' address ranges, merged, per memory and base global.
    let mut later: std::collections::BTreeMap<(u32, Option<u32>), Union> = Default::default();
    // Every imported memory may be the same one (a host can pass one
    // memory for two imports): they share one key.
    let identity = |mem: u32| -> u32 {
        if (mem as usize) < imported_memories {
            u32::MAX
        } else {
            mem
        }
    };
    let mut unreadable_later: Option<usize> = None;
    for k in (0..segments.len()).rev() {
        let Some(Some((index, global, _))) = segments[k].place else {
            if segments[k].place == Some(None) {
                unreadable_later = Some(k);
            }
            continue;
        };
        let mem = identity(index);
        for (i, pieces) in &by_segment[k] {
            let i = *i;
            if let Some(j) = unreadable_later {
                out.span(i, spans, || {
                    format!("data segment {j}, written after its segment {k}, is placed by an offset expression the audit does not read")
                });
            }
            for (&(m, g), u) in later.range((mem, None)..=(mem, Some(u32::MAX))) {
                if g != global {
                    let j = u.first;
                    out.span(i, spans, || format!("data segment {j}, written after its segment {k}, is placed by another global: the audit cannot tell whether it is written over it"));
                } else if let Some((c, e, j)) = pieces.iter().find_map(|&(a0, a1)| u.find(a0, a1)) {
                    let m = if m == u32::MAX {
                        "an imported memory".to_string()
                    } else {
                        format!("memory {m}")
                    };
                    out.span(i, spans, || format!("data segment {j} is written over it at instantiation ({m}, addresses {c:#x}..{e:#x} from its base)"));
                }
            }
        }
        let Some(Some((_, _, c))) = segments[k].place else {
            continue;
        };
        let len = u128::from(segments[k].data.1 - segments[k].data.0);
        let m = modulus(index);
        let u = later.entry((mem, global)).or_insert_with(|| Union::new(k));
        for (a, b) in circle(u128::from(c) % m, len, m) {
            u.add(a, b, k);
        }
    }
    let mut hits = Hits::new(&local);
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
                out.file("a wasm relocation section does not parse".into());
                break;
            };
            let (ws, wt) = (t_off + range.start as u64, t_off + range.end as u64);
            hits.add(ws, wt, || {
                format!(
                    "a wasm relocation (reloc.* section) has the linker write at its file offset {:#x}",
                    base + ws
                )
            });
        }
    }
    hits.report(&local, spans, out);
}

/// The range `[at, at + len)` on a circle of `m` addresses, as one or two
/// ranges below `m` (all of it, when `len` is `m` or more).
fn circle(at: u128, len: u128, m: u128) -> Vec<(u128, u128)> {
    if len >= m {
        return std::vec![(0, m)];
    }
    let end = at + len;
    if end <= m {
        std::vec![(at, end)]
    } else {
        std::vec![(at, m), (0, end - m)]
    }
}

/// Data segments beyond what wasm engines instantiate (V8's and
/// wasmtime's limit).
const MAX_DATA_SEGMENTS: usize = 100_000;

/// Address ranges of wasm data segments, merged: each range keeps the
/// first segment (in the order added) that wrote it.
struct Union {
    /// The segment this union was made for.
    first: usize,
    map: std::collections::BTreeMap<u128, (u128, usize)>,
}

impl Union {
    fn new(first: usize) -> Union {
        Union {
            first,
            map: std::collections::BTreeMap::new(),
        }
    }

    fn add(&mut self, a: u128, b: u128, k: usize) {
        if a >= b {
            return;
        }
        let (mut a, mut b, mut who) = (a, b, k);
        if let Some((&s, &(e, w))) = self.map.range(..=a).next_back() {
            if e >= a {
                self.map.remove(&s);
                a = s;
                b = b.max(e);
                who = w;
            }
        }
        while let Some((&s, &(e, _))) = self.map.range(a..=b).next() {
            self.map.remove(&s);
            b = b.max(e);
        }
        self.map.insert(a, (b, who));
    }

    /// The merged range that overlaps `[s, t)`, if any, with its segment.
    fn find(&self, s: u128, t: u128) -> Option<(u128, u128, usize)> {
        let (&a, &(e, w)) = self.map.range(..t).next_back()?;
        (e > s).then_some((a, e, w))
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
    let local: Vec<(usize, u64, u64)> = here
        .iter()
        .map(|&(i, s, t)| (i, s.saturating_sub(base), t - base))
        .collect();
    let mut hits = Hits::new(&local);
    let mut hit = |at: u64, end: u64, why: &dyn Fn() -> String| hits.add(at, end, why);
    for section in file.sections() {
        let Some((off, size)) = section.file_range() else {
            continue;
        };
        let name = section.name().unwrap_or("?").to_string();
        for (r_off, r) in section.relocations() {
            if r_off >= size {
                continue;
            }
            let width = u64::from(r.size()).div_ceil(8).max(REACH);
            let at = off + r_off;
            // A relocation writes inside the section it targets.
            hit(at, (at + width).min(off + size), &|| {
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
    hits.report(&local, spans, out);
}

/// What is told of a write into `[at, end)`: the reason, made when it hits.
type Hit<'a> = dyn FnMut(u64, u64, &dyn Fn() -> String) + 'a;

fn pe_base<'d, R: ReadRef<'d>>(
    dirs: object::read::pe::DataDirectories<'d>,
    sections: object::read::pe::SectionTable<'d>,
    data: R,
    hit: &mut Hit<'_>,
) {
    // Base relocations the audit cannot read: every table may be written.
    let unread = |hit: &mut Hit<'_>, e: object::Error| {
        hit(0, u64::MAX, &|| {
            format!("its base relocations (PE) do not parse ({e}): the audit cannot tell where the loader writes")
        });
    };
    let blocks = match dirs.relocation_blocks(data, &sections) {
        Ok(Some(b)) => b,
        Ok(None) => return,
        Err(e) => return unread(hit, e),
    };
    for block in blocks {
        let block = match block {
            Ok(b) => b,
            Err(e) => return unread(hit, e),
        };
        for r in block {
            if let Some((off, _)) = sections.pe_file_range_at(r.virtual_address) {
                let at = u64::from(off);
                let va = r.virtual_address;
                // DIR64, the widest base relocation.
                hit(at, at + 8, &|| {
                    format!("a base relocation (PE) writes at address {va:#x} (file offset {at:#x}) when the image is rebased")
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes into the same place merge into one range; writes outside
    /// the targets are not kept; past [`MAX_WRITES`] separate ranges, the
    /// rest are counted, and that is a problem of the file.
    #[test]
    fn hits_stay_bounded_whatever_the_writes() {
        let target = [(0usize, 0u64, 1 << 30)];
        let mut h = Hits::new(&target);
        for _ in 0..100_000 {
            h.add(64, 80, || "w".into());
        }
        h.add(2 << 30, (2 << 30) + 8, || "outside".into());
        assert_eq!(h.map.len(), 1);
        for k in 0..(MAX_WRITES as u64 + 10) {
            h.add(1000 + 32 * k, 1008 + 32 * k, || "w".into());
        }
        assert_eq!(h.map.len(), MAX_WRITES);
        assert_eq!(h.dropped, 11);
        let spans = [Span {
            start: 0,
            end: 1 << 30,
            what: "t".into(),
            declared: true,
        }];
        let mut out = Problems::new(1);
        h.report(&target, &spans, &mut out);
        let lines = out.lines();
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[1].contains("more than 65536 separate"), "{lines:?}");
        // Adjacent and overlapping writes merge.
        let mut h = Hits::new(&target);
        h.add(0, 8, || "a".into());
        h.add(8, 16, || "b".into());
        h.add(4, 40, || "c".into());
        h.add(100, 108, || "d".into());
        h.add(30, 101, || "e".into());
        assert_eq!(h.map.len(), 1);
        assert_eq!(h.find(107, 200).map(String::as_str), Some("a"));
        assert_eq!(h.find(108, 200), None);
    }

    #[test]
    fn a_range_on_the_circle_splits_where_it_wraps() {
        assert_eq!(circle(10, 5, 16), [(10, 15)]);
        assert_eq!(circle(14, 5, 16), [(14, 16), (0, 3)]);
        assert_eq!(circle(3, 16, 16), [(0, 16)]);
    }
}
