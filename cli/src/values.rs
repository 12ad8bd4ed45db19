//! Value parsers of the command line, each derived from its list (`Format::ALL`,
//! `Function::ALL`, `QuantType::ALL`, `Rounding::ALL`): `--help` shows the
//! list's names as the possible values, and an unknown name is clap's
//! `ValueValidation` error naming the option and the names it takes.

use std::ffi::OsStr;

use actlut::{Format, Function, Op, OpError, UnknownFunction};
use clap::builder::{PossibleValue, StringValueParser, TypedValueParser};

/// A value parser from a list: [`possible_values`](TypedValueParser::possible_values)
/// for the help, and a function from the given text for the value (which may accept
/// more spellings than the help lists, such as feature names and other engines' names).
#[derive(Clone)]
pub(crate) struct Named<T> {
    values: fn() -> Vec<PossibleValue>,
    parse: fn(String) -> Result<T, String>,
}

impl<T> Named<T> {
    pub(crate) const fn new(
        values: fn() -> Vec<PossibleValue>,
        parse: fn(String) -> Result<T, String>,
    ) -> Named<T> {
        Named { values, parse }
    }
}

impl<T: Clone + Send + Sync + 'static> TypedValueParser for Named<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<T, clap::Error> {
        StringValueParser::new()
            .try_map(self.parse)
            .parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new((self.values)().into_iter()))
    }
}

/// `names` joined with `, `: the names an error lists (the lists of `quant`'s options).
#[cfg(feature = "quant")]
pub(crate) fn listed<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    names.into_iter().collect::<Vec<_>>().join(", ")
}

/// A format, by its name (`fp8_e4m3`), its cargo feature (`fp8-e4m3`), its numpy dtype name
/// (`float8_e4m3fn`) or another library's name for it (`torch.float8_e4m3fn`): `Format`'s
/// `FromStr`, whose error names actlut's format for a refused name (`e4m3`).
pub(crate) fn format() -> Named<Format> {
    Named::new(
        || {
            Format::ALL
                .iter()
                .map(|f| {
                    PossibleValue::new(f.name())
                        .alias(f.feature())
                        .alias(f.dtype_name())
                })
                .collect()
        },
        |s| s.parse().map_err(|e: actlut::UnknownFormat| e.to_string()),
    )
}

/// An op, by its text (`softcap(cap=30)`, `leaky_relu(alpha=0.2)`, `gelu_derivative`): a
/// function by its name (`gelu_tanh`), its cargo feature (`gelu-tanh`) or another engine's name
/// for it (`gelu_10`, `SiLU`), with constants in parentheses (`Op`'s `FromStr`, whose error
/// names the constant at fault: missing, unknown, or out of its domain). `--help` lists the
/// functions whose constants all have defaults.
pub(crate) fn op() -> Named<Op> {
    Named::new(
        || {
            Function::ALL
                .iter()
                .filter(|a| a.has_defaults())
                .map(|a| PossibleValue::new(a.name()).alias(a.feature()))
                .collect()
        },
        |s| s.parse().map_err(|e| op_error(&e)),
    )
}

/// The message of an op's error: for an unknown function, [`actlut::UnknownFunction`]'s (which
/// lists actlut's names); otherwise the error's own, naming the constant at fault.
pub(crate) fn op_error(e: &OpError) -> String {
    match e {
        OpError::UnknownFunction { name } => UnknownFunction::new(name.as_str()).to_string(),
        _ => e.to_string(),
    }
}
