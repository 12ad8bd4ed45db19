//! Deterministic tests of `actlut_approx`: the known derivative bounds, the
//! table entries, the grid's coverage of `[lo, hi]` and its half-way points,
//! the tails, the LNS exp table, and every documented error.
//!
//! The randomized property tests are in `approx_prop.rs` (quantized functions)
//! and `approx_lse.rs` (log-sum-exp), both behind the `alloc` feature.

use actlut::Function;
use actlut_approx::{
    error_bound, lse_error_bound, step_for_tolerance, table_bytes, ApproxError, Builtin, ExpTable,
    QuantizedFunction,
};

/// Half an ulp of `|v|` in `f32`.
fn half_ulp(v: f32) -> f64 {
    let a = v.abs();
    0.5 * (f64::from(f32::from_bits(a.to_bits() + 1)) - f64::from(a))
}

/// `sup|f'|` is an upper bound on every secant slope (mean value theorem) on a
/// fine grid over [-20, 20], and it is attained to 2.5e-4 (it is no loose
/// bound; at a kink the secant over h = 2^-13 falls short by about h).
#[test]
fn sup_abs_derivative_bounds_every_secant_slope_and_is_tight() {
    let h = 1.0 / 8192.0;
    for f in Builtin::ALL {
        let sup = f.sup_abs_derivative();
        let mut largest = 0.0f64;
        let mut x = -20.0f64;
        let mut fx = f.eval_f64(x);
        while x < 20.0 {
            let (x1, f1) = (x + h, f.eval_f64(x + h));
            // Both values within 2^-40 relative: the slope within 2^-39·|f|/h.
            let slack = (fx.abs() + f1.abs()) * 2f64.powi(-40) / h + 1e-300;
            let slope = (f1 - fx).abs() / h;
            assert!(
                slope <= sup + slack,
                "{}: secant slope {slope} on [{x}, {x1}] exceeds sup|f'| = {sup}",
                f.name()
            );
            largest = largest.max(slope);
            (x, fx) = (x1, f1);
        }
        assert!(
            largest >= sup * (1.0 - 2.5e-4),
            "{}: sup|f'| = {sup} but the largest secant slope is {largest}",
            f.name()
        );
    }
}

#[test]
fn builtin_names_round_trip_and_unknown_names_are_errors() {
    for f in Builtin::ALL {
        assert_eq!(Builtin::from_name(f.name()), Some(f));
        assert_eq!(f.name().parse::<Builtin>(), Ok(f));
    }
    assert_eq!(
        "gelu-tanh".parse::<Builtin>(),
        Ok(Builtin::new(Function::GeluTanh).unwrap())
    );
    for bad in ["exp", "log", "rsqrt", "GELU", ""] {
        assert_eq!(
            bad.parse::<Builtin>(),
            Err(ApproxError::UnknownFunction),
            "{bad:?}"
        );
    }
    assert!(ApproxError::UnknownFunction.to_string().contains("relu"));
}

/// `Builtin::ALL` is every activation whose derivative is bounded, in the order of
/// `Function::ALL` (relu among them): derived, not listed.
#[test]
fn builtins_are_the_activations_with_a_bounded_derivative() {
    let bounded: Vec<Builtin> = Function::ALL
        .into_iter()
        .filter(|a| a.sup_abs_derivative().is_some())
        .map(|a| Builtin::try_from(a).unwrap())
        .collect();
    assert_eq!(Builtin::ALL[..], bounded[..]);
    assert!(Builtin::ALL.contains(&Builtin::RELU));
    for a in Function::ALL {
        assert_eq!(
            Builtin::new(a).is_some(),
            bounded.iter().any(|b| b.function() == a)
        );
    }
    assert_eq!(
        Builtin::try_from(Function::Exp),
        Err(ApproxError::UnknownFunction)
    );
    for f in Builtin::ALL {
        assert!(ApproxError::UnknownFunction.to_string().contains(f.name()));
    }
}

/// Every entry is the correctly rounded function at the `f32` grid point,
/// the computed path of actlut: `lookup(k) == computed::f32(act, k·step)`.
#[test]
fn table_entries_are_the_computed_path_at_the_grid_points() {
    let q = QuantizedFunction::<[f32; 1201]>::builtin_array(
        Builtin::new(Function::Gelu).unwrap(),
        0.01,
        -6.0,
        6.0,
    )
    .unwrap();
    assert_eq!(q.codes(), -600..=600);
    for k in q.codes() {
        let x = k as f32 * 0.01;
        assert_eq!(
            q.lookup(k).unwrap().to_bits(),
            actlut::computed::gelu_f32(x).to_bits(),
            "code {k}"
        );
    }
    let r = QuantizedFunction::<[f32; 9]>::builtin_array(Builtin::RELU, 0.5, -2.0, 2.0).unwrap();
    assert_eq!(r.table(), &[0.0, 0.0, 0.0, 0.0, 0.0, 0.5, 1.0, 1.5, 2.0]);
}

/// Checks `|eval(x) − f(x)| ≤ bound` for a built-in table at `x`.
fn check_point<S: AsRef<[f32]>>(q: &QuantizedFunction<S>, f: Builtin, x: f32) {
    let bound = q.error_bound().unwrap();
    let exact = f.eval_f64(f64::from(x));
    let err = (f64::from(q.eval(x)) - exact).abs();
    // The reference itself is within 2^-40 relative.
    assert!(
        err <= bound + exact.abs() * 2f64.powi(-40) + 1e-300,
        "{} step {} at x = {x:e}: error {err:e} > bound {bound:e}",
        f.name(),
        q.step()
    );
}

/// Near the half-way points `(k + 1/2)·step`, `x / step` rounded in `f32` can
/// land on the other side: the bound covers the code that results. The ends of
/// the range and their neighbours are in the table.
#[test]
fn the_bound_holds_at_half_way_points_and_at_the_ends() {
    // 0.1 is not a power of two: x / 0.1 rounds.
    let q = QuantizedFunction::<[f32; 121]>::builtin_array(
        Builtin::new(Function::Silu).unwrap(),
        0.1,
        -6.0,
        6.0,
    )
    .unwrap();
    let s = QuantizedFunction::<[f32; 2049]>::builtin_array(
        Builtin::new(Function::Tanh).unwrap(),
        1.0 / 128.0,
        -8.0,
        8.0,
    )
    .unwrap();
    for k in -60..60 {
        let mid = (f64::from(k) + 0.5) * f64::from(0.1f32);
        let mut x = mid as f32;
        for _ in 0..4 {
            x = f32::from_bits(x.to_bits().wrapping_sub(1));
        }
        for _ in 0..9 {
            check_point(&q, Builtin::new(Function::Silu).unwrap(), x);
            x = f32::from_bits(x.to_bits().wrapping_add(1));
        }
    }
    for k in -1024..1024 {
        let x = (k as f32 + 0.5) / 128.0;
        for x in [
            x,
            f32::from_bits(x.to_bits() - 1),
            f32::from_bits(x.to_bits() + 1),
        ] {
            check_point(&s, Builtin::new(Function::Tanh).unwrap(), x);
        }
    }
    for (lo, hi) in [(-6.0f32, 6.0f32)] {
        for x in [lo, hi, lo * 0.999_999_9, hi * 0.999_999_9] {
            check_point(&q, Builtin::new(Function::Silu).unwrap(), x);
        }
    }
}

/// A range whose ends are not grid points: the codes still cover it.
#[test]
fn a_range_between_grid_points_is_covered() {
    let q = QuantizedFunction::<[f32; 6]>::builtin_array(
        Builtin::new(Function::Tanh).unwrap(),
        0.3,
        -0.7,
        0.8,
    )
    .unwrap();
    assert_eq!(q.codes(), -2..=3);
    let (lo, hi) = q.range();
    let mut x = lo;
    while x <= hi {
        check_point(&q, Builtin::new(Function::Tanh).unwrap(), x);
        x += 0.001;
    }
}

#[test]
fn tails_follow_the_asymptotes_of_builtins_and_the_last_secant_of_user_functions() {
    let relu =
        QuantizedFunction::<[f32; 17]>::builtin_array(Builtin::RELU, 0.5, -4.0, 4.0).unwrap();
    assert_eq!(relu.eval(1e6), 1e6);
    assert_eq!(relu.eval(-1e6), 0.0);
    assert_eq!(relu.eval(f32::INFINITY), f32::INFINITY);
    assert_eq!(relu.eval(f32::NEG_INFINITY), 0.0);
    assert!(relu.eval(f32::NAN).is_nan());

    let gelu = QuantizedFunction::<[f32; 1025]>::builtin_array(
        Builtin::new(Function::Gelu).unwrap(),
        1.0 / 64.0,
        -8.0,
        8.0,
    )
    .unwrap();
    let bound = gelu.error_bound().unwrap();
    for x in [-1e30f32, -1e3, -100.0, -9.0, 9.0, 100.0, 1e3, 3e5] {
        check_point(&gelu, Builtin::new(Function::Gelu).unwrap(), x);
    }
    // sigmoid and tanh level off: constant tails, never beyond their range.
    let sig = QuantizedFunction::<[f32; 1025]>::builtin_array(
        Builtin::new(Function::Sigmoid).unwrap(),
        1.0 / 64.0,
        -8.0,
        8.0,
    )
    .unwrap();
    assert_eq!(sig.tail_slopes(), (0.0, 0.0));
    assert!(sig.eval(1e30) <= 1.0 && sig.eval(-1e30) >= 0.0);
    // Outside [-8, 8] the tails stay within the in-range bound for every
    // builtin but softsign, which approaches ±1 only as 1/|x|: its tail error
    // is up to 1/(1 + 8); and situ (beta 4), whose 4·tanh(x/4)·sigmoid(x) is
    // 4·(1 − tanh 2) = 0.1457… below 4 at 8.
    for f in Builtin::ALL {
        let q = QuantizedFunction::<[f32; 1025]>::builtin_array(f, 1.0 / 64.0, -8.0, 8.0).unwrap();
        let xs: Vec<f32> = (0..4000).map(|i| -1000.0 + i as f32 * 0.5).collect();
        let e = q.max_abs_error(&xs);
        let allowed = q.error_bound().unwrap()
            + if f == Builtin::new(Function::Softsign).unwrap() {
                1.0 / 9.0
            } else if f == Builtin::new(Function::Situ).unwrap() {
                0.146
            } else {
                0.0
            };
        assert!(e <= allowed, "{}: {e} outside the range", f.name());
    }
    assert!(bound < 0.009);

    let line = QuantizedFunction::<[f32; 5]>::new_array(|x| 2.0 * x + 1.0, 0.5, 0.0, 2.0).unwrap();
    assert_eq!(line.tail_slopes(), (2.0, 2.0));
    assert_eq!(line.eval(-10.0), -19.0);
    assert_eq!(line.eval(10.0), 21.0);
    assert!(line.error_bound().is_none());
    assert_eq!(line.max_abs_error(&[-10.0, 10.0, 0.5]), 0.0);
}

#[test]
fn lookup_outside_the_codes_is_an_error_not_a_clip() {
    let q = QuantizedFunction::<[f32; 17]>::builtin_array(
        Builtin::new(Function::Tanh).unwrap(),
        0.5,
        -4.0,
        4.0,
    )
    .unwrap();
    for code in [-9, 9, i32::MIN, i32::MAX] {
        assert_eq!(
            q.lookup(code),
            Err(ApproxError::CodeOutOfRange {
                code: i64::from(code),
                min: -8,
                max: 8
            })
        );
    }
    assert!(q.lookup(-8).is_ok() && q.lookup(8).is_ok());
    let msg = q.lookup(9).unwrap_err().to_string();
    assert!(msg.contains("code 9") && msg.contains("-8..=8"), "{msg}");
}

fn param_name(e: ApproxError) -> &'static str {
    match e {
        ApproxError::InvalidParameter { name, .. } => name,
        other => panic!("expected InvalidParameter, got {other:?}"),
    }
}

#[test]
fn bad_grids_are_errors_that_name_the_problem() {
    let build = |step, lo, hi| {
        QuantizedFunction::<[f32; 3]>::builtin_array(
            Builtin::new(Function::Tanh).unwrap(),
            step,
            lo,
            hi,
        )
    };
    for step in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 0.0, -0.0, -1.0] {
        let e = build(step, -1.0, 1.0).unwrap_err();
        assert_eq!(param_name(e), "step");
        assert!(e.to_string().starts_with("step is"), "{e}");
    }
    for v in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        assert_eq!(param_name(build(1.0, v, 1.0).unwrap_err()), "lo");
        assert_eq!(param_name(build(1.0, -1.0, v).unwrap_err()), "hi");
    }
    assert!(matches!(
        build(1.0, 1.0, 1.0),
        Err(ApproxError::EmptyRange { lo: 1.0, hi: 1.0 })
    ));
    assert!(matches!(
        build(1.0, 2.0, -2.0),
        Err(ApproxError::EmptyRange { .. })
    ));
    let e = build(10.0, -1.0, 1.0).unwrap_err();
    assert_eq!(
        e,
        ApproxError::SingleCode {
            step: 10.0,
            lo: -1.0,
            hi: 1.0
        }
    );
    assert!(e.to_string().contains("single code"));
    assert!(matches!(
        build(1e-30, -1.0, 1.0),
        Err(ApproxError::TooManyCodes { .. })
    ));
    assert!(matches!(
        build(f32::MIN_POSITIVE, -1.0, 1.0),
        Err(ApproxError::TooManyCodes { .. })
    ));
    assert_eq!(
        build(0.5, -1.0, 1.0).unwrap_err(),
        ApproxError::WrongLength {
            expected: 5,
            actual: 3
        }
    );
    assert!(build(0.5, -1.0, 1.0)
        .unwrap_err()
        .to_string()
        .contains("[f32; 5]"));

    let e = QuantizedFunction::<[f32; 5]>::new_array(|x| 1.0 / x, 0.5, -1.0, 1.0).unwrap_err();
    assert!(
        matches!(e, ApproxError::NonFiniteValue { x, .. } if x == 0.0),
        "{e:?}"
    );
    let e =
        QuantizedFunction::<[f32; 5]>::new_array(|x| (x - 1.0).ln(), 0.5, -1.0, 1.0).unwrap_err();
    assert!(
        matches!(e, ApproxError::NonFiniteValue { x, .. } if x == -1.0),
        "{e:?}"
    );
    assert!(e.to_string().contains("not finite"));

    let q = QuantizedFunction::<[f32; 5]>::builtin_array(
        Builtin::new(Function::Tanh).unwrap(),
        0.5,
        -1.0,
        1.0,
    )
    .unwrap();
    let mut ys = [0.0; 2];
    assert!(matches!(
        q.map(&[1.0], &mut ys),
        Err(ApproxError::LengthMismatch {
            left_len: 1,
            right_len: 2,
            ..
        })
    ));
}

/// A bound computed from a NaN, negative or infinite argument would bound
/// nothing (NaN compares false, a negative bound is below every error): the
/// module promises an `ApproxError` naming the argument instead.
#[test]
fn error_bounds_reject_bad_arguments() {
    let invalid = |r: Result<f64, ApproxError>, which: &str| match r {
        Err(ApproxError::InvalidParameter { name, .. }) => assert_eq!(name, which),
        other => panic!("expected InvalidParameter {{ name: {which:?} }}, got {other:?}"),
    };
    invalid(error_bound(f64::NAN, 0.5), "sup_abs_derivative");
    invalid(error_bound(-1.0, 0.5), "sup_abs_derivative");
    invalid(error_bound(f64::INFINITY, 0.5), "sup_abs_derivative");
    invalid(error_bound(1.0, -0.1), "step");
    invalid(error_bound(1.0, 0.0), "step");
    invalid(error_bound(1.0, f32::NAN), "step");
    invalid(error_bound(1.0, f32::INFINITY), "step");
    // A constant function's bound is 0, not an error.
    assert_eq!(error_bound(0.0, 0.5), Ok(0.0));

    let q = QuantizedFunction::<[f32; 9]>::new_array(|x| 3.0 * x, 0.25, -1.0, 1.0).unwrap();
    invalid(q.error_bound_with(-1.0), "sup_abs_derivative");
    invalid(q.error_bound_with(f64::NAN), "sup_abs_derivative");
    invalid(q.error_bound_with(f64::INFINITY), "sup_abs_derivative");
    let b = q.error_bound_with(3.0).unwrap();
    assert!(b >= 3.0 * 0.125 && b.is_finite());
    assert_eq!(
        error_bound(f64::NAN, 0.5).unwrap_err().to_string(),
        "sup_abs_derivative is NaN: expected finite and non-negative"
    );
}

#[test]
fn step_arithmetic() {
    assert_eq!(error_bound(2.0, 0.5), Ok(0.5));
    assert_eq!(table_bytes(0.5, -1.0, 1.0, 4), Ok(20));
    assert_eq!(table_bytes(1.0 / 256.0, -8.0, 8.0, 2), Ok(4097 * 2));
    assert!(matches!(
        table_bytes(1e-30, -1.0, 1.0, 4),
        Err(ApproxError::TooManyCodes { .. })
    ));
    assert!(matches!(
        table_bytes(0.5, -1.0, 1.0, usize::MAX),
        Err(ApproxError::TooManyCodes { .. })
    ));
    assert!(matches!(
        table_bytes(f32::NAN, -1.0, 1.0, 4),
        Err(ApproxError::InvalidParameter { .. })
    ));

    for f in Builtin::ALL {
        let sup = f.sup_abs_derivative();
        for tol in [1e-1, 1e-3, 1e-5, 3.3e-7] {
            let step = step_for_tolerance(tol, sup).unwrap();
            assert!(error_bound(sup, step).unwrap() <= tol);
            let next = f32::from_bits(step.to_bits() + 1);
            assert!(
                error_bound(sup, next).unwrap() > tol * (1.0 - 1e-7),
                "{} {tol}: step {step} is not the largest",
                f.name()
            );
        }
    }
    assert_eq!(
        param_name(step_for_tolerance(0.0, 1.0).unwrap_err()),
        "tolerance"
    );
    assert_eq!(
        param_name(step_for_tolerance(f64::NAN, 1.0).unwrap_err()),
        "tolerance"
    );
    assert_eq!(
        param_name(step_for_tolerance(1e-3, 0.0).unwrap_err()),
        "sup_abs_derivative"
    );
    assert_eq!(
        param_name(step_for_tolerance(1e-3, f64::INFINITY).unwrap_err()),
        "sup_abs_derivative"
    );
    assert_eq!(
        param_name(step_for_tolerance(1e-300, 1e300).unwrap_err()),
        "step"
    );
    assert_eq!(step_for_tolerance(1e300, 1e-300), Ok(f32::MAX));
}

/// The full bound exceeds the grid term by the f32 rounding only.
#[test]
fn the_table_bound_is_the_grid_term_plus_small_rounding_terms() {
    for f in Builtin::ALL {
        let q = QuantizedFunction::<[f32; 1025]>::builtin_array(f, 1.0 / 64.0, -8.0, 8.0).unwrap();
        let grid = error_bound(f.sup_abs_derivative(), 1.0 / 64.0).unwrap();
        let b = q.error_bound().unwrap();
        assert!(b >= grid && b <= grid + 4e-6, "{}: {b} vs {grid}", f.name());
    }
}

#[test]
fn exp_table_entries_are_rounded_exponentials_and_gather_checks_codes() {
    let t = ExpTable::<[f32; 4096]>::new_array(1.0 / 32.0, -64.0).unwrap();
    for (c, &v) in t.table().iter().enumerate() {
        let arg = t.log_value(c as u32);
        assert_eq!(arg, -64.0 + c as f64 / 32.0);
        let exact = libm::exp(arg);
        assert!(
            (f64::from(v) - exact).abs() <= half_ulp(v) + exact * 2f64.powi(-39),
            "code {c}: {v:e} vs {exact:e}"
        );
    }
    let mut out = [0.0f32; 3];
    t.gather(&[0u8, 1, 255], &mut out).unwrap();
    assert_eq!(
        out,
        [t.get(0).unwrap(), t.get(1).unwrap(), t.get(255).unwrap()]
    );
    t.gather(&[4095u16, 2048, 0], &mut out).unwrap();
    assert_eq!(out[1], 1.0);
    t.gather(&[4095u32, 0, 7], &mut out).unwrap();
    assert_eq!(
        t.gather(&[0u32, 4096, 7], &mut out),
        Err(ApproxError::CodeOutOfRange {
            code: 4096,
            min: 0,
            max: 4095
        })
    );
    assert!(matches!(
        t.gather(&[0u32], &mut out),
        Err(ApproxError::LengthMismatch {
            left: "codes",
            right: "out",
            ..
        })
    ));
    assert!(t.get(u32::MAX).is_err());

    assert_eq!(
        param_name(ExpTable::<[f32; 4]>::new_array(f32::NAN, 0.0).unwrap_err()),
        "log_step"
    );
    assert_eq!(
        param_name(ExpTable::<[f32; 4]>::new_array(0.0, 0.0).unwrap_err()),
        "log_step"
    );
    assert_eq!(
        param_name(ExpTable::<[f32; 4]>::new_array(1.0, f32::INFINITY).unwrap_err()),
        "lo_log"
    );
    assert_eq!(
        param_name(ExpTable::<[f32; 1]>::new_array(1.0, 0.0).unwrap_err()),
        "codes"
    );
    let e = ExpTable::<[f32; 4]>::new_array(1.0, 86.0).unwrap_err();
    assert!(
        matches!(e, ApproxError::NonFiniteValue { value, .. } if value == f32::INFINITY),
        "{e:?}"
    );
    // Underflow is not an error: the values round to subnormals and zero.
    let low = ExpTable::<[f32; 4]>::new_array(1.0, -105.0).unwrap();
    assert_eq!(low.get(0).unwrap(), 0.0);
    assert!(low.get(3).unwrap() > 0.0);
}

#[test]
fn lse_error_bound_validates_its_arguments_without_allocating() {
    assert_eq!(lse_error_bound(12, 24.0, &[], None), Ok(24.0 / 8192.0));
    assert_eq!(lse_error_bound(1, 2.0, &[], None), Ok(0.5));
    for bits in [0, 25, u32::MAX] {
        assert_eq!(
            lse_error_bound(bits, 24.0, &[], None),
            Err(ApproxError::InvalidBits { bits, max: 24 })
        );
    }
    for span in [0.0, -1.0, f32::NAN, f32::INFINITY] {
        assert_eq!(
            param_name(lse_error_bound(8, span, &[], None).unwrap_err()),
            "span"
        );
    }
    assert!(matches!(
        lse_error_bound(8, 8.0, &[0.0, 1.0], Some(&[1.0])),
        Err(ApproxError::LengthMismatch {
            left_len: 2,
            right_len: 1,
            ..
        })
    ));
    for w in [-1.0, f64::NAN, f64::INFINITY, -f64::MIN_POSITIVE] {
        let e = lse_error_bound(8, 8.0, &[0.0, 1.0], Some(&[1.0, w])).unwrap_err();
        assert!(
            matches!(e, ApproxError::InvalidWeight { index: 1, .. }),
            "{e:?}"
        );
        assert!(e.to_string().contains("weights[1]"));
    }
    assert_eq!(
        lse_error_bound(8, 8.0, &[0.0, f32::NAN], None),
        Err(ApproxError::NanScore { index: 1 })
    );
}
