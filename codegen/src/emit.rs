//! The spellings that actlut's build script (the tables, their statics) and its API
//! generator (`cargo xtask regenerate-api`, the committed
//! `src/generated/`) must share: the name and type of a table's `static`, and the gate of
//! a feature-dependent item. Each is written here once.

use crate::{table_name, Format, Function};

/// The name of the `static` that holds the table of `function` over `format`, in
/// `actlut::tables` (and `actlut::tables::compact`): `GELU_F16`, `GELU_TANH_BF16`.
///
/// ```
/// use actlut_codegen::{emit, Format, Function};
/// assert_eq!(emit::static_name(Function::GeluTanh, Format::Fp8E4M3), "GELU_TANH_FP8_E4M3");
/// ```
pub fn static_name(function: Function, format: Format) -> String {
    static_name_of(&table_name(function, format))
}

/// The name of the `static` of the table named `table_name` ([`crate::table_name`]):
/// its upper case, `GELU_F16` for `gelu_f16`.
pub fn static_name_of(table_name: &str) -> String {
    table_name.to_uppercase()
}

/// Whether `format`'s values are 16 bits wide (a table entry and a raw value are a
/// `u16`, and the table has a compact form); the other formats are coded in one byte.
/// The one test of it: [`Format::entry_bytes`] is 2.
///
/// ```
/// use actlut_codegen::{emit, Format};
/// assert!(emit::is_16_bit(Format::Bf16));
/// assert!(!emit::is_16_bit(Format::Fp4E2M1));
/// ```
pub fn is_16_bit(format: Format) -> bool {
    format.entry_bytes() == 2
}

/// The Rust type of one entry of a table over `format` and of one raw value: `u16` for
/// the 16-bit formats ([`is_16_bit`]), `u8` for the others.
pub fn entry_type(format: Format) -> &'static str {
    if is_16_bit(format) {
        "u16"
    } else {
        "u8"
    }
}

/// The two attribute lines that gate an item on cargo `features` (all of them) and mark it
/// for docs.rs: `#[cfg(…)]` and `#[cfg_attr(docsrs, doc(cfg(…)))]`, each ending in a
/// newline, prefixed by `indent`.
///
/// ```
/// use actlut_codegen::emit;
/// assert_eq!(
///     emit::cfg_attrs("", &["gelu", "f16"]),
///     "#[cfg(all(feature = \"gelu\", feature = \"f16\"))]\n\
///      #[cfg_attr(docsrs, doc(cfg(all(feature = \"gelu\", feature = \"f16\"))))]\n",
/// );
/// assert_eq!(
///     emit::cfg_attrs("    ", &["compact"]),
///     "    #[cfg(feature = \"compact\")]\n    #[cfg_attr(docsrs, doc(cfg(feature = \"compact\")))]\n",
/// );
/// ```
///
/// # Panics
///
/// If `features` is empty (an item with no gate needs no attribute).
pub fn cfg_attrs(indent: &str, features: &[&str]) -> String {
    let pred = cfg_predicate(features);
    format!("{indent}#[cfg({pred})]\n{indent}#[cfg_attr(docsrs, doc(cfg({pred})))]\n")
}

/// The `cfg` predicate that holds when every one of `features` is enabled:
/// `feature = "gelu"`, or `all(feature = "gelu", feature = "f16")`.
///
/// # Panics
///
/// If `features` is empty.
pub fn cfg_predicate(features: &[&str]) -> String {
    let list: Vec<String> = features
        .iter()
        .map(|f| format!("feature = \"{f}\""))
        .collect();
    match list.as_slice() {
        [] => panic!("a cfg predicate needs at least one feature"),
        [one] => one.clone(),
        _ => format!("all({})", list.join(", ")),
    }
}

/// The item of `actlut::tables::checked` (the `self-check` feature) for a declared table
/// `static`: a `manifest::Checked`, which verifies the table in memory before its first use,
/// and the `manifest::Source` it is made of. `gate` is the items' `#[cfg]` lines; `declared`
/// the path of its declared static from the module the items go in
/// (`super::GELU_F16_DECLARED`, `super::super::compact::GELU_F16_STORED.0`), `table` the
/// path of the reference the lookups read, `ty` the table's type, `sha` the path of the
/// table's SHA-256 (of its entries), `record_sha` that of the hash its declaration holds (the
/// stored form's, for a compact form).
///
/// The `Checked` holds no data. The `Source`, a type of its own (`<ITEM>_SOURCE`), has two
/// functions that are never inlined (so they are compiled in actlut, and the `static`s they
/// name are not reached from other crates): `reach` returns the table with its key once its
/// first-use state says it was verified, `check` verifies it (hashing the same reference it
/// returns) and sets the state. The state is a `static` of its own, `<ITEM>_FIRST_USE`, zero,
/// so that it lies in `.bss` (no byte of the program's file holds it), and only these two
/// functions name it, so that the code reaches it through its own address, not through a
/// pointer in the program's data. The name is a suffix of a longer literal, so that no name
/// stands alone in read-only data next to a hash (which the audit would read as parts of a
/// declaration).
pub fn checked_static(
    gate: &str,
    name: &str,
    ty: &str,
    declared: &str,
    table: &str,
    sha: &str,
    record_sha: &str,
) -> String {
    let item = static_name_of(name);
    const PREFIX: &str = "actlut table ";
    let text = format!("{PREFIX}{name}");
    let skip = PREFIX.len();
    format!(
        "\n/// [`{item}`](crate::tables) verified in memory before its first use (`self-check`).\n\
         {gate}pub static {item}: crate::manifest::Checked<{item}_SOURCE> = crate::manifest::Checked::new();\n\
         {gate}static {item}_FIRST_USE: crate::manifest::FirstUse = crate::manifest::FirstUse::new();\n\
         /// How the code reaches [`{item}`]'s table, declaration and state.\n\
         {gate}#[doc(hidden)]\n#[allow(non_camel_case_types)]\npub struct {item}_SOURCE;\n\
         {gate}impl crate::manifest::sealed::Sealed for {item}_SOURCE {{}}\n\
         {gate}impl crate::manifest::Source for {item}_SOURCE {{\n    \
         type Table = {ty};\n    \
         const NAME: &'static str = crate::manifest::name_after({text:?}, {skip});\n    \
         const SHA256: [u8; 32] = {sha};\n    \
         const KEY: u64 = crate::manifest::key_of(&{sha});\n    \
         #[inline(never)]\n    \
         fn reach() -> (&'static {ty}, u64) {{\n        \
         {item}_FIRST_USE.reach({table}, Self::KEY)\n    }}\n    \
         #[inline(never)]\n    \
         fn check() -> Result<(&'static {ty}, u64), crate::manifest::SelfCheckError> {{\n        \
         let table = crate::manifest::verify_table(Self::NAME, &{declared}.record, {table}, &{sha}, \
         &{record_sha}, &{item}_FIRST_USE)?;\n        \
         Ok((table, Self::KEY))\n    }}\n\
         }}\n"
    )
}

/// The item of `actlut::tables::checked` for a table whose bytes are another's (an alias):
/// the same checked static, as the table's `static` is the same.
pub fn checked_alias(gate: &str, name: &str, first: &str) -> String {
    format!(
        "\n/// The same table as [`{first}`], checked once for both names.\n\
         {gate}pub use self::{first} as {name};\n",
        first = static_name_of(first),
        name = static_name_of(name),
    )
}
