//! build.rs checks every generated table against `tables/actlut.lock`: a copy
//! of the crate builds with the committed lock, and fails with one altered
//! entry, naming the table, both hashes and the command that regenerates the
//! lock; a lock with a BOM, a cut last line or a lost line fails the build as
//! it fails `actlut audit` (one parser).
//!
//! The copy holds only what a build needs (Cargo.toml, Cargo.lock, build.rs,
//! src/, codegen/, tables/, and macros/, the optional path dependency that
//! cargo reads even when it is off); workspace members that were not copied are dropped
//! from its Cargo.toml. It builds offline, with one function and one format.

// WASI cannot spawn cargo.
#![cfg(not(target_os = "wasi"))]

use std::path::Path;
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if name == "target" {
            continue;
        }
        let (src, dst) = (entry.path(), to.join(&name));
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&src, &dst);
        } else {
            std::fs::copy(&src, &dst).unwrap();
        }
    }
}

/// The root Cargo.toml with only the copied members, and without targets whose
/// files were not copied (benches, examples).
fn adapt_manifest(text: &str) -> String {
    let mut out = String::new();
    let mut skipping = false;
    let mut in_array: Option<&str> = None;
    for line in text.lines() {
        let t = line.trim_start();
        if let Some(key) = in_array {
            if t.contains(']') {
                out.push_str(&format!("{key} = [\".\", \"core\", \"codegen\"]\n"));
                in_array = None;
            }
            continue;
        }
        if t.starts_with('[') {
            skipping = t.starts_with("[[bench]]")
                || t.starts_with("[[example]]")
                || t.starts_with("[[test]]");
        }
        if skipping {
            continue;
        }
        let key = ["members", "default-members"]
            .into_iter()
            .find(|k| t.starts_with(&format!("{k} =")) || t.starts_with(&format!("{k}=")));
        if let Some(key) = key {
            if t.contains(']') {
                out.push_str(&format!("{key} = [\".\", \"core\", \"codegen\"]\n"));
            } else {
                in_array = Some(key);
            }
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

fn build(dir: &Path) -> std::process::Output {
    Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args([
            "build",
            "--offline",
            "-p",
            "actlut",
            "--no-default-features",
            "--features",
            "gelu,f16",
        ])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .env_remove("RUSTFLAGS")
        .output()
        .expect("run cargo")
}

#[test]
#[ignore = "builds a copy of the crate (half a minute); run by .ci/steps/20-unit.sh"]
fn an_altered_lock_entry_fails_the_build_with_table_hashes_and_command() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("lock-mismatch");
    let _ = std::fs::remove_dir_all(dir.join("src"));
    let _ = std::fs::remove_dir_all(dir.join("core"));
    let _ = std::fs::remove_dir_all(dir.join("codegen"));
    let _ = std::fs::remove_dir_all(dir.join("tables"));
    let _ = std::fs::remove_dir_all(dir.join("macros"));
    std::fs::create_dir_all(&dir).unwrap();
    let root = Path::new(ROOT);
    for f in ["Cargo.lock", "build.rs"] {
        std::fs::copy(root.join(f), dir.join(f)).unwrap();
    }
    for d in ["src", "core", "codegen", "tables", "macros"] {
        copy_dir(&root.join(d), &dir.join(d));
    }
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    std::fs::write(dir.join("Cargo.toml"), adapt_manifest(&manifest)).unwrap();

    // The copy builds as it is: the failure below is the lock's doing.
    let ok = build(&dir);
    assert!(
        ok.status.success(),
        "the unmodified copy does not build:\n{}",
        String::from_utf8_lossy(&ok.stderr)
    );

    let lock_path = dir.join("tables/actlut.lock");
    let lock = std::fs::read_to_string(&lock_path).unwrap();
    let line = lock
        .lines()
        .find(|l| l.starts_with("gelu_f16 "))
        .expect("gelu_f16 in the lock");
    let actual = line.split_whitespace().nth(5).unwrap().to_string();
    let altered: String = actual
        .chars()
        .rev()
        .map(|c| if c == '0' { '1' } else { '0' })
        .collect();
    std::fs::write(&lock_path, lock.replace(&actual, &altered)).unwrap();

    let failed = build(&dir);
    let stderr = String::from_utf8_lossy(&failed.stderr);
    assert!(!failed.status.success(), "built despite an altered lock");
    for want in [
        "generated tables differ from the lock",
        &format!("gelu_f16: expected sha256 {altered} (lock), generated {actual}"),
        "cargo run --release -p actlut-codegen --example regenerate-lock",
    ] {
        assert!(stderr.contains(want), "missing {want:?} in:\n{stderr}");
    }

    // The build reads the lock with the parser `actlut audit` uses, with the
    // same strictness: a BOM, a cut last line and a lost line fail the build.
    let cut_line = lock.lines().find(|l| l.starts_with("tanh_bf16 ")).unwrap();
    for (text, want) in [
        (format!("\u{FEFF}{lock}"), "BOM".to_string()),
        (
            lock[..lock.len() - 3].to_string(),
            "the lock is truncated".to_string(),
        ),
        (
            lock.replace(&format!("{cut_line}\n"), ""),
            format!(
                "the lock is incomplete: 1 of {} tables missing (first: tanh_bf16)",
                actlut_codegen::builtin_tables().count()
            ),
        ),
    ] {
        std::fs::write(&lock_path, &text).unwrap();
        let failed = build(&dir);
        let stderr = String::from_utf8_lossy(&failed.stderr);
        assert!(!failed.status.success(), "built with a bad lock ({want})");
        assert!(stderr.contains(&want), "missing {want:?} in:\n{stderr}");
    }
    std::fs::write(&lock_path, &lock).unwrap();
}

#[test]
fn adapted_manifest_keeps_only_the_copied_members() {
    let text = "[workspace]\nmembers = [\".\", \"codegen\", \"oracle\", \"cli\"]\n\
                default-members = [\n  \".\",\n  \"cli\",\n]\n\n[package]\nname = \"actlut\"\n\n\
                [[bench]]\nname = \"lookup\"\nharness = false\n\n[profile.dev]\nopt-level = 1\n";
    let out = adapt_manifest(text);
    assert!(
        out.contains(
            "members = [\".\", \"core\", \"codegen\"]\ndefault-members = [\".\", \"core\", \"codegen\"]\n"
        )
    );
    assert!(!out.contains("oracle") && !out.contains("cli") && !out.contains("bench"));
    assert!(out.contains("[profile.dev]\nopt-level = 1"));
}
