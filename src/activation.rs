//! [`Activation`]: a function chosen at run time.

use crate::Format;
use actlut_codegen::Function;

/// The error of a run-time table request whose table is not compiled in.
///
/// Its message names the cargo features that would enable the table:
///
/// ```
/// # #[cfg(not(feature = "bf16"))] {
/// let err = actlut::Activation::Gelu.table_bf16().unwrap_err();
/// assert!(err.to_string().contains("`bf16`"));
/// # }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MissingTable {
    /// The function requested.
    pub activation: Activation,
    /// The format requested.
    pub format: Format,
}

impl core::fmt::Display for MissingTable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "the {}_{} table is not compiled in: enable the cargo features `{}` and `{}` of actlut",
            self.activation.name(),
            self.format.name(),
            self.activation.feature(),
            self.format.feature()
        )
    }
}

impl core::error::Error for MissingTable {}

macro_rules! table_getter {
    ($self:ident, $fmt:literal, $format:expr, $( $variant:ident, $feature:literal, $TABLE:ident; )*) => {
        match $self {
            $(
                Activation::$variant => {
                    #[cfg(all(feature = $feature, feature = $fmt))]
                    {
                        Ok(&crate::tables::$TABLE)
                    }
                    #[cfg(not(all(feature = $feature, feature = $fmt)))]
                    {
                        Err(MissingTable { activation: $self, format: $format })
                    }
                }
            )*
        }
    };
}

macro_rules! activation_enum {
    ($( $variant:ident, $module:ident, $fname:literal, $feature:literal, $def:literal,
        $F16:ident, $BF16:ident, $E4M3:ident, $E5M2:ident,
        $cf16:ident, $cbf16:ident, $cf32:ident; )*) => {
        /// An activation function chosen at run time.
        ///
        /// Its table methods return [`MissingTable`] when the table is compiled
        /// out (its function's or its format's cargo feature is off). Note that a
        /// binary that dispatches through `Activation` keeps every *enabled* table
        /// of the format it uses; the per-function modules (`actlut::gelu`, …)
        /// keep only the tables they reference.
        ///
        /// ```
        /// # #[cfg(all(feature = "all-functions", feature = "f16"))] {
        /// use actlut::Activation;
        /// use half::f16;
        ///
        /// let act: Activation = "silu".parse().unwrap();
        /// let mut xs = [f16::from_f32(2.0), f16::from_f32(-0.0)];
        /// act.apply_f16(&mut xs)?;
        /// assert_eq!(xs[0], f16::from_f32(1.7617)); // 2·sigmoid(2) = 1.76159…
        /// assert!(xs[1].is_sign_negative() && xs[1] == f16::ZERO);
        /// # }
        /// # Ok::<(), actlut::MissingTable>(())
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum Activation {
            $(
                #[doc = concat!("`", $fname, "`: ", $def, ".")]
                #[doc = concat!("\nTables need the feature `", $feature, "`.")]
                $variant,
            )*
        }

        impl Activation {
            /// Every activation, in the order of the lock file.
            pub const ALL: [Activation; 16] = [$( Activation::$variant ),*];

            /// The name used in table names: `gelu`, `gelu_tanh`, ….
            pub const fn name(self) -> &'static str {
                match self { $( Activation::$variant => $fname, )* }
            }

            /// The cargo feature that enables its tables: `gelu`, `gelu-tanh`, ….
            pub const fn feature(self) -> &'static str {
                match self { $( Activation::$variant => $feature, )* }
            }

            /// The reference function of `actlut-codegen`.
            pub const fn function(self) -> Function {
                match self { $( Activation::$variant => Function::$variant, )* }
            }

            /// The `f16` table, if compiled in.
            pub fn table_f16(self) -> Result<&'static [u16; 65536], MissingTable> {
                table_getter!(self, "f16", Format::F16, $( $variant, $feature, $F16; )*)
            }

            /// The `bf16` table, if compiled in.
            pub fn table_bf16(self) -> Result<&'static [u16; 65536], MissingTable> {
                table_getter!(self, "bf16", Format::Bf16, $( $variant, $feature, $BF16; )*)
            }

            /// The `fp8_e4m3` table, if compiled in.
            pub fn table_fp8_e4m3(self) -> Result<&'static [u8; 256], MissingTable> {
                table_getter!(self, "fp8-e4m3", Format::Fp8E4M3, $( $variant, $feature, $E4M3; )*)
            }

            /// The `fp8_e5m2` table, if compiled in.
            pub fn table_fp8_e5m2(self) -> Result<&'static [u8; 256], MissingTable> {
                table_getter!(self, "fp8-e5m2", Format::Fp8E5M2, $( $variant, $feature, $E5M2; )*)
            }
        }
    };
}

for_each_function!(activation_enum);

/// The error of parsing an unknown activation name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownActivation;

impl core::fmt::Display for UnknownActivation {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("unknown activation name (expected e.g. `gelu`, `gelu_tanh` or `gelu-tanh`)")
    }
}

impl core::error::Error for UnknownActivation {}

impl core::str::FromStr for Activation {
    type Err = UnknownActivation;

    /// Parses a table name prefix (`gelu_tanh`) or a feature name (`gelu-tanh`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Activation::ALL
            .into_iter()
            .find(|a| a.name() == s || a.feature() == s)
            .ok_or(UnknownActivation)
    }
}

impl Activation {
    /// `self` at one `f16`: one table load.
    pub fn f16(self, x: half::f16) -> Result<half::f16, MissingTable> {
        Ok(half::f16::from_bits(
            self.table_f16()?[usize::from(x.to_bits())],
        ))
    }

    /// `self` at one `bf16`: one table load.
    pub fn bf16(self, x: half::bf16) -> Result<half::bf16, MissingTable> {
        Ok(half::bf16::from_bits(
            self.table_bf16()?[usize::from(x.to_bits())],
        ))
    }

    /// Applies `self` in place to every `f16` of `xs`.
    pub fn apply_f16(self, xs: &mut [half::f16]) -> Result<(), MissingTable> {
        use half::slice::HalfFloatSliceExt;
        crate::kernels::apply_u16(self.table_f16()?, xs.reinterpret_cast_mut());
        Ok(())
    }

    /// Writes `self` of every `f16` of `xs` to `ys`.
    ///
    /// # Panics
    ///
    /// If `xs.len() != ys.len()`; the message names both lengths.
    #[track_caller]
    pub fn map_f16(self, xs: &[half::f16], ys: &mut [half::f16]) -> Result<(), MissingTable> {
        use half::slice::HalfFloatSliceExt;
        let t = self.table_f16()?;
        crate::kernels::map_u16(t, xs.reinterpret_cast(), ys.reinterpret_cast_mut());
        Ok(())
    }

    /// Applies `self` in place to every `bf16` of `xs`.
    pub fn apply_bf16(self, xs: &mut [half::bf16]) -> Result<(), MissingTable> {
        use half::slice::HalfFloatSliceExt;
        crate::kernels::apply_u16(self.table_bf16()?, xs.reinterpret_cast_mut());
        Ok(())
    }

    /// Writes `self` of every `bf16` of `xs` to `ys`.
    ///
    /// # Panics
    ///
    /// If `xs.len() != ys.len()`; the message names both lengths.
    #[track_caller]
    pub fn map_bf16(self, xs: &[half::bf16], ys: &mut [half::bf16]) -> Result<(), MissingTable> {
        use half::slice::HalfFloatSliceExt;
        let t = self.table_bf16()?;
        crate::kernels::map_u16(t, xs.reinterpret_cast(), ys.reinterpret_cast_mut());
        Ok(())
    }
}
