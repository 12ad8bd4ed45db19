//! A function or format compiled out is an `Err` that names the cargo features to enable,
//! never a panic, under `Autodiff` too. Runs without this crate's `all` feature, with only
//! actlut's `gelu` and `f16`:
//!
//! ```text
//! cargo test --release --no-default-features --features actlut/gelu,actlut/f16 --test compiled_out
//! ```
#![cfg(not(feature = "all"))]

use actlut_burn::burn::tensor::{DType, Device, Tensor};
use actlut_burn::{apply, ActivationExt as _, Error, Function};

#[test]
fn a_compiled_out_table_is_an_error_that_names_the_features() {
    for device in [Device::flex(), Device::flex().autodiff()] {
        let x = Tensor::<2>::ones([2, 3], &device).cast(DType::F16);
        // The one table compiled in works.
        assert!(x.clone().exact_gelu().is_ok());
        // Another function, also on a view: names its feature.
        for r in [
            apply(x.clone(), Function::Silu),
            apply(x.clone().transpose(), Function::Silu),
        ] {
            let e = r.unwrap_err();
            assert!(matches!(e, Error::MissingTable(_)), "{e:?}");
            let msg = e.to_string();
            assert!(msg.contains("`silu`") && msg.contains("`f16`"), "{msg}");
        }
        // Another format: names its feature.
        let msg = x
            .clone()
            .cast(DType::BF16)
            .exact_gelu()
            .unwrap_err()
            .to_string();
        assert!(msg.contains("`bf16`"), "{msg}");
        // F32 needs no table: every function works.
        assert!(apply(x.cast(DType::F32), Function::Silu).is_ok());
    }
}
