//! Unit tests of declaration records, manifest records and op names, through
//! the crate's API.

use actlut_audit::declared::{
    Declaration, Declared, FoundBy, Representation, StoredOrder, DECLARATION_NAME_AT,
    DECLARATION_SHA_AT,
};
use actlut_audit::manifest::{Record, MARK};
use actlut_audit::ops::{is_op_text, recompute, split_name, Recomputed};
use actlut_audit::{Index, Reference};
use actlut_codegen::Format;

mod declared {
    use super::*;
    use actlut_codegen::{Format, Function};

    fn known() -> (Index, Declaration, Vec<u8>) {
        let r = Reference::generate(Function::Tanh, Format::Fp8E4M3);
        let bytes = r.bytes_le.clone();
        let d = Declaration::new(
            "tanh_fp8_e4m3",
            Representation::Full,
            1,
            StoredOrder::Little,
            256,
            r.sha256,
        );
        let mut file = d.to_bytes().to_vec();
        file.extend_from_slice(&bytes);
        (Index::new(vec![r]), d, file)
    }

    #[test]
    fn an_intact_declaration_passes_and_every_changed_byte_of_it_or_its_table_is_a_problem() {
        let (k, _, file) = known();
        let ok = k.judge_declaration(0, &file, None).expect("a record");
        assert_eq!(ok.problem(), None);
        for i in 0..file.len() {
            let mut f = file.clone();
            f[i] ^= 0x01;
            let j = k.judge_declaration(0, &f, None);
            assert!(
                j.as_ref().and_then(Declared::problem).is_some(),
                "byte {i} changed: {j:?}"
            );
        }
    }

    #[test]
    fn a_record_whose_marker_was_changed_is_found_while_two_other_fields_hold() {
        let (k, _, file) = known();
        let mut f = file.clone();
        f[..8].copy_from_slice(b"XXXXXXXX");
        let j = k
            .judge_declaration(0, &f, None)
            .expect("found by its fields");
        assert_eq!(j.found_by, FoundBy::Fields(4));
        assert!(j.problem().unwrap().contains("marker was changed"));
        // Marker, header and name changed: hash and table start remain.
        f[8..16].fill(0xEE);
        f[DECLARATION_NAME_AT] = b'x';
        assert_eq!(
            k.judge_declaration(0, &f, None).map(|j| j.found_by),
            Some(FoundBy::Fields(2))
        );
        // And the hash too: no longer recognisable.
        f[DECLARATION_SHA_AT + 3] ^= 1;
        assert_eq!(k.judge_declaration(0, &f, None), None);
    }
}

mod manifest {
    use super::*;
    use actlut_codegen::record::name_field;

    fn record(marker: &[u8; 8], name: &str, hash: [u8; 32]) -> std::vec::Vec<u8> {
        let mut b = marker.to_vec();
        b.extend_from_slice(&name_field(name).unwrap());
        b.extend_from_slice(&hash);
        b
    }

    #[test]
    fn a_name_field_without_marker_and_with_a_filled_hash_is_no_record() {
        for fill in [0u8, 0xFF] {
            let b = record(b"gelubf16", "gelu_bf16", [fill; 32]);
            assert_eq!(Record::parse(&b, 0, true), None);
        }
        // With its marker it is one (and its zero hash a problem), and
        // without the marker any other hash is one too.
        let b = record(&MARK, "gelu_bf16", [0; 32]);
        assert!(Record::parse(&b, 0, true).is_some_and(|r| r.marked));
        let mut hash = [0u8; 32];
        hash[31] = 1;
        let b = record(b"gelubf16", "gelu_bf16", hash);
        assert!(Record::parse(&b, 0, true).is_some_and(|r| !r.marked));
    }
}

mod ops {
    use super::*;

    #[test]
    fn op_names_split_into_an_op_and_a_format() {
        assert_eq!(
            split_name("leaky_relu_derivative(alpha=0.01)_fp8_e4m3fnuz"),
            Some(("leaky_relu_derivative(alpha=0.01)", Format::Fp8E4M3Fnuz))
        );
        assert_eq!(split_name("gelu_fp8_e4m3"), Some(("gelu", Format::Fp8E4M3)));
        assert!(is_op_text("gelu_derivative"));
        assert!(is_op_text("elu(alpha=0.5)"));
        assert!(is_op_text("selu(alpha=1.5,lambda=1.05)"));
        assert!(is_op_text("elu(alpha=-1.5e-3)"));
        for bad in [
            "nope",
            "gelu(",
            "gelu()",
            "elu(alpha)",
            "elu(alpha=x)",
            "elu(Alpha=1)",
            "elu(alpha=1.2.3)",
        ] {
            assert!(!is_op_text(bad), "{bad}");
        }
        assert_eq!(recompute("nothing_at_all"), Recomputed::NotAnOp);
        assert!(matches!(
            recompute("elu(alpha=0.5)_bf16"),
            Recomputed::Unavailable(_)
        ));
    }
}
