//! [`ApproxError`]: what was wrong with the arguments.

/// The error of an `actlut-approx` function: names the argument that
/// is wrong and why.
///
/// ```
/// use actlut_approx::{ApproxError, Builtin, QuantizedFunction};
/// use actlut_approx::Function;
///
/// let tanh = Builtin::new(Function::Tanh).unwrap();
/// let err = QuantizedFunction::<[f32; 3]>::builtin_array(tanh, f32::NAN, -1.0, 1.0)
///     .unwrap_err();
/// assert!(matches!(err, ApproxError::InvalidParameter { name: "step", .. }));
/// assert_eq!(err.to_string(), "step is NaN: expected finite and positive");
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum ApproxError {
    /// A scalar argument (`step`, `lo`, `hi`, `span`, `log_step`, …) is out of
    /// its domain.
    InvalidParameter {
        /// The argument's name.
        name: &'static str,
        /// Its value.
        value: f64,
        /// What it should be.
        expected: &'static str,
    },
    /// `lo ≥ hi`.
    EmptyRange {
        /// The lower end.
        lo: f32,
        /// The upper end.
        hi: f32,
    },
    /// The step is so coarse that `[lo, hi]` maps to a single code.
    SingleCode {
        /// The step.
        step: f32,
        /// The lower end.
        lo: f32,
        /// The upper end.
        hi: f32,
    },
    /// The grid would have more codes than supported (codes must stay below
    /// 2^22 in magnitude so that `x / step` resolves half-way points in `f32`;
    /// LNS tables hold at most 2^24 codes).
    TooManyCodes {
        /// The number of codes (or the largest code's magnitude) requested.
        codes: f64,
        /// The limit.
        max: u64,
    },
    /// An array-backed table's length `N` is not the grid's number of codes.
    WrongLength {
        /// The number of codes of the grid (the `N` to use).
        expected: usize,
        /// The array's length.
        actual: usize,
    },
    /// The function is NaN or infinite at a point of the grid.
    NonFiniteValue {
        /// The grid point.
        x: f32,
        /// The function's value there.
        value: f32,
    },
    /// `bits` is 0 or above the supported maximum.
    InvalidBits {
        /// The value given.
        bits: u32,
        /// The largest supported value.
        max: u32,
    },
    /// The table or histogram could not be allocated.
    AllocationFailed {
        /// The size requested in bytes.
        bytes: usize,
    },
    /// A weight is negative, NaN or infinite.
    InvalidWeight {
        /// Its index.
        index: usize,
        /// Its value.
        weight: f64,
    },
    /// A score is NaN.
    NanScore {
        /// Its index.
        index: usize,
    },
    /// Two slices that must have the same length do not.
    LengthMismatch {
        /// The first slice's name.
        left: &'static str,
        /// Its length.
        left_len: usize,
        /// The second slice's name.
        right: &'static str,
        /// Its length.
        right_len: usize,
    },
    /// A code outside the table's range was looked up.
    CodeOutOfRange {
        /// The code.
        code: i64,
        /// The smallest valid code.
        min: i64,
        /// The largest valid code.
        max: i64,
    },
    /// A function name that [`Builtin`](super::Builtin) does not know.
    UnknownFunction,
    /// A sum overflowed `f64` (weights whose total exceeds `f64::MAX`).
    Overflow {
        /// What overflowed.
        what: &'static str,
    },
}

impl core::fmt::Display for ApproxError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            ApproxError::InvalidParameter {
                name,
                value,
                expected,
            } => {
                if value.is_nan() {
                    write!(f, "{name} is NaN: expected {expected}")
                } else {
                    write!(f, "{name} is {value:e}: expected {expected}")
                }
            }
            ApproxError::EmptyRange { lo, hi } => {
                write!(f, "empty range: lo ({lo:e}) must be below hi ({hi:e})")
            }
            ApproxError::SingleCode { step, lo, hi } => write!(
                f,
                "step {step:e} collapses [{lo:e}, {hi:e}] to a single code: use a smaller step"
            ),
            ApproxError::TooManyCodes { codes, max } => write!(
                f,
                "the grid needs {codes:e} codes, more than the supported {max}: use a larger step \
                 or a smaller range"
            ),
            ApproxError::WrongLength { expected, actual } => write!(
                f,
                "the grid has {expected} codes but the array holds {actual}: use [f32; {expected}]"
            ),
            ApproxError::NonFiniteValue { x, value } => write!(
                f,
                "the function is not finite inside the range: f({x:e}) = {value}"
            ),
            ApproxError::InvalidBits { bits, max } => {
                write!(f, "bits is {bits}: expected 1 to {max}")
            }
            ApproxError::AllocationFailed { bytes } => {
                write!(f, "cannot allocate a table of {bytes} bytes")
            }
            ApproxError::InvalidWeight { index, weight } => write!(
                f,
                "weights[{index}] is {weight:e}: weights must be finite and non-negative"
            ),
            ApproxError::NanScore { index } => write!(f, "scores[{index}] is NaN"),
            ApproxError::LengthMismatch {
                left,
                left_len,
                right,
                right_len,
            } => write!(
                f,
                "{left} and {right} differ in length: {left_len} and {right_len}"
            ),
            ApproxError::CodeOutOfRange { code, min, max } => {
                write!(f, "code {code} is outside the table's codes {min}..={max}")
            }
            ApproxError::UnknownFunction => {
                f.write_str("unknown function name (expected one of ")?;
                for (i, b) in super::Builtin::ALL.iter().enumerate() {
                    let sep = if i == 0 { "" } else { ", " };
                    write!(f, "{sep}{}", b.name())?;
                }
                f.write_str(")")
            }
            ApproxError::Overflow { what } => write!(f, "the {what} overflows f64"),
        }
    }
}

impl core::error::Error for ApproxError {}

/// `value` as a bound on `|f'|`: finite and non-negative (0 for a constant
/// function), or [`ApproxError::InvalidParameter`] naming `sup_abs_derivative`.
pub(super) fn check_sup_abs_derivative(value: f64) -> Result<f64, ApproxError> {
    if value.is_finite() && value >= 0.0 {
        Ok(value)
    } else {
        Err(ApproxError::InvalidParameter {
            name: "sup_abs_derivative",
            value,
            expected: "finite and non-negative",
        })
    }
}

/// `step` as a grid step: finite and positive, or
/// [`ApproxError::InvalidParameter`] naming `step`.
pub(super) fn check_step(step: f32) -> Result<f64, ApproxError> {
    if step.is_finite() && step > 0.0 {
        Ok(f64::from(step))
    } else {
        Err(ApproxError::InvalidParameter {
            name: "step",
            value: f64::from(step),
            expected: "finite and positive",
        })
    }
}
