//! The audit's thresholds and budget: the numbers every stage reads, in one
//! leaf module that imports nothing of the audit (re-exported at the crate's
//! root).

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
/// How far, in codes, the entries of a rounded count may lie from the count
/// ([`COUNT_CONTEXT`]).
pub const COUNT_JITTER: u16 = 1;
/// Entries of a 16-bit table, ending with a surprise or with a pair gram's
/// evidence window, that make it no evidence when they follow a count up or
/// down to within [`COUNT_JITTER`] code. Over 4 entries (a surprise's own)
/// the rule also took the scaled identities of `tanh`, `erf` and `elu` near
/// 0 (slopes of 1.1 and more), and the least hiding cost of a 16-bit table
/// fell to under a third; over 8 they leave the count (docs/audit.md's
/// hiding costs).
pub const COUNT_CONTEXT: usize = 8;
/// Bytes of a gram of a small form of 16-bit words: three bytes, at every
/// offset.
pub const SMALL_GRAM: usize = 3;

/// What recomputing declared ops the lock does not list may cost a scan
/// beyond its budget: four 16-bit tables (tens of milliseconds), so that a
/// small firmware holding a few `table!` tables is judged in full however
/// short it is (one 16-bit op costs `RECOMPUTE_COST_PER_ENTRY` × 65,536,
/// the budget of 64 KiB of file). A flood of them is charged from the
/// fifth table on.
pub const OP_ALLOWANCE: u64 = 4 * 65_536 * crate::ops::RECOMPUTE_COST_PER_ENTRY;

/// The most bytes a vote's gram spans from its offset: a large gram, a small
/// gram or a compact key (`compact::KEY_BYTES`, which `compact` holds to it).
pub const GRAM_REACH: usize = 8;

const _: () = assert!(GRAM_REACH >= LARGE_GRAM && GRAM_REACH >= SMALL_GRAM);

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
/// manifest): then it is [`ListedStatus::Intact`](crate::ListedStatus::Intact) when present byte for byte
/// and [`ListedStatus::Missing`](crate::ListedStatus::Missing) otherwise.
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
/// How far, in bytes, an intact copy's start may lie from the start of a
/// table's candidate of entries of `unit` bytes (16 for 8-bit tables, 3 for
/// 16-bit ones) for the copy to clear its evidence inside it: the same bytes
/// read a byte or an entry off, or a similar table. A farther copy clears an
/// echo only ([`far_differing`]); the hiding cost counts every substitute so
/// placed ([`crate::guarantee`]).
pub const fn clearing_reach(unit: usize) -> u64 {
    if unit == 2 {
        3
    } else {
        16
    }
}
/// The changed entries that make a table's candidate an *echo*, which any
/// intact copy it overlaps clears: 64 of an 8-bit table, 256 of a 16-bit
/// one. Honest echoes farther off than [`clearing_reach`] differ in at least
/// 82 (`hardsigmoid_fp8_e4m3fnuz` 18 bytes off a table) and 510 entries
/// (`laplace_bf16` over a declared op table) in the audit's tests (docs/audit.md):
/// no hiding cost exceeds these thresholds.
pub const fn far_differing(unit: usize) -> usize {
    if unit == 2 {
        256
    } else {
        64
    }
}
/// Bytes read at a time by [`Index::scan_reader_in`](crate::Index::scan_reader_in).
pub const BLOCK_BYTES: usize = 1 << 20;
/// A gram found at more places than this (in all forms together) is dropped
/// from the index: it is too common to point at one table.
pub(crate) const MAX_SITES: usize = 64;
/// The same for the grams and pair grams of tables, which several tables may
/// share: a window found at more places than this (a run every table of a
/// format has) is dropped, so that the candidates it implies stay few.
pub(crate) const MAX_SHARED_SITES: usize = 4;
/// Findings of every kind kept per file (copies found by content, compact
/// forms found by their header, manifest records and declarations
/// together): once this many are kept, the scan judges nothing more, counts
/// what it did not judge ([`Report::unjudged`](crate::Report::unjudged)) and says so
/// ([`Report::too_many`](crate::Report::too_many), a problem). It bounds the memory the findings
/// take, whatever the input.
pub const MAX_FOUND: usize = 1 << 16;
/// Entries the verification may compare per byte of input (plus a
/// [`BUDGET_ALLOWANCE`]): the bound that keeps time linear even for an input
/// crafted to be all near-table fragments ([`Report::too_many`](crate::Report::too_many)). Real
/// binaries use a small fraction of it (docs/audit.md).
pub const BUDGET_PER_BYTE: u64 = 64;
/// Entries the verification may compare on top of [`BUDGET_PER_BYTE`]: 16
/// whole 16-bit tables, so that a small file holding a table is judged
/// whole (an intact compact stored form alone in a few kilobytes is
/// compared with the forms of the tables that share its keys, dozens). It
/// is small against the budget of any file it matters to: a crafted input
/// of 256 KiB or more spends at most a sixteenth more per byte than one of
/// 20 MB (with 1,024 tables it spent five times more, and took 27 times
/// the time of random bytes per byte; docs/audit.md, "Cost").
pub const BUDGET_ALLOWANCE: u64 = 16 * 65_536;
/// Entries of the budget ([`BUDGET_PER_BYTE`]) that every finding costs,
/// whatever its kind: a copy found by content, a compact form found by its
/// header (valid, truncated or invalid), a manifest record. Its place in the
/// report, its line and its merging cost about as much as comparing this
/// many entries, so a flood of findings stops at the budget like a flood of
/// candidates.
pub const FINDING_COST: u64 = 4096;
/// Entries of the budget that a compact stored form found by its header
/// costs per entry it decodes to, beside its length: validating it,
/// decoding its 65,536 entries, hashing them and sampling every known table
/// for the nearest one take about 0.55 ms. At 2 per entry, 20 MiB of the
/// smallest valid forms back to back took 18 times the user time of random
/// bytes (beyond the index's build) before the budget stopped it (the tenth
/// attack round); at 4, 9 to 10 times (docs/audit.md). More would take the
/// budget of a small honest file that holds a few forms.
pub const DECODE_COST_PER_ENTRY: u64 = 4;
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
/// Entries listed in [`Found::first_differences`](crate::Found::first_differences).
pub const FIRST_DIFFERENCES: usize = 8;
/// The form label of a table's own bytes.
pub const TABLE_FORM: &str = "table";
/// The form label of a compact stored form in the bytes layout
/// ([`Reference::with_compact`](crate::Reference::with_compact); what actlut's `compact` feature embeds).
pub const COMPACT_FORM: &str = "compact";
/// The form label of a compact stored form in the words layout
/// ([`Reference::with_compact`](crate::Reference::with_compact); what actlut's `compact-words` feature embeds).
pub const COMPACT_WORDS_FORM: &str = "compact-words";

/// The form label of a compact stored form in `layout`: [`COMPACT_FORM`] or
/// [`COMPACT_WORDS_FORM`].
pub const fn compact_form_label(layout: actlut_codegen::compact::Layout) -> &'static str {
    match layout {
        actlut_codegen::compact::Layout::Bytes => COMPACT_FORM,
        actlut_codegen::compact::Layout::Words => COMPACT_WORDS_FORM,
    }
}

/// A declared op's table that is a known table of its size (any format) but
/// for fewer than one in `NEAR_OP_SHARE` entries (1,024 of a 16-bit table,
/// 4 of an 8-bit one) makes its declaration a problem
/// ([`crate::declared::Declared::near`]). Honest ops come nearer than a
/// quarter (`situ(beta=8)` is `silu` but for 29% of e4m3's entries), so the
/// share is far below that; a farther op is a substitution (docs/audit.md).
pub const NEAR_OP_SHARE: usize = 64;
