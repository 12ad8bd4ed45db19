//! Uses one table, gelu over bf16, one value at a time and over a slice: the
//! firmware of the flash budget (at most 16 KiB of table data with
//! `--features compact`, 128 KiB without).
#![no_std]
#![no_main]

use actlut_firmware::{apply_16, finish, hash_16, print_16, BF16_INPUTS};
use cortex_m_rt::entry;
use half::bf16;
use panic_semihosting as _;

#[entry]
fn main() -> ! {
    apply_16("gelu", "bf16", &BF16_INPUTS, |x| {
        actlut::gelu::bf16(bf16::from_bits(x)).to_bits()
    });
    let mut ys = BF16_INPUTS.map(bf16::from_bits);
    actlut::gelu::apply_bf16(&mut ys);
    print_16("gelu", "bf16", &BF16_INPUTS, &ys.map(bf16::to_bits));
    hash_16("gelu_bf16", &actlut_firmware::tables16::GELU_BF16);
    finish()
}
