//! Every 16-bit kernel available here is bit-identical to an indexed reference
//! on every length 0..=300 and every alignment offset (element offsets 0..32,
//! byte offsets 0..64 in steps of 2: a `&[u16]` is never at an odd address), in
//! place and out of place, with random and exhaustive inputs. (CI also runs
//! this file on aarch64 under qemu and on wasm32 under node.)

use actlut::kernels::{apply_u16, map_u16, WordKernel, WordKernelUnavailable};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn tables() -> Vec<Box<[u16; 65_536]>> {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut random = Box::new([0u16; 65_536]);
    random
        .iter_mut()
        .for_each(|t| *t = (rng.next() >> 48) as u16);
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

fn available() -> Vec<WordKernel> {
    let k: Vec<_> = WordKernel::ALL
        .into_iter()
        .filter(|k| k.is_available())
        .collect();
    println!("16-bit kernels available here: {k:?}");
    k
}

#[test]
fn every_available_kernel_equals_the_reference_on_every_length_and_offset() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let buf: Vec<u16> = (0..300 + 32 + 32)
        .map(|_| (rng.next() >> 48) as u16)
        .collect();
    for kernel in available() {
        for table in tables() {
            for offset in 0..32 {
                for len in 0..=300 {
                    let xs = &buf[offset..offset + len];
                    let want = reference(&table, xs);
                    // Out of place, with the destination at its own offset.
                    let mut dst_buf = vec![0xA5A5u16; len + 32];
                    let dst_offset = (offset * 7) % 32;
                    let ys = &mut dst_buf[dst_offset..dst_offset + len];
                    kernel.map(&table, xs, ys).unwrap();
                    assert_eq!(ys, &want[..], "{kernel:?} map len {len} offset {offset}");
                    assert!(dst_buf[..dst_offset].iter().all(|&v| v == 0xA5A5));
                    assert!(dst_buf[dst_offset + len..].iter().all(|&v| v == 0xA5A5));
                    // In place.
                    let mut inplace = buf.clone();
                    kernel
                        .apply(&table, &mut inplace[offset..offset + len])
                        .unwrap();
                    assert_eq!(
                        &inplace[offset..offset + len],
                        &want[..],
                        "{kernel:?} apply len {len} offset {offset}"
                    );
                    // Elements around the slice are untouched.
                    assert_eq!(&inplace[..offset], &buf[..offset]);
                    assert_eq!(&inplace[offset + len..], &buf[offset + len..]);
                }
            }
        }
    }
}

#[test]
fn every_available_kernel_maps_every_16_bit_pattern() {
    // In order, in reverse order, and shuffled: every index in every lane.
    let mut shuffled: Vec<u16> = (0..=u16::MAX).collect();
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    for i in (1..shuffled.len()).rev() {
        shuffled.swap(i, (rng.next() % (i as u64 + 1)) as usize);
    }
    let inputs: Vec<u16> = (0..=u16::MAX)
        .chain((0..=u16::MAX).rev())
        .chain(shuffled)
        .collect();
    for kernel in available() {
        for table in tables() {
            let want = reference(&table, &inputs);
            let mut ys = vec![0; inputs.len()];
            kernel.map(&table, &inputs, &mut ys).unwrap();
            assert!(ys == want, "{kernel:?} map");
            let mut xs = inputs.clone();
            kernel.apply(&table, &mut xs).unwrap();
            assert!(xs == want, "{kernel:?} apply");
        }
    }
}

#[test]
fn best_is_the_lane_load_kernel_where_there_is_one() {
    let want = if cfg!(all(target_arch = "x86_64", target_feature = "sse2")) {
        WordKernel::Sse2
    } else if cfg!(all(target_arch = "wasm32", target_feature = "simd128")) {
        WordKernel::Simd128
    } else {
        WordKernel::Scalar
    };
    assert_eq!(WordKernel::best(), want);
}

#[test]
fn the_default_entry_points_equal_the_reference() {
    assert!(WordKernel::best().is_available());
    let table = &tables()[0];
    let xs: Vec<u16> = (0..100_003u32)
        .map(|i| (i.wrapping_mul(40_503)) as u16)
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
    for kernel in WordKernel::ALL.into_iter().filter(|k| !k.is_available()) {
        let table = Box::new([0u16; 65_536]);
        let mut xs = [0u16; 4];
        assert_eq!(
            kernel.apply(&table, &mut xs),
            Err(WordKernelUnavailable(kernel))
        );
        assert!(WordKernelUnavailable(kernel)
            .to_string()
            .contains("not available"));
    }
}

#[test]
#[should_panic(expected = "source slice length (5) does not match destination slice length (4)")]
fn map_with_different_lengths_panics_naming_both() {
    let table = Box::new([0u16; 65_536]);
    let _ = WordKernel::Sse2.map(&table, &[0; 5], &mut [0; 4]);
}
