//! The generator of actlut's run-time API for every (function, format) pair, from
//! `Function::ALL × Format::ALL`: the per-function modules, `BuiltinTables`, the computed
//! path's per-format functions and shorthands (`src/generated/`), and the tests of every
//! generated entry point (`tests/generated/api.rs`).
//!
//! The output depends only on those two lists, not on the enabled features or the target:
//! every feature-gated item carries its `#[cfg]` (and its `doc(cfg)` for docs.rs), so the
//! text is the same in every build and is committed (the unicode-ident pattern). `main.rs`
//! writes it (`cargo xtask regenerate-api`); `xtask/tests/generated_api.rs` fails when the
//! committed files differ from what this generates. The only per-format decision is [`Repr`]: how a format's tables
//! are stored and whether Rust has a type for its values. A new format gets its items from
//! that; a new function needs nothing here (one whose constants do not all have defaults
//! has no built-in tables and no items).

use std::fmt::Write as _;

use actlut_codegen::{emit, Format, Function};

/// Rust types for the values of a format, where there is one: the typed entry
/// points (`gelu::f16(half::f16)`, `BuiltinTables::apply_bf16`, `computed::gelu_f16`)
/// exist for these formats. The others are given and returned as raw bits.
/// Every type here must be a `half` type (the slice casts use
/// `half::slice::HalfFloatSliceExt`).
const VALUE_TYPES: &[(&str, &str)] = &[("f16", "half::f16"), ("bf16", "half::bf16")];

/// How the runtime represents one format.
pub struct Repr {
    /// The format's name in item names: `f16`, `fp8_e4m3`.
    pub name: &'static str,
    /// Its cargo feature: `f16`, `fp8-e4m3`.
    pub feature: &'static str,
    /// The type of a table entry and of a raw value: `u16` or `u8`.
    pub bits_ty: &'static str,
    /// The number of table entries: 65,536, 256, 64, 16.
    pub entries: usize,
    /// The `half` type of one value, if the format has one.
    pub value_ty: Option<&'static str>,
    /// The `Format` variant, for generated code: `Format::F16`.
    pub variant: String,
    /// The format itself.
    format: Format,
}

impl Repr {
    fn of(format: Format) -> Repr {
        // Values of up to 8 bits are coded in a byte (in its low bits when
        // narrower), wider ones in a `u16`.
        let bits_ty = emit::entry_type(format);
        Repr {
            name: format.name(),
            feature: format.feature(),
            bits_ty,
            entries: format.entries(),
            value_ty: VALUE_TYPES
                .iter()
                .find(|(n, _)| *n == format.name())
                .map(|(_, t)| *t),
            variant: format!("Format::{format:?}"),
            format,
        }
    }

    /// The function that makes a `TableRef` of one of this format's tables
    /// (for 16-bit tables, the one that fits the table's representation, full
    /// or compact).
    fn table_ref(&self) -> &'static str {
        if emit::is_16_bit(self.format) {
            "crate::read::table_ref"
        } else {
            "TableRef::U8"
        }
    }

    /// The type a public table getter returns a reference to: `[u16; 65536]`
    /// or `[u8; N]`, in every build.
    fn table_ty(&self) -> String {
        format!("[{}; {}]", self.bits_ty, self.entries)
    }

    /// The type of the table the lookups read: for 16-bit formats the form
    /// the `compact` feature selects (`crate::read::ReadTable`).
    fn read_ty(&self) -> String {
        if emit::is_16_bit(self.format) {
            "crate::read::ReadTable".into()
        } else {
            self.table_ty()
        }
    }

    /// The slice functions (in place, out of place) over raw bits.
    fn kernels(&self) -> (&'static str, &'static str) {
        match (self.bits_ty, self.entries) {
            // Full or compact, as the `compact` feature selects (`crate::kernels::read`).
            ("u16", _) => ("crate::read::apply", "crate::read::map"),
            (_, 256) => ("crate::kernels::apply_u8", "crate::kernels::map_u8"),
            // Codes in the low bits of a byte: a plain loop that checks each code.
            _ => (
                "crate::functions::apply_codes",
                "crate::functions::map_codes",
            ),
        }
    }
}

/// One function as the generator spells it.
struct Func {
    /// `Gelu`: the variant of `Function`.
    variant: String,
    /// `gelu_tanh`: module and item-name prefix.
    name: &'static str,
    /// `gelu-tanh`.
    feature: &'static str,
    /// One line of ASCII text.
    definition: &'static str,
    /// The function itself.
    function: Function,
}

impl Func {
    fn of(function: Function) -> Func {
        Func {
            variant: format!("{function:?}"),
            name: function.name(),
            feature: function.feature(),
            definition: function.definition(),
            function,
        }
    }

    /// Whether the function has a table over `r` at all (log and rsqrt have
    /// none in a format without NaN: `Format::can_represent`).
    fn has_table(&self, r: &Repr) -> bool {
        r.format.can_represent(self.function)
    }

    /// Whether the function's derivative has a built-in table over `r`
    /// (`actlut_codegen::derivative_table_pairs`).
    fn has_derivative(&self, r: &Repr) -> bool {
        actlut_codegen::derivative_table_pairs().any(|p| p == (self.function, r.format))
    }

    /// The full table over `r`, as a place: `(*crate::tables::table!(GELU_TANH_F16))`
    /// (the static, a reference into the table's declared static; with `self-check`, its
    /// checked form, verified before its first use).
    fn table(&self, r: &Repr) -> String {
        format!(
            "(*crate::tables::table!({}))",
            emit::static_name(self.function, r.format)
        )
    }

    /// The static the lookups over `r` read: for a 16-bit format the form the
    /// `compact` feature selects (`crate::tables::read_table!(GELU_F16)`), otherwise
    /// the table.
    fn read(&self, r: &Repr) -> String {
        if emit::is_16_bit(r.format) {
            format!(
                "crate::tables::read_table!({})",
                emit::static_name(self.function, r.format)
            )
        } else {
            self.table(r)
        }
    }
}

/// For a function with constants, the doc lines that give their defaults (the values of
/// its built-in tables): `///\n/// At its default constants: `alpha` = 0.01.\n`.
fn defaults_doc(function: Function) -> String {
    let c = function.constants();
    if c.is_empty() {
        return String::new();
    }
    let list: Vec<String> = c
        .iter()
        .map(|k| {
            format!(
                "`{}` = {}",
                k.name,
                k.default.expect("a built-in table's default")
            )
        })
        .collect();
    format!("///\n/// At its default constants: {}.\n", list.join(", "))
}

fn cfg(features: &[&str]) -> String {
    emit::cfg_attrs("", features)
}

/// The first line of every generated file: `@generated` and the command that writes it.
const HEADER: &str = "// \x40generated by `cargo xtask regenerate-api` \
                      from Function::ALL × Format::ALL; do not edit.\n";

/// Every generated file: (path from the workspace root, contents).
pub fn generate() -> Vec<(&'static str, String)> {
    // The functions with built-in tables: those whose every constant has a default (softcap,
    // prelu, gelu_clipped and xielu have none; their ops fill a caller's buffer).
    let funcs: Vec<Func> = Function::ALL
        .into_iter()
        .filter(|f| f.has_defaults())
        .map(Func::of)
        .collect();
    let reprs: Vec<Repr> = Format::ALL.into_iter().map(Repr::of).collect();
    vec![
        ("src/generated/functions.rs", functions(&funcs, &reprs)),
        ("src/generated/builtin.rs", builtin(&funcs, &reprs)),
        ("src/generated/computed.rs", computed(&funcs, &reprs)),
        ("tests/generated/api.rs", tests(&funcs, &reprs)),
    ]
}

/// The per-function modules: `actlut::gelu::{f16, apply_f16, fp8_e4m3_bits, …}`, one module
/// per function gated on its feature, and in it one invocation per format of the template
/// that fits the format (`src/functions.rs`), which gates its items on the format's feature.
fn functions(funcs: &[Func], reprs: &[Repr]) -> String {
    let mut s = String::from(HEADER);
    s.push_str(
        "\n// The per-function modules (`actlut::gelu`, `actlut::sigmoid`, …), each with the\n\
         // typed, raw-bits and slice entry points of every enabled format; `src/lib.rs`\n\
         // includes them at the crate root, where a path to a module whose feature is off\n\
         // gets rustc's note that names the feature.\n",
    );
    for f in funcs {
        let _ = write!(
            s,
            "\n/// `{name}`: `{def}`, over every enabled format.\n\
             ///\n\
             /// Each entry point is one table load per element; every result is the\n\
             /// correctly rounded value of the exact function.\n\
             {defaults}\
             ///\n\
             /// Requires the feature `{feature}`, and each item its format's feature.\n\
             {cfg}pub mod {name} {{\n",
            name = f.name,
            def = f.definition,
            defaults = defaults_doc(f.function),
            feature = f.feature,
            cfg = cfg(&[f.feature]),
        );
        for r in reprs.iter().filter(|r| f.has_table(r)) {
            module_items(&mut s, f, r, false);
        }
        let derivatives: Vec<&Repr> = reprs.iter().filter(|r| f.has_derivative(r)).collect();
        if !derivatives.is_empty() {
            let _ = write!(
                s,
                "\n    /// The derivative of `{name}`, over every enabled format: the same entry points,\n    \
                 /// each one load of a derivative table (always full, with `compact` too), every\n    \
                 /// result the correctly rounded value of the exact derivative (docs/SEMANTICS.md,\n    \
                 /// \"Derivatives\": the one-sided value at a kink).\n    \
                 ///\n    \
                 /// Requires the features `{feature}` and `derivatives`, and each item its format's\n    \
                 /// feature.\n    \
                 #[cfg(feature = \"derivatives\")]\n    \
                 #[cfg_attr(docsrs, doc(cfg(feature = \"derivatives\")))]\n    \
                 pub mod derivative {{\n",
                name = f.name,
                feature = f.feature,
            );
            for r in derivatives {
                module_items(&mut s, f, r, true);
            }
            s.push_str("    }\n");
        }
        s.push_str("}\n");
    }
    s
}

/// One (function, format)'s entry points: the invocation of the format's template.
/// With `derivative`, the items of the function's `derivative` module, over its derivative
/// table (always full: `read: [table, full]`), one level deeper.
fn module_items(s: &mut String, f: &Func, r: &Repr, derivative: bool) {
    let (ffeat, fmt, fmtfeat) = (f.feature, r.name, r.feature);
    let op = actlut_codegen::Op::from(f.function).with_derivative(derivative);
    let fname = op.to_string();
    let table = emit::static_name_of(&actlut_codegen::op_table_name(&op, r.format));
    let (pad, read) = if derivative {
        ("    ", "\n            read: [table, full],")
    } else {
        ("", "")
    };
    if let Some(ty) = r.value_ty {
        let _ = writeln!(
            s,
            "{pad}    crate::functions::typed16! {{\n{pad}        \
             function: \"{fname}\", feature: \"{ffeat}\",\n{pad}        \
             format: \"{fmt}\", format_feature: \"{fmtfeat}\", ty: {ty}, table: {table},{read}\n{pad}        \
             items: [{fmt}, {fmt}_bits, apply_{fmt}, map_{fmt}, apply_{fmt}_bits, map_{fmt}_bits],\n{pad}    \
             }}"
        );
    } else {
        let _ = writeln!(
            s,
            "{pad}    crate::functions::byte_codes! {{\n{pad}        \
             function: \"{fname}\", feature: \"{ffeat}\",\n{pad}        \
             format: \"{fmt}\", format_feature: \"{fmtfeat}\", codes: {n}, table: {table},\n{pad}        \
             items: [{fmt}_bits, apply_{fmt}_bits, map_{fmt}_bits],\n{pad}    \
             }}",
            n = r.entries,
        );
    }
}

/// `BuiltinTables`: the trait of a function's built-in tables, and its implementation for
/// `Function`.
fn builtin(funcs: &[Func], reprs: &[Repr]) -> String {
    let mut s = String::from(HEADER);
    s.push_str(
        r#"
//! [`BuiltinTables`], the built-in tables of a function chosen at run time, and its
//! implementation for [`Function`]; `src/builtin.rs` re-exports it and holds the
//! hand-written rest.

use crate::table_ref::TableRef;
use crate::errors::{LengthMismatch, MissingTable};
use crate::kernels::MapError;
use actlut_core::{Format, Function};

/// The built-in tables of a function chosen at run time (a model's configuration, a
/// command line): [`Function::Gelu`]`.apply_bf16(&mut xs)`.
///
/// Implemented for [`Function`], whatever the enabled features: a method returns
/// [`MissingTable`] when its table is compiled out (its function's or its format's cargo
/// feature is off). A binary that dispatches through it keeps every *enabled* table of the
/// format it uses (and [`table`](Self::table) every enabled table of every format); the
/// per-function modules (`actlut::gelu`, …) keep only the tables they reference.
///
/// ```
/// # #[cfg(all(feature = "all-functions", feature = "f16"))] {
/// use actlut::{BuiltinTables, Function};
/// use half::f16;
///
/// let silu: Function = "silu".parse().unwrap();
/// let mut xs = [f16::from_f32(2.0), f16::from_f32(-0.0)];
/// silu.apply_f16(&mut xs)?;
/// assert_eq!(xs[0], f16::from_f32(1.7617)); // 2·sigmoid(2) = 1.76159…
/// assert!(xs[1].is_sign_negative() && xs[1] == f16::ZERO);
/// # }
/// # Ok::<(), actlut::MissingTable>(())
/// ```
pub trait BuiltinTables: Copy + crate::builtin::Sealed {
"#,
    );
    // The trait's methods: one getter per format (and the compact getter of the 16-bit
    // formats), `table`, and the typed one-value and slice methods.
    for r in reprs {
        let fmt = r.name;
        if emit::is_16_bit(r.format) {
            let _ = write!(
                s,
                "    /// The full `{fmt}` table, if compiled in: a `[u16; 65536]` in every build (a binary\n    \
                 /// that calls it keeps the full tables of `{fmt}`, with `compact` too).\n    \
                 ///\n    /// # Errors\n    ///\n    /// [`MissingTable`] when the table is not compiled in.\n    \
                 fn table_{fmt}(self) -> Result<&'static {ty}, MissingTable>;\n\n    \
                 /// The compact `{fmt}` table, if compiled in (the `compact` feature:\n    \
                 /// [`tables::compact`](crate::tables::compact)).\n    \
                 ///\n    /// # Errors\n    ///\n    /// [`MissingTable`] when the table is not compiled in.\n\
                 {gate}    fn compact_table_{fmt}(self) -> Result<&'static crate::compact::CompactRef<'static>, MissingTable>;\n\n",
                ty = r.table_ty(),
                gate = emit::cfg_attrs("    ", &["compact"]),
            );
        } else {
            let _ = write!(
                s,
                "    /// The `{fmt}` table, if compiled in.\n    \
                 ///\n    /// # Errors\n    ///\n    /// [`MissingTable`] when the table is not compiled in.\n    \
                 fn table_{fmt}(self) -> Result<&'static {ty}, MissingTable>;\n\n",
                ty = r.table_ty(),
            );
        }
    }
    s.push_str(
        r#"    /// The table over `format`, if compiled in: the one entry point for code that handles
    /// every format alike.
    ///
    /// A binary that calls it keeps every enabled table (of every format); the per-format
    /// getters ([`table_f16`](Self::table_f16), …) keep one format's.
    ///
    /// ```
    /// # #[cfg(all(feature = "gelu", feature = "all-formats"))] {
    /// use actlut::{BuiltinTables, Format, Function};
    ///
    /// for format in Format::ALL {
    ///     let table = Function::Gelu.table(format)?;
    ///     assert_eq!(table.entries(), format.entries());
    ///     // Code 0: gelu(+0) = +0 (in E8M0, which has no zero, 2^-127, where gelu
    ///     // rounds back to 2^-127).
    ///     assert_eq!(table.get(0), Some(0));
    /// }
    /// # }
    /// # Ok::<(), actlut::MissingTable>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`MissingTable`] naming the features to enable when the function's or the format's
    /// feature is off.
    fn table(self, format: Format) -> Result<TableRef, MissingTable>;
"#,
    );
    for r in reprs {
        let Some(ty) = r.value_ty else { continue };
        let _ = write!(
            s,
            r#"
    /// `self` at one `{fmt}`: one table load.
    ///
    /// # Errors
    ///
    /// [`MissingTable`] when the table is not compiled in.
    fn {fmt}(self, x: {ty}) -> Result<{ty}, MissingTable>;

    /// Applies `self` in place to every `{fmt}` of `xs`.
    ///
    /// # Errors
    ///
    /// [`MissingTable`] when the table is not compiled in (`xs` is unchanged).
    fn apply_{fmt}(self, xs: &mut [{ty}]) -> Result<(), MissingTable>;

    /// Writes `self` of every `{fmt}` of `xs` to `ys`.
    ///
    /// # Errors
    ///
    /// [`MapError::MissingTable`](crate::MapError::MissingTable) when the table is not compiled
    /// in, [`MapError::LengthMismatch`](crate::MapError::LengthMismatch) naming both lengths when
    /// `xs.len() != ys.len()` ([`LengthMismatch`](crate::LengthMismatch) has an example); `ys`
    /// is then unchanged.
    fn map_{fmt}(self, xs: &[{ty}], ys: &mut [{ty}]) -> Result<(), MapError>;
"#,
            fmt = r.name,
        );
    }
    s.push_str("}\n");

    // The tables the lookups read (for 16-bit formats the form `compact` selects), as free
    // functions of the implementation.
    for r in reprs.iter().filter(|r| emit::is_16_bit(r.format)) {
        let fmt = r.name;
        let _ = write!(
            s,
            "\n/// The `{fmt}` table the lookups of `function` read: full, or compact with `compact`.\n\
             fn read_table_{fmt}(function: Function) -> Result<&'static {ty}, MissingTable> {{\n    \
             match function {{\n",
            ty = r.read_ty(),
        );
        for f in funcs.iter().filter(|f| f.has_table(r)) {
            let _ = writeln!(
                s,
                "        #[cfg({})]\n        Function::{} => Ok(&{}),",
                emit::cfg_predicate(&[f.feature, r.feature]),
                f.variant,
                f.read(r)
            );
        }
        let _ = write!(
            s,
            "        #[allow(unreachable_patterns)]\n        \
             _ => Err(MissingTable {{ function, format: {} }}),\n    }}\n}}\n",
            r.variant
        );
    }

    s.push_str("\nimpl BuiltinTables for Function {\n");
    for r in reprs {
        let mut getter = |name: &str, gate: &str, ty: &str, path: &dyn Fn(&Func) -> String| {
            let _ = write!(
                s,
                "{gate}    fn {name}(self) -> Result<&'static {ty}, MissingTable> {{\n        match self {{\n",
            );
            for f in funcs.iter().filter(|f| f.has_table(r)) {
                let _ = writeln!(
                    s,
                    "            #[cfg({})]\n            Function::{} => Ok(&{}),",
                    emit::cfg_predicate(&[f.feature, r.feature]),
                    f.variant,
                    path(f)
                );
            }
            let _ = write!(
                s,
                "            #[allow(unreachable_patterns)]\n            \
                 _ => Err(MissingTable {{ function: self, format: {} }}),\n        }}\n    }}\n\n",
                r.variant
            );
        };
        let fmt = r.name;
        getter(&format!("table_{fmt}"), "", &r.table_ty(), &|f| f.table(r));
        if emit::is_16_bit(r.format) {
            getter(
                &format!("compact_table_{fmt}"),
                &emit::cfg_attrs("    ", &["compact"]),
                "crate::compact::CompactRef<'static>",
                &|f| {
                    format!(
                        "crate::tables::compact_table!({})",
                        emit::static_name(f.function, r.format)
                    )
                },
            );
        }
    }
    s.push_str("    fn table(self, format: Format) -> Result<TableRef, MissingTable> {\n        match (self, format) {\n");
    for r in reprs {
        for f in funcs.iter().filter(|f| f.has_table(r)) {
            let _ = writeln!(
                s,
                "            #[cfg({})]\n            (Function::{}, {}) => Ok({}(&{})),",
                emit::cfg_predicate(&[f.feature, r.feature]),
                f.variant,
                r.variant,
                r.table_ref(),
                f.read(r)
            );
        }
    }
    s.push_str(
        "            _ => Err(MissingTable { function: self, format }),\n        }\n    }\n",
    );
    for r in reprs {
        let Some(ty) = r.value_ty else { continue };
        let (apply, map) = r.kernels();
        let _ = write!(
            s,
            r#"
    fn {fmt}(self, x: {ty}) -> Result<{ty}, MissingTable> {{
        Ok({ty}::from_bits(crate::read::at(read_table_{fmt}(self)?, x.to_bits())))
    }}

    fn apply_{fmt}(self, xs: &mut [{ty}]) -> Result<(), MissingTable> {{
        use half::slice::HalfFloatSliceExt;
        {apply}(read_table_{fmt}(self)?, xs.reinterpret_cast_mut());
        Ok(())
    }}

    fn map_{fmt}(self, xs: &[{ty}], ys: &mut [{ty}]) -> Result<(), MapError> {{
        use half::slice::HalfFloatSliceExt;
        let t = read_table_{fmt}(self)?;
        LengthMismatch::check(xs.len(), ys.len())?;
        {map}(t, xs.reinterpret_cast(), ys.reinterpret_cast_mut());
        Ok(())
    }}
"#,
            fmt = r.name,
        );
    }
    s.push_str("}\n");
    s
}

/// The computed path's per-format functions and per-function shorthands.
fn computed(funcs: &[Func], reprs: &[Repr]) -> String {
    let mut s = String::from(HEADER);
    s.push_str(
        "\n//! The computed path's per-format functions (`f16`, `bf16_bits`, `fp8_e4m3_bits`, …)\n\
         //! and shorthands (`gelu_f16`, `gelu_f32`, …); `src/computed.rs` re-exports them.\n\n\
         use crate::computed::f32;\n\
         use actlut_core::{Format, Function};\n",
    );
    for r in reprs {
        let (fmt, bits, variant) = (r.name, r.bits_ty, &r.variant);
        if let Some(ty) = r.value_ty {
            let _ = write!(
                s,
                r#"
/// `function` at one `{fmt}`, computed.
pub fn {fmt}(function: Function, x: {ty}) -> {ty} {{
    {ty}::from_bits({fmt}_bits(function, x.to_bits()))
}}
"#
            );
        }
        let (arg, ret) = if bits == "u16" {
            ("x", "")
        } else {
            ("u16::from(x)", " as u8")
        };
        let _ = write!(
            s,
            r#"
/// `function` at one `{fmt}` given and returned as raw bits, computed.
///
/// # Panics
///
/// If `{fmt}` cannot represent `function` ([`Format::can_represent`]: log and
/// rsqrt over a format without NaN).
pub fn {fmt}_bits(function: Function, x: {bits}) -> {bits} {{
    actlut_core::eval(function, {variant}, {arg}){ret}
}}
"#
        );
    }
    for f in funcs {
        for r in reprs {
            let Some(ty) = r.value_ty else { continue };
            let _ = write!(
                s,
                r#"
/// `{name}` at one `{fmt}`, computed: `{def}`.
pub fn {name}_{fmt}(x: {ty}) -> {ty} {{
    {fmt}(Function::{variant}, x)
}}
"#,
                name = f.name,
                fmt = r.name,
                def = f.definition,
                variant = f.variant,
            );
        }
        let _ = write!(
            s,
            r#"
/// `{name}` at one `f32`, computed: `{def}`. Accuracy: see [`f32()`].
pub fn {name}_f32(x: f32) -> f32 {{
    f32(Function::{variant}, x)
}}
"#,
            name = f.name,
            def = f.definition,
            variant = f.variant,
        );
    }
    s
}

/// The tests of every generated entry point (`tests/generated/api.rs`, a module of
/// `tests/generated_api.rs`): one test per (function, format) that calls each of its items
/// through the helpers of `tests/support/api.rs`, and one test per function of the computed
/// shorthands.
fn tests(funcs: &[Func], reprs: &[Repr]) -> String {
    let mut s = String::from(HEADER);
    s.push_str(
        "\n// Every generated entry point of the runtime against its table, at every input: the\n\
         // per-function modules (`actlut::gelu::f16`, `apply_f16`, `map_f16_bits`, …), the\n\
         // `BuiltinTables` methods, the table getters and the computed path's per-format\n\
         // functions and shorthands, each test a list of one (function, format)'s items checked\n\
         // by the helpers of `tests/support/api.rs`.\n\n\
         use crate::support::api::*;\n\
         #[allow(unused_imports)]\n\
         use actlut::{computed, BuiltinTables, Format, Function};\n",
    );
    for f in funcs {
        for r in reprs.iter().filter(|r| f.has_table(r)) {
            let (fname, fmt, variant) = (f.name, r.name, &f.variant);
            let _ = write!(
                s,
                "\n#[cfg({})]\n#[test]\n\
                 fn {fname}_{fmt}_entry_points_give_the_table_entry_at_every_input() {{\n",
                emit::cfg_predicate(&[f.feature, r.feature]),
            );
            if r.value_ty.is_some() {
                let _ = write!(
                    s,
                    "    let want = typed(\n        Function::{variant},\n        {},\n        \
                     [actlut::{fname}::{fmt}, |x| Function::{variant}.{fmt}(x).unwrap()],\n        \
                     actlut::{fname}::{fmt}_bits,\n        \
                     [actlut::{fname}::apply_{fmt}, |xs| Function::{variant}.apply_{fmt}(xs).unwrap()],\n        \
                     [actlut::{fname}::map_{fmt}, |xs, ys| Function::{variant}.map_{fmt}(xs, ys).unwrap()],\n        \
                     actlut::{fname}::apply_{fmt}_bits,\n        \
                     actlut::{fname}::map_{fmt}_bits,\n    );\n    \
                     full(&want, Function::{variant}.table_{fmt}().unwrap());\n    \
                     #[cfg(feature = \"compact\")]\n    \
                     compact(&want, Function::{variant}.compact_table_{fmt}().unwrap());\n}}\n",
                    r.variant,
                );
            } else {
                let _ = write!(
                    s,
                    "    bytes(\n        Function::{variant},\n        {},\n        \
                     Function::{variant}.table_{fmt}().unwrap(),\n        \
                     actlut::{fname}::{fmt}_bits,\n        \
                     actlut::{fname}::apply_{fmt}_bits,\n        \
                     actlut::{fname}::map_{fmt}_bits,\n    );\n}}\n",
                    r.variant,
                );
            }
        }
    }
    derivative_tests(&mut s, funcs, reprs);
    for f in funcs {
        let (fname, variant) = (f.name, &f.variant);
        let _ = write!(
            s,
            "\n#[test]\nfn computed_{fname}_shorthands_are_the_function_at_one_format() {{\n"
        );
        for r in reprs.iter().filter(|r| r.value_ty.is_some()) {
            let fmt = r.name;
            let _ = writeln!(
                s,
                "    shorthand(Function::{variant}, computed::{fname}_{fmt}, computed::{fmt});"
            );
        }
        let _ = writeln!(
            s,
            "    shorthand_f32(Function::{variant}, computed::{fname}_f32);\n}}"
        );
    }
    for r in reprs {
        let (fmt, variant) = (r.name, &r.variant);
        let _ = write!(
            s,
            "\n#[test]\nfn computed_{fmt}_functions_equal_bits() {{\n    \
             for act in Function::ALL.into_iter().filter(|&f| f.has_defaults() && {variant}.can_represent(f)) {{\n        \
             for x in inputs({variant}) {{\n            \
             let want = computed::bits(act, {variant}, x);\n",
        );
        if emit::is_16_bit(r.format) {
            let _ = writeln!(
                s,
                "            assert_eq!(computed::{fmt}_bits(act, x), want, \"{{act:?}} {{x:#x}}\");"
            );
        } else {
            let _ = writeln!(
                s,
                "            assert_eq!(u16::from(computed::{fmt}_bits(act, x as u8)), want, \"{{act:?}} {{x:#x}}\");"
            );
        }
        if let Some(ty) = r.value_ty {
            let _ = writeln!(
                s,
                "            assert_eq!(computed::{fmt}(act, {ty}::from_bits(x)).to_bits(), want);"
            );
        }
        s.push_str("        }\n    }\n}\n");
    }
    s
}

/// The tests of the `derivative` modules (feature `derivatives`): every entry point and the
/// static table give, at every input, the derivative table `actlut::fill_table` computes at run
/// time.
fn derivative_tests(s: &mut String, funcs: &[Func], reprs: &[Repr]) {
    for f in funcs {
        for r in reprs.iter().filter(|r| f.has_derivative(r)) {
            let (fname, fmt, variant) = (f.name, r.name, &f.variant);
            let op = actlut_codegen::Op::from(f.function).with_derivative(true);
            let table = emit::static_name_of(&actlut_codegen::op_table_name(&op, r.format));
            let m = format!("actlut::{fname}::derivative");
            let _ = write!(
                s,
                "\n#[cfg({})]\n#[test]\n\
                 fn {fname}_derivative_{fmt}_entry_points_give_the_table_entry_at_every_input() {{\n",
                emit::cfg_predicate(&["derivatives", f.feature, r.feature]),
            );
            if r.value_ty.is_some() {
                let _ = write!(
                    s,
                    "    let want = typed_derivative(\n        Function::{variant},\n        {},\n        \
                     {m}::{fmt},\n        {m}::{fmt}_bits,\n        {m}::apply_{fmt},\n        \
                     {m}::map_{fmt},\n        {m}::apply_{fmt}_bits,\n        {m}::map_{fmt}_bits,\n    );\n    \
                     full(&want, actlut::tables::{table});\n}}\n",
                    r.variant,
                );
            } else {
                let _ = write!(
                    s,
                    "    bytes_derivative(\n        Function::{variant},\n        {},\n        \
                     actlut::tables::{table},\n        {m}::{fmt}_bits,\n        \
                     {m}::apply_{fmt}_bits,\n        {m}::map_{fmt}_bits,\n    );\n}}\n",
                    r.variant,
                );
            }
        }
    }
}
