"""The package's speed, measured side by side in one process.

    python python/bench/bench.py           the measurement (docs/python.md's figures)
    python python/bench/bench.py --smoke   a few repetitions: checks that it runs (CI)

1. ``actlut.grade`` of a 65,536-entry f16 array (the exact gelu table,
   numpy's naive float16 sigmoid, whose wrong entries it prints, and an array
   whose every entry is wrong, the most the report's tolerance counts and
   midpoints cost): the median wall time of a call, perf_counter around it;
   and the first call of the process, which also ranks the format's values.
2. ``actlut.apply`` on 1 Mi (2^20) bf16 elements of N(0, 1) (seeded), with a
   preallocated ``out=`` and allocating its result, beside the crate's
   ``Activation::map_bf16`` on the same two buffers, timed in the extension
   itself (``_actlut.time_map_bf16``: Instant around the Rust call, no Python
   in between). The calls are interleaved, one of each per round, and the
   ratio is of the medians.

3. ``actlut.testing.position_report`` over every bf16 input with its default
   probe (every length 1 to 300, 4 offsets: 1.36 million calls) of two
   numpy-speed kernels: ml_dtypes' ``np.exp`` on bfloat16, and a kernel exact
   in 16-wide blocks whose scalar tail computes in float32 (one run each, wall
   time; in smoke mode, lengths 1 and 2 only).

Timings on a shared machine are noisy: read the ratios. This is a benchmark,
not a test: the smoke mode fails only if something errs, never on a time.
"""

from __future__ import annotations

import platform
import statistics
import sys
import time

import ml_dtypes
import numpy as np

import actlut
from actlut import _actlut


def cpu() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def median_ms(f, reps: int) -> float:
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        f()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts) * 1e3


def main() -> None:
    smoke = "--smoke" in sys.argv[1:]
    reps = 3 if smoke else 50
    rounds = 3 if smoke else 200

    exact = actlut.table("gelu", "f16")
    x16 = np.arange(65536, dtype=np.uint16).view(np.float16)
    with np.errstate(all="ignore"):
        naive = (1 / (1 + np.exp(-x16))).astype(np.float16)
    t0 = time.perf_counter()
    actlut.grade("gelu", "f16", exact)  # the first call also ranks f16's values (once per process)
    g_first = (time.perf_counter() - t0) * 1e3
    g_exact = median_ms(lambda: actlut.grade("gelu", "f16", exact), reps)
    g_naive = median_ms(lambda: actlut.grade("sigmoid", "f16", naive), reps)
    wrong = actlut.grade("sigmoid", "f16", naive).mismatches
    # Every entry wrong: one bit off, and a number where NaN is due.
    e = exact.view(np.uint16)
    all_wrong = np.where(np.isnan(exact), np.uint16(0x3C00), e ^ np.uint16(1)).view(np.float16)
    g_all = median_ms(lambda: actlut.grade("gelu", "f16", all_wrong), reps)
    assert actlut.grade("gelu", "f16", all_wrong).mismatches == 65536

    rng = np.random.default_rng(0x5EED)
    x = rng.standard_normal(1 << 20, dtype=np.float32).astype(ml_dtypes.bfloat16)
    y = np.empty_like(x)
    y_rust = np.empty_like(x)
    xb, yb = x.view(np.uint16), y_rust.view(np.uint16)
    # One untimed round first: the output pages are touched once, by each.
    _actlut.time_map_bf16("gelu", xb, yb, 1)
    actlut.apply("gelu", x, out=y)
    rust, py_out, py_alloc = [], [], []
    for _ in range(rounds):
        rust.append(_actlut.time_map_bf16("gelu", xb, yb, 1)[0])
        t0 = time.perf_counter()
        actlut.apply("gelu", x, out=y)
        py_out.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        actlut.apply("gelu", x)
        py_alloc.append(time.perf_counter() - t0)
    assert np.array_equal(y.view(np.uint16), y_rust.view(np.uint16)), "apply differs from map_bf16"
    r, o, a = (statistics.median(v) * 1e3 for v in (rust, py_out, py_alloc))

    from actlut import testing as actlut_testing

    bf16 = actlut.dtype("bf16")
    table = actlut.table("gelu", "bf16").view(np.uint16)
    with np.errstate(all="ignore"):
        cast = actlut.apply("gelu", np.arange(65536, dtype=np.uint16).view(bf16).astype(np.float32))
    cast = cast.astype(bf16).view(np.uint16)

    def blocks_of_16(x):
        b = x.view(np.uint16)
        n = b.size - b.size % 16
        y = np.empty_like(b)
        y[:n] = table[b[:n]]
        y[n:] = cast[b[n:]]
        return y.view(bf16)

    def exp_bf16(x):
        with np.errstate(all="ignore"):
            return np.exp(x)

    lengths = (1, 2) if smoke else actlut_testing.DEFAULT_LENGTHS
    probes = []
    for name, function, kernel in (("ml_dtypes np.exp", "exp", exp_bf16), ("blocks of 16, float32 tail", "gelu", blocks_of_16)):
        t0 = time.perf_counter()
        rep = actlut_testing.position_report(function, "bf16", kernel, lengths=lengths)
        probes.append((name, time.perf_counter() - t0, rep))

    print(f"actlut {actlut.__version__}, numpy {np.__version__}, ml_dtypes {ml_dtypes.__version__}, "
          f"Python {platform.python_version()}; {cpu()}" + ("; smoke mode: a few rounds, not a measurement" if smoke else ""))
    print(f"grade, first call in the process (ranks f16's values): {g_first:8.3f} ms")
    print(f"grade, 65,536 f16 outputs, exact gelu table:          {g_exact:8.3f} ms (median of {reps})")
    print(f"grade, 65,536 f16 outputs, naive sigmoid ({wrong:,} wrong): {g_naive:8.3f} ms (median of {reps})")
    print(f"grade, 65,536 f16 outputs, every one wrong:           {g_all:8.3f} ms (median of {reps})")
    print(f"map_bf16 (Rust, in the extension), 1 Mi bf16 gelu:    {r:8.3f} ms (median of {rounds})")
    print(f"apply(out=y), 1 Mi bf16 gelu:                         {o:8.3f} ms  {o / r:5.2f}x map_bf16")
    print(f"apply (allocating its result), 1 Mi bf16 gelu:        {a:8.3f} ms  {a / r:5.2f}x map_bf16")
    for name, seconds, rep in probes:
        print(f"position_report, every bf16 input, {name}: {seconds:6.1f} s "
              f"({rep.calls:,} calls, {rep.count:,} inputs position-dependent)")


if __name__ == "__main__":
    main()
