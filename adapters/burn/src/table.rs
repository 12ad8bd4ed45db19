//! The tables of ops over `F16` and `BF16`: actlut's built-in statics for a function at its
//! default constants, and otherwise filled once at run time by [`actlut::fill_table`] and
//! kept for the life of the process (128 KiB per op and dtype).

use actlut::{BuiltinTables as _, Format, Op};
use burn::tensor::DType;
use std::sync::{Mutex, PoisonError};

use crate::Error;

/// The tables filled at run time, by op and format: each is leaked, so that a lookup hands
/// out `&'static` (the ops a process uses are few; each is filled once).
static FILLED: Mutex<Vec<(Op, Format, &'static [u16; 65536])>> = Mutex::new(Vec::new());

/// The table of `op` over `format` (`F16` or `BF16`).
///
/// A function at its default constants (not a derivative) takes actlut's built-in table
/// (an [`Error::MissingTable`] when it is compiled out, as before ops had constants). Any other
/// op, a derivative included, is filled by [`actlut::fill_table`] on first use (every entry
/// the exact value correctly rounded) and cached.
pub(crate) fn table(op: &Op, format: Format) -> Result<&'static [u16; 65536], Error> {
    if !op.is_derivative() && op.is_default() {
        let f = op.function();
        return Ok(match format {
            Format::F16 => f.table_f16()?,
            _ => f.table_bf16()?,
        });
    }
    let mut filled = FILLED.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(&(_, _, t)) = filled.iter().find(|(o, f, _)| o == op && *f == format) {
        return Ok(t);
    }
    let mut t: Box<[u16; 65536]> = vec![0u16; 65536]
        .into_boxed_slice()
        .try_into()
        .expect("65536 entries");
    if let Err(error) = actlut::fill_table(op, format, &mut t[..]) {
        let dtype = if format == Format::F16 {
            DType::F16
        } else {
            DType::BF16
        };
        return Err(Error::Eval {
            op: *op,
            dtype,
            error,
        });
    }
    let t: &'static [u16; 65536] = Box::leak(t);
    filled.push((*op, format, t));
    Ok(t)
}

/// The `f32` tables filled at run time, by op and format.
static FILLED_F32: Mutex<Vec<(Op, Format, &'static [f32; 65536])>> = Mutex::new(Vec::new());

/// `op` at every value of a 16-bit `format`, each correctly rounded to `f32` (actlut's
/// computed path, [`actlut::eval_op_f32`]: every `F16` and `BF16` value is an `f32`),
/// filled on first use and cached (256 KiB): what the backward pass multiplies a 16-bit
/// gradient by, so that the product `grad · f'(x)` is rounded once into the dtype rather than
/// after `f'(x)` itself was rounded to it.
pub(crate) fn table_f32(op: &Op, format: Format) -> &'static [f32; 65536] {
    let mut filled = FILLED_F32.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(&(_, _, t)) = filled.iter().find(|(o, f, _)| o == op && *f == format) {
        return t;
    }
    let mut t: Box<[f32; 65536]> = vec![0f32; 65536]
        .into_boxed_slice()
        .try_into()
        .expect("65536 entries");
    for (bits, out) in (0..=u16::MAX).zip(t.iter_mut()) {
        // Exact: an f16 or bf16 value (NaN payloads included) is an f32 value.
        let x = match format {
            Format::F16 => actlut::half::f16::from_bits(bits).to_f32(),
            _ => actlut::half::bf16::from_bits(bits).to_f32(),
        };
        *out = actlut::eval_op_f32(op, x);
    }
    let t: &'static [f32; 65536] = Box::leak(t);
    filled.push((*op, format, t));
    t
}
