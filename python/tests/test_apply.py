"""`actlut.apply` is the table lookup: on every f16 and bf16 input and every
code of the byte formats, for every function, through contiguous, reversed,
strided 2-D, transposed and 0-d arrays, with `out=`, in place and with an
overlapping `out`. The expected values are numpy's own indexing of the table
(`table[bits]`), not the kernels."""

import sys
import threading
import time

import ml_dtypes
import numpy as np
import pytest

import actlut
from conftest import lock_rows

#: The functions with built-in tables: every constant with a default (softcap, prelu,
#: gelu_clipped and xielu have a constant without one; test_ops.py tests them).
BUILTIN = list(dict.fromkeys(r[1] for r in lock_rows()))

PAIRS = [
    (f, m)
    for m in actlut.formats()
    for f in BUILTIN
    if not (f in ("log", "rsqrt") and m.startswith(("fp6", "fp4")))
]


def inputs(fmt):
    n = {"f16": 65536, "bf16": 65536}.get(fmt)
    if n:
        return np.arange(n, dtype=np.uint16).view(actlut.dtype(fmt))
    n = {"fp6_e2m3": 64, "fp6_e3m2": 64, "fp4_e2m1": 16}.get(fmt, 256)
    return np.arange(n, dtype=np.uint8).view(actlut.dtype(fmt))


def bits(a):
    return a.view(np.uint16 if a.itemsize == 2 else np.uint8)


def expected(function, fmt, x):
    """The table entry of every element, by numpy's fancy indexing."""
    return bits(actlut.table(function, fmt))[bits(x)]


def check(function, fmt, x, y):
    assert y.dtype == x.dtype and y.shape == x.shape
    want = expected(function, fmt, x)
    got = bits(y)
    if not np.array_equal(got, want):
        i = np.flatnonzero(got.ravel() != want.ravel())[0]
        xi = bits(x).ravel()[i]
        pytest.fail(
            f"{function}_{fmt} at input 0x{xi:x}: got 0x{got.ravel()[i]:x}, table 0x{want.ravel()[i]:x}"
        )


def layouts(x):
    """The same inputs seen through several layouts."""
    n = x.size
    side = 256 if n == 65536 else (16 if n == 256 else (8 if n == 64 else 4))
    two = x.reshape(side, n // side)
    doubled = np.repeat(x, 2)  # every input, then read with a stride of 2
    return {
        "contiguous": x,
        "reversed": x[::-1],
        "strided 2-D": two[::-1, :],
        "strided 2-D, every other column": np.concatenate([two, two], axis=1)[:, ::2],
        "transposed": two.T,
        "stride 2": doubled[::2],
        "3-D": x.reshape(2, side // 2, n // side),
    }


@pytest.mark.parametrize("function,fmt", PAIRS)
def test_apply_is_the_table_lookup_on_every_input_through_every_layout(function, fmt):
    x = inputs(fmt)
    for name, view in layouts(x).items():
        check(function, fmt, view, actlut.apply(function, view))
        # out= a strided array of the same shape
        out = np.empty(view.shape[::-1], dtype=view.dtype).T
        r = actlut.apply(function, view, out=out)
        assert r is out, name
        check(function, fmt, view, out)


@pytest.mark.parametrize("function,fmt", PAIRS)
def test_apply_in_place_and_with_overlapping_out_is_the_table_lookup(function, fmt):
    x = inputs(fmt)
    for view_of in (lambda a: a, lambda a: a[::-1], lambda a: a.reshape(4, -1).T):
        y = x.copy()
        v = view_of(y)
        before = v.copy()
        assert actlut.apply(function, v, out=v) is v
        check(function, fmt, before, v)
    # out shifted by one element over x: the result is that of the original x.
    buf = np.concatenate([x, x[:1]])
    src, dst = buf[:-1], buf[1:]
    want = expected(function, fmt, src.copy())
    actlut.apply(function, src, out=dst)
    assert np.array_equal(bits(dst), want)


@pytest.mark.parametrize("fmt", actlut.formats())
def test_apply_on_0d_arrays_is_the_table_lookup_for_every_input(fmt):
    function = "gelu"
    x = inputs(fmt)
    table = bits(actlut.table(function, fmt))
    for b in bits(x):
        a = np.array(b).view(x.dtype).reshape(())
        y = actlut.apply(function, a)
        assert y.shape == () and y.dtype == x.dtype
        assert bits(y)[()] == table[b], f"0x{b:x}"
    for function, f in PAIRS:
        if f == fmt:
            a = x[7:8].reshape(())
            assert bits(actlut.apply(function, a))[()] == bits(actlut.table(function, fmt))[7]


def test_apply_on_an_empty_array_is_empty():
    x = np.zeros((0, 3), dtype=np.float16)
    assert actlut.apply("gelu", x).shape == (0, 3)


def test_apply_f32_rounds_once_where_its_f16_and_bf16_roundings_are_not_ties():
    """The computed float32 path against the exact f16 and bf16 tables: over
    every f16 (and bf16) input, the float32 result rounded to f16 (bf16) is the
    table's entry, except where that second rounding is a tie (double rounding:
    the float32 result lies exactly halfway between two f16 values)."""
    for fmt, dt in (("f16", np.float16), ("bf16", ml_dtypes.bfloat16)):
        x = inputs(fmt)
        x32 = x.astype(np.float32)
        for function in BUILTIN:
            y32 = actlut.apply(function, x32)
            assert y32.dtype == np.float32
            table = actlut.table(function, fmt)
            with np.errstate(over="ignore"):
                r = y32.astype(dt)
            both_nan = np.isnan(r.astype(np.float32)) & np.isnan(table.astype(np.float32))
            differ = (bits(r) != bits(table)) & ~both_nan
            for i in np.flatnonzero(differ):
                v, a, b = float(y32[i]), float(table[i]), float(r[i])
                assert abs(v - a) == abs(v - b), (
                    f"{function} at {fmt} input 0x{i:x}: float32 {v!r} rounds to {b!r}, table {a!r}"
                )


def test_apply_f32_on_strided_arrays_and_in_place_matches_contiguous():
    x = np.linspace(-8, 8, 4001, dtype=np.float32)
    want = actlut.apply("silu", x)
    assert np.array_equal(actlut.apply("silu", x[::-1]), want[::-1])
    y = x.copy()
    actlut.apply("silu", y, out=y)
    assert np.array_equal(y, want)


def test_bad_input_is_a_type_or_value_error_naming_the_problem():
    x = inputs("f16")
    with pytest.raises(TypeError, match="float64 has no exact path"):
        actlut.apply("gelu", x.astype(np.float64))
    with pytest.raises(TypeError, match="no gelu for dtype int16"):
        actlut.apply("gelu", np.zeros(3, np.int16))
    with pytest.raises(TypeError, match="no gelu for dtype >f2"):
        actlut.apply("gelu", x.astype(">f2"))
    with pytest.raises(ValueError, match="unknown function name `gelux`"):
        actlut.apply("gelux", x)
    with pytest.raises(ValueError, match="there is no log_fp4_e2m1 table"):
        actlut.apply("log", inputs("fp4_e2m1"))
    with pytest.raises(TypeError, match="out has dtype bfloat16"):
        actlut.apply("gelu", x, out=np.empty(x.shape, ml_dtypes.bfloat16))
    with pytest.raises(ValueError, match=r"out has shape \(3,\)"):
        actlut.apply("gelu", x, out=np.empty(3, np.float16))
    ro = x.copy()
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        actlut.apply("gelu", x, out=ro)
    bad = np.array([0x01, 0x40], dtype=np.uint8).view(ml_dtypes.float6_e2m3fn)
    with pytest.raises(ValueError, match="0x40 is not a fp6_e2m3 code"):
        actlut.apply("gelu", bad)


def test_apply_releases_the_gil():
    """Another Python thread runs while apply works on a large array: the
    counter thread advances during the calls (it could not if the GIL were
    held for their whole duration)."""
    x = np.zeros(1 << 24, dtype=np.float16)
    y = x.copy()
    ticks = []
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0)  # lets the main thread take the GIL back at once

    old = sys.getswitchinterval()
    # No forced switches: the counter runs only when the main thread releases the GIL.
    sys.setswitchinterval(100.0)
    t = threading.Thread(target=count)
    t.start()
    try:
        time.sleep(0.01)  # the counter starts and waits for the GIL
        during = 0
        for _ in range(3):
            before = len(ticks)
            actlut.apply("gelu", x, out=y)
            during += len(ticks) - before
    finally:
        stop.set()
        sys.setswitchinterval(old)
        t.join()
    assert during > 0
