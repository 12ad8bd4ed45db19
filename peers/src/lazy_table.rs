//! A lookup table built lazily on first use, as ggml and others do.
//!
//! A `static OnceLock<Box<[u16; 65536]>>` per function and format, filled on the
//! first call from the [`naive`](crate::naive) `f32` formula (all 65,536 bit
//! patterns), then indexed: after the first call it costs what actlut's lookup
//! costs, but the first call pays for 65,536 `libm` evaluations and a 128 KiB
//! heap allocation, and the table holds the naive path's wrong entries.
//!
//! # Accuracy
//!
//! Exactly the naive path's: the table is the naive formula at every input.

use std::sync::OnceLock;

use actlut::Function;

use crate::Format;

/// A 16-bit function table: the result bits for every input bit pattern.
pub type Table = [u16; 65536];

/// A fresh table of `function` over `format`, filled from the naive `f32`
/// formula: what a lazily initialized table costs on its first call.
///
/// # Panics
///
/// For a function other than GELU, sigmoid and SiLU.
pub fn build(function: Function, format: Format) -> Box<Table> {
    let f = crate::naive::f32_fn(function);
    let mut table: Box<Table> = vec![0u16; 65536]
        .into_boxed_slice()
        .try_into()
        .expect("65,536 entries");
    for (bits, entry) in (0..=u16::MAX).zip(table.iter_mut()) {
        *entry = format.from_f32(f(format.to_f32(bits)));
    }
    table
}

/// The table in `cell`, built by [`build`] if the cell is empty: `get_or_init`.
pub fn get_or_build(cell: &OnceLock<Box<Table>>, function: Function, format: Format) -> &Table {
    cell.get_or_init(|| build(function, format))
}

static GELU_F16: OnceLock<Box<Table>> = OnceLock::new();
static GELU_BF16: OnceLock<Box<Table>> = OnceLock::new();
static SIGMOID_F16: OnceLock<Box<Table>> = OnceLock::new();
static SIGMOID_BF16: OnceLock<Box<Table>> = OnceLock::new();
static SILU_F16: OnceLock<Box<Table>> = OnceLock::new();
static SILU_BF16: OnceLock<Box<Table>> = OnceLock::new();

/// The global lazily built table of `function` over `format`, built on the
/// first call (from any thread; later calls wait for it, then share it).
///
/// # Panics
///
/// For a function other than GELU, sigmoid and SiLU.
pub fn global(function: Function, format: Format) -> &'static Table {
    let cell = match (function, format) {
        (Function::Gelu, Format::F16) => &GELU_F16,
        (Function::Gelu, Format::Bf16) => &GELU_BF16,
        (Function::Sigmoid, Format::F16) => &SIGMOID_F16,
        (Function::Sigmoid, Format::Bf16) => &SIGMOID_BF16,
        (Function::Silu, Format::F16) => &SILU_F16,
        (Function::Silu, Format::Bf16) => &SILU_BF16,
        (other, _) => panic!("no lazy table for {}", other.name()),
    };
    get_or_build(cell, function, format)
}

fn map(table: &Table, xs: &[u16], ys: &mut [u16]) {
    for (y, x) in ys.iter_mut().zip(xs) {
        *y = table[usize::from(*x)];
    }
}

fn map_f16(xs: &[half::f16], ys: &mut [half::f16], function: Function) {
    use half::slice::HalfFloatSliceExt;
    let table = global(function, Format::F16);
    map(table, xs.reinterpret_cast(), ys.reinterpret_cast_mut());
}

fn map_bf16(xs: &[half::bf16], ys: &mut [half::bf16], function: Function) {
    use half::slice::HalfFloatSliceExt;
    let table = global(function, Format::Bf16);
    map(table, xs.reinterpret_cast(), ys.reinterpret_cast_mut());
}

crate::slice_fns! {
    /// GELU of every `f16` of `xs` into `ys` through the global lazy table.
    gelu_f16: f16 => |xs, ys| map_f16(xs, ys, Function::Gelu);
    /// GELU of every `bf16` of `xs` into `ys` through the global lazy table.
    gelu_bf16: bf16 => |xs, ys| map_bf16(xs, ys, Function::Gelu);
    /// Sigmoid of every `f16` of `xs` into `ys` through the global lazy table.
    sigmoid_f16: f16 => |xs, ys| map_f16(xs, ys, Function::Sigmoid);
    /// Sigmoid of every `bf16` of `xs` into `ys` through the global lazy table.
    sigmoid_bf16: bf16 => |xs, ys| map_bf16(xs, ys, Function::Sigmoid);
    /// SiLU of every `f16` of `xs` into `ys` through the global lazy table.
    silu_f16: f16 => |xs, ys| map_f16(xs, ys, Function::Silu);
    /// SiLU of every `bf16` of `xs` into `ys` through the global lazy table.
    silu_bf16: bf16 => |xs, ys| map_bf16(xs, ys, Function::Silu);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lazy_table_is_the_naive_formula_at_every_input() {
        for function in crate::FUNCTIONS {
            for format in Format::ALL {
                let table = global(function, format);
                let f = crate::naive::f32_fn(function);
                for bits in 0..=u16::MAX {
                    let naive = format.from_f32(f(format.to_f32(bits)));
                    assert_eq!(
                        table[usize::from(bits)],
                        naive,
                        "{}_{} at {bits:#06x}",
                        function.name(),
                        format.name()
                    );
                }
            }
        }
    }

    #[test]
    fn a_fresh_cell_is_built_once() {
        let cell = OnceLock::new();
        let first: *const Table = get_or_build(&cell, Function::Silu, Format::F16);
        let second: *const Table = get_or_build(&cell, Function::Silu, Format::F16);
        assert_eq!(first, second);
    }
}
