"""`actlut.testing.edge_values` against each format's definition (docs/SEMANTICS.md: bias,
significand bits, largest value, special values), written out here by hand; and the pytest
plugin that offers them as parameters with readable ids."""

import math

import numpy as np
import pytest

import actlut
import actlut.testing as T

pytest_plugins = ["pytester"]

#: (significand bits incl. the hidden one, exponent of the smallest normal, largest finite,
#:  has -0, has inf, has NaN, saturates): the formats as docs/SEMANTICS.md defines them.
FORMATS = {
    "f16": (11, -14, 65504.0, True, True, True, False),
    "bf16": (8, -126, float.fromhex("0x1.fep127"), True, True, True, False),
    "fp8_e4m3": (4, -6, 448.0, True, False, True, False),
    "fp8_e5m2": (3, -14, 57344.0, True, True, True, False),
    "fp8_e4m3fnuz": (4, -7, 240.0, False, False, True, False),
    "fp8_e5m2fnuz": (3, -15, 57344.0, False, False, True, False),
    "fp6_e2m3": (4, 0, 7.5, True, False, False, True),
    "fp6_e3m2": (3, -2, 28.0, True, False, False, True),
    "fp4_e2m1": (2, 0, 6.0, True, False, False, True),
    "fp8_e3m4": (5, -2, 15.5, True, True, True, False),
    "fp8_e4m3ieee": (4, -6, 240.0, True, True, True, False),
    "fp8_e4m3b11fnuz": (4, -10, 30.0, False, False, True, False),
    "fp8_e5m3fnu": (4, -14, 114688.0, False, False, True, False),
    "fp8_e8m0fnu": (1, -127, 2.0**127, False, False, True, False),
}
#: The formats without zero (and so without subnormals): their smallest value is 2^emin.
NO_ZERO = {"fp8_e8m0fnu"}


def expected(fmt):
    p, emin, largest, neg_zero, inf, nan, saturates = FORMATS[fmt]
    sub = 2.0 ** (emin - (p - 1))
    e = {}
    if fmt not in NO_ZERO:
        e["zero"] = 0.0
        if neg_zero:
            e["negative_zero"] = -0.0
        e["smallest_subnormal"] = sub
        e["largest_subnormal"] = 2.0**emin - sub
    e["smallest_normal"] = 2.0**emin
    # The neighbours of 1: one spacing above, and below half of it (the binade below), or the
    # subnormal spacing where 1 is the smallest normal (FP6 E2M3, FP4: 0.875 and 0.5).
    e["below_one"] = 1 - 2.0 ** -(p - 1) / 2 if emin < 0 else 1 - 2.0 ** -(p - 1)
    e["one"] = 1.0
    e["above_one"] = 1 + 2.0 ** -(p - 1)
    # exp overflows (or saturates) above ln(threshold): the threshold is halfway to the next
    # value the exponent range would have (the largest value itself where it saturates).
    spacing = 2.0 ** (math.floor(math.log2(largest)) - (p - 1))
    threshold = largest if saturates else largest + spacing / 2
    e["exp_overflow"] = math.log(threshold)  # the smallest value above this
    e["largest_finite"] = largest
    if inf:
        e["inf"], e["negative_inf"] = math.inf, -math.inf
    if nan:
        e["nan"] = math.nan
    return e


@pytest.mark.parametrize("fmt", actlut.formats())
def test_edge_values_are_the_formats_own(fmt):
    got = T.edge_values(fmt)
    want = expected(fmt)
    assert list(got) == list(want), "the same names, in the documented order"
    with np.errstate(invalid="ignore"):
        values = actlut.testing._inputs(fmt).astype(np.float64)
    for name, v in got.items():
        assert v.dtype == actlut.dtype(fmt), name
        x = float(np.float64(v))
        w = want[name]
        if name == "exp_overflow":
            finite = values[np.isfinite(values)]
            assert x == finite[finite > w].min(), (name, x, w)
        elif math.isnan(w):
            assert math.isnan(x)
        else:
            assert x == w and math.copysign(1, x) == math.copysign(1, w), (name, x, w)
    # The exp table overflows (inf or NaN) from exp_overflow on, not at the value before it.
    if not FORMATS[fmt][6]:
        bits = {e.name: e.bits for e in actlut.testing._edges(fmt)}["exp_overflow"]
        t = actlut.table("exp", fmt).astype(np.float64)
        assert not np.isfinite(t[bits]) and np.isfinite(t[bits - 1])


def test_edge_values_bits_are_the_values_bit_patterns():
    for fmt in actlut.formats():
        for e in actlut.testing._edges(fmt):
            b = np.array([e.bits], dtype=np.uint16 if e.value.dtype.itemsize == 2 else np.uint8)
            assert b.view(e.value.dtype)[0].tobytes() == np.asarray(e.value).tobytes()
            assert e.id == f"{fmt}-{e.name}"
    assert list(T.edge_values("fp8-e4m3")) == list(T.edge_values("fp8_e4m3"))
    with pytest.raises(ValueError, match="unknown format name `f8`"):
        T.edge_values("f8")


def test_the_pytest_plugin_offers_them_as_parameters_with_readable_ids(pytester):
    pytester.makepyfile(
        """
        import numpy as np
        import pytest

        @pytest.mark.edge_values("bf16", "fp4_e2m1")
        def test_marked(edge_value):
            assert edge_value.format in ("bf16", "fp4_e2m1")
            assert edge_value.value.dtype.name in ("bfloat16", "float4_e2m1fn")

        def test_every_format(edge_value):
            pass

        def test_untouched():
            pass
        """
    )
    result = pytester.runpytest("-v")  # the plugin comes from its pytest11 entry point
    result.assert_outcomes(passed=len(T.edge_values("bf16")) + len(T.edge_values("fp4_e2m1"))
                           + sum(len(T.edge_values(f)) for f in actlut.formats()) + 1)
    out = result.stdout.str()
    assert "test_marked[bf16-smallest_subnormal] PASSED" in out
    assert "test_marked[fp4_e2m1-below_one] PASSED" in out
    assert "test_every_format[fp8_e4m3fnuz-nan] PASSED" in out
    assert "test_marked[fp4_e2m1-nan]" not in out, "FP4 has no NaN"
    assert "test_untouched PASSED" in out
    markers = pytester.runpytest("--markers").stdout.str()
    assert "@pytest.mark.edge_values(*formats)" in markers


def test_the_plugin_is_registered_as_a_pytest11_entry_point():
    from importlib.metadata import entry_points

    eps = entry_points(group="pytest11") if hasattr(entry_points(), "select") else entry_points()["pytest11"]
    assert any(ep.name == "actlut" and ep.value == "actlut.pytest_plugin" for ep in eps)
