//! The `actlut` command end to end: `audit` finds exactly the tables that real
//! binaries embed (0, 1, 3 and 9 tables; debug and stripped release builds),
//! reports changed, cut-off and missing tables and lock mismatches with exit
//! code 1, and fails on bad input with one line and exit code 2; `dump` and
//! `manifest` agree with the committed lock, and `dump` writes through no
//! symbolic link.
//!
//! The fixture binaries (`tests/fixtures/*.rs`) are built once per test run by
//! cargo, offline, in a crate generated under `CARGO_TARGET_TMPDIR`.

use crate::{actlut, stderr, stdout};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

fn tmp(name: &str) -> PathBuf {
    let p = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&p);
    std::fs::create_dir_all(&p).unwrap();
    p
}

/// The fixture binaries: (name, debug build with symbols, stripped release build).
struct Fixtures {
    debug: PathBuf,
    release: PathBuf,
}

fn fixtures() -> &'static Fixtures {
    static F: OnceLock<Fixtures> = OnceLock::new();
    F.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("audit-fixtures");
        std::fs::create_dir_all(&dir).unwrap();
        let root = std::fs::canonicalize(ROOT).unwrap();
        let fx = root.join("cli/tests/fixtures");
        let manifest = format!(
            r#"[package]
name = "audit-fixtures"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[dependencies]
actlut = {{ path = {root:?}, default-features = false, features = ["gelu", "sigmoid", "tanh", "f16", "bf16", "fp8-e4m3"] }}

[[bin]]
name = "zero"
path = {zero:?}

[[bin]]
name = "one"
path = {one:?}

[[bin]]
name = "three"
path = {three:?}

[[bin]]
name = "listed"
path = {listed:?}

[[bin]]
name = "manifest_one"
path = {manifest_one:?}

[profile.release]
strip = true

[profile.dev.build-override]
opt-level = 3

[profile.release.build-override]
opt-level = 3
"#,
            root = root.display().to_string(),
            zero = fx.join("zero.rs").display().to_string(),
            one = fx.join("one.rs").display().to_string(),
            three = fx.join("three.rs").display().to_string(),
            listed = fx.join("listed.rs").display().to_string(),
            manifest_one = fx.join("manifest_one.rs").display().to_string(),
        );
        std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
        // The workspace's lock pins the same dependency versions, offline.
        std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        for profile in [&["--bins"][..], &["--bins", "--release"][..]] {
            let out = Command::new(&cargo)
                .arg("build")
                .args(profile)
                .args(["--offline", "--quiet"])
                .current_dir(&dir)
                .env("CARGO_TARGET_DIR", dir.join("target"))
                .env_remove("RUSTFLAGS")
                .output()
                .expect("run cargo");
            assert!(
                out.status.success(),
                "building the fixtures failed:\n{}",
                stderr(&out)
            );
        }
        let target = dir.join("target");
        Fixtures {
            debug: target.join("debug"),
            release: target.join("release"),
        }
    })
}

/// The names of the tables `actlut audit` reports in `file`, with their byte
/// order, from the JSON output.
fn audit_names(file: &Path) -> Vec<String> {
    let out = actlut(&["audit", "--json", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let json = stdout(&out);
    assert!(json.contains("\"ok\": true"), "{json}");
    table_names(&json)
}

/// The first name of every table in the `tables` lists of `json` (not the
/// tables a manifest lists).
fn table_names(json: &str) -> Vec<String> {
    json.split("\"tables\": [")
        .skip(1)
        .flat_map(|t| {
            let t = t.split("], \"listed\"").next().unwrap();
            t.split("\"names\": [\"")
                .skip(1)
                .map(|s| s.split('"').next().unwrap().to_string())
                .collect::<Vec<_>>()
        })
        .collect()
}

fn exe(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX))
}

#[test]
#[ignore = "whole-binary audits of the real build: .ci/steps/30-audit.sh runs them in release (--include-ignored)"]
fn audit_finds_exactly_the_tables_each_binary_embeds() {
    let f = fixtures();
    for dir in [&f.debug, &f.release] {
        assert_eq!(audit_names(&exe(dir, "one")), ["gelu_f16"]);
        assert_eq!(
            audit_names(&exe(dir, "three")),
            {
                let mut v = vec!["gelu_f16", "sigmoid_bf16", "tanh_fp8_e4m3"];
                // Reported by offset: compare as sets.
                let got = audit_names(&exe(dir, "three"));
                v.sort_by_key(|n| got.iter().position(|g| g == n));
                v
            },
            "{}",
            dir.display()
        );
    }
}

#[test]
#[ignore = "whole-binary audits of the real build: .ci/steps/30-audit.sh runs them in release (--include-ignored)"]
fn the_release_fixtures_are_stripped_and_the_debug_ones_are_not() {
    let f = fixtures();
    let has_symbol = |p: &Path| {
        let bytes = std::fs::read(p).unwrap();
        bytes.windows(8).any(|w| w == b"GELU_F16")
    };
    assert!(has_symbol(&exe(&f.debug, "one")));
    assert!(!has_symbol(&exe(&f.release, "one")));
}

#[test]
#[ignore = "whole-binary audits of the real build: .ci/steps/30-audit.sh runs them in release (--include-ignored)"]
fn the_manifest_keeps_no_table_alive() {
    // `zero` prints the whole manifest, yet embeds no table (audit above);
    // its output is the lock's SHA256SUMS lines of the enabled tables.
    let f = fixtures();
    let out = Command::new(exe(&f.release, "zero")).output().unwrap();
    let text = stdout(&out);
    let sums = std::fs::read_to_string(format!("{ROOT}/tables/SHA256SUMS")).unwrap();
    let listed: Vec<&str> = text.lines().filter(|l| l.ends_with(".bin")).collect();
    assert_eq!(listed.len(), 9, "{text}");
    for line in listed {
        assert!(sums.lines().any(|s| s == line), "{line} not in SHA256SUMS");
    }
}

#[test]
#[ignore = "whole-binary audits of the real build: .ci/steps/30-audit.sh runs them in release (--include-ignored)"]
fn audit_text_names_offset_order_hash_and_lock_status() {
    let f = fixtures();
    let one = exe(&f.release, "one");
    let out = actlut(&["audit", one.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    let line = text.lines().find(|l| l.contains("gelu_f16")).unwrap();
    assert!(line.trim_start().starts_with("0x"), "{line}");
    assert!(line.contains(" le "), "{line}");
    assert!(line.contains(&actlut_codegen::hex(&actlut::tables::GELU_F16_SHA256)));
    assert!(line.ends_with("intact, in the lock"), "{line}");
    assert!(
        text.contains("1 table found in 1 file, all intact and in the lock"),
        "{text}"
    );
}

/// The offset `actlut audit --json` reports for the first table in `file`.
fn first_offset(file: &Path) -> usize {
    let json = stdout(&actlut(&["audit", "--json", file.to_str().unwrap()]));
    json.split("\"offset\": ")
        .nth(1)
        .unwrap()
        .split(',')
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
#[ignore = "whole-binary audits of the real build: .ci/steps/30-audit.sh runs them in release (--include-ignored)"]
fn a_changed_table_in_a_binary_is_not_in_the_lock_and_fails_the_audit() {
    let f = fixtures();
    let one = exe(&f.release, "one");
    let offset = first_offset(&one);
    let mut bytes = std::fs::read(&one).unwrap();
    // gelu(1.0) one ulp up, as a patched binary would have it.
    bytes[offset + 2 * 0x3C00] ^= 1;
    let dir = tmp("tampered");
    let patched = dir.join("one-patched");
    std::fs::write(&patched, &bytes).unwrap();
    let out = actlut(&["audit", patched.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let text = stdout(&out);
    assert!(
        text.contains("MODIFIED: 1 of 65536 entries differ (entries 15360)"),
        "{text}"
    );
    assert!(text.contains(&format!("{offset:#010x}")), "{text}");
    let json = stdout(&actlut(&["audit", "--json", patched.to_str().unwrap()]));
    assert!(json.contains("\"verdict\": \"modified\""), "{json}");
    assert!(json.contains("\"differing_entries\": 1,"), "{json}");
    assert!(json.contains("\"first_differences\": [15360]"), "{json}");
    assert!(json.contains("\"in_lock\": false"), "{json}");
    assert!(json.contains("\"ok\": false"), "{json}");
}

#[test]
#[ignore = "whole-binary audits of the real build: .ci/steps/30-audit.sh runs them in release (--include-ignored)"]
fn tables_in_a_raw_big_endian_image_are_found_and_hash_to_the_lock() {
    // A raw firmware image of a big-endian target: the 16-bit table stored
    // big-endian, the 8-bit one as is, at odd offsets.
    let mut image = vec![0xA5u8; 101];
    let be: Vec<u8> = (0..=u16::MAX)
        .flat_map(|x| actlut::gelu::f16_bits(x).to_be_bytes())
        .collect();
    image.extend_from_slice(&be);
    image.extend_from_slice(&[0; 7]);
    let e4m3_at = image.len();
    image.extend_from_slice(actlut::tables::TANH_FP8_E4M3);
    image.extend_from_slice(&[0xFF; 33]);
    let dir = tmp("raw-be");
    let path = dir.join("firmware.bin");
    std::fs::write(&path, &image).unwrap();
    let out = actlut(&["audit", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let gelu = text.lines().find(|l| l.contains("gelu_f16")).unwrap();
    assert!(
        gelu.contains("0x00000065") && gelu.contains(" be "),
        "{gelu}"
    );
    assert!(gelu.contains(&actlut_codegen::hex(&actlut::tables::GELU_F16_SHA256)));
    let tanh = text.lines().find(|l| l.contains("tanh_fp8_e4m3")).unwrap();
    assert!(
        tanh.contains(&format!("{e4m3_at:#010x}")) && tanh.contains(" u8 "),
        "{tanh}"
    );
    assert!(text.contains("2 tables found"), "{text}");
}

#[test]
#[ignore = "whole-binary audits of the real build: .ci/steps/30-audit.sh runs them in release (--include-ignored)"]
fn identical_tables_are_reported_once_with_all_their_names() {
    let dir = tmp("aliases");
    let path = dir.join("image.bin");
    std::fs::write(&path, actlut::tables::GELU_FP8_E4M3).unwrap();
    let text = stdout(&actlut(&["audit", path.to_str().unwrap()]));
    assert!(
        text.contains("gelu_fp8_e4m3 = gelu_tanh_fp8_e4m3"),
        "{text}"
    );
    assert!(text.contains("1 table found"), "{text}");
}

fn lock_text() -> String {
    std::fs::read_to_string(format!("{ROOT}/tables/actlut.lock")).unwrap()
}

#[test]
#[ignore = "whole-binary audits of the real build: .ci/steps/30-audit.sh runs them in release (--include-ignored)"]
fn a_table_whose_hash_differs_from_the_given_lock_fails_the_audit() {
    let gelu = actlut_codegen::hex(&actlut::tables::GELU_F16_SHA256);
    let other = "0".repeat(64);
    let dir = tmp("other-lock");
    let lock = dir.join("old.lock");
    std::fs::write(&lock, lock_text().replace(&gelu, &other)).unwrap();
    let one = exe(&fixtures().release, "one");
    let out = actlut(&[
        "audit",
        "--lock",
        lock.to_str().unwrap(),
        one.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.contains(&format!("NOT IN THE LOCK: the lock has {other}")),
        "{text}"
    );
    // The unchanged lock passes.
    let good = dir.join("good.lock");
    std::fs::write(&good, lock_text()).unwrap();
    let out = actlut(&[
        "audit",
        &format!("--lock={}", good.display()),
        one.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}

/// Runs `actlut args` and asserts a one-line error with exit code 2 that
/// contains `want`, and no panic.
fn assert_error(args: &[&str], want: &str) {
    let out = actlut(args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.starts_with("actlut: error: "), "{args:?}: {err}");
    assert!(err.contains(want), "{args:?}: want {want:?} in {err}");
    assert!(
        !err.contains("panicked") && !err.contains("backtrace"),
        "{err}"
    );
    assert!(stdout(&out).is_empty(), "{args:?}");
}

#[test]
#[ignore = "whole-binary audits of the real build: .ci/steps/30-audit.sh runs them in release (--include-ignored)"]
fn bad_artifacts_are_one_line_errors() {
    let dir = tmp("bad-artifacts");
    let empty = dir.join("empty.bin");
    std::fs::write(&empty, b"").unwrap();
    let missing = dir.join("missing.bin");
    let d = dir.to_str().unwrap();
    assert_error(&["audit", empty.to_str().unwrap()], "is empty");
    assert_error(&["audit", missing.to_str().unwrap()], "cannot read");
    assert_error(&["audit", d], "cannot read");
    assert_error(
        &["audit"],
        "the following required arguments were not provided: <FILE>...",
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let locked = dir.join("unreadable.bin");
        std::fs::write(&locked, b"data").unwrap();
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
        // root reads anything: only check when the file is really unreadable.
        if std::fs::read(&locked).is_err() {
            assert_error(&["audit", locked.to_str().unwrap()], "cannot read");
        }
    }
}

/// A report that cannot be written (a full disk) is an I/O error, exit
/// status 2, in every format: the attack on this design found exit 0 and an
/// empty report, which a CI step would have taken for a pass.
#[test]
#[cfg(target_os = "linux")]
#[ignore = "whole-binary audits of the real build: .ci/steps/30-audit.sh runs them in release (--include-ignored)"]
fn a_report_that_cannot_be_written_exits_2_in_every_format() {
    let dir = tmp("report-write-error");
    let file = dir.join("random.bin");
    // Bytes that pass: the verdict alone would be 0.
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let bytes: Vec<u8> = (0..4096)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect();
    std::fs::write(&file, bytes).unwrap();
    let path = file.to_str().unwrap();
    assert_eq!(actlut(&["audit", path]).status.code(), Some(0));
    for format in ["text", "json", "sarif", "cyclonedx", "in-toto"] {
        let out = Command::new(env!("CARGO_BIN_EXE_actlut"))
            .args(["audit", "--format", format, path])
            .stdout(std::fs::File::create("/dev/full").unwrap())
            .output()
            .unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{format}: {err}");
        assert!(
            err.starts_with("actlut: error: cannot write to standard output: "),
            "{format}: {err}"
        );
    }
}

#[test]
#[ignore = "whole-binary audits of the real build: .ci/steps/30-audit.sh runs them in release (--include-ignored)"]
fn bad_locks_are_one_line_errors() {
    let dir = tmp("bad-locks");
    let one = exe(&fixtures().release, "one");
    let one = one.to_str().unwrap();
    let good = lock_text();
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.display().to_string()
    };
    // Cut in the middle of a hash: without, then with, a final newline.
    let line_10 = good.match_indices('\n').nth(13).unwrap().0 + 1;
    let cut = &good[..line_10 + 80];
    let cut_path = write("cut.lock", cut);
    assert_error(&["audit", "--lock", &cut_path, one], "is truncated");
    let cut_nl = write("cut-nl.lock", &format!("{cut}\n"));
    assert_error(
        &["audit", "--lock", &cut_nl, one],
        "line 15: expected 7 columns",
    );
    // Cut in the last column of the last line.
    let tail = write("tail.lock", &good[..good.len() - 4]);
    assert_error(&["audit", "--lock", &tail, one], "is truncated");
    let tail_nl = write("tail-nl.lock", &(good[..good.len() - 4].to_string() + "\n"));
    assert_error(
        &["audit", "--lock", &tail_nl, one],
        "a truncated or edited lock",
    );
    // Cut at a line boundary: lines are missing.
    let lines: Vec<&str> = good.lines().collect();
    let short = write("short.lock", &(lines[..20].join("\n") + "\n"));
    assert_error(&["audit", "--lock", &short, one], "the lock is incomplete");
    let empty = write("empty.lock", "");
    assert_error(&["audit", "--lock", &empty, one], "the lock has no entries");
    let unknown = write(
        "unknown.lock",
        &good.replacen("gelu_f16 ", "swoosh_f16 ", 1),
    );
    assert_error(&["audit", "--lock", &unknown, one], "does not match");
    let unknown_fn = write(
        "unknown-fn.lock",
        &format!(
            "{good}swoosh_f16 swoosh f16 65536 131072 {} x\n",
            "0".repeat(64)
        ),
    );
    assert_error(
        &["audit", "--lock", &unknown_fn, one],
        "unknown function `swoosh`",
    );
    let binary = write("binary.lock", "\u{0}\u{1}garbage");
    assert_error(&["audit", "--lock", &binary, one], "lock ");
    let not_utf8 = dir.join("latin1.lock");
    std::fs::write(&not_utf8, [0xFFu8, 0xFE, 0x41]).unwrap();
    assert_error(
        &["audit", "--lock", not_utf8.to_str().unwrap(), one],
        "not UTF-8",
    );
    let missing = dir.join("missing.lock");
    assert_error(
        &["audit", "--lock", missing.to_str().unwrap(), one],
        "cannot read lock",
    );
    assert_error(
        &["audit", one, "--lock"],
        "a value is required for '--lock <LOCK>'",
    );
}

#[test]
#[ignore = "whole-binary audits of the real build: .ci/steps/30-audit.sh runs them in release (--include-ignored)"]
fn bad_commands_are_one_line_errors() {
    assert_error(&[], "requires a subcommand");
    assert_error(&["frobnicate"], "unrecognized subcommand 'frobnicate'");
    assert_error(
        &["manifest", "--yaml"],
        "unexpected argument '--yaml' found",
    );
    assert_error(&["manifest", "extra"], "unexpected argument 'extra' found");
    assert_error(&["dump"], "required arguments were not provided: <DIR>");
    assert_error(&["dump", "a", "b"], "unexpected argument 'b' found");
    let dir = tmp("dump-onto-file");
    let file = dir.join("file");
    std::fs::write(&file, b"x").unwrap();
    assert_error(&["dump", file.to_str().unwrap()], "cannot create directory");
    let help = actlut(&["audit", "--help"]);
    assert_eq!(help.status.code(), Some(0));
    assert!(stdout(&help).contains("Usage: actlut audit [OPTIONS] <FILE>..."));
}

#[test]
#[ignore = "whole-binary audits of the real build: .ci/steps/30-audit.sh runs them in release (--include-ignored)"]
fn dump_writes_every_table_and_the_lock_s_sha256sums() {
    let dir = tmp("dump");
    let out = actlut(&["dump", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let sums = std::fs::read_to_string(dir.join("SHA256SUMS")).unwrap();
    let committed = std::fs::read_to_string(format!("{ROOT}/tables/SHA256SUMS")).unwrap();
    assert_eq!(sums, committed);
    let lock = actlut_codegen::lock::parse(&lock_text()).unwrap();
    assert_eq!(lock.len(), actlut_codegen::builtin_tables().count());
    // The command embeds the function tables (not `derivatives`): it dumps those.
    for e in lock.iter().filter(|e| !e.derivative) {
        let bytes = std::fs::read(dir.join(format!("{}.bin", e.name))).unwrap();
        assert_eq!(bytes.len(), e.bytes, "{}", e.name);
        assert_eq!(actlut_codegen::sha256(&bytes), e.sha256, "{}", e.name);
    }
    // Dumped entry i is the output for input bit pattern i, little-endian.
    let gelu = std::fs::read(dir.join("gelu_f16.bin")).unwrap();
    assert_eq!(&gelu[2 * 0x3C00..2 * 0x3C00 + 2], &0x3ABBu16.to_le_bytes());
    // Coreutils verifies the dump without any Rust, where it is installed.
    if let Ok(check) = Command::new("sha256sum")
        .args(["-c", "--quiet", "SHA256SUMS"])
        .current_dir(&dir)
        .output()
    {
        assert!(check.status.success(), "{}", stdout(&check));
    }
    // DIR/compact and DIR/compact-words: every 16-bit table's stored form in
    // each layout, hashing to the compact lock of that layout, valid, of that
    // layout, and decoding to the dumped table on every input.
    for (layout, sub) in [
        (actlut_codegen::compact::Layout::Bytes, "compact"),
        (actlut_codegen::compact::Layout::Words, "compact-words"),
    ] {
        let lock_text = std::fs::read_to_string(format!(
            "{ROOT}/tables/{}",
            actlut_codegen::compact_lock::file_name(layout)
        ))
        .unwrap();
        let compact_lock = actlut_codegen::compact_lock::parse(&lock_text, layout).unwrap();
        let compact_dir = dir.join(sub);
        let sums = std::fs::read_to_string(compact_dir.join("SHA256SUMS")).unwrap();
        assert_eq!(sums.lines().count(), compact_lock.len());
        for (line, e) in sums.lines().zip(&compact_lock) {
            assert_eq!(
                line,
                format!("{}  {}.compact", actlut_codegen::hex(&e.sha256), e.name)
            );
            let stored = std::fs::read(compact_dir.join(format!("{}.compact", e.name))).unwrap();
            assert_eq!(actlut_codegen::sha256(&stored), e.sha256, "{}", e.name);
            assert_eq!(
                Some(stored.len()),
                actlut_codegen::compact_lock::stored_len(e)
            );
            let view = actlut_codegen::compact::CompactRef::from_bytes(&stored).unwrap();
            assert_eq!(view.layout(), layout, "{}", e.name);
            let table = std::fs::read(dir.join(format!("{}.bin", e.name))).unwrap();
            for x in 0..=u16::MAX {
                let at = 2 * usize::from(x);
                assert_eq!(
                    view.get(x).to_le_bytes(),
                    table[at..at + 2],
                    "{} at {x}",
                    e.name
                );
            }
        }
        if let Ok(check) = Command::new("sha256sum")
            .args(["-c", "--quiet", "SHA256SUMS"])
            .current_dir(&compact_dir)
            .output()
        {
            assert!(check.status.success(), "{sub}: {}", stdout(&check));
        }
    }
}

fn compact_lock_text() -> String {
    std::fs::read_to_string(format!("{ROOT}/tables/actlut-compact.lock")).unwrap()
}

#[test]
#[ignore = "whole-binary audits of the real build: .ci/steps/30-audit.sh runs them in release (--include-ignored)"]
fn manifest_lists_every_table_with_hash_size_and_definition() {
    // The command embeds the function tables (not `derivatives`): the lock's function lines.
    let lock: Vec<_> = actlut_codegen::lock::parse(&lock_text())
        .unwrap()
        .into_iter()
        .filter(|e| !e.derivative)
        .collect();
    let compact = actlut_codegen::compact_lock::parse(
        &compact_lock_text(),
        actlut_codegen::compact::Layout::Bytes,
    )
    .unwrap();
    // Two per function with built-in tables (f16, bf16).
    let functions = actlut_codegen::Function::ALL
        .iter()
        .filter(|f| f.has_defaults())
        .count();
    assert_eq!(compact.len(), 2 * functions);
    let text = stdout(&actlut(&["manifest"]));
    let rows: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(rows.len(), lock.len());
    for (row, e) in rows.iter().zip(&lock) {
        let cols: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(cols[0], e.name);
        assert_eq!(cols[1], e.format.name());
        assert_eq!(cols[2], e.entries.to_string());
        assert_eq!(cols[3], e.bytes.to_string());
        assert_eq!(cols[4], actlut_codegen::hex(&e.sha256));
        // Both forms of a 16-bit table: the compact stored form's size and
        // hash, from the compact lock.
        match compact.iter().find(|c| c.name == e.name) {
            Some(c) => {
                let len = actlut_codegen::compact_lock::stored_len(c).unwrap();
                assert_eq!(
                    (cols[5], cols[6]),
                    (
                        len.to_string().as_str(),
                        actlut_codegen::hex(&c.sha256).as_str()
                    )
                );
            }
            None => assert_eq!((cols[5], cols[6]), ("-", "-"), "{row}"),
        }
        assert!(row.contains(e.function.definition()), "{row}");
    }
    let json = stdout(&actlut(&["manifest", "--json"]));
    assert_eq!(json.matches("\"name\": ").count(), lock.len());
    assert_eq!(json.matches("\"stored_sha256\": \"").count(), compact.len());
    let gelu = &compact[compact.iter().position(|c| c.name == "gelu_bf16").unwrap()];
    assert!(json.contains(&format!(
        "\"stored_bytes\": 6333, \"stored_sha256\": \"{}\"",
        actlut_codegen::hex(&gelu.sha256)
    )));
    assert!(
        json.contains("\"aliases\": [\"gelu_tanh_fp8_e4m3\"]"),
        "{json}"
    );
}

#[test]
#[ignore = "whole-binary audits of the real build: .ci/steps/30-audit.sh runs them in release (--include-ignored)"]
fn a_binary_whose_manifest_lists_tables_it_does_not_carry_fails_the_audit() {
    // `zero` keeps the manifest (nine tables) and carries none of them: the
    // audit cannot tell a table the linker dropped from one replaced beyond
    // recognition, so it names each and fails.
    let zero = exe(&fixtures().release, "zero");
    let out = actlut(&["audit", zero.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let text = stdout(&out);
    assert!(
        text.contains("no actlut tables found by content; names 9 tables by SHA-256"),
        "{text}"
    );
    let gelu = text.lines().find(|l| l.contains("gelu_f16")).unwrap();
    assert!(
        gelu.ends_with("MISSING: manifest lists gelu_f16, but its bytes are not in the file"),
        "{gelu}"
    );
    let json = stdout(&actlut(&["audit", "--json", zero.to_str().unwrap()]));
    assert_eq!(json.matches("\"status\": \"missing\"").count(), 9, "{json}");
    assert!(json.contains("\"ok\": false"), "{json}");
}

/// The manifest's documented use, `manifest::find`, in a binary that keeps
/// one of the nine enabled tables: the manifest names all nine by their
/// hashes, and the audit holds the binary to them (an independent review
/// found this on an intact build; docs/audit.md, "Manifest records are held
/// to the lock", says why and what to do): gelu_f16 declared and intact, the
/// other eight `MISSING`, exit 1.
#[test]
#[ignore = "whole-binary audits of the real build: .ci/steps/30-audit.sh runs them in release (--include-ignored)"]
fn a_binary_that_keeps_the_manifest_and_one_of_its_tables_fails_for_the_others() {
    let bin = exe(&fixtures().release, "manifest_one");
    let out = actlut(&["audit", bin.to_str().unwrap()]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("names 9 tables by SHA-256"), "{text}");
    let gelu = text
        .lines()
        .find(|l| l.contains("gelu_f16") && l.contains(" decl "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(gelu.contains("intact, in the lock"), "{gelu}");
    assert_eq!(text.matches("MISSING: manifest lists").count(), 8, "{text}");
    assert!(
        !text.contains("MISSING: manifest lists gelu_f16,"),
        "{text}"
    );
}

#[test]
#[ignore = "whole-binary audits of the real build: .ci/steps/30-audit.sh runs them in release (--include-ignored)"]
fn a_binary_with_its_manifest_passes_until_a_listed_table_is_changed() {
    for dir in [&fixtures().debug, &fixtures().release] {
        let listed = exe(dir, "listed");
        let mut names = audit_names(&listed);
        names.sort();
        assert_eq!(
            names,
            [
                "gelu_bf16",
                "gelu_f16",
                "gelu_fp8_e4m3",
                "sigmoid_bf16",
                "sigmoid_f16",
                "sigmoid_fp8_e4m3",
                "tanh_bf16",
                "tanh_f16",
                "tanh_fp8_e4m3"
            ],
            "{}",
            dir.display()
        );
        let json = stdout(&actlut(&["audit", "--json", listed.to_str().unwrap()]));
        assert_eq!(json.matches("\"status\": \"intact\"").count(), 9, "{json}");
    }
    // The issue's attack on a real binary: one entry changed in each of four
    // 32-byte windows of gelu_f16.
    let listed = exe(&fixtures().release, "listed");
    let json = stdout(&actlut(&["audit", "--json", listed.to_str().unwrap()]));
    let at = json
        .split("\"offset\": ")
        .skip(1)
        .find(|s| s.contains("\"names\": [\"gelu_f16\"]"))
        .unwrap();
    let offset: usize = at.split(',').next().unwrap().parse().unwrap();
    let mut bytes = std::fs::read(&listed).unwrap();
    for b in [23520, 32768, 92256, 98304] {
        bytes[offset + b] ^= 1;
    }
    let dir = tmp("listed-patched");
    let patched = dir.join("listed");
    std::fs::write(&patched, &bytes).unwrap();
    let out = actlut(&["audit", patched.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.contains("MODIFIED: 4 of 65536 entries differ (entries 11760, 16384, 46128, 49152)"),
        "{text}"
    );
    assert!(
        text.contains("MODIFIED: manifest lists gelu_f16, but its bytes are modified (4 entries)"),
        "{text}"
    );
    let json = stdout(&actlut(&["audit", "--json", patched.to_str().unwrap()]));
    let problems = json.split("\"problems\": [").nth(1).unwrap();
    assert!(
        problems.contains("\"manifest lists gelu_f16, but its bytes are modified (4 entries)\""),
        "{json}"
    );
}

/// `actlut dump` into a fresh directory, once.
fn dump_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tmp("dump-for-attacks");
        assert_eq!(
            actlut(&["dump", dir.to_str().unwrap()]).status.code(),
            Some(0)
        );
        dir
    })
}

/// The dumped bytes of `name`.bin.
fn dumped(name: &str) -> Vec<u8> {
    std::fs::read(dump_dir().join(format!("{name}.bin"))).unwrap()
}

/// The dumped compact stored form of `name`.
fn dumped_compact(name: &str) -> Vec<u8> {
    std::fs::read(dump_dir().join(format!("compact/{name}.compact"))).unwrap()
}

/// `n` bytes of noise.
fn noise(n: usize, seed: u64) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

/// A compact build's table in a file, intact and attacked: the audit finds
/// it by content whatever its header holds, and by its header, and every
/// change is exit code 1.
#[test]
#[ignore = "whole-binary audits of the real build: .ci/steps/30-audit.sh runs them in release (--include-ignored)"]
fn compact_stored_forms_are_found_intact_and_every_attack_fails_the_audit() {
    let gelu = dumped_compact("gelu_bf16");
    let embed = |form: &[u8]| {
        let mut data = noise(4099, 1);
        data.extend_from_slice(form);
        data.extend(noise(2000, 2));
        data
    };
    let (code, text) = audit_bytes("compact-intact", &embed(&gelu));
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("0x00001003  gelu_bf16 (compact)    u8  756f860408ba9e5386176697ddc2d4fd9fa9adc7737a889fe0610a215d60fda8  intact, in the lock"),
        "{text}"
    );

    let n = gelu.len();
    type Attack = Box<dyn Fn(&mut Vec<u8>)>;
    let tanh = dumped_compact("tanh_bf16");
    let attacks: [(&str, Attack, &str); 8] = [
        ("pool", Box::new(move |f| f[n - 10] ^= 1), "MODIFIED: 1 of 6333 bytes differ (pool 1; bytes 6323); it decodes to"),
        ("directory", Box::new(|f| f[16 + 4 * 200] ^= 1), "MODIFIED: 1 of 6333 bytes differ (directory 1; bytes 816); it decodes to"),
        ("magic", Box::new(|f| f[..8].fill(0)), "MODIFIED: 8 of 6333 bytes differ (header 8; bytes 0, 1, 2, 3, 4, 5, 6, 7); it decodes to the table's 65536 entries"),
        ("magic-and-pool", Box::new(move |f| { f[..8].fill(0); f[n - 10] ^= 1 }), "MODIFIED: 9 of 6333 bytes differ (header 8, pool 1;"),
        ("header-stripped", Box::new(|f| { f.drain(..16); }), "MODIFIED: 16 of 6333 bytes differ (header 16;"),
        ("cut", Box::new(|f| f.truncate(3000)), "TRUNCATED"),
        (
            "cut-at-start",
            Box::new(|f| {
                f.drain(..3000);
            }),
            "TRUNCATED: 3333 of 6333 bytes present (the start of the file cuts it; all present bytes intact)",
        ),
        (
            "another-header",
            Box::new(move |f| f[..16].copy_from_slice(&tanh[..16])),
            "MODIFIED: ",
        ),
    ];
    for (name, attack, want) in attacks {
        let mut form = gelu.clone();
        attack(&mut form);
        let mut data = embed(&form);
        if name == "cut" {
            data.truncate(4099 + 3000);
        }
        if name == "cut-at-start" {
            data.drain(..4099);
        }
        let (code, text) = audit_bytes(&format!("compact-{name}"), &data);
        assert_eq!(code, Some(1), "{name}: {text}");
        assert!(
            text.contains("gelu_bf16 (compact)") && text.contains(want),
            "{name}: {text}"
        );
    }

    // A valid stored form with actlut's header of a table that is none of
    // actlut's: an unknown compact table, exit 1.
    let random: Vec<u16> = noise(2 * 65536, 3)
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]) >> 7)
        .collect();
    let unknown =
        actlut_codegen::compact::compact("random", &random, actlut_codegen::compact::Layout::Bytes)
            .unwrap()
            .to_bytes();
    let (code, text) = audit_bytes("compact-unknown", &embed(&unknown));
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("unknown (compact)") && text.contains("UNKNOWN: a valid compact stored form"),
        "{text}"
    );

    // actlut's header on bytes that are not a valid stored form (its pages
    // read past its pool), and a valid unknown form cut off by the end of
    // the file: exit 1 each.
    let mut invalid = gelu[..16].to_vec();
    invalid.extend(vec![0xFFu8; n - 16]);
    let (code, text) = audit_bytes("compact-invalid", &embed(&invalid));
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("unknown (compact)")
            && text.contains("INVALID: actlut's compact header on bytes that are not a stored form (it does not decode (page 0 reads past the end of the pool))"),
        "{text}"
    );
    let mut cut = noise(100, 4);
    cut.extend_from_slice(&unknown[..unknown.len() / 2]);
    let (code, text) = audit_bytes("compact-unknown-cut", &cut);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains(&format!(
            "TRUNCATED: its header declares {} bytes, {} present (the end of the file cuts it)",
            unknown.len(),
            unknown.len() / 2
        )),
        "{text}"
    );

    // Every stored form, one after another: each intact, exit 0.
    let lock = actlut_codegen::compact_lock::parse(
        &compact_lock_text(),
        actlut_codegen::compact::Layout::Bytes,
    )
    .unwrap();
    let mut all = Vec::new();
    for e in &lock {
        all.extend(dumped_compact(&e.name));
    }
    let (code, text) = audit_bytes("compact-all", &all);
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(text.matches(" (compact) ").count(), lock.len(), "{text}");
    assert!(
        text.contains(&format!("audit: {} tables found", lock.len())),
        "{text}"
    );
}

/// `--json` carries a compact form's verdict, the parts that differ and what
/// it decodes to.
#[test]
#[ignore = "whole-binary audits of the real build: .ci/steps/30-audit.sh runs them in release (--include-ignored)"]
fn audit_json_describes_a_modified_compact_form() {
    let mut gelu = dumped_compact("gelu_bf16");
    gelu[16 + 4 * 200 + 2] ^= 1; // the addend of page 200
    let dir = tmp("compact-json");
    let path = dir.join("form");
    std::fs::write(&path, &gelu).unwrap();
    let out = actlut(&["audit", "--json", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let json = stdout(&out);
    for want in [
        "\"form\": \"compact\"",
        "\"verdict\": \"modified\"",
        "\"compact\": {\"found_by\": \"content\", \"differing_header_bytes\": 0, \"differing_directory_bytes\": 1, \"differing_pool_bytes\": 0, \"decoded\": \"differs\", \"decoded_differing_entries\": 128,",
        "\"ok\": false",
    ] {
        assert!(json.contains(want), "{want}: {json}");
    }
}

/// Writes `bytes` to a file named `name` and audits it: (exit code, stdout).
fn audit_bytes(name: &str, bytes: &[u8]) -> (Option<i32>, String) {
    let dir = tmp(&format!("attack-{name}"));
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    let out = actlut(&["audit", path.to_str().unwrap()]);
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
    (out.status.code(), stdout(&out))
}

/// The issue's attacks, each of which made the previous audit print "no actlut
/// tables" and exit 0.
#[test]
#[ignore = "whole-binary audits of the real build: .ci/steps/30-audit.sh runs them in release (--include-ignored)"]
fn the_attacks_that_hid_a_table_are_reported_with_exit_code_1() {
    let mut gelu = dumped("gelu_f16");
    for at in [23520, 32768, 92256, 98304] {
        gelu[at] ^= 1;
    }
    let (code, text) = audit_bytes("gelu-four", &gelu);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("gelu_f16") && text.contains("MODIFIED: 4 of 65536 entries differ"),
        "{text}"
    );

    let mut silu = dumped("silu_fp8_e4m3");
    for at in [32, 64, 144, 192] {
        silu[at] ^= 1;
    }
    let (code, text) = audit_bytes("silu-four", &silu);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("silu_fp8_e4m3")
            && text.contains("MODIFIED: 4 of 256 entries differ (entries 32, 64, 144, 192)"),
        "{text}"
    );

    // A fifth (and a quarter) of the entries changed at random.
    for (percent, seed) in [(20u64, 1u64), (25, 2)] {
        let mut gelu = dumped("gelu_f16");
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut changed = 0;
        for j in 0..65536 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if x % 100 < percent {
                gelu[2 * j] ^= ((x >> 32) as u8) | 1;
                changed += 1;
            }
        }
        let (code, text) = audit_bytes(&format!("gelu-{percent}"), &gelu);
        assert_eq!(code, Some(1), "{text}");
        assert!(
            text.contains(&format!("MODIFIED: {changed} of 65536 entries differ")),
            "{percent}%: {text}"
        );
    }

    // Cut off by the end of the file, and by its start.
    let gelu = dumped("gelu_f16");
    let (code, text) = audit_bytes("gelu-cut", &gelu[..70_000]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("TRUNCATED: 70000 of 131072 bytes present (the end of the file cuts it; all present entries intact)"),
        "{text}"
    );
    let (code, text) = audit_bytes("gelu-head-cut", &gelu[60_000..]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("TRUNCATED: 71072 of 131072 bytes present (the start of the file cuts it"),
        "{text}"
    );
}

#[test]
#[ignore = "whole-binary audits of the real build: .ci/steps/30-audit.sh runs them in release (--include-ignored)"]
fn junk_and_odd_files_get_a_verdict_or_a_one_line_error() {
    let dir = tmp("odd-files");
    // Random bytes: a verdict, no tables, exit 0.
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let junk: Vec<u8> = (0..3_000_000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 16) as u8
        })
        .collect();
    let (code, text) = audit_bytes("junk", &junk);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("no actlut table found: nothing was verified"),
        "{text}"
    );
    // A one-byte file.
    let (code, _) = audit_bytes("one-byte", b"x");
    assert_eq!(code, Some(0));
    #[cfg(unix)]
    {
        // Devices and FIFOs are refused, never read: /dev/zero would never end.
        assert_error(&["audit", "/dev/zero"], "not a regular file");
        let fifo = dir.join("fifo");
        let made = Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            assert_error(&["audit", fifo.to_str().unwrap()], "not a regular file");
            assert_error(
                &["audit", "--lock", fifo.to_str().unwrap(), "/bin/sh"],
                "not a regular file",
            );
        }
        // A symbolic link to a device is judged by what it points to.
        let link = dir.join("zero-link");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        assert_error(&["audit", link.to_str().unwrap()], "not a regular file");
        assert_error(
            &["audit", "--lock", "/dev/zero", "/bin/sh"],
            "not a regular file",
        );
    }
    // A huge lock is not read.
    let big = dir.join("big.lock");
    std::fs::write(&big, vec![b'#'; 2 << 20]).unwrap();
    assert_error(
        &["audit", "--lock", big.to_str().unwrap(), "/bin/sh"],
        "is not a lock",
    );
}

#[cfg(unix)]
#[test]
#[ignore = "whole-binary audits of the real build: .ci/steps/30-audit.sh runs them in release (--include-ignored)"]
fn non_utf8_paths_are_read_and_non_utf8_options_are_one_line_errors() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let dir = tmp("non-utf8");
    let name = OsStr::from_bytes(b"tanh-\xff\xfe.bin");
    let path = dir.join(name);
    std::fs::write(&path, actlut::tables::TANH_FP8_E4M3).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_actlut"))
        .arg("audit")
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("tanh-\u{FFFD}\u{FFFD}.bin: 256 bytes, 1 table"),
        "{text}"
    );
    for (arg, want) in [
        (
            &b"--js\xffon"[..],
            "unexpected argument '--js\u{FFFD}on' found",
        ),
        // A lock path need not be UTF-8, after `=` too.
        (b"--lock=\xff", "cannot read lock \u{FFFD}: No such file"),
        (b"\xff", "unrecognized subcommand '\u{FFFD}'"),
    ] {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_actlut"));
        if arg != b"\xff" {
            cmd.arg("audit");
        }
        let out = cmd.arg(OsStr::from_bytes(arg)).arg(&path).output().unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(want), "want {want:?} in {err}");
    }
    // A lock at a non-UTF-8 path is read.
    let lock = dir.join(OsStr::from_bytes(b"\xfe.lock"));
    std::fs::write(&lock, lock_text()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_actlut"))
        .arg("audit")
        .arg("--lock")
        .arg(&lock)
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
#[ignore = "whole-binary audits of the real build: .ci/steps/30-audit.sh runs them in release (--include-ignored)"]
fn dump_refuses_an_empty_name() {
    assert_error(&["dump", ""], "a directory name must not be empty");
}

#[cfg(unix)]
#[test]
#[ignore = "whole-binary audits of the real build: .ci/steps/30-audit.sh runs them in release (--include-ignored)"]
fn dump_writes_through_no_symbolic_link_and_names_a_linked_directory() {
    let dir = tmp("dump-links");
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, b"keep me").unwrap();
    let out_dir = dir.join("out");
    std::fs::create_dir_all(&out_dir).unwrap();
    std::os::unix::fs::symlink(&victim, out_dir.join("gelu_f16.bin")).unwrap();
    assert_error(
        &["dump", out_dir.to_str().unwrap()],
        "is a symbolic link to",
    );
    assert_eq!(std::fs::read(&victim).unwrap(), b"keep me");
    // The same for SHA256SUMS.
    std::fs::remove_file(out_dir.join("gelu_f16.bin")).unwrap();
    std::os::unix::fs::symlink(&victim, out_dir.join("SHA256SUMS")).unwrap();
    assert_error(&["dump", out_dir.to_str().unwrap()], "SHA256SUMS");
    assert_eq!(std::fs::read(&victim).unwrap(), b"keep me");
    // A directory reached through a link is written, and the output says so.
    let real = dir.join("real");
    std::fs::create_dir_all(&real).unwrap();
    let link = dir.join("link");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let out = actlut(&["dump", link.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains(&format!(
            "({} is a symbolic link to {})",
            link.display(),
            real.display()
        )),
        "{}",
        stdout(&out)
    );
    assert!(real.join("gelu_f16.bin").is_file());
    // No temporary files are left behind.
    assert!(std::fs::read_dir(&real).unwrap().all(|e| !e
        .unwrap()
        .file_name()
        .to_string_lossy()
        .starts_with('.')));
}

/// A real build that names FP4 and FP6 tables (the `actlut` command itself:
/// its manifest lists every table, and it holds every table for `dump`):
/// those tables, below the content threshold, are found by their exact bytes
/// and are intact, not missing. One byte of an FP4 table changed makes it
/// missing, with exit code 1.
#[test]
#[ignore = "whole-binary audits of the real build: .ci/steps/30-audit.sh runs them in release (--include-ignored)"]
fn listed_fp4_and_fp6_tables_in_a_real_build_are_intact_and_a_changed_one_is_missing() {
    let bin = Path::new(env!("CARGO_BIN_EXE_actlut"));
    let out = actlut(&["audit", "--json", bin.to_str().unwrap()]);
    let json = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{json}");
    let names = table_names(&json);
    for format in ["fp4_e2m1", "fp6_e2m3", "fp6_e3m2", "fp8_e5m2fnuz"] {
        assert!(
            names.iter().any(|n| n.ends_with(format)),
            "no {format} table in {names:?}"
        );
    }
    assert!(!json.contains("\"status\": \"missing\""), "{json}");
    let fp4 = json
        .split("{\"offset\": ")
        .skip(1)
        // Not the identity's (codes 0 to 15 in order), whose bytes a binary also holds by
        // chance: its first copy need not be the table's.
        .find(|s| s.contains("\"format\": \"fp4_e2m1\"") && !s.contains("\"identity_"))
        .unwrap();
    let offset: usize = fp4.split(',').next().unwrap().parse().unwrap();
    let name = fp4.split("\"names\": [\"").nth(1).unwrap();
    let name = name.split('"').next().unwrap();
    let mut bytes = std::fs::read(bin).unwrap();
    bytes[offset + 5] ^= 1;
    let dir = tmp("fp4-patched");
    let patched = dir.join("actlut-patched");
    std::fs::write(&patched, &bytes).unwrap();
    let out = actlut(&["audit", patched.to_str().unwrap()]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains(&format!("manifest lists {name}"))
            && text.contains("but its bytes are not in the file"),
        "{text}"
    );
}

/// A reader that stops early (`actlut manifest | head -1`) is no panic: the
/// command exits with its own status and says nothing on standard error.
#[test]
#[ignore = "whole-binary audits of the real build: .ci/steps/30-audit.sh runs them in release (--include-ignored)"]
fn a_closed_stdout_is_not_a_panic() {
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_actlut"))
        .args(["manifest", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Close the read end before the command writes its output.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{:?}: {stderr}", out.status);
    assert!(stderr.is_empty(), "{stderr}");
}

/// The offset of the declaration of `name` in `bytes` (its marker; the name
/// field is at 48, the hash at 16).
fn record_offset(bytes: &[u8], name: &str) -> usize {
    let field = actlut_codegen::record::name_field(name).unwrap();
    bytes
        .windows(80)
        .position(|w| w[..8] == *b"ACTLUTDT" && w[48..80] == field)
        .unwrap_or_else(|| panic!("no declaration of {name}"))
}

/// The declarations are held to the lock: a record whose hash was rewritten
/// (to a tampered table's hash, or to anything) fails the audit, with the
/// table intact or not, and with its marker changed too.
#[test]
#[ignore = "whole-binary audits of the real build: .ci/steps/30-audit.sh runs them in release (--include-ignored)"]
fn a_declared_hash_rewritten_to_the_tampered_table_s_hash_fails_the_audit() {
    let listed = exe(&fixtures().release, "listed");
    let original = std::fs::read(&listed).unwrap();
    let gelu = actlut::tables::GELU_BF16_SHA256;
    let at = record_offset(&original, "gelu_bf16");
    let hash_at = at + 16;
    assert_eq!(original[hash_at..hash_at + 32], gelu);
    // The table's copy, one entry changed, and its hash.
    let json = stdout(&actlut(&["audit", "--json", listed.to_str().unwrap()]));
    let table_at: usize = json
        .split("\"offset\": ")
        .skip(1)
        .find(|s| s.contains("\"names\": [\"gelu_bf16\"]"))
        .and_then(|s| s.split(',').next())
        .unwrap()
        .parse()
        .unwrap();
    let mut tampered_table = original[table_at..table_at + 131_072].to_vec();
    tampered_table[2 * 0x3F80] ^= 1;
    let tampered_hash = actlut_codegen::sha256(&tampered_table);
    let dir = tmp("manifest-records");
    for (what, table, marker) in [
        ("hash only", false, false),
        ("hash and table", true, false),
        ("hash, table and marker", true, true),
    ] {
        let mut bytes = original.clone();
        bytes[hash_at..hash_at + 32].copy_from_slice(&tampered_hash);
        if table {
            bytes[table_at..table_at + 131_072].copy_from_slice(&tampered_table);
        }
        if marker {
            bytes[at..at + 8].copy_from_slice(b"XXXXXXXX");
        }
        let file = dir.join("listed");
        std::fs::write(&file, &bytes).unwrap();
        let out = actlut(&["audit", file.to_str().unwrap()]);
        let text = stdout(&out);
        assert_eq!(out.status.code(), Some(1), "{what}: {text}");
        let want = format!(
            "it declares sha256 {}, the lock has {}",
            actlut_codegen::hex(&tampered_hash),
            actlut_codegen::hex(&gelu)
        );
        assert!(text.contains(&want), "{what}: {text}");
        assert!(
            text.contains(&format!("  {at:#010x}  gelu_bf16")),
            "{what}: the record's offset: {text}"
        );
    }
    // Intact, every record agrees with the lock.
    let out = actlut(&["audit", listed.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}

/// A decoy in a real ELF that keeps its manifest: an intact copy of a table
/// overlapping a tampered one (16-bit: by 2 to 2,046 bytes; fp8: by 1 to 8)
/// never hides it: the audit exits 1 and names the tampered copy, at its
/// offset, as modified.
#[test]
#[ignore = "whole-binary audits of the real build: .ci/steps/30-audit.sh runs them in release (--include-ignored)"]
fn a_decoy_overlapping_a_tampered_table_in_an_elf_with_its_manifest_fails_the_audit() {
    let listed = exe(&fixtures().release, "listed");
    let original = std::fs::read(&listed).unwrap();
    let json = stdout(&actlut(&["audit", "--json", listed.to_str().unwrap()]));
    let offset_of = |name: &str| -> usize {
        json.split("\"offset\": ")
            .skip(1)
            .find(|s| s.contains(&format!("\"names\": [\"{name}\"")))
            .and_then(|s| s.split(',').next())
            .unwrap()
            .parse()
            .unwrap()
    };
    let dir = tmp("decoys-in-elf");
    for (name, len, entry, shared) in [
        ("gelu_f16", 131_072, 0x3C00 * 2, 2046),
        ("gelu_f16", 131_072, 0x3C00 * 2, 2),
        ("tanh_fp8_e4m3", 256, 0x30, 8),
        ("tanh_fp8_e4m3", 256, 0x30, 1),
    ] {
        let at = offset_of(name);
        let table = original[at..at + len].to_vec();
        let mut bytes = original.clone();
        bytes[at + entry] ^= 1;
        // The decoy after the tampered copy, sharing its last `shared` bytes.
        let decoy = at + len - shared;
        bytes[decoy..decoy + len].copy_from_slice(&table);
        let file = dir.join("listed");
        std::fs::write(&file, &bytes).unwrap();
        let out = actlut(&["audit", file.to_str().unwrap()]);
        let text = stdout(&out);
        assert_eq!(out.status.code(), Some(1), "{name}, {shared}: {text}");
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("  {at:#010x}  {name} ")))
            .unwrap_or_else(|| panic!("{name}, {shared}: no line for the tampered copy: {text}"));
        assert!(line.contains("MODIFIED"), "{name}, {shared}: {line}");
        assert!(
            text.contains(&format!("  {decoy:#010x}  {name} ")),
            "{name}, {shared}: the decoy is reported too: {text}"
        );
    }
}

/// The third attack round: the command's references were its own build's
/// tables, which hold no derivative table (it does not enable actlut's
/// `derivatives`), so a derivative's declaration was recognised by its
/// marker alone: with the marker and the hash changed (2 bytes), its
/// header, name and table intact, the audit said "nothing was verified",
/// exit 0. The command knows every built-in derivative table: the record
/// is reported, exit 1, for a version-1 name and a version-2 one.
#[test]
fn a_derivative_declaration_with_its_marker_and_hash_changed_is_reported() {
    use actlut_codegen::record::{Declaration, Representation, StoredOrder};
    let dir = tmp("derivative-record");
    for (function, format) in [
        (actlut::Function::Gelu, actlut::Format::Bf16),
        (actlut::Function::LeakyRelu, actlut::Format::Fp8E4M3Fnuz),
    ] {
        let op = actlut_codegen::Op::from(function).with_derivative(true);
        let name = actlut_codegen::op_table_name(&op, format);
        let table =
            actlut_codegen::table_bytes_le(format, &actlut_codegen::builtin_table(&op, format));
        let d = Declaration::new(
            &name,
            Representation::Full,
            format.entry_bytes() as u8,
            StoredOrder::Little,
            table.len() as u32,
            actlut_codegen::sha256(&table),
        );
        let mut record = d.encode()[..d.record_bytes()].to_vec();
        let honest = [&vec![0x5A; 4096][..], &record, &table, &vec![0x5A; 4096]].concat();
        record[0] ^= 1;
        record[16] ^= 1;
        let changed = [&vec![0x5A; 4096][..], &record, &table, &vec![0x5A; 4096]].concat();
        for (what, bytes, status) in [("honest", honest, 0), ("changed", changed, 1)] {
            let path = dir.join(format!("{name}-{what}.bin"));
            std::fs::write(&path, bytes).unwrap();
            let out = actlut(&["audit", path.to_str().unwrap()]);
            let text = stdout(&out);
            assert_eq!(out.status.code(), Some(status), "{name} {what}: {text}");
            if status == 1 {
                assert!(
                    text.contains("BAD DECLARATION") && text.contains(&name),
                    "{text}"
                );
            }
        }
    }
}
