"""Assertions for test suites: an implementation graded on every input.

>>> import numpy as np, actlut.testing
>>> actlut.testing.assert_within_ulp("exp", "f16", np.exp, 1)

- :func:`assert_correctly_rounded`, :func:`assert_within_ulp`: every output
  of a kernel against the exact table. A failure is an AssertionError whose
  first line (at most 200 characters) has the counts, the worst input and how
  many of the wrong entries ``torch.testing.assert_close``'s default tolerance
  would pass; the lines after it are ``actlut ulp``'s report (the tolerances,
  the histogram, the worst inputs with their distance from the rounding
  midpoint).
- :func:`assert_position_independent`, :func:`position_report`: every input
  at many positions of 1-D arrays of every length from 1 to 300, against the
  kernel's own output on the whole array: a vector body and a scalar tail that
  disagree show up here, whether or not either is correct.
- :func:`edge_values`: the named edge values of a format, which the pytest
  plugin of this package (``actlut.pytest_plugin``) offers as parameters.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np

from . import (
    _DTYPES,
    Grade,
    _actlut,
    _call,
    _dtype_expr,
    _format_name,
    _function_name,
    _hex,
    _inputs,
    grade,
    table,
    tolerance,
)

__all__ = [
    "EdgeValue",
    "FIRST_LINE_MAX",
    "PositionMismatch",
    "PositionReport",
    "assert_correctly_rounded",
    "assert_position_independent",
    "assert_within_ulp",
    "edge_values",
    "position_report",
    "summary",
]

Impl = Union[np.ndarray, Callable[[np.ndarray], Any]]

#: The longest first line of an assertion message.
FIRST_LINE_MAX = 200


def _short(v: Optional[float]) -> str:
    """A value in at most 5 significant digits: ``1.6514``, ``-1.5207e-05``, ``nan``."""
    if v is None:
        return "invalid code"
    if v != v:
        return "nan"
    if v in (float("inf"), float("-inf")):
        return "inf" if v > 0 else "-inf"
    return f"{v:.5g}"


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def summary(g: Grade, max_ulp: Optional[int] = None) -> str:
    """The first line of an assertion message about ``g``, at most
    :data:`FIRST_LINE_MAX` characters: the table and the count of outputs that
    are not correctly rounded (or, with ``max_ulp``, beyond it), the largest
    error, the worst input, and how many of the wrong entries
    ``torch.testing.assert_close``'s default tolerance for the format would
    pass. The longest parts are shortened, then left out, to fit."""
    if max_ulp is None:
        count, what = g.mismatches, "not correctly rounded"
    else:
        count = sum(n for d, n in g.histogram.items() if d > max_ulp)
        count += g.nan_for_number + g.number_for_nan + g.invalid_codes
        what = f"more than {_plural(max_ulp, 'ulp')} off"
    head = f"{g.table}: {count:,} of {g.entries:,} outputs {what}"
    if g.max_ulp is not None:
        largest = f"max {_plural(g.max_ulp, 'ulp')}"
    else:
        kinds = [
            (g.nan_for_number, "NaN for a number"),
            (g.number_for_nan, "number for NaN"),
            (g.invalid_codes, "invalid code"),
        ]
        largest = "max unbounded (" + ", ".join(f"{n:,} {k}" for n, k in kinds if n) + ")"
    t = tolerance("torch", g.format)
    hidden = f"{g.hidden_by('torch'):,} of {g.mismatches:,} wrong entries pass {t.description}"
    worst: List[str] = [""]
    if g.worst:
        w = g.worst[0]
        at = f"worst input {_hex(g.format, w.input)} ({_short(w.input_value)})"
        worst = [f"{at}: got {_short(w.got_value)}, expected {_short(w.expected_value)}", at, ""]
    # The worst input shortened, then left out, then the tolerance, until the line fits.
    candidates = [(x, hidden) for x in worst] + [("", "")]
    line = ""
    for x, y in candidates:
        line = "; ".join(p for p in (head, largest, x, y) if p)
        if len(line) <= FIRST_LINE_MAX:
            return line
    return line[: FIRST_LINE_MAX - 1] + "…"


def _message(g: Grade, max_ulp: Optional[int]) -> str:
    """The assertion message: :func:`summary`, then ``actlut ulp``'s report
    without its first line (the worst inputs beyond ``max_ulp``)."""
    report = g.report(beyond=max_ulp or 0).split("\n", 1)
    rest = report[1] if len(report) > 1 else ""
    return summary(g, max_ulp) + "\n" + rest.rstrip("\n")


def assert_correctly_rounded(function: str, format: str, impl: Impl, *, worst: int = 10) -> Grade:
    """Asserts that every output of ``impl`` is the correctly rounded value.

    ``impl`` is what :func:`actlut.grade` takes: the outputs for every input in
    bit-pattern order, or a callable that computes them from the array of all
    inputs. Returns the :class:`actlut.Grade`; raises AssertionError (see the
    module doc for its message) when some output is not correctly rounded.
    """
    __tracebackhide__ = True
    g = grade(function, format, impl, worst=worst)
    if g.mismatches:
        raise AssertionError(_message(g, None))
    return g


def assert_within_ulp(function: str, format: str, impl: Impl, max_ulp: int, *, worst: int = 10) -> Grade:
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
    g = grade(function, format, impl, worst=worst)
    if g.max_ulp is None or g.max_ulp > max_ulp:
        raise AssertionError(_message(g, max_ulp))
    return g


# --- position dependence -------------------------------------------------------------------

#: The lengths every input is placed at by default: 1 to 300.
DEFAULT_LENGTHS = range(1, 301)
#: How many positions each input takes in arrays of each length, by default.
DEFAULT_OFFSETS = 4


class PositionMismatch(NamedTuple):
    """An input whose output depends on where it sits (:class:`PositionReport`).

    ``first`` is the kernel's output (bits) for ``input`` in the call on the
    array of every input, at ``first_at = (position, length)``; ``second`` the
    first different output found elsewhere, at ``second_at``. ``expected`` is
    the correctly rounded output, so a reader sees which of them (if either)
    is right.
    """

    input: int
    input_value: float
    first: int
    first_value: float
    first_at: Tuple[int, int]
    second: int
    second_value: float
    second_at: Tuple[int, int]
    expected: int

    def describe(self, format: str) -> str:
        """``input 0x3f80 (1.0): 0x3f58 (0.84375) at position 16256 of 65536,
        0x3f57 (0.83984) at position 3 of 17; correct 0x3f58``."""
        h = lambda b: _hex(format, b)  # noqa: E731
        return (
            f"input {h(self.input)} ({_short(self.input_value)}): "
            f"{h(self.first)} ({_short(self.first_value)}) at position {self.first_at[0]} of "
            f"{self.first_at[1]}, {h(self.second)} ({_short(self.second_value)}) at position "
            f"{self.second_at[0]} of {self.second_at[1]}; correct {h(self.expected)}"
        )


class PositionReport:
    """Whether a kernel's output for an input depends on where the input sits
    in a 1-D array (:func:`position_report`).

    Attributes:
        function, format: the names.
        entries: the inputs probed (every input of the format).
        lengths: the array lengths every input was placed at.
        offsets: how many evenly spaced positions each input took in arrays of
            each length (every position when the length is at most this).
        calls: the kernel calls made (the call on the whole array included).
        placements: the outputs compared (every element of every call).
        dependent: one :class:`PositionMismatch` per input whose output
            differed between two positions, in input order: two numbers, a
            number and a NaN, ``-0`` and ``+0``.
        nan_payloads_differ: the inputs whose output was NaN everywhere but
            with other bits somewhere (not counted dependent, as
            :attr:`actlut.Grade.nan_payloads_differ` is not counted wrong).
    """

    def __init__(self, function: str, format: str, entries: int, lengths: Tuple[int, ...],
                 offsets: int, calls: int, placements: int, dependent: List[PositionMismatch],
                 nan_payloads_differ: int = 0) -> None:
        self.function = function
        self.format = format
        self.entries = entries
        self.lengths = lengths
        self.offsets = offsets
        self.calls = calls
        self.placements = placements
        self.dependent = dependent
        self.nan_payloads_differ = nan_payloads_differ

    @property
    def independent(self) -> bool:
        """Whether no output depended on the position."""
        return not self.dependent

    def _lengths_text(self) -> str:
        ls = self.lengths
        if ls and list(ls) == list(range(ls[0], ls[-1] + 1)):
            return f"{ls[0]}..{ls[-1]}" if len(ls) > 1 else str(ls[0])
        return ", ".join(map(str, ls))

    def summary(self) -> str:
        """One line: how many inputs depend on their position, of how many,
        probed how."""
        return (
            f"{self.function}_{self.format}: {self.count:,} of {self.entries:,} inputs give "
            f"outputs that depend on their position (lengths {self._lengths_text()}, "
            f"{self.offsets} offsets each, {self.calls:,} calls)"
        )

    @property
    def count(self) -> int:
        """The number of position-dependent inputs."""
        return len(self.dependent)

    def to_dict(self) -> Dict[str, Any]:
        """The report as data: the counts, the probe, and each dependent input
        with both outputs and positions (bits as hex strings, as
        ``Grade.to_dict()`` gives them)."""
        h = lambda b: _hex(self.format, b)  # noqa: E731
        return {
            "function": self.function,
            "format": self.format,
            "entries": self.entries,
            "lengths": list(self.lengths),
            "offsets": self.offsets,
            "calls": self.calls,
            "placements": self.placements,
            "position_dependent": self.count,
            "nan_payloads_differ": self.nan_payloads_differ,
            "dependent": [
                {
                    "input": h(m.input),
                    "input_value": m.input_value,
                    "first": h(m.first),
                    "first_position": m.first_at[0],
                    "first_length": m.first_at[1],
                    "second": h(m.second),
                    "second_position": m.second_at[0],
                    "second_length": m.second_at[1],
                    "correct": h(m.expected),
                }
                for m in self.dependent
            ],
        }

    def __str__(self) -> str:
        """:meth:`summary`, then the first 10 dependent inputs, one per line."""
        lines = [self.summary()]
        lines += ["  " + m.describe(self.format) for m in self.dependent[:10]]
        if self.count > 10:
            lines.append(f"  ... and {self.count - 10:,} more")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<PositionReport {self.summary()}>"


#: Runs a kernel over consecutive windows: ``run(buf, length, out)`` fills
#: ``out`` (the format's bits) with the outputs for ``buf`` cut into arrays of
#: ``length`` elements, and returns the number of calls made.
Runner = Callable[[np.ndarray, int, np.ndarray], int]


def _each(impl: Callable[[np.ndarray], Any], fmt: str) -> Runner:
    """The runner that calls ``impl`` on each window, checking each result."""
    dt = _DTYPES[fmt]
    bits_dt = np.dtype(np.uint16) if dt.itemsize == 2 else np.dtype(np.uint8)
    ndarray = np.ndarray
    asarray = np.asarray

    def run(buf: np.ndarray, length: int, out: np.ndarray) -> int:
        n = buf.size // length
        shape = (length,)
        for lo in range(0, n * length, length):
            x = buf[lo : lo + length]
            try:
                y = impl(x)
            except Exception as e:
                raise ValueError(
                    f"the callable raised {type(e).__name__} on a 1-D {fmt} array of {length} "
                    f"elements (position probing calls it on arrays of many lengths): {e}"
                ) from e
            if type(y) is not ndarray:
                y = asarray(y)
            if y.shape != shape:
                raise ValueError(
                    f"the callable returned an array of shape {y.shape} for {length} inputs; "
                    f"it must return one output per input: shape {shape}"
                )
            if y.dtype == dt:
                out[lo : lo + length] = y.view(bits_dt)
            elif y.dtype == bits_dt:
                out[lo : lo + length] = y
            else:
                raise TypeError(
                    f"the callable returned dtype {y.dtype} for {length} {fmt} inputs; it must "
                    f"return {dt} (or its bits, {bits_dt}): e.g. .astype({_dtype_expr(fmt)})"
                )
        return n

    return run


def _offsets_of(length: int, offsets: int) -> List[int]:
    """The shifts that put each input at ``min(length, offsets)`` evenly spaced positions."""
    k = min(length, offsets)
    return sorted({i * length // k for i in range(k)})


def _lengths_arg(lengths: Iterable[int]) -> Tuple[int, ...]:
    try:
        ls = tuple(int(n) for n in lengths)
    except TypeError:
        raise TypeError(f"lengths must be an iterable of ints, not {type(lengths).__name__}") from None
    if not ls or min(ls) < 1:
        raise ValueError(f"lengths must be positive ints, at least one: {lengths!r}")
    return ls


def _probe(function: str, fmt: str, baseline: np.ndarray, run: Runner, lengths: Tuple[int, ...],
           offsets: int) -> PositionReport:
    """Places every input at ``offsets`` positions of arrays of each length,
    compares each output with ``baseline`` (the outputs on the whole array, in
    bits) and reports the inputs whose output differs."""
    x = _inputs(fmt)
    x.flags.writeable = False
    n = x.size
    bits_dt = baseline.dtype
    # Whether each bit pattern is a NaN (codes past the format's, which a byte format's
    # kernel could return, are not): two NaNs with other bits are counted apart.
    with np.errstate(invalid="ignore"):
        nan_bits = np.zeros(1 << (8 * bits_dt.itemsize), dtype=bool)
        nan_bits[:n] = np.isnan(x.astype(np.float64))
    payloads = np.zeros(n, dtype=bool)
    found = np.zeros(n, dtype=bool)
    other = np.zeros(n, dtype=bits_dt)
    where = np.zeros((n, 2), dtype=np.int64)
    calls, placements = 1, n
    for length in lengths:
        for shift in _offsets_of(length, offsets):
            # Input j sits at stream index j + shift, so at position (j + shift) % length; the
            # stream wraps around the inputs at both ends to fill whole windows.
            total = -(-(n + shift) // length) * length
            idx = (np.arange(total, dtype=np.int64) - shift) % n
            buf = x[idx]
            buf.flags.writeable = False
            out = np.empty(total, dtype=bits_dt)
            calls += run(buf, length, out)
            placements += total
            base = baseline[idx]
            diff = np.nonzero(out != base)[0]
            if diff.size:
                both = nan_bits[out[diff]] & nan_bits[base[diff]]
                payloads[idx[diff[both]]] = True
                diff = diff[~both]
            if diff.size:
                js = idx[diff]
                fresh = ~found[js]
                js, at = js[fresh], diff[fresh]
                js, first = np.unique(js, return_index=True)
                at = at[first]
                found[js] = True
                other[js] = out[at]
                where[js, 0] = at % length
                where[js, 1] = length
    expected = table(function, fmt).view(bits_dt)
    with np.errstate(invalid="ignore"):
        values = x.astype(np.float64)
    decode = lambda b: float(np.array(b, dtype=bits_dt).view(_DTYPES[fmt]).astype(np.float64))  # noqa: E731
    dependent = [
        PositionMismatch(
            input=int(j),
            input_value=float(values[j]),
            first=int(baseline[j]),
            first_value=decode(baseline[j]),
            first_at=(int(j), n),
            second=int(other[j]),
            second_value=decode(other[j]),
            second_at=(int(where[j, 0]), int(where[j, 1])),
            expected=int(expected[j]),
        )
        for j in np.nonzero(found)[0]
    ]
    payloads &= ~found
    return PositionReport(function, fmt, n, lengths, offsets, calls, placements, dependent,
                          int(payloads.sum()))


def _baseline(impl: Callable[[np.ndarray], Any], fmt: str) -> np.ndarray:
    """The kernel's outputs (bits) on the array of every input, checked."""
    n = _actlut.format_shape(fmt)[0]
    out = np.empty(n, dtype=np.uint16 if _DTYPES[fmt].itemsize == 2 else np.uint8)
    x = _inputs(fmt)
    x.flags.writeable = False
    _each(impl, fmt)(x, n, out)
    return out


def position_report(
    function: str,
    format: str,
    impl: Callable[[np.ndarray], Any],
    *,
    lengths: Iterable[int] = DEFAULT_LENGTHS,
    offsets: int = DEFAULT_OFFSETS,
) -> PositionReport:
    """Whether ``impl``'s output for an input depends on where it sits.

    ``impl`` is called first on the array of every input of the format (in
    bit-pattern order, as :func:`actlut.grade` calls it), then on 1-D arrays of
    every length in ``lengths`` (default 1 to 300): for each length, the
    inputs are laid out in consecutive arrays of that length, ``offsets``
    times (default 4), shifted so that each input sits at ``offsets`` evenly
    spaced positions (every position when the length is at most ``offsets``).
    So every input is placed in arrays of every length, at the start, the end
    and in between; the arrays are consecutive windows of one read-only
    buffer, so their start addresses vary too. Each output is compared, bit
    for bit, with the output for the same input in the first call; NaNs that
    differ only in their bits are counted apart
    (:attr:`PositionReport.nan_payloads_differ`).

    Calls: about ``entries * offsets * (1 + ln(300 / offsets))`` for the
    defaults (1.36 million for bf16 or f16, 5,300 for fp8).

    Returns a :class:`PositionReport`. Raises ValueError for an unknown function
    or format, a callable that raises or returns another number of outputs;
    TypeError for another dtype.
    """
    fn = _function_name(function)
    fmt = _format_name(format)
    if not callable(impl):
        raise TypeError(f"impl must be a callable (position probing calls it), not {type(impl).__name__}")
    table(fn, fmt)  # the Rust side's message for an unknown function or a pair without a table
    ls = _lengths_arg(lengths)
    if isinstance(offsets, bool) or not isinstance(offsets, int) or offsets < 1:
        raise ValueError(f"offsets must be a positive int, not {offsets!r}")
    fn_name = _actlut.function_name(fn)
    return _probe(fn_name, fmt, _baseline(impl, fmt), _each(impl, fmt), ls, offsets)


def assert_position_independent(
    function: str,
    format: str,
    impl: Callable[[np.ndarray], Any],
    *,
    lengths: Iterable[int] = DEFAULT_LENGTHS,
    offsets: int = DEFAULT_OFFSETS,
) -> PositionReport:
    """Asserts that ``impl`` gives every input the same output wherever it sits.

    Probes as :func:`position_report` does (every input, in arrays of every
    length from 1 to 300, at 4 offsets each, by default) and raises
    AssertionError naming, for each input whose output depends on its
    position (the first 10), the two outputs and the two positions; the first
    line counts them. Returns the report when the kernel passes.
    """
    __tracebackhide__ = True
    r = position_report(function, format, impl, lengths=lengths, offsets=offsets)
    if r.dependent:
        raise AssertionError(str(r))
    return r


# --- edge values ---------------------------------------------------------------------------


class EdgeValue(NamedTuple):
    """A named edge value of a format (:func:`edge_values`): ``value`` in the
    format's dtype, ``bits`` its bit pattern. ``id`` is the pytest id,
    ``bf16-smallest_subnormal``."""

    format: str
    name: str
    value: Any
    bits: int

    @property
    def id(self) -> str:
        return f"{self.format}-{self.name}"


#: The names :func:`edge_values` gives, in its order.
EDGE_NAMES = (
    "zero",
    "negative_zero",
    "smallest_subnormal",
    "largest_subnormal",
    "smallest_normal",
    "below_one",
    "one",
    "above_one",
    "exp_overflow",
    "largest_finite",
    "inf",
    "negative_inf",
    "nan",
)


def edge_values(format: str) -> Dict[str, Any]:
    """The edge values of ``format``, by name, as scalars of its dtype.

    In order: ``zero`` (+0), ``negative_zero``, ``smallest_subnormal``,
    ``largest_subnormal``, ``smallest_normal``, ``below_one`` and ``above_one``
    (the neighbours of ``one``), ``exp_overflow`` (the smallest input whose
    exact exp exceeds the largest finite value: the first that overflows to
    inf or NaN, or, in FP6 and FP4, that saturates), ``largest_finite``,
    ``inf``, ``negative_inf`` and ``nan`` (the format's default quiet NaN). A
    name whose value the format lacks is left out: the fnuz and unsigned
    formats have no ``negative_zero``; fp8_e8m0fnu has no ``zero`` and no
    subnormals (its ``smallest_normal`` is 2^-127); only f16, bf16, fp8_e5m2,
    fp8_e3m4 and fp8_e4m3ieee have infinities; FP6 and FP4 have no NaN. Every
    value is found among the format's bit patterns.

    >>> actlut.testing.edge_values("fp4_e2m1")["below_one"]
    float4_e2m1fn(0.5)
    """
    return {e.name: e.value for e in _edges(_format_name(format))}


def _edges(fmt: str) -> List[EdgeValue]:
    import ml_dtypes

    dt = _DTYPES[fmt]
    x = _inputs(fmt)
    bits = x.view(np.uint16 if dt.itemsize == 2 else np.uint8)
    with np.errstate(invalid="ignore"):  # NaN patterns
        v = x.astype(np.float64)
    nmant = int(ml_dtypes.finfo(dt).nmant)
    entries = _actlut.format_shape(fmt)[0]
    signed = bool((v[np.isfinite(v)] < 0).any())
    # The sign bit is the upper half of the codes; an unsigned format's codes are all positive.
    sign = entries // 2 if signed else entries
    found: Dict[str, int] = {}

    def first(mask: np.ndarray) -> Optional[int]:
        i = np.nonzero(mask)[0]
        return int(i[0]) if i.size else None

    if v[0] == 0:
        found["zero"] = 0
        if signed and v[sign] == 0 and math.copysign(1.0, v[sign]) < 0:
            found["negative_zero"] = sign
        found["smallest_subnormal"] = 1
        found["largest_subnormal"] = (1 << nmant) - 1
        found["smallest_normal"] = 1 << nmant
    else:
        # No zero (E8M0): code 0 is the smallest value, a normal one; no subnormals.
        found["smallest_normal"] = 0
    positive = np.isfinite(v) & (v > 0) & (np.arange(v.size) < sign)
    below = positive & (v < 1)
    found["below_one"] = int(np.nonzero(below)[0][np.argmax(v[below])])
    found["one"] = first(v == 1.0)
    above = positive & (v > 1)
    found["above_one"] = int(np.nonzero(above)[0][np.argmin(v[above])])
    largest = int(np.nonzero(positive)[0][np.argmax(v[positive])])
    has_nan = bool(np.isnan(np.array(np.nan).astype(dt).astype(np.float64)))
    if not has_nan:
        # FP6 and FP4: no NaN and no inf, so exp saturates.
        over = positive & (v > math.log(v[largest]))
    else:
        exp = table("exp", fmt).astype(np.float64)
        over = positive & ~np.isfinite(exp)
    if over.any():
        found["exp_overflow"] = int(np.nonzero(over)[0][np.argmin(v[over])])
    found["largest_finite"] = largest
    pos_inf, neg_inf = first(v == np.inf), first(v == -np.inf)
    if pos_inf is not None and neg_inf is not None:
        found["inf"], found["negative_inf"] = pos_inf, neg_inf
    nan = np.array(np.nan).astype(dt)
    if np.isnan(nan.astype(np.float64)):
        found["nan"] = int(nan.view(bits.dtype))
    return [EdgeValue(fmt, name, x[found[name]], found[name]) for name in EDGE_NAMES if name in found]
