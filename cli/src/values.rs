//! Value parsers of the command line, each derived from its list (`Format::ALL`,
//! `Function::ALL`, `QuantType::ALL`, `Rounding::ALL`): `--help` shows the
//! list's names as the possible values, and an unknown name is clap's
//! `ValueValidation` error naming the option and the names it takes.

use std::ffi::OsStr;

use actlut::{Format, Function};
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

/// `names` joined with `, `: the names an error lists.
pub(crate) fn listed<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    names.into_iter().collect::<Vec<_>>().join(", ")
}

/// A format, by its name (`fp8_e4m3`) or its cargo feature (`fp8-e4m3`).
pub(crate) fn format() -> Named<Format> {
    Named::new(
        || {
            Format::ALL
                .iter()
                .map(|f| PossibleValue::new(f.name()).alias(f.feature()))
                .collect()
        },
        |s| {
            Format::ALL
                .into_iter()
                .find(|f| f.name() == s || f.feature() == s)
                .ok_or_else(|| {
                    format!(
                        "unknown format `{s}`: expected one of {}",
                        listed(Format::ALL.iter().map(|f| f.name()))
                    )
                })
        },
    )
}

/// A function, by its name (`gelu_tanh`), its cargo feature (`gelu-tanh`) or
/// another engine's name for it (`Function`'s `FromStr`).
pub(crate) fn function() -> Named<Function> {
    Named::new(
        || {
            Function::ALL
                .iter()
                .map(|a| PossibleValue::new(a.name()).alias(a.feature()))
                .collect()
        },
        |s| {
            s.parse()
                .map_err(|e: actlut::UnknownFunction| e.to_string())
        },
    )
}
