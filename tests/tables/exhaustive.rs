//! Every entry of every enabled table equals the computed path, through every
//! entry point (static table, typed value, raw bits, slices, run-time dispatch).
//! The tables are those of `Function::ALL × Format::ALL` that the features
//! enable, read through `Function::table`.

use actlut::BuiltinTables;
use actlut::{computed, Format, Function};

#[test]
fn every_table_entry_equals_the_computed_path_on_every_input() {
    let mut checked = 0;
    for format in Format::ALL {
        for act in Function::ALL {
            let Ok(table) = act.table(format) else {
                continue;
            };
            assert_eq!(table.entries(), format.entries(), "{}", act.name());
            assert_eq!(table.entry_bytes(), format.entry_bytes(), "{}", act.name());
            for (i, entry) in table.iter().enumerate() {
                let i = i as u16;
                let computed = computed::bits(act, format, i);
                assert_eq!(
                    entry,
                    computed,
                    "{}_{} at input {i:#06x}: table {entry:#06x}, computed {computed:#06x}",
                    act.name(),
                    format.name(),
                );
                assert_eq!(table.get(i), Some(entry));
            }
            if let Ok(past_the_end) = u16::try_from(format.entries()) {
                assert_eq!(table.get(past_the_end), None);
            }
            checked += 1;
        }
    }
    // Every table of the enabled features, as the manifest lists them.
    assert_eq!(
        checked,
        actlut::manifest::TABLES
            .iter()
            .filter(|t| !t.derivative)
            .count()
    );
    #[cfg(feature = "all")]
    assert_eq!(checked, actlut_codegen::table_pairs().count());
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
            Function::Gelu.apply_f16(&mut c).unwrap();
            let mut d = vec![f16::ZERO; len];
            Function::Gelu.map_f16(xs, &mut d).unwrap();
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

/// Entry `x` of the `silu` `bf16` table, full or compact (`compact` feature).
#[cfg(all(feature = "silu", feature = "bf16"))]
fn silu_bf16(x: u16) -> u16 {
    #[cfg(not(feature = "compact"))]
    return actlut::tables::SILU_BF16[usize::from(x)];
    #[cfg(feature = "compact")]
    return actlut::tables::compact::SILU_BF16.get(x);
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
        assert_eq!(y.to_bits(), silu_bf16(i as u16));
    }
}
