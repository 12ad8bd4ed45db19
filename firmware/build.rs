//! Puts `memory.x` where cortex-m-rt's `link.x` finds it, and with the
//! `sigmoid-i16` feature writes that binary's table through actlut-codegen's
//! builder: `$OUT_DIR/quant16.rs` (included by `src/bin/sigmoid_i16.rs`) and
//! the stored form beside it.

use std::path::PathBuf;

use actlut_codegen::builder::Builder;
use actlut_codegen::quant::{OutputType, Pipeline, QuantType, Rounding};
use actlut_codegen::Function;

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("memory.x"), include_bytes!("memory.x")).expect("write memory.x");
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rerun-if-changed=memory.x");
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var_os("CARGO_FEATURE_SIGMOID_I16").is_some() {
        write_sigmoid_i16(&out.join("quant16.rs"));
    }
}

/// int16 → int16 sigmoid with the TFLite 16x8 parameters: input scale 2^-12,
/// output scale 2^-15, zero points 0, ties rounded away from zero (TFLite's
/// `std::round`). Stored in the spline form: 3,240 bytes against 16,161 for
/// the page scheme and 131,072 for the full table (docs/quant16.md).
fn write_sigmoid_i16(path: &std::path::Path) {
    let output = OutputType::I16 {
        scale: 1.0 / 32768.0,
        zero_point: 0,
    };
    let pipeline = Pipeline::new(
        Function::Sigmoid.into(),
        QuantType::I16,
        1.0 / 4096.0,
        0,
        output,
    )
    .expect("the TFLite 16x8 parameters are valid")
    .with_rounding(Rounding::TiesAwayFromZero);
    let mut builder = Builder::new();
    builder
        .spline_table("SIGMOID_I16", pipeline)
        .expect("the spline packer round-trips every code");
    builder.write_to(path).expect("write quant16.rs");
}
