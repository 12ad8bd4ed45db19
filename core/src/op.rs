//! [`Op`]: what one table computes apart from its format — a [`Function`], the values of its
//! constants, and whether it is the derivative — with its canonical text and its errors.

use crate::function::Const;
use crate::names;
use crate::rational::{Rational, RationalError};
use crate::Function;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::str::FromStr;

/// The most constants a function has (xielu's `alpha_p`, `alpha_n`, `beta`, `eps`).
pub const MAX_CONSTANTS: usize = 4;

/// What one table computes apart from its format: a [`Function`], the exact values of its
/// constants ([`Rational`]s), and whether it is the function's derivative. A table's key is
/// `(Op, Format)`.
///
/// `Copy`, no heap. Equality and hashing are those of the function, the constants' exact
/// values and the derivative flag: `leaky_relu(alpha=0.01)` equals `leaky_relu` (0.01 is the
/// default) and differs from `leaky_relu(alpha=1/100.0000001)`.
///
/// # Canonical text
///
/// [`Display`](fmt::Display) writes the function's name when every constant has its default
/// (`gelu`, `elu`, `leaky_relu`); otherwise every constant in the function's declared order,
/// each value in [`Rational`]'s canonical spelling, without spaces: `softcap(cap=30)`,
/// `elu(alpha=0.5)`, `hardtanh(min=-2,max=2)`. A derivative inserts `_derivative` after the
/// name: `gelu_derivative`, `leaky_relu_derivative(alpha=0.2)`. A table's name is
/// `<op>_<format>`: `softcap(cap=30)_bf16`.
///
/// [`FromStr`] reads the canonical text, with spaces allowed around `=`, `,` and the
/// parentheses, constants in any order, those at their default optional, a function by its
/// feature name too (`gelu-tanh`), and every name of [`names::ENGINE_NAMES`] (transformers'
/// `gelu_10`, vLLM's `swigluoai`, PyTorch's `SiLU`, …).
///
/// ```
/// use actlut_core::{Function, Op, Rational};
/// let op: Op = "softcap(cap=30)".parse()?;
/// assert_eq!(op.function(), Function::Softcap);
/// assert_eq!(op.constant("cap"), Some(Rational::from(30)));
/// assert_eq!(op.to_string(), "softcap(cap=30)");
///
/// let op = Op::new(Function::LeakyRelu)?.with("alpha", "0.2".parse()?)?;
/// assert_eq!(op.to_string(), "leaky_relu(alpha=0.2)");
/// assert_eq!(Op::new(Function::LeakyRelu)?.to_string(), "leaky_relu");
/// assert_eq!("swigluoai".parse::<Op>()?.to_string(), "swiglu_oai");
/// assert_eq!(
///     "gelu_10".parse::<Op>()?.to_string(),
///     "gelu_clipped(min=-10,max=10)"
/// );
///
/// // A constant without default must be given; the error names it.
/// let e = Op::new(Function::Softcap).unwrap_err();
/// assert_eq!(e.to_string(), "softcap needs its constant `cap` (it has no default): write softcap(cap=...)");
/// assert!("prelu".parse::<Op>().unwrap_err().to_string().contains("`weight`"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy)]
pub struct Op {
    function: Function,
    /// The constants in declared order; the slots past the function's count are unused.
    values: [Const; MAX_CONSTANTS],
    derivative: bool,
}

impl PartialEq for Op {
    fn eq(&self, other: &Op) -> bool {
        self.function == other.function
            && self.derivative == other.derivative
            && self.values().zip(other.values()).all(|(a, b)| a == b)
    }
}

impl Eq for Op {}

impl Hash for Op {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.function.hash(state);
        self.derivative.hash(state);
        for v in self.values() {
            v.hash(state);
        }
    }
}

impl Op {
    /// `function` with every constant at its default.
    ///
    /// # Errors
    ///
    /// [`OpError::Missing`] naming the first constant without default (softcap's `cap`,
    /// prelu's `weight`, gelu_clipped's `min`, xielu's `alpha_p`).
    pub fn new(function: Function) -> Result<Op, OpError> {
        let mut values = [Const::UNUSED; MAX_CONSTANTS];
        for (slot, c) in values.iter_mut().zip(function.constants()) {
            let Some(d) = c.default else {
                return Err(OpError::Missing {
                    function,
                    constant: c.name,
                });
            };
            *slot = Const::of(d);
        }
        Ok(Op {
            function,
            values,
            derivative: false,
        })
    }

    /// `function` with the constants `given` (by name, in any order) and the defaults of the
    /// others.
    ///
    /// ```
    /// use actlut_core::{Function, Op, Rational};
    /// let op = Op::with_constants(Function::Softcap, &[("cap", Rational::from(30))])?;
    /// assert_eq!(op.to_string(), "softcap(cap=30)");
    /// # Ok::<(), actlut_core::OpError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// A name the function does not have ([`OpError::UnknownConstant`]) or given twice
    /// ([`OpError::Twice`]), a value outside the constant's domain ([`OpError::Domain`]), a
    /// broken cross-constraint ([`OpError::Constraint`]: hardtanh's `min` above its `max`),
    /// or a constant without default that is not given ([`OpError::Missing`]).
    pub fn with_constants(function: Function, given: &[(&str, Rational)]) -> Result<Op, OpError> {
        let declared = function.constants();
        let mut values: [Option<Rational>; MAX_CONSTANTS] = [None; MAX_CONSTANTS];
        for (name, value) in given {
            let Some(i) = declared.iter().position(|c| c.name == *name) else {
                return Err(OpError::UnknownConstant {
                    function,
                    name: Text::new(name),
                });
            };
            if values[i].is_some() {
                return Err(OpError::Twice {
                    function,
                    constant: declared[i].name,
                });
            }
            values[i] = Some(*value);
        }
        let mut out = [Rational::ZERO; MAX_CONSTANTS];
        for (i, c) in declared.iter().enumerate() {
            out[i] = match (values[i], c.default) {
                (Some(v), _) | (None, Some(v)) => v,
                (None, None) => {
                    return Err(OpError::Missing {
                        function,
                        constant: c.name,
                    })
                }
            };
        }
        Op::from_values(function, &out[..declared.len()])
    }

    /// `function` with every constant given, in declared order; checked.
    fn from_values(function: Function, values: &[Rational]) -> Result<Op, OpError> {
        let declared = function.constants();
        debug_assert_eq!(values.len(), declared.len());
        for (c, &v) in declared.iter().zip(values) {
            if !c.domain.contains(v) {
                return Err(OpError::Domain {
                    function,
                    constant: c.name,
                    value: v,
                    domain: c.domain,
                });
            }
        }
        if let Err((constant, rule)) = function.check(values) {
            let i = declared.iter().position(|c| c.name == constant);
            return Err(OpError::Constraint {
                function,
                constant,
                value: i.map_or(Rational::ZERO, |i| values[i]),
                rule,
            });
        }
        let mut slots = [Const::UNUSED; MAX_CONSTANTS];
        for (slot, &v) in slots.iter_mut().zip(values) {
            *slot = Const::of(v);
        }
        Ok(Op {
            function,
            values: slots,
            derivative: false,
        })
    }

    /// An op from its parts as [`prepared`](Self::prepared) gives them, in a `const`
    /// context (the expansion of actlut's macros, which compute them when they expand: an op
    /// in a `static`). Not checked: use [`Op::with_constants`] otherwise.
    #[doc(hidden)]
    pub const fn from_prepared(
        function: Function,
        values: [(Rational, f64, f64); MAX_CONSTANTS],
        derivative: bool,
    ) -> Op {
        let mut slots = [Const::UNUSED; MAX_CONSTANTS];
        let mut i = 0;
        while i < MAX_CONSTANTS {
            slots[i] = Const {
                value: values[i].0,
                hi: values[i].1,
                lo: values[i].2,
            };
            i += 1;
        }
        Op {
            function,
            values: slots,
            derivative,
        }
    }

    /// The parts [`from_prepared`](Self::from_prepared) takes: each constant slot's exact
    /// value and its nearest `f64` pair.
    #[doc(hidden)]
    pub fn prepared(&self) -> [(Rational, f64, f64); MAX_CONSTANTS] {
        self.values.map(|c| (c.value, c.hi, c.lo))
    }

    /// The same op with the constant `name` set to `value` (the others kept).
    ///
    /// # Errors
    ///
    /// As [`with_constants`](Self::with_constants): an unknown name, a value outside the
    /// domain, a broken cross-constraint.
    pub fn with(self, name: &str, value: Rational) -> Result<Op, OpError> {
        let declared = self.function.constants();
        let Some(i) = declared.iter().position(|c| c.name == name) else {
            return Err(OpError::UnknownConstant {
                function: self.function,
                name: Text::new(name),
            });
        };
        let mut values = [Rational::ZERO; MAX_CONSTANTS];
        for (v, c) in values.iter_mut().zip(self.values()) {
            *v = c;
        }
        values[i] = value;
        let op = Op::from_values(self.function, &values[..declared.len()])?;
        Ok(Op {
            derivative: self.derivative,
            ..op
        })
    }

    /// The same op, or its derivative (`true`).
    pub const fn with_derivative(self, derivative: bool) -> Op {
        Op { derivative, ..self }
    }

    /// The function.
    pub const fn function(&self) -> Function {
        self.function
    }

    /// Whether the op is the function's derivative.
    pub const fn is_derivative(&self) -> bool {
        self.derivative
    }

    /// The value of the constant `name`, or `None` when the function has none of that name.
    pub fn constant(&self, name: &str) -> Option<Rational> {
        self.constants().find(|(n, _)| *n == name).map(|(_, v)| v)
    }

    /// Every constant, `(name, value)`, in declared order.
    pub fn constants(&self) -> impl Iterator<Item = (&'static str, Rational)> + '_ {
        self.function
            .constants()
            .iter()
            .map(|c| c.name)
            .zip(self.values())
    }

    /// The constants' values in declared order.
    fn values(&self) -> impl Iterator<Item = Rational> + '_ {
        self.values[..self.function.constants().len()]
            .iter()
            .map(|c| c.value)
    }

    /// Whether every constant has its default (the canonical text is then the function's
    /// name, with `_derivative` for a derivative).
    pub fn is_default(&self) -> bool {
        self.function
            .constants()
            .iter()
            .zip(self.values())
            .all(|(c, v)| c.default == Some(v))
    }

    /// The constants as the evaluations read them.
    pub(crate) fn args(&self) -> &[Const] {
        &self.values[..self.function.constants().len()]
    }

    /// Looks an op up by a function's name or feature name (at its defaults), or an engine's
    /// name ([`names::ENGINE_NAMES`]); `None` for anything else, and for a name whose function
    /// has a constant without default. [`FromStr`] parses constants too and says what is
    /// wrong.
    ///
    /// ```
    /// use actlut_core::{Function, Op};
    /// assert_eq!(Op::from_name("gelu-tanh"), Some(Op::from(Function::GeluTanh)));
    /// assert_eq!(Op::from_name("identity"), Some(Op::from(Function::Identity)));
    /// assert_eq!(Op::from_name("softcap"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Op> {
        match Function::from_name(name) {
            Some(f) => Op::new(f).ok(),
            None => names::op_from_engine_name(name).and_then(Result::ok),
        }
    }

    /// Writes the canonical text.
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.function.name())?;
        if self.derivative {
            f.write_str("_derivative")?;
        }
        if self.is_default() {
            return Ok(());
        }
        f.write_str("(")?;
        for (i, (name, value)) in self.constants().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{name}={value}")?;
        }
        f.write_str(")")
    }
}

/// A function with every constant at its default.
///
/// # Panics
///
/// When the function has a constant without default (softcap, prelu, gelu_clipped, xielu):
/// use [`Op::with_constants`], or [`Op::new`] for the `Err`.
impl From<Function> for Op {
    fn from(function: Function) -> Op {
        Op::new(function).unwrap_or_else(|e| panic!("{e}"))
    }
}

impl fmt::Display for Op {
    /// The canonical text: see [`Op`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f)
    }
}

impl fmt::Debug for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Op(")?;
        self.write(f)?;
        f.write_str(")")
    }
}

/// The first bytes of a text kept by an error (no heap): a rejected name or op text.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Text {
    bytes: [u8; Text::KEPT],
    len: u8,
    truncated: bool,
}

impl Text {
    /// The most bytes kept; a longer text is cut at a character boundary and shown with `…`.
    pub const KEPT: usize = 48;

    /// The text `s`, or its first bytes.
    pub fn new(s: &str) -> Text {
        let mut len = s.len().min(Text::KEPT);
        while !s.is_char_boundary(len) {
            len -= 1;
        }
        let mut bytes = [0; Text::KEPT];
        bytes[..len].copy_from_slice(&s.as_bytes()[..len]);
        Text {
            bytes,
            len: len as u8,
            truncated: len < s.len(),
        }
    }

    /// The kept text.
    pub fn as_str(&self) -> &str {
        core::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or_default()
    }

    /// Whether [`as_str`](Self::as_str) is only the beginning of the text.
    pub fn is_truncated(&self) -> bool {
        self.truncated
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())?;
        if self.truncated {
            f.write_str("…")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.as_str())?;
        if self.truncated {
            f.write_str("…")?;
        }
        Ok(())
    }
}

/// Why an [`Op`] cannot be made: each error names the constant (or the text) at fault.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum OpError {
    /// A constant without default was not given.
    Missing {
        /// The function.
        function: Function,
        /// The constant to give.
        constant: &'static str,
    },
    /// The function has no constant of this name.
    UnknownConstant {
        /// The function.
        function: Function,
        /// The name given.
        name: Text,
    },
    /// A constant given twice.
    Twice {
        /// The function.
        function: Function,
        /// The constant.
        constant: &'static str,
    },
    /// A value outside the constant's domain (softcap's `cap` ≤ 0).
    Domain {
        /// The function.
        function: Function,
        /// The constant.
        constant: &'static str,
        /// The value given.
        value: Rational,
        /// What it must be.
        domain: crate::function::Domain,
    },
    /// A constraint among the constants is broken (hardtanh's `min` above its `max`).
    Constraint {
        /// The function.
        function: Function,
        /// The constant at fault.
        constant: &'static str,
        /// Its value.
        value: Rational,
        /// The rule it breaks (`must not exceed max`).
        rule: &'static str,
    },
    /// A constant's value is not a number, or not a finite one of the size a [`Rational`]
    /// holds.
    Value {
        /// The function.
        function: Function,
        /// The constant.
        constant: Text,
        /// Why the value is not one.
        error: RationalError,
    },
    /// No function (and no engine's name) of this name.
    UnknownFunction {
        /// The name given.
        name: Text,
    },
    /// Not an op's text: `name`, or `name(constant=value, …)`.
    Syntax {
        /// The text given.
        text: Text,
    },
}

impl fmt::Display for OpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpError::Missing { function, constant } => write!(
                f,
                "{0} needs its constant `{constant}` (it has no default): write {0}({constant}=...)",
                function.name()
            ),
            OpError::UnknownConstant { function, name } => {
                write!(f, "{} has no constant `{name}`: ", function.name())?;
                let c = function.constants();
                if c.is_empty() {
                    return f.write_str("it has none");
                }
                f.write_str("its constants are ")?;
                for (i, k) in c.iter().enumerate() {
                    let sep = if i == 0 { "" } else { ", " };
                    write!(f, "{sep}{}", k.name)?;
                }
                Ok(())
            }
            OpError::Twice { function, constant } => {
                write!(f, "{}'s `{constant}` is given twice", function.name())
            }
            OpError::Domain {
                function,
                constant,
                value,
                domain,
            } => write!(
                f,
                "{}'s `{constant}` must be {}, got {value}",
                function.name(),
                domain.describe()
            ),
            OpError::Constraint {
                function,
                constant,
                value,
                rule,
            } => write!(
                f,
                "{}'s `{constant}` ({value}) {rule}",
                function.name()
            ),
            OpError::Value {
                function,
                constant,
                error,
            } => write!(f, "{}'s `{constant}`: {error}", function.name()),
            OpError::UnknownFunction { name } => write!(
                f,
                "unknown function `{name}`: expected an actlut function (gelu, softcap, …), its \
                 feature name, or an engine's name for one (actlut_core::names::ENGINE_NAMES)"
            ),
            OpError::Syntax { text } => write!(
                f,
                "`{text}` is not an op: expected a name, or name(constant=value, ...) with \
                 values such as 30, 1.702, -1e-6 or 1/6"
            ),
        }
    }
}

impl core::error::Error for OpError {}

/// Splits `text` at its top-level commas and parses `name = value` pairs into `out`.
fn parse_constants<'a>(
    function: Function,
    inner: &'a str,
    text: &str,
    out: &mut [(&'a str, Rational); MAX_CONSTANTS],
) -> Result<usize, OpError> {
    let syntax = || OpError::Syntax {
        text: Text::new(text),
    };
    let mut n = 0;
    if inner.trim().is_empty() {
        return Ok(0);
    }
    for pair in inner.split(',') {
        let (name, value) = pair.split_once('=').ok_or_else(syntax)?;
        let (name, value) = (name.trim(), value.trim());
        if name.is_empty() || value.is_empty() {
            return Err(syntax());
        }
        let v: Rational = value.parse().map_err(|error| OpError::Value {
            function,
            constant: Text::new(name),
            error,
        })?;
        if n == MAX_CONSTANTS {
            // More pairs than any function has constants: one is unknown or repeated.
            let known = function.constants().iter().any(|c| c.name == name);
            return Err(if known {
                OpError::Twice {
                    function,
                    constant: function
                        .constants()
                        .iter()
                        .find(|c| c.name == name)
                        .map_or("?", |c| c.name),
                }
            } else {
                OpError::UnknownConstant {
                    function,
                    name: Text::new(name),
                }
            });
        }
        out[n] = (name, v);
        n += 1;
    }
    Ok(n)
}

impl FromStr for Op {
    type Err = OpError;

    /// Parses an op's text: see [`Op`].
    fn from_str(text: &str) -> Result<Op, OpError> {
        let s = text.trim();
        if let Some(found) = names::op_from_engine_name(s) {
            return found;
        }
        let (head, inner) = match s.find('(') {
            Some(i) => {
                let rest = s[i + 1..].trim_end();
                let inner = rest.strip_suffix(')').ok_or(OpError::Syntax {
                    text: Text::new(text),
                })?;
                if inner.contains(['(', ')']) {
                    return Err(OpError::Syntax {
                        text: Text::new(text),
                    });
                }
                (s[..i].trim(), Some(inner))
            }
            None => (s, None),
        };
        let (name, derivative) = match Function::from_name(head) {
            Some(f) => (f, false),
            None => match head
                .strip_suffix("_derivative")
                .and_then(Function::from_name)
            {
                Some(f) => (f, true),
                None if head.is_empty() || head.contains([' ', '=', ',', ')']) => {
                    return Err(OpError::Syntax {
                        text: Text::new(text),
                    })
                }
                None => {
                    return Err(OpError::UnknownFunction {
                        name: Text::new(head),
                    })
                }
            },
        };
        let mut pairs = [("", Rational::ZERO); MAX_CONSTANTS];
        let n = match inner {
            Some(inner) => parse_constants(name, inner, text, &mut pairs)?,
            None => 0,
        };
        Ok(Op::with_constants(name, &pairs[..n])?.with_derivative(derivative))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    fn op(s: &str) -> Op {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn canonical_text_round_trips() {
        for (text, canonical) in [
            ("gelu", "gelu"),
            ("gelu-tanh", "gelu_tanh"),
            ("elu", "elu"),
            ("elu(alpha=1)", "elu"),
            ("elu( alpha = 0.50 )", "elu(alpha=0.5)"),
            ("softcap(cap=30)", "softcap(cap=30)"),
            ("softcap(cap=30.0)", "softcap(cap=30)"),
            ("leaky_relu(alpha=0.2)", "leaky_relu(alpha=0.2)"),
            (
                "leaky_relu_derivative(alpha=0.2)",
                "leaky_relu_derivative(alpha=0.2)",
            ),
            ("gelu_derivative", "gelu_derivative"),
            ("hardtanh(max=2, min=-2)", "hardtanh(min=-2,max=2)"),
            ("hardtanh(min=-2)", "hardtanh(min=-2,max=1)"),
            (
                "swiglu_oai(alpha=1.703125)",
                "swiglu_oai(alpha=1.703125,limit=7)",
            ),
            ("situ(beta=1/3)", "situ(beta=1/3)"),
            (
                "xielu(alpha_p=0.8,alpha_n=0.8)",
                "xielu(alpha_p=0.8,alpha_n=0.8,beta=0.5,eps=-0.000001)",
            ),
        ] {
            let o = op(text);
            assert_eq!(o.to_string(), canonical, "{text}");
            assert_eq!(op(canonical), o, "{canonical}");
        }
    }

    #[test]
    fn errors_name_the_constant() {
        let e = |s: &str| s.parse::<Op>().unwrap_err();
        assert_eq!(
            e("softcap"),
            OpError::Missing {
                function: Function::Softcap,
                constant: "cap"
            }
        );
        assert!(matches!(
            e("softcap(cap=0)"),
            OpError::Domain {
                constant: "cap",
                ..
            }
        ));
        assert!(matches!(
            e("softcap(cap=-1)"),
            OpError::Domain {
                constant: "cap",
                ..
            }
        ));
        assert!(matches!(
            e("softcap(cap=inf)"),
            OpError::Value {
                error: RationalError::NotFinite,
                ..
            }
        ));
        assert!(matches!(
            e("softcap(cap=nan)"),
            OpError::Value {
                error: RationalError::NotFinite,
                ..
            }
        ));
        assert!(matches!(
            e("softcap(cap=30,cap=50)"),
            OpError::Twice {
                constant: "cap",
                ..
            }
        ));
        assert!(matches!(
            e("softcap(capp=30)"),
            OpError::UnknownConstant { .. }
        ));
        assert!(matches!(
            e("gelu(alpha=1)"),
            OpError::UnknownConstant { .. }
        ));
        assert!(matches!(
            e("hardtanh(min=2,max=1)"),
            OpError::Constraint {
                constant: "min",
                ..
            }
        ));
        assert!(matches!(e("gelux"), OpError::UnknownFunction { .. }));
        assert!(matches!(e("softcap(cap=30"), OpError::Syntax { .. }));
        assert!(matches!(e("softcap(cap)"), OpError::Syntax { .. }));
        assert!(matches!(
            e("prelu"),
            OpError::Missing {
                constant: "weight",
                ..
            }
        ));
        assert!(matches!(
            e("xielu"),
            OpError::Missing {
                constant: "alpha_p",
                ..
            }
        ));
        assert_eq!(
            e("hardtanh(min=2,max=1)").to_string(),
            "hardtanh's `min` (2) must not exceed `max`"
        );
        assert_eq!(
            e("softcap(cap=-1)").to_string(),
            "softcap's `cap` must be positive, got -1"
        );
        assert_eq!(
            e("softcap(capp=1)").to_string(),
            "softcap has no constant `capp`: its constants are cap"
        );
    }

    #[test]
    fn equality_is_of_exact_values() {
        assert_eq!(op("leaky_relu(alpha=0.01)"), op("leaky_relu"));
        assert_eq!(op("leaky_relu(alpha=1/100)"), op("leaky_relu"));
        assert_ne!(op("swiglu_oai(alpha=1.703125)"), op("swiglu_oai"));
        assert_ne!(op("gelu"), op("gelu_derivative"));
        let o = Op::new(Function::Elu)
            .unwrap()
            .with("alpha", Rational::from(2))
            .unwrap();
        assert_eq!(o.to_string(), "elu(alpha=2)");
        assert!(o.with("beta", Rational::ONE).is_err());
    }
}
