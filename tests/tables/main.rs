//! The tables and how they are read, one test binary (one link of the
//! runtime with all its tables): each module is one subject.
//!
//! - `exhaustive`: every entry of every table against the computed path;
//! - `semantics`: the special values of docs/SEMANTICS.md, written out by hand;
//! - `lock`, `audit_manifest`: the lock, the build's check against it and the manifest;
//! - `op_tables`: tables of ops with constants;
//! - `compact`, `compact_expand`: the compact stored forms;
//! - `fp8_conversions`: the fp8, FP6 and FP4 conversions against the ml_dtypes vectors;
//! - `quant`: the fused quantized tables;
//! - `kernel_choice`: the documented choice of kernel per CPU.
//!
//! One subject alone: `cargo test -p actlut --test tables exhaustive::`.

#[path = "../support/mod.rs"]
mod support;
#[path = "../vector_file/mod.rs"]
mod vector_file;

mod audit_manifest;
mod compact;
mod compact_expand;
mod exhaustive;
mod fp8_conversions;
mod kernel_choice;
mod lock;
mod op_tables;
mod quant;
mod semantics;
