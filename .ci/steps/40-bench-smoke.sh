# Smoke test of the benches and the quickstart: every benchmark runs once,
# untimed (criterion's --test mode), and the README's main command runs to
# completion (it exits non-zero if a table's hash differs from the lock).
set -euo pipefail
cargo bench --bench lookup -- --test
cargo bench --bench mx -- --test
cargo bench --bench kernels -- --test
cargo bench --bench compact -- --test
cargo bench --bench quant -- --test
cargo bench --features alloc --bench quant16 -- --test
cargo run --release --example quickstart
