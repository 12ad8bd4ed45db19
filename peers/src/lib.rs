//! actlut against what users would pick instead, as slice functions with one
//! signature, so that benches and the accuracy report treat them alike.
//!
//! For GELU (erf form), sigmoid and SiLU over `f16` and `bf16`, each peer module
//! has `gelu_f16(&[f16], &mut [f16])`, `gelu_bf16(&[bf16], &mut [bf16])`,
//! `sigmoid_f16`, … Every one panics if the two slices differ in length.
//!
//! | module | what a user does |
//! |---|---|
//! | [`naive`] | widen to `f32`, evaluate with `libm` (`erff`, `expf`), round back with `half` |
//! | [`candle`] | candle-core's CPU ops on a tensor built from the slice, copied back |
//! | [`approx_simd`] | an AVX2/FMA/F16C approximate `f32` kernel (fast exp, tanh-form GELU) |
//! | [`lazy_table`] | a 65,536-entry table built on first use from the naive formula (ggml's way) |
//! | [`actlut_computed`] | actlut's exact computed path, per element (no table) |
//!
//! [`forms`] lists f16 GELU in actlut's full, compact and expanded forms beside
//! tract-linalg and candle (`benches/compact.rs`).
//!
//! actlut's own lookup is `actlut::gelu::map_f16` and friends; [`Peer::all`]
//! lists every peer with its name for one function and format, and
//! [`accuracy`] compares a peer with actlut's correctly rounded table over every
//! input.
#![deny(missing_docs)]
// `unsafe` lives in one module only: the AVX2 kernels of `approx_simd`.
#![deny(unsafe_code)]

use actlut::BuiltinTables as _;
use actlut::Function;
use half::{bf16, f16};

pub mod accuracy;
pub mod actlut_computed;
pub mod approx_simd;
pub mod candle;
pub mod forms;
pub mod lazy_table;
pub mod naive;
pub mod report;
#[cfg(target_arch = "x86_64")]
mod simd;

/// The functions the peers implement, in report order.
pub const FUNCTIONS: [Function; 3] = [Function::Gelu, Function::Sigmoid, Function::Silu];

/// A 16-bit float format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// IEEE binary16.
    F16,
    /// bfloat16.
    Bf16,
}

impl Format {
    /// Both formats, in report order.
    pub const ALL: [Format; 2] = [Format::F16, Format::Bf16];

    /// `"f16"` or `"bf16"`.
    pub fn name(self) -> &'static str {
        match self {
            Format::F16 => "f16",
            Format::Bf16 => "bf16",
        }
    }

    /// The value of a bit pattern, widened to `f32` (exact).
    pub fn to_f32(self, bits: u16) -> f32 {
        match self {
            Format::F16 => f16::from_bits(bits).to_f32(),
            Format::Bf16 => bf16::from_bits(bits).to_f32(),
        }
    }

    /// The nearest value to `x` in this format (ties to even), as bits: `half`'s
    /// `from_f32`.
    pub fn from_f32(self, x: f32) -> u16 {
        match self {
            Format::F16 => f16::from_f32(x).to_bits(),
            Format::Bf16 => bf16::from_f32(x).to_bits(),
        }
    }

    /// actlut's correctly rounded table of `function` in this format.
    ///
    /// # Panics
    ///
    /// If the table is not compiled in (this crate enables gelu, gelu-tanh,
    /// sigmoid and silu over f16 and bf16).
    pub fn table(self, function: Function) -> &'static [u16; 65536] {
        let table = match self {
            Format::F16 => function.table_f16(),
            Format::Bf16 => function.table_bf16(),
        };
        table.unwrap_or_else(|e| panic!("{e}"))
    }
}

/// A slice function over one format.
#[derive(Clone, Copy, Debug)]
pub enum Kernel {
    /// Over `f16`.
    F16(fn(&[f16], &mut [f16])),
    /// Over `bf16`.
    Bf16(fn(&[bf16], &mut [bf16])),
}

impl Kernel {
    /// actlut's table lookup of `function` over `format`: the full table through
    /// `actlut::kernels::map_u16` (what `actlut::gelu::map_f16` and friends run
    /// without the `compact` feature, which this project enables for
    /// [`forms`]).
    ///
    /// # Panics
    ///
    /// For a function other than GELU, sigmoid and SiLU.
    pub fn actlut(function: Function, format: Format) -> Kernel {
        use actlut::tables as t;
        use half::slice::HalfFloatSliceExt;
        macro_rules! full {
            ($kind:ident, $table:expr) => {
                Kernel::$kind(|xs, ys| {
                    actlut::kernels::map_u16(
                        &$table,
                        xs.reinterpret_cast(),
                        ys.reinterpret_cast_mut(),
                    )
                })
            };
        }
        match (function, format) {
            (Function::Gelu, Format::F16) => full!(F16, t::GELU_F16),
            (Function::Gelu, Format::Bf16) => full!(Bf16, t::GELU_BF16),
            (Function::Sigmoid, Format::F16) => full!(F16, t::SIGMOID_F16),
            (Function::Sigmoid, Format::Bf16) => full!(Bf16, t::SIGMOID_BF16),
            (Function::Silu, Format::F16) => full!(F16, t::SILU_F16),
            (Function::Silu, Format::Bf16) => full!(Bf16, t::SILU_BF16),
            _ => panic!("no actlut kernel for {}", function.name()),
        }
    }

    /// The format the kernel works on.
    pub fn format(self) -> Format {
        match self {
            Kernel::F16(_) => Format::F16,
            Kernel::Bf16(_) => Format::Bf16,
        }
    }

    /// Runs the kernel on raw bit patterns.
    ///
    /// # Panics
    ///
    /// If `xs.len() != ys.len()`.
    pub fn map_bits(self, xs: &[u16], ys: &mut [u16]) {
        use half::slice::HalfBitsSliceExt;
        match self {
            Kernel::F16(k) => k(xs.reinterpret_cast(), ys.reinterpret_cast_mut()),
            Kernel::Bf16(k) => k(xs.reinterpret_cast(), ys.reinterpret_cast_mut()),
        }
    }
}

/// One implementation of one function over one format.
#[derive(Clone, Copy, Debug)]
pub struct Peer {
    /// Its name in benches and reports: `naive`, `candle`, …
    pub name: &'static str,
    /// The function it computes (GELU for `candle_gelu_tanh`, which a user
    /// picks for GELU although it evaluates the tanh approximation).
    pub function: Function,
    /// The slice function.
    pub kernel: Kernel,
}

/// Picks the `f16` or `bf16` slice function of a peer module by function: the
/// module's `gelu_f16`, `gelu_bf16`, `sigmoid_f16`, … as a `Some(Kernel)`, or
/// `None` for another function.
macro_rules! kernel {
    ($module:path, $function:expr, $format:expr) => {{
        use actlut::Function;
        use $crate::{Format, Kernel};
        use $module as m;
        match ($function, $format) {
            (Function::Gelu, Format::F16) => Some(Kernel::F16(m::gelu_f16)),
            (Function::Gelu, Format::Bf16) => Some(Kernel::Bf16(m::gelu_bf16)),
            (Function::Sigmoid, Format::F16) => Some(Kernel::F16(m::sigmoid_f16)),
            (Function::Sigmoid, Format::Bf16) => Some(Kernel::Bf16(m::sigmoid_bf16)),
            (Function::Silu, Format::F16) => Some(Kernel::F16(m::silu_f16)),
            (Function::Silu, Format::Bf16) => Some(Kernel::Bf16(m::silu_bf16)),
            _ => None,
        }
    }};
}
pub(crate) use kernel;

impl Peer {
    /// Every peer of `function` over `format`, in bench and report order:
    /// `actlut_computed`, `naive`, `approx_simd`, `candle`, `candle_gelu_tanh`
    /// (GELU only), `lazy_table`. Empty for a function outside [`FUNCTIONS`].
    pub fn all(function: Function, format: Format) -> Vec<Peer> {
        let mut peers = Vec::new();
        let mut push = |name, kernel: Option<Kernel>| {
            if let Some(kernel) = kernel {
                peers.push(Peer {
                    name,
                    function,
                    kernel,
                });
            }
        };
        push(
            "actlut_computed",
            kernel!(actlut_computed, function, format),
        );
        push("naive", kernel!(naive, function, format));
        push("approx_simd", kernel!(approx_simd, function, format));
        push("candle", kernel!(candle, function, format));
        if function == Function::Gelu {
            push(
                "candle_gelu_tanh",
                Some(match format {
                    Format::F16 => Kernel::F16(candle::gelu_tanh_f16),
                    Format::Bf16 => Kernel::Bf16(candle::gelu_tanh_bf16),
                }),
            );
        }
        push("lazy_table", kernel!(lazy_table, function, format));
        peers
    }
}

/// Panics unless the input and output slices have the same length.
#[track_caller]
pub(crate) fn check_lengths(xs: usize, ys: usize) {
    assert_eq!(
        xs, ys,
        "input and output slices differ in length: {xs} inputs, {ys} outputs"
    );
}

/// Defines the six slice functions of a peer module from one function per
/// format and activation.
macro_rules! slice_fns {
    ($(#[$doc:meta] $name:ident: $ty:ident => $body:expr;)*) => {
        $(
            #[$doc]
            ///
            /// # Panics
            ///
            /// If `xs.len() != ys.len()`.
            #[track_caller]
            pub fn $name(xs: &[half::$ty], ys: &mut [half::$ty]) {
                crate::check_lengths(xs.len(), ys.len());
                #[allow(clippy::redundant_closure_call)]
                ($body)(xs, ys)
            }
        )*
    };
}
pub(crate) use slice_fns;
