//! `f64` helpers shared by several reference functions.

/// `ln(1 + e^x)`, split at 0 so that neither side cancels.
pub(crate) fn softplus(x: f64) -> f64 {
    if x > 0.0 {
        x + libm::log1p(libm::exp(-x))
    } else {
        libm::log1p(libm::exp(x))
    }
}
