//! Derivatives: `f'` of every function, correctly rounded like `f`.
//!
//! A derivative is a function of one input like any other: each function's file holds, beside
//! its `FACTS`, the `DERIVATIVE` facts of `f'` (its definition, its values at ±0 and ±inf, its
//! tail-stable evaluation with a proven error bound, its refined evaluation for hard cases,
//! taking the op's constants), and the one evaluation sequence ([`settle`](crate::settle))
//! settles them exactly as it settles the functions. A derivative is an [`Op`](crate::Op) with
//! [`with_derivative(true)`](crate::Op::with_derivative), evaluated by the functions' own entry
//! points: [`eval_op`](crate::eval_op), [`fill_table`](crate::fill_table),
//! [`eval_op_f32`](crate::eval_op_f32), [`evaluate`](crate::evaluate) and
//! [`evaluate_refined`](crate::evaluate_refined) (tested against MPFR). This module lists the
//! pairs whose derivative has a table.
//!
//! docs/SEMANTICS.md ("Derivatives") is the contract: the exact `f'` at the exact input, rounded
//! once (an underflowed `f'` keeps the sign of the exact value, so `gelu'` at a large negative
//! input is −0); at a kink the limit from the left (`hardswish'(−3) = 0`, `hardswish'(3) = 3/2`,
//! `elu'(0) = alpha`, `selu'(0) = λα`, `relu'(0) = 0`, `leaky_relu'(0) = alpha`), at the end of
//! a domain the limit from inside it (`log'(±0) = +inf`, `rsqrt'(±0) = −inf`); NaN as for the
//! functions.

use crate::{Format, Function};

/// Every (function, format) pair whose derivative has a built-in table (at the function's
/// default constants), in the order of [`table_pairs`](crate::table_pairs): the pairs of
/// `table_pairs`, since a derivative is NaN exactly where its function is (log and rsqrt below
/// zero: no table over FP6 and FP4, which have no NaN). A derivative at other constants, or of
/// a function with a constant without default, is [`fill_table`](crate::fill_table)'s.
///
/// ```
/// use actlut_core::{derivative_table_pairs, Format, Function};
/// assert!(derivative_table_pairs().any(|p| p == (Function::Gelu, Format::Fp4E2M1)));
/// assert!(!derivative_table_pairs().any(|p| p == (Function::Log, Format::Fp4E2M1)));
/// assert!(!derivative_table_pairs().any(|p| p.0 == Function::Softcap));
/// ```
pub fn derivative_table_pairs() -> impl Iterator<Item = (Function, Format)> {
    Format::ALL.into_iter().flat_map(|format| {
        Function::ALL
            .into_iter()
            .filter(move |&f| f.has_defaults() && format.can_represent_derivative(f))
            .map(move |function| (function, format))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{eval_op, eval_op_traced, fill_table, Op, Path};
    use std::string::ToString;
    use std::vec;

    fn derivative(function: Function) -> Op {
        Op::from(function).with_derivative(true)
    }

    fn eval_derivative(function: Function, format: Format, bits: u16) -> u16 {
        eval_op(&derivative(function), format, bits).unwrap()
    }

    /// Every input of every derivative table is settled (an unsettled input is an `Err`), and
    /// the table does not depend on the path that builds it: filled whole, and entry by entry
    /// through the traced evaluation. The hard cases are counted and printed
    /// (`cargo test -p actlut-core -- --nocapture`).
    #[test]
    fn every_input_of_every_derivative_table_is_settled_and_deterministic() {
        for (function, format) in derivative_table_pairs() {
            let op = derivative(function);
            let mut table = vec![0u16; format.entries()];
            fill_table(&op, format, &mut table).unwrap();
            let mut refined = 0;
            for (i, &entry) in table.iter().enumerate() {
                let (bits, path) = eval_op_traced(&op, format, i as u16).unwrap();
                assert_eq!(
                    bits,
                    entry,
                    "{}_derivative_{} at {i:#06x}",
                    function.name(),
                    format.name()
                );
                refined += usize::from(path == Path::Refined);
            }
            if refined > 0 {
                std::println!(
                    "{}_derivative_{}: {refined} hard cases",
                    function.name(),
                    format.name()
                );
            }
        }
    }

    /// The pairs with a built-in derivative table are those with a built-in table: every
    /// format × function with defaults but the derivatives of log and rsqrt (NaN below zero)
    /// over the formats without NaN.
    #[test]
    fn derivative_table_pairs_skip_exactly_log_and_rsqrt_over_formats_without_nan() {
        let pairs: std::vec::Vec<_> = derivative_table_pairs().collect();
        assert_eq!(pairs, crate::table_pairs().collect::<std::vec::Vec<_>>());
        for format in Format::ALL {
            for function in Function::ALL {
                let nan_below_zero = matches!(function, Function::Log | Function::Rsqrt);
                let want = function.has_defaults() && (format.has_nan() || !nan_below_zero);
                assert_eq!(
                    pairs.contains(&(function, format)),
                    want,
                    "{function:?} {format:?}"
                );
                assert_eq!(function.derivative_needs_nan(), nan_below_zero);
            }
        }
        let with_defaults = Function::ALL.iter().filter(|f| f.has_defaults()).count();
        assert_eq!(pairs.len(), Format::ALL.len() * with_defaults - 2 * 3);
    }

    #[test]
    fn a_derivative_table_that_would_need_a_nan_is_refused() {
        let e = eval_op(&derivative(Function::Rsqrt), Format::Fp4E2M1, 0x2).unwrap_err();
        assert!(e.to_string().starts_with(
            "there is no rsqrt_derivative_fp4_e2m1 table: rsqrt_derivative is NaN for some inputs"
        ));
    }

    /// The special values and kinks of docs/SEMANTICS.md ("Derivatives"), written out by hand
    /// as f16 bits: (function, input, output).
    #[test]
    fn special_values_and_kinks_follow_the_semantics() {
        use Function::*;
        const POS_INF: u16 = 0x7C00;
        const NEG_INF: u16 = 0xFC00;
        const NEG_ZERO: u16 = 0x8000;
        const ONE: u16 = 0x3C00;
        const HALF: u16 = 0x3800;
        const NAN: u16 = 0x7E00;
        let cases: &[(Function, u16, u16)] = &[
            // At ±0: f'(0).
            (Gelu, 0x0000, HALF),
            (Gelu, NEG_ZERO, HALF),
            (GeluTanh, NEG_ZERO, HALF),
            (Sigmoid, NEG_ZERO, 0x3400), // 1/4
            (Tanh, NEG_ZERO, ONE),
            (Silu, NEG_ZERO, HALF),
            (Mish, NEG_ZERO, 0x38CD), // 3/5
            (Softplus, NEG_ZERO, HALF),
            (Softsign, NEG_ZERO, ONE),
            (Erf, NEG_ZERO, 0x3C83), // 2/√π
            (Exp, NEG_ZERO, ONE),
            (GeluQuick, NEG_ZERO, HALF),
            (Logsigmoid, NEG_ZERO, HALF),
            (Hardswish, NEG_ZERO, HALF),
            (Hardsigmoid, NEG_ZERO, 0x3155), // 1/6
            // Kinks: the limit from the left.
            (Elu, 0x0000, ONE),
            (Elu, NEG_ZERO, ONE),
            (Selu, 0x0000, 0x3F08), // λα, not λ
            (Selu, NEG_ZERO, 0x3F08),
            (Selu, ONE, 0x3C34),         // λ
            (Hardswish, 0xC200, 0x0000), // at −3: 0, not −1/2
            (Hardswish, 0x4200, 0x3E00), // at 3: 3/2, not 1
            (Hardswish, 0x4201, ONE),
            (Hardswish, 0xBE00, 0x0000),   // x/3 + 1/2 is +0 at −3/2
            (Hardsigmoid, 0xC200, 0x0000), // at −3: 0
            (Hardsigmoid, 0xC1FF, 0x3155),
            (Hardsigmoid, 0x4200, 0x3155), // at 3: 1/6
            (Hardsigmoid, 0x4201, 0x0000),
            // The ends of a domain: the limit from inside it.
            (Log, 0x0000, POS_INF),
            (Log, NEG_ZERO, POS_INF),
            (Rsqrt, 0x0000, NEG_INF),
            (Rsqrt, NEG_ZERO, NEG_INF),
            (Rsqrt, 0x4400, 0xAC00), // rsqrt'(4) = −1/16
            // Below the domain and at −inf: the default NaN.
            (Log, 0xBC00, NAN),
            (Log, NEG_INF, NAN),
            (Rsqrt, 0xBC00, NAN),
            (Rsqrt, NEG_INF, NAN),
            // Limits at ±inf; those from below are −0.
            (Gelu, NEG_INF, NEG_ZERO),
            (Gelu, POS_INF, ONE),
            (GeluTanh, NEG_INF, NEG_ZERO),
            (Silu, NEG_INF, NEG_ZERO),
            (Mish, NEG_INF, NEG_ZERO),
            (GeluQuick, NEG_INF, NEG_ZERO),
            (Sigmoid, NEG_INF, 0x0000),
            (Tanh, POS_INF, 0x0000),
            (Elu, NEG_INF, 0x0000),
            (Selu, POS_INF, 0x3C34),
            (Logsigmoid, NEG_INF, ONE),
            (Logsigmoid, POS_INF, 0x0000),
            (Exp, POS_INF, POS_INF),
            (Log, POS_INF, 0x0000),
            (Rsqrt, POS_INF, NEG_ZERO),
            // An underflowed derivative keeps the sign of the exact value.
            (Gelu, 0xD400, NEG_ZERO),  // gelu'(−64) ≈ −64·φ(64) < 0
            (Silu, 0xE400, NEG_ZERO),  // silu'(−1024) ≈ −1023·e^−1024
            (Sigmoid, 0x6400, 0x0000), // sigmoid'(1024) > 0
            // A NaN input: the same NaN, quieted.
            (Gelu, 0x7C01, 0x7E01),
            (Log, 0xFC01, 0xFE01),
        ];
        for &(function, x, want) in cases {
            assert_eq!(
                eval_derivative(function, Format::F16, x),
                want,
                "{}' at {x:#06x}",
                function.name()
            );
        }
        // e4m3: rsqrt'(64) = −2^-10 is the midpoint between −0 and the smallest subnormal
        // −2^-9: an exact tie, to even (−0).
        assert_eq!(eval_derivative(Rsqrt, Format::Fp8E4M3, 0x68), 0x80);
        // bf16: gelu'(−20) ≈ −1.1e-87, below half the smallest subnormal: −0.
        assert_eq!(eval_derivative(Gelu, Format::Bf16, 0xC1A0), 0x8000);
        // E8M0 has no zero: a tiny positive derivative is its smallest value 2^-127 (0x00),
        // an exact zero and a negative one its NaN.
        assert_eq!(eval_derivative(Sigmoid, Format::Fp8E8M0Fnu, 0x89), 0x00); // x = 1024
        assert_eq!(eval_derivative(Hardsigmoid, Format::Fp8E8M0Fnu, 0x81), 0xFF); // x = 4
        assert_eq!(eval_derivative(Rsqrt, Format::Fp8E8M0Fnu, 0x81), 0xFF);
        // fnuz has no −0: the same limit is +0.
        assert_eq!(eval_derivative(Gelu, Format::Fp8E4M3Fnuz, 0xD8), 0x00); // x = −8
    }

    /// gelu_10 at its clamp's own value: gelu(10) = 10 − 7.6·10⁻²³ lies below max = 10, closer
    /// than any evaluation's bound, so the derivative is gelu'(10) = 1 + 7.0·10⁻²² (1 in f16),
    /// not the clamp's 0 and not unsettled; likewise at min = −10, where gelu(−10) ≈ −7.6·10⁻²²
    /// lies far inside.
    #[test]
    fn gelu_clipped_derivative_at_its_constants_own_values() {
        let op: Op = "gelu_clipped_derivative(min=-10,max=10)".parse().unwrap();
        // x = 10 in f16 and bf16: 1.
        assert_eq!(eval_op(&op, Format::F16, 0x4900), Ok(0x3C00));
        assert_eq!(eval_op(&op, Format::Bf16, 0x4120), Ok(0x3F80));
        // x = −10: gelu'(−10) ≈ −7.6e-22, −0 in f16.
        assert_eq!(eval_op(&op, Format::F16, 0xC900), Ok(0x8000));
        // Just above max (10.0078125), gelu is clamped: the derivative is +0.
        assert_eq!(eval_op(&op, Format::F16, 0x4901), Ok(0x0000));
        // With min = 0, gelu's left tail (negative, down to −10⁻³⁰¹ at −37.2 and below f64's
        // range further left) is clamped: +0, however small gelu is.
        let op: Op = "gelu_clipped_derivative(min=0,max=1)".parse().unwrap();
        for x in [0xD0A5, 0xD0A6, 0xD800, 0xFBFF] {
            assert_eq!(eval_op(&op, Format::F16, x), Ok(0x0000), "{x:#06x}");
        }
    }
}
