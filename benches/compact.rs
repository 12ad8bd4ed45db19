//! Compact tables against full tables, side by side in one run: 64 Ki lookups
//! of `gelu` on f16 and bf16, on `normal` inputs (N(0, 1) rounded to the
//! format: a few KiB of the table) and on `all-bits` inputs (uniform bit
//! patterns: all of it).
//!
//! - `full/<kernel>`: the 128 KiB table through each 16-bit kernel available
//!   here;
//! - `bytes/<kernel>`, `words/<kernel>`: the two layouts of
//!   `actlut_codegen::compact` (bytes is what the `compact` feature embeds)
//!   through each compact kernel available here
//!   ([`TableShape::Compact16`]);
//! - `…/get-loop`: [`CompactRef::get`] in a plain loop (safe code, bounds
//!   checks included);
//! - floors, which are not lookups (they write a checksum): the two gathers of
//!   the gather kernels without the decode (`bytes/avx2-gathers-only`,
//!   `bytes/avx512-gathers-only`) and one 16-lane gather per 16 elements on
//!   the full table (`full/avx512-one-gather`).
//!
//! First a round-robin table (the best of 200 rounds of one call each), then
//! the criterion groups `compact/<table>/<inputs>`, then `expand/<table>`: one
//! decode of the whole table (`CompactRef::expand_into`) per layout;
//! docs/compact.md ("Speed") has the numbers.
//!
//! ```text
//! cargo bench --bench compact                # -- nomatch: the table only
//! ```

use std::hint::black_box;

use actlut::kernels::{Kernel as LutKernel, TableShape};
use actlut_codegen::compact::{compact, CompactRef, Layout};
use actlut_codegen::{table, Format, Function};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

mod common;
use common::{configure, Rng};

const N: usize = 64 << 10;

/// `ys[i] = c.get(xs[i])`.
fn compact_scalar(c: &CompactRef<'_>, xs: &[u16], ys: &mut [u16]) {
    for (y, &x) in ys.iter_mut().zip(xs) {
        *y = c.get(x);
    }
}

#[cfg(target_arch = "x86_64")]
mod floors {
    //! What limits the gather kernels: the same gathers without the decode
    //! arithmetic, and one gather per element on the full table. Each returns
    //! a sum of its lanes in `ys[0]` (so the loads are not optimized away);
    //! none is a lookup.
    use actlut_codegen::compact::{CompactRef, Layout};
    use std::arch::x86_64::*;

    /// The two gathers of the AVX2 kernel, 8 lanes each, and nothing else (the
    /// pool index is the page start plus `i`).
    pub fn avx2_gathers_only(c: &CompactRef<'_>, xs: &[u16], ys: &mut [u16]) {
        assert!(is_x86_feature_detected!("avx2"));
        assert_eq!((c.layout(), c.offset_scale()), (Layout::Bytes, 0));
        // SAFETY: AVX2 is present (checked above).
        ys[0] = unsafe { avx2_gathers_only_impl(c, xs) };
    }

    #[target_feature(enable = "avx2")]
    fn avx2_gathers_only_impl(c: &CompactRef<'_>, xs: &[u16]) -> u16 {
        let dir = c.dir_bytes().as_ptr().cast::<i32>();
        let pool = c.pool().as_ptr().cast::<i32>();
        let k = _mm_cvtsi32_si128(c.page_shift() as i32);
        let in_page = _mm256_set1_epi32((1 << c.page_shift()) - 1);
        let offset = _mm256_set1_epi32(0x7FFF);
        let mut acc = _mm256_setzero_si256();
        for x in xs.chunks_exact(8) {
            // SAFETY: `x` is 16 readable bytes. Every directory index is below
            // 65,536 >> k; with offset scale 0 (checked), `(d & 0x7FFF) + i` is
            // at most the index the kernel reads, which `from_bytes` checked is
            // 4 bytes inside the pool.
            unsafe {
                let x = _mm256_cvtepu16_epi32(_mm_loadu_si128(x.as_ptr().cast()));
                let page = _mm256_srl_epi32(x, k);
                let i = _mm256_and_si256(x, in_page);
                let d = _mm256_i32gather_epi32::<4>(dir, page);
                let at = _mm256_add_epi32(_mm256_and_si256(d, offset), i);
                acc = _mm256_add_epi32(acc, _mm256_i32gather_epi32::<1>(pool, at));
            }
        }
        let lanes: [u32; 8] = unsafe { core::mem::transmute(acc) };
        lanes.iter().fold(0u32, |a, &b| a.wrapping_add(b)) as u16
    }

    /// The two gathers of the AVX-512 kernel, 16 lanes each, and nothing else,
    /// in the kernel's order: the directory gathers of four vectors, then
    /// their pool gathers.
    pub fn avx512_gathers_only(c: &CompactRef<'_>, xs: &[u16], ys: &mut [u16]) {
        assert!(is_x86_feature_detected!("avx512f"));
        assert_eq!((c.layout(), c.offset_scale()), (Layout::Bytes, 0));
        // SAFETY: AVX-512 F is present (checked above).
        ys[0] = unsafe { avx512_gathers_only_impl(c, xs) };
    }

    #[target_feature(enable = "avx512f")]
    fn avx512_gathers_only_impl(c: &CompactRef<'_>, xs: &[u16]) -> u16 {
        let dir = c.dir_bytes().as_ptr().cast::<i32>();
        let pool = c.pool().as_ptr().cast::<i32>();
        let k = _mm_cvtsi32_si128(c.page_shift() as i32);
        let in_page = _mm512_set1_epi32((1 << c.page_shift()) - 1);
        let offset = _mm512_set1_epi32(0x7FFF);
        let mut acc = _mm512_setzero_si512();
        for x in xs.chunks_exact(64) {
            // SAFETY: as in `avx2_gathers_only_impl`, `x` being 128 bytes.
            unsafe {
                let x: [__m512i; 4] = core::array::from_fn(|j| {
                    _mm512_cvtepu16_epi32(_mm256_loadu_si256(x[16 * j..].as_ptr().cast()))
                });
                let d = x.map(|x| _mm512_i32gather_epi32::<4>(_mm512_srl_epi32(x, k), dir));
                for j in 0..4 {
                    let at = _mm512_add_epi32(
                        _mm512_and_si512(d[j], offset),
                        _mm512_and_si512(x[j], in_page),
                    );
                    acc = _mm512_add_epi32(acc, _mm512_i32gather_epi32::<1>(at, pool));
                }
            }
        }
        _mm512_reduce_add_epi32(acc) as u16
    }

    /// One 16-lane gather per 16 elements from the full table (4 bytes at
    /// entry `x`, inside the table for `x < 65,535`; the last index is
    /// lowered by one): the cost of a gather where the scalar loop has loads.
    pub fn avx512_full_gather(full: &[u16; 65_536], xs: &[u16], ys: &mut [u16]) {
        assert!(is_x86_feature_detected!("avx512f"));
        // SAFETY: AVX-512 F is present (checked above).
        ys[0] = unsafe { avx512_full_gather_impl(full, xs) };
    }

    #[target_feature(enable = "avx512f")]
    fn avx512_full_gather_impl(full: &[u16; 65_536], xs: &[u16]) -> u16 {
        let table = full.as_ptr().cast::<i32>();
        let top = _mm512_set1_epi32(65_534);
        let mut acc = _mm512_setzero_si512();
        for x in xs.chunks_exact(16) {
            // SAFETY: `x` is 32 readable bytes; every index is at most 65,534,
            // so the 4 bytes at 2·index are inside the 131,072-byte table.
            unsafe {
                let x = _mm512_cvtepu16_epi32(_mm256_loadu_si256(x.as_ptr().cast()));
                let x = _mm512_min_epu32(x, top);
                acc = _mm512_add_epi32(acc, _mm512_i32gather_epi32::<2>(x, table));
            }
        }
        _mm512_reduce_add_epi32(acc) as u16
    }
}

/// `n` inputs of `format`: N(0, 1) samples rounded to it, or uniform bit patterns.
fn inputs(format: Format, dist: &str, n: usize) -> Vec<u16> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    (0..n)
        .map(|_| match (dist, format) {
            ("normal", Format::F16) => half::f16::from_f32(rng.normal()).to_bits(),
            ("normal", _) => half::bf16::from_f32(rng.normal()).to_bits(),
            _ => (rng.next() >> 48) as u16,
        })
        .collect()
}

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

/// `ys = lookup(xs)` by one kernel.
type Run<'a> = Box<dyn Fn(&[u16], &mut [u16]) + 'a>;

/// A labelled runner; `lookup` is false for the floors (which do not write the
/// lookups, only a checksum).
struct Runner<'a> {
    label: String,
    lookup: bool,
    run: Run<'a>,
}

/// Every kernel that runs here: the full table through each 16-bit kernel, the
/// compact forms through each compact kernel (both layouts) and the safe `get`
/// loop, then the floors.
fn runners(s: &Setup) -> Vec<Runner<'_>> {
    let full = &*s.full;
    let bytes = CompactRef::from_bytes(&s.bytes).unwrap();
    let words = CompactRef::from_bytes(&s.words).unwrap();
    let mut out: Vec<Runner<'_>> = Vec::new();
    let name = |k: LutKernel| format!("{k:?}").to_lowercase();
    for k in LutKernel::ALL
        .into_iter()
        .filter(|k| k.is_available_for(TableShape::U16))
    {
        out.push(Runner {
            label: format!("full/{}", name(k)),
            lookup: true,
            run: Box::new(move |xs, ys| k.map(full, xs, ys).unwrap()),
        });
    }
    for (layout, view) in [("bytes", bytes), ("words", words)] {
        for k in LutKernel::ALL
            .into_iter()
            .filter(|k| k.is_available_for(TableShape::Compact16))
        {
            out.push(Runner {
                label: format!("{layout}/{}", name(k)),
                lookup: true,
                run: Box::new(move |xs, ys| k.map(&view, xs, ys).unwrap()),
            });
        }
        out.push(Runner {
            label: format!("{layout}/get-loop"),
            lookup: true,
            run: Box::new(move |xs, ys| compact_scalar(&view, xs, ys)),
        });
    }
    #[cfg(target_arch = "x86_64")]
    if bytes.offset_scale() == 0 {
        if is_x86_feature_detected!("avx2") {
            out.push(Runner {
                label: "bytes/avx2-gathers-only".into(),
                lookup: false,
                run: Box::new(move |xs, ys| floors::avx2_gathers_only(&bytes, xs, ys)),
            });
        }
        if is_x86_feature_detected!("avx512f") {
            out.push(Runner {
                label: "bytes/avx512-gathers-only".into(),
                lookup: false,
                run: Box::new(move |xs, ys| floors::avx512_gathers_only(&bytes, xs, ys)),
            });
            out.push(Runner {
                label: "full/avx512-one-gather".into(),
                lookup: false,
                run: Box::new(move |xs, ys| floors::avx512_full_gather(full, xs, ys)),
            });
        }
    }
    out
}

fn compact_vs_full(c: &mut Criterion) {
    for format in [Format::F16, Format::Bf16] {
        let s = setup(format);
        let runners = runners(&s);
        for dist in ["normal", "all-bits"] {
            let xs = inputs(format, dist, N);
            let mut want = vec![0u16; N];
            LutKernel::Scalar.map(&*s.full, &xs, &mut want).unwrap();
            let mut ys = vec![0u16; N];
            for r in runners.iter().filter(|r| r.lookup) {
                ys.fill(0);
                (r.run)(&xs, &mut ys);
                assert_eq!(ys, want, "{} on {} {dist}", r.label, s.name);
            }
            let mut g = configure(c, &format!("compact/{}/{dist}", s.name), N);
            for r in &runners {
                g.bench_with_input(BenchmarkId::new(&r.label, N), &xs, |b, xs| {
                    b.iter(|| (r.run)(black_box(xs), &mut ys))
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
        let runners = runners(&s);
        for dist in ["normal", "all-bits"] {
            let xs = inputs(format, dist, N);
            let mut ys = vec![0u16; N];
            let mut best = vec![Duration::MAX; runners.len()];
            for _ in 0..rounds {
                for (j, r) in runners.iter().enumerate() {
                    let t = Instant::now();
                    (r.run)(black_box(&xs), &mut ys);
                    best[j] = best[j].min(t.elapsed());
                }
                black_box(&ys);
            }
            let ns = |d: Duration| d.as_secs_f64() * 1e9 / N as f64;
            let full: Vec<f64> = runners
                .iter()
                .zip(&best)
                .filter(|(r, _)| r.lookup && r.label.starts_with("full/"))
                .map(|(_, b)| ns(*b))
                .collect();
            let scalar = full[0];
            let fastest = full.iter().copied().fold(f64::MAX, f64::min);
            for (r, b) in runners.iter().zip(&best) {
                let b = ns(*b);
                println!(
                    "| {}/{dist} | {} | {b:.3} | {:.2} | {:.2} |",
                    s.name,
                    r.label,
                    scalar / b,
                    fastest / b
                );
            }
        }
    }
}

/// One decode of the whole table (`CompactRef::expand_into`, what
/// `compact::expand_table` runs once per table): both layouts of both tables.
fn expand(c: &mut Criterion) {
    for format in [Format::F16, Format::Bf16] {
        let s = setup(format);
        let mut g = configure(c, &format!("expand/{}", s.name), N);
        let mut out = Box::new([0u16; 65_536]);
        for (layout, bytes) in [("bytes", &s.bytes), ("words", &s.words)] {
            let view = CompactRef::from_bytes(bytes).unwrap();
            view.expand_into(&mut out);
            assert_eq!(out, s.full, "{} {layout}", s.name);
            g.bench_function(layout, |b| b.iter(|| view.expand_into(black_box(&mut out))));
        }
        g.finish();
    }
}

criterion_group!(benches, interleaved, compact_vs_full, expand);
criterion_main!(benches);
