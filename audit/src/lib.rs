//! Finding actlut tables inside compiled artifacts (ELF, wasm, raw firmware
//! images, static libraries: any bytes), intact, modified or cut off.
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
//!    ([`Index::scan_reader`]). At *every* byte offset the 8-byte and the
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
//! its entries): four flipped entries, a fifth or half of the entries
//! changed at random, or a cut-off copy all leave thousands of them. How
//! many changed entries it takes at least to hide each table is derived in
//! [`guarantee`]. What is not reported alone is a part of a table that a formula
//! predicts (the constant, counting and halving regions), which binaries hold
//! for unrelated reasons.
//!
//! The scan also looks for the SHA-256 of every known table stored raw, as
//! actlut's manifest (`actlut::manifest::TABLES`) and the `*_SHA256` constants
//! store it: an artifact that names a table by its hash must carry that table
//! intact ([`Report::problems`]).
//!
//! **What the program reads** is not judged here: a loader maps segments
//! and applies relocations, and the program's code may read anything. The
//! audit's promise is about the file's bytes; the running program checks the
//! tables it reads in memory (`actlut`'s `self-check` feature).
//!
//! **Compact stored forms.** A 16-bit table that actlut's `compact` feature
//! embeds as its stored form ([`Reference::with_compact`]) is found by its
//! 4-byte key windows and its bytes whatever its header holds, and by its `ACTLUTC1`
//! header; a changed byte anywhere in it, a compact form of an unknown table
//! and an invalid one are problems ([`compact`] says how, and with what
//! evidence).
//!
//! **Detection by table size.** Tables of [`MIN_CONTENT_ENTRIES`] (256)
//! entries or more (f16, bf16, every fp8) are found by their content alone,
//! intact, modified or truncated. FP6 (64 entries) and FP4 (16 entries)
//! tables are too short to tell from chance by content, and are below the
//! detection threshold: the scan looks for their exact bytes, and reports
//! one only when the artifact names it by its SHA-256. A named one present
//! byte for byte is intact; otherwise it is [`ListedStatus::Missing`] (a
//! problem). An unnamed one gives no verdict, changed or not.
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
pub mod guarantee;
mod index;
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
pub(crate) use index::{is_periodic, is_progression};
pub use index::{CompactKeys, Index};
pub use reference::{merge_aliases, ByteOrder, Form, Reference};
pub use report::{
    Found, Listed, ListedStatus, LockStatus, Problem, Report, Rule, Unjudged, Verdict,
    NOTHING_VERIFIED,
};
pub use run::{
    audit, Error, Input, Lock, BUILTIN_COMPACT_LOCK, BUILTIN_COMPACT_WORDS_LOCK, BUILTIN_LOCK,
};
pub use scan::Scanner;

/// Bytes of a gram of a large form: four 16-bit entries.
pub const LARGE_GRAM: usize = 8;
/// Bytes of a pair gram of a 16-bit table: two entries, at every even entry,
/// whose step is not 0 or +-1. A copy is compared when [`MIN_VOTES_LARGE`]
/// of its grams of either kind are in place, and reported on
/// [`MIN_EVIDENCE_PAIRS`] matching pairs as well as on its surprises.
pub const PAIR_GRAM: usize = 4;
/// Matching pair grams that are evidence enough for a 16-bit candidate
/// (instead of [`MIN_EVIDENCE_WORDS`] surprises): in random bytes one
/// matches with probability 2^-32; in the files of `/usr/bin` and
/// `/usr/lib/x86_64-linux-gnu` a rejected candidate matched at most 7, in
/// the Rust sysroot 28 (`libLLVM`; `docs/audit.md`).
pub const MIN_EVIDENCE_PAIRS: usize = 64;
/// Bytes of a gram of a small form of 16-bit words: three bytes, at every
/// offset.
pub const SMALL_GRAM: usize = 3;
/// Forms shorter than this are small: of single bytes (an 8-bit table),
/// indexed by their features ([`FEATURE_REACH`]); of 16-bit words, by
/// [`SMALL_GRAM`]-byte grams at every offset.
pub const SMALL_FORM_BYTES: usize = 1024;
/// Matching surprises a candidate of a large form of single bytes (a compact
/// stored form) needs to be reported: one of its surprises spans only four
/// bytes, so it is far weaker evidence than a 16-bit table's.
pub const MIN_EVIDENCE_LARGE: usize = 8;
/// Matching surprises a candidate of a large form of 16-bit words (a 16-bit
/// table) needs to be reported. In random bytes one surprise matches with
/// probability 2^-64; in the files of `/usr/bin` and
/// `/usr/lib/x86_64-linux-gnu` a rejected candidate matched at most 3
/// (the 16-bit code tables of character-set converters; `docs/audit.md`).
pub const MIN_EVIDENCE_WORDS: usize = 8;
/// Matching surprises a candidate of a small form of 16-bit words needs to
/// be reported (an 8-bit table needs [`MIN_FEATURES`] instead).
pub const MIN_EVIDENCE_SMALL: usize = 6;
/// Matching entries a candidate of a large form needs to be reported (256
/// bytes of a 16-bit table).
pub const MIN_MATCHING_LARGE: usize = 128;
/// Matching entries a candidate of a small form needs to be reported (half
/// of an 8-bit table: a quarter let a saturating table of small integers in
/// a codec library pass as `softsign_fp8_e5m2fnuz`, its identity part and
/// eight changes of step matching).
pub const MIN_MATCHING_SMALL: usize = 128;
/// Of those, the matching entries other than the form's most common value
/// (a saturated output) a candidate of a small form needs: a fill of that
/// value is no evidence.
pub const MIN_INFORMATIVE_SMALL: usize = 64;
/// Tables of fewer entries than this (FP6: 64, FP4: 16) are *below the
/// detection threshold*: too short to tell from chance by their content, they
/// are not searched by content at all. Their exact bytes are looked for, and
/// reported only when the artifact names the table by its SHA-256 (the
/// manifest): then it is [`ListedStatus::Intact`] when present byte for byte
/// and [`ListedStatus::Missing`] otherwise.
pub const MIN_CONTENT_ENTRIES: usize = 256;
/// The farthest apart, in entries, that the two entries of a *feature* of an
/// 8-bit table lie. A feature is two entries `j` and `j + d`, `d` in
/// `1..=FEATURE_REACH`, whose step a formula does not predict (neither 0 nor
/// one unit per entry, either way: a run, a count). It holds whatever the
/// entries between them are: a changed entry breaks the features it is one
/// of (up to `2 * FEATURE_REACH`), so hiding a table takes changing about
/// three of every four of its entries that lie in features, where windows of
/// three consecutive entries would take one of every three.
pub const FEATURE_REACH: usize = 3;
/// Features an 8-bit candidate needs in place at its start, to be compared
/// (found) and to be reported (evidence). In random bytes one feature matches
/// with probability 2^-16, so three at one start of one table have odds of
/// about 2^-48 times the few hundred features a table has, cubed, over six.
pub const MIN_FEATURES: usize = 3;
/// Of an 8-bit table's distinctive entries (those in a feature), the share
/// per mille a candidate needs matching to be reported: three features and
/// half the table's entries are not enough in code tables of text encodings
/// (Perl's `Encode/JP.so` matched `selu_fp8_e5m2` so, its identity half
/// and three features; docs/audit.md), where half of the distinctive entries
/// is far out of reach. An attacker must change all but half of them.
pub const MIN_DISTINCTIVE_PER_MILLE: usize = 500;
/// Gram hits a candidate of a large form needs before it is compared with
/// its reference. One would let a few more short runs of 16-bit tables be
/// found, but the 16-bit code tables of character-set converters (glibc's
/// `gconv/GBK.so`) then hit so many starts that the comparisons exceed
/// [`BUDGET_PER_BYTE`].
pub const MIN_VOTES_LARGE: u32 = 2;
/// Of a table's (not a compact form's) [`MIN_VOTES_LARGE`] gram hits, the
/// first and the last must lie this many bytes apart in the table: grams
/// start at every entry, and overlapping ones are one coincidence, not two.
pub const VOTE_SPREAD: usize = 16;
/// Bytes read at a time by [`Index::scan_reader`].
pub const BLOCK_BYTES: usize = 1 << 20;
/// A gram found at more places than this (in all forms together) is dropped
/// from the index: it is too common to point at one table.
const MAX_SITES: usize = 64;
/// The same for the grams and pair grams of tables, which several tables may
/// share: a window found at more places than this (a run every table of a
/// format has) is dropped, so that the candidates it implies stay few.
const MAX_SHARED_SITES: usize = 4;
/// Findings of every kind kept per file (copies found by content, compact
/// forms found by their header, manifest records and declarations
/// together): once this many are kept, the scan judges nothing more, counts
/// what it did not judge ([`Report::unjudged`]) and says so
/// ([`Report::too_many`], a problem). It bounds the memory the findings
/// take, whatever the input.
pub const MAX_FOUND: usize = 1 << 16;
/// Entries the verification may compare per byte of input (plus a
/// [`BUDGET_ALLOWANCE`]): the bound that keeps time linear even for an input
/// crafted to be all near-table fragments ([`Report::too_many`]). Real
/// binaries use a small fraction of it (docs/audit.md).
pub const BUDGET_PER_BYTE: u64 = 64;
/// Entries the verification may compare on top of [`BUDGET_PER_BYTE`]: 1024
/// whole 16-bit tables (a modified copy is compared with every table whose
/// grams it shares, a few hundred; on an intact copy they are skipped).
pub const BUDGET_ALLOWANCE: u64 = 1024 * 65_536;
/// Entries of the budget ([`BUDGET_PER_BYTE`]) that every finding costs,
/// whatever its kind: a copy found by content, a compact form found by its
/// header (valid, truncated or invalid), a manifest record. Its place in the
/// report, its line and its merging cost about as much as comparing this
/// many entries, so a flood of findings stops at the budget like a flood of
/// candidates.
pub const FINDING_COST: u64 = 4096;
/// Entries of the budget that every new candidate start costs when a gram,
/// key or feature first votes for it (its votes are kept in a hash table and
/// looked up once more when it is ready): crafted bytes whose every offset
/// implies another start stop at the budget too.
pub const VOTE_COST: u64 = 16;
/// Entries of the budget that every gram or key hit costs (an update of its
/// start's votes), and every feature hit a quarter of it (an update of a
/// ring): once the budget is spent, a block is probed for hashes, headers
/// and records only.
pub const HIT_COST: u64 = 1;
/// Entries of the budget that every candidate costs before its comparison
/// (its votes looked up, its place among the copies found, its order among
/// the ready ones): a flood of small candidates stops at the budget as a
/// flood of large ones does.
pub const CANDIDATE_COST: u64 = 2048;
/// Entries listed in [`Found::first_differences`].
pub const FIRST_DIFFERENCES: usize = 8;
/// The form label of a table's own bytes.
pub const TABLE_FORM: &str = "table";
/// The form label of a compact stored form in the bytes layout
/// ([`Reference::with_compact`]; what actlut's `compact` feature embeds).
pub const COMPACT_FORM: &str = "compact";
/// The form label of a compact stored form in the words layout
/// ([`Reference::with_compact`]; what actlut's `compact-words` feature embeds).
pub const COMPACT_WORDS_FORM: &str = "compact-words";

/// The form label of a compact stored form in `layout`: [`COMPACT_FORM`] or
/// [`COMPACT_WORDS_FORM`].
pub const fn compact_form_label(layout: actlut_codegen::compact::Layout) -> &'static str {
    match layout {
        actlut_codegen::compact::Layout::Bytes => COMPACT_FORM,
        actlut_codegen::compact::Layout::Words => COMPACT_WORDS_FORM,
    }
}
