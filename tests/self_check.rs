//! The `self-check` feature on a table changed in memory after the program
//! loaded it: the test writes into the running process's own table through
//! `/proc/self/mem` (as a loader's relocation or a segment mapped over it
//! would), then shows that the checked lookups report it, by name, and never
//! compute with it. The crate is `no_std`; run without the `std` feature this
//! is a host test of the `no_std` path (`.ci/steps/20-unit.sh`).

#![cfg(all(
    feature = "self-check",
    feature = "gelu",
    feature = "bf16",
    target_os = "linux"
))]

use std::io::{Read, Seek, SeekFrom, Write};

use actlut::tables::checked;

/// Writes `bytes` at `address` of this process's memory (read-only pages
/// too: the kernel writes through `/proc/self/mem` as a debugger would),
/// and returns what was there.
fn poke(address: usize, bytes: &[u8]) -> Vec<u8> {
    let mut mem = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/proc/self/mem")
        .expect("/proc/self/mem");
    let mut old = vec![0; bytes.len()];
    mem.seek(SeekFrom::Start(address as u64)).unwrap();
    mem.read_exact(&mut old).unwrap();
    mem.seek(SeekFrom::Start(address as u64)).unwrap();
    mem.write_all(bytes).unwrap();
    old
}

fn panic_message(f: impl FnOnce() + std::panic::UnwindSafe) -> String {
    let err = std::panic::catch_unwind(f).expect_err("the lookup panics");
    err.downcast_ref::<String>()
        .cloned()
        .or_else(|| err.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

/// One entry of the full gelu_bf16 table changed in memory before its first
/// use: `verify` is an error naming it, a lookup through `BuiltinTables`
/// panics naming it; restored, it verifies.
#[test]
fn a_table_changed_in_memory_after_load_is_reported_by_name_before_its_first_use() {
    let table: &'static [u16; 65536] = actlut::tables::GELU_BF16;
    let at = table.as_ptr() as usize + 2 * 0x3F80; // gelu(1.0)
    let old = poke(at, &[0x12, 0x34]);
    assert_ne!(
        table[0x3F80],
        u16::from_le_bytes([old[0], old[1]]),
        "the write took"
    );
    let err = checked::GELU_BF16.verify().expect_err("a changed table");
    assert_eq!(err.name, "gelu_bf16");
    assert!(!err.declaration);
    assert_eq!(err.expected, actlut::tables::GELU_BF16_SHA256);
    assert!(
        err.to_string().contains("table gelu_bf16 is corrupt"),
        "{err}"
    );
    let message = panic_message(|| {
        let t = actlut::BuiltinTables::table_bf16(actlut::Function::Gelu).unwrap();
        std::hint::black_box(t[0]);
    });
    assert!(message.contains("table gelu_bf16 is corrupt"), "{message}");
    // Its declaration changed in memory (the name's first byte): the same.
    poke(at, &old);
    let record = table.as_ptr() as usize - 128;
    let name = poke(record + 48, b"h");
    let err = checked::GELU_BF16
        .verify()
        .expect_err("a changed declaration");
    assert!(
        err.declaration && err.to_string().contains("declaration"),
        "{err}"
    );
    poke(record + 48, &name);
    // Restored: verified, and the lookups read it.
    assert!(checked::GELU_BF16.verify().is_ok());
    assert_eq!(
        actlut::BuiltinTables::table_bf16(actlut::Function::Gelu).unwrap()[0x3F80],
        0x3F57
    );
}

/// With `compact`, the function modules read the compact stored form: one
/// byte of its pool changed in memory makes the first lookup panic, naming
/// the table.
#[cfg(feature = "compact")]
#[test]
fn a_compact_form_changed_in_memory_is_reported_by_name_before_its_first_use() {
    let form = &actlut::tables::compact::GELU_BF16;
    let pool = form.pool();
    let at = pool.as_ptr() as usize + pool.len() / 2;
    let old = poke(at, &[pool[pool.len() / 2] ^ 0x55]);
    let message = panic_message(|| {
        std::hint::black_box(actlut::gelu::bf16_bits(0x3F80));
    });
    assert!(message.contains("table gelu_bf16 is corrupt"), "{message}");
    poke(at, &old);
    assert_eq!(actlut::gelu::bf16_bits(0x3F80), 0x3F57);
}
