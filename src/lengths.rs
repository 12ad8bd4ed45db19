//! The one rule for slice lengths: an out-of-place map whose source and
//! destination lengths differ is an `Err` naming both lengths where the API
//! returns a `Result` ([`LengthMismatch`], inside [`MapError`]), and otherwise
//! a panic with the same message, documented under `# Panics`
//! ([`check_lengths`]).

use crate::kernels::KernelUnavailable;
use crate::MissingTable;

/// The source and destination slices of an out-of-place map have different
/// lengths.
///
/// ```
/// # #[cfg(all(feature = "gelu", feature = "f16"))] {
/// use actlut::half::f16;
/// use actlut::{BuiltinTables, Function, LengthMismatch, MapError};
///
/// let err = Function::Gelu.map_f16(&[f16::ONE; 3], &mut [f16::ZERO; 2]).unwrap_err();
/// assert_eq!(err, MapError::LengthMismatch(LengthMismatch { src: 3, dst: 2 }));
/// assert_eq!(
///     err.to_string(),
///     "actlut: source slice length (3) does not match destination slice length (2)"
/// );
/// # }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LengthMismatch {
    /// The source slice's length.
    pub src: usize,
    /// The destination slice's length.
    pub dst: usize,
}

impl LengthMismatch {
    /// `Ok` when the lengths are equal, otherwise the mismatch.
    ///
    /// # Errors
    ///
    /// [`LengthMismatch`] naming both lengths when they differ.
    #[inline]
    pub const fn check(src: usize, dst: usize) -> Result<(), LengthMismatch> {
        if src == dst {
            Ok(())
        } else {
            Err(LengthMismatch { src, dst })
        }
    }
}

impl core::fmt::Display for LengthMismatch {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "actlut: source slice length ({}) does not match destination slice length ({})",
            self.src, self.dst
        )
    }
}

impl core::error::Error for LengthMismatch {}

/// Why an out-of-place map that returns a `Result`
/// ([`BuiltinTables::map_f16`](crate::BuiltinTables::map_f16) and the other
/// `BuiltinTables::map_*`, [`Kernel::map`](crate::kernels::Kernel::map)) wrote
/// nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MapError {
    /// The table is not compiled in.
    MissingTable(MissingTable),
    /// The kernel asked for cannot run this table here.
    KernelUnavailable(KernelUnavailable),
    /// The source and destination lengths differ.
    LengthMismatch(LengthMismatch),
}

impl core::fmt::Display for MapError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            MapError::MissingTable(e) => e.fmt(f),
            MapError::KernelUnavailable(e) => e.fmt(f),
            MapError::LengthMismatch(e) => e.fmt(f),
        }
    }
}

impl core::error::Error for MapError {}

impl From<MissingTable> for MapError {
    fn from(e: MissingTable) -> MapError {
        MapError::MissingTable(e)
    }
}

impl From<KernelUnavailable> for MapError {
    fn from(e: KernelUnavailable) -> MapError {
        MapError::KernelUnavailable(e)
    }
}

impl From<LengthMismatch> for MapError {
    fn from(e: LengthMismatch) -> MapError {
        MapError::LengthMismatch(e)
    }
}

/// Panics with [`LengthMismatch`]'s message when the lengths differ: the rule
/// for the maps without a `Result`.
#[inline]
#[track_caller]
pub(crate) fn check_lengths(src: usize, dst: usize) {
    if src != dst {
        len_mismatch(src, dst)
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn len_mismatch(src: usize, dst: usize) -> ! {
    panic!("{}", LengthMismatch { src, dst })
}
