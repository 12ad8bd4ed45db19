//! Uses two tables, sigmoid and tanh over bf16: one value at a time and over
//! a slice.
#![no_std]
#![no_main]

use actlut_firmware::{apply_16, finish, hash_16, print_16, BF16_INPUTS};
use cortex_m_rt::entry;
use half::bf16;
use panic_semihosting as _;

#[entry]
fn main() -> ! {
    apply_16("sigmoid", "bf16", &BF16_INPUTS, |x| {
        actlut::sigmoid::bf16(bf16::from_bits(x)).to_bits()
    });
    let mut ys = [0u16; BF16_INPUTS.len()];
    actlut::tanh::map_bf16_bits(&BF16_INPUTS, &mut ys);
    print_16("tanh", "bf16", &BF16_INPUTS, &ys);
    hash_16("sigmoid_bf16", &actlut_firmware::tables16::SIGMOID_BF16);
    hash_16("tanh_bf16", &actlut_firmware::tables16::TANH_BF16);
    finish()
}
