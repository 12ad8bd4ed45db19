//! Slice kernels: one table load per element, and SIMD byte permutes for
//! 256-entry byte tables.
//!
//! The 65,536-entry 16-bit lookup has a portable loop and lane-load kernels for
//! x86_64 (SSE2) and wasm32 (`simd128`) ([`WordKernel`]). The 256-entry byte kernel has one SIMD implementation per
//! architecture, each bit-identical to the scalar loop (the
//! tests run every available kernel on every length 0..=300 and every alignment
//! offset 0..64):
//!
//! | kernel | architecture | how |
//! |---|---|---|
//! | [`ByteKernel::Avx512Vbmi`] | x86_64 with AVX-512 VBMI, `avx512vbmi` feature | two `vpermi2b` over the table in four registers, blended on the top bit |
//! | [`ByteKernel::Avx2`] | x86_64 with AVX2 | 16 `vpshufb` lookups of 16 entries, selected by a `vpblendvb` tree on the high nibble |
//! | [`ByteKernel::Neon`] | aarch64 | `tbl`/`tbx` over four 64-entry register quadruples |
//! | [`ByteKernel::Simd128`] | wasm32 with `simd128` | 16 `i8x16.swizzle` lookups (out-of-range lanes give 0), or-ed |
//! | [`ByteKernel::Scalar`] | everywhere | the plain indexed loop |
//!
//! [`ByteKernel::best`] picks the fastest available: on x86_64 with the `std`
//! feature by CPU detection at run time (done once), otherwise from the
//! compile-time target features (`-C target-feature=+avx2`). It never picks
//! [`ByteKernel::Simd128`]: under node on an x86-64 host that kernel runs at
//! 0.64–0.66× the scalar loop (`i8x16.swizzle` costs a fix-up per lookup there, see
//! BENCHMARKS.md); it remains available by name, for hosts where `swizzle` is
//! one instruction (aarch64's `tbl`).
//!
//! ```
//! use actlut::kernels::{map_u8, ByteKernel};
//!
//! let mut table = [0u8; 256];
//! for (i, t) in table.iter_mut().enumerate() {
//!     *t = (i as u8).reverse_bits();
//! }
//! let src: Vec<u8> = (0..=255).collect();
//! let mut dst = vec![0; 256];
//! map_u8(&table, &src, &mut dst);
//! assert_eq!(dst[1], 0x80);
//! assert!(ByteKernel::Scalar.is_available());
//! ```

mod scalar;

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod x86_64;

#[cfg(target_arch = "aarch64")]
#[allow(unsafe_code)]
mod aarch64;

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[allow(unsafe_code)]
mod wasm32;

/// An implementation of the 256-entry byte lookup `dst[i] = table[src[i]]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ByteKernel {
    /// The portable indexed loop.
    Scalar,
    /// x86_64 AVX2: `vpshufb` lookups and a `vpblendvb` selection tree.
    Avx2,
    /// x86_64 AVX-512 VBMI: two `vpermi2b` over the table in four registers and
    /// a mask blend on the top bit, 64 bytes per step. Only with the
    /// `avx512vbmi` cargo feature (see its documentation in the crate root) and
    /// on a CPU that has AVX-512 F, BW and VBMI.
    Avx512Vbmi,
    /// aarch64 NEON: `tbl`/`tbx` over four 64-byte register quadruples.
    Neon,
    /// wasm32 `simd128`: `i8x16.swizzle` lookups. Not chosen by
    /// [`ByteKernel::best`]: slower than the scalar loop on x86-64 hosts.
    Simd128,
}

/// The error of running a kernel the CPU or the build does not support.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelUnavailable(pub ByteKernel);

impl core::fmt::Display for KernelUnavailable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "the {:?} byte kernel is not available on this CPU or target",
            self.0
        )
    }
}

impl core::error::Error for KernelUnavailable {}

impl ByteKernel {
    /// Every kernel, available or not.
    pub const ALL: [ByteKernel; 5] = [
        ByteKernel::Scalar,
        ByteKernel::Avx2,
        ByteKernel::Avx512Vbmi,
        ByteKernel::Neon,
        ByteKernel::Simd128,
    ];

    /// Whether this kernel can run here (architecture, target features and,
    /// with the `std` feature on x86_64, the CPU detected at run time).
    pub fn is_available(self) -> bool {
        match self {
            ByteKernel::Scalar => true,
            ByteKernel::Avx2 => avx2_available(),
            ByteKernel::Avx512Vbmi => vbmi_available(),
            ByteKernel::Neon => cfg!(target_arch = "aarch64"),
            ByteKernel::Simd128 => cfg!(all(target_arch = "wasm32", target_feature = "simd128")),
        }
    }

    /// The fastest available kernel (never [`ByteKernel::Simd128`], see the
    /// module documentation).
    pub fn best() -> ByteKernel {
        [ByteKernel::Avx512Vbmi, ByteKernel::Avx2, ByteKernel::Neon]
            .into_iter()
            .find(|k| k.is_available())
            .unwrap_or(ByteKernel::Scalar)
    }

    /// `dst[i] = table[src[i]]` with this kernel.
    ///
    /// # Panics
    ///
    /// If `src.len() != dst.len()`; the message names both lengths.
    #[track_caller]
    pub fn map(
        self,
        table: &[u8; 256],
        src: &[u8],
        dst: &mut [u8],
    ) -> Result<(), KernelUnavailable> {
        check_lengths(src.len(), dst.len());
        if !self.is_available() {
            return Err(KernelUnavailable(self));
        }
        match self {
            #[cfg(target_arch = "x86_64")]
            ByteKernel::Avx2 => x86_64::map_avx2(table, src, dst),
            #[cfg(all(target_arch = "x86_64", feature = "avx512vbmi"))]
            ByteKernel::Avx512Vbmi => x86_64::map_vbmi(table, src, dst),
            #[cfg(target_arch = "aarch64")]
            ByteKernel::Neon => aarch64::map_neon(table, src, dst),
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            ByteKernel::Simd128 => wasm32::map_simd128(table, src, dst),
            _ => scalar::map_u8(table, src, dst),
        }
        Ok(())
    }

    /// `xs[i] = table[xs[i]]` with this kernel.
    pub fn apply(self, table: &[u8; 256], xs: &mut [u8]) -> Result<(), KernelUnavailable> {
        if !self.is_available() {
            return Err(KernelUnavailable(self));
        }
        match self {
            #[cfg(target_arch = "x86_64")]
            ByteKernel::Avx2 => x86_64::apply_avx2(table, xs),
            #[cfg(all(target_arch = "x86_64", feature = "avx512vbmi"))]
            ByteKernel::Avx512Vbmi => x86_64::apply_vbmi(table, xs),
            #[cfg(target_arch = "aarch64")]
            ByteKernel::Neon => aarch64::apply_neon(table, xs),
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            ByteKernel::Simd128 => wasm32::apply_simd128(table, xs),
            _ => scalar::apply_u8(table, xs),
        }
        Ok(())
    }
}

#[cfg(target_arch = "x86_64")]
fn avx2_available() -> bool {
    #[cfg(feature = "std")]
    {
        use core::sync::atomic::{AtomicU8, Ordering};
        // 0: not yet detected, 1: no, 2: yes. Detection runs once.
        static DETECTED: AtomicU8 = AtomicU8::new(0);
        match DETECTED.load(Ordering::Relaxed) {
            0 => {
                let yes = std::is_x86_feature_detected!("avx2");
                DETECTED.store(if yes { 2 } else { 1 }, Ordering::Relaxed);
                yes
            }
            v => v == 2,
        }
    }
    #[cfg(not(feature = "std"))]
    {
        cfg!(target_feature = "avx2")
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn avx2_available() -> bool {
    false
}

#[cfg(all(target_arch = "x86_64", feature = "avx512vbmi"))]
fn vbmi_available() -> bool {
    #[cfg(feature = "std")]
    {
        use core::sync::atomic::{AtomicU8, Ordering};
        // 0: not yet detected, 1: no, 2: yes. Detection runs once.
        static DETECTED: AtomicU8 = AtomicU8::new(0);
        match DETECTED.load(Ordering::Relaxed) {
            0 => {
                let yes = std::is_x86_feature_detected!("avx512f")
                    && std::is_x86_feature_detected!("avx512bw")
                    && std::is_x86_feature_detected!("avx512vbmi");
                DETECTED.store(if yes { 2 } else { 1 }, Ordering::Relaxed);
                yes
            }
            v => v == 2,
        }
    }
    #[cfg(not(feature = "std"))]
    {
        cfg!(all(
            target_feature = "avx512f",
            target_feature = "avx512bw",
            target_feature = "avx512vbmi"
        ))
    }
}

#[cfg(not(all(target_arch = "x86_64", feature = "avx512vbmi")))]
fn vbmi_available() -> bool {
    false
}

/// `dst[i] = table[src[i]]` for a 256-entry byte table, with the fastest
/// available [`ByteKernel`].
///
/// # Panics
///
/// If `src.len() != dst.len()`; the message names both lengths.
#[track_caller]
pub fn map_u8(table: &[u8; 256], src: &[u8], dst: &mut [u8]) {
    check_lengths(src.len(), dst.len());
    // Short slices are not worth the set-up of the SIMD tables.
    let kernel = if src.len() < 64 {
        ByteKernel::Scalar
    } else {
        ByteKernel::best()
    };
    let _ = kernel.map(table, src, dst);
}

/// `xs[i] = table[xs[i]]` for a 256-entry byte table, with the fastest
/// available [`ByteKernel`].
pub fn apply_u8(table: &[u8; 256], xs: &mut [u8]) {
    let kernel = if xs.len() < 64 {
        ByteKernel::Scalar
    } else {
        ByteKernel::best()
    };
    let _ = kernel.apply(table, xs);
}

/// An implementation of the 65,536-entry lookup `ys[i] = table[xs[i]]` of the
/// 16-bit formats (f16, bf16).
///
/// There is no 16-bit gather, and the 32-bit gathers of AVX2 and AVX-512 are
/// slower than scalar loads on current cores, so every kernel does one scalar
/// table load per element; they differ in how the indices arrive and the results
/// leave. The table (128 KiB) does not fit a 32 KiB L1d: when the inputs spread
/// over most of it, every kernel waits on L2 and all run at the same speed; when
/// they concentrate (activations near N(0, 1) touch a few KiB of it), the
/// kernel with the fewest memory operations wins. BENCHMARKS.md has the numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum WordKernel {
    /// The portable indexed loop, unrolled by eight: an index load, a table
    /// load and a store per element.
    Scalar,
    /// x86_64 with SSE2 (every x86_64 target but the soft-float ones): the indices of eight elements come
    /// from two 64-bit loads, the table loads are folded into `pinsrw`, and the
    /// results leave in one 128-bit store: 11 memory operations per 8 elements
    /// instead of 24.
    Sse2,
    /// wasm32 with `simd128`: the same scheme as [`WordKernel::Sse2`], with
    /// `i16x8.replace_lane` and one `v128.store` per eight elements.
    Simd128,
}

impl WordKernel {
    /// Every kernel, available or not.
    pub const ALL: [WordKernel; 3] = [WordKernel::Scalar, WordKernel::Sse2, WordKernel::Simd128];

    /// Whether this kernel can run here (it depends on the architecture only).
    pub const fn is_available(self) -> bool {
        match self {
            WordKernel::Scalar => true,
            WordKernel::Sse2 => cfg!(all(target_arch = "x86_64", target_feature = "sse2")),
            WordKernel::Simd128 => cfg!(all(target_arch = "wasm32", target_feature = "simd128")),
        }
    }

    /// The fastest available kernel, fixed at compile time.
    pub const fn best() -> WordKernel {
        if WordKernel::Sse2.is_available() {
            WordKernel::Sse2
        } else if WordKernel::Simd128.is_available() {
            WordKernel::Simd128
        } else {
            WordKernel::Scalar
        }
    }

    /// `ys[i] = table[xs[i]]` with this kernel.
    ///
    /// # Panics
    ///
    /// If `xs.len() != ys.len()`; the message names both lengths.
    #[track_caller]
    pub fn map(
        self,
        table: &[u16; 65_536],
        xs: &[u16],
        ys: &mut [u16],
    ) -> Result<(), WordKernelUnavailable> {
        check_lengths(xs.len(), ys.len());
        match self {
            WordKernel::Scalar => scalar::map_u16(table, xs, ys),
            #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
            WordKernel::Sse2 => x86_64::map_u16_sse2(table, xs, ys),
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            WordKernel::Simd128 => wasm32::map_u16_simd128(table, xs, ys),
            #[allow(unreachable_patterns)]
            _ => return Err(WordKernelUnavailable(self)),
        }
        Ok(())
    }

    /// `xs[i] = table[xs[i]]` with this kernel.
    pub fn apply(self, table: &[u16; 65_536], xs: &mut [u16]) -> Result<(), WordKernelUnavailable> {
        match self {
            WordKernel::Scalar => scalar::apply_u16(table, xs),
            #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
            WordKernel::Sse2 => x86_64::apply_u16_sse2(table, xs),
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            WordKernel::Simd128 => wasm32::apply_u16_simd128(table, xs),
            #[allow(unreachable_patterns)]
            _ => return Err(WordKernelUnavailable(self)),
        }
        Ok(())
    }
}

/// The error of running a [`WordKernel`] the target does not support.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WordKernelUnavailable(pub WordKernel);

impl core::fmt::Display for WordKernelUnavailable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "the {:?} 16-bit kernel is not available on this target",
            self.0
        )
    }
}

impl core::error::Error for WordKernelUnavailable {}

/// `xs[i] = table[xs[i]]` for a 65,536-entry table of 16-bit values, with
/// [`WordKernel::best`].
#[inline]
pub fn apply_u16(table: &[u16; 65_536], xs: &mut [u16]) {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    x86_64::apply_u16_sse2(table, xs);
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    wasm32::apply_u16_simd128(table, xs);
    #[cfg(not(any(
        all(target_arch = "x86_64", target_feature = "sse2"),
        all(target_arch = "wasm32", target_feature = "simd128")
    )))]
    scalar::apply_u16(table, xs);
}

/// `ys[i] = table[xs[i]]` for a 65,536-entry table of 16-bit values, with
/// [`WordKernel::best`].
///
/// # Panics
///
/// If `xs.len() != ys.len()`, with a message that names both lengths.
#[inline]
#[track_caller]
pub fn map_u16(table: &[u16; 65_536], xs: &[u16], ys: &mut [u16]) {
    check_lengths(xs.len(), ys.len());
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    x86_64::map_u16_sse2(table, xs, ys);
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    wasm32::map_u16_simd128(table, xs, ys);
    #[cfg(not(any(
        all(target_arch = "x86_64", target_feature = "sse2"),
        all(target_arch = "wasm32", target_feature = "simd128")
    )))]
    scalar::map_u16(table, xs, ys);
}

/// `dst[i] = table[src[i]]` for a 256-entry table of 32-bit values (the fused
/// 8-bit → `f32` tables of [`crate::quant`] use it through their bits).
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
    check_lengths(src.len(), dst.len());
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    x86_64::map_u8_u32_sse2(table, src, dst);
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    for (d, s) in dst.iter_mut().zip(src) {
        *d = table[usize::from(*s)];
    }
}

/// `dst[i] = table[src[i]]` for a 256-entry table of 16-bit values (the fused
/// 8-bit → `f16`/`bf16` tables of [`crate::quant`] use it through their bits).
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
    check_lengths(src.len(), dst.len());
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    x86_64::map_u8_u16_sse2(table, src, dst);
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    for (d, s) in dst.iter_mut().zip(src) {
        *d = table[usize::from(*s)];
    }
}

/// Panics with both lengths when an out-of-place map gets slices of different lengths.
#[inline]
#[track_caller]
pub(crate) fn check_lengths(src: usize, dst: usize) {
    if src != dst {
        len_mismatch(src, dst)
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn len_mismatch(src: usize, dst: usize) -> ! {
    panic!("actlut: source slice length ({src}) does not match destination slice length ({dst})")
}
