"""`actlut.grade` and `actlut.testing`: the counts of `actlut ulp` (the same Rust
code), checked against independently planted errors and against the command's
own JSON on the same outputs."""

import json
import subprocess

import ml_dtypes
import numpy as np
import pytest

import actlut
import actlut.testing
from actlut import _actlut
from test_apply import PAIRS, bits, inputs


def planted(function, fmt, moves):
    """The exact table with entry `i` moved `k` values up, for each (i, k).

    Among positive values the bit patterns are in the order of the values, so
    `bits + k` is `k` values away (the test picks inputs whose outputs stay
    positive and finite)."""
    t = bits(actlut.table(function, fmt)).copy()
    for i, k in moves:
        t[i] += k
    return t.view(actlut.dtype(fmt))


@pytest.mark.parametrize("function,fmt", PAIRS)
def test_every_exact_table_grades_as_correctly_rounded(function, fmt):
    g = actlut.grade(function, fmt, actlut.table(function, fmt))
    assert g.mismatches == 0 and g.max_ulp == 0 and g.correctly_rounded
    assert g.histogram == {} and g.worst == []
    assert g.entries == actlut.table(function, fmt).size
    actlut.testing.assert_correctly_rounded(function, fmt, actlut.table(function, fmt))


def test_planted_errors_give_their_count_maximum_and_histogram():
    # exp of inputs 0x3c00.. (1.0 and up): outputs positive, far from infinity.
    moves = [(0x3C00, 1), (0x3C01, 1), (0x3C02, 3), (0x3800, 7)]
    g = actlut.grade("exp", "f16", planted("exp", "f16", moves))
    assert g.mismatches == 4
    assert g.max_ulp == 7 and g.max_numeric_ulp == 7
    assert g.histogram == {1: 2, 3: 1, 7: 1}
    assert [w.input for w in g.worst] == [0x3800, 0x3C02, 0x3C00, 0x3C01]
    assert [w.ulps for w in g.worst] == [7, 3, 1, 1]
    w = g.worst[0]
    table = bits(actlut.table("exp", "f16"))
    assert (w.expected, w.got, w.kind) == (table[0x3800], table[0x3800] + 7, "ulps")
    assert w.input_value == 0.5
    assert w.exact.startswith("1.6487212707001282")  # e^0.5


def test_signed_zeros_are_one_step_apart_and_nan_errors_are_unbounded():
    t = bits(actlut.table("gelu", "f16")).copy()
    assert t[0] == 0x0000  # gelu(+0) = +0
    t[0] = 0x8000  # -0 for +0: one step
    t[0x3C00] = 0x7E00  # NaN for a number
    t[0x7E00] = 0x3C00  # a number for NaN
    t[0xFE01] = 0x7E05  # another NaN payload where NaN is due: correct
    g = actlut.grade("gelu", "f16", t)
    assert g.mismatches == 3
    assert g.max_ulp is None and g.max_numeric_ulp == 1
    assert (g.nan_for_number, g.number_for_nan, g.nan_payloads_differ) == (1, 1, 1)
    assert [w.kind for w in g.worst[:2]] == ["nan_for_number", "number_for_nan"]
    assert g.worst[2].ulps == 1


def test_fp4_bytes_that_are_no_code_are_invalid_codes():
    t = bits(actlut.table("gelu", "fp4_e2m1")).copy()
    t[3] = 0x10
    g = actlut.grade("gelu", "fp4_e2m1", t.view(np.uint8))
    assert g.invalid_codes == 1 and g.max_ulp is None
    assert g.worst[0].kind == "invalid_code" and g.worst[0].got_value is None


@pytest.mark.parametrize(
    "function,fmt,moves",
    [
        ("exp", "f16", [(0x3C00, 1), (0x3C01, 2), (0x3800, 40)]),
        ("tanh", "bf16", [(0x3F80, 1), (0x3F00, 5)]),
        ("gelu", "fp8_e4m3", [(0x38, 1), (0x40, 2)]),
        ("sigmoid", "fp6_e2m3", [(0x01, 1)]),
    ],
)
def test_to_dict_and_str_are_the_commands_json_and_text(function, fmt, moves, actlut_cli, tmp_path):
    y = planted(function, fmt, moves)
    path = tmp_path / "out.bin"
    b = bits(y)
    (b.astype("<u2") if b.itemsize == 2 else b).tofile(path)
    g = actlut.grade(function, fmt, y)
    j = subprocess.run([actlut_cli, "ulp", function, fmt, str(path), "--json"], capture_output=True, text=True)
    t = subprocess.run([actlut_cli, "ulp", function, fmt, str(path)], capture_output=True, text=True)
    assert j.returncode == 1 and t.returncode == 1
    assert g.to_dict() == json.loads(j.stdout)
    assert g.to_json() == j.stdout
    assert str(g) == t.stdout
    assert g.mismatches == len(moves)


def test_a_callable_gets_every_input_in_bit_pattern_order():
    seen = []

    def impl(x):
        seen.append(x.copy())
        return actlut.table("silu", "bf16")

    actlut.grade("silu", "bf16", impl)
    (x,) = seen
    assert x.dtype == ml_dtypes.bfloat16 and x.shape == (65536,)
    assert np.array_equal(x.view(np.uint16), np.arange(65536, dtype=np.uint16))


def test_bits_arrays_are_graded_like_the_formats_dtype():
    t = actlut.table("gelu", "fp8_e5m2")
    assert actlut.grade("gelu", "fp8_e5m2", t.view(np.uint8)).mismatches == 0


def test_bad_input_is_a_type_or_value_error_naming_the_problem():
    t = actlut.table("gelu", "f16")
    with pytest.raises(ValueError, match="unknown function name `gelux`"):
        actlut.grade("gelux", "f16", t)
    with pytest.raises(ValueError, match="unknown format `f8`"):
        actlut.grade("gelu", "f8", t)
    with pytest.raises(ValueError, match="there is no log_fp4_e2m1 table"):
        actlut.grade("log", "fp4_e2m1", np.zeros(16, np.uint8))
    with pytest.raises(ValueError, match=r"impl has shape \(65535,\); f16 has 65536 inputs"):
        actlut.grade("gelu", "f16", t[1:])
    with pytest.raises(ValueError, match=r"impl has shape \(256, 256\)"):
        actlut.grade("gelu", "f16", t.reshape(256, 256))
    with pytest.raises(TypeError, match=r"impl has dtype float32; grading f16 needs float16"):
        actlut.grade("gelu", "f16", t.astype(np.float32))
    with pytest.raises(TypeError, match=r"needs bfloat16 .*astype\(ml_dtypes.bfloat16\)"):
        actlut.grade("gelu", "bf16", t)
    with pytest.raises(ValueError, match=r"the callable returned an array of shape \(65535,\)"):
        actlut.grade("gelu", "f16", lambda x: x[1:])
    with pytest.raises(ValueError, match=r"the callable returned an array of shape \(\)"):
        actlut.grade("gelu", "f16", lambda x: x[0])
    with pytest.raises(TypeError, match="the callable returned dtype float32"):
        actlut.grade("gelu", "f16", lambda x: x.astype(np.float32))


def test_a_rust_panic_is_a_runtime_error():
    with pytest.raises(RuntimeError, match="internal error \\(a Rust panic\\): a deliberate panic"):
        _actlut.panic_for_test()


def test_repr_names_the_table_the_counts_and_the_worst_input():
    g = actlut.grade("exp", "f16", planted("exp", "f16", [(0x3800, 7)]))
    r = repr(g)
    assert r.startswith("<Grade exp_f16: 1 of 65536 wrong, max_ulp=7; worst input 0x3800 (0.5)")
    t = bits(actlut.table("gelu", "f16")).copy()
    t[0x3C00] = 0x7E00
    r = repr(actlut.grade("gelu", "f16", t))
    assert "max_ulp=None, max_numeric_ulp=0, nan_for_number=1, number_for_nan=0" in r


def test_assert_correctly_rounded_fails_with_the_worst_inputs_one_per_line():
    y = planted("exp", "f16", [(0x3C00, 1), (0x3800, 3)])
    with pytest.raises(AssertionError) as e:
        actlut.testing.assert_correctly_rounded("exp", "f16", y)
    msg = str(e.value)
    assert msg.startswith("exp_f16: 2 of 65536 outputs are not correctly rounded (max error 3 ulps")
    lines = msg.splitlines()
    got = bits(actlut.table("exp", "f16"))[0x3800] + 3
    assert lines[1].startswith(f"  input 0x3800 (0.5): got 0x{got:04x}") and lines[1].endswith(": 3 ulps")
    assert lines[2].startswith("  input 0x3c00 (1.0):") and lines[2].endswith(": 1 ulp")


def test_assert_within_ulp_passes_at_the_bound_and_lists_only_what_exceeds_it():
    y = planted("exp", "f16", [(0x3C00, 1), (0x3800, 3)])
    assert actlut.testing.assert_within_ulp("exp", "f16", y, 3).max_ulp == 3
    with pytest.raises(AssertionError) as e:
        actlut.testing.assert_within_ulp("exp", "f16", y, 2)
    msg = str(e.value)
    assert msg.startswith("exp_f16: 1 of 65536 outputs are more than 2 ulps from the correctly rounded value")
    assert len(msg.splitlines()) == 2 and "0x3800" in msg
    t = bits(actlut.table("gelu", "f16")).copy()
    t[0x3C00] = 0x7E00
    with pytest.raises(AssertionError, match="NaN for a number"):
        actlut.testing.assert_within_ulp("gelu", "f16", t, 1000)
    with pytest.raises(ValueError, match="max_ulp must be a non-negative int"):
        actlut.testing.assert_within_ulp("gelu", "f16", t, -1)
