//! Reading the committed ml_dtypes vector files (`tests/vectors/*.txt`, written by
//! `scripts/fp8_vectors.py`), shared by the tests that compare against them.

/// `(a, b)` pairs of a vector file: two hexadecimal numbers a line, `#` lines are
/// comments. A line with another number of columns is a broken file (a panic naming it).
pub fn vectors(text: &str) -> Vec<(u32, u32)> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut it = l
                .split_whitespace()
                .map(|h| u32::from_str_radix(h, 16).unwrap());
            let v = (it.next().unwrap(), it.next().unwrap());
            assert!(it.next().is_none(), "{l}");
            v
        })
        .collect()
}
