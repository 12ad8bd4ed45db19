//! The manifest of the tables compiled into this build: name, function, format
//! and SHA-256 of every enabled table, for proving what a binary ships.
//!
//! The manifest holds no reference to the tables themselves, so listing it does
//! not keep a single table alive: a binary still carries only the tables its
//! code references (the linker drops the others). The hashes are those of
//! `tables/actlut.lock`, which every build checks.
//!
//! A binary that keeps the manifest names every enabled table by its hash, and
//! `actlut audit` holds it to that: each enabled table it does not keep is a
//! `MISSING` problem (the audit cannot tell a dropped table from one replaced
//! beyond recognition; docs/audit.md). A binary that keeps the manifest
//! enables only the features of the tables it keeps.
//!
//! ```
//! # #[cfg(all(feature = "gelu", feature = "f16"))] {
//! let t = actlut::manifest::find("gelu_f16").unwrap();
//! assert_eq!(t.format, actlut::Format::F16);
//! assert_eq!(t.bytes(), 131_072);
//! assert_eq!(t.sha256, actlut::tables::GELU_F16_SHA256);
//! println!("{} {}", t.sha256_hex(), t.name); // the `sha256sum` line of a dump
//! # }
//! ```
//!
//! # Self-check at boot
//!
//! With the `self-check` feature (SHA-256 through `sha2`, `no_std`, no heap),
//! firmware can re-hash a table in memory, for instance to detect a corrupted
//! flash at boot. Only the tables passed to `Table::check` are kept:
//!
//! ```
//! # #[cfg(all(feature = "self-check", feature = "gelu", feature = "f16"))] {
//! let entry = actlut::manifest::find("gelu_f16").unwrap();
//! assert_eq!(entry.check(&actlut::tables::GELU_F16), Ok(()));
//! # }
//! ```
//!
//! Tables with identical bytes share one hash, and one `static`: their names are
//! aliases (see [`Table::aliases`]).

use actlut_core::{Format, Function};

/// One table compiled into this build.
///
/// The manifest is for listing and for the run-time self-check. What
/// `actlut audit` verifies is each table's own declaration, in its `static`
/// right before its bytes (one `#[repr(C)]` value: the declaration, then the
/// table): a binary declares exactly the tables it keeps, whether it keeps the
/// manifest or not.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Table {
    /// The table's name, `<function>_<format>`: `gelu_f16`, `gelu_tanh_bf16`, ….
    pub name: &'static str,
    /// Its function.
    pub function: Function,
    /// Its format (of both input and output).
    pub format: Format,
    /// SHA-256 of its little-endian bytes (the bytes of its `<name>.bin` dump).
    pub sha256: [u8; 32],
}

/// A table `static` as it is embedded: its declaration, then its stored
/// bytes, in one `#[repr(C)]` value.
///
/// The declaration (`actlut_core::record::Declaration`, 128 bytes: marker
/// `ACTLUTDT`, version, representation, entry width, stored byte order,
/// length, name, SHA-256) says what the bytes after it are, so `actlut audit`
/// verifies the table byte for byte where it lies, with no relocation or
/// symbol to resolve. Being one value, the two are kept or dropped together:
/// a binary carries the declarations of exactly the tables it keeps, and
/// listing the manifest keeps no table alive. The lookups read the table
/// through a reference to [`table`](Self::table) and index it at run time,
/// which keeps link-time optimisation from splitting the value (LLVM splits
/// a global only when every access is at a constant offset).
#[repr(C)]
// Unused in a build without tables.
#[allow(dead_code)]
pub(crate) struct Declared<T> {
    /// The declaration's bytes.
    pub(crate) record: [u8; actlut_core::record::DECLARATION_BYTES],
    /// The table's stored bytes.
    pub(crate) table: T,
}

/// Every table compiled into this build, in the order of `tables/actlut.lock`
/// (formats, then functions). Empty without features.
pub static TABLES: &[Table] = include!(concat!(env!("OUT_DIR"), "/manifest.rs"));

/// The version of the reference evaluation that produced the tables (the
/// `reference` column of the lock).
pub const REFERENCE_VERSION: &str = actlut_core::REFERENCE_VERSION;

/// The manifest entry of the table named `name` (`gelu_f16`), if it is compiled in.
pub fn find(name: &str) -> Option<&'static Table> {
    TABLES.iter().find(|t| t.name == name)
}

impl Table {
    /// Number of entries: 65,536 for 16-bit formats, 256 for 8-bit ones.
    pub const fn entries(&self) -> usize {
        self.format.entries()
    }

    /// Size in bytes: 131,072 for 16-bit formats, 256 for 8-bit ones.
    pub const fn bytes(&self) -> usize {
        self.format.table_bytes()
    }

    /// The function's definition, as one line of ASCII text.
    pub const fn definition(&self) -> &'static str {
        self.function.definition()
    }

    /// The hash in lower-case hexadecimal, formatted without allocating.
    pub const fn sha256_hex(&self) -> Sha256Hex {
        Sha256Hex(self.sha256)
    }

    /// The other compiled-in tables with the same bytes (the same hash), whose
    /// names are aliases of this one.
    pub fn aliases(&self) -> impl Iterator<Item = &'static Table> + '_ {
        TABLES
            .iter()
            .filter(move |t| t.sha256 == self.sha256 && t.name != self.name)
    }

    /// Re-hashes `table` in memory and compares it with this entry.
    ///
    /// `table` is one of the statics of [`crate::tables`], a `[u16; 65536]` or
    /// a `[u8; 256]`, or the table's little-endian bytes as a `[u8]` (a dump,
    /// or flash read as bytes); it is hashed over its little-endian bytes
    /// without allocating: 128 KiB of SHA-256 for a 16-bit table, 256 bytes for
    /// an 8-bit one.
    ///
    /// # Errors
    ///
    /// [`SelfCheckError`] when the hash differs.
    #[cfg(feature = "self-check")]
    #[cfg_attr(docsrs, doc(cfg(feature = "self-check")))]
    pub fn check<T: TableData + ?Sized>(&self, table: &T) -> Result<(), SelfCheckError> {
        let actual = table.sha256_le();
        if actual == self.sha256 {
            Ok(())
        } else {
            Err(SelfCheckError {
                name: self.name,
                expected: self.sha256,
                actual,
                declaration: false,
            })
        }
    }
}

/// A SHA-256 in lower-case hexadecimal ([`Table::sha256_hex`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sha256Hex(pub [u8; 32]);

impl core::fmt::Display for Sha256Hex {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

/// A table whose bytes in memory do not hash to its manifest entry
/// ([`Table::check`]).
#[cfg(feature = "self-check")]
#[cfg_attr(docsrs, doc(cfg(feature = "self-check")))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SelfCheckError {
    /// The table's name.
    pub name: &'static str,
    /// The hash of the manifest (and of the lock).
    pub expected: [u8; 32],
    /// The hash of the bytes in memory (of the declaration's bytes, when
    /// [`declaration`](Self::declaration)).
    pub actual: [u8; 32],
    /// Whether what differs is the table's declaration in memory (it does
    /// not parse, or names another table or hash than the one built), not
    /// the table's bytes ([`Checked`]).
    pub declaration: bool,
}

#[cfg(feature = "self-check")]
impl core::fmt::Display for SelfCheckError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if self.declaration {
            return write!(
                f,
                "table {} is corrupt: its declaration in memory is not the one built \
                 (its bytes hash to {}; it must declare {} with sha256 {})",
                self.name,
                Sha256Hex(self.actual),
                self.name,
                Sha256Hex(self.expected)
            );
        }
        write!(
            f,
            "table {} is corrupt: its bytes in memory hash to {}, the manifest says {}",
            self.name,
            Sha256Hex(self.actual),
            Sha256Hex(self.expected)
        )
    }
}

#[cfg(feature = "self-check")]
impl core::error::Error for SelfCheckError {}

/// A table as the lookups read it, verified in memory before its first use
/// (the `self-check` feature): `actlut::tables::checked::<NAME>` for every
/// table `static` this build keeps, and `tables::checked::compact::<NAME>`
/// for the compact stored forms.
///
/// It holds the reference the lookups read (the same pointer, not a copy)
/// and the table's declaration in memory. The first lookup through it
/// (every function module, [`BuiltinTables`](crate::BuiltinTables) and the kernels' entry points read
/// the tables through it when `self-check` is on) hashes the table's bytes
/// in memory, through that reference, and holds them and the declaration
/// to the hashes compiled into the program (the lock's); later lookups cost
/// one atomic load. A table whose bytes differ (a relocation or a segment
/// the loader wrote over it, a corrupted flash) makes that lookup panic
/// with the [`SelfCheckError`] that names it: the program never computes
/// with it. [`verify`](Self::verify) does the same check and returns the
/// error instead: call it at start for the tables a program uses (a server
/// that exits, a firmware that enters a safe state). Nothing refers to every
/// table: a program keeps only the checked statics of the tables it reads.
///
/// ```
/// # #[cfg(all(feature = "self-check", feature = "gelu", feature = "bf16"))] {
/// // At start: every table this program reads, checked once.
/// let table = actlut::tables::checked::GELU_BF16.verify().expect("gelu_bf16 intact in memory");
/// assert_eq!(table[0x3F80], 0x3F57); // gelu(1.0)
/// # }
/// ```
#[cfg(feature = "self-check")]
#[cfg_attr(docsrs, doc(cfg(feature = "self-check")))]
pub struct Checked<T: ?Sized + 'static> {
    name: &'static str,
    record: &'static [u8],
    table: &'static T,
    sha256: [u8; 32],
    record_sha256: [u8; 32],
    state: core::sync::atomic::AtomicU8,
}

#[cfg(feature = "self-check")]
const GOOD: u8 = 1;

#[cfg(feature = "self-check")]
impl<T: TableData + ?Sized> Checked<T> {
    /// The check of `table` (the reference the lookups read) named `name`,
    /// whose declaration in memory is `record`; `sha256` is the hash of the
    /// table's entries, `record_sha256` the hash its declaration holds (the
    /// stored form's, for a compact form). Made by the build script.
    #[doc(hidden)]
    pub const fn new(
        name: &'static str,
        record: &'static [u8],
        table: &'static T,
        sha256: [u8; 32],
        record_sha256: [u8; 32],
    ) -> Checked<T> {
        Checked {
            name,
            record,
            table,
            sha256,
            record_sha256,
            state: core::sync::atomic::AtomicU8::new(0),
        }
    }

    /// The table's name.
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// The table, once its bytes and its declaration in memory are verified
    /// (the first call hashes it; later ones return at once).
    ///
    /// # Errors
    ///
    /// [`SelfCheckError`], naming the table, when they differ.
    pub fn verify(&self) -> Result<&'static T, SelfCheckError> {
        use core::sync::atomic::Ordering;
        if self.state.load(Ordering::Acquire) == GOOD {
            return Ok(self.table);
        }
        self.check()?;
        self.state.store(GOOD, Ordering::Release);
        Ok(self.table)
    }

    /// The table for a lookup: [`verify`](Self::verify)'d before its first
    /// use.
    ///
    /// # Panics
    ///
    /// When the table or its declaration in memory is not the one built,
    /// with the [`SelfCheckError`]'s message, which names the table.
    #[inline]
    pub fn get(&self) -> &'static T {
        if self.state.load(core::sync::atomic::Ordering::Acquire) == GOOD {
            return self.table;
        }
        self.get_slow()
    }

    #[cold]
    #[inline(never)]
    fn get_slow(&self) -> &'static T {
        match self.verify() {
            Ok(t) => t,
            Err(e) => panic!("actlut self-check: {e}"),
        }
    }

    fn check(&self) -> Result<(), SelfCheckError> {
        use actlut_core::record::Declaration;
        let declared = Declaration::parse(self.record)
            .is_ok_and(|d| d.name() == self.name && d.sha256 == self.record_sha256);
        if !declared {
            return Err(SelfCheckError {
                name: self.name,
                expected: self.record_sha256,
                actual: self.record.sha256_le(),
                declaration: true,
            });
        }
        let actual = self.table.sha256_le();
        if actual != self.sha256 {
            return Err(SelfCheckError {
                name: self.name,
                expected: self.sha256,
                actual,
                declaration: false,
            });
        }
        Ok(())
    }
}

#[cfg(feature = "self-check")]
mod sealed {
    pub trait Sealed {}
    impl<const N: usize> Sealed for [u16; N] {}
    impl<const N: usize> Sealed for [u8; N] {}
    impl Sealed for [u16] {}
    impl Sealed for [u8] {}
    impl Sealed for crate::compact::CompactRef<'_> {}
    impl<T: Sealed + ?Sized> Sealed for &T {}
}

/// Table data that [`Table::check`] can hash: `[u16]` and `[u8]` arrays and
/// slices, hashed over their little-endian bytes, and compact tables
/// ([`CompactRef`](crate::compact::CompactRef)), hashed over their logical entries.
#[cfg(feature = "self-check")]
#[cfg_attr(docsrs, doc(cfg(feature = "self-check")))]
pub trait TableData: sealed::Sealed {
    /// SHA-256 of the little-endian bytes.
    fn sha256_le(&self) -> [u8; 32];
}

#[cfg(feature = "self-check")]
impl TableData for [u16] {
    fn sha256_le(&self) -> [u8; 32] {
        use sha2::Digest;
        let mut hasher = sha2::Sha256::new();
        let mut buf = [0u8; 256];
        for chunk in self.chunks(buf.len() / 2) {
            for (b, v) in buf.chunks_exact_mut(2).zip(chunk) {
                b.copy_from_slice(&v.to_le_bytes());
            }
            hasher.update(&buf[..chunk.len() * 2]);
        }
        hasher.finalize().into()
    }
}

#[cfg(feature = "self-check")]
impl TableData for [u8] {
    fn sha256_le(&self) -> [u8; 32] {
        use sha2::Digest;
        sha2::Sha256::digest(self).into()
    }
}

/// A compact table (the `compact` feature) hashes its 65,536 logical entries,
/// little-endian: the same hash as the full table, its identity.
#[cfg(feature = "self-check")]
impl TableData for crate::compact::CompactRef<'_> {
    fn sha256_le(&self) -> [u8; 32] {
        use sha2::Digest;
        let mut hasher = sha2::Sha256::new();
        let mut buf = [0u8; 256];
        for base in (0..=u16::MAX).step_by(buf.len() / 2) {
            for (i, b) in buf.chunks_exact_mut(2).enumerate() {
                b.copy_from_slice(&self.get(base + i as u16).to_le_bytes());
            }
            hasher.update(buf);
        }
        hasher.finalize().into()
    }
}

/// A reference to table data hashes what it refers to: `tables::<NAME>` is a
/// `&'static [u16; 65536]`, so `check(&tables::GELU_F16)` and
/// `check(tables::GELU_F16)` both hash the table.
#[cfg(feature = "self-check")]
impl<T: TableData + ?Sized> TableData for &T {
    fn sha256_le(&self) -> [u8; 32] {
        (**self).sha256_le()
    }
}

#[cfg(feature = "self-check")]
impl<const N: usize> TableData for [u16; N] {
    fn sha256_le(&self) -> [u8; 32] {
        self[..].sha256_le()
    }
}

#[cfg(feature = "self-check")]
impl<const N: usize> TableData for [u8; N] {
    fn sha256_le(&self) -> [u8; 32] {
        self[..].sha256_le()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_enabled_table_is_in_the_manifest_once() {
        for (i, t) in TABLES.iter().enumerate() {
            assert!(
                TABLES[..i].iter().all(|u| u.name != t.name),
                "{} twice",
                t.name
            );
            assert_eq!(
                t.name,
                std::format!("{}_{}", t.function.name(), t.format.name())
            );
        }
        use crate::builtin::BuiltinTables as _;
        let enabled = Function::ALL
            .iter()
            .map(|a| {
                Format::ALL
                    .into_iter()
                    .filter(|&f| a.table(f).is_ok())
                    .count()
            })
            .sum::<usize>();
        assert_eq!(TABLES.len(), enabled);
    }

    /// Every table static opens with its declaration, and the table's bytes
    /// follow it immediately: what the audit verifies.
    #[test]
    fn each_table_lies_right_after_its_declaration() {
        use actlut_core::record::{Declaration, Representation, StoredOrder, DECLARATION_BYTES};
        let declared = crate::tables::declarations();
        // With `compact`, every 16-bit table also has a compact stored form,
        // a static with its own declaration.
        let compact_forms = if cfg!(feature = "compact") {
            TABLES
                .iter()
                .filter(|t| t.format.entries() == 65_536)
                .count()
        } else {
            0
        };
        assert_eq!(
            declared.iter().filter(|d| d.3).count(),
            compact_forms,
            "one declaration per compact form"
        );
        assert_eq!(
            declared.iter().filter(|d| !d.3).count(),
            TABLES
                .iter()
                .filter(|t| t.aliases().all(|a| {
                    TABLES.iter().position(|x| x.name == a.name)
                        > TABLES.iter().position(|x| x.name == t.name)
                }))
                .count(),
            "one declaration per static (aliases share one)"
        );
        for &(record, table, len, compact) in &declared {
            let d = Declaration::parse(record).expect("a declaration parses");
            assert_eq!(
                record.as_ptr() as usize + DECLARATION_BYTES,
                table as usize,
                "{}",
                d.name()
            );
            assert_eq!(d.len as usize, len, "{}", d.name());
            let t = find(d.name()).expect("a declared table is in the manifest");
            if compact {
                assert_eq!(d.representation, Representation::Compact);
            } else {
                assert_eq!(d.representation, Representation::Full);
                assert_eq!(d.sha256, t.sha256, "{}", d.name());
                assert_eq!(len, t.bytes());
                assert_eq!(usize::from(d.width), t.format.entry_bytes());
                let big = d.width == 2 && cfg!(target_endian = "big");
                assert_eq!(d.order == StoredOrder::Big, big, "{}", d.name());
            }
        }
    }

    #[test]
    fn hex_is_lower_case_and_64_digits() {
        let h = Sha256Hex([0xAB; 32]);
        let s = std::format!("{h}");
        assert_eq!(s.len(), 64);
        assert!(s.chars().all(|c| c == 'a' || c == 'b'));
    }
}
