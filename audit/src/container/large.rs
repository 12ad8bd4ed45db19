//! The headers of a file over [`super::IN_MEMORY_BYTES`], read in pieces of
//! at most [`PIECE`] bytes, so that memory does not grow with the file; and
//! the sections of a wasm module or component, of any size.

use core::cell::Cell;
use std::format;
use std::io::{Read, Seek, SeekFrom};
use std::string::{String, ToString};
use std::vec::Vec;

use super::{int, is_slice, nesting, Container, Parts, Reading, IN_MEMORY_BYTES};
use crate::reference::ByteOrder;

/// The most bytes read at once.
pub(crate) const PIECE: usize = 1 << 20;

/// A view of `len` bytes at `base` of a file, its reads charged to `reading`
/// ([`Reading::extra`]).
#[derive(Clone, Copy)]
struct View<'f> {
    file: &'f std::fs::File,
    base: u64,
    len: u64,
    reading: &'f Reading,
}

impl<'f> View<'f> {
    /// The part of `len` bytes at `at`.
    fn part(&self, at: u64, len: u64) -> View<'f> {
        View {
            base: self.base + at,
            len,
            ..*self
        }
    }

    /// The `n` bytes at `at` (fewer at the end of the view).
    fn read(&self, at: u64, n: usize) -> std::io::Result<Vec<u8>> {
        let n = (n as u64).min(self.len.saturating_sub(at)) as usize;
        self.reading.charge(64 + n as u64 / 8);
        let mut out = vec![0; n];
        let mut f = self.file;
        f.seek(SeekFrom::Start(self.base + at))?;
        f.read_exact(&mut out)?;
        Ok(out)
    }
}

/// Why reading a file's headers stopped before the end: its verdict, or a
/// read error.
enum Stop {
    Verdict(Container),
    Io(std::io::Error),
}

impl From<Container> for Stop {
    fn from(c: Container) -> Stop {
        Stop::Verdict(c)
    }
}

impl From<std::io::Error> for Stop {
    fn from(e: std::io::Error) -> Stop {
        Stop::Io(e)
    }
}

/// Reads the headers of the `len`-byte `file` (see [`super::inspect_file`]).
pub(crate) fn inspect(file: &std::fs::File, len: u64) -> std::io::Result<Container> {
    let reading = Reading {
        read: Cell::new(0),
        ..Reading::new(len)
    };
    let v = View {
        file,
        base: 0,
        len,
        reading: &reading,
    };
    let c = view(v, 0)?;
    Ok(Container {
        cost: reading.extra.get(),
        ..c
    })
}

/// What the headers of `v`, nested `depth` deep in containers, say.
fn view(v: View<'_>, depth: usize) -> std::io::Result<Container> {
    match headers(v, depth) {
        Ok(c) | Err(Stop::Verdict(c)) => Ok(c),
        Err(Stop::Io(e)) => Err(e),
    }
}

fn headers(v: View<'_>, depth: usize) -> Result<Container, Stop> {
    use object::FileKind as K;
    let head = v.read(0, 64)?;
    if head.starts_with(b"!<arch>\n") {
        return archive(v, depth);
    }
    if head.starts_with(b"<bigaf>\n") {
        let why = format!("an AIX big archive over {IN_MEMORY_BYTES} bytes is not read");
        return Ok(Container::malformed("ar archive", why));
    }
    if head.starts_with(b"\0asm") {
        let mut f = v.file;
        f.seek(SeekFrom::Start(v.base))?;
        let mut r = std::io::BufReader::new(f.take(v.len));
        return Ok(wasm(&mut r, v.len, v.reading));
    }
    match K::parse(&head[..]) {
        Ok(K::MachOFat32) => return universal(v, 20, depth),
        Ok(K::MachOFat64) => return universal(v, 32, depth),
        _ => {}
    }
    // Any other file is read by the code that reads one in memory, from a
    // cache of what it reads.
    let cache = object::read::ReadCache::new(v.file);
    let left = Cell::new(OBJECT_BYTES);
    let data = Cached {
        data: cache.range(v.base, v.len),
        left: &left,
        reading: v.reading,
    };
    let c = if head.starts_with(b"\x7fELF") {
        super::elf(data, &head, v.len)
    } else {
        super::other(data, depth, v.reading)
    };
    let c = c.unwrap_or_else(|c| c);
    if left.get() > 0 {
        return Ok(c);
    }
    let why = format!(
        "its headers and symbol tables take more than the {OBJECT_BYTES} bytes the audit reads of \
         them in a file over {IN_MEMORY_BYTES} bytes"
    );
    Ok(Container::malformed(c.kind, why))
}

/// The most bytes that reading the headers of one file over
/// [`IN_MEMORY_BYTES`] (or of one member or slice of it) other than an
/// archive, a universal Mach-O file or a wasm module may read ([`Cached`]);
/// each read also counts [`CACHE_ENTRY_BYTES`]. A file whose headers and
/// symbol tables need more is a problem.
pub(crate) const OBJECT_BYTES: u64 = 64 << 20;

/// What each read through [`Cached`] counts against [`OBJECT_BYTES`] beyond
/// its bytes: the cache's own record of it.
const CACHE_ENTRY_BYTES: u64 = 64;

/// A part of a file over [`IN_MEMORY_BYTES`] as `object` reads it
/// ([`super::elf`], [`super::other`]): the same code judges it as judges a
/// file in memory, and memory holds what it read, at most [`OBJECT_BYTES`]
/// (`left`); each read is charged to the scan's budget as [`View::read`]
/// charges one.
#[derive(Clone, Copy)]
struct Cached<'a> {
    data: object::read::ReadCacheRange<'a, &'a std::fs::File>,
    left: &'a Cell<u64>,
    reading: &'a Reading,
}

impl Cached<'_> {
    /// Takes `size` bytes at `at` from what is left: none past the end
    /// (refused as `object` refuses it), and none once [`OBJECT_BYTES`] is
    /// spent (then nothing is left, and the file is a problem).
    fn take(self, at: u64, size: u64) -> Result<(), ()> {
        let len = object::ReadRef::len(self.data)?;
        at.checked_add(size).filter(|&end| end <= len).ok_or(())?;
        let Some(left) = self.left.get().checked_sub(size + CACHE_ENTRY_BYTES) else {
            self.left.set(0);
            return Err(());
        };
        self.left.set(left);
        self.reading.charge(64 + size / 8);
        Ok(())
    }
}

impl<'a> object::ReadRef<'a> for Cached<'a> {
    fn len(self) -> Result<u64, ()> {
        self.data.len()
    }

    fn read_bytes_at(self, offset: u64, size: u64) -> Result<&'a [u8], ()> {
        self.take(offset, size)?;
        self.data.read_bytes_at(offset, size)
    }

    fn read_bytes_at_until(
        self,
        range: core::ops::Range<u64>,
        delimiter: u8,
    ) -> Result<&'a [u8], ()> {
        // `object`'s cache reads at most 4096 bytes of a string.
        let size = range.end.saturating_sub(range.start).min(4096);
        self.take(range.start, size)?;
        self.data.read_bytes_at_until(range, delimiter)
    }
}

/// A universal (fat) Mach-O file over [`super::IN_MEMORY_BYTES`], its
/// architecture entries `entry` bytes each (20, or 32 for the 64-bit form),
/// read as [`super::inspect`] reads one, each slice by its first bytes.
fn universal(v: View<'_>, entry: u64, depth: usize) -> Result<Container, Stop> {
    const KIND: &str = "universal Mach-O";
    let head = v.read(0, 8)?;
    if head.len() < 8 {
        return Ok(Container::bytes());
    }
    let count = int(&head, 4, 4, ByteOrder::Big);
    // As `object` refuses it: a table past the end of the file.
    if 8 + count * entry > v.len {
        return Ok(Container::bytes());
    }
    // Each slice's offset and size (big-endian words, 4 or 8 bytes wide),
    // from the table read in pieces; read twice, so memory stays a piece.
    let n = if entry == 20 { 4 } else { 8 };
    let big = |e: &[u8], at: usize| int(e, at, n, ByteOrder::Big);
    let slices = |each: &mut dyn FnMut(u64, u64, u64) -> Result<bool, Stop>| -> Result<bool, Stop> {
        let per_piece = PIECE as u64 / entry;
        let mut i = 0;
        while i < count {
            let table = v.read(8 + i * entry, (per_piece.min(count - i) * entry) as usize)?;
            for e in table.chunks_exact(entry as usize) {
                if !each(i, big(e, 8), big(e, 8 + n))? {
                    return Ok(false);
                }
                i += 1;
            }
        }
        Ok(true)
    };
    let inside = |offset: u64, size: u64| offset.checked_add(size).is_some_and(|end| end <= v.len);
    // A slice that is a Mach-O file or an archive, by its first bytes.
    let is_object = |offset: u64, size: u64| -> Result<bool, Stop> {
        Ok(inside(offset, size) && is_slice(&v.part(offset, size).read(0, 64)?))
    };
    // One none of whose slices is an object is bytes (a Java class file).
    if slices(&mut |_, offset, size| Ok(!is_object(offset, size)?))? {
        return Ok(Container::bytes());
    }
    nesting(KIND, depth, "containers")?;
    let mut parts = Parts::new(KIND, "slice", v.reading, true);
    slices(&mut |i, offset, size| {
        let bad = |why: &str| Container::malformed(KIND, format!("slice {i} {why}"));
        if !inside(offset, size) {
            return Err(bad("runs past the end of the file").into());
        }
        if !is_object(offset, size)? {
            return Err(bad("is neither a Mach-O file nor an archive").into());
        }
        parts.count(size)?;
        parts.add(i, view(v.part(offset, size), depth + 1)?)?;
        Ok(true)
    })?;
    Ok(parts.done())
}

/// A wasm module (version 1) or component (layer 1, what `wasm32-wasip2`
/// builds), `len` bytes from `r`'s position: little-endian, once its
/// header holds and every section ends within the file. Sections are
/// skipped, read through, not parsed (an engine validates them; the audit
/// reads bytes); each is charged to `reading` as a read of 64 bytes.
pub(crate) fn wasm<R: Read>(r: &mut R, len: u64, reading: &Reading) -> Container {
    let bad = |why: String| Container::malformed("wasm", why);
    let mut head = [0u8; 8];
    if len < 8 || r.read_exact(&mut head).is_err() {
        return bad(format!(
            "the file ends inside the wasm header ({len} bytes)"
        ));
    }
    let version = u16::from_le_bytes([head[4], head[5]]);
    let layer = u16::from_le_bytes([head[6], head[7]]);
    let kind = match (version, layer) {
        (1, 0) => "wasm",
        (_, 1) => "wasm component",
        _ => return bad(format!("its version is {version} and its layer {layer}: neither a module (1, 0) nor a component (layer 1)")),
    };
    let byte = |r: &mut R| {
        let mut b = [0u8; 1];
        r.read_exact(&mut b).ok().map(|()| b[0])
    };
    let (mut at, mut n) = (8u64, 0u64);
    while at < len && byte(r).is_some() {
        // The section's size: a LEB128 u32, at most 5 bytes.
        let (mut size, mut leb) = (0u64, 0u64);
        loop {
            let Some(b) = (leb < 5).then(|| byte(r)).flatten() else {
                return bad(format!(
                    "section {n} at {at:#x}: its size is not a LEB128 u32 within the file"
                ));
            };
            size |= u64::from(b & 0x7F) << (7 * leb);
            leb += 1;
            if b & 0x80 == 0 {
                break;
            }
        }
        let data = at + 1 + leb;
        if data + size > len {
            return bad(format!("section {n} ({size} bytes at {data:#x}) runs past the end of the file ({len} bytes)"));
        }
        reading.charge(8);
        if std::io::copy(&mut r.take(size), &mut std::io::sink()).ok() != Some(size) {
            return bad("the file cannot be read".into());
        }
        at = data + size;
        n += 1;
    }
    Container::of(kind, Some(ByteOrder::Little))
}

/// An ar archive over [`super::IN_MEMORY_BYTES`], read as [`super::inspect`]
/// reads one: every member header must parse and its member lie in the file,
/// each member is read as a file of its own, and every member its symbol table names must be a member header the walk finds
/// ([`Named`]).
fn archive(v: View<'_>, depth: usize) -> Result<Container, Stop> {
    const KIND: &str = "ar archive";
    let bad = |why: String| Stop::Verdict(Container::malformed(KIND, why));
    nesting(KIND, depth, "containers")?;
    let mut parts = Parts::new(KIND, "member", v.reading, true);
    let mut at = 8u64;
    let mut f = v.file;
    let mut leading: Option<Vec<String>> = Some(Vec::new());
    // Where the leading symbol table members end, and the offsets the
    // table names, read once the leading special members are passed.
    let mut table_end = None;
    let mut named: Option<Named> = None;
    while at < v.len {
        // Members start at even offsets.
        at += at % 2;
        if at >= v.len {
            break;
        }
        if at + 60 > v.len {
            return Err(bad(format!(
                "a member header at {at:#x} is cut off by the end of the file"
            )));
        }
        // A member's own bytes are read through `v` (its first bytes, at
        // their offset), which moves the file's position: each header is
        // read at its absolute offset, never relative to the last read (no
        // buffer whose idea of the position could go stale).
        f.seek(SeekFrom::Start(v.base + at))?;
        let mut h = [0u8; 60];
        f.read_exact(&mut h)?;
        v.reading.charge(64 + 8);
        if &h[58..60] != b"`\n" {
            return Err(bad(format!("the member header at {at:#x} does not parse")));
        }
        let field = |a: usize, b: usize| String::from_utf8_lossy(&h[a..b]).trim_end().to_string();
        let Ok(size) = field(48, 58).parse::<u64>() else {
            return Err(bad(format!("the member header at {at:#x} has no size")));
        };
        let name = field(0, 16);
        let data = at + 60;
        if data.checked_add(size).is_none_or(|e| e > v.len) {
            return Err(bad(format!(
                "member {name} ({size} bytes at {data:#x}) runs past the end of the file"
            )));
        }
        // A BSD name (`#1/N`) lies at the start of the member's data.
        let skip = if h.starts_with(b"#1/") && h[3].is_ascii_digit() {
            name[3..].parse::<u64>().unwrap_or(0).min(size)
        } else {
            0
        };
        // As `object` reads it: up to its first NUL. A name longer than
        // `PIECE` is no special member's, and is not read further.
        let own = if skip > 0 {
            let n = v.read(data, skip.min(PIECE as u64) as usize)?;
            let end = n.iter().position(|&b| b == 0).unwrap_or(n.len());
            String::from_utf8_lossy(&n[..end]).to_string()
        } else {
            object_name(&h[..16])
        };
        // The leading special members (symbol and name tables), as
        // `object` reads an archive's opening; a member so named after the
        // first other member is a member like any other.
        let special = leading
            .as_ref()
            .is_some_and(|before| is_special(before, &own));
        match (&mut leading, special) {
            (Some(before), true) => {
                if !matches!(&own[..], "//" | "/<ECSYMBOLS>/") {
                    table_end = Some(data + size);
                }
                before.push(own);
            }
            _ => leading = None,
        }
        if !special {
            match &mut named {
                Some(n) => n.found(at),
                None => named.insert(Named::read(v, table_end)?).found(at),
            }
            parts.count(size - skip)?;
            // Read as a file of its own, as `super::inspect` reads a member.
            let member = view(v.part(data + skip, size - skip), depth + 1)?;
            parts.add(name, member)?;
        }
        at = data + size;
    }
    let named = match named {
        Some(n) => n,
        None => Named::read(v, table_end)?,
    };
    named.check(v, table_end)?;
    Ok(parts.done())
}

/// The most bytes of the archives of a file over [`super::IN_MEMORY_BYTES`]
/// that their leading members up to the end of their symbol tables may take,
/// all its archives together, nested ones included (each table is read into
/// memory whole, before and after the walk of its members, during which up
/// to 9 bytes are held for every 4 of it); more is a problem. 11 times the largest seen in honest archives
/// (2.8 MB: the debug rlib of `jsonschema`, 95 MB; LLVM 14's
/// `libLLVMCodeGen.a`, 16 MB, holds 1 MB).
pub(crate) const SYMBOL_TABLE_BYTES: u64 = 32 << 20;

/// The member header offsets that an archive's symbol table names (sorted,
/// each once), and which of them the walk of its members found.
struct Named {
    offsets: Vec<u64>,
    found: Vec<bool>,
}

impl Named {
    /// The archive's first `end` bytes (its magic and its symbol table
    /// members, for `object` to read as it reads the archive in memory),
    /// read in pieces. Its `first` read takes `end` from what is left of
    /// [`SYMBOL_TABLE_BYTES`] for the file; more than is left is a problem.
    fn prefix(v: View<'_>, end: u64, first: bool) -> Result<Vec<u8>, Stop> {
        let left = v.reading.symbol_bytes.get();
        if first {
            v.reading.symbol_bytes.set(left.saturating_sub(end));
        }
        if end > left && first {
            return Err(Stop::Verdict(Container::malformed(
                "ar archive",
                format!(
                    "its symbol table ends {end} bytes into the archive, past the {SYMBOL_TABLE_BYTES} bytes the audit reads of the symbol tables of a file over {IN_MEMORY_BYTES} bytes (all its archives together)"
                ),
            )));
        }
        let mut bytes = Vec::with_capacity(end as usize);
        while (bytes.len() as u64) < end {
            let n = (end - bytes.len() as u64).min(PIECE as u64) as usize;
            bytes.extend(v.read(bytes.len() as u64, n)?);
        }
        Ok(bytes)
    }

    /// The offsets the symbol table that ends at `end` names (none without
    /// one), up to the first that does not parse ([`Named::check`] says
    /// so). The table is dropped once read, so that memory holds the
    /// offsets alone during the walk.
    fn read(v: View<'_>, end: Option<u64>) -> Result<Named, Stop> {
        let mut offsets = Vec::new();
        if let Some(end) = end {
            let prefix = Named::prefix(v, end, true)?;
            let file = object::read::archive::ArchiveFile::parse(&prefix[..]);
            if let Ok(Some(symbols)) = file.and_then(|f| f.symbols()) {
                offsets.extend(symbols.map_while(Result::ok).map(|s| s.offset().0));
            }
        }
        offsets.sort_unstable();
        offsets.dedup();
        let found = vec![false; offsets.len()];
        Ok(Named { offsets, found })
    }

    /// Marks a member header the walk found at `at`.
    fn found(&mut self, at: u64) {
        if let Ok(i) = self.offsets.binary_search(&at) {
            self.found[i] = true;
        }
    }

    /// After the walk: the symbol table, read again, checked as
    /// [`super::inspect`] checks it (`super::symbol_table`), each offset
    /// against the member headers found.
    fn check(&self, v: View<'_>, end: Option<u64>) -> Result<(), Stop> {
        let Some(end) = end else {
            return Ok(());
        };
        let bad = |why: String| Stop::Verdict(Container::malformed("ar archive", why));
        let prefix = Named::prefix(v, end, false)?;
        let file = object::read::archive::ArchiveFile::parse(&prefix[..])
            .map_err(|e| bad(e.to_string()))?;
        let is_member = |at: u64| self.offsets.binary_search(&at).is_ok_and(|i| self.found[i]);
        super::symbol_table(&file, is_member, v.reading).map_err(bad)
    }
}

/// A member's name as `object` reads it from its header's 16-byte name
/// field (a BSD name `#1/N` is read from the member's data instead): a name
/// opening with `/` up to its first space (`/`, `//`, `/SYM64/`, `/123`),
/// any other up to its first `/`, or else its first space.
fn object_name(field: &[u8]) -> String {
    let end = if field.first() == Some(&b'/') {
        field.iter().position(|&b| b == b' ')
    } else {
        field
            .iter()
            .position(|&b| b == b'/')
            .or_else(|| field.iter().position(|&b| b == b' '))
    };
    String::from_utf8_lossy(&field[..end.unwrap_or(field.len())]).to_string()
}

/// Whether a member named `name`, after the leading special members
/// `before`, is one of them, as `object` reads an archive's opening: GNU's
/// symbol table (`/` or `/SYM64/`) then its long names (`//`); COFF's two
/// linker members (`/`, `/`), then its long names and its EC symbols
/// (`/<ECSYMBOLS>/`); GNU's long names alone; BSD's symbol table
/// (`__.SYMDEF`, `__.SYMDEF_64`, each also `SORTED`).
fn is_special(before: &[String], name: &str) -> bool {
    let before: std::vec::Vec<&str> = before.iter().map(String::as_str).collect();
    matches!(
        (&before[..], name),
        (
            [],
            "/" | "/SYM64/"
                | "//"
                | "__.SYMDEF"
                | "__.SYMDEF SORTED"
                | "__.SYMDEF_64"
                | "__.SYMDEF_64 SORTED"
        ) | (["/"], "/" | "//")
            | (["/SYM64/"], "//")
            | (["/", "/"], "//" | "/<ECSYMBOLS>/")
            | (["/", "/", "//"], "/<ECSYMBOLS>/")
    )
}
