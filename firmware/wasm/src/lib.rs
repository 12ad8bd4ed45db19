//! A wasm module exporting actlut's functions over raw bit patterns, one
//! value at a time (`<function>_<format>`) and four at a time through the
//! slice entry point (`<function>_<format>_x4`, four 16-bit patterns packed
//! in a `u64`, lowest first). Each feature exports one build's functions.
//!
//! `scripts/sizes.sh` builds it per feature set, with and without `compact`,
//! reports the `.wasm` sizes and checks every export on every input under
//! node against `tables/actlut.lock`.
#![no_std]

/// Applies `apply` (a slice entry point) to the four 16-bit lanes of `x`.
#[cfg(any(
    feature = "gelu-f16",
    feature = "gelu-bf16",
    feature = "sigmoid-tanh-bf16"
))]
fn x4(x: u64, apply: fn(&mut [u16])) -> u64 {
    let mut lanes = [
        x as u16,
        (x >> 16) as u16,
        (x >> 32) as u16,
        (x >> 48) as u16,
    ];
    apply(&mut lanes);
    lanes
        .iter()
        .rev()
        .fold(0, |acc, &lane| acc << 16 | u64::from(lane))
}

/// gelu over f16, one bit pattern (the low 16 bits of `x`).
#[cfg(feature = "gelu-f16")]
#[no_mangle]
pub extern "C" fn gelu_f16(x: u32) -> u32 {
    u32::from(actlut::gelu::f16_bits(x as u16))
}

/// gelu over f16, four bit patterns through the slice entry point.
#[cfg(feature = "gelu-f16")]
#[no_mangle]
pub extern "C" fn gelu_f16_x4(x: u64) -> u64 {
    x4(x, actlut::gelu::apply_f16_bits)
}

/// gelu over bf16, one bit pattern (the low 16 bits of `x`).
#[cfg(feature = "gelu-bf16")]
#[no_mangle]
pub extern "C" fn gelu_bf16(x: u32) -> u32 {
    u32::from(actlut::gelu::bf16_bits(x as u16))
}

/// gelu over bf16, four bit patterns through the slice entry point.
#[cfg(feature = "gelu-bf16")]
#[no_mangle]
pub extern "C" fn gelu_bf16_x4(x: u64) -> u64 {
    x4(x, actlut::gelu::apply_bf16_bits)
}

/// sigmoid over bf16, one bit pattern (the low 16 bits of `x`).
#[cfg(feature = "sigmoid-tanh-bf16")]
#[no_mangle]
pub extern "C" fn sigmoid_bf16(x: u32) -> u32 {
    u32::from(actlut::sigmoid::bf16_bits(x as u16))
}

/// sigmoid over bf16, four bit patterns through the slice entry point.
#[cfg(feature = "sigmoid-tanh-bf16")]
#[no_mangle]
pub extern "C" fn sigmoid_bf16_x4(x: u64) -> u64 {
    x4(x, actlut::sigmoid::apply_bf16_bits)
}

/// tanh over bf16, one bit pattern (the low 16 bits of `x`).
#[cfg(feature = "sigmoid-tanh-bf16")]
#[no_mangle]
pub extern "C" fn tanh_bf16(x: u32) -> u32 {
    u32::from(actlut::tanh::bf16_bits(x as u16))
}

/// tanh over bf16, four bit patterns through the slice entry point.
#[cfg(feature = "sigmoid-tanh-bf16")]
#[no_mangle]
pub extern "C" fn tanh_bf16_x4(x: u64) -> u64 {
    x4(x, actlut::tanh::apply_bf16_bits)
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    core::arch::wasm32::unreachable()
}
