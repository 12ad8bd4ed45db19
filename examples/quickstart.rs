//! actlut in one screen: tables in use, their identity, their exactness, their speed.
//!
//! ```text
//! cargo run --release --example quickstart
//! ```
//!
//! Everything printed is computed when it runs: the values come from the
//! tables, the hashes from the `_SHA256` constants compared with
//! `tables/actlut.lock`, the error counts from all 65,536 `f16` inputs, and the
//! timings from this machine (a rough demo; `cargo bench --bench lookup` gives
//! the real numbers).

use std::hint::black_box;
use std::time::{Duration, Instant};

use actlut::BuiltinTables;
use actlut::Function;
use actlut_codegen::{hex, lock};
use half::{bf16, f16};

/// Elements per timed pass: 1 Mi.
const N: usize = 1 << 20;

fn main() {
    values();
    let lock_ok = hashes();
    exactness();
    speed();
    if !lock_ok {
        eprintln!("error: a table's hash differs from tables/actlut.lock");
        std::process::exit(1);
    }
}

/// The shortest fixed-notation decimal that reads back as the same value
/// (sign of zero included) through `back`, the format's conversion from `f32`.
fn shortest(x: f32, back: impl Fn(f32) -> f32) -> String {
    if !x.is_finite() {
        return format!("{x}");
    }
    (0..12)
        .map(|digits| format!("{x:.digits$}"))
        .find(|s| s.parse::<f32>().map(|v| back(v).to_bits()) == Ok(x.to_bits()))
        .unwrap_or_else(|| format!("{x}"))
}

/// An `f16` in its shortest decimal form.
fn show_f16(x: f16) -> String {
    shortest(x.to_f32(), |v| f16::from_f32(v).to_f32())
}

/// A few values of a few tables, with their inputs.
fn values() {
    println!("== Tables in use: a few values (shortest decimal that reads back exactly)");
    let xs = [-3.0f32, -1.0, -0.0, 0.5, 1.0, 2.0, 8.0];
    print!("{:>13}", "x =");
    for x in xs {
        print!("{:>11}", format!("{x:?}"));
    }
    println!();
    let f16_row = |name: &str, f: fn(f16) -> f16| {
        print!("{name:>13}");
        for x in xs {
            print!("{:>11}", show_f16(f(f16::from_f32(x))));
        }
        println!();
    };
    let bf16_row = |name: &str, f: fn(bf16) -> bf16| {
        print!("{name:>13}");
        for x in xs {
            let y = f(bf16::from_f32(x)).to_f32();
            print!("{:>11}", shortest(y, |v| bf16::from_f32(v).to_f32()));
        }
        println!();
    };
    f16_row("gelu f16", actlut::gelu::f16);
    f16_row("sigmoid f16", actlut::sigmoid::f16);
    f16_row("silu f16", actlut::silu::f16);
    f16_row("exp f16", actlut::exp::f16);
    bf16_row("gelu bf16", actlut::gelu::bf16);
    bf16_row("sigmoid bf16", actlut::sigmoid::bf16);
    bf16_row("silu bf16", actlut::silu::bf16);
    bf16_row("exp bf16", actlut::exp::bf16);
    println!();
}

/// The SHA-256 constants of the tables used above, checked against the lock.
/// Returns whether all of them match.
fn hashes() -> bool {
    println!("== Table identity: SHA-256 of the little-endian bytes");
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tables/actlut.lock");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {path}: {e}"));
    let entries = lock::parse(&text).unwrap_or_else(|e| panic!("parse {path}: {e}"));
    let used: [(&str, [u8; 32]); 8] = [
        ("gelu_f16", actlut::tables::GELU_F16_SHA256),
        ("sigmoid_f16", actlut::tables::SIGMOID_F16_SHA256),
        ("silu_f16", actlut::tables::SILU_F16_SHA256),
        ("exp_f16", actlut::tables::EXP_F16_SHA256),
        ("gelu_bf16", actlut::tables::GELU_BF16_SHA256),
        ("sigmoid_bf16", actlut::tables::SIGMOID_BF16_SHA256),
        ("silu_bf16", actlut::tables::SILU_BF16_SHA256),
        ("exp_bf16", actlut::tables::EXP_BF16_SHA256),
    ];
    let mut all_match = true;
    for (name, sha) in used {
        let verdict = match entries.iter().find(|e| e.name == name) {
            Some(e) if e.sha256 == sha => "matches tables/actlut.lock",
            Some(_) => "DIFFERS from tables/actlut.lock",
            None => "MISSING from tables/actlut.lock",
        };
        all_match &= verdict.starts_with("matches");
        println!("{name:>16}  {}  {verdict}", hex(&sha));
    }
    // The constants say what the build script hashed; re-hash one table's
    // embedded bytes too, so the printout is not only a comparison of labels.
    // (Through `TableRef`: the logical little-endian entries, full or compact.)
    let le: Vec<u8> = actlut::Function::Gelu
        .table(actlut::Format::F16)
        .expect("gelu_f16 is compiled in")
        .le_bytes()
        .collect();
    let rehash = actlut_codegen::sha256(&le);
    let same = rehash == actlut::tables::GELU_F16_SHA256;
    all_match &= same;
    println!(
        "{:>16}  re-hashing the embedded gelu_f16 bytes gives the same hash: {}",
        "",
        if same { "yes" } else { "NO" }
    );
    println!();
    all_match
}

/// GELU the way a user without actlut writes it: widen to f32, evaluate
/// `x/2 · (1 + erf(x/√2))` with `libm::erff`, round back with `f16::from_f32`.
fn naive_gelu_f16(x: f16) -> f16 {
    let x = x.to_f32();
    f16::from_f32(0.5 * x * (1.0 + libm::erff(x * core::f32::consts::FRAC_1_SQRT_2)))
}

/// Position of an f16 on the number line in ulps (±0 share position 0), for
/// non-NaN bit patterns.
fn ulp_position(bits: u16) -> i32 {
    let mag = i32::from(bits & 0x7FFF);
    if bits & 0x8000 != 0 {
        -mag
    } else {
        mag
    }
}

/// How the naive f32 `erff` path compares with the correctly rounded table on
/// every f16 input.
fn exactness() {
    println!("== Exactness: gelu over all 65,536 f16 inputs, naive f32 path vs the table");
    let mut wrong = 0u32;
    // by_ulps[k]: wrong results k ulps from the exact one (0: only the sign of zero).
    let mut by_ulps = std::collections::BTreeMap::<i32, u32>::new();
    let mut nan_mismatch = Vec::new();
    let mut worst = (0i32, 0u16);
    for bits in 0..=u16::MAX {
        let x = f16::from_bits(bits);
        let exact = actlut::gelu::f16(x);
        let naive = naive_gelu_f16(x);
        if exact.to_bits() == naive.to_bits() || (exact.is_nan() && naive.is_nan()) {
            continue;
        }
        wrong += 1;
        if exact.is_nan() != naive.is_nan() {
            nan_mismatch.push(format!(
                "x = {}: naive {}, exact {}",
                show_f16(x),
                show_f16(naive),
                show_f16(exact)
            ));
            continue;
        }
        let ulps = (ulp_position(exact.to_bits()) - ulp_position(naive.to_bits())).abs();
        *by_ulps.entry(ulps).or_default() += 1;
        if ulps > worst.0 {
            worst = (ulps, bits);
        }
    }
    println!("  naive f16 -> f32 -> (x/2)(1 + erff(x/sqrt 2)) -> f16 (half::f16::from_f32)");
    println!(
        "  gets {wrong} of 65536 inputs wrong ({:.2}%; any NaN counts as right for a NaN):",
        f64::from(wrong) * 100.0 / 65536.0
    );
    for (ulps, count) in &by_ulps {
        match ulps {
            0 => println!("    {count:5} with the wrong sign of zero"),
            1 => println!("    {count:5} off by 1 ulp"),
            _ => println!("    {count:5} off by {ulps} ulps"),
        }
    }
    for m in &nan_mismatch {
        println!("        1 NaN instead of a number, at {m}");
    }
    if worst.0 > 0 {
        let x = f16::from_bits(worst.1);
        println!(
            "  worst: {} ulps at x = {} ({:#06x}): naive {} vs exact {}",
            worst.0,
            show_f16(x),
            worst.1,
            show_f16(naive_gelu_f16(x)),
            show_f16(actlut::gelu::f16(x))
        );
    }
    // The table and the computed path (no table) agree on every input.
    let disagree = (0..=u16::MAX)
        .filter(|&b| actlut::gelu::f16_bits(b) != actlut::computed::f16_bits(Function::Gelu, b))
        .count();
    println!("  table vs computed path (no table): {disagree} differences");
    println!();
}

/// Runs `pass` repeatedly for at least `budget` and returns ns per element.
fn time_per_element(budget: Duration, mut pass: impl FnMut()) -> f64 {
    pass(); // warm up: page in the buffers and the table
    let start = Instant::now();
    let mut passes = 0u32;
    while start.elapsed() < budget {
        pass();
        passes += 1;
    }
    start.elapsed().as_nanos() as f64 / (f64::from(passes) * N as f64)
}

/// Table lookup against the computed path over 1 Mi f16 values in [-8, 8].
fn speed() {
    println!("== Speed: gelu over 1 Mi f16 values in [-8, 8] (rough; see BENCHMARKS.md)");
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let xs: Vec<f16> = (0..N)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            f16::from_f32((state >> 40) as f32 / (1u32 << 24) as f32 * 16.0 - 8.0)
        })
        .collect();
    let mut ys = vec![f16::ZERO; N];
    let budget = Duration::from_millis(300);

    let lookup = time_per_element(budget, || {
        actlut::gelu::map_f16(black_box(&xs), &mut ys);
        black_box(&ys);
    });
    let lookup_out = ys.clone();
    let computed = time_per_element(budget, || {
        for (y, x) in ys.iter_mut().zip(black_box(&xs)) {
            *y = actlut::computed::gelu_f16(*x);
        }
        black_box(&ys);
    });
    // The lookup passes and the computed passes wrote the same bits.
    let agree = ys == lookup_out;
    let naive = time_per_element(budget, || {
        for (y, x) in ys.iter_mut().zip(black_box(&xs)) {
            *y = naive_gelu_f16(*x);
        }
        black_box(&ys);
    });

    println!("  table lookup (gelu::map_f16)   {lookup:8.2} ns/element");
    println!(
        "  computed path (no table)       {computed:8.2} ns/element  {:6.1}x the lookup",
        computed / lookup
    );
    println!(
        "  naive f32 erff path (inexact)  {naive:8.2} ns/element  {:6.1}x the lookup",
        naive / lookup
    );
    println!(
        "  lookup and computed outputs identical on these inputs: {}",
        if agree { "yes" } else { "NO" }
    );
}
