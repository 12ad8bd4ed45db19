//! What the file audit cannot see and the process does (docs/audit.md,
//! "What the audit does not promise"): in the real `actlut` binary, the
//! dynamic relocation that sets the reference the code reaches gelu_bf16's
//! declared static through (a GOT entry: the declaration, then the table) is
//! pointed at gelu_tanh_bf16's. Every byte of every
//! declared table and record is as built, so `actlut audit` passes the file;
//! the program, whose `self-check` verifies each table it reads in memory
//! before its first use, reports gelu_bf16 by name and computes nothing with
//! it. The ELF64 layout is read here, independently of the audit.

#![cfg(all(target_os = "linux", target_arch = "x86_64"))]

use std::path::PathBuf;
use std::process::Command;

fn u16_at(b: &[u8], at: usize) -> u64 {
    u64::from(u16::from_le_bytes(b[at..at + 2].try_into().unwrap()))
}
fn u32_at(b: &[u8], at: usize) -> u64 {
    u64::from(u32::from_le_bytes(b[at..at + 4].try_into().unwrap()))
}
fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
}

/// The virtual address of the file offset `off` (through its `PT_LOAD`).
fn vaddr_of(b: &[u8], off: u64) -> u64 {
    let (phoff, size, n) = (u64_at(b, 0x20), u16_at(b, 0x36), u16_at(b, 0x38));
    (0..n)
        .map(|i| (phoff + i * size) as usize)
        .filter(|&h| u32_at(b, h) == 1)
        .map(|h| (u64_at(b, h + 8), u64_at(b, h + 16), u64_at(b, h + 32)))
        .find(|&(o, _, filesz)| o <= off && off < o + filesz)
        .map(|(o, v, _)| v + off - o)
        .expect("a PT_LOAD maps it")
}

/// The virtual address of the declared static of `name` (its declaration;
/// the table follows it, 128 bytes on).
fn declared_vaddr(b: &[u8], name: &str) -> u64 {
    let mut field = [0u8; 32];
    field[..name.len()].copy_from_slice(name.as_bytes());
    let at = (0..b.len() - 128)
        .find(|&i| &b[i..i + 8] == b"ACTLUTDT" && b[i + 48..i + 80] == field)
        .unwrap_or_else(|| panic!("{name} is declared"));
    vaddr_of(b, at as u64)
}

/// The file range of the section `name`.
fn section(b: &[u8], name: &str) -> (usize, usize) {
    let (off, size, n, names) = (
        u64_at(b, 0x28) as usize,
        u16_at(b, 0x3A) as usize,
        u16_at(b, 0x3C) as usize,
        u16_at(b, 0x3E) as usize,
    );
    let strtab = u64_at(b, off + names * size + 24) as usize;
    (0..n)
        .map(|i| off + i * size)
        .find(|&h| {
            let at = strtab + u32_at(b, h) as usize;
            let end = at + b[at..].iter().position(|&c| c == 0).unwrap();
            &b[at..end] == name.as_bytes()
        })
        .map(|h| (u64_at(b, h + 24) as usize, u64_at(b, h + 32) as usize))
        .unwrap_or_else(|| panic!("no section {name}"))
}

#[test]
#[ignore = "a whole-binary audit of the real build: .ci/steps/30-audit.sh runs it in release (--include-ignored)"]
fn a_relocation_that_points_the_program_at_another_table_passes_the_file_audit_and_fails_the_program(
) {
    let mut b = std::fs::read(env!("CARGO_BIN_EXE_actlut")).unwrap();
    assert_eq!(
        (&b[..4], b[4], b[5]),
        (&b"\x7FELF"[..], 2, 1),
        "an ELF64 LE"
    );
    let (gelu, tanh) = (
        declared_vaddr(&b, "gelu_bf16"),
        declared_vaddr(&b, "gelu_tanh_bf16"),
    );
    let (off, size) = section(&b, ".rela.dyn");
    let mut moved = 0;
    for e in (off..off + size).step_by(24) {
        // R_X86_64_RELATIVE whose addend is gelu_bf16's declaration or
        // table: the same place in gelu_tanh_bf16's.
        let addend = u64_at(&b, e + 16);
        if u32_at(&b, e + 8) == 8 && (addend == gelu || addend == gelu + 128) {
            b[e + 16..e + 24].copy_from_slice(&(addend - gelu + tanh).to_le_bytes());
            moved += 1;
        }
    }
    assert!(
        moved >= 1,
        "no relocation sets a reference to gelu_bf16's declared static"
    );
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("self-check-reloc");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let patched = dir.join("actlut");
    std::fs::write(&patched, &b).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&patched, std::fs::Permissions::from_mode(0o755)).unwrap();
    // The file audit: every declared table and record intact.
    let audit = Command::new(env!("CARGO_BIN_EXE_actlut"))
        .args(["audit", patched.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&audit.stdout);
    assert_eq!(audit.status.code(), Some(0), "{text}");
    // The program: its first read of gelu_bf16 reports it, by name.
    let run = Command::new(&patched)
        .args(["dump", dir.join("dump").to_str().unwrap()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success(), "{err}");
    assert!(err.contains("table gelu_bf16 is corrupt"), "{err}");
}
