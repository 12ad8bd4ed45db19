//! Other engines' names for the functions: what Hugging Face transformers, vLLM, candle, burn,
//! PyTorch and ONNX call them, as one table ([`ENGINE_NAMES`]) and its lookups
//! ([`op_from_engine_name`], [`from_engine_name`]); and other libraries' names for the
//! formats ([`FORMAT_NAMES`], below).
//!
//! Each name maps to the text of an actlut [`Op`]: a function, with the engine's constants
//! where they are not actlut's defaults (transformers' `gelu_10` is
//! `gelu_clipped(min=-10,max=10)`). The op is always the *exact* function; where an engine
//! computes a rounded or truncated form of it, actlut computes the exact one, and a table is
//! then the correct rounding of what the engine approximates:
//!
//! - transformers' and vLLM's `gelu_fast` evaluate `tanh(x·0.7978845608·(1 + 0.044715·x²))`
//!   with √(2/π) truncated to 10 decimals; `gelu_new`, `gelu_accurate` and `gelu_python_tanh`
//!   use √(2/π) rounded to `f64`. All are `gelu_tanh`, with the exact √(2/π): the truncation
//!   changes tanh's argument by 3.6·10⁻¹² relative, far below every table format's resolution
//!   (the oracle's `engine_names` test holds gelu_fast's own constant to the same f16 and bf16
//!   tables).
//! - `quick_gelu` is `gelu_quick`, 1.702 the exact decimal (an engine multiplies by 1.702
//!   rounded to its float type).
//! - vLLM's `swigluoai` (`SwigluOAIAndMul`) is `swiglu_oai` at its defaults, alpha 1.702 and
//!   limit 7: the gate's function, `c·sigmoid(alpha·c)` with `c = min(x, limit)`; the
//!   multiplication by the clamped linear half plus one stays the engine's. An engine that
//!   rounds alpha to bf16 computes `swiglu_oai(alpha=1.703125)`: write that op to match it.
//! - `laplace` is transformers' LaplaceActivation with its defaults mu 0.707107 and sigma
//!   0.282095 as exact decimals.
//! - `prelu` (PyTorch's `PReLU`, ONNX's `PRelu`) and `xielu` have trained constants without
//!   default: their names parse to an error that names the constant to give (`weight`;
//!   `alpha_p`).
//! - candle's `Tensor::gelu` is the tanh form, but actlut's `gelu` keeps its own meaning (the
//!   erf form, as in `candle_nn::Activation` and PyTorch); candle's erf form is `gelu_erf`.
//! - ONNX's `HardSigmoid` and burn's `hard_sigmoid` default to slope 0.2, not actlut's 1/6:
//!   they are not listed. PyTorch's `Hardsigmoid` (slope 1/6) is.
//! - vLLM's `fatrelu_and_mul` applies FATReLU with its default threshold 0, which is `relu`.
//!
//! Matching is exact (case and punctuation included): the names are spelled as each engine
//! spells them, and actlut's own names are accepted besides ([`Function::from_name`]); vLLM
//! lowercases the names it is given, and its lowercase names are listed.
//!
//! ```
//! use actlut_core::{names, Function, Op};
//! assert_eq!(names::from_engine_name("gelu_erf"), Some(Function::Gelu));
//! assert_eq!(names::from_engine_name("GELU(approximate='tanh')"), Some(Function::GeluTanh));
//! assert_eq!(names::from_engine_name("SiLU"), Some(Function::Silu));
//! assert_eq!(names::from_engine_name("HardSigmoid"), None); // ONNX's: slope 0.2
//! let gelu_10 = names::op_from_engine_name("gelu_10").unwrap()?;
//! assert_eq!(gelu_10.to_string(), "gelu_clipped(min=-10,max=10)");
//! assert!(names::op_from_engine_name("prelu").is_none()); // actlut's own name: `Op::from_str`
//! assert!(names::op_from_engine_name("PReLU").unwrap().is_err()); // `weight` has no default
//! # Ok::<(), actlut_core::OpError>(())
//! ```

use crate::op::{Op, OpError};
use crate::{Format, Function};

/// `(engine's name, actlut op text)`: the names other engines give the functions, beyond
/// actlut's own function and feature names. Each name appears once.
pub const ENGINE_NAMES: &[(&str, &str)] = &[
    // Hugging Face transformers: the keys of `ACT2CLS` (src/transformers/activations.py) that
    // are not actlut's own names. The others (gelu, laplace, leaky_relu, mish, relu, relu2,
    // relu6, sigmoid, silu, swish, tanh, prelu, xielu, hardswish, sqrtsoftplus) are.
    ("gelu_10", "gelu_clipped(min=-10,max=10)"),
    ("gelu_fast", "gelu_tanh"),
    ("gelu_new", "gelu_tanh"),
    ("gelu_python", "gelu"),
    ("gelu_pytorch_tanh", "gelu_tanh"),
    ("gelu_python_tanh", "gelu_tanh"),
    ("gelu_accurate", "gelu_tanh"),
    ("linear", "identity"),
    ("quick_gelu", "gelu_quick"),
    // vLLM (vllm/model_executor/layers/activation.py): the and-mul registry (`geglu`,
    // `swigluoai`) and the custom ops' names; its other registry keys are transformers'.
    ("geglu", "gelu"),
    ("swigluoai", "swiglu_oai"),
    ("swigluoai_and_mul", "swiglu_oai"),
    ("silu_and_mul", "silu"),
    ("mul_and_silu", "silu"),
    ("gelu_and_mul", "gelu"),
    ("gelu_tanh_and_mul", "gelu_tanh"),
    ("fatrelu_and_mul", "relu"),
    // candle (`Tensor::gelu_erf`, `candle_nn::Activation`).
    ("gelu_erf", "gelu"),
    // burn (`burn::tensor::activation`, `burn::nn::ActivationConfig`).
    ("gelu_approximate", "gelu_tanh"),
    ("GeluApproximate", "gelu_tanh"),
    ("log_sigmoid", "logsigmoid"),
    ("hard_swish", "hardswish"),
    ("HardSwish", "hardswish"),
    // PyTorch (`torch.nn` modules and their repr).
    ("GELU", "gelu"),
    ("GELU(approximate='none')", "gelu"),
    ("GELU(approximate='tanh')", "gelu_tanh"),
    ("SiLU", "silu"),
    ("Mish", "mish"),
    ("ELU", "elu"),
    ("CELU", "celu"),
    ("SELU", "selu"),
    ("ReLU", "relu"),
    ("ReLU6", "relu6"),
    ("LeakyReLU", "leaky_relu"),
    ("PReLU", "prelu"),
    ("Hardtanh", "hardtanh"),
    ("Hardsigmoid", "hardsigmoid"),
    ("Hardswish", "hardswish"),
    ("LogSigmoid", "logsigmoid"),
    ("Identity", "identity"),
    // ONNX operators (`HardSwish` is burn's spelling above), and PyTorch's modules of the
    // same name.
    ("Gelu", "gelu"),
    ("Sigmoid", "sigmoid"),
    ("Tanh", "tanh"),
    ("Softplus", "softplus"),
    ("Softsign", "softsign"),
    ("Elu", "elu"),
    ("Celu", "celu"),
    ("Selu", "selu"),
    ("Relu", "relu"),
    ("LeakyRelu", "leaky_relu"),
    ("PRelu", "prelu"),
    ("Erf", "erf"),
    ("Exp", "exp"),
    ("Log", "log"),
];

/// The op an engine calls `name` ([`ENGINE_NAMES`]): `None` when no engine's name is `name`
/// (actlut's own names are [`Op`]'s `FromStr`), `Some(Err)` when the op needs a constant the
/// name does not give (`PReLU`'s `weight`).
pub fn op_from_engine_name(name: &str) -> Option<Result<Op, OpError>> {
    ENGINE_NAMES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(_, op)| op.parse())
}

/// The function an engine calls `name`, when that name means the function at its default
/// constants ([`ENGINE_NAMES`]); `None` otherwise (for `gelu_10`, a clipped GELU with
/// constants, use [`op_from_engine_name`]). actlut's own names are [`Function::from_name`]'s.
pub fn from_engine_name(name: &str) -> Option<Function> {
    match op_from_engine_name(name)? {
        Ok(op) if op.is_default() && !op.is_derivative() => Some(op.function()),
        _ => None,
    }
}

/// The longest rejected name [`UnknownFunction`] and [`UnknownFormat`] keep (in bytes); a
/// longer one is cut at a character boundary and shown with `…`.
const KEPT_NAME: usize = 40;

/// A rejected name's first bytes, kept without a heap.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Kept {
    /// The rejected name's first bytes.
    name: [u8; KEPT_NAME],
    /// How many bytes of `name` are used.
    len: u8,
    /// Whether the rejected name was longer than what is kept.
    truncated: bool,
}

impl Kept {
    fn new(s: &str) -> Kept {
        let mut len = s.len().min(KEPT_NAME);
        while !s.is_char_boundary(len) {
            len -= 1;
        }
        let mut name = [0; KEPT_NAME];
        name[..len].copy_from_slice(&s.as_bytes()[..len]);
        Kept {
            name,
            len: len as u8,
            truncated: len < s.len(),
        }
    }

    fn name(&self) -> &str {
        let bytes = &self.name[..usize::from(self.len)];
        // Cut at a character boundary of a `&str` in `new`: always valid.
        core::str::from_utf8(bytes).unwrap_or_default()
    }

    /// `…` when the name was cut.
    fn more(&self) -> &'static str {
        if self.truncated {
            "…"
        } else {
            ""
        }
    }
}

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
    kept: Kept,
}

impl UnknownFunction {
    /// The error for the rejected name `s`.
    pub fn new(s: &str) -> UnknownFunction {
        UnknownFunction { kept: Kept::new(s) }
    }

    /// The rejected name, or its first 40 bytes when it is longer (see
    /// [`is_truncated`](Self::is_truncated)).
    pub fn name(&self) -> &str {
        self.kept.name()
    }

    /// Whether [`name`](Self::name) is only the beginning of the rejected name.
    pub fn is_truncated(&self) -> bool {
        self.kept.truncated
    }
}

impl core::fmt::Display for UnknownFunction {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "unknown function name `{}{}`: expected one of",
            self.name(),
            self.kept.more()
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
            .field("truncated", &self.kept.truncated)
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

/// What another library's name for a number format means in actlut: one row of
/// [`FORMAT_NAMES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormatName {
    /// The library's format is this one, bit for bit.
    Is(Format),
    /// actlut has no format that is the library's: the reason, naming actlut's nearest
    /// format. Parsing the name fails with it ([`UnknownFormat::refusal`]).
    Refused(&'static str),
}

/// `(library, name, meaning)`: the names other libraries give the formats, beyond actlut's
/// own names and feature names and the numpy dtype names of ml_dtypes
/// ([`Format::dtype_name`]: `bfloat16`, `float8_e4m3fn`, `float8_e4m3`, …), which parse
/// too. A name written with the library's prefix (`torch.float8_e4m3fn`,
/// `TensorProto.FLOAT8E4M3FN`, `ml_dtypes.float8_e4m3`, `jnp.bfloat16`, `np.float16`) is
/// looked up among that library's names only; a bare name among all of them (a bare name
/// means the same in every library that has it).
///
/// Library `short` is the `eXmY` spellings of papers and specs (OCP's `E2M1`, NVIDIA's
/// `UE5M3`), matched in lower case. The one ambiguous spelling, `e4m3` (OCP's E4M3 has no
/// infinities; the IEEE-like E4M3 of ml_dtypes and LLVM has them), is refused with both
/// actlut names; `float8_e4m3` is ml_dtypes' and LLVM's IEEE-like one, never actlut's
/// `fp8_e4m3`.
pub const FORMAT_NAMES: &[(&str, &str, FormatName)] = &[
    // PyTorch's dtypes (`torch.<name>`).
    ("PyTorch", "float16", FormatName::Is(Format::F16)),
    ("PyTorch", "half", FormatName::Is(Format::F16)),
    ("PyTorch", "bfloat16", FormatName::Is(Format::Bf16)),
    ("PyTorch", "float8_e4m3fn", FormatName::Is(Format::Fp8E4M3)),
    ("PyTorch", "float8_e5m2", FormatName::Is(Format::Fp8E5M2)),
    (
        "PyTorch",
        "float8_e4m3fnuz",
        FormatName::Is(Format::Fp8E4M3Fnuz),
    ),
    (
        "PyTorch",
        "float8_e5m2fnuz",
        FormatName::Is(Format::Fp8E5M2Fnuz),
    ),
    (
        "PyTorch",
        "float8_e8m0fnu",
        FormatName::Is(Format::Fp8E8M0Fnu),
    ),
    (
        "PyTorch",
        "float4_e2m1fn_x2",
        FormatName::Refused(
            "PyTorch's float4_e2m1fn_x2 packs two FP4 E2M1 codes in a byte; actlut's fp4_e2m1 \
             is one code in the low 4 bits of a byte: unpack the pairs first",
        ),
    ),
    // ONNX's element types (`TensorProto.<NAME>`).
    ("ONNX", "FLOAT16", FormatName::Is(Format::F16)),
    ("ONNX", "BFLOAT16", FormatName::Is(Format::Bf16)),
    ("ONNX", "FLOAT8E4M3FN", FormatName::Is(Format::Fp8E4M3)),
    (
        "ONNX",
        "FLOAT8E4M3FNUZ",
        FormatName::Is(Format::Fp8E4M3Fnuz),
    ),
    ("ONNX", "FLOAT8E5M2", FormatName::Is(Format::Fp8E5M2)),
    (
        "ONNX",
        "FLOAT8E5M2FNUZ",
        FormatName::Is(Format::Fp8E5M2Fnuz),
    ),
    ("ONNX", "FLOAT8E8M0", FormatName::Is(Format::Fp8E8M0Fnu)),
    ("ONNX", "FLOAT4E2M1", FormatName::Is(Format::Fp4E2M1)),
    // numpy's own (`np.<name>`); ml_dtypes' are the formats' dtype names.
    ("numpy", "half", FormatName::Is(Format::F16)),
    // Short names, matched in lower case.
    ("short", "e4m3fn", FormatName::Is(Format::Fp8E4M3)),
    ("short", "e5m2", FormatName::Is(Format::Fp8E5M2)),
    ("short", "e4m3fnuz", FormatName::Is(Format::Fp8E4M3Fnuz)),
    ("short", "e5m2fnuz", FormatName::Is(Format::Fp8E5M2Fnuz)),
    ("short", "e2m3", FormatName::Is(Format::Fp6E2M3)),
    ("short", "e2m3fn", FormatName::Is(Format::Fp6E2M3)),
    ("short", "e3m2", FormatName::Is(Format::Fp6E3M2)),
    ("short", "e3m2fn", FormatName::Is(Format::Fp6E3M2)),
    ("short", "e2m1", FormatName::Is(Format::Fp4E2M1)),
    ("short", "e2m1fn", FormatName::Is(Format::Fp4E2M1)),
    ("short", "e3m4", FormatName::Is(Format::Fp8E3M4)),
    (
        "short",
        "e4m3b11fnuz",
        FormatName::Is(Format::Fp8E4M3B11Fnuz),
    ),
    ("short", "e5m3fnu", FormatName::Is(Format::Fp8E5M3Fnu)),
    ("short", "ue5m3", FormatName::Is(Format::Fp8E5M3Fnu)),
    ("short", "e8m0", FormatName::Is(Format::Fp8E8M0Fnu)),
    ("short", "e8m0fnu", FormatName::Is(Format::Fp8E8M0Fnu)),
    (
        "short",
        "e4m3",
        FormatName::Refused(
            "`e4m3` names two formats: OCP's E4M3 without infinities (max 448) is actlut's \
             fp8_e4m3 (ml_dtypes float8_e4m3fn, PyTorch float8_e4m3fn); the IEEE-like E4M3 \
             with infinities (max 240) is fp8_e4m3ieee (ml_dtypes float8_e4m3)",
        ),
    ),
    (
        "short",
        "fp8",
        FormatName::Refused(
            "`fp8` names several formats: actlut's are fp8_e4m3 (OCP E4M3FN), fp8_e5m2, \
             fp8_e4m3fnuz, fp8_e5m2fnuz, fp8_e3m4, fp8_e4m3ieee, fp8_e4m3b11fnuz, \
             fp8_e5m3fnu and fp8_e8m0fnu",
        ),
    ),
];

/// A library prefix and the library whose names it introduces (`FORMAT_NAMES`' first
/// column; `ml_dtypes` is the formats' dtype names).
const PREFIXES: &[(&str, &str)] = &[
    ("torch.", "PyTorch"),
    ("onnx.TensorProto.", "ONNX"),
    ("TensorProto.", "ONNX"),
    ("ml_dtypes.", "ml_dtypes"),
    ("jax.numpy.", "ml_dtypes"),
    ("jnp.", "ml_dtypes"),
    ("numpy.", "numpy"),
    ("np.", "numpy"),
];

/// What `name` of `library` means (`None`: any library's). ml_dtypes' names are the dtype
/// names of the formats; numpy's are `float16` (f16's dtype name) and `half`.
fn library_name(library: Option<&str>, name: &str) -> Option<FormatName> {
    let dtype = || {
        Format::ALL
            .into_iter()
            .find(|f| f.dtype_name() == name)
            .map(FormatName::Is)
    };
    match library {
        Some("ml_dtypes") => dtype(),
        Some("numpy") if name == "float16" => Some(FormatName::Is(Format::F16)),
        _ => {
            let row = FORMAT_NAMES.iter().find(|(lib, n, _)| {
                library.is_none_or(|l| l == *lib)
                    && (*n == name || (*lib == "short" && n.eq_ignore_ascii_case(name)))
            });
            match (row, library) {
                (Some(&(_, _, meaning)), _) => Some(meaning),
                (None, None) => dtype(),
                (None, Some(_)) => None,
            }
        }
    }
}

/// The error of parsing a format name that is not one: it repeats the name and either says
/// why another library's name is refused ([`FormatName::Refused`]: it names actlut's format
/// for it) or lists actlut's names and says where the other libraries' are listed (no heap:
/// `no_std` without `alloc`).
///
/// ```
/// use actlut_core::Format;
/// let err = "fp8_e4m3x".parse::<Format>().unwrap_err();
/// assert_eq!(err.name(), "fp8_e4m3x");
/// assert!(err.to_string().starts_with("unknown format name `fp8_e4m3x`"));
/// let err = "e4m3".parse::<Format>().unwrap_err();
/// assert!(err.refusal().is_some() && err.to_string().contains("fp8_e4m3ieee"));
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct UnknownFormat {
    kept: Kept,
    refusal: Option<&'static str>,
}

impl UnknownFormat {
    /// The error for the unknown name `s`.
    pub fn new(s: &str) -> UnknownFormat {
        UnknownFormat {
            kept: Kept::new(s),
            refusal: None,
        }
    }

    /// The rejected name, or its first 40 bytes when it is longer (see
    /// [`is_truncated`](Self::is_truncated)).
    pub fn name(&self) -> &str {
        self.kept.name()
    }

    /// Whether [`name`](Self::name) is only the beginning of the rejected name.
    pub fn is_truncated(&self) -> bool {
        self.kept.truncated
    }

    /// Why another library's name is refused, naming actlut's format for it; `None` for a
    /// name no library listed in [`FORMAT_NAMES`] gives.
    pub fn refusal(&self) -> Option<&'static str> {
        self.refusal
    }
}

impl core::fmt::Display for UnknownFormat {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let (name, more) = (self.name(), self.kept.more());
        if let Some(why) = self.refusal {
            return write!(f, "format name `{name}{more}` refused: {why}");
        }
        write!(f, "unknown format name `{name}{more}`: expected one of")?;
        for (i, format) in Format::ALL.iter().enumerate() {
            let sep = if i == 0 { " " } else { ", " };
            write!(f, "{sep}{}", format.name())?;
        }
        f.write_str(
            " (or its feature name, such as `fp8-e4m3`, or its numpy dtype name, such as \
             `float8_e4m3fn`); PyTorch's, ONNX's and short names (`torch.float8_e4m3fn`, \
             `FLOAT8E4M3FN`, `e4m3fn`) are listed in actlut_core::names::FORMAT_NAMES and \
             docs/SEMANTICS.md (\"Format names\")",
        )
    }
}

impl core::fmt::Debug for UnknownFormat {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("UnknownFormat")
            .field("name", &self.name())
            .field("truncated", &self.kept.truncated)
            .field("refusal", &self.refusal)
            .finish()
    }
}

impl core::error::Error for UnknownFormat {}

impl core::str::FromStr for Format {
    type Err = UnknownFormat;

    /// Parses actlut's name (`fp8_e4m3`), a feature name (`fp8-e4m3`), a numpy dtype name
    /// (`float8_e4m3fn`, `bfloat16`, `float16`: ml_dtypes' and numpy's, [`Format::dtype_name`]),
    /// or another library's name as that library means it ([`FORMAT_NAMES`]: PyTorch's
    /// `torch.float8_e4m3fn`, ONNX's `FLOAT8E4M3FN`, the short `e4m3fn`), with or without
    /// the library's prefix. A name that would be ambiguous (`e4m3`) or that no actlut
    /// format is (`torch.float4_e2m1fn_x2`) is an error naming actlut's format for it.
    ///
    /// ```
    /// use actlut_core::Format;
    /// assert_eq!("fp8-e4m3".parse(), Ok(Format::Fp8E4M3));
    /// assert_eq!("float8_e4m3fn".parse(), Ok(Format::Fp8E4M3));
    /// assert_eq!("torch.float8_e4m3fn".parse(), Ok(Format::Fp8E4M3));
    /// assert_eq!("E4M3FN".parse(), Ok(Format::Fp8E4M3));
    /// assert_eq!("float8_e4m3".parse(), Ok(Format::Fp8E4M3Ieee)); // ml_dtypes' IEEE-like one
    /// assert!("e4m3".parse::<Format>().is_err()); // two formats go by that name
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if let Some(f) = Format::ALL
            .into_iter()
            .find(|f| f.name() == s || f.feature() == s)
        {
            return Ok(f);
        }
        let (library, name) = PREFIXES
            .iter()
            .find_map(|(prefix, lib)| s.strip_prefix(prefix).map(|rest| (Some(*lib), rest)))
            .unwrap_or((None, s));
        match library_name(library, name) {
            Some(FormatName::Is(f)) => Ok(f),
            Some(FormatName::Refused(why)) => Err(UnknownFormat {
                kept: Kept::new(s),
                refusal: Some(why),
            }),
            None => Err(UnknownFormat::new(s)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;
    use std::vec::Vec;
    use std::{format, vec};

    #[test]
    fn each_engine_name_is_listed_once_and_is_not_an_actlut_name() {
        for (i, (name, op)) in ENGINE_NAMES.iter().enumerate() {
            assert!(
                ENGINE_NAMES[..i].iter().all(|(n, _)| n != name),
                "{name} twice"
            );
            assert_eq!(Function::from_name(name), None, "{name} is actlut's own");
            // The op text is canonical, and parses (or names its missing constant).
            match op.parse::<Op>() {
                Ok(o) => assert_eq!(std::format!("{o}"), *op, "{name}"),
                Err(OpError::Missing { .. }) => {}
                Err(e) => panic!("{name}: {e}"),
            }
        }
    }

    /// Every key of transformers' `ACT2CLS` (24 names) and of vLLM's two registries parses as
    /// an op, or (for a trained constant without default) as the error that names it.
    #[test]
    fn transformers_and_vllm_names_parse() {
        let transformers = [
            "gelu",
            "gelu_10",
            "gelu_fast",
            "gelu_new",
            "gelu_python",
            "gelu_pytorch_tanh",
            "gelu_python_tanh",
            "gelu_accurate",
            "laplace",
            "leaky_relu",
            "linear",
            "mish",
            "quick_gelu",
            "relu",
            "relu2",
            "relu6",
            "sigmoid",
            "silu",
            "swish",
            "tanh",
            "prelu",
            "xielu",
            "hardswish",
            "sqrtsoftplus",
        ];
        assert_eq!(transformers.len(), 24);
        let vllm = [
            "gelu",
            "gelu_fast",
            "gelu_new",
            "gelu_pytorch_tanh",
            "relu",
            "relu2",
            "silu",
            "quick_gelu",
            "tanh",
            "sigmoid",
            "xielu",
            "geglu",
            "swigluoai",
            "identity",
        ];
        for name in transformers.into_iter().chain(vllm) {
            match name.parse::<Op>() {
                Ok(op) => assert!(!op.is_derivative(), "{name}"),
                Err(OpError::Missing { function, constant }) => {
                    assert!(
                        matches!((name, constant), ("prelu", "weight") | ("xielu", "alpha_p")),
                        "{name}: {function:?} {constant}"
                    );
                }
                Err(e) => panic!("{name}: {e}"),
            }
        }
        let p = |s: &str| s.parse::<Op>().map(|o| std::format!("{o}"));
        assert_eq!(p("gelu_10").as_deref(), Ok("gelu_clipped(min=-10,max=10)"));
        assert_eq!(p("swigluoai").as_deref(), Ok("swiglu_oai"));
        assert_eq!(p("linear").as_deref(), Ok("identity"));
        assert_eq!(p("gelu_fast").as_deref(), Ok("gelu_tanh"));
        assert_eq!(p("quick_gelu").as_deref(), Ok("gelu_quick"));
    }

    #[test]
    fn engines_names_whose_defaults_differ_are_not_accepted() {
        // ONNX's HardSigmoid and burn's hard_sigmoid: slope 0.2 by default.
        for name in [
            "HardSigmoid",
            "hard_sigmoid",
            "GELU(approximate=tanh)",
            "Swish",
        ] {
            assert_eq!(from_engine_name(name), None, "{name}");
            assert!(op_from_engine_name(name).is_none(), "{name}");
        }
        // Names of ops with constants are not plain functions.
        assert_eq!(from_engine_name("gelu_10"), None);
        assert_eq!(from_engine_name("PReLU"), None);
        assert_eq!(from_engine_name("LeakyReLU"), Some(Function::LeakyRelu));
    }

    /// The prefix that introduces `library`'s names (its first in `PREFIXES`).
    fn prefix_of(library: &str) -> Option<&'static str> {
        PREFIXES
            .iter()
            .find(|(_, lib)| *lib == library)
            .map(|(p, _)| *p)
    }

    #[test]
    fn every_format_parses_from_its_name_feature_and_dtype_name() {
        for f in Format::ALL {
            assert_eq!(f.name().parse(), Ok(f));
            assert_eq!(f.feature().parse(), Ok(f));
            assert_eq!(f.dtype_name().parse(), Ok(f), "{}", f.dtype_name());
            assert_eq!(format!("ml_dtypes.{}", f.dtype_name()).parse(), Ok(f));
            assert_eq!(format!("jnp.{}", f.dtype_name()).parse(), Ok(f));
        }
    }

    /// Each row parses as it says, bare and with its library's prefix; a bare name means
    /// one thing in every library; no row shadows an actlut name, feature or dtype name.
    #[test]
    fn each_library_name_parses_as_its_library_means_it() {
        let actlut_names: Vec<&str> = Format::ALL
            .iter()
            .flat_map(|f| [f.name(), f.feature(), f.dtype_name()])
            .collect();
        for (i, &(lib, name, meaning)) in FORMAT_NAMES.iter().enumerate() {
            for (other_lib, other, other_meaning) in &FORMAT_NAMES[..i] {
                if other.eq_ignore_ascii_case(name) {
                    assert_eq!(*other_meaning, meaning, "{name} ({lib}, {other_lib})");
                    assert_ne!(lib, *other_lib, "{name} twice in {lib}");
                }
            }
            if let FormatName::Is(f) = meaning {
                assert!(
                    !actlut_names.contains(&name) || f.dtype_name() == name,
                    "{name} shadows an actlut name"
                );
            }
            let mut spellings = vec![name.to_string()];
            spellings.extend(prefix_of(lib).map(|p| format!("{p}{name}")));
            if lib == "short" {
                spellings.push(name.to_ascii_uppercase());
            }
            for s in spellings {
                match meaning {
                    FormatName::Is(f) => assert_eq!(s.parse(), Ok(f), "{s}"),
                    FormatName::Refused(why) => {
                        let err = s.parse::<Format>().unwrap_err();
                        assert_eq!(err.refusal(), Some(why), "{s}");
                        assert!(err.to_string().contains(why));
                        assert!(
                            Format::ALL.iter().any(|f| why.contains(f.name())),
                            "{s}: the refusal names no actlut format"
                        );
                    }
                }
            }
        }
    }

    /// The issue's bad inputs: other libraries' names are taken as they mean them or
    /// refused naming actlut's format, never silently another format.
    #[test]
    fn other_libraries_e4m3_names_never_mean_another_format() {
        for s in [
            "float8_e4m3fn",
            "e4m3fn",
            "E4M3FN",
            "torch.float8_e4m3fn",
            "ml_dtypes.float8_e4m3fn",
            "FLOAT8E4M3FN",
            "TensorProto.FLOAT8E4M3FN",
            "onnx.TensorProto.FLOAT8E4M3FN",
        ] {
            assert_eq!(s.parse(), Ok(Format::Fp8E4M3), "{s}");
        }
        for s in ["float8_e4m3", "ml_dtypes.float8_e4m3", "jnp.float8_e4m3"] {
            assert_eq!(s.parse(), Ok(Format::Fp8E4M3Ieee), "{s}");
        }
        let err = "e4m3".parse::<Format>().unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.contains("fp8_e4m3 ") && msg.contains("fp8_e4m3ieee"),
            "{msg}"
        );
        // PyTorch has no IEEE-like E4M3 and no E3M4: no guess from the bare name.
        for s in [
            "torch.float8_e4m3",
            "torch.float8_e3m4",
            "np.bfloat16",
            "TensorProto.float16",
        ] {
            let err = s.parse::<Format>().unwrap_err();
            assert_eq!(err.refusal(), None, "{s}");
            assert!(err
                .to_string()
                .starts_with(&format!("unknown format name `{s}`")));
        }
        assert_eq!("np.float16".parse(), Ok(Format::F16));
        assert_eq!("torch.half".parse(), Ok(Format::F16));
        assert_eq!("torch.float8_e8m0fnu".parse(), Ok(Format::Fp8E8M0Fnu));
        assert_eq!("FLOAT8E8M0".parse(), Ok(Format::Fp8E8M0Fnu));
        assert!("torch.float4_e2m1fn_x2"
            .parse::<Format>()
            .unwrap_err()
            .to_string()
            .contains("fp4_e2m1"));
    }

    #[test]
    fn an_unknown_format_name_lists_every_format() {
        let err = "fp9".parse::<Format>().unwrap_err();
        let msg = err.to_string();
        for f in Format::ALL {
            assert!(msg.contains(f.name()), "{msg}");
        }
        assert!(msg.contains("FORMAT_NAMES"));
        let long = "x".repeat(100);
        let err = long.parse::<Format>().unwrap_err();
        assert!(err.is_truncated() && err.name().len() == KEPT_NAME);
        assert!(err.to_string().contains("x…`"));
    }
}
