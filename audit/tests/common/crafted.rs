//! Inputs crafted to make the scan work hardest per byte, each `len` bytes
//! long: what the budget (`actlut_audit::BUDGET_PER_BYTE`) must bound. Shared
//! by the tests (`audit/tests/budget.rs`) and the timing example
//! (`cargo run --release -p actlut-audit --example crafted-timing`).

use actlut_audit::Index;
use actlut_codegen::compact::{ENTRIES, HEADER_BYTES, MAGIC};

/// The crafted classes, by name, and random bytes to compare them with.
pub const CLASSES: [&str; 8] = [
    "random",
    "header-flood",
    "plausible-header-flood",
    "record-flood",
    "near-copies",
    "fragments",
    "reversed-chunks",
    "declaration-flood",
];

/// xorshift64 bytes.
fn rng(seed: u64) -> impl FnMut() -> u64 {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}

/// The bytes of crafted class `class`, `len` long, against `index`.
///
/// - `random`: random bytes.
/// - `header-flood`: an `ACTLUTC1` header every 16 bytes, each declaring
///   2 bytes more than the longest stored form a header may declare
///   (`compact::MAX_STORED_BYTES`): each an invalid form.
/// - `plausible-header-flood`: the same, each declaring 2 bytes more than
///   the longest stored form the index holds: each a form to validate.
/// - `record-flood`: manifest records back to back, each naming a known
///   table with a wrong hash.
/// - `near-copies`: every 8-bit table, over and over, each copy with one
///   entry changed: each a real finding.
/// - `fragments`: the 8-byte fragments of every 8-bit table in random
///   order, so that three features meet at one start almost everywhere.
/// - `reversed-chunks`: a 16-bit table's 32-byte chunks in reverse order,
///   so that every 32 bytes imply another candidate.
/// - `declaration-flood`: the declaration marker `ACTLUTDT` every 8 bytes:
///   each a declaration candidate, none of which parses.
pub fn crafted(index: &Index, class: &str, len: usize) -> Vec<u8> {
    let mut next = rng(len as u64 ^ 0xC0FFEE);
    let refs = index.references();
    let small: Vec<&[u8]> = refs
        .iter()
        .filter(|r| r.format.entries() == 256)
        .map(|r| r.bytes_le.as_slice())
        .collect();
    let mut data = Vec::with_capacity(len + 1024);
    match class {
        "random" => {
            while data.len() < len {
                data.extend_from_slice(&next().to_le_bytes());
            }
        }
        "header-flood" => {
            use actlut_audit::compact::MAX_STORED_BYTES;
            let k = actlut_codegen::compact::MIN_PAGE_SHIFT as u8;
            let pool = (MAX_STORED_BYTES + 2 - HEADER_BYTES - 4 * (ENTRIES >> k)) as u32;
            while data.len() < len {
                data.extend_from_slice(&MAGIC);
                data.extend_from_slice(&[k, 0, 0, 0]);
                data.extend_from_slice(&pool.to_le_bytes());
            }
        }
        "plausible-header-flood" => {
            let longest = refs
                .iter()
                .flat_map(|r| &r.extra)
                .filter(|f| f.compact)
                .map(|f| f.bytes_le.len())
                .max()
                .expect("the index holds compact stored forms");
            let k = 6u8;
            let pool = (longest + 2 - HEADER_BYTES - 4 * (ENTRIES >> k)) as u32;
            while data.len() < len {
                data.extend_from_slice(&MAGIC);
                data.extend_from_slice(&[k, 0, 0, 0]);
                data.extend_from_slice(&pool.to_le_bytes());
            }
        }
        "record-flood" => {
            use actlut_audit::manifest::{MARK, NAME_BYTES};
            let names: Vec<&str> = refs
                .iter()
                .flat_map(|r| r.names.iter().map(String::as_str))
                .collect();
            let mut i = 0;
            while data.len() < len {
                data.extend_from_slice(&MARK);
                let mut name = names[i % names.len()].as_bytes().to_vec();
                name.resize(NAME_BYTES, 0);
                data.extend_from_slice(&name);
                for _ in 0..4 {
                    data.extend_from_slice(&next().to_le_bytes());
                }
                i += 1;
            }
        }
        "near-copies" => {
            let mut i = 0;
            while data.len() < len {
                let mut copy = small[i % small.len()].to_vec();
                copy[(next() % 256) as usize] ^= 1;
                data.extend_from_slice(&copy);
                i += 1;
            }
        }
        "fragments" => {
            let chunks: Vec<&[u8]> = small.iter().flat_map(|t| t.chunks_exact(8)).collect();
            while data.len() < len {
                data.extend_from_slice(chunks[(next() % chunks.len() as u64) as usize]);
            }
        }
        "reversed-chunks" => {
            let table = &refs
                .iter()
                .find(|r| r.names[0] == "gelu_f16")
                .expect("gelu_f16")
                .bytes_le;
            while data.len() < len {
                data.extend(table.chunks_exact(32).rev().flatten());
            }
        }
        "declaration-flood" => {
            // The marker and a header that parses (an 8-bit table's), every
            // 16 bytes: each is a record (two of its five parts), none
            // parses (its name field holds markers).
            let mark = actlut_codegen::record::declaration_mark();
            while data.len() < len {
                data.extend_from_slice(&mark);
                data.extend_from_slice(&[1, 0, 1, 0, 0, 1, 0, 0]);
            }
        }
        "marker-flood" => {
            // The declaration marker alone every 8 bytes: text, no record.
            let mark = actlut_codegen::record::declaration_mark();
            while data.len() < len {
                data.extend_from_slice(&mark);
            }
        }
        _ => panic!("no crafted class {class}"),
    }
    data.truncate(len);
    data
}
