# Every entry of every table against MPFR (rug, 256+ bits, raised near ties).
# The first build compiles GMP and MPFR from source (needs m4; about 4 minutes).
set -euo pipefail
# Its lints here, in release: the clippy run shares the GMP build with the tests.
cargo clippy -p actlut-oracle --release --all-targets -- -D warnings
cargo test -p actlut-oracle --release -- --nocapture
