//! A transformer FFN block end to end in `f16`: `X·W1 → GELU → ·W2`, with the
//! GELU done each way, and the two matrix products alone.
//!
//! ```text
//! cargo bench --bench ffn
//! cargo bench --bench ffn -- --test   # every case once, untimed
//! ```
//!
//! Shapes: sequence 128, model width 768, hidden width 3072 (BERT-base):
//! X is 128×768, W1 768×3072, W2 3072×768, all row-major `f16`. X is N(0, 1), W1
//! is N(0, 1/768) and W2 N(0, 1/3072), seeded, so that the hidden
//! pre-activations are about N(0, 1) (checked when the bench starts). The
//! products are the `gemm` crate's `f16` kernel, `Parallelism::None`: one
//! thread, like every GELU variant except candle's (which uses its own thread
//! pool for 64 Ki elements and more; the hidden layer has 393,216).
//!
//! Variants: `matmuls_only` (no GELU), and GELU by `actlut` (`gelu::map_f16`),
//! `actlut_computed`, `naive` (`f32` + `libm::erff`), `approx_simd` (AVX2, tanh
//! form) and `candle` (`gelu_erf` on a tensor, with tensor creation and copy).

use std::hint::black_box;

use actlut::Function;
use actlut_peers::{Format, Kernel, Peer};
use criterion::{criterion_group, criterion_main, Criterion};
use half::f16;

mod common;

/// A GELU over an `f16` slice, out of place.
type Gelu = fn(&[f16], &mut [f16]);

const SEQ: usize = 128;
const D: usize = 768;
const FF: usize = 3072;

/// `c = a·b` for row-major `a` (m×k), `b` (k×n), `c` (m×n), on one thread.
///
/// # Panics
///
/// If a slice does not hold its matrix.
fn matmul(m: usize, k: usize, n: usize, a: &[f16], b: &[f16], c: &mut [f16]) {
    assert_eq!((a.len(), b.len(), c.len()), (m * k, k * n, m * n));
    // SAFETY: the three pointers address row-major matrices of the asserted
    // sizes (column stride 1, row stride the column count), `c` does not alias
    // `a` or `b` (it is borrowed mutably), and `read_dst` is false, so `c` is
    // only written: gemm computes c := 1·(a·b).
    unsafe {
        gemm::gemm(
            m,
            n,
            k,
            c.as_mut_ptr(),
            1,
            n as isize,
            false,
            a.as_ptr(),
            1,
            k as isize,
            b.as_ptr(),
            1,
            n as isize,
            f16::ZERO,
            f16::ONE,
            false,
            false,
            false,
            gemm::Parallelism::None,
        );
    }
}

/// Seeded N(0, σ²) values rounded to `f16`.
fn normal(n: usize, sigma: f64, seed: u64) -> Vec<f16> {
    common::normal_bits(Format::F16, n, sigma, seed)
        .into_iter()
        .map(f16::from_bits)
        .collect()
}

struct Ffn {
    x: Vec<f16>,
    w1: Vec<f16>,
    w2: Vec<f16>,
    hidden: Vec<f16>,
    activated: Vec<f16>,
    out: Vec<f16>,
}

impl Ffn {
    fn new() -> Ffn {
        Ffn {
            x: normal(SEQ * D, 1.0, 1),
            w1: normal(D * FF, (1.0 / D as f64).sqrt(), 2),
            w2: normal(FF * D, (1.0 / FF as f64).sqrt(), 3),
            hidden: vec![f16::ZERO; SEQ * FF],
            activated: vec![f16::ZERO; SEQ * FF],
            out: vec![f16::ZERO; SEQ * D],
        }
    }

    /// The block with `gelu` mapping the hidden layer, or without a GELU.
    fn forward(&mut self, gelu: Option<Gelu>) {
        matmul(SEQ, D, FF, &self.x, &self.w1, &mut self.hidden);
        let hidden = match gelu {
            Some(gelu) => {
                gelu(&self.hidden, &mut self.activated);
                &self.activated
            }
            None => &self.hidden,
        };
        matmul(SEQ, FF, D, hidden, &self.w2, &mut self.out);
    }

    /// Checks the first product against an `f64` dot product at a few places,
    /// and that the hidden pre-activations are about N(0, 1).
    fn check(&mut self) {
        matmul(SEQ, D, FF, &self.x, &self.w1, &mut self.hidden);
        for (i, j) in [(0, 0), (5, 17), (127, 3071), (64, 1500)] {
            let exact: f64 = (0..D)
                .map(|l| {
                    f64::from(self.x[i * D + l].to_f32()) * f64::from(self.w1[l * FF + j].to_f32())
                })
                .sum();
            let got = f64::from(self.hidden[i * FF + j].to_f32());
            assert!(
                (got - exact).abs() < 0.01 + 0.01 * exact.abs(),
                "h[{i}][{j}] = {got}, expected {exact}"
            );
        }
        let n = self.hidden.len() as f64;
        let mean = self
            .hidden
            .iter()
            .map(|h| f64::from(h.to_f32()))
            .sum::<f64>()
            / n;
        let var = self
            .hidden
            .iter()
            .map(|h| (f64::from(h.to_f32()) - mean).powi(2))
            .sum::<f64>()
            / n;
        assert!(
            mean.abs() < 0.05 && (0.8..1.25).contains(&var),
            "hidden mean {mean}, variance {var}"
        );
    }
}

fn ffn(c: &mut Criterion) {
    let mut ffn = Ffn::new();
    ffn.check();
    let mut g = common::configure(c, &format!("ffn_f16/seq{SEQ}_d{D}_ff{FF}"), SEQ * FF);

    g.bench_function("matmuls_only", |b| b.iter(|| ffn.forward(black_box(None))));
    let f16_kernel = |kernel| match kernel {
        Kernel::F16(k) => k,
        Kernel::Bf16(_) => unreachable!("f16 kernels only"),
    };
    let mut variants = vec![(
        "actlut",
        f16_kernel(Kernel::actlut(Function::Gelu, Format::F16)),
    )];
    for peer in Peer::all(Function::Gelu, Format::F16) {
        if matches!(
            peer.name,
            "actlut_computed" | "naive" | "approx_simd" | "candle"
        ) {
            variants.push((peer.name, f16_kernel(peer.kernel)));
        }
    }
    for (name, gelu) in variants {
        g.bench_function(format!("gelu_{name}"), |b| {
            b.iter(|| ffn.forward(black_box(Some(gelu))))
        });
    }
    g.finish();
}

criterion_group!(benches, ffn);
criterion_main!(benches);
