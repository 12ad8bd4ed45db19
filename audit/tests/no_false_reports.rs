//! Inputs that hold regular 16-bit and 8-bit data but no actlut table: the
//! audit reports nothing in them (no table, no problem).

mod common;

use common::{index, noise};

fn assert_nothing(what: &str, data: &[u8]) {
    let report = index().scan(data);
    let found: Vec<_> = report
        .found
        .iter()
        .map(|f| (f.offset, f.label(), f.verdict))
        .collect();
    assert!(found.is_empty(), "{what}: {found:?}");
    assert!(
        report.problems(&[]).is_empty(),
        "{what}: {:?}",
        report.problems(&[])
    );
    println!(
        "{what}: {} candidates, at most {} surprises and {} pairs of a rejected 16-bit candidate, \
         {} features, {} matching entries and {}‰ of the distinctive entries of a rejected 8-bit one",
        report.candidates,
        report.rejected_surprises,
        report.rejected_pairs,
        report.rejected_features,
        report.rejected_matching,
        report.rejected_distinctive_per_mille
    );
}

#[test]
fn counting_u16s_constant_fills_and_every_16_bit_value_in_order_hold_no_table() {
    let count: Vec<u16> = (0..=u16::MAX).collect();
    let le: Vec<u8> = count.iter().flat_map(|v| v.to_le_bytes()).collect();
    let be: Vec<u8> = count.iter().flat_map(|v| v.to_be_bytes()).collect();
    // Every f16 and every bf16 value in order is the count; as f32 they are not.
    let f16_as_f32: Vec<u8> = count
        .iter()
        .flat_map(|&v| half::f16::from_bits(v).to_f32().to_le_bytes())
        .collect();
    let bf16_as_f32: Vec<u8> = count
        .iter()
        .flat_map(|&v| half::bf16::from_bits(v).to_f32().to_le_bytes())
        .collect();
    let count8: Vec<u8> = (0..1 << 16).map(|v| v as u8).collect();
    assert_nothing("u16 0..65535, little-endian", &le);
    assert_nothing("u16 0..65535, big-endian", &be);
    assert_nothing("every f16 as f32", &f16_as_f32);
    assert_nothing("every bf16 as f32", &bf16_as_f32);
    assert_nothing("u8 counts", &count8);
    // Slow byte ramps, what 8-bit tables are made of: each value two or
    // three times, steps of two and three, up and down.
    for (repeat, step) in [(2, 1), (3, 1), (1, 2), (1, 3), (2, 3)] {
        let ramp: Vec<u8> = (0..1usize << 16)
            .map(|i| ((i / repeat) * step) as u8)
            .collect();
        assert_nothing(
            &format!("a byte ramp, each value {repeat}x, step {step}"),
            &ramp,
        );
        let down: Vec<u8> = ramp.iter().map(|b| !b).collect();
        assert_nothing(
            &format!("a falling byte ramp, each value {repeat}x, step {step}"),
            &down,
        );
    }
    for fill in [0x00u8, 0xFF, 0x7E, 0x3C] {
        assert_nothing(&format!("a fill of {fill:#04x}"), &vec![fill; 1 << 18]);
    }
    for word in [0x3F80u16, 0x7E00, 0x3C00, 0x8000] {
        let fill: Vec<u8> = std::iter::repeat_n(word.to_le_bytes(), 1 << 17)
            .flatten()
            .collect();
        assert_nothing(&format!("a fill of {word:#06x}"), &fill);
    }
    assert_nothing("4 MiB of noise", &noise(1 << 22, 9));
}
