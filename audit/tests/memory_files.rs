//! Memory does not grow with the number of files (docs/audit.md, Cost): the
//! second attack on this design gave `actlut audit` the same 1.12 MB file of
//! 70,000 declaration markers 100 times; every file's report was kept until
//! the end, up to `MAX_FOUND` findings each: 1.3 GB resident (2.6 GB for
//! SARIF). `audit_all` keeps at most `MAX_FOUND` findings over all files.
//! This test is alone in its file, so that the process's peak resident set
//! is these audits'.

#![cfg(target_os = "linux")]

use actlut_audit::{audit, audit_all, Lock, MAX_FOUND};

#[path = "support/peak.rs"]
mod peak;
use peak::peak_resident;

#[test]
#[ignore = "audits 100 files of 1.12 MB: .ci/steps/30-audit.sh runs it in release"]
fn a_hundred_files_of_declaration_markers_take_the_memory_of_two() {
    let lock = Lock::builtin().unwrap();
    let dir = std::env::temp_dir().join(format!("actlut-memory-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("markers.bin");
    // A declaration marker and a header that parses, 70,000 times.
    let mut unit = actlut_codegen::record::declaration_mark().to_vec();
    unit.extend_from_slice(&[1, 0, 1, 0]);
    unit.extend_from_slice(&256u32.to_le_bytes());
    std::fs::write(&path, unit.repeat(70_000)).unwrap();
    // One file: its findings fill MAX_FOUND.
    let one = audit(path.as_path(), &lock).unwrap();
    // One file: its budget stops it (a problem), thousands of findings kept.
    let kept_one = one.declared.len() + one.records.len() + one.found.len();
    assert!(
        one.too_many && kept_one > MAX_FOUND / 8,
        "{kept_one} findings"
    );
    drop(one);
    let peak_one = peak_resident();
    let paths = vec![path.clone(); 100];
    let reports = audit_all(&paths, &lock).unwrap();
    let peak = peak_resident();
    std::fs::remove_dir_all(&dir).unwrap();
    let kept: usize = reports
        .iter()
        .map(|r| r.found.len() + r.records.len() + r.declared.len())
        .sum();
    assert_eq!(kept, MAX_FOUND, "findings kept over all files");
    assert!(reports.iter().all(|r| r.too_many), "each file is a problem");
    // The first stopped on its own budget; a file whose findings the files
    // before it left no room for says so (the eighth attack: a hundred honest
    // builds in one call read as scans that ran out of budget).
    assert!(!reports[0].unjudged.shared);
    let last = reports.last().unwrap().stopped();
    assert!(
        last.contains("the files audited before it in this call"),
        "{last}"
    );
    // The findings kept, and the file being scanned: twice one file's, and
    // some slack for the allocator.
    assert!(
        peak <= 2 * peak_one + (64 << 20),
        "{} MB resident for 100 files, {} MB for one",
        peak >> 20,
        peak_one >> 20
    );
}
