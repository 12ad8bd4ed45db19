//! Block-scaled inputs (`actlut::mx`): every table entry against the scalar reference, every
//! SIMD kernel against the scalar loop on every block count, offset and byte value, the
//! special scales, and every kind of bad input.

use actlut::element::FloatOutput;
use actlut::kernels::{Kernel, KernelUnavailable, TableShape};
use actlut::mx::{
    e8m0_to_f32, e8m0_to_f64, map_mx, reference, BlockError, Element, MxFp4Table, Nvfp4Table, Op,
    MX_BLOCK, NVFP4_BLOCK,
};
use actlut::Function;
use actlut_codegen::Format;
use half::{bf16, f16};

mod support;
use support::Rng;

trait Bits: FloatOutput + std::fmt::Debug {
    fn bits(self) -> u32;
}
impl Bits for f32 {
    fn bits(self) -> u32 {
        self.to_bits()
    }
}
impl Bits for bf16 {
    fn bits(self) -> u32 {
        u32::from(self.to_bits())
    }
}
impl Bits for f16 {
    fn bits(self) -> u32 {
        u32::from(self.to_bits())
    }
}

const OPS: [Function; 5] = [
    Function::Identity,
    Function::Gelu,
    Function::Silu,
    Function::Exp,
    Function::Log,
];

fn fp4(code: u8) -> f64 {
    Format::Fp4E2M1.decode(u16::from(code))
}

mod vector_file;
use vector_file::vectors;

#[test]
fn e8m0_scales_decode_like_ml_dtypes() {
    let v = vectors(include_str!("vectors/float8_e8m0fnu_decode.txt"));
    assert_eq!(v.len(), 256);
    for (code, want) in v {
        let want = f32::from_bits(want);
        let got = e8m0_to_f32(code as u8);
        if want.is_nan() {
            assert!(
                got.is_nan() && e8m0_to_f64(code as u8).is_nan(),
                "{code:#04x}"
            );
        } else {
            assert_eq!(got.to_bits(), want.to_bits(), "{code:#04x}");
            assert_eq!(e8m0_to_f64(code as u8), f64::from(want), "{code:#04x}");
        }
    }
}

#[test]
fn element_values_decode_like_ml_dtypes_and_reject_stray_bits() {
    let cases = [
        (
            Element::Fp4E2M1,
            include_str!("vectors/float4_e2m1fn_decode.txt"),
        ),
        (
            Element::Fp6E2M3,
            include_str!("vectors/float6_e2m3fn_decode.txt"),
        ),
        (
            Element::Fp6E3M2,
            include_str!("vectors/float6_e3m2fn_decode.txt"),
        ),
        (
            Element::Fp8E4M3,
            include_str!("vectors/float8_e4m3fn_decode.txt"),
        ),
        (
            Element::Fp8E5M2,
            include_str!("vectors/float8_e5m2_decode.txt"),
        ),
    ];
    for (element, text) in cases {
        let v = vectors(text);
        assert_eq!(v.len(), element.format().entries());
        for (code, want) in v {
            let want = f32::from_bits(want);
            let got = element.value(code as u8).unwrap();
            if want.is_nan() {
                assert!(got.is_nan(), "{element:?} {code:#04x}");
            } else {
                assert_eq!(got, f64::from(want), "{element:?} {code:#04x}");
            }
        }
        for code in element.format().entries()..256 {
            assert_eq!(element.value(code as u8), None, "{element:?} {code:#04x}");
        }
    }
}

fn check_mx_table<O: Bits>() {
    for op in OPS.map(Op::from) {
        let t = MxFp4Table::<O>::new(op);
        for s in 0..=255u8 {
            for c in 0..16u8 {
                let want: O = reference(op, fp4(c), e8m0_to_f64(s));
                assert_eq!(
                    t.lookup(s, c).bits(),
                    want.bits(),
                    "{op:?} scale {s} code {c}"
                );
                if s == 0xFF {
                    assert_eq!(want.bits(), O::NAN.bits());
                }
            }
        }
    }
}

/// Every (scale, code) entry of the MXFP4 tables equals the scalar reference, for every
/// output type, including the NaN scale 0xFF (every output the default NaN).
#[test]
fn mxfp4_tables_equal_the_reference_on_every_scale_and_code() {
    check_mx_table::<f32>();
    check_mx_table::<bf16>();
    check_mx_table::<f16>();
}

fn check_nvfp4_table<O: Bits>(global: f32) {
    for op in OPS.map(Op::from) {
        let t = Nvfp4Table::<O>::new(op, global).unwrap();
        for s in 0..=255u8 {
            let scale = Format::Fp8E4M3.decode(u16::from(s)) * f64::from(global);
            for c in 0..16u8 {
                let want: O = reference(op, fp4(c), scale);
                assert_eq!(
                    t.lookup(s, c).bits(),
                    want.bits(),
                    "{op:?} {global:e} {s} {c}"
                );
            }
        }
    }
}

#[test]
fn nvfp4_tables_equal_the_reference_on_every_scale_and_code() {
    for global in [1.0f32, 0.5, 3.0e-3, 1.0e30, f32::from_bits(1), f32::MAX] {
        check_nvfp4_table::<f32>(global);
    }
    check_nvfp4_table::<bf16>(1.0 / 448.0);
    check_nvfp4_table::<f16>(1.0 / 6.0);
}

/// The dequantized value is exact, and so is its rounding: 6 · 2^127 overflows f32 to +inf,
/// 0.5 · 2^-127 is the f32 subnormal 2^-128, and gelu of a huge value is the value.
#[test]
fn extreme_scales_round_once_from_the_exact_product() {
    let t = MxFp4Table::<f32>::new(Op::from(Function::Identity));
    assert_eq!(t.lookup(254, 0x7), f32::INFINITY);
    assert_eq!(t.lookup(254, 0xF), f32::NEG_INFINITY);
    assert_eq!(t.lookup(254, 0x2), 2f32.powi(127));
    assert_eq!(t.lookup(0, 0x1).to_bits(), 0x0020_0000); // 2^-128
    assert_eq!(t.lookup(0, 0x8).to_bits(), 0x8000_0000); // −0
    let b = MxFp4Table::<bf16>::new(Function::Gelu);
    assert_eq!(b.lookup(200, 0x7), bf16::from_f64(6.0 * 2f64.powi(73)));
    assert_eq!(b.lookup(254, 0x7), bf16::INFINITY);
    let h = MxFp4Table::<f16>::new(Op::from(Function::Identity));
    assert_eq!(h.lookup(127 + 16, 0x1), f16::from_f32(32768.0));
    assert_eq!(h.lookup(127 + 16, 0x7), f16::INFINITY); // 393216 > 65504
}

fn random_mx(rng: &mut Rng, blocks: usize) -> (Vec<u8>, Vec<u8>) {
    (rng.bytes(16 * blocks), rng.bytes(blocks))
}

fn check_kernels<O: Bits + Default>(op: Op) {
    let mx = MxFp4Table::<O>::new(op);
    let nv = Nvfp4Table::<O>::new(op, 0.75).unwrap();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (packed, scales) = random_mx(&mut rng, 40);
    // NVFP4 block scales are positive.
    let nv_scales: Vec<u8> = scales.iter().map(|s| s & 0x7F).collect();
    let kernels: Vec<Kernel> = Kernel::ALL
        .into_iter()
        .filter(|k| k.is_available_for(TableShape::Fp4))
        .collect();
    println!("available FP4 kernels: {kernels:?}");
    for kernel in kernels {
        // Every element count 0..=320 at block granularity, every input offset 0..16 and
        // output offsets 0..4 (unaligned).
        // Under Miri (.ci/steps/46-miri.sh), which interprets every unsafe block of the SIMD
        // kernels, a few blocks, offsets and output offsets, and no exhaustive pass.
        let (max_blocks, offsets, out_offsets) = if cfg!(miri) {
            (3, 4, 2)
        } else {
            (usize::MAX, 16, 4)
        };
        for (bytes, table) in [(16usize, 0), (8, 1)] {
            let per = 2 * bytes;
            for blocks in 0..=(320 / per + 1).min(max_blocks) {
                for offset in 0..offsets {
                    let src = &packed[offset..offset + blocks * bytes];
                    let sc = if table == 0 {
                        &scales[..blocks]
                    } else {
                        &nv_scales[..blocks]
                    };
                    for out_off in 0..out_offsets {
                        let mut want = vec![O::default(); blocks * per + out_off];
                        let mut got = vec![O::default(); blocks * per + out_off];
                        let (w, g) = (&mut want[out_off..], &mut got[out_off..]);
                        if table == 0 {
                            mx.map_with(Kernel::Scalar, src, sc, w).unwrap();
                            mx.map_with(kernel, src, sc, g).unwrap();
                        } else {
                            nv.map_with(Kernel::Scalar, src, sc, w).unwrap();
                            nv.map_with(kernel, src, sc, g).unwrap();
                        }
                        let same = w.iter().zip(g.iter()).all(|(a, b)| a.bits() == b.bits());
                        assert!(same, "{kernel:?} {op:?} {bytes}-byte blocks: {blocks} blocks, offset {offset}/{out_off}");
                    }
                }
            }
        }
        if cfg!(miri) {
            continue;
        }
        // Exhaustive: every byte value in every scale's blocks.
        let all: Vec<u8> = (0..=255u8).collect();
        let packed: Vec<u8> = (0..256).flat_map(|_| all.iter().copied()).collect();
        let mx_scales: Vec<u8> = (0..=255u8).flat_map(|s| [s; 16]).collect();
        // Every positive E4M3 scale, 64 blocks each.
        let nv_scales: Vec<u8> = (0..=127u8).flat_map(|s| [s; 64]).collect();
        for (bytes, scales) in [(16usize, &mx_scales), (8, &nv_scales)] {
            let mut want = vec![O::default(); 2 * packed.len()];
            let mut got = vec![O::default(); 2 * packed.len()];
            if bytes == 16 {
                mx.map_with(Kernel::Scalar, &packed, scales, &mut want)
                    .unwrap();
                mx.map_with(kernel, &packed, scales, &mut got).unwrap();
            } else {
                nv.map_with(Kernel::Scalar, &packed, scales, &mut want)
                    .unwrap();
                nv.map_with(kernel, &packed, scales, &mut got).unwrap();
            }
            for (i, (a, b)) in want.iter().zip(&got).enumerate() {
                assert_eq!(
                    a.bits(),
                    b.bits(),
                    "{kernel:?} {bytes}-byte blocks, element {i}"
                );
            }
            // And the scalar loop is the reference, element by element.
            for (i, a) in want.iter().enumerate() {
                let block = i / (2 * bytes);
                let byte = packed[i / 2];
                let code = if i % 2 == 0 { byte & 0xF } else { byte >> 4 };
                let s = scales[block];
                let e: O = if bytes == 16 {
                    mx.lookup(s, code)
                } else {
                    nv.lookup(s, code)
                };
                assert_eq!(a.bits(), e.bits(), "element {i}");
            }
        }
    }
}

#[test]
#[cfg_attr(
    miri,
    ignore = "builds tables by the reference math: too slow under Miri"
)]
fn every_fp4_kernel_equals_the_scalar_loop_on_every_length_offset_and_byte() {
    check_kernels::<f32>(Op::from(Function::Gelu));
    check_kernels::<bf16>(Op::from(Function::Gelu));
    check_kernels::<f16>(Op::from(Function::Identity));
}

/// The kernels' unsafe blocks on short inputs, for Miri: the identity (plain dequantization)
/// builds its tables without the reference math, which Miri would take minutes to interpret.
#[test]
fn every_fp4_kernel_equals_the_scalar_loop_on_short_inputs() {
    check_kernels::<f32>(Op::from(Function::Identity));
    check_kernels::<bf16>(Op::from(Function::Identity));
}

/// Unpacking order: element 2i is the low nibble of byte i.
#[test]
fn mxfp4_packing_puts_the_first_element_in_the_low_nibble() {
    let t = MxFp4Table::<f32>::new(Op::from(Function::Identity));
    let mut packed = [0u8; 16];
    packed[0] = 0x2B; // element 0: 0xB (−1.5), element 1: 0x2 (1.0)
    packed[15] = 0x70; // element 30: 0, element 31: 6
    let mut out = [0f32; 32];
    t.map(&packed, &[127], &mut out).unwrap();
    assert_eq!((out[0], out[1], out[30], out[31]), (-1.5, 1.0, 0.0, 6.0));
}

/// `map_mx` over every element format, on random blocks with every scale (0xFF included),
/// equals the reference element by element.
fn check_map_mx<O: Bits + Default>(op: Op) {
    let mut rng = Rng(7);
    for element in [
        Element::Fp4E2M1,
        Element::Fp6E2M3,
        Element::Fp6E3M2,
        Element::Fp8E4M3,
        Element::Fp8E5M2,
    ] {
        let mask = element.format().code_mask() as u8;
        let bytes = element.block_bytes();
        // Every scale, in runs of 1 to 3 blocks (so the memo is reused and reset).
        let mut scales = Vec::new();
        for s in 0..=255u8 {
            let run = 1 + (rng.next() % 3) as usize;
            scales.extend(std::iter::repeat_n(s, run));
        }
        let mut codes = rng.bytes(scales.len() * bytes);
        if element != Element::Fp4E2M1 {
            codes.iter_mut().for_each(|c| *c &= mask);
        }
        let mut out = vec![O::default(); scales.len() * MX_BLOCK];
        map_mx(op, element, &codes, &scales, &mut out).unwrap();
        for (i, o) in out.iter().enumerate() {
            let block = i / MX_BLOCK;
            let code = if element == Element::Fp4E2M1 {
                let b = codes[i / 2];
                if i % 2 == 0 {
                    b & 0xF
                } else {
                    b >> 4
                }
            } else {
                codes[i]
            };
            let want: O = reference(op, element.value(code).unwrap(), e8m0_to_f64(scales[block]));
            assert_eq!(
                o.bits(),
                want.bits(),
                "{element:?} {op:?} element {i} code {code:#x}"
            );
        }
        if element == Element::Fp4E2M1 {
            let t = MxFp4Table::<O>::new(op);
            let mut table_out = vec![O::default(); out.len()];
            t.map(&codes, &scales, &mut table_out).unwrap();
            assert!(out
                .iter()
                .zip(&table_out)
                .all(|(a, b)| a.bits() == b.bits()));
        }
    }
}

#[test]
fn map_mx_equals_the_reference_for_every_element_format_and_scale() {
    check_map_mx::<f32>(Op::from(Function::Identity));
    check_map_mx::<bf16>(Op::from(Function::Gelu));
    check_map_mx::<f16>(Op::from(Function::Tanh));
    check_map_mx::<f32>(Op::from(Function::Sigmoid));
}

/// A NaN E8M0 scale makes every output of its block the default NaN; so does a NaN element.
#[test]
fn the_nan_scale_makes_its_block_nan() {
    let codes: Vec<u8> = (0..64).map(|i| i as u8).collect(); // two blocks of FP8 codes
    let mut out = [0f32; 64];
    map_mx(
        Op::from(Function::Identity),
        Element::Fp8E4M3,
        &codes,
        &[0xFF, 127],
        &mut out,
    )
    .unwrap();
    assert!(out[..32].iter().all(|v| v.to_bits() == 0x7FC0_0000));
    assert!(out[32..].iter().all(|v| !v.is_nan()));
    let t = MxFp4Table::<bf16>::new(Function::Exp);
    let mut out = [bf16::ZERO; 32];
    t.map(&[0x11; 16], &[0xFF], &mut out).unwrap();
    assert!(out.iter().all(|v| v.to_bits() == 0x7FC0));
    // E4M3 NaN element (0x7F) and an E4M3 NaN NVFP4 block scale.
    let mut out = [0f32; 32];
    map_mx(
        Op::from(Function::Identity),
        Element::Fp8E4M3,
        &[0x7F; 32],
        &[127],
        &mut out,
    )
    .unwrap();
    assert!(out.iter().all(|v| v.to_bits() == 0x7FC0_0000));
    let nv = Nvfp4Table::<f16>::new(Op::from(Function::Identity), 1.0).unwrap();
    assert_eq!(nv.lookup(0x7F, 0x3).to_bits(), 0x7E00);
    assert_eq!(nv.lookup(0xFF, 0x0).to_bits(), 0x7E00);
}

#[test]
fn bad_blocks_are_errors_that_name_the_block_and_write_nothing() {
    let t = MxFp4Table::<f32>::new(Op::from(Function::Identity));
    let mut out = [7.0f32; 64];
    let e = t.map(&[0; 20], &[127], &mut out[..32]).unwrap_err();
    assert_eq!(
        e,
        BlockError::RaggedTail {
            block: 1,
            bytes: 4,
            block_bytes: 16
        }
    );
    assert_eq!(
        e.to_string(),
        "block 1 is incomplete: 4 of its 16 bytes (a ragged tail)"
    );
    let e = t.map(&[0; 32], &[127], &mut out).unwrap_err();
    assert_eq!(
        e,
        BlockError::ScaleCount {
            blocks: 2,
            scales: 1
        }
    );
    let e = t.map(&[0; 32], &[127, 127], &mut out[..63]).unwrap_err();
    assert_eq!(
        e,
        BlockError::OutputLength {
            expected: 64,
            found: 63
        }
    );
    let nv = Nvfp4Table::<f32>::new(Op::from(Function::Identity), 1.0).unwrap();
    let e = nv.map(&[0; 12], &[0x38], &mut out[..16]).unwrap_err();
    assert_eq!(
        e,
        BlockError::RaggedTail {
            block: 1,
            bytes: 4,
            block_bytes: 8
        }
    );
    // FP6 codes with stray high bits: the block and the element are named.
    let mut codes = [0x08u8; 64];
    codes[32 + 5] = 0x48;
    let e = map_mx(
        Op::from(Function::Identity),
        Element::Fp6E2M3,
        &codes,
        &[127, 127],
        &mut out,
    )
    .unwrap_err();
    assert_eq!(
        e,
        BlockError::StrayBits {
            block: 1,
            index: 5,
            code: 0x48
        }
    );
    assert_eq!(
        e.to_string(),
        "block 1, element 5: code 0x48 has bits above its width"
    );
    let e = map_mx(
        Op::from(Function::Identity),
        Element::Fp8E4M3,
        &codes[..40],
        &[127],
        &mut out[..32],
    );
    assert_eq!(
        e,
        Err(BlockError::RaggedTail {
            block: 1,
            bytes: 8,
            block_bytes: 32
        })
    );
    assert!(out.iter().all(|&v| v == 7.0), "nothing written on error");
    // The NVFP4 global scale must be finite and positive.
    for g in [f32::NAN, 0.0, -0.0, -1.0, f32::INFINITY, f32::NEG_INFINITY] {
        let e = Nvfp4Table::<f32>::new(Op::from(Function::Identity), g).unwrap_err();
        assert!(matches!(e, BlockError::GlobalScale { value } if value.to_bits() == g.to_bits()));
        assert!(e
            .to_string()
            .starts_with("the NVFP4 global scale must be finite and positive"));
    }
    // An NVFP4 block scale with its sign bit set (E4M3 0xB8 = -1) would flip
    // the block's signs: an error naming the block, before anything is written.
    let e = nv
        .map(&[0x22; 24], &[0x38, 0x38, 0xB8], &mut out[..48])
        .unwrap_err();
    assert_eq!(
        e,
        BlockError::NegativeScale {
            block: 2,
            scale: 0xB8
        }
    );
    assert_eq!(
        e.to_string(),
        "block 2: the NVFP4 block scale 0xb8 is negative (sign bit set); NVFP4 block scales are positive"
    );
    for s in [0x80u8, 0xB8, 0xFF] {
        let e = nv.map_with(Kernel::Scalar, &[0; 8], &[s], &mut out[..16]);
        assert_eq!(e, Err(BlockError::NegativeScale { block: 0, scale: s }));
    }
    // MX E8M0 scales have no sign: 0xB8 is 2^57.
    assert_eq!(t.map(&[0; 16], &[0xB8], &mut out[..32]), Ok(()));
    out.fill(7.0);
    // A kernel that cannot run FP4 rows is an error, not a panic or a fallback.
    let e = t.map_with(Kernel::Avx2, &[0; 16], &[127], &mut out[..32]);
    assert_eq!(
        e,
        Err(BlockError::Kernel(KernelUnavailable {
            kernel: Kernel::Avx2,
            shape: TableShape::Fp4
        }))
    );
    assert!(out.iter().all(|&v| v == 7.0), "nothing written on error");
    // Zero blocks are fine.
    assert_eq!(t.map(&[], &[], &mut []), Ok(()));
    assert_eq!(NVFP4_BLOCK, 16);
}

/// MXFP4 elements dequantized to bf16 are exact (2 significant bits; an overflow is ±inf, where
/// gelu is ±inf too), so the fused table equals dequantization followed by the gelu_bf16 table,
/// on every (scale, code).
#[cfg(all(feature = "gelu", feature = "bf16"))]
#[test]
fn fused_mxfp4_gelu_bf16_equals_dequantize_then_the_gelu_bf16_table() {
    let fused = MxFp4Table::<bf16>::new(Function::Gelu);
    let plain = MxFp4Table::<bf16>::new(Op::from(Function::Identity));
    for s in 0..=255u8 {
        for c in 0..16u8 {
            let x = plain.lookup(s, c);
            let two = actlut::gelu::bf16(x);
            let one = fused.lookup(s, c);
            if s == 0xFF {
                assert!(one.is_nan() && two.is_nan());
            } else {
                assert_eq!(one.to_bits(), two.to_bits(), "scale {s} code {c}");
            }
        }
    }
}

/// Where the dequantized value is an `f32` (every MXFP4 element below 2^128), the fused f32
/// table equals the computed `f32` path at that value: the same evaluation, checked against
/// MPFR by the oracle's eval_f32 test.
#[test]
fn fused_f32_tables_equal_the_computed_f32_path_inside_f32_range() {
    for act in [
        Function::Gelu,
        Function::Sigmoid,
        Function::Exp,
        Function::Log,
    ] {
        let t = MxFp4Table::<f32>::new(Op::from(act));
        for s in 0..0xFFu8 {
            for c in 0..16u8 {
                let x = fp4(c) * e8m0_to_f64(s);
                if x.abs() > f64::from(f32::MAX) {
                    continue;
                }
                let want = actlut::computed::f32(act, x as f32);
                let got = t.lookup(s, c);
                assert!(
                    got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                    "{act:?} scale {s} code {c}: {got:e} vs {want:e}"
                );
            }
        }
    }
}
