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
    /// The table's name, `<function>_<format>` (`gelu_f16`, `gelu_tanh_bf16`, …), or
    /// `<function>_derivative_<format>` for a derivative table (`gelu_derivative_bf16`, the
    /// `derivatives` feature).
    pub name: &'static str,
    /// Its function.
    pub function: Function,
    /// Whether its entries are the function's derivative (`derivatives`) rather than the
    /// function.
    pub derivative: bool,
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
///
/// The build script declares every built-in table this way, and so do the
/// tables of `table!` (the `macros` feature) and of
/// `actlut_codegen::builder::Builder::op_table`: one record layout and one
/// audit for every table.
///
/// `N` is the record's length: 128 bytes (version 1, every built-in table), or 192 (version 2,
/// whose long name field holds an op with constants: `softcap(cap=30)_bf16`); both are
/// multiples of 64, so the table after the record keeps its alignment.
#[repr(C)]
// Unused in a build without tables.
#[allow(dead_code)]
pub struct Declared<T, const N: usize = { actlut_core::record::DECLARATION_BYTES }> {
    /// The declaration's bytes.
    pub(crate) record: [u8; N],
    /// The table's stored bytes.
    pub(crate) table: T,
}

impl<T, const N: usize> Declared<T, N> {
    /// A table with its declaration before it, for generated code (the `table!` macro, the
    /// builder): the record is `actlut_codegen::DeclaredTable::record` of the same table.
    #[doc(hidden)]
    pub const fn new(record: [u8; N], table: T) -> Self {
        Declared { record, table }
    }

    /// The table.
    pub const fn table(&self) -> &T {
        &self.table
    }

    /// The declaration record's bytes (`actlut_core::record::Declaration::parse` reads them).
    pub const fn record(&self) -> &[u8; N] {
        &self.record
    }
}

/// A 16-bit table from its bytes in the target's byte order (what the `table!` macro and the
/// builder embed), in a `const` context.
#[doc(hidden)]
pub const fn u16_table(bytes: [u8; 131_072]) -> [u16; 65_536] {
    zerocopy::transmute!(bytes)
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

    /// The function's definition, as one line of ASCII text (of the function also for a
    /// derivative table: [`derivative`](Self::derivative) says which it holds).
    pub const fn definition(&self) -> &'static str {
        self.function.definition()
    }

    /// The op whose table this is: the function at its default constants, or its derivative.
    pub fn op(&self) -> actlut_core::Op {
        actlut_core::Op::from(self.function).with_derivative(self.derivative)
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
                redirected: false,
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
    /// Whether the lookup's code reached another table than the one it
    /// names (a relocation redirected a call of the program's code to
    /// another table's code, [`Checked`]): [`actual`](Self::actual) is then
    /// zero.
    pub redirected: bool,
}

#[cfg(feature = "self-check")]
impl core::fmt::Display for SelfCheckError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if self.redirected {
            return write!(
                f,
                "table {} is corrupt: its lookup reached another table's code \
                 (a relocation redirected the program's code; it must reach sha256 {})",
                self.name,
                Sha256Hex(self.expected)
            );
        }
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
/// It holds no data: its type parameter, made by the build script for each
/// table, is the code that reaches the table. The first lookup through it
/// (every function module, [`BuiltinTables`](crate::BuiltinTables) and the
/// kernels' entry points read the tables through it when `self-check` is
/// on) hashes the table's bytes in memory, through the reference the
/// lookups then read, and holds them to the hash its declaration in memory
/// holds, which must be the one compiled into the program (the lock's);
/// later lookups cost a call and one atomic load. A table whose bytes differ
/// (a relocation or a segment the loader wrote over it, a corrupted flash)
/// makes that lookup panic with the [`SelfCheckError`] that names it: the
/// program never computes with it. [`verify`](Self::verify) does the same
/// check and returns the error instead: call it at start for the tables a
/// program uses (a server that exits, a firmware that enters a safe state).
/// Nothing refers to every table: a program keeps only the checked statics
/// of the tables it reads.
///
/// No pointer stored in the program's data decides whether a table was
/// verified, or which bytes are hashed and which are read: the code
/// generated for each table (not inlined into other crates) reaches its
/// first-use state through the state's own address, computed from the
/// code's, and hashes and returns the table through one reference; and
/// every lookup holds the code it called to the table's key, compiled into
/// the caller (a call redirected to another table's code is reported).
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
pub struct Checked<S: Source>(core::marker::PhantomData<S>);

/// How the code reaches one table of a [`Checked`]: made by the build
/// script, one type per table. Its functions are compiled in actlut and
/// not inlined elsewhere, so that the `static`s they refer to (the
/// first-use state above all) are reached through their own addresses,
/// computed from the code's, never through a pointer in the program's data
/// (which a relocation could redirect).
#[cfg(feature = "self-check")]
#[doc(hidden)]
pub trait Source: sealed::Sealed + 'static {
    /// The table's type (the reference the lookups read).
    type Table: TableData + ?Sized + 'static;
    /// The table's name.
    const NAME: &'static str;
    /// The hash of the table's entries (the lock's).
    const SHA256: [u8; 32];
    /// The table's key ([`key_of`] its hash): what [`reach`](Self::reach)
    /// and [`check`](Self::check) return with the table, and what the
    /// caller, which compiles it, holds them to.
    const KEY: u64;
    /// The table and its key once it was verified, or the table and 0.
    fn reach() -> (&'static Self::Table, u64);
    /// Verifies the table ([`verify_table`]) and returns it with its key.
    ///
    /// # Errors
    ///
    /// [`SelfCheckError`] when the table or its declaration in memory is
    /// not the one built.
    fn check() -> Result<(&'static Self::Table, u64), SelfCheckError>;
}

/// A table's key: its hash's first eight bytes (little-endian), with the
/// lowest bit set (never 0, which [`Source::reach`] returns for a table not
/// verified yet).
#[cfg(feature = "self-check")]
#[doc(hidden)]
pub const fn key_of(sha256: &[u8; 32]) -> u64 {
    let mut b = [0u8; 8];
    let mut i = 0;
    while i < 8 {
        b[i] = sha256[i];
        i += 1;
    }
    u64::from_le_bytes(b) | 1
}

/// The table's name out of a literal that puts words before it (`"actlut
/// table gelu_bf16"`, `skip` 13): so that no name stands alone in the
/// program's read-only data, where a hash compiled next to it would read,
/// to the audit, as two parts of a declaration. Used by the build script.
#[cfg(feature = "self-check")]
#[doc(hidden)]
pub const fn name_after(text: &'static str, skip: usize) -> &'static str {
    match core::str::from_utf8(text.as_bytes().split_at(skip).1) {
        Ok(name) => name,
        Err(_) => panic!("a table name is ASCII"),
    }
}

/// Whether a [`Checked`] table was verified: a `static` of its own, zero
/// until its first check passes. Being zero, it lies in memory that the
/// program's file does not hold (`.bss`, which the loader or the start-up
/// code fills with zeros), so no byte of the file can preset it and skip
/// the check; and the code refers to it directly, so no pointer in the
/// file's data can point the check elsewhere. Made by the build script,
/// one per table.
#[cfg(feature = "self-check")]
#[doc(hidden)]
pub struct FirstUse(core::sync::atomic::AtomicU8);

#[cfg(feature = "self-check")]
impl FirstUse {
    /// Not verified yet (zero).
    #[doc(hidden)]
    #[allow(clippy::new_without_default)]
    pub const fn new() -> FirstUse {
        FirstUse(core::sync::atomic::AtomicU8::new(0))
    }

    /// `table` and `key` once verified, else `table` and 0: the body of
    /// every [`Source::reach`].
    #[doc(hidden)]
    #[inline(always)]
    pub fn reach<T: ?Sized>(&self, table: &'static T, key: u64) -> (&'static T, u64) {
        if self.0.load(core::sync::atomic::Ordering::Acquire) == GOOD {
            (table, key)
        } else {
            (table, 0)
        }
    }
}

#[cfg(feature = "self-check")]
const GOOD: u8 = 1;

/// The check of one table, the body of every [`Source::check`]: the
/// declaration in memory (`record`) must parse, name the table and hold
/// `record_sha256` (compiled into the program: the lock's, or for a compact
/// form the compact lock's), and `table`'s bytes must hash to `sha256` and,
/// for a full table, to the hash its declaration holds (which the audit
/// holds to the lock in the file). Then `state` is set, and `table` (the
/// reference that was hashed) returned.
///
/// # Errors
///
/// [`SelfCheckError`], naming the table, when they differ.
#[cfg(feature = "self-check")]
#[doc(hidden)]
#[inline(always)]
pub fn verify_table<T: TableData + ?Sized>(
    name: &'static str,
    record: &'static [u8],
    table: &'static T,
    sha256: &[u8; 32],
    record_sha256: &[u8; 32],
    state: &'static FirstUse,
) -> Result<&'static T, SelfCheckError> {
    use actlut_core::record::Declaration;
    let declared = Declaration::parse(record)
        .ok()
        .filter(|d| d.name() == name && d.sha256 == *record_sha256);
    let Some(declared) = declared else {
        return Err(SelfCheckError {
            name,
            expected: *record_sha256,
            actual: record.sha256_le(),
            declaration: true,
            redirected: false,
        });
    };
    let actual = table.sha256_le();
    let full = sha256 == record_sha256;
    if actual != *sha256 || (full && actual != declared.sha256) {
        return Err(SelfCheckError {
            name,
            expected: *sha256,
            actual,
            declaration: false,
            redirected: false,
        });
    }
    state.0.store(GOOD, core::sync::atomic::Ordering::Release);
    Ok(table)
}

#[cfg(feature = "self-check")]
impl<S: Source> Checked<S> {
    /// The check of the table that `S` reaches. Made by the build script.
    #[doc(hidden)]
    #[allow(clippy::new_without_default)]
    pub const fn new() -> Checked<S> {
        Checked(core::marker::PhantomData)
    }

    /// The table's name.
    pub const fn name(&self) -> &'static str {
        S::NAME
    }

    /// The table, once its bytes and its declaration in memory are verified
    /// (the first call hashes it; later ones return at once).
    ///
    /// # Errors
    ///
    /// [`SelfCheckError`], naming the table, when they differ, or when the
    /// code called reached another table (a redirected call).
    pub fn verify(&self) -> Result<&'static S::Table, SelfCheckError> {
        let (table, key) = S::reach();
        if key == S::KEY {
            return Ok(table);
        }
        let (table, key) = S::check()?;
        if key != S::KEY {
            return Err(SelfCheckError {
                name: S::NAME,
                expected: S::SHA256,
                actual: [0; 32],
                declaration: false,
                redirected: true,
            });
        }
        Ok(table)
    }

    /// The table for a lookup: [`verify`](Self::verify)'d before its first
    /// use.
    ///
    /// # Panics
    ///
    /// When the table or its declaration in memory is not the one built,
    /// with the [`SelfCheckError`]'s message, which names the table.
    #[inline]
    pub fn get(&self) -> &'static S::Table {
        let (table, key) = S::reach();
        if key == S::KEY {
            return table;
        }
        self.get_slow()
    }

    #[cold]
    #[inline(never)]
    fn get_slow(&self) -> &'static S::Table {
        match self.verify() {
            Ok(t) => t,
            Err(e) => panic!("actlut self-check: {e}"),
        }
    }
}

#[cfg(feature = "self-check")]
pub(crate) mod sealed {
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
            assert_eq!(t.name, std::format!("{}_{}", t.op(), t.format.name()));
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
        assert_eq!(TABLES.iter().filter(|t| !t.derivative).count(), enabled);
    }

    /// Every table static opens with its declaration, and the table's bytes
    /// follow it immediately: what the audit verifies.
    #[test]
    fn each_table_lies_right_after_its_declaration() {
        use actlut_core::record::{Declaration, Representation, StoredOrder};
        let declared = crate::tables::declarations();
        // A table with its own static: not an alias of a table earlier in the manifest.
        let first_of_its_bytes = |t: &&Table| {
            t.aliases().all(|a| {
                TABLES.iter().position(|x| x.name == a.name)
                    > TABLES.iter().position(|x| x.name == t.name)
            })
        };
        // With `compact`, every 16-bit table also has a compact stored form, a static with
        // its own declaration (aliases share one: swish's is silu's); a derivative table has
        // none.
        let compact_forms = if cfg!(feature = "compact") {
            TABLES
                .iter()
                .filter(|t| t.format.entries() == 65_536 && !t.derivative)
                .filter(first_of_its_bytes)
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
            TABLES.iter().filter(first_of_its_bytes).count(),
            "one declaration per static (aliases share one)"
        );
        for &(record, table, len, compact) in &declared {
            let d = Declaration::parse(record).expect("a declaration parses");
            assert_eq!(
                record.as_ptr() as usize + d.record_bytes(),
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
