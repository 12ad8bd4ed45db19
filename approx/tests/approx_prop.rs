//! Property test of the quantized functions: for every built-in function, on
//! random grids (random step, random ends) and 100,000 random points per
//! function, `|eval(x) − f(x)| ≤ error_bound()`, against actlut's reference
//! math. A fifth of the points sit within a few ulps of a half-way point
//! `(k + 1/2)·step`, where the `f32` division can round to the farther code.
//!
//! ```text
//! cargo test -p actlut --features alloc --test approx_prop
//! ```
#![cfg(feature = "alloc")]

use actlut::Function;
use actlut_approx::{error_bound, Builtin, QuantizedFunction};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

/// 100 grids × 1,000 points = 100,000 points per function.
const GRIDS: u32 = 100;
const POINTS: usize = 1000;

/// A random grid: a step in [2^-9, 0.5] that is rarely a power of two, and ends
/// in [-12, -0.5] and [0.5, 12].
fn grid() -> impl Strategy<Value = (f32, f32, f32)> {
    (1.0f32 / 512.0..=0.5, -12.0f32..=-0.5, 0.5f32..=12.0)
}

/// A point of [lo, hi] in units of the range: uniform, or near a half-way
/// point (given as a fraction of the codes and an ulp offset).
#[derive(Clone, Debug)]
enum Point {
    Uniform(f32),
    HalfWay(f32, i32),
}

fn point() -> impl Strategy<Value = Point> {
    prop_oneof![
        4 => (0.0f32..=1.0).prop_map(Point::Uniform),
        1 => (0.0f32..1.0, -4i32..=4).prop_map(|(u, d)| Point::HalfWay(u, d)),
    ]
}

fn resolve<S: AsRef<[f32]>>(q: &QuantizedFunction<S>, p: &Point) -> f32 {
    let (lo, hi) = q.range();
    match *p {
        Point::Uniform(u) => (lo + u * (hi - lo)).clamp(lo, hi),
        Point::HalfWay(u, d) => {
            let codes = q.codes();
            let span = (codes.end() - codes.start()) as f32;
            let k = *codes.start() + (u * span) as i32;
            let mid = ((f64::from(k) + 0.5) * f64::from(q.step())) as f32;
            f32::from_bits((mid.to_bits() as i32 + d) as u32).clamp(lo, hi)
        }
    }
}

fn config() -> Config {
    Config {
        cases: GRIDS,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(0x9e37_79b9_7f4a_7c15),
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn every_builtin_stays_within_its_derivative_bound_on_random_points(
        (step, lo, hi) in grid(),
        points in prop::collection::vec(point(), POINTS),
    ) {
        for f in Builtin::ALL {
            let q = QuantizedFunction::builtin(f, step, lo, hi).unwrap();
            let bound = q.error_bound().unwrap();
            prop_assert!(bound >= error_bound(f.sup_abs_derivative(), step).unwrap());
            for p in &points {
                let x = resolve(&q, p);
                let exact = f.eval_f64(f64::from(x));
                let err = (f64::from(q.eval(x)) - exact).abs();
                // The reference is within 2^-40 relative of the exact value.
                prop_assert!(
                    err <= bound + exact.abs() * 2f64.powi(-40) + 1e-300,
                    "{} step {step:e} on [{lo}, {hi}] at x = {x:e}: error {err:e} > bound {bound:e}",
                    f.name()
                );
            }
        }
    }
}

/// The bound is reached: on a fine sweep the largest error is at least half
/// the grid term for the functions with a non-trivial slope (it is no loose
/// bound).
#[test]
fn the_bound_is_nearly_attained() {
    for f in [
        Builtin::new(Function::Gelu).unwrap(),
        Builtin::new(Function::Tanh).unwrap(),
        Builtin::RELU,
        Builtin::new(Function::Sigmoid).unwrap(),
    ] {
        let q = QuantizedFunction::builtin(f, 0.1, -4.0, 4.0).unwrap();
        let xs: Vec<f32> = (0..80_000).map(|i| -4.0 + i as f32 * 1e-4).collect();
        let e = q.max_abs_error(&xs);
        let b = q.error_bound().unwrap();
        assert!(
            e <= b && e >= 0.5 * b,
            "{}: max error {e} vs bound {b}",
            f.name()
        );
    }
}
