//! [`ExpTable`]: exp from a log-domain (LNS) code back to linear.

use crate::{exp_f64, ApproxError};

/// The largest number of codes of an LNS table (64 MiB of `f32`).
const MAX_CODES: usize = 1 << 24;

/// `e^v` for values stored in the log domain as codes, `v = lo_log + code·log_step`:
/// a pure gather, `table[code]`.
///
/// A logarithmic number system (LNS) stores a positive value by the code of its
/// logarithm; turning codes back into linear values is then one load per
/// element. `S` is the storage: `[f32; N]` ([`Self::new_array`], no heap) or,
/// with the `alloc` feature, `Vec<f32>` (`quantized_exp`).
///
/// # Accuracy
///
/// Entry `c` is `e^(lo_log + c·log_step)` with the exponent computed in `f64`
/// from the exact `f32` parameters (relative error at most 2^-53·|v|, so
/// 2^-46 relative in the result for `|v| ≤ 128`), evaluated by actlut's reference
/// math and rounded once to `f32`: within half an ulp plus 2^-39 relative of the
/// exact value. Results below the `f32` range are subnormal or zero, as rounding
/// gives them.
///
/// ```
/// use actlut_approx::ExpTable;
/// // Codes 0..=255 for ln-values from -16 in steps of 1/16.
/// let t = ExpTable::<[f32; 256]>::new_array(1.0 / 16.0, -16.0)?;
/// assert_eq!(t.get(256 - 16)?, 0.367_879_45); // e^-1
/// let mut out = [0.0; 3];
/// t.gather(&[0u8, 128, 255], &mut out)?;
/// assert_eq!(out[1], t.get(128)?); // e^-8
/// assert!(t.get(256).is_err());
/// # Ok::<(), actlut_approx::ApproxError>(())
/// ```
#[derive(Clone, Debug)]
pub struct ExpTable<S> {
    table: S,
    log_step: f32,
    lo_log: f32,
}

fn check(log_step: f32, lo_log: f32, codes: usize) -> Result<(), ApproxError> {
    if !(log_step.is_finite() && log_step > 0.0) {
        return Err(ApproxError::InvalidParameter {
            name: "log_step",
            value: f64::from(log_step),
            expected: "finite and positive",
        });
    }
    if !lo_log.is_finite() {
        return Err(ApproxError::InvalidParameter {
            name: "lo_log",
            value: f64::from(lo_log),
            expected: "finite",
        });
    }
    if codes < 2 {
        return Err(ApproxError::InvalidParameter {
            name: "codes",
            value: codes as f64,
            expected: "at least 2",
        });
    }
    if codes > MAX_CODES {
        return Err(ApproxError::TooManyCodes {
            codes: codes as f64,
            max: MAX_CODES as u64,
        });
    }
    Ok(())
}

fn fill(log_step: f32, lo_log: f32, out: &mut [f32]) -> Result<(), ApproxError> {
    for (c, o) in out.iter_mut().enumerate() {
        let v = f64::from(lo_log) + c as f64 * f64::from(log_step);
        let e = exp_f64(v) as f32;
        if !e.is_finite() {
            return Err(ApproxError::NonFiniteValue {
                x: v as f32,
                value: e,
            });
        }
        *o = e;
    }
    Ok(())
}

impl<const N: usize> ExpTable<[f32; N]> {
    /// The `N` codes `0..N` for the values `lo_log + code·log_step`, without
    /// allocating.
    ///
    /// # Errors
    ///
    /// [`ApproxError::InvalidParameter`] for a `log_step` that is not finite and
    /// positive, a non-finite `lo_log`, or `N < 2`; [`ApproxError::TooManyCodes`]
    /// for `N > 2^24`; [`ApproxError::NonFiniteValue`] when the largest value
    /// overflows `f32` (`lo_log + (N−1)·log_step > 88.72…`).
    ///
    /// ```
    /// use actlut_approx::ExpTable;
    /// assert!(ExpTable::<[f32; 256]>::new_array(1.0, 0.0).is_err()); // e^255 overflows
    /// ```
    pub fn new_array(log_step: f32, lo_log: f32) -> Result<Self, ApproxError> {
        check(log_step, lo_log, N)?;
        let mut table = [0.0f32; N];
        fill(log_step, lo_log, &mut table)?;
        Ok(ExpTable {
            table,
            log_step,
            lo_log,
        })
    }
}

/// `e^v` for `codes` log-domain codes `0..codes`, `v = lo_log + code·log_step`,
/// as a table on the heap: [`ExpTable`].
///
/// # Errors
///
/// As [`ExpTable::new_array`] (with `codes` for `N`), and
/// [`ApproxError::AllocationFailed`] when the table cannot be allocated.
///
/// ```
/// use actlut_approx::quantized_exp;
/// let t = quantized_exp(0.5, -10.0, 41)?; // e^-10 ..= e^10
/// assert_eq!(t.get(20)?, 1.0);
/// assert_eq!(t.log_value(40), 10.0);
/// # Ok::<(), actlut_approx::ApproxError>(())
/// ```
#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
pub fn quantized_exp(
    log_step: f32,
    lo_log: f32,
    codes: usize,
) -> Result<ExpTable<alloc::vec::Vec<f32>>, ApproxError> {
    check(log_step, lo_log, codes)?;
    let mut table = alloc::vec::Vec::new();
    table
        .try_reserve_exact(codes)
        .map_err(|_| ApproxError::AllocationFailed { bytes: codes * 4 })?;
    table.resize(codes, 0.0f32);
    fill(log_step, lo_log, &mut table)?;
    Ok(ExpTable {
        table,
        log_step,
        lo_log,
    })
}

impl<S: AsRef<[f32]>> ExpTable<S> {
    /// `e^(lo_log + code·log_step)`: one load.
    ///
    /// # Errors
    ///
    /// [`ApproxError::CodeOutOfRange`] for a code `≥ len()`.
    ///
    /// ```
    /// use actlut_approx::ExpTable;
    /// let t = ExpTable::<[f32; 4]>::new_array(1.0, 0.0)?;
    /// assert_eq!(t.get(0)?, 1.0);
    /// assert!(t.get(4).is_err());
    /// # Ok::<(), actlut_approx::ApproxError>(())
    /// ```
    #[inline]
    pub fn get(&self, code: u32) -> Result<f32, ApproxError> {
        let t = self.table.as_ref();
        t.get(code as usize)
            .copied()
            .ok_or(ApproxError::CodeOutOfRange {
                code: i64::from(code),
                min: 0,
                max: t.len() as i64 - 1,
            })
    }

    /// Writes `e^v` of every code of `codes` (`u8`, `u16` or `u32`) to `out`.
    ///
    /// # Errors
    ///
    /// [`ApproxError::LengthMismatch`] if the lengths differ (nothing is
    /// written); [`ApproxError::CodeOutOfRange`] for the first code out of range
    /// (the elements before it are written).
    ///
    /// ```
    /// use actlut_approx::ExpTable;
    /// let t = ExpTable::<[f32; 4]>::new_array(1.0, 0.0)?;
    /// let mut out = [0.0; 2];
    /// t.gather(&[0u16, 0], &mut out)?;
    /// assert_eq!(out, [1.0, 1.0]);
    /// assert!(t.gather(&[0u16, 9], &mut out).is_err());
    /// # Ok::<(), actlut_approx::ApproxError>(())
    /// ```
    pub fn gather<C: Copy + Into<u32>>(
        &self,
        codes: &[C],
        out: &mut [f32],
    ) -> Result<(), ApproxError> {
        if codes.len() != out.len() {
            return Err(ApproxError::LengthMismatch {
                left: "codes",
                left_len: codes.len(),
                right: "out",
                right_len: out.len(),
            });
        }
        let t = self.table.as_ref();
        for (o, &c) in out.iter_mut().zip(codes) {
            let c: u32 = c.into();
            match t.get(c as usize) {
                Some(&v) => *o = v,
                None => return self.get(c).map(|_| ()),
            }
        }
        Ok(())
    }

    /// The log-domain value of `code`, `lo_log + code·log_step`, in `f64`
    /// (exact for codes below 2^29 up to one `f64` rounding of the sum).
    ///
    /// ```
    /// use actlut_approx::ExpTable;
    /// let t = ExpTable::<[f32; 8]>::new_array(0.5, -2.0)?;
    /// assert_eq!(t.log_value(3), -0.5);
    /// # Ok::<(), actlut_approx::ApproxError>(())
    /// ```
    pub fn log_value(&self, code: u32) -> f64 {
        f64::from(self.lo_log) + f64::from(code) * f64::from(self.log_step)
    }

    /// The log-domain step.
    ///
    /// ```
    /// use actlut_approx::ExpTable;
    /// let t = ExpTable::<[f32; 8]>::new_array(0.5, -2.0)?;
    /// assert_eq!(t.log_step(), 0.5);
    /// # Ok::<(), actlut_approx::ApproxError>(())
    /// ```
    pub fn log_step(&self) -> f32 {
        self.log_step
    }

    /// The log-domain value of code 0.
    ///
    /// ```
    /// use actlut_approx::ExpTable;
    /// let t = ExpTable::<[f32; 8]>::new_array(0.5, -2.0)?;
    /// assert_eq!(t.lo_log(), -2.0);
    /// # Ok::<(), actlut_approx::ApproxError>(())
    /// ```
    pub fn lo_log(&self) -> f32 {
        self.lo_log
    }

    /// The number of codes.
    ///
    /// ```
    /// use actlut_approx::ExpTable;
    /// let t = ExpTable::<[f32; 8]>::new_array(0.5, -2.0)?;
    /// assert_eq!(t.len(), 8);
    /// # Ok::<(), actlut_approx::ApproxError>(())
    /// ```
    pub fn len(&self) -> usize {
        self.table.as_ref().len()
    }

    /// Always `false`: a table has at least two entries.
    ///
    /// ```
    /// use actlut_approx::ExpTable;
    /// let t = ExpTable::<[f32; 8]>::new_array(0.5, -2.0)?;
    /// assert!(!t.is_empty());
    /// # Ok::<(), actlut_approx::ApproxError>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The entries, code 0 first.
    ///
    /// ```
    /// use actlut_approx::ExpTable;
    /// let t = ExpTable::<[f32; 8]>::new_array(0.5, -2.0)?;
    /// assert_eq!(t.table()[4], 1.0);
    /// # Ok::<(), actlut_approx::ApproxError>(())
    /// ```
    pub fn table(&self) -> &[f32] {
        self.table.as_ref()
    }
}
