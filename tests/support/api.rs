//! The helpers of the generated tests of every entry point (`tests/generated/api.rs`, written
//! by `cargo xtask regenerate-api`): they hold the assertions, so that a generated test is the
//! list of one (function, format)'s items. `tests/tables/exhaustive.rs` holds the tables themselves
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
/// 16-bit one (`tests/tables/exhaustive.rs` compares every table entry with `computed::bits`).
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
    let name = format!("{}_{}", act.name(), format.name());
    let labels = ["module", "BuiltinTables"];
    entry_points(
        &name, want, &one, one_bits, &apply, &map, apply_bits, map_bits, &labels,
    )
}

/// The derivative table of `act` over `format` as `actlut::fill_table` computes it at run
/// time, after checking that each entry point of `actlut::<act>::derivative` gives its entry at
/// every input.
#[cfg(feature = "derivatives")]
pub fn typed_derivative<T: Value>(
    act: Function,
    format: Format,
    one: fn(T) -> T,
    one_bits: fn(u16) -> u16,
    apply: fn(&mut [T]),
    map: fn(&[T], &mut [T]),
    apply_bits: fn(&mut [u16]),
    map_bits: fn(&[u16], &mut [u16]),
) -> Vec<u16> {
    let want = derivative_table(act, format);
    let name = format!("{}_derivative_{}", act.name(), format.name());
    let labels = ["module"];
    entry_points(
        &name,
        want,
        &[one],
        one_bits,
        &[apply],
        &[map],
        apply_bits,
        map_bits,
        &labels,
    )
}

/// `act`'s derivative table over `format`, filled at run time (`actlut::fill_table`).
#[cfg(feature = "derivatives")]
pub fn derivative_table(act: Function, format: Format) -> Vec<u16> {
    let mut want = vec![0u16; format.entries()];
    let op = actlut::Op::from(act).with_derivative(true);
    actlut::fill_table(&op, format, &mut want[..]).unwrap();
    want
}

/// Each entry point (`labels[i]` names the `i`-th of each kind) gives `want` at every input.
fn entry_points<T: Value>(
    name: &str,
    want: Vec<u16>,
    one: &[fn(T) -> T],
    one_bits: fn(u16) -> u16,
    apply: &[fn(&mut [T])],
    map: &[fn(&[T], &mut [T])],
    apply_bits: fn(&mut [u16]),
    map_bits: fn(&[u16], &mut [u16]),
    labels: &[&str],
) -> Vec<u16> {
    let xs: Vec<u16> = (0..=u16::MAX).collect();
    let values: Vec<T> = xs.iter().map(|&x| T::from_bits(x)).collect();
    let bits = |v: &[T]| v.iter().map(|y| y.to_bits()).collect::<Vec<u16>>();
    for (i, one) in one.iter().enumerate() {
        let got: Vec<T> = values.iter().map(|&x| one(x)).collect();
        assert_eq!(bits(&got), want, "{name}: one value ({})", labels[i]);
    }
    let got: Vec<u16> = xs.iter().map(|&x| one_bits(x)).collect();
    assert_eq!(got, want, "{name}: one raw value");
    for (i, apply) in apply.iter().enumerate() {
        let mut a = values.clone();
        apply(&mut a);
        assert_eq!(bits(&a), want, "{name}: apply ({})", labels[i]);
    }
    for (i, map) in map.iter().enumerate() {
        let mut m = values.clone();
        map(&values, &mut m);
        assert_eq!(bits(&m), want, "{name}: map ({})", labels[i]);
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
    let name = format!("{}_{}", act.name(), format.name());
    byte_entry_points(&name, want, table, one, apply, map);
}

/// Each entry point of `actlut::<act>::derivative` over a format coded in a byte gives the
/// entry of the derivative table filled at run time, and so does its static `table`.
#[cfg(feature = "derivatives")]
pub fn bytes_derivative<const N: usize>(
    act: Function,
    format: Format,
    table: &[u8; N],
    one: fn(u8) -> u8,
    apply: fn(&mut [u8]),
    map: fn(&[u8], &mut [u8]),
) {
    let want: Vec<u8> = derivative_table(act, format)
        .iter()
        .map(|&v| v as u8)
        .collect();
    let name = format!("{}_derivative_{}", act.name(), format.name());
    byte_entry_points(&name, want, table, one, apply, map);
}

/// The static `table` and each entry point give `want` at every code.
fn byte_entry_points<const N: usize>(
    name: &str,
    want: Vec<u8>,
    table: &[u8; N],
    one: fn(u8) -> u8,
    apply: fn(&mut [u8]),
    map: fn(&[u8], &mut [u8]),
) {
    assert_eq!(N, want.len());
    assert_eq!(table.as_slice(), want, "{name}: the static table");
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
