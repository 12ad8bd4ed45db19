//! The one evaluation sequence: special value → evaluate → round when no rounding boundary
//! lies within the error bound → refine → round, or report the input unsettled.
//!
//! Every correctly rounded value of this crate comes from [`settle`]: the tables
//! ([`eval`](crate::eval)), the computed `f32` path ([`eval_f32`](crate::eval_f32)) and the
//! quantized pipeline ([`eval_value`](crate::quant::eval_value)). They differ only in how they
//! decode their input, in the rounding they pass (into a table format, or to `f32`), and in
//! what they do with an input that cannot be settled (a table build panics; `eval_f32` and
//! `eval_value` fall back to the rounding of the `f64` evaluation, as they document).

use crate::function::Special;
use crate::round::Bounded;
use crate::{Function, Path};

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

/// `function` at the non-NaN `x`, rounded by `round` (which returns `None` when a rounding
/// boundary lies within the error bound of the value it is given).
pub(crate) fn settle<T>(
    function: Function,
    x: f64,
    round: impl Fn(Bounded) -> Option<T>,
) -> Outcome<T> {
    debug_assert!(!x.is_nan(), "settle: NaN input");
    if x.is_infinite() || x == 0.0 {
        return match function.special(x.is_sign_negative(), x == 0.0) {
            Special::DefaultNan => Outcome::DefaultNan,
            Special::Value(v) => match round(v) {
                Some(r) => Outcome::Settled(r, Path::Special),
                None => Outcome::Unsettled(v),
            },
        };
    }
    let Some(v) = function.eval(x) else {
        return Outcome::DefaultNan;
    };
    if let Some(r) = round(v) {
        return Outcome::Settled(r, Path::Direct);
    }
    match function.eval_refined(x).and_then(&round) {
        Some(r) => Outcome::Settled(r, Path::Refined),
        None => Outcome::Unsettled(v),
    }
}
