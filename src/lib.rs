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
//! use half::f16;
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
//! Every table entry is correctly rounded as SEMANTICS.md defines: the exact
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
//! | `all-formats` | `f16`, `bf16`, `fp8-e4m3`, `fp8-e5m2` |
//! | `f16` | IEEE binary16 tables: `[u16; 65536]`, 128 KiB each |
//! | `bf16` | bfloat16 tables: `[u16; 65536]`, 128 KiB each |
//! | `fp8-e4m3` | OCP FP8 E4M3FN tables: `[u8; 256]`, 256 bytes each |
//! | `fp8-e5m2` | OCP FP8 E5M2 tables: `[u8; 256]`, 256 bytes each |
//! | `gelu` | GELU, `x·Φ(x)` |
//! | `gelu-tanh` | tanh-approximated GELU (evaluated exactly) |
//! | `sigmoid` | `1/(1 + e^−x)` |
//! | `tanh` | `tanh x` |
//! | `silu` | `x·sigmoid(x)` |
//! | `mish` | `x·tanh(softplus(x))` |
//! | `softplus` | `ln(1 + e^x)` |
//! | `softsign` | `x/(1 + |x|)` |
//! | `elu` | ELU with α = 1 |
//! | `selu` | SELU with the standard λ, α |
//! | `hardsigmoid` | `max(0, min(1, x/6 + 1/2))` |
//! | `hardswish` | `x·hardsigmoid(x)` |
//! | `erf` | the error function |
//! | `exp` | `e^x` |
//! | `log` | `ln x` |
//! | `rsqrt` | `1/√x` |
//! | `macros` | `dequant_table!`: a fused [`quant`] table as a `static`, computed at compile time |
//! | `std` (default) | run-time CPU detection for the SIMD [`kernels`] (otherwise compile-time target features) |
//! | `alloc` | heap-built tables of [`approx`] (quantized `f32` functions, LNS exp, log-sum-exp) |
//! | `self-check` | `manifest::Table::check`: re-hash a table in memory against its SHA-256 (`sha2`, `no_std`) |
//! | `avx512vbmi` (default) | [`kernels::Kernel::Avx512Vbmi`], the 256-entry byte lookup in two `vpermi2b` per 64 bytes, picked at run time on CPUs with AVX-512 F, BW and VBMI: 7–15× the AVX2 kernel, as fast as memcpy on 2 MiB (BENCHMARKS.md). CI runs it under Miri; turn it off to keep the AVX2 kernel |
//!
//! # Modules
//!
//! | module | what it holds |
//! |---|---|
//! | `gelu`, `sigmoid`, … (one per function) | table lookups per format: one value, raw bits, slices |
//! | [`tables`] | the `static` tables and their SHA-256 |
//! | [`computed`] | the same functions without a table, bit-identical; and `f32` |
//! | [`manifest`] | the tables compiled into this build, with their hashes |
//! | [`quant`] | fused dequantize → function (→ requantize) tables over `i8`/`u8`/4-bit codes |
//! | [`fp8`] | `f32` ↔ fp8 conversions with one rounding |
//! | [`approx`] | `f32` functions on a quantization grid with proven error bounds, log-sum-exp |
//! | [`kernels`] | 256-entry byte lookups with SIMD byte permutes, and the 16-bit slice kernels |
//!
//! Without any feature the crate still builds: the [`computed`] path and the
//! [`Activation`] enum are always there, and [`Activation`]'s table methods return
//! [`MissingTable`], which names the features to enable.
#![no_std]
#![deny(missing_docs)]
// `unsafe` is allowed only in `kernels` (the SIMD blocks, their driver and dispatch).
#![deny(unsafe_code)]

#[cfg(any(test, feature = "std"))]
extern crate std;

/// Calls `$callback!` with the list of every function: its `Activation` variant,
/// module, table-name prefix, cargo feature, definition, and table statics per
/// format (f16, bf16, fp8_e4m3, fp8_e5m2), and the names of its
/// computed shorthands (f16, bf16, f32). The one list all per-function items
/// are generated from.
macro_rules! for_each_function {
    ($callback:ident) => {
        $callback! {
            Gelu, gelu, "gelu", "gelu", "x·Φ(x)",
                GELU_F16, GELU_BF16, GELU_FP8_E4M3, GELU_FP8_E5M2,
                gelu_f16, gelu_bf16, gelu_f32;
            GeluTanh, gelu_tanh, "gelu_tanh", "gelu-tanh", "(x/2)·(1 + tanh(√(2/π)·(x + 0.044715·x³)))",
                GELU_TANH_F16, GELU_TANH_BF16, GELU_TANH_FP8_E4M3, GELU_TANH_FP8_E5M2,
                gelu_tanh_f16, gelu_tanh_bf16, gelu_tanh_f32;
            Sigmoid, sigmoid, "sigmoid", "sigmoid", "1/(1 + e^−x)",
                SIGMOID_F16, SIGMOID_BF16, SIGMOID_FP8_E4M3, SIGMOID_FP8_E5M2,
                sigmoid_f16, sigmoid_bf16, sigmoid_f32;
            Tanh, tanh, "tanh", "tanh", "tanh x",
                TANH_F16, TANH_BF16, TANH_FP8_E4M3, TANH_FP8_E5M2,
                tanh_f16, tanh_bf16, tanh_f32;
            Silu, silu, "silu", "silu", "x·sigmoid(x)",
                SILU_F16, SILU_BF16, SILU_FP8_E4M3, SILU_FP8_E5M2,
                silu_f16, silu_bf16, silu_f32;
            Mish, mish, "mish", "mish", "x·tanh(softplus(x))",
                MISH_F16, MISH_BF16, MISH_FP8_E4M3, MISH_FP8_E5M2,
                mish_f16, mish_bf16, mish_f32;
            Softplus, softplus, "softplus", "softplus", "ln(1 + e^x)",
                SOFTPLUS_F16, SOFTPLUS_BF16, SOFTPLUS_FP8_E4M3, SOFTPLUS_FP8_E5M2,
                softplus_f16, softplus_bf16, softplus_f32;
            Softsign, softsign, "softsign", "softsign", "x/(1 + |x|)",
                SOFTSIGN_F16, SOFTSIGN_BF16, SOFTSIGN_FP8_E4M3, SOFTSIGN_FP8_E5M2,
                softsign_f16, softsign_bf16, softsign_f32;
            Elu, elu, "elu", "elu", "x if x > 0, else e^x − 1",
                ELU_F16, ELU_BF16, ELU_FP8_E4M3, ELU_FP8_E5M2,
                elu_f16, elu_bf16, elu_f32;
            Selu, selu, "selu", "selu", "λ·x if x > 0, else λ·α·(e^x − 1)",
                SELU_F16, SELU_BF16, SELU_FP8_E4M3, SELU_FP8_E5M2,
                selu_f16, selu_bf16, selu_f32;
            Hardsigmoid, hardsigmoid, "hardsigmoid", "hardsigmoid", "max(0, min(1, x/6 + 1/2))",
                HARDSIGMOID_F16, HARDSIGMOID_BF16, HARDSIGMOID_FP8_E4M3, HARDSIGMOID_FP8_E5M2,
                hardsigmoid_f16, hardsigmoid_bf16, hardsigmoid_f32;
            Hardswish, hardswish, "hardswish", "hardswish", "x·hardsigmoid(x)",
                HARDSWISH_F16, HARDSWISH_BF16, HARDSWISH_FP8_E4M3, HARDSWISH_FP8_E5M2,
                hardswish_f16, hardswish_bf16, hardswish_f32;
            Erf, erf, "erf", "erf", "the error function",
                ERF_F16, ERF_BF16, ERF_FP8_E4M3, ERF_FP8_E5M2,
                erf_f16, erf_bf16, erf_f32;
            Exp, exp, "exp", "exp", "e^x",
                EXP_F16, EXP_BF16, EXP_FP8_E4M3, EXP_FP8_E5M2,
                exp_f16, exp_bf16, exp_f32;
            Log, log, "log", "log", "ln x (default NaN below 0, −inf at ±0)",
                LOG_F16, LOG_BF16, LOG_FP8_E4M3, LOG_FP8_E5M2,
                log_f16, log_bf16, log_f32;
            Rsqrt, rsqrt, "rsqrt", "rsqrt", "1/√x (default NaN below 0, ±inf at ±0)",
                RSQRT_F16, RSQRT_BF16, RSQRT_FP8_E4M3, RSQRT_FP8_E5M2,
                rsqrt_f16, rsqrt_bf16, rsqrt_f32;
        }
    };
}

mod activation;
pub mod approx;
pub mod computed;
pub mod fp8;
mod functions;
pub mod kernels;
pub mod manifest;
pub mod quant;
pub mod tables;

pub use activation::{Activation, MissingTable, UnknownActivation};
#[cfg(feature = "macros")]
pub use actlut_macros::dequant_table;
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
