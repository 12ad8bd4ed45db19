"""`actlut.grade` and `actlut.testing`: the counts of `actlut ulp` (the same Rust
code), checked against independently planted errors and against the command's
own JSON on the same outputs."""

import json
import math
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
    with pytest.raises(ValueError, match="unknown format name `f8`"):
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


def test_assert_correctly_rounded_fails_with_a_short_first_line_then_the_report():
    y = planted("exp", "f16", [(0x3C00, 1), (0x3800, 3)])
    with pytest.raises(AssertionError) as e:
        actlut.testing.assert_correctly_rounded("exp", "f16", y)
    msg = str(e.value)
    first, *rest = msg.splitlines()
    assert first == (
        "exp_f16: 2 of 65,536 outputs not correctly rounded; max 3 ulps; worst input 0x3800 (0.5): "
        "got 1.6514, expected 1.6484; 1 of 2 wrong entries pass assert_close's default f16 tolerance"
    )
    # Then the command's report without its first line: the tolerances, the histogram, the worst inputs.
    g = actlut.grade("exp", "f16", y)
    assert rest == str(g).splitlines()[1:]
    got = bits(actlut.table("exp", "f16"))[0x3800] + 3
    worst = rest[rest.index("worst inputs:") + 1]
    assert worst.startswith(f"  input 0x3800 (5e-1): got 0x{got:04x}") and worst.endswith(": 3 ulps")


def test_assert_within_ulp_passes_at_the_bound_and_lists_only_what_exceeds_it():
    y = planted("exp", "f16", [(0x3C00, 1), (0x3800, 3)])
    assert actlut.testing.assert_within_ulp("exp", "f16", y, 3).max_ulp == 3
    with pytest.raises(AssertionError) as e:
        actlut.testing.assert_within_ulp("exp", "f16", y, 2)
    lines = str(e.value).splitlines()
    assert lines[0].startswith("exp_f16: 1 of 65,536 outputs more than 2 ulps off; max 3 ulps; worst input 0x3800")
    at = lines.index("worst inputs beyond 2 ulps:")
    assert len(lines) == at + 2 and "input 0x3800" in lines[at + 1]
    t = bits(actlut.table("gelu", "f16")).copy()
    t[0x3C00] = 0x7E00
    with pytest.raises(AssertionError, match="max unbounded \\(1 NaN for a number\\)"):
        actlut.testing.assert_within_ulp("gelu", "f16", t, 1000)
    with pytest.raises(ValueError, match="max_ulp must be a non-negative int"):
        actlut.testing.assert_within_ulp("gelu", "f16", t, -1)


def f32_then_cast(function, fmt):
    """The exact float32 value (the crate's computed path) rounded again to ``fmt``:
    double rounding, the usual way a kernel is "exact" in float32."""
    x = inputs(fmt)
    with np.errstate(all="ignore"):
        return actlut.apply(function, x.astype(np.float32)).astype(actlut.dtype(fmt))


@pytest.mark.parametrize(
    "function,fmt,make",
    [
        ("gelu", "bf16", lambda: f32_then_cast("gelu", "bf16")),  # the 2,565-character line
        ("sigmoid", "f16", lambda: naive_sigmoid()),
        ("gelu", "f16", lambda: np.full(65536, np.nan, np.float16)),  # every entry NaN
        ("gelu", "fp4_e2m1", lambda: np.full(16, 0xFF, np.uint8)),  # every byte no code
        ("exp", "fp8_e4m3fnuz", lambda: np.zeros(256, np.uint8)),
    ],
)
def test_the_first_line_of_a_failure_is_at_most_200_characters(function, fmt, make):
    y = make()
    with pytest.raises(AssertionError) as e:
        actlut.testing.assert_correctly_rounded(function, fmt, y)
    first = str(e.value).splitlines()[0]
    assert len(first) <= actlut.testing.FIRST_LINE_MAX == 200, first
    g = actlut.grade(function, fmt, y)
    assert first.startswith(f"{g.table}: {g.mismatches:,} of {g.entries:,} outputs not correctly rounded; max ")
    tol = actlut.tolerance("torch", fmt).description
    assert first.endswith(f"; {g.hidden_by('torch'):,} of {g.mismatches:,} wrong entries pass {tol}"), first


def naive_sigmoid():
    x = inputs("f16")
    with np.errstate(all="ignore"):
        return (1 / (1 + np.exp(-x))).astype(np.float16)


def test_an_unknown_function_name_lists_actluts_names_and_where_the_aliases_are():
    with pytest.raises(ValueError) as e:
        actlut.grade("gelux", "f16", actlut.table("gelu", "f16"))
    msg = str(e.value)
    assert msg.startswith("unknown function name `gelux`: expected one of ")
    for name in actlut.functions():
        assert name in msg
    assert "docs/SEMANTICS.md (\"Other engines' names\")" in msg
    # The names and one sentence: no list of every engine's name.
    names = sum(len(n) + 2 for n in actlut.functions())
    assert len(msg) < names + 280, (len(msg), names)
    # The engine names it points to are accepted.
    assert actlut.grade("GELU", "f16", actlut.table("gelu", "f16")).function == "gelu"


# --- what a tolerance hides ---------------------------------------------------------------

#: +3 and +7 ulps at chosen bf16 inputs of gelu (positive outputs, where bits follow values):
#: at the bottom of a binade 3 ulps are 3·2^-7 relative, above torch's rtol 1.6e-2; at the
#: top 3·2^-8, below it; 7 ulps are above it everywhere.
PLANTED_BF16 = [(0x4080, 3), (0x40FE, 3), (0x4180, 3), (0x41FE, 3), (0x4100, 7), (0x417E, 7), (0x3F80, 3)]


def independent_hidden(fmt, got, rtol, atol):
    """The wrong entries that |got - expected| <= atol + rtol*|expected| passes, counted
    with numpy from the dtype's values (not through the extension)."""
    want = actlut.table(GRADED[fmt], fmt)
    g = np.asarray(got).view(actlut.dtype(fmt)).astype(np.float64)
    e = want.astype(np.float64)
    wrong = bits(np.asarray(got)) != bits(want)
    with np.errstate(invalid="ignore"):
        close = np.abs(g - e) <= atol + rtol * np.abs(e)
    close &= np.isfinite(g) & np.isfinite(e) | (g == e)
    return int(np.count_nonzero(wrong & close))


GRADED = {"bf16": "gelu", "f16": "exp"}


def test_hidden_by_counts_what_torchs_and_numpys_defaults_and_given_tolerances_pass():
    y = planted("gelu", "bf16", PLANTED_BF16)
    g = actlut.grade("gelu", "bf16", y)
    assert g.mismatches == len(PLANTED_BF16)
    torch_count = independent_hidden("bf16", y, 0.016, 1e-5)
    assert 0 < torch_count < len(PLANTED_BF16), "the plant splits the planted errors"
    assert g.hidden_by("torch") == torch_count
    assert g.hidden_by(actlut.tolerance("torch", "bf16")) == torch_count
    assert g.hidden_by("numpy") == independent_hidden("bf16", y, 1e-5, 1e-8)
    for rtol, atol in [(0.02, 0.0), (0.05, 0.0), (0.0, 0.1), (0.03, 0.01)]:
        assert g.hidden_by(rtol=rtol, atol=atol) == independent_hidden("bf16", y, rtol, atol), (rtol, atol)
    # The report and its JSON give the presets' counts.
    d = {h["tolerance"]: h for h in g.to_dict()["hidden_by"]}
    assert d["torch"]["count"] == torch_count and d["torch"]["rtol"] == 0.016
    assert f"  {torch_count} of 7 pass assert_close's default bf16 tolerance (rtol 0.016, atol 1e-5)" in str(g)


def test_torchs_default_is_exact_for_formats_it_has_no_entry_for_and_numpys_is_the_same_everywhere():
    assert actlut.tolerance("torch", "f16")[:2] == (1e-3, 1e-5)
    assert actlut.tolerance("torch", "bf16")[:2] == (0.016, 1e-5)
    for fmt in actlut.formats():
        assert actlut.tolerance("numpy", fmt)[:2] == (1e-5, 1e-8)
        if fmt not in ("f16", "bf16"):
            assert actlut.tolerance("torch", fmt)[:2] == (0.0, 0.0)
    assert actlut.tolerance("torch", "bf16").description == "assert_close's default bf16 tolerance"
    # -0 for +0 is wrong by one step and passes any tolerance, even an exact one.
    t = bits(actlut.table("gelu", "fp8_e4m3")).copy()
    t[0] = 0x80
    t[0x38] += 1
    g = actlut.grade("gelu", "fp8_e4m3", t)
    assert (g.mismatches, g.hidden_by("torch")) == (2, 1)


def test_bad_tolerances_are_errors_naming_what_is_expected():
    g = actlut.grade("gelu", "bf16", planted("gelu", "bf16", PLANTED_BF16))
    with pytest.raises(TypeError, match="both rtol and atol"):
        g.hidden_by(rtol=0.01)
    with pytest.raises(TypeError, match="both rtol and atol"):
        g.hidden_by()
    with pytest.raises(ValueError, match='unknown tolerance preset "jax": expected "torch" or "numpy"'):
        g.hidden_by("jax")
    with pytest.raises(ValueError, match="rtol must be finite and non-negative"):
        g.hidden_by(rtol=-1, atol=0)
    with pytest.raises(ValueError, match="atol must be finite and non-negative"):
        g.hidden_by(rtol=0, atol=float("nan"))
    with pytest.raises(TypeError, match="rtol must be a real number, not str"):
        g.hidden_by(rtol="0.1", atol=0)
    with pytest.raises(TypeError, match="not both"):
        g.hidden_by("torch", rtol=0.1, atol=0)


# --- midpoints -----------------------------------------------------------------------------


def midpoint_distance_f64(function, fmt, i):
    """The exact value's signed distance (value order) from the nearer midpoint around its
    correctly rounded value, in ulps, from Python's float64 math (libm, within an ulp of
    float64: ~2^-40 of a bf16 ulp) and the dtype's neighbours: an independent estimate."""
    x = float(inputs(fmt)[i].astype(np.float64))
    exact = {"gelu": lambda x: 0.5 * x * math.erfc(-x / math.sqrt(2)), "exp": math.exp}[function](x)
    c = bits(actlut.table(function, fmt))[i]
    assert c < 0x7F80, "a positive finite value"
    v = lambda b: float(np.array([b], np.uint16).view(actlut.dtype(fmt)).astype(np.float64)[0])  # noqa: E731
    lo, mid, hi = v(c - 1), v(c), v(c + 1)
    cands = [(exact - (lo + mid) / 2) / (mid - lo), (exact - (mid + hi) / 2) / (hi - mid)]
    return min(cands, key=abs)


def test_a_one_ulp_error_at_a_near_midpoint_input_says_it_is_a_hard_case():
    # The bf16 inputs of gelu in [2^-7, 8), graded here by float64 distance.
    xs = range(0x3C00, 0x4100)
    near = min(xs, key=lambda i: abs(midpoint_distance_f64("gelu", "bf16", i)))
    far = max(xs, key=lambda i: abs(midpoint_distance_f64("gelu", "bf16", i)))
    assert abs(midpoint_distance_f64("gelu", "bf16", near)) < 1e-3
    y = planted("gelu", "bf16", [(near, 1), (far, 1)])
    g = actlut.grade("gelu", "bf16", y)
    by_input = {w.input: w for w in g.worst}
    assert set(by_input) == {near, far} and g.histogram == {1: 2}
    for i in (near, far):
        w = by_input[i]
        assert w.midpoint_ulps == pytest.approx(midpoint_distance_f64("gelu", "bf16", i), abs=1e-6)
        assert 0 <= w.midpoint_error < 1e-8
    assert abs(by_input[near].midpoint_ulps) < 1e-3 and abs(by_input[far].midpoint_ulps) > 0.49
    # The text report says it on the input's line.
    line = next(l for l in str(g).splitlines() if l.startswith(f"  input 0x{near:04x}"))
    assert "ulp above a midpoint" in line or "ulp below a midpoint" in line
    assert "e-" in line.split("(")[-1], "a distance below 0.01 ulp is shown in scientific notation"
    # actlut.midpoints gives the same numbers for any inputs.
    d, e = actlut.midpoints("gelu", "bf16", [near, far])
    assert list(d) == [by_input[near].midpoint_ulps, by_input[far].midpoint_ulps]
    d, _ = actlut.midpoints("log", "f16", np.array([0xBC00], np.uint16))
    assert np.isnan(d[0]), "log(-1) is NaN: no midpoint"
    with pytest.raises(ValueError, match="bit patterns of fp4_e2m1: 0..=15"):
        actlut.midpoints("gelu", "fp4_e2m1", [16])
