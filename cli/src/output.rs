//! What the commands write: text to a writer (a reader that has gone away is
//! no error), JSON through `serde_json` in actlut's layout, and files that
//! never follow a symbolic link.

use std::io::Write;

use crate::Failure;

use serde::Serialize;
use serde_json::ser::Formatter;

/// Writes `text` to `out`. A reader that has gone away (`actlut audit … |
/// head`) is not an error: the exit status still says what was found. Any
/// other write error (a full disk: `> /dev/full`) is one, exit status 2:
/// a report that was not written never stands for a verdict.
///
/// # Errors
///
/// The write error, as the command's one-line message.
pub(crate) fn emit(out: &mut dyn Write, text: &str) -> Result<(), Failure> {
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(Failure(format!("cannot write to standard output: {e}")))
        }
        _ => Ok(()),
    }
}

/// Writes `bytes` to `path` without following a symbolic link there: an
/// existing link is an error, and the bytes go to a new file in the same
/// directory that is then renamed over `path` (a rename replaces a link made
/// in the meantime instead of writing through it).
#[cfg(any(feature = "audit", feature = "quant"))]
pub(crate) fn write_file(path: &std::path::Path, bytes: &[u8]) -> Result<(), Failure> {
    if let Ok(m) = std::fs::symlink_metadata(path) {
        if m.file_type().is_symlink() {
            let target = std::fs::read_link(path)
                .map(|t| format!(" to {}", t.display()))
                .unwrap_or_default();
            return Err(Failure(format!(
                "refusing to write {}: it is a symbolic link{target}, which dump does not follow (remove it first)",
                path.display()
            )));
        }
    }
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let tmp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .and_then(|mut f| std::io::Write::write_all(&mut f, bytes))
        .and_then(|()| std::fs::rename(&tmp, path));
    written.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Failure(format!("cannot write {}: {e}", path.display()))
    })
}

/// `value` as JSON and a newline, in actlut's layout: `": "` after a key and
/// `", "` between items, as one line below nesting level `expand`, and one
/// item a line (indented by two spaces a level) in the outer `expand` levels.
/// `actlut ulp --json` is one line (`expand` 0); `actlut manifest --json`
/// and `actlut audit --json` give each table and each file a line (2).
pub(crate) fn to_json<T: Serialize>(value: &T, expand: usize) -> String {
    let mut bytes = Vec::new();
    write_json(&mut bytes, value, expand)
        .expect("a report of strings, numbers and lists serializes");
    String::from_utf8(bytes).expect("serde_json writes UTF-8")
}

/// [`to_json`] written to `out` as it is serialized, not built as a string
/// first (a report of many findings stays out of memory).
pub(crate) fn write_json<T: Serialize>(
    out: &mut dyn Write,
    value: &T,
    expand: usize,
) -> std::io::Result<()> {
    let layout = Layout {
        expand,
        depth: 0,
        has_value: false,
    };
    let mut ser = serde_json::Serializer::with_formatter(&mut *out, layout);
    value.serialize(&mut ser).map_err(std::io::Error::from)?;
    out.write_all(b"\n")
}

/// The `serde_json` formatter of [`to_json`] and [`write_json`].
struct Layout {
    /// How many outer levels have one item a line.
    expand: usize,
    /// The nesting level of the innermost open list or object.
    depth: usize,
    /// Whether the innermost open list or object has an item yet.
    has_value: bool,
}

impl Layout {
    fn begin<W: ?Sized + Write>(&mut self, w: &mut W, open: &[u8]) -> std::io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        w.write_all(open)
    }

    fn end<W: ?Sized + Write>(&mut self, w: &mut W, close: &[u8]) -> std::io::Result<()> {
        let expanded = self.depth <= self.expand;
        self.depth -= 1;
        if expanded && self.has_value {
            self.newline(w)?;
        }
        w.write_all(close)
    }

    fn item<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        if !first {
            w.write_all(if self.depth <= self.expand {
                b","
            } else {
                b", "
            })?;
        }
        if self.depth <= self.expand {
            self.newline(w)?;
        }
        Ok(())
    }

    fn newline<W: ?Sized + Write>(&self, w: &mut W) -> std::io::Result<()> {
        w.write_all(b"\n")?;
        for _ in 0..self.depth {
            w.write_all(b"  ")?;
        }
        Ok(())
    }
}

impl Formatter for Layout {
    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.begin(w, b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.end(w, b"]")
    }

    fn begin_array_value<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(w, first)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.begin(w, b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.end(w, b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(w, first)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        w.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::to_json;
    use serde::Serialize;

    #[derive(Serialize)]
    struct Inner {
        a: u32,
        b: Vec<&'static str>,
        c: Option<u32>,
    }

    #[derive(Serialize)]
    struct Outer {
        name: &'static str,
        items: Vec<Inner>,
        none: Vec<u32>,
    }

    fn sample() -> Outer {
        Outer {
            name: "x\"\n",
            items: vec![
                Inner {
                    a: 1,
                    b: vec!["p", "q"],
                    c: None,
                },
                Inner {
                    a: 2,
                    b: vec![],
                    c: Some(3),
                },
            ],
            none: vec![],
        }
    }

    #[test]
    fn one_line_below_the_expanded_levels() {
        assert_eq!(
            to_json(&sample(), 0),
            "{\"name\": \"x\\\"\\n\", \"items\": [{\"a\": 1, \"b\": [\"p\", \"q\"], \"c\": null}, \
             {\"a\": 2, \"b\": [], \"c\": 3}], \"none\": []}\n"
        );
        assert_eq!(
            to_json(&sample(), 2),
            "{\n  \"name\": \"x\\\"\\n\",\n  \"items\": [\n    {\"a\": 1, \"b\": [\"p\", \"q\"], \
             \"c\": null},\n    {\"a\": 2, \"b\": [], \"c\": 3}\n  ],\n  \"none\": []\n}\n"
        );
    }

    #[test]
    fn every_layout_parses_back_to_the_same_value() {
        let compact = serde_json::to_value(sample()).unwrap();
        for expand in 0..4 {
            let v: serde_json::Value = serde_json::from_str(&to_json(&sample(), expand)).unwrap();
            assert_eq!(v, compact, "expand {expand}");
        }
    }
}
