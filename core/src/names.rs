//! Other engines' names for the functions: what candle, burn, PyTorch, ONNX and Hugging Face
//! configs call them, as one table ([`ENGINE_NAMES`]) and its lookup ([`from_engine_name`]).
//!
//! A name is listed only where the engine's function *is* the exact function of actlut's
//! [`Function`] (docs/SEMANTICS.md of actlut), with the engine's default parameters:
//!
//! - candle's `Tensor::gelu` is the tanh form, but actlut's `gelu` keeps its own meaning
//!   (the erf form, as in `candle_nn::Activation` and PyTorch); candle's erf form is
//!   `gelu_erf`.
//! - PyTorch's `GELU(approximate='tanh')`, burn's `gelu_approximate`, Hugging Face's
//!   `gelu_new`, `gelu_fast` and `gelu_pytorch_tanh` are the tanh form, `gelu_tanh`.
//! - ONNX's `HardSigmoid` and burn's `hard_sigmoid` default to slope 0.2, not actlut's 1/6:
//!   they are not listed. PyTorch's `Hardsigmoid` (slope 1/6) is.
//! - ONNX's `Elu`/`Selu` and PyTorch's `ELU`/`SELU` have actlut's defaults (α = 1; SELU's
//!   λ and α), and `Softplus` PyTorch's β = 1.
//!
//! Matching is exact (case and punctuation included): the names are spelled as each engine
//! spells them, and actlut's own table names and feature names are accepted besides
//! ([`Function::from_name`]).
//!
//! ```
//! use actlut_core::{names, Function};
//! assert_eq!(names::from_engine_name("gelu_erf"), Some(Function::Gelu));
//! assert_eq!(names::from_engine_name("GELU(approximate='tanh')"), Some(Function::GeluTanh));
//! assert_eq!(names::from_engine_name("SiLU"), Some(Function::Silu));
//! assert_eq!(names::from_engine_name("HardSigmoid"), None); // ONNX's: slope 0.2
//! ```

use crate::Function;

/// `(engine's name, function)`: the names other engines give the functions, beyond actlut's
/// own table and feature names. Each name appears once.
pub const ENGINE_NAMES: &[(&str, Function)] = &[
    // candle (`Tensor::gelu_erf`, `candle_nn::Activation`), Hugging Face `hidden_act`.
    ("gelu_erf", Function::Gelu),
    ("gelu_new", Function::GeluTanh),
    ("gelu_fast", Function::GeluTanh),
    ("gelu_pytorch_tanh", Function::GeluTanh),
    ("quick_gelu", Function::GeluQuick),
    ("swish", Function::Silu),
    // burn (`burn::tensor::activation`, `burn::nn::ActivationConfig`).
    ("gelu_approximate", Function::GeluTanh),
    ("GeluApproximate", Function::GeluTanh),
    ("log_sigmoid", Function::Logsigmoid),
    ("hard_swish", Function::Hardswish),
    ("HardSwish", Function::Hardswish),
    // PyTorch (`torch.nn` modules and their repr).
    ("GELU", Function::Gelu),
    ("GELU(approximate='none')", Function::Gelu),
    ("GELU(approximate='tanh')", Function::GeluTanh),
    ("SiLU", Function::Silu),
    ("Mish", Function::Mish),
    ("ELU", Function::Elu),
    ("SELU", Function::Selu),
    ("Hardsigmoid", Function::Hardsigmoid),
    ("Hardswish", Function::Hardswish),
    ("LogSigmoid", Function::Logsigmoid),
    // ONNX operators (`HardSwish` is burn's spelling above), and PyTorch's modules of the
    // same name.
    ("Gelu", Function::Gelu),
    ("Sigmoid", Function::Sigmoid),
    ("Tanh", Function::Tanh),
    ("Softplus", Function::Softplus),
    ("Softsign", Function::Softsign),
    ("Elu", Function::Elu),
    ("Selu", Function::Selu),
    ("Erf", Function::Erf),
    ("Exp", Function::Exp),
    ("Log", Function::Log),
];

/// The function an engine calls `name` ([`ENGINE_NAMES`]), or `None`. actlut's own names are
/// [`Function::from_name`]'s.
pub fn from_engine_name(name: &str) -> Option<Function> {
    ENGINE_NAMES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(_, f)| f)
}

/// The longest rejected name [`UnknownFunction`] keeps (in bytes); a longer one is cut at a
/// character boundary and shown with `…`.
const KEPT_NAME: usize = 40;

/// The error of parsing an unknown function name: it repeats the name, lists actlut's names
/// and says where the other engines' names are listed (no heap: `no_std` without `alloc`).
///
/// ```
/// use actlut_core::Function;
/// let err = "gelux".parse::<Function>().unwrap_err();
/// assert_eq!(err.name(), "gelux");
/// assert!(err.to_string().starts_with("unknown function name `gelux`"));
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct UnknownFunction {
    /// The rejected name's first bytes.
    name: [u8; KEPT_NAME],
    /// How many bytes of `name` are used.
    len: u8,
    /// Whether the rejected name was longer than what is kept.
    truncated: bool,
}

impl UnknownFunction {
    /// The error for the rejected name `s`.
    pub fn new(s: &str) -> UnknownFunction {
        let mut len = s.len().min(KEPT_NAME);
        while !s.is_char_boundary(len) {
            len -= 1;
        }
        let mut name = [0; KEPT_NAME];
        name[..len].copy_from_slice(&s.as_bytes()[..len]);
        UnknownFunction {
            name,
            len: len as u8,
            truncated: len < s.len(),
        }
    }

    /// The rejected name, or its first 40 bytes when it is longer (see
    /// [`is_truncated`](Self::is_truncated)).
    pub fn name(&self) -> &str {
        let bytes = &self.name[..usize::from(self.len)];
        // Cut at a character boundary of a `&str` in `new`: always valid.
        core::str::from_utf8(bytes).unwrap_or_default()
    }

    /// Whether [`name`](Self::name) is only the beginning of the rejected name.
    pub fn is_truncated(&self) -> bool {
        self.truncated
    }
}

impl core::fmt::Display for UnknownFunction {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let more = if self.truncated { "…" } else { "" };
        write!(
            f,
            "unknown function name `{}{more}`: expected one of",
            self.name()
        )?;
        for (i, function) in Function::ALL.iter().enumerate() {
            let sep = if i == 0 { " " } else { ", " };
            write!(f, "{sep}{}", function.name())?;
        }
        f.write_str(
            " (or its feature name, such as `gelu-tanh`); other engines' names (PyTorch, ONNX, \
             candle, burn, Hugging Face) are listed in actlut_core::names::ENGINE_NAMES and \
             docs/SEMANTICS.md (\"Other engines' names\")",
        )
    }
}

impl core::fmt::Debug for UnknownFunction {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("UnknownFunction")
            .field("name", &self.name())
            .field("truncated", &self.truncated)
            .finish()
    }
}

impl core::error::Error for UnknownFunction {}

impl core::str::FromStr for Function {
    type Err = UnknownFunction;

    /// Parses a table name prefix (`gelu_tanh`), a feature name (`gelu-tanh`), or another
    /// engine's name for the same exact function: candle's `gelu_erf`, burn's
    /// `gelu_approximate`, PyTorch's `GELU(approximate='tanh')` and `SiLU`, ONNX's `Gelu`
    /// and `Sigmoid`, … (the table [`ENGINE_NAMES`], which the error lists).
    ///
    /// ```
    /// use actlut_core::Function;
    /// assert_eq!("gelu_erf".parse(), Ok(Function::Gelu));
    /// assert_eq!("GELU(approximate='tanh')".parse(), Ok(Function::GeluTanh));
    /// assert_eq!("SiLU".parse(), Ok(Function::Silu));
    /// assert_eq!("Sigmoid".parse(), Ok(Function::Sigmoid));
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Function::from_name(s)
            .or_else(|| from_engine_name(s))
            .ok_or_else(|| UnknownFunction::new(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_engine_name_is_listed_once_and_is_not_an_actlut_name() {
        for (i, (name, f)) in ENGINE_NAMES.iter().enumerate() {
            assert!(
                ENGINE_NAMES[..i].iter().all(|(n, _)| n != name),
                "{name} twice"
            );
            assert_eq!(Function::from_name(name), None, "{name} is actlut's own");
            assert_eq!(from_engine_name(name), Some(*f));
        }
    }

    #[test]
    fn engines_names_whose_defaults_differ_are_not_accepted() {
        // ONNX's HardSigmoid and burn's hard_sigmoid: slope 0.2 by default.
        for name in [
            "HardSigmoid",
            "hard_sigmoid",
            "relu",
            "GELU(approximate=tanh)",
        ] {
            assert_eq!(from_engine_name(name), None, "{name}");
        }
    }
}
