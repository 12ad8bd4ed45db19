//! f16 GELU in every form actlut offers, beside the fastest computed peers,
//! as one list of slice functions over raw bits (`benches/compact.rs`):
//!
//! | name | what it runs |
//! |---|---|
//! | `full` | the 128 KiB table, `actlut::kernels::map_u16(&tables::GELU_F16, …)` (the kernel `Kernel::best` picks here) |
//! | `full/<kernel>` | the same table through each 16-bit kernel available here |
//! | `plain_loop` | `ys[i] = GELU_F16[xs[i]]`, the loop a user writes |
//! | `compact/<kernel>` | the compact stored form (`tables::compact::GELU_F16`, what the `compact` feature embeds) through each compact kernel available here |
//! | `compact` | the same through `compact::map_compact_u16` (the kernel `Kernel::best` picks here) |
//! | `words` | the same table's compact form in the words layout (what the `compact-words` feature embeds: a `u16` per entry in the pool, no width branch; packed at start-up and checked against `tables/actlut-compact-words.lock`; the bench prints both layouts' sizes) through `compact::map_compact_u16` (the kernel `Kernel::best` picks here for the words layout) |
//! | `words/<kernel>` | the same through each compact kernel available here |
//! | `expanded` | `gelu::map_f16` of a `compact` build after `compact::expand_table`: the function module reading its expanded copy |
//! | `tract` | tract-linalg 0.23's f16 GELU (`Func::Gelu.ew_f16()`, the kernel tract picks for the CPU; tanh form, approximate), on a copy of the input (it works in place) |
//! | `candle` | candle 0.11's `Tensor::gelu_erf` on a tensor, as in the other benches |

use actlut::compact::CompactRef;
use actlut::kernels::{Kernel, TableShape};
use half::slice::HalfBitsSliceExt;

/// A slice function over raw `f16` bits: `ys = gelu(xs)`.
pub type Run = Box<dyn Fn(&[u16], &mut [u16])>;

/// One variant: its name and its slice function over raw `f16` bits.
pub struct Variant {
    /// The row name in the bench's table.
    pub name: String,
    /// `ys = gelu(xs)` (both slices the same length).
    pub run: Run,
}

fn variant(name: impl Into<String>, run: impl Fn(&[u16], &mut [u16]) + 'static) -> Variant {
    Variant {
        name: name.into(),
        run: Box::new(run),
    }
}

/// The compact form of `tables::GELU_F16` in the words layout, packed (and
/// checked against the table on every input by the packer) once per process:
/// the stored form the `compact-words` feature embeds, byte for byte (its
/// SHA-256 is checked against `tables/actlut-compact-words.lock`).
pub fn gelu_f16_words() -> &'static CompactRef<'static> {
    static WORDS: std::sync::OnceLock<CompactRef<'static>> = std::sync::OnceLock::new();
    WORDS.get_or_init(|| {
        let layout = actlut::compact::Layout::Words;
        let stored = actlut_codegen::compact_lock::stored_form_of(
            actlut_codegen::Function::Gelu,
            actlut_codegen::Format::F16,
            &actlut::tables::GELU_F16[..],
            layout,
        )
        .expect("gelu_f16 packs in the words layout");
        let lock = actlut_codegen::compact_lock::parse(
            include_str!("../../tables/actlut-compact-words.lock"),
            layout,
        )
        .expect("the words lock parses");
        let line = lock
            .iter()
            .find(|e| e.name == "gelu_f16")
            .expect("gelu_f16 in the words lock");
        assert_eq!(
            actlut_codegen::sha256(&stored),
            line.sha256,
            "the packed words form of gelu_f16 is not the words lock's"
        );
        CompactRef::from_bytes(Vec::leak(stored)).expect("a packed form parses")
    })
}

/// `<prefix>/<kernel>`: `table` through each compact kernel available here.
fn each_compact_kernel(
    prefix: &'static str,
    table: &'static CompactRef<'static>,
) -> impl Iterator<Item = Variant> {
    Kernel::ALL
        .into_iter()
        .filter(|k| k.is_available_for(TableShape::Compact16))
        .map(move |k| {
            variant(
                format!("{prefix}/{}", format!("{k:?}").to_lowercase()),
                move |xs, ys| k.map(table, xs, ys).expect("an available kernel"),
            )
        })
}

/// Every variant, in table order. Expands `tables::compact::GELU_F16` (128 KiB
/// of heap, once per process) for `expanded`; the `compact` rows keep reading
/// the compact form.
pub fn gelu_f16() -> Vec<Variant> {
    let compact: &'static CompactRef<'static> = &actlut::tables::compact::GELU_F16;
    let mut out: Vec<Variant> = vec![
        variant("full", |xs, ys| {
            actlut::kernels::map_u16(actlut::tables::GELU_F16, xs, ys)
        }),
        variant("plain_loop", |xs, ys| {
            let t: &[u16; 65536] = actlut::tables::GELU_F16;
            for (y, &x) in ys.iter_mut().zip(xs) {
                *y = t[usize::from(x)];
            }
        }),
    ];
    for k in Kernel::ALL
        .into_iter()
        .filter(|k| k.is_available_for(TableShape::U16))
    {
        out.push(variant(
            format!("full/{}", format!("{k:?}").to_lowercase()),
            move |xs, ys| {
                k.map(actlut::tables::GELU_F16, xs, ys)
                    .expect("an available kernel")
            },
        ));
    }
    out.extend([variant("compact", move |xs, ys| {
        actlut::compact::map_compact_u16(compact, xs, ys)
    })]);
    out.extend(each_compact_kernel("compact", compact));
    let words = gelu_f16_words();
    out.push(variant("words", move |xs, ys| {
        actlut::compact::map_compact_u16(words, xs, ys)
    }));
    out.extend(each_compact_kernel("words", words));
    actlut::compact::expand_table(compact);
    out.push(variant("expanded", |xs, ys| {
        actlut::gelu::map_f16(xs.reinterpret_cast(), ys.reinterpret_cast_mut())
    }));
    let tract = tract_linalg::Func::Gelu
        .ew_f16()
        .expect("tract-linalg has an f16 GELU");
    out.push(variant(
        format!("tract ({})", tract.name()),
        move |xs, ys| {
            ys.copy_from_slice(xs);
            tract
                .run(ys.reinterpret_cast_mut())
                .expect("tract-linalg's f16 GELU runs")
        },
    ));
    out.push(variant("candle", |xs, ys| {
        crate::candle::gelu_f16(xs.reinterpret_cast(), ys.reinterpret_cast_mut())
    }));
    out
}
