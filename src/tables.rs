//! The tables themselves: one `static` array per enabled (function, format), and
//! the SHA-256 of its little-endian bytes.
//!
//! A table named `<FUNCTION>_<FORMAT>` exists when both cargo features, the
//! function's and the format's, are enabled (the default feature `all` enables
//! every one). Entry `i` is the output for the input bit pattern `i`. A binary
//! carries only the tables it references: the linker drops the others.
//!
//! ```
//! # #[cfg(all(feature = "gelu", feature = "f16"))] {
//! let table: &'static [u16; 65536] = &actlut::tables::GELU_F16;
//! assert_eq!(table[0x3C00], 0x3ABB); // gelu(1.0) = 0.8413…
//! let hash: [u8; 32] = actlut::tables::GELU_F16_SHA256;
//! # let _ = hash;
//! # }
//! ```

include!(concat!(env!("OUT_DIR"), "/tables.rs"));
