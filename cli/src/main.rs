//! `actlut`: list, dump and audit actlut's tables, write quantized tables, and grade kernels.
//!
//! ```text
//! actlut manifest [--json]                 every table: name, format, size, SHA-256, definition,
//!                                          and each 16-bit table's compact stored form
//! actlut dump DIR                          DIR/<name>.bin for every table, and DIR/SHA256SUMS;
//!                                          DIR/compact/<name>.compact and its SHA256SUMS,
//!                                          the same in DIR/compact-words
//! actlut audit [--json] [--lock LOCK] FILE...
//!                                          find embedded tables in compiled artifacts
//! actlut quant FUNCTION --in T --scale S --zero-point Z --out T [...] --output FILE
//!                                          write a fused quantized table (docs/quant16.md)
//! actlut ulp FUNCTION FORMAT FILE [--json] grade an implementation against the exact table
//! ```
//!
//! `audit` exits with 0 when every table it finds is intact and in the lock
//! and every table an artifact names by its SHA-256 (actlut's manifest) is
//! there intact; 1 when something is modified, truncated, not in the lock or
//! missing, or a compact stored form is of an unknown table or invalid; and 2 on a usage or I/O error (a missing, unreadable, empty or
//! non-regular file, a corrupt or incomplete lock, bad arguments), with a
//! one-line message.

use std::ffi::OsString;
use std::process::ExitCode;

mod args;
mod audit;
mod dump;
mod json;
mod manifest;
mod quant;
mod tables;
mod ulp;

use args::Options;

/// The synopsis lines of `manifest`, `dump` and `audit`; those of `quant` and
/// `ulp` follow from their modules.
const SYNOPSIS: &str = "\
usage: actlut manifest [--json]
       actlut dump DIR
       actlut audit [--json] [--lock LOCK] FILE...";

/// The paragraph of `ulp` in `actlut help` (`actlut ulp --help` has the rest).
const ULP_HELP: &str =
    "  ulp        grade an implementation of FUNCTION over FORMAT: FILE holds its
             output for every input, in input bit-pattern order, little-endian;
             prints the entries that are not correctly rounded, the maximum error
             in ulps, a histogram and the worst inputs (`actlut ulp --help`)";

/// What `actlut help` prints after the synopsis: each command, then the exit
/// status of `audit`.
const USAGE: &str = "  manifest   list every table: name, format, entries, bytes, SHA-256 (of the
             entries: the table's identity), then for each 16-bit table the size
             and SHA-256 of its compact stored form (what the `compact` feature
             embeds, tables/actlut-compact.lock; `-` for smaller tables), and
             the definition
  dump       write DIR/<name>.bin (little-endian) for every table and DIR/SHA256SUMS,
             and DIR/compact/<name>.compact (the compact stored form) for every
             16-bit table and DIR/compact/SHA256SUMS (the compact lock's hashes);
             the same in the words layout in DIR/compact-words;
             `sha256sum -c SHA256SUMS` verifies each directory; never writes
             through a symbolic link
  audit      find actlut tables in compiled artifacts (ELF, wasm, raw firmware
             images, static libraries), in either byte order, intact, modified
             (entries changed) or truncated (cut off by the end of the file), and
             check each against the lock (the one built in, or LOCK); every table
             an artifact names by its SHA-256 (actlut's manifest) must be in it
             intact. 16-bit tables are also found in their compact stored form
             (reported as `NAME (compact)`), by content whatever their header
             holds and by their `ACTLUTC1` header: a changed byte of the header,
             directory or pool, a compact form of an unknown table, or an invalid
             one is a problem. FILE must be a regular file; it is read in blocks,
             so memory does not grow with its size.

exit status:
  0  ok: every table found is intact and in the lock, and every table the
     artifact's manifest lists is found intact
  1  audit: a table is modified, truncated, not in the lock, or listed by the
     manifest but missing; a manifest record's hash is not the lock's; a
     compact stored form is unknown or invalid; or too many candidates
  2  usage or I/O error (bad arguments; a missing, unreadable, empty or
     non-regular file; a corrupt, truncated or incomplete lock)";

/// The whole text of `actlut help`.
fn help_text() -> String {
    let ulp_synopsis = ulp::USAGE
        .lines()
        .next()
        .unwrap_or_default()
        .trim_start_matches("usage: ");
    let (commands, exit_status) = USAGE.split_once("\n\nexit status:").unwrap_or((USAGE, ""));
    format!(
        "{SYNOPSIS}\n       {quant}\n       {ulp_synopsis}\n\n{commands}\n  {qhelp}\n{ULP_HELP}\n\n\
         exit status (audit; quant and ulp: see their --help):{exit_status}\n",
        quant = quant::USAGE,
        qhelp = quant::HELP,
    )
}

/// A failure: the one-line message (exit code 2).
pub(crate) struct Failure(pub(crate) String);

/// Writes `text` to standard output. A reader that has gone away (`actlut
/// audit … | head`) is not an error: the exit status still says what was
/// found. Any other write error is reported on standard error.
pub(crate) fn emit(text: &str) {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("actlut: error: cannot write to standard output: {e}");
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    match run(&args) {
        Ok(code) => code,
        Err(Failure(message)) => {
            eprintln!("actlut: error: {message}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[OsString]) -> Result<ExitCode, Failure> {
    let Some((command, rest)) = args.split_first() else {
        return Err(Failure("no command given (try `actlut help`)".to_string()));
    };
    match command.to_str().unwrap_or("") {
        "help" | "-h" | "--help" => {
            emit(&help_text());
            Ok(ExitCode::SUCCESS)
        }
        "-V" | "--version" => {
            emit(&format!(
                "actlut {} ({})\n",
                env!("CARGO_PKG_VERSION"),
                actlut::manifest::REFERENCE_VERSION
            ));
            Ok(ExitCode::SUCCESS)
        }
        "manifest" => {
            let opts = Options::parse(rest, false)?;
            if let Some(f) = opts.files.first() {
                return Err(usage(format!(
                    "`manifest` takes no file arguments, got `{}`",
                    f.to_string_lossy()
                )));
            }
            emit(&manifest::manifest_text(opts.json));
            Ok(ExitCode::SUCCESS)
        }
        "dump" => {
            let opts = Options::parse(rest, false)?;
            if opts.json {
                return Err(usage("`dump` has no `--json` option".to_string()));
            }
            match opts.files.as_slice() {
                [dir] => dump::dump(dir),
                [] => Err(usage("`dump` needs a directory".to_string())),
                _ => Err(usage("`dump` takes exactly one directory".to_string())),
            }
        }
        "audit" => {
            let opts = Options::parse(rest, true)?;
            audit::audit_files(&opts)
        }
        "quant" => quant::run(rest),
        "ulp" => ulp::run(rest),
        _ => Err(usage(format!(
            "unknown command `{}`",
            command.to_string_lossy()
        ))),
    }
}

pub(crate) fn usage(message: String) -> Failure {
    Failure(format!("{message} (try `actlut help`)"))
}
