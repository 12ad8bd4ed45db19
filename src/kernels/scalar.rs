//! The portable block: the reference every SIMD kernel must equal.

use super::driver::{kernel_fn, Block};
use super::LookupTable;

/// Eight plain lookups per block: the eight indices are read first (one
/// unaligned load), then eight independent table loads keep the load ports
/// busy, then the eight results are written (one unaligned store).
pub(super) struct Scalar;

impl<T: LookupTable + ?Sized> Block<T> for Scalar {
    const LANES: usize = 8;
    type State = ();

    #[inline(always)]
    unsafe fn prepare(_: &T) {}

    #[inline(always)]
    unsafe fn block(_: &(), table: &T, src: *const T::Index, dst: *mut T::Entry) {
        // SAFETY: the caller vouches for 8 readable elements at `src`;
        // read_unaligned needs no alignment.
        let idx = unsafe { src.cast::<[T::Index; 8]>().read_unaligned() };
        let out: [T::Entry; 8] = core::array::from_fn(|k| table.entry(idx[k]));
        // SAFETY: the caller vouches for 8 writable elements at `dst`; all
        // indices were read above, so the in-place case is correct.
        unsafe { dst.cast::<[T::Entry; 8]>().write_unaligned(out) };
    }
}

kernel_fn!(#[inline] u8_scalar: [u8; 256] => Scalar);
kernel_fn!(#[inline] u16_scalar: [u16; 65_536] => Scalar);
kernel_fn!(#[inline] u8_u32_scalar: [u32; 256] => Scalar);
kernel_fn!(#[inline] u8_u16_scalar: [u16; 256] => Scalar);
