//! Exact activation functions on small number formats, as build-time lookup tables.
//!
//! A function of a 16-bit float has only 65,536 possible inputs, and of an 8-bit
//! float 256. actlut evaluates GELU, sigmoid, tanh, SiLU, exp, erf and ten more at
//! every one of them when the crate is built, and embeds the results as `static`
//! arrays: evaluating the function is then one load per element. Every entry is
//! the exact mathematical value rounded once to nearest-even (not an
//! approximation "within an ulp"), and the [`computed`] path, which uses no table,
//! gives the same bits.
//!
//! ```
//! # #[cfg(all(feature = "gelu", feature = "f16"))] {
//! use actlut::half::f16; // actlut re-exports half
//!
//! let y = actlut::gelu::f16(f16::from_f32(1.0));
//! assert_eq!(y, f16::from_f32(0.8413)); // Φ(1) = 0.841344…, rounded to f16
//!
//! let mut xs = [f16::from_f32(-1.0), f16::from_f32(0.5), f16::INFINITY];
//! actlut::gelu::apply_f16(&mut xs);
//! assert_eq!(xs[2], f16::INFINITY);
//!
//! // The same function chosen at run time, and without a table.
//! let act = actlut::Activation::Gelu;
//! assert_eq!(act.f16(f16::ONE), Ok(y));
//! assert_eq!(actlut::computed::gelu_f16(f16::ONE), y);
//! # }
//! ```
//!
//! `no_std`, no `alloc`, no lazy initialization: the tables are read-only data,
//! and a binary carries only the tables it references.
//!
//! Quantized data (`i8`, `u8`, `i4`, `u4`) gets fused dequantize → function tables in
//! [`quant`], built at run time without allocation; [`fp8`] converts `f32` to and from fp8.
//!
//! # Accuracy
//!
//! Every table entry is correctly rounded as [docs/SEMANTICS.md](https://github.com/actlut/actlut/blob/main/docs/SEMANTICS.md) defines: the exact
//! value at the exact input, rounded once, to nearest, ties to even, with
//! subnormals, overflow to ±inf, signed zeros and NaN payloads specified. The
//! reference evaluates in `f64` through the pure-Rust `libm` with a proven error
//! bound and refines the inputs that lie too close to a rounding boundary (see
//! `actlut-codegen`). The tests check every entry of every table against the
//! computed path, and a separate test crate checks every entry against MPFR at
//! 200+ bits.
//!
//! The `f32` functions of [`computed`] round the same evaluation once to `f32`:
//! guaranteed within 0.5 ulp + 2^-40, and correctly rounded on all 17 million
//! inputs checked against MPFR.
//!
//! # Crate features
//!
//! A table exists when its function's feature **and** its format's feature are
//! enabled. The default feature `all` enables every function and every format.
//! Firmware enables only what it uses:
//!
//! ```toml
//! actlut = { version = "0.1", default-features = false, features = ["gelu", "f16"] }
//! ```
//!
//! | feature | enables |
//! |---|---|
//! | `all` (default) | `all-functions` and `all-formats`; will always cover everything |
//! | `all-functions` | every function feature below |
//! | `all-formats` | `f16`, `bf16`, `fp8-e4m3`, `fp8-e5m2`, `fp8-e4m3fnuz`, `fp8-e5m2fnuz`, `fp6-e2m3`, `fp6-e3m2`, `fp4-e2m1` |
//! | `f16` | IEEE binary16 tables: `[u16; 65536]`, 128 KiB each |
//! | `bf16` | bfloat16 tables: `[u16; 65536]`, 128 KiB each |
//! | `fp8-e4m3` | OCP FP8 E4M3FN tables: `[u8; 256]`, 256 bytes each |
//! | `fp8-e5m2` | OCP FP8 E5M2 tables: `[u8; 256]`, 256 bytes each |
//! | `fp8-e4m3fnuz`, `fp8-e5m2fnuz` | AMD fnuz fp8 tables (`0x80` the only NaN, no −0): `[u8; 256]` |
//! | `fp6-e2m3`, `fp6-e3m2` | OCP MX FP6 tables (code in the low 6 bits, saturating): `[u8; 64]`; no `log`/`rsqrt` |
//! | `fp4-e2m1` | OCP MX FP4 tables (low 4 bits, saturating): `[u8; 16]`; no `log`/`rsqrt` |
//! | `gelu` | GELU, `x·Φ(x)` |
//! | `gelu-tanh` | tanh-approximated GELU (evaluated exactly) |
//! | `sigmoid` | `1/(1 + e^−x)` |
//! | `tanh` | `tanh x` |
//! | `silu` | `x·sigmoid(x)` |
//! | `mish` | `x·tanh(softplus(x))` |
//! | `softplus` | `ln(1 + e^x)` |
//! | `softsign` | `x/(1 + \|x\|)` |
//! | `elu` | ELU with α = 1 |
//! | `selu` | SELU with the standard λ, α |
//! | `hardsigmoid` | `max(0, min(1, x/6 + 1/2))` |
//! | `hardswish` | `x·hardsigmoid(x)` |
//! | `erf` | the error function |
//! | `exp` | `e^x` |
//! | `log` | `ln x` |
//! | `rsqrt` | `1/√x` |
//! | `macros` | `dequant_table!`: a fused [`quant`] table as a `static`, computed at compile time |
//! | `float8` | the `float8` crate's `F8E4M3`/`F8E5M2` in and out of the fp8 tables: `Activation::fp8_e4m3`, `apply_fp8_e4m3`, `map_fp8_e4m3` (and E5M2) |
//! | `std` (default) | run-time CPU detection for the SIMD [`kernels`] (otherwise compile-time target features) |
//! | `alloc` | heap-built tables of [`approx`] (quantized `f32` functions, LNS exp, log-sum-exp) |
//! | `self-check` | `manifest::Table::check`: re-hash a table in memory against its SHA-256 (`sha2`, `no_std`) |
//! | `compact` | every 16-bit table (`f16`, `bf16`) in its [`compact`] stored form: 3–23 KiB instead of 128 KiB, the same bits, a slower lookup (two dependent loads and an add). Additive: it adds `tables::compact` beside the full tables, which keep their type, and the function modules and [`Activation`] read the compact forms; a binary links only the forms it references |
//! | `avx512vbmi` (default) | [`kernels::Kernel::Avx512Vbmi`], the 256-entry byte lookup in two `vpermi2b` per 64 bytes, picked at run time on CPUs with AVX-512 F, BW and VBMI: 7–15× the AVX2 kernel, as fast as memcpy on 2 MiB (BENCHMARKS.md). CI runs it under Miri; turn it off to keep the AVX2 kernel |
//!
//! # Modules
//!
//! | module | what it holds |
//! |---|---|
//! | `gelu`, `sigmoid`, … (one per function) | table lookups per format: one value, raw bits, slices |
//! | [`tables`] | the `static` tables and their SHA-256 |
//! | [`compact`] | the compact 16-bit tables of the `compact` feature: their type and slice loops |
//! | [`computed`] | the same functions without a table, bit-identical; and `f32` |
//! | [`manifest`] | the tables compiled into this build, with their hashes |
//! | [`quant`] | fused dequantize → function (→ requantize) tables over `i8`/`u8`/4-bit codes |
//! | [`mx`] | block-scaled inputs (OCP MX, NVFP4) dequantized → function, correctly rounded, with SIMD FP4 lookups |
//! | [`fp8`] | `f32` ↔ fp8 conversions with one rounding |
//! | [`approx`] | `f32` functions on a quantization grid with proven error bounds, log-sum-exp |
//! | [`kernels`] | 256-entry byte lookups with SIMD byte permutes, and the 16-bit slice kernels |
//!
//! Without any feature the crate still builds: the [`computed`] path and the
//! [`Activation`] enum are always there, and [`Activation`]'s table methods return
//! [`MissingTable`], which names the features to enable.
//! [`Activation::table`] gives the table of any format as a [`TableRef`], for code
//! that handles every format alike.
//!
//! Everything per function and per format (the modules, [`Activation`], the
//! [`computed`] shorthands, the [`tables`] and the [`manifest`]) is generated by
//! the build script from one list, actlut-codegen's `Function::ALL × Format::ALL`.
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(missing_docs)]
// `unsafe` is allowed only in `kernels` (the SIMD blocks, their driver and dispatch).
#![deny(unsafe_code)]

// The reference core, under the name the runtime's modules use for it.
extern crate actlut_core as actlut_codegen;

#[cfg(any(test, feature = "std"))]
extern crate std;

mod activation;
pub mod approx;
pub mod compact;
pub mod computed;
pub mod fp8;
mod functions;
pub mod kernels;
mod lengths;
pub mod manifest;
pub mod mx;
pub mod quant;
pub mod quant16;
pub mod tables;

pub use activation::{Activation, MissingTable, TableRef, UnknownActivation};
#[cfg(feature = "macros")]
#[cfg_attr(docsrs, doc(cfg(feature = "macros")))]
pub use actlut_macros::dequant_table;
/// The `half` crate, whose `f16` and `bf16` this crate's 16-bit functions take
/// and return: `actlut::half::f16` needs no dependency of your own.
pub use half;
pub use lengths::{LengthMismatch, MapError};
pub use quant::{DequantTable, PackedDequantTable};

/// The README's examples, compiled and run as doctests.
/// They use every feature: `cargo test -p actlut --all-features --doc` runs them.
#[cfg(all(
    doctest,
    feature = "all",
    feature = "alloc",
    feature = "macros",
    feature = "self-check"
))]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
pub use actlut_codegen::Format;
#[allow(unused_imports)] // the modules exist only for enabled function features
pub use functions::*;
