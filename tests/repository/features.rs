//! The cargo features follow the one list: every function of `Function::ALL` that has
//! built-in tables (every constant with a default), and every format of `Format::ALL`, has
//! its feature, a function without them has none, and the umbrella
//! features `all-functions` and `all-formats` name exactly those, in order.
//! (CI's feature matrix reads the umbrellas, so it follows the list too.)

use actlut_codegen::{Format, Function};

/// The features of the umbrella `name` in this crate's Cargo.toml, and every
/// declared feature.
fn features() -> (Vec<String>, Vec<String>, Vec<String>) {
    let toml = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"))
        .expect("read Cargo.toml");
    let section = toml
        .split("\n[features]\n")
        .nth(1)
        .expect("a [features] table");
    let section = section.split("\n[").next().unwrap();
    // `name = [ "a", "b", ... ]`, possibly over several lines.
    let mut declared = Vec::new();
    let mut umbrellas = std::collections::HashMap::new();
    let mut rest = section;
    while let Some(eq) = rest.find(" = [") {
        let name = rest[..eq].rsplit('\n').next().unwrap().trim().to_string();
        let close = rest[eq..].find(']').expect("a closing bracket") + eq;
        let members: Vec<String> = rest[eq + 4..close]
            .split(',')
            .map(|m| m.trim().trim_matches('"').to_string())
            .filter(|m| !m.is_empty())
            .collect();
        declared.push(name.clone());
        umbrellas.insert(name, members);
        rest = &rest[close + 1..];
    }
    (
        umbrellas.remove("all-functions").expect("all-functions"),
        umbrellas.remove("all-formats").expect("all-formats"),
        declared,
    )
}

#[test]
fn every_function_and_format_has_its_feature_and_the_umbrellas_cover_exactly_them() {
    let (functions, formats, declared) = features();
    let want: Vec<&str> = Function::ALL
        .iter()
        .filter(|f| f.has_defaults())
        .map(|f| f.feature())
        .collect();
    assert_eq!(
        functions, want,
        "Cargo.toml's `all-functions` must list the feature of every function of Function::ALL \
         with built-in tables, in order"
    );
    for f in Function::ALL.iter().filter(|f| !f.has_defaults()) {
        assert!(
            !declared.iter().any(|d| d == f.feature()),
            "{} has no built-in tables, and so no feature",
            f.name()
        );
    }
    let want: Vec<&str> = Format::ALL.iter().map(|f| f.feature()).collect();
    assert_eq!(
        formats, want,
        "Cargo.toml's `all-formats` must list the feature of every format of Format::ALL, in order"
    );
    for feature in functions.iter().chain(&formats) {
        assert!(
            declared.contains(feature),
            "Cargo.toml declares no feature `{feature} = []`"
        );
    }
}
