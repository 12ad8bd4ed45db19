//! `actlut`: the command of the `actlut_cli` library ([`actlut_cli::run`]).

fn main() -> std::process::ExitCode {
    actlut_cli::run(std::env::args_os().skip(1))
}
