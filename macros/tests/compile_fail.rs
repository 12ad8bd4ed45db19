//! Invalid parameters of `dequant_table!` are compile errors that point at the argument.
//! The expected messages are in `ui/*.stderr` (regenerate with `TRYBUILD=overwrite` and
//! review the diff).

#[test]
fn invalid_parameters_are_compile_errors_at_the_argument() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
