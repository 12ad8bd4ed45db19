//! `Kernel::best` picks, per CPU class, the kernel the benchmarks showed
//! fastest there: the table of `Kernel::preference` (its documentation,
//! BENCHMARKS.md and docs/compact.md "Speed" give the measurements), restated
//! here so that a change to the choice is a change to this test too.

use actlut::kernels::{CpuClass, Kernel, TableShape};

use CpuClass::*;
use Kernel::*;

/// The documented table: shape, class, kernels fastest first.
fn documented(shape: TableShape, class: CpuClass) -> Vec<Kernel> {
    let classes = [Intel, AmdZen3, AmdZen4, AmdZen5, Other];
    let at = classes.iter().position(|&c| c == class).unwrap();
    let row: [&[Kernel]; 5] = match shape {
        TableShape::U8 => [
            &[Avx512Vbmi, Avx2],
            &[Avx2],
            &[Avx512Vbmi, Avx2],
            &[Avx512Vbmi, Avx2],
            &[Avx512Vbmi, Avx2, Neon],
        ],
        TableShape::U16 => [&[Avx512, Sse2], &[Sse2], &[Sse2], &[Sse2], &[Sse2, Simd128]],
        TableShape::U8ToU32 | TableShape::U8ToU16 => [&[Sse2]; 5],
        TableShape::Compact16 => [&[Avx512, Avx2], &[Avx2], &[Avx2], &[Avx512, Avx2], &[]],
        TableShape::CompactWords16 => [&[Avx512, Avx2], &[Avx2], &[Avx2], &[], &[]],
        TableShape::Fp4 => [
            &[Ssse3],
            &[Ssse3],
            &[Ssse3],
            &[Ssse3],
            &[Ssse3, Neon, Simd128],
        ],
        TableShape::Spline16 => [&[]; 5],
        _ => panic!("a shape the table does not cover: {shape:?}"),
    };
    row[at].to_vec()
}

#[test]
fn the_preference_of_every_shape_on_every_cpu_class_is_the_documented_table() {
    for shape in TableShape::ALL {
        for class in [Intel, AmdZen3, AmdZen4, AmdZen5, Other] {
            assert_eq!(
                Kernel::preference(shape, class),
                documented(shape, class),
                "{shape:?} on {class:?}"
            );
        }
    }
}

#[test]
fn best_is_the_first_available_kernel_of_the_table_for_the_detected_class() {
    let class = CpuClass::detect();
    println!("CPU class: {class:?}");
    for shape in TableShape::ALL {
        let want = documented(shape, class)
            .into_iter()
            .find(|k| k.is_available_for(shape))
            .unwrap_or(Scalar);
        assert_eq!(Kernel::best(shape), want, "{shape:?}");
        println!("best kernel for {shape:?} tables on {class:?}: {want:?}");
    }
}

#[test]
fn never_simd128_for_byte_or_compact_tables_on_any_class() {
    for class in [Intel, AmdZen3, AmdZen4, AmdZen5, Other] {
        for shape in [
            TableShape::U8,
            TableShape::Compact16,
            TableShape::CompactWords16,
        ] {
            assert!(!Kernel::preference(shape, class).contains(&Simd128));
        }
    }
}

#[test]
fn the_cpuid_vendor_and_family_give_the_class() {
    assert_eq!(CpuClass::from_cpuid(b"GenuineIntel", 6, true), Intel);
    assert_eq!(CpuClass::from_cpuid(b"GenuineIntel", 6, false), Intel);
    assert_eq!(CpuClass::from_cpuid(b"AuthenticAMD", 25, false), AmdZen3);
    assert_eq!(CpuClass::from_cpuid(b"AuthenticAMD", 25, true), AmdZen4);
    assert_eq!(CpuClass::from_cpuid(b"AuthenticAMD", 26, true), AmdZen5);
    assert_eq!(CpuClass::from_cpuid(b"AuthenticAMD", 23, false), Other);
    assert_eq!(CpuClass::from_cpuid(b"HygonGenuine", 24, false), Other);
}
