//! The audit's integration tests, one binary (one link, one shared index):
//! each module is one subject, and `common` is what they share. The slow
//! ones are `#[ignore]`d in plain `cargo test`; `.ci/steps/30-audit.sh` runs
//! them all in release with `--include-ignored`.

mod common;

mod adaptive;
mod budget;
mod byte_order;
mod compact;
mod cut_off;
mod declared_flood;
mod decoys;
mod docs;
mod guarantee;
mod honest;
mod no_false_reports;
mod ops;
mod out_of_scope;
mod records;
mod reports;
mod rule;
mod scan;
mod transformations;
