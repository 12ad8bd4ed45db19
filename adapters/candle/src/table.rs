//! The tables of ops: actlut's built-in statics for a function at its default constants, and
//! otherwise filled once at run time by [`actlut::fill_table`] and kept for the life of the
//! process (128 KiB per op over `F16` or `BF16`, 256 bytes over `F8E4M3`).

use actlut::{BuiltinTables as _, EvalError, Format, Op};
use std::sync::{Mutex, PoisonError};

/// A table entry: `u16` for the 16-bit formats, `u8` for fp8.
pub(crate) trait Entry: actlut::TableEntry + Copy + Default + 'static {
    /// The built-in table of a function at its defaults over `format`.
    fn builtin(op: &Op, format: Format) -> Result<&'static [Self], actlut::MissingTable>;
    /// The cache of filled tables of this entry type.
    fn cache() -> &'static Mutex<Vec<(Op, Format, &'static [Self])>>;
}

static FILLED16: Mutex<Vec<(Op, Format, &'static [u16])>> = Mutex::new(Vec::new());
static FILLED8: Mutex<Vec<(Op, Format, &'static [u8])>> = Mutex::new(Vec::new());

impl Entry for u16 {
    fn builtin(op: &Op, format: Format) -> Result<&'static [u16], actlut::MissingTable> {
        let f = op.function();
        Ok(match format {
            Format::F16 => f.table_f16()?,
            _ => f.table_bf16()?,
        })
    }
    fn cache() -> &'static Mutex<Vec<(Op, Format, &'static [u16])>> {
        &FILLED16
    }
}

impl Entry for u8 {
    fn builtin(op: &Op, _: Format) -> Result<&'static [u8], actlut::MissingTable> {
        Ok(op.function().table_fp8_e4m3()?)
    }
    fn cache() -> &'static Mutex<Vec<(Op, Format, &'static [u8])>> {
        &FILLED8
    }
}

/// Why a table cannot be had.
pub(crate) enum TableError {
    /// A function at its defaults whose built-in table is compiled out.
    Missing(actlut::MissingTable),
    /// actlut cannot make the op's table.
    Eval(EvalError),
}

/// The table of `op` over `format` (`format.entries()` long).
///
/// A function at its default constants (not a derivative) takes actlut's built-in table.
/// Any other op, a derivative included, is filled by [`actlut::fill_table`] on first use
/// (every entry the exact value correctly rounded) and cached.
pub(crate) fn table<E: Entry>(op: &Op, format: Format) -> Result<&'static [E], TableError> {
    if !op.is_derivative() && op.is_default() {
        return E::builtin(op, format).map_err(TableError::Missing);
    }
    let mut filled = E::cache().lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(&(_, _, t)) = filled.iter().find(|(o, f, _)| o == op && *f == format) {
        return Ok(t);
    }
    let mut t = vec![E::default(); format.entries()];
    actlut::fill_table(op, format, &mut t).map_err(TableError::Eval)?;
    let t: &'static [E] = Vec::leak(t);
    filled.push((*op, format, t));
    Ok(t)
}

/// `op` at an `f32`, correctly rounded: [`actlut::eval_op_f32`] (a derivative op: the
/// derivative).
#[derive(Clone, Copy)]
pub(crate) struct F32Path {
    /// The op.
    op: Op,
}

impl F32Path {
    /// The path of `op`.
    pub(crate) fn of(op: &Op) -> F32Path {
        F32Path { op: *op }
    }

    /// The value at `x`.
    pub(crate) fn at(self, x: f32) -> f32 {
        actlut::eval_op_f32(&self.op, x)
    }
}

static FILLED_F32: Mutex<Vec<(Op, Format, &'static [f32])>> = Mutex::new(Vec::new());

/// `op` at every value of `format` (`F16`, `BF16`, `F8E4M3`: each an `f32` value), correctly
/// rounded to `f32` by [`F32Path`], filled on first use and cached (`format.entries()` of
/// them): what the backward pass multiplies the incoming gradient by, so that the product is
/// rounded once into the dtype rather than after `f'(x)` was rounded to it.
pub(crate) fn table_f32(op: &Op, format: Format) -> &'static [f32] {
    let mut filled = FILLED_F32.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(&(_, _, t)) = filled.iter().find(|(o, f, _)| o == op && *f == format) {
        return t;
    }
    let path = F32Path::of(op);
    let t: Vec<f32> = (0..format.entries())
        .map(|i| {
            let bits = i as u16;
            if format.is_nan(bits) {
                // A NaN input's derivative is NaN (quieted: the sign kept, as actlut does).
                let neg = format.is_sign_negative(bits);
                f32::NAN.copysign(if neg { -1.0 } else { 1.0 })
            } else {
                // Exact: every value of these formats is an f32.
                path.at(format.decode(bits) as f32)
            }
        })
        .collect();
    let t: &'static [f32] = Vec::leak(t);
    filled.push((*op, format, t));
    t
}
