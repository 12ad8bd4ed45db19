//! The layouts of actlut's records as they lie in a binary, and the one
//! parser of each: what the build writes and what the audit reads.
//!
//! - A **manifest record** ([`RECORD_BYTES`]): what `actlut::manifest::Table`
//!   stores contiguously, the marker [`MARK`], the table's name padded with NUL
//!   bytes to [`NAME_BYTES`], and the table's SHA-256.
//! - A **declaration** ([`DECLARATION_BYTES`]): the header of every embedded
//!   table `static`, immediately followed by the table's stored bytes in the
//!   same `static`. It says what the bytes after it are (name, full or compact,
//!   entry width, stored byte order, length, SHA-256), so the audit verifies
//!   the table at a location that needs no relocation, symbol or segment
//!   resolution: record offset plus [`DECLARATION_BYTES`]. See
//!   [`Declaration`] for the layout.
//!
//! All fields are bytes or little-endian integers, so a record is the same on
//! every target and in either byte order.
//!
//! Declarations come in two versions. Version 1 ([`DECLARATION_BYTES`], 128
//! bytes) holds a name of up to [`NAME_BYTES`] (32) lower-case letters, digits
//! and `_`: every table of the lock (`gelu_bf16`), and what the build writes for
//! them. Version 2 ([`DECLARATION_V2_BYTES`], 192 bytes) holds a name of up to
//! [`LONG_NAME_BYTES`] (128) bytes that may also hold `(`, `)`, `,`, `.`, `=`,
//! `+` and `-`: the names of tables with constants and of derivatives, an op's
//! canonical text then its format (`leaky_relu_derivative(alpha=0.01)_fp8_e4m3fnuz`).
//! Both share every field's offset; version 2 has a longer name field and
//! padding. The parser reads both.

/// The 8 bytes that open a manifest record.
pub const MARK: [u8; 8] = *b"ACTLUTM1";
/// Bytes of a record's name field: the name, then NUL bytes.
pub const NAME_BYTES: usize = 32;
/// Bytes of a whole record: marker, name, SHA-256.
pub const RECORD_BYTES: usize = MARK.len() + NAME_BYTES + 32;

/// The name field of a record for `name`, or `None` when `name` does not fit
/// (longer than [`NAME_BYTES`]) or is empty.
pub const fn name_field(name: &str) -> Option<[u8; NAME_BYTES]> {
    let b = name.as_bytes();
    if b.is_empty() || b.len() > NAME_BYTES {
        return None;
    }
    let mut out = [0u8; NAME_BYTES];
    let mut i = 0;
    while i < b.len() {
        out[i] = b[i];
        i += 1;
    }
    Some(out)
}

/// The name a record's name field holds: lower-case ASCII letters, digits
/// and `_`, then only NUL bytes; `None` for anything else.
pub fn parse_name(field: &[u8]) -> Option<&str> {
    let len = field.iter().position(|&b| b == 0).unwrap_or(field.len());
    let (name, rest) = field.split_at(len);
    let good = |b: &u8| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'_';
    if name.is_empty() || !name.iter().all(good) || rest.iter().any(|&b| b != 0) {
        return None;
    }
    core::str::from_utf8(name).ok()
}

/// [`MARK`] computed at run time (each byte stored plus one): what a program that looks for
/// records compares with, so that its own code and data never hold the
/// marker's 8 bytes (as an immediate or a constant), which an audit of that
/// program would find and read as a record.
pub fn manifest_mark() -> [u8; 8] {
    unhide(*b"BDUMVUN2")
}

/// [`DECLARATION_MARK`] computed at run time, as [`manifest_mark`].
pub fn declaration_mark() -> [u8; 8] {
    unhide(*b"BDUMVUEU")
}

/// Each byte minus one, behind `black_box`: the compiler cannot fold it into
/// the constant it makes.
fn unhide(shifted: [u8; 8]) -> [u8; 8] {
    core::hint::black_box(shifted).map(|b| b.wrapping_sub(1))
}

/// The 8 bytes that open a declaration.
pub const DECLARATION_MARK: [u8; 8] = *b"ACTLUTDT";
/// The declaration layout of a table whose name is a short name
/// ([`parse_name`]): every table of the lock ([`Declaration::version`]).
pub const DECLARATION_VERSION: u8 = 1;
/// The declaration layout of a table whose name needs a long name field
/// ([`parse_long_name`]): tables with constants and derivatives.
pub const DECLARATION_VERSION_2: u8 = 2;
/// Bytes of a version-1 declaration: a multiple of the 64-byte alignment of
/// compact stored forms, so the table after it keeps its alignment.
pub const DECLARATION_BYTES: usize = 128;
/// Bytes of a version-2 declaration (also a multiple of 64).
pub const DECLARATION_V2_BYTES: usize = 192;
/// The most bytes a declaration of any version takes.
pub const MAX_DECLARATION_BYTES: usize = DECLARATION_V2_BYTES;
/// Bytes of a version-2 declaration's name field: the name, then NUL bytes.
pub const LONG_NAME_BYTES: usize = 128;
/// Offset of the SHA-256 in a declaration. It comes before the name, so that
/// no manifest record (marker, name, hash) reads as a declaration whose
/// marker was changed.
pub const DECLARATION_SHA_AT: usize = 16;
/// Offset of the name field in a declaration.
pub const DECLARATION_NAME_AT: usize = DECLARATION_SHA_AT + 32;
/// Offset of the zero padding that ends a version-1 declaration.
pub const DECLARATION_PAD_AT: usize = DECLARATION_NAME_AT + NAME_BYTES;
/// Offset of the zero padding that ends a version-2 declaration.
pub const DECLARATION_V2_PAD_AT: usize = DECLARATION_NAME_AT + LONG_NAME_BYTES;

/// Whether `b` may stand in a long name ([`parse_long_name`]): a lower-case
/// ASCII letter, a digit, or one of `_ ( ) , . = + - /` (`/` for a constant that is no
/// decimal: `hardtanh(min=-1/3,max=1)`).
pub const fn is_long_name_byte(b: u8) -> bool {
    b.is_ascii_lowercase()
        || b.is_ascii_digit()
        || matches!(
            b,
            b'_' | b'(' | b')' | b',' | b'.' | b'=' | b'+' | b'-' | b'/'
        )
}

/// The name a version-2 name field holds: [`is_long_name_byte`] bytes, then
/// only NUL bytes; `None` for anything else (an empty name included).
pub fn parse_long_name(field: &[u8]) -> Option<&str> {
    let len = field.iter().position(|&b| b == 0).unwrap_or(field.len());
    let (name, rest) = field.split_at(len);
    if name.is_empty()
        || !name.iter().all(|&b| is_long_name_byte(b))
        || rest.iter().any(|&b| b != 0)
    {
        return None;
    }
    core::str::from_utf8(name).ok()
}

/// The version-2 name field for `name` ([`LONG_NAME_BYTES`]), or `None` when
/// `name` is empty, too long, or holds a byte a long name may not
/// ([`is_long_name_byte`]).
pub const fn long_name_field(name: &str) -> Option<[u8; LONG_NAME_BYTES]> {
    let b = name.as_bytes();
    if b.is_empty() || b.len() > LONG_NAME_BYTES {
        return None;
    }
    let mut out = [0u8; LONG_NAME_BYTES];
    let mut i = 0;
    while i < b.len() {
        if !is_long_name_byte(b[i]) {
            return None;
        }
        out[i] = b[i];
        i += 1;
    }
    Some(out)
}

/// How a declared table is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Representation {
    /// The full table: one entry per input, `entries × width` bytes.
    Full,
    /// A compact stored form (`tables::compact::<NAME>`): bytes, decoded by
    /// the compact reader.
    Compact,
}

/// The byte order of a declared table's stored 16-bit entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StoredOrder {
    /// Little-endian (and every table of 1-byte entries or bytes).
    Little,
    /// Big-endian: a 16-bit table built for a big-endian target.
    Big,
}

/// One declaration: the header of an embedded table `static`, which the
/// table's stored bytes follow immediately.
///
/// Layout of version 1 ([`DECLARATION_BYTES`] = 128 bytes):
///
/// | offset | bytes | field |
/// |---:|---:|---|
/// | 0 | 8 | marker [`DECLARATION_MARK`], `ACTLUTDT` |
/// | 8 | 1 | version, [`DECLARATION_VERSION`] (1) |
/// | 9 | 1 | representation: 0 full, 1 compact stored form |
/// | 10 | 1 | bytes per entry: 2 (16-bit table), 1 (8-bit, FP6, FP4 table; compact form) |
/// | 11 | 1 | stored byte order: 0 little-endian, 1 big-endian (only with 2 bytes per entry) |
/// | 12 | 4 | length in bytes of the table that follows, little-endian `u32` |
/// | 16 | 32 | SHA-256: of the table's little-endian bytes (full; the lock's hash), or of the stored form (compact; the compact lock's) |
/// | 48 | 32 | name, lower-case ASCII letters, digits and `_`, then NUL bytes ([`name_field`]) |
/// | 80 | 48 | zero |
///
/// Version 2 ([`DECLARATION_V2_BYTES`] = 192 bytes) has the same fields at
/// the same offsets, the version byte 2, a name field of [`LONG_NAME_BYTES`]
/// (128) at offset 48 ([`long_name_field`]: `a-z`, `0-9`, `_ ( ) , . = + - /`,
/// then NUL bytes), and 16 zero bytes at offset 176.
///
/// The table's stored bytes start at the record's offset plus
/// [`record_bytes`](Declaration::record_bytes) (128 or 192); a 16-bit table on
/// a big-endian target is stored big-endian and hashed over its little-endian
/// bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Declaration {
    /// The layout version: [`DECLARATION_VERSION`] (1) or
    /// [`DECLARATION_VERSION_2`] (2).
    pub version: u8,
    /// Full table or compact stored form.
    pub representation: Representation,
    /// Bytes per stored entry: 1 or 2.
    pub width: u8,
    /// Byte order of the stored entries.
    pub order: StoredOrder,
    /// Bytes of the stored table after the record.
    pub len: u32,
    /// The name field, NUL-padded to [`LONG_NAME_BYTES`] ([`name_field`] in
    /// its first [`NAME_BYTES`] for version 1, [`long_name_field`] for
    /// version 2); [`Declaration::name`] reads it.
    pub name_field: [u8; LONG_NAME_BYTES],
    /// The declared SHA-256.
    pub sha256: [u8; 32],
}

/// Why the bytes after a declaration's marker are not a declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeclarationError {
    /// Fewer than [`DECLARATION_BYTES`] bytes.
    Truncated,
    /// The bytes do not open with [`DECLARATION_MARK`].
    Marker,
    /// A version this parser does not know.
    Version(u8),
    /// A representation byte other than 0 or 1.
    Representation(u8),
    /// An entry width other than 1 or 2 (or 2 for a compact form).
    Width(u8),
    /// A byte-order byte other than 0 or 1 (or 1 with 1-byte entries).
    Order(u8),
    /// A length that no table of this width has.
    Length(u32),
    /// A name field that is not a name then NUL bytes ([`parse_name`];
    /// [`parse_long_name`] in version 2).
    Name,
    /// A non-zero byte in the padding, at this offset of the record.
    Padding(usize),
    /// A version that the declared name does not take ([`version_of_name`]):
    /// version 2 for a short name, which a build declares in version 1 with
    /// its table at offset 128, not 192.
    NameVersion(u8),
}

impl core::fmt::Display for DeclarationError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            Self::Truncated => write!(f, "cut off: fewer than {DECLARATION_BYTES} bytes"),
            Self::Marker => write!(f, "no declaration marker"),
            Self::Version(v) => write!(f, "unknown version {v}"),
            Self::Representation(r) => write!(f, "unknown representation {r}"),
            Self::Width(w) => write!(f, "impossible entry width {w}"),
            Self::Order(o) => write!(f, "impossible byte-order byte {o}"),
            Self::Length(l) => write!(f, "impossible length {l}"),
            Self::Name => write!(f, "malformed name field"),
            Self::Padding(at) => write!(f, "non-zero padding byte at record offset {at}"),
            Self::NameVersion(v) => write!(
                f,
                "version {v} for a name that takes version {}: a build puts its table at \
                 record offset {}, not {}",
                3 - v,
                record_bytes_of(3 - v),
                record_bytes_of(v)
            ),
        }
    }
}

impl Declaration {
    /// The declaration of a table `name` stored as `len` bytes: version 1
    /// when `name` is a short name ([`name_field`]: every table of the lock),
    /// else version 2 ([`long_name_field`]).
    ///
    /// # Panics
    ///
    /// If `name` fits neither name field.
    pub fn new(
        name: &str,
        representation: Representation,
        width: u8,
        order: StoredOrder,
        len: u32,
        sha256: [u8; 32],
    ) -> Declaration {
        let (version, name_field) = match (version_of_name(name), name_field(name)) {
            (Some(DECLARATION_VERSION), Some(short)) => {
                let mut f = [0u8; LONG_NAME_BYTES];
                f[..NAME_BYTES].copy_from_slice(&short);
                (DECLARATION_VERSION, f)
            }
            (Some(_), _) => (
                DECLARATION_VERSION_2,
                long_name_field(name).expect("a version-2 name fits the long name field"),
            ),
            (None, _) => panic!("a table name fits a name field: {name:?} does not"),
        };
        Declaration {
            version,
            representation,
            width,
            order,
            len,
            name_field,
            sha256,
        }
    }

    /// Bytes of this declaration's record, which its table follows:
    /// [`DECLARATION_BYTES`] (version 1) or [`DECLARATION_V2_BYTES`].
    pub const fn record_bytes(&self) -> usize {
        record_bytes_of(self.version)
    }

    /// The record's bytes, [`record_bytes`](Self::record_bytes) of them
    /// (the rest zero).
    pub fn encode(&self) -> [u8; MAX_DECLARATION_BYTES] {
        let mut b = [0u8; MAX_DECLARATION_BYTES];
        self.write_fields(&mut b);
        b
    }

    /// The record's [`DECLARATION_BYTES`] bytes (version 1).
    ///
    /// # Panics
    ///
    /// If this is a version-2 declaration ([`encode`](Self::encode) writes
    /// both).
    pub fn to_bytes(&self) -> [u8; DECLARATION_BYTES] {
        assert_eq!(
            self.version, DECLARATION_VERSION,
            "a version-2 declaration has 192 bytes: use `encode`"
        );
        let mut b = [0u8; DECLARATION_BYTES];
        self.write_fields(&mut b);
        b
    }

    /// The record's [`DECLARATION_V2_BYTES`] bytes (version 2).
    ///
    /// # Panics
    ///
    /// If this is a version-1 declaration.
    pub fn to_bytes_v2(&self) -> [u8; DECLARATION_V2_BYTES] {
        assert_eq!(
            self.version, DECLARATION_VERSION_2,
            "a version-1 declaration has 128 bytes: use `to_bytes`"
        );
        self.encode()
    }

    /// Writes the fields into `b` (at least [`record_bytes`](Self::record_bytes) long).
    fn write_fields(&self, b: &mut [u8]) {
        b[..8].copy_from_slice(&declaration_mark());
        b[8] = self.version;
        b[9] = match self.representation {
            Representation::Full => 0,
            Representation::Compact => 1,
        };
        b[10] = self.width;
        b[11] = match self.order {
            StoredOrder::Little => 0,
            StoredOrder::Big => 1,
        };
        b[12..16].copy_from_slice(&self.len.to_le_bytes());
        b[DECLARATION_SHA_AT..DECLARATION_SHA_AT + 32].copy_from_slice(&self.sha256);
        let name = name_bytes_of(self.version);
        b[DECLARATION_NAME_AT..DECLARATION_NAME_AT + name]
            .copy_from_slice(&self.name_field[..name]);
    }

    /// Parses a record (the first [`DECLARATION_BYTES`] of `bytes`, or
    /// [`DECLARATION_V2_BYTES`] for version 2), marker included. Every field is checked: a record that does not parse is
    /// never half-read.
    ///
    /// # Errors
    ///
    /// The first field that is wrong, in the order of the layout.
    pub fn parse(bytes: &[u8]) -> Result<Declaration, DeclarationError> {
        let mark = bytes.get(..8).ok_or(DeclarationError::Truncated)?;
        if mark != declaration_mark() {
            return Err(DeclarationError::Marker);
        }
        Self::parse_fields(bytes)
    }

    /// Parses everything after the marker (the first 8 bytes are not read):
    /// for a record found by its other fields.
    ///
    /// # Errors
    ///
    /// As [`Declaration::parse`], but never [`DeclarationError::Marker`].
    pub fn parse_fields(bytes: &[u8]) -> Result<Declaration, DeclarationError> {
        let head = bytes.get(..9).ok_or(DeclarationError::Truncated)?;
        if head[8] != DECLARATION_VERSION && head[8] != DECLARATION_VERSION_2 {
            return Err(DeclarationError::Version(head[8]));
        }
        let version = head[8];
        let b = bytes
            .get(..record_bytes_of(version))
            .ok_or(DeclarationError::Truncated)?;
        let representation = match b[9] {
            0 => Representation::Full,
            1 => Representation::Compact,
            r => return Err(DeclarationError::Representation(r)),
        };
        let width = b[10];
        match (representation, width) {
            (Representation::Full, 1 | 2) | (Representation::Compact, 1) => {}
            _ => return Err(DeclarationError::Width(width)),
        }
        let order = match (b[11], width) {
            (0, _) => StoredOrder::Little,
            (1, 2) => StoredOrder::Big,
            (o, _) => return Err(DeclarationError::Order(o)),
        };
        let len = u32::from_le_bytes([b[12], b[13], b[14], b[15]]);
        let possible = match (representation, width) {
            (Representation::Full, 2) => len == 1 << 17,
            (Representation::Full, _) => matches!(len, 16 | 64 | 256),
            // A compact form is smaller than its full table.
            (Representation::Compact, _) => len > 0 && len < 1 << 17,
        };
        if !possible {
            return Err(DeclarationError::Length(len));
        }
        let name = name_bytes_of(version);
        let field = &b[DECLARATION_NAME_AT..DECLARATION_NAME_AT + name];
        let parsed = if version == DECLARATION_VERSION {
            parse_name(field)
        } else {
            parse_long_name(field)
        };
        let Some(parsed) = parsed else {
            return Err(DeclarationError::Name);
        };
        // One layout per name: a short name in version 2 would move its
        // table 64 bytes past where the program's code reads it.
        if version_of_name(parsed) != Some(version) {
            return Err(DeclarationError::NameVersion(version));
        }
        let mut name_field = [0u8; LONG_NAME_BYTES];
        name_field[..name].copy_from_slice(field);
        let pad = DECLARATION_NAME_AT + name;
        if let Some(at) = b[pad..].iter().position(|&x| x != 0) {
            return Err(DeclarationError::Padding(pad + at));
        }
        Ok(Declaration {
            version,
            representation,
            width,
            order,
            len,
            name_field,
            sha256: b[DECLARATION_SHA_AT..DECLARATION_SHA_AT + 32]
                .try_into()
                .expect("32 bytes"),
        })
    }

    /// The declared table's name.
    pub fn name(&self) -> &str {
        let field = &self.name_field[..name_bytes_of(self.version)];
        let name = if self.version == DECLARATION_VERSION {
            parse_name(field)
        } else {
            parse_long_name(field)
        };
        name.expect("a parsed declaration has a well-formed name")
    }
}

/// The version a declaration of the table `name` has: [`DECLARATION_VERSION`]
/// (1) for a short name ([`name_field`] and [`parse_name`]: at most
/// [`NAME_BYTES`] lower-case letters, digits and `_`), else
/// [`DECLARATION_VERSION_2`] for a long name ([`long_name_field`]); `None`
/// for a name that fits neither. Each name has one layout, so where its
/// table lies after the record ([`record_bytes_of`]) follows from its name:
/// [`Declaration::parse`] refuses any other version.
pub fn version_of_name(name: &str) -> Option<u8> {
    if name_field(name).is_some_and(|f| parse_name(&f).is_some()) {
        Some(DECLARATION_VERSION)
    } else if long_name_field(name).is_some() {
        Some(DECLARATION_VERSION_2)
    } else {
        None
    }
}

/// Bytes of a declaration record of `version` (1 or 2; any other is read as
/// 1, the shorter, to say what is wrong with it).
pub const fn record_bytes_of(version: u8) -> usize {
    if version == DECLARATION_VERSION_2 {
        DECLARATION_V2_BYTES
    } else {
        DECLARATION_BYTES
    }
}

/// Bytes of the name field of a declaration of `version`.
pub const fn name_bytes_of(version: u8) -> usize {
    if version == DECLARATION_VERSION_2 {
        LONG_NAME_BYTES
    } else {
        NAME_BYTES
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_field_parses_back_to_its_name_and_nothing_else_parses() {
        for (function, format) in crate::table_pairs() {
            let name = std::format!("{}_{}", function.name(), format.name());
            let field = name_field(&name).expect("every table name fits");
            assert_eq!(parse_name(&field), Some(name.as_str()));
        }
        assert_eq!(name_field(""), None);
        assert_eq!(name_field(&"x".repeat(NAME_BYTES + 1)), None);
        assert_eq!(parse_name(&[0; NAME_BYTES]), None);
        let mut f = name_field("gelu_f16").unwrap();
        f[20] = 1;
        assert_eq!(parse_name(&f), None, "a byte after the NULs");
        let mut f = name_field("gelu_f16").unwrap();
        f[0] = b'G';
        assert_eq!(parse_name(&f), None, "upper case");
    }

    #[test]
    fn a_declaration_parses_back_and_every_field_is_checked() {
        let d = Declaration::new(
            "gelu_f16",
            Representation::Full,
            2,
            StoredOrder::Big,
            1 << 17,
            [7; 32],
        );
        let b = d.to_bytes();
        assert_eq!(Declaration::parse(&b), Ok(d));
        assert_eq!(d.name(), "gelu_f16");
        assert_eq!(
            Declaration::parse(&b[..127]),
            Err(DeclarationError::Truncated)
        );
        let with = |i: usize, v: u8| {
            let mut c = b;
            c[i] = v;
            Declaration::parse(&c)
        };
        assert_eq!(with(0, b'a'), Err(DeclarationError::Marker));
        assert_eq!(with(8, 3), Err(DeclarationError::Version(3)));
        // Version 2 is longer: 128 bytes are a cut-off version-2 record.
        assert_eq!(with(8, 2), Err(DeclarationError::Truncated));
        assert_eq!(with(9, 2), Err(DeclarationError::Representation(2)));
        assert_eq!(with(10, 3), Err(DeclarationError::Width(3)));
        assert_eq!(with(11, 2), Err(DeclarationError::Order(2)));
        assert_eq!(with(12, 1), Err(DeclarationError::Length((1 << 17) + 1)));
        assert_eq!(with(48, b'G'), Err(DeclarationError::Name));
        assert_eq!(with(70, 1), Err(DeclarationError::Name));
        for i in DECLARATION_PAD_AT..DECLARATION_BYTES {
            assert_eq!(with(i, 1), Err(DeclarationError::Padding(i)));
        }
        // A change of the hash parses: the audit holds it to the lock.
        assert!(with(20, 0).is_ok_and(|e| e.sha256 != d.sha256));
        // 1-byte entries have no byte order; a compact form is bytes.
        let small = Declaration::new(
            "gelu_fp4_e2m1",
            Representation::Full,
            1,
            StoredOrder::Little,
            16,
            [0; 32],
        );
        let mut c = small.to_bytes();
        c[11] = 1;
        assert_eq!(Declaration::parse(&c), Err(DeclarationError::Order(1)));
        let mut c = small.to_bytes();
        c[12] = 17;
        assert_eq!(Declaration::parse(&c), Err(DeclarationError::Length(17)));
        let mut c = small.to_bytes();
        c[9] = 1;
        c[12..16].copy_from_slice(&(1u32 << 17).to_le_bytes());
        assert_eq!(
            Declaration::parse(&c),
            Err(DeclarationError::Length(1 << 17))
        );
    }

    /// Names of tables with constants and of derivatives (issues 40 and 41)
    /// take a version-2 record; today's names keep version 1, byte for byte.
    #[test]
    fn a_long_name_takes_a_version_2_declaration_that_parses_back() {
        let long = "leaky_relu_derivative(alpha=0.01)_fp8_e4m3fnuz";
        let d = Declaration::new(
            long,
            Representation::Full,
            1,
            StoredOrder::Little,
            256,
            [3; 32],
        );
        assert_eq!(d.version, DECLARATION_VERSION_2);
        assert_eq!(d.record_bytes(), DECLARATION_V2_BYTES);
        let b = d.to_bytes_v2();
        assert_eq!(Declaration::parse(&b), Ok(d));
        assert_eq!(Declaration::parse(&b).unwrap().name(), long);
        assert_eq!(
            Declaration::parse(&b[..191]),
            Err(DeclarationError::Truncated)
        );
        // Every accepted byte, and 128 of them.
        for name in [
            "softcap(cap=30)_bf16",
            "elu(alpha=-0.5e+2,x=1)_f16",
            &"a".repeat(LONG_NAME_BYTES),
        ] {
            let d = Declaration::new(
                name,
                Representation::Full,
                2,
                StoredOrder::Little,
                1 << 17,
                [0; 32],
            );
            assert_eq!(
                Declaration::parse(&d.encode()).map(|d| d.name() == name),
                Ok(true),
                "{name}"
            );
        }
        let with = |i: usize, v: u8| {
            let mut c = b;
            c[i] = v;
            Declaration::parse(&c)
        };
        assert_eq!(with(60, b'A'), Err(DeclarationError::Name));
        assert_eq!(with(60, b' '), Err(DeclarationError::Name));
        assert_eq!(
            with(DECLARATION_NAME_AT + 100, b'x'),
            Err(DeclarationError::Name),
            "a byte after the NULs"
        );
        for i in DECLARATION_V2_PAD_AT..DECLARATION_V2_BYTES {
            assert_eq!(with(i, 1), Err(DeclarationError::Padding(i)));
        }
        // Too long, or a byte no name holds: no declaration.
        assert_eq!(long_name_field(&"a".repeat(LONG_NAME_BYTES + 1)), None);
        assert_eq!(long_name_field("gelu bf16"), None);
        assert_eq!(long_name_field(""), None);
        // Today's names keep version 1, with the bytes they always had.
        let short = Declaration::new(
            "gelu_bf16",
            Representation::Full,
            2,
            StoredOrder::Little,
            1 << 17,
            [9; 32],
        );
        assert_eq!(short.version, DECLARATION_VERSION);
        assert_eq!(short.encode()[..DECLARATION_BYTES], short.to_bytes());
        assert!(short.encode()[DECLARATION_BYTES..].iter().all(|&x| x == 0));
        // A version-1 record with a long name's bytes does not parse.
        let mut v1 = short.to_bytes();
        v1[DECLARATION_NAME_AT + 4] = b'(';
        assert_eq!(Declaration::parse(&v1), Err(DeclarationError::Name));
        // Nor does a short name's record rewritten as version 2 (its byte
        // 8 set to 2, 64 zero bytes more): its table would lie at 192, not
        // where the program reads it. A long name of short-name bytes
        // (more than 32 of them) takes version 2.
        let mut v2 = short.encode();
        v2[8] = DECLARATION_VERSION_2;
        assert_eq!(
            Declaration::parse(&v2),
            Err(DeclarationError::NameVersion(2))
        );
        let long_plain = "a".repeat(NAME_BYTES + 1);
        assert_eq!(version_of_name(&long_plain), Some(DECLARATION_VERSION_2));
        assert_eq!(version_of_name("gelu_bf16"), Some(DECLARATION_VERSION));
        assert_eq!(version_of_name(&"a".repeat(NAME_BYTES)), Some(1));
        assert_eq!(version_of_name("gelu bf16"), None);
        assert_eq!(version_of_name(""), None);
    }

    #[test]
    fn the_marks_computed_at_run_time_are_the_marks() {
        assert_eq!(manifest_mark(), MARK);
        assert_eq!(declaration_mark(), DECLARATION_MARK);
    }
}
