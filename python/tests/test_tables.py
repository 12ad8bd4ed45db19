"""`actlut.table` gives the crate's tables: every one equals the file
`actlut dump` writes and hashes to the lock's SHA-256."""

import hashlib

import ml_dtypes
import numpy as np
import pytest

import actlut
from conftest import lock_rows

DTYPES = {
    "f16": np.float16,
    "bf16": ml_dtypes.bfloat16,
    "fp8_e4m3": ml_dtypes.float8_e4m3fn,
    "fp8_e5m2": ml_dtypes.float8_e5m2,
    "fp8_e4m3fnuz": ml_dtypes.float8_e4m3fnuz,
    "fp8_e5m2fnuz": ml_dtypes.float8_e5m2fnuz,
    "fp6_e2m3": ml_dtypes.float6_e2m3fn,
    "fp6_e3m2": ml_dtypes.float6_e3m2fn,
    "fp4_e2m1": ml_dtypes.float4_e2m1fn,
}


def test_functions_and_formats_are_the_locks_in_the_crates_order():
    rows = lock_rows()
    fns = list(dict.fromkeys(r[1] for r in rows))
    fmts = list(dict.fromkeys(r[2] for r in rows))
    assert sorted(actlut.functions()) == sorted(fns)
    assert sorted(actlut.formats()) == sorted(fmts)
    assert actlut.functions()[:3] == ["gelu", "gelu_tanh", "sigmoid"]
    assert actlut.formats()[0] == "f16" and actlut.formats()[-1] == "fp4_e2m1"


@pytest.mark.parametrize("fmt", list(DTYPES))
def test_each_format_has_its_ml_dtypes_dtype(fmt):
    assert actlut.dtype(fmt) == np.dtype(DTYPES[fmt])
    assert actlut.dtype(fmt.replace("_", "-")) == np.dtype(DTYPES[fmt])


def test_every_table_equals_its_dump_file_and_the_locks_hash(dump_dir):
    rows = lock_rows()
    assert len(rows) == 156
    for name, function, fmt, entries, sha in rows:
        t = actlut.table(function, fmt)
        assert t.dtype == np.dtype(DTYPES[fmt]), name
        assert t.shape == (entries,), name
        bits = t.view(np.uint16).astype("<u2") if t.itemsize == 2 else t.view(np.uint8)
        data = bits.tobytes()
        assert data == (dump_dir / f"{name}.bin").read_bytes(), name
        assert hashlib.sha256(data).hexdigest() == sha, name


def test_pairs_without_a_table_are_value_errors_that_say_why():
    have = {(r[1], r[2]) for r in lock_rows()}
    missing = [(f, m) for f in actlut.functions() for m in actlut.formats() if (f, m) not in have]
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
    with pytest.raises(ValueError, match="unknown format `f17`"):
        actlut.table("gelu", "f17")
    with pytest.raises(TypeError, match="function must be a str"):
        actlut.table(3, "f16")


def test_gelu_of_one_is_phi_of_one_rounded_to_f16():
    # Φ(1) = 0.841344746…; the f16 values around it are 0.8413 (0x3abb) and 0.8418.
    assert actlut.table("gelu", "f16")[0x3C00] == np.float16(0.8413)
    assert actlut.table("gelu", "f16").view(np.uint16)[0x3C00] == 0x3ABB
