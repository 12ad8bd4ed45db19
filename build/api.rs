//! Generates the runtime API of every (function, format) pair from
//! `Function::ALL × Format::ALL`: the per-function modules, `Activation`, and
//! the computed path's per-format functions and shorthands.
//!
//! The output depends only on those two lists, not on the enabled features:
//! every feature-gated item carries its `#[cfg]` (and its `doc(cfg)` for
//! docs.rs), so the generated text is the same in every build. The only
//! per-format decision is [`Repr`]: how a format's tables are stored and
//! whether Rust has a type for its values. A new format gets its items from
//! that; a new function needs nothing here.

use std::fmt::Write as _;

use actlut_codegen::{Format, Function};

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
    pub format: Format,
}

impl Repr {
    pub fn of(format: Format) -> Repr {
        // Values of up to 8 bits are coded in a byte (in its low bits when
        // narrower), wider ones in a `u16`.
        let bits_ty = match format.bits() {
            9..=16 => "u16",
            1..=8 => "u8",
            n => panic!(
                "format {}: {n}-bit values have no runtime representation",
                format.name()
            ),
        };
        if bits_ty == "u16" {
            assert_eq!(format.entries(), 1 << 16, "{}", format.name());
        }
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
        if self.bits_ty == "u16" {
            "crate::compact::table_ref"
        } else {
            "TableRef::Byte"
        }
    }

    /// The type a public table getter returns a reference to: `[u16; 65536]`
    /// or `[u8; N]`, in every build.
    fn table_ty(&self) -> String {
        format!("[{}; {}]", self.bits_ty, self.entries)
    }

    /// The type of the table the lookups read: for 16-bit formats the form
    /// the `compact` feature selects (`crate::compact::ReadTable`).
    fn read_ty(&self) -> String {
        if self.bits_ty == "u16" {
            "crate::compact::ReadTable".into()
        } else {
            self.table_ty()
        }
    }

    /// The slice functions (in place, out of place) over raw bits.
    fn kernels(&self) -> (&'static str, &'static str) {
        match (self.bits_ty, self.entries) {
            // Full or compact, by the type of the table (`crate::compact::Lookup16`).
            ("u16", _) => ("crate::compact::apply", "crate::compact::map"),
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

    /// The full table over `r`, as a place: `(*crate::tables::GELU_TANH_F16)`
    /// (the static is a reference into the table's declared static).
    fn table(&self, r: &Repr) -> String {
        format!(
            "(*crate::tables::{}_{})",
            self.name.to_uppercase(),
            r.name.to_uppercase()
        )
    }

    /// The static the lookups over `r` read: for a 16-bit format the form the
    /// `compact` feature selects (`crate::tables::read::GELU_F16`), otherwise
    /// the table.
    fn read(&self, r: &Repr) -> String {
        if r.bits_ty == "u16" {
            format!(
                "crate::tables::read::{}_{}",
                self.name.to_uppercase(),
                r.name.to_uppercase()
            )
        } else {
            self.table(r)
        }
    }
}

fn cfg(features: &[&str]) -> String {
    let list: Vec<String> = features
        .iter()
        .map(|f| format!("feature = \"{f}\""))
        .collect();
    let pred = if list.len() == 1 {
        list[0].clone()
    } else {
        format!("all({})", list.join(", "))
    };
    format!("#[cfg({pred})]\n#[cfg_attr(docsrs, doc(cfg({pred})))]\n")
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

const HEADER: &str = "// \x40generated by actlut's build.rs (build/api.rs) from actlut-codegen's\n\
                      // Function::ALL × Format::ALL; do not edit.\n";

/// Every generated API file: (file name in `OUT_DIR`, contents).
pub fn generate() -> Vec<(&'static str, String)> {
    let funcs: Vec<Func> = Function::ALL.into_iter().map(Func::of).collect();
    let reprs: Vec<Repr> = Format::ALL.into_iter().map(Repr::of).collect();
    vec![
        ("functions.rs", functions(&funcs, &reprs)),
        ("activation.rs", activation(&funcs, &reprs)),
        ("computed.rs", computed(&funcs, &reprs)),
    ]
}

/// The per-function modules: `actlut::gelu::{f16, apply_f16, fp8_e4m3_bits, …}`.
fn functions(funcs: &[Func], reprs: &[Repr]) -> String {
    let mut s = String::from(HEADER);
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
    s.push_str(
        "\n/// Every generated entry point against its table, at every input.\n\
         #[cfg(test)]\nmod generated_tests {\n",
    );
    for f in funcs {
        for r in reprs.iter().filter(|r| f.has_table(r)) {
            module_tests(&mut s, f, r);
        }
    }
    s.push_str("}\n");
    s
}

/// A test of every item of `f` over `r` (module and `Activation` methods):
/// each gives the table's entry at every input.
fn module_tests(s: &mut String, f: &Func, r: &Repr) {
    let (fname, fmt, bits, variant) = (f.name, r.name, r.bits_ty, &f.variant);
    let fmt_variant = &r.variant;
    let _ = write!(
        s,
        r#"
    #[cfg(all(feature = "{feature}", feature = "{fmt_feature}"))]
    #[test]
    fn {fname}_{fmt}_entry_points_give_the_table_entry_at_every_input() {{
        use crate::{{Activation, Format}};
        use std::vec::Vec;
        let table = Activation::{variant}.table({fmt_variant}).unwrap();
        assert_eq!(table.entries(), {fmt_variant}.entries());
        let want: Vec<{bits}> = table.iter(){narrow}.collect();
        let xs: Vec<{bits}> = (0..want.len()).map(|i| i as {bits}).collect();
        let direct: Vec<{bits}> = xs.iter().map(|&x| {direct}).collect();
        assert_eq!(direct, want, "Activation::table_{fmt}");
        let one: Vec<{bits}> = xs.iter().map(|&x| super::{fname}::{fmt}_bits(x)).collect();
        assert_eq!(one, want, "{fname}::{fmt}_bits");
{compact}"#,
        feature = f.feature,
        fmt_feature = r.feature,
        narrow = if bits == "u16" {
            ""
        } else {
            ".map(|v| v as u8)"
        },
        compact = if bits == "u16" {
            format!(
                "        #[cfg(feature = \"compact\")]\n        {{\n            \
                 let c = Activation::{variant}.compact_table_{fmt}().unwrap();\n            \
                 let got: Vec<u16> = xs.iter().map(|&x| c.get(x)).collect();\n            \
                 assert_eq!(got, want, \"Activation::compact_table_{fmt}\");\n        }}\n"
            )
        } else {
            String::new()
        },
        direct = if bits == "u16" {
            format!("crate::compact::at(Activation::{variant}.table_{fmt}().unwrap(), x)")
        } else {
            format!("Activation::{variant}.table_{fmt}().unwrap()[usize::from(x)]")
        },
    );
    if let Some(ty) = r.value_ty {
        let _ = write!(
            s,
            r#"        let typed: Vec<{ty}> = xs.iter().map(|&x| {ty}::from_bits(x)).collect();
        let to_bits = |v: &[{ty}]| v.iter().map(|y| y.to_bits()).collect::<Vec<{bits}>>();
        let one: Vec<{ty}> = typed.iter().map(|&x| super::{fname}::{fmt}(x)).collect();
        assert_eq!(to_bits(&one), want, "{fname}::{fmt}");
        let one: Vec<{ty}> = typed.iter().map(|&x| Activation::{variant}.{fmt}(x).unwrap()).collect();
        assert_eq!(to_bits(&one), want, "Activation::{fmt}");
        let mut a = typed.clone();
        super::{fname}::apply_{fmt}(&mut a);
        assert_eq!(to_bits(&a), want, "{fname}::apply_{fmt}");
        let mut a = typed.clone();
        Activation::{variant}.apply_{fmt}(&mut a).unwrap();
        assert_eq!(to_bits(&a), want, "Activation::apply_{fmt}");
        let mut m = typed.clone();
        super::{fname}::map_{fmt}(&typed, &mut m);
        assert_eq!(to_bits(&m), want, "{fname}::map_{fmt}");
        let mut m = typed.clone();
        Activation::{variant}.map_{fmt}(&typed, &mut m).unwrap();
        assert_eq!(to_bits(&m), want, "Activation::map_{fmt}");
        let mut a = xs.clone();
        super::{fname}::apply_{fmt}_bits(&mut a);
        assert_eq!(a, want, "{fname}::apply_{fmt}_bits");
        let mut m = xs.clone();
        super::{fname}::map_{fmt}_bits(&xs, &mut m);
        assert_eq!(m, want, "{fname}::map_{fmt}_bits");
    }}
"#
        );
    } else {
        let _ = write!(
            s,
            r#"        let mut a = xs.clone();
        super::{fname}::apply_{fmt}_bits(&mut a);
        assert_eq!(a, want, "{fname}::apply_{fmt}_bits");
        let mut m = xs.clone();
        super::{fname}::map_{fmt}_bits(&xs, &mut m);
        assert_eq!(m, want, "{fname}::map_{fmt}_bits");
    }}
"#
        );
    }
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
    {ty}::from_bits(crate::compact::at(&{table}, x.to_bits()))
}}

/// `{fname}` of one `{fmt}` given and returned as raw bits.
{attrs}#[inline]
pub fn {fmt}_bits(x: {bits}) -> {bits} {{
    crate::compact::at(&{table}, x)
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
/// An activation function chosen at run time.
///
/// Every function of actlut-codegen's `Function::ALL` is a variant, whatever
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
         /// The reference function of `actlut-codegen`.\n    \
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
         /// The activation of a reference function of `actlut-codegen`.\n    \
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
                    "            #[cfg(all(feature = \"{}\", feature = \"{}\"))]\n            \
                     Activation::{} => Ok(&{}),",
                    f.feature,
                    r.feature,
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
        if r.bits_ty == "u16" {
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
                "    #[cfg(feature = \"compact\")]\n    #[cfg_attr(docsrs, doc(cfg(feature = \"compact\")))]\n",
                "crate::compact::CompactRef<'static>",
                &|f| {
                    format!(
                        "crate::tables::compact::{}_{}",
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
                "            #[cfg(all(feature = \"{}\", feature = \"{}\"))]\n            \
                 (Activation::{}, {}) => Ok({}(&{})),",
                f.feature,
                r.feature,
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
        Ok({ty}::from_bits(crate::compact::at(self.read_table_{fmt}()?, x.to_bits())))
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
    actlut_codegen::eval(act.function(), {variant}, {arg}){ret}
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
    s.push_str(
        "\n/// Every generated function of the computed path against [`bits`], the\n\
         /// one spelling of the evaluation for every format.\n\
         #[cfg(test)]\nmod generated_tests {\n    \
         use super::*;\n",
    );
    for r in reprs {
        let (fmt, bits, variant) = (r.name, r.bits_ty, &r.variant);
        let arg = if bits == "u16" { "x" } else { "u16::from(x)" };
        // Every input for byte formats; a stride for 16-bit ones (the
        // exhaustive tests compare every table entry with `bits`).
        let step = if bits == "u16" { 61 } else { 1 };
        let widen = if bits == "u16" {
            format!("{fmt}_bits(act, x)")
        } else {
            format!("u16::from({fmt}_bits(act, x))")
        };
        let _ = write!(
            s,
            r#"
    #[test]
    fn {fmt}_functions_equal_bits() {{
        for act in Activation::ALL {{
            if !{variant}.can_represent(act.function()) {{
                continue;
            }}
            for x in (0..{variant}.entries()).step_by({step}).map(|i| i as {bits}) {{
                let want = bits(act, {variant}, {arg});
                assert_eq!({widen}, want, "{{act:?}} {{x:#x}}");
"#
        );
        if let Some(ty) = r.value_ty {
            let _ = writeln!(
                s,
                "                assert_eq!({fmt}(act, {ty}::from_bits(x)).to_bits(), want);"
            );
        }
        s.push_str("            }\n        }\n    }\n");
    }
    s.push_str("\n    #[test]\n    fn shorthands_are_their_function_at_one_format() {\n");
    for f in funcs {
        let variant = &f.variant;
        for r in reprs {
            let Some(ty) = r.value_ty else { continue };
            let _ = writeln!(
                s,
                "        for x in [0x0000, 0x8001, 0x3C00, 0xC2A5, 0x4000, 0x7C01] {{\n            \
                 let x = {ty}::from_bits(x);\n            \
                 assert_eq!({name}_{fmt}(x).to_bits(), {fmt}(Activation::{variant}, x).to_bits());\n        }}",
                name = f.name,
                fmt = r.name,
            );
        }
        let _ = writeln!(
            s,
            "        for x in [0.0f32, -1.5, 3.25, -1e-30] {{\n            \
             assert_eq!({name}_f32(x).to_bits(), f32(Activation::{variant}, x).to_bits());\n        }}",
            name = f.name,
        );
    }
    s.push_str("    }\n}\n");
    s
}
