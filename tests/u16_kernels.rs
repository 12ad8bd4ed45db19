//! Every kernel available here for 65,536-entry 16-bit tables is bit-identical
//! to the scalar lookup on every length 0..=300 and every alignment offset
//! (element offsets 0..32, byte offsets 0..64 in steps of 2: a `&[u16]` is never
//! at an odd address), in place and out of place, with random and exhaustive
//! inputs. (CI also runs this file on aarch64 under qemu, on wasm32 under node
//! and under Miri, on shorter ranges: see tests/kernel_harness.)

mod kernel_harness;
use kernel_harness::{check_apply, check_inputs, check_inputs_in_place, check_map, Rng, MAX_LEN};

use actlut::kernels::{apply_u16, map_u16, Kernel, KernelUnavailable, TableShape};

fn tables() -> Vec<Box<[u16; 65_536]>> {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut random = Box::new([0u16; 65_536]);
    random
        .iter_mut()
        .for_each(|t| *t = (rng.next() >> 48) as u16);
    if cfg!(miri) {
        return vec![random];
    }
    let mut reversed = Box::new([0u16; 65_536]);
    for (i, t) in reversed.iter_mut().enumerate() {
        *t = (i as u16).reverse_bits();
    }
    let mut complement = Box::new([0u16; 65_536]);
    for (i, t) in complement.iter_mut().enumerate() {
        *t = !(i as u16);
    }
    vec![random, reversed, complement]
}

fn reference(table: &[u16; 65_536], xs: &[u16]) -> Vec<u16> {
    xs.iter().map(|&x| table[usize::from(x)]).collect()
}

#[test]
fn every_available_kernel_equals_the_reference_on_every_length_and_offset() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let buf: Vec<u16> = (0..MAX_LEN + 32 + 32)
        .map(|_| (rng.next() >> 48) as u16)
        .collect();
    let t = tables();
    let t: Vec<&[u16; 65_536]> = t.iter().map(|b| &**b).collect();
    check_map(&t, &buf, 0xA5A5);
    check_apply(&t, &buf);
}

#[test]
fn every_available_kernel_maps_every_16_bit_pattern() {
    // In order, in reverse order, and shuffled: every index in every lane.
    // (Under Miri, every 61st pattern: each still in several lane positions.)
    let step = if cfg!(miri) { 61 } else { 1 };
    let mut shuffled: Vec<u16> = (0..=u16::MAX).step_by(step).collect();
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    for i in (1..shuffled.len()).rev() {
        shuffled.swap(i, (rng.next() % (i as u64 + 1)) as usize);
    }
    let inputs: Vec<u16> = (0..=u16::MAX)
        .step_by(step)
        .chain((0..=u16::MAX).rev().step_by(step))
        .chain(shuffled)
        .collect();
    let t = tables();
    let t: Vec<&[u16; 65_536]> = t.iter().map(|b| &**b).collect();
    check_inputs(&t, &inputs);
    check_inputs_in_place(&t, &inputs);
}

#[test]
fn best_is_the_gather_kernel_on_intel_and_the_lane_load_kernel_elsewhere() {
    let intel = actlut::kernels::CpuClass::detect() == actlut::kernels::CpuClass::Intel;
    let want = if intel && Kernel::Avx512.is_available_for(TableShape::U16) {
        Kernel::Avx512
    } else if cfg!(all(target_arch = "x86_64", target_feature = "sse2")) {
        Kernel::Sse2
    } else if cfg!(all(target_arch = "wasm32", target_feature = "simd128")) {
        Kernel::Simd128
    } else {
        Kernel::Scalar
    };
    assert_eq!(Kernel::best(TableShape::U16), want);
}

#[test]
fn the_default_entry_points_equal_the_reference() {
    assert!(Kernel::best(TableShape::U16).is_available_for(TableShape::U16));
    let table = &tables()[0];
    let n = if cfg!(miri) { 203 } else { 100_003 };
    let xs: Vec<u16> = (0..n)
        .map(|i: u32| (i.wrapping_mul(40_503)) as u16)
        .collect();
    let want = reference(table, &xs);
    let mut ys = vec![0; xs.len()];
    map_u16(table, &xs, &mut ys);
    assert!(ys == want);
    let mut inplace = xs.clone();
    apply_u16(table, &mut inplace);
    assert!(inplace == want);
}

#[test]
fn unavailable_kernels_are_errors_not_fallbacks() {
    let shape = TableShape::U16;
    let table = Box::new([0u16; 65_536]);
    for kernel in Kernel::ALL
        .into_iter()
        .filter(|k| !k.is_available_for(shape))
    {
        let mut xs = [1u16, 2, 3, 4];
        assert_eq!(
            kernel.apply(&*table, &mut xs),
            Err(KernelUnavailable { kernel, shape })
        );
        assert_eq!(xs, [1, 2, 3, 4], "untouched");
        assert!(KernelUnavailable { kernel, shape }
            .to_string()
            .contains("not available for 65,536-entry 16-bit tables"));
    }
    // The byte-permute kernels serve byte tables only.
    assert!(!Kernel::Avx2.is_available_for(shape));
}

#[test]
fn map_with_different_lengths_is_an_error_naming_both() {
    let table = Box::new([0u16; 65_536]);
    assert_eq!(
        Kernel::Scalar.map(&*table, &[0; 5], &mut [0; 4]),
        Err(actlut::MapError::LengthMismatch(actlut::LengthMismatch {
            src: 5,
            dst: 4
        }))
    );
}

#[test]
#[should_panic(expected = "source slice length (5) does not match destination slice length (4)")]
fn map_u16_with_different_lengths_panics_naming_both() {
    let table = Box::new([0u16; 65_536]);
    map_u16(&table, &[0; 5], &mut [0; 4]);
}
