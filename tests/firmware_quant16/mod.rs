//! The `sigmoid-i16` firmware (`firmware/src/bin/sigmoid_i16.rs`): an int16 →
//! int16 sigmoid with the TFLite 16x8 parameters (input scale 2^-12, output
//! scale 2^-15, zero points 0, ties away), built by the firmware's build script
//! through actlut-codegen's builder in the spline stored form.
//!
//! The device computes the table on every one of the 65,536 codes and prints
//! the SHA-256 of each page of 256 entries, of all entries and of its stored
//! form (`firmware/src/lib.rs` has the line format). The host computes the
//! same table at run time with `actlut::quant16` (`DequantTable16::requantized_in`)
//! and packs the stored form with `actlut_codegen::spline::pack_pipeline`; every
//! hash and every printed entry must agree, and a difference names the page
//! (256 codes) or the code. The firmware is not a `tables/actlut.lock` table,
//! so it has its own checker and is not in [`super::BINARIES`]; the directory
//! variables and the skip rule are the parent's.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use actlut::quant::Rounding;
use actlut::quant16::DequantTable16;
use actlut::Function;
use actlut_codegen::quant::{OutputType, Pipeline, QuantType};

use super::{elf_path, firmware_dir, needs_firmware, read_elf, run_on_qemu, Form};

/// The firmware binary.
pub const BIN: &str = "sigmoid-i16";

/// The table's name in the transcript.
const NAME: &str = "sigmoid_i16";

/// The TFLite 16x8 parameters: input scale 2^-12, output scale 2^-15, zero points 0.
const IN_SCALE: f32 = 1.0 / 4096.0;
const OUT_SCALE: f32 = 1.0 / 32768.0;

/// What the host expects of the firmware.
struct Host {
    /// Entry `i` for the code whose bit pattern is `i`, from `actlut::quant16`.
    entries: Vec<i16>,
    /// The spline stored form, packed on the host.
    stored: Vec<u8>,
}

fn host() -> Host {
    let mut entries = vec![0i16; 65_536];
    DequantTable16::<i16, i16>::requantized_in(
        &mut entries,
        Function::Sigmoid,
        IN_SCALE,
        0,
        OUT_SCALE,
        0,
        Rounding::TiesAwayFromZero,
    )
    .expect("the TFLite 16x8 parameters are valid");
    let output = OutputType::I16 {
        scale: OUT_SCALE,
        zero_point: 0,
    };
    let pipeline = Pipeline::new(
        actlut_codegen::Function::Sigmoid.into(),
        QuantType::I16,
        IN_SCALE,
        0,
        output,
    )
    .expect("valid parameters")
    .with_rounding(actlut_codegen::quant::Rounding::TiesAwayFromZero);
    let stored = actlut_codegen::spline::pack_pipeline(&pipeline).expect("packs");
    Host { entries, stored }
}

fn le_bytes(entries: &[i16]) -> Vec<u8> {
    entries.iter().flat_map(|e| e.to_le_bytes()).collect()
}

/// Checks a transcript of the firmware against the host. `Err` holds one line
/// per difference, naming the code or the page.
fn check_transcript(output: &str, host: &Host) -> Result<usize, String> {
    let mut diffs = Vec::new();
    let mut entries_printed = 0;
    let mut pages = BTreeSet::new();
    let (mut all, mut stored, mut done) = (false, false, false);
    let hex = actlut_codegen::hex;
    for (n, line) in output.lines().enumerate() {
        let n = n + 1;
        if done {
            diffs.push(format!("line {n}: output after `done`: {line:?}"));
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let code = |s: &str| u16::from_str_radix(s.strip_prefix("0x")?, 16).ok();
        match words.as_slice() {
            ["quant16", NAME, x, y] => {
                let (Some(x), Some(y)) = (code(x), code(y)) else {
                    diffs.push(format!("line {n}: malformed entry line {line:?}"));
                    continue;
                };
                entries_printed += 1;
                let want = host.entries[usize::from(x)] as u16;
                if y != want {
                    diffs.push(format!(
                        "{NAME} code 0x{x:04x} ({}): device 0x{y:04x}, host 0x{want:04x}",
                        x as i16
                    ));
                }
            }
            ["quant16-page", page, NAME, h] => {
                let Some(page) = code(page).filter(|&p| p <= 0xff) else {
                    diffs.push(format!("line {n}: malformed page line {line:?}"));
                    continue;
                };
                if !pages.insert(page) {
                    diffs.push(format!("line {n}: page 0x{page:02x} hashed twice"));
                }
                let at = usize::from(page) << 8;
                let want = hex(&actlut_codegen::sha256(&le_bytes(
                    &host.entries[at..at + 256],
                )));
                if *h != want {
                    diffs.push(format!(
                        "{NAME} page 0x{page:02x} (codes 0x{at:04x}..=0x{:04x}): device sha256 \
                         {h}, host {want}",
                        at + 255
                    ));
                }
            }
            ["quant16-sha256", NAME, h] => {
                all = true;
                let want = hex(&actlut_codegen::sha256(&le_bytes(&host.entries)));
                if *h != want {
                    diffs.push(format!(
                        "{NAME}: device sha256 of all 65,536 entries {h}, host {want}"
                    ));
                }
            }
            ["quant16-stored-sha256", NAME, h] => {
                stored = true;
                let want = hex(&actlut_codegen::sha256(&host.stored));
                if *h != want {
                    diffs.push(format!(
                        "{NAME}: device sha256 of the stored form {h}, host-packed {want}"
                    ));
                }
            }
            ["done"] => done = true,
            _ => diffs.push(format!("line {n}: unexpected output {line:?}")),
        }
    }
    if pages.len() != 256 {
        diffs.push(format!("{} of 256 pages hashed", pages.len()));
    }
    if entries_printed == 0 {
        diffs.push("no entry printed".to_owned());
    }
    if !all {
        diffs.push("no quant16-sha256 line".to_owned());
    }
    if !stored {
        diffs.push("no quant16-stored-sha256 line".to_owned());
    }
    if !done {
        diffs.push("no `done` line: the firmware stopped early".to_owned());
    }
    if diffs.is_empty() {
        Ok(entries_printed)
    } else {
        let mut text = format!(
            "{BIN} firmware output differs from the host in {} place(s):\n",
            diffs.len()
        );
        for d in diffs {
            let _ = writeln!(text, "  {d}");
        }
        Err(text)
    }
}

fn check_on_qemu(test: &str, form: Form) {
    let dir = firmware_dir(test, form);
    let output = run_on_qemu(&elf_path(&dir, BIN));
    let printed = check_transcript(&output, &host()).unwrap_or_else(|diff| panic!("{diff}"));
    eprintln!(
        "{BIN} ({form:?}): all 65,536 codes (256 page hashes) and {printed} printed entries \
         equal actlut::quant16's run-time table"
    );
}

#[test]
#[ignore = needs_firmware!()]
fn sigmoid_i16_firmware_on_qemu_equals_the_run_time_table_on_every_code() {
    check_on_qemu("sigmoid-i16 firmware", Form::Full);
}

#[test]
#[ignore = needs_firmware!()]
fn sigmoid_i16_firmware_of_the_compact_build_equals_the_run_time_table_on_every_code() {
    // The binary's table is in the spline form in both builds; the `compact`
    // feature changes only actlut's own tables, which it does not use.
    check_on_qemu("compact sigmoid-i16 firmware", Form::Compact);
}

#[test]
#[ignore = needs_firmware!()]
fn sigmoid_i16_firmware_flash_holds_the_spline_stored_form_once_and_no_full_table() {
    let dir = firmware_dir("sigmoid-i16 firmware flash", Form::Full);
    let elf = read_elf(&elf_path(&dir, BIN));
    let host = host();
    let found = elf
        .loaded
        .windows(host.stored.len())
        .filter(|w| *w == host.stored.as_slice())
        .count();
    assert_eq!(
        found,
        1,
        "{BIN}: the {}-byte host-packed spline stored form is in the image {found} times",
        host.stored.len()
    );
    // Two consecutive pages of the full table would be 1 KiB of it: none.
    let full = le_bytes(&host.entries[0x4000..0x4200]);
    assert!(
        !super::contains(&elf.loaded, &full),
        "{BIN}: the image holds entries of the full table"
    );
    assert!(
        elf.table_symbols.is_empty(),
        "{BIN}: uses none of actlut::tables, but the image has {:?}",
        elf.table_symbols
    );
    eprintln!(
        "{BIN}: {} bytes loaded into flash, of which {} are the spline stored form",
        elf.loaded.len(),
        host.stored.len()
    );
}

// ---------------------------------------------------------------------------
// The checker checks: these run everywhere, without qemu.

/// The transcript a correct firmware prints, written from the host's table.
fn good_transcript(host: &Host) -> String {
    let mut out = String::new();
    for x in [0x0000u16, 0x1000, 0x8000] {
        let y = host.entries[usize::from(x)] as u16;
        let _ = writeln!(out, "quant16 {NAME} 0x{x:04x} 0x{y:04x}");
    }
    for page in 0..256usize {
        let h = actlut_codegen::sha256(&le_bytes(&host.entries[page << 8..][..256]));
        let _ = writeln!(
            out,
            "quant16-page 0x{page:02x} {NAME} {}",
            actlut_codegen::hex(&h)
        );
    }
    let all = actlut_codegen::sha256(&le_bytes(&host.entries));
    let stored = actlut_codegen::sha256(&host.stored);
    let _ = writeln!(out, "quant16-sha256 {NAME} {}", actlut_codegen::hex(&all));
    let _ = writeln!(
        out,
        "quant16-stored-sha256 {NAME} {}",
        actlut_codegen::hex(&stored)
    );
    out.push_str("done\n");
    out
}

#[test]
fn quant16_checker_accepts_a_transcript_that_equals_the_host() {
    assert_eq!(check_transcript(&good_transcript(&host()), &host()), Ok(3));
}

#[test]
fn quant16_checker_names_a_wrong_entry_a_wrong_page_and_a_missing_page() {
    let host = host();
    let good = good_transcript(&host);
    // sigmoid(1.0) is 0.7310586 = 23954.6 units of 2^-15: 0x5d93.
    let line = format!("quant16 {NAME} 0x1000 0x5d93");
    assert!(good.contains(&line), "{good}");
    let bad = good.replace(&line, &format!("quant16 {NAME} 0x1000 0x5d94"));
    let diff = check_transcript(&bad, &host).unwrap_err();
    assert!(
        diff.contains("code 0x1000 (4096): device 0x5d94, host 0x5d93"),
        "{diff}"
    );

    // One entry off by one on the device changes that page's hash only.
    let mut wrong = host.entries.clone();
    wrong[0x1234] += 1;
    let device = good_transcript(&Host {
        entries: wrong,
        stored: host.stored.clone(),
    });
    let diff = check_transcript(&device, &host).unwrap_err();
    assert!(
        diff.contains("page 0x12 (codes 0x1200..=0x12ff): device sha256"),
        "{diff}"
    );
    assert!(diff.contains("all 65,536 entries"), "{diff}");
    assert!(diff.contains("2 place(s)"), "{diff}");

    let page = good
        .lines()
        .find(|l| l.starts_with("quant16-page 0x7f"))
        .unwrap();
    let diff = check_transcript(&good.replace(&format!("{page}\n"), ""), &host).unwrap_err();
    assert!(diff.contains("255 of 256 pages hashed"), "{diff}");
}

#[test]
fn quant16_checker_fails_a_wrong_stored_form_and_a_truncated_transcript() {
    let host = host();
    let mut stored = host.stored.clone();
    *stored.last_mut().unwrap() ^= 1;
    let device = good_transcript(&Host {
        entries: host.entries.clone(),
        stored,
    });
    let diff = check_transcript(&device, &host).unwrap_err();
    assert!(diff.contains("sha256 of the stored form"), "{diff}");

    let diff = check_transcript(&good_transcript(&host).replace("done\n", ""), &host).unwrap_err();
    assert!(diff.contains("no `done` line"), "{diff}");
}
