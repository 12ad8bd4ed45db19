//! The helpers of the generated tests of every entry point (`tests/generated/api.rs`, written
//! by `cargo xtask regenerate-api`): they hold the assertions, so that a generated test is the
//! list of one (function, format)'s items. `tests/exhaustive.rs` holds the tables themselves
//! to the computed path.

#![allow(clippy::type_complexity, clippy::too_many_arguments, dead_code)]

use actlut::{computed, BuiltinTables, Format, Function};

/// A 16-bit value type of the typed entry points.
pub trait Value: Copy + core::fmt::Debug {
    fn from_bits(bits: u16) -> Self;
    fn to_bits(self) -> u16;
}

impl Value for half::f16 {
    fn from_bits(bits: u16) -> Self {
        half::f16::from_bits(bits)
    }
    fn to_bits(self) -> u16 {
        half::f16::to_bits(self)
    }
}

impl Value for half::bf16 {
    fn from_bits(bits: u16) -> Self {
        half::bf16::from_bits(bits)
    }
    fn to_bits(self) -> u16 {
        half::bf16::to_bits(self)
    }
}

/// The inputs of the computed path's tests: every code of a byte format, a stride of a
/// 16-bit one (`tests/exhaustive.rs` compares every table entry with `computed::bits`).
#[allow(dead_code)]
pub fn inputs(format: Format) -> impl Iterator<Item = u16> {
    let step = if format.entry_bytes() == 2 { 61 } else { 1 };
    (0..format.entries()).step_by(step).map(|i| i as u16)
}

/// The table of `act` over `format`, as [`BuiltinTables::table`] gives it, after checking
/// that each typed, raw and slice entry point gives its entry at every input.
#[allow(dead_code)]
pub fn typed<T: Value>(
    act: Function,
    format: Format,
    one: [fn(T) -> T; 2],
    one_bits: fn(u16) -> u16,
    apply: [fn(&mut [T]); 2],
    map: [fn(&[T], &mut [T]); 2],
    apply_bits: fn(&mut [u16]),
    map_bits: fn(&[u16], &mut [u16]),
) -> Vec<u16> {
    let table = act.table(format).unwrap();
    assert_eq!(table.entries(), 1 << 16);
    let want: Vec<u16> = table.iter().collect();
    let xs: Vec<u16> = (0..=u16::MAX).collect();
    let values: Vec<T> = xs.iter().map(|&x| T::from_bits(x)).collect();
    let bits = |v: &[T]| v.iter().map(|y| y.to_bits()).collect::<Vec<u16>>();
    let name = format!("{}_{}", act.name(), format.name());
    for (i, one) in one.into_iter().enumerate() {
        let got: Vec<T> = values.iter().map(|&x| one(x)).collect();
        assert_eq!(
            bits(&got),
            want,
            "{name}: one value ({})",
            ["module", "BuiltinTables"][i]
        );
    }
    let got: Vec<u16> = xs.iter().map(|&x| one_bits(x)).collect();
    assert_eq!(got, want, "{name}: one raw value");
    for (i, apply) in apply.into_iter().enumerate() {
        let mut a = values.clone();
        apply(&mut a);
        assert_eq!(
            bits(&a),
            want,
            "{name}: apply ({})",
            ["module", "BuiltinTables"][i]
        );
    }
    for (i, map) in map.into_iter().enumerate() {
        let mut m = values.clone();
        map(&values, &mut m);
        assert_eq!(
            bits(&m),
            want,
            "{name}: map ({})",
            ["module", "BuiltinTables"][i]
        );
    }
    let mut a = xs.clone();
    apply_bits(&mut a);
    assert_eq!(a, want, "{name}: apply to raw values");
    let mut m = xs.clone();
    map_bits(&xs, &mut m);
    assert_eq!(m, want, "{name}: map raw values");
    want
}

/// The full table getter gives the entries `want`.
#[allow(dead_code)]
pub fn full(want: &[u16], table: &[u16; 65536]) {
    assert_eq!(table.as_slice(), want);
}

/// The compact table getter gives the entries `want`.
#[cfg(feature = "compact")]
#[allow(dead_code)]
pub fn compact(want: &[u16], table: &actlut::compact::CompactRef<'static>) {
    let got: Vec<u16> = (0..=u16::MAX).map(|x| table.get(x)).collect();
    assert_eq!(got, want);
}

/// Each raw entry point of a format coded in a byte gives the entry of `table` (the
/// typed getter's table, equal to [`BuiltinTables::table`]'s) at every code.
#[allow(dead_code)]
pub fn bytes<const N: usize>(
    act: Function,
    format: Format,
    table: &[u8; N],
    one: fn(u8) -> u8,
    apply: fn(&mut [u8]),
    map: fn(&[u8], &mut [u8]),
) {
    let want: Vec<u8> = act.table(format).unwrap().iter().map(|v| v as u8).collect();
    assert_eq!(N, format.entries());
    assert_eq!(table.as_slice(), want);
    let name = format!("{}_{}", act.name(), format.name());
    let xs: Vec<u8> = (0..N).map(|i| i as u8).collect();
    let got: Vec<u8> = xs.iter().map(|&x| one(x)).collect();
    assert_eq!(got, want, "{name}: one raw value");
    let mut a = xs.clone();
    apply(&mut a);
    assert_eq!(a, want, "{name}: apply");
    let mut m = xs.clone();
    map(&xs, &mut m);
    assert_eq!(m, want, "{name}: map");
}

/// A computed shorthand of `act` (`computed::gelu_f16`) is the per-format function
/// (`computed::f16`) at `act`.
pub fn shorthand<T: Value>(act: Function, short: fn(T) -> T, general: fn(Function, T) -> T) {
    for x in [0x0000, 0x8001, 0x3C00, 0xC2A5, 0x4000, 0x7C01] {
        let x = T::from_bits(x);
        assert_eq!(
            short(x).to_bits(),
            general(act, x).to_bits(),
            "{act:?} {x:?}"
        );
    }
}

/// A computed `f32` shorthand of `act` (`computed::gelu_f32`) is `computed::f32` at `act`.
pub fn shorthand_f32(act: Function, short: fn(f32) -> f32) {
    for x in [0.0f32, -1.5, 3.25, -1e-30] {
        assert_eq!(
            short(x).to_bits(),
            computed::f32(act, x).to_bits(),
            "{act:?} {x}"
        );
    }
}
