//! A JSON document serialized as it is written: its envelope a tree of
//! objects and small values, and its long lists (a file's problems, tables
//! and declarations) built one item at a time as serde_json writes them, so
//! that the memory a report takes does not grow with its findings. serde_json
//! writes every byte, the same bytes as the whole document built as a
//! [`Value`] first (keys in the order given, as `preserve_order` keeps
//! them).

use std::boxed::Box;
use std::cell::Cell;
use std::io::{self, Write};
use std::vec::Vec;

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;

/// A part of a document.
pub(crate) enum Part<'a> {
    /// A value built whole (a small one: a field, one finding).
    Value(Value),
    /// An object whose fields are parts, in this order.
    Object(Vec<(&'static str, Part<'a>)>),
    /// A list whose items are built one at a time as they are written (the
    /// iterator is taken: a part is written once).
    List(Cell<Option<Box<dyn Iterator<Item = Part<'a>> + 'a>>>),
}

impl<'a> Part<'a> {
    /// A list of `items`, each built when it is written.
    pub(crate) fn list(items: impl Iterator<Item = Part<'a>> + 'a) -> Part<'a> {
        Part::List(Cell::new(Some(Box::new(items))))
    }

    /// A list of `values`, each built when it is written.
    pub(crate) fn values(values: impl Iterator<Item = Value> + 'a) -> Part<'a> {
        Part::list(values.map(Part::Value))
    }
}

/// The field `key` of an object, its value built whole.
pub(crate) fn field<'a>(key: &'static str, value: impl Serialize) -> (&'static str, Part<'a>) {
    let value = serde_json::to_value(value).expect("a report serializes");
    (key, Part::Value(value))
}

impl Serialize for Part<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Part::Value(v) => v.serialize(s),
            Part::Object(fields) => {
                let mut map = s.serialize_map(Some(fields.len()))?;
                for (key, value) in fields {
                    map.serialize_entry(key, value)?;
                }
                map.end()
            }
            Part::List(items) => s.collect_seq(items.take().expect("a part is written once")),
        }
    }
}

/// A report serialized as it is written: its long lists built one item at a
/// time. Written once: a second serialization panics.
pub struct Document<'a>(pub(crate) Part<'a>);

impl Serialize for Document<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

/// Writes `doc` pretty-printed, with a final newline.
pub(crate) fn write_pretty(out: &mut dyn Write, doc: &Part<'_>) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, doc)?;
    out.write_all(b"\n")
}
