//! `actlut ulp` end to end: every table `actlut dump` writes grades as
//! correctly rounded (exit 0); planted errors are counted exactly, with the
//! planted maximum and histogram (exit 1); NaN for a number and the reverse
//! make the maximum unbounded, a NaN payload other than the table's does not
//! count; bad input gives one line on standard error and exit 2.
//!
//! The planted values are made without the command's ordinal ranking: among
//! positive values (and among negative ones) the bit patterns of f16, bf16 and
//! fp8 are in the order of the values, so `bits + k` is `k` values away; the
//! crossings of zero and infinity are counted by hand in each test.

use crate::{actlut, stderr, stdout};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Every table, dumped once per test run by `actlut dump`.
fn dump_dir() -> &'static Path {
    static D: OnceLock<PathBuf> = OnceLock::new();
    D.get_or_init(|| {
        let p = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ulp-dump");
        let _ = std::fs::remove_dir_all(&p);
        let o = actlut(&["dump", p.to_str().unwrap()]);
        assert!(o.status.success(), "actlut dump: {}", stderr(&o));
        p
    })
}

fn tmp_file(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ulp-files");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

/// The dumped table of `name` as 16-bit entries.
fn words(name: &str) -> Vec<u16> {
    let b = std::fs::read(dump_dir().join(format!("{name}.bin"))).unwrap();
    b.chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect()
}

fn word_bytes(w: &[u16]) -> Vec<u8> {
    w.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// The value of `"key": ` in the one-line JSON object (up to `,` or `}`).
fn field<'a>(json: &'a str, key: &str) -> &'a str {
    let pat = format!("\"{key}\": ");
    let start = json
        .find(&pat)
        .unwrap_or_else(|| panic!("no `{key}` in {json}"))
        + pat.len();
    let rest = &json[start..];
    let end = rest.find([',', '}']).unwrap();
    &rest[..end]
}

fn grade_json(function: &str, format: &str, file: &Path) -> (Option<i32>, String) {
    let o = actlut(&[
        "ulp",
        function,
        format,
        file.to_str().unwrap(),
        "--json",
        "--worst",
        "100",
    ]);
    assert!(stderr(&o).is_empty(), "no error expected: {}", stderr(&o));
    (o.status.code(), stdout(&o))
}

/// The format names, longest first, to split `<function>_<format>.bin`.
fn formats_longest_first() -> Vec<&'static str> {
    let mut names: Vec<&str> = actlut::Format::ALL.iter().map(|f| f.name()).collect();
    names.sort_by_key(|n| std::cmp::Reverse(n.len()));
    names
}

#[test]
fn every_dumped_table_grades_as_correctly_rounded() {
    let mut graded = 0;
    for entry in std::fs::read_dir(dump_dir()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let Some(stem) = name.strip_suffix(".bin") else {
            continue;
        };
        let format = formats_longest_first()
            .into_iter()
            .find(|f| stem.ends_with(&format!("_{f}")))
            .unwrap_or_else(|| panic!("`{name}`: a format this test does not know"));
        let function = &stem[..stem.len() - format.len() - 1];
        let o = actlut(&["ulp", function, format, path.to_str().unwrap()]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{name}: {}{}",
            stdout(&o),
            stderr(&o)
        );
        assert!(
            stdout(&o).starts_with(&format!("{stem}: 0 of ")),
            "{name}: {}",
            stdout(&o)
        );
        graded += 1;
    }
    // Every table of the manifest (one line each after the header).
    let manifest = stdout(&actlut(&["manifest", "--json"]));
    assert_eq!(graded, manifest.matches("\"name\":").count());
    assert!(graded > 100, "{graded} tables");
}

#[test]
fn planted_errors_give_exactly_their_count_maximum_and_histogram() {
    let mut t = words("gelu_f16");
    let positive: Vec<usize> = (0..0x7c00)
        .filter(|&i| (0x0400..0x7000).contains(&t[i]))
        .collect();
    let negative: Vec<usize> = (0x8000..0xfc00)
        .filter(|&i| (0x8400..0xf000).contains(&t[i]))
        .collect();
    // (input, steps): moving away from zero by `steps` keeps the sign.
    let planted = [
        (positive[10], 1),
        (positive[2000], 1),
        (positive[3000], 2),
        (negative[50], 2),
        (negative[700], 7),
        (positive[5000], 300),
    ];
    for &(i, k) in &planted {
        t[i] += k;
    }
    // +0 for -0 at input -0 and -0 for +0 at input +0: one step each.
    assert_eq!((t[0x8000], t[0x0000]), (0x8000, 0x0000));
    t[0x8000] = 0x0000;
    t[0x0000] = 0x8000;
    // -min subnormal to +min subnormal: -min, -0, +0, +min: three steps.
    let tiny = (0x8000..0x8400)
        .find(|&i| t[i] == 0x8001)
        .expect("gelu_f16 has an input that gives the smallest negative subnormal");
    t[tiny] = 0x0001;
    let file = tmp_file("gelu_f16_planted.bin", &word_bytes(&t));
    let (code, json) = grade_json("gelu", "f16", &file);
    assert_eq!(code, Some(1), "{json}");
    assert_eq!(field(&json, "entries"), "65536");
    assert_eq!(field(&json, "mismatches"), "9");
    assert_eq!(field(&json, "max_ulp"), "300");
    assert_eq!(field(&json, "nan_for_number"), "0");
    assert_eq!(field(&json, "number_for_nan"), "0");
    let histogram = &json[json.find("\"histogram\"").unwrap()..json.find("\"nan_for").unwrap()];
    assert_eq!(
        histogram,
        "\"histogram\": [{\"ulps\": 1, \"count\": 4}, {\"ulps\": 2, \"count\": 2}, \
         {\"ulps\": 3, \"count\": 1}, {\"ulps\": 7, \"count\": 1}, {\"ulps\": 300, \"count\": 1}], "
    );
    // The exact value keeps the sign of zero: gelu(-inf) = -0.
    let mut t = words("gelu_f16");
    t[0xfc00] = 0xfc00;
    let neg_inf = tmp_file("gelu_f16_neg_inf.bin", &word_bytes(&t));
    let (_, j) = grade_json("gelu", "f16", &neg_inf);
    assert_eq!(field(&j, "exact"), "\"-0\"", "{j}");
    // -inf (0xfc00) down to -0 (0x8000): one step per magnitude, 0x7c00.
    assert_eq!(field(&j, "max_ulp"), "31744");
    // The worst input comes first, with its input bits.
    let worst = &json[json.find("\"worst\"").unwrap()..];
    assert_eq!(field(worst, "input"), format!("\"0x{:04x}\"", planted[5].0));
    // The text form says the same.
    let o = actlut(&["ulp", "gelu", "f16", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let text = stdout(&o);
    assert!(
        text.starts_with(
            "gelu_f16: 9 of 65536 entries not correctly rounded\nmax error: 300 ulps\n"
        ),
        "{text}"
    );
}

#[test]
fn infinity_is_one_step_past_the_largest_finite_value_in_bf16() {
    let mut t = words("gelu_bf16");
    // gelu of the largest finite bf16 is itself; inf is one step past it.
    assert_eq!(t[0x7f7f], 0x7f7f);
    t[0x7f7f] = 0x7f80;
    let file = tmp_file("gelu_bf16_inf.bin", &word_bytes(&t));
    let (code, json) = grade_json("gelu", "bf16", &file);
    assert_eq!(code, Some(1));
    assert_eq!(field(&json, "mismatches"), "1");
    assert_eq!(field(&json, "max_ulp"), "1");
}

#[test]
fn nan_for_a_number_and_a_number_for_nan_are_unbounded() {
    let t0 = words("sigmoid_f16");
    // NaN where 0.5 is due (input +0).
    let mut t = t0.clone();
    assert_eq!(t[0], 0x3800);
    t[0] = 0x7e00;
    let file = tmp_file("sigmoid_nan_for_number.bin", &word_bytes(&t));
    let (code, json) = grade_json("sigmoid", "f16", &file);
    assert_eq!(code, Some(1));
    assert_eq!(field(&json, "mismatches"), "1");
    assert_eq!(field(&json, "max_ulp"), "null");
    assert_eq!(field(&json, "nan_for_number"), "1");
    assert_eq!(field(&json, "number_for_nan"), "0");
    // A number where NaN is due (input 0x7e00, a quiet NaN), and a 2-ulp error.
    let mut t = t0.clone();
    t[0x7e00] = 0x3c00;
    t[0x3c00] += 2;
    let file = tmp_file("sigmoid_number_for_nan.bin", &word_bytes(&t));
    let (code, json) = grade_json("sigmoid", "f16", &file);
    assert_eq!(code, Some(1));
    assert_eq!(field(&json, "mismatches"), "2");
    assert_eq!(field(&json, "max_ulp"), "null");
    assert_eq!(field(&json, "max_numeric_ulp"), "2");
    assert_eq!(field(&json, "nan_for_number"), "0");
    assert_eq!(field(&json, "number_for_nan"), "1");
    let o = actlut(&["ulp", "sigmoid", "f16", file.to_str().unwrap()]);
    assert!(
        stdout(&o).contains("number where NaN is due: 1\n"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn another_nan_payload_is_correct_and_counted_apart() {
    let mut t = words("tanh_f16");
    // A signalling NaN input: the table gives it quieted, with its payload.
    assert_eq!(t[0x7c01], 0x7e01);
    t[0x7c01] = 0x7e00;
    t[0xfc01] = 0x7e00;
    let file = tmp_file("tanh_payload.bin", &word_bytes(&t));
    let (code, json) = grade_json("tanh", "f16", &file);
    assert_eq!(code, Some(0), "{json}");
    assert_eq!(field(&json, "mismatches"), "0");
    assert_eq!(field(&json, "max_ulp"), "0");
    assert_eq!(field(&json, "nan_payloads_differ"), "2");
}

#[test]
fn fp8_and_fp4_entries_are_one_byte_and_invalid_codes_are_unbounded() {
    let mut t = std::fs::read(dump_dir().join("gelu_fp8_e4m3.bin")).unwrap();
    assert_eq!(t.len(), 256);
    // 1.0 (0x38): gelu(1) is positive; three codes up is three values up.
    t[0x38] += 3;
    let file = tmp_file("gelu_fp8.bin", &t);
    let (code, json) = grade_json("gelu", "fp8_e4m3", &file);
    assert_eq!(code, Some(1));
    assert_eq!(field(&json, "entries"), "256");
    assert_eq!(field(&json, "mismatches"), "1");
    assert_eq!(field(&json, "max_ulp"), "3");

    let mut t = std::fs::read(dump_dir().join("gelu_fp4_e2m1.bin")).unwrap();
    assert_eq!(t.len(), 16);
    t[1] = 0x10;
    let file = tmp_file("gelu_fp4.bin", &t);
    let (code, json) = grade_json("gelu", "fp4_e2m1", &file);
    assert_eq!(code, Some(1));
    assert_eq!(field(&json, "mismatches"), "1");
    assert_eq!(field(&json, "invalid_codes"), "1");
    assert_eq!(field(&json, "max_ulp"), "null");
}

/// Exit 2, nothing on standard output, one line on standard error that says
/// what is wrong.
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
fn bad_input_is_one_line_and_exit_2() {
    let good = dump_dir().join("gelu_f16.bin");
    let good = good.to_str().unwrap();
    let short = tmp_file("short.bin", &[0; 131_071]);
    let long = tmp_file("long.bin", &[0; 131_074]);
    let empty = tmp_file("empty.bin", &[]);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let missing = dir.join("no-such-file.bin");
    let (short, long, empty) = (
        short.to_str().unwrap(),
        long.to_str().unwrap(),
        empty.to_str().unwrap(),
    );
    assert_usage_error(
        &["ulp", "gelu", "f16", short],
        "has 131071 bytes; expected 131072 bytes",
    );
    assert_usage_error(
        &["ulp", "gelu", "f16", long],
        "has 131074 bytes; expected 131072 bytes",
    );
    // An f16 table given as fp8.
    assert_usage_error(
        &["ulp", "gelu", "fp8_e4m3", good],
        "has 131072 bytes; expected 256 bytes",
    );
    assert_usage_error(&["ulp", "gelu", "f16", empty], "is empty");
    assert_usage_error(
        &["ulp", "gelu", "f16", dir.to_str().unwrap()],
        "is a directory",
    );
    assert_usage_error(
        &["ulp", "gelu", "f16", missing.to_str().unwrap()],
        "cannot read",
    );
    assert_usage_error(
        &["ulp", "gelux", "f16", good],
        "unknown function name `gelux`",
    );
    assert_usage_error(&["ulp", "gelu", "f17", good], "unknown format name `f17`");
    // No table can exist: log is NaN for negative inputs and FP4 has no NaN.
    assert_usage_error(&["ulp", "log", "fp4_e2m1", good], "has no NaN");
    assert_usage_error(
        &["ulp", "gelu", "f16"],
        "the following required arguments were not provided: <FILE>",
    );
    assert_usage_error(&["ulp", "gelu", "f16", good, good], "unexpected argument");
    assert_usage_error(
        &["ulp", "gelu", "f16", good, "--bogus"],
        "unexpected argument '--bogus' found",
    );
    assert_usage_error(
        &["ulp", "gelu", "f16", good, "--worst", "x"],
        "invalid value 'x' for '--worst <N>'",
    );
    assert_usage_error(
        &["ulp", "gelu", "f16", good, "--rtol", "0.01"],
        "the following required arguments were not provided:",
    );
    assert_usage_error(
        &["ulp", "gelu", "f16", good, "--rtol", "-1", "--atol", "0"],
        "`-1` is not a finite, non-negative number",
    );
    assert_usage_error(
        &["ulp", "gelu", "f16", good, "--rtol", "0", "--atol", "nan"],
        "`nan` is not a finite, non-negative number",
    );
}

/// Errors of +3 and +7 ulps at chosen f16 inputs: the wrong entries each tolerance passes
/// (`hidden_by`), torch's and numpy's defaults and a given one, against a count made here from
/// the values (f16 values decoded by hand); and each listed input says how far its exact value
/// lies from a rounding midpoint.
#[test]
fn tolerances_count_the_wrong_entries_they_would_pass() {
    fn f16_value(b: u16) -> f64 {
        let (e, m) = (i32::from((b >> 10) & 0x1f), f64::from(b & 0x3ff));
        let v = if e == 0 {
            m * (2f64).powi(-24)
        } else {
            (1.0 + m / 1024.0) * (2f64).powi(e - 15)
        };
        if b & 0x8000 != 0 {
            -v
        } else {
            v
        }
    }
    let table = words("exp_f16");
    let mut t = table.clone();
    // exp of 1.0.. (positive, finite outputs): +3 and +7 ulps.
    let moves = [
        (0x3C00, 3),
        (0x3C40, 3),
        (0x4000, 7),
        (0x3800, 7),
        (0x4200, 3),
    ];
    for &(i, k) in &moves {
        t[i] += k;
    }
    let file = tmp_file("exp_f16_tolerances.bin", &word_bytes(&t));
    let o = actlut(&[
        "ulp",
        "exp",
        "f16",
        file.to_str().unwrap(),
        "--json",
        "--rtol",
        "0.004",
        "--atol",
        "0",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let independent = |rtol: f64, atol: f64| {
        moves
            .iter()
            .filter(|&&(i, _)| {
                let (a, e) = (f16_value(t[i]), f16_value(table[i]));
                (a - e).abs() <= atol + rtol * e.abs()
            })
            .count()
    };
    let counts: Vec<(String, u64)> = v["hidden_by"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["tolerance"].as_str().unwrap().to_string(),
                h["count"].as_u64().unwrap(),
            )
        })
        .collect();
    let want = [
        ("torch", independent(1e-3, 1e-5)),
        ("numpy", independent(1e-5, 1e-8)),
        ("given", independent(0.004, 0.0)),
    ];
    let want: Vec<(String, u64)> = want
        .iter()
        .map(|&(k, n)| (k.to_string(), n as u64))
        .collect();
    assert_eq!(counts, want);
    assert!(
        want[2].1 > 0 && want[2].1 < moves.len() as u64,
        "the given tolerance splits them"
    );
    assert_eq!(v["hidden_by"][2]["description"], "rtol=0.004, atol=0");
    for w in v["worst"].as_array().unwrap() {
        let d = w["midpoint_ulps"].as_f64().unwrap();
        assert!(d.abs() <= 0.5 + 1e-6, "{w}");
    }
    let o = actlut(&[
        "ulp",
        "exp",
        "f16",
        file.to_str().unwrap(),
        "--rtol",
        "0.004",
        "--atol",
        "0",
    ]);
    let text = stdout(&o);
    assert!(
        text.contains(&format!(
            "\n  {} of 5 pass rtol=0.004, atol=0 (rtol 0.004, atol 0)\n",
            want[2].1
        )),
        "{text}"
    );
    assert!(
        text.contains(" ulp below a midpoint): ") || text.contains(" ulp above a midpoint): "),
        "{text}"
    );
}

/// Other libraries' names of a format grade over that format; an ambiguous one is refused
/// naming both of actlut's formats, never taken as one of them.
#[test]
fn other_libraries_format_names_grade_over_the_format_they_name() {
    let file = dump_dir().join("gelu_fp8_e4m3.bin");
    for name in [
        "float8_e4m3fn",
        "torch.float8_e4m3fn",
        "FLOAT8E4M3FN",
        "e4m3fn",
    ] {
        let (code, json) = grade_json("gelu", name, &file);
        assert_eq!(code, Some(0), "{name}: {json}");
        assert_eq!(field(&json, "format"), "\"fp8_e4m3\"", "{name}");
    }
    // ml_dtypes' float8_e4m3 is the IEEE-like E4M3: the fp8_e4m3 table is not its table.
    let (code, json) = grade_json("gelu", "float8_e4m3", &file);
    assert_eq!(code, Some(1), "{json}");
    assert_eq!(field(&json, "format"), "\"fp8_e4m3ieee\"");
    let good = file.to_str().unwrap();
    assert_usage_error(&["ulp", "gelu", "e4m3", good], "fp8_e4m3ieee");
}

#[test]
fn help_shows_how_to_produce_the_file() {
    let o = actlut(&["ulp", "--help"]);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    for what in ["numpy", "PyTorch", "candle", "131072 bytes"] {
        assert!(text.contains(what), "`{what}` not in the help");
    }
}

/// The JSON type of `v`, as docs/ulp.md names the value types.
fn kind(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "bool",
        serde_json::Value::Number(n) if n.is_u64() => "count",
        serde_json::Value::Number(_) => "number",
        serde_json::Value::String(_) => "string",
        serde_json::Value::Array(_) => "list",
        serde_json::Value::Object(_) => "object",
    }
}

/// The keys of `object` with the type of each value, in the order of the
/// text (the key order users see).
fn keys(text: &str, object: &serde_json::Value) -> Vec<(String, &'static str)> {
    let map = object.as_object().expect("an object");
    let mut keys: Vec<(usize, String, &'static str)> = map
        .iter()
        .map(|(k, v)| {
            (
                text.find(&format!("\"{k}\": ")).unwrap(),
                k.clone(),
                kind(v),
            )
        })
        .collect();
    keys.sort();
    keys.into_iter().map(|(_, k, t)| (k, t)).collect()
}

/// `actlut ulp --json` parses as JSON, one object on one line, with the keys
/// and value types of docs/ulp.md (and of the Python package's
/// `Grade.to_dict()`), unbounded errors as `null`.
#[test]
fn the_json_report_parses_with_the_documented_keys_and_types() {
    let mut t = words("gelu_f16");
    t[0x3C00] += 2; // 2 ulps
    t[0x4000] = 0x7E00; // NaN for a number: max_ulp null
    let file = tmp_file("gelu_f16_json_keys.bin", &word_bytes(&t));
    let (code, json) = grade_json("gelu", "f16", &file);
    assert_eq!(code, Some(1));
    assert!(json.ends_with("}\n") && json.lines().count() == 1, "{json}");
    let v: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
    let owned = |k: &[(&str, &'static str)]| -> Vec<(String, &'static str)> {
        k.iter().map(|&(k, t)| (k.to_string(), t)).collect()
    };
    assert_eq!(
        keys(&json, &v),
        owned(&[
            ("table", "string"),
            ("function", "string"),
            ("op", "string"),
            ("format", "string"),
            ("entries", "count"),
            ("mismatches", "count"),
            ("max_ulp", "null"),
            ("max_numeric_ulp", "count"),
            ("histogram", "list"),
            ("nan_for_number", "count"),
            ("number_for_nan", "count"),
            ("invalid_codes", "count"),
            ("nan_payloads_differ", "count"),
            ("worst", "list"),
            ("hidden_by", "list"),
        ])
    );
    assert_eq!(
        (&v["table"], &v["mismatches"]),
        (&"gelu_f16".into(), &2.into())
    );
    let histogram = &v["histogram"][0];
    let at = json.find("\"histogram\"").unwrap();
    assert_eq!(
        keys(&json[at..], histogram),
        owned(&[("ulps", "count"), ("count", "count")])
    );
    let worst = v["worst"].as_array().unwrap();
    assert_eq!(worst.len(), 2);
    let at = json.find("\"worst\"").unwrap();
    let text_keys = owned(&[
        ("input", "string"),
        ("input_value", "string"),
        ("got", "string"),
        ("got_value", "string"),
        ("correct", "string"),
        ("correct_value", "string"),
        ("exact", "string"),
    ]);
    for (w, ulps) in [(&worst[0], "null"), (&worst[1], "count")] {
        let mut want = text_keys.clone();
        want.extend(owned(&[
            ("ulps", ulps),
            ("kind", "string"),
            ("midpoint_ulps", "number"),
            ("midpoint_error", "number"),
        ]));
        assert_eq!(keys(&json[at..], w), want, "{w}");
    }
    let hidden = v["hidden_by"].as_array().unwrap();
    assert_eq!(hidden.len(), 2, "the two presets");
    let at = json.find("\"hidden_by\"").unwrap();
    for h in hidden {
        assert_eq!(
            keys(&json[at..], h),
            owned(&[
                ("tolerance", "string"),
                ("description", "string"),
                ("rtol", "number"),
                ("atol", "number"),
                ("count", "count"),
            ])
        );
    }
    assert_eq!(
        (&hidden[0]["tolerance"], &hidden[1]["tolerance"]),
        (&"torch".into(), &"numpy".into())
    );
    assert_eq!(worst[0]["kind"], "nan_for_number");
    assert_eq!(
        (&worst[1]["kind"], &worst[1]["ulps"]),
        (&"ulps".into(), &2.into())
    );
}
