//! `actlut dump DIR`: every table as a file, and the checksums to verify them.

use std::ffi::OsStr;
use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;

use actlut::manifest;

use actlut_codegen::compact::Layout;

use crate::tables::{compact_forms_of, table_le};
use crate::{emit, usage, Failure};

/// Writes every table and the SHA256SUMS files into `dir`.
pub(crate) fn dump(dir: &OsStr) -> Result<ExitCode, Failure> {
    if dir.is_empty() {
        return Err(usage(
            "`dump` needs a directory name, and `` is empty".to_string(),
        ));
    }
    let dir = Path::new(dir);
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
    emit(&format!(
        "wrote {} tables and SHA256SUMS to {}{note}, {} (check each with: sha256sum -c SHA256SUMS)\n",
        manifest::TABLES.len(),
        dir.display(),
        written.join(", and ")
    ));
    Ok(ExitCode::SUCCESS)
}

/// The directory under `DIR` that holds the stored forms of `layout`:
/// `compact` (bytes layout) or `compact-words`.
pub(crate) fn compact_dir_name(layout: Layout) -> &'static str {
    match layout {
        Layout::Bytes => "compact",
        Layout::Words => "compact-words",
    }
}

/// Writes `bytes` to `path` without following a symbolic link there: an
/// existing link is an error, and the bytes go to a new file in the same
/// directory that is then renamed over `path` (a rename replaces a link made
/// in the meantime instead of writing through it).
pub(crate) fn write_file(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
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
