//! f16 GELU: actlut's full table, the plain loop, the compact form (in the
//! bytes layout the `compact` feature embeds, and in the words layout)
//! through each kernel, the expanded compact form, tract-linalg and candle, at 1 Ki,
//! 64 Ki and 1 Mi elements of N(0, 3²) inputs (the distribution of the issue
//! that set the compact targets), on the running CPU.
//!
//! ```text
//! cargo bench --bench compact              # the interleaved table, then criterion
//! cargo bench --bench compact -- nomatch   # the interleaved table only
//! cargo bench --bench compact -- --test    # every variant once, untimed
//! ```
//!
//! First it checks that every exact variant gives the full table's bits. Then
//! it reads the core clock from a chain of dependent register adds (one cycle
//! each) and the rate at which the core loads from distinct L1 lines (twelve
//! independent loads per iteration, 64 bytes apart), which bounds any
//! full-table kernel from below, and times every variant round-robin: per
//! round, each variant once untimed and once timed, in a fresh seeded order
//! each round, the same rounds for all, so a busy machine disturbs them alike.
//! It prints the fastest and the median round of each, in ns per element,
//! their ratio to `full` and, for the 64 Ki `full` row, cycles per element
//! beside that floor. Then the same variants run as criterion groups
//! `gelu_f16_compact/<size>`. The variants are
//! those of `actlut_peers::forms`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};

mod common;

const SIZES: [(&str, usize); 3] = [("1Ki", 1 << 10), ("64Ki", 1 << 16), ("1Mi", 1 << 20)];

fn inputs(n: usize) -> Vec<u16> {
    common::normal_bits(
        actlut_peers::Format::F16,
        n,
        3.0,
        0x2545_F491_4F6C_DD1D ^ n as u64,
    )
}

/// The core clock in GHz: 1 Mi dependent `add r, r` (one cycle of latency
/// each, on every x86-64 core) timed, the best of 300 runs (short runs, so
/// that on a busy machine some run is not preempted). `None` elsewhere.
fn clock_ghz() -> Option<f64> {
    #[cfg(target_arch = "x86_64")]
    {
        let chain = |n: u64| {
            let (mut x, one) = (0u64, black_box(1u64));
            for _ in 0..n {
                // SAFETY: register arithmetic only.
                unsafe {
                    std::arch::asm!(
                        "add {x}, {one}", "add {x}, {one}", "add {x}, {one}", "add {x}, {one}",
                        "add {x}, {one}", "add {x}, {one}", "add {x}, {one}", "add {x}, {one}",
                        x = inout(reg) x, one = in(reg) one,
                        options(nomem, nostack),
                    )
                };
            }
            x
        };
        let n = 1 << 17;
        let best = (0..300)
            .map(|_| {
                let t = Instant::now();
                black_box(chain(black_box(n)));
                t.elapsed()
            })
            .min()
            .unwrap();
        Some((8 * n) as f64 / best.as_secs_f64() / 1e9)
    }
    #[cfg(not(target_arch = "x86_64"))]
    None
}

/// Loads per cycle that the core sustains when each load reads another cache
/// line of L1: twelve independent 16-bit loads per iteration, 64 bytes apart,
/// the best of 300 runs, divided by the clock. A table lookup whose inputs
/// spread over the table is one such load per element, so `1 / rate`
/// cycles per element is a floor for any kernel on the full table. `None`
/// elsewhere.
fn distinct_line_loads_per_cycle(ghz: Option<f64>) -> Option<f64> {
    #[cfg(target_arch = "x86_64")]
    {
        let lines = vec![0u8; 64 * 12];
        let p = lines.as_ptr();
        let run = |n: u64| {
            for _ in 0..n {
                // SAFETY: twelve 2-byte reads at offsets 0, 64, …, 704 of the
                // 768-byte buffer `lines`, alive for the whole loop.
                unsafe {
                    std::arch::asm!(
                        "movzx {a:e}, word ptr [{p}]", "movzx {b:e}, word ptr [{p} + 64]",
                        "movzx {c:e}, word ptr [{p} + 128]", "movzx {a:e}, word ptr [{p} + 192]",
                        "movzx {b:e}, word ptr [{p} + 256]", "movzx {c:e}, word ptr [{p} + 320]",
                        "movzx {a:e}, word ptr [{p} + 384]", "movzx {b:e}, word ptr [{p} + 448]",
                        "movzx {c:e}, word ptr [{p} + 512]", "movzx {a:e}, word ptr [{p} + 576]",
                        "movzx {b:e}, word ptr [{p} + 640]", "movzx {c:e}, word ptr [{p} + 704]",
                        p = in(reg) black_box(p), a = out(reg) _, b = out(reg) _, c = out(reg) _,
                        options(nostack, readonly),
                    )
                };
            }
        };
        let n = 1 << 15;
        let best = (0..300)
            .map(|_| {
                let t = Instant::now();
                run(black_box(n));
                t.elapsed()
            })
            .min()
            .unwrap();
        ghz.map(|g| (12 * n) as f64 / (best.as_secs_f64() * g * 1e9))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = ghz;
        None
    }
}

fn check(variants: &[actlut_peers::forms::Variant]) {
    let xs: Vec<u16> = (0..=u16::MAX).collect();
    let mut want = vec![0u16; xs.len()];
    (variants[0].run)(&xs, &mut want);
    assert!(xs
        .iter()
        .zip(&want)
        .all(|(&x, &w)| actlut::tables::GELU_F16[usize::from(x)] == w));
    for v in variants
        .iter()
        .filter(|v| !v.name.starts_with("tract") && v.name != "candle")
    {
        let mut ys = vec![0u16; xs.len()];
        (v.run)(&xs, &mut ys);
        assert!(ys == want, "{} differs from the full table", v.name);
    }
}

fn interleaved(_: &mut Criterion) {
    let smoke = std::env::args().any(|a| a == "--test");
    let variants = actlut_peers::forms::gelu_f16();
    check(&variants);
    let ghz = clock_ghz();
    println!(
        "{}",
        std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|c| {
                c.lines()
                    .find(|l| l.starts_with("model name"))
                    .map(str::to_owned)
            })
            .unwrap_or_default()
    );
    if let Some(g) = ghz {
        println!("clock from a dependent-add chain: {g:.2} GHz");
    }
    let load_rate = distinct_line_loads_per_cycle(ghz);
    if let Some(r) = load_rate {
        println!("loads to distinct L1 lines: {r:.2} per cycle");
    }
    println!(
        "best kernels: U16 {:?}, Compact16 {:?}, CompactWords16 {:?} (CPU class {:?})",
        actlut::kernels::Kernel::best(actlut::kernels::TableShape::U16),
        actlut::kernels::Kernel::best(actlut::kernels::TableShape::Compact16),
        actlut::kernels::Kernel::best(actlut::kernels::TableShape::CompactWords16),
        actlut::kernels::CpuClass::detect()
    );
    println!(
        "gelu_f16 stored: {} bytes in the bytes layout (`compact`), {} in the words layout (`words`, `compact-words`)",
        actlut::tables::compact::GELU_F16.stored_len(),
        actlut_peers::forms::gelu_f16_words().stored_len()
    );
    println!();
    println!("| variant | 1 Ki | 64 Ki | 1 Mi | × full (1 Ki / 64 Ki / 1 Mi) |");
    println!("|---|---:|---:|---:|---|");
    let mut cells: Vec<Vec<(f64, f64)>> = vec![Vec::new(); variants.len()];
    for (_, n) in SIZES {
        let xs = inputs(n);
        let mut ys = vec![0u16; n];
        // About the same time per size: 2,000 rounds of 1 Ki, 200 of 64 Ki,
        // 20 of 1 Mi (candle, at about 15 ns per element, is most of it).
        let rounds = match (smoke, n) {
            (true, _) => 1,
            (_, n) if n <= 1 << 10 => 2000,
            (_, n) if n <= 1 << 16 => 200,
            _ => 20,
        };
        let mut times = vec![Vec::with_capacity(rounds); variants.len()];
        for v in &variants {
            (v.run)(&xs, &mut ys); // warm: candle's pool, tract's scratch
        }
        let mut rng = common::Rng(0x9E37_79B9_7F4A_7C15);
        let mut order: Vec<usize> = (0..variants.len()).collect();
        for _ in 0..rounds {
            // A fresh order every round (seeded): no variant always follows
            // candle, whose thread pool keeps the other core busy for a while
            // after it returns (the variant after it ran up to 2x slower at
            // 1 Mi); and a pause for that pool to go idle.
            for i in (1..order.len()).rev() {
                order.swap(i, (rng.next() % (i as u64 + 1)) as usize);
            }
            if !smoke && n >= 1 << 16 {
                std::thread::sleep(Duration::from_millis(5));
            }
            for &j in &order {
                let v = &variants[j];
                // One untimed call first: each timed call finds the caches as
                // its own previous call left them, not as the variant before
                // it did (candle's 1 Mi tensors evict everything).
                (v.run)(black_box(&xs), black_box(&mut ys));
                let t = Instant::now();
                (v.run)(black_box(&xs), black_box(&mut ys));
                times[j].push(t.elapsed());
            }
        }
        for (j, t) in times.iter_mut().enumerate() {
            t.sort_unstable();
            let ns = |d: Duration| d.as_secs_f64() * 1e9 / n as f64;
            cells[j].push((ns(t[0]), ns(t[t.len() / 2])));
        }
    }
    for (j, v) in variants.iter().enumerate() {
        let c = &cells[j];
        let ratio: Vec<String> = c
            .iter()
            .zip(&cells[0])
            .map(|(a, f)| format!("{:.2}", a.0 / f.0))
            .collect();
        println!(
            "| {} | {:.3} ({:.3}) | {:.3} ({:.3}) | {:.3} ({:.3}) | {} |",
            v.name,
            c[0].0,
            c[0].1,
            c[1].0,
            c[1].1,
            c[2].0,
            c[2].1,
            ratio.join(" / ")
        );
    }
    println!();
    println!(
        "ns per element: the fastest round (the median round in brackets); ratios of the fastest."
    );
    if let Some(g) = ghz {
        println!(
            "full at 64 Ki: {:.3} cycles per element at {g:.2} GHz",
            cells[0][1].0 * g
        );
    }
    if let Some(r) = load_rate {
        // One table load per element, each to its own line where the inputs
        // spread, and the indices' own lines, one per 32 elements: 1 + 1/32
        // loads to distinct lines per element, at best.
        println!(
            "the floor of a full-table lookup here: {:.3} cycles per element (1.03 loads to distinct lines at {r:.2} per cycle)",
            (1.0 + 1.0 / 32.0) / r
        );
    }
    // One 64 Ki decode of the compact form (expand_into).
    let mut out = Box::new([0u16; 65_536]);
    let decode = (0..if smoke { 1 } else { 200 })
        .map(|_| {
            let t = Instant::now();
            actlut::tables::compact::GELU_F16.expand_into(black_box(&mut out));
            t.elapsed()
        })
        .min()
        .unwrap();
    println!(
        "one expand_into of gelu_f16 (65,536 entries): {:.1} µs",
        decode.as_secs_f64() * 1e6
    );
}

fn groups(c: &mut Criterion) {
    let variants = actlut_peers::forms::gelu_f16();
    for (size, n) in SIZES {
        let xs = inputs(n);
        let mut ys = vec![0u16; n];
        let mut g = common::configure(c, &format!("gelu_f16_compact/{size}"), n);
        for v in &variants {
            g.bench_function(v.name.as_str(), |b| {
                b.iter(|| (v.run)(black_box(&xs), black_box(&mut ys)))
            });
        }
        g.finish();
    }
    let mut g = common::configure(c, "expand", 65_536);
    let mut out = Box::new([0u16; 65_536]);
    g.bench_function("gelu_f16/expand_into", |b| {
        b.iter(|| actlut::tables::compact::GELU_F16.expand_into(black_box(&mut out)))
    });
    g.bench_function("gelu_bf16/expand_into", |b| {
        b.iter(|| actlut::tables::compact::GELU_BF16.expand_into(black_box(&mut out)))
    });
    g.finish();
}

criterion_group!(benches, interleaved, groups);
criterion_main!(benches);
