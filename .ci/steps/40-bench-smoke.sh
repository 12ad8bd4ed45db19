# Smoke test of the benches and the quickstart: every benchmark runs once,
# untimed (criterion's --test mode), and the README's main command runs to
# completion (it exits non-zero if a table's hash differs from the lock). The
# benches build in the dev profile: they time nothing here, and so they share
# the library's debug build with the test steps instead of optimising it and
# criterion once more. The quickstart is the README's command, as written.
set -euo pipefail
cargo bench --profile dev --bench lookup -- --test
cargo bench --profile dev --bench mx -- --test
cargo bench --profile dev --bench kernels -- --test
cargo bench --profile dev --bench compact -- --test
cargo bench --profile dev --bench quant -- --test
cargo bench --profile dev --features alloc --bench quant16 -- --test
cargo bench --profile dev --features self-check,compact --bench self_check -- --test
cargo run --release --example quickstart
