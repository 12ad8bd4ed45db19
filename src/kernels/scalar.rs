//! The portable byte lookup: the reference every SIMD kernel must equal.

pub(super) fn map_u8(table: &[u8; 256], src: &[u8], dst: &mut [u8]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d = table[usize::from(*s)];
    }
}

pub(super) fn apply_u8(table: &[u8; 256], xs: &mut [u8]) {
    for x in xs {
        *x = table[usize::from(*x)];
    }
}
