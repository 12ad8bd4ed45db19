//! Writes other implementations' outputs over every f16 and bf16 input, in
//! the layout `actlut ulp` grades (every input in bit-pattern order,
//! little-endian), to grade them against actlut's exact tables:
//!
//! ```text
//! cargo run --release -p actlut-candle --example peer_dumps -- DIR
//! actlut ulp gelu f16 DIR/candle_gelu_erf_f16.bin
//! ```
//!
//! It writes, for `<format>` in `f16` and `bf16`:
//! - `candle_gelu_erf_<format>.bin`, `candle_gelu_<format>.bin` (tanh form),
//!   `candle_silu_<format>.bin`, `candle_tanh_<format>.bin`: candle-core's CPU
//!   ops on a contiguous tensor of every input;
//! - `ggml_gelu_f16.bin`: ggml's f16 GELU table as its source builds it
//!   (`ggml_table_gelu_f16[i] = GGML_FP32_TO_FP16(ggml_gelu_f32(GGML_FP16_TO_FP32(i)))`,
//!   with `ggml_gelu_f32(x) = 0.5f*x*(1.0f + tanhf(SQRT_2_OVER_PI*x*(1.0f + GELU_COEF_A*x*x)))`,
//!   `GELU_COEF_A = 0.044715f`, `SQRT_2_OVER_PI = 0.79788456080286535587989211986876f`),
//!   in `f32` with the platform's `tanhf`, rounded to f16 once, to nearest even.

use std::path::Path;

use actlut::half::{bf16, f16};
use actlut_candle::candle_core::{Device, Result, Tensor, WithDType};

fn write(dir: &Path, name: &str, bits: impl Iterator<Item = u16>) {
    let bytes: Vec<u8> = bits.flat_map(u16::to_le_bytes).collect();
    assert_eq!(bytes.len(), 131_072);
    let path = dir.join(format!("{name}.bin"));
    std::fs::write(&path, bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    println!("{}", path.display());
}

/// A candle op on a tensor.
type Op = fn(&Tensor) -> Result<Tensor>;

/// candle's ops over every pattern of one 16-bit dtype.
fn candle_ops<T: WithDType>(
    dir: &Path,
    format: &str,
    from_bits: fn(u16) -> T,
    to_bits: fn(T) -> u16,
) -> Result<()> {
    let x = Tensor::from_vec(
        (0..=u16::MAX).map(from_bits).collect::<Vec<T>>(),
        65536,
        &Device::Cpu,
    )?;
    let ops: [(&str, Op); 4] = [
        ("gelu_erf", Tensor::gelu_erf),
        ("gelu", Tensor::gelu),
        ("silu", Tensor::silu),
        ("tanh", Tensor::tanh),
    ];
    for (name, op) in ops {
        let y = op(&x)?.to_vec1::<T>()?;
        write(
            dir,
            &format!("candle_{name}_{format}"),
            y.into_iter().map(to_bits),
        );
    }
    Ok(())
}

/// ggml's `ggml_gelu_f32` (ggml/src/ggml-cpu/vec.h), the formula of its f16 table.
fn ggml_gelu_f32(x: f32) -> f32 {
    const GELU_COEF_A: f32 = 0.044715;
    #[allow(clippy::excessive_precision)]
    const SQRT_2_OVER_PI: f32 = 0.797_884_560_802_865_355_879_892_119_868_76;
    0.5 * x * (1.0 + (SQRT_2_OVER_PI * x * (1.0 + GELU_COEF_A * x * x)).tanh())
}

fn main() -> Result<()> {
    let dir = std::env::args_os()
        .nth(1)
        .expect("usage: peer_dumps DIR (the directory to write the dumps to)");
    let dir = Path::new(&dir);
    std::fs::create_dir_all(dir)?;
    candle_ops(dir, "f16", f16::from_bits, f16::to_bits)?;
    candle_ops(dir, "bf16", bf16::from_bits, bf16::to_bits)?;
    // f16 -> f32 is exact; f32 -> f16 rounds once, to nearest even (`half`'s
    // `from_f32`, as F16C and GGML_FP32_TO_FP16 do).
    write(
        dir,
        "ggml_gelu_f16",
        (0..=u16::MAX).map(|i| f16::from_f32(ggml_gelu_f32(f16::from_bits(i).to_f32())).to_bits()),
    );
    Ok(())
}
