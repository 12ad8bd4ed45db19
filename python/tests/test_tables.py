"""`actlut.table` gives the crate's tables: every one equals the file
`actlut dump` writes and hashes to the lock's SHA-256."""

import hashlib

import ml_dtypes
import numpy as np
import pytest

import actlut
from conftest import lock_rows

def ml_dtypes_floats():
    """Every float dtype of ml_dtypes, by name (from ml_dtypes itself), and numpy's float16."""
    names = [n for n in dir(ml_dtypes) if n.startswith(("float", "bfloat"))]
    out = {"float16": np.dtype(np.float16)}
    for n in names:
        try:
            ml_dtypes.finfo(getattr(ml_dtypes, n))
        except (TypeError, ValueError):
            continue
        out[n] = np.dtype(getattr(ml_dtypes, n))
    return out


def test_functions_and_formats_are_the_locks_in_the_crates_order():
    rows = lock_rows()
    fns = list(dict.fromkeys(r[1] for r in rows))
    fmts = list(dict.fromkeys(r[2] for r in rows))
    # Every function has built-in tables but the four with a constant without default.
    without_default = {"softcap", "prelu", "gelu_clipped", "xielu"}
    assert sorted(f for f in actlut.functions() if f not in without_default) == sorted(fns)
    assert without_default <= set(actlut.functions())
    assert actlut.formats() == fmts
    assert actlut.functions()[:3] == ["gelu", "gelu_tanh", "sigmoid"]
    assert actlut.formats()[0] == "f16" and actlut.formats()[-1] == "fp8_e8m0fnu"


def test_every_float_dtype_of_ml_dtypes_is_the_dtype_of_a_format():
    floats = ml_dtypes_floats()
    assert len(floats) == 14, sorted(floats)  # ml_dtypes 0.7: 13 float dtypes, and float16
    for name, dt in floats.items():
        fmt = actlut.dtype_name(name)
        assert fmt == name
        assert actlut.dtype(name) == dt, name
        assert actlut.dtype(dt) == dt, name
        assert actlut.table("gelu", name).dtype == dt, name
        assert actlut.table("gelu", dt).dtype == dt, name
    assert {actlut.dtype_name(f) for f in actlut.formats()} == set(floats)


@pytest.mark.parametrize("fmt", actlut.formats())
def test_each_format_has_its_ml_dtypes_dtype(fmt):
    dt = actlut.dtype(fmt)
    assert dt == ml_dtypes_floats()[actlut.dtype_name(fmt)]
    assert actlut.dtype(fmt.replace("_", "-")) == dt
    assert actlut.table("exp", fmt).dtype == dt


def test_other_libraries_names_mean_what_they_mean_there():
    e4m3fn = actlut.table("gelu", "fp8_e4m3").view(np.uint8)
    for name in ["float8_e4m3fn", "e4m3fn", "torch.float8_e4m3fn", "FLOAT8E4M3FN", ml_dtypes.float8_e4m3fn]:
        assert np.array_equal(actlut.table("gelu", name).view(np.uint8), e4m3fn), name
    # ml_dtypes' float8_e4m3 is the IEEE-like E4M3 (with infinities), never fp8_e4m3.
    assert actlut.dtype("float8_e4m3") == np.dtype(ml_dtypes.float8_e4m3)
    assert actlut.table("gelu", "float8_e4m3").dtype == np.dtype(ml_dtypes.float8_e4m3)
    with pytest.raises(ValueError, match="fp8_e4m3ieee"):
        actlut.table("gelu", "e4m3")
    with pytest.raises(ValueError, match="fp4_e2m1"):
        actlut.table("gelu", "torch.float4_e2m1fn_x2")
    with pytest.raises(TypeError, match="format must be a str"):
        actlut.table("gelu", 3.5)


def test_every_table_equals_its_dump_file_and_the_locks_hash(dump_dir):
    rows = lock_rows()
    # One table per (function, format) pair the crate has a table for.
    pairs = [(f, m) for m in actlut.formats() for f in actlut.functions() if actlut._actlut.has_table(f, m)]
    assert len(rows) == len(pairs) > 200
    for name, function, fmt, entries, sha in rows:
        t = actlut.table(function, fmt)
        assert t.dtype == actlut.dtype(fmt), name
        assert t.shape == (entries,), name
        bits = t.view(np.uint16).astype("<u2") if t.itemsize == 2 else t.view(np.uint8)
        data = bits.tobytes()
        assert data == (dump_dir / f"{name}.bin").read_bytes(), name
        assert hashlib.sha256(data).hexdigest() == sha, name


def test_pairs_without_a_table_are_value_errors_that_say_why():
    have = {(r[1], r[2]) for r in lock_rows()}
    functions = dict.fromkeys(r[1] for r in lock_rows())
    missing = [(f, m) for f in functions for m in actlut.formats() if (f, m) not in have]
    assert ("log", "fp4_e2m1") in missing and ("rsqrt", "fp6_e2m3") in missing
    for f, m in missing:
        with pytest.raises(ValueError, match="has no NaN"):
            actlut.table(f, m)


def test_feature_names_work_and_unknown_names_are_value_errors_naming_them():
    assert np.array_equal(
        actlut.table("gelu-tanh", "fp8-e4m3").view(np.uint8),
        actlut.table("gelu_tanh", "fp8_e4m3").view(np.uint8),
    )
    with pytest.raises(ValueError, match="unknown function name `gelux`"):
        actlut.table("gelux", "f16")
    with pytest.raises(ValueError, match="unknown format name `f17`"):
        actlut.table("gelu", "f17")
    with pytest.raises(TypeError, match="function must be a str"):
        actlut.table(3, "f16")


def test_gelu_of_one_is_phi_of_one_rounded_to_f16():
    # Φ(1) = 0.841344746…; the f16 values around it are 0.8413 (0x3abb) and 0.8418.
    assert actlut.table("gelu", "f16")[0x3C00] == np.float16(0.8413)
    assert actlut.table("gelu", "f16").view(np.uint16)[0x3C00] == 0x3ABB
