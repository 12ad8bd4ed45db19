//! Ops in the command line: `actlut ulp` and `actlut quant` take a function with constants
//! (`softcap(cap=30)`), an engine's name (`gelu_10`) and `--derivative`; the report names the
//! op; bad constants are one line naming the constant, exit 2.
//!
//! The tables graded here are filled by `actlut::fill_table` (the library's run-time path),
//! anchored at a few inputs to values computed here in `f64` (far from any rounding
//! boundary); the command must count the planted errors in them exactly.

use std::path::{Path, PathBuf};

use crate::{actlut, stderr, stdout};
use actlut::half::{bf16, f16};
use actlut::{fill_table, EvalError, Format, Op};

fn tmp_file(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ops-files");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

fn op(text: &str) -> Op {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The 16-bit table of `op` over `format`, filled at run time.
fn words(op: &Op, format: Format) -> Result<Vec<u16>, EvalError> {
    let mut t = vec![0u16; 65536];
    fill_table(op, format, &mut t)?;
    Ok(t)
}

fn word_bytes(w: &[u16]) -> Vec<u8> {
    w.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// The parsed `--json` report and the exit status.
fn grade_json(args: &[&str]) -> (Option<i32>, serde_json::Value) {
    let mut all = vec!["ulp"];
    all.extend_from_slice(args);
    all.push("--json");
    let o = actlut(&all);
    let v = serde_json::from_str(&stdout(&o)).unwrap_or_else(|e| {
        panic!("{args:?}: {e}: {} {}", stdout(&o), stderr(&o));
    });
    (o.status.code(), v)
}

/// Exit 2, nothing on standard output, one line on standard error that says `says`.
fn assert_usage_error(args: &[&str], says: &str) {
    let o = actlut(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stdout(&o));
    assert!(stdout(&o).is_empty(), "{args:?}: {}", stdout(&o));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.starts_with("actlut: error: "), "{args:?}: {err}");
    assert!(err.contains(says), "{args:?}: `{says}` not in {err}");
}

#[test]
fn ulp_grades_an_op_with_constants_and_counts_planted_errors() {
    let softcap = op("softcap(cap=30)");
    let mut t = words(&softcap, Format::Bf16).unwrap();
    // Anchors: 30·tanh(x/30) in f64, rounded to bf16, at inputs far from a rounding boundary.
    for x in [1.0f64, 3.0, -2.0, 100.0] {
        let b = bf16::from_f64(x).to_bits();
        let want = bf16::from_f64(30.0 * (x / 30.0).tanh()).to_bits();
        assert_eq!(t[usize::from(b)], want, "softcap(cap=30) at {x}");
    }
    let good = tmp_file("softcap_bf16.bin", &word_bytes(&t));
    for spelled in [
        "softcap(cap=30)",
        "softcap( cap = 30.0 )",
        "softcap(cap=60/2)",
    ] {
        let (code, v) = grade_json(&[spelled, "bf16", good.to_str().unwrap()]);
        assert_eq!(code, Some(0), "{spelled}: {v}");
        assert_eq!(v["table"], "softcap(cap=30)_bf16");
        assert_eq!(v["op"], "softcap(cap=30)");
        assert_eq!(v["function"], "softcap");
    }
    // Positive values go up with their bits, negative ones down (away from zero).
    for (b, k) in [(0x3F80usize, 1u16), (0x4040, 3), (0xC000, 2)] {
        t[b] += k;
    }
    let bad = tmp_file("softcap_bf16_planted.bin", &word_bytes(&t));
    let (code, v) = grade_json(&["softcap(cap=30)", "bf16", bad.to_str().unwrap()]);
    assert_eq!(code, Some(1));
    assert_eq!((&v["mismatches"], &v["max_ulp"]), (&3.into(), &3.into()));
    // The exact value shown is softcap(cap=30)'s: 30·tanh(0.1) at 3.0.
    let worst = &v["worst"][0];
    assert_eq!(worst["input"], "0x4040");
    let exact: f64 = worst["exact"].as_str().unwrap().parse().unwrap();
    assert!((exact - 30.0 * 0.1f64.tanh()).abs() < 1e-15, "{exact}");
    let text = stdout(&actlut(&[
        "ulp",
        "softcap(cap=30)",
        "bf16",
        bad.to_str().unwrap(),
    ]));
    assert!(
        text.starts_with("softcap(cap=30)_bf16: 3 of 65536 entries not correctly rounded"),
        "{text}"
    );
}

#[test]
fn ulp_takes_the_engines_names() {
    for (name, text) in [
        ("gelu_10", "gelu_clipped(min=-10,max=10)"),
        ("gelu_pytorch_tanh", "gelu_tanh"),
        ("swigluoai", "swiglu_oai"),
        ("quick_gelu", "gelu_quick"),
        ("linear", "identity"),
    ] {
        let t = words(&op(text), Format::F16).unwrap();
        let f = tmp_file(&format!("{name}_f16.bin"), &word_bytes(&t));
        let (code, v) = grade_json(&[name, "f16", f.to_str().unwrap()]);
        assert_eq!(code, Some(0), "{name}: {v}");
        assert_eq!(v["op"], text, "{name}");
    }
}

#[test]
fn bad_constants_are_one_line_naming_the_constant() {
    let t = words(&op("gelu"), Format::F16).unwrap();
    let f = tmp_file("gelu_f16.bin", &word_bytes(&t));
    let f = f.to_str().unwrap();
    for (function, says) in [
        (
            "softcap",
            "softcap needs its constant `cap` (it has no default)",
        ),
        ("prelu", "prelu needs its constant `weight`"),
        ("PReLU", "prelu needs its constant `weight`"),
        ("xielu", "xielu needs its constant `alpha_p`"),
        ("softcap(cap=0)", "softcap's `cap` must be positive, got 0"),
        (
            "softcap(cap=-3)",
            "softcap's `cap` must be positive, got -3",
        ),
        ("softcap(cap=inf)", "softcap's `cap`: not finite"),
        ("softcap(cap=nan)", "softcap's `cap`: not finite"),
        (
            "hardtanh(min=2,max=1)",
            "hardtanh's `min` (2) must not exceed `max`",
        ),
        ("softcap(capp=30)", "softcap has no constant `capp`"),
        ("softcap(cap=30,cap=50)", "softcap's `cap` is given twice"),
        ("gelux", "unknown function name `gelux`"),
    ] {
        assert_usage_error(&["ulp", function, "f16", f], says);
        assert_usage_error(
            &[
                "quant",
                function,
                "--in",
                "i8",
                "--scale",
                "0.5",
                "--zero-point",
                "0",
                "--out",
                "f16",
                "--output",
                "unused.bin",
            ],
            says,
        );
    }
}

#[test]
fn ulp_derivative_grades_the_derivatives_table() {
    let d = op("hardswish").with_derivative(true);
    // `quant` refuses a derivative, naming the op.
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ops-quant-derivative.bin");
    assert_usage_error(
        &[
            "quant",
            "hardswish",
            "--derivative",
            "--in",
            "i8",
            "--scale",
            "0.5",
            "--zero-point",
            "0",
            "--out",
            "f16",
            "--output",
            out.to_str().unwrap(),
        ],
        "hardswish_derivative",
    );
    let mut t = words(&d, Format::F16).unwrap();
    // hardswish' is x/3 + 1/2 on (-3, 3]: 1/2 at 0, 5/6 at 1 (0x3AAB in f16).
    assert_eq!(t[0x0000], 0x3800);
    assert_eq!(t[0x3C00], f16::from_f64(5.0 / 6.0).to_bits());
    let good = tmp_file("hardswish_derivative_f16.bin", &word_bytes(&t));
    let (code, v) = grade_json(&["hardswish", "f16", good.to_str().unwrap(), "--derivative"]);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(v["table"], "hardswish_derivative_f16");
    t[0x3C00] += 2;
    let bad = tmp_file("hardswish_derivative_f16_planted.bin", &word_bytes(&t));
    for args in [
        ["hardswish", "f16", bad.to_str().unwrap(), "--derivative"],
        [
            "hardswish_derivative",
            "f16",
            bad.to_str().unwrap(),
            "--derivative",
        ],
    ] {
        let (code, v) = grade_json(&args);
        assert_eq!(code, Some(1));
        assert_eq!((&v["mismatches"], &v["max_ulp"]), (&1.into(), &2.into()));
        assert_eq!(v["op"], "hardswish_derivative");
    }
}

#[test]
fn quant_takes_an_op_with_constants() {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ops-quant.bin");
    let o = actlut(&[
        "quant",
        "leaky_relu(alpha=1/3)",
        "--in",
        "i8",
        "--scale",
        "0.25",
        "--zero-point",
        "3",
        "--out",
        "f16",
        "--output",
        path.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let got: Vec<u16> = std::fs::read(&path)
        .unwrap()
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    // Every dequantized code (q - 3)·0.25 is an f16 value: its entry is the f16 table's.
    let t = words(&op("leaky_relu(alpha=1/3)"), Format::F16).unwrap();
    assert_eq!(got.len(), 256);
    for (bits, &g) in got.iter().enumerate() {
        let q = i32::from(bits as u8 as i8);
        let x = f16::from_f64(f64::from(q - 3) * 0.25);
        assert_eq!(g, t[usize::from(x.to_bits())], "code {q}");
    }
    // leaky_relu(alpha=1/3) at -1: -1/3, rounded to f16 (0xB555).
    assert_eq!(t[0xBC00], 0xB555);
}

#[test]
fn help_says_ops_and_derivative_are_taken() {
    for command in ["ulp", "quant"] {
        let o = actlut(&[command, "--help"]);
        assert_eq!(o.status.code(), Some(0));
        let text = stdout(&o);
        for what in [
            "softcap(cap=30)",
            "leaky_relu(alpha=0.2)",
            "--derivative",
            "gelu_10",
        ] {
            assert!(
                text.contains(what),
                "`{what}` not in `actlut {command} --help`:\n{text}"
            );
        }
    }
}
