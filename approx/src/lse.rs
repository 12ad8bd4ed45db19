//! Log-sum-exp through a histogram of the scores below their maximum.

use crate::{exp_f64, ln_f64, pow2, ApproxError};

/// The largest `bits` supported: a table and histogram of 2^24 cells (128 MiB each).
const MAX_BITS: u32 = 24;

/// Up to this many cells the histogram is four interleaved ones (at most
/// 4 · (2^16 + 1) · 8 bytes, 2 MiB): consecutive scores in one cell do not
/// wait on each other's stores. Above it, one histogram, so that a grid of
/// 2^24 cells holds 128 MiB of table and 128 MiB of histogram, not 512.
#[cfg(feature = "alloc")]
const INTERLEAVE_MAX_CELLS: usize = 1 << 16;

/// Scores per chunk of cell indices.
#[cfg(feature = "alloc")]
const CHUNK: usize = 256;

const TWO_M53: f64 = 1.0 / (1u64 << 53) as f64;

/// The cell grid of a log-sum-exp.
#[derive(Clone, Copy, Debug)]
struct Cells {
    cells: usize,
    /// `h = span / 2^bits`, exact.
    h: f64,
    /// `2^bits / span`, rounded.
    inv_h: f64,
}

impl Cells {
    fn new(bits: u32, span: f32) -> Result<Cells, ApproxError> {
        if bits == 0 || bits > MAX_BITS {
            return Err(ApproxError::InvalidBits {
                bits,
                max: MAX_BITS,
            });
        }
        if !(span.is_finite() && span > 0.0) {
            return Err(ApproxError::InvalidParameter {
                name: "span",
                value: f64::from(span),
                expected: "finite and positive",
            });
        }
        let cells = 1usize << bits;
        Ok(Cells {
            cells,
            h: f64::from(span) / cells as f64,
            inv_h: cells as f64 / f64::from(span),
        })
    }

    /// `round(d / h)` for `d ≥ 0`, unclipped (saturating at `usize::MAX`).
    #[inline]
    fn raw_index(&self, d: f64) -> usize {
        (d * self.inv_h + 0.5) as usize
    }

    /// The grid term plus the `f64` slack of computing `d/h`.
    fn eta(&self) -> f64 {
        self.h * (0.5 + pow2(-26))
    }
}

/// What a first pass over the data finds.
enum Scan {
    /// Every score is masked (−inf or weight 0), or there are none.
    Empty,
    /// A score of +inf with a positive weight.
    Infinite,
    /// The maximum unmasked score, finite.
    Max(f32),
}

/// Checks the data and finds the maximum unmasked score.
fn scan(scores: &[f32], weights: Option<&[f64]>) -> Result<Scan, ApproxError> {
    let mut max = f32::NEG_INFINITY;
    let mut any = false;
    match weights {
        Some(w) => {
            if w.len() != scores.len() {
                return Err(ApproxError::LengthMismatch {
                    left: "scores",
                    left_len: scores.len(),
                    right: "weights",
                    right_len: w.len(),
                });
            }
            for (index, (&s, &wi)) in scores.iter().zip(w).enumerate() {
                if !(wi.is_finite() && wi >= 0.0) {
                    return Err(ApproxError::InvalidWeight { index, weight: wi });
                }
                if s.is_nan() {
                    return Err(ApproxError::NanScore { index });
                }
                if wi > 0.0 && s > f32::NEG_INFINITY {
                    any = true;
                    max = max.max(s);
                }
            }
        }
        None => {
            // Eight lanes, no branch: vectorizes. NaN is never `>`, so it is
            // left out of the maximum and looked for only if seen.
            let mut lanes = [f32::NEG_INFINITY; 8];
            let mut nan = false;
            let chunks = scores.chunks_exact(8);
            let rest = chunks.remainder();
            for c in chunks {
                for (l, &s) in lanes.iter_mut().zip(c) {
                    *l = if s > *l { s } else { *l };
                    nan |= s.is_nan();
                }
            }
            for &s in rest {
                lanes[0] = if s > lanes[0] { s } else { lanes[0] };
                nan |= s.is_nan();
            }
            if nan {
                let index = scores.iter().position(|s| s.is_nan()).unwrap_or(0);
                return Err(ApproxError::NanScore { index });
            }
            max = lanes.into_iter().fold(f32::NEG_INFINITY, f32::max);
            any = max > f32::NEG_INFINITY;
        }
    }
    Ok(if !any {
        Scan::Empty
    } else if max == f32::INFINITY {
        Scan::Infinite
    } else {
        Scan::Max(max)
    })
}

/// A bound on the error of `quantized_logsumexp` (and `LogSumExp::eval`)
/// with the same `bits`, `span`, `scores` and `weights`.
///
/// With no data (`scores` empty) it is the grid term, `span/2^(bits+1)`: the
/// error of any data whose scores all lie within the span below their maximum,
/// up to `f64` rounding. With data it is the grid term, plus
/// `log1p(clipped_mass / in_span_mass)` for the scores beyond the span (their
/// mass as the histogram counts it: each at the last cell), plus the `f64`
/// rounding of every step (derived below). It costs one exp per score: it is
/// a diagnostic, not for hot loops. No allocation.
///
/// `ln Σ wᵢ·e^{sᵢ} = m + ln Σ wᵢ·e^{−dᵢ}` with `m = max sᵢ` and `dᵢ = m − sᵢ ≥ 0`.
/// Each `dᵢ` is rounded to the nearest multiple of the cell `h = span/2^bits`,
/// `jᵢ·h` with `jᵢ = round(dᵢ/h)`, and clipped to the last cell `2^bits − 1`:
/// the sum becomes `Σⱼ Hⱼ·e^{−j·h}` over a histogram `H` (counts, or summed
/// weights), with one table of `2^bits` exponentials and one log.
///
/// # Derivation
///
/// A score inside the span moves by at most `η = h/2` (plus `h·2^-26` for the
/// `f64` arithmetic of `dᵢ/h`), so its term `wᵢ·e^{−dᵢ}` is multiplied by a
/// factor in `[e^{−η}, e^{η}]`; the in-span sum `A` is therefore within a factor
/// `e^{±η}` of the exact in-span mass `S_in`, and the log of the sum moves by at
/// most `η`: the *grid term*, `span/2^(bits+1)`.
///
/// A clipped score (`round(dᵢ/h) ≥ 2^bits`, i.e. `dᵢ` beyond the span) is
/// counted at the last cell, with more than its exact mass: `B ≥ S_clip`. The
/// result is `m + ln(A + B)` against the exact `m + ln(S_in + S_clip)`:
///
/// - above it by at most `ln((A + B)/S_in) ≤ η + log1p(B/A)`;
/// - below it by at most `η` (as `B ≥ S_clip`).
///
/// So `|error| ≤ η + log1p(B/A) + ε`, where `B/A` is the clipped mass over the
/// in-span mass (both as the histogram counts them) and `ε` collects the `f64`
/// rounding of the exp table (2^-39 relative), of the sums ((n + 2^bits + 8)·2^-53
/// relative) and of the final log and addition. This function evaluates
/// exactly that for given data. Without clipped scores, `log1p(B/A) = 0` and the
/// bound is the grid term (plus `ε`).
///
/// For scores `[0, −25]` with weights `[1, 1e12]`, `bits = 12`, `span = 24`, the
/// grid term is 0.0029, but the clipped score's mass `1e12·e^{−25} ≈ 13.9` is
/// counted as `1e12·e^{−24 + h} ≈ 38`: the result is 0.96 too large, and the
/// bound, 3.67, says so.
///
/// # Errors
///
/// The same as `quantized_logsumexp`, except that it allocates nothing.
///
/// ```
/// use actlut_approx::lse_error_bound;
/// // The grid term alone.
/// assert_eq!(lse_error_bound(12, 24.0, &[], None)?, 24.0 / 8192.0);
/// // A clipped score with a huge weight dominates it.
/// let b = lse_error_bound(12, 24.0, &[0.0, -25.0], Some(&[1.0, 1e12]))?;
/// assert!(b > 3.6 && b < 3.7);
/// # Ok::<(), actlut_approx::ApproxError>(())
/// ```
pub fn lse_error_bound(
    bits: u32,
    span: f32,
    scores: &[f32],
    weights: Option<&[f64]>,
) -> Result<f64, ApproxError> {
    let cells = Cells::new(bits, span)?;
    let grid_term = 0.5 * cells.h;
    let m = match scan(scores, weights)? {
        Scan::Max(m) if !scores.is_empty() => m,
        // No data, no unmasked score, or a +inf result: the result is exact.
        _ => return Ok(grid_term),
    };
    let m64 = f64::from(m);
    let last = cells.cells - 1;
    let e_last = exp_f64(-(last as f64) * cells.h);
    let (mut in_span, mut clipped) = (0.0f64, 0.0f64);
    let mut terms = 0usize;
    for (i, &s) in scores.iter().enumerate() {
        let w = weights.map_or(1.0, |w| w[i]);
        if w == 0.0 || s == f32::NEG_INFINITY {
            continue;
        }
        terms += 1;
        let j = cells.raw_index(m64 - f64::from(s));
        if j > last {
            clipped += w * e_last;
        } else {
            in_span += w * exp_f64(-(j as f64) * cells.h);
        }
    }
    let total = in_span + clipped;
    if !total.is_finite() {
        return Err(ApproxError::Overflow {
            what: "sum of weights",
        });
    }
    // Relative error of the algorithm's sum: the exp table (2^-40 reference +
    // the f64 sum of its two parts), the per-cell weight sums (in four
    // interleaved parts, added at the end) and the dot product: at most
    // terms + cells + 8 roundings of 2^-53 each.
    let table_rel = pow2(-39);
    let sum_rel = (terms + cells.cells + 8) as f64 * TWO_M53 * (1.0 + pow2(-20));
    let eps = table_rel + sum_rel;
    // This function's own sums carry at most the same error: widen the ratio.
    let ratio = clipped / in_span * (1.0 + 3.0 * eps);
    let clip_term = if ratio < pow2(-20) {
        ratio // log1p(r) ≤ r
    } else {
        ln_f64(1.0 + ratio) * (1.0 + pow2(-39)) + pow2(-52)
    };
    // The final log (2^-40 relative + the f64 sum of its parts) and m + log.
    let log = ln_f64(total).abs() + 1.0;
    let final_rounding = log * pow2(-38) + m64.abs() * pow2(-52);
    Ok((cells.eta() + 1.01 * eps + clip_term + final_rounding) * (1.0 + pow2(-50)))
}

/// A reusable histogram log-sum-exp: the exp table of its grid, built once, and
/// the histogram, kept between calls.
///
/// [`quantized_logsumexp`] builds one per call; keep one to amortize the table
/// (`2^bits` exponentials) over many calls with the same `bits` and `span`.
///
/// It holds at most the exp table and one histogram kind per call
/// ([`heap_bytes`](Self::heap_bytes)): at the largest grid, `bits = 24`,
/// 128 MiB each.
///
/// ```
/// use actlut_approx::LogSumExp;
/// let mut lse = LogSumExp::new(10, 20.0)?;
/// let a = lse.eval(&[0.0, 0.0], None)?;
/// assert!((a - core::f64::consts::LN_2).abs() < 1e-12);
/// let b = lse.eval(&[1.0, f32::NEG_INFINITY], Some(&[3.0, 5.0]))?;
/// assert!((b - (1.0 + 3f64.ln())).abs() < 1e-12);
/// # Ok::<(), actlut_approx::ApproxError>(())
/// ```
#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
#[derive(Clone, Debug)]
pub struct LogSumExp {
    cells: Cells,
    table: alloc::vec::Vec<f64>,
    counts: alloc::vec::Vec<u64>,
    masses: alloc::vec::Vec<f64>,
}

#[cfg(feature = "alloc")]
fn zeroed<T: Copy>(v: &mut alloc::vec::Vec<T>, n: usize, zero: T) -> Result<(), ApproxError> {
    if v.len() != n {
        v.clear();
        v.try_reserve_exact(n)
            .map_err(|_| ApproxError::AllocationFailed {
                bytes: n.saturating_mul(core::mem::size_of::<T>()),
            })?;
        v.resize(n, zero);
    } else {
        v.fill(zero);
    }
    Ok(())
}

#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
impl LogSumExp {
    /// A grid of `2^bits` cells of `span/2^bits` below the maximum score, and its
    /// exp table (`e^{−j·h}` in `f64`, within 2^-39 relative).
    ///
    /// # Errors
    ///
    /// [`ApproxError::InvalidBits`] for `bits = 0` or `bits > 24`;
    /// [`ApproxError::InvalidParameter`] for a `span` that is not finite and
    /// positive; [`ApproxError::AllocationFailed`] when the table cannot be
    /// allocated.
    ///
    /// ```
    /// use actlut_approx::{ApproxError, LogSumExp};
    /// assert!(matches!(LogSumExp::new(0, 1.0), Err(ApproxError::InvalidBits { bits: 0, .. })));
    /// assert!(matches!(LogSumExp::new(8, -1.0), Err(ApproxError::InvalidParameter { name: "span", .. })));
    /// ```
    pub fn new(bits: u32, span: f32) -> Result<Self, ApproxError> {
        let cells = Cells::new(bits, span)?;
        let mut table = alloc::vec::Vec::new();
        zeroed(&mut table, cells.cells, 0.0)?;
        for (j, t) in table.iter_mut().enumerate() {
            *t = exp_f64(-(j as f64) * cells.h);
        }
        Ok(LogSumExp {
            cells,
            table,
            counts: alloc::vec::Vec::new(),
            masses: alloc::vec::Vec::new(),
        })
    }

    /// `ln Σ wᵢ·e^{sᵢ}` (`wᵢ = 1` without weights), as [`quantized_logsumexp`].
    ///
    /// # Errors
    ///
    /// As [`quantized_logsumexp`].
    ///
    /// ```
    /// use actlut_approx::LogSumExp;
    /// let mut lse = LogSumExp::new(12, 24.0)?;
    /// let scores = [3.0f32, 1.0, -2.0];
    /// let exact = (3f64.exp() + 1f64.exp() + (-2f64).exp()).ln();
    /// assert!((lse.eval(&scores, None)? - exact).abs() <= 24.0 / 8192.0);
    /// // Counts: 1000 scores of 1.0 and one of 3.0, without expanding them.
    /// let counted = lse.eval(&[1.0, 3.0], Some(&[1000.0, 1.0]))?;
    /// assert!((counted - (1000.0 * 1f64.exp() + 3f64.exp()).ln()).abs() <= 24.0 / 8192.0);
    /// # Ok::<(), actlut_approx::ApproxError>(())
    /// ```
    pub fn eval(&mut self, scores: &[f32], weights: Option<&[f64]>) -> Result<f64, ApproxError> {
        let m = match scan(scores, weights)? {
            Scan::Empty => return Ok(f64::NEG_INFINITY),
            Scan::Infinite => return Ok(f64::INFINITY),
            Scan::Max(m) => m,
        };
        let m64 = f64::from(m);
        let cells = self.cells;
        // Cell indices a chunk at a time (branch-free, vectorizes), then the
        // scatter into the histogram. Masked (−inf) scores go to the extra
        // cell `cells`, which is not summed; clipped ones to the last cell.
        let (n_cells, last_f) = (cells.cells as u32, (cells.cells - 1) as f64);
        let indices = |chunk: &[f32], out: &mut [u32; CHUNK]| {
            for (o, &s) in out.iter_mut().zip(chunk) {
                // floor(q) for q < 2^bits, else the last cell: min then truncate.
                let q = (m64 - f64::from(s)) * cells.inv_h + 0.5;
                let j = q.min(last_f) as u32;
                *o = if s == f32::NEG_INFINITY { n_cells } else { j };
            }
        };
        // Four interleaved histograms: consecutive scores in the same cell
        // (the clipped ones, typically) do not wait on each other's stores.
        let stride = cells.cells + 1;
        let mut idx = [0u32; CHUNK];
        if cells.cells > INTERLEAVE_MAX_CELLS {
            return self.eval_one_histogram(m64, scores, weights, &indices);
        }
        let sum = match weights {
            None => {
                zeroed(&mut self.counts, 4 * stride, 0)?;
                let (c0, rest) = self.counts.split_at_mut(stride);
                let (c1, rest) = rest.split_at_mut(stride);
                let (c2, c3) = rest.split_at_mut(stride);
                for chunk in scores.chunks(CHUNK) {
                    indices(chunk, &mut idx);
                    let mut quads = idx[..chunk.len()].chunks_exact(4);
                    for q in &mut quads {
                        c0[q[0] as usize] += 1;
                        c1[q[1] as usize] += 1;
                        c2[q[2] as usize] += 1;
                        c3[q[3] as usize] += 1;
                    }
                    for &j in quads.remainder() {
                        c0[j as usize] += 1;
                    }
                }
                (0..cells.cells)
                    .map(|j| (c0[j] + c1[j] + c2[j] + c3[j]) as f64 * self.table[j])
                    .sum::<f64>()
            }
            Some(w) => {
                zeroed(&mut self.masses, 4 * stride, 0.0)?;
                let (m0, rest) = self.masses.split_at_mut(stride);
                let (m1, rest) = rest.split_at_mut(stride);
                let (m2, m3) = rest.split_at_mut(stride);
                for (chunk, w) in scores.chunks(CHUNK).zip(w.chunks(CHUNK)) {
                    indices(chunk, &mut idx);
                    let mut quads = idx[..chunk.len()].chunks_exact(4).zip(w.chunks_exact(4));
                    for (q, w) in &mut quads {
                        m0[q[0] as usize] += w[0];
                        m1[q[1] as usize] += w[1];
                        m2[q[2] as usize] += w[2];
                        m3[q[3] as usize] += w[3];
                    }
                    let done = chunk.len() / 4 * 4;
                    for (&j, &wi) in idx[done..chunk.len()].iter().zip(&w[done..]) {
                        m0[j as usize] += wi;
                    }
                }
                (0..cells.cells)
                    .map(|j| ((m0[j] + m1[j]) + (m2[j] + m3[j])) * self.table[j])
                    .sum::<f64>()
            }
        };
        if !sum.is_finite() {
            return Err(ApproxError::Overflow {
                what: "sum of weights",
            });
        }
        Ok(m64 + ln_f64(sum))
    }

    /// [`eval`](Self::eval) above [`INTERLEAVE_MAX_CELLS`] cells: one
    /// histogram, and only the one of this call kept (counts or masses), so
    /// that the heap holds the table and one histogram.
    fn eval_one_histogram(
        &mut self,
        m64: f64,
        scores: &[f32],
        weights: Option<&[f64]>,
        indices: &dyn Fn(&[f32], &mut [u32; CHUNK]),
    ) -> Result<f64, ApproxError> {
        let cells = self.cells.cells;
        let mut idx = [0u32; CHUNK];
        let sum = match weights {
            None => {
                self.masses = alloc::vec::Vec::new();
                zeroed(&mut self.counts, cells + 1, 0)?;
                let c = &mut self.counts[..];
                for chunk in scores.chunks(CHUNK) {
                    indices(chunk, &mut idx);
                    for &j in &idx[..chunk.len()] {
                        c[j as usize] += 1;
                    }
                }
                (0..cells).map(|j| c[j] as f64 * self.table[j]).sum::<f64>()
            }
            Some(w) => {
                self.counts = alloc::vec::Vec::new();
                zeroed(&mut self.masses, cells + 1, 0.0)?;
                let m = &mut self.masses[..];
                for (chunk, w) in scores.chunks(CHUNK).zip(w.chunks(CHUNK)) {
                    indices(chunk, &mut idx);
                    for (&j, &wi) in idx[..chunk.len()].iter().zip(w) {
                        m[j as usize] += wi;
                    }
                }
                (0..cells).map(|j| m[j] * self.table[j]).sum::<f64>()
            }
        };
        if !sum.is_finite() {
            return Err(ApproxError::Overflow {
                what: "sum of weights",
            });
        }
        Ok(m64 + ln_f64(sum))
    }

    /// The bytes this log-sum-exp holds on the heap: the exp table
    /// (`8 · 2^bits`) and the histogram of the last [`eval`](Self::eval). Up to
    /// 2^16 cells the histogram is four interleaved ones (`32 · (2^bits + 1)`
    /// bytes, at most 2 MiB, for counts and for weights each); above, one
    /// (`8 · (2^bits + 1)`), so that at `bits = 24` the heap holds
    /// 128 MiB of table and 128 MiB of histogram, 256 MiB in all.
    ///
    /// ```
    /// use actlut_approx::LogSumExp;
    /// let mut lse = LogSumExp::new(10, 20.0)?;
    /// assert_eq!(lse.heap_bytes(), 8 << 10);
    /// lse.eval(&[0.0, -1.0], None)?;
    /// assert_eq!(lse.heap_bytes(), (8 << 10) + 32 * ((1 << 10) + 1));
    /// # Ok::<(), actlut_approx::ApproxError>(())
    /// ```
    pub fn heap_bytes(&self) -> usize {
        self.table.capacity() * core::mem::size_of::<f64>()
            + self.counts.capacity() * core::mem::size_of::<u64>()
            + self.masses.capacity() * core::mem::size_of::<f64>()
    }

    /// The number of bits: the grid has `2^bits` cells.
    ///
    /// ```
    /// assert_eq!(actlut_approx::LogSumExp::new(12, 24.0)?.bits(), 12);
    /// # Ok::<(), actlut_approx::ApproxError>(())
    /// ```
    pub fn bits(&self) -> u32 {
        self.cells.cells.trailing_zeros()
    }

    /// The span below the maximum that the grid covers.
    ///
    /// ```
    /// assert_eq!(actlut_approx::LogSumExp::new(12, 24.0)?.span(), 24.0);
    /// # Ok::<(), actlut_approx::ApproxError>(())
    /// ```
    pub fn span(&self) -> f32 {
        (self.cells.h * self.cells.cells as f64) as f32
    }
}

/// `ln Σ wᵢ·e^{sᵢ}` through an integer histogram of the scores over a grid of
/// `2^bits` cells of `span/2^bits` below their maximum, one `2^bits`-entry exp
/// table and one log, in `f64`.
///
/// Without weights every score counts once. With weights, `weights[i]` is the
/// number (or mass) of scores equal to `scores[i]`: the result is the log of
/// `Σ wᵢ·e^{sᵢ}` without expanding the cells. −inf scores and zero weights are
/// masked out; when every score is masked (or there are none), the result is
/// −inf, the log of an empty sum. A +inf score with a positive weight gives
/// +inf. Scores more than `span` below the maximum are clipped to the last
/// cell.
///
/// # Accuracy
///
/// Within [`lse_error_bound`]`(bits, span, scores, weights)` of the exact value:
/// `span/2^(bits+1)` when no score is clipped (plus `f64` rounding), more when
/// clipped scores carry mass (see the module's derivation).
///
/// # Errors
///
/// [`ApproxError::InvalidBits`] for `bits = 0` or `bits > 24`;
/// [`ApproxError::InvalidParameter`] for a `span` that is not finite and
/// positive; [`ApproxError::LengthMismatch`] when `weights` and `scores` differ
/// in length; [`ApproxError::InvalidWeight`] for a negative, NaN or infinite
/// weight; [`ApproxError::NanScore`] for a NaN score;
/// [`ApproxError::AllocationFailed`] when the table or histogram cannot be
/// allocated; [`ApproxError::Overflow`] when the weights sum beyond `f64::MAX`.
///
/// ```
/// use actlut_approx::{lse_error_bound, quantized_logsumexp};
/// let scores = [0.5f32, -1.0, 2.0, f32::NEG_INFINITY];
/// let exact = (0.5f64.exp() + (-1f64).exp() + 2f64.exp()).ln();
/// let approx = quantized_logsumexp(&scores, 12, 24.0, None)?;
/// assert!((approx - exact).abs() <= lse_error_bound(12, 24.0, &scores, None)?);
/// assert_eq!(quantized_logsumexp(&[f32::NEG_INFINITY], 12, 24.0, None)?, f64::NEG_INFINITY);
/// # Ok::<(), actlut_approx::ApproxError>(())
/// ```
#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
pub fn quantized_logsumexp(
    scores: &[f32],
    bits: u32,
    span: f32,
    weights: Option<&[f64]>,
) -> Result<f64, ApproxError> {
    LogSumExp::new(bits, span)?.eval(scores, weights)
}
