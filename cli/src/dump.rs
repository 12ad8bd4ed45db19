//! `actlut dump DIR`: every table as a file, and the checksums to verify them.

use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use actlut::manifest;

use actlut_codegen::compact::Layout;
use clap::builder::{OsStringValueParser, TypedValueParser as _};

use crate::output::write_file;
use crate::tables::{compact_forms_of, table_le};
use crate::{Failure, Io, Stop};

/// `actlut dump DIR`.
#[derive(clap::Args)]
#[command(
    about = "Write every table to DIR/<name>.bin and DIR/SHA256SUMS, and the compact stored \
             forms to DIR/compact and DIR/compact-words",
    long_about = "Write DIR/<name>.bin (little-endian) for every table and DIR/SHA256SUMS, and \
                  DIR/compact/<name>.compact (the compact stored form) for every 16-bit table \
                  and DIR/compact/SHA256SUMS (the compact lock's hashes); the same in the words \
                  layout in DIR/compact-words. `sha256sum -c SHA256SUMS` verifies each \
                  directory. Never writes through a symbolic link."
)]
pub(crate) struct Args {
    /// The directory to write (created if missing)
    #[arg(value_parser = OsStringValueParser::new().try_map(directory))]
    dir: PathBuf,
}

/// A directory name: any path but the empty one.
fn directory(s: OsString) -> Result<PathBuf, String> {
    if s.is_empty() {
        return Err("a directory name must not be empty".to_string());
    }
    Ok(PathBuf::from(s))
}

/// Runs `actlut dump`.
pub(crate) fn run(a: &Args, io: &mut Io) -> Result<u8, Stop> {
    io.emit(&dump(&a.dir)?)?;
    Ok(0)
}

/// Writes every table and the SHA256SUMS files into `dir`, and says what it
/// wrote.
fn dump(dir: &Path) -> Result<String, Failure> {
    // A symbolic link as DIR is followed, and the output says where to.
    let note = match std::fs::symlink_metadata(dir) {
        Ok(m) if m.file_type().is_symlink() => match std::fs::read_link(dir) {
            Ok(target) => format!(
                " ({} is a symbolic link to {})",
                dir.display(),
                target.display()
            ),
            Err(_) => format!(" ({} is a symbolic link)", dir.display()),
        },
        _ => String::new(),
    };
    std::fs::create_dir_all(dir)
        .map_err(|e| Failure(format!("cannot create directory {}: {e}", dir.display())))?;
    let mut sums = String::new();
    for t in manifest::TABLES {
        let path = dir.join(format!("{}.bin", t.name));
        let bytes = table_le(t);
        // Re-hash what is written: a dump is proof only of bytes that were checked.
        t.check(&bytes[..]).map_err(|e| Failure(e.to_string()))?;
        write_file(&path, &bytes)?;
        let _ = writeln!(sums, "{}  {}.bin", t.sha256_hex(), t.name);
    }
    write_file(&dir.join("SHA256SUMS"), sums.as_bytes())?;
    // The compact stored forms of both layouts, each checked against the
    // compact lock of its layout: DIR/compact (bytes) and DIR/compact-words.
    let mut written = Vec::new();
    for layout in Layout::ALL {
        let forms = compact_forms_of(layout)?;
        let compact_dir = dir.join(compact_dir_name(layout));
        if let Ok(m) = std::fs::symlink_metadata(&compact_dir) {
            if m.file_type().is_symlink() {
                return Err(Failure(format!(
                    "refusing to write into {}: it is a symbolic link, which dump does not follow (remove it first)",
                    compact_dir.display()
                )));
            }
        }
        std::fs::create_dir_all(&compact_dir).map_err(|e| {
            Failure(format!(
                "cannot create directory {}: {e}",
                compact_dir.display()
            ))
        })?;
        let mut compact_sums = String::new();
        for (name, stored) in &forms {
            write_file(&compact_dir.join(format!("{name}.compact")), stored)?;
            let _ = writeln!(
                compact_sums,
                "{}  {name}.compact",
                actlut_codegen::hex(&actlut_codegen::sha256(stored))
            );
        }
        write_file(&compact_dir.join("SHA256SUMS"), compact_sums.as_bytes())?;
        written.push(format!(
            "{} {} stored forms and SHA256SUMS to {}",
            forms.len(),
            layout.name(),
            compact_dir.display()
        ));
    }
    Ok(format!(
        "wrote {} tables and SHA256SUMS to {}{note}, {} (check each with: sha256sum -c SHA256SUMS)\n",
        manifest::TABLES.len(),
        dir.display(),
        written.join(", and ")
    ))
}

/// The directory under `DIR` that holds the stored forms of `layout`:
/// `compact` (bytes layout) or `compact-words`.
pub(crate) fn compact_dir_name(layout: Layout) -> &'static str {
    match layout {
        Layout::Bytes => "compact",
        Layout::Words => "compact-words",
    }
}
