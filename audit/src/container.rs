//! The object format of an artifact, read with the `object` crate: what kind
//! of file it is, the byte order it declares, and whether its headers hold.
//!
//! The scan reads any bytes; this says what the file claims to be. A file
//! that opens with the ELF or wasm magic but whose headers do not parse (a
//! byte-order byte `EI_DATA` other than 1 or 2, a header that reads
//! differently in the order it declares, a header cut off, sections or
//! segments past the end of the file) is a problem: the audit cannot tell
//! the byte order the file declares, and a loader may still run it
//! (`docs/audit.md`, "Bad input"). An ar archive (a static library, an
//! rlib) declares its ELF members' byte order. Every other file, including
//! one of no known format, is scanned as bytes, with no problem of its own.

use std::format;
use std::string::{String, ToString};

use object::{FileKind, Object, ObjectSection, ObjectSegment, ReadRef};

use crate::ByteOrder;

/// What an artifact's headers say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Container {
    /// `ELF`, `wasm`, `ar archive`, or `bytes` (no format the audit reads
    /// headers of).
    pub kind: &'static str,
    /// The byte order the headers declare (ELF; an ar archive's ELF
    /// members), or wasm's (little-endian).
    pub order: Option<ByteOrder>,
    /// Why the headers do not hold, for a file that opens with the ELF or
    /// wasm magic: one line.
    pub problem: Option<String>,
}

impl Container {
    /// The line of an artifact whose headers are malformed.
    fn malformed(kind: &'static str, why: impl Into<String>) -> Container {
        Container {
            kind,
            order: None,
            problem: Some(format!("malformed {kind} file: {}", why.into())),
        }
    }
}

/// An ar archive (a static library, an rlib): its byte order is its ELF
/// members' `EI_DATA`. Members in both orders, or an archive that does not
/// parse, are a problem; an archive without ELF members declares none.
fn archive<'d, R: ReadRef<'d>>(data: R) -> Container {
    const KIND: &str = "ar archive";
    let file = match object::read::archive::ArchiveFile::parse(data) {
        Ok(f) => f,
        Err(e) => return Container::malformed(KIND, e.to_string()),
    };
    let mut order = None;
    for member in file.members() {
        let member = match member {
            Ok(m) => m,
            Err(e) => return Container::malformed(KIND, e.to_string()),
        };
        let bytes = match member.data(data) {
            Ok(b) => b,
            Err(e) => return Container::malformed(KIND, e.to_string()),
        };
        let this = match bytes {
            [0x7F, b'E', b'L', b'F', _, 1, ..] => ByteOrder::Little,
            [0x7F, b'E', b'L', b'F', _, 2, ..] => ByteOrder::Big,
            _ => continue,
        };
        if order.is_some_and(|o| o != this) {
            return Container::malformed(
                KIND,
                format!(
                    "member {} is an ELF file of the other byte order than the members before it",
                    String::from_utf8_lossy(member.name())
                ),
            );
        }
        order = Some(this);
    }
    Container {
        kind: KIND,
        order,
        problem: None,
    }
}

/// Reads the headers of the `len`-byte artifact `data`.
pub fn inspect<'d, R: ReadRef<'d>>(data: R, len: u64) -> Container {
    let head = data.read_bytes_at(0, len.min(64)).unwrap_or(&[]);
    if head.starts_with(b"!<arch>\n") {
        return archive(data);
    }
    let elf = head.starts_with(b"\x7fELF");
    let wasm = head.starts_with(b"\0asm");
    if !elf && !wasm {
        return Container {
            kind: "bytes",
            order: None,
            problem: None,
        };
    }
    let kind = if elf { "ELF" } else { "wasm" };
    if elf {
        if head.len() < 6 {
            return Container::malformed(kind, "the file ends inside the ELF identification");
        }
        let order = match head[5] {
            1 => ByteOrder::Little,
            2 => ByteOrder::Big,
            d => {
                return Container::malformed(
                    kind,
                    format!(
                        "its byte-order byte (EI_DATA) is {d}, neither 1 (little-endian) nor 2 (big-endian)"
                    ),
                )
            }
        };
        // e_ehsize, the header's own size, read in the declared order: a
        // byte-order byte that lies makes it nonsense.
        let (at, want) = match head[4] {
            1 => (40, 52),
            2 => (52, 64),
            c => {
                return Container::malformed(
                    kind,
                    format!("its class byte (EI_CLASS) is {c}, neither 1 nor 2"),
                )
            }
        };
        let Some(b) = head.get(at..at + 2) else {
            return Container::malformed(
                kind,
                format!("the file ends inside the ELF header ({len} bytes)"),
            );
        };
        let ehsize = match order {
            ByteOrder::Big => u16::from_be_bytes([b[0], b[1]]),
            _ => u16::from_le_bytes([b[0], b[1]]),
        };
        if ehsize != want {
            return Container::malformed(
                kind,
                format!(
                    "its header size (e_ehsize) reads {ehsize} in the byte order EI_DATA declares ({}), not {want}",
                    if order == ByteOrder::Big { "big-endian" } else { "little-endian" }
                ),
            );
        }
    }
    if wasm {
        return match object::read::wasm::WasmFile::<R>::parse(data) {
            Ok(_) => Container {
                kind,
                order: Some(ByteOrder::Little),
                problem: None,
            },
            Err(e) => Container::malformed(kind, e.to_string()),
        };
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
    }
}
