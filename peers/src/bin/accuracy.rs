//! Writes `accuracy.md` and `accuracy.svg`: every peer, function and format
//! against actlut's correctly rounded tables, over all 65,536 inputs.
//!
//! ```text
//! cargo run --release --bin accuracy -- [--out-dir DIR]   # default: docs
//! ```
//!
//! `scripts/accuracy.sh` runs it (and `--check` compares with the committed
//! files). The output is deterministic: no timings, no machine names.

use std::path::PathBuf;

use actlut::Function;
use actlut_peers::accuracy::{compare, run_all};
use actlut_peers::report::{svg, table, Row, GENERATED};
use actlut_peers::{approx_simd, Format, Peer, FUNCTIONS};

fn main() {
    let out_dir = parse_args();

    let mut rows = Vec::new();
    for function in FUNCTIONS {
        for format in Format::ALL {
            let correct = format.table(function);
            for peer in Peer::all(function, format) {
                let got = run_all(peer.kernel);
                if peer.name == "approx_simd" && approx_simd::simd_available() {
                    // The AVX2 path and its scalar fallback agree, so this row holds
                    // on machines without AVX2 too.
                    let scalar = run_all(approx_simd::scalar_kernel(function, format));
                    check_same(
                        format,
                        &got,
                        &scalar,
                        function,
                        "approx_simd AVX2 vs scalar",
                    );
                }
                // actlut's own row: its computed path against its table.
                let name = match peer.name {
                    "actlut_computed" => "actlut",
                    other => other,
                };
                rows.push(Row {
                    function: function.name(),
                    format,
                    peer: name,
                    comparison: compare(format, correct, &got),
                });
            }
        }
    }

    // The tanh-form peers against the exact tanh-form GELU.
    let mut tanh_rows = Vec::new();
    for format in Format::ALL {
        let correct = format.table(Function::GeluTanh);
        for peer in Peer::all(Function::Gelu, format) {
            if matches!(peer.name, "approx_simd" | "candle_gelu_tanh") {
                tanh_rows.push(Row {
                    function: "gelu_tanh",
                    format,
                    peer: peer.name,
                    comparison: compare(format, correct, &run_all(peer.kernel)),
                });
            }
        }
    }

    let md = markdown(&rows, &tanh_rows);
    let chart = svg("Wrong results of each peer, per function and format", &rows);
    std::fs::create_dir_all(&out_dir).unwrap_or_else(|e| die(&format!("{out_dir:?}: {e}")));
    for (name, text) in [("accuracy.md", md), ("accuracy.svg", chart)] {
        let path = out_dir.join(name);
        std::fs::write(&path, text).unwrap_or_else(|e| die(&format!("{path:?}: {e}")));
        println!("wrote {}", path.display());
    }
}

fn parse_args() -> PathBuf {
    let mut out_dir = PathBuf::from("docs");
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--out-dir" => {
                out_dir = args
                    .next()
                    .map(PathBuf::from)
                    .unwrap_or_else(|| die("--out-dir needs a directory"));
            }
            other => die(&format!(
                "unknown argument {other:?}; usage: accuracy [--out-dir DIR]"
            )),
        }
    }
    out_dir
}

fn die(message: &str) -> ! {
    eprintln!("accuracy: {message}");
    std::process::exit(2);
}

/// Panics with the first input where two runs differ (NaN equal to NaN).
fn check_same(format: Format, a: &[u16], b: &[u16], function: Function, what: &str) {
    let nan = |bits| actlut_peers::accuracy::is_nan(format, bits);
    for (input, (x, y)) in a.iter().zip(b).enumerate() {
        assert!(
            x == y || (nan(*x) && nan(*y)),
            "{what}: {}_{} at input {input:#06x}: {x:#06x} against {y:#06x}",
            function.name(),
            format.name()
        );
    }
}

fn markdown(rows: &[Row], tanh_rows: &[Row]) -> String {
    format!(
        "<!-- {GENERATED} -->

# Accuracy of the peers

Every peer of `actlut-peers` against actlut's tables, on all 65,536 inputs of
each function and format. actlut's tables are correctly rounded: each entry is
the exact value of the function at the exact input, rounded once to
nearest-even; the repository's oracle tests check every entry of every table
against MPFR (`cargo test -p actlut-oracle --release`). The **actlut** row is
not assumed: it compares actlut's computed path (no table) with its table over
every input, in the run that wrote this file.

![wrong results per peer](accuracy.svg)

Columns:

- **wrong**: inputs (of 65,536) where the peer's result differs in its bits from
  the correctly rounded one. Any NaN counts as equal to any NaN (payloads are not
  compared); a NaN where a number is correct, or a number where NaN is correct,
  counts as wrong. `−0` for `+0` counts as wrong (0 ulps).
- **wrong, |x| ≤ 8**: of those, the ones at inputs with |x| ≤ 8, where
  pre-activations usually are.
- **NaN↔number**: of the wrong results, those that are NaN on one side only.
- **by 1 ulp**: of the wrong results, those that are a neighbour of the correct
  result (a faithful rounding, off by one ulp).
- **worst (ulps)**: the largest error over the other wrong results, in ulps of
  the format: map each non-NaN bit pattern `b` to `b` if its sign bit is clear
  and to `−(b & 0x7FFF)` if it is set; this ordering is monotone in the value,
  `+0` and `−0` both map to 0, neighbouring values are 1 apart and `±inf` is one
  step past the largest finite value. The error is the absolute difference of
  the two results' positions.
- **at input**: the input with the worst error (the lowest bit pattern if
  several are as far), then the peer's result there and the correct result.

{}
The peers (`peers/src/`): `naive` widens to `f32`, evaluates with the pinned
pure-Rust `libm` (`erff`, `expf`) and rounds with `half`'s `from_f32`;
`lazy_table` is a table built on first use from that same formula, so its rows
equal `naive`'s; `approx_simd` is an AVX2/FMA/F16C kernel with a fast exp
(Cody–Waite + Cephes polynomial, argument clamped to [−87, 88]) and the tanh
form of GELU (its scalar fallback gives the same bits: checked over every input
by the tests, and by this program where the CPU has AVX2); `candle` is
candle-core 0.11's CPU `gelu_erf`, `silu`, and candle-nn's sigmoid op, and
`candle_gelu_tanh` candle's default `gelu` (the tanh approximation, computed in
the format's own arithmetic).

candle's `silu`, `gelu` (tanh) and sigmoid evaluate `exp` and `tanh` through
`std`'s `f32` functions, that is the platform's C library (glibc on the machine
that wrote this file), which picks code paths by CPU features at run time:
those rows may differ on other machines or C libraries. candle's `gelu_erf`
uses candle's own `erf` and is the same everywhere; so are all other peers.

## The tanh-form peers against the exact tanh-form GELU

`approx_simd` and `candle_gelu_tanh` approximate GELU by its tanh form, so part
of their error above is the approximation itself. Against actlut's correctly
rounded table of the tanh form (`gelu_tanh`), what remains is the error of
their arithmetic:

{}",
        table(rows),
        table(tanh_rows)
    )
}
