//! The one evaluation sequence: special value → evaluate → round when no rounding boundary
//! lies within the error bound → refine → round → the exact value where it is rational → the
//! known side of a point the value can approach beyond any precision (the input itself, or a
//! limit such as softcap's cap), or report the input unsettled.
//!
//! Every correctly rounded value of this crate comes from [`settle`]: the tables
//! ([`eval_op`](crate::eval_op), [`fill_table`](crate::fill_table)), the computed `f32` path
//! ([`eval_f32`](crate::eval_f32)) and the quantized pipeline
//! ([`eval_value`](crate::quant::eval_value)), for a function or its derivative (a function
//! with facts of its own, the same way). They differ only in how they decode their input,
//! in the rounding they pass (into a table format, or to `f32`: a [`Target`]), and in what
//! they do with an input that cannot be settled (a table is an `Err` naming the input;
//! `eval_f32` and `eval_value` fall back to the rounding of the `f64` evaluation, as they
//! document).

use crate::exact::Exact;
use crate::function::{Args, Facts, Special};
use crate::round::Bounded;
use crate::{Format, Path};
use core::cmp::Ordering;

/// The result of [`settle`].
pub(crate) enum Outcome<T> {
    /// Correctly rounded, and how.
    Settled(T, Path),
    /// The default NaN of the output (outside the domain, or log/rsqrt at −inf).
    DefaultNan,
    /// No evaluation lies farther than its bound from a rounding boundary: the plain
    /// evaluation (or the special value), for a fallback.
    Unsettled(Bounded),
}

/// Where a value is rounded to: a table format, or `f32`.
pub(crate) trait Target {
    /// The rounded result.
    type Out: Copy + PartialEq;
    /// `v` rounded, or `None` when a rounding boundary lies within its bound.
    fn round(&self, v: Bounded) -> Option<Self::Out>;
    /// The exact `v` rounded (`None` only when its arithmetic does not fit).
    fn round_exact(&self, v: &Exact) -> Option<Self::Out>;
}

/// Rounding into a table format.
pub(crate) struct IntoFormat(pub Format);

impl Target for IntoFormat {
    type Out = u16;
    fn round(&self, v: Bounded) -> Option<u16> {
        crate::round::round(self.0, v)
    }
    fn round_exact(&self, v: &Exact) -> Option<u16> {
        // Rounded to odd at `f64`'s 53 bits, then to nearest in the format: one correct
        // rounding for every format of at most 51 significant bits (every table format), by
        // the format's own rules (`round::round` of an exact value: its ties, overflow,
        // saturation, an unsigned format's NaN for a negative value and +0 for an exact −0,
        // E8M0's NaN for an exact zero).
        crate::round::round(self.0, Bounded::exact(v.to_f64_odd()?))
    }
}

/// Rounding into a table format, keeping the value rounded (for
/// [`midpoint_distance`](crate::midpoint_distance)).
pub(crate) struct WithValue(pub Format);

impl Target for WithValue {
    type Out = (Bounded, u16);
    fn round(&self, v: Bounded) -> Option<(Bounded, u16)> {
        crate::round::round(self.0, v).map(|r| (v, r))
    }
    fn round_exact(&self, v: &Exact) -> Option<(Bounded, u16)> {
        let r = IntoFormat(self.0).round_exact(v)?;
        Some((v.bounded()?, r))
    }
}

/// Rounding to `f32`.
pub(crate) struct IntoF32;

impl Target for IntoF32 {
    type Out = f32;
    fn round(&self, v: Bounded) -> Option<f32> {
        crate::round::round_f32(v)
    }
    fn round_exact(&self, v: &Exact) -> Option<f32> {
        // Exact in f32, or past its largest finite value (then ±inf, as `as` rounds).
        Some(v.round(23, -126)? as f32)
    }
}

/// The function of `facts` with the constants `args` at the non-NaN `x`, rounded by `target`.
pub(crate) fn settle<T: Target>(
    function: &Facts,
    args: &Args,
    x: f64,
    target: &T,
) -> Outcome<T::Out> {
    debug_assert!(!x.is_nan(), "settle: NaN input");
    if x.is_infinite() || x == 0.0 {
        return match function.special(args, x.is_sign_negative(), x == 0.0) {
            Special::DefaultNan => Outcome::DefaultNan,
            Special::Value(v) => match target.round(v) {
                Some(r) => Outcome::Settled(r, Path::Special),
                // A limit that lies just off a rounding boundary (swiglu_oai's value past its
                // limit, limit·sigmoid(alpha·limit), below a limit that is a midpoint): the
                // side of the point it approaches settles it, as for a finite input.
                None => match function
                    .pinned(x, args)
                    .and_then(|(p, side)| at_boundary(target, v, p, side))
                {
                    Some(r) => Outcome::Settled(r, Path::Special),
                    None => Outcome::Unsettled(v),
                },
            },
            Special::Rational(r) => match target.round_exact(&r.exact()) {
                Some(out) => Outcome::Settled(out, Path::Special),
                None => Outcome::Unsettled(Bounded::evaluated(r.to_f64())),
            },
        };
    }
    let Some(v) = (function.eval)(x, args) else {
        return Outcome::DefaultNan;
    };
    if let Some(r) = target.round(v) {
        return Outcome::Settled(r, Path::Direct);
    }
    if let Some(r) = function.eval_refined(x, args).and_then(|w| target.round(w)) {
        return Outcome::Settled(r, Path::Refined);
    }
    if let Some(r) = function
        .eval_exact(x, args)
        .and_then(|e| target.round_exact(&e))
    {
        return Outcome::Settled(r, Path::Refined);
    }
    let pinned = function
        .side_of_input(x)
        .map(|side| (x, side))
        .into_iter()
        .chain(function.pinned(x, args));
    for (p, side) in pinned {
        if let Some(r) = at_boundary(target, v, p, side) {
            return Outcome::Settled(r, Path::Refined);
        }
    }
    Outcome::Unsettled(v)
}

/// Settles an unsettled `v` when it lies within its bound of the point `p`, `p` is itself a
/// rounding boundary of the target, and the exact value is known to lie strictly on `side` of
/// `p`: the result is then the neighbour on that side (the next boundary is a quantum of the
/// target away, far beyond the bound). `None` otherwise.
fn at_boundary<T: Target>(target: &T, v: Bounded, p: f64, side: Ordering) -> Option<T::Out> {
    if !p.is_finite() || p == 0.0 || side == Ordering::Equal {
        return None;
    }
    if ((v.hi - p) + v.lo).abs() > 2.0 * v.err {
        return None;
    }
    // Just off p on either side: an offset far below every quantum of every target (p is a
    // boundary when the two round differently).
    let tiny = libm::scalbn(p.abs(), -80);
    let off = |dir: f64| {
        target.round(Bounded {
            hi: p,
            lo: dir * tiny,
            err: 0.0,
        })
    };
    let (below, above) = (off(-1.0)?, off(1.0)?);
    if below == above {
        return None;
    }
    Some(match side {
        Ordering::Less => below,
        _ => above,
    })
}
