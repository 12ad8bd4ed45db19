//! The options shared by the subcommands: `--json`, `--lock`, and file arguments.

use std::ffi::OsString;
use std::path::PathBuf;

use crate::{usage, Failure};

/// The parsed arguments of `manifest`, `dump` and `audit`.
pub(crate) struct Options {
    pub(crate) json: bool,
    pub(crate) lock: Option<PathBuf>,
    pub(crate) files: Vec<OsString>,
}

impl Options {
    /// Arguments as the OS gives them: a path need not be UTF-8; an option
    /// must be.
    pub(crate) fn parse(args: &[OsString], allow_lock: bool) -> Result<Options, Failure> {
        let mut opts = Options {
            json: false,
            lock: None,
            files: Vec::new(),
        };
        let mut it = args.iter();
        let mut only_files = false;
        while let Some(a) = it.next() {
            let is_option = a.as_encoded_bytes().first() == Some(&b'-') && a != "-";
            if only_files || !is_option {
                opts.files.push(a.clone());
                continue;
            }
            let Some(s) = a.to_str() else {
                let lossy = a.to_string_lossy();
                return Err(usage(if lossy.starts_with("--lock=") {
                    "a `--lock=` path that is not UTF-8: pass it as `--lock PATH`".to_string()
                } else {
                    format!("unknown option `{lossy}`")
                }));
            };
            if s == "--" {
                only_files = true;
            } else if s == "--json" {
                opts.json = true;
            } else if allow_lock && s == "--lock" {
                let path = it
                    .next()
                    .ok_or_else(|| usage("`--lock` needs a file".to_string()))?;
                opts.lock = Some(PathBuf::from(path));
            } else if let Some(path) = s.strip_prefix("--lock=").filter(|_| allow_lock) {
                opts.lock = Some(PathBuf::from(path));
            } else {
                return Err(usage(format!("unknown option `{s}`")));
            }
        }
        Ok(opts)
    }
}
