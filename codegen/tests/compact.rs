//! The compact form is exact: every shipped 16-bit table and every kind of
//! synthetic table (random, smooth, constant runs, adversarial) decodes to the
//! same bits on every input, through the owned table and through its stored form;
//! malformed stored forms and corrupted tables are rejected by name.

use actlut_codegen::compact::{
    compact, verify, CompactError, CompactRef, CompactTable, Layout, StoredFormError, ENTRIES,
    HEADER_BYTES, MAGIC, WIDE_BIT,
};
use actlut_codegen::{table, table_name, Format, Function};

/// Checks both decoders on every input, naming the table and the input.
fn assert_round_trip(name: &str, t: &[u16], c: &CompactTable) {
    let bytes = c.to_bytes();
    assert_eq!(bytes.len(), c.stored_len(), "{name}: stored length");
    let view = CompactRef::from_bytes(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    for (x, &want) in t.iter().enumerate() {
        let x = x as u16;
        assert_eq!(c.get(x), want, "{name}: owned form at {x:#06x}");
        assert_eq!(view.get(x), want, "{name}: stored form at {x:#06x}");
    }
}

fn sixteen_bit_formats() -> impl Iterator<Item = Format> {
    Format::ALL.into_iter().filter(|f| f.entry_bytes() == 2)
}

#[test]
fn every_16bit_table_round_trips_on_every_input_and_meets_the_size_targets() {
    for layout in Layout::ALL {
        let mut total = 0;
        for format in sixteen_bit_formats() {
            for function in Function::ALL.into_iter().filter(|f| f.has_defaults()) {
                let t = table(function, format);
                let name = format!("{} ({})", table_name(function, format), layout.name());
                let c = compact(&name, &t, layout).unwrap_or_else(|e| panic!("{e}"));
                assert_eq!(c.layout(), layout);
                assert_round_trip(&name, &t, &c);
                let kib = c.stored_len() as f64 / 1024.0;
                match format {
                    Format::Bf16 if function != Function::Log => {
                        assert!(kib <= 12.0, "{name}: {kib:.1} KiB > 12 KiB")
                    }
                    _ => assert!(kib <= 40.0, "{name}: {kib:.1} KiB > 40 KiB"),
                }
                total += c.stored_len();
            }
        }
        // The budget: 400 KiB for the 32 tables of 16 functions over f16
        // and bf16, i.e. 12.5 KiB a table on average, for the smaller (bytes)
        // layout, the one a `compact` build stores; the words layout trades
        // about a third more bytes for a shorter lookup.
        let tables = sixteen_bit_formats().count()
            * Function::ALL.iter().filter(|f| f.has_defaults()).count();
        let budget = tables * 400 * 1024 / 32;
        let l = layout.name();
        if layout == Layout::Bytes {
            assert!(
                total <= budget,
                "all {tables} tables, {l}: {total} bytes > {budget}"
            );
        }
    }
}

// xorshift64*, seeded, so every failure reproduces: the one of the tests'
// shared helpers.
#[path = "../../tests/support/mod.rs"]
mod support;
use support::Rng;

/// Synthetic tables of every shape the packer distinguishes.
fn synthetic(kind: &str, seed: u64) -> Vec<u16> {
    let mut r = Rng(seed | 1);
    let mut t = vec![0u16; ENTRIES];
    match kind {
        // Independent random entries: nothing to share, every page wide.
        "random" => t.iter_mut().for_each(|v| *v = r.next() as u16),
        // A random walk with small steps and a drifting slope.
        "smooth" => {
            let (mut v, mut slope) = (r.next() as i64, 0i64);
            for e in &mut t {
                slope = (slope + r.below(3) as i64 - 1).clamp(-6, 6);
                v += slope + r.below(3) as i64 - 1;
                *e = v as u16;
            }
        }
        // Constant runs of random lengths and values.
        "runs" => {
            let mut i = 0;
            while i < ENTRIES {
                let len = 1 + r.below(700);
                let v = r.next() as u16;
                t[i..(i + len).min(ENTRIES)].fill(v);
                i += len;
            }
        }
        // Ranges right at the narrow/wide boundary (255 and 256), walks across
        // the 0xFFFF/0x0000 wrap, and pages that repeat an earlier page with one
        // entry changed.
        "adversarial" => {
            let mut v = r.next() as u16;
            for (i, e) in t.iter_mut().enumerate() {
                let span = if (i >> 4) % 2 == 0 { 255 } else { 256 };
                v = match r.below(4) {
                    0 => v.wrapping_add(span),
                    1 => v.wrapping_sub(span),
                    2 => v.wrapping_add(r.below(span as usize + 1) as u16),
                    _ => 0xFFFF_u16.wrapping_add(r.below(3) as u16),
                };
                *e = v;
            }
            for _ in 0..2000 {
                let (k, src, dst) = (
                    1usize << (4 + r.below(5)),
                    r.below(ENTRIES),
                    r.below(ENTRIES),
                );
                let (src, dst) = (src & !(k - 1), dst & !(k - 1));
                let add = r.next() as u16;
                for j in 0..k {
                    t[dst + j] = t[src + j].wrapping_add(add);
                }
                t[dst + r.below(k)] ^= 1 << r.below(16);
            }
        }
        // A sawtooth of bytes: every page is narrow and a window of the first.
        "sawtooth" => t
            .iter_mut()
            .enumerate()
            .for_each(|(i, v)| *v = ((i * 7 + (i >> 9)) % 256) as u16),
        _ => unreachable!(),
    }
    t
}

#[test]
fn synthetic_tables_of_every_shape_round_trip_on_every_input() {
    for kind in ["random", "smooth", "runs", "adversarial", "sawtooth"] {
        for seed in 1..=4u64 {
            let t = synthetic(kind, seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            for layout in Layout::ALL {
                let name = format!("{kind}-{seed} ({})", layout.name());
                let c = compact(&name, &t, layout).unwrap_or_else(|e| panic!("{e}"));
                assert_round_trip(&name, &t, &c);
            }
        }
    }
}

#[test]
fn a_random_table_is_all_wide_pages_with_page_offsets_scaled() {
    let t = synthetic("random", 7);
    let c = compact("random", &t, Layout::Bytes).unwrap();
    assert_eq!(c.wide_pages(), c.dir().len(), "every page is wide");
    // 128 KiB of pool needs page starts in units of 4 bytes.
    assert_eq!(c.offset_scale(), 2);
    assert_round_trip("random", &t, &c);
}

#[test]
fn identity_and_constant_tables_share_one_window() {
    let identity: Vec<u16> = (0..=u16::MAX).collect();
    let constant = vec![0x7E00u16; ENTRIES];
    for layout in Layout::ALL {
        // One page of at most 256 entries, and 3 (bytes) or 2 (words) bytes of padding.
        let most = match layout {
            Layout::Bytes => 256 + 3,
            Layout::Words => 2 * 256 + 2,
        };
        for (name, t) in [("identity", &identity), ("constant", &constant)] {
            let c = compact(name, t, layout).unwrap();
            assert_round_trip(name, t, &c);
            let n = c.pool().len();
            assert!(n <= most, "{name} ({}): pool of {n} bytes", layout.name());
        }
    }
    let c = compact("identity", &identity, Layout::Bytes).unwrap();
    assert_eq!(c.wide_pages(), 0);
}

#[test]
fn a_table_of_the_wrong_length_is_refused_by_name() {
    let e = compact("short_table", &[0u16; 100], Layout::Bytes).unwrap_err();
    assert_eq!(
        e,
        CompactError::Length {
            name: "short_table".into(),
            len: 100
        }
    );
    assert!(e.to_string().contains("short_table"));
}

#[test]
fn verify_names_the_table_and_input_of_a_corrupted_stored_form() {
    let t = table(Function::Gelu, Format::Bf16);
    let c = compact("gelu_bf16", &t, Layout::Bytes).unwrap();
    let mut bytes = c.to_bytes();
    // Flip a pool byte that page 0x3F80 >> k (the input 1.0) reads.
    let x = 0x3F80u16;
    let d = c.dir()[usize::from(x) >> c.page_shift()];
    let i = usize::from(x) & ((1 << c.page_shift()) - 1);
    let wide = usize::from(d & WIDE_BIT != 0);
    let at = (((d & 0x7FFF) as usize) << c.offset_scale()) + (i << wide);
    bytes[HEADER_BYTES + 4 * c.dir().len() + at] ^= 0x01;
    let view = CompactRef::from_bytes(&bytes).expect("still well-formed");
    let e = verify("gelu_bf16", &t, &view).unwrap_err();
    match &e {
        CompactError::Mismatch { name, .. } => assert_eq!(name, "gelu_bf16"),
        other => panic!("expected a mismatch, got {other:?}"),
    }
    assert!(e.to_string().contains("gelu_bf16"), "{e}");
    // The untouched form verifies.
    verify(
        "gelu_bf16",
        &t,
        &CompactRef::from_bytes(&c.to_bytes()).unwrap(),
    )
    .unwrap();
}

#[test]
fn malformed_stored_forms_are_rejected() {
    let t = table(Function::Tanh, Format::Bf16);
    let good = compact("tanh_bf16", &t, Layout::Bytes).unwrap().to_bytes();
    let with = |f: &dyn Fn(&mut Vec<u8>)| {
        let mut b = good.clone();
        f(&mut b);
        CompactRef::from_bytes(&b).map(|_| ())
    };
    assert_eq!(with(&|b| b.truncate(10)), Err(StoredFormError::TooShort));
    assert_eq!(with(&|b| b[0] = b'X'), Err(StoredFormError::BadMagic));
    assert_eq!(with(&|b| b[8] = 3), Err(StoredFormError::BadPageShift(3)));
    assert_eq!(with(&|b| b[8] = 9), Err(StoredFormError::BadPageShift(9)));
    assert_eq!(with(&|b| b[9] = 3), Err(StoredFormError::BadOffsetScale(3)));
    assert_eq!(with(&|b| b[10] = 2), Err(StoredFormError::BadLayout(2)));
    assert_eq!(with(&|b| b[11] = 1), Err(StoredFormError::Reserved));
    assert!(matches!(
        with(&|b| b.push(0)),
        Err(StoredFormError::Length { .. })
    ));
    assert!(matches!(
        with(&|b| {
            b.pop();
        }),
        Err(StoredFormError::Length { .. })
    ));
    // Page 3 points at the last byte of the pool.
    assert_eq!(
        with(&|b| {
            let pool = b.len() - HEADER_BYTES - 4 * (ENTRIES >> b[8]);
            let d = (pool as u32 - 1) >> b[9];
            b[HEADER_BYTES + 12..HEADER_BYTES + 16].copy_from_slice(&d.to_le_bytes());
        }),
        Err(StoredFormError::PageOutOfBounds { page: 3 })
    );
    // Shrinking the padding by 2 bytes breaks the 4-byte-read guarantee of the
    // page stored last (a narrow one reads up to the last byte, a wide one up to
    // the second last).
    assert!(with(&|b| {
        b.truncate(b.len() - 2);
        let pool = u32::from_le_bytes(b[12..16].try_into().unwrap()) - 2;
        b[12..16].copy_from_slice(&pool.to_le_bytes());
    })
    .is_err());
}

/// A stored form built by hand at compile time: 256-entry pages that all point
/// at one 256-byte ramp, with the page index as addend (so entry `x` is
/// `(x & 255) + (x >> 8)`).
const HAND_MADE: [u8; HEADER_BYTES + 4 * 256 + 256 + 3] = {
    let mut b = [0u8; HEADER_BYTES + 4 * 256 + 256 + 3];
    let mut i = 0;
    while i < 8 {
        b[i] = MAGIC[i];
        i += 1;
    }
    b[8] = 8;
    let pool = (256 + 3u32).to_le_bytes();
    b[12] = pool[0];
    b[13] = pool[1];
    let mut p = 0;
    while p < 256 {
        // offset 0, narrow, addend p.
        b[HEADER_BYTES + 4 * p + 2] = p as u8;
        b[HEADER_BYTES + 4 * 256 + p] = p as u8;
        p += 1;
    }
    b
};

/// `from_bytes` validates at compile time.
const HAND_MADE_VIEW: CompactRef<'static> = match CompactRef::from_bytes(&HAND_MADE) {
    Ok(v) => v,
    Err(_) => panic!("the hand-made stored form is valid"),
};

#[test]
fn a_stored_form_is_validated_in_a_const_and_decodes_as_specified() {
    for x in 0..=u16::MAX {
        assert_eq!(HAND_MADE_VIEW.get(x), (x & 255) + (x >> 8), "at {x:#06x}");
    }
    assert_eq!(HAND_MADE_VIEW.page_shift(), 8);
    assert_eq!(HAND_MADE_VIEW.stored_len(), HAND_MADE.len());
}

#[test]
fn malformed_words_stored_forms_are_rejected() {
    let t = table(Function::Tanh, Format::F16);
    let good = compact("tanh_f16", &t, Layout::Words).unwrap().to_bytes();
    assert_eq!(good[10], Layout::Words.code());
    let with = |f: &dyn Fn(&mut Vec<u8>)| {
        let mut b = good.clone();
        f(&mut b);
        CompactRef::from_bytes(&b).map(|_| ())
    };
    assert_eq!(with(&|_| ()), Ok(()));
    // The words layout has 16-bit offsets in entries and no scale.
    assert_eq!(with(&|b| b[9] = 1), Err(StoredFormError::BadOffsetScale(1)));
    // Page 5 starts at the last entry of the pool.
    assert_eq!(
        with(&|b| {
            let pool = b.len() - HEADER_BYTES - 4 * (ENTRIES >> b[8]);
            let d = ((pool - 2) / 2 - 1) as u16;
            b[HEADER_BYTES + 20..HEADER_BYTES + 22].copy_from_slice(&d.to_le_bytes());
        }),
        Err(StoredFormError::PageOutOfBounds { page: 5 })
    );
}

/// The lock will pin each stored form's SHA-256: the same table must give the
/// same bytes on every run.
#[test]
fn compaction_is_deterministic() {
    for layout in Layout::ALL {
        for (function, format) in [(Function::Gelu, Format::F16), (Function::Exp, Format::Bf16)] {
            let t = table(function, format);
            let a = compact("a", &t, layout).unwrap().to_bytes();
            let b = compact("b", &t.clone(), layout).unwrap().to_bytes();
            assert_eq!(a, b, "{}", table_name(function, format));
        }
    }
}
