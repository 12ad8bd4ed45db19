"""Type stubs of ``actlut.testing``."""

from typing import Any, Callable, Dict, Iterable, List, NamedTuple, Optional, Tuple, Union

import numpy as np
import numpy.typing as npt

from . import Grade

Impl = Union[npt.ArrayLike, Callable[[np.ndarray], Any]]
Kernel = Callable[[np.ndarray], Any]

FIRST_LINE_MAX: int
DEFAULT_LENGTHS: range
DEFAULT_OFFSETS: int
EDGE_NAMES: Tuple[str, ...]

def summary(g: Grade, max_ulp: Optional[int] = None) -> str:
    """The first line of an assertion message about ``g`` (at most 200 characters)."""

def assert_correctly_rounded(function: str, format: str, impl: Impl, *, worst: int = 10) -> Grade:
    """Asserts that every output of ``impl`` is the correctly rounded value."""

def assert_within_ulp(function: str, format: str, impl: Impl, max_ulp: int, *, worst: int = 10) -> Grade:
    """Asserts that every output of ``impl`` is within ``max_ulp`` ulps."""

class PositionMismatch(NamedTuple):
    """An input whose output depends on where it sits."""

    input: int
    input_value: float
    first: int
    first_value: float
    first_at: Tuple[int, int]
    second: int
    second_value: float
    second_at: Tuple[int, int]
    expected: int
    def describe(self, format: str) -> str: ...

class PositionReport:
    """Whether a kernel's output for an input depends on where it sits."""

    function: str
    format: str
    entries: int
    lengths: Tuple[int, ...]
    offsets: int
    calls: int
    placements: int
    dependent: List[PositionMismatch]
    nan_payloads_differ: int
    @property
    def independent(self) -> bool: ...
    @property
    def count(self) -> int: ...
    def summary(self) -> str: ...
    def to_dict(self) -> Dict[str, Any]: ...

def position_report(
    function: str, format: str, impl: Kernel, *, lengths: Iterable[int] = ..., offsets: int = ...
) -> PositionReport:
    """Whether ``impl``'s output for an input depends on where it sits."""

def assert_position_independent(
    function: str, format: str, impl: Kernel, *, lengths: Iterable[int] = ..., offsets: int = ...
) -> PositionReport:
    """Asserts that ``impl`` gives every input the same output wherever it sits."""

class EdgeValue(NamedTuple):
    """A named edge value of a format."""

    format: str
    name: str
    value: Any
    bits: int
    @property
    def id(self) -> str: ...

def edge_values(format: str) -> Dict[str, Any]:
    """The edge values of ``format``, by name, as scalars of its dtype."""
