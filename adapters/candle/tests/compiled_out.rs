//! A function or format compiled out is a candle error that names the cargo
//! features to enable, never a panic. Runs without this crate's `all`
//! feature, with only actlut's `gelu` and `f16`:
//!
//! ```text
//! cargo test -p actlut-candle --no-default-features --features actlut/gelu,actlut/f16 --test compiled_out
//! ```
#![cfg(not(feature = "all"))]

use actlut::Function;
use actlut_candle::candle_core::{DType, Device, Tensor};
use actlut_candle::{apply, apply_inplace};

#[test]
fn a_compiled_out_table_is_an_error_that_names_the_features() {
    let x = Tensor::ones((2, 3), DType::F16, &Device::Cpu).unwrap();
    // The one table compiled in works, out of place and in place.
    assert!(apply(&x, Function::Gelu).is_ok());
    apply_inplace(&x.copy().unwrap(), Function::Gelu).unwrap();
    // Another function: names its feature.
    for r in [
        apply(&x, Function::Silu).map(|_| ()),
        apply_inplace(&x, Function::Silu),
        apply(&x.t().unwrap(), Function::Silu).map(|_| ()),
    ] {
        let e = r.unwrap_err().to_string();
        assert!(e.contains("`silu`") && e.contains("`f16`"), "{e}");
    }
    // Another format: names its feature.
    for (dtype, feature) in [(DType::BF16, "`bf16`"), (DType::F8E4M3, "`fp8-e4m3`")] {
        let y = x.to_dtype(dtype).unwrap();
        let e = apply(&y, Function::Gelu).unwrap_err().to_string();
        assert!(e.contains(feature), "{e}");
        let e = apply_inplace(&y, Function::Gelu).unwrap_err().to_string();
        assert!(e.contains(feature), "{e}");
    }
}
