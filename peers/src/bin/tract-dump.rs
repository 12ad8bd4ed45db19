//! Writes tract-linalg's f16 GELU (`Func::Gelu.ew_f16()`, the kernel tract
//! picks for this CPU) over every f16 input, in input bit-pattern order,
//! little-endian, the layout `actlut ulp` grades:
//!
//! ```text
//! cargo run --release --manifest-path peers/Cargo.toml --bin tract-dump -- FILE
//! actlut ulp gelu_tanh f16 FILE
//! ```
//!
//! adapters/candle/scripts/grade-peers.sh grades it for docs/accuracy.md. It lives in the
//! peers project, which builds tract-linalg for `benches/compact.rs` anyway.

use tract_data::internal::f16;
use tract_linalg::Func;

fn main() {
    let path = std::env::args_os()
        .nth(1)
        .expect("usage: tract-dump FILE (where to write the 131072 bytes)");
    let mut xs: Vec<f16> = (0..=u16::MAX).map(f16::from_bits).collect();
    let kernel = Func::Gelu.ew_f16().expect("tract-linalg has an f16 GELU");
    kernel.run(&mut xs).expect("tract-linalg's f16 GELU runs");
    let bytes: Vec<u8> = xs.iter().flat_map(|v| v.to_bits().to_le_bytes()).collect();
    std::fs::write(&path, bytes).expect("write FILE");
    eprintln!("tract-linalg f16 GELU kernel: {}", kernel.name());
}
