"""Assertions for test suites: an implementation graded on every input.

>>> import numpy as np, actlut.testing
>>> actlut.testing.assert_within_ulp("exp", "f16", np.exp, 1)

A failure raises AssertionError whose message names the table, the counts and
the worst inputs, one per line, as pytest prints them.
"""

from __future__ import annotations

from typing import Any, Callable, Union

import numpy as np

from . import Grade, _hex, grade

__all__ = ["assert_correctly_rounded", "assert_within_ulp"]

Impl = Union[np.ndarray, Callable[[np.ndarray], Any]]


def _lines(g: Grade, limit) -> str:
    out = []
    for w in g.worst:
        if limit is not None and w.ulps is not None and w.ulps <= limit:
            break
        err = {
            "ulps": f"{w.ulps} ulp" + ("" if w.ulps == 1 else "s"),
            "nan_for_number": "NaN for a number",
            "number_for_nan": "number for NaN",
            "invalid_code": "invalid code",
        }[w.kind]
        out.append(
            f"  input {_hex(g.format, w.input)} ({w.input_value!r}): "
            f"got {_hex(g.format, w.got)} ({w.got_value!r}), "
            f"expected {_hex(g.format, w.expected)} ({w.expected_value!r}), "
            f"exact {w.exact}: {err}"
        )
    return "\n".join(out)


def _summary(g: Grade) -> str:
    if g.max_ulp is not None:
        m = f"max error {g.max_ulp} ulp" + ("" if g.max_ulp == 1 else "s")
    else:
        m = (
            f"max error unbounded: {g.nan_for_number} NaN for a number, "
            f"{g.number_for_nan} number for NaN, {g.invalid_codes} invalid codes; "
            f"{g.max_numeric_ulp} ulps at most among numbers"
        )
    hist = ", ".join(f"{d} ulp: {n}" for d, n in sorted(g.histogram.items()))
    return m + (f"; histogram {hist}" if hist else "")


def assert_correctly_rounded(function: str, format: str, impl: Impl) -> Grade:
    """Asserts that every output of ``impl`` is the correctly rounded value.

    ``impl`` is what :func:`actlut.grade` takes: the outputs for every input in
    bit-pattern order, or a callable that computes them from the array of all
    inputs. Returns the :class:`actlut.Grade`; raises AssertionError listing
    the worst inputs (input, got, expected, the exact value, the distance)
    when some output is not correctly rounded.
    """
    __tracebackhide__ = True
    g = grade(function, format, impl)
    if g.mismatches:
        raise AssertionError(
            f"{g.table}: {g.mismatches} of {g.entries} outputs are not correctly rounded "
            f"({_summary(g)}); worst inputs:\n{_lines(g, None)}"
        )
    return g


def assert_within_ulp(function: str, format: str, impl: Impl, max_ulp: int) -> Grade:
    """Asserts that every output of ``impl`` is within ``max_ulp`` ulps.

    The distance is ``actlut ulp``'s (steps between values of the format;
    ``-0`` and ``+0`` one step apart). A NaN where a number is due, or the
    reverse, is never within any bound. ``max_ulp=0`` is
    :func:`assert_correctly_rounded`. Returns the :class:`actlut.Grade`;
    raises AssertionError listing the inputs beyond the bound, worst first.
    """
    __tracebackhide__ = True
    if isinstance(max_ulp, bool) or not isinstance(max_ulp, int) or max_ulp < 0:
        raise ValueError(f"max_ulp must be a non-negative int, not {max_ulp!r}")
    g = grade(function, format, impl)
    if g.max_ulp is None or g.max_ulp > max_ulp:
        beyond = sum(n for d, n in g.histogram.items() if d > max_ulp)
        beyond += g.nan_for_number + g.number_for_nan + g.invalid_codes
        raise AssertionError(
            f"{g.table}: {beyond} of {g.entries} outputs are more than {max_ulp} ulp"
            f"{'' if max_ulp == 1 else 's'} from the correctly rounded value "
            f"({_summary(g)}); worst inputs:\n{_lines(g, max_ulp)}"
        )
    return g
