//! The tests of every generated entry point, generated with them from
//! `Function::ALL × Format::ALL` into `tests/generated/api.rs` by `cargo xtask regenerate-api`
//! (rustfmt leaves the generated text as the generator writes it), with the helpers that hold
//! their assertions in `tests/support/api.rs`.

mod support {
    pub mod api;
}

#[rustfmt::skip]
mod generated {
    mod api;
}
