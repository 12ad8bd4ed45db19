//! Proc macros of [actlut]: tables computed at compile time.
//!
//! [`table!`] declares a `static` table of an op, a function with literal constants
//! (`softcap(cap = 30)`), over a format, with the declaration record and hash of every table.
//!
//! [`dequant_table!`] declares a `static` [`DequantTable`] (or `PackedDequantTable`) whose
//! entries the macro computes from literal parameters with `actlut-codegen`, exactly as
//! `DequantTable::new` would at run time: the same pipeline, the same bits, and no start-up
//! cost. Parameters are checked at compile time; an invalid one is a compile error that points
//! at it.
//!
//! Use it through actlut with its `macros` feature (`actlut::dequant_table!`); the expansion
//! names `::actlut`.
//!
//! [actlut]: https://docs.rs/actlut
//! [`DequantTable`]: https://docs.rs/actlut/latest/actlut/quant/struct.DequantTable.html

mod table;

use actlut_codegen::builder::literal;
use actlut_codegen::quant::{Op, OutputType, Pipeline, QuantError, QuantType, Rounding};
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use syn::parse::{Parse, ParseStream};
use syn::{parse_macro_input, Attribute, Ident, Lit, Token, Visibility};

/// Declares a `static` fused dequantize → function (→ requantize) table.
///
/// ```text
/// dequant_table!(ATTRS VIS static NAME: [packed] INPUT -> OUTPUT = OP, scale = S, zero_point = Z
///                [, out_scale = S2, out_zero_point = Z2 [, rounding = ties_even | ties_away]]);
/// ```
///
/// - `INPUT`: `i8`, `u8`, `i4`, `u4`, `i2`, `u2`; `packed i4` / `packed u4` declares a
///   `PackedDequantTable` (two values per byte, low nibble first), `packed i2` / `packed u2` a
///   `PackedDequantTable<_, _, 4>` (four values per byte, the lowest bits first: ONNX).
/// - `OUTPUT`: `f32`, `f16`, `bf16`, or `i8` / `u8` (requantized: `out_scale` and
///   `out_zero_point` are then required).
/// - `OP`: `identity` or a function name (`gelu`, `gelu_tanh`, `sigmoid`, …).
/// - `scale` (and `out_scale`): a number literal, rounded once to `f32`, finite and
///   positive; `zero_point` (and `out_zero_point`): an integer in the type's range.
/// - `rounding` (requantized outputs only): how `y / out_scale` rounds at an exact tie,
///   `ties_even` (the default, ONNX) or `ties_away` (TFLite, CMSIS-NN, ExecuTorch).
///
/// 16-bit inputs (`i16`, `u16`) are refused: their 65,536-entry tables belong in a build
/// script (`actlut_codegen::builder::Builder`, which embeds them with `include_bytes!`) or in a
/// caller's buffer at run time (`actlut::quant16`).
///
/// The static's type is `actlut::quant::DequantTable<INPUT, OUTPUT>` (with `actlut::quant::I4`
/// / `U4` for 4-bit inputs, `I2` / `U2` for 2-bit ones, and `half::f16` / `half::bf16`
/// outputs).
///
/// ```
/// use actlut_macros::dequant_table;
///
/// dequant_table!(static GELU_Q: i8 -> f32 = gelu, scale = 0.05, zero_point = -3);
/// dequant_table!(
///     /// Sigmoid of u8 activations, requantized to u8.
///     pub static SIGMOID_Q: u8 -> u8 = sigmoid,
///         scale = 0.1, zero_point = 128, out_scale = 0.00390625, out_zero_point = 0
/// );
/// dequant_table!(static TANH_I4: packed i4 -> f32 = tanh, scale = 0.5, zero_point = 0);
/// dequant_table!(static EXP_U2: packed u2 -> f32 = exp, scale = 1.0, zero_point = 0);
///
/// let run_time = actlut::quant::DequantTable::<i8, f32>::new(
///     actlut::Function::Gelu, 0.05, -3,
/// ).unwrap();
/// assert_eq!(GELU_Q.entries(), run_time.entries());
/// assert_eq!(GELU_Q.lookup(17), 0.841_344_75);
/// assert_eq!(SIGMOID_Q.lookup(128), 128);
/// assert_eq!(TANH_I4.lookup(0x10)[1], 0.5f32.tanh());
/// assert_eq!(EXP_U2.lookup(0b00_00_01_00)[1], 1f32.exp());
/// ```
///
/// Invalid parameters do not compile, and the error points at them:
///
/// ```compile_fail
/// actlut_macros::dequant_table!(static T: i8 -> f32 = gelu, scale = 0.0, zero_point = 0);
/// ```
///
/// ```compile_fail
/// actlut_macros::dequant_table!(static T: u4 -> f32 = gelu, scale = 1.0, zero_point = 16);
/// ```
///
/// ```compile_fail
/// actlut_macros::dequant_table!(static T: i8 -> i8 = gelu, scale = 0.1, zero_point = 0,
///     out_scale = 0.1, out_zero_point = 0, rounding = nearest);
/// ```
///
/// ```compile_fail
/// actlut_macros::dequant_table!(static T: i16 -> f32 = gelu, scale = 0.001, zero_point = 0);
/// ```
#[proc_macro]
pub fn dequant_table(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    let decl = parse_macro_input!(input as Declaration);
    match decl.expand() {
        Ok(ts) => ts.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

/// Declares a `static` table of an op (a function with literal constants) over a format,
/// computed when the crate compiles.
///
/// ```text
/// table!(ATTRS VIS static NAME: OP -> FORMAT);
/// OP:     function | function(constant = value, ...) | an engine's name (gelu_10, swigluoai)
/// value:  30 | 1.702 | -1e-6 | 1/6       (exact: the literal's decimal digits, never an f64)
/// FORMAT: f16 | bf16 | fp8_e4m3 | fp8_e5m2 | fp8_e4m3fnuz | fp8_e5m2fnuz | fp6_e2m3 | fp6_e3m2 | fp4_e2m1
/// ```
///
/// The static's type is `&'static [u16; 65536]` for the 16-bit formats and `&'static [u8; N]`
/// for the others (the table `actlut::tables` would hold): entry `i` is the op at the value
/// with bit pattern `i`, correctly rounded. Like the built-in tables it is stored after its
/// declaration record (`actlut::manifest::Declared`: name, length, byte order, SHA-256), in
/// the target's byte order, so `actlut audit` verifies it where it lies. Its doc comment
/// states its SHA-256.
///
/// ```
/// use actlut_macros::table;
///
/// table!(static SOFTCAP_30: softcap(cap = 30) -> bf16);
/// table!(
///     /// GPT-OSS's gate with alpha rounded to bf16, as one engine computes it.
///     pub static GATE: swiglu_oai(alpha = 1.703125, limit = 7) -> f16
/// );
/// table!(static LEAKY: leaky_relu(alpha = 0.2) -> fp8_e4m3);
/// table!(static GELU_10: gelu_10 -> bf16);
///
/// let op: actlut::Op = "softcap(cap=30)".parse().unwrap();
/// let mut run_time = [0u16; 65536];
/// actlut::fill_table(&op, actlut::Format::Bf16, &mut run_time).unwrap();
/// assert_eq!(SOFTCAP_30[..], run_time[..]);
/// assert_eq!(SOFTCAP_30[0x4234], 0x41D9); // 30·tanh(45/30) = 27.15…
/// assert_eq!(LEAKY[0xB8], 0xA5); // −1 → −0.2, rounded to E4M3
/// assert_eq!(GATE.len(), 65536);
/// assert_eq!(GELU_10[0x4300], 0x4120); // gelu(128) = 128, clipped to 10
/// ```
///
/// A constant out of its domain, an unknown or missing constant, a suffixed literal: a compile
/// error that points at it.
///
/// ```compile_fail
/// actlut_macros::table!(static T: softcap(cap = 0) -> bf16);
/// ```
///
/// ```compile_fail
/// actlut_macros::table!(static T: softcap -> bf16); // `cap` has no default
/// ```
///
/// ```compile_fail
/// actlut_macros::table!(static T: hardtanh(min = 2, max = 1) -> f16);
/// ```
///
/// ```compile_fail
/// actlut_macros::table!(static T: softcap(capp = 30) -> f16);
/// ```
///
/// ```compile_fail
/// actlut_macros::table!(static T: softcap(cap = 30.0f32) -> f16);
/// ```
#[proc_macro]
pub fn table(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    let decl = parse_macro_input!(input as table::Declaration);
    match decl.expand() {
        Ok(ts) => ts.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

/// A number literal with an optional leading minus.
struct Number {
    minus: Option<Token![-]>,
    lit: Lit,
}

impl Parse for Number {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        Ok(Number {
            minus: input.parse()?,
            lit: input.parse()?,
        })
    }
}

impl Number {
    /// An error spanning the minus sign and the literal.
    fn error(&self, message: impl std::fmt::Display) -> syn::Error {
        let (minus, lit) = (&self.minus, &self.lit);
        syn::Error::new_spanned(quote!(#minus #lit), message)
    }

    /// The value rounded once to `f32` (the literal's digits, whatever its suffix says, are
    /// parsed straight to `f32`: no double rounding through `f64`).
    fn to_f32(&self, key: &Ident) -> syn::Result<f32> {
        let (digits, suffix) = match &self.lit {
            Lit::Float(f) => (f.base10_digits(), f.suffix()),
            Lit::Int(i) => (i.base10_digits(), i.suffix()),
            _ => return Err(self.error(format!("`{key}` must be a number"))),
        };
        if !suffix.is_empty() && suffix != "f32" {
            return Err(self.error(format!(
                "write `{key}` without a `{suffix}` suffix: it is an f32"
            )));
        }
        let v: f32 = digits
            .parse()
            .map_err(|_| self.error(format!("`{key}` is not a number")))?;
        Ok(if self.minus.is_some() { -v } else { v })
    }

    fn to_i32(&self, key: &Ident) -> syn::Result<i32> {
        let Lit::Int(i) = &self.lit else {
            return Err(self.error(format!("`{key}` must be an integer")));
        };
        if !i.suffix().is_empty() {
            return Err(self.error(format!("write `{key}` without a `{}` suffix", i.suffix())));
        }
        let v: i64 = i.base10_parse()?;
        let v = if self.minus.is_some() { -v } else { v };
        // Out-of-range values are reported against the type's range by the pipeline.
        Ok(v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32)
    }
}

struct Declaration {
    attrs: Vec<Attribute>,
    vis: Visibility,
    name: Ident,
    packed: Option<Ident>,
    input: Ident,
    output: Ident,
    op: Ident,
    args: Vec<(Ident, Number)>,
    rounding: Option<(Ident, Ident)>,
}

impl Parse for Declaration {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let attrs = input.call(Attribute::parse_outer)?;
        let vis: Visibility = input.parse()?;
        input.parse::<Token![static]>()?;
        let name: Ident = input.parse()?;
        input.parse::<Token![:]>()?;
        let mut ty: Ident = input.parse()?;
        let mut packed = None;
        if ty == "packed" && input.peek(Ident) {
            packed = Some(ty);
            ty = input.parse()?;
        }
        input.parse::<Token![->]>()?;
        let output: Ident = input.parse()?;
        input.parse::<Token![=]>()?;
        let op: Ident = input.parse()?;
        let mut args = Vec::new();
        let mut rounding = None;
        while !input.is_empty() {
            input.parse::<Token![,]>()?;
            if input.is_empty() {
                break;
            }
            let key: Ident = input.parse()?;
            input.parse::<Token![=]>()?;
            if key == "rounding" {
                let value: Ident = input.parse()?;
                if rounding.is_some() {
                    return Err(syn::Error::new(key.span(), "`rounding` given twice"));
                }
                rounding = Some((key, value));
                continue;
            }
            let value: Number = input.parse()?;
            args.push((key, value));
        }
        Ok(Declaration {
            attrs,
            vis,
            name,
            packed,
            input: ty,
            output,
            op,
            args,
            rounding,
        })
    }
}

const KEYS: [&str; 4] = ["scale", "zero_point", "out_scale", "out_zero_point"];

/// An expression of the op `op` usable in a `static` (its parts computed here).
fn op_tokens(op: &actlut_codegen::Op) -> TokenStream {
    let variant = format_ident!("{}", format!("{:?}", op.function()));
    let parts = op.prepared().map(|(r, hi, lo)| {
        let (n, d) = (r.numerator(), r.denominator());
        let hi: TokenStream = format!("{hi:?}f64").parse().expect("a float literal");
        let lo: TokenStream = format!("{lo:?}f64").parse().expect("a float literal");
        quote!((::actlut::Rational::reduced(#n, #d), #hi, #lo))
    });
    let derivative = op.is_derivative();
    quote!(::actlut::Op::from_prepared(
        ::actlut::Function::#variant,
        [#(#parts),*],
        #derivative,
    ))
}

impl Declaration {
    fn arg(&self, key: &str) -> Option<&(Ident, Number)> {
        self.args.iter().find(|(k, _)| k == key)
    }

    /// The argument `key`, or an error at `at` saying it is missing.
    fn required(&self, key: &str, at: &Ident, why: &str) -> syn::Result<&(Ident, Number)> {
        self.arg(key)
            .ok_or_else(|| syn::Error::new(at.span(), format!("missing `{key} = ...`{why}")))
    }

    fn expand(&self) -> syn::Result<TokenStream> {
        for (i, (key, _)) in self.args.iter().enumerate() {
            if !KEYS.iter().any(|k| key == k) {
                return Err(syn::Error::new(
                    key.span(),
                    format!(
                        "unknown parameter `{key}`: expected scale, zero_point, out_scale, \
                         out_zero_point or rounding"
                    ),
                ));
            }
            if self.args[..i].iter().any(|(k, _)| k == key) {
                return Err(syn::Error::new(key.span(), format!("`{key}` given twice")));
            }
        }
        let input = QuantType::from_name(&self.input.to_string())
            .filter(|t| t.bits() <= 8)
            .ok_or_else(|| {
                let message = if matches!(self.input.to_string().as_str(), "i16" | "u16") {
                    format!(
                        "a table over {} codes has 65,536 entries: build it in a build script \
                         with `actlut_codegen::builder::Builder` (embedded with include_bytes!), \
                         or at run time into a buffer with `actlut::quant16`",
                        self.input
                    )
                } else {
                    "expected an input type: i8, u8, i4, u4, i2 or u2".to_string()
                };
                syn::Error::new(self.input.span(), message)
            })?;
        if let Some(p) = &self.packed {
            if !matches!(input.bits(), 4 | 2) {
                return Err(syn::Error::new(
                    p.span(),
                    format!(
                        "only 4- and 2-bit inputs (i4, u4, i2, u2) can be packed, not {}",
                        input.name()
                    ),
                ));
            }
        }
        let op = Op::from_name(&self.op.to_string()).ok_or_else(|| {
            syn::Error::new(
                self.op.span(),
                format!(
                    "unknown function `{}`: expected identity or one of {}",
                    self.op,
                    actlut_codegen::Function::ALL
                        .iter()
                        .map(|f| f.name())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )
        })?;
        let (skey, sval) = self.required("scale", &self.op, "")?;
        let scale = sval.to_f32(skey)?;
        let (zkey, zval) = self.required("zero_point", &self.op, "")?;
        let zero_point = zval.to_i32(zkey)?;
        let out_name = self.output.to_string();
        let requantized = matches!(out_name.as_str(), "i8" | "u8");
        if !requantized {
            for key in ["out_scale", "out_zero_point"] {
                if let Some((k, _)) = self.arg(key) {
                    return Err(syn::Error::new(
                        k.span(),
                        format!("`{key}` applies only to requantized (i8, u8) outputs"),
                    ));
                }
            }
            if let Some((k, _)) = &self.rounding {
                return Err(syn::Error::new(
                    k.span(),
                    "`rounding` applies only to requantized (i8, u8) outputs",
                ));
            }
        }
        let rounding = match &self.rounding {
            None => Rounding::TiesToEven,
            Some((_, v)) => Rounding::from_name(&v.to_string()).ok_or_else(|| {
                syn::Error::new(
                    v.span(),
                    format!("unknown rounding `{v}`: expected ties_even or ties_away"),
                )
            })?,
        };
        let why = format!(" for a requantized {out_name} output");
        let output = match out_name.as_str() {
            "f32" => OutputType::F32,
            "f16" => OutputType::F16,
            "bf16" => OutputType::Bf16,
            "i8" | "u8" => {
                let (k, v) = self.required("out_scale", &self.output, &why)?;
                let scale = v.to_f32(k)?;
                let (k, v) = self.required("out_zero_point", &self.output, &why)?;
                let zero_point = v.to_i32(k)?;
                if out_name == "i8" {
                    OutputType::I8 { scale, zero_point }
                } else {
                    OutputType::U8 { scale, zero_point }
                }
            }
            _ => {
                return Err(syn::Error::new(
                    self.output.span(),
                    "expected an output type: f32, f16, bf16, i8 or u8",
                ))
            }
        };
        let pipeline = Pipeline::new(op, input, scale, zero_point, output)
            .map_err(|e| self.error_at_parameter(e))?
            .with_rounding(rounding);
        Ok(self.emit(&pipeline))
    }

    /// A parameter error, pointing at the parameter's value.
    fn error_at_parameter(&self, e: QuantError) -> syn::Error {
        let parameter = match e {
            QuantError::Scale { parameter, .. }
            | QuantError::ScaleTooSmall { parameter, .. }
            | QuantError::ZeroPoint { parameter, .. }
            | QuantError::Value { parameter, .. } => parameter,
            // Not a parameter of the macro: point at the whole invocation.
            QuantError::OutOfRange { .. }
            | QuantError::Length { .. }
            | QuantError::Lengths { .. }
            | QuantError::Derivative { .. } => return syn::Error::new(Span::call_site(), e),
        };
        match self.arg(parameter) {
            Some((_, v)) => v.error(e),
            None => syn::Error::new(Span::call_site(), e),
        }
    }

    fn emit(&self, p: &Pipeline) -> TokenStream {
        let attrs = &self.attrs;
        let vis = &self.vis;
        let name = &self.name;
        let input_ty = match p.input() {
            QuantType::I8 => quote!(i8),
            QuantType::U8 => quote!(u8),
            QuantType::I4 => quote!(::actlut::quant::I4),
            QuantType::U4 => quote!(::actlut::quant::U4),
            QuantType::I2 => quote!(::actlut::quant::I2),
            QuantType::U2 => quote!(::actlut::quant::U2),
            QuantType::I16 | QuantType::U16 => unreachable!("refused in expand"),
        };
        let half = quote!(::actlut::quant::__private::half);
        let output_ty = match p.output() {
            OutputType::F32 => quote!(f32),
            OutputType::F16 => quote!(#half::f16),
            OutputType::Bf16 => quote!(#half::bf16),
            OutputType::I8 { .. } => quote!(i8),
            OutputType::U8 { .. } => quote!(u8),
            OutputType::I16 { .. } | OutputType::U16 { .. } => unreachable!("not parsed"),
        };
        let entry = |bits: u32| -> TokenStream {
            let lit: TokenStream = literal(p.output(), bits).parse().expect("a literal");
            match p.output() {
                OutputType::F16 => quote!(#half::f16::from_bits(#lit)),
                OutputType::Bf16 => quote!(#half::bf16::from_bits(#lit)),
                _ => lit,
            }
        };
        let mut bits = vec![0u32; p.input().codes()];
        p.fill(&mut bits);
        let zero = entry(match p.output() {
            OutputType::F32 => 0.0f32.to_bits(),
            _ => 0,
        });
        let entries = bits
            .iter()
            .map(|&b| entry(b))
            .chain(std::iter::repeat_n(zero, 256 - bits.len()));
        let op = op_tokens(&p.op());
        let scale: TokenStream = literal(OutputType::F32, p.scale().to_bits())
            .parse()
            .expect("a literal");
        let zero_point = p.zero_point();
        let table = quote! {
            ::actlut::quant::DequantTable::<#input_ty, #output_ty>::from_parts_unchecked(
                [#(#entries),*], #op, #scale, #zero_point,
            )
        };
        if self.packed.is_some() {
            // ONNX's packing: 8 / bits values per byte, the first in the lowest bits.
            let width = p.input().bits() as usize;
            let per_byte = 8 / width;
            let groups = (0..256usize).map(|b| {
                let group =
                    (0..per_byte).map(|k| entry(bits[(b >> (k * width)) & ((1 << width) - 1)]));
                quote!([#(#group),*])
            });
            quote! {
                #(#attrs)*
                // Entries are exact values; some happen to be close to named constants.
                #[allow(clippy::approx_constant, clippy::excessive_precision)]
                #vis static #name: ::actlut::quant::PackedDequantTable<#input_ty, #output_ty, #per_byte> =
                    ::actlut::quant::PackedDequantTable::from_parts_unchecked(
                        [#(#groups),*], #table,
                    );
            }
        } else {
            quote! {
                #(#attrs)*
                // Entries are exact values; some happen to be close to named constants.
                #[allow(clippy::approx_constant, clippy::excessive_precision)]
                #vis static #name: ::actlut::quant::DequantTable<#input_ty, #output_ty> = #table;
            }
        }
    }
}
