//! The lookups over codes in the low bits of a byte (FP6, FP4) that the generated
//! per-function modules (`src/generated/functions.rs`) call.

/// Looks up every code of `xs` in place in `table`, a table over codes in the
/// low bits of a byte (fewer than 256 entries).
///
/// # Panics
///
/// On a code outside the table, naming it and its position.
#[allow(dead_code)] // used by the formats whose codes do not fill a byte
#[track_caller]
pub(crate) fn apply_codes(table: &[u8], xs: &mut [u8]) {
    for (i, x) in xs.iter_mut().enumerate() {
        *x = lookup_code(table, *x, i);
    }
}

/// Writes the lookup of every code of `xs` in `table` to `ys` (see
/// [`apply_codes`]).
///
/// # Panics
///
/// If `xs.len() != ys.len()`, or on a code outside the table.
#[allow(dead_code)] // used by the formats whose codes do not fill a byte
#[track_caller]
pub(crate) fn map_codes(table: &[u8], xs: &[u8], ys: &mut [u8]) {
    crate::lengths::check_lengths(xs.len(), ys.len());
    for (i, (y, &x)) in ys.iter_mut().zip(xs).enumerate() {
        *y = lookup_code(table, x, i);
    }
}

/// Looks up one code in `table`, a table over codes in the low bits of a byte.
///
/// # Panics
///
/// On a code outside the table, naming it.
#[allow(dead_code)] // used by the formats whose codes do not fill a byte
#[inline]
#[track_caller]
pub(crate) fn code(table: &[u8], code: u8) -> u8 {
    match table.get(usize::from(code)) {
        Some(&y) => y,
        None => outside(table, code, None),
    }
}

#[track_caller]
fn lookup_code(table: &[u8], code: u8, index: usize) -> u8 {
    match table.get(usize::from(code)) {
        Some(&y) => y,
        None => outside(table, code, Some(index)),
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn outside(table: &[u8], code: u8, index: Option<usize>) -> ! {
    match index {
        Some(i) => panic!(
            "code {code:#04x} at index {i} is outside the {}-entry table (bits set above the format's width)",
            table.len()
        ),
        None => panic!(
            "code {code:#04x} is outside the {}-entry table (bits set above the format's width)",
            table.len()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: [u8; 16] = [0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39, 42, 45];

    #[test]
    fn codes_are_looked_up_in_place_and_out_of_place() {
        let mut xs = [0u8, 15, 7, 1];
        let mut ys = [0u8; 4];
        map_codes(&TABLE, &xs, &mut ys);
        apply_codes(&TABLE, &mut xs);
        assert_eq!(xs, [0, 45, 21, 3]);
        assert_eq!(ys, xs);
    }

    #[test]
    #[should_panic(expected = "code 0x10 at index 2 is outside the 16-entry table")]
    fn a_code_with_stray_high_bits_panics_naming_it() {
        apply_codes(&TABLE, &mut [1, 2, 0x10]);
    }

    #[test]
    #[should_panic(expected = "code 0x10 is outside the 16-entry table")]
    fn one_code_with_stray_high_bits_panics_naming_it() {
        assert_eq!(code(&TABLE, 15), 45);
        code(&TABLE, 0x10);
    }

    #[test]
    #[should_panic(
        expected = "source slice length (2) does not match destination slice length (1)"
    )]
    fn mismatched_lengths_panic() {
        map_codes(&TABLE, &[1, 2], &mut [0]);
    }
}
