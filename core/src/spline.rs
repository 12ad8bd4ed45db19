//! Spline stored form of a 65,536-entry table of a smooth function: a cubic Hermite
//! predictor through knots every `2^k` entries, plus the list of entries where the predictor's
//! rounding is not the table's. Exact by construction: `pack` (feature `alloc`) lists every entry the
//! predictor misses, and checks the stored form on all 65,536 entries before returning it.
//!
//! For the smooth, monotone tables of 16-bit quantized activations (TFLite 16x8 sigmoid and
//! tanh) it is several times smaller than the page scheme of [`crate::compact`]: the page
//! scheme's residuals are rounding noise that costs about two bits per entry at a fixed width,
//! while a cubic through exact knot values predicts the rounding itself except near ties.
//! docs/quant16.md has the sizes.
//!
//! # Decode
//!
//! Entry `i` sits at position `p = i ^ 0x8000` for a signed input (so that positions follow
//! the code values, −32768 first) and `p = i` otherwise; page `j = p >> k`, `u = p & (K − 1)`
//! with `K = 2^k`. With knot `j` holding the value `y` and the slope per page `d` in fixed
//! point with `F` fraction bits (`i32`):
//!
//! ```text
//! n = y_j (2u³ − 3u²K + K³) + d_j (u³ − 2u²K + uK²) + y_{j+1} (3u²K − 2u³) + d_{j+1} (u³ − u²K)
//! v = (n + 2^(s−1)) >> s   with s = 3k + F          (i64 arithmetic, exact for k ≤ 8)
//! ```
//!
//! `v` is clamped to `i16` (signed output, stored as its bits) or `u16`, unless the page lists
//! an exception at `p`, whose bits are the entry.
//!
//! # Stored form
//!
//! All little-endian; `N = 65536 >> k` pages:
//!
//! | bytes | content |
//! |---|---|
//! | 0..8 | magic `ACTLUTS1` |
//! | 8 | `k`, 4..=8 |
//! | 9 | `F`, 0..=16 |
//! | 10 | flags: bit 0 signed input, bit 1 signed output |
//! | 11 | 0 |
//! | 12..16 | `E`, the number of exceptions |
//! | 16.. | `N + 1` knots: `i32` value, `i32` slope per page |
//! | then | `N + 1` `u32` offsets: page `j`'s exceptions are `offsets[j]..offsets[j + 1]`; `offsets[0] = 0`, `offsets[N] = E` |
//! | then | `E` exceptions: `u16` position, `u16` entry bits, positions strictly increasing and inside their page |
//!
//! [`SplineRef::from_bytes`] checks all of it, so [`get`](SplineRef::get) reads in bounds.
//!
//! ```
//! # #[cfg(feature = "alloc")] {
//! use actlut_core::quant::{OutputType, Pipeline, QuantType, Rounding};
//! use actlut_core::spline::{pack_pipeline, SplineRef};
//! use actlut_core::Function;
//!
//! let out = OutputType::I16 { scale: 1.0 / 32768.0, zero_point: 0 };
//! let p = Pipeline::new(Function::Sigmoid.into(), QuantType::I16, 1.0 / 4096.0, 0, out)
//!     .unwrap()
//!     .with_rounding(Rounding::TiesAwayFromZero);
//! let stored = pack_pipeline(&p).unwrap();
//! assert!(stored.len() <= 8 * 1024);
//! let t = SplineRef::from_bytes(&stored).unwrap();
//! assert_eq!(t.get(0), 16384); // sigmoid(0) · 2^15
//! assert_eq!(t.get(0x8000), 11); // sigmoid(−8) · 2^15 = 10.99
//! # }
//! ```

use core::fmt;

/// The magic bytes that start a spline stored form.
pub const MAGIC: [u8; 8] = *b"ACTLUTS1";
/// Header bytes before the knots.
pub const HEADER_BYTES: usize = 16;
/// Smallest and largest page shift.
pub const MIN_SHIFT: u32 = 4;
/// The largest page shift: `K³ · 2^31` terms stay below 2^63 for `k ≤ 8`.
pub const MAX_SHIFT: u32 = 8;
/// The largest number of fraction bits.
pub const MAX_FRACTION: u32 = 16;

/// Why bytes are not a valid spline stored form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplineError {
    /// Shorter than the header, or not the length the header implies.
    Length,
    /// Not `ACTLUTS1`.
    Magic,
    /// A page shift, fraction width or flag byte out of range.
    Header,
    /// Offsets not starting at 0, decreasing, or not ending at the exception count.
    Offsets,
    /// An exception outside its page, or positions not strictly increasing.
    Exceptions,
}

impl fmt::Display for SplineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SplineError::Length => "spline stored form: wrong length",
            SplineError::Magic => "spline stored form: bad magic (expected ACTLUTS1)",
            SplineError::Header => {
                "spline stored form: page shift, fraction bits or flags out of range"
            }
            SplineError::Offsets => "spline stored form: exception offsets out of order",
            SplineError::Exceptions => {
                "spline stored form: exception outside its page or out of order"
            }
        })
    }
}

impl core::error::Error for SplineError {}

#[inline]
const fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

#[inline]
const fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

/// A validated spline stored form (see the [module docs](self)).
#[derive(Clone, Copy, Debug)]
pub struct SplineRef<'a> {
    bytes: &'a [u8],
    k: u32,
    fraction: u32,
    flags: u8,
    exceptions: usize,
    /// Byte offset of the page offsets.
    offsets: usize,
    /// Byte offset of the exception records.
    records: usize,
}

impl<'a> SplineRef<'a> {
    /// Validates a stored form and views it.
    pub const fn from_bytes(bytes: &'a [u8]) -> Result<Self, SplineError> {
        if bytes.len() < HEADER_BYTES {
            return Err(SplineError::Length);
        }
        let mut j = 0;
        while j < MAGIC.len() {
            if bytes[j] != MAGIC[j] {
                return Err(SplineError::Magic);
            }
            j += 1;
        }
        let k = bytes[8] as u32;
        let fraction = bytes[9] as u32;
        let flags = bytes[10];
        if k < MIN_SHIFT || k > MAX_SHIFT || fraction > MAX_FRACTION || flags > 3 || bytes[11] != 0
        {
            return Err(SplineError::Header);
        }
        let e = u32_at(bytes, 12) as usize;
        let pages = 65_536usize >> k;
        let len = HEADER_BYTES + 8 * (pages + 1) + 4 * (pages + 1) + 4 * e;
        if e > 65_536 || bytes.len() != len {
            return Err(SplineError::Length);
        }
        let offsets = HEADER_BYTES + 8 * (pages + 1);
        let records = offsets + 4 * (pages + 1);
        if u32_at(bytes, offsets) != 0 || u32_at(bytes, offsets + 4 * pages) as usize != e {
            return Err(SplineError::Offsets);
        }
        let mut page = 0;
        while page < pages {
            let start = u32_at(bytes, offsets + 4 * page) as usize;
            let end = u32_at(bytes, offsets + 4 * (page + 1)) as usize;
            if end < start || end > e {
                return Err(SplineError::Offsets);
            }
            let mut x = start;
            while x < end {
                let pos = u16_at(bytes, records + 4 * x) as usize;
                if pos >> k != page {
                    return Err(SplineError::Exceptions);
                }
                if x > start && pos <= u16_at(bytes, records + 4 * (x - 1)) as usize {
                    return Err(SplineError::Exceptions);
                }
                x += 1;
            }
            page += 1;
        }
        Ok(SplineRef {
            bytes,
            k,
            fraction,
            flags,
            exceptions: e,
            offsets,
            records,
        })
    }

    /// The stored form's bytes.
    pub const fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The page shift `k` (pages of `2^k` entries).
    pub const fn page_shift(&self) -> u32 {
        self.k
    }

    /// The number of exceptions.
    pub const fn exceptions(&self) -> usize {
        self.exceptions
    }

    #[inline]
    fn knot(&self, j: usize) -> (i64, i64) {
        let at = HEADER_BYTES + 8 * j;
        (
            i64::from(u32_at(self.bytes, at) as i32),
            i64::from(u32_at(self.bytes, at + 4) as i32),
        )
    }

    /// Entry `index`.
    #[inline]
    pub fn get(&self, index: u16) -> u16 {
        let p = if self.flags & 1 != 0 {
            index ^ 0x8000
        } else {
            index
        };
        let j = usize::from(p) >> self.k;
        let start = u32_at(self.bytes, self.offsets + 4 * j) as usize;
        let end = u32_at(self.bytes, self.offsets + 4 * (j + 1)) as usize;
        for x in start..end {
            if u16_at(self.bytes, self.records + 4 * x) == p {
                return u16_at(self.bytes, self.records + 4 * x + 2);
            }
        }
        let u = i64::from(p) & ((1 << self.k) - 1);
        predict(
            self.k,
            self.fraction,
            self.knot(j),
            self.knot(j + 1),
            u,
            self.flags & 2 != 0,
        )
    }
}

/// The predictor at offset `u` of a page between knots `a` and `b` (value, slope per page),
/// rounded half up and clamped into the output type, as entry bits.
#[inline]
fn predict(k: u32, fraction: u32, a: (i64, i64), b: (i64, i64), u: i64, signed: bool) -> u16 {
    let kk = 1i64 << k;
    let (u2, u3) = (u * u, u * u * u);
    let n = a.0 * (2 * u3 - 3 * u2 * kk + kk * kk * kk)
        + a.1 * (u3 - 2 * u2 * kk + u * kk * kk)
        + b.0 * (3 * u2 * kk - 2 * u3)
        + b.1 * (u3 - u2 * kk);
    let s = 3 * k + fraction;
    let v = (n + (1i64 << (s - 1))) >> s;
    if signed {
        v.clamp(-32768, 32767) as i16 as u16
    } else {
        v.clamp(0, 65535) as u16
    }
}

#[cfg(feature = "alloc")]
pub use build::{pack, pack_pipeline, PackError};

#[cfg(feature = "alloc")]
mod build {
    use super::*;
    use crate::quant::{dequantize, Pipeline};
    use alloc::vec::Vec;

    /// Why a table could not be packed.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum PackError {
        /// The table does not have 65,536 entries.
        Length(usize),
        /// A page shift or fraction width out of range.
        Parameters,
        /// The stored form does not decode to the table (a defect of the packer).
        Mismatch(u16),
        /// The pipeline's output is not 16 bits wide.
        Output,
    }

    impl fmt::Display for PackError {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            match self {
                PackError::Length(n) => write!(f, "a table of {n} entries, not 65,536"),
                PackError::Parameters => f.write_str("page shift or fraction bits out of range"),
                PackError::Mismatch(i) => write!(f, "the stored form differs at entry {i:#06x}"),
                PackError::Output => f.write_str("the output is not 16 bits wide"),
            }
        }
    }

    impl core::error::Error for PackError {}

    /// Packs `table` with pages of `2^k` entries and `fraction` fraction bits. `real(p)`, if
    /// given, is the unrounded value the table rounds at position `p` (0..=65536; a NaN or an
    /// infinity where there is none): knots take its value and its slope; without it, knots
    /// take the table's own values and differences. Every entry the predictor misses becomes an
    /// exception, and the result is checked on all 65,536 entries.
    pub fn pack(
        table: &[u16],
        signed_input: bool,
        signed_output: bool,
        k: u32,
        fraction: u32,
        real: Option<&dyn Fn(i64) -> f64>,
    ) -> Result<Vec<u8>, PackError> {
        if table.len() != 65_536 {
            return Err(PackError::Length(table.len()));
        }
        if !(MIN_SHIFT..=MAX_SHIFT).contains(&k) || fraction > MAX_FRACTION {
            return Err(PackError::Parameters);
        }
        let flip = if signed_input { 0x8000 } else { 0 };
        let value_at = |p: i64| -> f64 {
            let p = p.clamp(0, 65_535) as usize;
            let bits = table[p ^ flip];
            if signed_output {
                f64::from(bits as i16)
            } else {
                f64::from(bits)
            }
        };
        let pages = 65_536usize >> k;
        let kk = (1i64 << k) as f64;
        let one = f64::from(1u32 << fraction);
        let limit = f64::from(i32::MAX);
        let fixed = |v: f64| -> i64 {
            if v.is_nan() {
                0
            } else {
                libm::round(v * one).clamp(-limit, limit) as i64
            }
        };
        let knots: Vec<(i64, i64)> = (0..=pages)
            .map(|j| {
                let p = (j as i64) << k;
                let (y, slope) = match real {
                    Some(r) => (r(p), (r(p + 1) - r(p - 1)) / 2.0),
                    None => (value_at(p), (value_at(p + 1) - value_at(p - 1)) / 2.0),
                };
                let (y, slope) = if y.is_finite() && slope.is_finite() {
                    (y, slope)
                } else {
                    (value_at(p), 0.0)
                };
                (fixed(y), fixed(slope * kk))
            })
            .collect();
        let mut offsets = Vec::with_capacity(pages + 1);
        let mut records: Vec<(u16, u16)> = Vec::new();
        for j in 0..pages {
            offsets.push(records.len() as u32);
            for u in 0..(1usize << k) {
                let p = (j << k) + u;
                let want = table[p ^ flip];
                let got = predict(k, fraction, knots[j], knots[j + 1], u as i64, signed_output);
                if got != want {
                    records.push((p as u16, want));
                }
            }
        }
        offsets.push(records.len() as u32);
        let mut out = Vec::new();
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&[k as u8, fraction as u8]);
        out.push(u8::from(signed_input) | u8::from(signed_output) << 1);
        out.push(0);
        out.extend_from_slice(&(records.len() as u32).to_le_bytes());
        for (y, d) in &knots {
            out.extend_from_slice(&(*y as i32).to_le_bytes());
            out.extend_from_slice(&(*d as i32).to_le_bytes());
        }
        for o in &offsets {
            out.extend_from_slice(&o.to_le_bytes());
        }
        for (p, bits) in &records {
            out.extend_from_slice(&p.to_le_bytes());
            out.extend_from_slice(&bits.to_le_bytes());
        }
        let view = SplineRef::from_bytes(&out).map_err(|_| PackError::Mismatch(0))?;
        for (i, &want) in table.iter().enumerate() {
            if view.get(i as u16) != want {
                return Err(PackError::Mismatch(i as u16));
            }
        }
        Ok(out)
    }

    /// Packs the table of a pipeline with a 16-bit output, knots from the unrounded value of
    /// the function (its `f64` reference evaluation, divided by the output scale, plus the
    /// zero point; for `f16`/`bf16` outputs, the table's own values), at the smallest of the
    /// page shifts 4..=8 with 14 fraction bits.
    pub fn pack_pipeline(p: &Pipeline) -> Result<Vec<u8>, PackError> {
        if p.output().bytes() != 2 || p.input().bits() != 16 {
            return Err(PackError::Output);
        }
        let mut entries = alloc::vec![0u32; 65_536];
        p.fill(&mut entries);
        let table: Vec<u16> = entries.iter().map(|&e| e as u16).collect();
        let signed_input = p.input().is_signed();
        let requant = p.output().requantization();
        let signed_output = requant.is_some_and(|(ty, _, _)| ty.is_signed());
        let (scale, zp) = (p.scale(), p.zero_point());
        let min = p.input().min();
        let op = p.op();
        let real = move |pos: i64| -> f64 {
            let Some((_, out_scale, out_zp)) = requant else {
                return f64::NAN;
            };
            let q = pos + i64::from(min);
            let x = if (i64::from(min)..=i64::from(min) + 65_535).contains(&q) {
                f64::from(dequantize(q as i32, scale, zp))
            } else {
                (q - i64::from(zp)) as f64 * f64::from(scale)
            };
            // (The identity's evaluation is x itself.)
            let y = match crate::evaluate(op, x) {
                Some(e) => e.hi + e.lo,
                None => return f64::NAN,
            };
            y / f64::from(out_scale) + f64::from(out_zp)
        };
        let real: Option<&dyn Fn(i64) -> f64> = if requant.is_some() { Some(&real) } else { None };
        let mut best: Option<Vec<u8>> = None;
        for k in MIN_SHIFT..=MAX_SHIFT {
            let s = pack(&table, signed_input, signed_output, k, 14, real)?;
            if best.as_ref().is_none_or(|b| s.len() < b.len()) {
                best = Some(s);
            }
        }
        Ok(best.expect("at least one page shift"))
    }
}
