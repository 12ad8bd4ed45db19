//! Slice kernels: `dst[i] = table[src[i]]` over whole slices, one table load
//! per element, SIMD byte permutes for 256-entry byte tables, and the two
//! dependent loads of the compact 16-bit tables.
//!
//! The table shapes ([`TableShape::ALL`], one [`LookupTable`] type each) share one
//! set of kernels ([`Kernel`]); [`SplineRef`] (the spline stored form
//! of 16-bit quantized tables, docs/quant16.md), has the portable block only:
//!
//! | kernel | `[u8; 256]` (fp8, requantized) | `[u16; 65_536]` (f16, bf16) | `[u32; 256]`, `[u16; 256]` (byte → wide) | [`CompactRef`] (compact f16, bf16) | needs |
//! |---|---|---|---|---|---|
//! | [`Kernel::Scalar`] | ✓ | ✓ | ✓ | ✓ (the decode without bounds checks; the fastest) | nothing |
//! | [`Kernel::Sse2`] | | `pinsrw` lane loads | `movd`/`pinsrw` lane loads | | x86_64 with the `sse2` target feature |
//! | [`Kernel::Avx2`] | 16 `vpshufb` and a `vpblendvb` tree | | | two 8-lane `vpgatherdd` | AVX2 (run-time detection with `std`) |
//! | [`Kernel::Avx512Vbmi`] | two `vpermi2b` and a mask blend | | | | AVX-512 F, BW, VBMI (run-time detection with `std`), and the `avx512` feature (default) |
//! | [`Kernel::Avx512`] | | two 16-lane `vpgatherdd` per 64 elements, scalar lookups between them | | 16 lanes: a directory and a pool gather, each as two 8-lane `vpgatherdd`, the decode in `zmm` | the same AVX-512 level (the gathers use F and BW), and the `avx512` feature |
//! | [`Kernel::Neon`] | `tbl`/`tbx` over four register quadruples | | | | aarch64 with the `neon` target feature |
//! | [`Kernel::Simd128`] | 16 `i8x16.swizzle`, or-ed | `i16x8.replace_lane` lane loads | | | wasm32 with `simd128` |
//!
//! The FP4 shared-scale tables of [`crate::mx`] are a sixth shape, [`Fp4Row`]
//! (`kernels/fp4.rs`): one scale's 16 outputs, indexed by a packed byte of two
//! codes. Its kernels are [`Kernel::Scalar`], [`Kernel::Ssse3`] (`pshufb`),
//! [`Kernel::Neon`] (`tbl`) and [`Kernel::Simd128`] (`i8x16.swizzle`), each
//! shuffling the row's byte planes by 16 codes per block.
//!
//! A compact table (`kernels/compact.rs`, docs/compact.md) is two dependent
//! loads and an add per element; every block is compiled once per stored form
//! (bytes layout at each offset scale, words layout) and the kernel matches the
//! form once per slice. The portable loop branches on the page's width, so a
//! narrow page is one byte load: the fastest decode while the branch is
//! predicted, and 2–2.5 times slower once it is not (a stream of fresh inputs
//! of which a few percent land on wide pages). The gather kernels have no
//! branch. For the bytes layout ([`TableShape::Compact16`]) [`Kernel::best`]
//! picks the AVX-512 or AVX2 gathers on x86_64 CPUs that have them (measured
//! per CPU class: [`Kernel::preference`]) and the portable loop elsewhere; the
//! words layout ([`TableShape::CompactWords16`]) has no width branch, and on a
//! Zen 5 the portable loop is its fastest kernel. The others run by name.
//!
//! Every kernel is one block (the lookup of 8 to 64 consecutive elements) run
//! by one chunk-and-tail loop, which finishes the last elements with the scalar
//! lookup; every kernel is bit-identical to the scalar loop (the tests run every
//! available kernel on every length 0..=300 and every alignment offset).
//!
//! The slice functions ([`map_u8`], [`apply_u8`], [`map_u16`], [`apply_u16`],
//! [`map_u8_u32`], [`map_u8_u16`], and [`crate::compact::apply_compact_u16`] and
//! [`crate::compact::map_compact_u16`]) use [`Kernel::best`] for their table shape,
//! chosen once: with the `std` feature on x86_64 the byte kernel is a function
//! pointer set on first use from CPU detection; everywhere else the choice is
//! fixed at compile time by the target features (`-C target-feature=+avx2`).
//! [`Kernel::best`] never picks [`Kernel::Simd128`] for byte tables: under node
//! on an x86-64 host that kernel runs at 0.64–0.66× the scalar loop
//! (`i8x16.swizzle` costs a fix-up per lookup there, see BENCHMARKS.md); it
//! remains available by name, for hosts where `swizzle` is one instruction
//! (aarch64's `tbl`).
//!
//! ```
//! use actlut::kernels::{map_u8, Kernel, TableShape};
//!
//! let mut table = [0u8; 256];
//! for (i, t) in table.iter_mut().enumerate() {
//!     *t = (i as u8).reverse_bits();
//! }
//! let src: Vec<u8> = (0..=255).collect();
//! let mut dst = vec![0; 256];
//! map_u8(&table, &src, &mut dst);
//! assert_eq!(dst[1], 0x80);
//! // A kernel by name: an error, not a fallback, where it cannot run.
//! let mut again = vec![0; 256];
//! Kernel::Scalar.map(&table, &src, &mut again).unwrap();
//! assert_eq!(again, dst);
//! assert!(Kernel::best(TableShape::U8).is_available_for(TableShape::U8));
//! ```

#[allow(unsafe_code)]
mod compact;
#[allow(unsafe_code)]
mod driver;
#[allow(unsafe_code)]
mod fp4;

#[allow(unsafe_code)]
mod scalar;
#[allow(unsafe_code)]
mod spline;

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[allow(unsafe_code)]
mod x86_64;

#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
#[allow(unsafe_code)]
mod aarch64;

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[allow(unsafe_code)]
mod wasm32;

/// The shapes of lookup table the kernels serve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TableShape {
    /// `[u8; 256]`: byte to byte (fp8 formats, requantized outputs).
    U8,
    /// `[u16; 65_536]`: 16-bit to 16-bit (f16, bf16).
    U16,
    /// `[u32; 256]`: byte to 32-bit (fused 8-bit → `f32` tables).
    U8ToU32,
    /// `[u16; 256]`: byte to 16-bit (fused 8-bit → `f16`/`bf16` tables).
    U8ToU16,
    /// [`CompactRef`]: a 65,536-entry 16-bit table in its compact stored form
    /// (the `compact` feature's f16 and bf16 tables; docs/compact.md) in the
    /// bytes layout. The type's shape ([`LookupTable::SHAPE`]): its kernels
    /// serve both layouts.
    Compact16,
    /// [`CompactRef`] in the words layout (the `compact-words` feature's
    /// tables): the same type and kernels as [`TableShape::Compact16`], with
    /// its own [`Kernel::best`], since the layouts' decodes rank the kernels
    /// differently (on a Zen 5 the portable loop is the fastest for words and
    /// the slowest for bytes). The slice functions pick by the table's layout
    /// ([`TableShape::of_compact`]).
    CompactWords16,
    /// [`Fp4Row`]: one shared scale's row of an FP4 table of [`crate::mx`]
    /// (a packed byte of two FP4 codes to their two outputs).
    Fp4,
    /// [`SplineRef`]: a 65,536-entry 16-bit table in the spline stored form (a
    /// cubic predictor and its exceptions; 16-bit quantized activations,
    /// docs/quant16.md).
    Spline16,
}

impl TableShape {
    /// Every shape.
    pub const ALL: [TableShape; 8] = [
        TableShape::U8,
        TableShape::U16,
        TableShape::U8ToU32,
        TableShape::U8ToU16,
        TableShape::Compact16,
        TableShape::CompactWords16,
        TableShape::Fp4,
        TableShape::Spline16,
    ];

    /// The shape of a compact table in `layout`: [`TableShape::Compact16`]
    /// (bytes) or [`TableShape::CompactWords16`] (words), whose
    /// [`Kernel::best`] the compact slice functions run.
    ///
    /// ```
    /// use actlut::compact::Layout;
    /// use actlut::kernels::TableShape;
    /// assert_eq!(TableShape::of_compact(Layout::Words), TableShape::CompactWords16);
    /// ```
    pub const fn of_compact(layout: Layout) -> TableShape {
        match layout {
            Layout::Bytes => TableShape::Compact16,
            Layout::Words => TableShape::CompactWords16,
        }
    }
}

impl core::fmt::Display for TableShape {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            TableShape::U8 => "256-entry byte",
            TableShape::U16 => "65,536-entry 16-bit",
            TableShape::U8ToU32 => "256-entry byte-to-32-bit",
            TableShape::U8ToU16 => "256-entry byte-to-16-bit",
            TableShape::Compact16 => "compact 16-bit",
            TableShape::CompactWords16 => "compact 16-bit (words layout)",
            TableShape::Fp4 => "FP4 shared-scale row",
            TableShape::Spline16 => "spline 16-bit",
        })
    }
}

/// A lookup table a [`Kernel`] runs over: `[u8; 256]`, `[u16; 65_536]`,
/// `[u32; 256]`, `[u16; 256]`, a compact 16-bit table ([`CompactRef`]) or a
/// spline 16-bit table ([`SplineRef`]).
/// Sealed: the kernels exist for these only.
pub trait LookupTable: sealed::Dispatch {
    /// The element type of the source slice: the index into the table.
    type Index: Copy;
    /// The element type of the destination slice: a table entry.
    type Entry: Copy;
    /// Which shape this is.
    const SHAPE: TableShape;
    /// The scalar lookup `self[index]`, the reference every kernel equals (the
    /// index types cover exactly the table, so it never panics).
    fn entry(&self, index: Self::Index) -> Self::Entry;
}

/// The per-shape kernel dispatch, out of users' reach.
mod sealed {
    /// A kernel over a table of type `T`: `dst[i] = table[src[i]]` for
    /// `i < len`, with the contract of the chunk-and-tail driver.
    pub type RawKernel<T> = unsafe fn(
        &T,
        *const <T as super::LookupTable>::Index,
        *mut <T as super::LookupTable>::Entry,
        usize,
    );

    pub trait Dispatch {
        /// `kernel`'s implementation for this table, if it has one and it can
        /// run here (the CPU or target has its features). Only then is the
        /// result `Some`: calling it needs no further check.
        fn implementation(kernel: super::Kernel) -> Option<RawKernel<Self>>
        where
            Self: super::LookupTable;

        /// The implementation of [`super::Kernel::best`] for this table,
        /// chosen once.
        fn best_implementation() -> RawKernel<Self>
        where
            Self: super::LookupTable;
    }
}
use sealed::RawKernel;

use crate::element::FloatOutput;
use crate::errors::{check_lengths, LengthMismatch, MissingTable};
use actlut_core::compact::{CompactRef, Layout};
use actlut_core::spline::SplineRef;
pub use fp4::Fp4Row;

/// `best_implementation` for a table type: with `std` on x86_64, a function
/// pointer first set to a routine that detects the CPU, stores the kernel
/// [`Kernel::best`] picks in its place and runs it (so the choice is made once
/// and costs one load and an indirect call per slice afterwards); without
/// `std`, or off x86_64, fixed at compile time by the target features.
macro_rules! chosen_once {
    ($table:ty, $shape:expr, $fallback:expr) => {
        #[cfg(all(feature = "std", target_arch = "x86_64", target_feature = "sse2"))]
        #[inline]
        #[allow(unsafe_code)]
        fn best_implementation() -> RawKernel<Self> {
            use core::sync::atomic::{AtomicPtr, Ordering};

            static CHOSEN: AtomicPtr<()> = AtomicPtr::new(detect as *mut ());

            /// # Safety
            ///
            /// The contract of [`RawKernel`] (the chosen kernel's).
            unsafe fn detect(
                table: &$table,
                src: *const <$table as LookupTable>::Index,
                dst: *mut <$table as LookupTable>::Entry,
                len: usize,
            ) {
                let chosen = <$table>::implementation(Kernel::best($shape)).unwrap_or($fallback);
                CHOSEN.store(chosen as *mut (), Ordering::Relaxed);
                // SAFETY: `implementation` returns only kernels that run here;
                // the slice contract is the caller's.
                unsafe { chosen(table, src, dst, len) }
            }

            let chosen = CHOSEN.load(Ordering::Relaxed);
            // SAFETY: CHOSEN only ever holds `detect` or a kernel returned by
            // `implementation` (so one that runs on this CPU), both of type
            // `RawKernel<$table>`; a function pointer round-trips through
            // `*mut ()`.
            unsafe { core::mem::transmute::<*mut (), RawKernel<Self>>(chosen) }
        }

        /// Without `std`, or off x86_64: fixed at compile time.
        #[cfg(not(all(feature = "std", target_arch = "x86_64", target_feature = "sse2")))]
        #[inline]
        fn best_implementation() -> RawKernel<Self> {
            Self::implementation(Kernel::best($shape)).unwrap_or($fallback)
        }
    };
}

impl LookupTable for SplineRef<'_> {
    type Index = u16;
    type Entry = u16;
    const SHAPE: TableShape = TableShape::Spline16;
    /// [`SplineRef::get`].
    #[inline(always)]
    fn entry(&self, index: u16) -> u16 {
        self.get(index)
    }
}

impl sealed::Dispatch for SplineRef<'_> {
    #[inline]
    fn implementation(kernel: Kernel) -> Option<RawKernel<Self>> {
        match kernel {
            Kernel::Scalar => Some(spline::spline_scalar),
            _ => None,
        }
    }

    #[inline]
    fn best_implementation() -> RawKernel<Self> {
        spline::spline_scalar
    }
}

impl LookupTable for [u8; 256] {
    type Index = u8;
    type Entry = u8;
    const SHAPE: TableShape = TableShape::U8;
    #[inline(always)]
    fn entry(&self, index: u8) -> u8 {
        self[usize::from(index)]
    }
}

impl sealed::Dispatch for [u8; 256] {
    #[inline]
    fn implementation(kernel: Kernel) -> Option<RawKernel<Self>> {
        match kernel {
            Kernel::Scalar => Some(scalar::u8_scalar),
            #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
            Kernel::Avx2 if kernel.is_available() => Some(x86_64::u8_avx2),
            #[cfg(all(target_arch = "x86_64", target_feature = "sse2", feature = "avx512"))]
            Kernel::Avx512Vbmi if kernel.is_available() => Some(x86_64::u8_vbmi),
            #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
            Kernel::Neon => Some(aarch64::u8_neon),
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Kernel::Simd128 => Some(wasm32::u8_simd128),
            _ => None,
        }
    }

    chosen_once!([u8; 256], TableShape::U8, scalar::u8_scalar);
}

impl LookupTable for [u16; 65_536] {
    type Index = u16;
    type Entry = u16;
    const SHAPE: TableShape = TableShape::U16;
    #[inline(always)]
    fn entry(&self, index: u16) -> u16 {
        self[usize::from(index)]
    }
}

impl sealed::Dispatch for [u16; 65_536] {
    #[inline]
    fn implementation(kernel: Kernel) -> Option<RawKernel<Self>> {
        match kernel {
            Kernel::Scalar => Some(scalar::u16_scalar),
            #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
            Kernel::Sse2 => Some(x86_64::u16_sse2),
            #[cfg(all(target_arch = "x86_64", target_feature = "sse2", feature = "avx512"))]
            Kernel::Avx512 if kernel.is_available() => Some(x86_64::u16_avx512),
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Kernel::Simd128 => Some(wasm32::u16_simd128),
            _ => None,
        }
    }

    chosen_once!([u16; 65_536], TableShape::U16, scalar::u16_scalar);
}

impl LookupTable for CompactRef<'_> {
    type Index = u16;
    type Entry = u16;
    const SHAPE: TableShape = TableShape::Compact16;
    /// [`CompactRef::get`]: the safe decode, bounds checks and all.
    #[inline(always)]
    fn entry(&self, index: u16) -> u16 {
        self.get(index)
    }
}

impl sealed::Dispatch for CompactRef<'_> {
    #[inline]
    fn implementation(kernel: Kernel) -> Option<RawKernel<Self>> {
        match kernel {
            Kernel::Scalar => Some(compact::compact_scalar),
            #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
            Kernel::Avx2 if kernel.is_available() => Some(x86_64::compact_avx2),
            #[cfg(all(target_arch = "x86_64", target_feature = "sse2", feature = "avx512"))]
            Kernel::Avx512 if kernel.is_available() => Some(x86_64::compact_avx512),
            _ => None,
        }
    }

    /// Chosen per layout: [`compact_best`].
    #[inline]
    fn best_implementation() -> RawKernel<Self> {
        compact_best
    }
}

/// The compact slice functions' kernel: [`Kernel::best`] of the table's layout
/// ([`TableShape::of_compact`]), run. With `std` on x86_64 each layout's choice
/// is made once, on its first slice, and kept in its own function pointer
/// (one load, a branch and an indirect call per slice afterwards); without
/// `std`, or off x86_64, it is fixed at compile time by the target features.
///
/// # Safety
///
/// The contract of [`RawKernel`].
#[allow(unsafe_code)]
unsafe fn compact_best(table: &CompactRef<'_>, src: *const u16, dst: *mut u16, len: usize) {
    use sealed::Dispatch;
    let shape = TableShape::of_compact(table.layout());
    #[cfg(all(feature = "std", target_arch = "x86_64", target_feature = "sse2"))]
    let run: RawKernel<CompactRef<'_>> = {
        use core::sync::atomic::{AtomicPtr, Ordering};
        // Null until the layout's first slice.
        static CHOSEN: [AtomicPtr<()>; 2] = [
            AtomicPtr::new(core::ptr::null_mut()),
            AtomicPtr::new(core::ptr::null_mut()),
        ];
        let slot = &CHOSEN[usize::from(shape == TableShape::CompactWords16)];
        let chosen = slot.load(Ordering::Relaxed);
        if chosen.is_null() {
            let run = <CompactRef<'_>>::implementation(Kernel::best(shape))
                .unwrap_or(compact::compact_scalar);
            slot.store(run as *mut (), Ordering::Relaxed);
            run
        } else {
            // SAFETY: a non-null slot only ever holds a kernel returned by
            // `implementation` (so one that runs on this CPU), of type
            // `RawKernel<CompactRef>` for every lifetime (the kernels are
            // generic over it); a function pointer round-trips through
            // `*mut ()`.
            unsafe { core::mem::transmute::<*mut (), RawKernel<CompactRef<'_>>>(chosen) }
        }
    };
    #[cfg(not(all(feature = "std", target_arch = "x86_64", target_feature = "sse2")))]
    let run =
        <CompactRef<'_>>::implementation(Kernel::best(shape)).unwrap_or(compact::compact_scalar);
    // SAFETY: `implementation` returns only kernels that run here; the slice
    // contract is the caller's.
    unsafe { run(table, src, dst, len) }
}

impl LookupTable for [u32; 256] {
    type Index = u8;
    type Entry = u32;
    const SHAPE: TableShape = TableShape::U8ToU32;
    #[inline(always)]
    fn entry(&self, index: u8) -> u32 {
        self[usize::from(index)]
    }
}

impl sealed::Dispatch for [u32; 256] {
    #[inline]
    fn implementation(kernel: Kernel) -> Option<RawKernel<Self>> {
        match kernel {
            Kernel::Scalar => Some(scalar::u8_u32_scalar),
            #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
            Kernel::Sse2 => Some(x86_64::u8_u32_sse2),
            _ => None,
        }
    }

    /// Fixed at compile time.
    #[inline]
    fn best_implementation() -> RawKernel<Self> {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        return x86_64::u8_u32_sse2;
        #[allow(unreachable_code)]
        scalar::u8_u32_scalar
    }
}

impl LookupTable for [u16; 256] {
    type Index = u8;
    type Entry = u16;
    const SHAPE: TableShape = TableShape::U8ToU16;
    #[inline(always)]
    fn entry(&self, index: u8) -> u16 {
        self[usize::from(index)]
    }
}

impl sealed::Dispatch for [u16; 256] {
    #[inline]
    fn implementation(kernel: Kernel) -> Option<RawKernel<Self>> {
        match kernel {
            Kernel::Scalar => Some(scalar::u8_u16_scalar),
            #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
            Kernel::Sse2 => Some(x86_64::u8_u16_sse2),
            _ => None,
        }
    }

    /// Fixed at compile time.
    #[inline]
    fn best_implementation() -> RawKernel<Self> {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        return x86_64::u8_u16_sse2;
        #[allow(unreachable_code)]
        scalar::u8_u16_scalar
    }
}

/// The CPU classes [`Kernel::best`] tells apart: where the benchmarks
/// (`cargo bench --bench compact`, BENCHMARKS.md) showed a different kernel
/// fastest. [`CpuClass::detect`] reads it with `cpuid` on x86_64 (with the
/// `std` feature; without it, and elsewhere, [`CpuClass::Other`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CpuClass {
    /// An Intel x86_64 CPU (vendor `GenuineIntel`). Measured: a Sapphire
    /// Rapids class Xeon (family 6, AVX-512 F/BW/VBMI/FP16, in a virtual machine), where the
    /// 16-lane gathers beat scalar loads.
    Intel,
    /// AMD family 25 without AVX-512: Zen 3. Measured: gathers slower than
    /// scalar loads.
    AmdZen3,
    /// AMD family 25 with AVX-512: Zen 4. Measured on one, at 1 Ki, 64 Ki and
    /// 1 Mi elements: the AVX2 compact kernel at 0.87–0.91 ns per element
    /// against 0.85–1.46 for the portable loop (equal at 1 Ki, 1.7× faster at
    /// 1 Mi).
    AmdZen4,
    /// AMD family 26: Zen 5. Measured: SSE2 ahead of the AVX-512 full-table
    /// gather; for compact tables the AVX-512 kernel, flat at 0.64–0.68 ns per
    /// element, against the portable loop's 0.42–1.23 (fast only where the
    /// branch predictor has learnt which inputs land on wide pages).
    AmdZen5,
    /// Any other CPU, another architecture, or no detection (no `std`, Miri).
    Other,
}

impl CpuClass {
    /// The class of the CPU this runs on (see the type's documentation),
    /// read once.
    pub fn detect() -> CpuClass {
        #[cfg(all(feature = "std", target_arch = "x86_64", target_feature = "sse2"))]
        return x86_64::cpu_class();
        #[allow(unreachable_code)]
        CpuClass::Other
    }

    /// The class of an x86_64 CPU from its `cpuid` vendor string (leaf 0: EBX,
    /// EDX, ECX), its family (leaf 1: base family, plus the extended family
    /// when the base is 15) and whether it has AVX-512 F.
    pub fn from_cpuid(vendor: &[u8; 12], family: u32, avx512f: bool) -> CpuClass {
        match (vendor, family) {
            (b"GenuineIntel", _) => CpuClass::Intel,
            (b"AuthenticAMD", 25) if avx512f => CpuClass::AmdZen4,
            (b"AuthenticAMD", 25) => CpuClass::AmdZen3,
            (b"AuthenticAMD", 26) => CpuClass::AmdZen5,
            _ => CpuClass::Other,
        }
    }
}

/// An implementation of the table lookup `dst[i] = table[src[i]]`. Which table
/// shapes each serves, and what it needs, is in the [module
/// documentation](self).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Kernel {
    /// The portable indexed loop, eight elements per step: every shape,
    /// everywhere.
    Scalar,
    /// x86_64 with SSE2 (every x86_64 target but the soft-float ones), for the
    /// 16-bit and byte → wide tables: the indices of eight elements come from
    /// 64-bit loads, the table loads go straight into vector lanes (`pinsrw`,
    /// `movd`), and the results leave in 128-bit stores: 11 memory operations
    /// per 8 elements of a 16-bit table instead of 24.
    Sse2,
    /// x86_64 SSSE3, for FP4 rows ([`Fp4Row`], the shared-scale tables of
    /// [`crate::mx`]): one `pshufb` per 16 codes and output byte.
    Ssse3,
    /// x86_64 AVX2, for byte tables: `vpshufb` lookups and a `vpblendvb`
    /// selection tree, 32 bytes per step; for compact tables, two 8-lane
    /// `vpgatherdd` (directory, then pool) per 8 elements.
    Avx2,
    /// x86_64 AVX-512 VBMI, for byte tables: two `vpermi2b` over the table in
    /// four registers and a mask blend on the top bit, 64 bytes per step: at
    /// memcpy's speed from 128 KiB up on a Zen 5 (BENCHMARKS.md). With the
    /// `avx512` cargo feature (on by default) and on a CPU that has AVX-512
    /// F, BW and VBMI (the crate's one AVX-512 level).
    Avx512Vbmi,
    /// x86_64 AVX-512 gathers (F and BW instructions, no VBMI), for 16-bit
    /// tables: two 16-lane `vpgatherdd` per 64 elements with scalar lookups
    /// between them; for compact tables, a directory and a pool gather per 16
    /// elements (each as two 8-lane `vpgatherdd`), the decode in `zmm`
    /// registers. With the `avx512` cargo feature (on by default) and on a CPU
    /// that has the crate's one AVX-512 level (F, BW and VBMI): the level of
    /// the CPUs it was measured on.
    Avx512,
    /// aarch64 NEON, for byte tables: `tbl`/`tbx` over four 64-byte register
    /// quadruples; for FP4 rows, `tbl` per output byte plane. Only where
    /// `neon` is a target feature (not on `aarch64-unknown-none-softfloat`).
    Neon,
    /// wasm32 `simd128`: `i8x16.swizzle` lookups for byte tables (not chosen by
    /// [`Kernel::best`]: slower than the scalar loop on x86-64 hosts) and
    /// `i16x8.replace_lane` lane loads for 16-bit tables, and `i8x16.swizzle`
    /// per output byte plane for FP4 rows.
    Simd128,
}

/// Whether the CPU has an x86 target feature: at compile time, or detected at
/// run time with `std` (std caches the detection).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
macro_rules! x86_has {
    ($($feature:tt),+) => {
        $(cfg!(target_feature = $feature) || {
            #[cfg(feature = "std")]
            {
                std::is_x86_feature_detected!($feature)
            }
            #[cfg(not(feature = "std"))]
            {
                false
            }
        })&&+
    };
}

impl Kernel {
    /// Every kernel, available or not.
    pub const ALL: [Kernel; 8] = [
        Kernel::Scalar,
        Kernel::Sse2,
        Kernel::Ssse3,
        Kernel::Avx2,
        Kernel::Avx512Vbmi,
        Kernel::Avx512,
        Kernel::Neon,
        Kernel::Simd128,
    ];

    /// Whether this kernel's instructions can run here: the architecture, the
    /// target features and, with the `std` feature on x86_64, the CPU detected
    /// at run time. (Which table shapes it serves: [`Kernel::is_available_for`].)
    pub fn is_available(self) -> bool {
        match self {
            Kernel::Scalar => true,
            #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
            Kernel::Sse2 => true,
            #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
            Kernel::Ssse3 => x86_has!("ssse3"),
            #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
            Kernel::Avx2 => x86_has!("avx2"),
            #[cfg(all(target_arch = "x86_64", target_feature = "sse2", feature = "avx512"))]
            Kernel::Avx512Vbmi | Kernel::Avx512 => x86_has!("avx512f", "avx512bw", "avx512vbmi"),
            Kernel::Neon => cfg!(all(target_arch = "aarch64", target_feature = "neon")),
            Kernel::Simd128 => cfg!(all(target_arch = "wasm32", target_feature = "simd128")),
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }

    /// Whether this kernel has an implementation for tables of `shape` and can
    /// run it here.
    pub fn is_available_for(self, shape: TableShape) -> bool {
        use sealed::Dispatch;
        match shape {
            TableShape::U8 => <[u8; 256]>::implementation(self).is_some(),
            TableShape::U16 => <[u16; 65_536]>::implementation(self).is_some(),
            TableShape::U8ToU32 => <[u32; 256]>::implementation(self).is_some(),
            TableShape::U8ToU16 => <[u16; 256]>::implementation(self).is_some(),
            TableShape::Compact16 | TableShape::CompactWords16 => {
                <CompactRef<'_>>::implementation(self).is_some()
            }
            // The same kernels serve every output type.
            TableShape::Fp4 => <Fp4Row<f32>>::implementation(self).is_some(),
            TableShape::Spline16 => <SplineRef<'_>>::implementation(self).is_some(),
        }
    }

    /// The fastest kernel available for tables of `shape` on this CPU: the one
    /// the slice functions ([`map_u8`], [`map_u16`], …) use.
    /// [`Kernel::best_on`]`(shape, `[`CpuClass::detect`]`())`.
    pub fn best(shape: TableShape) -> Kernel {
        Kernel::best_on(shape, CpuClass::detect())
    }

    /// The first kernel of [`Kernel::preference`]`(shape, class)` that is
    /// available here for `shape`, or [`Kernel::Scalar`].
    pub fn best_on(shape: TableShape, class: CpuClass) -> Kernel {
        Kernel::preference(shape, class)
            .iter()
            .copied()
            .find(|k| k.is_available_for(shape))
            .unwrap_or(Kernel::Scalar)
    }

    /// The kernels for tables of `shape` on CPUs of `class`, fastest first as
    /// measured (BENCHMARKS.md, docs/compact.md "Speed"); [`Kernel::Scalar`]
    /// follows them all. The table (a test holds it):
    ///
    /// | shape | `Intel` | `AmdZen3` | `AmdZen4` | `AmdZen5` | `Other` |
    /// |---|---|---|---|---|---|
    /// | `U8` | VBMI, AVX2 | AVX2 | VBMI, AVX2 | VBMI, AVX2 | VBMI, AVX2, NEON |
    /// | `U16` | AVX-512 gathers, SSE2 | SSE2 | SSE2 | SSE2 | SSE2, `simd128` |
    /// | `U8ToU32`, `U8ToU16` | SSE2 | SSE2 | SSE2 | SSE2 | SSE2 |
    /// | `Compact16` | AVX-512, AVX2 | AVX2 | AVX2 | AVX-512, AVX2 | (scalar) |
    /// | `CompactWords16` | AVX-512, AVX2 | AVX2 (not measured) | AVX2 (not measured) | (scalar) | (scalar) |
    /// | `Fp4` | SSSE3 | SSSE3 | SSSE3 | SSSE3 | SSSE3, NEON, `simd128` |
    /// | `Spline16` | (scalar) | (scalar) | (scalar) | (scalar) | (scalar) |
    ///
    /// Never [`Kernel::Simd128`] for byte tables (under node on an x86-64
    /// host it runs at 0.64–0.66× the scalar loop: `i8x16.swizzle` costs a
    /// fix-up per lookup there); it remains available by name. Compact
    /// tables have no `simd128` kernel. Where the words layout is marked not
    /// measured, it takes the bytes layout's order of the same CPU class until
    /// a benchmark there says otherwise.
    pub fn preference(shape: TableShape, class: CpuClass) -> &'static [Kernel] {
        use CpuClass::*;
        use Kernel::*;
        match (shape, class) {
            (TableShape::U8, AmdZen3) => &[Avx2],
            (TableShape::U8, Other) => &[Avx512Vbmi, Avx2, Neon],
            (TableShape::U8, _) => &[Avx512Vbmi, Avx2],
            // Intel: the 16-lane gathers with scalar lookups between them,
            // 0.157 ns per element at 64 Ki against 0.187 for SSE2 on a
            // Sapphire Rapids core (2026-12-05; one gather per 16 elements and no
            // scalar lookups, the kernel before, took 0.171);
            // on a Zen 5 the gather alone (0.26 ns) is slower than SSE2 (0.20).
            (TableShape::U16, Intel) => &[Avx512, Sse2],
            (TableShape::U16, Other) => &[Sse2, Simd128],
            (TableShape::U16, _) => &[Sse2],
            (TableShape::U8ToU32 | TableShape::U8ToU16, _) => &[Sse2],
            // Intel (2026-12-05, f16 GELU on N(0, 3²) inputs at 1 Ki / 64 Ki /
            // 1 Mi): AVX-512 0.30–0.34 ns per element, AVX2 0.46–0.48, the
            // portable loop 0.70–1.50 (BENCHMARKS.md).
            (TableShape::Compact16, Intel) => &[Avx512, Avx2],
            // Zen 3 and Zen 4: on a Zen 3, AVX2 1.06–1.11 ns per element
            // against scalar 1.67–1.87 at 64 Ki and 1 Mi in three runs (one
            // 1 Mi round at 1.55), within 12% either way at 1 Ki
            // (BENCHMARKS.md); on a Zen 4, 0.81 against 1.43.
            (TableShape::Compact16, AmdZen3 | AmdZen4) => &[Avx2],
            // Zen 5, f16 GELU on N(0, 3²) inputs at 1 Ki / 64 Ki / 1 Mi:
            // AVX-512 0.64–0.68 ns per element at every size, AVX2 0.66–0.72,
            // the portable loop 0.42–0.54 where the predictor has learnt the
            // repeated input (1 Ki, some 64 Ki rounds) and 1.13–1.23 where it
            // has not (1 Mi; 0.83–1.14 for the median 64 Ki round), in five
            // runs (BENCHMARKS.md).
            (TableShape::Compact16, AmdZen5) => &[Avx512, Avx2],
            // The words layout has no width branch: on a Zen 5 the portable
            // loop runs it at 0.38–0.49 ns per element at every size, the
            // gathers at 0.58–0.67 (BENCHMARKS.md, five runs). Not measured on
            // Zen 3 and Zen 4: the bytes layout's order there.
            (TableShape::CompactWords16, AmdZen5) => &[],
            // Intel (2026-12-05, as above): AVX-512 0.29–0.33, AVX2
            // 0.42–0.43, the portable loop 0.50–0.54.
            (TableShape::CompactWords16, Intel) => &[Avx512, Avx2],
            (TableShape::CompactWords16, AmdZen3 | AmdZen4) => &[Avx2],
            (TableShape::CompactWords16, _) => &[],
            // Elsewhere (wasm, aarch64) the portable loop: the lane kernels
            // that inserted its decode into vector lanes lost to it and are
            // gone (docs/compact.md, "Which kernel runs").
            (TableShape::Compact16, _) => &[],
            (TableShape::Fp4, Other) => &[Ssse3, Neon, Simd128],
            (TableShape::Fp4, _) => &[Ssse3],
            // Only the portable block so far.
            (TableShape::Spline16, _) => &[],
        }
    }

    /// `dst[i] = table[src[i]]` with this kernel.
    ///
    /// # Errors
    ///
    /// [`MapError::LengthMismatch`] naming both lengths if `src.len() !=
    /// dst.len()`, and [`MapError::KernelUnavailable`] if this kernel has no
    /// implementation for `T`'s shape or cannot run here (see
    /// [`Kernel::is_available_for`]); `dst` is then untouched. There is no
    /// silent fallback.
    ///
    /// ```
    /// use actlut::kernels::Kernel;
    /// let err = Kernel::Scalar.map(&[0u8; 256], &[0; 5], &mut [0; 4]).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "actlut: source slice length (5) does not match destination slice length (4)"
    /// );
    /// ```
    #[allow(unsafe_code)]
    pub fn map<T: LookupTable>(
        self,
        table: &T,
        src: &[T::Index],
        dst: &mut [T::Entry],
    ) -> Result<(), MapError> {
        LengthMismatch::check(src.len(), dst.len())?;
        let run = T::implementation(self).ok_or(KernelUnavailable {
            kernel: self,
            shape: T::SHAPE,
        })?;
        // SAFETY: `implementation` returns only kernels that run here; `src` and
        // `dst` are `len` elements each and, as a shared and a mutable borrow,
        // do not overlap.
        unsafe { run(table, src.as_ptr(), dst.as_mut_ptr(), src.len()) };
        Ok(())
    }

    /// `xs[i] = table[xs[i]]` with this kernel (for tables whose entries have
    /// the index type: `[u8; 256]` and `[u16; 65_536]`).
    ///
    /// # Errors
    ///
    /// [`KernelUnavailable`] as for [`Kernel::map`]; `xs` is then untouched.
    #[allow(unsafe_code)]
    pub fn apply<E, T: LookupTable<Index = E, Entry = E>>(
        self,
        table: &T,
        xs: &mut [E],
    ) -> Result<(), KernelUnavailable> {
        let run = T::implementation(self).ok_or(KernelUnavailable {
            kernel: self,
            shape: T::SHAPE,
        })?;
        let p = xs.as_mut_ptr();
        // SAFETY: `implementation` returns only kernels that run here; source
        // and destination are the same `xs.len()` elements (equal pointers, the
        // in-place case of the contract).
        unsafe { run(table, p, p, xs.len()) };
        Ok(())
    }
}

/// The FP4 rows' kernels (the shape itself, its scalar block and its loop over
/// blocks: `kernels/fp4.rs`).
impl<O: FloatOutput> sealed::Dispatch for Fp4Row<O> {
    #[inline]
    fn implementation(kernel: Kernel) -> Option<RawKernel<Self>> {
        match kernel {
            Kernel::Scalar => Some(fp4::fp4_scalar::<O>),
            #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
            Kernel::Ssse3 if kernel.is_available() => Some(x86_64::fp4_ssse3::<O>),
            #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
            Kernel::Neon => Some(aarch64::fp4_neon::<O>),
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Kernel::Simd128 => Some(wasm32::fp4_simd128::<O>),
            _ => None,
        }
    }

    /// [`Kernel::best`]: the CPU asked through [`Kernel::is_available`] (with
    /// `std`, std's cached detection), or fixed at compile time.
    #[inline]
    fn best_implementation() -> RawKernel<Self> {
        Self::implementation(Kernel::best(TableShape::Fp4)).unwrap_or(fp4::fp4_scalar::<O>)
    }
}

/// The [`fp4::BlocksKernel`] of each kernel that [`Fp4Row`]'s dispatch offers here
/// (the same kernels, the same conditions).
fn fp4_blocks_implementation<O: FloatOutput>(kernel: Kernel) -> Option<fp4::BlocksKernel<O>> {
    use sealed::Dispatch;
    <Fp4Row<O>>::implementation(kernel)?;
    match kernel {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        Kernel::Ssse3 => Some(x86_64::fp4_blocks_ssse3::<O>),
        #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
        Kernel::Neon => Some(aarch64::fp4_blocks_neon::<O>),
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        Kernel::Simd128 => Some(wasm32::fp4_blocks_simd128::<O>),
        _ => Some(fp4::blocks_scalar::<O>),
    }
}

/// Runs `kernel` (or [`Kernel::best`] for `None`) over whole blocks of
/// `block_bytes` packed bytes, each through the row of its scale:
/// `out[2i], out[2i + 1]` are the outputs of `packed[i]`.
///
/// # Errors
///
/// [`KernelUnavailable`] if `kernel` cannot run FP4 rows here; nothing is
/// written then.
///
/// # Panics
///
/// If `packed.len() != scales.len() * block_bytes` or `out.len() != 2 *
/// packed.len()` (the callers check both first and return an error).
#[allow(unsafe_code)]
pub(crate) fn map_fp4_blocks<O: FloatOutput>(
    kernel: Option<Kernel>,
    rows: &[Fp4Row<O>; 256],
    packed: &[u8],
    scales: &[u8],
    out: &mut [O],
    block_bytes: usize,
) -> Result<(), KernelUnavailable> {
    let kernel = kernel.unwrap_or_else(|| Kernel::best(TableShape::Fp4));
    let run = fp4_blocks_implementation::<O>(kernel).ok_or(KernelUnavailable {
        kernel,
        shape: TableShape::Fp4,
    })?;
    assert_eq!(packed.len(), scales.len() * block_bytes, "FP4 block bytes");
    assert_eq!(out.len(), 2 * packed.len(), "FP4 outputs");
    let (pairs, rest) = out.as_chunks_mut::<2>();
    debug_assert!(rest.is_empty());
    // SAFETY: `fp4_blocks_implementation` returns only kernels that run here (those
    // of `Fp4Row`'s dispatch); the lengths are checked just above.
    unsafe { run(rows, packed, scales, pairs, block_bytes) };
    Ok(())
}

/// The error of running a [`Kernel`] on a table shape it does not serve, or
/// on a CPU or target that cannot run it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelUnavailable {
    /// The kernel asked for.
    pub kernel: Kernel,
    /// The shape of the table it was asked to run over.
    pub shape: TableShape,
}

impl core::fmt::Display for KernelUnavailable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "the {:?} kernel is not available for {} tables on this CPU or target",
            self.kernel, self.shape
        )
    }
}

impl core::error::Error for KernelUnavailable {}

/// Why an out-of-place map that returns a `Result`
/// ([`BuiltinTables::map_f16`](crate::BuiltinTables::map_f16) and the other
/// `BuiltinTables::map_*`, [`Kernel::map`]) wrote
/// nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MapError {
    /// The table is not compiled in.
    MissingTable(MissingTable),
    /// The kernel asked for cannot run this table here.
    KernelUnavailable(KernelUnavailable),
    /// The source and destination lengths differ.
    LengthMismatch(LengthMismatch),
}

impl core::fmt::Display for MapError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            MapError::MissingTable(e) => e.fmt(f),
            MapError::KernelUnavailable(e) => e.fmt(f),
            MapError::LengthMismatch(e) => e.fmt(f),
        }
    }
}

impl core::error::Error for MapError {}

impl From<MissingTable> for MapError {
    fn from(e: MissingTable) -> MapError {
        MapError::MissingTable(e)
    }
}

impl From<KernelUnavailable> for MapError {
    fn from(e: KernelUnavailable) -> MapError {
        MapError::KernelUnavailable(e)
    }
}

impl From<LengthMismatch> for MapError {
    fn from(e: LengthMismatch) -> MapError {
        MapError::LengthMismatch(e)
    }
}

/// `dst[i] = table[src[i]]` with `T`'s best kernel, chosen once.
#[inline(always)]
#[track_caller]
#[allow(unsafe_code)]
pub(crate) fn map_best<T: LookupTable>(table: &T, src: &[T::Index], dst: &mut [T::Entry]) {
    check_lengths(src.len(), dst.len());
    let run = T::best_implementation();
    // SAFETY: `best_implementation` returns only kernels that run here; the
    // slices are `len` elements each and do not overlap.
    unsafe { run(table, src.as_ptr(), dst.as_mut_ptr(), src.len()) }
}

/// `xs[i] = table[xs[i]]` with `T`'s best kernel.
#[inline(always)]
#[allow(unsafe_code)]
pub(crate) fn apply_best<E, T: LookupTable<Index = E, Entry = E>>(table: &T, xs: &mut [E]) {
    let run = T::best_implementation();
    let p = xs.as_mut_ptr();
    // SAFETY: `best_implementation` returns only kernels that run here; source
    // and destination are the same `xs.len()` elements (in place).
    unsafe { run(table, p, p, xs.len()) }
}

/// Byte slices shorter than this use the scalar loop: the SIMD kernels' table
/// set-up (16 or 4 vector loads) does not pay below it.
const BYTE_SIMD_MIN: usize = 64;

/// `dst[i] = table[src[i]]` for a 256-entry byte table, with
/// [`Kernel::best`]`(TableShape::U8)` (the scalar loop below 64 bytes).
///
/// # Panics
///
/// If `src.len() != dst.len()`; the message names both lengths.
#[track_caller]
pub fn map_u8(table: &[u8; 256], src: &[u8], dst: &mut [u8]) {
    if src.len() < BYTE_SIMD_MIN {
        check_lengths(src.len(), dst.len());
        // The scalar kernel is available everywhere, and the lengths match.
        let _ = Kernel::Scalar.map(table, src, dst);
    } else {
        map_best(table, src, dst);
    }
}

/// `xs[i] = table[xs[i]]` for a 256-entry byte table, with
/// [`Kernel::best`]`(TableShape::U8)` (the scalar loop below 64 bytes).
pub fn apply_u8(table: &[u8; 256], xs: &mut [u8]) {
    if xs.len() < BYTE_SIMD_MIN {
        let _ = Kernel::Scalar.apply(table, xs);
    } else {
        apply_best(table, xs);
    }
}

/// `xs[i] = table[xs[i]]` for a 65,536-entry table of 16-bit values, with
/// [`Kernel::best`]`(TableShape::U16)`.
///
/// There is no 16-bit gather, and the 32-bit gathers of AVX2 and AVX-512 are
/// slower than scalar loads on current cores, so every 16-bit kernel does one
/// scalar table load per element; they differ in how the indices arrive and the
/// results leave. The table (128 KiB) does not fit a 32 KiB L1d: when the inputs
/// spread over most of it, every kernel waits on L2 and all run at the same
/// speed; when they concentrate (activations near N(0, 1) touch a few KiB of
/// it), the kernel with the fewest memory operations wins. BENCHMARKS.md has the
/// numbers.
#[inline]
pub fn apply_u16(table: &[u16; 65_536], xs: &mut [u16]) {
    apply_best(table, xs);
}

/// `ys[i] = table[xs[i]]` for a 65,536-entry table of 16-bit values, with
/// [`Kernel::best`]`(TableShape::U16)` (see [`apply_u16`]).
///
/// # Panics
///
/// If `xs.len() != ys.len()`, with a message that names both lengths.
#[inline]
#[track_caller]
pub fn map_u16(table: &[u16; 65_536], xs: &[u16], ys: &mut [u16]) {
    map_best(table, xs, ys);
}

/// `dst[i] = table[src[i]]` for a 256-entry table of 32-bit values (the fused
/// 8-bit → `f32` tables of [`crate::quant`] use it through their bits), with
/// [`Kernel::best`]`(TableShape::U8ToU32)`.
///
/// On x86_64 (SSE2) eight entries are loaded straight into vector lanes and
/// leave in two 128-bit stores; elsewhere it is the plain loop. Both give the
/// same bits (tests compare them on every length and offset).
///
/// ```
/// let table: [u32; 256] = core::array::from_fn(|i| (i as u32) << 20);
/// let mut dst = [0u32; 3];
/// actlut::kernels::map_u8_u32(&table, &[1, 2, 255], &mut dst);
/// assert_eq!(dst, [1 << 20, 2 << 20, 255 << 20]);
/// ```
///
/// # Panics
///
/// If `src.len() != dst.len()`; the message names both lengths.
#[inline]
#[track_caller]
pub fn map_u8_u32(table: &[u32; 256], src: &[u8], dst: &mut [u32]) {
    map_best(table, src, dst);
}

/// `dst[i] = table[src[i]]` for a 256-entry table of 16-bit values (the fused
/// 8-bit → `f16`/`bf16` tables of [`crate::quant`] use it through their bits),
/// with [`Kernel::best`]`(TableShape::U8ToU16)`.
///
/// On x86_64 (SSE2) eight entries are loaded into vector lanes by `pinsrw` and
/// leave in one 128-bit store; elsewhere it is the plain loop.
///
/// ```
/// let table: [u16; 256] = core::array::from_fn(|i| (i as u16) << 4);
/// let mut dst = [0u16; 2];
/// actlut::kernels::map_u8_u16(&table, &[3, 255], &mut dst);
/// assert_eq!(dst, [3 << 4, 255 << 4]);
/// ```
///
/// # Panics
///
/// If `src.len() != dst.len()`; the message names both lengths.
#[inline]
#[track_caller]
pub fn map_u8_u16(table: &[u16; 256], src: &[u8], dst: &mut [u16]) {
    map_best(table, src, dst);
}
