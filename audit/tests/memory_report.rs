//! Rendering does not grow with the findings (docs/audit.md, Cost): an
//! attack on the reports wrote 65,600 declaration records back to back (12.6
//! MB), each a finding with a long problem line; every format built its
//! whole document as `serde_json` values and a string before writing it: up
//! to 800 MB resident for CycloneDX, against 157 MB for random bytes of the
//! same size. Each format is now written as it is serialized, a finding at a
//! time. This test is alone in its file, so that the process's peak resident
//! set is this audit's and its reports'.

#![cfg(target_os = "linux")]

use std::io::{self, Write};

use actlut_audit::output::{Audit, OutputFormat};
use actlut_audit::{audit, Lock, MAX_FOUND};

#[path = "support/peak.rs"]
mod peak;
use peak::peak_resident;

/// A writer that keeps nothing: it counts the bytes written.
struct Count(u64);

impl Write for Count {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
#[ignore = "audits a 12.6 MB flood of records and renders its findings: .ci/steps/30-audit.sh runs it in release"]
fn the_reports_of_max_found_findings_are_written_without_being_built_whole() {
    let lock = Lock::builtin().unwrap();
    // Version-2 records of 192 bytes: an intact marker, a header every FP4
    // op has, and a 128-byte name that spells an op in FP4 in a way that is
    // not its canonical name (a finding, cheap to judge: nothing computed).
    let name = format!("elu(alpha=0.5{})_fp4_e2m1", "0".repeat(128 - 13 - 10));
    assert_eq!(name.len(), 128);
    let mut record = actlut_codegen::record::declaration_mark().to_vec();
    record.extend_from_slice(&[2, 0, 1, 0]);
    record.extend_from_slice(&16u32.to_le_bytes());
    record.extend_from_slice(&[0x11; 32]);
    record.extend_from_slice(name.as_bytes());
    record.extend_from_slice(&[0; 16]);
    assert_eq!(record.len(), 192);
    let report = audit(&record.repeat(MAX_FOUND + 64)[..], &lock).unwrap();
    let reports = [report];
    let a = Audit {
        lock: &lock,
        reports: &reports,
        expect: &[],
    };
    let problems = a.problem_count();
    assert!(problems > MAX_FOUND, "{problems} problems");
    let peak_audit = peak_resident();
    for format in OutputFormat::ALL {
        let mut out = Count(0);
        a.render_to(format, &mut out).unwrap();
        // Every finding written: at least a line of 100 bytes each.
        assert!(
            out.0 > 100 * MAX_FOUND as u64,
            "{}: {} bytes",
            format.name(),
            out.0
        );
        let peak = peak_resident();
        eprintln!(
            "{}: {} bytes written, {} MB resident at most, {} MB after the audit",
            format.name(),
            out.0,
            peak >> 20,
            peak_audit >> 20
        );
        // The findings of the file (one problem line each) while they are
        // written, and slack for the allocator; before, the documents built
        // whole added 300 to 640 MB.
        assert!(
            peak <= peak_audit + (48 << 20),
            "{}: {} MB resident, {} MB after the audit",
            format.name(),
            peak >> 20,
            peak_audit >> 20
        );
    }
}
