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
