//! The portable block: the reference every SIMD kernel must equal.

use super::driver::{kernel_fn, Block};
use super::LookupTable;

/// Eight plain lookups per block, unrolled: the eight indices are read first,
/// then eight independent table loads keep the load ports busy, and each
/// result is stored on its own (assembling them into one wide store costs more
/// than the stores).
pub(super) struct Scalar;

impl<T: LookupTable + ?Sized> Block<T> for Scalar {
    const LANES: usize = 8;
    type State = ();

    #[inline(always)]
    unsafe fn prepare(_: &T) {}

    #[inline(always)]
    unsafe fn block(_: &(), table: &T, src: *const T::Index, dst: *mut T::Entry) {
        // SAFETY: the caller vouches for 8 readable elements at `src`.
        let idx: [T::Index; 8] = core::array::from_fn(|k| unsafe { src.add(k).read() });
        for (k, &i) in idx.iter().enumerate() {
            // SAFETY: the caller vouches for 8 writable elements at `dst`; all
            // indices were read above, so the in-place case is correct.
            unsafe { dst.add(k).write(table.entry(i)) };
        }
    }
}

kernel_fn!(#[inline] u8_scalar: [u8; 256] => Scalar);
kernel_fn!(#[inline] u16_scalar: [u16; 65_536] => Scalar);
kernel_fn!(#[inline] u8_u32_scalar: [u32; 256] => Scalar);
kernel_fn!(#[inline] u8_u16_scalar: [u16; 256] => Scalar);
