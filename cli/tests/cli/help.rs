//! `actlut help` names every subcommand with its summary, each subcommand it
//! names exists and has its own `--help`, and `--help`, `--x=v` and `--`
//! behave alike in every subcommand (one parser: clap's).

use std::process::Command;

const COMMANDS: [&str; 5] = ["manifest", "dump", "audit", "quant", "ulp"];

fn actlut(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_actlut"))
        .args(args)
        .output()
        .expect("run actlut")
}

fn stdout(o: &std::process::Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

#[test]
fn help_lists_every_subcommand_with_its_summary_and_each_has_its_help() {
    for help in [&["help"][..], &["--help"], &["-h"]] {
        let out = actlut(help);
        assert_eq!(out.status.code(), Some(0), "{help:?}");
        let text = stdout(&out);
        let commands: Vec<&str> = text
            .lines()
            .skip_while(|l| *l != "Commands:")
            .skip(1)
            .take_while(|l| !l.is_empty())
            .collect();
        for c in COMMANDS {
            assert!(
                commands.iter().any(|l| l.starts_with(&format!("  {c}  "))
                    && l.len() > format!("  {c}  ").len() + 10),
                "no summary line for `{c}` in:\n{text}"
            );
        }
        assert!(text.contains("exit status:"), "{text}");
    }
    for c in COMMANDS {
        for help in [vec![c, "--help"], vec!["help", c]] {
            let out = actlut(&help);
            assert_eq!(out.status.code(), Some(0), "{help:?}: {}", stderr(&out));
            assert!(
                stdout(&out).contains(&format!("Usage: actlut {c} ")),
                "{help:?}: {}",
                stdout(&out)
            );
        }
    }
}

#[test]
fn every_subcommand_in_help_is_known_to_the_dispatch() {
    for c in COMMANDS {
        let out = actlut(&[c, "--no-such-option"]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "`{c}`: {err}");
        assert_eq!(
            err,
            format!(
                "actlut: error: unexpected argument '--no-such-option' found \
                 (try `actlut {c} --help`)\n"
            )
        );
    }
    let out = actlut(&["frobnicate"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "actlut: error: unrecognized subcommand 'frobnicate' (try `actlut --help`)\n"
    );
}

/// `--opt=v` and `--opt v` are the same, and after `--` an argument that
/// starts with `-` is a file.
#[test]
fn options_and_double_dash_behave_alike_in_every_subcommand() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("help-dash");
    std::fs::create_dir_all(&dir).unwrap();
    // `ulp --worst=N` and `--worst N`; `--` before a file named `-x.bin`.
    let file = dir.join("-x.bin");
    std::fs::write(&file, [0u8; 16]).unwrap();
    let name = file.file_name().unwrap().to_str().unwrap();
    let run_in = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_actlut"))
            .current_dir(&dir)
            .args(args)
            .output()
            .unwrap()
    };
    let a = run_in(&["ulp", "--worst=3", "gelu", "fp4_e2m1", "--", name]);
    let b = run_in(&["ulp", "--worst", "3", "gelu", "fp4_e2m1", "--", name]);
    assert!(matches!(a.status.code(), Some(0 | 1)), "{}", stderr(&a));
    assert_eq!((a.status.code(), stdout(&a)), (b.status.code(), stdout(&b)));
    // Without `--`, `-x.bin` is an unknown option.
    let c = run_in(&["ulp", "gelu", "fp4_e2m1", name]);
    assert_eq!(c.status.code(), Some(2), "{}", stderr(&c));
    // `audit --lock=L` and `--lock L`: the same error for a missing lock.
    let missing = dir.join("missing.lock");
    let missing = missing.to_str().unwrap();
    let d = actlut(&["audit", &format!("--lock={missing}"), "--", name]);
    let e = actlut(&["audit", "--lock", missing, "--", name]);
    assert_eq!(d.status.code(), Some(2));
    assert_eq!(stderr(&d), stderr(&e));
    assert!(stderr(&d).contains("cannot read lock"), "{}", stderr(&d));
}
