//! Every kernel available here for compact 16-bit tables
//! ([`TableShape::Compact16`]) is bit-identical to the full table it was made
//! from, and to [`CompactRef::get`]:
//!
//! - on every one of the 65,536 inputs (NaN payloads included), out of place
//!   and in place, for compacted `gelu` tables (and, with the `compact`
//!   feature, every embedded table), against the full table;
//! - on every length 0..=300 and every alignment offset, with the harness of
//!   the other kernels (tests/kernel_harness);
//! - on adversarial compact tables that exercise every path of the decode:
//!   random tables (every page wide, page starts scaled by 4), half-random
//!   tables (scaled by 2), smooth and adversarial synthetic tables (narrow and
//!   wide pages side by side), and random *stored forms* of every page size,
//!   offset scale and layout (page starts anywhere the validation allows,
//!   random addends).
//!
//! Under Miri (CI's Miri step) the compaction is too slow to run: only random
//! stored forms are checked (three on every 97th input, one on the harness's
//! short lengths and offsets), about a minute of Miri.

mod kernel_harness;
use kernel_harness::{available, check_apply, check_map, Rng, MAX_LEN, OFFSET_BYTES};

use actlut::compact::{apply_compact_u16, map_compact_u16, CompactRef, Layout};
use actlut::kernels::{CpuClass, Kernel, KernelUnavailable, TableShape};
use actlut_codegen::compact::{HEADER_BYTES, MAGIC};

/// A random valid stored form: pages of `2^k` entries, each page wide or
/// narrow at random (bytes layout), starting anywhere in the pool a 4-byte read
/// at its last entry allows, with a random addend; a pool of random bytes.
fn random_stored_form(layout: Layout, k: u32, scale: u32, pool_len: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng(seed | 1);
    let pages = 65_536 >> k;
    let last = (1usize << k) - 1;
    let mut b = MAGIC.to_vec();
    b.extend_from_slice(&[k as u8, scale as u8, layout.code(), 0]);
    b.extend_from_slice(&(pool_len as u32).to_le_bytes());
    for _ in 0..pages {
        let r = rng.next();
        let addend = (r >> 48) as u32;
        let d = match layout {
            Layout::Bytes => {
                let wide = (r >> 20) & 1;
                let step = 1 + wide as usize;
                let max = ((pool_len - 4 - step * last) >> scale).min(0x7FFF);
                // Half of the pages start at the last possible unit: the
                // bound the validation allows, read to its last byte.
                let offset = if r & 2 == 0 {
                    max
                } else {
                    (r >> 24) as usize % (max + 1)
                };
                addend << 16 | (wide as u32) << 15 | offset as u32
            }
            Layout::Words => {
                let max = ((pool_len - 4) / 2 - last).min(0xFFFF);
                let offset = if r & 2 == 0 {
                    max
                } else {
                    (r >> 24) as usize % (max + 1)
                };
                addend << 16 | offset as u32
            }
        };
        b.extend_from_slice(&d.to_le_bytes());
    }
    b.extend((0..pool_len).map(|_| rng.next() as u8));
    assert_eq!(b.len(), HEADER_BYTES + 4 * pages + pool_len);
    b
}

/// Random stored forms of every page size, offset scale and layout (under
/// Miri: three of them).
fn random_stored_forms() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut seed = 0x2545_F491_4F6C_DD1D_u64;
    let mut add = |name: String, layout, k, scale, pool_len| {
        seed = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(1);
        out.push((name, random_stored_form(layout, k, scale, pool_len, seed)));
    };
    if cfg!(miri) {
        add("bytes k=4 scale=1".into(), Layout::Bytes, 4, 1, 1500);
        add("bytes k=8 scale=2".into(), Layout::Bytes, 8, 2, 3000);
        add("words k=5".into(), Layout::Words, 5, 0, 1000);
        return out;
    }
    for k in 4..=8 {
        for scale in 0..=2 {
            // Big enough that scaled starts reach past 32 KiB.
            let pool_len = [20_000, 70_000, 140_000][scale as usize];
            add(
                format!("bytes k={k} scale={scale}"),
                Layout::Bytes,
                k,
                scale,
                pool_len,
            );
        }
        add(format!("words k={k}"), Layout::Words, k, 0, 131_000);
    }
    out
}

/// Synthetic full tables: random (every page wide), half random, a smooth
/// random walk, and ranges at the narrow/wide boundary with pages copied from
/// others.
fn synthetic_tables() -> Vec<(String, Vec<u16>)> {
    let mut rng = Rng(0x6A09_E667_F3BC_C908);
    let random: Vec<u16> = (0..65_536).map(|_| (rng.next() >> 48) as u16).collect();
    let mut half = random.clone();
    let mut walk = Vec::with_capacity(65_536);
    let (mut v, mut slope) = (0u16, 0i32);
    for _ in 0..65_536 {
        slope = (slope + (rng.next() % 3) as i32 - 1).clamp(-6, 6);
        v = v.wrapping_add(slope as u16);
        walk.push(v);
    }
    half[20_000..].copy_from_slice(&walk[20_000..]);
    let mut edge = Vec::with_capacity(65_536);
    let mut v = 0u16;
    for i in 0..65_536 {
        let span = if (i >> 4) % 2 == 0 { 255 } else { 256 };
        v = match rng.next() % 4 {
            0 => v.wrapping_add(span),
            1 => v.wrapping_sub(span),
            2 => v.wrapping_add((rng.next() % (u64::from(span) + 1)) as u16),
            _ => 0xFFFF_u16.wrapping_add((rng.next() % 3) as u16),
        };
        edge.push(v);
    }
    vec![
        ("random".into(), random),
        ("half-random".into(), half),
        ("walk".into(), walk),
        ("edge".into(), edge),
    ]
}

/// Full tables and their stored forms in both layouts: the synthetic ones and
/// `gelu` on f16 and bf16 (as the build compacts them).
fn compacted() -> Vec<(String, Vec<u16>, Vec<u8>)> {
    use actlut_codegen::{Format, Function};
    let mut tables = synthetic_tables();
    for format in [Format::F16, Format::Bf16] {
        tables.push((
            format!("gelu_{}", format.name()),
            actlut_codegen::table(Function::Gelu, format),
        ));
    }
    let mut out = Vec::new();
    for (name, full) in tables {
        for layout in Layout::ALL {
            let c = actlut_codegen::compact::compact(&name, &full, layout)
                .unwrap_or_else(|e| panic!("{e}"));
            out.push((
                format!("{name} ({})", layout.name()),
                full.clone(),
                c.to_bytes(),
            ));
        }
    }
    out
}

/// Every input in order, in reverse and in a scrambled order (an odd
/// multiplier permutes the 16-bit patterns): every index in every lane of
/// every block size.
fn every_input_three_ways() -> Vec<u16> {
    (0..=u16::MAX)
        .chain((0..=u16::MAX).rev())
        .chain((0..=u16::MAX).map(|i| i.wrapping_mul(40_503) ^ 0x5A5A))
        .collect()
}

/// Every kernel here, out of place and in place, gives `full[x]` for every
/// input `x` (three times each, in three orders).
fn assert_every_kernel_equals_the_full_table(name: &str, view: &CompactRef<'_>, full: &[u16]) {
    let xs = every_input_three_ways();
    let want: Vec<u16> = xs.iter().map(|&x| full[usize::from(x)]).collect();
    for kernel in available(TableShape::Compact16) {
        let mut ys = vec![0; xs.len()];
        kernel.map(view, &xs, &mut ys).unwrap();
        if let Some(i) = (0..xs.len()).find(|&i| ys[i] != want[i]) {
            panic!(
                "{kernel:?} map on {name} at input {:#06x}: {:#06x}, the full table holds {:#06x}",
                xs[i], ys[i], want[i]
            );
        }
        let mut inplace = xs.clone();
        kernel.apply(view, &mut inplace).unwrap();
        assert!(inplace == want, "{kernel:?} apply on {name}");
    }
    let mut ys = vec![0; xs.len()];
    map_compact_u16(view, &xs, &mut ys);
    assert!(ys == want, "compact::map_compact_u16 on {name}");
    let mut inplace = xs;
    apply_compact_u16(view, &mut inplace);
    assert!(inplace == want, "compact::apply_compact_u16 on {name}");
}

#[cfg(not(miri))]
#[test]
fn every_compact_kernel_equals_the_full_table_on_every_input() {
    let tables = compacted();
    let mut scales = Vec::new();
    let mut wide_and_narrow = false;
    for (name, full, stored) in &tables {
        let view = CompactRef::from_bytes(stored).unwrap();
        if view.layout() == Layout::Bytes {
            scales.push(view.offset_scale());
            let wide = (0..view.dir_bytes().len() / 4)
                .filter(|p| view.dir_bytes()[4 * p + 1] & 0x80 != 0)
                .count();
            wide_and_narrow |= wide > 0 && wide < view.dir_bytes().len() / 4;
        }
        assert_every_kernel_equals_the_full_table(name, &view, full);
    }
    // The decode's paths were all taken: every offset scale, and tables with
    // wide and narrow pages side by side.
    for scale in 0..=2 {
        assert!(
            scales.contains(&scale),
            "no table with offset scale {scale}"
        );
    }
    assert!(wide_and_narrow);
}

/// With the `compact` feature: every embedded table, through every kernel, on
/// every input, against the full table generated by `actlut-codegen`.
#[cfg(all(feature = "compact", not(miri)))]
#[test]
fn every_compact_kernel_equals_the_full_table_on_every_embedded_table() {
    use actlut::{BuiltinTables, Format, Function, TableRef};
    let mut n = 0;
    for format in [Format::F16, Format::Bf16] {
        for act in Function::ALL {
            if let Ok(TableRef::Compact(view)) = act.table(format) {
                let name = format!("{}_{}", act.name(), format.name());
                let full = actlut_codegen::table(act, format);
                assert_every_kernel_equals_the_full_table(&name, view, &full);
                n += 1;
            }
        }
    }
    assert!(n > 0, "no embedded compact table");
    println!("{n} embedded compact tables checked through every kernel");
}

#[test]
fn every_compact_kernel_equals_get_on_random_stored_forms_on_every_input() {
    let step = if cfg!(miri) { 97 } else { 1 };
    let xs: Vec<u16> = (0..=u16::MAX)
        .step_by(step)
        .chain((0..=u16::MAX).rev().step_by(step))
        .collect();
    for (name, stored) in random_stored_forms() {
        let view = CompactRef::from_bytes(&stored).unwrap_or_else(|e| panic!("{name}: {e}"));
        let want: Vec<u16> = xs.iter().map(|&x| view.get(x)).collect();
        for kernel in available(TableShape::Compact16) {
            let mut ys = vec![0; xs.len()];
            kernel.map(&view, &xs, &mut ys).unwrap();
            assert!(ys == want, "{kernel:?} on {name}");
        }
    }
}

#[test]
fn every_compact_kernel_equals_get_on_every_length_and_offset() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let buf: Vec<u16> = (0..MAX_LEN + OFFSET_BYTES)
        .map(|_| (rng.next() >> 48) as u16)
        .collect();
    let forms = random_stored_forms();
    // Under Miri: one bytes form (the words forms run in the test above);
    // elsewhere a bytes form of each offset scale and a words form.
    let picked: Vec<&Vec<u8>> = forms
        .iter()
        .filter(|(name, _)| {
            if cfg!(miri) {
                name == "bytes k=4 scale=1"
            } else {
                [
                    "bytes k=4 scale=0",
                    "bytes k=6 scale=1",
                    "bytes k=8 scale=2",
                    "words k=7",
                ]
                .contains(&name.as_str())
            }
        })
        .map(|(_, b)| b)
        .collect();
    let views: Vec<CompactRef<'_>> = picked
        .iter()
        .map(|b| CompactRef::from_bytes(b).unwrap())
        .collect();
    assert_eq!(views.len(), if cfg!(miri) { 1 } else { 4 });
    let views: Vec<&CompactRef<'_>> = views.iter().collect();
    check_map(&views, &buf, 0xA5A5);
    check_apply(&views, &buf);
}

/// The harness over every length and offset on real tables too (`gelu`, as
/// compacted by the build).
#[cfg(not(miri))]
#[test]
fn every_compact_kernel_equals_get_on_every_length_and_offset_of_gelu() {
    use actlut_codegen::{Format, Function};
    let stored: Vec<Vec<u8>> = [Format::F16, Format::Bf16]
        .into_iter()
        .map(|f| {
            let full = actlut_codegen::table(Function::Gelu, f);
            actlut_codegen::compact::compact("gelu", &full, Layout::Bytes)
                .unwrap()
                .to_bytes()
        })
        .collect();
    let views: Vec<CompactRef<'_>> = stored
        .iter()
        .map(|b| CompactRef::from_bytes(b).unwrap())
        .collect();
    let views: Vec<&CompactRef<'_>> = views.iter().collect();
    let mut rng = Rng(0xBB67_AE85_84CA_A73B);
    let buf: Vec<u16> = (0..MAX_LEN + OFFSET_BYTES)
        .map(|_| (rng.next() >> 48) as u16)
        .collect();
    check_map(&views, &buf, 0xA5A5);
    check_apply(&views, &buf);
}

#[test]
fn best_is_available_and_the_entry_points_use_it() {
    for shape in [TableShape::Compact16, TableShape::CompactWords16] {
        let best = Kernel::best(shape);
        assert!(best.is_available_for(shape));
        println!("best kernel for {shape:?} tables: {best:?}");
        // The documented choice for this CPU (tests/tables/kernel_choice.rs holds the table).
        assert_eq!(best, Kernel::best_on(shape, CpuClass::detect()));
    }
    // Both layouts, interleaved: each layout's choice is its own, made on its
    // first slice, and a slice of the other layout does not change it.
    let forms = random_stored_forms();
    let words = forms
        .iter()
        .position(|(_, f)| CompactRef::from_bytes(f).unwrap().layout() == Layout::Words)
        .expect("a words form");
    let n = if cfg!(miri) { 203 } else { 100_003 };
    let xs: Vec<u16> = (0..n).map(|i: u32| i.wrapping_mul(40_503) as u16).collect();
    for round in 0..2 {
        for form in [&forms[0].1, &forms[words].1] {
            let view = CompactRef::from_bytes(form).unwrap();
            assert_eq!(
                TableShape::of_compact(view.layout()),
                if view.layout() == Layout::Words {
                    TableShape::CompactWords16
                } else {
                    TableShape::Compact16
                }
            );
            let want: Vec<u16> = xs.iter().map(|&x| view.get(x)).collect();
            let mut ys = vec![0; n as usize];
            map_compact_u16(&view, &xs, &mut ys);
            assert!(ys == want, "{:?} round {round}: map", view.layout());
            let mut inplace = xs.clone();
            apply_compact_u16(&view, &mut inplace);
            assert!(inplace == want, "{:?} round {round}: apply", view.layout());
        }
    }
}

#[test]
fn unavailable_compact_kernels_are_errors_not_fallbacks() {
    let shape = TableShape::Compact16;
    let stored = random_stored_form(Layout::Bytes, 8, 0, 600, 5);
    let view = CompactRef::from_bytes(&stored).unwrap();
    for kernel in Kernel::ALL
        .into_iter()
        .filter(|k| !k.is_available_for(shape))
    {
        let mut xs = [1u16, 2, 3, 4];
        assert_eq!(
            kernel.apply(&view, &mut xs),
            Err(KernelUnavailable { kernel, shape })
        );
        assert_eq!(xs, [1, 2, 3, 4], "untouched");
        assert!(KernelUnavailable { kernel, shape }
            .to_string()
            .contains("not available for compact 16-bit tables"));
    }
    assert!(Kernel::Scalar.is_available_for(shape));
}

#[test]
fn compact_map_with_different_lengths_is_an_error_naming_both() {
    let stored = random_stored_form(Layout::Words, 8, 0, 600, 9);
    let view = CompactRef::from_bytes(&stored).unwrap();
    let err = Kernel::Scalar.map(&view, &[0; 5], &mut [0; 4]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "actlut: source slice length (5) does not match destination slice length (4)"
    );
}
