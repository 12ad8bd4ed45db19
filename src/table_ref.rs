//! [`TableRef`]: a table of any format, read through one type: what
//! [`BuiltinTables::table`](crate::BuiltinTables::table) returns. At the bottom of the crate's
//! modules: it names only `actlut-core`'s compact form.

/// A compiled-in table of any format, from [`BuiltinTables::table`](crate::BuiltinTables::table): callers
/// that handle every format alike read it through its methods, with no branch
/// on the format.
///
/// Entry `i` is the output bit pattern for the input bit pattern `i`.
#[derive(Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum TableRef {
    /// A table over a 16-bit format (`f16`, `bf16`): 65,536 entries.
    U16(&'static [u16; 65536]),
    /// A table over a format coded in one byte: 256 entries for 8-bit
    /// formats, fewer for formats whose codes sit in the low bits of the byte.
    U8(&'static [u8]),
    /// A table over a 16-bit format stored in the compact form (the `compact`
    /// cargo feature): 65,536 logical entries, the same bits as the full table,
    /// read through [`CompactRef::get`](crate::compact::CompactRef::get).
    Compact(&'static actlut_core::compact::CompactRef<'static>),
}

impl TableRef {
    /// Number of entries: the number of bit patterns of the format.
    pub const fn entries(self) -> usize {
        match self {
            TableRef::U16(t) => t.len(),
            TableRef::U8(t) => t.len(),
            TableRef::Compact(_) => 65_536,
        }
    }

    /// Bytes of one entry: 2 or 1.
    pub const fn entry_bytes(self) -> usize {
        match self {
            TableRef::U16(_) | TableRef::Compact(_) => 2,
            TableRef::U8(_) => 1,
        }
    }

    /// Size in bytes of the table's little-endian form (its `<name>.bin` dump):
    /// `entries() * entry_bytes()`.
    pub const fn len_bytes(self) -> usize {
        self.entries() * self.entry_bytes()
    }

    /// The output bits for the input bits `bits`, or `None` when `bits` is not
    /// a bit pattern of the format (`bits >= entries()`).
    pub fn get(self, bits: u16) -> Option<u16> {
        let i = usize::from(bits);
        match self {
            TableRef::U16(t) => t.get(i).copied(),
            TableRef::U8(t) => t.get(i).map(|&v| u16::from(v)),
            TableRef::Compact(t) => Some(t.get(bits)),
        }
    }

    /// Every entry, widened to `u16`, in input order.
    pub fn iter(self) -> impl ExactSizeIterator<Item = u16> + Clone {
        (0..self.entries()).map(move |i| match self {
            TableRef::U16(t) => t[i],
            TableRef::U8(t) => u16::from(t[i]),
            TableRef::Compact(t) => t.get(i as u16),
        })
    }

    /// The table's little-endian bytes (the bytes of its `<name>.bin` dump, and
    /// the bytes its SHA-256 is taken over), without allocating.
    pub fn le_bytes(self) -> impl ExactSizeIterator<Item = u8> + Clone {
        let width = self.entry_bytes();
        (0..self.len_bytes()).map(move |i| match self {
            TableRef::U16(t) => t[i / width].to_le_bytes()[i % width],
            TableRef::U8(t) => t[i],
            TableRef::Compact(t) => t.get((i / width) as u16).to_le_bytes()[i % width],
        })
    }

    /// Writes the table's little-endian bytes to the start of `out` and returns
    /// their number, [`len_bytes`](Self::len_bytes).
    ///
    /// # Panics
    ///
    /// If `out` is shorter than `len_bytes()`; the message names both lengths.
    #[track_caller]
    pub fn write_le_bytes(self, out: &mut [u8]) -> usize {
        let n = self.len_bytes();
        assert!(
            out.len() >= n,
            "a buffer of {} bytes cannot hold a table of {n} bytes",
            out.len()
        );
        match self {
            TableRef::U16(t) => {
                for (b, v) in out.chunks_exact_mut(2).zip(t.iter()) {
                    b.copy_from_slice(&v.to_le_bytes());
                }
            }
            TableRef::U8(t) => out[..n].copy_from_slice(t),
            TableRef::Compact(t) => {
                for (x, b) in out.chunks_exact_mut(2).take(65_536).enumerate() {
                    b.copy_from_slice(&t.get(x as u16).to_le_bytes());
                }
            }
        }
        n
    }
}

/// The variant and the number of entries (not the entries themselves).
impl core::fmt::Debug for TableRef {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let variant = match self {
            TableRef::U16(_) => "U16",
            TableRef::U8(_) => "U8",
            TableRef::Compact(_) => "Compact",
        };
        write!(f, "TableRef::{variant}({} entries)", self.entries())
    }
}
