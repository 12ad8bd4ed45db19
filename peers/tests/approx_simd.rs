//! The AVX2 kernels of `approx_simd` against their scalar fallback: the same
//! bits (NaN payloads aside) on every input, and on every length from 0 to 40
//! (full groups of 8 and every tail).

use actlut_peers::accuracy::{is_nan, run_all};
use actlut_peers::{approx_simd, Format, Peer, FUNCTIONS};

fn same(format: Format, a: u16, b: u16) -> bool {
    a == b || (is_nan(format, a) && is_nan(format, b))
}

fn simd_peer(function: actlut::Function, format: Format) -> Peer {
    Peer::all(function, format)
        .into_iter()
        .find(|p| p.name == "approx_simd")
        .expect("every function has an approx_simd peer")
}

#[test]
fn approx_simd_matches_its_scalar_fallback_on_every_input() {
    if !approx_simd::simd_available() {
        eprintln!("skipped: this CPU lacks avx2, fma or f16c, so both paths are the scalar one");
        return;
    }
    for function in FUNCTIONS {
        for format in Format::ALL {
            let simd = run_all(simd_peer(function, format).kernel);
            let scalar = run_all(approx_simd::scalar_kernel(function, format));
            for (input, (a, b)) in simd.iter().zip(&scalar).enumerate() {
                assert!(
                    same(format, *a, *b),
                    "{}_{} at {input:#06x}: AVX2 {a:#06x}, scalar {b:#06x}",
                    function.name(),
                    format.name()
                );
            }
        }
    }
}

#[test]
fn approx_simd_matches_its_scalar_fallback_on_every_length_up_to_40() {
    if !approx_simd::simd_available() {
        eprintln!("skipped: this CPU lacks avx2, fma or f16c, so both paths are the scalar one");
        return;
    }
    // Seeded patterns from the whole range: NaNs, infinities, subnormals.
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let pool: Vec<u16> = (0..1000)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 48) as u16
        })
        .collect();
    for function in FUNCTIONS {
        for format in Format::ALL {
            let simd = simd_peer(function, format).kernel;
            let scalar = approx_simd::scalar_kernel(function, format);
            for len in 0..=40 {
                for offset in [0, 1, 3, 7] {
                    let xs = &pool[offset * 41..offset * 41 + len];
                    // Sentinels after the output: the tail must not write past it.
                    let (mut a, mut b) = (vec![0xAAAA; len + 8], vec![0xAAAA; len + 8]);
                    simd.map_bits(xs, &mut a[..len]);
                    scalar.map_bits(xs, &mut b[..len]);
                    assert!(a[len..].iter().all(|s| *s == 0xAAAA));
                    for i in 0..len {
                        assert!(
                            same(format, a[i], b[i]),
                            "{}_{} length {len}, element {i} (input {:#06x}): AVX2 {:#06x}, scalar {:#06x}",
                            function.name(),
                            format.name(),
                            xs[i],
                            a[i],
                            b[i]
                        );
                    }
                }
            }
        }
    }
}
