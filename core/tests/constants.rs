//! `leaky_relu(alpha=0.01)` over f16, held by integer arithmetic (no float in the expected
//! values): for a negative f16 input `x = −s·2^e`, `x/100` in units of f16's subnormal quantum
//! 2^-24 is `s·2^(e+24)/100`, rounded half to even. 41 products whose magnitude is below
//! 2^-14 (a subnormal result) are exact ties, settled to even; the `f64` nearest 0.01 lies
//! above 1/100, so with it each of those products lies just above the tie in magnitude, and
//! the 21 whose even neighbour is the smaller magnitude would round away from zero instead.

use actlut_core::{eval_op, Format, Op};

#[test]
fn leaky_relu_0_01_rounds_its_41_f16_subnormal_ties_to_even() {
    let op: Op = "leaky_relu(alpha=0.01)".parse().unwrap();
    let (mut ties, mut even_below) = (0, 0);
    for b in 0x8001u16..=0xFBFF {
        let (field, frac) = (u32::from(b >> 10 & 0x1F), u64::from(b & 0x3FF));
        // x = −s·2^(e) with e = field − 25 (normal) or −24 (subnormal).
        let (s, e) = if field == 0 {
            (frac, -24)
        } else {
            (frac | 0x400, field as i32 - 25)
        };
        let n = s << (e + 24); // |x|·2^24, an integer (e ≥ −24)
        let (q, r) = (n / 100, n % 100);
        let rounded = if r > 50 || (r == 50 && q % 2 == 1) {
            q + 1
        } else {
            q
        };
        if rounded > 1024 || (rounded == 1024 && r != 0) {
            continue; // a normal result: not this test's
        }
        let want = 0x8000 | rounded as u16;
        let got = eval_op(&op, Format::F16, b).unwrap();
        assert_eq!(
            got, want,
            "input {b:#06x}: got {got:#06x}, want {want:#06x}"
        );
        if r == 50 {
            ties += 1;
            // The f64 nearest 0.01 is above 1/100: its product lies above the tie in
            // magnitude, and rounds to q + 1, which differs where even is q.
            even_below += usize::from(q % 2 == 0);
        }
    }
    assert_eq!((ties, even_below), (41, 21));
    // The f64 nearest 0.01 is m·2^e with 100·m > 2^−e: above 1/100.
    let bits = 0.01f64.to_bits();
    let m = u128::from(bits & ((1 << 52) - 1) | 1 << 52);
    let e = ((bits >> 52) & 0x7FF) as i32 - 1075;
    assert!(e < 0 && 100 * m > 1u128 << -e);
}

/// A limit on a rounding boundary, approached from one side: softcap(cap=30) over fp8_e5m2,
/// where 30 lies halfway between 28 (`0x4F`) and 32 (`0x50`). Every finite input gives a
/// value below 30 (28 once it is within half a quantum), and +inf gives 30 itself, an exact
/// tie, rounded to even (32).
#[test]
fn softcap_30_over_e5m2_approaches_its_cap_from_below() {
    let op: Op = "softcap(cap=30)".parse().unwrap();
    assert_eq!(eval_op(&op, Format::Fp8E5M2, 0x7B).unwrap(), 0x4F); // 57344
    assert_eq!(eval_op(&op, Format::Fp8E5M2, 0x7C).unwrap(), 0x50); // +inf
    assert_eq!(eval_op(&op, Format::Fp8E5M2, 0xFC).unwrap(), 0xD0); // −inf: −30, to even
    assert_eq!(eval_op(&op, Format::Fp8E5M2, 0xFB).unwrap(), 0xCF); // −57344: above −30
}

/// Values that are constants: hardtanh's clamps and elu's limit are the rationals themselves,
/// rounded once.
#[test]
fn a_constant_value_is_rounded_once_and_exactly() {
    // 0.3 over FP4 (0, 0.5, 1, …): 0.3 is nearer 0.5.
    let op: Op = "hardtanh(min=-0.3,max=0.3)".parse().unwrap();
    assert_eq!(eval_op(&op, Format::Fp4E2M1, 0x7).unwrap(), 0x1); // 6 → 0.3 → 0.5
                                                                  // elu(alpha=2.5) over FP4 at −6: 2.5·(e^-6 − 1) = −2.4938, above −2.5 (halfway between
                                                                  // −2 and −3): −2. Over bf16 at −inf: −2.5 itself, exact.
    let op: Op = "elu(alpha=2.5)".parse().unwrap();
    assert_eq!(eval_op(&op, Format::Fp4E2M1, 0xF).unwrap(), 0xC);
    assert_eq!(eval_op(&op, Format::Bf16, 0xFF80).unwrap(), 0xC020);
}
