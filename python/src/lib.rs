//! `actlut._actlut`: the extension module under the Python package `actlut`.
//!
//! Every function here works on raw bit patterns (`uint16` for f16 and bf16,
//! `uint8` for the byte formats); the Python layer (`actlut/__init__.py`)
//! checks the dtypes, views the arrays as bits and back, and is the public API.
//! The tables, the SIMD kernels, the computed `f32` path, the quantized
//! pipeline and the grader are the crate's: nothing is computed here that the
//! crate does not compute.
//!
//! Every function argument is an op's canonical text (`gelu`, `softcap(cap=30)`,
//! `gelu_derivative`), which the Python layer gets from [`op_text`]. A function at its
//! default constants is served from the crate's built-in table; any other op's table is
//! filled at run time (`actlut::fill_table`) once per process and kept ([`op_table`]).
//!
//! Errors: a bad name or parameter is a `ValueError` whose message names it (a constant
//! without default left out is a `TypeError` naming it); a
//! Rust panic is caught at the boundary and becomes a `RuntimeError` (pyo3's
//! own `PanicException` derives from `BaseException`, which `except
//! Exception` does not catch).

use std::collections::HashMap;
use std::ffi::OsString;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

use actlut::ulp::{ordinals, Grade, ReportOptions, Tolerance};
use actlut::{BuiltinTables, EvalError, Format, Function, Op, OpError, TableRef, UnknownFunction};
use actlut_codegen::names;
use actlut_codegen::quant::{OutputType, Pipeline, QuantType, Rounding};
use numpy::ndarray::{ArrayViewD, ArrayViewMutD, Axis, Zip};
use numpy::{
    IntoPyArray, PyArray1, PyReadonlyArray1, PyReadonlyArrayDyn, PyReadwriteArray1,
    PyReadwriteArrayDyn,
};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;

/// Runs `f`, turning a Rust panic into a Python `RuntimeError`.
fn guard<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(payload) => {
            let msg = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "(no message)".to_string());
            Err(PyRuntimeError::new_err(format!(
                "actlut: internal error (a Rust panic): {msg}"
            )))
        }
    }
}

/// The function named `name` (`gelu_tanh` or its feature name `gelu-tanh`).
fn activation(name: &str) -> PyResult<Function> {
    name.parse::<Function>()
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The format named `name`: actlut's name (`fp8_e4m3`), its feature name (`fp8-e4m3`), its
/// numpy dtype name (`float8_e4m3fn`) or another library's name for it (`Format`'s parser).
fn format(name: &str) -> PyResult<Format> {
    name.parse::<Format>()
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// An op's error as Python's: a constant without default left out is a `TypeError` (the
/// call lacks an argument), anything else a `ValueError`; each names the constant at fault.
/// An unknown function's message lists actlut's names ([`UnknownFunction`]).
fn op_err(e: OpError) -> PyErr {
    match e {
        OpError::Missing { .. } => PyTypeError::new_err(e.to_string()),
        OpError::UnknownFunction { name } => {
            PyValueError::new_err(UnknownFunction::new(name.as_str()).to_string())
        }
        _ => PyValueError::new_err(e.to_string()),
    }
}

/// The ops [`op_text`] made, by their canonical text. A constant's canonical text can be
/// longer than the parser reads back (the double nearest 0.01 is a decimal of 59 digits, whose
/// denominator 10^59 exceeds a `u128` before it is reduced): the op is kept, not re-parsed.
fn made_ops() -> &'static Mutex<HashMap<String, Op>> {
    static OPS: OnceLock<Mutex<HashMap<String, Op>>> = OnceLock::new();
    OPS.get_or_init(Mutex::default)
}

/// The op of `text`: one [`op_text`] made, or an op's text (`softcap(cap=30)`), a function's
/// name or feature name, or an engine's name (`Op`'s `FromStr`).
fn parse_op(text: &str) -> PyResult<Op> {
    if let Some(&op) = made_ops()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(text)
    {
        return Ok(op);
    }
    text.parse::<Op>().map_err(op_err)
}

/// A `ValueError` for an op that cannot be evaluated over a format: the table's name and why.
fn eval_err(op: &Op, fmt: Format, e: EvalError) -> PyErr {
    match e {
        // A message that names the table itself: no table for the pair (as a built-in table's
        // `MissingTable` says).
        EvalError::NoTable { .. } => PyValueError::new_err(e.to_string()),
        _ => PyValueError::new_err(format!("{op}_{}: {e}", fmt.name())),
    }
}

/// The tables filled at run time, by op and format: each filled once per process and kept
/// for its rest (128 KiB for a 16-bit format, at most 256 bytes else), so that `'static`
/// references to them are what the built-in tables give.
type Filled = HashMap<(Op, Format), TableRef>;

/// The table of `op` over `fmt`: the crate's built-in one when `op` is a function at its
/// default constants, else the one [`actlut::fill_table`] fills (cached, [`Filled`]); or a
/// `ValueError` saying why there is none.
fn op_table(op: &Op, fmt: Format) -> PyResult<TableRef> {
    if op.is_default() && !op.is_derivative() {
        return op
            .function()
            .table(fmt)
            .map_err(|e| PyValueError::new_err(e.to_string()));
    }
    static FILLED: OnceLock<Mutex<Filled>> = OnceLock::new();
    let cache = FILLED.get_or_init(Mutex::default);
    if let Some(&t) = cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&(*op, fmt))
    {
        return Ok(t);
    }
    // Filled outside the lock (5 to 7 ms for a 16-bit table, BENCHMARKS.md); two threads may fill the same
    // table at once, and the first one kept is the one every caller gets.
    let t = if fmt.entry_bytes() == 2 {
        let mut t: Box<[u16; 65536]> = vec![0u16; 65536]
            .into_boxed_slice()
            .try_into()
            .expect("65,536 entries");
        actlut::fill_table(op, fmt, &mut t[..]).map_err(|e| eval_err(op, fmt, e))?;
        TableRef::U16(Box::leak(t))
    } else {
        let mut t = vec![0u8; fmt.entries()];
        actlut::fill_table(op, fmt, &mut t).map_err(|e| eval_err(op, fmt, e))?;
        TableRef::U8(t.leak())
    };
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    Ok(*cache.entry((*op, fmt)).or_insert(t))
}

/// The table of the op `text` over `fmt` ([`op_table`]).
fn table(text: &str, fmt: Format) -> PyResult<TableRef> {
    op_table(&parse_op(text)?, fmt)
}

/// The 65,536-entry table of the op `text` over a 16-bit format, as the 16-bit kernels take
/// it.
fn word_table(text: &str, fmt: Format) -> PyResult<&'static [u16; 65536]> {
    match table(text, fmt)? {
        TableRef::U16(t) => Ok(t),
        _ => Err(PyValueError::new_err(format!(
            "{} is not a 16-bit format",
            fmt.name()
        ))),
    }
}

/// The table of the op `text` over a byte format (fp8, FP6, FP4): 256, 64 or 16 entries.
fn byte_entries(text: &str, fmt: Format) -> PyResult<&'static [u8]> {
    match table(text, fmt)? {
        TableRef::U8(t) => Ok(t),
        _ => Err(PyValueError::new_err(format!(
            "{} is not a byte format",
            fmt.name()
        ))),
    }
}

/// The canonical text of the op `name` (a function's name or feature name, an engine's name,
/// or an op's text) with the constants `constants` (`(name, value text)` pairs: a decimal or a
/// fraction, exact) and, when `derivative`, as its derivative: `softcap(cap=30)`,
/// `leaky_relu_derivative(alpha=0.2)`. A `TypeError` names a constant without default left
/// out; a `ValueError` names an unknown constant, one given twice or one out of its domain.
#[pyfunction]
fn op_text(name: &str, constants: Vec<(String, String)>, derivative: bool) -> PyResult<String> {
    // An engine's name stands for its op's text (`gelu_10` for `gelu_clipped(min=-10,max=10)`),
    // to which the constants given are added.
    let base = names::ENGINE_NAMES
        .iter()
        .find(|(n, _)| *n == name)
        .map_or(name, |&(_, text)| text)
        .trim();
    let op = if constants.is_empty() {
        parse_op(base)?
    } else {
        let mut pairs = Vec::with_capacity(constants.len());
        for (k, v) in &constants {
            if v.contains([',', '(', ')', '=']) {
                return Err(PyValueError::new_err(format!(
                    "constant `{k}` = {v:?}: not a number: expected a decimal (30, 1.702, \
                     -1e-6) or a fraction (1/6)"
                )));
            }
            pairs.push(format!("{k}={v}"));
        }
        let pairs = pairs.join(",");
        // The op's text with the given constants after its own: `softcap(cap=30)`.
        let text = match base.strip_suffix(')') {
            Some(head) if head.contains('(') => format!("{head},{pairs})"),
            _ => format!("{base}({pairs})"),
        };
        parse_op(&text)?
    };
    let op = op.with_derivative(derivative || op.is_derivative());
    let text = op.to_string();
    made_ops()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(text.clone(), op);
    Ok(text)
}

/// The engines' names and the op text of each (`actlut_core::names::ENGINE_NAMES`).
#[pyfunction]
fn engine_names() -> Vec<(&'static str, &'static str)> {
    names::ENGINE_NAMES.to_vec()
}

/// The names of the functions, in the crate's order (`Function::ALL`).
#[pyfunction]
fn functions() -> Vec<&'static str> {
    Function::ALL.iter().map(|a| a.name()).collect()
}

/// The names of the formats, in the crate's order (`Format::ALL`).
#[pyfunction]
fn formats() -> Vec<&'static str> {
    Format::ALL.iter().map(|f| f.name()).collect()
}

/// The name actlut gives the function called `name` (`gelu_tanh` for
/// `gelu-tanh`, or for any other spelling `Function`'s parser accepts).
#[pyfunction]
fn function_name(name: &str) -> PyResult<&'static str> {
    Ok(activation(name)?.name())
}

/// The name actlut gives the format called `name` (`fp8_e4m3` for `fp8-e4m3`, for
/// `float8_e4m3fn` or for `torch.float8_e4m3fn`).
#[pyfunction]
fn format_name(name: &str) -> PyResult<&'static str> {
    Ok(format(name)?.name())
}

/// The name of the format's numpy dtype: ml_dtypes' (`float8_e4m3fn`), or numpy's
/// `float16` for f16 (`Format::dtype_name`).
#[pyfunction]
fn dtype_name(format_name: &str) -> PyResult<&'static str> {
    Ok(format(format_name)?.dtype_name())
}

/// `(entries, entry_bytes)` of the format: 65,536 and 2 for f16 and bf16,
/// 256 and 1 for the fp8 formats, 64 and 1 for FP6, 16 and 1 for FP4.
#[pyfunction]
fn format_shape(format_name: &str) -> PyResult<(usize, usize)> {
    let f = format(format_name)?;
    Ok((f.entries(), f.entry_bytes()))
}

/// Whether the op `function` has a table over `format` (log and rsqrt have none over
/// FP6 and FP4, which have no NaN); an op without built-in table is filled to tell.
#[pyfunction]
fn has_table(function: &str, format_name: &str) -> PyResult<bool> {
    Ok(table(function, format(format_name)?).is_ok())
}

/// `python -m actlut ARGS...`: runs the `actlut` command's library
/// (`actlut_cli::run_to`, built with the `ulp` command only) on `args`, named
/// `python -m actlut` in its usage lines and hints: `(status, stdout,
/// stderr)`, which `actlut/__main__.py` writes out. The GIL is released while
/// it runs.
#[pyfunction]
fn run_cli(py: Python<'_>, args: Vec<OsString>) -> PyResult<(u8, String, String)> {
    py.detach(|| {
        guard(|| {
            let (mut out, mut err) = (Vec::new(), Vec::new());
            let status = actlut_cli::run_to("python -m actlut", args, &mut out, &mut err);
            let text = |b: Vec<u8>| String::from_utf8_lossy(&b).into_owned();
            Ok((status, text(out), text(err)))
        })
    })
}

/// The table's entries as bits: `uint16` for 16-bit formats, `uint8` else.
#[pyfunction]
fn table_bits<'py>(
    py: Python<'py>,
    function: &str,
    format_name: &str,
) -> PyResult<Bound<'py, PyAny>> {
    guard(|| {
        let t = table(function, format(format_name)?)?;
        Ok(if t.entry_bytes() == 1 {
            t.iter()
                .map(|v| v as u8)
                .collect::<Vec<u8>>()
                .into_pyarray(py)
                .into_any()
        } else {
            t.iter().collect::<Vec<u16>>().into_pyarray(py).into_any()
        })
    })
}

/// `ys[i] = table[xs[i]]` over any shapes and strides (the same shape): one
/// slice when both are contiguous in memory with the same layout, otherwise
/// one innermost lane at a time, a contiguous lane through the slice kernel
/// `map` and any other element by element through `one`.
fn map_lanes<T: Copy + Send + Sync>(
    x: ArrayViewD<'_, T>,
    mut y: ArrayViewMutD<'_, T>,
    map: impl Fn(&[T], &mut [T]) + Sync,
    one: impl Fn(T) -> T + Sync,
) {
    // The same layout, contiguous in memory in any order (C, Fortran, a
    // transpose, reversed axes): one slice, since the map is elementwise.
    if x.strides() == y.strides() {
        if let (Some(xs), Some(ys)) = (x.as_slice_memory_order(), y.as_slice_memory_order_mut()) {
            return map(xs, ys);
        }
    }
    let last = Axis(x.ndim() - 1);
    Zip::from(y.lanes_mut(last))
        .and(x.lanes(last))
        .for_each(|mut yl, xl| match (xl.as_slice(), yl.as_slice_mut()) {
            (Some(xs), Some(ys)) => map(xs, ys),
            _ => yl.iter_mut().zip(xl.iter()).for_each(|(o, &i)| *o = one(i)),
        });
}

/// In place: `xs[i] = table[xs[i]]` over any strides.
fn apply_lanes<T: Copy + Send + Sync>(
    mut x: ArrayViewMutD<'_, T>,
    apply: impl Fn(&mut [T]) + Sync,
    one: impl Fn(T) -> T + Sync,
) {
    if let Some(xs) = x.as_slice_memory_order_mut() {
        return apply(xs);
    }
    let last = Axis(x.ndim() - 1);
    for mut lane in x.lanes_mut(last) {
        match lane.as_slice_mut() {
            Some(xs) => apply(xs),
            None => lane.iter_mut().for_each(|v| *v = one(*v)),
        }
    }
}

/// A byte table as the 256 entries the byte kernel takes. FP6 and FP4 tables
/// are shorter; their padding is never read, since every input is checked
/// to be a code first ([`check_codes`]).
fn byte_table(t: &[u8]) -> [u8; 256] {
    let mut full = [0u8; 256];
    full[..t.len()].copy_from_slice(t);
    full
}

/// A `ValueError` naming the first byte of `x` that is not a code of `fmt`.
fn check_codes(fmt: Format, x: &ArrayViewD<'_, u8>) -> PyResult<()> {
    let n = fmt.entries();
    if n >= 256 {
        return Ok(());
    }
    if let Some(&bad) = x.iter().find(|&&b| usize::from(b) >= n) {
        return Err(PyValueError::new_err(format!(
            "0x{bad:02x} is not a {} code: its codes are the {n} values 0x00..=0x{:02x} \
             (the low {} bits of a byte)",
            fmt.name(),
            n - 1,
            fmt.bits()
        )));
    }
    Ok(())
}

/// `out = function(x)` over a 16-bit format, in bits, with the GIL released.
#[pyfunction]
fn map_u16(
    py: Python<'_>,
    function: &str,
    format_name: &str,
    x: PyReadonlyArrayDyn<'_, u16>,
    mut out: PyReadwriteArrayDyn<'_, u16>,
) -> PyResult<()> {
    let t = word_table(function, format(format_name)?)?;
    let (x, y) = (x.as_array(), out.as_array_mut());
    same_shape(x.shape(), y.shape())?;
    py.detach(|| {
        guard(|| {
            map_lanes(
                x,
                y,
                |a, b| actlut::kernels::map_u16(t, a, b),
                |v| t[usize::from(v)],
            );
            Ok(())
        })
    })
}

/// `x = function(x)` in place over a 16-bit format, in bits, with the GIL released.
#[pyfunction]
fn apply_u16(
    py: Python<'_>,
    function: &str,
    format_name: &str,
    mut x: PyReadwriteArrayDyn<'_, u16>,
) -> PyResult<()> {
    let t = word_table(function, format(format_name)?)?;
    let x = x.as_array_mut();
    py.detach(|| {
        guard(|| {
            apply_lanes(
                x,
                |a| actlut::kernels::apply_u16(t, a),
                |v| t[usize::from(v)],
            );
            Ok(())
        })
    })
}

/// `out = function(x)` over a byte format (fp8, FP6, FP4), in bits, with the
/// GIL released.
#[pyfunction]
fn map_u8(
    py: Python<'_>,
    function: &str,
    format_name: &str,
    x: PyReadonlyArrayDyn<'_, u8>,
    mut out: PyReadwriteArrayDyn<'_, u8>,
) -> PyResult<()> {
    let fmt = format(format_name)?;
    let t = byte_entries(function, fmt)?;
    let (x, y) = (x.as_array(), out.as_array_mut());
    same_shape(x.shape(), y.shape())?;
    check_codes(fmt, &x)?;
    let t = byte_table(t);
    py.detach(|| {
        guard(|| {
            map_lanes(
                x,
                y,
                |a, b| actlut::kernels::map_u8(&t, a, b),
                |v| t[usize::from(v)],
            );
            Ok(())
        })
    })
}

/// `x = function(x)` in place over a byte format, in bits, with the GIL released.
#[pyfunction]
fn apply_u8(
    py: Python<'_>,
    function: &str,
    format_name: &str,
    mut x: PyReadwriteArrayDyn<'_, u8>,
) -> PyResult<()> {
    let fmt = format(format_name)?;
    let t = byte_entries(function, fmt)?;
    let x = x.as_array_mut();
    check_codes(fmt, &x.view())?;
    let t = byte_table(t);
    py.detach(|| {
        guard(|| {
            apply_lanes(
                x,
                |a| actlut::kernels::apply_u8(&t, a),
                |v| t[usize::from(v)],
            );
            Ok(())
        })
    })
}

/// How the `float32` path evaluates an op: the crate's computed kernels
/// (`actlut::computed`) for a function at its default constants, otherwise
/// `actlut::eval_op_f32` element by element (the same evaluation, with the op's constants).
#[derive(Clone, Copy)]
struct F32Path {
    op: Op,
    /// Whether the crate's computed kernels evaluate it (a function at its defaults).
    computed: bool,
}

impl F32Path {
    /// The path of the op `text`; a `ValueError` when the text is no op.
    fn of(text: &str) -> PyResult<F32Path> {
        let op = parse_op(text)?;
        let computed = op.is_default() && !op.is_derivative();
        Ok(F32Path { op, computed })
    }

    /// The op at one input.
    fn one(&self, v: f32) -> f32 {
        if self.computed {
            actlut::computed::f32(self.op.function(), v)
        } else {
            actlut::eval_op_f32(&self.op, v)
        }
    }

    /// `ys[i] = op(xs[i])`.
    fn map(&self, xs: &[f32], ys: &mut [f32]) {
        if self.computed {
            actlut::computed::map_f32(self.op.function(), xs, ys);
        } else {
            ys.iter_mut().zip(xs).for_each(|(y, &x)| *y = self.one(x));
        }
    }
}

/// `out = function(x)` on `float32` through the crate's computed path
/// (`actlut::computed::map_f32`, or `actlut::eval_op_f32` for an op with constants), with the
/// GIL released.
#[pyfunction]
fn map_f32(
    py: Python<'_>,
    function: &str,
    x: PyReadonlyArrayDyn<'_, f32>,
    mut out: PyReadwriteArrayDyn<'_, f32>,
) -> PyResult<()> {
    let path = F32Path::of(function)?;
    let (x, y) = (x.as_array(), out.as_array_mut());
    same_shape(x.shape(), y.shape())?;
    py.detach(|| {
        guard(|| {
            map_lanes(x, y, |a, b| path.map(a, b), |v| path.one(v));
            Ok(())
        })
    })
}

/// `x = function(x)` in place on `float32` through the computed path.
#[pyfunction]
fn apply_f32(py: Python<'_>, function: &str, mut x: PyReadwriteArrayDyn<'_, f32>) -> PyResult<()> {
    let path = F32Path::of(function)?;
    let x = x.as_array_mut();
    py.detach(|| {
        guard(|| {
            apply_lanes(
                x,
                |a| a.iter_mut().for_each(|v| *v = path.one(*v)),
                |v| path.one(v),
            );
            Ok(())
        })
    })
}

fn same_shape(x: &[usize], y: &[usize]) -> PyResult<()> {
    if x == y {
        Ok(())
    } else {
        Err(PyValueError::new_err(format!(
            "out has shape {y:?}; it must have the shape of x, {x:?}"
        )))
    }
}

/// The ordinals of each format, ranked once per process.
fn cached_ordinals(fmt: Format) -> &'static [Option<i64>] {
    static CACHE: [OnceLock<Vec<Option<i64>>>; Format::ALL.len()] =
        [const { OnceLock::new() }; Format::ALL.len()];
    let i = Format::ALL
        .iter()
        .position(|&f| f == fmt)
        .expect("a format of Format::ALL");
    CACHE[i].get_or_init(|| ordinals(fmt))
}

/// A grade computed in Rust (`actlut::ulp::Grade`), which the Python `Grade`
/// holds: its reports, and the counts a tolerance lets through.
#[pyclass(frozen, module = "actlut._actlut")]
struct RustGrade {
    grade: Grade,
}

/// A tolerance preset by name (`torch`, `numpy`), or a given one.
fn tolerance(name: Option<&str>, rtol: f64, atol: f64) -> PyResult<Tolerance> {
    match name {
        None => Ok(Tolerance::Given { rtol, atol }),
        Some(name) => Tolerance::PRESETS
            .into_iter()
            .find(|t| t.key() == name)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "unknown tolerance preset {name:?}: expected \"torch\" or \"numpy\""
                ))
            }),
    }
}

/// The options of a report: the `worst` worst inputs beyond `beyond` ulps,
/// the presets and the `given` `(rtol, atol)` pairs.
fn options(worst: usize, beyond: u32, given: Vec<(f64, f64)>) -> ReportOptions {
    let mut opts = ReportOptions::new(worst);
    opts.beyond = beyond;
    opts.tolerances.extend(
        given
            .into_iter()
            .map(|(rtol, atol)| Tolerance::Given { rtol, atol }),
    );
    opts
}

#[pymethods]
impl RustGrade {
    /// The JSON report of `actlut ulp --json` (`actlut_cli::ulp::json`).
    fn json(&self, worst: usize, beyond: u32, given: Vec<(f64, f64)>) -> String {
        actlut_cli::ulp::json(&self.grade, &options(worst, beyond, given))
    }

    /// The text report of `actlut ulp` (`Grade::text_with`).
    fn text(&self, worst: usize, beyond: u32, given: Vec<(f64, f64)>) -> String {
        self.grade.text_with(&options(worst, beyond, given))
    }

    /// How many wrong entries the tolerance passes (`Grade::hidden_by`): a
    /// preset by `name`, or `rtol` and `atol` when `name` is None.
    #[pyo3(signature = (name, rtol=0.0, atol=0.0))]
    fn hidden_by(&self, name: Option<&str>, rtol: f64, atol: f64) -> PyResult<usize> {
        Ok(self.grade.hidden_by(tolerance(name, rtol, atol)?))
    }
}

/// Grades `got` (the implementation's output bits for every input, in
/// bit-pattern order; byte formats in the low byte) against the table. The
/// GIL is released while grading.
#[pyfunction]
fn grade_bits(
    py: Python<'_>,
    function: &str,
    format_name: &str,
    got: PyReadonlyArray1<'_, u16>,
) -> PyResult<RustGrade> {
    let op = parse_op(function)?;
    let fmt = format(format_name)?;
    let t = op_table(&op, fmt)?;
    let got = got.as_array();
    if got.len() != fmt.entries() {
        return Err(PyValueError::new_err(format!(
            "{} outputs given; {} has {} inputs, and grading needs one output for each, \
             in input bit-pattern order",
            got.len(),
            fmt.name(),
            fmt.entries()
        )));
    }
    py.detach(|| {
        guard(|| {
            let owned;
            let got = match got.as_slice() {
                Some(s) => s,
                None => {
                    owned = got.to_vec();
                    &owned
                }
            };
            let grade = Grade::against_op(op, fmt, t, cached_ordinals(fmt), got);
            Ok(RustGrade { grade })
        })
    })
}

/// `(rtol, atol, description)` of a tolerance preset (`torch`, `numpy`) for a
/// format: `Tolerance::rtol_atol` and `Tolerance::describe`.
#[pyfunction]
fn tolerance_preset(name: &str, format_name: &str) -> PyResult<(f64, f64, String)> {
    let t = tolerance(Some(name), 0.0, 0.0)?;
    let fmt = format(format_name)?;
    let (rtol, atol) = t.rtol_atol(fmt);
    Ok((rtol, atol, t.describe(fmt)))
}

/// Two `float64` arrays of the same length.
type TwoArrays<'py> = (Bound<'py, PyArray1<f64>>, Bound<'py, PyArray1<f64>>);

/// The exact value's distance from the nearest rounding midpoint at each
/// input (`actlut_core::midpoint_distance`): `(ulps, error_bound)` arrays,
/// NaN where NaN is due.
#[pyfunction]
fn midpoints<'py>(
    py: Python<'py>,
    function: &str,
    format_name: &str,
    inputs: PyReadonlyArray1<'py, u16>,
) -> PyResult<TwoArrays<'py>> {
    let op = parse_op(function)?;
    let fmt = format(format_name)?;
    op_table(&op, fmt)?;
    let xs = inputs.as_array().to_vec();
    if let Some(&bad) = xs.iter().find(|&&b| usize::from(b) >= fmt.entries()) {
        return Err(PyValueError::new_err(format!(
            "0x{bad:x} is not a {} bit pattern: they are 0..={}",
            fmt.name(),
            fmt.entries() - 1
        )));
    }
    let (d, e): (Vec<f64>, Vec<f64>) = py.detach(|| {
        guard(|| {
            Ok(xs
                .iter()
                .map(|&b| {
                    match actlut::ulp::midpoint_distance_op(&op, fmt, b)
                        .ok()
                        .flatten()
                    {
                        Some(m) => (m.ulps, m.error_bound),
                        None => (f64::NAN, f64::NAN),
                    }
                })
                .unzip())
        })
    })?;
    Ok((d.into_pyarray(py), e.into_pyarray(py)))
}

/// The fused quantized table of `actlut quant`: entry `i` for the code whose
/// bits are `i`, each the output's bits widened to `uint32`.
#[pyfunction]
#[pyo3(signature = (function, in_type, scale, zero_point, out_type, out_scale, out_zero_point, rounding))]
#[allow(clippy::too_many_arguments)]
fn quant_table_bits<'py>(
    py: Python<'py>,
    function: &str,
    in_type: &str,
    scale: f64,
    zero_point: &Bound<'py, PyAny>,
    out_type: &str,
    out_scale: Option<f64>,
    out_zero_point: Option<Bound<'py, PyAny>>,
    rounding: &str,
) -> PyResult<Bound<'py, PyArray1<u32>>> {
    let op = parse_op(function)?;
    let input = QuantType::from_name(in_type).ok_or_else(|| {
        let names: Vec<String> = QuantType::ALL.iter().map(|&t| dtype_of(t)).collect();
        PyValueError::new_err(format!(
            "in_dtype {in_type}: expected one of {}",
            names.join(", ")
        ))
    })?;
    let scale = to_f32_scale("scale", scale)?;
    let zero_point = to_i32_zero_point("zero_point", zero_point, input)?;
    let float = match out_type {
        "f32" => Some(OutputType::F32),
        "f16" => Some(OutputType::F16),
        "bf16" => Some(OutputType::Bf16),
        "i16" | "u16" | "i8" | "u8" => None,
        _ => {
            return Err(PyValueError::new_err(format!(
                "out_dtype {out_type}: expected float32, float16, bfloat16, int16, uint16, int8 or uint8"
            )))
        }
    };
    let rounding = Rounding::from_name(rounding).ok_or_else(|| {
        PyValueError::new_err(format!(
            "rounding {rounding:?}: expected \"ties-even\" or \"ties-away\""
        ))
    })?;
    let output = match float {
        Some(o) => {
            if out_scale.is_some() || out_zero_point.is_some() {
                return Err(PyValueError::new_err(format!(
                    "out_scale and out_zero_point apply only to requantized outputs \
                     (int16, uint16, int8, uint8), not {out_type}"
                )));
            }
            o
        }
        None => {
            let ty = QuantType::from_name(out_type).expect("an integer output type");
            let s = out_scale.ok_or_else(|| {
                PyValueError::new_err(format!(
                    "out_dtype {out_type} needs out_scale (a requantized output)"
                ))
            })?;
            let s = to_f32_scale("out_scale", s)?;
            let z = match &out_zero_point {
                Some(z) => to_i32_zero_point("out_zero_point", z, ty)?,
                None => 0,
            };
            OutputType::requantized(ty, s, z).expect("an 8- or 16-bit type")
        }
    };
    let pipeline = Pipeline::new(op, input, scale, zero_point, output)
        .map_err(|e| PyValueError::new_err(e.to_string()))?
        .with_rounding(rounding);
    let entries = py.detach(|| {
        guard(|| {
            let mut entries = vec![0u32; input.codes()];
            pipeline.fill(&mut entries);
            Ok(entries)
        })
    })?;
    Ok(entries.into_pyarray(py))
}

/// The numpy or ml_dtypes dtype name of a quantized type: `int16` for `i16`, `uint2` for `u2`.
fn dtype_of(t: QuantType) -> String {
    let signedness = if t.is_signed() { "int" } else { "uint" };
    format!("{signedness}{}", t.bits())
}

/// The quantized input types, by name (`QuantType::ALL`): `i8`, `u8`, …, `u2`.
#[pyfunction]
fn quant_types() -> Vec<&'static str> {
    QuantType::ALL.iter().map(|t| t.name()).collect()
}

/// A scale as the runtimes store it: the Python float rounded once to the
/// nearest `f32`, which must be finite and positive.
fn to_f32_scale(parameter: &str, v: f64) -> PyResult<f32> {
    if !v.is_finite() || v <= 0.0 {
        return Err(PyValueError::new_err(format!(
            "{parameter} = {v:?}: a scale must be finite and positive"
        )));
    }
    let s = v as f32;
    if !s.is_finite() || s <= 0.0 {
        return Err(PyValueError::new_err(format!(
            "{parameter} = {v:?} rounds to {s:?} in float32: a scale must be finite and positive \
             as a float32"
        )));
    }
    Ok(s)
}

/// A zero point (a Python int of any size), which must be a value of its type.
fn to_i32_zero_point(parameter: &str, v: &Bound<'_, PyAny>, ty: QuantType) -> PyResult<i32> {
    let shown = v.str()?.to_string();
    match v.extract::<i64>().ok().and_then(|z| i32::try_from(z).ok()) {
        Some(z) if ty.contains(z) => Ok(z),
        _ => Err(PyValueError::new_err(format!(
            "{parameter} = {shown} is outside {} ({}..={})",
            ty.name(),
            ty.min(),
            ty.max()
        ))),
    }
}

/// Times the crate's `BuiltinTables::map_bf16` (the slice kernel `apply` uses
/// for a contiguous bf16 array) on the buffers of `x` and `out` themselves, in this process: the
/// seconds of each of `reps` calls. For the benchmark (bench/bench.py), which
/// times `actlut.apply` on the same arrays beside it.
#[pyfunction]
fn time_map_bf16(
    py: Python<'_>,
    function: &str,
    x: PyReadonlyArray1<'_, u16>,
    mut out: PyReadwriteArray1<'_, u16>,
    reps: usize,
) -> PyResult<Vec<f64>> {
    use actlut::half::bf16;
    use actlut::half::slice::HalfBitsSliceExt;
    let act = activation(function)?;
    let xs: &[bf16] = x.as_slice()?.reinterpret_cast();
    let ys: &mut [bf16] = out.as_slice_mut()?.reinterpret_cast_mut();
    py.detach(|| {
        guard(|| {
            let mut times = Vec::with_capacity(reps);
            for _ in 0..reps {
                let t0 = Instant::now();
                act.map_bf16(std::hint::black_box(xs), ys)
                    .map_err(|e| PyValueError::new_err(e.to_string()))?;
                times.push(t0.elapsed().as_secs_f64());
                std::hint::black_box(&*ys);
            }
            Ok(times)
        })
    })
}

/// Panics inside the boundary's guard, for the test that a Rust panic becomes
/// a Python `RuntimeError`.
#[pyfunction]
fn panic_for_test() -> PyResult<()> {
    guard(|| panic!("a deliberate panic"))
}

/// The extension module.
#[pymodule]
fn _actlut(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(functions, m)?)?;
    m.add_function(wrap_pyfunction!(formats, m)?)?;
    m.add_function(wrap_pyfunction!(function_name, m)?)?;
    m.add_function(wrap_pyfunction!(format_name, m)?)?;
    m.add_function(wrap_pyfunction!(dtype_name, m)?)?;
    m.add_function(wrap_pyfunction!(format_shape, m)?)?;
    m.add_function(wrap_pyfunction!(has_table, m)?)?;
    m.add_function(wrap_pyfunction!(op_text, m)?)?;
    m.add_function(wrap_pyfunction!(engine_names, m)?)?;
    m.add_function(wrap_pyfunction!(run_cli, m)?)?;
    m.add_function(wrap_pyfunction!(table_bits, m)?)?;
    m.add_function(wrap_pyfunction!(map_u16, m)?)?;
    m.add_function(wrap_pyfunction!(apply_u16, m)?)?;
    m.add_function(wrap_pyfunction!(map_u8, m)?)?;
    m.add_function(wrap_pyfunction!(apply_u8, m)?)?;
    m.add_function(wrap_pyfunction!(map_f32, m)?)?;
    m.add_function(wrap_pyfunction!(apply_f32, m)?)?;
    m.add_function(wrap_pyfunction!(grade_bits, m)?)?;
    m.add_function(wrap_pyfunction!(tolerance_preset, m)?)?;
    m.add_function(wrap_pyfunction!(midpoints, m)?)?;
    m.add_class::<RustGrade>()?;
    m.add_function(wrap_pyfunction!(quant_table_bits, m)?)?;
    m.add_function(wrap_pyfunction!(quant_types, m)?)?;
    m.add_function(wrap_pyfunction!(time_map_bf16, m)?)?;
    m.add_function(wrap_pyfunction!(panic_for_test, m)?)?;
    m.add("REFERENCE_VERSION", actlut::manifest::REFERENCE_VERSION)?;
    Ok(())
}
