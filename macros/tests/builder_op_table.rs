//! The builder's op tables (`actlut_codegen::builder::Builder::op_table`) and the `table!`
//! macro's, compiled into a program: the same entries as `actlut::fill_table`, and a
//! declaration record that parses and states the table's length and SHA-256.

use actlut_codegen::builder::Builder;
use actlut_codegen::{Format, Op};
use std::path::Path;

#[test]
fn builder_and_macro_op_tables_are_declared_and_equal_the_run_time_tables() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("builder-op-table");
    std::fs::create_dir_all(&dir).unwrap();
    let op = |s: &str| s.parse::<Op>().unwrap();
    let mut b = Builder::new();
    b.op_table("SOFTCAP_30", &op("softcap(cap=30)"), Format::Bf16)
        .unwrap()
        .op_table("LEAKY_E4M3", &op("leaky_relu(alpha=0.2)"), Format::Fp8E4M3)
        .unwrap();
    b.write_to(&dir.join("tables.rs")).unwrap();
    let main = r#"
include!("tables.rs");

actlut::table!(static MACRO_SOFTCAP_30: softcap(cap = 30) -> bf16);

use actlut_codegen::record::{Declaration, Representation};

fn main() {
    let op: actlut::Op = "softcap(cap=30)".parse().unwrap();
    let mut t = [0u16; 65536];
    actlut::fill_table(&op, actlut::Format::Bf16, &mut t).unwrap();
    assert_eq!(SOFTCAP_30[..], t[..]);
    assert_eq!(MACRO_SOFTCAP_30[..], t[..]);
    let bytes: Vec<u8> = t.iter().flat_map(|v| v.to_le_bytes()).collect();
    let sha = actlut_codegen::sha256(&bytes);
    assert_eq!(SOFTCAP_30_SHA256, sha);
    for record in [__ACTLUT_DECLARED_SOFTCAP_30.record(), __ACTLUT_DECLARED_MACRO_SOFTCAP_30.record()] {
        let d = Declaration::parse(record).unwrap();
        assert_eq!((d.representation, d.width, d.len, d.sha256), (Representation::Full, 2, 131_072, sha));
        // A version-2 record: its long name field holds the op whole.
        assert_eq!((d.version, d.name()), (2, "softcap(cap=30)_bf16"));
    }
    let op: actlut::Op = "leaky_relu(alpha=0.2)".parse().unwrap();
    let mut t = [0u8; 256];
    actlut::fill_table(&op, actlut::Format::Fp8E4M3, &mut t).unwrap();
    assert_eq!(LEAKY_E4M3[..], t[..]);
    let d = Declaration::parse(__ACTLUT_DECLARED_LEAKY_E4M3.record()).unwrap();
    assert_eq!((d.width, d.len, d.sha256), (1, 256, actlut_codegen::sha256(&t)));
    assert_eq!(d.name(), "leaky_relu(alpha=0.2)_fp8_e4m3");
}
"#;
    std::fs::write(dir.join("main.rs"), main).unwrap();
    trybuild::TestCases::new().pass(dir.join("main.rs"));
}
