//! Memory does not grow with the input (docs/audit.md, Cost): the attack on
//! this design wrote a 64 MiB ar archive whose GNU symbol table names 13.4
//! million members, all collected before the first was checked: 402 MB
//! resident. Each is now checked as it is read. This test is alone in its
//! file, so that the process's peak resident set is this audit's.

#![cfg(target_os = "linux")]

use std::io::Write;

use actlut_audit::container::IN_MEMORY_BYTES;
use actlut_audit::{audit, Lock};

#[path = "support/peak.rs"]
mod peak;
use peak::peak_resident;

#[test]
#[ignore = "writes and audits a 64 MiB archive: .ci/steps/30-audit.sh runs it in release"]
fn an_archive_whose_symbol_table_names_millions_of_members_stays_within_256_mb() {
    let lock = Lock::builtin().unwrap();
    let dir = std::env::temp_dir().join(format!("actlut-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("symbols.a");
    {
        // The one member is the symbol table: n offsets (big-endian u32,
        // distinct), then n empty names; the file is read whole.
        let n = (IN_MEMORY_BYTES - 8 - 60 - 4) / 5;
        let size = 4 + 5 * n;
        let mut f = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        f.write_all(b"!<arch>\n").unwrap();
        writeln!(
            f,
            "{:<16}{:<12}{:<6}{:<6}{:<8}{:<10}`",
            "/", 0, 0, 0, 0, size
        )
        .unwrap();
        f.write_all(&(n as u32).to_be_bytes()).unwrap();
        for i in 0..n as u32 {
            f.write_all(&(2 * i + 1).to_be_bytes()).unwrap();
        }
        f.write_all(&vec![0; n as usize]).unwrap();
    }
    assert!(std::fs::metadata(&path).unwrap().len() <= IN_MEMORY_BYTES);
    let r = audit(path.as_path(), &lock).unwrap();
    let peak = peak_resident();
    std::fs::remove_dir_all(&dir).unwrap();
    // It is bad input: offset 1 is no member.
    assert!(
        r.malformed
            .as_deref()
            .is_some_and(|m| m.contains("its symbol table names a member at offset 0x1")),
        "{:?}",
        r.malformed
    );
    assert!(peak <= 256 << 20, "{} MB resident", peak >> 20);
}
