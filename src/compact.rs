//! Compact 16-bit tables: the runtime side of the `compact` cargo feature.
//!
//! With `compact`, every 16-bit table (`f16`, `bf16`) is embedded in its
//! compact stored form (docs/compact.md) instead of as 65,536 `u16`s: a
//! directory of one `u32` per page and a pool of residuals, 2–23 KiB instead
//! of 128 KiB, with the same entry for every input. The build script compacts
//! each table with `actlut_codegen::compact`, which checks the stored form
//! against the full table on all 65,536 inputs, checks the stored form's
//! SHA-256 against `tables/actlut-compact.lock`, and embeds it with
//! `include_bytes!`; a `static` [`CompactRef`] validates it at compile time.
//!
//! **Two layouts.** `compact` stores the bytes layout ([`Layout::Bytes`]:
//! a byte per entry on most pages, the smallest form). `compact-words`
//! stores the words layout instead ([`Layout::Words`]: a `u16` per entry,
//! no width branch in the decode), checked against
//! `tables/actlut-compact-words.lock`: 30% more bytes in all, and on a Zen 5
//! 1.3–1.7 times the bytes layout's speed (docs/compact.md, "Which layout").
//! The items, types and bits are the same; [`CompactRef::layout`] tells which
//! a table holds.
//!
//! The feature only adds: `tables::compact` holds the compact form of every
//! 16-bit table beside the full ones ([`tables::GELU_BF16`](crate::tables)
//! stays a `[u16; 65536]`), and `BuiltinTables::compact_table_f16` and
//! `compact_table_bf16` return them. What it switches is the form the lookups
//! read: `gelu::bf16`, `bf16_bits`, `apply_bf16`, `map_bf16`, the
//! `BuiltinTables` methods and [`BuiltinTables::table`](crate::BuiltinTables::table)
//! (which returns [`TableRef::Compact`](crate::TableRef::Compact)) read the compact form, with the same
//! bits; [`TableRef::get`](crate::TableRef::get),
//! [`iter`](crate::TableRef::iter) and [`le_bytes`](crate::TableRef::le_bytes)
//! give the 65,536 logical entries (the table's SHA-256 is unchanged). A
//! binary links only the forms it references; docs/compact.md says how to
//! keep one hot table in full and the others compact.
//!
//! The slice entry points run [`apply_compact_u16`] and [`map_compact_u16`]: the
//! compact kernels of [`crate::kernels`], with
//! [`Kernel::best`](crate::kernels::Kernel::best) of the table's layout
//! ([`TableShape::of_compact`](crate::kernels::TableShape::of_compact)),
//! picked per CPU class by measurement (for the bytes layout the 16-lane
//! AVX-512 gathers on Intel and on a Zen 5, AVX2 on a Zen 3 and a Zen 4; for
//! the words layout the portable loop on a Zen 5; the portable loop
//! elsewhere; docs/compact.md, "Speed"). Every kernel is bit-identical to
//! [`CompactRef::get`].
//!
//! **Expand on load.** Where the memory is there but the download or the
//! flash is small (wasm), `expand_all` (with `std`) decodes every compact
//! table once, about 10–30 µs and 128 KiB of heap per table, and from then on
//! the slice entry points (`gelu::map_bf16`, `apply_bf16`, the `Function`
//! slice methods) read the expanded copy at the full table's speed;
//! `expand_table` does it for one table. [`CompactRef::expand_into`] (no_std,
//! no allocation) and `CompactRef::expand` (`alloc`) decode into a table of
//! your own.
//!
//! ```
//! # #[cfg(all(feature = "compact", feature = "gelu", feature = "bf16"))] {
//! use actlut::compact::CompactRef;
//!
//! let table: &'static CompactRef<'static> = &actlut::tables::compact::GELU_BF16;
//! assert_eq!(table.get(0x3F80), 0x3F57); // gelu(1.0) = 0.8413… in bf16
//! assert!(table.stored_len() < 16 * 1024);
//! let mut xs = [0x3F80, 0x0000, 0x7F80];
//! actlut::compact::apply_compact_u16(table, &mut xs);
//! assert_eq!(xs, [0x3F57, 0x0000, 0x7F80]);
//! # }
//! ```
//!
//! The generated `static`s validate their stored form in a `const` context, so
//! a stored form that is not valid is a compile error, not a wrong table:
//!
//! ```compile_fail
//! use actlut::compact::CompactRef;
//!
//! static BAD: CompactRef<'static> = match CompactRef::from_bytes(b"ACTLUTC1 not a stored form") {
//!     Ok(table) => table,
//!     Err(_) => panic!("not a valid compact stored form"),
//! };
//! ```

pub use actlut_core::compact::{CompactRef, Layout, StoredFormError};

/// Bytes an embedded stored form is aligned to: a cache line, so that the
/// directory and the pool start on line boundaries.
pub const STORED_ALIGN: usize = 64;

/// An embedded stored form, aligned to [`STORED_ALIGN`] bytes (the generated
/// `tables.rs` wraps its `include_bytes!` in it).
#[repr(C, align(64))]
// Unused in a build without a compact 16-bit table.
#[cfg_attr(
    not(all(feature = "compact", any(feature = "f16", feature = "bf16"))),
    allow(dead_code)
)]
pub(crate) struct Aligned<T: ?Sized>(pub(crate) T);

/// `xs[i] = table.get(xs[i])` for every element of a slice, over a compact
/// table ([`CompactRef`]; for a full `[u16; 65536]` table the function is
/// [`kernels::apply_u16`](crate::kernels::apply_u16)), with
/// [`Kernel::best`](crate::kernels::Kernel::best)`(`[`TableShape::of_compact`](crate::kernels::TableShape::of_compact)`(table.layout()))`,
/// chosen once per process and layout by CPU class (see
/// [`Kernel::preference`](crate::kernels::Kernel::preference)). Every kernel
/// gives the bits of [`CompactRef::get`] (tests/compact_kernels.rs). It reads
/// the compact form even after `expand_table`: the function modules are what
/// switch to the expanded copy.
#[inline]
pub fn apply_compact_u16(table: &CompactRef<'_>, xs: &mut [u16]) {
    crate::kernels::apply_best(table, xs);
}

/// `ys[i] = table.get(xs[i])` for every element, over a compact table, with
/// the kernel of [`apply_compact_u16`] (for a full table:
/// [`kernels::map_u16`](crate::kernels::map_u16)).
///
/// # Panics
///
/// If `xs.len() != ys.len()`; the message names both lengths.
#[inline]
#[track_caller]
pub fn map_compact_u16(table: &CompactRef<'_>, xs: &[u16], ys: &mut [u16]) {
    crate::kernels::map_best(table, xs, ys);
}

/// The read path's in-place lookup over a compact table of the crate
/// (`crate::read::apply` with `compact`): the expanded copy's full
/// table where [`expand_table`] or [`expand_all`] made one, else the compact
/// kernels.
#[cfg(feature = "compact")]
#[inline]
pub(crate) fn apply_read(table: &CompactRef<'static>, xs: &mut [u16]) {
    match expanded(table) {
        Some(full) => crate::kernels::apply_u16(full, xs),
        None => apply_compact_u16(table, xs),
    }
}

/// The read path's out-of-place lookup (see [`apply_read`]).
#[cfg(feature = "compact")]
#[inline]
#[track_caller]
pub(crate) fn map_read(table: &CompactRef<'static>, xs: &[u16], ys: &mut [u16]) {
    match expanded(table) {
        Some(full) => crate::kernels::map_u16(full, xs, ys),
        None => map_compact_u16(table, xs, ys),
    }
}

/// The expanded copy of `table`, if [`expand_table`] or [`expand_all`] made
/// one. Before the first expansion: one relaxed load and a branch.
#[cfg(feature = "compact")]
#[inline]
#[cfg_attr(not(feature = "std"), allow(unused_variables))]
fn expanded(table: &CompactRef<'static>) -> Option<&'static [u16; 65_536]> {
    #[cfg(feature = "std")]
    return registry::find(table);
    #[cfg(not(feature = "std"))]
    None
}

/// Decodes `table` once into a leaked 128 KiB heap table (`std`) and
/// registers it, so that the slice entry points of the function modules
/// (`gelu::map_bf16`, `apply_bf16`, the `Function` slice methods) that read
/// `table` read the expanded copy from then on: full-table speed, the same
/// bits. Returns the expanded table. A second call for the same table returns
/// the first copy. One-element lookups (`gelu::bf16`) keep the compact
/// decode; [`apply_compact_u16`] and [`Kernel::map`](crate::kernels::Kernel::map)
/// always read the compact form.
///
/// Memory: 131,072 bytes per distinct table, never freed (the entry points
/// may hold it for the rest of the process). Up to 64 tables are registered
/// (the crate has 36 16-bit tables); past that the copy is returned but not
/// registered.
///
/// ```
/// # #[cfg(all(feature = "compact", feature = "gelu", feature = "bf16", feature = "std"))] {
/// let full = actlut::compact::expand_table(&actlut::tables::compact::GELU_BF16);
/// assert_eq!(full[0x3F80], 0x3F57);
/// let mut xs = [0x3F80u16, 0x0000];
/// actlut::gelu::apply_bf16_bits(&mut xs); // reads `full` now
/// assert_eq!(xs, [0x3F57, 0x0000]);
/// # }
/// ```
#[cfg(feature = "std")]
pub fn expand_table(table: &'static CompactRef<'static>) -> &'static [u16; 65_536] {
    registry::insert(table)
}

/// [`expand_table`] for every compact table compiled in (the `compact`
/// feature's f16 and bf16 tables of every enabled function); returns how many
/// distinct tables are now expanded. Costs 128 KiB of heap per table (4.5 MiB
/// with every function and both formats) and one decode each
/// (`cargo bench --bench compact -- expand` times one).
#[cfg(feature = "std")]
pub fn expand_all() -> usize {
    #[cfg(feature = "compact")]
    for a in actlut_core::Function::ALL {
        use crate::builtin::BuiltinTables as _;
        #[cfg(feature = "f16")]
        if let Ok(t) = a.compact_table_f16() {
            registry::insert(t);
        }
        #[cfg(feature = "bf16")]
        if let Ok(t) = a.compact_table_bf16() {
            registry::insert(t);
        }
    }
    registry::count()
}

/// The expanded tables: open addressing on the stored form's address, written
/// under a lock, read without one.
#[cfg(feature = "std")]
mod registry {
    use super::CompactRef;
    use core::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::{Mutex, OnceLock};

    const SLOTS: usize = 64;

    struct Slot {
        /// The address of the table's directory, 0 while free. Stored after
        /// `table` is set (release), so a reader that sees the key sees it.
        key: AtomicUsize,
        table: OnceLock<&'static [u16; 65_536]>,
    }

    static TABLE: [Slot; SLOTS] = [const {
        Slot {
            key: AtomicUsize::new(0),
            table: OnceLock::new(),
        }
    }; SLOTS];
    static ANY: AtomicBool = AtomicBool::new(false);
    static WRITER: Mutex<()> = Mutex::new(());

    fn key(table: &CompactRef<'static>) -> usize {
        table.dir_bytes().as_ptr() as usize
    }

    fn lookup(k: usize) -> Result<&'static [u16; 65_536], Option<usize>> {
        let start = (k >> 6) % SLOTS;
        for j in 0..SLOTS {
            let at = (start + j) % SLOTS;
            match TABLE[at].key.load(Ordering::Acquire) {
                0 => return Err(Some(at)),
                sk if sk == k => return TABLE[at].table.get().copied().ok_or(None),
                _ => {}
            }
        }
        Err(None)
    }

    #[cfg(feature = "compact")]
    #[inline]
    pub(super) fn find(table: &CompactRef<'static>) -> Option<&'static [u16; 65_536]> {
        if !ANY.load(Ordering::Relaxed) {
            return None;
        }
        lookup(key(table)).ok()
    }

    pub(super) fn insert(table: &'static CompactRef<'static>) -> &'static [u16; 65_536] {
        let k = key(table);
        let _writer = WRITER.lock().unwrap_or_else(|e| e.into_inner());
        match lookup(k) {
            Ok(full) => full,
            Err(free) => {
                let mut full: std::boxed::Box<[u16; 65_536]> = std::vec![0u16; 65_536]
                    .into_boxed_slice()
                    .try_into()
                    .expect("65,536 entries");
                table.expand_into(&mut full);
                let full: &'static [u16; 65_536] = std::boxed::Box::leak(full);
                if let Some(at) = free {
                    // Only the writer (under the lock) sets a free slot.
                    let _ = TABLE[at].table.set(full);
                    TABLE[at].key.store(k, Ordering::Release);
                    ANY.store(true, Ordering::Release);
                }
                full
            }
        }
    }

    pub(super) fn count() -> usize {
        TABLE
            .iter()
            .filter(|s| s.key.load(Ordering::Acquire) != 0)
            .count()
    }
}

#[cfg(all(
    test,
    feature = "std",
    feature = "compact",
    feature = "gelu",
    feature = "bf16"
))]
mod tests {
    /// The lookups the slice entry points make: nothing before the expansion
    /// (no other unit test expands a table), the registered copy after it.
    #[test]
    fn the_entry_points_find_the_expanded_copy_after_expand_table() {
        let table = &crate::tables::compact::GELU_BF16;
        assert!(super::expanded(table).is_none());
        let copy = super::expand_table(table);
        assert!(core::ptr::eq(super::expanded(table).unwrap(), copy));
        assert_eq!(&copy[..], &crate::tables::GELU_BF16[..]);
        let mut xs = [0x3F80u16, 0x0000, 0x7F80];
        crate::gelu::apply_bf16_bits(&mut xs);
        assert_eq!(xs, [0x3F57, 0x0000, 0x7F80]);
    }
}
