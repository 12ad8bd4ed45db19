//! The headers of a file over [`super::IN_MEMORY_BYTES`], read in pieces of
//! at most [`PIECE`] bytes, so that memory does not grow with the file; and
//! the sections of a wasm module or component, of any size.

use std::format;
use std::io::{Read, Seek, SeekFrom};
use std::string::{String, ToString};
use std::vec;

use super::{elf_header, Container, MAX_NESTING, MAX_PARTS_READ};
use crate::reference::ByteOrder;

/// The most bytes read at once.
pub(crate) const PIECE: usize = 1 << 20;

/// A view of `len` bytes at `base` of a file.
#[derive(Clone, Copy)]
struct View<'f> {
    file: &'f std::fs::File,
    base: u64,
    len: u64,
    /// What the reads cost so far ([`Container::cost`]).
    cost: &'f core::cell::Cell<u64>,
    /// The bytes of the parts (slices, members) read so far, each as a file
    /// of its own, and the most they may be ([`MAX_PARTS_READ`] times the
    /// file's bytes, as [`super::inspect`] allows).
    parts: &'f core::cell::Cell<u64>,
    limit: u64,
}

impl<'f> View<'f> {
    /// The part of `len` bytes at `at`, to be read as a file of its own, or
    /// `None` once the parts read reach the limit (overlapping slices or
    /// members would read the same bytes again and again).
    fn part(&self, at: u64, len: u64) -> Option<View<'f>> {
        let total = self.parts.get().saturating_add(len);
        self.parts.set(total);
        (total <= self.limit).then_some(View {
            base: self.base + at,
            len,
            ..*self
        })
    }

    /// The `n` bytes at `at` (fewer at the end of the view).
    fn read(&self, at: u64, n: usize) -> std::io::Result<std::vec::Vec<u8>> {
        let n = (n as u64).min(self.len.saturating_sub(at)) as usize;
        self.cost.set(self.cost.get() + 64 + n as u64 / 8);
        let mut out = vec![0; n];
        let mut f = self.file;
        f.seek(SeekFrom::Start(self.base + at))?;
        f.read_exact(&mut out)?;
        Ok(out)
    }
}

/// Reads the headers of the `len`-byte `file` (see [`super::inspect_file`]).
pub(crate) fn inspect(file: &std::fs::File, len: u64, depth: usize) -> std::io::Result<Container> {
    let (cost, parts) = (core::cell::Cell::new(0), core::cell::Cell::new(0));
    let mut c = view(
        View {
            file,
            base: 0,
            len,
            cost: &cost,
            parts: &parts,
            limit: MAX_PARTS_READ.saturating_mul(len),
        },
        depth,
    )?;
    c.cost = cost.get();
    Ok(c)
}

fn view(v: View<'_>, depth: usize) -> std::io::Result<Container> {
    let head = v.read(0, 64)?;
    if head.starts_with(b"!<arch>\n") {
        return archive(v, depth);
    }
    if head.starts_with(b"<bigaf>\n") {
        return Ok(Container::malformed(
            "ar archive",
            format!(
                "an AIX big archive over {} bytes is not read",
                super::IN_MEMORY_BYTES
            ),
        ));
    }
    if head.starts_with(b"\x7fELF") {
        return elf(v, &head);
    }
    if head.starts_with(b"\0asm") {
        let mut f = v.file;
        f.seek(SeekFrom::Start(v.base))?;
        return Ok(wasm(&mut std::io::BufReader::new(f.take(v.len)), v.len));
    }
    by_magic(v, &head, depth)
}

/// A Mach-O, PE, COFF or XCOFF file over [`super::IN_MEMORY_BYTES`], known
/// by its first bytes as [`super::inspect`] knows it (`object`'s
/// `FileKind`): the byte order its magic states (Mach-O), or its format's
/// (PE and COFF little-endian, XCOFF big-endian); a universal Mach-O file
/// by its slices ([`universal`]); anything else is bytes.
fn by_magic(v: View<'_>, head: &[u8], depth: usize) -> std::io::Result<Container> {
    // A PE image: the MS-DOS magic and the PE signature where its
    // `e_lfanew` points (an MS-DOS program without it is bytes).
    if head.len() >= 64 && head.starts_with(b"MZ") {
        let at = u32::from_le_bytes([head[0x3C], head[0x3D], head[0x3E], head[0x3F]]);
        if v.read(u64::from(at), 4)? == b"PE\0\0" {
            return Ok(Container::ordered("PE", true));
        }
        return Ok(Container::bytes());
    }
    Ok(match object::FileKind::parse(head) {
        Ok(object::FileKind::MachO32 | object::FileKind::MachO64) => {
            Container::ordered("Mach-O", head[0] != 0xFE)
        }
        Ok(object::FileKind::MachOFat32) => universal(v, 20, depth)?,
        Ok(object::FileKind::MachOFat64) => universal(v, 32, depth)?,
        Ok(object::FileKind::Coff | object::FileKind::CoffBig | object::FileKind::CoffImport) => {
            Container::ordered("COFF", true)
        }
        Ok(object::FileKind::Xcoff32 | object::FileKind::Xcoff64) => {
            Container::ordered("XCOFF", false)
        }
        _ => Container::bytes(),
    })
}

/// A universal (fat) Mach-O file over [`super::IN_MEMORY_BYTES`], its
/// architecture entries `entry` bytes each (20, or 32 for the 64-bit
/// form): as [`super::inspect`] reads one, its byte order is its slices'
/// (each a Mach-O file or an archive, read by its first bytes), and one
/// none of whose slices is either is bytes (a Java class file opens with
/// the same magic).
fn universal(v: View<'_>, entry: u64, depth: usize) -> std::io::Result<Container> {
    const KIND: &str = "universal Mach-O";
    let head = v.read(0, 8)?;
    let Some(count) = head
        .get(4..8)
        .map(|c| u64::from(u32::from_be_bytes([c[0], c[1], c[2], c[3]])))
    else {
        return Ok(Container::bytes());
    };
    // As `object` refuses it: a table past the end of the file.
    if 8 + count * entry > v.len {
        return Ok(Container::bytes());
    }
    // Each slice's offset and size, from the table read in pieces, and
    // whether it lies in the file; read twice, so memory stays a piece.
    let slices =
        |each: &mut dyn FnMut(u64, u64, u64) -> std::io::Result<bool>| -> std::io::Result<bool> {
            let per_piece = PIECE as u64 / entry;
            let mut i = 0;
            while i < count {
                let n = per_piece.min(count - i);
                let table = v.read(8 + i * entry, (n * entry) as usize)?;
                for e in table.chunks_exact(entry as usize) {
                    let field = |b: &[u8]| b.iter().fold(0u64, |n, &x| n << 8 | u64::from(x));
                    let (offset, size) = if entry == 20 {
                        (field(&e[8..12]), field(&e[12..16]))
                    } else {
                        (field(&e[8..16]), field(&e[16..24]))
                    };
                    if !each(i, offset, size)? {
                        return Ok(false);
                    }
                    i += 1;
                }
            }
            Ok(true)
        };
    let inside = |offset: u64, size: u64| offset.checked_add(size).is_some_and(|end| end <= v.len);
    // A slice that is a Mach-O file or an archive, by its first bytes.
    let is_object = |offset: u64, size: u64| -> std::io::Result<bool> {
        if !inside(offset, size) {
            return Ok(false);
        }
        let first = View {
            base: v.base + offset,
            len: size,
            ..v
        }
        .read(0, 64)?;
        Ok(first.starts_with(b"!<arch>\n")
            || matches!(
                object::FileKind::parse(&first[..]),
                Ok(object::FileKind::MachO32 | object::FileKind::MachO64)
            ))
    };
    // One none of whose slices is an object is bytes (a Java class file).
    let none = slices(&mut |_, offset, size| Ok(!is_object(offset, size)?))?;
    if none {
        return Ok(Container::bytes());
    }
    if depth > MAX_NESTING {
        return Ok(Container::malformed(
            KIND,
            format!("it is nested more than {MAX_NESTING} deep in other containers"),
        ));
    }
    let mut order: Option<ByteOrder> = None;
    let mut problem = None;
    slices(&mut |i, offset, size| {
        let why = if !inside(offset, size) {
            format!("slice {i} runs past the end of the file")
        } else if !is_object(offset, size)? {
            format!("slice {i} is neither a Mach-O file nor an archive")
        } else if let Some(slice) = v.part(offset, size) {
            let part = view(slice, depth + 1)?;
            match (part.problem, part.order) {
                (Some(p), _) => format!("slice {i}: {p}"),
                (None, Some(this)) if order.is_some_and(|o| o != this) => format!(
                    "slice {i} is a {} {} file, and the slices before it are the other order",
                    super::order_name(this),
                    part.kind
                ),
                (None, this) => {
                    order = this.or(order);
                    return Ok(true);
                }
            }
        } else {
            format!(
                "its slices overlap: reading their headers reads more than {MAX_PARTS_READ} times the file's {} bytes",
                v.limit / MAX_PARTS_READ
            )
        };
        problem = Some(why);
        Ok(false)
    })?;
    Ok(match problem {
        Some(why) => Container::malformed(KIND, why),
        None => Container {
            kind: KIND,
            order,
            problem: None,
            cost: 0,
        },
    })
}

/// Reads a `u64` or `u32` (by `wide`) at `at` of `b` in `order`.
fn word(b: &[u8], at: usize, wide: bool, order: ByteOrder) -> u64 {
    let n = if wide { 8 } else { 4 };
    let mut w = [0u8; 8];
    w[..n].copy_from_slice(&b[at..at + n]);
    if order == ByteOrder::Big {
        w[..n].reverse();
    }
    u64::from_le_bytes(w)
}

fn half(b: &[u8], at: usize, order: ByteOrder) -> u64 {
    let h = [b[at], b[at + 1]];
    u64::from(match order {
        ByteOrder::Big => u16::from_be_bytes(h),
        _ => u16::from_le_bytes(h),
    })
}

/// An ELF file: its header checks ([`elf_header`]), then every program and
/// section header read in pieces: each segment's and section's file part,
/// and both tables, must lie in the file.
fn elf(v: View<'_>, head: &[u8]) -> std::io::Result<Container> {
    const KIND: &str = "ELF";
    let order = match elf_header(head, v.len) {
        Ok(o) => o,
        Err(c) => return Ok(c),
    };
    let wide = head[4] == 2;
    let (phoff, shoff) = if wide {
        (word(head, 32, true, order), word(head, 40, true, order))
    } else {
        (word(head, 28, false, order), word(head, 32, false, order))
    };
    let base = if wide { 54 } else { 42 };
    let (phentsize, phnum) = (half(head, base, order), half(head, base + 2, order));
    let (shentsize, mut shnum) = (half(head, base + 4, order), half(head, base + 6, order));
    let (want_ph, want_sh) = if wide { (56, 64) } else { (32, 40) };
    let past = |what: &str, off: u64, size: u64| {
        Container::malformed(
            KIND,
            format!(
                "{what} ({size} bytes at {off:#x}) runs past the end of the file ({} bytes): the file is cut off",
                v.len
            ),
        )
    };
    // Program headers.
    if phnum > 0 {
        if phentsize != want_ph {
            return Ok(Container::malformed(
                KIND,
                format!("its program header size is {phentsize}, not {want_ph}"),
            ));
        }
        let size = phnum * phentsize;
        if phoff.checked_add(size).is_none_or(|e| e > v.len) {
            return Ok(past("the program header table", phoff, size));
        }
        let table = v.read(phoff, size as usize)?;
        for p in table.chunks_exact(phentsize as usize) {
            let (off, filesz) = if wide {
                (word(p, 8, true, order), word(p, 32, true, order))
            } else {
                (word(p, 4, false, order), word(p, 16, false, order))
            };
            if off.checked_add(filesz).is_none_or(|e| e > v.len) {
                return Ok(past("a segment", off, filesz));
            }
        }
    }
    // Section headers, read a piece at a time (an extended count is in
    // section 0's size).
    if shoff > 0 {
        if shentsize != want_sh {
            return Ok(Container::malformed(
                KIND,
                format!("its section header size is {shentsize}, not {want_sh}"),
            ));
        }
        if shoff.checked_add(shentsize).is_none_or(|e| e > v.len) {
            return Ok(past("the section header table", shoff, shentsize));
        }
        if shnum == 0 {
            let first = v.read(shoff, shentsize as usize)?;
            shnum = if wide {
                word(&first, 32, true, order)
            } else {
                word(&first, 20, false, order)
            };
        }
        let size = shnum.saturating_mul(shentsize);
        if shoff.checked_add(size).is_none_or(|e| e > v.len) {
            return Ok(past("the section header table", shoff, size));
        }
        let per_piece = (PIECE as u64 / shentsize).max(1);
        let mut i = 0;
        while i < shnum {
            let n = per_piece.min(shnum - i);
            let piece = v.read(shoff + i * shentsize, (n * shentsize) as usize)?;
            for (k, s) in piece.chunks_exact(shentsize as usize).enumerate() {
                let kind = word(s, 4, false, order) as u32;
                let (off, size) = if wide {
                    (word(s, 24, true, order), word(s, 32, true, order))
                } else {
                    (word(s, 16, false, order), word(s, 20, false, order))
                };
                // SHT_NULL and SHT_NOBITS have no bytes in the file.
                if kind != 0 && kind != 8 && off.checked_add(size).is_none_or(|e| e > v.len) {
                    return Ok(past(&format!("section {}", i + k as u64), off, size));
                }
            }
            i += n;
        }
    }
    Ok(Container {
        kind: KIND,
        order: Some(order),
        problem: None,
        cost: 0,
    })
}

/// A wasm module (version 1) or component (layer 1, what `wasm32-wasip2`
/// builds), `len` bytes from `r`'s position: little-endian, once its
/// header holds and every section ends within the file. Sections are
/// skipped, not parsed (an engine validates them; the audit reads bytes).
pub(crate) fn wasm<R: Read + Seek>(r: &mut R, len: u64) -> Container {
    const KIND: &str = "wasm";
    let mut head = [0u8; 8];
    if len < 8 || r.read_exact(&mut head).is_err() {
        return Container::malformed(
            KIND,
            format!("the file ends inside the wasm header ({len} bytes)"),
        );
    }
    let version = u16::from_le_bytes([head[4], head[5]]);
    let layer = u16::from_le_bytes([head[6], head[7]]);
    let kind = match (version, layer) {
        (1, 0) => "wasm",
        (_, 1) => "wasm component",
        _ => {
            return Container::malformed(
                KIND,
                format!("its version is {version} and its layer {layer}: neither a module (1, 0) nor a component (layer 1)"),
            )
        }
    };
    let mut at = 8u64;
    let mut n = 0u64;
    while at < len {
        let mut id = [0u8; 1];
        if r.read_exact(&mut id).is_err() {
            break;
        }
        let mut size = 0u64;
        let mut shift = 0;
        let mut leb = 0u64;
        loop {
            let mut b = [0u8; 1];
            if shift > 28 || r.read_exact(&mut b).is_err() {
                return Container::malformed(
                    KIND,
                    format!("section {n} at {at:#x}: its size is not a LEB128 u32 within the file"),
                );
            }
            leb += 1;
            size |= u64::from(b[0] & 0x7F) << shift;
            shift += 7;
            if b[0] & 0x80 == 0 {
                break;
            }
        }
        let data = at + 1 + leb;
        if data + size > len {
            return Container::malformed(
                KIND,
                format!("section {n} ({size} bytes at {data:#x}) runs past the end of the file ({len} bytes)"),
            );
        }
        if r.seek(SeekFrom::Current(size as i64)).is_err() {
            return Container::malformed(KIND, String::from("the file cannot be read"));
        }
        at = data + size;
        n += 1;
    }
    let _ = n;
    Container {
        kind,
        order: Some(ByteOrder::Little),
        problem: None,
        cost: 0,
    }
}

/// An ar archive over [`super::IN_MEMORY_BYTES`]: every member header must
/// parse and its member lie in the file; each member's byte order is read
/// from its first bytes (an ELF header, checked as [`elf_header`] does; a
/// Mach-O or COFF magic; a wasm module; an archive nested in it, up to
/// [`MAX_NESTING`] deep), and members of both orders are a problem. Its
/// symbol table is not read.
fn archive(v: View<'_>, depth: usize) -> std::io::Result<Container> {
    const KIND: &str = "ar archive";
    if depth > MAX_NESTING {
        return Ok(Container::malformed(
            KIND,
            format!("it is nested more than {MAX_NESTING} deep in other containers"),
        ));
    }
    let mut order: Option<ByteOrder> = None;
    let mut at = 8u64;
    let mut f = v.file;
    let mut leading: Option<std::vec::Vec<String>> = Some(std::vec::Vec::new());
    while at < v.len {
        if at % 2 == 1 {
            at += 1;
            if at >= v.len {
                break;
            }
        }
        if at + 60 > v.len {
            return Ok(Container::malformed(
                KIND,
                format!("a member header at {at:#x} is cut off by the end of the file"),
            ));
        }
        // A member's own bytes are read through `v` (its first bytes, at
        // their offset), which moves the file's position: each header is
        // read at its absolute offset, never relative to the last read (no
        // buffer whose idea of the position could go stale).
        f.seek(SeekFrom::Start(v.base + at))?;
        let mut h = [0u8; 60];
        f.read_exact(&mut h)?;
        v.cost.set(v.cost.get() + 64 + 8);
        if &h[58..60] != b"`\n" {
            return Ok(Container::malformed(
                KIND,
                format!("the member header at {at:#x} does not parse"),
            ));
        }
        let field = |a: usize, b: usize| String::from_utf8_lossy(&h[a..b]).trim_end().to_string();
        let Ok(size) = field(48, 58).parse::<u64>() else {
            return Ok(Container::malformed(
                KIND,
                format!("the member header at {at:#x} has no size"),
            ));
        };
        let name = field(0, 16);
        let data = at + 60;
        if data.checked_add(size).is_none_or(|e| e > v.len) {
            return Ok(Container::malformed(
                KIND,
                format!("member {name} ({size} bytes at {data:#x}) runs past the end of the file"),
            ));
        }
        // A BSD name (`#1/N`) lies at the start of the member's data.
        let skip = if h.starts_with(b"#1/") && h[3].is_ascii_digit() {
            name[3..].parse::<u64>().unwrap_or(0).min(size)
        } else {
            0
        };
        let own = if skip > 0 {
            let n = v.read(data, skip as usize)?;
            String::from_utf8_lossy(&n)
                .trim_end_matches('\0')
                .to_string()
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
            (Some(before), true) => before.push(own),
            _ => leading = None,
        }
        if !special {
            let Some(member) = v.part(data + skip, size - skip) else {
                return Ok(Container::malformed(
                    KIND,
                    format!(
                        "its members overlap: reading their headers reads more than {MAX_PARTS_READ} times the file's {} bytes",
                        v.limit / MAX_PARTS_READ
                    ),
                ));
            };
            let head = member.read(0, 64)?;
            // Read as a file of its own, as `super::inspect` reads a member
            // (an ELF member by its header alone).
            let part = if head.starts_with(b"\x7fELF") {
                match elf_header(&head, member.len) {
                    Ok(o) => Container {
                        kind: "ELF",
                        order: Some(o),
                        problem: None,
                        cost: 0,
                    },
                    Err(c) => c,
                }
            } else if head.starts_with(b"\0asm") {
                Container::ordered("wasm", true)
            } else {
                view(member, depth + 1)?
            };
            if let Some(p) = part.problem {
                return Ok(Container::malformed(KIND, format!("member {name}: {p}")));
            }
            if let Some(this) = part.order {
                if order.is_some_and(|o| o != this) {
                    return Ok(Container::malformed(
                        KIND,
                        format!("member {name} is a {} {} file, and the members before it are the other order", super::order_name(this), part.kind),
                    ));
                }
                order = Some(this);
            }
        }
        at = data + size;
    }
    Ok(Container {
        kind: KIND,
        order,
        problem: None,
        cost: 0,
    })
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
