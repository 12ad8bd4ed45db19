//! `actlut_codegen::runtime::generate`, what actlut's build script runs: the files it writes
//! for a build, and the reproducible-build check against the lock.

use actlut_codegen::runtime::{generate, lock_files, Output, LOCK};

/// The committed lock files of the workspace, by name.
fn read_lock(name: &str) -> Result<String, String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tables")
        .join(name);
    std::fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

fn features(on: &'static [&'static str]) -> impl Fn(&str) -> bool {
    move |f| on.contains(&f)
}

fn file<'a>(out: &'a Output, name: &str) -> Option<&'a [u8]> {
    out.files
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, b)| b.as_slice())
}

#[test]
fn a_build_writes_the_enabled_tables_in_the_targets_byte_order_and_their_statics() {
    let enabled = features(&["gelu", "bf16", "fp8-e4m3"]);
    let little = generate(&enabled, false, &mut read_lock).unwrap();
    let big = generate(&enabled, true, &mut read_lock).unwrap();
    let table = actlut_codegen::table(actlut_codegen::Function::Gelu, actlut_codegen::Format::Bf16);
    let le: Vec<u8> = table.iter().flat_map(|v| v.to_le_bytes()).collect();
    let be: Vec<u8> = table.iter().flat_map(|v| v.to_be_bytes()).collect();
    assert_eq!(file(&little, "gelu_bf16.bin"), Some(&le[..]));
    assert_eq!(file(&big, "gelu_bf16.bin"), Some(&be[..]));
    assert_eq!(
        file(&little, "gelu_fp8_e4m3.bin").map(<[u8]>::len),
        Some(256)
    );
    // Only the enabled pairs have files; the statics of the others are named, gated out.
    assert!(file(&little, "gelu_f16.bin").is_none());
    assert!(file(&little, "silu_bf16.bin").is_none());
    let code = String::from_utf8(file(&little, "tables.rs").unwrap().to_vec()).unwrap();
    assert!(code.contains("pub static GELU_BF16: &[u16; 65536]"));
    assert!(
        code.contains("pub static SILU_BF16"),
        "the gated-out static is named"
    );
    let manifest = String::from_utf8(file(&little, "manifest.rs").unwrap().to_vec()).unwrap();
    assert!(manifest.contains("name: \"gelu_bf16\""));
    assert!(!manifest.contains("name: \"silu_bf16\""));
}

#[test]
fn a_table_that_differs_from_its_lock_line_fails_the_build_naming_it() {
    let enabled = features(&["gelu", "bf16"]);
    let mut read = |name: &str| {
        let text = read_lock(name)?;
        if name != LOCK {
            return Ok(text);
        }
        // gelu_bf16's hash with its first digit changed.
        let hash = text
            .lines()
            .find(|l| l.starts_with("gelu_bf16 "))
            .and_then(|l| l.split_whitespace().find(|w| w.len() == 64))
            .expect("gelu_bf16 has a lock line")
            .to_string();
        let digit = if hash.starts_with('0') { "1" } else { "0" };
        Ok(text.replace(&hash, &format!("{digit}{}", &hash[1..])))
    };
    let err = generate(&enabled, false, &mut read).unwrap_err();
    assert!(err.contains("gelu_bf16: expected sha256"), "{err}");
    assert!(err.contains("regenerate-lock"), "{err}");
}

#[test]
fn a_missing_lock_is_an_error_naming_it() {
    let enabled = features(&["gelu", "bf16"]);
    let mut read = |name: &str| Err(format!("cannot read tables/{name}: gone"));
    let err = generate(&enabled, false, &mut read).unwrap_err();
    assert!(err.contains("actlut.lock"), "{err}");
}

#[test]
fn the_compact_lock_read_follows_the_layout_feature() {
    assert_eq!(lock_files(&features(&[])), [LOCK, "actlut-compact.lock"]);
    assert_eq!(
        lock_files(&features(&["compact", "compact-words"])),
        [LOCK, "actlut-compact-words.lock"]
    );
}
