//! A check of the wasm32-wasip1 runner (`scripts/wasm-runner.mjs`) itself: a
//! test run under it must fail when a test fails, or the wasm test results
//! prove nothing.
//!
//! `ACTLUT_RUNNER_SELF_TEST` makes the test below fail on purpose: `panic`
//! panics (on wasm32-wasip1 a panic aborts, which traps), `exit:N` exits with
//! status N. `.ci/steps/50-embedded.sh` runs it both ways and requires the
//! failure. Unset, the test passes, here and natively.

#[test]
fn fails_on_request_so_that_the_runner_can_be_checked() {
    // The environment reaches the program through the runner.
    match std::env::var("ACTLUT_RUNNER_SELF_TEST").as_deref() {
        Ok("panic") => panic!("ACTLUT_RUNNER_SELF_TEST=panic: failing on purpose"),
        Ok(other) => {
            if let Some(code) = other.strip_prefix("exit:") {
                let code: i32 = code.parse().expect("exit:N takes an integer");
                std::process::exit(code);
            }
        }
        Err(_) => {}
    }
}

#[test]
fn files_of_the_repository_are_readable_by_absolute_path() {
    // The runner preopens the repository: tests that read tables/ work.
    let lock = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tables/actlut.lock"))
        .expect("tables/actlut.lock is readable");
    assert!(lock.lines().any(|l| l.starts_with("gelu_f16 ")), "{lock}");
}
