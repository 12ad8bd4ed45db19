//! A `no_std` crate with its own panic handler that depends on actlut with
//! default features off and one function on.
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
    (actlut::Activation::Gelu.f16(x).ok()? == y).then_some(y)
}

#[panic_handler]
fn panic(_: &PanicInfo<'_>) -> ! {
    loop {
        core::hint::spin_loop();
    }
}
