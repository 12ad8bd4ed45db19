//! Compact tables against full tables, side by side in one run: 64 Ki lookups
//! of `gelu` on f16 and bf16, on `normal` inputs (N(0, 1) rounded to the
//! format: a few KiB of the table) and on `all-bits` inputs (uniform bit
//! patterns: all of it).
//!
//! - `full/scalar`, `full/sse2`: the crate's word kernels on the 128 KiB table;
//! - `bytes/…`, `words/…`: the two layouts of `actlut_codegen::compact`;
//! - `…/scalar`: [`CompactRef::get`] in a plain loop;
//! - `…/unchecked`: the same decode without bounds checks (what a kernel
//!   module may do on a validated view);
//! - `…/avx2`, `bytes/avx512`: prototypes of gather kernels (eight or sixteen
//!   lanes: a gather of directory entries, a gather of pool words, the decode
//!   arithmetic), run where the CPU has the feature (`avx512` also needs the
//!   crate's `avx512vbmi` feature, which needs Rust 1.89);
//! - `bytes/avx2-gathers-only`: the two gathers of `bytes/avx2` and no decode
//!   arithmetic, a floor for gather kernels.
//!
//! ```text
//! cargo bench --bench compact --features avx512vbmi
//! ```

use std::hint::black_box;

use actlut::kernels::{Kernel as LutKernel, TableShape};
use actlut_codegen::compact::{compact, CompactRef, Layout};
use actlut_codegen::{table, Format, Function};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

mod common;
use common::{configure, XorShift64};

const N: usize = 64 << 10;

/// `ys[i] = c.get(xs[i])`.
fn compact_scalar(c: &CompactRef<'_>, xs: &[u16], ys: &mut [u16]) {
    for (y, &x) in ys.iter_mut().zip(xs) {
        *y = c.get(x);
    }
}

#[cfg(target_arch = "x86_64")]
mod gather {
    //! Gather prototypes of the compact lookup; the remainder (fewer than one
    //! vector) goes through [`CompactRef::get`].
    use actlut_codegen::compact::{CompactRef, Layout};
    use std::arch::x86_64::*;

    /// `ys[i] = c.get(xs[i])`, eight lanes per step.
    pub fn avx2(c: &CompactRef<'_>, xs: &[u16], ys: &mut [u16]) {
        assert!(is_x86_feature_detected!("avx2"));
        assert_eq!(c.layout(), Layout::Bytes);
        assert_eq!(xs.len(), ys.len());
        // SAFETY: AVX2 is present (checked above).
        unsafe { avx2_impl(c, xs, ys) }
    }

    #[target_feature(enable = "avx2")]
    fn avx2_impl(c: &CompactRef<'_>, xs: &[u16], ys: &mut [u16]) {
        let dir = c.dir_bytes().as_ptr().cast::<i32>();
        let pool = c.pool().as_ptr().cast::<i32>();
        let k = _mm_cvtsi32_si128(c.page_shift() as i32);
        let scale = _mm_cvtsi32_si128(c.offset_scale() as i32);
        let in_page = _mm256_set1_epi32((1 << c.page_shift()) - 1);
        let offset = _mm256_set1_epi32(0x7FFF);
        let byte = _mm256_set1_epi32(0xFF);
        let low16 = _mm256_set1_epi32(0xFFFF);
        let mut xc = xs.chunks_exact(8);
        let mut yc = ys.chunks_exact_mut(8);
        for (x, y) in (&mut xc).zip(&mut yc) {
            // SAFETY: `x` and `y` are 8 u16 = 16 bytes (loadu/storeu have no
            // alignment requirement). Every directory index is below
            // 65,536 >> k, the directory's length in entries; every pool index
            // is a page's start plus at most (1 + wide) * (P - 1), and
            // `CompactRef::from_bytes` checked that a 4-byte read there lies
            // inside the pool.
            unsafe {
                let x = _mm256_cvtepu16_epi32(_mm_loadu_si128(x.as_ptr().cast()));
                let page = _mm256_srl_epi32(x, k);
                let i = _mm256_and_si256(x, in_page);
                let d = _mm256_i32gather_epi32::<4>(dir, page);
                let wide = _mm256_srai_epi32::<31>(_mm256_slli_epi32::<16>(d));
                let start = _mm256_sll_epi32(_mm256_and_si256(d, offset), scale);
                let at = _mm256_add_epi32(_mm256_add_epi32(start, i), _mm256_and_si256(i, wide));
                let raw = _mm256_i32gather_epi32::<1>(pool, at);
                let v = _mm256_add_epi32(
                    _mm256_and_si256(raw, _mm256_or_si256(wide, byte)),
                    _mm256_srli_epi32::<16>(d),
                );
                let v = _mm256_and_si256(v, low16);
                let packed = _mm256_packus_epi32(v, v);
                let packed = _mm256_permute4x64_epi64::<0b1000>(packed);
                _mm_storeu_si128(y.as_mut_ptr().cast(), _mm256_castsi256_si128(packed));
            }
        }
        super::compact_scalar(c, xc.remainder(), yc.into_remainder());
    }

    /// `ys[i] = c.get(xs[i])` without bounds checks: what a kernel module gets
    /// from the validation of `CompactRef::from_bytes`.
    pub fn unchecked(c: &CompactRef<'_>, xs: &[u16], ys: &mut [u16]) {
        assert_eq!(c.layout(), Layout::Bytes);
        let (dir, pool) = (c.dir_bytes().as_ptr(), c.pool().as_ptr());
        let (k, scale) = (c.page_shift(), c.offset_scale());
        let in_page = (1u32 << k) - 1;
        for (y, &x) in ys.iter_mut().zip(xs) {
            let x = u32::from(x);
            // SAFETY: the directory holds 65,536 >> k entries of 4 bytes, and
            // `from_bytes` checked that every page's reads (up to 4 bytes at its
            // last entry) lie inside the pool.
            unsafe {
                let d = dir
                    .add(4 * (x >> k) as usize)
                    .cast::<u32>()
                    .read_unaligned();
                let i = x & in_page;
                let wide = ((d << 16) as i32 >> 31) as u32;
                let at = ((d & 0x7FFF) << scale) + i + (i & wide);
                let raw = pool.add(at as usize).cast::<u16>().read_unaligned();
                *y = (raw & (wide as u16 | 0xFF)).wrapping_add((d >> 16) as u16);
            }
        }
    }

    /// [`unchecked`] for the words layout: two loads and an add.
    pub fn unchecked_words(c: &CompactRef<'_>, xs: &[u16], ys: &mut [u16]) {
        assert_eq!(c.layout(), Layout::Words);
        let (dir, pool) = (c.dir_bytes().as_ptr(), c.pool().as_ptr());
        let k = c.page_shift();
        let in_page = (1u32 << k) - 1;
        for (y, &x) in ys.iter_mut().zip(xs) {
            let x = u32::from(x);
            // SAFETY: as in `unchecked`; `from_bytes` checked that every
            // page's entries lie inside the pool.
            unsafe {
                let d = dir
                    .add(4 * (x >> k) as usize)
                    .cast::<u32>()
                    .read_unaligned();
                let at = 2 * ((d & 0xFFFF) + (x & in_page)) as usize;
                let raw = pool.add(at).cast::<u16>().read_unaligned();
                *y = raw.wrapping_add((d >> 16) as u16);
            }
        }
    }

    /// [`avx2`] for the words layout: two gathers, an add.
    pub fn avx2_words(c: &CompactRef<'_>, xs: &[u16], ys: &mut [u16]) {
        assert!(is_x86_feature_detected!("avx2"));
        assert_eq!(c.layout(), Layout::Words);
        assert_eq!(xs.len(), ys.len());
        // SAFETY: AVX2 is present (checked above).
        unsafe { avx2_words_impl(c, xs, ys) }
    }

    #[target_feature(enable = "avx2")]
    fn avx2_words_impl(c: &CompactRef<'_>, xs: &[u16], ys: &mut [u16]) {
        let dir = c.dir_bytes().as_ptr().cast::<i32>();
        let pool = c.pool().as_ptr().cast::<i32>();
        let k = _mm_cvtsi32_si128(c.page_shift() as i32);
        let in_page = _mm256_set1_epi32((1 << c.page_shift()) - 1);
        let low16 = _mm256_set1_epi32(0xFFFF);
        let mut xc = xs.chunks_exact(8);
        let mut yc = ys.chunks_exact_mut(8);
        for (x, y) in (&mut xc).zip(&mut yc) {
            // SAFETY: as in `avx2_impl`: `from_bytes` checked that a 4-byte
            // read at every entry of every page lies inside the pool.
            unsafe {
                let x = _mm256_cvtepu16_epi32(_mm_loadu_si128(x.as_ptr().cast()));
                let d = _mm256_i32gather_epi32::<4>(dir, _mm256_srl_epi32(x, k));
                let at = _mm256_add_epi32(_mm256_and_si256(d, low16), _mm256_and_si256(x, in_page));
                let raw = _mm256_i32gather_epi32::<2>(pool, at);
                let v = _mm256_and_si256(_mm256_add_epi32(raw, _mm256_srli_epi32::<16>(d)), low16);
                let packed = _mm256_permute4x64_epi64::<0b1000>(_mm256_packus_epi32(v, v));
                _mm_storeu_si128(y.as_mut_ptr().cast(), _mm256_castsi256_si128(packed));
            }
        }
        super::compact_scalar(c, xc.remainder(), yc.into_remainder());
    }

    /// The two gathers of [`avx2`] and nothing else (the pool index is the page
    /// start plus `i`, the sum of the lanes is returned): a floor for any
    /// gather kernel of this scheme.
    pub fn avx2_gathers_only(c: &CompactRef<'_>, xs: &[u16], ys: &mut [u16]) {
        assert!(is_x86_feature_detected!("avx2"));
        assert_eq!(c.layout(), Layout::Bytes);
        // SAFETY: AVX2 is present (checked above).
        let s = unsafe { gathers_only_impl(c, xs) };
        if let Some(y) = ys.first_mut() {
            *y = s;
        }
    }

    #[target_feature(enable = "avx2")]
    fn gathers_only_impl(c: &CompactRef<'_>, xs: &[u16]) -> u16 {
        let dir = c.dir_bytes().as_ptr().cast::<i32>();
        let pool = c.pool().as_ptr().cast::<i32>();
        let k = _mm_cvtsi32_si128(c.page_shift() as i32);
        let in_page = _mm256_set1_epi32((1 << c.page_shift()) - 1);
        let offset = _mm256_set1_epi32(0x7FFF);
        let mut acc = _mm256_setzero_si256();
        for x in xs.chunks_exact(8) {
            // SAFETY: as in `avx2_impl`: with offset scale 0 (the caller
            // checks it), `(d & 0x7FFF) + i` is at most the index `avx2_impl`
            // reads, which `from_bytes` checked is 4 bytes inside the pool.
            unsafe {
                let x = _mm256_cvtepu16_epi32(_mm_loadu_si128(x.as_ptr().cast()));
                let page = _mm256_srl_epi32(x, k);
                let i = _mm256_and_si256(x, in_page);
                let d = _mm256_i32gather_epi32::<4>(dir, page);
                let at = _mm256_add_epi32(_mm256_and_si256(d, offset), i);
                acc = _mm256_add_epi32(acc, _mm256_i32gather_epi32::<1>(pool, at));
            }
        }
        // SAFETY: AVX2 is enabled for this function.
        let lanes: [u32; 8] = unsafe { core::mem::transmute(acc) };
        lanes.iter().fold(0u32, |a, &b| a.wrapping_add(b)) as u16
    }

    /// `ys[i] = c.get(xs[i])`, sixteen lanes per step (AVX-512 intrinsics
    /// need Rust 1.89, as the crate's `avx512vbmi` feature does).
    #[cfg(feature = "avx512vbmi")]
    #[allow(clippy::incompatible_msrv)]
    pub fn avx512(c: &CompactRef<'_>, xs: &[u16], ys: &mut [u16]) {
        assert!(is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512bw"));
        assert_eq!(c.layout(), Layout::Bytes);
        assert_eq!(xs.len(), ys.len());
        // SAFETY: AVX-512 F and BW are present (checked above).
        unsafe { avx512_impl(c, xs, ys) }
    }

    #[cfg(feature = "avx512vbmi")]
    #[allow(clippy::incompatible_msrv)]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn avx512_impl(c: &CompactRef<'_>, xs: &[u16], ys: &mut [u16]) {
        let dir = c.dir_bytes().as_ptr().cast::<i32>();
        let pool = c.pool().as_ptr().cast::<i32>();
        let k = _mm_cvtsi32_si128(c.page_shift() as i32);
        let scale = _mm_cvtsi32_si128(c.offset_scale() as i32);
        let in_page = _mm512_set1_epi32((1 << c.page_shift()) - 1);
        let offset = _mm512_set1_epi32(0x7FFF);
        let byte = _mm512_set1_epi32(0xFF);
        let mut xc = xs.chunks_exact(16);
        let mut yc = ys.chunks_exact_mut(16);
        for (x, y) in (&mut xc).zip(&mut yc) {
            // SAFETY: as in `avx2_impl`, with 16 lanes: `x` and `y` are 32
            // bytes, and every gathered index is in bounds by the validation
            // of `CompactRef::from_bytes`.
            unsafe {
                let x = _mm512_cvtepu16_epi32(_mm256_loadu_si256(x.as_ptr().cast()));
                let page = _mm512_srl_epi32(x, k);
                let i = _mm512_and_si512(x, in_page);
                let d = _mm512_i32gather_epi32::<4>(page, dir);
                let wide = _mm512_srai_epi32::<31>(_mm512_slli_epi32::<16>(d));
                let start = _mm512_sll_epi32(_mm512_and_si512(d, offset), scale);
                let at = _mm512_add_epi32(_mm512_add_epi32(start, i), _mm512_and_si512(i, wide));
                let raw = _mm512_i32gather_epi32::<1>(at, pool);
                let v = _mm512_add_epi32(
                    _mm512_and_si512(raw, _mm512_or_si512(wide, byte)),
                    _mm512_srli_epi32::<16>(d),
                );
                _mm256_storeu_si256(y.as_mut_ptr().cast(), _mm512_cvtepi32_epi16(v));
            }
        }
        super::compact_scalar(c, xc.remainder(), yc.into_remainder());
    }
}

/// `n` inputs of `format`: N(0, 1) samples rounded to it, or uniform bit patterns.
fn inputs(format: Format, dist: &str, n: usize) -> Vec<u16> {
    let mut rng = XorShift64(0x9E37_79B9_7F4A_7C15);
    (0..n)
        .map(|_| match (dist, format) {
            ("normal", Format::F16) => half::f16::from_f32(rng.normal()).to_bits(),
            ("normal", _) => half::bf16::from_f32(rng.normal()).to_bits(),
            _ => (rng.next() >> 48) as u16,
        })
        .collect()
}

type Kernel = fn(&CompactRef<'_>, &[u16], &mut [u16]);

/// The full `gelu` table of `format` and its stored forms in both layouts.
struct Setup {
    name: String,
    full: Box<[u16; 65_536]>,
    bytes: Vec<u8>,
    words: Vec<u8>,
}

fn setup(format: Format) -> Setup {
    let full: Box<[u16; 65_536]> = table(Function::Gelu, format)
        .into_boxed_slice()
        .try_into()
        .expect("65,536 entries");
    let name = format!("gelu_{}", format.name());
    let stored = |layout| compact(&name, &full[..], layout).unwrap().to_bytes();
    let (bytes, words) = (stored(Layout::Bytes), stored(Layout::Words));
    Setup {
        name,
        full,
        bytes,
        words,
    }
}

/// Every compact kernel that runs here, with the view it reads.
fn compact_kernels<'a>(s: &'a Setup) -> Vec<(&'static str, CompactRef<'a>, Kernel)> {
    let bytes = CompactRef::from_bytes(&s.bytes).unwrap();
    let words = CompactRef::from_bytes(&s.words).unwrap();
    let mut kernels: Vec<(&str, CompactRef<'_>, Kernel)> = vec![
        ("bytes/scalar", bytes, compact_scalar),
        ("words/scalar", words, compact_scalar),
    ];
    #[cfg(target_arch = "x86_64")]
    {
        kernels.push(("bytes/unchecked", bytes, gather::unchecked));
        kernels.push(("words/unchecked", words, gather::unchecked_words));
        if is_x86_feature_detected!("avx2") {
            kernels.push(("bytes/avx2", bytes, gather::avx2));
            kernels.push(("words/avx2", words, gather::avx2_words));
            if bytes.offset_scale() == 0 {
                kernels.push(("bytes/avx2-gathers-only", bytes, gather::avx2_gathers_only));
            }
        }
        #[cfg(feature = "avx512vbmi")]
        if is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512bw") {
            kernels.push(("bytes/avx512", bytes, gather::avx512));
        }
    }
    kernels
}

fn compact_vs_full(c: &mut Criterion) {
    for format in [Format::F16, Format::Bf16] {
        let s = setup(format);
        let (name, full) = (&s.name, &s.full);
        let kernels = compact_kernels(&s);
        for dist in ["normal", "all-bits"] {
            let xs = inputs(format, dist, N);
            let mut want = vec![0u16; N];
            LutKernel::Scalar.map(&**full, &xs, &mut want).unwrap();
            let mut ys = vec![0u16; N];
            for (label, view, kernel) in &kernels {
                if !label.ends_with("gathers-only") {
                    ys.fill(0);
                    kernel(view, &xs, &mut ys);
                    assert_eq!(ys, want, "{label} on {name} {dist}");
                }
            }
            let mut g = configure(c, &format!("compact/{name}/{dist}"), N);
            for kernel in LutKernel::ALL
                .into_iter()
                .filter(|k| k.is_available_for(TableShape::U16))
            {
                let id = BenchmarkId::new(format!("full/{kernel:?}").to_lowercase(), N);
                g.bench_with_input(id, &xs, |b, xs| {
                    b.iter(|| kernel.map(&**full, black_box(xs), &mut ys).unwrap())
                });
            }
            for (label, view, kernel) in &kernels {
                g.bench_with_input(BenchmarkId::new(*label, N), &xs, |b, xs| {
                    b.iter(|| kernel(view, black_box(xs), &mut ys))
                });
            }
            g.finish();
        }
    }
}

/// The same kernels timed round-robin, one call of each per round, the best of
/// 200 rounds each: on a busy machine the best time is the one least disturbed,
/// and every kernel sees the same disturbances. Printed as a Markdown table.
fn interleaved(_: &mut Criterion) {
    use std::time::{Duration, Instant};
    // Criterion's untimed smoke mode (`-- --test`): one round is enough.
    let rounds = if std::env::args().any(|a| a == "--test") {
        1
    } else {
        200
    };
    println!("| table / inputs | kernel | ns/element | × full scalar | × best full |");
    println!("|---|---|---:|---:|---:|");
    for format in [Format::F16, Format::Bf16] {
        let s = setup(format);
        let kernels = compact_kernels(&s);
        for dist in ["normal", "all-bits"] {
            let xs = inputs(format, dist, N);
            let mut ys = vec![0u16; N];
            let words: Vec<LutKernel> = LutKernel::ALL
                .into_iter()
                .filter(|k| k.is_available_for(TableShape::U16))
                .collect();
            let mut best = vec![Duration::MAX; words.len() + kernels.len()];
            for _ in 0..rounds {
                for (j, kernel) in words.iter().enumerate() {
                    let t = Instant::now();
                    kernel.map(&*s.full, black_box(&xs), &mut ys).unwrap();
                    best[j] = best[j].min(t.elapsed());
                }
                for (j, (_, view, kernel)) in kernels.iter().enumerate() {
                    let t = Instant::now();
                    kernel(view, black_box(&xs), &mut ys);
                    best[words.len() + j] = best[words.len() + j].min(t.elapsed());
                }
                black_box(&ys);
            }
            let ns = |d: Duration| d.as_secs_f64() * 1e9 / N as f64;
            let labels = words
                .iter()
                .map(|k| format!("full/{k:?}").to_lowercase())
                .chain(kernels.iter().map(|k| k.0.to_string()));
            let scalar = ns(best[0]);
            let full = ns(*best[..words.len()].iter().min().expect("the scalar kernel"));
            for (label, b) in labels.zip(&best) {
                let b = ns(*b);
                println!(
                    "| {}/{dist} | {label} | {b:.2} | {:.2} | {:.2} |",
                    s.name,
                    scalar / b,
                    full / b
                );
            }
        }
    }
}

criterion_group!(benches, interleaved, compact_vs_full);
criterion_main!(benches);
