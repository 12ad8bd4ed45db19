//! `actlut quant` end to end: the file holds the entries in code order, little-endian, each as
//! wide as the output type; the printed line is the file's SHA-256; scales round to the
//! nearest `f32`; `--compact` writes a stored form that decodes to the same entries; and each
//! bad input is exit status 2 with one line.

use std::path::{Path, PathBuf};

use crate::actlut;
use actlut::quant::Rounding;
use actlut::quant16::DequantTable16;
use actlut::Function;
use actlut_codegen::compact::CompactRef;

fn dir() -> PathBuf {
    let p = Path::new(env!("CARGO_TARGET_TMPDIR")).join("quant-cli");
    std::fs::create_dir_all(&p).unwrap();
    p
}

/// Runs `actlut quant ARGS --output FILE`, checks the printed hash, returns the file's bytes.
fn quant(name: &str, args: &[&str]) -> Vec<u8> {
    let path = dir().join(name);
    let path_s = path.to_str().unwrap();
    let mut all = vec!["quant"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--output", path_s]);
    let o = actlut(&all);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let bytes = std::fs::read(&path).unwrap();
    let hash = actlut_codegen::hex(&actlut_codegen::sha256(&bytes));
    assert_eq!(
        String::from_utf8(o.stdout).unwrap(),
        format!("{hash}  {path_s}\n")
    );
    bytes
}

#[test]
fn identity_i16_to_i16_writes_every_code_in_bit_order_little_endian() {
    let b = quant(
        "id.bin",
        &[
            "identity",
            "--in",
            "i16",
            "--scale",
            "1",
            "--zero-point",
            "0",
            "--out",
            "i16",
            "--out-scale",
            "1",
        ],
    );
    let want: Vec<u8> = (0..=u16::MAX).flat_map(|i| i.to_le_bytes()).collect();
    assert_eq!(b, want);
}

#[test]
fn entries_are_as_wide_as_the_output_type() {
    let common = [
        "identity",
        "--in",
        "u8",
        "--scale",
        "0.5",
        "--zero-point",
        "10",
    ];
    let f32s = quant("f32.bin", &[&common[..], &["--out", "f32"]].concat());
    let want: Vec<u8> = (0..=255i32)
        .flat_map(|q| ((q - 10) as f32 * 0.5).to_le_bytes())
        .collect();
    assert_eq!(f32s, want);
    let f16s = quant("f16.bin", &[&common[..], &["--out", "f16"]].concat());
    assert_eq!(f16s.len(), 512);
    assert_eq!(&f16s[2 * 12..][..2], &0x3C00u16.to_le_bytes()); // (12 − 10) · 0.5 = 1
    let u8s = quant(
        "u8.bin",
        &[
            &common[..],
            &["--out", "u8", "--out-scale", "1", "--out-zero-point", "5"],
        ]
        .concat(),
    );
    assert_eq!(u8s.len(), 256);
    assert_eq!(u8s[12], 6); // 1 + 5
    assert_eq!(u8s[0], 0); // −5 + 5
    let i4 = quant(
        "i4.bin",
        &[
            "identity",
            "--in",
            "i4",
            "--scale",
            "1",
            "--zero-point",
            "0",
            "--out",
            "i8",
            "--out-scale",
            "1",
        ],
    );
    assert_eq!(
        i4,
        [0, 1, 2, 3, 4, 5, 6, 7, 0xF8, 0xF9, 0xFA, 0xFB, 0xFC, 0xFD, 0xFE, 0xFF]
    );
    // 2-bit codes: four entries, indexed by the two bits (i2 −2 is code 2).
    let i2 = quant(
        "i2.bin",
        &[
            "identity",
            "--in",
            "i2",
            "--scale",
            "1",
            "--zero-point",
            "0",
            "--out",
            "i8",
            "--out-scale",
            "1",
        ],
    );
    assert_eq!(i2, [0, 1, 0xFE, 0xFF]);
}

#[test]
fn the_tflite_sigmoid_table_is_the_library_table_and_ties_away_is_an_option() {
    let args = |r: &'static str| {
        vec![
            "sigmoid",
            "--in",
            "i16",
            "--scale",
            "0.000244140625",
            "--zero-point",
            "0",
            "--out",
            "i16",
            "--out-scale",
            "0.000030517578125",
            "--out-zero-point",
            "0",
            "--rounding",
            r,
        ]
    };
    let away = quant("sig-away.bin", &args("ties-away"));
    let mut buf = vec![0i16; 65_536];
    let t = DequantTable16::<i16, i16>::requantized_in(
        &mut buf,
        Function::Sigmoid,
        1.0 / 4096.0,
        0,
        1.0 / 32768.0,
        0,
        Rounding::TiesAwayFromZero,
    )
    .unwrap();
    let want: Vec<u8> = t.entries().iter().flat_map(|e| e.to_le_bytes()).collect();
    assert_eq!(away, want);
    // sigmoid(0) · 2^15 = 16384 at code 0.
    assert_eq!(&away[..2], &16384i16.to_le_bytes());
    let compact = quant(
        "sig.compact",
        &[&args("ties-away")[..], &["--compact"]].concat(),
    );
    assert!(compact.starts_with(b"ACTLUTC1"));
    let view = CompactRef::from_bytes(&compact).unwrap();
    for (i, e) in t.entries().iter().enumerate() {
        assert_eq!(view.get(i as u16), *e as u16, "{i:#06x}");
    }
    let spline = quant(
        "sig.spline",
        &[&args("ties-away")[..], &["--spline"]].concat(),
    );
    assert!(spline.starts_with(b"ACTLUTS1"));
    assert!(spline.len() <= 8 * 1024, "{}", spline.len());
    let view = actlut_codegen::spline::SplineRef::from_bytes(&spline).unwrap();
    for (i, e) in t.entries().iter().enumerate() {
        assert_eq!(view.get(i as u16), *e as u16, "{i:#06x}");
    }
}

#[test]
fn scales_round_to_the_nearest_f32() {
    // 0.1 is not an f32; its nearest f32 is 0.100000001490116119384765625. A decimal a little
    // above it (still nearest to the same f32) gives the same table; the next f32's decimal
    // gives another.
    let base = [
        "identity",
        "--in",
        "i8",
        "--zero-point",
        "0",
        "--out",
        "f32",
    ];
    let a = quant("s1.bin", &[&base[..], &["--scale", "0.1"]].concat());
    let b = quant(
        "s2.bin",
        &[&base[..], &["--scale", "0.1000000033"]].concat(),
    );
    let c = quant("s3.bin", &[&base[..], &["--scale", "0.10000001"]].concat());
    assert_eq!(a, b);
    assert_ne!(a, c);
    assert_eq!(&a[4..8], &0.1f32.to_le_bytes());
}

#[test]
fn bad_input_is_exit_status_2_with_one_line() {
    let out = dir().join("bad.bin");
    let out = out.to_str().unwrap();
    // Each case: the arguments (split at spaces) and what the message names.
    let cases: &[(&str, &str)] = &[
        (
            "gelu --in i16 --scale 0 --zero-point 0 --out f32",
            "--scale",
        ),
        (
            "gelu --in i16 --scale -1 --zero-point 0 --out f32",
            "--scale",
        ),
        (
            "gelu --in i16 --scale inf --zero-point 0 --out f32",
            "--scale",
        ),
        (
            "gelu --in i16 --scale 1e-45 --zero-point 0 --out f32",
            "subnormal",
        ),
        (
            "gelu --in i16 --scale 0.1 --zero-point 32768 --out f32",
            "zero_point = 32768",
        ),
        (
            "gelu --in u16 --scale 0.1 --zero-point -1 --out f32",
            "outside u16",
        ),
        (
            "gelu --in i16 --scale 0.1 --zero-point 0 --out i8 --out-scale 1 --out-zero-point 200",
            "out_zero_point = 200",
        ),
        (
            "gelu --in i16 --scale 0.1 --zero-point 0 --out f16 --out-scale 1",
            "--out-scale applies only",
        ),
        (
            "gelu --in i16 --scale 0.1 --zero-point 0 --out i16",
            "needs --out-scale",
        ),
        (
            "gelu --in i16 --scale 0.1 --zero-point 0 --out i16 --out-scale 1 --rounding even",
            "'even' for '--rounding <ROUNDING>'",
        ),
        (
            "gelux --in i16 --scale 0.1 --zero-point 0 --out f32",
            "unknown function",
        ),
        (
            "gelu --in i32 --scale 0.1 --zero-point 0 --out f32",
            "'i32' for '--in <TYPE>'",
        ),
        (
            "gelu --in i16 --scale 0.1 --zero-point 0 --out f64",
            "'f64' for '--out <TYPE>'",
        ),
        (
            "gelu --in i16 --scale 0.1 --zero-point 0 --out f32 --compact",
            "--compact needs",
        ),
        (
            "gelu --in i16 --scale x --zero-point 0 --out f32",
            "not a number: expected a decimal",
        ),
        (
            "gelu --in i16 --scale 0.1 --zero-point 1.5 --out f32",
            "not an integer",
        ),
        ("gelu --in i16 --scale 0.1 --out f32", "--zero-point"),
        (
            "gelu --in i16 --scale 0.1 --scale 0.2 --zero-point 0 --out f32",
            "'--scale <S>' cannot be used multiple times",
        ),
        (
            "gelu --in i16 --scale 0.1 --zero-point 0 --out f32 --bogus",
            "unexpected argument '--bogus'",
        ),
    ];
    // Each case: the arguments (split at spaces) and what the message names.
    let spline_cases: &[(&str, &str)] = &[
        (
            "gelu --in i16 --scale 0.1 --zero-point 0 --out f32 --spline",
            "--spline needs",
        ),
        (
            "gelu --in i16 --scale 0.1 --zero-point 0 --out f16 --spline --compact",
            "'--spline' cannot be used with '--compact'",
        ),
    ];
    for (args, needle) in cases.iter().chain(spline_cases) {
        let mut all = vec!["quant"];
        all.extend(args.split(' '));
        all.extend_from_slice(&["--output", out]);
        let o = actlut(&all);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
    let o = actlut(&[
        "quant",
        "gelu",
        "--in",
        "i8",
        "--scale",
        "0.1",
        "--zero-point",
        "0",
        "--out",
        "f32",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--output"));
}

#[test]
fn scales_written_as_fractions_or_powers_of_two_write_the_decimal_scales_table() {
    let table_spline = || {
        quant(
            "sig-pow.spline",
            &[
                "sigmoid",
                "--in",
                "i16",
                "--scale",
                "2^-12",
                "--zero-point",
                "0",
                "--out",
                "i16",
                "--out-scale",
                "2^-15",
                "--rounding",
                "ties-away",
                "--spline",
            ],
        )
    };
    let table = |name: &str, scale: &str, out_scale: &str| {
        quant(
            name,
            &[
                "sigmoid",
                "--in",
                "i16",
                "--scale",
                scale,
                "--zero-point",
                "0",
                "--out",
                "i16",
                "--out-scale",
                out_scale,
                "--rounding",
                "ties-away",
            ],
        )
    };
    let decimal = table("sig-dec.bin", "0.000244140625", "0.000030517578125");
    assert_eq!(table("sig-frac.bin", "1/4096", "1/32768"), decimal);
    assert_eq!(table("sig-pow.bin", "2^-12", "2^-15"), decimal);
    // The committed copies that tests/quant16.rs loads with `include_bytes!`.
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data");
    assert_eq!(
        decimal,
        std::fs::read(format!("{root}/sigmoid_i16.bin")).unwrap()
    );
    let spline = table_spline();
    assert_eq!(
        spline,
        std::fs::read(format!("{root}/sigmoid_i16.spline")).unwrap()
    );
    // docs/quant16.md's line for this table.
    assert_eq!(
        actlut_codegen::hex(&actlut_codegen::sha256(&decimal)),
        "959a999a94248f85e3081d12b09474b79142d39253bb36c2aa7628a8005ce7b9"
    );
    for (scale, says) in [
        ("1/0", "denominator"),
        ("2^", "power of two"),
        ("-1/4", "fraction"),
        ("2^128", "outside f32"),
    ] {
        let o = actlut(&[
            "quant",
            "sigmoid",
            "--in",
            "i16",
            "--scale",
            scale,
            "--zero-point",
            "0",
            "--out",
            "f32",
            "--output",
            "/dev/null",
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{scale}: {err}");
        assert!(
            err.contains(says) && err.lines().count() == 1,
            "{scale}: {err}"
        );
    }
}
