//! x86_64 blocks (the module is compiled only where SSE2 is a target feature,
//! so not on the soft-float targets such as `x86_64-unknown-none`).
//!
//! - 256-entry byte lookup with AVX2: 16 `vpshufb` lookups (one per high nibble,
//!   each over 16 table entries broadcast to both lanes) and a 15-`vpblendvb`
//!   tree that picks, per byte, the lookup of its high nibble.
//! - 256-entry byte lookup with AVX-512 VBMI (`avx512` feature): two
//!   `vpermi2b` over the table in four registers, blended on the top bit.
//! - 65,536-entry 16-bit lookup with SSE2: indices from 64-bit loads, table
//!   loads folded into `pinsrw`, one 128-bit store per eight elements.
//! - Byte → 32-bit and byte → 16-bit lookups with SSE2: indices from one 64-bit
//!   load, entries loaded straight into vector lanes.
//! - 65,536-entry 16-bit lookup with AVX-512: 16-lane `vpgatherdd`s with
//!   scalar lookups between them, half the elements each.
//! - Compact 16-bit lookups (`kernels/compact.rs`): a directory gather and a
//!   pool gather per vector with AVX2 (8 lanes) and AVX-512 (16 lanes, the
//!   page's width in a mask register).
//! - The CPU's vendor and family ([`cpu_class`]), which [`Kernel::best`](super::Kernel::best)
//!   decides by.

use core::arch::x86_64::*;

use actlut_core::compact::CompactRef;

#[cfg(feature = "avx512")]
use actlut_core::compact::WIDE_BIT;

use super::compact::{Parts, WORDS};
use super::driver::{kernel_fn, Block};

/// AVX2 byte lookup, 32 bytes per block.
pub(super) struct Avx2;

/// The 16 sixteen-entry slices of the table, each broadcast to both 128-bit lanes.
#[inline]
#[target_feature(enable = "avx2")]
fn load_luts(table: &[u8; 256]) -> [__m256i; 16] {
    core::array::from_fn(|k| {
        let mut lane = [0u8; 16];
        lane.copy_from_slice(&table[16 * k..16 * k + 16]);
        // SAFETY: `lane` is 16 readable bytes; loadu has no alignment requirement.
        let v = unsafe { _mm_loadu_si128(lane.as_ptr().cast()) };
        _mm256_broadcastsi128_si256(v)
    })
}

/// `table[v]` for the 32 bytes of `v`.
#[inline]
#[target_feature(enable = "avx2")]
fn lookup32(luts: &[__m256i; 16], v: __m256i) -> __m256i {
    let low = _mm256_and_si256(v, _mm256_set1_epi8(0x0F));
    // vpblendvb selects by each byte's top bit: move bit 4, 5, 6 of every byte
    // there (16-bit shifts carry bits across bytes only below bit 3, never into
    // bit 7 of the receiving byte).
    let sel = [
        _mm256_slli_epi16::<3>(v),
        _mm256_slli_epi16::<2>(v),
        _mm256_slli_epi16::<1>(v),
        v,
    ];
    let mut level: [__m256i; 16] = core::array::from_fn(|k| _mm256_shuffle_epi8(luts[k], low));
    let mut width = 16;
    for s in sel {
        width /= 2;
        for j in 0..width {
            level[j] = _mm256_blendv_epi8(level[2 * j], level[2 * j + 1], s);
        }
    }
    level[0]
}

impl Block<[u8; 256]> for Avx2 {
    const LANES: usize = 32;
    type State = [__m256i; 16];

    #[inline(always)]
    unsafe fn prepare(table: &[u8; 256]) -> [__m256i; 16] {
        // SAFETY: the caller guarantees AVX2.
        unsafe { load_luts(table) }
    }

    #[inline(always)]
    unsafe fn block(luts: &[__m256i; 16], _: &[u8; 256], src: *const u8, dst: *mut u8) {
        // SAFETY: the caller guarantees AVX2 and 32 readable bytes at `src`, 32
        // writable at `dst`; loadu/storeu have no alignment requirement; the
        // load precedes the store (in place).
        unsafe {
            let v = _mm256_loadu_si256(src.cast());
            _mm256_storeu_si256(dst.cast(), lookup32(luts, v));
        }
    }
}

kernel_fn!(#[target_feature(enable = "avx2")] u8_avx2: [u8; 256] => Avx2);

/// AVX-512 VBMI byte lookup, 64 bytes per block.
#[cfg(feature = "avx512")]
pub(super) struct Vbmi;

/// `table[v]` for the 64 bytes of `v`: `vpermi2b` looks up the low 7 bits of
/// each byte in entries 0..128 and in entries 128..256, and the top bit picks
/// between the two.
#[cfg(feature = "avx512")]
#[inline]
#[allow(clippy::incompatible_msrv)] // the `avx512` feature needs Rust 1.89
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn lookup64(t: &[__m512i; 4], v: __m512i) -> __m512i {
    // permutex2var_epi8(a, idx, b): byte i is (idx[i] bit 6 ? b : a)[idx[i] & 63].
    let low = _mm512_permutex2var_epi8(t[0], v, t[1]);
    let high = _mm512_permutex2var_epi8(t[2], v, t[3]);
    // mask_blend(k, a, b): byte i is k[i] ? b[i] : a[i]; k[i] is bit 7 of v[i].
    _mm512_mask_blend_epi8(_mm512_movepi8_mask(v), low, high)
}

#[cfg(feature = "avx512")]
#[allow(clippy::incompatible_msrv)] // the `avx512` feature needs Rust 1.89
impl Block<[u8; 256]> for Vbmi {
    const LANES: usize = 64;
    /// The table in four 64-byte registers.
    type State = [__m512i; 4];

    #[inline(always)]
    unsafe fn prepare(table: &[u8; 256]) -> [__m512i; 4] {
        // SAFETY: the caller guarantees AVX-512 F; each load reads bytes
        // 64k..64k+64 of the 256-byte table; loadu has no alignment requirement.
        core::array::from_fn(|k| unsafe { _mm512_loadu_si512(table[64 * k..].as_ptr().cast()) })
    }

    #[inline(always)]
    unsafe fn block(t: &[__m512i; 4], _: &[u8; 256], src: *const u8, dst: *mut u8) {
        // SAFETY: the caller guarantees AVX-512 F, BW and VBMI, 64 readable bytes
        // at `src` and 64 writable at `dst`; loadu/storeu have no alignment
        // requirement; the load precedes the store (in place).
        unsafe {
            let v = _mm512_loadu_si512(src.cast());
            _mm512_storeu_si512(dst.cast(), lookup64(t, v));
        }
    }
}

#[cfg(feature = "avx512")]
kernel_fn!(
    #[allow(clippy::incompatible_msrv)] // the `avx512` feature needs Rust 1.89
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    u8_vbmi: [u8; 256] => Vbmi
);

/// SSE2 lane loads: eight elements per block, each table entry loaded straight
/// into its vector lane, one or two 128-bit stores.
pub(super) struct Sse2;

/// The vector of `entry(0)`, …, `entry(7)`: the first by `movd`, the others
/// inserted by `pinsrw` (which loads the entry straight into its lane when
/// `entry` is a table load).
#[inline(always)]
fn lanes16(entry: impl Fn(u32) -> u16) -> __m128i {
    let e = |k| i32::from(entry(k));
    // SAFETY: these intrinsics need SSE2 only, which this module is compiled
    // for (`cfg(target_feature = "sse2")` on the module).
    unsafe {
        let v = _mm_cvtsi32_si128(e(0));
        let v = _mm_insert_epi16::<1>(v, e(1));
        let v = _mm_insert_epi16::<2>(v, e(2));
        let v = _mm_insert_epi16::<3>(v, e(3));
        let v = _mm_insert_epi16::<4>(v, e(4));
        let v = _mm_insert_epi16::<5>(v, e(5));
        let v = _mm_insert_epi16::<6>(v, e(6));
        _mm_insert_epi16::<7>(v, e(7))
    }
}

/// `ys[i] = table[xs[i]]` for a 65,536-entry table: the eight indices come from
/// two 64-bit loads and are split with shifts, the eight table loads are folded
/// into `pinsrw`, and the result is one 128-bit store. That is 11 memory
/// operations per 8 elements where the plain loop issues 24.
impl Block<[u16; 65_536]> for Sse2 {
    const LANES: usize = 8;
    type State = ();

    #[inline(always)]
    unsafe fn prepare(_: &[u16; 65_536]) {}

    #[inline(always)]
    unsafe fn block(_: &(), table: &[u16; 65_536], src: *const u16, dst: *mut u16) {
        // SAFETY: the caller vouches for 8 readable u16 = 16 bytes at `src`;
        // read_unaligned has no alignment requirement. x86_64 is little-endian,
        // so bits 16k..16k+16 of each word are element k of its half.
        let (a, b) = unsafe {
            let p = src.cast::<u64>();
            (p.read_unaligned(), p.add(1).read_unaligned())
        };
        // A u16 index into a 65,536-entry table needs no bounds check.
        let v = lanes16(|k| {
            let w = if k < 4 { a } else { b };
            table[usize::from((w >> (16 * (k % 4))) as u16)]
        });
        // SAFETY: the caller vouches for 8 writable u16 = 16 bytes at `dst`;
        // storeu has no alignment requirement; the indices were read above.
        unsafe { _mm_storeu_si128(dst.cast(), v) };
    }
}

/// `dst[i] = table[src[i]]` for a 256-entry table of 32-bit values: the
/// indices come from one 64-bit load, each entry is loaded straight into a
/// vector register (`movd`), two `punpckldq` and one `punpcklqdq` assemble four
/// of them, and two 128-bit stores write the eight.
impl Block<[u32; 256]> for Sse2 {
    const LANES: usize = 8;
    type State = ();

    #[inline(always)]
    unsafe fn prepare(_: &[u32; 256]) {}

    #[inline(always)]
    unsafe fn block(_: &(), table: &[u32; 256], src: *const u8, dst: *mut u32) {
        // SAFETY: the caller vouches for 8 readable bytes at `src`;
        // read_unaligned has no alignment requirement.
        let w = unsafe { src.cast::<u64>().read_unaligned() };
        // Byte k of a little-endian word is element k.
        let t = |k: u32| table[usize::from((w >> (8 * k)) as u8)] as i32;
        // SAFETY: the intrinsics need SSE2, which this module is compiled for;
        // the caller vouches for 8 writable u32 = 32 bytes at `dst`, written as
        // two unaligned 16-byte stores.
        unsafe {
            let e = |k| _mm_cvtsi32_si128(t(k));
            let lo = _mm_unpacklo_epi64(
                _mm_unpacklo_epi32(e(0), e(1)),
                _mm_unpacklo_epi32(e(2), e(3)),
            );
            let hi = _mm_unpacklo_epi64(
                _mm_unpacklo_epi32(e(4), e(5)),
                _mm_unpacklo_epi32(e(6), e(7)),
            );
            _mm_storeu_si128(dst.cast(), lo);
            _mm_storeu_si128(dst.add(4).cast(), hi);
        }
    }
}

/// `dst[i] = table[src[i]]` for a 256-entry table of 16-bit values: indices
/// from one 64-bit load, entries loaded into lanes by `pinsrw`, one 128-bit
/// store.
impl Block<[u16; 256]> for Sse2 {
    const LANES: usize = 8;
    type State = ();

    #[inline(always)]
    unsafe fn prepare(_: &[u16; 256]) {}

    #[inline(always)]
    unsafe fn block(_: &(), table: &[u16; 256], src: *const u8, dst: *mut u16) {
        // SAFETY: the caller vouches for 8 readable bytes at `src`;
        // read_unaligned has no alignment requirement.
        let w = unsafe { src.cast::<u64>().read_unaligned() };
        // Byte k of a little-endian word is element k.
        let v = lanes16(|k| table[usize::from((w >> (8 * k)) as u8)]);
        // SAFETY: the caller vouches for 8 writable u16 = 16 bytes at `dst`;
        // storeu has no alignment requirement.
        unsafe { _mm_storeu_si128(dst.cast(), v) };
    }
}

kernel_fn!(#[inline] u16_sse2: [u16; 65_536] => Sse2);
kernel_fn!(#[inline] u8_u32_sse2: [u32; 256] => Sse2);
kernel_fn!(#[inline] u8_u16_sse2: [u16; 256] => Sse2);

/// The constants of the branch-free decode of `kernels/compact.rs` for form
/// `F`:
/// `(offset_mask, scale, force)`.
#[inline(always)]
const fn constants<const F: u8>() -> (u32, u32, u32) {
    if F == WORDS {
        (0xFFFF, 1, !0)
    } else {
        (0x7FFF, F as u32, 0)
    }
}

/// Compact 16-bit tables of form `F` with AVX2: per eight lanes, `vpmovzxwd`
/// the indices, one `vpgatherdd` of directory entries, the decode arithmetic,
/// one `vpgatherdd` of pool bytes (4 at each entry: the validated view allows
/// it), the add, and `vpackusdw` + `vpermq` to eight `u16`. Two independent
/// chains of eight lanes per block.
pub(super) struct Avx2Gather<const F: u8>;

impl<const F: u8> Avx2Gather<F> {
    /// Eight lookups: `idx` holds eight `u16` indices; returns the eight
    /// results in the low 16 bits of each 32-bit lane.
    ///
    /// # Safety
    ///
    /// AVX2; `p` is the parts of a borrowed, validated view of form `F`.
    #[inline(always)]
    unsafe fn lookup8(p: &Parts, idx: __m128i) -> __m256i {
        let (offset_mask, scale, force) = constants::<F>();
        // SAFETY: AVX2 (the caller). Every directory index `x >> k` is below
        // 65,536 >> k, the directory's length in entries, and every pool index
        // is an entry of the page of its directory entry, where a 4-byte read
        // is inside the pool (the module docs of `kernels::compact`).
        unsafe {
            let x = _mm256_cvtepu16_epi32(idx);
            let page = _mm256_srl_epi32(x, _mm_cvtsi32_si128(p.k as i32));
            let i = _mm256_and_si256(x, _mm256_set1_epi32(p.in_page as i32));
            let d = _mm256_i32gather_epi32::<4>(p.dir.cast(), page);
            let wide = if force == 0 {
                _mm256_srai_epi32::<31>(_mm256_slli_epi32::<16>(d))
            } else {
                _mm256_set1_epi32(-1)
            };
            let start = _mm256_and_si256(d, _mm256_set1_epi32(offset_mask as i32));
            let start = match scale {
                0 => start,
                1 => _mm256_slli_epi32::<1>(start),
                _ => _mm256_slli_epi32::<2>(start),
            };
            let at = _mm256_add_epi32(_mm256_add_epi32(start, i), _mm256_and_si256(i, wide));
            let raw = _mm256_i32gather_epi32::<1>(p.pool.cast(), at);
            let raw = if force == 0 {
                _mm256_and_si256(raw, _mm256_or_si256(wide, _mm256_set1_epi32(0xFF)))
            } else {
                raw
            };
            _mm256_add_epi32(raw, _mm256_srli_epi32::<16>(d))
        }
    }
}

impl<const F: u8> Block<CompactRef<'_>> for Avx2Gather<F> {
    const LANES: usize = 16;
    type State = Parts;

    #[inline(always)]
    unsafe fn prepare(table: &CompactRef<'_>) -> Parts {
        Parts::of(table)
    }

    #[inline(always)]
    unsafe fn block(p: &Parts, _: &CompactRef<'_>, src: *const u16, dst: *mut u16) {
        // SAFETY: AVX2 (the caller); 16 readable u16 at `src` and 16 writable at
        // `dst` (the caller), loadu/storeu need no alignment; both loads precede
        // the store (in place); `p` is of form `F`.
        unsafe {
            let lo = Self::lookup8(p, _mm_loadu_si128(src.cast()));
            let hi = Self::lookup8(p, _mm_loadu_si128(src.add(8).cast()));
            let low16 = _mm256_set1_epi32(0xFFFF);
            // packus saturates: keep the low 16 bits first. Lanes come out as
            // lo0..3 hi0..3 lo4..7 hi4..7 in 64-bit groups: vpermq restores order.
            let packed =
                _mm256_packus_epi32(_mm256_and_si256(lo, low16), _mm256_and_si256(hi, low16));
            let packed = _mm256_permute4x64_epi64::<0b11_01_10_00>(packed);
            _mm256_storeu_si256(dst.cast(), packed);
        }
    }
}

kernel_fn!(#[target_feature(enable = "avx2")] compact_avx2: compact => Avx2Gather);

/// Sixteen 32-bit loads at `base + SCALE · index`, lanes whose bit of `mask`
/// is clear taking the lane of `src` instead (and loading nothing): one 16-lane
/// `vpgatherdd`. Under Miri, which has no 512-bit gather, the same loads as
/// two masked 8-lane `vpgatherdd`: the one instruction Miri cannot interpret is
/// replaced by its two halves, everything around it runs as compiled.
///
/// # Safety
///
/// AVX-512 F; the 4 bytes at `base + SCALE · index` are readable for each lane
/// whose bit of `mask` is set.
#[cfg(feature = "avx512")]
#[inline(always)]
#[allow(clippy::incompatible_msrv)] // the `avx512` feature needs Rust 1.89
unsafe fn gather16<const SCALE: i32>(
    src: __m512i,
    mask: __mmask16,
    base: *const u8,
    index: __m512i,
) -> __m512i {
    #[cfg(not(miri))]
    // SAFETY: AVX-512 F and the loads are the caller's.
    unsafe {
        _mm512_mask_i32gather_epi32::<SCALE>(src, mask, index, base.cast())
    }
    #[cfg(miri)]
    // SAFETY: AVX-512 F implies AVX2; the loads are the caller's (a lane of
    // the 8-lane mask is all ones exactly where its bit of `mask` is set).
    unsafe {
        // All ones in the lanes of `mask` (AVX-512 F; `vpmovm2d` needs DQ).
        let lanes = _mm512_maskz_mov_epi32(mask, _mm512_set1_epi32(-1));
        let half = |src, index, lanes| {
            _mm256_mask_i32gather_epi32::<SCALE>(src, base.cast(), index, lanes)
        };
        let lo = half(
            _mm512_castsi512_si256(src),
            _mm512_castsi512_si256(index),
            _mm512_castsi512_si256(lanes),
        );
        let hi = half(
            _mm512_extracti64x4_epi64::<1>(src),
            _mm512_extracti64x4_epi64::<1>(index),
            _mm512_extracti64x4_epi64::<1>(lanes),
        );
        _mm512_inserti64x4::<1>(_mm512_castsi256_si512(lo), hi)
    }
}

/// 65,536-entry 16-bit tables with AVX-512 gathers (`Kernel::Avx512`; the
/// `avx512` feature, on a CPU with the crate's AVX-512 level, F, BW and VBMI,
/// though the block itself uses F and BW instructions only): per 64 elements, two 16-lane `vpgatherdd`
/// (elements 0..16 and 32..48: a 256-bit load of the indices, `vpmovzxwd`, the
/// gather of the 4 bytes at each entry, `vpmovdw`, a 256-bit store) and 32
/// scalar lookups beside them (elements 16..32 and 48..64: the indices from
/// 64-bit loads, one 16-bit load and one 16-bit store each). The lane of index
/// 65,535, whose 4 bytes would end past the table, is masked off and takes
/// that entry from a register.
///
/// Why both: every way of looking up a 16-bit table costs at least one load
/// per element, and the gather alone issues its 16 loads slower than the
/// core's load ports take them (on a Sapphire Rapids core, 0.57–0.61 cycles
/// per element against a floor of about 0.53 at the two loads per cycle its
/// scalar loads reach; BENCHMARKS.md, "What bounds the full table"). Scalar
/// lookups between the gathers use the ports the gathers leave idle: 0.53
/// cycles per element at 64 Ki, the floor.
#[cfg(feature = "avx512")]
pub(super) struct Avx512Full;

/// `dst[k] = table[src[k]]` for `k` in `0..4`: the four indices from one
/// 64-bit load, each entry loaded and stored on its own.
///
/// # Safety
///
/// `src` is valid for reads and `dst` for writes of 4 `u16`, apart or equal
/// (the four indices are read before any store).
#[cfg(feature = "avx512")]
#[inline(always)]
unsafe fn lookup4(table: &[u16; 65_536], src: *const u16, dst: *mut u16) {
    // SAFETY: 4 readable u16 = 8 bytes at `src` (the caller); read_unaligned
    // has no alignment requirement. x86_64 is little-endian: bits 16k..16k+16
    // are element k.
    let w = unsafe { src.cast::<u64>().read_unaligned() };
    for k in 0..4 {
        // A u16 index into a 65,536-entry table needs no bounds check.
        let y = table[usize::from((w >> (16 * k)) as u16)];
        // SAFETY: element k < 4 of the 4 writable at `dst` (the caller); its
        // index was read above.
        unsafe { dst.add(k).write(y) };
    }
}

#[cfg(feature = "avx512")]
#[allow(clippy::incompatible_msrv)] // the `avx512` feature needs Rust 1.89
impl Block<[u16; 65_536]> for Avx512Full {
    const LANES: usize = 64;
    /// `table[65_535]` in every lane, and the index it belongs to.
    type State = (__m512i, __m512i);

    #[inline(always)]
    unsafe fn prepare(table: &[u16; 65_536]) -> (__m512i, __m512i) {
        // SAFETY: the caller guarantees AVX-512 F.
        unsafe {
            (
                _mm512_set1_epi32(i32::from(table[65_535])),
                _mm512_set1_epi32(65_535),
            )
        }
    }

    #[inline(always)]
    unsafe fn block(
        &(last, top): &(__m512i, __m512i),
        table: &[u16; 65_536],
        src: *const u16,
        dst: *mut u16,
    ) {
        let base = table.as_ptr().cast::<u8>();
        // SAFETY: AVX-512 F (the caller); 64 readable u16 at `src` and 64
        // writable at `dst` (the caller), loadu/storeu need no alignment.
        // In place, every element's index is read before its store: each
        // gather's 16 indices are loaded before anything is stored, its
        // results are stored after both gathers, and `lookup4` reads its four
        // indices before it writes them (and only them). Every gathered lane
        // has an index x <= 65,534, so its 4 bytes at 2x end inside the
        // 131,072-byte table; the lane of 65,535 is masked off and loads
        // nothing.
        unsafe {
            let look = |v: __m256i| {
                let x = _mm512_cvtepu16_epi32(v);
                let inside = _mm512_cmpneq_epi32_mask(x, top);
                // vpmovdw keeps the low 16 bits: the entry at 2x.
                _mm512_cvtepi32_epi16(gather16::<2>(last, inside, base, x))
            };
            let a = look(_mm256_loadu_si256(src.cast()));
            for k in (16..32).step_by(4) {
                lookup4(table, src.add(k), dst.add(k));
            }
            let b = look(_mm256_loadu_si256(src.add(32).cast()));
            for k in (48..64).step_by(4) {
                lookup4(table, src.add(k), dst.add(k));
            }
            _mm256_storeu_si256(dst.cast(), a);
            _mm256_storeu_si256(dst.add(32).cast(), b);
        }
    }
}

#[cfg(feature = "avx512")]
kernel_fn!(
    #[allow(clippy::incompatible_msrv)] // the `avx512` feature needs Rust 1.89
    // The gathers and the decode use AVX-512 F and BW instructions only.
    #[target_feature(enable = "avx512f,avx512bw")]
    u16_avx512: [u16; 65_536] => Avx512Full
);

/// Compact 16-bit tables of form `F` with AVX-512 (`avx512` feature, on a
/// CPU with AVX-512 F, BW and VBMI, the crate's AVX-512 level): sixteen lanes
/// per 16-lane gather ([`gather16`]), the page's width as a mask register (so
/// the bytes layout's decode is two masked operations instead of the
/// branch-free arithmetic), `vpmovdw` to sixteen `u16`. A block is four
/// vectors of sixteen, and it issues their four directory gathers before any
/// pool gather: written as four directory-then-pool chains, the gathers ran
/// 20–25% slower on a Sapphire Rapids core (each pool gather waited behind
/// its own directory gather while the next chain's had not started;
/// BENCHMARKS.md, "The compact gathers, reordered").
#[cfg(feature = "avx512")]
pub(super) struct Avx512Gather<const F: u8>;

#[cfg(feature = "avx512")]
#[allow(clippy::incompatible_msrv)] // the `avx512` feature needs Rust 1.89
impl<const F: u8> Avx512Gather<F> {
    /// The sixteen directory entries of the `u16` indices in `idx`.
    ///
    /// # Safety
    ///
    /// AVX-512 F; `p` is the parts of a borrowed, validated view of form `F`.
    #[inline(always)]
    unsafe fn directory16(p: &Parts, idx: __m256i) -> __m512i {
        // SAFETY: AVX-512 F (the caller); every directory index `x >> k` is
        // below 65,536 >> k, the directory's length in entries, so the 4
        // bytes at 4 (x >> k) are inside it.
        unsafe {
            // The page while the indices are 16 bits wide (the shift by a
            // register count has no 512-bit form Miri interprets).
            let page = _mm256_srl_epi16(idx, _mm_cvtsi32_si128(p.k as i32));
            gather16::<4>(
                _mm512_setzero_si512(),
                !0,
                p.dir,
                _mm512_cvtepu16_epi32(page),
            )
        }
    }

    /// Sixteen lookups of the `u16` indices in `idx`, whose directory entries
    /// are `d` ([`Self::directory16`]), as sixteen `u16`.
    ///
    /// # Safety
    ///
    /// AVX-512 F; `p` is the parts of a borrowed, validated view of form `F`;
    /// `d` holds the directory entries of `idx`.
    #[inline(always)]
    unsafe fn pool16(p: &Parts, idx: __m256i, d: __m512i) -> __m256i {
        // SAFETY: AVX-512 F (the caller); the pool index is entry `i` of the
        // page of its directory entry (at `s + i` narrow, `s + 2i` wide,
        // `2 (offset + i)` words), where a 4-byte read is inside the pool
        // (the module docs of `kernels::compact`).
        unsafe {
            let i = _mm256_and_si256(idx, _mm256_set1_epi16(p.in_page as i16));
            let i = _mm512_cvtepu16_epi32(i);
            let zero = _mm512_setzero_si512();
            let addend = _mm512_srli_epi32::<16>(d);
            let raw = if F == WORDS {
                let at = _mm512_add_epi32(_mm512_and_si512(d, _mm512_set1_epi32(0xFFFF)), i);
                gather16::<2>(zero, !0, p.pool, at)
            } else {
                let wide = _mm512_test_epi32_mask(d, _mm512_set1_epi32(WIDE_BIT as i32));
                let start = _mm512_and_si512(d, _mm512_set1_epi32(0x7FFF));
                let start = match F {
                    0 => start,
                    1 => _mm512_slli_epi32::<1>(start),
                    _ => _mm512_slli_epi32::<2>(start),
                };
                let at = _mm512_add_epi32(start, i);
                // A wide page's entry `i` is at `s + 2i`.
                let at = _mm512_mask_add_epi32(at, wide, at, i);
                let raw = gather16::<1>(zero, !0, p.pool, at);
                // A narrow page's entry is one byte.
                _mm512_mask_and_epi32(raw, !wide, raw, _mm512_set1_epi32(0xFF))
            };
            // vpmovdw truncates each lane to its low 16 bits.
            _mm512_cvtepi32_epi16(_mm512_add_epi32(raw, addend))
        }
    }
}

#[cfg(feature = "avx512")]
#[allow(clippy::incompatible_msrv)] // the `avx512` feature needs Rust 1.89
impl<const F: u8> Block<CompactRef<'_>> for Avx512Gather<F> {
    const LANES: usize = 64;
    type State = Parts;

    #[inline(always)]
    unsafe fn prepare(table: &CompactRef<'_>) -> Parts {
        Parts::of(table)
    }

    #[inline(always)]
    unsafe fn block(p: &Parts, _: &CompactRef<'_>, src: *const u16, dst: *mut u16) {
        // SAFETY: AVX-512 F (the caller); 64 readable u16 at `src` and 64
        // writable at `dst` (the caller), loadu/storeu need no alignment; all
        // four index loads precede the stores (in place); `p` is of form `F`.
        unsafe {
            let idx: [__m256i; 4] =
                core::array::from_fn(|j| _mm256_loadu_si256(src.add(16 * j).cast()));
            let d: [__m512i; 4] = core::array::from_fn(|j| Self::directory16(p, idx[j]));
            for j in 0..4 {
                _mm256_storeu_si256(dst.add(16 * j).cast(), Self::pool16(p, idx[j], d[j]));
            }
        }
    }
}

#[cfg(feature = "avx512")]
kernel_fn!(
    #[allow(clippy::incompatible_msrv)] // the `avx512` feature needs Rust 1.89
    // The gathers and the decode use AVX-512 F and BW instructions only.
    #[target_feature(enable = "avx512f,avx512bw")]
    compact_avx512: compact => Avx512Gather
);

/// FP4 shared-scale rows (`kernels/fp4.rs`) with SSSE3: 8 packed bytes
/// unpacked into 16 codes, each output byte plane shuffled by them with
/// `pshufb`, the planes interleaved into the 16 outputs.
pub(super) struct Ssse3Fp4;

impl<O: crate::element::FloatOutput> Block<super::Fp4Row<O>> for Ssse3Fp4 {
    const LANES: usize = 8;
    /// The row's byte planes.
    type State = [__m128i; 4];

    #[inline(always)]
    unsafe fn prepare(row: &super::Fp4Row<O>) -> [__m128i; 4] {
        // SAFETY: each plane is 16 readable bytes; loadu has no alignment
        // requirement; SSE2 is a target feature of this module.
        core::array::from_fn(|k| unsafe { _mm_loadu_si128(row.planes[k].as_ptr().cast()) })
    }

    #[inline(always)]
    unsafe fn block(planes: &[__m128i; 4], _: &super::Fp4Row<O>, src: *const u8, dst: *mut [O; 2]) {
        // SAFETY: the caller guarantees SSSE3, 8 readable bytes at `src` and 8
        // writable pairs (16 outputs of `O::BYTES` bytes) at `dst`; the loads
        // and stores are unaligned ones.
        unsafe {
            let v = _mm_loadl_epi64(src.cast());
            let mask = _mm_set1_epi8(0x0F);
            let lo = _mm_and_si128(v, mask);
            let hi = _mm_and_si128(_mm_srli_epi16::<4>(v), mask);
            let c = _mm_unpacklo_epi8(lo, hi);
            let dst = dst.cast::<u8>();
            let b0 = _mm_shuffle_epi8(planes[0], c);
            let b1 = _mm_shuffle_epi8(planes[1], c);
            let w01lo = _mm_unpacklo_epi8(b0, b1);
            let w01hi = _mm_unpackhi_epi8(b0, b1);
            if O::BYTES == 2 {
                _mm_storeu_si128(dst.cast(), w01lo);
                _mm_storeu_si128(dst.add(16).cast(), w01hi);
            } else {
                let b2 = _mm_shuffle_epi8(planes[2], c);
                let b3 = _mm_shuffle_epi8(planes[3], c);
                let w23lo = _mm_unpacklo_epi8(b2, b3);
                let w23hi = _mm_unpackhi_epi8(b2, b3);
                _mm_storeu_si128(dst.cast(), _mm_unpacklo_epi16(w01lo, w23lo));
                _mm_storeu_si128(dst.add(16).cast(), _mm_unpackhi_epi16(w01lo, w23lo));
                _mm_storeu_si128(dst.add(32).cast(), _mm_unpacklo_epi16(w01hi, w23hi));
                _mm_storeu_si128(dst.add(48).cast(), _mm_unpackhi_epi16(w01hi, w23hi));
            }
        }
    }
}

/// The chunk-and-tail driver with [`Ssse3Fp4`], compiled for SSSE3.
///
/// # Safety
///
/// The CPU has SSSE3; `src` is valid for reads of `len` bytes and `dst` for
/// writes of `len` pairs; they do not overlap.
#[target_feature(enable = "ssse3")]
pub(super) unsafe fn fp4_ssse3<O: crate::element::FloatOutput>(
    row: &super::Fp4Row<O>,
    src: *const u8,
    dst: *mut [O; 2],
    len: usize,
) {
    // SAFETY: this function's contract is the driver's.
    unsafe { super::driver::run::<super::Fp4Row<O>, Ssse3Fp4>(row, src, dst, len) }
}

/// The blocks of an FP4 table with [`Ssse3Fp4`] (`kernels/fp4.rs`, `run_blocks`).
///
/// # Safety
///
/// The CPU has this function's target features; `packed` is `scales.len() *
/// block_bytes` bytes and `pairs` as many pairs.
#[target_feature(enable = "ssse3")]
pub(super) unsafe fn fp4_blocks_ssse3<O: crate::element::FloatOutput>(
    rows: &[super::Fp4Row<O>; 256],
    packed: &[u8],
    scales: &[u8],
    pairs: &mut [[O; 2]],
    block_bytes: usize,
) {
    // SAFETY: this function's contract is `run_blocks`'s.
    unsafe { super::fp4::run_blocks::<O, Ssse3Fp4>(rows, packed, scales, pairs, block_bytes) }
}

/// The CPU's class from `cpuid`: the vendor string (leaf 0), the family
/// (leaf 1, base family plus extended family) and AVX-512 F (leaf 7, which
/// tells a Zen 4 from a Zen 3 in AMD family 25), read once and cached.
/// Under Miri, which has no `cpuid`, [`CpuClass::Other`](super::CpuClass).
#[cfg(feature = "std")]
pub(super) fn cpu_class() -> super::CpuClass {
    use super::CpuClass;
    use core::sync::atomic::{AtomicU8, Ordering};

    /// 0: not read yet; otherwise 1 + the index in `CLASSES`.
    static CACHED: AtomicU8 = AtomicU8::new(0);
    const CLASSES: [CpuClass; 5] = [
        CpuClass::Intel,
        CpuClass::AmdZen3,
        CpuClass::AmdZen4,
        CpuClass::AmdZen5,
        CpuClass::Other,
    ];
    let cached = CACHED.load(Ordering::Relaxed);
    if cached != 0 {
        return CLASSES[usize::from(cached - 1)];
    }
    #[cfg(miri)]
    let class = CpuClass::Other;
    #[cfg(not(miri))]
    let class = {
        // SAFETY: `cpuid` exists on every x86_64 CPU (leaves 0 and 1 always do)
        // and has no other requirement.
        #[allow(unused_unsafe)]
        let (l0, l1) = unsafe { (__cpuid(0), __cpuid(1)) };
        // SAFETY: as above; leaf 7 is read only where leaf 0 says it exists.
        #[allow(unused_unsafe)]
        let avx512f = l0.eax >= 7 && unsafe { __cpuid_count(7, 0) }.ebx & (1 << 16) != 0;
        let mut vendor = [0u8; 12];
        vendor[..4].copy_from_slice(&l0.ebx.to_le_bytes());
        vendor[4..8].copy_from_slice(&l0.edx.to_le_bytes());
        vendor[8..].copy_from_slice(&l0.ecx.to_le_bytes());
        let base = (l1.eax >> 8) & 0xF;
        let family = if base == 0xF {
            base + ((l1.eax >> 20) & 0xFF)
        } else {
            base
        };
        CpuClass::from_cpuid(&vendor, family, avx512f)
    };
    let index = CLASSES.iter().position(|&c| c == class).unwrap_or(4);
    CACHED.store(index as u8 + 1, Ordering::Relaxed);
    class
}
