//! The repository held to the code, one test binary: the docs (`docs`), the
//! cargo features (`features`), and the build's refusal of a lock that does
//! not match (`reproducible_lock_mismatch`, `#[ignore]`d in plain
//! `cargo test`: it builds a copy of the crate; `.ci/steps/20-unit.sh` runs
//! it).

mod docs;
mod features;
mod reproducible_lock_mismatch;
