"""actlut: exact activation functions on small number formats, and a grader.

Every entry of actlut's tables is the exact value of the function at the exact
input, rounded once to the format (to nearest, ties to even). This package
gives them to Python:

- :func:`table` -- a function's whole table as a numpy array of the format's dtype;
- :func:`apply` -- the function on an array of any shape and strides, through
  the crate's SIMD kernels, with the GIL released;
- :func:`quant_table` -- fused dequantize -> function (-> requantize) tables for
  8-, 16- and 4-bit integer codes, as ``actlut quant`` writes them;
- :func:`grade` -- how far an implementation is from the exact table, on every
  input of the format, as ``actlut ulp`` reports it;
- :meth:`Grade.hidden_by` -- how many wrong entries a test tolerance
  (``torch.testing.assert_close``'s, ``numpy.allclose``'s, or yours) lets pass;
- :mod:`actlut.testing` -- assertions for test suites, position dependence,
  edge values (and a pytest plugin that offers them as parameters);
- ``python -m actlut ulp FUNCTION FORMAT FILE [--json]`` -- the command;
- ``python -m actlut survey [--json]`` -- the installed numpy, scipy,
  ml_dtypes and onnxruntime, graded.

The formats are :func:`formats` (``f16``, ``bf16``, ``fp8_e4m3``, ...), each with
its numpy dtype, :func:`dtype`: numpy's ``float16`` for f16, and for the others
ml_dtypes' dtype (numpy has only float16; ml_dtypes, a dependency, provides
the others), the one named by :func:`dtype_name` (``fp8_e4m3`` is
``ml_dtypes.float8_e4m3fn``; ``fp8_e4m3ieee`` is ``ml_dtypes.float8_e4m3``).
Every float dtype of ml_dtypes is the dtype of a format, and every format
argument takes actlut's name, the feature name (``fp8-e4m3``), the dtype's name
or the dtype itself, or another library's name as that library means it
(``torch.float8_e4m3fn``; docs/SEMANTICS.md, "Format names").

Everything is computed by the Rust crate (the extension ``actlut._actlut``):
this layer checks arguments and converts dtypes, and re-implements no table,
rounding or distance.
"""

from __future__ import annotations

import decimal as _decimal
import fractions as _fractions
import json as _json
import numbers as _numbers
import operator as _operator
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Union

import ml_dtypes as _ml
import numpy as _np

from . import _actlut

__all__ = [
    "Grade",
    "Mismatch",
    "Tolerance",
    "apply",
    "dtype",
    "dtype_name",
    "engine_names",
    "formats",
    "functions",
    "grade",
    "midpoints",
    "op",
    "quant_table",
    "table",
    "testing",
    "tolerance",
]

__version__ = "0.1.0"

def _dtype_of(name: str) -> _np.dtype:
    """The numpy dtype named ``name``: numpy's float16, or ml_dtypes' type of that name."""
    return _np.dtype(_np.float16) if name == "float16" else _np.dtype(getattr(_ml, name))


#: The dtype of each format, from the crate's list (``Format::ALL``, ``Format::dtype_name``).
_DTYPES: Dict[str, _np.dtype] = {f: _dtype_of(_actlut.dtype_name(f)) for f in _actlut.formats()}

#: The format of each dtype.
_FORMATS: Dict[_np.dtype, str] = {d: f for f, d in _DTYPES.items()}


def functions() -> List[str]:
    """The names of actlut's functions, in the crate's order.

    ``["gelu", "gelu_tanh", "sigmoid", "tanh", "silu", ...]``. Every function
    argument of this package takes these names, or the cargo feature names
    (``"gelu-tanh"``).
    """
    return list(_actlut.functions())


def formats() -> List[str]:
    """The names of actlut's formats, in the crate's order.

    ``["f16", "bf16", "fp8_e4m3", ..., "fp8_e8m0fnu"]``. Every format argument
    of this package takes these names, the cargo feature names (``"fp8-e4m3"``),
    the dtype names (``"float8_e4m3fn"``) or dtypes (``ml_dtypes.float8_e4m3fn``),
    and other libraries' names (``"torch.float8_e4m3fn"``).
    """
    return list(_actlut.formats())


def _format_name(format: Any) -> str:
    """The canonical name of ``format`` (a name or a dtype), or a ValueError naming it."""
    if not isinstance(format, str):
        try:
            format = _np.dtype(format).name
        except TypeError:
            raise TypeError(
                f"format must be a str such as 'f16' or a dtype, not {type(format).__name__}"
            ) from None
    return _actlut.format_name(format)


def _function_name(function: str) -> str:
    """``function`` checked to be a str (the Rust side checks the name)."""
    if not isinstance(function, str):
        raise TypeError(
            f"function must be a str such as 'gelu', not {type(function).__name__}"
        )
    return function


def _constant_text(name: str, value: Any) -> str:
    """The exact text of a constant's value: a decimal or a fraction.

    A binary float (``float``, numpy's floats) stands for the shortest decimal
    that converts back to it (``repr``: ``0.01`` is 1/100); ``int``, ``str``,
    ``decimal.Decimal`` and ``fractions.Fraction`` are exact as given."""
    if isinstance(value, bool):
        raise TypeError(f"constant `{name}` must be a number, not bool")
    if isinstance(value, _np.floating):
        # numpy's str is the shortest decimal that converts back in the value's own
        # precision (np.float32(0.1) is 0.1, not the float64 of it).
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, _numbers.Integral):
        return str(int(value))
    if isinstance(value, _fractions.Fraction):
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, _decimal.Decimal):
        # As a reduced fraction: Decimal(0.01), the double's exact value, is a decimal of 59
        # digits, which the parser reads only reduced (m/2^59).
        if value.is_finite():
            f = _fractions.Fraction(value)
            return f"{f.numerator}/{f.denominator}"
        return str(value)
    if isinstance(value, str):
        return value.strip()
    raise TypeError(
        f"constant `{name}` must be a float, int, str, decimal.Decimal or "
        f"fractions.Fraction, not {type(value).__name__}"
    )


def _op_text(function: str, derivative: bool = False, constants: Optional[Dict[str, Any]] = None) -> str:
    """The canonical text of the op: ``function`` (a name or an op's text) with
    ``constants`` and, when ``derivative``, as its derivative. The Rust side
    checks the names and values."""
    if not isinstance(function, str):
        raise TypeError(
            f"function must be a str such as 'gelu' or 'softcap(cap=30)', not {type(function).__name__}"
        )
    if not isinstance(derivative, bool):
        raise TypeError(f"derivative must be a bool, not {type(derivative).__name__}")
    pairs = [(k, _constant_text(k, v)) for k, v in (constants or {}).items()]
    return _actlut.op_text(function, pairs, derivative)


def op(function: str, *, derivative: bool = False, **constants: Any) -> str:
    """The canonical text of an op: a function with its constants, or its
    derivative -- what :func:`table`, :func:`apply` and :func:`grade` compute
    for the same arguments.

    ``function`` is a function's name (:func:`functions`), its feature name,
    an engine's name (:func:`engine_names`: transformers' ``"gelu_10"``,
    vLLM's ``"swigluoai"``) or an op's text (``"softcap(cap=30)"``). A
    constant is a ``float`` (its shortest repr decimal: ``0.01`` is 1/100),
    an ``int``, a ``str`` (``"1/6"``, ``"1.702"``), a ``decimal.Decimal`` or a
    ``fractions.Fraction``, exact as given. A constant left out takes its
    default.

    Raises TypeError naming a constant without default that is not given
    (softcap's ``cap``, prelu's ``weight``, xielu's ``alpha_p``); ValueError
    naming an unknown constant, one out of its domain (``cap <= 0``, NaN,
    infinity, a hardtanh ``min`` above its ``max``) or given twice.

    >>> actlut.op("softcap", cap=30)
    'softcap(cap=30)'
    >>> actlut.op("leaky_relu", alpha=0.01)
    'leaky_relu'
    >>> actlut.op("gelu", derivative=True)
    'gelu_derivative'
    """
    return _op_text(function, derivative, constants)


def engine_names() -> Dict[str, str]:
    """Other engines' names for actlut's ops: ``{engine's name: op text}``
    (``actlut_core::names::ENGINE_NAMES``): transformers' ``ACT2CLS`` keys
    (``"gelu_10"``: ``"gelu_clipped(min=-10,max=10)"``), vLLM's
    (``"swigluoai"``: ``"swiglu_oai"``), PyTorch's, ONNX's, candle's and
    burn's. Each is accepted wherever a function is."""
    return dict(_actlut.engine_names())


def dtype(format: Any) -> _np.dtype:
    """The numpy dtype of ``format``: ``numpy.float16`` or an ml_dtypes type.

    >>> actlut.dtype("bf16")
    dtype(bfloat16)
    """
    return _DTYPES[_format_name(format)]


def dtype_name(format: Any) -> str:
    """The name of ``format``'s dtype: ml_dtypes' (``"float8_e4m3fn"`` for
    ``fp8_e4m3``), or ``"float16"`` for f16.

    >>> actlut.dtype_name("fp8_e4m3ieee")
    'float8_e4m3'
    """
    return _actlut.dtype_name(_format_name(format))


def _bits_dtype(format: str) -> _np.dtype:
    return _np.dtype(_np.uint16) if _actlut.format_shape(format)[1] == 2 else _np.dtype(_np.uint8)


def table(function: str, format: Any, *, derivative: bool = False, **constants: Any) -> _np.ndarray:
    """The exact table of ``function`` over ``format``, as a numpy array.

    ``function`` is a name, an engine's name or an op's text, with its
    constants as keyword arguments (:func:`op`): ``table("softcap", "bf16",
    cap=30)`` is ``table("softcap(cap=30)", "bf16")``. ``derivative=True``
    gives the derivative's table. A function at its default constants has a
    built-in table; any other op's table is computed once per process (5 to
    7 ms for a 16-bit format) and kept.

    Entry ``i`` is the correctly rounded output for the input whose bit pattern
    is ``i``: 65,536 entries for f16 and bf16, 256 for fp8, 64 for FP6, 16 for
    FP4. The dtype is the format's (:func:`dtype`); ``.view(numpy.uint16)``
    (16-bit formats) or ``.view(numpy.uint8)`` gives the bits. The array is a
    fresh copy of the crate's table.

    Raises ValueError for an unknown function or format, and for a pair with
    no table (log and rsqrt over FP6 and FP4, which have no NaN); for the
    constants, as :func:`op`.

    >>> t = actlut.table("gelu", "f16")
    >>> t[0x3C00]  # gelu(1.0)
    np.float16(0.8413)
    """
    fn = _op_text(function, derivative, constants)
    fmt = _format_name(format)
    bits = _actlut.table_bits(fn, fmt)
    return bits.view(_DTYPES[fmt])


def apply(
    function: str,
    x: Any,
    out: Optional[_np.ndarray] = None,
    *,
    derivative: bool = False,
    **constants: Any,
) -> _np.ndarray:
    """``function`` of every element of ``x``: the exact table's entries.

    ``function`` and its constants (keyword arguments), or ``derivative=True``,
    as :func:`table`: ``apply("softcap", x, cap=30)``.

    ``x`` is a numpy array (or anything :func:`numpy.asarray` makes one of) of
    any shape and any strides, of one of the formats' dtypes; the result has
    its shape and dtype. Contiguous arrays (and each contiguous innermost row
    of a strided one) go through the crate's SIMD kernels; the GIL is released
    while they run.

    ``out``, if given, must be a writeable array of the same shape and dtype;
    it is filled and returned. It may be ``x`` itself (in place) or overlap it.

    ``float32`` goes through the crate's computed path (no table:
    ``actlut::computed::map_f32``; for an op with constants or a derivative,
    ``actlut::eval_op_f32`` element by element), which rounds once to float32 wherever its
    evaluation settles the rounding -- every input checked against MPFR so far --
    and is within 0.5 ulp + 2^-40 everywhere. ``float64`` is refused: actlut has
    no exact float64 path, and a result rounded to float32 would look exact.

    Raises TypeError for another dtype, ValueError for an unknown function, a
    function without a table over the format (log over FP4), an ``out`` of
    another shape, or an FP6/FP4 byte that is not a code of the format.
    """
    fn = _op_text(function, derivative, constants)
    x = _np.asarray(x)
    dt = x.dtype
    if out is not None:
        if not isinstance(out, _np.ndarray):
            raise TypeError(f"out must be a numpy array, not {type(out).__name__}")
        if out.dtype != dt:
            raise TypeError(f"out has dtype {out.dtype}; it must have the dtype of x, {dt}")
        if out.shape != x.shape:
            raise ValueError(f"out has shape {out.shape}; it must have the shape of x, {x.shape}")
        if not out.flags.writeable:
            raise ValueError("out is read-only")
    if dt == _np.float32:
        return _run(x, out, lambda a, b: _actlut.map_f32(fn, a, b), lambda a: _actlut.apply_f32(fn, a), None)
    if dt == _np.float64:
        raise TypeError(
            "float64 has no exact path in actlut (its computed path rounds to float32): "
            "convert with x.astype(numpy.float32), or to a table dtype such as numpy.float16"
        )
    fmt = _FORMATS.get(dt)
    if fmt is None:
        raise TypeError(
            f"actlut has no {fn} for dtype {dt}: use numpy.float16, one of ml_dtypes' "
            "bfloat16, float8_e4m3fn, float8_e5m2, float8_e4m3fnuz, float8_e5m2fnuz, "
            "float6_e2m3fn, float6_e3m2fn, float4_e2m1fn, or numpy.float32 (computed path)"
        )
    bits = _bits_dtype(fmt)
    if bits == _np.uint16:
        return _run(x, out, lambda a, b: _actlut.map_u16(fn, fmt, a, b), lambda a: _actlut.apply_u16(fn, fmt, a), bits)
    return _run(x, out, lambda a, b: _actlut.map_u8(fn, fmt, a, b), lambda a: _actlut.apply_u8(fn, fmt, a), bits)


def _same_view(a: _np.ndarray, b: _np.ndarray) -> bool:
    """Whether ``a`` and ``b`` are the same elements in the same order."""
    return (
        a.shape == b.shape
        and a.strides == b.strides
        and a.__array_interface__["data"][0] == b.__array_interface__["data"][0]
    )


def _run(x, out, mapper, in_place, bits) -> _np.ndarray:
    view = (lambda a: a) if bits is None else (lambda a: a.view(bits))
    if out is None:
        out = _np.empty_like(x)
    elif _same_view(x, out):
        in_place(view(out))
        return out
    elif _np.may_share_memory(x, out):
        x = x.copy()
    mapper(view(x), view(out))
    return out


class Mismatch(NamedTuple):
    """One input whose output is not correctly rounded (:attr:`Grade.worst`).

    ``input``, ``got`` and ``expected`` are bit patterns; the ``*_value``
    fields are their values as Python floats (None for a byte that is no code
    of the format); ``exact`` is the reference value before rounding, as text
    (17 significant digits); ``ulps`` is the distance, None when it is
    unbounded; ``kind`` is ``"ulps"``, ``"nan_for_number"``, ``"number_for_nan"``
    or ``"invalid_code"``.

    ``midpoint_ulps`` is the exact value's signed distance from the nearest
    rounding midpoint, in ulps of the format, from the crate's reference (the
    evaluation that settles the table entry, not a float): near 0, the input
    is a hard case a kernel can miss by rounding from a few extra bits; near
    0.5, the exact value sits on a value of the format and a 1-ulp error is a
    plain one. Positive when the exact value is above the midpoint. It is
    within ``midpoint_error`` of the exact distance (below 2^-29 ulp in f16
    unless the refined evaluation was needed, far less then). Both are None
    where NaN is due or the exact value is infinite.
    """

    input: int
    got: int
    expected: int
    ulps: Optional[int]
    kind: str
    input_value: Optional[float]
    got_value: Optional[float]
    expected_value: Optional[float]
    exact: str
    midpoint_ulps: Optional[float] = None
    midpoint_error: Optional[float] = None


def _value(s: str) -> Optional[float]:
    try:
        return float(s)
    except ValueError:
        return None


class Tolerance(NamedTuple):
    """A closeness test: ``got`` passes for ``expected`` when
    ``|got - expected| <= atol + rtol * |expected|`` (both as float64), as
    ``torch.testing.assert_close`` and ``numpy.allclose`` test it
    (:func:`tolerance`, :meth:`Grade.hidden_by`). ``preset`` is ``"torch"``,
    ``"numpy"`` or None (given); ``description`` is what reports call it."""

    rtol: float
    atol: float
    preset: Optional[str]
    description: str


def _tolerance_number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, _numbers.Real):
        raise TypeError(f"{what} must be a real number, not {type(value).__name__}")
    v = float(value)
    if not (v >= 0 and v != float("inf")):
        raise ValueError(f"{what} must be finite and non-negative, not {value!r}")
    return v


def tolerance(preset: str, format: str) -> Tolerance:
    """The default tolerance of a test library for ``format``'s dtype.

    - ``"torch"``: ``torch.testing.assert_close``'s defaults
      (``_DTYPE_PRECISIONS`` in ``torch/testing/_comparison.py``): f16 rtol
      1e-3, atol 1e-5; bf16 rtol 1.6e-2, atol 1e-5; every other format (no
      entry for its dtype) rtol 0, atol 0, an exact comparison.
    - ``"numpy"``: ``numpy.allclose``'s defaults, rtol 1e-5, atol 1e-8.

    >>> actlut.tolerance("torch", "bf16")
    Tolerance(rtol=0.016, atol=1e-05, preset='torch', description="assert_close's default bf16 tolerance")
    """
    if not isinstance(preset, str):
        raise TypeError(f"preset must be a str, 'torch' or 'numpy', not {type(preset).__name__}")
    rtol, atol, description = _actlut.tolerance_preset(preset, _format_name(format))
    return Tolerance(rtol, atol, preset, description)


def _given(rtol: float, atol: float) -> Tolerance:
    return Tolerance(rtol, atol, None, f"rtol={rtol!r}, atol={atol!r}")


class Grade:
    """The grade of an implementation on every input of a format (:func:`grade`).

    The counts and distances are those of ``actlut ulp`` (docs/ulp.md), from
    the same Rust code. The distance between two values is how many steps
    apart they are in the ordered list of the format's values (``-0`` and
    ``+0`` one step apart, infinity one step past the largest finite value).

    Attributes:
        function, format, table: the names (``table`` is ``"gelu_f16"``,
            ``"softcap(cap=30)_bf16"``).
        op: the op's canonical text: the function's name at its default
            constants (``"gelu"``), else with them (``"softcap(cap=30)"``),
            ``"gelu_derivative"`` for a derivative.
        entries: the number of inputs graded.
        mismatches: the number of outputs that are not correctly rounded.
        max_ulp: the largest distance; None when a NaN stands for a number,
            a number for a NaN, or an output is no code of the format.
        max_numeric_ulp: the largest distance between two numbers (0 if none).
        histogram: ``{ulps: count}`` of the numeric mismatches.
        nan_for_number, number_for_nan, invalid_codes: the unbounded ones.
        nan_payloads_differ: NaN where NaN is due, with other bits (correct).
        worst: the worst inputs, a list of :class:`Mismatch`, unbounded first,
            each with the exact value's distance from the rounding midpoint.

    ``str(grade)`` is ``actlut ulp``'s text report; :meth:`to_dict` its JSON;
    :meth:`hidden_by` counts what a test tolerance would let pass.
    """

    def __init__(self, rust: Any, worst: int = 10) -> None:
        self._rust = rust
        self._worst = worst
        self._json = rust.json(worst, 0, [])
        self._text: Optional[str] = None
        d = _json.loads(self._json)
        self.table: str = d["table"]
        self.function: str = d["function"]
        self.op: str = d["op"]
        self.format: str = d["format"]
        self.entries: int = d["entries"]
        self.mismatches: int = d["mismatches"]
        self.max_ulp: Optional[int] = d["max_ulp"]
        self.max_numeric_ulp: int = d["max_numeric_ulp"]
        self.histogram: Dict[int, int] = {h["ulps"]: h["count"] for h in d["histogram"]}
        self.nan_for_number: int = d["nan_for_number"]
        self.number_for_nan: int = d["number_for_nan"]
        self.invalid_codes: int = d["invalid_codes"]
        self.nan_payloads_differ: int = d["nan_payloads_differ"]
        self.worst: List[Mismatch] = [_mismatch(w) for w in d["worst"]]
        self._hidden: Dict[str, int] = {h["tolerance"]: h["count"] for h in d["hidden_by"]}

    @property
    def correctly_rounded(self) -> bool:
        """Whether every output is correctly rounded (no mismatch)."""
        return self.mismatches == 0

    def hidden_by(
        self,
        tolerance: Union[str, Tolerance, None] = None,
        *,
        rtol: Optional[float] = None,
        atol: Optional[float] = None,
    ) -> int:
        """How many wrong entries a test tolerance would let pass.

        A wrong entry passes when ``|got - expected| <= atol + rtol *
        |expected|``, ``expected`` the correctly rounded entry, both as float64
        (what ``torch.testing.assert_close`` and ``numpy.allclose`` see when
        the reference is exact in the dtype); an infinity passes only for
        itself, a NaN never (neither library's default ``equal_nan``), an
        invalid code never; ``-0`` for ``+0`` always.

        ``tolerance`` is a preset name, ``"torch"`` (``assert_close``'s
        default for the format's dtype) or ``"numpy"`` (``numpy.allclose``'s),
        or a :class:`Tolerance`; otherwise give both ``rtol`` and ``atol``.

        >>> g.hidden_by("torch"), g.hidden_by(rtol=1e-2, atol=0)
        """
        if tolerance is not None:
            if rtol is not None or atol is not None:
                raise TypeError("give a tolerance, or rtol and atol, not both")
            if isinstance(tolerance, str):
                return self._hidden_by_preset(tolerance)
            if isinstance(tolerance, Tolerance):
                if tolerance.preset is not None:
                    return self._hidden_by_preset(tolerance.preset)
                rtol, atol = tolerance.rtol, tolerance.atol
            else:
                raise TypeError(
                    "tolerance must be 'torch', 'numpy' or an actlut.Tolerance, "
                    f"not {type(tolerance).__name__}"
                )
        if rtol is None or atol is None:
            raise TypeError(
                "hidden_by needs a preset ('torch', 'numpy'), a Tolerance, or both rtol and atol"
            )
        return self._rust.hidden_by(
            None, _tolerance_number(rtol, "rtol"), _tolerance_number(atol, "atol")
        )

    def _hidden_by_preset(self, preset: str) -> int:
        if preset in self._hidden:
            return self._hidden[preset]
        return self._rust.hidden_by(preset)

    def report(self, *, worst: Optional[int] = None, beyond: int = 0, tolerances: Any = ()) -> str:
        """``actlut ulp``'s text report with other options: the ``worst`` worst
        inputs (default: as graded) more than ``beyond`` ulps off, and the
        wrong entries each of ``tolerances`` (:class:`Tolerance` objects, or
        ``(rtol, atol)`` pairs) passes besides the presets."""
        w = self._worst if worst is None else _operator.index(worst)
        given = []
        for t in tolerances:
            if isinstance(t, Tolerance):
                if t.preset is None:
                    given.append((t.rtol, t.atol))
            else:
                r, a = t
                given.append((_tolerance_number(r, "rtol"), _tolerance_number(a, "atol")))
        return self._rust.text(w, _operator.index(beyond), given)

    def to_dict(self) -> Dict[str, Any]:
        """The report as ``actlut ulp --json`` prints it, parsed: the same keys
        (``table``, ``function``, ``op``, ``format``, ``entries``, ``mismatches``,
        ``max_ulp``, ``max_numeric_ulp``, ``histogram`` as a list of
        ``{"ulps", "count"}``, ``nan_for_number``, ``number_for_nan``,
        ``invalid_codes``, ``nan_payloads_differ``, ``worst`` (each with
        ``midpoint_ulps`` and ``midpoint_error``), ``hidden_by`` (each preset
        tolerance's ``tolerance``, ``description``, ``rtol``, ``atol`` and
        ``count``))."""
        return _json.loads(self._json)

    def to_json(self) -> str:
        """The report exactly as ``actlut ulp --json`` prints it."""
        return self._json

    def __str__(self) -> str:
        """``actlut ulp``'s text report: counts, tolerances, histogram, the worst inputs."""
        if self._text is None:
            self._text = self._rust.text(self._worst, 0, [])
        return self._text

    def __repr__(self) -> str:
        """One line: the table, the counts and the worst input."""
        if self.max_ulp is not None:
            worst = f"max_ulp={self.max_ulp}"
        else:
            worst = (
                f"max_ulp=None, max_numeric_ulp={self.max_numeric_ulp}, "
                f"nan_for_number={self.nan_for_number}, number_for_nan={self.number_for_nan}"
            )
            if self.invalid_codes:
                worst += f", invalid_codes={self.invalid_codes}"
        head = f"<Grade {self.table}: {self.mismatches} of {self.entries} wrong, {worst}"
        if not self.worst:
            return head + ">"
        w = self.worst[0]
        return head + (
            f"; worst input {_hex(self.format, w.input)} ({w.input_value!r}): "
            f"got {w.got_value!r}, expected {w.expected_value!r}>"
        )


def _mismatch(w: Dict[str, Any]) -> Mismatch:
    return Mismatch(
        input=int(w["input"], 16),
        got=int(w["got"], 16),
        expected=int(w["correct"], 16),
        ulps=w["ulps"],
        kind=w["kind"],
        input_value=_value(w["input_value"]),
        got_value=_value(w["got_value"]),
        expected_value=_value(w["correct_value"]),
        exact=w["exact"],
        midpoint_ulps=w["midpoint_ulps"],
        midpoint_error=w["midpoint_error"],
    )


def midpoints(
    function: str, format: str, inputs: Any, *, derivative: bool = False, **constants: Any
) -> "tuple[_np.ndarray, _np.ndarray]":
    """The exact value's distance from the nearest rounding midpoint at each
    input (bit patterns, or values of the format's dtype), in ulps of the
    format, and the bound on its error: two float64 arrays, NaN where NaN is
    due. From the crate's reference (``actlut_core::midpoint_distance_op``), as
    :attr:`Mismatch.midpoint_ulps`. ``function``, its constants and
    ``derivative`` as :func:`table`."""
    fn = _op_text(function, derivative, constants)
    fmt = _format_name(format)
    x = _np.asarray(inputs)
    entries, width = _actlut.format_shape(fmt)
    if x.dtype == _DTYPES[fmt]:
        x = x.view(_np.uint16 if width == 2 else _np.uint8)
    if x.dtype.kind not in "ui":
        raise TypeError(f"inputs must be bit patterns (integers) or {fmt} values, not {x.dtype}")
    flat = x.reshape(-1)
    if flat.size and (flat.min() < 0 or flat.max() >= entries):
        raise ValueError(f"inputs must be bit patterns of {fmt}: 0..={entries - 1}")
    d, e = _actlut.midpoints(fn, fmt, _np.ascontiguousarray(flat, dtype=_np.uint16))
    return d.reshape(x.shape), e.reshape(x.shape)


def _hex(format: str, bits: int) -> str:
    width = 4 if _actlut.format_shape(format)[1] == 2 else 2
    return f"0x{bits:0{width}x}"


def _inputs(fmt: str) -> _np.ndarray:
    entries, width = _actlut.format_shape(fmt)
    bits = _np.arange(entries, dtype=_np.uint16 if width == 2 else _np.uint8)
    return bits.view(_DTYPES[fmt])


def grade(
    function: str,
    format: Any,
    impl: Union[_np.ndarray, Callable[[_np.ndarray], Any]],
    *,
    worst: int = 10,
    derivative: bool = False,
    **constants: Any,
) -> Grade:
    """Grades an implementation of ``function`` over ``format`` on every input.

    ``function`` and its constants (keyword arguments), or ``derivative=True``,
    as :func:`table`: ``grade("softcap", "bf16", impl, cap=30)`` grades
    against the table of ``softcap(cap=30)``.

    ``impl`` is either

    - the implementation's outputs for every input, in input bit-pattern order
      (the output for the input whose bits are ``i`` at index ``i``): a 1-D
      array of the format's dtype, or of its bits (``uint16`` for f16 and bf16,
      ``uint8`` for the byte formats, FP6 and FP4 codes in the low bits); or
    - a callable that gets the array of every input (the format's dtype, in
      bit-pattern order) and returns such an array.

    Returns a :class:`Grade` listing the ``worst`` worst inputs. The
    comparison is ``actlut ulp``'s (the same Rust code): a NaN where NaN is due
    is correct whatever its payload.

    Raises ValueError for an unknown function or format, a pair without a
    table, or outputs of the wrong length or shape; TypeError for outputs of
    another dtype (round them to the format first: ``.astype(numpy.float16)``).

    >>> import numpy as np
    >>> g = actlut.grade("exp", "f16", np.exp)
    >>> g.mismatches, g.max_ulp
    """
    fn = _op_text(function, derivative, constants)
    fmt = _format_name(format)
    worst = _operator.index(worst)
    if worst < 0:
        raise ValueError(f"worst must be 0 or more, not {worst}")
    if not _actlut.has_table(fn, fmt):
        # The Rust side's message: unknown function, or no table for the pair.
        _actlut.table_bits(fn, fmt)
    entries, width = _actlut.format_shape(fmt)
    dt = _DTYPES[fmt]
    bits_dt = _np.dtype(_np.uint16) if width == 2 else _np.dtype(_np.uint8)
    if callable(impl):
        y = _np.asarray(_call(impl, _inputs(fmt), f"the array of every {fmt} input"))
        if y.shape != (entries,):
            raise ValueError(
                f"the callable returned an array of shape {y.shape}; it must return one "
                f"output per input, in input order: shape ({entries},)"
            )
        source = "the callable returned"
    else:
        y = _np.asarray(impl)
        if y.ndim != 1 or y.shape[0] != entries:
            raise ValueError(
                f"impl has shape {y.shape}; {fmt} has {entries} inputs, and grading needs "
                f"one output for each, in input bit-pattern order: shape ({entries},)"
            )
        source = "impl has"
    if y.dtype == dt:
        got = y.view(bits_dt)
    elif y.dtype == bits_dt:
        got = y
    else:
        raise TypeError(
            f"{source} dtype {y.dtype}; grading {fmt} needs {dt} (or its bits, {bits_dt}): "
            f"round the outputs to the format first, e.g. .astype({_dtype_expr(fmt)})"
        )
    got = _np.ascontiguousarray(got, dtype=_np.uint16)
    return Grade(_actlut.grade_bits(fn, fmt, got), worst)


def _call(impl: Callable[[_np.ndarray], Any], x: _np.ndarray, what: str) -> Any:
    """``impl(x)``, an exception it raises turned into a ValueError naming the call."""
    try:
        return impl(x)
    except Exception as e:
        raise ValueError(
            f"the callable raised {type(e).__name__} on {what} "
            f"(a 1-D {x.dtype} array of {x.size} elements): {e}"
        ) from e


def _dtype_expr(fmt: str) -> str:
    return "numpy.float16" if fmt == "f16" else f"ml_dtypes.{_DTYPES[fmt].name}"


#: quant_table's integer input types (the crate's ``QuantType::ALL``): the CLI's name of each
#: dtype name (``int4`` is ``i4``, ``uint2`` is ``u2``).
_QUANT_IN = {("int" if t[0] == "i" else "uint") + t[1:]: t for t in _actlut.quant_types()}
_QUANT_OUT = {
    "float32": "f32", "float16": "f16", "bfloat16": "bf16",
    "int16": "i16", "uint16": "u16", "int8": "i8", "uint8": "u8",
}
#: The array dtype and bits dtype of each output.
_OUT_DTYPES = {
    "f32": (_np.dtype(_np.float32), _np.uint32),
    "f16": (_np.dtype(_np.float16), _np.uint16),
    "bf16": (_np.dtype(_ml.bfloat16), _np.uint16),
    "i16": (_np.dtype(_np.int16), _np.uint16),
    "u16": (_np.dtype(_np.uint16), _np.uint16),
    "i8": (_np.dtype(_np.int8), _np.uint8),
    "u8": (_np.dtype(_np.uint8), _np.uint8),
}


def _quant_type(value: Any, names: Dict[str, str], what: str) -> str:
    """The CLI's name (``i16``) of a dtype-like or name."""
    if isinstance(value, str) and value in names.values():
        return value
    try:
        name = _np.dtype(value).name
    except TypeError:
        name = None
    if name not in names:
        raise ValueError(f"{what} {value!r}: expected one of {', '.join(names)}")
    return names[name]


def _int_arg(value: Any, what: str) -> int:
    try:
        v = _operator.index(value)
    except TypeError:
        raise TypeError(f"{what} must be an integer, not {type(value).__name__}") from None
    return v


def _scale_arg(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, _numbers.Real):
        raise TypeError(f"{what} must be a number, not {type(value).__name__}")
    return float(value)


def quant_table(
    function: str,
    in_dtype: Any,
    scale: float,
    zero_point: int,
    out_dtype: Any,
    out_scale: Optional[float] = None,
    out_zero_point: Optional[int] = None,
    rounding: str = "ties-even",
    *,
    derivative: bool = False,
    **constants: Any,
) -> _np.ndarray:
    """The fused dequantize -> ``function`` (-> requantize) table of ``actlut quant``.

    ``function``, its constants (keyword arguments) and ``derivative`` as
    :func:`table`: ``quant_table("softcap", "int8", 0.5, 0, "float16", cap=30)``.

    Entry ``i`` is the output for the input code whose bits are ``i`` (for
    ``int8``: codes 0..127, then -128..-1), as ``actlut quant`` writes them:
    the code dequantized as ``(q - zero_point) * scale`` in float32, the exact
    function of that value rounded once to ``out_dtype``, or, for integer
    outputs, requantized with ``out_scale`` and ``out_zero_point`` (default 0),
    ties rounded by ``rounding`` (``"ties-even"``, ONNX's, or ``"ties-away"``,
    TFLite's and CMSIS-NN's).

    ``in_dtype``: int16, uint16, int8, uint8 (numpy dtypes or their names),
    ml_dtypes.int4, uint4, int2 or uint2 (or "i16", ..., "u2"); 65,536, 256, 16
    or 4 entries.
    ``out_dtype``: float32, float16, ml_dtypes.bfloat16, int16, uint16, int8 or
    uint8. ``function`` is one of :func:`functions` (``"identity"`` among
    them), an engine's name or an op's text.

    A scale is the Python float rounded once to the nearest float32, as runtimes
    store it (``1/4096`` is exact); an ``numpy.float32`` passes unchanged.
    (``actlut quant`` rounds its decimal argument to float32 directly, so give
    it the float32's exact decimal to compare.)

    Raises ValueError for an unknown function or type, a scale that is not
    finite and positive (also after rounding to float32), a 16-bit input
    scale so small that no code dequantizes to a normal float32, a zero point
    outside its type, or ``out_scale`` with a float output; TypeError for a
    non-numeric scale or a non-integer zero point.
    """
    fn = _op_text(function, derivative, constants)
    in_t = _quant_type(in_dtype, _QUANT_IN, "in_dtype")
    out_t = _quant_type(out_dtype, _QUANT_OUT, "out_dtype")
    if not isinstance(rounding, str):
        raise TypeError(f"rounding must be a str, not {type(rounding).__name__}")
    entries = _actlut.quant_table_bits(
        fn,
        in_t,
        _scale_arg(scale, "scale"),
        _int_arg(zero_point, "zero_point"),
        out_t,
        None if out_scale is None else _scale_arg(out_scale, "out_scale"),
        None if out_zero_point is None else _int_arg(out_zero_point, "out_zero_point"),
        rounding,
    )
    dt, bits = _OUT_DTYPES[out_t]
    return entries.astype(bits).view(dt)

from . import testing  # noqa: E402  (actlut.testing needs the names above)
