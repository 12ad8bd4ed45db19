//! Finding actlut tables inside compiled artifacts (ELF, wasm, raw firmware
//! images, static libraries: any bytes), intact, modified or cut off.
//!
//! **One call:** [`audit`] judges one artifact (bytes, or a file read in
//! blocks) against a [`Lock`] and returns its [`Report`]; [`output`] renders
//! reports as text, JSON, SARIF, CycloneDX or in-toto. Declared tables
//! ([`declared`]) are verified byte for byte; the search by content below
//! covers everything else.
//!
//! Tables are embedded verbatim, in the target's endianness, so an artifact that
//! carries a table carries its 131,072 (or 256) bytes contiguously. Detection
//! rests on the whole table, not on a few windows:
//!
//! 1. **Index.** [`Index::new`] cuts every known byte string (every table in
//!    each byte order, and any extra stored [`Form`] of it) into *grams*: the
//!    8-byte window at every entry of a 16-bit table (four entries) and its
//!    pairs of entries at every other entry ([`PAIR_GRAM`]), the 8-byte chunks
//!    of other large forms, and the 4-byte keys of compact stored forms.
//!    Grams that a formula predicts are left out: steps that repeat with
//!    period 1 or 2 (a constant run, a count, an alternation such as
//!    `0 1 1 2 2 3`). Binaries hold such runs in many unrelated tables, so
//!    they are no evidence of an actlut table. An 8-bit table (any form of
//!    single bytes under [`SMALL_FORM_BYTES`]) is cut into *features*
//!    instead: every two of its entries up to [`FEATURE_REACH`] apart whose
//!    step is not 0 or one unit per entry (a run, a count), each a hit on its
//!    own whatever the entries between them hold.
//! 2. **Scan.** The artifact is read once, in blocks, with a window that keeps
//!    the last table length of bytes, so memory does not grow with the file
//!    ([`Index::scan_reader_in`]). At *every* byte offset the 8-byte and the
//!    4-byte value there are looked up (a one-word Bloom filter, then a hash
//!    table of exact keys), and the byte with each of the next
//!    [`FEATURE_REACH`] bytes (a bit per pair of bytes). Every hit implies a
//!    table start (its offset minus the gram's place in the table). A start
//!    of a large form needs [`MIN_VOTES_LARGE`] hits, one of an 8-bit table
//!    [`MIN_FEATURES`].
//! 3. **Verification.** Each distinct (form, byte order, start) is compared
//!    with the reference entry by entry, over the part of it that lies inside
//!    the file. Its *evidence* is the number of matching *surprises*: entries
//!    `j` whose step `e[j] - e[j-1]` differs from both steps before it, with
//!    entries `j-3` to `j` all equal to the reference's. Runs, counts and
//!    alternations have no surprises; random entries match one with
//!    probability 2^-64. An 8-bit table's evidence is its matching features
//!    (2^-16 each in random bytes). A candidate with at least
//!    [`MIN_EVIDENCE_WORDS`] surprises (16-bit words; [`MIN_EVIDENCE_LARGE`]
//!    for a large form of single bytes) or [`MIN_EVIDENCE_PAIRS`] pair grams,
//!    and [`MIN_MATCHING_LARGE`] matching entries, or [`MIN_FEATURES`]
//!    features and [`MIN_MATCHING_SMALL`] matching entries (8-bit; and
//!    [`MIN_INFORMATIVE_SMALL`] matching entries other than the table's most
//!    common value, a saturated output, and [`MIN_DISTINCTIVE_PER_MILLE`] of
//!    the entries in its features), is reported as
//!    - [`Verdict::Intact`]: every entry equals the reference;
//!    - [`Verdict::Modified`]: the whole table is in the file but some entries
//!      differ (how many, and the first few positions);
//!    - [`Verdict::Truncated`]: the table runs past the start or the end of
//!      the file (how much of it is present, and how much of that differs).
//!
//!    Candidates are compared in order of hits, and the work stops at the
//!    budget ([`Report::too_many`], a problem), so time stays linear.
//! 4. **One rule.** *A region that holds the evidence a known table needs
//!    is reported as a problem unless it is an intact copy in the file's
//!    declared byte order, or every item of that evidence overlaps such
//!    copies* ([`Scanner::finish`]). The declared order is the one the
//!    file's format states ([`container`]: ELF, wasm, Mach-O, PE, COFF, and
//!    archives of them; a raw image declares none: either order counts). A copy in the other order, a modified copy and a compact
//!    form's declared extent clear nothing; an intact copy in the other
//!    order of a file that declares one is itself a problem
//!    ([`Found::foreign_order`]). One budget ([`BUDGET_PER_BYTE`],
//!    [`FINDING_COST`], [`VOTE_COST`], [`HIT_COST`], [`CANDIDATE_COST`])
//!    bounds every kind of work and finding; a spent one is a problem that
//!    says what it did not judge ([`Report::unjudged`]).
//!
//! So a copy is reported as long as any part of it keeps two grams, eight
//! surprises and 256 bytes in place (an 8-bit table: three features and half
//! its entries); how many changed entries hide each table at least is
//! derived in [`guarantee`]. The scan also looks for every known table's
//! SHA-256 stored raw (actlut's manifest): a file that names a table so must
//! carry it intact. Compact stored forms are found by their key windows and
//! by their `ACTLUTC1` header ([`compact`]). FP6 and FP4 tables are too short
//! to tell from chance: they are reported only where the file names them by
//! hash or declares them. So are the tables over the unsigned formats
//! (`fp8_e5m3fnu`, `fp8_e8m0fnu`): their inputs are all positive, and their
//! tables are counts, fills and slow ramps, which binaries hold without any
//! table ([`found_by_content`]). What a program reads at run time is not judged
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
