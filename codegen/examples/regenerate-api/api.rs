//! The generator of actlut's run-time API for every (function, format) pair, from
//! `Function::ALL × Format::ALL`: the per-function modules, `Activation`, the computed
//! path's per-format functions and shorthands (`src/generated/`), and the tests of every
//! generated entry point (`tests/generated/api.rs`).
//!
//! The output depends only on those two lists, not on the enabled features or the target:
//! every feature-gated item carries its `#[cfg]` (and its `doc(cfg)` for docs.rs), so the
//! text is the same in every build and is committed (the unicode-ident pattern). `main.rs`
//! writes it; `codegen/tests/generated_api.rs` fails when the committed files differ from
//! what this generates. The only per-format decision is [`Repr`]: how a format's tables
//! are stored and whether Rust has a type for its values. A new format gets its items from
//! that; a new function needs nothing here.

use std::fmt::Write as _;

use actlut_codegen::{emit, Format, Function};

/// Rust types for the values of a format, where there is one: the typed entry
/// points (`gelu::f16(half::f16)`, `Activation::apply_bf16`, `computed::gelu_f16`)
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
            "crate::kernels::read::table_ref"
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
    /// the `compact` feature selects (`crate::kernels::read::ReadTable`).
    fn read_ty(&self) -> String {
        if emit::is_16_bit(self.format) {
            "crate::kernels::read::ReadTable".into()
        } else {
            self.table_ty()
        }
    }

    /// The slice functions (in place, out of place) over raw bits.
    fn kernels(&self) -> (&'static str, &'static str) {
        match (self.bits_ty, self.entries) {
            // Full or compact, by the type of the table (`crate::kernels::read::Lookup16`).
            ("u16", _) => ("crate::kernels::read::apply", "crate::kernels::read::map"),
            (_, 256) => ("crate::kernels::apply_u8", "crate::kernels::map_u8"),
            // Codes in the low bits of a byte: a plain loop that checks each code.
            _ => (
                "crate::functions::apply_codes",
                "crate::functions::map_codes",
            ),
        }
    }

    /// `# Panics` text for a single raw value, for formats narrower than their byte.
    fn code_panics(&self) -> String {
        if self.bits_ty == "u8" && self.entries < 256 {
            format!(
                "///\n/// # Panics\n///\n/// If a code is {} or more (bits set above the format's {} bits).\n",
                self.entries,
                self.entries.trailing_zeros()
            )
        } else {
            String::new()
        }
    }
}

/// One function as the generator spells it.
struct Func {
    /// `Gelu`: the variant of both `Function` and `Activation`.
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

    /// The full table over `r`, as a place: `(*crate::tables::table!(GELU_TANH_F16))`
    /// (the static, a reference into the table's declared static; with `self-check`
    /// its checked form, verified before its first use).
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

fn cfg(features: &[&str]) -> String {
    emit::cfg_attrs("", features)
}

fn requires(features: &[&str]) -> String {
    let list: Vec<String> = features.iter().map(|f| format!("`{f}`")).collect();
    match list.as_slice() {
        [one] => format!("///\n/// Requires the feature {one}.\n"),
        [init @ .., last] => format!(
            "///\n/// Requires the features {} and {last}.\n",
            init.join(", ")
        ),
        [] => String::new(),
    }
}

/// The first line of every generated file: `@generated` and the command that writes it.
const HEADER: &str = "// \x40generated by `cargo run -p actlut-codegen --example regenerate-api` \
                      from Function::ALL × Format::ALL; do not edit.\n";

/// Every generated file: (path from the workspace root, contents).
pub fn generate() -> Vec<(&'static str, String)> {
    let funcs: Vec<Func> = Function::ALL.into_iter().map(Func::of).collect();
    let reprs: Vec<Repr> = Format::ALL.into_iter().map(Repr::of).collect();
    vec![
        ("src/generated/functions.rs", functions(&funcs, &reprs)),
        ("src/generated/activation.rs", activation(&funcs, &reprs)),
        ("src/generated/computed.rs", computed(&funcs, &reprs)),
        ("tests/generated/api.rs", tests(&funcs, &reprs)),
    ]
}

/// The per-function modules: `actlut::gelu::{f16, apply_f16, fp8_e4m3_bits, …}`.
fn functions(funcs: &[Func], reprs: &[Repr]) -> String {
    let mut s = String::from(HEADER);
    s.push_str(
        "\n//! The per-function modules (`actlut::gelu`, `actlut::sigmoid`, …), each with the\n\
         //! typed, raw-bits and slice entry points of every enabled format; `src/lib.rs`\n\
         //! re-exports them at the crate root.\n",
    );
    for f in funcs {
        let _ = write!(
            s,
            "\n/// `{name}`: `{def}`, over every enabled format.\n\
             ///\n\
             /// Each entry point is one table load per element; every result is the\n\
             /// correctly rounded value of the exact function.\n\
             ///\n\
             /// Requires the feature `{feature}`, and each item its format's feature.\n\
             {cfg}pub mod {name} {{",
            name = f.name,
            def = f.definition,
            feature = f.feature,
            cfg = cfg(&[f.feature]),
        );
        for r in reprs.iter().filter(|r| f.has_table(r)) {
            module_items(&mut s, f, r);
        }
        s.push_str("}\n");
    }
    s
}

fn module_items(s: &mut String, f: &Func, r: &Repr) {
    let both = [f.feature, r.feature];
    let attrs = format!("{}{}", requires(&both), cfg(&both));
    let table = f.read(r);
    let (apply, map) = r.kernels();
    let (fname, fmt, bits) = (f.name, r.name, r.bits_ty);
    let len_panics = "///\n/// # Panics\n///\n/// If `xs.len() != ys.len()`, with a message that names both lengths:\n\
         /// `actlut: source slice length (3) does not match destination slice length (2)`.\n";
    if let Some(ty) = r.value_ty {
        let _ = write!(
            s,
            r#"
/// `{fname}` of one `{fmt}` value: one table load.
///
/// # Accuracy
///
/// Correctly rounded (docs/SEMANTICS.md) at every input, NaN, ±inf, ±0 and
/// subnormals included; bit-identical to the computed path.
{attrs}#[inline]
pub fn {fmt}(x: {ty}) -> {ty} {{
    {ty}::from_bits(crate::kernels::read::at(&{table}, x.to_bits()))
}}

/// `{fname}` of one `{fmt}` given and returned as raw bits.
{attrs}#[inline]
pub fn {fmt}_bits(x: {bits}) -> {bits} {{
    crate::kernels::read::at(&{table}, x)
}}

/// Applies `{fname}` in place to every `{fmt}` of `xs`.
{attrs}#[inline]
pub fn apply_{fmt}(xs: &mut [{ty}]) {{
    use half::slice::HalfFloatSliceExt;
    {apply}(&{table}, xs.reinterpret_cast_mut());
}}

/// Writes `{fname}` of every `{fmt}` of `xs` to `ys`.
{len_panics}{attrs}#[inline]
#[track_caller]
pub fn map_{fmt}(xs: &[{ty}], ys: &mut [{ty}]) {{
    use half::slice::HalfFloatSliceExt;
    {map}(&{table}, xs.reinterpret_cast(), ys.reinterpret_cast_mut());
}}

/// Applies `{fname}` in place to raw `{fmt}` bit patterns.
{attrs}#[inline]
pub fn apply_{fmt}_bits(xs: &mut [{bits}]) {{
    {apply}(&{table}, xs);
}}

/// Writes `{fname}` of raw `{fmt}` bit patterns `xs` to `ys`.
{len_panics}{attrs}#[inline]
#[track_caller]
pub fn map_{fmt}_bits(xs: &[{bits}], ys: &mut [{bits}]) {{
    {map}(&{table}, xs, ys);
}}
"#
        );
    } else {
        let n = r.entries;
        let code_panics = r.code_panics();
        let one = if r.entries < 256 {
            format!("crate::functions::code(&{table}, x)")
        } else {
            format!("{table}[usize::from(x)]")
        };
        let simd = if apply == "crate::kernels::apply_u8" {
            " (SIMD byte permutes: see [`kernels`](crate::kernels))"
        } else {
            ""
        };
        let _ = write!(
            s,
            r#"
/// `{fname}` of one `{fmt}` value given and returned as its raw bits.
///
/// # Accuracy
///
/// Correctly rounded (docs/SEMANTICS.md) at every one of the {n} inputs.
{code_panics}{attrs}#[inline]
#[track_caller]
pub fn {fmt}_bits(x: {bits}) -> {bits} {{
    {one}
}}

/// Applies `{fname}` in place to raw `{fmt}` values{simd}.
{code_panics}{attrs}#[inline]
#[track_caller]
pub fn apply_{fmt}_bits(xs: &mut [{bits}]) {{
    {apply}(&{table}, xs);
}}

/// Writes `{fname}` of the raw `{fmt}` values `xs` to `ys`.
{len_panics}{attrs}#[inline]
#[track_caller]
pub fn map_{fmt}_bits(xs: &[{bits}], ys: &mut [{bits}]) {{
    {map}(&{table}, xs, ys);
}}
"#
        );
    }
}

/// `Activation`: the enum, its conversions, and its table getters.
fn activation(funcs: &[Func], reprs: &[Repr]) -> String {
    let mut s = String::from(HEADER);
    s.push_str(
        r#"
//! `Activation`, its conversions and its table and slice methods; `src/activation.rs`
//! re-exports it and holds the hand-written rest.

use crate::{Format, MissingTable, TableRef};
use actlut_core::Function;

/// An activation function chosen at run time.
///
/// Every function of actlut-core's `Function::ALL` is a variant, whatever
/// the enabled features. Its table methods return [`MissingTable`] when the
/// table is compiled out (its function's or its format's cargo feature is off).
/// Note that a binary that dispatches through `Activation` keeps every
/// *enabled* table of the format it uses (and [`Activation::table`] every
/// enabled table of every format); the per-function modules (`actlut::gelu`, …)
/// keep only the tables they reference.
///
/// ```
/// # #[cfg(all(feature = "all-functions", feature = "f16"))] {
/// use actlut::Activation;
/// use half::f16;
///
/// let act: Activation = "silu".parse().unwrap();
/// let mut xs = [f16::from_f32(2.0), f16::from_f32(-0.0)];
/// act.apply_f16(&mut xs)?;
/// assert_eq!(xs[0], f16::from_f32(1.7617)); // 2·sigmoid(2) = 1.76159…
/// assert!(xs[1].is_sign_negative() && xs[1] == f16::ZERO);
/// # }
/// # Ok::<(), actlut::MissingTable>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Activation {
"#,
    );
    for f in funcs {
        let _ = writeln!(
            s,
            "    /// `{}`: `{}`.\n    ///\n    /// Tables need the feature `{}`.\n    {},",
            f.name, f.definition, f.feature, f.variant
        );
    }
    s.push_str(
        "}\n\nimpl Activation {\n    \
         /// Every activation, in the order of the lock file (`Function::ALL`).\n    \
         pub const ALL: [Activation; Function::ALL.len()] = [\n",
    );
    for f in funcs {
        let _ = writeln!(s, "        Activation::{},", f.variant);
    }
    s.push_str(
        "    ];\n\n    \
         /// The reference function of `actlut-core`.\n    \
         pub const fn function(self) -> Function {\n        match self {\n",
    );
    for f in funcs {
        let _ = writeln!(
            s,
            "            Activation::{0} => Function::{0},",
            f.variant
        );
    }
    s.push_str(
        "        }\n    }\n\n    \
         /// The activation of a reference function of `actlut-core`.\n    \
         ///\n    \
         /// # Panics\n    \
         ///\n    \
         /// Never for a function of `Function::ALL`, which lists every function.\n    \
         pub const fn from_function(function: Function) -> Activation {\n        \
         match function {\n",
    );
    for f in funcs {
        let _ = writeln!(
            s,
            "            Function::{0} => Activation::{0},",
            f.variant
        );
    }
    s.push_str(
        "            #[allow(unreachable_patterns)]\n            \
         _ => panic!(\"a function missing from Function::ALL\"),\n        }\n    }\n",
    );

    // One getter per format, typed by its representation; for 16-bit formats
    // also the getter of the compact form (the `compact` feature) and the
    // crate's getter of the form the lookups read.
    for r in reprs {
        let mut getter = |name: &str,
                          doc: &str,
                          vis: &str,
                          gate: &str,
                          ty: &str,
                          path: &dyn Fn(&Func) -> String| {
            let _ = write!(
                s,
                "\n    /// {doc}\n{gate}    {vis}fn {name}(self) -> Result<&'static {ty}, MissingTable> {{\n        \
                 match self {{\n",
            );
            for f in funcs.iter().filter(|f| f.has_table(r)) {
                let _ = writeln!(
                    s,
                    "            #[cfg({})]\n            Activation::{} => Ok(&{}),",
                    emit::cfg_predicate(&[f.feature, r.feature]),
                    f.variant,
                    path(f)
                );
            }
            let _ = write!(
                s,
                "            #[allow(unreachable_patterns)]\n            \
                 _ => Err(MissingTable {{ activation: self, format: {} }}),\n        }}\n    }}\n",
                r.variant
            );
        };
        let fmt = r.name;
        if emit::is_16_bit(r.format) {
            getter(
                &format!("table_{fmt}"),
                &format!(
                    "The full `{fmt}` table, if compiled in: a `[u16; 65536]` in every build \
                     (a binary that calls it\n    /// keeps the full tables of `{fmt}`, with `compact` too)."
                ),
                "pub ",
                "",
                &r.table_ty(),
                &|f| f.table(r),
            );
            getter(
                &format!("compact_table_{fmt}"),
                &format!(
                    "The compact `{fmt}` table, if compiled in (the `compact` feature: \
                     [`tables::compact`](crate::tables::compact))."
                ),
                "pub ",
                &emit::cfg_attrs("    ", &["compact"]),
                "crate::compact::CompactRef<'static>",
                &|f| {
                    format!(
                        "crate::tables::compact_table!({}_{})",
                        f.name.to_uppercase(),
                        r.name.to_uppercase()
                    )
                },
            );
            getter(
                &format!("read_table_{fmt}"),
                &format!("The `{fmt}` table the lookups read: full, or compact with `compact`."),
                "pub(crate) ",
                "",
                &r.read_ty(),
                &|f| f.read(r),
            );
        } else {
            getter(
                &format!("table_{fmt}"),
                &format!("The `{fmt}` table, if compiled in."),
                "pub ",
                "",
                &r.table_ty(),
                &|f| f.table(r),
            );
        }
    }

    // Every format through one method.
    s.push_str(
        r#"
    /// The table over `format`, if compiled in: the one entry point for code
    /// that handles every format alike.
    ///
    /// A binary that calls it keeps every enabled table (of every format); the
    /// per-format getters ([`table_f16`](Self::table_f16), …) keep one format's.
    ///
    /// ```
    /// # #[cfg(all(feature = "gelu", feature = "all-formats"))] {
    /// use actlut::{Activation, Format};
    ///
    /// for format in Format::ALL {
    ///     let table = Activation::Gelu.table(format)?;
    ///     assert_eq!(table.entries(), format.entries());
    ///     // gelu(+0) = +0 in every format.
    ///     assert_eq!(table.get(0), Some(0));
    /// }
    /// # }
    /// # Ok::<(), actlut::MissingTable>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`MissingTable`] naming the features to enable when the function's or
    /// the format's feature is off.
    pub fn table(self, format: Format) -> Result<TableRef, MissingTable> {
        match (self, format) {
"#,
    );
    for r in reprs {
        for f in funcs.iter().filter(|f| f.has_table(r)) {
            let _ = writeln!(
                s,
                "            #[cfg({})]\n            (Activation::{}, {}) => Ok({}(&{})),",
                emit::cfg_predicate(&[f.feature, r.feature]),
                f.variant,
                r.variant,
                r.table_ref(),
                f.read(r)
            );
        }
    }
    s.push_str(
        "            _ => Err(MissingTable { activation: self, format }),\n        }\n    }\n",
    );

    // Typed one-value and slice methods for formats with a value type.
    for r in reprs {
        let Some(ty) = r.value_ty else { continue };
        let (apply, map) = r.kernels();
        let _ = write!(
            s,
            r#"
    /// `self` at one `{fmt}`: one table load.
    ///
    /// # Errors
    ///
    /// [`MissingTable`] when the table is not compiled in.
    pub fn {fmt}(self, x: {ty}) -> Result<{ty}, MissingTable> {{
        Ok({ty}::from_bits(crate::kernels::read::at(self.read_table_{fmt}()?, x.to_bits())))
    }}

    /// Applies `self` in place to every `{fmt}` of `xs`.
    ///
    /// # Errors
    ///
    /// [`MissingTable`] when the table is not compiled in (`xs` is unchanged).
    pub fn apply_{fmt}(self, xs: &mut [{ty}]) -> Result<(), MissingTable> {{
        use half::slice::HalfFloatSliceExt;
        {apply}(self.read_table_{fmt}()?, xs.reinterpret_cast_mut());
        Ok(())
    }}

    /// Writes `self` of every `{fmt}` of `xs` to `ys`.
    ///
    /// # Errors
    ///
    /// [`MapError::MissingTable`](crate::MapError::MissingTable) when the table is not compiled
    /// in, [`MapError::LengthMismatch`](crate::MapError::LengthMismatch) naming both lengths when
    /// `xs.len() != ys.len()` ([`LengthMismatch`](crate::LengthMismatch) has an example); `ys`
    /// is then unchanged.
    pub fn map_{fmt}(self, xs: &[{ty}], ys: &mut [{ty}]) -> Result<(), crate::MapError> {{
        use half::slice::HalfFloatSliceExt;
        let t = self.read_table_{fmt}()?;
        crate::LengthMismatch::check(xs.len(), ys.len())?;
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
         use crate::{Activation, Format};\n",
    );
    for r in reprs {
        let (fmt, bits, variant) = (r.name, r.bits_ty, &r.variant);
        if let Some(ty) = r.value_ty {
            let _ = write!(
                s,
                r#"
/// `act` at one `{fmt}`, computed.
pub fn {fmt}(act: Activation, x: {ty}) -> {ty} {{
    {ty}::from_bits({fmt}_bits(act, x.to_bits()))
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
/// `act` at one `{fmt}` given and returned as raw bits, computed.
///
/// # Panics
///
/// If `{fmt}` cannot represent `act` ([`Format::can_represent`]: log and
/// rsqrt over a format without NaN).
pub fn {fmt}_bits(act: Activation, x: {bits}) -> {bits} {{
    actlut_core::eval(act.function(), {variant}, {arg}){ret}
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
    {fmt}(Activation::{variant}, x)
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
    f32(Activation::{variant}, x)
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
/// `tests/generated_api.rs`): one test per
/// (function, format) that calls each of its items through the helpers of
/// [`TESTS_PREAMBLE`], and one test per function of the computed shorthands.
fn tests(funcs: &[Func], reprs: &[Repr]) -> String {
    let mut s = String::from(HEADER);
    s.push_str(TESTS_PREAMBLE);
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
                    "    let want = typed(\n        Activation::{variant},\n        {},\n        \
                     [actlut::{fname}::{fmt}, |x| Activation::{variant}.{fmt}(x).unwrap()],\n        \
                     actlut::{fname}::{fmt}_bits,\n        \
                     [actlut::{fname}::apply_{fmt}, |xs| Activation::{variant}.apply_{fmt}(xs).unwrap()],\n        \
                     [actlut::{fname}::map_{fmt}, |xs, ys| Activation::{variant}.map_{fmt}(xs, ys).unwrap()],\n        \
                     actlut::{fname}::apply_{fmt}_bits,\n        \
                     actlut::{fname}::map_{fmt}_bits,\n    );\n    \
                     full(&want, Activation::{variant}.table_{fmt}().unwrap());\n    \
                     #[cfg(feature = \"compact\")]\n    \
                     compact(&want, Activation::{variant}.compact_table_{fmt}().unwrap());\n}}\n",
                    r.variant,
                );
            } else {
                let _ = write!(
                    s,
                    "    bytes(\n        Activation::{variant},\n        {},\n        \
                     Activation::{variant}.table_{fmt}().unwrap(),\n        \
                     actlut::{fname}::{fmt}_bits,\n        \
                     actlut::{fname}::apply_{fmt}_bits,\n        \
                     actlut::{fname}::map_{fmt}_bits,\n    );\n}}\n",
                    r.variant,
                );
            }
        }
    }
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
                "    shorthand(Activation::{variant}, computed::{fname}_{fmt}, computed::{fmt});"
            );
        }
        let _ = writeln!(
            s,
            "    shorthand_f32(Activation::{variant}, computed::{fname}_f32);\n}}"
        );
    }
    for r in reprs {
        let (fmt, variant) = (r.name, &r.variant);
        let _ = write!(
            s,
            "\n#[test]\nfn computed_{fmt}_functions_equal_bits() {{\n    \
             for act in Activation::ALL.into_iter().filter(|a| {variant}.can_represent(a.function())) {{\n        \
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

/// The helpers every generated test calls: they hold the assertions, so that a test is
/// the list of one (function, format)'s items.
const TESTS_PREAMBLE: &str = r#"
//! Every generated entry point of the runtime against its table, at every input: the
//! per-function modules (`actlut::gelu::f16`, `apply_f16`, `map_f16_bits`, …), the
//! `Activation` methods, the table getters and the computed path's per-format functions
//! and shorthands. `tests/exhaustive.rs` holds the tables themselves to the computed path.

#![allow(clippy::type_complexity, clippy::too_many_arguments)]

use actlut::{computed, Activation, Format};

/// A 16-bit value type of the typed entry points.
trait Value: Copy + core::fmt::Debug {
    fn from_bits(bits: u16) -> Self;
    fn to_bits(self) -> u16;
}

impl Value for half::f16 {
    fn from_bits(bits: u16) -> Self {
        half::f16::from_bits(bits)
    }
    fn to_bits(self) -> u16 {
        half::f16::to_bits(self)
    }
}

impl Value for half::bf16 {
    fn from_bits(bits: u16) -> Self {
        half::bf16::from_bits(bits)
    }
    fn to_bits(self) -> u16 {
        half::bf16::to_bits(self)
    }
}

/// The inputs of the computed path's tests: every code of a byte format, a stride of a
/// 16-bit one (`tests/exhaustive.rs` compares every table entry with `computed::bits`).
#[allow(dead_code)]
fn inputs(format: Format) -> impl Iterator<Item = u16> {
    let step = if format.entry_bytes() == 2 { 61 } else { 1 };
    (0..format.entries()).step_by(step).map(|i| i as u16)
}

/// The table of `act` over `format`, as [`Activation::table`] gives it, after checking
/// that each typed, raw and slice entry point gives its entry at every input.
#[allow(dead_code)]
fn typed<T: Value>(
    act: Activation,
    format: Format,
    one: [fn(T) -> T; 2],
    one_bits: fn(u16) -> u16,
    apply: [fn(&mut [T]); 2],
    map: [fn(&[T], &mut [T]); 2],
    apply_bits: fn(&mut [u16]),
    map_bits: fn(&[u16], &mut [u16]),
) -> Vec<u16> {
    let table = act.table(format).unwrap();
    assert_eq!(table.entries(), 1 << 16);
    let want: Vec<u16> = table.iter().collect();
    let xs: Vec<u16> = (0..=u16::MAX).collect();
    let values: Vec<T> = xs.iter().map(|&x| T::from_bits(x)).collect();
    let bits = |v: &[T]| v.iter().map(|y| y.to_bits()).collect::<Vec<u16>>();
    let name = format!("{}_{}", act.name(), format.name());
    for (i, one) in one.into_iter().enumerate() {
        let got: Vec<T> = values.iter().map(|&x| one(x)).collect();
        assert_eq!(bits(&got), want, "{name}: one value ({})", ["module", "Activation"][i]);
    }
    let got: Vec<u16> = xs.iter().map(|&x| one_bits(x)).collect();
    assert_eq!(got, want, "{name}: one raw value");
    for (i, apply) in apply.into_iter().enumerate() {
        let mut a = values.clone();
        apply(&mut a);
        assert_eq!(bits(&a), want, "{name}: apply ({})", ["module", "Activation"][i]);
    }
    for (i, map) in map.into_iter().enumerate() {
        let mut m = values.clone();
        map(&values, &mut m);
        assert_eq!(bits(&m), want, "{name}: map ({})", ["module", "Activation"][i]);
    }
    let mut a = xs.clone();
    apply_bits(&mut a);
    assert_eq!(a, want, "{name}: apply to raw values");
    let mut m = xs.clone();
    map_bits(&xs, &mut m);
    assert_eq!(m, want, "{name}: map raw values");
    want
}

/// The full table getter gives the entries `want`.
#[allow(dead_code)]
fn full(want: &[u16], table: &[u16; 65536]) {
    assert_eq!(table.as_slice(), want);
}

/// The compact table getter gives the entries `want`.
#[cfg(feature = "compact")]
#[allow(dead_code)]
fn compact(want: &[u16], table: &actlut::compact::CompactRef<'static>) {
    let got: Vec<u16> = (0..=u16::MAX).map(|x| table.get(x)).collect();
    assert_eq!(got, want);
}

/// Each raw entry point of a format coded in a byte gives the entry of `table` (the
/// typed getter's table, equal to [`Activation::table`]'s) at every code.
#[allow(dead_code)]
fn bytes<const N: usize>(
    act: Activation,
    format: Format,
    table: &[u8; N],
    one: fn(u8) -> u8,
    apply: fn(&mut [u8]),
    map: fn(&[u8], &mut [u8]),
) {
    let want: Vec<u8> = act.table(format).unwrap().iter().map(|v| v as u8).collect();
    assert_eq!(N, format.entries());
    assert_eq!(table.as_slice(), want);
    let name = format!("{}_{}", act.name(), format.name());
    let xs: Vec<u8> = (0..N).map(|i| i as u8).collect();
    let got: Vec<u8> = xs.iter().map(|&x| one(x)).collect();
    assert_eq!(got, want, "{name}: one raw value");
    let mut a = xs.clone();
    apply(&mut a);
    assert_eq!(a, want, "{name}: apply");
    let mut m = xs.clone();
    map(&xs, &mut m);
    assert_eq!(m, want, "{name}: map");
}

/// A computed shorthand of `act` (`computed::gelu_f16`) is the per-format function
/// (`computed::f16`) at `act`.
fn shorthand<T: Value>(act: Activation, short: fn(T) -> T, general: fn(Activation, T) -> T) {
    for x in [0x0000, 0x8001, 0x3C00, 0xC2A5, 0x4000, 0x7C01] {
        let x = T::from_bits(x);
        assert_eq!(short(x).to_bits(), general(act, x).to_bits(), "{act:?} {x:?}");
    }
}

/// A computed `f32` shorthand of `act` (`computed::gelu_f32`) is `computed::f32` at `act`.
fn shorthand_f32(act: Activation, short: fn(f32) -> f32) {
    for x in [0.0f32, -1.5, 3.25, -1e-30] {
        assert_eq!(short(x).to_bits(), computed::f32(act, x).to_bits(), "{act:?} {x}");
    }
}
"#;
