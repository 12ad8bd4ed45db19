//! Exact activation functions on small number formats, as build-time lookup tables.
//!
//! A function of a 16-bit float has only 65,536 possible inputs, of an 8-bit float 256. actlut
//! evaluates 30 functions (GELU, sigmoid, tanh, SiLU, exp, erf, relu², …) at every input of 14
//! formats (f16, bf16, nine fp8, two FP6, FP4) when the crate is built, and embeds the 414
//! tables as `static` arrays: evaluating the function is one load per element. Functions with
//! constants (an [`Op`]: `softcap(cap=30)`, `leaky_relu(alpha=0.2)`) are tables too, made at
//! compile time (`table!`, the `macros` feature) or into a caller's buffer at run time
//! ([`fill_table`]). Every entry is the exact
//! mathematical value rounded once to nearest-even (not an approximation "within an ulp"), and the
//! [`computed`] path, which uses no table, gives the same bits. `no_std`, no `alloc`, no lazy
//! initialization: the tables are read-only data, and a binary carries only the tables it
//! references.
//!
//! # Using it
//!
//! The crate is not published yet. Until it is, depend on a checkout by git or by path; once it
//! is, `actlut = "0.1"` (with the same `default-features` and `features`) replaces the `git` or
//! `path`:
//!
//! ```toml
//! [dependencies]
//! actlut = { git = "https://github.com/actlut/actlut" }
//! # firmware: only what it uses
//! # actlut = { git = "https://github.com/actlut/actlut", default-features = false, features = ["gelu", "f16"] }
//! ```
//!
//! The [README](https://github.com/actlut/actlut#using-it) has the profile lines that keep the
//! build script fast.
//!
//! # First examples
//!
//! f16 (features `gelu` and `f16`; bf16 has the same names with `bf16`, and its 1.0 is `0x3F80`):
//!
//! ```
//! # #[cfg(all(feature = "gelu", feature = "f16"))] {
//! use actlut::half::f16; // actlut re-exports half
//!
//! let y = actlut::gelu::f16(f16::from_f32(1.0));
//! assert_eq!(y, f16::from_f32(0.8413)); // Φ(1) = 0.841344…, rounded to f16
//! assert_eq!(actlut::gelu::f16_bits(0x3C00), y.to_bits());
//!
//! let mut xs = [f16::from_f32(-1.0), f16::from_f32(0.5), f16::INFINITY];
//! actlut::gelu::apply_f16(&mut xs);
//! assert_eq!(xs[2], f16::INFINITY);
//!
//! // The same function chosen at run time, and without a table.
//! use actlut::BuiltinTables;
//! let act = actlut::Function::Gelu;
//! assert_eq!(act.f16(f16::ONE), Ok(y));
//! assert_eq!(actlut::computed::gelu_f16(f16::ONE), y);
//! # }
//! ```
//!
//! fp8 (features `gelu` and `fp8-e4m3`): byte formats take raw codes, and [`fp8`] converts them:
//!
//! ```
//! # #[cfg(all(feature = "gelu", feature = "fp8-e4m3"))] {
//! let y = actlut::gelu::fp8_e4m3_bits(actlut::fp8::f32_to_e4m3(1.0));
//! assert_eq!(actlut::fp8::e4m3_to_f32(y), 0.8125);
//! # }
//! ```
//!
//! Quantized codes (no feature): a fused dequantize → function table from [`quant`] (16-bit
//! codes: [`quant16`]):
//!
//! ```
//! use actlut::Function;
//! use actlut::quant::DequantTable;
//!
//! let gelu = DequantTable::<i8, f32>::new(Function::Gelu, 0.05, -3).unwrap();
//! assert_eq!(gelu.lookup(17), actlut::computed::gelu_f32(1.0)); // (17 + 3)·0.05 = 1
//! ```
//!
//! # Derivatives
//!
//! With the feature `derivatives`, every function module has a `derivative` module with the
//! same entry points over the derivative's table (`gelu::derivative::bf16`, `map_bf16`,
//! `fp8_e4m3_bits`, …), each entry the correctly rounded f'(x); at a kink, the limit from the
//! left (docs/SEMANTICS.md, "Derivatives"). The tables are declared, locked and audited like
//! the functions' (`tables::GELU_DERIVATIVE_BF16`), and always full. An op with constants, or
//! its derivative, fills a buffer at run time ([`fill_table`]):
//!
//! ```
//! # #[cfg(all(feature = "derivatives", feature = "gelu", feature = "relu", feature = "bf16"))] {
//! use actlut::half::bf16;
//!
//! assert_eq!(actlut::gelu::derivative::bf16(bf16::ZERO), bf16::from_f32(0.5)); // Φ(0) + 0·φ(0)
//! assert_eq!(actlut::relu::derivative::bf16(bf16::ZERO), bf16::ZERO); // the left limit at 0
//! let mut grad = [bf16::from_f32(-1.0), bf16::from_f32(2.0)];
//! actlut::gelu::derivative::apply_bf16(&mut grad); // one load per element
//! assert_eq!(grad[1], actlut::gelu::derivative::bf16(bf16::from_f32(2.0)));
//! # }
//! let op: actlut::Op = "leaky_relu_derivative(alpha=0.2)".parse().unwrap();
//! let mut table = vec![0u16; 65_536];
//! actlut::fill_table(&op, actlut::Format::Bf16, &mut table[..]).unwrap();
//! let x = actlut::half::bf16::from_f32(-3.0).to_bits();
//! assert_eq!(table[usize::from(x)], actlut::half::bf16::from_f32(0.2).to_bits());
//! ```
//!
//! # Which API for which job
//!
//! | job | module |
//! |---|---|
//! | one function, one format, fixed in the code | `gelu`, `sigmoid`, … (one module per function): one value, raw bits, slices |
//! | the function chosen at run time | [`Function`] with [`BuiltinTables`]; [`BuiltinTables::table`] gives any format's table as a [`TableRef`] |
//! | the tables themselves and their SHA-256 | [`tables`]; [`manifest`] lists the tables of this build |
//! | no table, the same bits; `f32` | [`computed`] |
//! | `i8`/`u8`/4-bit codes with a scale and a zero point | [`quant`] (fused dequantize → function → requantize) |
//! | `i16`/`u16` codes | [`quant16`] (tables in a buffer you own, or boxed with `alloc`) |
//! | OCP MX and NVFP4 blocks | [`mx`] |
//! | `f32` on a quantization grid with proven error bounds, log-sum-exp | the crate `actlut-approx` (approximate, with proven error bounds; not exact) |
//! | a function with constants, or an engine's name for one (`gelu_10`, `swigluoai`) | [`Op`]; [`fill_table`] into your buffer, `table!` at compile time |
//! | 16-bit tables in 2–23 KiB | [`compact`] (the `compact` feature) |
//! | `f32` ↔ fp8 with one rounding | [`fp8`] |
//! | SIMD lookups over your own 256-entry and 16-bit tables | [`kernels`] |
//! | candle tensors | the crate `actlut-candle` ([adapters/candle](https://github.com/actlut/actlut/tree/main/adapters/candle)) |
//!
//! Without any feature the crate still builds: [`computed`], [`BuiltinTables`] (whose methods
//! then return [`MissingTable`], which names the features to enable), [`quant`] and [`kernels`]
//! are always there. Everything per function and per format is generated from one list,
//! `Function::ALL × Format::ALL`, into the committed `src/generated/`; the build script generates
//! only the tables, their statics and hashes, and the manifest.
//!
//! # Crate features
//!
//! A table exists when its function's feature **and** its format's feature are enabled. The
//! default feature `all` enables every function and every format.
//!
//! | format feature | tables |
//! |---|---|
//! | `f16` | IEEE binary16: `[u16; 65536]`, 128 KiB each |
//! | `bf16` | bfloat16: `[u16; 65536]`, 128 KiB each |
//! | `fp8-e4m3` | OCP FP8 E4M3FN: `[u8; 256]` |
//! | `fp8-e5m2` | OCP FP8 E5M2: `[u8; 256]` |
//! | `fp8-e4m3fnuz` | AMD fnuz E4M3 (`0x80` the only NaN, no −0): `[u8; 256]` |
//! | `fp8-e5m2fnuz` | AMD fnuz E5M2: `[u8; 256]` |
//! | `fp6-e2m3` | OCP MX FP6 E2M3 (code in the low 6 bits, saturating): `[u8; 64]`; no `log`/`rsqrt` |
//! | `fp6-e3m2` | OCP MX FP6 E3M2: `[u8; 64]`; no `log`/`rsqrt` |
//! | `fp4-e2m1` | OCP MX FP4 (low 4 bits, saturating): `[u8; 16]`; no `log`/`rsqrt` |
//! | `fp8-e3m4` | `float8_e3m4` (IEEE-like, bias 3): `[u8; 256]` |
//! | `fp8-e4m3ieee` | `float8_e4m3`, the IEEE-like E4M3 with infinities (not `fp8-e4m3`): `[u8; 256]` |
//! | `fp8-e4m3b11fnuz` | `float8_e4m3b11fnuz` (fnuz, bias 11): `[u8; 256]` |
//! | `fp8-e5m3fnu` | `float8_e5m3fnu` (unsigned; a negative result is NaN): `[u8; 256]` |
//! | `fp8-e8m0fnu` | `float8_e8m0fnu`, the OCP MX scale E8M0 (powers of two; a zero or negative result is NaN): `[u8; 256]` |
//!
//! | function feature | function |
//! |---|---|
//! | `gelu` | GELU, `x·Φ(x)` |
//! | `gelu-tanh` | tanh-approximated GELU (evaluated exactly) |
//! | `sigmoid` | `1/(1 + e^−x)` |
//! | `tanh` | `tanh x` |
//! | `silu` | `x·sigmoid(x)` |
//! | `mish` | `x·tanh(softplus(x))` |
//! | `softplus` | `ln(1 + e^x)` |
//! | `softsign` | `x/(1 + \|x\|)` |
//! | `elu` | ELU, α = 1 |
//! | `selu` | SELU with the standard λ, α |
//! | `hardsigmoid` | `max(0, min(1, x/6 + 1/2))` |
//! | `hardswish` | `x·hardsigmoid(x)` |
//! | `erf` | the error function |
//! | `exp` | `e^x` |
//! | `log` | `ln x` |
//! | `rsqrt` | `1/√x` |
//! | `gelu-quick` | `x·sigmoid(1.702·x)`, the quick GELU of CLIP and ggml |
//! | `logsigmoid` | `ln sigmoid(x)`, PyTorch's `LogSigmoid` |
//! | `identity` | `x` (transformers' `linear`) |
//! | `relu`, `relu2`, `relu6` | `max(0, x)`, its square, `min(max(0, x), 6)` |
//! | `leaky-relu` | `x`, or `α·x` below 0; α = 0.01 exact |
//! | `hardtanh` | `x` clamped to `[−1, 1]` |
//! | `celu` | CELU, α = 1 |
//! | `situ` | `β·tanh(x/β)·sigmoid(x)`, β = 4 (Kimi-K3's SiTU) |
//! | `swiglu-oai` | `c·sigmoid(α·c)`, `c = min(x, 7)`, α = 1.702 (GPT-OSS's gate) |
//! | `swish` | `x·sigmoid(β·x)`, β = 1 |
//! | `laplace` | `Φ((x − 0.707107)/0.282095)` (transformers' `laplace`) |
//! | `sqrtsoftplus` | `√softplus(x)` (DeepSeek-V4's router) |
//!
//! The features' tables hold the default constants; other constants make an [`Op`]
//! (docs/SEMANTICS.md, *Constants*). softcap, prelu, gelu_clipped and xielu have constants
//! without default, and so no feature.
//!
//! | other feature | enables |
//! |---|---|
//! | `all` (default) | `all-functions` and `all-formats`; will always cover everything |
//! | `all-functions` | every function feature above |
//! | `all-formats` | every format feature above |
//! | `std` (default) | run-time CPU detection for the SIMD [`kernels`] (otherwise compile-time target features) |
//! | `avx512` (default) | the AVX-512 kernels, picked at run time on CPUs with AVX-512 F, BW and VBMI: [`kernels::Kernel::Avx512Vbmi`], the 256-entry byte lookup in two `vpermi2b` per 64 bytes, and [`kernels::Kernel::Avx512`], the gathers of 16-bit and compact tables; off: AVX2 and SSE2 |
//! | `alloc` | heap-built tables: `quant16`'s boxed tables and spline stored form; `ulp`, the grader of `actlut ulp` and the Python package |
//! | `macros` | `table!`: an op's table as a declared `static`; `dequant_table!`: a fused [`quant`] table as a `static`; both computed at compile time |
//! | `derivatives` | the derivative table of every enabled function over every enabled format: `gelu::derivative::bf16`, `tables::GELU_DERIVATIVE_BF16`, each entry the correctly rounded derivative (the one-sided value at a kink: docs/SEMANTICS.md), with its declaration and lock line; always full, with `compact` too |
//! | `self-check` | every table verified in memory before its first use (`tables::checked`; a mismatch panics naming the table, `verify()` returns it), and `manifest::Table::check` (`sha2`, `no_std`) |
//! | `float8` | the `float8` crate's `F8E4M3`/`F8E5M2` in and out of the fp8 tables: `Float8Tables::fp8_e4m3`, `apply_fp8_e4m3`, `map_fp8_e4m3` (and E5M2) |
//! | `compact` | every 16-bit table also in its [`compact`] stored form: 2–23 KiB instead of 128 KiB, the same bits, two dependent loads and an add per lookup. Additive: `tables::compact` sits beside the full tables, which keep their type; the function modules and [`BuiltinTables`] read the compact forms, and a binary links only the forms it references |
//! | `compact-words` | `compact` with every stored form in the words layout ([`compact::Layout::Words`], checked against `tables/actlut-compact-words.lock`): 30% more bytes, no width branch in the decode; on a Zen 5 2.1–2.57 times the full table's time where the bytes layout takes 3.3–4.3 |
//!
//! # Accuracy
//!
//! Every table entry is correctly rounded as [docs/SEMANTICS.md](https://github.com/actlut/actlut/blob/main/docs/SEMANTICS.md)
//! defines: the exact value at the exact input, rounded once, to nearest, ties to even, with
//! subnormals, overflow, signed zeros and NaN payloads specified. The `f32` functions of
//! [`computed`] are within 0.5 ulp + 2^-40. A separate test crate checks every entry of every
//! table against MPFR; [docs/accuracy.md](https://github.com/actlut/actlut/blob/main/docs/accuracy.md)
//! has the argument and the tests.
//!
//! # Speed, audit, embedded
//!
//! A lookup is one load per element; [BENCHMARKS.md](https://github.com/actlut/actlut/blob/main/BENCHMARKS.md)
//! measures it against candle, libm and approximations. The build checks every table against a
//! committed lock, and the `actlut` command finds tables in compiled artifacts
//! ([docs/lock.md](https://github.com/actlut/actlut/blob/main/docs/lock.md),
//! [docs/audit.md](https://github.com/actlut/actlut/blob/main/docs/audit.md)). Cortex-M and wasm:
//! [docs/embedded.md](https://github.com/actlut/actlut/blob/main/docs/embedded.md).
//!
//! # Documentation
//!
//! The [README](https://github.com/actlut/actlut#readme) and one page per subject:
//! [docs/SEMANTICS.md](https://github.com/actlut/actlut/blob/main/docs/SEMANTICS.md) (what every entry is);
//! [docs/ARCHITECTURE.md](https://github.com/actlut/actlut/blob/main/docs/ARCHITECTURE.md) (the crates and where new code goes);
//! [docs/accuracy.md](https://github.com/actlut/actlut/blob/main/docs/accuracy.md) (how exactness is achieved and verified);
//! [docs/quantized.md](https://github.com/actlut/actlut/blob/main/docs/quantized.md) (quant and mx);
//! [docs/quant16.md](https://github.com/actlut/actlut/blob/main/docs/quant16.md) (16-bit quantized tables);
//! [docs/quant16-ort.md](https://github.com/actlut/actlut/blob/main/docs/quant16-ort.md) (ONNX Runtime on every 16-bit code);
//! [docs/compact.md](https://github.com/actlut/actlut/blob/main/docs/compact.md) (the compact stored form);
//! [docs/ulp.md](https://github.com/actlut/actlut/blob/main/docs/ulp.md) (`actlut ulp`: grading a kernel against the tables);
//! [docs/python.md](https://github.com/actlut/actlut/blob/main/docs/python.md) (the Python package);
//! [docs/lock.md](https://github.com/actlut/actlut/blob/main/docs/lock.md) (the lock and the manifest);
//! [docs/audit.md](https://github.com/actlut/actlut/blob/main/docs/audit.md) (`actlut audit`);
//! [docs/self-check.md](https://github.com/actlut/actlut/blob/main/docs/self-check.md) (the tables a program reads, verified in memory);
//! [docs/embedded.md](https://github.com/actlut/actlut/blob/main/docs/embedded.md) (Cortex-M and wasm);
//! [docs/testing.md](https://github.com/actlut/actlut/blob/main/docs/testing.md) (the CI steps and their cost);
//! [BENCHMARKS.md](https://github.com/actlut/actlut/blob/main/BENCHMARKS.md) (speed);
//! [CHANGELOG.md](https://github.com/actlut/actlut/blob/main/CHANGELOG.md) (every user-visible change).
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(missing_docs)]
// `unsafe` is allowed only in `kernels` (the SIMD blocks, their driver and dispatch).
#![deny(unsafe_code)]

#[cfg(any(test, feature = "std"))]
extern crate std;

mod builtin;
pub mod compact;
pub mod computed;
pub mod element;
mod errors;
pub mod fp8;
mod functions;
// The per-function modules (`gelu`, `sigmoid`, …), generated with the rest into
// `src/generated/functions.rs` and included here, at the crate root: a path to a module whose
// feature is off then gets rustc's note that names the feature.
include!("generated/functions.rs");
pub mod kernels;
pub mod manifest;
pub mod mx;
pub mod quant;
pub mod quant16;
mod read;
mod table_ref;
pub mod tables;
#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
pub mod ulp;

pub use actlut_core::names::{UnknownFormat, UnknownFunction};
#[cfg(feature = "macros")]
#[cfg_attr(docsrs, doc(cfg(feature = "macros")))]
pub use actlut_macros::{dequant_table, table};
pub use builtin::BuiltinTables;
pub use errors::{LengthMismatch, MissingTable};
#[cfg(feature = "float8")]
#[cfg_attr(docsrs, doc(cfg(feature = "float8")))]
pub use fp8::Float8Tables;
/// The `half` crate, whose `f16` and `bf16` this crate's 16-bit functions take
/// and return: `actlut::half::f16` needs no dependency of your own.
pub use half;
pub use kernels::MapError;
pub use quant::{DequantTable, PackedDequantTable};
pub use table_ref::TableRef;

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
pub use actlut_core::{
    eval_op, eval_op_f32, fill_table, EvalError, Format, Function, Op, OpError, Rational,
    RationalError, TableEntry,
};
