//! `table!`: the table of an op (a function with literal constants) over a format, as a
//! declared `static` computed when the crate compiles.

use actlut_codegen::{declared_table, Format, Function, Op, OpError, Rational, RationalError};
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Attribute, Ident, Lit, Token, Visibility};

/// A constant's literal: `[-] number [/ integer]`, exact (its decimal digits, never an `f64`).
struct Value {
    minus: Option<Token![-]>,
    lit: Lit,
    fraction: Option<(Token![/], syn::LitInt)>,
}

impl Parse for Value {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let minus = input.parse()?;
        let lit = input.parse()?;
        let fraction = if input.peek(Token![/]) {
            Some((input.parse()?, input.parse()?))
        } else {
            None
        };
        Ok(Value {
            minus,
            lit,
            fraction,
        })
    }
}

impl Value {
    /// An error spanning the whole literal.
    fn error(&self, message: impl std::fmt::Display) -> syn::Error {
        let (minus, lit) = (&self.minus, &self.lit);
        let tail = self.fraction.as_ref().map(|(s, d)| quote!(#s #d));
        syn::Error::new_spanned(quote!(#minus #lit #tail), message)
    }

    /// The exact value: the literal's decimal digits parsed as a rational.
    fn rational(&self, key: &Ident) -> syn::Result<Rational> {
        let (digits, suffix) = match &self.lit {
            Lit::Float(f) => (f.base10_digits().to_string(), f.suffix().to_string()),
            Lit::Int(i) => (i.base10_digits().to_string(), i.suffix().to_string()),
            _ => return Err(self.error(format!("`{key}` must be a number"))),
        };
        if !suffix.is_empty() {
            return Err(self.error(format!(
                "write `{key}` without the `{suffix}` suffix: a constant is the exact number \
                 written, not a value of a float type"
            )));
        }
        let mut text = String::new();
        if self.minus.is_some() {
            text.push('-');
        }
        text.push_str(&digits);
        if let Some((_, d)) = &self.fraction {
            if !d.suffix().is_empty() {
                return Err(self.error(format!("write `{key}`'s denominator without a suffix")));
            }
            if matches!(self.lit, Lit::Float(_)) {
                return Err(self.error(format!("`{key}`: a fraction is two integers, as in 1/6")));
            }
            text.push('/');
            text.push_str(d.base10_digits());
        }
        text.parse()
            .map_err(|e: RationalError| self.error(format!("`{key}` = {text}: {e}")))
    }
}

/// `key = value`.
struct Pair {
    key: Ident,
    value: Value,
}

impl Parse for Pair {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let key = input.parse()?;
        input.parse::<Token![=]>()?;
        Ok(Pair {
            key,
            value: input.parse()?,
        })
    }
}

/// `ATTRS VIS static NAME: OP -> FORMAT`.
pub(crate) struct Declaration {
    attrs: Vec<Attribute>,
    vis: Visibility,
    name: Ident,
    op: Ident,
    pairs: Option<Punctuated<Pair, Token![,]>>,
    format: Ident,
}

impl Parse for Declaration {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let attrs = input.call(Attribute::parse_outer)?;
        let vis = input.parse()?;
        input.parse::<Token![static]>()?;
        let name = input.parse()?;
        input.parse::<Token![:]>()?;
        let op = input.parse()?;
        let pairs = if input.peek(syn::token::Paren) {
            let inner;
            syn::parenthesized!(inner in input);
            Some(inner.parse_terminated(Pair::parse, Token![,])?)
        } else {
            None
        };
        input.parse::<Token![->]>()?;
        let format = input.parse()?;
        if input.peek(Token![;]) {
            input.parse::<Token![;]>()?;
        }
        Ok(Declaration {
            attrs,
            vis,
            name,
            op,
            pairs,
            format,
        })
    }
}

impl Declaration {
    /// The op, each error at the token it is about.
    fn op(&self) -> syn::Result<Op> {
        let text = self.op.to_string();
        let (function, derivative) = match Function::from_name(&text) {
            Some(f) => (f, false),
            None => match text
                .strip_suffix("_derivative")
                .and_then(Function::from_name)
            {
                Some(f) => (f, true),
                None => {
                    // An engine's name (gelu_10, swigluoai, quick_gelu), without constants.
                    if self.pairs.is_none() {
                        if let Some(op) = actlut_codegen::names::op_from_engine_name(&text) {
                            return op.map_err(|e| syn::Error::new(self.op.span(), e));
                        }
                    }
                    return Err(syn::Error::new(
                        self.op.span(),
                        format!(
                            "unknown function `{text}`: expected one of {}, or an engine's name \
                             for one (gelu_10, swigluoai, quick_gelu, …)",
                            Function::ALL
                                .iter()
                                .map(|f| f.name())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    ));
                }
            },
        };
        let mut given = Vec::new();
        for pair in self.pairs.iter().flatten() {
            given.push((pair.key.to_string(), pair.value.rational(&pair.key)?));
        }
        let refs: Vec<(&str, Rational)> = given.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        let at = |name: &str| {
            self.pairs
                .iter()
                .flatten()
                .rfind(|p| p.key == name)
                .map_or(self.op.span(), |p| p.key.span())
        };
        let value_at =
            |name: &str, e: &OpError| match self.pairs.iter().flatten().find(|p| p.key == name) {
                Some(p) => p.value.error(e),
                None => syn::Error::new(self.op.span(), e),
            };
        Op::with_constants(function, &refs)
            .map(|op| op.with_derivative(derivative))
            .map_err(|e| match e {
                OpError::UnknownConstant { ref name, .. } => syn::Error::new(at(name.as_str()), e),
                OpError::Twice { constant, .. } => syn::Error::new(at(constant), e),
                OpError::Domain { constant, .. } | OpError::Constraint { constant, .. } => {
                    value_at(constant, &e)
                }
                // A missing constant, and the others: at the function's name.
                _ => syn::Error::new(self.op.span(), e),
            })
    }

    pub(crate) fn expand(&self) -> syn::Result<TokenStream> {
        let format = Format::from_name(&self.format.to_string()).ok_or_else(|| {
            syn::Error::new(
                self.format.span(),
                format!(
                    "unknown format `{}`: expected one of {}",
                    self.format,
                    Format::ALL
                        .iter()
                        .map(|f| f.name())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )
        })?;
        let op = self.op()?;
        let declared = |big_endian| {
            declared_table(&op, format, big_endian)
                .map_err(|e| syn::Error::new(Span::call_site(), e))
        };
        let (little, big) = (declared(false)?, declared(true)?);
        let attrs = &self.attrs;
        let vis = &self.vis;
        let name = &self.name;
        let hidden = format_ident!("__ACTLUT_DECLARED_{}", name);
        let n = format.entries();
        let hex = actlut_codegen::hex(&little.sha256);
        let doc = format!(
            " The `{}` table: entry `i` is `{op}` at the `{fmt}` value with bit pattern `i`, \
             correctly rounded to `{fmt}`.\n\n SHA-256 of its little-endian bytes: `{hex}`.",
            little.name,
            fmt = format.name()
        );
        let wide = format.entry_bytes() == 2;
        let statics = [(little, "little"), (big, "big")].map(|(t, endian)| {
            let record = t.record;
            let record_len = record.len();
            let bytes = syn::LitByteStr::new(&t.stored, Span::call_site());
            let (ty, init) = if wide {
                (
                    quote!([u16; #n]),
                    quote!(::actlut::manifest::u16_table(*#bytes)),
                )
            } else {
                (quote!([u8; #n]), quote!(*#bytes))
            };
            quote! {
                #[cfg(target_endian = #endian)]
                #[doc(hidden)]
                #[allow(non_upper_case_globals)]
                static #hidden: ::actlut::manifest::Declared<#ty, #record_len> =
                    ::actlut::manifest::Declared::new([#(#record),*], #init);
            }
        });
        let ty = if wide {
            quote!([u16; #n])
        } else {
            quote!([u8; #n])
        };
        Ok(quote! {
            #(#statics)*
            #[doc = #doc]
            #(#attrs)*
            #vis static #name: &'static #ty = #hidden.table();
        })
    }
}
