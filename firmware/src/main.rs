//! Applies gelu, sigmoid and tanh over f16, bf16 and both fp8 formats to fixed
//! inputs, through each of actlut's entry points, and prints the results and
//! the SHA-256 of every table it uses, hashed on the device.
//!
//! Run it with `cargo run --release` in `firmware/` (qemu's mps2-an386).
#![no_std]
#![no_main]

use actlut_firmware::{
    apply_16, finish, hash_16, hash_8, print_16, print_8, BF16_INPUTS, F16_INPUTS, FP8_INPUTS,
};
use cortex_m_rt::entry;
use half::{bf16, f16};
use panic_semihosting as _;

#[entry]
fn main() -> ! {
    // gelu over f16, one typed value at a time.
    apply_16("gelu", "f16", &F16_INPUTS, |x| {
        actlut::gelu::f16(f16::from_bits(x)).to_bits()
    });

    // tanh over f16, in place over a slice.
    let mut ys = F16_INPUTS.map(f16::from_bits);
    actlut::tanh::apply_f16(&mut ys);
    print_16("tanh", "f16", &F16_INPUTS, &ys.map(f16::to_bits));

    // sigmoid over bf16, one typed value at a time.
    apply_16("sigmoid", "bf16", &BF16_INPUTS, |x| {
        actlut::sigmoid::bf16(bf16::from_bits(x)).to_bits()
    });

    // gelu over bf16, raw bits, out of place.
    let mut ys = [0u16; BF16_INPUTS.len()];
    actlut::gelu::map_bf16_bits(&BF16_INPUTS, &mut ys);
    print_16("gelu", "bf16", &BF16_INPUTS, &ys);

    // The 8-bit tables at every input.
    let ys = FP8_INPUTS.map(actlut::gelu::fp8_e4m3_bits);
    print_8("gelu", "fp8_e4m3", &FP8_INPUTS, &ys);
    let mut ys = FP8_INPUTS;
    actlut::sigmoid::apply_fp8_e5m2_bits(&mut ys);
    print_8("sigmoid", "fp8_e5m2", &FP8_INPUTS, &ys);

    // The tables used above, and no others.
    hash_16("gelu_f16", &actlut_firmware::tables16::GELU_F16);
    hash_16("tanh_f16", &actlut_firmware::tables16::TANH_F16);
    hash_16("sigmoid_bf16", &actlut_firmware::tables16::SIGMOID_BF16);
    hash_16("gelu_bf16", &actlut_firmware::tables16::GELU_BF16);
    hash_8("gelu_fp8_e4m3", actlut::tables::GELU_FP8_E4M3);
    hash_8("sigmoid_fp8_e5m2", actlut::tables::SIGMOID_FP8_E5M2);

    finish()
}
