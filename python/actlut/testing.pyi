"""Type stubs of ``actlut.testing``."""

from typing import Any, Callable, Union

import numpy as np
import numpy.typing as npt

from . import Grade

Impl = Union[npt.ArrayLike, Callable[[np.ndarray], Any]]

def assert_correctly_rounded(function: str, format: str, impl: Impl) -> Grade:
    """Asserts that every output of ``impl`` is the correctly rounded value."""

def assert_within_ulp(function: str, format: str, impl: Impl, max_ulp: int) -> Grade:
    """Asserts that every output of ``impl`` is within ``max_ulp`` ulps."""
