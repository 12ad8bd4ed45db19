//! Unit tests of the scan's private state (the rest: `audit/tests/audit/scan.rs`).

use actlut_codegen::{Format, Function};

use crate::scan::LOOKAHEAD;
use crate::*;

fn small_index() -> (Index, Vec<Reference>) {
    let refs = merge_aliases(vec![
        Reference::generate(Function::Gelu, Format::F16),
        Reference::generate(Function::Silu, Format::F16),
        Reference::generate(Function::Gelu, Format::Fp8E4M3),
        Reference::generate(Function::GeluTanh, Format::Fp8E4M3),
        Reference::generate(Function::Exp, Format::Fp8E5M2),
        Reference::generate(Function::Silu, Format::Fp8E4M3),
    ]);
    (Index::new(refs.clone()), refs)
}

/// `len` pseudo-random bytes (xorshift), the same for the same seed: what the
/// unit tests embed tables in.
pub(crate) fn noise(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

fn summary(r: &Report) -> Vec<(u64, ByteOrder, &str, Verdict, usize)> {
    r.found
        .iter()
        .map(|f| {
            (
                f.offset,
                f.order,
                f.names[0].as_str(),
                f.verdict,
                f.differing,
            )
        })
        .collect()
}

/// Asserts that `r` reports exactly `expected`, and besides them only the
/// same bytes read a byte off in the other byte order as a damaged copy of
/// the same table: a damaged copy clears nothing, so its other-order read,
/// which shares its evidence, is judged and reported too (the scan's one
/// rule; see `finish`).
#[test]
fn memory_stays_bounded_while_feeding_piece_by_piece() {
    let (index, refs) = small_index();
    let mut s = Scanner::new(&index);
    let mut data = noise(3_000_000, 11);
    data[2_000_000..2_131_072].copy_from_slice(&refs[0].bytes_le);
    for piece in data.chunks(4093) {
        s.feed(piece);
        assert!(s.buf.len() <= 2 * index.max_len + 4093 + LOOKAHEAD);
    }
    let r = s.finish();
    assert_eq!(
        summary(&r),
        [(2_000_000, ByteOrder::Little, "gelu_f16", Verdict::Intact, 0)]
    );
}

/// The cover forgets what lies behind the scan (exact copies a byte apart grew it 36 B a copy).
#[test]
fn the_cover_does_not_grow_with_exact_copies() {
    let r = Reference::generate(Function::Gelu, Format::Fp8E8M0Fnu);
    let copies = [&r.bytes_le[..], &[0xAA]].concat().repeat(32_768);
    let index = Index::new(vec![r]);
    let mut s = Scanner::new(&index);
    for piece in copies.chunks(1 << 16) {
        s.feed(piece);
        let most = (2 * index.max_len + (1 << 16)) / 256 + 1;
        assert!(s.cover.0.len() <= most && s.cover.1.len() <= most);
    }
}
