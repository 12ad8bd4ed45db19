//! Memory does not grow with the input (docs/audit.md, Cost), for the
//! command: 100 MiB of near-copies of 8-bit tables (every 8-bit table over
//! and over, one entry changed in each: each a finding, up to `MAX_FOUND`)
//! took 305 MB resident in `actlut audit`, over the 256 MB bound. The votes'
//! hash table grew to 4 Mi slots (71 MB, and 36 MB more while it was
//! rehashed), and the index held each 16-bit table's bytes four times; the
//! table now has a fixed size, and the index shares each table's bytes.
//!
//! This test is alone in its binary, so that the process's peak resident set
//! is the command's (run in process, as `main` runs it), in CycloneDX: the
//! format that took the most memory to write, over the scan that every format
//! shares (the default text took 250 MB before, 216 MB now). It
//! writes the input a copy at a time, so that it is never in memory whole;
//! over `container::IN_MEMORY_BYTES`, the file is read in pieces.

#![cfg(all(target_os = "linux", feature = "audit"))]

use std::io::Write;

#[path = "../../audit/tests/support/peak.rs"]
mod peak;
use peak::peak_resident;

#[test]
#[ignore = "writes and audits 100 MiB: .ci/steps/30-audit.sh runs it in release"]
fn near_copies_of_8_bit_tables_stay_within_256_mb() {
    let tables: Vec<Vec<u8>> = actlut_codegen::builtin_tables()
        .filter(|(_, format)| format.entries() == 256)
        .map(|(op, format)| {
            actlut_codegen::table_bytes_le(format, &actlut_codegen::builtin_table(&op, format))
        })
        .collect();
    assert!(tables.len() > 100, "{} 8-bit tables", tables.len());
    let dir = std::env::temp_dir().join(format!("actlut-cli-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("near-copies.bin");
    let size = 100usize << 20;
    {
        let mut f = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for i in 0..size / 256 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mut copy = tables[i % tables.len()].clone();
            copy[(x % 256) as usize] ^= 1;
            f.write_all(&copy).unwrap();
        }
    }
    drop(tables);
    let file = path.to_str().unwrap();
    // The output is counted, not kept: the findings fill `MAX_FOUND`, and
    // the scan says it stopped (exit 1).
    let (mut out, mut err) = (Counted(0), Counted(0));
    let args = ["audit", "--format", "cyclonedx", file];
    let status = actlut_cli::run_to("actlut", args, &mut out, &mut err);
    assert_eq!(status, 1);
    assert!(out.0 > 65_536 * 40, "{} bytes written", out.0);
    let peak = peak_resident();
    assert!(peak <= 256 << 20, "{} MB resident", peak >> 20);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A writer that keeps nothing and counts the bytes written.
struct Counted(usize);

impl Write for Counted {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
