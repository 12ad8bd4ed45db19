"""`actlut.quant_table` is the table `actlut quant` writes, byte for byte, for
the cases of docs/quant16.md (TFLite 16x8 sigmoid and tanh, identity with
exact ties, uint16 gelu, int16 exp, hardswish, log with NaN results, f16 and
bf16 outputs) and 8-, 4- and 2-bit inputs; bad parameters are ValueErrors naming
them."""

import hashlib
import subprocess

import ml_dtypes
import numpy as np
import pytest

import actlut

# (function, in, scale, zero point, out, out scale, out zero point, rounding); the
# scales are exact binary fractions, so the decimal the command rounds to f32 and
# the Python float are the same number.
CASES = [
    ("sigmoid", "i16", "0.000244140625", 0, "i16", "0.000030517578125", 0, "ties-away"),
    ("tanh", "i16", "0.000244140625", 0, "i16", "0.000030517578125", 0, "ties-away"),
    ("sigmoid", "i16", "0.000244140625", 0, "i16", "0.000030517578125", 0, "ties-even"),
    ("identity", "i16", "0.0078125", 0, "i8", "2", 0, "ties-even"),
    ("identity", "i16", "0.0078125", 0, "i8", "2", 0, "ties-away"),
    ("gelu", "u16", "0.0009765625", 32768, "u16", "0.001953125", 16384, "ties-even"),
    ("exp", "i16", "0.0009765625", 0, "u16", "0.25", 0, "ties-even"),
    ("hardswish", "i16", "0.00048828125", -100, "i16", "0.000244140625", 3, "ties-away"),
    ("log", "u16", "0.0001220703125", 30000, "u16", "0.0009765625", 1000, "ties-even"),
    ("gelu", "i16", "0.000244140625", 0, "f16", None, None, None),
    ("silu", "u16", "0.00048828125", 32768, "bf16", None, None, None),
    ("tanh", "i16", "0.000244140625", 7, "f32", None, None, None),
    ("gelu", "i8", "0.0625", -3, "f32", None, None, None),
    ("sigmoid", "u8", "0.125", 128, "u8", "0.00390625", 0, "ties-even"),
    ("gelu", "i4", "0.5", 0, "f16", None, None, None),
    ("erf", "u4", "0.25", 8, "i8", "0.0078125", 0, "ties-away"),
    ("tanh", "i2", "0.75", -1, "f32", None, None, None),
    ("exp", "u2", "0.5", 2, "u8", "0.015625", 0, "ties-even"),
]

DTYPE = {
    "i16": np.int16, "u16": np.uint16, "i8": np.int8, "u8": np.uint8,
    "i4": ml_dtypes.int4, "u4": ml_dtypes.uint4,
    "i2": ml_dtypes.int2, "u2": ml_dtypes.uint2,
    "f32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16,
}


def cli_table(actlut_cli, tmp_path, case):
    fn, t_in, s, z, t_out, os_, oz, r = case
    path = tmp_path / "q.bin"
    args = [actlut_cli, "quant", fn, "--in", t_in, "--scale", s, "--zero-point", str(z), "--out", t_out]
    if os_ is not None:
        args += ["--out-scale", os_, "--out-zero-point", str(oz), "--rounding", r]
    p = subprocess.run(args + ["--output", str(path)], capture_output=True, text=True, check=True)
    data = path.read_bytes()
    assert p.stdout.split()[0] == hashlib.sha256(data).hexdigest()
    return data


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1]}-{c[4]}-{c[7]}")
def test_quant_table_is_the_commands_file(case, actlut_cli, tmp_path):
    fn, t_in, s, z, t_out, os_, oz, r = case
    kw = {} if os_ is None else {"out_scale": float(os_), "out_zero_point": oz, "rounding": r}
    # The dtypes as numpy/ml_dtypes types and as the command's names.
    a = actlut.quant_table(fn, DTYPE[t_in], float(s), z, DTYPE[t_out], **kw)
    b = actlut.quant_table(fn, t_in, np.float32(s), z, t_out, **kw)
    assert a.dtype == np.dtype(DTYPE[t_out])
    assert a.shape == ({"i16": 65536, "u16": 65536, "i8": 256, "u8": 256, "i2": 4, "u2": 4}.get(t_in, 16),)
    assert np.array_equal(a.view(np.uint8), b.view(np.uint8))
    assert a.astype(a.dtype.newbyteorder("<")).tobytes() == cli_table(actlut_cli, tmp_path, case)


def test_the_tflite_sigmoid_of_docs_quant16_has_the_documented_hash_and_entries():
    t = actlut.quant_table("sigmoid", np.int16, 1 / 4096, 0, np.int16, 1 / 32768, 0, "ties-away")
    assert hashlib.sha256(t.astype("<i2").tobytes()).hexdigest().startswith("959a999a94248f85")
    # Entry i is the code whose bits are i: 4096 is 1.0, 0xF000 (-4096) is -1.0.
    assert (t[0], t[4096], t[0xF000]) == (16384, 23955, 8813)


def test_bad_parameters_are_value_errors_naming_them():
    q = actlut.quant_table
    for bad in (0.0, -1.0, float("inf"), float("nan")):
        with pytest.raises(ValueError, match="scale = .*finite and positive"):
            q("gelu", np.int8, bad, 0, np.float32)
    with pytest.raises(ValueError, match="scale = 1e-50 rounds to 0.0 in float32"):
        q("gelu", np.int8, 1e-50, 0, np.float32)
    with pytest.raises(ValueError, match="scale = 1e300 rounds to inf"):
        q("gelu", np.int8, 1e300, 0, np.float32)
    with pytest.raises(ValueError, match="out_scale = 0.0"):
        q("gelu", np.int8, 0.1, 0, np.int8, 0.0, 0)
    with pytest.raises(ValueError, match=r"zero_point = 128 is outside i8 \(-128..=127\)"):
        q("gelu", np.int8, 0.1, 128, np.float32)
    with pytest.raises(ValueError, match="zero_point = 100000000000000000000 is outside"):
        q("gelu", np.int8, 0.1, 10**20, np.float32)
    with pytest.raises(ValueError, match=r"out_zero_point = 256 is outside u8"):
        q("gelu", np.int8, 0.1, 0, np.uint8, 0.1, 256)
    with pytest.raises(ValueError, match="out_scale and out_zero_point apply only"):
        q("gelu", np.int8, 0.1, 0, np.float16, 0.1)
    with pytest.raises(ValueError, match="needs out_scale"):
        q("gelu", np.int8, 0.1, 0, np.int8)
    with pytest.raises(ValueError, match="so small|normal"):
        q("gelu", np.int16, 2.0**-145, 0, np.float32)
    with pytest.raises(ValueError, match="unknown function name `gelux`: expected one of .*identity"):
        q("gelux", np.int8, 0.1, 0, np.float32)
    with pytest.raises(ValueError, match="in_dtype"):
        q("gelu", np.float16, 0.1, 0, np.float32)
    with pytest.raises(ValueError, match="out_dtype"):
        q("gelu", np.int8, 0.1, 0, np.int32)
    with pytest.raises(ValueError, match='rounding "nearest": expected "ties-even" or "ties-away"'):
        q("gelu", np.int8, 0.1, 0, np.int8, 0.1, 0, "nearest")
    with pytest.raises(TypeError, match="zero_point must be an integer"):
        q("gelu", np.int8, 0.1, 1.5, np.float32)
    with pytest.raises(TypeError, match="scale must be a number"):
        q("gelu", np.int8, "0.1", 0, np.float32)
