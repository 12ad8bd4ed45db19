"""`actlut.testing.position_report` and `assert_position_independent`: a kernel whose output
depends on where an input sits is named, input by input, with both outputs and both
positions; the probe places every input where it says it does; bad kernels are errors that
say what was expected.

The planted kernel is the one the position probe exists for: exact (the table) in 16-wide
blocks, and a scalar tail that computes in float32 and casts (in float16 for the byte formats,
where a float32 value always casts right), so that every input whose double-rounded value
differs from the correctly rounded one (counted here, apart from the probe) depends on its
position, and no other does."""

import ml_dtypes
import numpy as np
import pytest

import actlut
import actlut.testing as T
from test_apply import bits, inputs

WIDTH = 16


def planted_tail_kernel(function, fmt):
    """The exact table in blocks of 16, float32-then-cast (float16 for byte formats) in the
    tail; and the inputs where the two differ (NaNs with other bits apart), counted without
    the probe."""
    exact = bits(actlut.table(function, fmt))
    via = np.float32 if exact.itemsize == 2 else np.float16
    with np.errstate(all="ignore"):
        cast = bits(actlut.apply(function, inputs(fmt).astype(via)).astype(actlut.dtype(fmt)))

    def kernel(x):
        b = bits(x)
        n = b.size - b.size % WIDTH
        y = np.empty_like(b)
        y[:n] = exact[b[:n]]
        y[n:] = cast[b[n:]]
        return y.view(actlut.dtype(fmt))

    values = lambda t: t.view(actlut.dtype(fmt)).astype(np.float64)  # noqa: E731
    with np.errstate(invalid="ignore"):
        both_nan = np.isnan(values(exact)) & np.isnan(values(cast))
    differ = np.nonzero((exact != cast) & ~both_nan)[0]
    return kernel, exact, cast, differ


@pytest.mark.parametrize("function,fmt", [("gelu", "bf16"), ("silu", "f16"), ("gelu", "fp8_e4m3")])
def test_a_kernel_whose_scalar_tail_casts_from_float32_is_named_input_by_input(function, fmt):
    kernel, exact, cast, differ = planted_tail_kernel(function, fmt)
    assert differ.size > 0, "the plant changes something"
    # Lengths around the block width (every length for the byte formats): enough to put
    # every input in a tail (length 1) and in a block (16), which is all the plant needs.
    lengths = (1, 2, 3, 15, 16, 17, 31, 33) if fmt in ("f16", "bf16") else range(1, 301)
    r = T.position_report(function, fmt, kernel, lengths=lengths)
    assert [m.input for m in r.dependent] == list(differ)
    assert r.count == differ.size and not r.independent
    for m in r.dependent:
        # The whole array's length, a multiple of 16, is all blocks: the exact value there.
        assert (m.first, m.first_at) == (exact[m.input], (m.input, exact.size))
        assert m.first == m.expected
        # The other output is the tail's, found in a tail.
        position, length = m.second_at
        assert m.second == cast[m.input]
        assert position >= length - length % WIDTH, m
    text = str(r)
    assert text.splitlines()[0] == (
        f"{function}_{fmt}: {differ.size:,} of {exact.size:,} inputs give outputs that depend on "
        f"their position (lengths {r._lengths_text()}, 4 offsets each, {r.calls:,} calls)"
    )
    m = r.dependent[0]
    h = lambda b: actlut._hex(fmt, b)  # noqa: E731
    assert text.splitlines()[1].startswith(f"  input {h(m.input)} (")
    assert f"{h(m.first)} (" in text and f"at position {m.input} of {exact.size}," in text
    assert f"; correct {h(m.expected)}" in text
    with pytest.raises(AssertionError) as e:
        T.assert_position_independent(function, fmt, kernel, lengths=lengths)
    assert str(e.value) == text


def test_the_default_probe_of_every_length_from_1_to_300_finds_the_plant_in_fp8():
    kernel, exact, cast, differ = planted_tail_kernel("gelu", "fp8_e5m2")
    r = T.position_report("gelu", "fp8_e5m2", kernel)
    assert r.lengths == tuple(range(1, 301)) and r.offsets == 4 and differ.size == 4
    assert [m.input for m in r.dependent] == list(differ)


def test_the_report_as_data():
    kernel, exact, cast, differ = planted_tail_kernel("gelu", "fp8_e5m2")
    d = T.position_report("gelu", "fp8_e5m2", kernel, lengths=[1, 16]).to_dict()
    assert (d["function"], d["format"], d["entries"], d["lengths"], d["offsets"]) == ("gelu", "fp8_e5m2", 256, [1, 16], 4)
    assert d["position_dependent"] == len(d["dependent"]) == differ.size
    first = d["dependent"][0]
    assert first["input"] == f"0x{differ[0]:02x}" and first["first_length"] == 256
    assert (first["second_position"], first["second_length"]) == (0, 1)
    assert first["correct"] == f"0x{exact[differ[0]]:02x}"


def test_every_input_sits_at_the_positions_the_probe_claims():
    """A recording kernel: for every length, every input sat at min(length, offsets) distinct
    positions, evenly spaced (every position of the short arrays); the calls and the outputs
    compared are those reported."""
    fmt = "fp4_e2m1"
    seen = {}
    calls = [0]

    def recorder(x):
        calls[0] += 1
        for p, b in enumerate(bits(x)):
            seen.setdefault((x.size, int(b)), set()).add(p)
        return actlut.table("gelu", fmt)[bits(x)]

    lengths = list(range(1, 301))
    r = T.position_report("gelu", fmt, recorder, lengths=lengths, offsets=4)
    assert r.independent and r.calls == calls[0]
    placements = 16  # the whole array
    for n in lengths:
        want = min(n, 4)
        placements += sum(-(-(16 + s) // n) * n for s in T._offsets_of(n, 4))
        for b in range(16):
            positions = seen[(n, b)]
            assert len(positions) >= want, (n, b, positions)
            if n <= 4:
                assert positions == set(range(n)), (n, b, positions)
    assert r.placements == placements


def test_a_position_independent_kernel_passes():
    t = actlut.table("sigmoid", "fp8_e4m3fnuz")
    r = T.assert_position_independent("sigmoid", "fp8_e4m3fnuz", lambda x: t[bits(x)])
    assert r.independent and r.count == 0 and r.nan_payloads_differ == 0
    # ml_dtypes' own float32-then-cast exp, elementwise in numpy: nothing depends on position.
    with np.errstate(all="ignore"):
        T.assert_position_independent("exp", "bf16", np.exp, lengths=(1, 7, 300))


def test_nans_that_differ_only_in_their_bits_are_counted_apart():
    exact = bits(actlut.table("exp", "f16"))

    def kernel(x):
        y = exact[bits(x)]
        if x.size == 1:
            y = np.where(((y & 0x7C00) == 0x7C00) & ((y & 0x3FF) != 0), np.uint16(0x7E00), y)
        return y.view(np.float16)

    r = T.position_report("exp", "f16", kernel, lengths=(1, 2))
    assert r.independent
    # Every NaN input whose quieted NaN is not 0x7e00 itself (2 x 1,023 NaNs, less +-0x7e00).
    assert r.nan_payloads_differ == 2 * 1023 - 1


def test_bad_kernels_are_errors_naming_what_was_expected():
    t = actlut.table("gelu", "bf16")

    def raises_on_short(x):
        if x.size < 3:
            raise ZeroDivisionError("too short")
        return t[bits(x)]

    with pytest.raises(ValueError, match=r"the callable raised ZeroDivisionError on a 1-D bf16 array of 1 elements"):
        T.position_report("gelu", "bf16", raises_on_short, lengths=(1,))
    with pytest.raises(ValueError, match=r"returned an array of shape \(4,\) for 5 inputs; .* shape \(5,\)"):
        T.position_report("gelu", "bf16", lambda x: t[bits(x)][:4] if x.size == 5 else t[bits(x)], lengths=(1, 5))
    with pytest.raises(TypeError, match=r"returned dtype float32 for 1 bf16 inputs; it must return bfloat16 \(or its bits, uint16\)"):
        T.position_report("gelu", "bf16", lambda x: x.astype(np.float32) if x.size == 1 else t[bits(x)], lengths=(1,))
    with pytest.raises(ValueError, match=r"shape \(\) for 65536 inputs"):
        T.position_report("gelu", "bf16", lambda x: np.float32(0))
    with pytest.raises(ValueError, match="the callable raised KeyError on a 1-D bf16 array of 65536 elements"):
        T.position_report("gelu", "bf16", lambda x: {}[0])
    with pytest.raises(TypeError, match="impl must be a callable"):
        T.position_report("gelu", "bf16", t)
    with pytest.raises(ValueError, match="unknown function name `gelux`"):
        T.position_report("gelux", "bf16", np.exp)
    with pytest.raises(ValueError, match="lengths must be positive ints"):
        T.position_report("gelu", "bf16", np.exp, lengths=[0, 1])
    with pytest.raises(ValueError, match="offsets must be a positive int"):
        T.position_report("gelu", "bf16", np.exp, offsets=0)
    # The kernel may not write into what it is given.
    def in_place(x):
        x[:] = 0
        return x

    with pytest.raises(ValueError, match="raised ValueError .*read-only"):
        T.position_report("gelu", "bf16", in_place, lengths=(1,))
