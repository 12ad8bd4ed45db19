//! Every kernel available here for the byte shapes (`[u8; 256]`, and the
//! byte → wide `[u32; 256]` and `[u16; 256]`) is bit-identical to the scalar
//! lookup, on every length 0..=300 and every alignment offset 0..64, in place
//! and out of place, with random and exhaustive inputs; the slice entry points
//! too. (CI also runs this file on aarch64 under qemu, for NEON, on wasm32 with
//! simd128 under node, and under Miri with AVX2 and AVX-512 VBMI enabled, on
//! shorter ranges: see tests/kernel_harness.)

mod kernel_harness;
use kernel_harness::{
    check_apply, check_inputs, check_inputs_in_place, check_map, random_bytes, Rng, MAX_LEN,
};

use actlut::kernels::{
    apply_u8, map_u8, map_u8_u16, map_u8_u32, Kernel, KernelUnavailable, TableShape,
};
use actlut::{LengthMismatch, MapError};

fn tables() -> Vec<[u8; 256]> {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut random = [0u8; 256];
    random.iter_mut().for_each(|t| *t = rng.next() as u8);
    let identity: [u8; 256] = core::array::from_fn(|i| i as u8);
    let reversed: [u8; 256] = core::array::from_fn(|i| (i as u8).reverse_bits());
    let complement: [u8; 256] = core::array::from_fn(|i| !(i as u8));
    if cfg!(miri) {
        // Miri is slow: the random table alone catches a wrong lane or entry.
        vec![random]
    } else {
        vec![random, identity, reversed, complement]
    }
}

fn reference(table: &[u8; 256], src: &[u8]) -> Vec<u8> {
    src.iter().map(|&s| table[usize::from(s)]).collect()
}

#[test]
fn every_available_byte_kernel_equals_scalar_on_every_length_and_offset() {
    let t = tables();
    let t: Vec<&[u8; 256]> = t.iter().collect();
    let buf = random_bytes(MAX_LEN + 64 + 64, 0x9E37_79B9_7F4A_7C15);
    check_map(&t, &buf, 0xA5);
    check_apply(&t, &buf);
}

#[test]
fn every_available_byte_kernel_maps_every_byte_value() {
    // Both orders: every value in every lane position of a 16-, 32- and 64-byte block.
    let all: Vec<u8> = (0..=255u8).chain((0..=255u8).rev()).collect();
    let t = tables();
    let t: Vec<&[u8; 256]> = t.iter().collect();
    check_inputs(&t, &all);
    check_inputs_in_place(&t, &all);
}

#[test]
fn every_available_byte_to_wide_kernel_equals_the_reference_on_every_length_and_offset() {
    let mut rng = Rng(0x6A09_E667_F3BC_C908);
    let t32: [u32; 256] = core::array::from_fn(|_| rng.next() as u32);
    let t16: [u16; 256] = core::array::from_fn(|_| rng.next() as u16);
    let buf = random_bytes(MAX_LEN + 64, 0xBB67_AE85_84CA_A73B);
    check_map(&[&t32], &buf, 0xA5A5_A5A5);
    check_map(&[&t16], &buf, 0xA5A5);
    // Every index in every lane position (the odd length shifts the lanes).
    let all: Vec<u8> = (0..=255u8)
        .chain((0..=255u8).rev())
        .chain(0..=254)
        .collect();
    check_inputs(&[&t32], &all);
    check_inputs(&[&t16], &all);
}

#[test]
fn the_slice_entry_points_equal_the_reference() {
    // Below and above the 64-byte scalar threshold of map_u8/apply_u8, with a tail.
    let table = tables()[0];
    for n in [0, 1, 63, 64, 65, if cfg!(miri) { 200 } else { 1000 }] {
        let src: Vec<u8> = (0..n as u32).map(|i| (i * 37) as u8).collect();
        let mut dst = vec![0; src.len()];
        map_u8(&table, &src, &mut dst);
        assert_eq!(dst, reference(&table, &src), "map_u8 len {n}");
        let mut xs = src.clone();
        apply_u8(&table, &mut xs);
        assert_eq!(xs, dst, "apply_u8 len {n}");
        let t32: [u32; 256] = core::array::from_fn(|i| (i as u32).wrapping_mul(0x9E37_79B9));
        let mut d32 = vec![0; n];
        map_u8_u32(&t32, &src, &mut d32);
        assert!(d32
            .iter()
            .zip(&src)
            .all(|(&d, &s)| d == t32[usize::from(s)]));
        let t16: [u16; 256] = core::array::from_fn(|i| (i as u16).wrapping_mul(40_503));
        let mut d16 = vec![0; n];
        map_u8_u16(&t16, &src, &mut d16);
        assert!(d16
            .iter()
            .zip(&src)
            .all(|(&d, &s)| d == t16[usize::from(s)]));
    }
}

#[test]
fn best_is_available_for_its_shape_and_never_the_simd128_byte_kernel() {
    for shape in TableShape::ALL {
        let best = Kernel::best(shape);
        assert!(best.is_available_for(shape), "{shape:?}: {best:?}");
        println!("best kernel for {shape:?} tables: {best:?}");
    }
    // Slower than the scalar loop on x86-64 hosts under node (BENCHMARKS.md);
    // CI runs this file with simd128 under node, where the kernel is available.
    assert_ne!(Kernel::best(TableShape::U8), Kernel::Simd128);
    if cfg!(all(target_arch = "x86_64", target_feature = "sse2")) {
        assert_eq!(Kernel::best(TableShape::U8ToU32), Kernel::Sse2);
        assert_eq!(Kernel::best(TableShape::U8ToU16), Kernel::Sse2);
    }
}

#[test]
fn the_neon_kernel_needs_the_neon_target_feature() {
    // aarch64-unknown-none-softfloat has no NEON: the kernel must not run there.
    assert_eq!(
        Kernel::Neon.is_available(),
        cfg!(all(target_arch = "aarch64", target_feature = "neon"))
    );
    assert_eq!(
        Kernel::Sse2.is_available(),
        cfg!(all(target_arch = "x86_64", target_feature = "sse2"))
    );
}

#[test]
fn unavailable_kernels_are_errors_not_fallbacks() {
    for shape in [TableShape::U8, TableShape::U8ToU32, TableShape::U8ToU16] {
        for kernel in Kernel::ALL
            .into_iter()
            .filter(|k| !k.is_available_for(shape))
        {
            let want = Err(KernelUnavailable { kernel, shape });
            let src = [1u8, 2, 3, 4];
            match shape {
                TableShape::U8 => {
                    let mut xs = src;
                    assert_eq!(kernel.apply(&[0u8; 256], &mut xs), want);
                    assert_eq!(xs, src, "untouched");
                    assert_eq!(
                        kernel.map(&[0u8; 256], &src, &mut [9; 4]),
                        want.map_err(Into::into)
                    );
                }
                TableShape::U8ToU32 => {
                    let mut d = [9u32; 4];
                    assert_eq!(
                        kernel.map(&[0u32; 256], &src, &mut d),
                        want.map_err(Into::into)
                    );
                    assert_eq!(d, [9; 4], "untouched");
                }
                _ => {
                    let mut d = [9u16; 4];
                    assert_eq!(
                        kernel.map(&[0u16; 256], &src, &mut d),
                        want.map_err(Into::into)
                    );
                    assert_eq!(d, [9; 4], "untouched");
                }
            }
            let msg = KernelUnavailable { kernel, shape }.to_string();
            assert!(
                msg.contains("not available") && msg.contains(&format!("{kernel:?}")),
                "{msg}"
            );
        }
    }
    // The SSE2 kernel serves 16-bit and byte → wide tables, never byte tables.
    assert!(!Kernel::Sse2.is_available_for(TableShape::U8));
    assert_eq!(
        KernelUnavailable {
            kernel: Kernel::Sse2,
            shape: TableShape::U8
        }
        .to_string(),
        "the Sse2 kernel is not available for 256-entry byte tables on this CPU or target"
    );
}

#[test]
fn map_with_different_lengths_is_an_error_naming_both_and_writes_nothing() {
    let mut dst = [7u8; 4];
    let err = Kernel::Scalar
        .map(&[0u8; 256], &[0; 5], &mut dst)
        .unwrap_err();
    assert_eq!(
        err,
        MapError::LengthMismatch(LengthMismatch { src: 5, dst: 4 })
    );
    assert_eq!(
        err.to_string(),
        "actlut: source slice length (5) does not match destination slice length (4)"
    );
    assert_eq!(dst, [7; 4]);
}

#[test]
#[should_panic(expected = "source slice length (5) does not match destination slice length (4)")]
fn map_u8_with_different_lengths_panics_naming_both() {
    map_u8(&[0; 256], &[0; 5], &mut [0; 4]);
}

#[test]
#[should_panic(expected = "source slice length (100) does not match destination slice length (99)")]
fn map_u8_above_the_simd_threshold_with_different_lengths_panics_naming_both() {
    map_u8(&[0; 256], &[0; 100], &mut [0; 99]);
}

/// The fp8 slice functions go through the byte kernels: they must equal the table.
#[cfg(all(feature = "gelu", feature = "fp8-e4m3"))]
#[test]
fn fp8_slice_functions_equal_single_lookups() {
    let src: Vec<u8> = (0..777u32).map(|i| (i * 101) as u8).collect();
    let mut dst = vec![0; src.len()];
    actlut::gelu::map_fp8_e4m3_bits(&src, &mut dst);
    let mut inplace = src.clone();
    actlut::gelu::apply_fp8_e4m3_bits(&mut inplace);
    for i in 0..src.len() {
        let want = actlut::gelu::fp8_e4m3_bits(src[i]);
        assert_eq!(dst[i], want);
        assert_eq!(inplace[i], want);
    }
}

#[test]
#[should_panic(expected = "source slice length (3) does not match destination slice length (2)")]
fn byte_to_u32_map_with_different_lengths_panics_naming_both() {
    map_u8_u32(&[0; 256], &[0; 3], &mut [0; 2]);
}

#[test]
#[should_panic(expected = "source slice length (2) does not match destination slice length (3)")]
fn byte_to_u16_map_with_different_lengths_panics_naming_both() {
    map_u8_u16(&[0; 256], &[0; 2], &mut [0; 3]);
}
