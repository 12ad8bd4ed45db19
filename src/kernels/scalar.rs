//! The portable lookups: the references every SIMD kernel must equal.

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

/// Eight independent loads per iteration keep the load ports busy; the index
/// is a u16, so no bounds check is emitted.
#[inline]
pub(super) fn map_u16(table: &[u16; 65_536], xs: &[u16], ys: &mut [u16]) {
    let mut yc = ys.chunks_exact_mut(8);
    let mut xc = xs.chunks_exact(8);
    for (y, x) in (&mut yc).zip(&mut xc) {
        for (y, x) in y.iter_mut().zip(x) {
            *y = table[usize::from(*x)];
        }
    }
    for (y, x) in yc.into_remainder().iter_mut().zip(xc.remainder()) {
        *y = table[usize::from(*x)];
    }
}

#[inline]
pub(super) fn apply_u16(table: &[u16; 65_536], xs: &mut [u16]) {
    let mut chunks = xs.chunks_exact_mut(8);
    for c in &mut chunks {
        for x in c.iter_mut() {
            *x = table[usize::from(*x)];
        }
    }
    for x in chunks.into_remainder() {
        *x = table[usize::from(*x)];
    }
}
