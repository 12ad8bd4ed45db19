//! The special inputs of docs/SEMANTICS.md, written out by hand from its tables: the
//! value at ±0, the limits at ±inf, NaN propagation and the default NaN, for
//! every function, in f16 and bf16 (through the computed path, which every
//! table equals on every input).

use actlut::BuiltinTables;
use actlut::{computed, Function};

/// Bit patterns of the values that appear in docs/SEMANTICS.md's table.
struct Bits {
    pos_zero: u16,
    neg_zero: u16,
    one: u16,
    neg_one: u16,
    half: u16,
    inf: u16,
    neg_inf: u16,
    /// ln 2 = 0.693147…, rounded
    ln2: u16,
    /// −λα = −1.7580993…, rounded
    neg_lambda_alpha: u16,
    four: u16,
    six: u16,
    /// swiglu_oai's limit at +inf, 7·sigmoid(1.702·7) = 6.99995…, rounded (to 7)
    swiglu_oai_limit: u16,
    /// laplace at ±0: Φ(−0.707107/0.282095) = 0.0060944596…, rounded
    laplace_zero: u16,
    /// sqrtsoftplus at ±0: √(ln 2) = 0.8325546…, rounded
    sqrt_ln2: u16,
    default_nan: u16,
    quiet: u16,
}

const F16: Bits = Bits {
    pos_zero: 0x0000,
    neg_zero: 0x8000,
    one: 0x3C00,
    neg_one: 0xBC00,
    half: 0x3800,
    inf: 0x7C00,
    neg_inf: 0xFC00,
    ln2: 0x398C,              // 0.693359375
    neg_lambda_alpha: 0xBF08, // −1.7578125
    four: 0x4400,
    six: 0x4600,
    swiglu_oai_limit: 0x4700, // 7
    laplace_zero: 0x1E3E,     // 0.006095886…
    sqrt_ln2: 0x3AA9,         // 0.83251953125
    default_nan: 0x7E00,
    quiet: 0x0200,
};

const BF16: Bits = Bits {
    pos_zero: 0x0000,
    neg_zero: 0x8000,
    one: 0x3F80,
    neg_one: 0xBF80,
    half: 0x3F00,
    inf: 0x7F80,
    neg_inf: 0xFF80,
    ln2: 0x3F31,              // 0.69140625
    neg_lambda_alpha: 0xBFE1, // −1.7578125
    four: 0x4080,
    six: 0x40C0,
    swiglu_oai_limit: 0x40E0, // 7
    laplace_zero: 0x3BC8,     // 0.006103515625
    sqrt_ln2: 0x3F55,         // 0.83203125
    default_nan: 0x7FC0,
    quiet: 0x0040,
};

/// (value at −inf, at +inf, at −0, at +0) for each function, per docs/SEMANTICS.md.
///
/// By name, so that a row can be written before its function exists; a
/// function of `Function::ALL` with built-in tables without a row fails the test, naming it.
fn expected(act: Function, b: &Bits) -> [u16; 4] {
    let neg_ln2 = b.ln2 | b.neg_zero;
    match act.name() {
        "gelu" | "gelu_tanh" | "gelu_quick" | "silu" | "mish" | "hardswish" => {
            [b.neg_zero, b.inf, b.neg_zero, b.pos_zero]
        }
        "sigmoid" | "hardsigmoid" => [b.pos_zero, b.one, b.half, b.half],
        "tanh" | "softsign" | "erf" => [b.neg_one, b.one, b.neg_zero, b.pos_zero],
        "softplus" => [b.pos_zero, b.inf, b.ln2, b.ln2],
        "logsigmoid" => [b.neg_inf, b.neg_zero, neg_ln2, neg_ln2],
        "elu" => [b.neg_one, b.inf, b.neg_zero, b.pos_zero],
        "selu" => [b.neg_lambda_alpha, b.inf, b.neg_zero, b.pos_zero],
        "exp" => [b.pos_zero, b.inf, b.one, b.one],
        // At their default constants (docs/SEMANTICS.md).
        "identity" => [b.neg_inf, b.inf, b.neg_zero, b.pos_zero],
        "relu" | "relu2" => [b.pos_zero, b.inf, b.pos_zero, b.pos_zero],
        "relu6" => [b.pos_zero, b.six, b.pos_zero, b.pos_zero],
        "leaky_relu" => [b.neg_inf, b.inf, b.neg_zero, b.pos_zero],
        "swish" => [b.neg_zero, b.inf, b.neg_zero, b.pos_zero],
        "hardtanh" => [b.neg_one, b.one, b.neg_zero, b.pos_zero],
        "celu" => [b.neg_one, b.inf, b.neg_zero, b.pos_zero],
        "situ" => [b.neg_zero, b.four, b.neg_zero, b.pos_zero],
        "swiglu_oai" => [b.neg_zero, b.swiglu_oai_limit, b.neg_zero, b.pos_zero],
        "laplace" => [b.pos_zero, b.one, b.laplace_zero, b.laplace_zero],
        "sqrtsoftplus" => [b.pos_zero, b.inf, b.sqrt_ln2, b.sqrt_ln2],
        "log" => [b.default_nan, b.inf, b.neg_inf, b.neg_inf],
        "rsqrt" => [b.default_nan, b.pos_zero, b.neg_inf, b.inf],
        other => panic!("{other} needs its row of special values here (from docs/SEMANTICS.md)"),
    }
}

fn check(name: &str, b: &Bits, eval: impl Fn(Function, u16) -> u16) {
    // The functions with built-in tables (every constant with a default); the others are
    // ops of their constants (tests/tables/op_tables.rs).
    for act in Function::ALL.into_iter().filter(|f| f.has_defaults()) {
        let want = expected(act, b);
        let inputs = [b.neg_inf, b.inf, b.neg_zero, b.pos_zero];
        let labels = ["-inf", "+inf", "-0", "+0"];
        for k in 0..4 {
            let got = eval(act, inputs[k]);
            assert_eq!(
                got,
                want[k],
                "{}_{name} at {}: got {got:#06x}, want {:#06x}",
                act.name(),
                labels[k],
                want[k]
            );
        }
        // NaN inputs: the same NaN, quieted, sign and payload kept.
        for nan in [
            b.inf | 1,
            b.inf | 0x5,
            b.neg_inf | 0x3,
            b.default_nan,
            b.neg_inf | b.quiet | 1,
        ] {
            assert_eq!(
                eval(act, nan),
                nan | b.quiet,
                "{}_{name} at NaN {nan:#06x}",
                act.name()
            );
        }
        // A NaN made from a non-NaN input: the positive default NaN.
        if matches!(act, Function::Log | Function::Rsqrt) {
            assert_eq!(
                eval(act, b.neg_one),
                b.default_nan,
                "{}_{name}(-1)",
                act.name()
            );
        }
    }
}

#[test]
fn f16_special_inputs_follow_semantics() {
    check("f16", &F16, computed::f16_bits);
}

#[test]
fn bf16_special_inputs_follow_semantics() {
    check("bf16", &BF16, computed::bf16_bits);
}

/// The two irrational constants above, rounded here from their decimal
/// expansions with half's f32 conversion (correctly rounded from f32, and the
/// f32 values are far from any f16/bf16 midpoint).
#[test]
fn irrational_special_values_are_the_rounded_constants() {
    use half::{bf16, f16};
    assert_eq!(f16::from_f32(core::f32::consts::LN_2).to_bits(), F16.ln2);
    assert_eq!(bf16::from_f32(core::f32::consts::LN_2).to_bits(), BF16.ln2);
    assert_eq!(f16::from_f32(-1.758_099_3).to_bits(), F16.neg_lambda_alpha);
    assert_eq!(
        bf16::from_f32(-1.758_099_3).to_bits(),
        BF16.neg_lambda_alpha
    );
}

/// Hand-checked values away from the special inputs.
#[test]
fn selected_finite_values() {
    use half::f16;
    let f = |act: Function, x: f32| computed::f16(act, f16::from_f32(x)).to_f32();
    assert_eq!(f(Function::Hardswish, -3.0).to_bits(), (-0.0f32).to_bits()); // x ≤ −3: −0
    assert_eq!(f(Function::Hardsigmoid, -3.0).to_bits(), 0.0f32.to_bits()); // exact zero: +0
    assert_eq!(f(Function::Log, 1.0).to_bits(), 0.0f32.to_bits()); // ln 1 = +0
    assert_eq!(f(Function::Exp, 12.0), f32::INFINITY); // e^12 = 162755 > 65520
    assert_eq!(f(Function::Rsqrt, 4.0), 0.5);
    assert_eq!(f(Function::Elu, 3.5), 3.5);
    assert_eq!(f(Function::Softsign, 3.0), 0.75);
    assert_eq!(f(Function::Hardswish, 1.5), 1.125); // 1.5·4.5/6
    assert_eq!(f(Function::Relu, -2.0).to_bits(), 0.0f32.to_bits()); // +0
    assert_eq!(f(Function::Relu2, 3.0), 9.0);
    assert_eq!(f(Function::Relu6, 7.0), 6.0);
    assert_eq!(f(Function::Hardtanh, 2.0), 1.0);
    assert_eq!(f(Function::LeakyRelu, -4.0), -0.040_008_545); // −0.04 rounded to f16
    assert_eq!(f(Function::Identity, -0.5), -0.5);
}

#[test]
#[should_panic(expected = "source slice length (3) does not match destination slice length (2)")]
#[cfg(all(feature = "gelu", feature = "f16"))]
fn map_with_different_lengths_panics_naming_both() {
    let xs = [half::f16::ZERO; 3];
    let mut ys = [half::f16::ZERO; 2];
    actlut::gelu::map_f16(&xs, &mut ys);
}

/// Behind a `Result`, the same mistake is an `Err` with the same message, for
/// every typed map of `Function`, and nothing is written.
#[test]
#[cfg(all(feature = "gelu", feature = "f16", feature = "bf16"))]
fn activation_maps_with_different_lengths_are_errors_naming_both() {
    use actlut::{LengthMismatch, MapError};
    let want = Err(MapError::LengthMismatch(LengthMismatch { src: 3, dst: 2 }));
    let mut ys = [half::f16::ONE; 2];
    assert_eq!(Function::Gelu.map_f16(&[half::f16::ZERO; 3], &mut ys), want);
    assert_eq!(ys, [half::f16::ONE; 2]);
    let mut ys = [half::bf16::ONE; 2];
    let got = Function::Gelu.map_bf16(&[half::bf16::ZERO; 3], &mut ys);
    assert_eq!(got, want);
    assert_eq!(ys, [half::bf16::ONE; 2]);
    assert_eq!(
        got.unwrap_err().to_string(),
        "actlut: source slice length (3) does not match destination slice length (2)"
    );
}

/// A missing table is reported before the lengths are looked at.
#[test]
#[cfg(not(feature = "bf16"))]
fn a_missing_table_is_the_error_of_a_map_with_any_lengths() {
    let err = Function::Gelu
        .map_bf16(&[half::bf16::ZERO; 3], &mut [half::bf16::ZERO; 2])
        .unwrap_err();
    assert!(matches!(err, actlut::MapError::MissingTable(_)));
}

#[test]
fn missing_tables_name_their_features() {
    let err = actlut::MissingTable {
        function: Function::GeluTanh,
        format: actlut::Format::Bf16,
    };
    assert_eq!(
        err.to_string(),
        "the gelu_tanh_bf16 table is not compiled in: enable the cargo features `gelu-tanh` and `bf16` of actlut"
    );
    #[cfg(not(all(feature = "gelu-tanh", feature = "bf16")))]
    assert_eq!(Function::GeluTanh.table_bf16().unwrap_err(), err);
}

/// `unwrap()` shows `Debug`: it names the features to enable too.
#[test]
fn missing_table_debug_names_the_features_to_enable() {
    let err = actlut::MissingTable {
        function: Function::GeluTanh,
        format: actlut::Format::Fp8E5M2,
    };
    let debug = format!("{err:?}");
    assert!(
        debug.contains("GeluTanh") && debug.contains("Fp8E5M2"),
        "{debug}"
    );
    assert!(debug.contains(&err.to_string()), "{debug}");
    assert!(
        debug.contains("enable the cargo features `gelu-tanh` and `fp8-e5m2`"),
        "{debug}"
    );
}

/// What `unwrap()` prints for a table that is not compiled in.
#[cfg(not(all(feature = "exp", feature = "bf16")))]
#[test]
#[should_panic(expected = "enable the cargo features `exp` and `bf16` of actlut")]
fn unwrapping_a_missing_table_names_the_features_to_enable() {
    let _ = Function::Exp.table(actlut::Format::Bf16).unwrap();
}

/// Every function and every format not compiled in gives `MissingTable`
/// naming both; every one compiled in gives its table.
#[test]
fn every_missing_table_names_its_function_and_format() {
    for format in actlut::Format::ALL {
        for act in Function::ALL {
            match act.table(format) {
                Ok(t) => assert_eq!(t.entries(), format.entries()),
                Err(e) if !format.can_represent(act) => {
                    // No such table at all (log, rsqrt over FP6/FP4): the message says why.
                    assert_eq!((e.function, e.format), (act, format));
                    let msg = e.to_string();
                    let name = format!("{}_{}", act.name(), format.name());
                    assert!(msg.contains(&name) && msg.contains("has no NaN"), "{msg}");
                }
                Err(e) if !act.has_defaults() => {
                    // No built-in table (a constant without default): the message says how
                    // to make one.
                    assert_eq!((e.function, e.format), (act, format));
                    let msg = e.to_string();
                    assert!(
                        msg.contains("has no default") && msg.contains("fill_table"),
                        "{msg}"
                    );
                }
                Err(e) => {
                    assert_eq!((e.function, e.format), (act, format));
                    let msg = e.to_string();
                    assert!(msg.contains(&format!("`{}`", act.feature())), "{msg}");
                    assert!(msg.contains(&format!("`{}`", format.feature())), "{msg}");
                }
            }
        }
    }
}

#[test]
fn parsing_accepts_every_name_and_feature() {
    for f in Function::ALL {
        assert_eq!(f.name().parse::<Function>(), Ok(f));
        assert_eq!(f.feature().parse::<Function>(), Ok(f));
    }
}

#[test]
fn engines_names_parse_to_the_same_exact_function() {
    // Stated here from each engine's documentation, not read from the table.
    let cases = [
        ("gelu_erf", Function::Gelu),                     // candle
        ("gelu_approximate", Function::GeluTanh),         // burn
        ("log_sigmoid", Function::Logsigmoid),            // burn
        ("hard_swish", Function::Hardswish),              // burn
        ("GELU", Function::Gelu),                         // PyTorch
        ("GELU(approximate='none')", Function::Gelu),     // PyTorch
        ("GELU(approximate='tanh')", Function::GeluTanh), // PyTorch
        ("SiLU", Function::Silu),                         // PyTorch
        ("Hardsigmoid", Function::Hardsigmoid),           // PyTorch (slope 1/6)
        ("Gelu", Function::Gelu),                         // ONNX
        ("Sigmoid", Function::Sigmoid),                   // ONNX
        ("Softplus", Function::Softplus),                 // ONNX
        ("gelu_pytorch_tanh", Function::GeluTanh),        // Hugging Face
        ("quick_gelu", Function::GeluQuick),              // Hugging Face
    ];
    for (name, want) in cases {
        assert_eq!(name.parse::<Function>(), Ok(want), "{name}");
    }
    // Same names, other functions: ONNX's and burn's hard sigmoid default to slope 0.2;
    // matching is exact, so a lowercase PyTorch module name is not guessed.
    for name in [
        "HardSigmoid",
        "hard_sigmoid",
        "silu_",
        "gelu(approximate='tanh')",
        "gelu_10",
        "PReLU",
    ] {
        assert!(name.parse::<Function>().is_err(), "{name}");
    }
}

#[test]
fn the_unknown_name_error_says_where_the_engines_names_are_listed() {
    let msg = "GeLU".parse::<Function>().unwrap_err().to_string();
    assert!(msg.contains("actlut_core::names::ENGINE_NAMES"), "{msg}");
    assert!(msg.contains("docs/SEMANTICS.md"), "{msg}");
    // Short enough to read: actlut's names and one pointer, not every alias.
    assert!(!msg.contains("SiLU"), "{msg}");
}

#[test]
fn an_unknown_name_is_repeated_in_the_error() {
    let err = "gelux".parse::<Function>().unwrap_err();
    assert_eq!(err.name(), "gelux");
    assert!(!err.is_truncated());
    let msg = err.to_string();
    assert!(
        msg.starts_with("unknown function name `gelux`: expected one of gelu, "),
        "{msg}"
    );
    for act in Function::ALL {
        assert!(msg.contains(act.name()), "{msg}");
    }
    let debug = format!("{err:?}");
    assert!(debug.contains("\"gelux\""), "{debug}");
    // Empty, and a long name cut at a character boundary.
    assert_eq!("".parse::<Function>().unwrap_err().name(), "");
    let long = "é".repeat(30); // 60 bytes
    let err = long.parse::<Function>().unwrap_err();
    assert!(err.is_truncated());
    assert_eq!(err.name(), "é".repeat(20));
    assert!(err.to_string().contains(&format!("`{}…`", "é".repeat(20))));
}
