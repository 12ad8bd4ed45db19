//! Uses one table, gelu over f16, while the demo's features enable three
//! functions over four formats: the linker keeps only that table.
#![no_std]
#![no_main]

use actlut_firmware::{apply_16, finish, hash_16, F16_INPUTS};
use cortex_m_rt::entry;
use half::f16;
use panic_semihosting as _;

#[entry]
fn main() -> ! {
    apply_16("gelu", "f16", &F16_INPUTS, |x| {
        actlut::gelu::f16(f16::from_bits(x)).to_bits()
    });
    hash_16("gelu_f16", &actlut_firmware::tables16::GELU_F16);
    finish()
}
