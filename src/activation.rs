//! [`Activation`]: a function chosen at run time, and [`TableRef`]: a table of
//! any format.
//!
//! The enum, its conversions and its table getters are generated from
//! `Function::ALL × Format::ALL` into `src/generated/activation.rs`.

use crate::Format;
use actlut_core::Function;

pub use crate::generated::activation::Activation;

impl Activation {
    /// The name used in table names: `gelu`, `gelu_tanh`, ….
    pub const fn name(self) -> &'static str {
        self.function().name()
    }

    /// The cargo feature that enables its tables: `gelu`, `gelu-tanh`, ….
    pub const fn feature(self) -> &'static str {
        self.function().feature()
    }
}

impl From<Activation> for Function {
    fn from(a: Activation) -> Function {
        a.function()
    }
}

impl From<Function> for Activation {
    fn from(f: Function) -> Activation {
        Activation::from_function(f)
    }
}

/// The error of a run-time table request whose table is not compiled in.
///
/// Its message, in both `Display` and `Debug` (what `unwrap` shows), names
/// the cargo features that would enable the table:
///
/// ```
/// # #[cfg(not(feature = "bf16"))] {
/// let err = actlut::Activation::Gelu.table_bf16().unwrap_err();
/// assert!(err.to_string().contains("`bf16`"));
/// assert!(format!("{err:?}").contains("`bf16`"));
/// # }
/// ```
///
/// A table that cannot exist at all (log and rsqrt over FP6 and FP4, whose
/// values have no NaN: [`Format::can_represent`]) gives this error too, and its
/// message says why instead of naming features:
///
/// ```
/// use actlut::{Activation, Format};
/// let err = Activation::Log.table(Format::Fp4E2M1).unwrap_err();
/// assert!(err.to_string().contains("has no NaN"), "{err}");
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct MissingTable {
    /// The function requested.
    pub activation: Activation,
    /// The format requested.
    pub format: Format,
}

impl core::fmt::Display for MissingTable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if !self.format.can_represent(self.activation.function()) {
            return write!(
                f,
                "there is no {0}_{1} table: {0} is NaN for some inputs, and {1} has no NaN",
                self.activation.name(),
                self.format.name(),
            );
        }
        write!(
            f,
            "the {}_{} table is not compiled in: enable the cargo features `{}` and `{}` of actlut",
            self.activation.name(),
            self.format.name(),
            self.activation.feature(),
            self.format.feature()
        )
    }
}

/// The fields, and the message that names the features to enable: `unwrap()`
/// and `expect()` show `Debug`, so it must say what to do.
impl core::fmt::Debug for MissingTable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("MissingTable")
            .field("activation", &self.activation)
            .field("format", &self.format)
            .field("message", &format_args!("{self}"))
            .finish()
    }
}

impl core::error::Error for MissingTable {}

/// The longest rejected name [`UnknownActivation`] keeps (in bytes); a longer
/// one is cut at a character boundary and shown with `…`.
const KEPT_NAME: usize = 40;

/// The error of parsing an unknown activation name: it repeats the name and
/// lists the valid ones.
///
/// ```
/// let err = "gelux".parse::<actlut::Activation>().unwrap_err();
/// assert_eq!(err.name(), "gelux");
/// assert!(err.to_string().starts_with("unknown activation name `gelux`"));
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct UnknownActivation {
    /// The rejected name's first bytes (no heap: `no_std` without `alloc`).
    name: [u8; KEPT_NAME],
    /// How many bytes of `name` are used.
    len: u8,
    /// Whether the rejected name was longer than what is kept.
    truncated: bool,
}

impl UnknownActivation {
    fn new(s: &str) -> UnknownActivation {
        let mut len = s.len().min(KEPT_NAME);
        while !s.is_char_boundary(len) {
            len -= 1;
        }
        let mut name = [0; KEPT_NAME];
        name[..len].copy_from_slice(&s.as_bytes()[..len]);
        UnknownActivation {
            name,
            len: len as u8,
            truncated: len < s.len(),
        }
    }

    /// The rejected name, or its first 40 bytes when it is longer (see
    /// [`is_truncated`](Self::is_truncated)).
    pub fn name(&self) -> &str {
        let bytes = &self.name[..usize::from(self.len)];
        // Cut at a character boundary of a `&str` in `new`: always valid.
        core::str::from_utf8(bytes).unwrap_or_default()
    }

    /// Whether [`name`](Self::name) is only the beginning of the rejected name.
    pub fn is_truncated(&self) -> bool {
        self.truncated
    }
}

impl core::fmt::Display for UnknownActivation {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let more = if self.truncated { "…" } else { "" };
        write!(
            f,
            "unknown activation name `{}{more}`: expected one of",
            self.name()
        )?;
        for (i, a) in Activation::ALL.iter().enumerate() {
            let sep = if i == 0 { " " } else { ", " };
            write!(f, "{sep}{}", a.name())?;
        }
        f.write_str(" (or its feature name, such as `gelu-tanh`), or another engine's name:")?;
        for (i, (name, function)) in actlut_core::names::ENGINE_NAMES.iter().enumerate() {
            let sep = if i == 0 { " " } else { ", " };
            write!(f, "{sep}{name} ({})", function.name())?;
        }
        Ok(())
    }
}

impl core::fmt::Debug for UnknownActivation {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("UnknownActivation")
            .field("name", &self.name())
            .field("truncated", &self.truncated)
            .finish()
    }
}

impl core::error::Error for UnknownActivation {}

impl core::str::FromStr for Activation {
    type Err = UnknownActivation;

    /// Parses a table name prefix (`gelu_tanh`), a feature name (`gelu-tanh`),
    /// or another engine's name for the same exact function: candle's
    /// `gelu_erf`, burn's `gelu_approximate`, PyTorch's
    /// `GELU(approximate='tanh')` and `SiLU`, ONNX's `Gelu` and `Sigmoid`, …
    /// (the table `actlut_core::names::ENGINE_NAMES`, which the error lists).
    ///
    /// ```
    /// use actlut::Activation;
    /// assert_eq!("gelu_erf".parse(), Ok(Activation::Gelu));
    /// assert_eq!("GELU(approximate='tanh')".parse(), Ok(Activation::GeluTanh));
    /// assert_eq!("SiLU".parse(), Ok(Activation::Silu));
    /// assert_eq!("Sigmoid".parse(), Ok(Activation::Sigmoid));
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Activation::ALL
            .into_iter()
            .find(|a| a.name() == s || a.feature() == s)
            .or_else(|| actlut_core::names::from_engine_name(s).map(Activation::from_function))
            .ok_or_else(|| UnknownActivation::new(s))
    }
}

/// A compiled-in table of any format, from [`Activation::table`]: callers
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
    Compact(&'static crate::compact::CompactRef<'static>),
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
