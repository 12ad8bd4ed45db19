//! Tests of the index, the scan and the report through the crate's API.

use actlut_codegen::lock::Entry;
use actlut_codegen::{Format, Function};

use actlut_audit::*;

/// A table's bytes in the other byte order.
fn swap16(bytes: &[u8]) -> Vec<u8> {
    bytes.chunks_exact(2).flat_map(|c| [c[1], c[0]]).collect()
}

fn small_index() -> (Index, Vec<Reference>) {
    let refs = merge_aliases(vec![
        Reference::generate(Function::Gelu, Format::F16),
        Reference::generate(Function::Silu, Format::F16),
        Reference::generate(Function::Gelu, Format::Fp8E4M3),
        Reference::generate(Function::GeluTanh, Format::Fp8E4M3),
        Reference::generate(Function::Exp, Format::Fp8E5M2),
        Reference::generate(Function::Silu, Format::Fp8E4M3),
    ]);
    (Index::new(refs.clone()), refs)
}

/// `len` pseudo-random bytes (xorshift), the same for the same seed: what the
/// unit tests embed tables in.
fn noise(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

fn summary(r: &Report) -> Vec<(u64, ByteOrder, &str, Verdict, usize)> {
    r.found
        .iter()
        .map(|f| {
            (
                f.offset,
                f.order,
                f.names[0].as_str(),
                f.verdict,
                f.differing,
            )
        })
        .collect()
}

/// Asserts that `r` reports exactly `expected`, and besides them only the
/// same bytes read a byte off in the other byte order as a damaged copy of
/// the same table: a damaged copy clears nothing, so its other-order read,
/// which shares its evidence, is judged and reported too (the scan's one
/// rule; see `finish`).
fn assert_reports(r: &Report, expected: &[(u64, ByteOrder, &str, Verdict, usize)]) {
    let got = summary(r);
    for e in expected {
        assert!(got.contains(e), "{e:?} not in {got:?}");
    }
    for g in got.iter().filter(|g| !expected.contains(g)) {
        assert!(
            g.3 != Verdict::Intact
                && expected.iter().any(|e| {
                    e.3 != Verdict::Intact
                        && e.2 == g.2
                        && e.1 != g.1
                        && e.1 != ByteOrder::Bytes
                        && e.0.abs_diff(g.0) == 1
                }),
            "unexpected {g:?} in {got:?}"
        );
    }
}

#[test]
fn identical_tables_are_merged_into_one_reference_with_both_names() {
    let (_, refs) = small_index();
    assert_eq!(refs.len(), 5);
    assert_eq!(refs[2].names, ["gelu_fp8_e4m3", "gelu_tanh_fp8_e4m3"]);
}

#[test]
fn finds_tables_in_either_byte_order_at_odd_offsets() {
    let (index, refs) = small_index();
    let mut data = vec![0x55u8; 3];
    data.extend_from_slice(&refs[0].bytes_le); // gelu_f16, little-endian
    data.extend_from_slice(&[1, 2, 3]);
    let be_at = data.len() as u64;
    data.extend_from_slice(&swap16(&refs[1].bytes_le)); // silu_f16, big-endian
    let e5_at = data.len() as u64;
    data.extend_from_slice(&refs[3].bytes_le);
    let r = index.scan(&data);
    assert_eq!(
        summary(&r),
        [
            (3, ByteOrder::Little, "gelu_f16", Verdict::Intact, 0),
            (be_at, ByteOrder::Big, "silu_f16", Verdict::Intact, 0),
            (e5_at, ByteOrder::Bytes, "exp_fp8_e5m2", Verdict::Intact, 0),
        ]
    );
    assert_eq!(r.found[1].sha256, Some(refs[1].sha256));
    assert!(r.problems(&[]).len() == 3, "no lock: nothing is in it");
}

#[test]
fn a_changed_entry_is_reported_as_a_modified_table_with_its_own_hash() {
    let (index, refs) = small_index();
    let mut table = refs[0].bytes_le.clone();
    table[2 * 0x3C00] ^= 1; // gelu(1.0) off by one ulp
    let r = index.scan(&table);
    assert_reports(
        &r,
        &[(0, ByteOrder::Little, "gelu_f16", Verdict::Modified, 1)],
    );
    assert_eq!(r.found[0].first_differences, [0x3C00]);
    assert_eq!(r.found[0].sha256, Some(actlut_codegen::sha256(&table)));
}

/// The issue's repro: one flipped bit in each of the four windows the
/// previous audit anchored on hid the table.
#[test]
fn four_flipped_entries_in_the_old_anchor_windows_are_a_modified_table() {
    let (index, refs) = small_index();
    let mut gelu = refs[0].bytes_le.clone();
    for at in [23520, 32768, 92256, 98304] {
        gelu[at] ^= 1;
    }
    let r = index.scan(&gelu);
    assert_reports(
        &r,
        &[(0, ByteOrder::Little, "gelu_f16", Verdict::Modified, 4)],
    );
    assert_eq!(r.found[0].first_differences, [11760, 16384, 46128, 49152]);
    let silu = &refs[4];
    assert_eq!(silu.names, ["silu_fp8_e4m3"]);
    let mut bytes = silu.bytes_le.clone();
    for at in [32, 64, 144, 192] {
        bytes[at] ^= 1;
    }
    let mut data = noise(5000, 7);
    data[1234..1490].copy_from_slice(&bytes);
    let r = index.scan(&data);
    assert_reports(
        &r,
        &[(
            1234,
            ByteOrder::Bytes,
            "silu_fp8_e4m3",
            Verdict::Modified,
            4,
        )],
    );
}

#[test]
fn a_fifth_of_the_entries_changed_at_random_is_a_modified_table() {
    let (index, refs) = small_index();
    let mut gelu = refs[0].bytes_le.clone();
    let r = noise(65536 * 4, 99);
    let mut changed = 0;
    for j in 0..65536 {
        if r[4 * j] < 51 {
            gelu[2 * j] ^= r[4 * j + 1] | 1;
            changed += 1;
        }
    }
    let mut data = noise(300_001, 5);
    data.extend_from_slice(&swap16(&gelu));
    data.extend(noise(1000, 6));
    let rep = index.scan(&data);
    assert_reports(
        &rep,
        &[(
            300_001,
            ByteOrder::Big,
            "gelu_f16",
            Verdict::Modified,
            changed,
        )],
    );
}

#[test]
fn a_table_cut_off_by_either_end_of_the_file_is_truncated() {
    let (index, refs) = small_index();
    let r = index.scan(&refs[0].bytes_le[..100_000]);
    assert_reports(
        &r,
        &[(0, ByteOrder::Little, "gelu_f16", Verdict::Truncated, 0)],
    );
    assert_eq!((r.found[0].len, r.found[0].form_offset), (100_000, 0));
    assert!(r.found[0]
        .describe()
        .contains("100000 of 131072 bytes present"));
    let r = index.scan(&refs[0].bytes_le[31_073..]);
    assert_reports(
        &r,
        &[(1, ByteOrder::Little, "gelu_f16", Verdict::Truncated, 0)],
    );
    // The first whole entry is at byte 1 of the file.
    let r2 = index.scan(&refs[0].bytes_le[31_073 - 1..]);
    assert_eq!(r2.found[0].form_offset, 31_072);
    assert_eq!(r.found[0].form_offset, 31_074);
}

#[test]
fn random_constant_and_counting_data_hold_no_tables() {
    let (index, _) = small_index();
    assert!(index.scan(&[]).found.is_empty());
    assert!(index.scan(&noise(1 << 22, 3)).found.is_empty());
    assert!(index.scan(&vec![0u8; 1 << 18]).found.is_empty());
    assert!(index.scan(&vec![0xFFu8; 1 << 18]).found.is_empty());
    let count16: Vec<u8> = (0..=u16::MAX).flat_map(|v| v.to_le_bytes()).collect();
    assert!(index.scan(&count16).found.is_empty());
    let count8: Vec<u8> = (0..1 << 16).map(|v| v as u8).collect();
    assert!(index.scan(&count8).found.is_empty());
}

/// The detection policy, table by table: every table of at least
/// [`MIN_CONTENT_ENTRIES`] entries is found by its content alone; a
/// smaller one (FP6, FP4), or one over an unsigned format, is not searched
/// unless the artifact names it by its SHA-256, and then it is found intact,
/// or missing when absent.
#[test]
fn every_table_is_found_intact_alone_in_noise_in_either_byte_order() {
    let refs = Reference::generate_all();
    let index = Index::new(refs.clone());
    let mut small = 0;
    for (i, r) in refs.iter().enumerate() {
        let mut images = vec![(ByteOrder::Little, r.bytes_le.clone())];
        if r.format.entry_bytes() == 2 {
            images.push((ByteOrder::Big, swap16(&r.bytes_le)));
        } else {
            images[0].0 = ByteOrder::Bytes;
        }
        for (order, bytes) in images {
            let mut data = noise(5000 + i, i as u64);
            data.extend_from_slice(&bytes);
            data.extend(noise(3000, 1000 + i as u64));
            let rep = index.scan(&data);
            let at = 5000 + i as u64;
            let intact = [(at, order, r.names[0].as_str(), Verdict::Intact, 0)];
            if found_by_content(r.format) && has_content(r) {
                assert_eq!(summary(&rep), intact, "{:?}", r.names);
                continue;
            }
            if r.format.entry_bytes() == 2 {
                // A 16-bit table without content: verified at its declaration only
                // (`a_table_without_content_is_verified_at_its_declaration`).
                assert!(rep.listed.is_empty(), "{:?}", r.names);
                continue;
            }
            small += 1;
            // Unlisted: not searched by content, no verdict on it. (The bytes of a
            // table over an unsigned format can hold another table's evidence, the
            // positive half of a signed format's table of the same function: that
            // table is reported, as for any data.)
            assert!(
                rep.listed.is_empty() && rep.found.iter().all(|f| !f.names.contains(&r.names[0])),
                "{:?}: {:?}",
                r.names,
                summary(&rep)
            );
            if r.format.entries() < MIN_CONTENT_ENTRIES {
                assert!(rep.found.is_empty(), "{:?}", r.names);
            }
            // Listed (its hash after the table, as a manifest stores it): found
            // intact, as is every table of another format with the same bytes (the
            // identity map of `elu` over both unsigned formats), which the hash names
            // too; an intact copy clears the other tables' evidence inside it.
            let mut named = data.clone();
            named.extend_from_slice(&r.sha256);
            let rep = index.scan(&named);
            let mut want: Vec<_> = refs
                .iter()
                .filter(|o| o.sha256 == r.sha256)
                .map(|o| (at, order, o.names[0].as_str(), Verdict::Intact, 0))
                .collect();
            assert!(want.contains(&intact[0]));
            let mut found = summary(&rep);
            found.sort_by_key(|f| f.2);
            want.sort_by_key(|f| f.2);
            assert_eq!(found, want, "{:?}", r.names);
            assert_eq!(rep.listed.len(), 1, "{:?}", r.names);
            assert_eq!(rep.listed[0].status, ListedStatus::Intact);
            assert!(rep.listed[0].problem().is_none());
            // Listed but one entry changed: missing, a problem.
            named[at as usize + bytes.len() / 2] ^= 1;
            let rep = index.scan(&named);
            assert!(
                rep.found.iter().all(|f| !f.names.contains(&r.names[0])),
                "{:?}",
                r.names
            );
            if r.format.entries() < MIN_CONTENT_ENTRIES {
                assert!(rep.found.is_empty(), "{:?}", r.names);
            }
            assert_eq!(rep.listed[0].status, ListedStatus::Missing);
            assert!(rep.listed[0].problem().is_some());
        }
    }
    assert!(small > 0, "the FP6 and FP4 tables are in the list");
}

/// A table without content ([`has_content`]: the identity, relu, relu6 and hardtanh over f16
/// and bf16, the identity over e4m3 and the fnuz formats) is not found by its content alone,
/// but after its declaration record (as an actlut build stores every table) it is verified
/// exactly: intact, and a manifest that lists it sees it intact; one entry changed is a
/// problem of the declaration, and the listed table is missing.
#[test]
fn a_table_without_content_is_verified_at_its_declaration() {
    use actlut_codegen::record::{Declaration, Representation, StoredOrder};
    let refs = Reference::generate_all();
    let index = Index::new(refs.clone());
    let mut names = Vec::new();
    for (i, r) in refs.iter().enumerate() {
        if !found_by_content(r.format) || has_content(r) {
            continue;
        }
        names.extend(r.names.iter().cloned());
        let name = &r.names[0];
        let width = r.format.entry_bytes() as u8;
        let d = Declaration::new(
            name,
            Representation::Full,
            width,
            StoredOrder::Little,
            r.bytes_le.len() as u32,
            r.sha256,
        );
        let mut data = noise(5000 + i, i as u64);
        data.extend_from_slice(&d.encode()[..d.record_bytes()]);
        let at = data.len();
        data.extend_from_slice(&r.bytes_le);
        data.extend(noise(3000, 1000 + i as u64));
        data.extend_from_slice(&r.sha256);
        let rep = index.scan(&data);
        assert_eq!(rep.declared.len(), 1, "{name}");
        assert_eq!(rep.declared[0].problem(), None, "{name}");
        assert_eq!(rep.listed.len(), 1, "{name}");
        assert_eq!(rep.listed[0].status, ListedStatus::Intact, "{name}");
        data[at + r.bytes_le.len() / 2] ^= 1;
        let rep = index.scan(&data);
        assert!(rep.declared[0].problem().is_some(), "{name}");
        assert_eq!(rep.listed[0].status, ListedStatus::Missing, "{name}");
    }
    for name in [
        "identity_f16",
        "relu_bf16",
        "hardtanh_f16",
        "identity_fp8_e4m3",
    ] {
        assert!(
            names.iter().any(|n| n == name),
            "{name} has content: {names:?}"
        );
    }
}

/// Tables below [`MIN_CONTENT_ENTRIES`] at the start and the very end of
/// a file, named by their hashes before them, are found.
#[test]
fn listed_small_tables_are_found_at_either_end_of_the_file() {
    let refs = merge_aliases(vec![
        Reference::generate(Function::Gelu, Format::Fp4E2M1),
        Reference::generate(Function::Tanh, Format::Fp6E3M2),
    ]);
    let index = Index::new(refs.clone());
    let mut data = refs[0].bytes_le.clone();
    data.extend_from_slice(&refs[0].sha256);
    data.extend_from_slice(&refs[1].sha256);
    data.extend(noise(100, 9));
    let tail = data.len() as u64;
    data.extend_from_slice(&refs[1].bytes_le);
    let r = index.scan(&data);
    assert_eq!(
        summary(&r),
        [
            (0, ByteOrder::Bytes, "gelu_fp4_e2m1", Verdict::Intact, 0),
            (tail, ByteOrder::Bytes, "tanh_fp6_e3m2", Verdict::Intact, 0),
        ]
    );
    assert!(r.problems(&[]).len() == 2, "no lock: nothing is in it");
    assert!(r.listed.iter().all(|l| l.status == ListedStatus::Intact));
}

/// A saturating table of small integers that a codec library holds: it
/// matches `softsign_fp8_e5m2fnuz` on 69 entries (the identity part) with
/// 8 changes of step, enough for a quarter of the table but not for half.
#[test]
fn a_codec_clip_table_is_not_a_softsign_table() {
    let hex = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f\
               202122232425262728292a2b2c2d2e2f3031323334353536373838393a3a3b3b\
               3c3c3d3d3d3e3e3e3f3f3f3f0000000000000000000000000001020304050607\
               08090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f2021222324252627\
               28292a2b2c2d2e2f303132333435363738393a3b3b3c3d3e3e3f404041414242\
               43434344444445454545000000000000000102030405060708090a0b0c0d0e0f\
               101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f\
               303132333435363738393a3b3c3d3e3f40414142434444454646474748484949";
    let clip: Vec<u8> = (0..hex.len() / 2)
        .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
        .collect();
    assert_eq!(clip.len(), 256);
    let softsign = Reference::generate(Function::Softsign, Format::Fp8E5M2Fnuz);
    let index = Index::new(vec![softsign.clone()]);
    let mut data = noise(1000, 5);
    data.extend_from_slice(&clip);
    data.extend(noise(1000, 6));
    assert_eq!(summary(&index.scan(&data)), []);
    // The same place holds the real table: found.
    data[1000..1256].copy_from_slice(&softsign.bytes_le);
    assert_eq!(
        summary(&index.scan(&data)),
        [(
            1000,
            ByteOrder::Bytes,
            "softsign_fp8_e5m2fnuz",
            Verdict::Intact,
            0
        )]
    );
}

/// Extra stored forms (a compact encoding, say) are found like tables,
/// with their label, in both byte orders for 2-byte words.
#[test]
fn an_extra_form_is_found_intact_or_modified_under_its_label() {
    let gelu = Reference::generate(Function::Gelu, Format::Bf16);
    let form = noise(20_000, 42);
    let small = noise(300, 43);
    let r =
        gelu.with_form("compact-pool", 2, form.clone())
            .with_form("compact-dir", 1, small.clone());
    let index = Index::new(vec![r]);
    let mut data = noise(777, 1);
    data.extend_from_slice(&swap16(&form));
    data.extend(noise(100, 2));
    let dir_at = data.len() as u64;
    let mut dir = small.clone();
    dir[10] ^= 0x80;
    data.extend_from_slice(&dir);
    let rep = index.scan(&data);
    let got: Vec<_> = rep
        .found
        .iter()
        .map(|f| (f.offset, f.order, f.form.as_str(), f.verdict, f.differing))
        .collect();
    assert_eq!(
        got,
        [
            (777, ByteOrder::Big, "compact-pool", Verdict::Intact, 0),
            (
                dir_at,
                ByteOrder::Bytes,
                "compact-dir",
                Verdict::Modified,
                1
            ),
            // `noise` seeds 42 and 43 are one sequence (`seed | 1`): the
            // directory is the pool's first 300 bytes, so the changed
            // directory is also a cut-off pool, nested copies each judged.
            (
                dir_at,
                ByteOrder::Little,
                "compact-pool",
                Verdict::Truncated,
                1
            ),
        ]
    );
    assert_eq!(rep.found[0].sha256, Some(actlut_codegen::sha256(&form)));
    assert_eq!(rep.found[0].label(), "gelu_bf16 (compact-pool)");
    // An intact extra form needs no lock line of its own; a modified or
    // cut-off one is a problem.
    assert_eq!(rep.problems(&[]).len(), 2);
}

/// A table stored in its compact form only (a `compact` build), with its
/// logical SHA-256 listed: found under the form's label, and the listed
/// table counts as intact; a changed byte of the form makes it damaged.
#[test]
fn a_listed_table_stored_compact_is_intact_and_a_changed_form_is_not() {
    let table = actlut_codegen::table(Function::Gelu, Format::Bf16);
    let stored = actlut_codegen::compact_lock::stored_form_of(
        Function::Gelu,
        Format::Bf16,
        &table,
        actlut_codegen::compact::Layout::Bytes,
    )
    .unwrap();
    let gelu = Reference::generate(Function::Gelu, Format::Bf16)
        .with_compact(stored.clone())
        .unwrap();
    let index = Index::new(vec![gelu.clone()]);
    // Its identity is the table's: the lock's line of the logical entries.
    let lock = [Entry {
        name: "gelu_bf16".to_string(),
        function: Function::Gelu,
        derivative: false,
        format: Format::Bf16,
        entries: 65536,
        bytes: 131072,
        sha256: gelu.sha256,
        reference: "r".to_string(),
    }];
    for damage in [false, true] {
        let mut form = stored.clone();
        if damage {
            let mid = form.len() / 2;
            form[mid] ^= 0x04;
        }
        let mut data = noise(500, 3);
        data.extend_from_slice(&gelu.sha256);
        data.extend(noise(64, 4));
        data.extend_from_slice(&form);
        data.extend(noise(500, 5));
        let rep = index.scan(&data);
        assert_eq!(rep.found.len(), 1, "{damage}");
        assert_eq!(rep.found[0].form, "compact");
        assert_eq!(rep.listed.len(), 1);
        if damage {
            assert_ne!(rep.found[0].verdict, Verdict::Intact);
            assert_ne!(rep.listed[0].status, ListedStatus::Intact);
            assert!(!rep.problems(&lock).is_empty());
        } else {
            assert_eq!(rep.found[0].verdict, Verdict::Intact);
            assert_eq!(rep.listed[0].status, ListedStatus::Intact);
            assert!(rep.problems(&lock).is_empty(), "{:?}", rep.problems(&lock));
            // A lock without the table: not in it.
            assert_eq!(rep.problems(&[]).len(), 1);
        }
    }
}

/// An input crafted so that every 32 bytes imply another table start with
/// two votes 16 bytes apart (a table's 32-byte chunks in reverse order) cannot make the
/// scan quadratic: the verification stops at its budget and the report
/// says so.
#[test]
fn verification_work_is_bounded_by_the_input_size() {
    let (index, refs) = small_index();
    let data: Vec<u8> = refs[0]
        .bytes_le
        .chunks_exact(32)
        .rev()
        .flatten()
        .copied()
        .collect();
    let r = index.scan(&data);
    // Every 32 bytes imply another start; each is looked at over its
    // evidence only (it has too little), within the budget.
    assert!(r.compared <= BUDGET_PER_BYTE * data.len() as u64 + BUDGET_ALLOWANCE + 65_536);
    // Each of the 4,096 starts the chunks imply paid for its votes.
    assert!(r.compared >= 4096 * VOTE_COST, "{} entries", r.compared);
    assert!(r.found.iter().all(|f| f.verdict != Verdict::Intact));
    assert_eq!(
        r.too_many,
        r.problems(&[])
            .iter()
            .any(|p| p.starts_with("too many table candidates"))
    );
}

/// The worst case for 8-bit tables: a file of their 8-byte fragments in a
/// shuffled order, so that three features meet at one start of one table
/// everywhere. The candidates it makes cost a count of matching bytes each,
/// within the same budget per input byte.
#[test]
fn fragments_of_every_8_bit_table_stay_within_the_budget() {
    let refs: Vec<Reference> = Reference::generate_all()
        .into_iter()
        .filter(|r| r.format.entries() == 256)
        .collect();
    let index = Index::new(refs.clone());
    let chunks: Vec<&[u8]> = refs
        .iter()
        .flat_map(|r| r.bytes_le.chunks_exact(8))
        .collect();
    let mut x = 7u64;
    let mut data = Vec::new();
    while data.len() < 1 << 20 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        data.extend_from_slice(chunks[(x % chunks.len() as u64) as usize]);
    }
    let r = index.scan(&data);
    assert!(
        r.rejected_matching > 0,
        "the fragments make candidates, whose matching bytes are counted"
    );
    assert!(
        r.compared <= BUDGET_PER_BYTE * data.len() as u64 + BUDGET_ALLOWANCE + 256,
        "{} entries compared for {} bytes",
        r.compared,
        data.len()
    );
    // Whatever it reports is a fragment of a table, not intact.
    assert!(r.found.iter().all(|f| f.verdict != Verdict::Intact));
}

#[test]
fn a_hash_in_the_artifact_requires_its_table_intact() {
    let (index, refs) = small_index();
    let lock = [Entry {
        name: "gelu_f16".to_string(),
        function: Function::Gelu,
        derivative: false,
        format: Format::F16,
        entries: 65536,
        bytes: 131072,
        sha256: refs[0].sha256,
        reference: "r".to_string(),
    }];
    let mut data = noise(1000, 1);
    data[100..132].copy_from_slice(&refs[0].sha256);
    let r = index.scan(&data);
    assert_eq!(r.listed.len(), 1);
    assert_eq!(
        (r.listed[0].offset, &r.listed[0].status),
        (100, &ListedStatus::Missing)
    );
    assert_eq!(r.problems(&lock).len(), 1);
    data.extend_from_slice(&refs[0].bytes_le);
    assert!(index.scan(&data).problems(&lock).is_empty());
    let n = data.len();
    data[n - 2] ^= 0x40;
    let r = index.scan(&data);
    let p = r.problems(&lock);
    // The modified copy, the manifest's table damaged, and (no declared
    // byte order) the same bytes read a byte earlier in big-endian, which
    // a modified copy does not clear.
    assert_eq!(p.len(), 3, "{p:?}");
    assert!(
        p.iter()
            .any(|p| p.starts_with("gelu_f16 at 0x000003e8: modified: 1 of 65536")),
        "{p:?}"
    );
    assert!(
        p.iter()
            .any(|p| p.starts_with("gelu_f16 at 0x000003e7: modified")),
        "{p:?}"
    );
    assert!(
        p.contains(&"manifest lists gelu_f16, but its bytes are modified (1 entry)".to_string()),
        "{p:?}"
    );
}

/// A table found by its exact bytes (one over an unsigned format) where a
/// piece read ends inside it: the probe looked 64 bytes ahead, so a copy
/// whose first byte lay in the last 192 bytes of a piece was never compared
/// (an independent attack: `selu_fp8_e5m3fnu` 200 bytes before 1 MiB, in a
/// file read in 1 MiB pieces, cleared nothing, three `selu` tables of
/// other formats were reported modified inside it, and named by its hash it
/// was MISSING). Each place of the copy across the end of a piece.
#[test]
fn a_table_found_by_its_exact_bytes_across_the_end_of_a_piece_is_found() {
    let refs = merge_aliases(vec![
        Reference::generate(Function::Selu, Format::Fp8E5M3Fnu),
        Reference::generate(Function::Selu, Format::Fp8E4M3),
    ]);
    let index = Index::new(refs.clone());
    let piece = 4096;
    for before in [1, 64, 65, 200, 255] {
        let mut data = noise(3 * piece, before as u64);
        data[100..132].copy_from_slice(&refs[0].sha256);
        let at = 2 * piece - before;
        data[at..at + 256].copy_from_slice(&refs[0].bytes_le);
        let mut s = Scanner::new(&index);
        data.chunks(piece).for_each(|p| s.feed(p));
        let r = s.finish();
        let found = (
            at as u64,
            ByteOrder::Bytes,
            "selu_fp8_e5m3fnu",
            Verdict::Intact,
            0,
        );
        assert_eq!(
            summary(&r),
            [found],
            "{before} bytes before the end of a piece"
        );
        let status: Vec<_> = r.listed.iter().map(|l| &l.status).collect();
        assert_eq!(status, [&ListedStatus::Intact], "{before} bytes before");
    }
}
