//! Portable slice kernels: one table load per element.

/// `xs[i] = table[xs[i]]` for every element.
#[inline]
pub(crate) fn apply_u16(table: &[u16; 65_536], xs: &mut [u16]) {
    // Eight independent loads per iteration keep the load ports busy; the index
    // is a u16, so no bounds check is emitted.
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

/// `ys[i] = table[xs[i]]` for every element.
///
/// # Panics
///
/// If `xs.len() != ys.len()`, with a message that names both lengths.
#[inline]
pub(crate) fn map_u16(table: &[u16; 65_536], xs: &[u16], ys: &mut [u16]) {
    check_lengths(xs.len(), ys.len());
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

/// Panics with both lengths when an out-of-place map gets slices of different lengths.
#[inline]
#[track_caller]
pub(crate) fn check_lengths(src: usize, dst: usize) {
    if src != dst {
        len_mismatch(src, dst)
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn len_mismatch(src: usize, dst: usize) -> ! {
    panic!("actlut: source slice length ({src}) does not match destination slice length ({dst})")
}
