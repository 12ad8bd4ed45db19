//! What the adapters' backward tests compare against, shared by `adapters/burn/tests/backward.rs`
//! and `adapters/candle/tests/backward.rs` (each includes it with `#[path]`): the two 16-bit
//! dtypes with a rounding of an `f64` that is not half's, and every derivative written from its
//! definition in `f64` (actlut's docs/SEMANTICS.md), independently of actlut's own forms.

use actlut::half::{bf16, f16};
use actlut::Function;

/// A 16-bit dtype: its patterns and its rounding of an `f64` (each test adds what its
/// framework needs: the dtype, a tensor of every pattern, a tensor's bits).
#[derive(Clone, Copy, Debug)]
pub enum Word {
    F16,
    Bf16,
}

impl Word {
    pub const BOTH: [Word; 2] = [Word::F16, Word::Bf16];

    pub fn value(self, b: u16) -> f64 {
        match self {
            Word::F16 => f16::from_bits(b).to_f64(),
            Word::Bf16 => bf16::from_bits(b).to_f64(),
        }
    }

    /// `v` rounded once to the dtype, to nearest, ties to even. half's `from_f64` may go
    /// through `f32` (F16C converts from `f32`): a double rounding, so its result is only a
    /// candidate here, and its neighbours are compared by their exact distance to `v`.
    pub fn round(self, v: f64) -> u16 {
        let c = match self {
            Word::F16 => f16::from_f64(v).to_bits(),
            Word::Bf16 => bf16::from_f64(v).to_bits(),
        };
        if !v.is_finite() || v == 0.0 || !self.value(c).is_finite() {
            return c;
        }
        let mut best = c;
        for n in [c.wrapping_sub(1), c.wrapping_add(1)] {
            let nv = self.value(n);
            // A neighbour of the same sign, finite and nonzero.
            if n & 0x8000 != c & 0x8000 || !nv.is_finite() || nv == 0.0 {
                continue;
            }
            let (dn, db) = ((v - nv).abs(), (v - self.value(best)).abs());
            if dn < db || (dn == db && n % 2 == 0) {
                best = n;
            }
        }
        best
    }

    pub fn is_nan(self, b: u16) -> bool {
        self.value(b).is_nan()
    }
}

pub fn sigmoid(x: f64) -> f64 {
    if x < 0.0 {
        let e = x.exp();
        e / (1.0 + e)
    } else {
        1.0 / (1.0 + (-x).exp())
    }
}

/// `a + b`, the sign of `b` kept where `a` has underflowed to +0 (a derivative that tends to 0
/// from below rounds to −0: actlut's docs/SEMANTICS.md).
pub fn add(a: f64, b: f64) -> f64 {
    if a == 0.0 {
        b
    } else {
        a + b
    }
}

/// `1 − tanh²(u) = 4·e^−2|u| / (1 + e^−2|u|)²` (no cancellation near 0 or far out; as
/// `1/cosh²(u)` it would be 0 from |u| = 355, where `cosh²` overflows, while `e^−2|u|` and the
/// terms it multiplies are not yet).
pub fn sech2(u: f64) -> f64 {
    let e = (-2.0 * u.abs()).exp();
    4.0 * e / ((1.0 + e) * (1.0 + e))
}

/// The derivative of `f` at `x` from its definition (actlut's docs/SEMANTICS.md: at a kink the
/// limit from the left), in `f64`; `None` for a function not written here.
pub fn reference(f: Function, x: f64) -> Option<f64> {
    use std::f64::consts::PI;
    if x.is_nan() {
        return Some(f64::NAN);
    }
    let x = if x.is_infinite() {
        f64::MAX.copysign(x)
    } else {
        x
    };
    let pdf = |t: f64| (-0.5 * t * t).exp() / (2.0 * PI).sqrt();
    let cdf = |t: f64| 0.5 * libm::erfc(-t / 2f64.sqrt());
    let silu_prime = |t: f64| {
        let s = sigmoid(t);
        add(s, t * s * sigmoid(-t))
    };
    Some(match f {
        Function::Gelu => add(cdf(x), x * pdf(x)),
        Function::GeluTanh => {
            // Beyond ±1e10 the derivative is its limit in f64 (1, or −0 from below), where
            // x³ at ±f64::MAX would make inf·0.
            let x = x.clamp(-1e10, 1e10);
            let c = (2.0 / PI).sqrt();
            let u = c * x * (1.0 + 0.044715 * x * x);
            // (1 + tanh(u))/2 as sigmoid(2u): no cancellation where tanh(u) is near −1.
            add(
                sigmoid(2.0 * u),
                0.5 * x * sech2(u) * c * (1.0 + 0.134145 * x * x),
            )
        }
        Function::Sigmoid => sigmoid(x) * sigmoid(-x),
        Function::Tanh => sech2(x),
        Function::Silu => silu_prime(x),
        Function::GeluQuick => silu_prime(1.702 * x.clamp(-1e10, 1e10)),
        Function::Softplus => sigmoid(x),
        Function::Mish => {
            let sp = if x > 40.0 { x } else { x.exp().ln_1p() };
            add(sp.tanh(), x * sech2(sp) * sigmoid(x))
        }
        Function::Logsigmoid => sigmoid(-x),
        Function::Softsign => (1.0 + x.abs()).powi(-2),
        Function::Elu => {
            if x > 0.0 {
                1.0
            } else {
                x.exp()
            }
        }
        Function::Selu => {
            let lambda = 1.050_700_987_355_480_5;
            let alpha = 1.673_263_242_354_377_3;
            if x > 0.0 {
                lambda
            } else {
                lambda * alpha * x.exp()
            }
        }
        Function::Hardsigmoid => {
            if -3.0 < x && x <= 3.0 {
                1.0 / 6.0
            } else {
                0.0
            }
        }
        Function::Hardswish => {
            if x <= -3.0 {
                0.0
            } else if x <= 3.0 {
                (2.0 * x + 3.0) / 6.0
            } else {
                1.0
            }
        }
        Function::Erf => 2.0 / PI.sqrt() * (-x * x).exp(),
        Function::Exp => x.exp(),
        Function::Log => {
            if x < 0.0 {
                f64::NAN
            } else {
                1.0 / x.abs()
            }
        }
        Function::Rsqrt => {
            if x < 0.0 {
                f64::NAN
            } else if x == 0.0 {
                f64::NEG_INFINITY
            } else {
                -0.5 * x.powf(-1.5)
            }
        }
        Function::Identity => 1.0,
        Function::Relu => {
            if x > 0.0 {
                1.0
            } else {
                0.0
            }
        }
        Function::Relu2 => {
            if x > 0.0 {
                x + x
            } else {
                0.0
            }
        }
        Function::Relu6 => {
            if 0.0 < x && x <= 6.0 {
                1.0
            } else {
                0.0
            }
        }
        Function::LeakyRelu => {
            if x > 0.0 {
                1.0
            } else {
                0.01
            }
        }
        Function::Hardtanh => {
            if -1.0 < x && x <= 1.0 {
                1.0
            } else {
                0.0
            }
        }
        _ => return None,
    })
}

/// The most a gradient may lie from the `f64` reference where it is not the reference rounded
/// once, in units of the dtype at the reference: a near-tie (the `f32` derivative on the
/// dtype's midpoint).
pub const NEAR_TIE: f64 = 0.5 + 1.0 / 1024.0;

/// The dtype's unit in the last place at `v` (the step above the rounding of `|v|`).
pub fn ulp(w: Word, v: f64) -> f64 {
    let b = w.round(v.abs());
    (w.value(b + 1) - w.value(b)).abs()
}

/// An engine's own backward (`theirs`) against actlut's (`ours`), both the gradient of
/// `sum(f(x))` at every pattern of `w`, and the reference `want`: where they differ (NaN
/// aside), actlut's may be the farther from the reference only at a near-tie (asserted); the
/// differences, how many are farther on each side and how many are the sign of a zero, are
/// printed (`-- --nocapture`).
pub fn against_theirs(w: Word, engine: &str, f: &str, want: &[f64], ours: &[u16], theirs: &[u16]) {
    let (mut differ, mut zero_sign, mut farther, mut ours_farther) = (0, 0, 0, 0);
    for i in 0..want.len() {
        if w.is_nan(ours[i]) || w.is_nan(theirs[i]) || want[i].is_nan() || ours[i] == theirs[i] {
            continue;
        }
        differ += 1;
        if w.value(ours[i]) == 0.0 && w.value(theirs[i]) == 0.0 {
            zero_sign += 1;
        }
        let eo = (w.value(ours[i]) - want[i]).abs();
        let et = (w.value(theirs[i]) - want[i]).abs();
        if eo > et {
            // Only at a near-tie: the f32 derivative on the dtype's midpoint.
            assert!(eo <= NEAR_TIE * ulp(w, want[i]), "{w:?} {f} at {i:#06x}");
            ours_farther += 1;
        } else if et > eo {
            farther += 1;
        }
    }
    println!(
        "{w:?} {f}: {engine}'s gradient differs on {differ} non-NaN patterns: {farther} \
         farther from the exact derivative, {ours_farther} closer, {zero_sign} in the \
         sign of a zero"
    );
}

/// The derivative of an op with non-default constants from its definition, in `f64` (at a
/// kink the limit from the left): `softcap(x) = cap·tanh(x/cap)`, `leaky_relu` and `elu` with
/// their `alpha`.
pub fn op_reference(text: &str, x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    match text {
        "softcap(cap=30)" => sech2(x / 30.0),
        "leaky_relu(alpha=0.2)" => {
            if x > 0.0 {
                1.0
            } else {
                0.2
            }
        }
        "elu(alpha=0.5)" => {
            if x > 0.0 {
                1.0
            } else {
                0.5 * x.max(-f64::MAX).exp()
            }
        }
        _ => unreachable!("{text}"),
    }
}
