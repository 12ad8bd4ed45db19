//! actlut-candle gives the table's bits: on all 65,536 f16 and bf16 patterns
//! for several functions and on all 256 F8E4M3 codes, through contiguous,
//! offset, transposed, narrowed and broadcast views, out of place and in
//! place; every error path returns a candle error.
//!
//! The expected values come from actlut's tables (the claim is that the op
//! gives the table's bits), read at the input elements as candle itself reads
//! them from the view (`to_vec2` of the view).
#![cfg(feature = "all")]

use actlut::half::{bf16, f16};
use actlut::BuiltinTables;
use actlut::Function;
use actlut_candle::candle_core::{DType, Device, Tensor, WithDType};
use actlut_candle::{apply, apply_inplace, ActivationExt as _};
use float8::F8E4M3;

const FUNCTIONS: [Function; 6] = [
    Function::Gelu,
    Function::GeluTanh,
    Function::Silu,
    Function::Tanh,
    Function::Sigmoid,
    Function::Log,
];

/// A 16-bit float type of candle and actlut.
trait Word: WithDType {
    fn from_bits(b: u16) -> Self;
    fn to_bits(self) -> u16;
    fn table(a: Function) -> &'static [u16; 65536];
}

impl Word for f16 {
    fn from_bits(b: u16) -> Self {
        f16::from_bits(b)
    }
    fn to_bits(self) -> u16 {
        f16::to_bits(self)
    }
    fn table(a: Function) -> &'static [u16; 65536] {
        a.table_f16().unwrap()
    }
}

impl Word for bf16 {
    fn from_bits(b: u16) -> Self {
        bf16::from_bits(b)
    }
    fn to_bits(self) -> u16 {
        bf16::to_bits(self)
    }
    fn table(a: Function) -> &'static [u16; 65536] {
        a.table_bf16().unwrap()
    }
}

fn cpu() -> Device {
    Device::Cpu
}

/// Every bit pattern, in order, as a 256 × 256 tensor.
fn all_words<T: Word>() -> Tensor {
    let v: Vec<T> = (0..=u16::MAX).map(T::from_bits).collect();
    Tensor::from_vec(v, (256, 256), &cpu()).unwrap()
}

/// Asserts `y == table[x]` element by element, and that every pattern was seen
/// `times` times.
fn check_words<T: Word>(what: &str, a: Function, x: &Tensor, y: &Tensor, times: usize) {
    assert_eq!(x.dims(), y.dims(), "{what}");
    assert!(y.is_contiguous(), "{what}: the result is contiguous");
    let x: Vec<T> = x.flatten_all().unwrap().to_vec1().unwrap();
    let y: Vec<T> = y.flatten_all().unwrap().to_vec1().unwrap();
    let t = T::table(a);
    let mut seen = vec![0usize; 65536];
    for (&x, &y) in x.iter().zip(&y) {
        let (xb, yb) = (x.to_bits(), y.to_bits());
        seen[usize::from(xb)] += 1;
        assert_eq!(
            yb,
            t[usize::from(xb)],
            "{what}: {}({xb:#06x}) gave {yb:#06x}",
            a.name()
        );
    }
    assert!(
        seen.iter().all(|&n| n == times),
        "{what}: every pattern {times} times"
    );
}

fn every_view<T: Word>() {
    let x = all_words::<T>();
    for a in FUNCTIONS {
        let name = |v: &str| format!("{} {} {v}", a.name(), T::DTYPE.as_str());
        // Contiguous: the slice kernel.
        check_words::<T>(&name("contiguous"), a, &x, &apply(&x, a).unwrap(), 1);
        // Transposed: element by element.
        let t = x.t().unwrap();
        assert!(!t.is_contiguous());
        check_words::<T>(&name("transposed"), a, &t, &apply(&t, a).unwrap(), 1);
        // Narrowed on the inner dimension (not contiguous), and on the outer one
        // (contiguous at an offset), from a bigger tensor holding every pattern once.
        let wide = Tensor::cat(
            &[&x.narrow(1, 0, 3).unwrap(), &x, &x.narrow(1, 0, 5).unwrap()],
            1,
        )
        .unwrap();
        let inner = wide.narrow(1, 3, 256).unwrap();
        assert!(!inner.is_contiguous());
        check_words::<T>(
            &name("narrowed (inner)"),
            a,
            &inner,
            &apply(&inner, a).unwrap(),
            1,
        );
        let tall = Tensor::cat(&[&x.narrow(0, 0, 7).unwrap(), &x], 0).unwrap();
        let outer = tall.narrow(0, 7, 256).unwrap();
        assert!(outer.is_contiguous());
        check_words::<T>(
            &name("narrowed (outer)"),
            a,
            &outer,
            &apply(&outer, a).unwrap(),
            1,
        );
        // Broadcast: each row of patterns twice.
        let b = x.unsqueeze(0).unwrap().broadcast_as((2, 256, 256)).unwrap();
        check_words::<T>(&name("broadcast"), a, &b, &apply(&b, a).unwrap(), 2);
    }
}

#[test]
fn f16_gives_the_table_bits_on_every_pattern_through_every_view() {
    every_view::<f16>();
}

#[test]
fn bf16_gives_the_table_bits_on_every_pattern_through_every_view() {
    every_view::<bf16>();
}

fn in_place<T: Word>() {
    for a in [Function::Gelu, Function::Silu, Function::Log] {
        // Contiguous: the in-place slice kernel.
        let x = all_words::<T>();
        let y = x.copy().unwrap();
        apply_inplace(&y, a).unwrap();
        check_words::<T>("in place, contiguous", a, &x, &y, 1);
        // A transposed view of a copy, in place: the copy's storage changes.
        let y = x.copy().unwrap();
        y.t().unwrap().activation_inplace(a).unwrap();
        check_words::<T>("in place, transposed", a, &x, &y, 1);
        // A narrowed, non-contiguous view: only its elements change.
        let wide = Tensor::cat(&[&x, &x], 1).unwrap();
        wide.narrow(1, 256, 256)
            .unwrap()
            .activation_inplace(a)
            .unwrap();
        let part = wide.narrow(1, 256, 256).unwrap().contiguous().unwrap();
        check_words::<T>("in place, narrowed", a, &x, &part, 1);
        let bits = |t: &Tensor| -> Vec<u16> {
            let v: Vec<T> = t.flatten_all().unwrap().to_vec1().unwrap();
            v.into_iter().map(T::to_bits).collect()
        };
        let untouched = wide.narrow(1, 0, 256).unwrap().contiguous().unwrap();
        assert!(
            bits(&untouched) == bits(&x),
            "the rest of the storage is untouched"
        );
    }
}

#[test]
fn in_place_gives_the_table_bits_on_every_pattern_f16() {
    in_place::<f16>();
}

#[test]
fn in_place_gives_the_table_bits_on_every_pattern_bf16() {
    in_place::<bf16>();
}

#[test]
fn fp8_e4m3_gives_the_table_bits_on_every_code() {
    let codes: Vec<F8E4M3> = (0..=255u8).map(F8E4M3::from_bits).collect();
    let x = Tensor::from_vec(codes, (16, 16), &cpu()).unwrap();
    for a in FUNCTIONS {
        let t = a.table_fp8_e4m3().unwrap();
        for (what, v) in [("contiguous", x.clone()), ("transposed", x.t().unwrap())] {
            let y = apply(&v, a).unwrap();
            let xs: Vec<F8E4M3> = v.flatten_all().unwrap().to_vec1().unwrap();
            let ys: Vec<F8E4M3> = y.flatten_all().unwrap().to_vec1().unwrap();
            for (x, y) in xs.iter().zip(&ys) {
                assert_eq!(
                    y.to_bits(),
                    t[usize::from(x.to_bits())],
                    "{} fp8 {what} at {:#04x}",
                    a.name(),
                    x.to_bits()
                );
            }
            let z = v.copy().unwrap();
            apply_inplace(&z, a).unwrap();
            let zs: Vec<F8E4M3> = z.flatten_all().unwrap().to_vec1().unwrap();
            assert!(zs.iter().zip(&ys).all(|(a, b)| a.to_bits() == b.to_bits()));
        }
    }
}

#[test]
fn f32_takes_the_exact_computed_path() {
    // Correctly rounded values (MPFR): gelu(1) = 0.8413447460685429…,
    // sigmoid(-0) = 0.5, tanh(-inf) = -1, silu(2) = 1.7615941559557649….
    let x = Tensor::new(&[1.0f32, -0.0, f32::NEG_INFINITY, 2.0, f32::NAN], &cpu()).unwrap();
    let run = |a: Function| -> Vec<f32> { apply(&x, a).unwrap().to_vec1().unwrap() };
    assert_eq!(run(Function::Gelu)[0], 0.841_344_746_068_542_9_f64 as f32);
    assert_eq!(run(Function::Sigmoid)[1], 0.5);
    assert_eq!(run(Function::Tanh)[2], -1.0);
    assert_eq!(run(Function::Silu)[3], 1.761_594_155_955_764_9_f64 as f32);
    assert!(run(Function::Gelu)[4].is_nan());
    // In place and through a transposed view alike.
    let m = Tensor::new(&[[1.0f32, 2.0], [3.0, 4.0]], &cpu()).unwrap();
    let out: Vec<Vec<f32>> = apply(&m.t().unwrap(), Function::Gelu)
        .unwrap()
        .to_vec2()
        .unwrap();
    let expect = |v: f32| actlut::computed::f32(Function::Gelu, v);
    assert_eq!(
        out,
        [[expect(1.0), expect(3.0)], [expect(2.0), expect(4.0)]]
    );
    let n = m.copy().unwrap();
    apply_inplace(&n.t().unwrap(), Function::Gelu).unwrap();
    assert_eq!(
        n.to_vec2::<f32>().unwrap(),
        [[expect(1.0), expect(2.0)], [expect(3.0), expect(4.0)]]
    );
}

#[test]
fn other_dtypes_are_errors_that_name_the_dtypes_with_tables() {
    for dtype in [DType::F64, DType::U8, DType::U32, DType::I64] {
        let x = Tensor::zeros((2, 3), dtype, &cpu()).unwrap();
        let e = apply(&x, Function::Gelu).unwrap_err().to_string();
        assert!(e.contains(&format!("dtype {dtype:?}")), "{e}");
        assert!(e.contains("F16, BF16 and F8E4M3"), "{e}");
        let e = apply_inplace(&x, Function::Gelu).unwrap_err().to_string();
        assert!(e.contains("F16, BF16 and F8E4M3"), "{e}");
    }
}

#[test]
fn in_place_on_a_broadcast_is_candles_error_not_a_panic() {
    let x = Tensor::zeros(4, DType::F16, &cpu())
        .unwrap()
        .broadcast_as((3, 4))
        .unwrap();
    let e = apply_inplace(&x, Function::Gelu).unwrap_err().to_string();
    assert!(e.contains("in-place"), "{e}");
}

#[test]
fn empty_and_scalar_tensors_work() {
    let e = Tensor::zeros((0, 5), DType::BF16, &cpu()).unwrap();
    assert_eq!(apply(&e, Function::Gelu).unwrap().dims(), [0, 5]);
    apply_inplace(&e.t().unwrap(), Function::Gelu).unwrap();
    let s = Tensor::new(f16::from_f32(1.0), &cpu()).unwrap();
    let y = apply(&s, Function::Gelu)
        .unwrap()
        .to_scalar::<f16>()
        .unwrap();
    assert_eq!(y.to_bits(), actlut::gelu::f16_bits(0x3c00));
    let st = s.broadcast_as((1, 1)).unwrap().t().unwrap();
    let sc = st.copy().unwrap();
    apply_inplace(&sc.t().unwrap(), Function::Gelu).unwrap();
    assert_eq!(
        sc.to_vec2::<f16>().unwrap()[0][0].to_bits(),
        actlut::gelu::f16_bits(0x3c00)
    );
}
