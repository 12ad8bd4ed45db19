//! The tests of every generated entry point, generated with them from
//! `Function::ALL × Format::ALL` into `tests/generated/api.rs` by
//! `cargo run -p actlut-codegen --example regenerate-api` (rustfmt leaves the
//! generated text as the generator writes it).

#[rustfmt::skip]
mod generated {
    mod api;
}
