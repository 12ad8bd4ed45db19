//! The errors every layer shares, at the bottom of the crate's modules (they name only
//! `actlut-core`'s types):
//!
//! - the one rule for slice lengths: an out-of-place map whose source and destination lengths
//!   differ is an `Err` naming both lengths where the API returns a `Result`
//!   ([`LengthMismatch`], inside [`MapError`](crate::MapError)), and otherwise a panic with
//!   the same message, documented under `# Panics` ([`check_lengths`]);
//! - [`MissingTable`]: a table that this build does not compile in, or that cannot exist.

use actlut_core::{Format, Function};

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

/// The error of a run-time table request whose table is not compiled in.
///
/// Its message, in both `Display` and `Debug` (what `unwrap` shows), names
/// the cargo features that would enable the table:
///
/// ```
/// # #[cfg(not(feature = "bf16"))] {
/// use actlut::{BuiltinTables, Function};
/// let err = Function::Gelu.table_bf16().unwrap_err();
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
/// use actlut::{BuiltinTables, Format, Function};
/// let err = Function::Log.table(Format::Fp4E2M1).unwrap_err();
/// assert!(err.to_string().contains("has no NaN"), "{err}");
/// ```
///
/// So does a function a constant of which has no default (softcap, prelu, gelu_clipped,
/// xielu): it has no built-in table, and the message points to [`fill_table`](crate::fill_table):
///
/// ```
/// use actlut::{BuiltinTables, Format, Function};
/// let err = Function::Softcap.table(Format::Bf16).unwrap_err();
/// assert!(err.to_string().contains("fill_table"), "{err}");
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct MissingTable {
    /// The function requested.
    pub function: Function,
    /// The format requested.
    pub format: Format,
}

impl core::fmt::Display for MissingTable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if !self.format.can_represent(self.function) {
            return write!(
                f,
                "there is no {0}_{1} table: {0} is NaN for some inputs, and {1} has no NaN",
                self.function.name(),
                self.format.name(),
            );
        }
        if !self.function.has_defaults() {
            return write!(
                f,
                "there is no built-in {} table: a constant of {} has no default; build its \
                 table with actlut::fill_table (or actlut::table!) from an Op with its constants",
                self.function.name(),
                self.function.name(),
            );
        }
        write!(
            f,
            "the {}_{} table is not compiled in: enable the cargo features `{}` and `{}` of actlut",
            self.function.name(),
            self.format.name(),
            self.function.feature(),
            self.format.feature()
        )
    }
}

/// The fields, and the message that names the features to enable: `unwrap()`
/// and `expect()` show `Debug`, so it must say what to do.
impl core::fmt::Debug for MissingTable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("MissingTable")
            .field("function", &self.function)
            .field("format", &self.format)
            .field("message", &format_args!("{self}"))
            .finish()
    }
}

impl core::error::Error for MissingTable {}
