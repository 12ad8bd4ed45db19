//! The `actlut` command's integration tests, one binary: each module is one
//! command or subject. The whole-binary audits are `#[ignore]`d in plain
//! `cargo test`; `.ci/steps/30-audit.sh` runs them all in release with
//! `--include-ignored`.

mod audit;
mod audit_adversarial;
mod audit_formats;
mod declared;
mod help;
mod ops;
mod quant;
mod self_check;
mod ulp;

use std::process::{Command, Output};

/// Runs the `actlut` command under test with `args`.
fn actlut(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_actlut"))
        .args(args)
        .output()
        .expect("run actlut")
}

/// What a run printed on standard output (lossy UTF-8).
fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// What a run printed on standard error (lossy UTF-8).
fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
