//! Inputs crafted to make the scan work hardest per byte, each `len` bytes
//! long: what the budget (`actlut_audit::BUDGET_PER_BYTE`) must bound. Shared
//! by the tests (`audit/tests/audit/budget.rs`) and the timing example
//! (`cargo run --release -p actlut-audit --example crafted-timing`).

use actlut_audit::Index;
use actlut_codegen::compact::{ENTRIES, HEADER_BYTES, MAGIC};

/// The crafted classes, by name, and random bytes to compare them with.
pub const CLASSES: [&str; 15] = [
    "random",
    "header-flood",
    "plausible-header-flood",
    "record-flood",
    "near-copies",
    "fragments",
    "reversed-chunks",
    "shuffled-16-bit-chunks",
    "declaration-flood",
    "marker-flood",
    "modified-16-bit-copies",
    "relr-bitmaps",
    "wasm-global-segments",
    "nested-containers",
    "symbol-table",
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
/// - `shuffled-16-bit-chunks`: 32-byte chunks of `leaky_relu_bf16` from
///   random (even) places, end to end: cheap candidates whose evidence the
///   scan looked through uncharged once the budget was spent (an attack
///   measured 22 times random bytes per byte at 100 MiB).
/// - `declaration-flood`: the declaration marker `ACTLUTDT` and a header
///   that parses every 16 bytes: each a declaration, none of which parses.
/// - `marker-flood`: the marker alone every 8 bytes (text, no record).
/// - `modified-16-bit-copies`: an ELF header, then every 16-bit table over
///   and over, one entry changed in each: each a finding with thousands of
///   items of evidence (what the scan holds until it is settled).
/// - `relr-bitmaps`: an ELF header, then `SHT_RELR`-like words (every bit
///   set): what made the load-map emulation 76 times slower per byte than
///   random bytes.
/// - `wasm-global-segments`: a wasm module whose one data section holds
///   data segments placed by `global.get`, each a fragment of an 8-bit
///   table: what made it 440 times slower per byte.
/// - `nested-containers`: universal Mach-O files whose slices all name one
///   ar archive, whose member is such a file again, three deep: reading
///   the headers was cubic in the file (90 KB took ten minutes); then
///   random bytes.
/// - `symbol-table`: an ar archive whose GNU symbol table names one member
///   over and over, at alternate offsets of two members (each a check).
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
        "shuffled-16-bit-chunks" => {
            let named =
                |r: &&actlut_audit::Reference| r.names.iter().any(|n| n == "leaky_relu_bf16");
            let table = &refs.iter().find(named).expect("leaky_relu_bf16").bytes_le;
            while data.len() < len {
                let at = (next() as usize % (table.len() - 32)) & !1;
                data.extend_from_slice(&table[at..at + 32]);
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
        "modified-16-bit-copies" => {
            data.extend_from_slice(&elf_header());
            let wide: Vec<&[u8]> = refs
                .iter()
                .filter(|r| r.format.entries() == 65_536)
                .map(|r| r.bytes_le.as_slice())
                .collect();
            let mut k = 0;
            while data.len() < len {
                let at = data.len();
                data.extend_from_slice(wide[k % wide.len()]);
                let j = at + 2 * (next() % 65_536) as usize;
                data[j] ^= 1;
                k += 1;
            }
        }
        "relr-bitmaps" => {
            data.extend_from_slice(&elf_header());
            while data.len() < len {
                data.extend_from_slice(&u64::MAX.to_le_bytes());
                data.extend_from_slice(&(0x1000u64 + data.len() as u64).to_le_bytes());
            }
        }
        "wasm-global-segments" => {
            // One data section of segments `(global.get 0) end` + 16
            // bytes of an 8-bit table, its size a 5-byte LEB128.
            data.extend_from_slice(b"\0asm\x01\0\0\0\x0b");
            let size = len.saturating_sub(14) as u32;
            for i in 0..5 {
                let b = (size >> (7 * i)) as u8 & 0x7F;
                data.push(if i < 4 { b | 0x80 } else { b });
            }
            while data.len() < len {
                let t = small[(next() % small.len() as u64) as usize];
                let from = (next() % 240) as usize;
                data.extend_from_slice(&[0x00, 0x23, 0x00, 0x0b, 16]);
                data.extend_from_slice(&t[from..from + 16]);
            }
        }
        "nested-containers" => {
            // As many slices as fit the file (20 bytes each, three times).
            let n = (len.saturating_sub(1024) / 64).clamp(1, 1500) as u32;
            data.extend(nested(n));
            while data.len() < len {
                data.extend_from_slice(&next().to_le_bytes());
            }
        }
        "symbol-table" => {
            // Two members of 2 bytes each, then the symbol table naming
            // them in turn (a GNU archive: the table comes first).
            let n = len.saturating_sub(8 + 60 + 4 + 2 * 62) / 5;
            let size = 4 + 5 * n;
            let header = |name: &str, size: usize| {
                format!("{name:<16}{:<12}{:<6}{:<6}{:<8}{size:<10}`\n", 0, 0, 0, 644)
            };
            data.extend_from_slice(b"!<arch>\n");
            data.extend_from_slice(header("/", size).as_bytes());
            let first = (8 + 60 + size + size % 2) as u32;
            let offsets = [first, first + 62];
            data.extend_from_slice(&(n as u32).to_be_bytes());
            for i in 0..n {
                data.extend_from_slice(&offsets[i % 2].to_be_bytes());
            }
            data.resize(data.len() + n, 0);
            if data.len() % 2 == 1 {
                data.push(b'\n');
            }
            for m in ["a.o/", "b.o/"] {
                data.extend_from_slice(header(m, 2).as_bytes());
                data.extend_from_slice(b"ab");
            }
            while data.len() < len {
                data.push(0);
            }
        }
        _ => panic!("no crafted class {class}"),
    }
    data.truncate(len);
    data
}

/// The 64 bytes of a little-endian x86-64 ELF header (no program or section
/// headers).
fn elf_header() -> [u8; 64] {
    let mut h = [0u8; 64];
    h[..4].copy_from_slice(b"\x7fELF");
    h[4] = 2;
    h[5] = 1;
    h[6] = 1;
    h[16] = 3; // ET_DYN
    h[18] = 62; // x86-64
    h[20] = 1;
    h[52] = 64; // e_ehsize
    h
}

/// Three universal Mach-O files of `n` slices, each slice the one archive
/// whose member is the next, down to a Mach-O object.
pub fn nested(n: u32) -> Vec<u8> {
    let mut macho = Vec::new();
    for w in [0xfeed_facfu32, 0x0100_0007, 3, 1, 0, 0, 0, 0] {
        macho.extend_from_slice(&w.to_le_bytes());
    }
    let archive = |member: &[u8]| {
        let mut a = b"!<arch>\n".to_vec();
        a.extend_from_slice(
            format!(
                "{:<16}{:<12}{:<6}{:<6}{:<8}{:<10}`\n",
                "m.o/",
                0,
                0,
                0,
                644,
                member.len()
            )
            .as_bytes(),
        );
        a.extend_from_slice(member);
        if a.len() % 2 == 1 {
            a.push(b'\n');
        }
        a
    };
    let fat = |inner: &[u8]| {
        let off = (8 + 20 * n as usize).next_multiple_of(16);
        let mut f = Vec::new();
        f.extend_from_slice(&0xcafe_babeu32.to_be_bytes());
        f.extend_from_slice(&n.to_be_bytes());
        for _ in 0..n {
            for w in [0x0100_0007u32, 3, off as u32, inner.len() as u32, 0] {
                f.extend_from_slice(&w.to_be_bytes());
            }
        }
        f.resize(off, 0);
        f.extend_from_slice(inner);
        f
    };
    fat(&archive(&fat(&archive(&fat(&macho)))))
}
