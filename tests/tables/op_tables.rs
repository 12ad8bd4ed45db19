//! Tables of ops filled at run time into a caller's buffer (`actlut::fill_table`): the same
//! entries as the build-time generation, the built-in tables at the default constants (elu
//! with alpha = 1 is today's elu), and errors that name what is wrong.

use actlut::{fill_table, EvalError, Format, Op};

fn op(s: &str) -> Op {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

#[test]
fn a_16_bit_and_an_8_bit_table_fill_a_callers_buffer_as_the_generator_makes_them() {
    let mut t = [0u16; 65_536];
    for text in [
        "softcap(cap=30)",
        "swiglu_oai(alpha=1.703125)",
        "leaky_relu(alpha=0.2)",
    ] {
        fill_table(&op(text), Format::Bf16, &mut t).unwrap();
        assert_eq!(
            t[..],
            actlut_codegen::op_table(&op(text), Format::Bf16).unwrap()[..]
        );
    }
    let mut b = [0u8; 256];
    fill_table(&op("softcap(cap=30)"), Format::Fp8E5M2, &mut b).unwrap();
    let want = actlut_codegen::op_table(&op("softcap(cap=30)"), Format::Fp8E5M2).unwrap();
    assert!(b.iter().zip(&want).all(|(&b, &w)| u16::from(b) == w));
}

#[test]
#[cfg(all(
    feature = "elu",
    feature = "leaky-relu",
    feature = "f16",
    feature = "bf16"
))]
fn the_default_constants_give_the_built_in_tables() {
    let mut t = [0u16; 65_536];
    fill_table(&op("elu(alpha=1)"), Format::F16, &mut t).unwrap();
    assert_eq!(t[..], actlut::tables::ELU_F16[..]);
    fill_table(&op("leaky_relu(alpha=0.01)"), Format::Bf16, &mut t).unwrap();
    assert_eq!(t[..], actlut::tables::LEAKY_RELU_BF16[..]);
    assert_eq!(op("elu(alpha=1)"), Op::from(actlut::Function::Elu));
}

#[test]
fn a_buffer_of_the_wrong_shape_and_a_derivative_without_table_are_errors() {
    let mut short = [0u16; 100];
    let e = fill_table(&op("softcap(cap=30)"), Format::F16, &mut short).unwrap_err();
    assert!(
        matches!(
            e,
            EvalError::Buffer {
                len: 100,
                entry_bytes: 2,
                ..
            }
        ),
        "{e}"
    );
    let mut narrow = [0u8; 65_536];
    assert!(fill_table(&op("softcap(cap=30)"), Format::F16, &mut narrow).is_err());
    let mut t = [0u16; 65_536];
    fill_table(&op("gelu_derivative"), Format::F16, &mut t).unwrap();
    assert_eq!(t[0], 0x3800); // gelu'(0) = 1/2
    let mut fp4 = [0u8; 16];
    let e = fill_table(&op("log_derivative"), Format::Fp4E2M1, &mut fp4).unwrap_err();
    assert!(
        matches!(
            e,
            EvalError::NoTable {
                derivative: true,
                ..
            }
        ),
        "{e}"
    );
}

/// A cap 10^-31 above 2.25, a rounding boundary of fp8_e5m2 (between 2 and 2.5): softcap's
/// values at large inputs lie within 2^-40 of it, on either side of it as the input grows, and
/// no evaluation of actlut resolves that; the fill is an `Err` that names the first such input,
/// never a guessed entry.
#[test]
fn an_input_that_cannot_be_settled_is_an_error_naming_it() {
    let op = op("softcap(cap=2.2500000000000000000000000000001)");
    let mut t = [0u8; 256];
    match fill_table(&op, Format::Fp8E5M2, &mut t) {
        Err(EvalError::Unsettled { format, bits, .. }) => {
            assert_eq!(format, Format::Fp8E5M2);
            let x = format.decode(bits);
            assert!(x > 10.0, "{x}");
            let msg = EvalError::Unsettled {
                function: op.function(),
                derivative: false,
                format,
                bits,
            }
            .to_string();
            assert!(msg.contains(&format!("{bits:#06x}")), "{msg}");
        }
        other => panic!("{other:?}"),
    }
}
