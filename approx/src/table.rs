//! [`QuantizedFunction`]: a scalar function tabulated on a quantization grid.

use crate::{half_ulp, pow2, round_code, ApproxError, Builtin};

/// Codes must stay below this in magnitude: then `x / step` is below 2^22 + 1,
/// where `f32` still resolves the half-way points that decide the rounding.
const MAX_CODE: i32 = 1 << 22;

/// Where a table's values come from, and so what "exact" means for it.
#[derive(Clone, Copy, Debug)]
enum Source {
    Builtin(Builtin),
    Fn(fn(f32) -> f32),
}

impl Source {
    fn eval(self, x: f32) -> f32 {
        match self {
            Source::Builtin(b) => b.eval(x),
            Source::Fn(f) => f(x),
        }
    }

    fn exact(self, x: f32) -> f64 {
        match self {
            Source::Builtin(b) => b.eval_f64(f64::from(x)),
            Source::Fn(f) => f64::from(f(x)),
        }
    }
}

/// The grid of a table: codes `lo_code..=hi_code`, the code of `x` being
/// `round(x / step)` computed in `f32`.
#[derive(Clone, Copy, Debug)]
struct Grid {
    step: f32,
    lo: f32,
    hi: f32,
    lo_code: i32,
    hi_code: i32,
}

impl Grid {
    fn new(step: f32, lo: f32, hi: f32) -> Result<Grid, ApproxError> {
        if !(step.is_finite() && step > 0.0) {
            return Err(ApproxError::InvalidParameter {
                name: "step",
                value: f64::from(step),
                expected: "finite and positive",
            });
        }
        for (name, v) in [("lo", lo), ("hi", hi)] {
            if !v.is_finite() {
                return Err(ApproxError::InvalidParameter {
                    name,
                    value: f64::from(v),
                    expected: "finite",
                });
            }
        }
        if lo >= hi {
            return Err(ApproxError::EmptyRange { lo, hi });
        }
        let (ql, qh) = (lo / step, hi / step);
        let largest = ql.abs().max(qh.abs());
        if largest.is_nan() || largest >= MAX_CODE as f32 {
            return Err(ApproxError::TooManyCodes {
                codes: f64::from(largest),
                max: MAX_CODE as u64,
            });
        }
        let (lo_code, hi_code) = (round_code(ql), round_code(qh));
        if lo_code == hi_code {
            return Err(ApproxError::SingleCode { step, lo, hi });
        }
        Ok(Grid {
            step,
            lo,
            hi,
            lo_code,
            hi_code,
        })
    }

    fn len(&self) -> usize {
        (self.hi_code - self.lo_code) as usize + 1
    }

    /// The grid point of `code`: `code · step` rounded once to `f32`.
    fn point(&self, code: i32) -> f32 {
        code as f32 * self.step
    }
}

/// The number of bytes of a table of `item_size`-byte entries at `step` over
/// `[lo, hi]`: one entry per code `round(lo/step)..=round(hi/step)`.
///
/// # Errors
///
/// The same as the table's constructors: see [`QuantizedFunction::new_array`];
/// [`ApproxError::TooManyCodes`] also when the size overflows `usize`.
///
/// ```
/// use actlut_approx::table_bytes;
/// assert_eq!(table_bytes(1.0 / 256.0, -8.0, 8.0, 4)?, 4097 * 4);
/// assert!(table_bytes(1.0, 2.0, 1.0, 4).is_err());
/// # Ok::<(), actlut_approx::ApproxError>(())
/// ```
pub fn table_bytes(step: f32, lo: f32, hi: f32, item_size: usize) -> Result<usize, ApproxError> {
    let n = Grid::new(step, lo, hi)?.len();
    n.checked_mul(item_size).ok_or(ApproxError::TooManyCodes {
        codes: n as f64,
        max: (usize::MAX / item_size.max(1)) as u64,
    })
}

/// A scalar function tabulated on a quantization grid: `f(x) ≈ table[round(x/step)]`
/// over `[lo, hi]`, with linear tails outside it.
///
/// `S` is the storage: `[f32; N]` (no heap, see [`Self::builtin_array`] and
/// [`Self::new_array`]) or, with the `alloc` feature, `Vec<f32>` (see
/// `quantized_activation`, `QuantizedFunction::builtin` and `QuantizedFunction::new`).
///
/// The code of `x` is `k = round(x / step)` (the division in `f32`, rounded to
/// the nearest integer, ties to even). Codes `round(lo/step)..=round(hi/step)`
/// are in the table, so every `x` of `[lo, hi]` has its code in it; entry `k` is `f(k·step)`, the grid point
/// `k·step` rounded once to `f32`. Outside the table, the value follows a line
/// through the boundary entry: for a [`Builtin`], with the slope of the
/// function's asymptote on that side (0 where it levels off, 1 where it
/// approaches `x`), so that gelu, silu, softplus and relu stay accurate far
/// beyond the range; for a user function, with the slope of the last two entries.
///
/// # Accuracy
///
/// For every `x` whose code is in the table (every `x` of `[lo, hi]`),
/// `|eval(x) − f(x)| ≤` [`error_bound_with`](Self::error_bound_with)`(sup|f'|)`,
/// which is `(step/2)·sup|f'|` (the grid term, [`error_bound`](super::error_bound))
/// plus `sup|f'|·2^-23·(M + step)` for the `f32` rounding of `x/step` and of
/// the grid points (`M` the largest `|k·step|`), plus the largest rounding
/// error of an entry (half an ulp, and 2^-40 relative near ties). For a
/// [`Builtin`] the entries come from actlut's correctly rounded computed path
/// and [`error_bound`](Self::error_bound) is that bound with the known
/// `sup|f'|`; for a user function, the rounding term assumes the function is
/// correctly rounded: add its own error. Outside the table the error is that
/// of the tail line, which [`max_abs_error`](Self::max_abs_error) measures.
///
/// ```
/// # #[cfg(feature = "alloc")] {
/// use actlut_approx::quantized_activation;
///
/// let q = quantized_activation("silu", 1.0 / 64.0, 8.0)?;
/// assert_eq!(q.len(), 1025);
/// assert!(q.eval(100.0) > 99.99); // the linear tail
/// let xs: Vec<f32> = (0..2000).map(|i| i as f32 / 100.0 - 10.0).collect();
/// assert!(q.max_abs_error(&xs) <= q.error_bound().unwrap());
/// # }
/// # Ok::<(), actlut_approx::ApproxError>(())
/// ```
#[derive(Clone, Debug)]
pub struct QuantizedFunction<S> {
    table: S,
    grid: Grid,
    source: Source,
    lo_slope: f32,
    hi_slope: f32,
    /// The largest rounding error of an entry.
    rounding: f64,
}

/// Fills `out` (of the grid's length) with the function at the grid points;
/// returns the largest rounding error of an entry, assuming each is correctly
/// rounded up to 2^-40 relative.
fn fill(source: Source, grid: &Grid, out: &mut [f32]) -> Result<f64, ApproxError> {
    let mut rounding = 0.0f64;
    for (k, o) in (grid.lo_code..=grid.hi_code).zip(out.iter_mut()) {
        let x = grid.point(k);
        let v = source.eval(x);
        if !v.is_finite() {
            return Err(ApproxError::NonFiniteValue { x, value: v });
        }
        rounding = rounding.max(half_ulp(v) + f64::from(v.abs()) * (1.0 / (1u64 << 39) as f64));
        *o = v;
    }
    Ok(rounding)
}

/// The slopes of the tail lines of a user function: those of its last two
/// entries at each end.
fn secant_slopes(grid: &Grid, t: &[f32]) -> (f32, f32) {
    let n = t.len();
    let s =
        |a: usize, b: usize, ka: i32, kb: i32| (t[b] - t[a]) / (grid.point(kb) - grid.point(ka));
    (
        s(0, 1, grid.lo_code, grid.lo_code + 1),
        s(n - 2, n - 1, grid.hi_code - 1, grid.hi_code),
    )
}

impl<const N: usize> QuantizedFunction<[f32; N]> {
    /// A built-in function tabulated at `step` over `[lo, hi]` in a `[f32; N]`,
    /// without allocating. `N` must be the grid's number of codes,
    /// `round(hi/step) − round(lo/step) + 1` ([`table_bytes`]`(step, lo, hi, 1)`).
    ///
    /// # Errors
    ///
    /// As [`Self::new_array`].
    ///
    /// ```
    /// use actlut_approx::{Builtin, QuantizedFunction};
    /// let q = QuantizedFunction::<[f32; 129]>::builtin_array("tanh".parse()?, 0.0625, -4.0, 4.0)?;
    /// assert_eq!(q.codes(), -64..=64);
    /// # Ok::<(), actlut_approx::ApproxError>(())
    /// ```
    pub fn builtin_array(f: Builtin, step: f32, lo: f32, hi: f32) -> Result<Self, ApproxError> {
        Self::build_array(Source::Builtin(f), step, lo, hi)
    }

    /// The function `f` tabulated at `step` over `[lo, hi]` in a `[f32; N]`,
    /// without allocating; the tails take the slopes of the last two entries.
    ///
    /// # Errors
    ///
    /// [`ApproxError::InvalidParameter`] for a step that is not finite and
    /// positive or a non-finite `lo` or `hi`; [`ApproxError::EmptyRange`] for
    /// `lo ≥ hi`; [`ApproxError::SingleCode`] when the grid has one code;
    /// [`ApproxError::TooManyCodes`] when a code would reach 2^22;
    /// [`ApproxError::WrongLength`] when `N` is not the number of codes (the
    /// error says which `N` to use); [`ApproxError::NonFiniteValue`] when `f` is
    /// NaN or infinite at a grid point.
    ///
    /// ```
    /// use actlut_approx::{ApproxError, QuantizedFunction};
    /// let q = QuantizedFunction::<[f32; 5]>::new_array(|x| x * x, 0.5, -1.0, 1.0)?;
    /// assert_eq!(q.table(), &[1.0, 0.25, 0.0, 0.25, 1.0]);
    /// let err = QuantizedFunction::<[f32; 4]>::new_array(|x| x * x, 0.5, -1.0, 1.0);
    /// assert_eq!(err.unwrap_err(), ApproxError::WrongLength { expected: 5, actual: 4 });
    /// # Ok::<(), ApproxError>(())
    /// ```
    pub fn new_array(f: fn(f32) -> f32, step: f32, lo: f32, hi: f32) -> Result<Self, ApproxError> {
        Self::build_array(Source::Fn(f), step, lo, hi)
    }

    fn build_array(source: Source, step: f32, lo: f32, hi: f32) -> Result<Self, ApproxError> {
        let grid = Grid::new(step, lo, hi)?;
        if grid.len() != N {
            return Err(ApproxError::WrongLength {
                expected: grid.len(),
                actual: N,
            });
        }
        let mut table = [0.0f32; N];
        let rounding = fill(source, &grid, &mut table)?;
        Ok(Self::assemble(table, grid, source, rounding))
    }
}

#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
impl QuantizedFunction<alloc::vec::Vec<f32>> {
    /// A built-in function tabulated at `step` over `[lo, hi]`, on the heap.
    ///
    /// # Errors
    ///
    /// As [`Self::new_array`] (without the length check), and
    /// [`ApproxError::AllocationFailed`] when the table cannot be allocated.
    ///
    /// ```
    /// use actlut_approx::{Builtin, QuantizedFunction};
    /// let q = QuantizedFunction::builtin(Builtin::RELU, 0.25, -1.0, 3.0)?;
    /// assert_eq!(q.eval(-5.0), 0.0);
    /// assert_eq!(q.eval(5.0), 5.0);
    /// # Ok::<(), actlut_approx::ApproxError>(())
    /// ```
    pub fn builtin(f: Builtin, step: f32, lo: f32, hi: f32) -> Result<Self, ApproxError> {
        Self::build_vec(Source::Builtin(f), step, lo, hi)
    }

    /// The function `f` tabulated at `step` over `[lo, hi]`, on the heap; the
    /// tails take the slopes of the last two entries.
    ///
    /// # Errors
    ///
    /// As [`Self::new_array`] (without the length check), and
    /// [`ApproxError::AllocationFailed`] when the table cannot be allocated.
    ///
    /// ```
    /// use actlut_approx::{ApproxError, QuantizedFunction};
    /// let q = QuantizedFunction::new(|x| 2.0 * x + 1.0, 0.5, 0.0, 2.0)?;
    /// assert_eq!(q.eval(10.0), 21.0); // the tail continues the line
    /// let err = QuantizedFunction::new(|x| 1.0 / x, 0.5, -1.0, 1.0).unwrap_err();
    /// assert!(matches!(err, ApproxError::NonFiniteValue { .. }));
    /// # Ok::<(), ApproxError>(())
    /// ```
    pub fn new(f: fn(f32) -> f32, step: f32, lo: f32, hi: f32) -> Result<Self, ApproxError> {
        Self::build_vec(Source::Fn(f), step, lo, hi)
    }

    fn build_vec(source: Source, step: f32, lo: f32, hi: f32) -> Result<Self, ApproxError> {
        let grid = Grid::new(step, lo, hi)?;
        let n = grid.len();
        let mut table = alloc::vec::Vec::new();
        table
            .try_reserve_exact(n)
            .map_err(|_| ApproxError::AllocationFailed {
                bytes: n.saturating_mul(4),
            })?;
        table.resize(n, 0.0f32);
        let rounding = fill(source, &grid, &mut table)?;
        Ok(Self::assemble(table, grid, source, rounding))
    }
}

/// A built-in function, by name, tabulated at `step` over `[−span, span]`.
///
/// `name` is a [`Builtin`] name (one of [`Builtin::ALL`]: `gelu`, `gelu_tanh`
/// or `gelu-tanh`, `sigmoid`, …, `relu`).
///
/// # Errors
///
/// [`ApproxError::UnknownFunction`] for another name; [`ApproxError::InvalidParameter`]
/// when `span` is not finite and positive; otherwise as [`QuantizedFunction::builtin`].
///
/// ```
/// use actlut_approx::quantized_activation;
/// let q = quantized_activation("gelu", 1.0 / 128.0, 6.0)?;
/// assert!((q.eval(1.0) - 0.841_344_7).abs() < 1e-6); // 1.0 is a grid point
/// assert!(q.error_bound().unwrap() < 0.0045);
/// # Ok::<(), actlut_approx::ApproxError>(())
/// ```
#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
pub fn quantized_activation(
    name: &str,
    step: f32,
    span: f32,
) -> Result<QuantizedFunction<alloc::vec::Vec<f32>>, ApproxError> {
    let f: Builtin = name.parse()?;
    if !(span.is_finite() && span > 0.0) {
        return Err(ApproxError::InvalidParameter {
            name: "span",
            value: f64::from(span),
            expected: "finite and positive",
        });
    }
    QuantizedFunction::builtin(f, step, -span, span)
}

impl<S: AsRef<[f32]>> QuantizedFunction<S> {
    fn assemble(table: S, grid: Grid, source: Source, rounding: f64) -> Self {
        let (lo_slope, hi_slope) = match source {
            Source::Builtin(b) => b.asymptotic_slopes(),
            Source::Fn(_) => secant_slopes(&grid, table.as_ref()),
        };
        QuantizedFunction {
            table,
            grid,
            source,
            lo_slope,
            hi_slope,
            rounding,
        }
    }

    /// The function at `x`: the table entry of `x`'s code, or the tail line
    /// outside the table. NaN gives NaN.
    ///
    /// ```
    /// use actlut_approx::{Builtin, QuantizedFunction};
    /// let q = QuantizedFunction::<[f32; 17]>::builtin_array(Builtin::RELU, 0.5, -4.0, 4.0)?;
    /// assert_eq!(q.eval(1.2), 1.0); // code 2 (1.2 / 0.5 = 2.4)
    /// assert_eq!(q.eval(-7.0), 0.0);
    /// assert!(q.eval(f32::NAN).is_nan());
    /// # Ok::<(), actlut_approx::ApproxError>(())
    /// ```
    #[inline]
    pub fn eval(&self, x: f32) -> f32 {
        let t = self.table.as_ref();
        let g = &self.grid;
        let limit = MAX_CODE as f32;
        // `max` maps NaN to −limit: a code outside every table.
        let q = (x / g.step).max(-limit).min(limit);
        let k = round_code(q) - g.lo_code;
        let i = k.clamp(0, t.len() as i32 - 1);
        let v = t[i as usize];
        // Outside the table, the line through the boundary entry `v`. Selects
        // rather than branches: tails are common and unpredictable.
        let (kb, slope) = if k < 0 {
            (g.lo_code, self.lo_slope)
        } else {
            (g.hi_code, self.hi_slope)
        };
        let rise = if slope == 0.0 {
            0.0 // also at x = ±inf, where (x − x_b)·0 would be NaN
        } else {
            (x - g.point(kb)) * slope
        };
        let y = if k == i { v } else { v + rise };
        if x.is_nan() {
            x
        } else {
            y
        }
    }

    /// The entry of an integer code already in the table's domain: the pure
    /// integer path, with no division.
    ///
    /// # Errors
    ///
    /// [`ApproxError::CodeOutOfRange`] for a code outside [`codes`](Self::codes)
    /// (never a silent clip).
    ///
    /// ```
    /// use actlut_approx::{ApproxError, Builtin, QuantizedFunction};
    /// let q = QuantizedFunction::<[f32; 17]>::builtin_array(Builtin::RELU, 0.5, -4.0, 4.0)?;
    /// assert_eq!(q.lookup(3)?, 1.5);
    /// assert_eq!(q.lookup(9), Err(ApproxError::CodeOutOfRange { code: 9, min: -8, max: 8 }));
    /// # Ok::<(), ApproxError>(())
    /// ```
    #[inline]
    pub fn lookup(&self, code: i32) -> Result<f32, ApproxError> {
        let i = i64::from(code) - i64::from(self.grid.lo_code);
        usize::try_from(i)
            .ok()
            .and_then(|i| self.table.as_ref().get(i).copied())
            .ok_or(ApproxError::CodeOutOfRange {
                code: i64::from(code),
                min: i64::from(self.grid.lo_code),
                max: i64::from(self.grid.hi_code),
            })
    }

    /// Writes `eval(x)` of every `x` of `xs` to `ys`.
    ///
    /// # Errors
    ///
    /// [`ApproxError::LengthMismatch`] if the lengths differ (nothing is written).
    ///
    /// ```
    /// use actlut_approx::{Builtin, QuantizedFunction};
    /// let q = QuantizedFunction::<[f32; 17]>::builtin_array(Builtin::RELU, 0.5, -4.0, 4.0)?;
    /// let mut ys = [0.0; 2];
    /// q.map(&[-1.0, 2.0], &mut ys)?;
    /// assert_eq!(ys, [0.0, 2.0]);
    /// assert!(q.map(&[1.0], &mut ys).is_err());
    /// # Ok::<(), actlut_approx::ApproxError>(())
    /// ```
    pub fn map(&self, xs: &[f32], ys: &mut [f32]) -> Result<(), ApproxError> {
        if xs.len() != ys.len() {
            return Err(ApproxError::LengthMismatch {
                left: "xs",
                left_len: xs.len(),
                right: "ys",
                right_len: ys.len(),
            });
        }
        for (y, &x) in ys.iter_mut().zip(xs) {
            *y = self.eval(x);
        }
        Ok(())
    }

    /// Replaces every `x` of `xs` by `eval(x)`.
    ///
    /// ```
    /// use actlut_approx::{Builtin, QuantizedFunction};
    /// let q = QuantizedFunction::<[f32; 17]>::builtin_array(Builtin::RELU, 0.5, -4.0, 4.0)?;
    /// let mut xs = [-1.0, 2.0];
    /// q.apply(&mut xs);
    /// assert_eq!(xs, [0.0, 2.0]);
    /// # Ok::<(), actlut_approx::ApproxError>(())
    /// ```
    pub fn apply(&self, xs: &mut [f32]) {
        for x in xs {
            *x = self.eval(*x);
        }
    }

    /// The largest `|eval(x) − f(x)|` over the finite `x` of `xs` (NaN and ±inf
    /// are skipped; 0 for none), in `f64`, against the exact function: actlut's
    /// reference math for a [`Builtin`] ([`Builtin::eval_f64`]), the function
    /// itself for a user function.
    ///
    /// ```
    /// use actlut_approx::{Builtin, QuantizedFunction};
    /// let q = QuantizedFunction::<[f32; 17]>::builtin_array(Builtin::RELU, 0.5, -4.0, 4.0)?;
    /// assert_eq!(q.max_abs_error(&[0.25, 1.0, 100.0]), 0.25);
    /// # Ok::<(), actlut_approx::ApproxError>(())
    /// ```
    pub fn max_abs_error(&self, xs: &[f32]) -> f64 {
        xs.iter()
            .filter(|x| x.is_finite())
            .map(|&x| (f64::from(self.eval(x)) - self.source.exact(x)).abs())
            .fold(0.0, f64::max)
    }

    /// The error bound for every `x` whose code is in the table, for a
    /// [`Builtin`] (its known `sup|f'|`); `None` for a user function (use
    /// [`error_bound_with`](Self::error_bound_with)).
    ///
    /// ```
    /// use actlut_approx::{Builtin, QuantizedFunction};
    /// let q = QuantizedFunction::<[f32; 129]>::builtin_array("sigmoid".parse()?, 0.0625, -4.0, 4.0)?;
    /// let b = q.error_bound().unwrap();
    /// assert!(b > 0.0625 / 2.0 * 0.25 && b < 0.0625 / 2.0 * 0.25 + 1e-6);
    /// # Ok::<(), actlut_approx::ApproxError>(())
    /// ```
    pub fn error_bound(&self) -> Option<f64> {
        match self.source {
            // A builtin's sup|f'| is finite and non-negative: never an Err.
            Source::Builtin(b) => self.error_bound_with(b.sup_abs_derivative()).ok(),
            Source::Fn(_) => None,
        }
    }

    /// The error bound for every `x` whose code is in the table, given a bound
    /// on `|f'|` over `[lo − step, hi + step]`: see the type's `# Accuracy`.
    ///
    /// # Errors
    ///
    /// [`ApproxError::InvalidParameter`] when `sup_abs_derivative` is not finite
    /// and non-negative.
    ///
    /// ```
    /// use actlut_approx::QuantizedFunction;
    /// let q = QuantizedFunction::<[f32; 9]>::new_array(|x| 3.0 * x, 0.25, -1.0, 1.0)?;
    /// let b = q.error_bound_with(3.0)?;
    /// assert!(b >= 3.0 * 0.125 && b < 3.0 * 0.125 + 1e-6);
    /// assert!(q.error_bound_with(-1.0).is_err());
    /// # Ok::<(), actlut_approx::ApproxError>(())
    /// ```
    pub fn error_bound_with(&self, sup_abs_derivative: f64) -> Result<f64, ApproxError> {
        let sup_abs_derivative = super::error::check_sup_abs_derivative(sup_abs_derivative)?;
        let g = &self.grid;
        let step = f64::from(g.step);
        let m = f64::from(g.point(g.lo_code).abs().max(g.point(g.hi_code).abs()));
        // |x − grid point| ≤ step/2 + 2^-24·(|x| + |k·step|) + subnormal floor.
        let distance = 0.5 * step + (m + step) * pow2(-23) + pow2(-148);
        Ok((sup_abs_derivative * distance + self.rounding) * (1.0 + pow2(-50)))
    }

    /// The step.
    ///
    /// ```
    /// use actlut_approx::{Builtin, QuantizedFunction};
    /// let q = QuantizedFunction::<[f32; 9]>::builtin_array("gelu".parse()?, 0.5, -2.0, 2.0)?;
    /// assert_eq!(q.step(), 0.5);
    /// # Ok::<(), actlut_approx::ApproxError>(())
    /// ```
    pub fn step(&self) -> f32 {
        self.grid.step
    }

    /// The range `(lo, hi)` as given.
    ///
    /// ```
    /// use actlut_approx::{Builtin, QuantizedFunction};
    /// let q = QuantizedFunction::<[f32; 9]>::builtin_array("gelu".parse()?, 0.5, -2.0, 2.0)?;
    /// assert_eq!(q.range(), (-2.0, 2.0));
    /// # Ok::<(), actlut_approx::ApproxError>(())
    /// ```
    pub fn range(&self) -> (f32, f32) {
        (self.grid.lo, self.grid.hi)
    }

    /// The codes in the table: `round(lo/step)..=round(hi/step)`.
    ///
    /// ```
    /// use actlut_approx::{Builtin, QuantizedFunction};
    /// let q = QuantizedFunction::<[f32; 9]>::builtin_array("gelu".parse()?, 0.5, -2.0, 2.0)?;
    /// assert_eq!(q.codes(), -4..=4);
    /// # Ok::<(), actlut_approx::ApproxError>(())
    /// ```
    pub fn codes(&self) -> core::ops::RangeInclusive<i32> {
        self.grid.lo_code..=self.grid.hi_code
    }

    /// The number of entries.
    ///
    /// ```
    /// use actlut_approx::{Builtin, QuantizedFunction};
    /// let q = QuantizedFunction::<[f32; 9]>::builtin_array("gelu".parse()?, 0.5, -2.0, 2.0)?;
    /// assert_eq!(q.len(), 9);
    /// # Ok::<(), actlut_approx::ApproxError>(())
    /// ```
    pub fn len(&self) -> usize {
        self.table.as_ref().len()
    }

    /// Always `false`: a table has at least two entries.
    ///
    /// ```
    /// use actlut_approx::{Builtin, QuantizedFunction};
    /// let q = QuantizedFunction::<[f32; 9]>::builtin_array("gelu".parse()?, 0.5, -2.0, 2.0)?;
    /// assert!(!q.is_empty());
    /// # Ok::<(), actlut_approx::ApproxError>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The entries, from the lowest code up.
    ///
    /// ```
    /// use actlut_approx::{Builtin, QuantizedFunction};
    /// let q = QuantizedFunction::<[f32; 9]>::builtin_array("gelu".parse()?, 0.5, -2.0, 2.0)?;
    /// assert_eq!(q.table()[4], 0.0); // gelu(0)
    /// assert_eq!(q.table()[8], actlut::computed::gelu_f32(2.0));
    /// # Ok::<(), actlut_approx::ApproxError>(())
    /// ```
    pub fn table(&self) -> &[f32] {
        self.table.as_ref()
    }

    /// The slopes of the tail lines below and above the table.
    ///
    /// ```
    /// use actlut_approx::{Builtin, QuantizedFunction};
    /// let q = QuantizedFunction::<[f32; 9]>::builtin_array("gelu".parse()?, 0.5, -2.0, 2.0)?;
    /// assert_eq!(q.tail_slopes(), (0.0, 1.0));
    /// # Ok::<(), actlut_approx::ApproxError>(())
    /// ```
    pub fn tail_slopes(&self) -> (f32, f32) {
        (self.lo_slope, self.hi_slope)
    }

    /// The built-in function tabulated, or `None` for a user function.
    ///
    /// ```
    /// use actlut_approx::{Builtin, QuantizedFunction};
    /// let q = QuantizedFunction::<[f32; 9]>::builtin_array("gelu".parse()?, 0.5, -2.0, 2.0)?;
    /// assert_eq!(q.builtin_function(), Some("gelu".parse::<Builtin>()?));
    /// # Ok::<(), actlut_approx::ApproxError>(())
    /// ```
    pub fn builtin_function(&self) -> Option<Builtin> {
        match self.source {
            Source::Builtin(b) => Some(b),
            Source::Fn(_) => None,
        }
    }
}
