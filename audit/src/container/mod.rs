//! The object format of an artifact, read with the `object` crate: what kind
//! of file it is, the byte order it declares, and whether its headers hold.
//!
//! The scan reads any bytes; this says what the file claims to be. Every
//! format whose headers state a byte order declares it: an ELF file (its
//! `EI_DATA`, which its `e_machine` must confirm), a wasm module
//! (little-endian), a Mach-O file (its magic), a universal (fat) Mach-O file
//! (its slices'), a PE or COFF file (little-endian, as `object` reads the
//! machine), and an ar archive (a static library, an rlib: its members',
//! each read the same way, archives nested in it included, up to
//! [`MAX_NESTING`] deep; every member its symbol table names must be one of
//! them). A container whose parts declare both orders is bad input, as is
//! an archive nested deeper.
//!
//! A file that opens with the ELF, wasm, Mach-O or PE magic (for PE, the
//! MS-DOS magic and a PE signature where its `e_lfanew` points) but whose
//! headers do not parse (for ELF, also a byte-order byte `EI_DATA` other
//! than 1 or 2, a header that reads differently in the order it declares:
//! an `e_ehsize` other than the header's size, an `e_machine` that names no
//! machine in that order or a machine of the other order only, or
//! `EM_NONE`; a header cut off, sections or segments past the end of the
//! file; for an ar archive, a symbol table that does not parse or names a
//! member the archive does not yield) is a problem: the audit cannot tell
//! the byte order the file declares, and a loader may still run it
//! (`docs/audit.md`, "Bad input"). A file with the
//! universal magic none of whose slices is a Mach-O file or an archive (a
//! Java class file has the same magic), and one that only the two machine
//! bytes of a COFF header open but that does not parse as COFF, are bytes.
//! Every other file, including one of no known format, is scanned as
//! bytes, with no problem of its own.
//!
//! A wasm module or component is read by its sections (each must end
//! within the file), not parsed further. A file over [`IN_MEMORY_BYTES`] is
//! read in pieces ([`inspect_file`]), so memory does not grow with it.

use core::cell::Cell;
use std::format;
use std::string::{String, ToString};
use std::vec::Vec;

use object::read::macho::{FatArch, MachOFatFile};
use object::{FileKind, Object, ObjectSection, ObjectSegment, ReadRef};

use crate::reference::ByteOrder;

mod large;

/// What an artifact's headers say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Container {
    /// `ELF`, `wasm`, `Mach-O`, `universal Mach-O`, `PE`, `COFF`, `ar
    /// archive`, or `bytes` (no format the audit reads headers of).
    pub kind: &'static str,
    /// The byte order the headers declare (ELF, Mach-O; a universal Mach-O
    /// file's slices, an ar archive's members), or wasm's, PE's and COFF's
    /// (little-endian).
    pub order: Option<ByteOrder>,
    /// Why the headers do not hold, for a file that opens with the magic of
    /// a format the audit reads: one line.
    pub problem: Option<String>,
    /// What reading the headers cost, in the units of the scan's budget
    /// (`BUDGET_PER_BYTE`): one per 8 bytes read (a part of the file read
    /// once for each container it lies in: [`MAX_PARTS_READ`]), 16 per
    /// member an archive's symbol table names, and 64 per read of a file
    /// read in pieces. `audit` charges it to the scan's budget.
    pub cost: u64,
}

impl Container {
    /// The line of an artifact whose headers are malformed.
    fn malformed(kind: &'static str, why: impl Into<String>) -> Container {
        Container {
            kind,
            order: None,
            problem: Some(format!("malformed {kind} file: {}", why.into())),
            cost: 0,
        }
    }
}

/// Archives nested in an ar archive (or in a universal Mach-O file) deeper
/// than this are bad input: the audit does not read their members' byte
/// order.
pub const MAX_NESTING: usize = 4;

/// The most bytes that reading a file's headers may read, in parts of it
/// (the members of its archives, the slices of its universal files, each
/// read as a file of its own), as a multiple of its size. Parts that do not
/// overlap are each read once per level of nesting they lie in, at most
/// [`MAX_NESTING`] + 2 times the file in all; more is parts that overlap
/// (slices that all name one archive, whose member is such a file again:
/// cubic in the file without this bound), which no linker or `lipo` writes,
/// and bad input.
pub const MAX_PARTS_READ: u64 = MAX_NESTING as u64 + 2;

/// What reading one file's headers has spent: the bytes of the parts read
/// ([`MAX_PARTS_READ`] bounds them), and the units of the scan's budget
/// ([`Container::cost`]).
struct Reading {
    /// Bytes of the file and its parts read so far.
    read: Cell<u64>,
    /// The most that [`Reading::read`] may reach.
    limit: u64,
    /// Units of the scan's budget, beyond one per 8 bytes read.
    extra: Cell<u64>,
}

impl Reading {
    fn new(len: u64) -> Reading {
        Reading {
            read: Cell::new(len),
            limit: MAX_PARTS_READ.saturating_mul(len),
            extra: Cell::new(0),
        }
    }

    /// Counts a part of `len` bytes read; `false` past the limit.
    fn part(&self, len: u64) -> bool {
        let read = self.read.get().saturating_add(len);
        self.read.set(read);
        read <= self.limit
    }

    /// The units of the scan's budget spent: one per 8 bytes read, and
    /// what else was charged.
    fn cost(&self) -> u64 {
        self.read.get() / 8 + self.extra.get()
    }
}

impl Container {
    fn bytes() -> Container {
        Container {
            kind: "bytes",
            order: None,
            problem: None,
            cost: 0,
        }
    }

    fn ordered(kind: &'static str, little: bool) -> Container {
        Container {
            kind,
            order: Some(if little {
                ByteOrder::Little
            } else {
                ByteOrder::Big
            }),
            problem: None,
            cost: 0,
        }
    }
}

fn order_name(o: ByteOrder) -> &'static str {
    match o {
        ByteOrder::Big => "big-endian",
        _ => "little-endian",
    }
}

/// The byte order of a container's parts (an ar archive's members, a
/// universal Mach-O file's slices), each read as a file of its own at
/// nesting `depth`: parts in both orders, or a part whose headers do not
/// hold, are a problem; parts of no format the audit reads declare none.
struct Parts<'r> {
    kind: &'static str,
    what: &'static str,
    depth: usize,
    order: Option<ByteOrder>,
    reading: &'r Reading,
}

impl Parts<'_> {
    fn add(&mut self, name: &str, bytes: &[u8]) -> Result<(), Container> {
        if !self.reading.part(bytes.len() as u64) {
            return Err(Container::malformed(
                self.kind,
                format!(
                    "its {}s overlap: reading their headers reads more than {MAX_PARTS_READ} times the file's {} bytes",
                    self.what,
                    self.reading.limit / MAX_PARTS_READ
                ),
            ));
        }
        let part = inspect_at(bytes, bytes.len() as u64, self.depth + 1, self.reading);
        if let Some(p) = part.problem {
            return Err(Container::malformed(
                self.kind,
                format!("{} {name}: {p}", self.what),
            ));
        }
        let Some(this) = part.order else {
            return Ok(());
        };
        if self.order.is_some_and(|o| o != this) {
            return Err(Container::malformed(
                self.kind,
                format!(
                    "{} {name} is a {} {} file, and the {}s before it are {}",
                    self.what,
                    order_name(this),
                    part.kind,
                    self.what,
                    order_name(self.order.unwrap_or(this)),
                ),
            ));
        }
        self.order = Some(this);
        Ok(())
    }

    fn done(self) -> Container {
        Container {
            kind: self.kind,
            order: self.order,
            problem: None,
            cost: 0,
        }
    }
}

/// An ar archive (a static library, an rlib): its byte order is its
/// members' (ELF, Mach-O, COFF, wasm, an archive nested in it). Members in
/// both orders, a member whose headers do not hold, an archive that does
/// not parse, or a symbol table that names anything but its members, are a
/// problem; an archive without such members declares none.
fn archive<'d, R: ReadRef<'d>>(data: R, depth: usize, reading: &Reading) -> Container {
    const KIND: &str = "ar archive";
    if depth > MAX_NESTING {
        return Container::malformed(
            KIND,
            format!("it is nested more than {MAX_NESTING} deep in other archives"),
        );
    }
    let file = match object::read::archive::ArchiveFile::parse(data) {
        Ok(f) => f,
        Err(e) => return Container::malformed(KIND, e.to_string()),
    };
    let mut parts = Parts {
        kind: KIND,
        what: "member",
        depth,
        order: None,
        reading,
    };
    // The data (offset, size) of each member `members()` yields, in the
    // order of the file: sorted.
    let mut read = Vec::new();
    for member in file.members() {
        let member = match member {
            Ok(m) => m,
            Err(e) => return Container::malformed(KIND, e.to_string()),
        };
        let bytes = match member.data(data) {
            Ok(b) => b,
            Err(e) => return Container::malformed(KIND, e.to_string()),
        };
        if let Err(c) = parts.add(&String::from_utf8_lossy(member.name()), bytes) {
            return c;
        }
        read.push(member.file_range());
    }
    if let Err(why) = symbol_table(&file, &read, reading) {
        return Container::malformed(KIND, why);
    }
    parts.done()
}

/// Whether every member the symbol table of the ar archive `file` names
/// (GNU `/` and `/SYM64/`, BSD `__.SYMDEF`, the second linker member of a
/// Windows `.lib`, as `object` reads them) is one of the members whose data
/// ranges are `read` (sorted). A linker finds the member that defines a
/// symbol by the offset the table gives, and does not check that it is a
/// member; a member header hidden in the symbol table's data or in another
/// member's would be linked without being read. Each offset is checked as
/// it is read, in memory that does not grow with the table (an offset the
/// symbol before it named is not checked again); each check is charged to
/// `reading`.
fn symbol_table<'d, R: ReadRef<'d>>(
    file: &object::read::archive::ArchiveFile<'d, R>,
    read: &[(u64, u64)],
    reading: &Reading,
) -> Result<(), String> {
    let symbols = match file.symbols() {
        Ok(Some(s)) => s,
        Ok(None) => return Ok(()),
        Err(e) => return Err(format!("its symbol table does not parse: {e}")),
    };
    let mut last = None;
    for symbol in symbols {
        let at = match symbol {
            Ok(s) => s.offset().0,
            Err(e) => return Err(format!("its symbol table does not parse: {e}")),
        };
        if last == Some(at) {
            continue;
        }
        last = Some(at);
        // A member header read (60 bytes) and looked up.
        reading.extra.set(reading.extra.get() + SYMBOL_COST);
        let named = file.member(object::read::archive::ArchiveOffset(at));
        if !named.is_ok_and(|m| read.binary_search(&m.file_range()).is_ok()) {
            return Err(format!(
                "its symbol table names a member at offset {at:#x}, which is not one of its members"
            ));
        }
    }
    Ok(())
}

/// Units of the scan's budget that checking one member an archive's symbol
/// table names costs: its header read (60 bytes) and looked up.
const SYMBOL_COST: u64 = 16;

/// A universal (fat) Mach-O file: its byte order is its slices'. One none
/// of whose slices is a Mach-O file or an archive is bytes (a Java class
/// file opens with the same magic).
fn universal<'d, R: ReadRef<'d>, Fat: FatArch>(
    data: R,
    depth: usize,
    reading: &Reading,
) -> Container {
    const KIND: &str = "universal Mach-O";
    let Ok(file) = MachOFatFile::<Fat>::parse(data) else {
        return Container::bytes();
    };
    let slices: Vec<Option<&[u8]>> = file.arches().iter().map(|a| a.data(data).ok()).collect();
    let is_object = |b: &&[u8]| {
        b.starts_with(b"!<arch>\n")
            || matches!(
                FileKind::parse(*b),
                Ok(FileKind::MachO32 | FileKind::MachO64)
            )
    };
    if !slices.iter().flatten().any(is_object) {
        return Container::bytes();
    }
    if depth > MAX_NESTING {
        return Container::malformed(
            KIND,
            format!("it is nested more than {MAX_NESTING} deep in other containers"),
        );
    }
    let mut parts = Parts {
        kind: KIND,
        what: "slice",
        depth,
        order: None,
        reading,
    };
    for (i, slice) in slices.into_iter().enumerate() {
        let Some(bytes) = slice else {
            return Container::malformed(KIND, format!("slice {i} runs past the end of the file"));
        };
        if !is_object(&bytes) {
            return Container::malformed(
                KIND,
                format!("slice {i} is neither a Mach-O file nor an archive"),
            );
        }
        if let Err(c) = parts.add(&format!("{i}"), bytes) {
            return c;
        }
    }
    parts.done()
}

/// A Mach-O, PE or COFF file, read by `object`: its byte order, or, when
/// its headers do not parse, a problem (`strict`: its magic is a format's)
/// or bytes (only the two machine bytes of a COFF header).
fn parsed<'d, R: ReadRef<'d>>(data: R, kind: &'static str, strict: bool) -> Container {
    match object::File::parse(data) {
        Ok(f) => Container::ordered(kind, f.is_little_endian()),
        Err(e) if strict => Container::malformed(kind, e.to_string()),
        Err(_) => Container::bytes(),
    }
}

/// Whether `data` opens with the MS-DOS magic and its `e_lfanew` points
/// at the PE signature: a PE image, whether or not `object` parses it.
fn is_pe<'d, R: ReadRef<'d>>(data: R) -> bool {
    let Ok(dos) = data.read_bytes_at(0, 64) else {
        return false;
    };
    let at = u32::from_le_bytes([dos[0x3C], dos[0x3D], dos[0x3E], dos[0x3F]]);
    dos.starts_with(b"MZ") && data.read_bytes_at(at.into(), 4).ok() == Some(b"PE\0\0")
}

/// The formats other than ELF and wasm whose headers state a byte order.
fn other<'d, R: ReadRef<'d>>(data: R, depth: usize, reading: &Reading) -> Container {
    if is_pe(data) {
        return parsed(data, "PE", true);
    }
    match FileKind::parse(data) {
        Ok(FileKind::MachO32 | FileKind::MachO64) => parsed(data, "Mach-O", true),
        Ok(FileKind::MachOFat32) => universal::<R, object::macho::FatArch32>(data, depth, reading),
        Ok(FileKind::MachOFat64) => universal::<R, object::macho::FatArch64>(data, depth, reading),
        // Without the PE signature, an MS-DOS program is bytes.
        Ok(FileKind::Coff | FileKind::CoffBig) => parsed(data, "COFF", false),
        // AIX: big-endian, as `object` reads it.
        Ok(FileKind::Xcoff32 | FileKind::Xcoff64) => parsed(data, "XCOFF", true),
        // A short import object of a Windows import library: little-endian.
        Ok(FileKind::CoffImport) => match object::read::coff::ImportFile::parse(data) {
            Ok(_) => Container::ordered("COFF", true),
            Err(_) => Container::bytes(),
        },
        _ => Container::bytes(),
    }
}

/// The machine numbers above 255 of the ELF registry (`EM_KVX`, 256, to
/// `EM_AIECTRLCODE`, 269, as binutils' `include/elf/common.h` lists them)
/// and the historical `EM_ALPHA` (`0x9026`). With every number from 1 to
/// 255 they are the machines an ELF file may name. A number from 1 to 255
/// stored in one byte order reads as a multiple of 256 in the other: of
/// these only 256 is one (the bytes `00 01` read 256, KVX, little-endian
/// and 1, `EM_M32`, big-endian), and one reads as itself (257, `01 01`):
/// [`ONE_ORDER_MACHINES`] accepts each of those bytes in one order only.
const MACHINES_ABOVE_255: [u16; 15] = [
    256, 257, 258, 259, 260, 261, 262, 263, 264, 265, 266, 267, 268, 269, 0x9026,
];

/// Machines accepted in one byte order only, with the name a problem gives
/// them and whether that order is little-endian: those that exist in one
/// order only (x86, x86-64, LoongArch and Kalray KVX little-endian; s390
/// and s390x, m68k and PA-RISC big-endian), the WDC 65816 (257, whose
/// bytes `01 01` read 257 in both orders; it is little-endian), and the
/// AT&T WE 32100 (`EM_M32`, 1, whose bytes stored big-endian are KVX's
/// stored little-endian: it is accepted stored little-endian only, so that
/// no two bytes name a machine in both orders).
const ONE_ORDER_MACHINES: [(u16, &str, bool); 9] = [
    (object::elf::EM_386.0, "x86", true),
    (object::elf::EM_X86_64.0, "x86-64", true),
    (object::elf::EM_LOONGARCH.0, "LoongArch", true),
    (256, "Kalray KVX", true),
    (257, "WDC 65816", true),
    (object::elf::EM_M32.0, "AT&T WE 32100", true),
    (object::elf::EM_S390.0, "s390", false),
    (object::elf::EM_68K.0, "m68k", false),
    (object::elf::EM_PARISC.0, "PA-RISC", false),
];

/// Whether an ELF header's `e_machine`, whose two bytes read `stored` as a
/// little-endian number, names a machine when read in the byte order
/// `order` that `EI_DATA` declares, one that exists in that order. The
/// loader checks `e_machine` in the order of the machine it runs on, so a
/// byte-order byte that lies makes it read as no machine (x86-64's `3e 00`
/// read big-endian is `0x3e00`). `EM_NONE` (0 in both orders) names no
/// machine: no loader runs such a file.
fn machine(stored: u16, order: ByteOrder) -> Result<(), String> {
    let value = match order {
        ByteOrder::Big => stored.swap_bytes(),
        _ => stored,
    };
    if value == 0 {
        return Err("its machine (e_machine) is 0 (EM_NONE), which no loader runs".into());
    }
    if value > 255 && !MACHINES_ABOVE_255.contains(&value) {
        return Err(format!(
            "its machine (e_machine) reads {value:#x} in the byte order EI_DATA declares ({}), which is no machine",
            order_name(order)
        ));
    }
    if let Some((_, name, little)) = ONE_ORDER_MACHINES.iter().find(|m| m.0 == value) {
        if *little != (order == ByteOrder::Little) {
            return Err(format!(
                "its machine (e_machine) is {name} ({value}), which is {} only, and EI_DATA declares {}",
                if *little { "little-endian" } else { "big-endian" },
                order_name(order)
            ));
        }
    }
    Ok(())
}

/// Reads the headers of the `len`-byte artifact `data`; its
/// [`Container::cost`] is what that spent.
pub fn inspect<'d, R: ReadRef<'d>>(data: R, len: u64) -> Container {
    let reading = Reading::new(len);
    let mut c = inspect_at(data, len, 0, &reading);
    c.cost = reading.cost();
    c
}

/// The header checks of an ELF file whose first bytes (up to 64) are
/// `head`: its byte order, or the problem.
fn elf_header(head: &[u8], len: u64) -> Result<ByteOrder, Container> {
    let kind = "ELF";
    if head.len() < 6 {
        return Err(Container::malformed(
            kind,
            "the file ends inside the ELF identification",
        ));
    }
    let order = match head[5] {
        1 => ByteOrder::Little,
        2 => ByteOrder::Big,
        d => {
            return Err(Container::malformed(
                kind,
                format!(
                    "its byte-order byte (EI_DATA) is {d}, neither 1 (little-endian) nor 2 (big-endian)"
                ),
            ))
        }
    };
    // e_ehsize, the header's own size, read in the declared order: a
    // byte-order byte that lies makes it nonsense.
    let (at, want) = match head[4] {
        1 => (40, 52),
        2 => (52, 64),
        c => {
            return Err(Container::malformed(
                kind,
                format!("its class byte (EI_CLASS) is {c}, neither 1 nor 2"),
            ))
        }
    };
    let Some(b) = head.get(at..at + 2) else {
        return Err(Container::malformed(
            kind,
            format!("the file ends inside the ELF header ({len} bytes)"),
        ));
    };
    let ehsize = match order {
        ByteOrder::Big => u16::from_be_bytes([b[0], b[1]]),
        _ => u16::from_le_bytes([b[0], b[1]]),
    };
    if ehsize != want {
        return Err(Container::malformed(
            kind,
            format!(
                "its header size (e_ehsize) reads {ehsize} in the byte order EI_DATA declares ({}), not {want}",
                if order == ByteOrder::Big { "big-endian" } else { "little-endian" }
            ),
        ));
    }
    machine(u16::from_le_bytes([head[18], head[19]]), order)
        .map_err(|why| Container::malformed(kind, why))?;
    Ok(order)
}

/// Files up to this size are read into memory whole and their headers read
/// by `object` ([`inspect`]); larger ones are read in pieces of at most
/// 1 MiB, so that memory does not grow with the file
/// ([`inspect_file`]).
pub const IN_MEMORY_BYTES: u64 = 64 << 20;

/// Reads the headers of the regular file `file` of `len` bytes, in bounded
/// memory: a file of up to [`IN_MEMORY_BYTES`] is read whole and judged as
/// [`inspect`] judges it; a larger ELF file by its header and its program
/// and section header tables, a wasm module or component by its sections,
/// an ar archive by its members' headers and first bytes (not its symbol
/// table), and a Mach-O, PE, COFF or XCOFF file by its magic alone.
///
/// # Errors
///
/// The file's read errors.
pub fn inspect_file(file: &std::fs::File, len: u64) -> std::io::Result<Container> {
    use std::io::Read as _;
    if len <= IN_MEMORY_BYTES {
        let mut bytes = Vec::with_capacity(len as usize);
        file.take(len).read_to_end(&mut bytes)?;
        return Ok(inspect(&bytes[..], bytes.len() as u64));
    }
    large::inspect(file, len, 0)
}

/// [`inspect`] of a file nested `depth` deep in containers, charged to
/// `reading`.
fn inspect_at<'d, R: ReadRef<'d>>(data: R, len: u64, depth: usize, reading: &Reading) -> Container {
    let head = data.read_bytes_at(0, len.min(64)).unwrap_or(&[]);
    // A System V or GNU archive, or an AIX big archive.
    if head.starts_with(b"!<arch>\n") || head.starts_with(b"<bigaf>\n") {
        return archive(data, depth, reading);
    }
    let elf = head.starts_with(b"\x7fELF");
    let wasm = head.starts_with(b"\0asm");
    if !elf && !wasm {
        return other(data, depth, reading);
    }
    let kind = if elf { "ELF" } else { "wasm" };
    if elf {
        if let Err(c) = elf_header(head, len) {
            return c;
        }
    }
    if wasm {
        let Ok(bytes) = data.read_bytes_at(0, len) else {
            return Container::malformed(kind, "the file cannot be read");
        };
        return large::wasm(&mut std::io::Cursor::new(bytes), len);
    }
    match FileKind::parse(data) {
        Ok(FileKind::Elf32 | FileKind::Elf64 | FileKind::Wasm) => {}
        Ok(_) => unreachable!("the magic is ELF's or wasm's"),
        Err(e) => return Container::malformed(kind, e.to_string()),
    }
    let file = match object::File::parse(data) {
        Ok(f) => f,
        Err(e) => return Container::malformed(kind, e.to_string()),
    };
    if elf {
        for s in file.sections() {
            if let Some((off, size)) = s.file_range() {
                if off.checked_add(size).is_none_or(|end| end > len) {
                    return Container::malformed(
                        kind,
                        format!(
                            "section {} ({size} bytes at {off:#x}) runs past the end of the file ({len} bytes): the file is cut off",
                            s.name().unwrap_or("?")
                        ),
                    );
                }
            }
        }
        for s in file.segments() {
            let (off, size) = s.file_range();
            if off.checked_add(size).is_none_or(|end| end > len) {
                return Container::malformed(
                    kind,
                    format!(
                        "a segment ({size} bytes at {off:#x}) runs past the end of the file ({len} bytes): the file is cut off"
                    ),
                );
            }
        }
    }
    Container {
        kind,
        order: Some(if file.is_little_endian() {
            ByteOrder::Little
        } else {
            ByteOrder::Big
        }),
        problem: None,
        cost: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No two bytes of `e_machine` name a machine in both byte orders: a
    /// file whose `EI_DATA` lies reads as no machine.
    #[test]
    fn no_machine_is_accepted_in_both_byte_orders() {
        let mut accepted = 0;
        for stored in 0..=u16::MAX {
            let little = machine(stored, ByteOrder::Little).is_ok();
            let big = machine(stored, ByteOrder::Big).is_ok();
            assert!(!(little && big), "{stored:#06x}");
            accepted += usize::from(little) + usize::from(big);
        }
        // 1..=255 and the three above, in each order, but the one-order
        // machines in the other order.
        assert_eq!(
            accepted,
            2 * (255 + MACHINES_ABOVE_255.len()) - ONE_ORDER_MACHINES.len()
        );
        // Every registered machine, stored in its order, is accepted: KVX
        // and the others above 255 a file of the registry may name.
        for v in MACHINES_ABOVE_255 {
            let one = ONE_ORDER_MACHINES.iter().find(|m| m.0 == v);
            if one.is_none_or(|m| m.2) {
                assert!(machine(v, ByteOrder::Little).is_ok(), "{v:#x}");
            }
            if one.is_none_or(|m| !m.2) {
                assert!(machine(v.swap_bytes(), ByteOrder::Big).is_ok(), "{v:#x}");
            }
        }
        // A one-order machine stored in its order passes, in the other
        // order (EI_DATA and the stored bytes agreeing) it is a problem.
        for (v, name, little) in ONE_ORDER_MACHINES {
            let (own, other) = if little {
                (ByteOrder::Little, ByteOrder::Big)
            } else {
                (ByteOrder::Big, ByteOrder::Little)
            };
            let stored_in = |o| {
                if o == ByteOrder::Big {
                    v.swap_bytes()
                } else {
                    v
                }
            };
            assert!(machine(stored_in(own), own).is_ok(), "{name}");
            let why = machine(stored_in(other), other).unwrap_err();
            assert!(why.contains(&format!("is {name} ({v})")), "{why}");
        }
        assert!(machine(0, ByteOrder::Little).is_err());
        assert!(machine(0, ByteOrder::Big).is_err());
        // s390x: 22, stored big-endian.
        assert!(machine(22u16.swap_bytes(), ByteOrder::Big).is_ok());
    }
}
