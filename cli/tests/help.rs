//! `actlut help` names every subcommand: in the synopsis and with a paragraph
//! of its own, and each subcommand it names exists (is not "unknown command").

use std::process::Command;

const COMMANDS: [&str; 5] = ["manifest", "dump", "audit", "quant", "ulp"];

fn actlut(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_actlut"))
        .args(args)
        .output()
        .expect("run actlut")
}

#[test]
fn help_lists_every_subcommand_in_the_synopsis_and_a_paragraph() {
    let out = actlut(&["help"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for c in COMMANDS {
        assert!(
            text.lines().take_while(|l| !l.is_empty()).any(|l| l
                .trim_start()
                .trim_start_matches("usage: ")
                .starts_with(&format!("actlut {c}"))),
            "no synopsis line for `{c}` in:\n{text}"
        );
        assert!(
            text.lines().any(|l| l.starts_with(&format!("  {c} "))),
            "no paragraph for `{c}` in:\n{text}"
        );
    }
}

#[test]
fn every_subcommand_in_help_is_known_to_the_dispatch() {
    for c in COMMANDS {
        let out = actlut(&[c, "--no-such-option"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("unknown command"), "`{c}`: {err}");
    }
    let out = actlut(&["frobnicate"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown command `frobnicate`"));
}
