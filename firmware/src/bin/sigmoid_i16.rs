//! Uses one fused quantized table: int16 → int16 sigmoid with the TFLite 16x8
//! parameters (input scale 2^-12, output scale 2^-15, zero points 0, ties
//! rounded away from zero), built by build.rs through actlut-codegen's builder
//! in the spline stored form (3,240 bytes of flash for the table instead of
//! 131,072). It prints a few entries, then hashes what it computes on every
//! one of the 65,536 codes (through `map_spline`, the slice path) and its
//! stored form, for the host to compare with `actlut::quant16`'s run-time
//! table.
#![no_std]
#![no_main]

use actlut_firmware::{finish, hash_quant16, print_quant16, I16_INPUTS};
use cortex_m_rt::entry;
use panic_semihosting as _;

include!(concat!(env!("OUT_DIR"), "/quant16.rs"));

#[entry]
fn main() -> ! {
    print_quant16("sigmoid_i16", &I16_INPUTS, |x| SIGMOID_I16.get(x));
    hash_quant16(
        "sigmoid_i16",
        |codes, out| actlut::quant16::map_spline(&SIGMOID_I16, codes, out),
        SIGMOID_I16.as_bytes(),
    );
    finish()
}
