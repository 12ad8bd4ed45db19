//! Every kernel available here for FP4 shared-scale rows (`actlut::kernels::Fp4Row`, the
//! tables of `actlut::mx`) equals the scalar lookup (`LookupTable::entry`: the two outputs of
//! a packed byte's low and high nibble) on every length 0..=300 and every source and
//! destination offset, and on every byte value in every lane position, for `f32`, `bf16` and
//! `f16` outputs. (CI runs this file on aarch64 under qemu, on wasm32 under node and under
//! Miri, with the shorter ranges of tests/kernel_harness.)

mod kernel_harness;
use kernel_harness::{check_inputs, check_map, Rng, MAX_LEN, OFFSET_BYTES};

use actlut::kernels::{Fp4Row, Kernel, LookupTable, TableShape};
use half::{bf16, f16};

/// Rows of random outputs (no NaN, so that `==` compares bits), and one whose
/// outputs are their own codes: a lane that takes the wrong code or plane shows.
fn rows<O: actlut::element::FloatOutput>(
    from_bits: impl Fn(u32) -> O,
    width: u32,
) -> Vec<Fp4Row<O>> {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    // The exponent's top bit cleared: finite values only.
    let finite = |bits: u32| bits & !(1 << (width - 2));
    // Under Miri (.ci/steps/46-miri.sh), which looks for undefined behaviour
    // rather than wrong values, the code row alone: a lane that takes the
    // wrong code or plane still shows.
    let random_rows = if cfg!(miri) { 0 } else { 3 };
    let mut out: Vec<Fp4Row<O>> = (0..random_rows)
        .map(|_| {
            let v: [u32; 16] = core::array::from_fn(|_| finite(rng.next() as u32 >> (32 - width)));
            Fp4Row::from_fn(|c| from_bits(v[usize::from(c)]))
        })
        .collect();
    out.push(Fp4Row::from_fn(|c| {
        from_bits(u32::from(c) | u32::from(c) << 8)
    }));
    out
}

fn check<O>(rows: &[Fp4Row<O>])
where
    O: actlut::element::FloatOutput + PartialEq + std::fmt::Debug + Default,
{
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let buf: Vec<u8> = (0..MAX_LEN + OFFSET_BYTES)
        .map(|_| rng.next() as u8)
        .collect();
    let refs: Vec<&Fp4Row<O>> = rows.iter().collect();
    check_map(&refs, &buf, [O::default(); 2]);
    // Every byte value at every lane position of a block (8 bytes per block).
    let inputs: Vec<u8> = (0..8u8)
        .flat_map(|shift| (0..=255u8).map(move |i| i.wrapping_add(shift)))
        .collect();
    check_inputs(&refs, &inputs);
}

#[test]
fn every_fp4_kernel_equals_the_scalar_lookup_on_every_length_offset_and_byte() {
    check(&rows(f32::from_bits, 32));
    check(&rows(|b| bf16::from_bits(b as u16), 16));
    check(&rows(|b| f16::from_bits(b as u16), 16));
}

#[test]
fn the_scalar_lookup_is_the_low_nibble_then_the_high_one() {
    let row = Fp4Row::<f32>::from_fn(f32::from);
    for b in 0..=255u8 {
        assert_eq!(row.entry(b), [f32::from(b & 0xF), f32::from(b >> 4)]);
    }
}

#[test]
fn the_fp4_kernels_are_chosen_like_the_others() {
    let best = Kernel::best(TableShape::Fp4);
    println!("best kernel for Fp4 tables: {best:?}");
    assert!(best.is_available_for(TableShape::Fp4));
    // Kernels without an FP4 block are errors, not fallbacks.
    let row = Fp4Row::<f32>::from_fn(f32::from);
    let mut out = [[0.0f32; 2]; 1];
    for kernel in [Kernel::Sse2, Kernel::Avx2, Kernel::Avx512Vbmi] {
        assert!(!kernel.is_available_for(TableShape::Fp4));
        assert!(kernel.map(&row, &[0x21], &mut out).is_err(), "{kernel:?}");
    }
    if cfg!(all(target_arch = "x86_64", target_feature = "ssse3")) {
        assert_eq!(best, Kernel::Ssse3);
    }
}
