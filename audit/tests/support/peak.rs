//! The peak resident set of the test process, for the memory tests
//! (`audit/tests/memory.rs`, `audit/tests/memory_files.rs`), each alone in
//! its binary so that the peak is its audits'.

/// The peak resident set of this process, in bytes (`VmHWM`).
pub fn peak_resident() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .expect("VmHWM");
    let kb: u64 = line
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .expect("a number of kB");
    kb * 1024
}
