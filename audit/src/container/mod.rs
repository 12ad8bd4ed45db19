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
//! than 1 or 2 or one its `e_ehsize` or `e_machine` contradict, `EM_NONE`,
//! a header, sections or segments cut off by the end of the file; for an
//! ar archive, a symbol table that does not parse or names a member the
//! archive does not yield) is a problem: the audit cannot tell the byte
//! order the file declares, and a loader may still run it (`docs/audit.md`,
//! "Bad input"). A file with the universal magic none of whose slices is a
//! Mach-O file or an archive (a Java class file has the same magic), and
//! one that only the two machine bytes of a COFF header open but that does
//! not parse as COFF, are bytes. Every other file, including one of no
//! known format, is scanned as bytes, with no problem of its own.
//!
//! A wasm module or component is read by its sections (each must end
//! within the file), not parsed further. A file over [`IN_MEMORY_BYTES`] is
//! read in pieces ([`inspect_file`]), so memory does not grow with it.

use core::cell::Cell;
use core::fmt::Display;
use std::format;
use std::string::{String, ToString};
use std::vec::Vec;

use object::macho::{FatArch32, FatArch64};
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
    /// A relocatable object file (ELF `ET_REL`, a COFF, Mach-O or XCOFF
    /// object): one part of a build, whose other objects may hold the
    /// tables its manifest names (`audit` does not count those as missing).
    pub relocatable: bool,
}

impl Container {
    /// A `kind` file whose headers hold and declare `order`.
    fn of(kind: &'static str, order: Option<ByteOrder>) -> Container {
        Container {
            kind,
            order,
            problem: None,
            cost: 0,
            relocatable: false,
        }
    }

    fn bytes() -> Container {
        Container::of("bytes", None)
    }

    fn ordered(kind: &'static str, little: bool) -> Container {
        let order = if little {
            ByteOrder::Little
        } else {
            ByteOrder::Big
        };
        Container::of(kind, Some(order))
    }

    /// The line of an artifact whose headers are malformed.
    fn malformed(kind: &'static str, why: impl Into<String>) -> Container {
        Container {
            problem: Some(format!("malformed {kind} file: {}", why.into())),
            ..Container::of(kind, None)
        }
    }
}

/// What a file's headers say, or (`Err`) a problem found before the end.
type Verdict = Result<Container, Container>;

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
    /// Bytes of the file and its parts read so far (of the parts alone for
    /// a file read in pieces).
    read: Cell<u64>,
    /// The most that [`Reading::read`] may reach.
    limit: u64,
    /// Units of the scan's budget, beyond one per 8 bytes read (all of them
    /// for a file read in pieces).
    extra: Cell<u64>,
    /// Bytes of symbol tables a file read in pieces may still read into
    /// memory, over all its archives, nested ones included
    /// (`large::SYMBOL_TABLE_BYTES` in all).
    symbol_bytes: Cell<u64>,
}

impl Reading {
    fn new(len: u64) -> Reading {
        Reading {
            read: Cell::new(len),
            limit: MAX_PARTS_READ.saturating_mul(len),
            extra: Cell::new(0),
            symbol_bytes: Cell::new(large::SYMBOL_TABLE_BYTES),
        }
    }

    /// Charges `units` of the scan's budget.
    fn charge(&self, units: u64) {
        self.extra.set(self.extra.get() + units);
    }

    /// The units of the scan's budget spent: one per 8 bytes read, and
    /// what else was charged.
    fn cost(&self) -> u64 {
        self.read.get() / 8 + self.extra.get()
    }
}

/// The problem of a `kind` container nested more than [`MAX_NESTING`] deep
/// (`depth`) in other `containers`.
fn nesting(kind: &'static str, depth: usize, containers: &str) -> Result<(), Container> {
    if depth <= MAX_NESTING {
        return Ok(());
    }
    let why = format!("it is nested more than {MAX_NESTING} deep in other {containers}");
    Err(Container::malformed(kind, why))
}

/// Whether a universal Mach-O file's slice whose first bytes are `first` is
/// a Mach-O file or an archive.
fn is_slice(first: &[u8]) -> bool {
    first.starts_with(b"!<arch>\n")
        || matches!(
            FileKind::parse(first),
            Ok(FileKind::MachO32 | FileKind::MachO64)
        )
}

/// The byte order of a container's parts (an ar archive's members, a
/// universal Mach-O file's slices), each read as a file of its own: parts
/// in both orders, or a part whose headers do not hold, are a problem;
/// parts of no format the audit reads declare none.
struct Parts<'r> {
    kind: &'static str,
    what: &'static str,
    order: Option<ByteOrder>,
    reading: &'r Reading,
    /// Read in pieces: a problem names the order of the parts before a
    /// part in the other order "the other order", not by its name.
    pieces: bool,
}

impl<'r> Parts<'r> {
    fn new(kind: &'static str, what: &'static str, reading: &'r Reading, pieces: bool) -> Self {
        Parts {
            kind,
            what,
            order: None,
            reading,
            pieces,
        }
    }

    /// Counts a part of `len` bytes read: past [`Reading::limit`], a problem.
    fn count(&self, len: u64) -> Result<(), Container> {
        let read = self.reading.read.get().saturating_add(len);
        self.reading.read.set(read);
        if read <= self.reading.limit {
            return Ok(());
        }
        let (what, bytes) = (self.what, self.reading.limit / MAX_PARTS_READ);
        let why = format!(
            "its {what}s overlap: reading their headers reads more than {MAX_PARTS_READ} times the file's {bytes} bytes"
        );
        Err(Container::malformed(self.kind, why))
    }

    /// Adds what the headers of the part `name` say.
    fn add(&mut self, name: impl Display, part: Container) -> Result<(), Container> {
        let (what, kind) = (self.what, self.kind);
        if let Some(p) = part.problem {
            return Err(Container::malformed(kind, format!("{what} {name}: {p}")));
        }
        let Some(this) = part.order else {
            return Ok(());
        };
        if let Some(before) = self.order.filter(|&o| o != this) {
            let before = if self.pieces {
                "the other order"
            } else {
                before.name()
            };
            let (order, its) = (this.name(), part.kind);
            let why = format!(
                "{what} {name} is a {order} {its} file, and the {what}s before it are {before}"
            );
            return Err(Container::malformed(kind, why));
        }
        self.order = Some(this);
        Ok(())
    }

    /// Reads the part `name`, `bytes` nested `depth` deep, and adds it.
    fn read(&mut self, name: impl Display, bytes: &[u8], depth: usize) -> Result<(), Container> {
        let len = bytes.len() as u64;
        self.count(len)?;
        let part = headers(bytes, len, depth, self.reading);
        self.add(name, part.unwrap_or_else(|c| c))
    }

    fn done(self) -> Container {
        Container::of(self.kind, self.order)
    }
}

/// An ar archive (a static library, an rlib): its byte order is its
/// members' ([`Parts`]); an archive that does not parse, or whose symbol
/// table names anything but its members ([`symbol_table`]), is a problem.
fn archive<'d, R: ReadRef<'d>>(data: R, depth: usize, reading: &Reading) -> Verdict {
    const KIND: &str = "ar archive";
    let bad = |why: String| Container::malformed(KIND, why);
    nesting(KIND, depth, "archives")?;
    let file = object::read::archive::ArchiveFile::parse(data).map_err(|e| bad(e.to_string()))?;
    let mut parts = Parts::new(KIND, "member", reading, false);
    // The data (offset, size) of each member `members()` yields, in the
    // order of the file: sorted.
    let mut read = Vec::new();
    for member in file.members() {
        let member = member.map_err(|e| bad(e.to_string()))?;
        let bytes = member.data(data).map_err(|e| bad(e.to_string()))?;
        parts.read(String::from_utf8_lossy(member.name()), bytes, depth + 1)?;
        read.push(member.file_range());
    }
    let is_member = |at: u64| {
        let named = file.member(object::read::archive::ArchiveOffset(at));
        named.is_ok_and(|m| read.binary_search(&m.file_range()).is_ok())
    };
    symbol_table(&file, is_member, reading).map_err(bad)?;
    Ok(parts.done())
}

/// Whether every member the symbol table of the ar archive `file` names
/// (GNU `/` and `/SYM64/`, BSD `__.SYMDEF`, the second linker member of a
/// Windows `.lib`, as `object` reads them) is one of its members:
/// `is_member` of the offset it names (in memory, the member `object` parses
/// there has the data range of one the walk read; read in pieces, a member
/// header the walk found is there). A linker finds the member that defines a
/// symbol by the offset the table gives, and does not check that it is a
/// member; a member header hidden in the symbol table's data or in another
/// member's would be linked without being read. Each offset is checked as
/// it is read, in memory that does not grow with the table (an offset the
/// symbol before it named is not checked again); each check is charged to
/// `reading`.
fn symbol_table<'d, R: ReadRef<'d>>(
    file: &object::read::archive::ArchiveFile<'d, R>,
    is_member: impl Fn(u64) -> bool,
    reading: &Reading,
) -> Result<(), String> {
    let parse = |e: object::Error| format!("its symbol table does not parse: {e}");
    let Some(symbols) = file.symbols().map_err(parse)? else {
        return Ok(());
    };
    let mut last = None;
    for symbol in symbols {
        let at = symbol.map_err(parse)?.offset().0;
        if last == Some(at) {
            continue;
        }
        last = Some(at);
        reading.charge(SYMBOL_COST);
        if !is_member(at) {
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
) -> Verdict {
    const KIND: &str = "universal Mach-O";
    let Ok(file) = MachOFatFile::<Fat>::parse(data) else {
        return Ok(Container::bytes());
    };
    let slices: Vec<Option<&[u8]>> = file.arches().iter().map(|a| a.data(data).ok()).collect();
    if !slices.iter().flatten().any(|b| is_slice(b)) {
        return Ok(Container::bytes());
    }
    nesting(KIND, depth, "containers")?;
    let mut parts = Parts::new(KIND, "slice", reading, false);
    for (i, slice) in slices.into_iter().enumerate() {
        let bad = |why: &str| Container::malformed(KIND, format!("slice {i} {why}"));
        let bytes = slice.ok_or_else(|| bad("runs past the end of the file"))?;
        if !is_slice(bytes) {
            return Err(bad("is neither a Mach-O file nor an archive"));
        }
        parts.read(i, bytes, depth + 1)?;
    }
    Ok(parts.done())
}

/// A Mach-O, PE or COFF file, read by `object`: its byte order, or, when
/// its headers do not parse, a problem (`strict`: its magic is a format's)
/// or bytes (only the two machine bytes of a COFF header).
fn parsed<'d, R: ReadRef<'d>>(data: R, kind: &'static str, strict: bool) -> Verdict {
    match object::File::parse(data) {
        Ok(f) => Ok(Container {
            relocatable: f.kind() == object::ObjectKind::Relocatable,
            ..Container::ordered(kind, f.is_little_endian())
        }),
        Err(e) if strict => Err(Container::malformed(kind, e.to_string())),
        Err(_) => Ok(Container::bytes()),
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
fn other<'d, R: ReadRef<'d>>(data: R, depth: usize, reading: &Reading) -> Verdict {
    if is_pe(data) {
        return parsed(data, "PE", true);
    }
    match FileKind::parse(data) {
        Ok(FileKind::MachO32 | FileKind::MachO64) => parsed(data, "Mach-O", true),
        Ok(FileKind::MachOFat32) => universal::<R, FatArch32>(data, depth, reading),
        Ok(FileKind::MachOFat64) => universal::<R, FatArch64>(data, depth, reading),
        // Without the PE signature, an MS-DOS program is bytes.
        Ok(FileKind::Coff | FileKind::CoffBig) => parsed(data, "COFF", false),
        // AIX: big-endian, as `object` reads it.
        Ok(FileKind::Xcoff32 | FileKind::Xcoff64) => parsed(data, "XCOFF", true),
        // A short import object of a Windows import library: little-endian.
        Ok(FileKind::CoffImport) if object::read::coff::ImportFile::parse(data).is_ok() => {
            Ok(Container::ordered("COFF", true))
        }
        _ => Ok(Container::bytes()),
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
            order.name()
        ));
    }
    if let Some((_, name, little)) = ONE_ORDER_MACHINES.iter().find(|m| m.0 == value) {
        if *little != (order == ByteOrder::Little) {
            return Err(format!(
                "its machine (e_machine) is {name} ({value}), which is {} only, and EI_DATA declares {}",
                if *little { "little-endian" } else { "big-endian" },
                order.name()
            ));
        }
    }
    Ok(())
}

/// Reads the headers of the `len`-byte artifact `data`; its
/// [`Container::cost`] is what that spent.
pub fn inspect<'d, R: ReadRef<'d>>(data: R, len: u64) -> Container {
    let reading = Reading::new(len);
    let c = headers(data, len, 0, &reading).unwrap_or_else(|c| c);
    Container {
        cost: reading.cost(),
        ..c
    }
}

/// The `n`-byte unsigned number at `at` of `b`, stored in `order`.
fn int(b: &[u8], at: usize, n: usize, order: ByteOrder) -> u64 {
    let mut w = [0u8; 8];
    w[..n].copy_from_slice(&b[at..at + n]);
    if order == ByteOrder::Big {
        w[..n].reverse();
    }
    u64::from_le_bytes(w)
}

/// The header checks of an ELF file whose first bytes (up to 64) are
/// `head`: its byte order, or the problem.
fn elf_header(head: &[u8], len: u64) -> Result<ByteOrder, Container> {
    let bad = |why: String| Container::malformed("ELF", why);
    if head.len() < 6 {
        return Err(bad("the file ends inside the ELF identification".into()));
    }
    let order = match head[5] {
        1 => ByteOrder::Little,
        2 => ByteOrder::Big,
        d => {
            return Err(bad(format!(
            "its byte-order byte (EI_DATA) is {d}, neither 1 (little-endian) nor 2 (big-endian)"
        )))
        }
    };
    // e_ehsize, the header's own size, read in the declared order: a
    // byte-order byte that lies makes it nonsense.
    let (at, want) = match head[4] {
        1 => (40, 52),
        2 => (52, 64),
        c => {
            return Err(bad(format!(
                "its class byte (EI_CLASS) is {c}, neither 1 nor 2"
            )))
        }
    };
    if head.len() < at + 2 {
        return Err(bad(format!(
            "the file ends inside the ELF header ({len} bytes)"
        )));
    }
    let ehsize = int(head, at, 2, order);
    if ehsize != want {
        return Err(bad(format!(
            "its header size (e_ehsize) reads {ehsize} in the byte order EI_DATA declares ({}), not {want}",
            order.name()
        )));
    }
    machine(u16::from_le_bytes([head[18], head[19]]), order).map_err(bad)?;
    Ok(order)
}

/// The problem of an ELF file's `what` of `size` bytes at `off` that runs
/// past the end of the file (`len` bytes), if it does.
fn within(off: u64, size: u64, len: u64, what: impl FnOnce() -> String) -> Result<(), Container> {
    if off.checked_add(size).is_some_and(|end| end <= len) {
        return Ok(());
    }
    let what = what();
    let why = format!(
        "{what} ({size} bytes at {off:#x}) runs past the end of the file ({len} bytes): the file is cut off"
    );
    Err(Container::malformed("ELF", why))
}

/// Files up to this size are read into memory whole and their headers read
/// by `object` ([`inspect`]); larger ones are read in pieces of at most
/// 1 MiB, so that memory does not grow with the file
/// ([`inspect_file`]).
pub const IN_MEMORY_BYTES: u64 = 64 << 20;

/// Reads the headers of the regular file `file` of `len` bytes, in bounded
/// memory: a file of up to [`IN_MEMORY_BYTES`] is read whole and judged as
/// [`inspect`] judges it. A larger one gets the same verdict, its headers
/// read in pieces: an ar archive by its members' headers and its symbol
/// table, a universal Mach-O file by its slices, each member and slice as a
/// file of its own; a wasm module or component by its sections, read
/// through; any other by the same code as in memory, through a cache of
/// what it reads, at most `large::OBJECT_BYTES` (more is a problem).
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
    large::inspect(file, len)
}

/// [`inspect`] of a file nested `depth` deep in containers, charged to
/// `reading`.
fn headers<'d, R: ReadRef<'d>>(data: R, len: u64, depth: usize, reading: &Reading) -> Verdict {
    let head = data.read_bytes_at(0, len.min(64)).unwrap_or(&[]);
    // A System V or GNU archive, or an AIX big archive.
    if head.starts_with(b"!<arch>\n") || head.starts_with(b"<bigaf>\n") {
        return archive(data, depth, reading);
    }
    if head.starts_with(b"\0asm") {
        let bytes = data
            .read_bytes_at(0, len)
            .map_err(|()| Container::malformed("wasm", "the file cannot be read"))?;
        return Ok(large::wasm(&mut std::io::Cursor::new(bytes), len, reading));
    }
    if !head.starts_with(b"\x7fELF") {
        return other(data, depth, reading);
    }
    elf(data, head, len)
}

/// An ELF file whose first bytes (up to 64) are `head`: its header checks
/// ([`elf_header`]), then `object` parses it, and every section's and
/// segment's file part must lie in the file.
fn elf<'d, R: ReadRef<'d>>(data: R, head: &[u8], len: u64) -> Verdict {
    elf_header(head, len)?;
    let file = object::File::parse(data).map_err(|e| Container::malformed("ELF", e.to_string()))?;
    for s in file.sections() {
        let what = || format!("section {}", s.name().unwrap_or("?"));
        if let Some((off, size)) = s.file_range() {
            within(off, size, len, what)?;
        }
    }
    for s in file.segments() {
        let (off, size) = s.file_range();
        within(off, size, len, || "a segment".into())?;
    }
    Ok(Container {
        relocatable: file.kind() == object::ObjectKind::Relocatable,
        ..Container::ordered("ELF", file.is_little_endian())
    })
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
            for (order, stored) in [(ByteOrder::Little, v), (ByteOrder::Big, v.swap_bytes())] {
                if one.is_none_or(|m| m.2 == (order == ByteOrder::Little)) {
                    assert!(machine(stored, order).is_ok(), "{v:#x}");
                }
            }
        }
        // A one-order machine stored in its order passes, in the other
        // order (EI_DATA and the stored bytes agreeing) it is a problem.
        for (v, name, little) in ONE_ORDER_MACHINES {
            for (order, stored) in [(ByteOrder::Little, v), (ByteOrder::Big, v.swap_bytes())] {
                let (why, own) = (machine(stored, order), order == ByteOrder::Little);
                assert_eq!(why.is_ok(), little == own, "{name}");
                if let Err(why) = why {
                    assert!(why.contains(&format!("is {name} ({v})")), "{why}");
                }
            }
        }
        assert!(machine(0, ByteOrder::Little).is_err());
        assert!(machine(0, ByteOrder::Big).is_err());
        // s390x: 22, stored big-endian.
        assert!(machine(22u16.swap_bytes(), ByteOrder::Big).is_ok());
    }
}
