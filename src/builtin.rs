//! [`BuiltinTables`]: the built-in tables of a function chosen at run time.
//!
//! The trait and its implementation for [`Function`] are generated from
//! `Function::ALL × Format::ALL` into `src/generated/builtin.rs`.

use actlut_core::Function;

/// The generated part of this module, committed in `src/generated/` (`cargo xtask
/// regenerate-api` writes it from `Function::ALL × Format::ALL`; a test fails when it is
/// stale). rustfmt leaves it as the generator writes it.
#[rustfmt::skip]
// The generated code reads a table as `&(*crate::tables::NAME)`: the static is a
// reference into the table's declared static, and the place it names has the
// table's own type in every context (a `&[u8]` argument included).
// `&crate::tables::read::NAME` is needed with `compact` (a `CompactRef`) and
// needless without it (a reference): the text is the same in both builds.
#[allow(clippy::borrow_deref_ref, clippy::needless_borrow)]
#[path = "generated/builtin.rs"]
mod generated;

pub use generated::BuiltinTables;

/// Seals [`BuiltinTables`]: its implementations are the crate's.
pub trait Sealed {}

impl Sealed for Function {}
