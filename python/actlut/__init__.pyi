"""Type stubs of the package ``actlut`` (docs/python.md)."""

from decimal import Decimal
from fractions import Fraction
from typing import Any, Callable, Dict, Iterable, List, NamedTuple, Optional, Tuple, Union

import numpy as np
import numpy.typing as npt

from . import testing as testing

__version__: str

Impl = Union[npt.ArrayLike, Callable[[np.ndarray], Any]]

#: A constant's value: a float (its shortest repr decimal), or an int, str,
#: decimal.Decimal or fractions.Fraction, exact as given.
Constant = Union[float, int, str, Decimal, Fraction]

def functions() -> List[str]:
    """The names of actlut's functions, in the crate's order."""

def formats() -> List[str]:
    """The names of actlut's formats, in the crate's order."""

Format = Union[str, npt.DTypeLike]

def dtype(format: Format) -> np.dtype:
    """The numpy dtype of ``format``: ``numpy.float16`` or an ml_dtypes type."""

def dtype_name(format: Format) -> str:
    """The name of ``format``'s dtype: ml_dtypes' (``"float8_e4m3fn"``), or ``"float16"``."""

def op(function: str, *, derivative: bool = False, **constants: Constant) -> str:
    """The canonical text of an op: ``op("softcap", cap=30)`` is ``"softcap(cap=30)"``."""

def engine_names() -> Dict[str, str]:
    """Other engines' names for actlut's ops: ``{engine's name: op text}``."""

def table(function: str, format: Format, *, derivative: bool = False, **constants: Constant) -> np.ndarray:
    """The exact table of ``function`` (with its constants) over ``format``, entry ``i`` for the input bits ``i``."""

def apply(
    function: str,
    x: npt.ArrayLike,
    out: Optional[np.ndarray] = None,
    *,
    derivative: bool = False,
    **constants: Constant,
) -> np.ndarray:
    """``function`` of every element of ``x`` (any shape and strides): the exact table's entries."""

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
    **constants: Constant,
) -> np.ndarray:
    """The fused dequantize -> function (-> requantize) table of ``actlut quant``."""

class Mismatch(NamedTuple):
    """One input whose output is not correctly rounded."""

    input: int
    got: int
    expected: int
    ulps: Optional[int]
    kind: str
    input_value: Optional[float]
    got_value: Optional[float]
    expected_value: Optional[float]
    exact: str
    midpoint_ulps: Optional[float] = ...
    midpoint_error: Optional[float] = ...

class Tolerance(NamedTuple):
    """A closeness test: ``|got - expected| <= atol + rtol * |expected|``."""

    rtol: float
    atol: float
    preset: Optional[str]
    description: str

def tolerance(preset: str, format: str) -> Tolerance:
    """``torch.testing.assert_close``'s (``"torch"``) or ``numpy.allclose``'s (``"numpy"``) default for ``format``."""

def midpoints(
    function: str, format: str, inputs: npt.ArrayLike, *, derivative: bool = False, **constants: Constant
) -> Tuple[np.ndarray, np.ndarray]:
    """The exact value's distance from the nearest rounding midpoint at each input, in ulps, and its error bound."""

class Grade:
    """The grade of an implementation on every input of a format."""

    table: str
    function: str
    op: str
    format: str
    entries: int
    mismatches: int
    max_ulp: Optional[int]
    max_numeric_ulp: int
    histogram: Dict[int, int]
    nan_for_number: int
    number_for_nan: int
    invalid_codes: int
    nan_payloads_differ: int
    worst: List[Mismatch]
    def __init__(self, rust: Any, worst: int = 10) -> None: ...
    @property
    def correctly_rounded(self) -> bool:
        """Whether every output is correctly rounded."""
    def hidden_by(
        self,
        tolerance: Union[str, Tolerance, None] = None,
        *,
        rtol: Optional[float] = None,
        atol: Optional[float] = None,
    ) -> int:
        """How many wrong entries a test tolerance would let pass."""
    def report(self, *, worst: Optional[int] = None, beyond: int = 0, tolerances: Iterable[Any] = ()) -> str:
        """``actlut ulp``'s text report with other options."""
    def to_dict(self) -> Dict[str, Any]:
        """The report of ``actlut ulp --json``, parsed."""
    def to_json(self) -> str:
        """The report exactly as ``actlut ulp --json`` prints it."""

def grade(
    function: str,
    format: Format,
    impl: Impl,
    *,
    worst: int = 10,
    derivative: bool = False,
    **constants: Constant,
) -> Grade:
    """Grades an implementation of ``function`` over ``format`` on every input."""
