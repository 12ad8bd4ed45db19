"""The pytest plugin of actlut (entry point ``pytest11``): the edge values of
every format as test parameters with readable ids.

A test that takes an argument named ``edge_value`` runs once per edge value
(:func:`actlut.testing.edge_values`) of every format, or of the formats its
``edge_values`` marker names; each run gets an
:class:`actlut.testing.EdgeValue` (``format``, ``name``, ``value`` in the
format's dtype, ``bits``), and its id is ``<format>-<name>``::

    import pytest

    @pytest.mark.edge_values("bf16", "fp8_e4m3")
    def test_my_gelu_at_the_edges(edge_value):
        x = numpy.array([edge_value.value])
        ...

    # test_my_gelu_at_the_edges[bf16-smallest_subnormal], ...[fp8_e4m3-nan], ...
"""

from __future__ import annotations

from typing import Any

#: The argument name the plugin parametrizes.
ARGUMENT = "edge_value"


def pytest_configure(config: Any) -> None:
    config.addinivalue_line(
        "markers",
        "edge_values(*formats): run the test once per edge value of each format "
        "(actlut.testing.edge_values; every format by default), passed as its "
        "`edge_value` argument, with ids such as bf16-smallest_subnormal",
    )


def pytest_generate_tests(metafunc: Any) -> None:
    if ARGUMENT not in metafunc.fixturenames:
        return
    import actlut
    from actlut.testing import _edges

    marker = metafunc.definition.get_closest_marker("edge_values")
    formats = list(marker.args) if marker is not None and marker.args else actlut.formats()
    params = [e for fmt in formats for e in _edges(actlut._format_name(fmt))]
    metafunc.parametrize(ARGUMENT, params, ids=[e.id for e in params])
