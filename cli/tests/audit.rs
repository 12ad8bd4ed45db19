//! The `actlut` command end to end: `audit` finds exactly the tables that real
//! binaries embed (0, 1 and 3 tables; debug and stripped release builds),
//! reports changed tables and lock mismatches with exit code 1, and fails on
//! bad input with one line and exit code 2; `dump` and `manifest` agree with
//! the committed lock.
//!
//! The fixture binaries (`tests/fixtures/*.rs`) are built once per test run by
//! cargo, offline, in a crate generated under `CARGO_TARGET_TMPDIR`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

fn actlut(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_actlut"))
        .args(args)
        .output()
        .expect("run actlut")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

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
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json = stdout(&out);
    assert!(json.contains("\"ok\": true"), "{json}");
    json.split("\"names\": [\"")
        .skip(1)
        .map(|s| s.split('"').next().unwrap().to_string())
        .collect()
}

fn exe(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX))
}

#[test]
fn audit_finds_exactly_the_tables_each_binary_embeds() {
    let f = fixtures();
    for dir in [&f.debug, &f.release] {
        assert_eq!(
            audit_names(&exe(dir, "zero")),
            Vec::<String>::new(),
            "{}",
            dir.display()
        );
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
    assert!(line.ends_with("in the lock"), "{line}");
    assert!(
        text.contains("1 table found in 1 file, all in the lock"),
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
        text.contains("NOT IN THE LOCK: a modified copy, 1 of 65536 entries differ"),
        "{text}"
    );
    assert!(text.contains(&format!("{offset:#010x}")), "{text}");
    let json = stdout(&actlut(&["audit", "--json", patched.to_str().unwrap()]));
    assert!(json.contains("\"match\": \"modified\""), "{json}");
    assert!(json.contains("\"in_lock\": false"), "{json}");
    assert!(json.contains("\"ok\": false"), "{json}");
}

#[test]
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
    image.extend_from_slice(&actlut::tables::TANH_FP8_E4M3);
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
fn bad_artifacts_are_one_line_errors() {
    let dir = tmp("bad-artifacts");
    let empty = dir.join("empty.bin");
    std::fs::write(&empty, b"").unwrap();
    let missing = dir.join("missing.bin");
    let d = dir.to_str().unwrap();
    assert_error(&["audit", empty.to_str().unwrap()], "is empty");
    assert_error(&["audit", missing.to_str().unwrap()], "cannot read");
    assert_error(&["audit", d], "cannot read");
    assert_error(&["audit"], "needs at least one file");
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

#[test]
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
    let unknown = write("unknown.lock", &good.replacen("gelu_f16 ", "swish_f16 ", 1));
    assert_error(&["audit", "--lock", &unknown, one], "does not match");
    let unknown_fn = write(
        "unknown-fn.lock",
        &format!(
            "{good}swish_f16 swish f16 65536 131072 {} x\n",
            "0".repeat(64)
        ),
    );
    assert_error(
        &["audit", "--lock", &unknown_fn, one],
        "unknown function `swish`",
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
    assert_error(&["audit", one, "--lock"], "`--lock` needs a file");
}

#[test]
fn bad_commands_are_one_line_errors() {
    assert_error(&[], "no command");
    assert_error(&["frobnicate"], "unknown command `frobnicate`");
    assert_error(&["manifest", "--yaml"], "unknown option `--yaml`");
    assert_error(&["manifest", "extra"], "no file arguments");
    assert_error(&["dump"], "needs a directory");
    assert_error(&["dump", "a", "b"], "exactly one directory");
    let dir = tmp("dump-onto-file");
    let file = dir.join("file");
    std::fs::write(&file, b"x").unwrap();
    assert_error(&["dump", file.to_str().unwrap()], "cannot create directory");
    let help = actlut(&["--help"]);
    assert_eq!(help.status.code(), Some(0));
    assert!(stdout(&help).contains("actlut audit"));
}

#[test]
fn dump_writes_every_table_and_the_lock_s_sha256sums() {
    let dir = tmp("dump");
    let out = actlut(&["dump", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let sums = std::fs::read_to_string(dir.join("SHA256SUMS")).unwrap();
    let committed = std::fs::read_to_string(format!("{ROOT}/tables/SHA256SUMS")).unwrap();
    assert_eq!(sums, committed);
    let lock = actlut_codegen::lock::parse(&lock_text()).unwrap();
    assert_eq!(lock.len(), actlut_codegen::table_pairs().count());
    for e in &lock {
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
}

#[test]
fn manifest_lists_every_table_with_hash_size_and_definition() {
    let lock = actlut_codegen::lock::parse(&lock_text()).unwrap();
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
        assert!(row.contains(e.function.definition()), "{row}");
    }
    let json = stdout(&actlut(&["manifest", "--json"]));
    assert_eq!(json.matches("\"name\": ").count(), lock.len());
    assert!(
        json.contains("\"aliases\": [\"gelu_tanh_fp8_e4m3\"]"),
        "{json}"
    );
}
