//! Finding actlut tables inside compiled artifacts (ELF, wasm, raw firmware
//! images, static libraries: any bytes), intact, modified or cut off.
//!
//! **One call:** [`audit`] judges one artifact (bytes, or a file read in
//! blocks) against a [`Lock`] and returns its [`Report`]; [`output`] renders
//! reports as text, JSON, SARIF, CycloneDX or in-toto. Declared tables
//! ([`declared`]) are verified byte for byte; the search by content below
//! covers everything else.
//!
//! Tables are embedded verbatim, in the target's byte order, so an artifact
//! that carries a table carries its bytes contiguously. The search by
//! content rests on the whole table, not on a few windows (`docs/audit.md`,
//! "Undeclared content: one rule", states it in full):
//!
//! 1. **Index** ([`Index::new`]): every known byte string, in each byte order
//!    and each stored [`Form`], cut into the windows no simple rule predicts
//!    (grams of 16-bit tables, features of 8-bit ones, key windows of compact
//!    forms).
//! 2. **Scan** ([`Index::scan_reader_in`]): the artifact read once, in
//!    blocks, memory bounded whatever its size; every hit of a window votes
//!    for a table start.
//! 3. **Verification** ([`Scanner`]): each start with votes enough compared
//!    with its reference entry by entry, and reported as intact, modified or
//!    truncated when it holds the evidence its table needs.
//! 4. **One rule** ([`Scanner::finish`]): a region that holds that evidence
//!    is a problem unless it is an intact copy in the byte order the file
//!    declares ([`container`]). One budget ([`BUDGET_PER_BYTE`]) bounds every
//!    kind of work; a spent one is a problem that says what it did not judge
//!    ([`Report::unjudged`]).
//!
//! How many changed entries hide each table at least is derived in
//! [`guarantee`]. Compact stored forms are also found by their `ACTLUTC1`
//! header ([`compact`]); a table's SHA-256 stored raw (actlut's manifest)
//! names a table the file must carry intact. FP6 and FP4 tables, and those
//! over the unsigned formats, are found only where the file names or declares
//! them ([`found_by_content`]). What a program reads at run time is not judged
//! here: the program checks it in memory (`actlut`'s `self-check` feature).
//!
//! ```
//! use actlut_audit::{Index, Reference, Verdict};
//! use actlut_codegen::{Format, Function};
//!
//! let index = Index::new(vec![Reference::generate(Function::Tanh, Format::Fp8E4M3)]);
//! let mut artifact = vec![0u8; 1000];
//! let table = actlut_codegen::table_bytes_le(Format::Fp8E4M3,
//!     &actlut_codegen::table(Function::Tanh, Format::Fp8E4M3));
//! artifact[300..556].copy_from_slice(&table);
//! artifact[400] ^= 0x10; // one entry changed
//! let report = index.scan(&artifact);
//! assert_eq!(report.found.len(), 1);
//! assert_eq!(report.found[0].offset, 300);
//! assert_eq!(report.found[0].verdict, Verdict::Modified);
//! assert_eq!(report.found[0].differing, 1);
//! assert_eq!(report.found[0].names, ["tanh_fp8_e4m3"]);
//! ```

pub mod compact;
pub mod container;
pub mod declared;
mod filter;
pub mod guarantee;
mod index;
pub mod limits;
pub mod manifest;
pub mod ops;
pub mod output;
mod reference;
mod report;
mod run;
mod scan;
#[cfg(test)]
mod tests;

pub use guarantee::{fewest_to_break, markdown_table, stab, HidingCost, Windows};
pub use index::{
    declared_only, found_by_content, has_content, CompactKeys, Index, PIECEWISE_LINEAR,
};
pub use limits::*;
pub use reference::{merge_aliases, ByteOrder, Form, Reference};
pub use report::{
    Found, Listed, ListedStatus, LockStatus, Problem, Report, Rule, Unjudged, Verdict,
    NOTHING_VERIFIED,
};
pub use run::{
    audit, audit_all, Error, Input, Lock, BUILTIN_COMPACT_LOCK, BUILTIN_COMPACT_WORDS_LOCK,
    BUILTIN_LOCK,
};
pub use scan::Scanner;
