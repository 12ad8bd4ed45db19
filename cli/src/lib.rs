//! The `actlut` command as a library: [`run`] is the whole command, which the
//! `actlut` binary calls with its arguments and the Python package calls for
//! `python -m actlut ulp` ([`run_to`]); [`ulp::json`] is the JSON report of
//! `actlut ulp` that the Python package's `Grade.to_json` returns.
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
//! The command line is clap's (derive): one `Args` struct per command, value
//! parsers derived from `Format::ALL` and `Function::ALL`, `--x=v`, `--` and
//! `--help` alike everywhere. A usage error is clap's message on one line,
//! `actlut: error: MESSAGE (try `actlut COMMAND --help`)`, with exit status 2;
//! so is any other error (an unreadable file, a bad lock), without the hint.
//!
//! `audit` exits with 0 when every table it finds is intact and in the lock
//! and every table an artifact names by its SHA-256 (actlut's manifest) is
//! there intact; 1 when something is modified, truncated, not in the lock or
//! missing, or a compact stored form is of an unknown table or invalid; and 2
//! on a usage or I/O error (a missing, unreadable, empty or non-regular file,
//! a corrupt or incomplete lock, bad arguments, output that cannot be
//! written). `ulp` exits with 0 when every
//! entry is correctly rounded, 1 when one is not, 2 on a usage or I/O error.
//!
//! # Features
//!
//! | feature | adds |
//! |---|---|
//! | `audit` (default) | the `manifest`, `dump` and `audit` commands (actlut-audit, object, actlut's `self-check`) |
//! | `quant` (default) | the `quant` command (actlut-codegen's fused pipeline) |
//!
//! Without them the library has the `ulp` command only: what the Python
//! package links.

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

use clap::{CommandFactory as _, FromArgMatches as _, Parser, Subcommand};

#[cfg(feature = "audit")]
mod audit;
#[cfg(feature = "audit")]
mod dump;
#[cfg(feature = "audit")]
mod manifest;
mod output;
#[cfg(feature = "quant")]
mod quant;
#[cfg(feature = "audit")]
mod tables;
pub mod ulp;
mod values;

/// What `actlut --help` prints after the list of commands.
const AFTER_HELP: &str = "\
exit status:
  0  success
  1  a check found a problem (audit: a table modified, truncated, not in the
     lock or missing; ulp: an entry not correctly rounded)
  2  usage or I/O error, with a one-line message
`actlut COMMAND --help` says more about each command.";

/// `actlut`: list, dump and audit actlut's tables, write quantized tables,
/// and grade kernels.
#[derive(Parser)]
#[command(
    name = "actlut",
    about = "List, dump and audit actlut's tables, write fused quantized tables, and grade \
             implementations against the exact tables.",
    after_help = AFTER_HELP,
    subcommand_required = true,
    arg_required_else_help = false
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// One variant per command, each with its own arguments.
#[derive(Subcommand)]
enum Command {
    #[cfg(feature = "audit")]
    Manifest(manifest::Args),
    #[cfg(feature = "audit")]
    Dump(dump::Args),
    #[cfg(feature = "audit")]
    Audit(audit::Args),
    // Boxed: their `Op` holds up to four exact constants (a few hundred bytes).
    #[cfg(feature = "quant")]
    Quant(Box<quant::Args>),
    Ulp(Box<ulp::Args>),
}

/// An error that is not a usage error: its one-line message (exit status 2).
pub(crate) struct Failure(pub(crate) String);

/// Why a command stopped: a usage error (clap's, or one found after parsing,
/// raised as clap's kind of it) or another error.
pub(crate) enum Stop {
    Usage(clap::Error),
    Failure(Failure),
}

impl From<Failure> for Stop {
    fn from(f: Failure) -> Stop {
        Stop::Failure(f)
    }
}

impl From<clap::Error> for Stop {
    fn from(e: clap::Error) -> Stop {
        Stop::Usage(e)
    }
}

/// Where a command writes: its standard output and error.
pub(crate) struct Io<'a> {
    pub(crate) out: &'a mut dyn Write,
    pub(crate) err: &'a mut dyn Write,
}

impl Io<'_> {
    /// Writes `text` to standard output ([`output::emit`]).
    ///
    /// # Errors
    ///
    /// A write error other than a reader gone away (exit status 2).
    pub(crate) fn emit(&mut self, text: &str) -> Result<(), Failure> {
        output::emit(self.out, text)
    }
}

/// The clap command of `actlut`, shown as `bin_name` in usage lines and
/// hints.
fn command(bin_name: &str) -> clap::Command {
    Cli::command()
        .bin_name(bin_name.to_string())
        .version(format!(
            "{} ({})",
            env!("CARGO_PKG_VERSION"),
            actlut::manifest::REFERENCE_VERSION
        ))
        .no_binary_name(true)
        .term_width(80)
}

/// Runs the `actlut` command with `args` (the arguments after the program's
/// name), on the process's standard output and error.
pub fn run<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<OsString>,
{
    let (out, err) = (std::io::stdout(), std::io::stderr());
    ExitCode::from(run_to("actlut", args, &mut out.lock(), &mut err.lock()))
}

/// Runs the command with `args` (the arguments after the program's name),
/// writing its output to `out` and its error message to `err`, and returns
/// its exit status: 0, 1 (a check found a problem) or 2 (a usage or I/O
/// error). `bin_name` is how usage lines and hints name the command
/// (`actlut`, `python -m actlut`).
pub fn run_to<I, T>(bin_name: &str, args: I, out: &mut dyn Write, err: &mut dyn Write) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString>,
{
    let mut io = Io { out, err };
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let cmd = command(bin_name);
    // The command named: the first argument that is no option (`actlut` has
    // no option that takes a value), if it is a command.
    let named = args
        .iter()
        .find(|a| !a.as_encoded_bytes().starts_with(b"-"))
        .and_then(|a| cmd.find_subcommand(a))
        .map(|c| c.get_name().to_string());
    let parsed = cmd
        .try_get_matches_from(&args)
        .and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => return usage_failure(&mut io, bin_name, named.as_deref(), &e),
    };
    let (name, result) = match cli.command {
        #[cfg(feature = "audit")]
        Command::Manifest(a) => ("manifest", manifest::run(&a, &mut io)),
        #[cfg(feature = "audit")]
        Command::Dump(a) => ("dump", dump::run(&a, &mut io)),
        #[cfg(feature = "audit")]
        Command::Audit(a) => ("audit", audit::run(&a, &mut io)),
        #[cfg(feature = "quant")]
        Command::Quant(a) => ("quant", quant::run(&a, &mut io)),
        Command::Ulp(a) => ("ulp", ulp::run(&a, &mut io)),
    };
    match result {
        Ok(code) => code,
        Err(Stop::Usage(e)) => usage_failure(&mut io, bin_name, Some(name), &e),
        Err(Stop::Failure(Failure(message))) => {
            let _ = writeln!(io.err, "actlut: error: {message}");
            2
        }
    }
}

/// Reports a clap error: `--help` and `--version` (clap's "errors" of kind
/// `DisplayHelp`, `DisplayVersion`) print to standard output with status 0;
/// any other is a usage error: clap's message on one line, then a hint at the
/// help of the command it is about (`command`, or `actlut` itself), status 2.
fn usage_failure(io: &mut Io, bin_name: &str, command: Option<&str>, e: &clap::Error) -> u8 {
    use clap::error::ErrorKind;
    let text = e.render().to_string();
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        return match io.emit(&text) {
            Ok(()) => 0,
            Err(Failure(message)) => {
                let _ = writeln!(io.err, "actlut: error: {message}");
                2
            }
        };
    }
    let _ = writeln!(
        io.err,
        "actlut: error: {} (try `{} --help`)",
        one_line(&text),
        match command {
            Some(c) => format!("{bin_name} {c}"),
            None => bin_name.to_string(),
        }
    );
    2
}

/// The first paragraph of clap's message, without its `error: ` and on one
/// line: `the following required arguments were not provided: <FILE>`.
fn one_line(text: &str) -> String {
    let first = text.split("\n\n").next().unwrap_or_default();
    let first = first.strip_prefix("error: ").unwrap_or(first);
    first.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clap_command_is_consistent() {
        command("actlut").debug_assert();
    }

    fn run_args(args: &[&str]) -> (u8, String, String) {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = run_to("actlut", args, &mut out, &mut err);
        let s = |b: Vec<u8>| String::from_utf8(b).unwrap();
        (code, s(out), s(err))
    }

    #[test]
    fn usage_errors_are_one_line_with_a_hint_at_their_command_s_help() {
        for (args, says, hint) in [
            (&["ulp", "gelu"][..], "<FORMAT>", "actlut ulp"),
            (
                &["ulp", "gelu", "f16", "x", "--bogus"],
                "'--bogus'",
                "actlut ulp",
            ),
            (
                &["ulp", "gelu", "f17", "x"],
                "unknown format name `f17`",
                "actlut ulp",
            ),
            (&["frobnicate"], "'frobnicate'", "actlut"),
            (&[], "requires a subcommand", "actlut"),
        ] {
            let (code, out, err) = run_args(args);
            assert_eq!(code, 2, "{args:?}");
            assert!(out.is_empty(), "{args:?}: {out}");
            assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
            assert!(err.starts_with("actlut: error: "), "{args:?}: {err}");
            assert!(err.contains(says), "{args:?}: {says} not in {err}");
            assert!(
                err.ends_with(&format!(" (try `{hint} --help`)\n")),
                "{args:?}: {err}"
            );
        }
    }

    #[test]
    fn help_and_version_print_to_standard_output_with_status_0() {
        for args in [&["--help"][..], &["help"], &["ulp", "--help"], &["-V"]] {
            let (code, out, err) = run_args(args);
            assert_eq!((code, err.as_str()), (0, ""), "{args:?}");
            assert!(out.contains("actlut"), "{args:?}: {out}");
        }
        let (_, out, _) = run_args(&["--version"]);
        assert_eq!(
            out,
            format!(
                "actlut {} ({})\n",
                env!("CARGO_PKG_VERSION"),
                actlut::manifest::REFERENCE_VERSION
            )
        );
    }

    /// A writer that fails as a full disk does, or as a reader gone away.
    struct Failing(std::io::ErrorKind);

    impl Write for Failing {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(self.0.into())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// Output that cannot be written is an I/O error, status 2, never the
    /// status of what was found (`actlut audit … > /dev/full` is
    /// `cli/tests/audit.rs`); a reader that has gone away is not one.
    #[test]
    fn output_that_cannot_be_written_is_status_2_and_a_reader_gone_away_is_not() {
        let mut err = Vec::new();
        let mut full = Failing(std::io::ErrorKind::StorageFull);
        for args in [&["--help"][..], &["ulp", "--help"], &["-V"]] {
            err.clear();
            assert_eq!(run_to("actlut", args, &mut full, &mut err), 2, "{args:?}");
            let err = String::from_utf8_lossy(&err);
            assert!(
                err.starts_with("actlut: error: cannot write to standard output: "),
                "{err}"
            );
        }
        let mut gone = Failing(std::io::ErrorKind::BrokenPipe);
        err.clear();
        assert_eq!(run_to("actlut", ["--help"], &mut gone, &mut err), 0);
        assert!(err.is_empty());
    }
}
