//! Every entry of every enabled table equals the computed path, through every
//! entry point (static table, typed value, raw bits, slices, run-time dispatch).

use actlut::{computed, Activation, Format};

type TableOf = fn(Activation) -> Option<&'static [u16; 65536]>;

fn formats_16() -> Vec<(Format, TableOf)> {
    vec![
        (Format::F16, |a| a.table_f16().ok()),
        (Format::Bf16, |a| a.table_bf16().ok()),
    ]
}

#[test]
fn every_16_bit_table_entry_equals_the_computed_path_on_every_input() {
    let mut checked = 0;
    for (format, table_of) in formats_16() {
        for act in Activation::ALL {
            let Some(table) = table_of(act) else { continue };
            for i in 0..=u16::MAX {
                let computed = match format {
                    Format::F16 => computed::f16_bits(act, i),
                    _ => computed::bf16_bits(act, i),
                };
                assert_eq!(
                    table[usize::from(i)],
                    computed,
                    "{}_{} at input {i:#06x}: table {:#06x}, computed {computed:#06x}",
                    act.name(),
                    format.name(),
                    table[usize::from(i)]
                );
            }
            checked += 1;
        }
    }
    #[cfg(all(feature = "all-functions", feature = "f16", feature = "bf16"))]
    assert_eq!(checked, 32);
    #[cfg(not(all(feature = "all-functions", feature = "f16", feature = "bf16")))]
    let _ = checked;
}

#[test]
fn every_8_bit_table_entry_equals_the_computed_path_on_every_input() {
    for act in Activation::ALL {
        if let Ok(t) = act.table_fp8_e4m3() {
            for i in 0..=u8::MAX {
                assert_eq!(
                    t[usize::from(i)],
                    computed::fp8_e4m3_bits(act, i),
                    "{} e4m3 {i:#04x}",
                    act.name()
                );
            }
        }
        if let Ok(t) = act.table_fp8_e5m2() {
            for i in 0..=u8::MAX {
                assert_eq!(
                    t[usize::from(i)],
                    computed::fp8_e5m2_bits(act, i),
                    "{} e5m2 {i:#04x}",
                    act.name()
                );
            }
        }
    }
}

/// The slice kernels agree with single lookups on every length 0..=300 and every
/// start offset 0..16 (the unrolled loop has a remainder path).
#[cfg(all(feature = "gelu", feature = "f16"))]
#[test]
fn slice_entry_points_agree_with_single_lookups_on_every_length_and_offset() {
    use half::f16;
    let all: Vec<f16> = (0..=u16::MAX).map(f16::from_bits).collect();
    for offset in 0..16 {
        for len in 0..=300 {
            let xs = &all[offset * 977 + 13..][..len];
            let mut a = xs.to_vec();
            actlut::gelu::apply_f16(&mut a);
            let mut b = vec![f16::ZERO; len];
            actlut::gelu::map_f16(xs, &mut b);
            let mut c = xs.to_vec();
            Activation::Gelu.apply_f16(&mut c).unwrap();
            let mut d = vec![f16::ZERO; len];
            Activation::Gelu.map_f16(xs, &mut d).unwrap();
            let mut bits: Vec<u16> = xs.iter().map(|x| x.to_bits()).collect();
            actlut::gelu::apply_f16_bits(&mut bits);
            for i in 0..len {
                let want = actlut::gelu::f16(xs[i]).to_bits();
                assert_eq!(want, actlut::gelu::f16_bits(xs[i].to_bits()));
                for (name, got) in [
                    ("apply", a[i]),
                    ("map", b[i]),
                    ("dyn apply", c[i]),
                    ("dyn map", d[i]),
                ] {
                    assert_eq!(
                        got.to_bits(),
                        want,
                        "{name} len {len} offset {offset} at {i}"
                    );
                }
                assert_eq!(bits[i], want, "apply_bits len {len} at {i}");
            }
        }
    }
}

/// Every input, in one slice, through the out-of-place map: the whole table.
#[cfg(all(feature = "silu", feature = "bf16"))]
#[test]
fn map_over_all_bf16_inputs_reproduces_the_table() {
    use half::bf16;
    let xs: Vec<bf16> = (0..=u16::MAX).map(bf16::from_bits).collect();
    let mut ys = vec![bf16::ZERO; xs.len()];
    actlut::silu::map_bf16(&xs, &mut ys);
    for (i, y) in ys.iter().enumerate() {
        assert_eq!(y.to_bits(), actlut::tables::SILU_BF16[i]);
    }
}
