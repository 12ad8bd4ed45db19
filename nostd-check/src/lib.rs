//! A `no_std` crate with its own panic handler that depends on actlut with
//! default features off and one function on (gelu, over every format).
//!
//! If anything in actlut's dependency tree links `std`, std's panic handler
//! meets the one below and the build fails with "found duplicate lang item
//! `panic_impl`" (E0152), on any target: the host and wasm32-unknown-unknown,
//! which have a std to link, as well as thumbv7em-none-eabihf, which has none.
#![no_std]

use core::panic::PanicInfo;

/// gelu through a table, so that actlut is used, not only declared.
pub fn gelu_f16_bits(x: u16) -> u16 {
    actlut::gelu::f16_bits(x)
}

/// gelu in place over a slice, through the slice kernel.
pub fn gelu_f16_in_place(xs: &mut [half::f16]) {
    actlut::gelu::apply_f16(xs);
}

/// gelu without a table, and the run-time dispatch.
pub fn gelu_f16_computed(x: half::f16) -> Option<half::f16> {
    let y = actlut::computed::gelu_f16(x);
    (actlut::BuiltinTables::f16(actlut::Function::Gelu, x).ok()? == y).then_some(y)
}

/// gelu over both fp8 formats in place, through the byte kernels (SIMD where
/// the target has it, e.g. wasm32 with `simd128`).
pub fn gelu_fp8_in_place(e4m3: &mut [u8], e5m2: &mut [u8]) {
    actlut::gelu::apply_fp8_e4m3_bits(e4m3);
    actlut::gelu::apply_fp8_e5m2_bits(e5m2);
}

/// gelu over bf16, raw bits.
pub fn gelu_bf16_bits(x: u16) -> u16 {
    actlut::gelu::bf16_bits(x)
}

#[panic_handler]
fn panic(_: &PanicInfo<'_>) -> ! {
    loop {
        core::hint::spin_loop();
    }
}
