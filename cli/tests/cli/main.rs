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
