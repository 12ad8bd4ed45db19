//! The audit against an adversary: random tables of every format, with k
//! entries changed (k from 1 to half the table) at random positions and at
//! chosen ones (the four 32-byte windows the previous audit anchored on,
//! every 64th entry, the first and last entries), embedded at a random offset
//! in random bytes, possibly byte-swapped. The audit always reports the table
//! as modified, with exactly k differing entries, and fails (exit code 1):
//! never "no tables". A copy cut off by either end of the file with half of it
//! or more present is reported as truncated. Unchanged copies pass (exit 0),
//! so the properties can fail. The formats are every one whose tables have
//! 256 entries or more (f16, bf16, the four fp8).
//!
//! Tables of 64 and 16 entries (FP6, FP4) are below the content threshold
//! (`actlut_audit::MIN_CONTENT_ENTRIES`): an artifact that names one by its SHA-256
//! must hold its exact bytes (intact, exit 0), and any change makes it
//! missing (exit 1); unnamed, they give no verdict at all, changed or not.
//!
//! Compact stored forms (what actlut's `compact` feature embeds): each of the
//! 36 shipped ones, with k bytes changed at random anywhere in it (header,
//! directory or pool), with or without its magic zeroed, embedded at a random
//! offset in random bytes, is reported as modified with exactly the changed
//! bytes counted (exit code 1); unchanged it is intact (exit code 0); cut
//! off by either end of the file with half of it or more present it is
//! truncated.
//!
//! The library API runs the many cases; a few end-to-end cases run the
//! `actlut` command on real tables.

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

use actlut_audit::{ByteOrder, Index, Reference, Report, Verdict};
use actlut_codegen::lock::Entry;
use actlut_codegen::{Format, Function};
use proptest::prelude::*;

// A small deterministic generator (the cases come from proptest's seeds): the
// one of the tests' shared helpers.
#[path = "../../../tests/support/mod.rs"]
mod support;
use support::Rng;

/// Where the changes go, besides random positions.
#[derive(Clone, Copy, Debug)]
enum Chosen {
    /// Only random positions.
    None,
    /// One entry in each of four 32-byte windows, one window per quarter.
    AnchorWindows,
    /// Every entry of those four windows.
    WholeAnchorWindows,
    /// Every 64th entry.
    Every64th,
    /// The first and the last entry.
    FirstAndLast,
}

fn chosen_positions(chosen: Chosen, entries: usize, unit: usize, rng: &mut Rng) -> Vec<usize> {
    let window = 32 / unit;
    let quarter = entries / 4;
    let windows = |rng: &mut Rng| -> Vec<usize> {
        (0..4)
            .map(|q| q * quarter + rng.below(quarter / window) * window)
            .collect()
    };
    match chosen {
        Chosen::None => Vec::new(),
        Chosen::AnchorWindows => windows(rng)
            .into_iter()
            .map(|w| w + rng.below(window))
            .collect(),
        Chosen::WholeAnchorWindows => windows(rng)
            .into_iter()
            .flat_map(|w| w..w + window)
            .collect(),
        Chosen::Every64th => (0..entries).step_by(64).collect(),
        Chosen::FirstAndLast => vec![0, entries - 1],
    }
}

/// Changes the chosen entries and then random ones until `k` entries
/// differ (at least the chosen ones); returns how many differ.
fn change(table: &mut [u8], unit: usize, k: usize, chosen: Chosen, rng: &mut Rng) -> usize {
    let entries = table.len() / unit;
    let mut changed = vec![false; entries];
    let mut positions = chosen_positions(chosen, entries, unit, rng);
    let mut count = 0;
    loop {
        let j = match positions.pop() {
            Some(j) => j,
            None if count < k => rng.below(entries),
            None => break,
        };
        if changed[j] {
            continue;
        }
        changed[j] = true;
        count += 1;
        // A different value: XOR with a non-zero word.
        let x = loop {
            let x = rng.next() as u16 & if unit == 1 { 0xFF } else { 0xFFFF };
            if x != 0 {
                break x;
            }
        };
        table[j * unit] ^= x as u8;
        if unit == 2 {
            table[j * unit + 1] ^= (x >> 8) as u8;
        }
    }
    count
}

fn swap16(bytes: &[u8]) -> Vec<u8> {
    bytes.chunks_exact(2).flat_map(|c| [c[1], c[0]]).collect()
}

/// A random table of `format` under the name of its gelu table, its index,
/// and a lock that holds its hash.
fn random_reference(format: Format, rng: &mut Rng) -> (Reference, Index, Vec<Entry>) {
    let mask = format.code_mask() as u8;
    let bytes: Vec<u8> = if format.entry_bytes() == 1 {
        rng.bytes(format.table_bytes())
            .iter()
            .map(|b| b & mask)
            .collect()
    } else {
        rng.bytes(format.table_bytes())
    };
    let name = actlut_codegen::table_name(Function::Gelu, format);
    let r = Reference::new(name.clone(), format, bytes);
    let lock = vec![Entry {
        name,
        function: Function::Gelu,
        derivative: false,
        format,
        entries: format.entries(),
        bytes: format.table_bytes(),
        sha256: r.sha256,
        reference: "test".to_string(),
    }];
    (r.clone(), Index::new(vec![r]), lock)
}

fn chosen_strategy() -> impl Strategy<Value = Chosen> {
    prop_oneof![
        Just(Chosen::None),
        Just(Chosen::AnchorWindows),
        Just(Chosen::WholeAnchorWindows),
        Just(Chosen::Every64th),
        Just(Chosen::FirstAndLast),
    ]
}

fn format_strategy() -> impl Strategy<Value = Format> {
    prop_oneof![
        Just(Format::F16),
        Just(Format::Bf16),
        Just(Format::Fp8E4M3),
        Just(Format::Fp8E5M2),
        Just(Format::Fp8E4M3Fnuz),
        Just(Format::Fp8E5M2Fnuz),
    ]
}

fn small_format_strategy() -> impl Strategy<Value = Format> {
    prop_oneof![
        Just(Format::Fp6E2M3),
        Just(Format::Fp6E3M2),
        Just(Format::Fp4E2M1),
    ]
}

/// The one verdict of `report`, or a failure that shows the report.
fn only(report: &Report) -> Result<&actlut_audit::Found, TestCaseError> {
    prop_assert_eq!(report.found.len(), 1, "{:#?}", report.found);
    Ok(&report.found[0])
}

/// The finding of the table named `name` at `offset`: under the one rule a
/// changed or cut-off form is also reported as the similar forms whose
/// evidence its bytes hold (more lines, the same exit status), so the test
/// picks the one it made (by its name, or by its header when that is all a
/// cut-off form shows) and requires that nothing in the report passes.
fn the<'r>(
    report: &'r Report,
    name: &str,
    offset: u64,
) -> Result<&'r actlut_audit::Found, TestCaseError> {
    for f in &report.found {
        // A changed header byte can declare a valid form in another packing of
        // the same 65,536 entries (its pool length grown over the bytes after
        // it): intact as such, said so, beside the modified stored form, and
        // it clears none of its problems.
        let other_packing = f.compact.as_ref().is_some_and(|c| c.other_packing);
        prop_assert!(
            f.verdict != Verdict::Intact || other_packing,
            "an intact copy beside a changed one: {:#?}",
            report.found
        );
    }
    // By its content under its name, or by its header alone (a cut-off form's
    // header names no table).
    let named = |f: &&actlut_audit::Found| f.offset == offset && f.names.iter().any(|n| n == name);
    let by_header = |f: &&actlut_audit::Found| f.offset == offset && f.names.is_empty();
    match report
        .found
        .iter()
        .find(named)
        .or_else(|| report.found.iter().find(by_header))
    {
        Some(f) => Ok(f),
        None => Err(TestCaseError::fail(format!(
            "{name} at {offset} not reported: {:#?}",
            report.found
        ))),
    }
}

/// Every shipped 16-bit table with its compact stored form, indexed once,
/// the stored forms, and the lock of the tables.
fn compact_index() -> &'static (Index, Vec<Vec<u8>>, Vec<Entry>) {
    static INDEX: OnceLock<(Index, Vec<Vec<u8>>, Vec<Entry>)> = OnceLock::new();
    INDEX.get_or_init(|| {
        let (mut refs, mut forms, mut lock) = (Vec::new(), Vec::new(), Vec::new());
        for (function, format) in actlut_codegen::table_pairs() {
            if !actlut_codegen::compact_lock::is_compacted(format) {
                continue;
            }
            let stored = actlut_codegen::compact_lock::stored_form(
                function,
                format,
                actlut_codegen::compact::Layout::Bytes,
            )
            .unwrap();
            let r = Reference::generate(function, format);
            lock.push(Entry {
                name: r.names[0].clone(),
                function,
                derivative: false,
                format,
                entries: format.entries(),
                bytes: format.table_bytes(),
                sha256: r.sha256,
                reference: "test".to_string(),
            });
            forms.push(stored.clone());
            refs.push(r.with_compact(stored).unwrap());
        }
        let index = Index::new(actlut_audit::merge_aliases(refs));
        // The forms with evidence enough to be found by content (a header zeroed or cut off
        // leaves only that): the identity's, relu's, relu6's and hardtanh's are runs and
        // counts, found by their header or their declaration only.
        let keys = index.compact_keys();
        let found_by_content = |name: &str| {
            keys.iter().any(|k| {
                k.form == "compact"
                    && k.name.split(" = ").any(|n| n == name)
                    && k.covered >= actlut_audit::compact::MIN_MATCHING_BYTES
                    && k.hiding_cost > 0
            })
        };
        let keep: Vec<bool> = lock.iter().map(|e| found_by_content(&e.name)).collect();
        let forms = forms
            .into_iter()
            .zip(&keep)
            .filter(|(_, k)| **k)
            .map(|(f, _)| f)
            .collect();
        let lock = lock
            .into_iter()
            .zip(&keep)
            .filter(|(_, k)| **k)
            .map(|(e, _)| e)
            .collect();
        (index, forms, lock)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
#[ignore = "whole-binary audits of the real build: .ci/steps/30-audit.sh runs them in release (--include-ignored)"]
    fn a_changed_compact_form_is_modified_whatever_its_header_holds(
        which in 0usize..1000,
        seed in any::<u64>(),
        k in prop_oneof![0usize..=3, 0usize..=64],
        zero_magic in any::<bool>(),
        before in 0usize..5000,
        after in 0usize..3000,
    ) {
        let (index, forms, lock) = compact_index();
        let which = which % forms.len();
        let mut rng = Rng(seed | 1);
        let mut form = forms[which].clone();
        if zero_magic {
            form[..8].fill(0);
        }
        let mut hit = vec![false; form.len()];
        for _ in 0..k {
            let j = loop {
                let j = rng.below(form.len());
                if !hit[j] {
                    break j;
                }
            };
            hit[j] = true;
            form[j] ^= 1 + rng.below(255) as u8;
        }
        let changed = form.iter().zip(&forms[which]).filter(|(a, b)| a != b).count();
        let mut data = rng.bytes(before);
        data.extend_from_slice(&form);
        data.extend(rng.bytes(after));
        let report = index.scan(&data);
        if changed == 0 {
            let f = only(&report)?;
            prop_assert_eq!(f.offset, before as u64);
            prop_assert_eq!(f.form.as_str(), "compact");
            prop_assert_eq!(f.verdict, Verdict::Intact);
            prop_assert!(report.problems(lock).is_empty(), "{:?}", report.problems(lock));
        } else {
            let f = the(&report, &lock[which].name, before as u64)?;
            prop_assert_eq!(f.form.as_str(), "compact");
            prop_assert_eq!(f.verdict, Verdict::Modified, "{}", f.describe());
            prop_assert_eq!(f.differing, changed);
            let c = f.compact.as_ref().unwrap();
            prop_assert_eq!(c.header + c.directory + c.pool, changed);
            prop_assert!(!report.problems(lock).is_empty());
        }
    }

    #[test]
#[ignore = "whole-binary audits of the real build: .ci/steps/30-audit.sh runs them in release (--include-ignored)"]
    fn a_compact_form_cut_off_by_either_end_is_truncated(
        which in 0usize..1000,
        seed in any::<u64>(),
        keep_permille in 500usize..1000,
        at_start in any::<bool>(),
        pad in 0usize..3000,
    ) {
        let (index, forms, lock) = compact_index();
        let which = which % forms.len();
        let mut rng = Rng(seed | 1);
        let form = &forms[which];
        let keep = form.len() * keep_permille / 1000;
        let data = if at_start {
            let mut d = form[form.len() - keep..].to_vec();
            d.extend(rng.bytes(pad));
            d
        } else {
            let mut d = rng.bytes(pad);
            d.extend_from_slice(&form[..keep]);
            d
        };
        let report = index.scan(&data);
        let offset = if at_start { 0 } else { pad as u64 };
        let f = the(&report, &lock[which].name, offset)?;
        prop_assert_eq!((f.verdict, f.len), (Verdict::Truncated, keep));
        prop_assert_eq!(f.differing, 0);
        prop_assert!(!report.problems(lock).is_empty());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
#[ignore = "whole-binary audits of the real build: .ci/steps/30-audit.sh runs them in release (--include-ignored)"]
    fn a_modified_copy_is_always_reported_as_modified_and_fails(
        format in format_strategy(),
        seed in any::<u64>(),
        // k as a fraction of half the table, weighted towards both ends.
        k_permille in prop_oneof![0u32..=20, 0u32..=1000, 980u32..=1000],
        chosen in chosen_strategy(),
        before in 0usize..5000,
        after in 0usize..3000,
        swapped in any::<bool>(),
    ) {
        let mut rng = Rng(seed | 1);
        let (r, index, lock) = random_reference(format, &mut rng);
        let unit = format.entry_bytes();
        let half = format.entries() / 2;
        let k = (half * k_permille as usize / 1000).clamp(1, half);
        let mut copy = r.bytes_le.clone();
        let changed = change(&mut copy, unit, k, chosen, &mut rng);
        prop_assume!(changed <= half);
        let swapped = swapped && unit == 2;
        let mut data = rng.bytes(before);
        data.extend(if swapped { swap16(&copy) } else { copy });
        data.extend(rng.bytes(after));
        let report = index.scan(&data);
        let f = only(&report)?;
        prop_assert_eq!(f.verdict, Verdict::Modified);
        prop_assert_eq!(f.differing, changed);
        prop_assert_eq!(f.offset, before as u64);
        let order = match (unit, swapped) {
            (1, _) => ByteOrder::Bytes,
            (_, true) => ByteOrder::Big,
            _ => ByteOrder::Little,
        };
        prop_assert_eq!(f.order, order);
        prop_assert!(!report.problems(&lock).is_empty(), "a modified copy passed");
    }

    #[test]
#[ignore = "whole-binary audits of the real build: .ci/steps/30-audit.sh runs them in release (--include-ignored)"]
    fn an_unchanged_copy_passes_and_a_cut_off_one_is_truncated(
        format in format_strategy(),
        seed in any::<u64>(),
        present_permille in 500u32..1000,
        at_end in any::<bool>(),
        noise in 0usize..5000,
        swapped in any::<bool>(),
    ) {
        let mut rng = Rng(seed | 1);
        let (r, index, lock) = random_reference(format, &mut rng);
        let unit = format.entry_bytes();
        let swapped = swapped && unit == 2;
        let image = if swapped { swap16(&r.bytes_le) } else { r.bytes_le.clone() };

        let mut whole = rng.bytes(noise);
        whole.extend_from_slice(&image);
        whole.extend(rng.bytes(noise / 2));
        let report = index.scan(&whole);
        let f = only(&report)?;
        prop_assert_eq!(f.verdict, Verdict::Intact);
        prop_assert!(report.problems(&lock).is_empty(), "{:?}", report.problems(&lock));

        // Half or more of it, cut by the end (or the start) of the file, at
        // any byte (not only an entry boundary).
        let present = (image.len() * present_permille as usize / 1000).max(image.len() / 2);
        let data = if at_end {
            let mut d = rng.bytes(noise);
            d.extend_from_slice(&image[..present]);
            d
        } else {
            let mut d = image[image.len() - present..].to_vec();
            d.extend(rng.bytes(noise));
            d
        };
        let report = index.scan(&data);
        let f = only(&report)?;
        prop_assert_eq!(f.verdict, Verdict::Truncated);
        prop_assert_eq!(f.differing, 0);
        // Whole entries only: at most one byte of a 16-bit entry is left out.
        prop_assert!(present - f.len < unit, "{} of {present}", f.len);
        prop_assert!(!report.problems(&lock).is_empty());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// FP6 and FP4 tables: found by their exact bytes when the artifact
    /// names them (the manifest's hash), never reported otherwise.
    #[test]
#[ignore = "whole-binary audits of the real build: .ci/steps/30-audit.sh runs them in release (--include-ignored)"]
    fn a_small_table_is_intact_when_listed_and_present_and_missing_when_changed(
        format in small_format_strategy(),
        seed in any::<u64>(),
        k_permille in 0u32..=1000,
        before in 0usize..3000,
        after in 0usize..3000,
        hash_first in any::<bool>(),
        cut in any::<bool>(),
    ) {
        let mut rng = Rng(seed | 1);
        let (r, index, lock) = random_reference(format, &mut rng);
        let half = format.entries() / 2;
        let k = (half * k_permille as usize / 1000).clamp(1, half);
        let mut copy = r.bytes_le.clone();
        let changed = change(&mut copy, 1, k, Chosen::None, &mut rng);
        let mask = format.code_mask() as u8;
        for b in &mut copy {
            // Still a valid code: only a change of the code's bits counts.
            *b &= mask;
        }
        prop_assume!(copy != r.bytes_le && changed > 0);
        let embed = |table: &[u8], listed: bool, rng: &mut Rng| {
            let mut data = rng.bytes(before);
            if listed && hash_first {
                data.extend_from_slice(&r.sha256);
            }
            data.extend_from_slice(table);
            if listed && !hash_first {
                data.extend_from_slice(&r.sha256);
            }
            data.extend(rng.bytes(after));
            data
        };
        // Listed and intact: found, no problem.
        let report = index.scan(&embed(&r.bytes_le, true, &mut rng));
        prop_assert!(report.problems(&lock).is_empty(), "{:?}", report.problems(&lock));
        prop_assert_eq!(only(&report)?.verdict, Verdict::Intact);
        // Listed and changed, or cut short by the end of the file: missing,
        // exit 1.
        let data = if cut {
            let mut d = rng.bytes(before);
            d.extend_from_slice(&r.sha256);
            d.extend_from_slice(&r.bytes_le[..r.bytes_le.len() - 1]);
            d
        } else {
            embed(&copy, true, &mut rng)
        };
        let report = index.scan(&data);
        prop_assert!(report.found.is_empty(), "{:?}", report.found);
        prop_assert_eq!(report.listed.len(), 1);
        prop_assert_eq!(
            &report.listed[0].status,
            &actlut_audit::ListedStatus::Missing
        );
        prop_assert_eq!(report.problems(&lock).len(), 1);
        // Not listed: below the threshold, no verdict, intact or changed.
        for table in [&r.bytes_le[..], &copy[..]] {
            let report = index.scan(&embed(table, false, &mut rng));
            prop_assert!(report.found.is_empty() && report.listed.is_empty());
        }
    }
}

/// The `actlut` command on real tables (from `actlut dump`), attacked the same
/// ways: exit code 1 with the number of changed entries, every time.
#[test]
#[ignore = "whole-binary audits of the real build: .ci/steps/30-audit.sh runs them in release (--include-ignored)"]
fn the_command_reports_every_attack_on_real_tables_with_exit_code_1() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("adversarial-cli");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let bin = env!("CARGO_BIN_EXE_actlut");
    let dump = dir.join("dump");
    assert!(Command::new(bin)
        .arg("dump")
        .arg(&dump)
        .status()
        .unwrap()
        .success());
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    let mut cases = Vec::new();
    for (name, unit, k, chosen) in [
        ("gelu_f16", 2, 1, Chosen::None),
        ("gelu_f16", 2, 4, Chosen::AnchorWindows),
        ("gelu_f16", 2, 64, Chosen::WholeAnchorWindows),
        ("sigmoid_bf16", 2, 1024, Chosen::Every64th),
        ("tanh_f16", 2, 2, Chosen::FirstAndLast),
        ("silu_f16", 2, 13_107, Chosen::None),
        ("gelu_f16", 2, 32_768, Chosen::None),
        ("silu_fp8_e4m3", 1, 4, Chosen::AnchorWindows),
        ("tanh_fp8_e4m3", 1, 4, Chosen::Every64th),
        ("exp_fp8_e5m2", 1, 2, Chosen::FirstAndLast),
        ("gelu_fp8_e4m3", 1, 25, Chosen::None),
        ("elu_fp8_e5m2fnuz", 1, 1, Chosen::FirstAndLast),
        ("gelu_fp8_e4m3fnuz", 1, 16, Chosen::None),
    ] {
        let mut table = std::fs::read(dump.join(format!("{name}.bin"))).unwrap();
        let changed = change(&mut table, unit, k, chosen, &mut rng);
        for swapped in [false, true] {
            if swapped && unit == 1 {
                continue;
            }
            let (before, after) = (1 + rng.below(4000), rng.below(4000));
            let mut data = rng.bytes(before);
            data.extend(if swapped {
                swap16(&table)
            } else {
                table.clone()
            });
            data.extend(rng.bytes(after));
            let path = dir.join(format!("{name}-{k}-{swapped}.bin"));
            std::fs::write(&path, &data).unwrap();
            cases.push((path, name, changed));
        }
    }
    let paths: Vec<&PathBuf> = cases.iter().map(|(p, _, _)| p).collect();
    // All at once and one by one: each file's verdict is its own.
    let out = Command::new(bin)
        .arg("audit")
        .args(&paths)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    for (path, name, changed) in &cases {
        let out = Command::new(bin).arg("audit").arg(path).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{text}");
        let entries = if name.contains("fp8") { 256 } else { 65536 };
        assert!(
            text.contains(name)
                && text.contains(&format!("MODIFIED: {changed} of {entries} entries differ")),
            "{}: {text}",
            path.display()
        );
    }
}

/// Measures the threshold the README documents: the share of the runs of R
/// bytes of every real table, at every 32-byte boundary, that the audit reports
/// when the run alone sits in random bytes. Runs in release:
/// `cargo test --release -p actlut-cli --test cli audit_adversarial:: -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement (a minute in release)"]
fn measure_which_runs_of_real_tables_are_reported() {
    let refs = Reference::generate_all();
    let index = Index::new(refs.clone());
    let mut rng = Rng(7);
    let noise = rng.bytes(1 << 16);
    println!("format    run bytes  reported runs: all tables (fewest in one table)");
    for format in Format::ALL {
        for run in [64usize, 256, 512, 1024, 4096] {
            let (mut hit, mut all) = (0usize, 0usize);
            let mut worst = (f64::MAX, String::new());
            for r in refs.iter().filter(|r| r.format == format) {
                if run > r.bytes_le.len() {
                    continue;
                }
                let (mut h, mut a) = (0usize, 0usize);
                for start in (0..=r.bytes_le.len() - run).step_by(32) {
                    let mut data = noise[..999].to_vec();
                    data.extend_from_slice(&r.bytes_le[start..start + run]);
                    data.extend_from_slice(&noise[999..1999]);
                    a += 1;
                    h += usize::from(index.scan(&data).found.iter().any(|f| f.names == r.names));
                }
                hit += h;
                all += a;
                let share = h as f64 / a as f64;
                if share < worst.0 {
                    worst = (share, r.names[0].clone());
                }
            }
            if all > 0 {
                println!(
                    "{:<9} {run:>9}  {:>5.1}% ({:.1}% {})",
                    format.name(),
                    100.0 * hit as f64 / all as f64,
                    100.0 * worst.0,
                    worst.1
                );
            }
        }
    }
}
