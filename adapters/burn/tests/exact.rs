//! actlut-burn gives the table's bits: on all 65,536 f16 and bf16 patterns, for every
//! function of `Function`, through contiguous tensors and through transposed, permuted,
//! sliced and flipped views of burn's Flex backend (each checked to be a view, not a copy),
//! with and without `Autodiff`; `F32` gives actlut's computed path; every error path is an
//! `Err` that says what to do.
//!
//! The expected values come from actlut's tables (the claim is that the op gives the
//! table's bits), read at the input elements as burn itself reads them from the view
//! (`into_data` of the view).
#![cfg(feature = "all")]

use actlut::half::{bf16, f16};
use actlut::BuiltinTables as _;
use actlut_burn::burn::backend::Flex;
use actlut_burn::burn::tensor::{DType, Device, Tensor, TensorData};
use actlut_burn::{apply, apply_op, ActivationExt as _, Error, Function, Op};

/// A 16-bit float type of burn and actlut.
trait Word: Copy + burn_element::E {
    const DTYPE: DType;
    fn from_bits(b: u16) -> Self;
    fn to_bits(self) -> u16;
    fn table(a: Function) -> &'static [u16; 65536];
}

mod burn_element {
    pub trait E: actlut_burn::burn::tensor::Element {}
    impl E for actlut::half::f16 {}
    impl E for actlut::half::bf16 {}
}

impl Word for f16 {
    const DTYPE: DType = DType::F16;
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
    const DTYPE: DType = DType::BF16;
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

/// The bit patterns in order, repeated (element `i` is pattern `i mod 65536`), as a tensor of
/// `shape` and `T`'s dtype on `device`.
fn words<T: Word, const D: usize>(shape: [usize; D], device: &Device) -> Tensor<D> {
    let n: usize = shape.iter().product();
    let v: Vec<T> = (0..n).map(|i| T::from_bits(i as u16)).collect();
    let t = Tensor::<D>::from_data(TensorData::new(v, shape), (device, T::DTYPE));
    assert_eq!(t.dtype(), T::DTYPE);
    t
}

fn bits<T: Word, const D: usize>(t: Tensor<D>) -> Vec<u16> {
    t.into_data()
        .try_to_vec::<T>()
        .unwrap()
        .into_iter()
        .map(T::to_bits)
        .collect()
}

/// Whether `t` is a Flex tensor whose layout is not its buffer in order (a real view).
fn is_view<const D: usize>(t: &Tensor<D>) -> bool {
    let p = t.clone().try_into_primitive::<Flex>().unwrap();
    let n = p.layout().num_elements();
    p.layout().contiguous_offsets() != Some((0, n))
}

/// Asserts `y == table[x]` element by element, and that every pattern was seen `times` times.
fn check<T: Word, const D: usize>(
    what: &str,
    a: Function,
    x: Tensor<D>,
    y: Tensor<D>,
    times: usize,
) {
    assert_eq!(x.dims(), y.dims(), "{what}");
    assert_eq!(y.dtype(), T::DTYPE, "{what}");
    let (x, y) = (bits::<T, D>(x), bits::<T, D>(y));
    let t = T::table(a);
    let mut seen = vec![0usize; 65536];
    for (&xb, &yb) in x.iter().zip(&y) {
        seen[usize::from(xb)] += 1;
        assert_eq!(
            yb,
            t[usize::from(xb)],
            "{what}: {} at {xb:#06x} gave {yb:#06x}, the table has {:#06x}",
            a.name(),
            t[usize::from(xb)]
        );
    }
    assert!(
        seen.iter().all(|&s| s == times),
        "{what}: every pattern {times} times"
    );
}

/// Every function, every pattern, through a contiguous tensor and four kinds of view.
fn every_pattern_every_view<T: Word>(device: &Device) {
    for a in Function::ALL.into_iter().filter(|a| a.has_defaults()) {
        let x = words::<T, 2>([256, 256], device);
        check::<T, 2>("contiguous", a, x.clone(), apply(x, a).unwrap(), 1);

        let xt = words::<T, 2>([256, 256], device).transpose();
        assert!(is_view(&xt));
        check::<T, 2>("transposed", a, xt.clone(), apply(xt, a).unwrap(), 1);

        let xp = words::<T, 3>([16, 16, 256], device).permute([2, 0, 1]);
        assert!(is_view(&xp));
        check::<T, 3>("permuted", a, xp.clone(), apply(xp, a).unwrap(), 1);

        // [256, 512] holds every pattern twice; columns 128..384 of each row hold each
        // pattern once (a narrowed view at an offset).
        let xs = words::<T, 2>([256, 512], device);
        let xs = xs.slice([0..128, 128..384]);
        assert!(is_view(&xs));
        let ys = apply(xs.clone(), a).unwrap();
        let (xb, yb) = (bits::<T, 2>(xs), bits::<T, 2>(ys));
        let t = T::table(a);
        for (&x, &y) in xb.iter().zip(&yb) {
            assert_eq!(y, t[usize::from(x)], "sliced: {} at {x:#06x}", a.name());
        }

        let xf = words::<T, 2>([256, 256], device).flip([0, 1]);
        assert!(is_view(&xf));
        check::<T, 2>("flipped", a, xf.clone(), xf.activation(a).unwrap(), 1);
    }
}

#[test]
fn every_f16_pattern_of_every_function_through_every_view_is_the_table() {
    every_pattern_every_view::<f16>(&Device::flex());
}

#[test]
fn every_bf16_pattern_of_every_function_through_every_view_is_the_table() {
    every_pattern_every_view::<bf16>(&Device::flex());
}

#[test]
fn every_pattern_under_autodiff_is_the_table_too() {
    let device = Device::flex().autodiff();
    for a in [Function::Gelu, Function::Silu, Function::Log] {
        let x = words::<f16, 2>([256, 256], &device);
        check::<f16, 2>("autodiff f16", a, x.clone(), apply(x, a).unwrap(), 1);
        let x = words::<bf16, 2>([256, 256], &device).require_grad();
        check::<bf16, 2>(
            "autodiff bf16, tracked",
            a,
            x.clone(),
            apply(x, a).unwrap(),
            1,
        );
    }
}

#[test]
fn a_uniquely_owned_tensor_is_mapped_in_place_and_a_shared_one_is_not_changed() {
    let device = Device::flex();
    let x = words::<bf16, 2>([256, 256], &device);
    let keep = x.clone();
    let y = x.exact_gelu().unwrap();
    // `keep` shares the buffer: the op must not have written into it.
    let kb = bits::<bf16, 2>(keep);
    assert!(kb.iter().enumerate().all(|(i, &b)| b == i as u16));
    check::<bf16, 2>(
        "shared",
        Function::Gelu,
        words::<bf16, 2>([256, 256], &device),
        y,
        1,
    );
}

#[test]
fn f32_tensors_take_the_exact_computed_path() {
    let device = Device::flex();
    // A spread of f32 inputs: every 65,537th bit pattern, NaNs and infinities included.
    let xs: Vec<f32> = (0..65_536u32)
        .map(|i| f32::from_bits(i.wrapping_mul(65_537)))
        .collect();
    let x = Tensor::<1>::from_data(
        TensorData::new(xs.clone(), [xs.len()]),
        (&device, DType::F32),
    );
    for a in Function::ALL.into_iter().filter(|a| a.has_defaults()) {
        let y = apply(x.clone(), a).unwrap();
        assert_eq!(y.dtype(), DType::F32);
        let ys = y.into_data().try_to_vec::<f32>().unwrap();
        for (&x, &y) in xs.iter().zip(&ys) {
            let want = actlut::computed::f32(a, x);
            assert!(
                y.to_bits() == want.to_bits() || (y.is_nan() && want.is_nan()),
                "{} at {x:e}: {y:e}, computed {want:e}",
                a.name()
            );
        }
    }
}

#[test]
fn a_dtype_without_a_path_is_an_error_naming_it() {
    let device = Device::flex();
    let x = Tensor::<1>::from_data(
        TensorData::new(vec![1.0f64, 2.0], [2]),
        (&device, DType::F64),
    );
    assert_eq!(x.dtype(), DType::F64);
    let err = apply(x, Function::Gelu).unwrap_err();
    assert_eq!(
        err,
        Error::Dtype {
            op: Op::from(Function::Gelu),
            dtype: DType::F64
        }
    );
    let msg = err.to_string();
    assert!(
        msg.contains("F64") && msg.contains("F16 and BF16") && msg.contains("cast"),
        "{msg}"
    );
}

#[test]
#[cfg(feature = "other-backend-tests")]
#[allow(deprecated)] // burn 0.22 deprecates NdArray (for Flex): here it is the other backend
fn a_tensor_of_another_backend_is_an_error_naming_the_device() {
    // burn's NdArray backend (enabled for this test): a CPU backend without 16-bit floats.
    let device = Device::ndarray();
    let x = Tensor::<1>::from_floats([1.0, 2.0], &device);
    let err = x.exact_gelu().unwrap_err();
    assert!(
        matches!(
            err,
            Error::Device {
                op,
                ..
            } if op == Op::from(Function::Gelu)
        ),
        "{err:?}"
    );
    let msg = err.to_string();
    assert!(
        msg.contains("NdArray") && msg.contains("Device::flex()"),
        "{msg}"
    );
    // The same under autodiff over NdArray.
    let x = Tensor::<1>::from_floats([1.0], &Device::ndarray().autodiff());
    assert!(matches!(
        apply(x, Function::Silu),
        Err(Error::Device { .. })
    ));
}

#[test]
fn the_extension_trait_methods_apply_their_functions() {
    let device = Device::flex();
    let x = words::<f16, 2>([256, 256], &device);
    let cases: [(Tensor<2>, Function); 5] = [
        (x.clone().exact_gelu().unwrap(), Function::Gelu),
        (x.clone().exact_gelu_tanh().unwrap(), Function::GeluTanh),
        (x.clone().exact_sigmoid().unwrap(), Function::Sigmoid),
        (x.clone().exact_silu().unwrap(), Function::Silu),
        (x.clone().exact_tanh().unwrap(), Function::Tanh),
    ];
    for (y, a) in cases {
        check::<f16, 2>(a.name(), a, x.clone(), y, 1);
    }
}

#[test]
fn an_op_with_constants_is_its_table_filled_at_run_time_on_every_pattern() {
    let device = Device::flex();
    for text in [
        "softcap(cap=30)",
        "leaky_relu(alpha=0.2)",
        "elu(alpha=0.5)",
        "swiglu_oai",
    ] {
        let op: Op = text.parse().unwrap();
        for format in [actlut::Format::F16, actlut::Format::Bf16] {
            let mut t = vec![0u16; 65536];
            actlut::fill_table(&op, format, &mut t).unwrap();
            let x = match format {
                actlut::Format::F16 => words::<f16, 2>([256, 256], &device),
                _ => words::<bf16, 2>([256, 256], &device),
            };
            // Twice: the second call takes the cached table.
            for _ in 0..2 {
                let y = apply_op(x.clone().transpose(), &op).unwrap();
                let (xb, yb) = match format {
                    actlut::Format::F16 => {
                        (bits::<f16, 2>(x.clone().transpose()), bits::<f16, 2>(y))
                    }
                    _ => (bits::<bf16, 2>(x.clone().transpose()), bits::<bf16, 2>(y)),
                };
                for (&x, &y) in xb.iter().zip(&yb) {
                    assert_eq!(y, t[usize::from(x)], "{op} over {format:?} at {x:#06x}");
                }
            }
        }
        // F32: actlut's computed path for the op.
        let xs: Vec<f32> = (0..4096u32)
            .map(|i| f32::from_bits(i.wrapping_mul(1_048_583)))
            .collect();
        let x = Tensor::<1>::from_data(
            TensorData::new(xs.clone(), [xs.len()]),
            (&device, DType::F32),
        );
        let ys = x
            .activation_op(&op)
            .unwrap()
            .into_data()
            .try_to_vec::<f32>()
            .unwrap();
        for (&x, &y) in xs.iter().zip(&ys) {
            let want = actlut::eval_op_f32(&op, x);
            assert!(
                y.to_bits() == want.to_bits() || (y.is_nan() && want.is_nan()),
                "{op} at {x:e}"
            );
        }
    }
}

#[test]
fn a_function_whose_constant_has_no_default_is_an_error_naming_it() {
    let x = Tensor::<1>::from_floats([1.0, 2.0], &Device::flex());
    let e = apply(x, Function::Softcap).unwrap_err();
    assert!(matches!(e, Error::Op(_)), "{e:?}");
    let msg = e.to_string();
    assert!(msg.contains("`cap`") && msg.contains("apply_op"), "{msg}");
}
