//! Invalid parameters of `dequant_table!` and `table!` are compile errors that point at the
//! argument.
//! The expected messages are in `ui/*.stderr` (regenerate with `TRYBUILD=overwrite` and
//! review the diff).

use std::path::Path;

#[test]
fn invalid_parameters_are_compile_errors_at_the_argument() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}

/// An unknown function name is a compile error at the name that lists every
/// function. The list is actlut-codegen's `Function::ALL`, so the expected
/// message is derived from it here rather than committed.
#[test]
fn an_unknown_function_is_a_compile_error_listing_every_function() {
    let names: Vec<&str> = actlut_codegen::Function::ALL
        .iter()
        .map(|f| f.name())
        .collect();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ui-derived");
    std::fs::create_dir_all(&dir).unwrap();
    let source = dir.join("unknown_function.rs");
    std::fs::copy("tests/ui-derived/unknown_function.rs", &source).unwrap();
    let stderr = format!(
        "error: unknown function `gelux`: expected identity or one of {}\n\
         \x20--> {}:3:38\n  |\n\
         3 | dequant_table!(static T: i8 -> f32 = gelux, scale = 0.1, zero_point = 0);\n  \
         |                                      ^^^^^\n",
        names.join(", "),
        source.display()
    );
    std::fs::write(dir.join("unknown_function.stderr"), stderr).unwrap();
    let t = trybuild::TestCases::new();
    t.compile_fail(&source);
}
