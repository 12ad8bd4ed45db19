//! The layout of one manifest record as it lies in a binary: what
//! `actlut::manifest::Table` stores contiguously, and what the audit finds by
//! its structure.
//!
//! A record is [`RECORD_BYTES`] bytes: the marker [`MARK`], the table's name
//! padded with NUL bytes to [`NAME_BYTES`], and the table's SHA-256. All three
//! are bytes, so the record is the same on every target and in either byte
//! order.

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
}
