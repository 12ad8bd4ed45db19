"""Functions with constants and derivatives through table, apply, grade,
quant_table and midpoints: the constants' exact values (a float is its shortest
repr decimal; int, str, Decimal and Fraction are exact), the op's text, the
engines' names, the errors naming the constant, and the derivative flag.

The expected tables are computed here, independently of the crate: by exact
rational arithmetic (``fractions.Fraction``) rounded to the format by hand
where the function's value is rational (leaky_relu, hardtanh, relu2, hardswish'),
and with ``decimal`` at 40 digits where it is transcendental (softcap's tanh,
sigmoid'), every input of the format.
"""

import re
import subprocess
from decimal import Decimal, localcontext
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest

import actlut

# --- an independent correct rounding -----------------------------------------------------------

#: (exponent bits, mantissa bits, numpy dtype) of the IEEE-like formats rounded here.
FORMATS = {
    "f16": (5, 10, np.dtype(np.float16)),
    "bf16": (8, 7, np.dtype(ml_dtypes.bfloat16)),
    "f32": (8, 23, np.dtype(np.float32)),
}


def round_exact(q, fmt, negative_zero=False):
    """The bits of the rational ``q`` rounded to nearest, ties to even, into
    ``fmt`` (overflow to infinity), by integer arithmetic; a zero result keeps
    the sign of ``q`` (or ``negative_zero`` when ``q`` is zero)."""
    ebits, mbits, _ = FORMATS[fmt]
    bias = (1 << (ebits - 1)) - 1
    num, den = Fraction(q).as_integer_ratio()
    sign = 1 if num < 0 or (num == 0 and negative_zero) else 0
    num = abs(num)
    head = sign << (ebits + mbits)
    if num == 0:
        return head
    # 2^e <= num/den < 2^(e+1), e at least the smallest normal exponent.
    e = num.bit_length() - den.bit_length()
    if (num << max(0, -e)) < (den << max(0, e)):
        e -= 1
    e = max(e, 1 - bias)
    shift = mbits - e  # num/den · 2^shift = the significand in units of the ulp
    if shift >= 0:
        num <<= shift
    else:
        den <<= -shift
    m, r = divmod(num, den)
    if 2 * r > den or (2 * r == den and m & 1):
        m += 1
    if m >> (mbits + 1):  # carried into the next binade
        m >>= 1
        e += 1
    biased = e + bias if m >> mbits else 0
    if biased >= (1 << ebits) - 1:
        return head | (((1 << ebits) - 1) << mbits)  # infinity
    return head | (biased << mbits) | (m & ((1 << mbits) - 1))


def settled(values, fmt, exact):
    """The bits of each ``exact(x)`` rounded to ``fmt``, for the float64
    approximations ``values`` of them (dict input bits -> (x, value)): where
    the value moved by 10^-12 either way rounds the same, that rounding (a
    float64 evaluation is far closer than that); otherwise ``exact(x)`` (a
    Fraction) rounded exactly."""
    dt = FORMATS[fmt][2]
    bits = np.array(list(values), dtype=np.int64)
    xs = [values[b][0] for b in bits]
    v = np.array([values[b][1] for b in bits], dtype=np.float64)
    lo = (v * (1 - 1e-12)).astype(dt).view(np.uint16)
    hi = (v * (1 + 1e-12)).astype(dt).view(np.uint16)
    out = {}
    for i, b in enumerate(bits.tolist()):
        out[b] = int(lo[i]) if lo[i] == hi[i] else round_exact(exact(xs[i]), fmt)
    return out


def inputs(fmt):
    """Every input of ``fmt`` as (bits, float value), NaNs left out."""
    n = 1 << (16 if fmt in ("f16", "bf16") else 8)
    dt = FORMATS[fmt][2]
    with np.errstate(invalid="ignore"):
        vals = np.arange(n, dtype=np.uint16).view(dt).astype(np.float64)
    return [(b, float(v)) for b, v in enumerate(vals) if not np.isnan(v)]


def reference(fmt, f):
    """The table of ``fmt`` for ``f`` (a function from a float input to the
    bits): NaN inputs map to None (checked to be NaN apart)."""
    return {b: f(x) for b, x in inputs(fmt)}


def assert_table(name, fmt, want, got):
    """``got`` (an array of the format's dtype) equals ``want`` on every
    non-NaN input and is NaN on every NaN input."""
    gb = got.view(np.uint16)
    wrong = [(b, int(gb[b]), w) for b, w in want.items() if int(gb[b]) != w]
    assert not wrong, f"{name} over {fmt}: {len(wrong)} entries differ, first {[tuple(map(hex, t)) for t in wrong[:5]]}"
    nan_in = [b for b in range(len(gb)) if b not in want]
    assert np.isnan(got[nan_in].astype(np.float32)).all()


def leaky(alpha, fmt):
    a = Fraction(alpha)

    def f(x):
        if np.isinf(x):
            # +inf; at -inf the limit of alpha·x: -inf, +inf, or -0 for alpha = 0.
            if x > 0 or a < 0:
                return round_exact(Fraction(2) ** 200, fmt)
            return round_exact(-(Fraction(2) ** 200), fmt) if a > 0 else round_exact(0, fmt, True)
        if x > 0:
            return round_exact(Fraction(x), fmt)
        # A zero input keeps its sign; alpha = 0 at x < 0 is 0·x, -0.
        return round_exact(a * Fraction(x), fmt, negative_zero=x < 0 or np.signbit(x))

    return f


# --- constants: exact values --------------------------------------------------------------------


def test_a_float_constant_is_its_shortest_decimal_and_the_f16_ties_of_leaky_relu_show_it():
    # 1/100 as float, str, Decimal text, Fraction and the default: one table, the built-in one.
    default = actlut.table("leaky_relu", "f16")
    for alpha in (0.01, "0.01", Decimal("0.01"), Fraction(1, 100), "1/100", np.float32(0.01)):
        t = actlut.table("leaky_relu", "f16", alpha=alpha)
        assert (t.view(np.uint16) == default.view(np.uint16)).all(), alpha
    # The double nearest 0.01, exactly (Decimal(0.01) is its exact binary value).
    binary = actlut.table("leaky_relu", "f16", alpha=Decimal(0.01))
    assert actlut.op("leaky_relu", alpha=Decimal(0.01)) == "leaky_relu(alpha=5764607523034235/576460752303423488)"
    # Both against exact rational arithmetic on every input.
    assert_table("leaky_relu(alpha=1/100)", "f16", reference("f16", leaky(Fraction(1, 100), "f16")), default)
    assert_table("leaky_relu(alpha=0.01 as double)", "f16", reference("f16", leaky(Fraction(0.01), "f16")), binary)
    differ = np.flatnonzero(default.view(np.uint16) != binary.view(np.uint16))
    # docs/SEMANTICS.md: 21 entries differ, subnormal products that are exact ties under 1/100.
    assert len(differ) == 21
    for b in differ:
        x = Fraction(float(np.uint16(b).view(np.float16)))
        product = Fraction(1, 100) * x
        assert x < 0 and abs(product) < Fraction(2) ** -14  # subnormal
        n = product / Fraction(2) ** -24  # in units of the smallest subnormal
        assert n.denominator == 2, (hex(b), n)  # an exact tie


@pytest.mark.parametrize("fmt", ["f16", "bf16"])
@pytest.mark.parametrize("alpha", [0.2, Fraction(1, 3), "-0.5", 0, 3])
def test_leaky_relu_with_constants_equals_exact_rounding_on_every_input(fmt, alpha):
    t = actlut.table("leaky_relu", fmt, alpha=alpha)
    assert_table(f"leaky_relu(alpha={alpha})", fmt, reference(fmt, leaky(alpha, fmt)), t)


def hardtanh(lo, hi, fmt):
    lo, hi = Fraction(lo), Fraction(hi)

    def f(x):
        if x == float("inf"):
            return round_exact(hi, fmt)
        if x == float("-inf"):
            return round_exact(lo, fmt)
        q = Fraction(x)
        if lo < q < hi:
            return round_exact(q, fmt, negative_zero=np.signbit(x))
        return round_exact(lo if q <= lo else hi, fmt)

    return f


@pytest.mark.parametrize("fmt", ["f16", "bf16"])
@pytest.mark.parametrize("lo,hi", [(-2, 2), (0, 6), ("-1/3", Decimal("0.7")), (0.1, 0.1)])
def test_hardtanh_with_constants_equals_exact_rounding_on_every_input(fmt, lo, hi):
    t = actlut.table("hardtanh", fmt, min=lo, max=hi)
    assert_table(f"hardtanh({lo}, {hi})", fmt, reference(fmt, hardtanh(lo, hi, fmt)), t)


def softcap_exact(cap, x):
    """cap·tanh(x/cap) at 40 digits, as a Fraction (by its series where x/cap is tiny)."""
    y = Fraction(x) / Fraction(cap)
    if abs(y) < Fraction(1, 10**5):
        return Fraction(cap) * (y - y**3 / 3 + 2 * y**5 / 15 - 17 * y**7 / 315)
    with localcontext() as ctx:
        ctx.prec = 40
        c = Decimal(cap)
        e = (2 * Decimal(x) / c).exp()
        return Fraction(c * (e - 1) / (e + 1))


def softcap(cap, fmt):
    def f(x):
        if np.isinf(x):
            return round_exact(Fraction(cap) if x > 0 else -Fraction(cap), fmt)
        if x == 0 or abs(x) > 1e4:
            # tanh(x/cap) rounds to ±1 or keeps ±0 (x·(1 − …)) well within every format here.
            return round_exact(Fraction(x) if x == 0 else Fraction(cap) * (1 if x > 0 else -1) * (1 - Fraction(1, 10**30)), fmt, negative_zero=np.signbit(x))
        return round_exact(softcap_exact(cap, x), fmt)

    return f


def test_softcap_with_cap_30_over_bf16_equals_a_40_digit_reference_on_every_input():
    t = actlut.table("softcap", "bf16", cap=30)
    assert actlut.op("softcap", cap=30) == "softcap(cap=30)"
    # float64 where it settles the rounding, 40 digits elsewhere; ±0 and ±inf by definition.
    special = {b: x for b, x in inputs("bf16") if x == 0 or np.isinf(x)}
    values = {b: (x, 30 * np.tanh(x / 30)) for b, x in inputs("bf16") if b not in special}
    want = settled(values, "bf16", lambda x: softcap_exact(30, x))
    want.update({b: softcap(30, "bf16")(x) for b, x in special.items()})
    assert_table("softcap(cap=30)", "bf16", want, t)
    # The op's text is the same op.
    assert (actlut.table("softcap(cap=30)", "bf16").view(np.uint16) == t.view(np.uint16)).all()
    assert (actlut.table("softcap( cap = 30.0 )", "bf16").view(np.uint16) == t.view(np.uint16)).all()


def test_apply_with_constants_is_the_table_on_every_input_and_the_f32_path_rounds_exactly():
    # Every bf16 input through apply (the kernels over the run-time table).
    x = np.arange(1 << 16, dtype=np.uint16).view(ml_dtypes.bfloat16)
    y = actlut.apply("softcap", x, cap=30)
    assert (y.view(np.uint16) == actlut.table("softcap", "bf16", cap=30).view(np.uint16)).all()
    # In place, strided, and a byte format.
    z = x.copy()[::-1]
    actlut.apply("softcap(cap=30)", z, out=z)
    assert (z.view(np.uint16) == y[::-1].view(np.uint16)).all()
    e4 = np.arange(256, dtype=np.uint8).view(ml_dtypes.float8_e4m3fn)
    assert (
        actlut.apply("leaky_relu", e4, alpha=0.2).view(np.uint8)
        == actlut.table("leaky_relu", "fp8_e4m3", alpha=0.2).view(np.uint8)
    ).all()
    # float32 (the computed path with the op's constants): every finite f16 value, against
    # the exact value rounded to float32 by hand.
    finite = [(b, v) for b, v in inputs("f16") if np.isfinite(v)]
    xs = np.array([v for _, v in finite], dtype=np.float32)
    got = actlut.apply("leaky_relu", xs, alpha=Fraction(1, 3)).view(np.uint32)
    want = [leaky_f32(Fraction(1, 3), v) for _, v in finite]
    assert got.tolist() == want
    got = actlut.apply("softcap", xs[::97], cap=30).view(np.uint32)
    want = [round_exact(softcap_exact(30, v), "f32") if v != 0 else (0x80000000 if np.signbit(v) else 0) for v in xs[::97].astype(np.float64)]
    assert got.tolist() == want


def leaky_f32(alpha, v):
    if v > 0:
        return round_exact(Fraction(v), "f32")
    return round_exact(Fraction(alpha) * Fraction(v), "f32", negative_zero=v < 0 or np.signbit(v))


def test_every_constant_type_gives_the_same_op_text():
    for alpha in (0.2, "0.2", Decimal("0.2"), Decimal("2E-1"), Fraction(1, 5), np.float32(0.2), np.float64(0.2)):
        assert actlut.op("leaky_relu", alpha=alpha) == "leaky_relu(alpha=0.2)", alpha
    assert actlut.op("elu", alpha=1) == "elu"
    assert actlut.op("elu", alpha=np.int64(2)) == "elu(alpha=2)"
    assert actlut.op("situ", beta=Fraction(1, 3)) == "situ(beta=1/3)"
    assert actlut.op("swiglu_oai", alpha=1.703125) == "swiglu_oai(alpha=1.703125,limit=7)"
    assert actlut.op("hardtanh", max=2, min=-2) == "hardtanh(min=-2,max=2)"
    assert actlut.op("gelu-tanh") == "gelu_tanh"


# --- the engines' names --------------------------------------------------------------------------

#: Hugging Face transformers' ACT2CLS keys (src/transformers/activations.py), each with the op
#: actlut computes for it, written from transformers' definitions.
TRANSFORMERS = {
    "gelu": "gelu",
    "gelu_10": "gelu_clipped(min=-10,max=10)",
    "gelu_fast": "gelu_tanh",
    "gelu_new": "gelu_tanh",
    "gelu_python": "gelu",
    "gelu_pytorch_tanh": "gelu_tanh",
    "gelu_python_tanh": "gelu_tanh",
    "gelu_accurate": "gelu_tanh",
    "laplace": "laplace(mu=0.707107,sigma=0.282095)",
    "leaky_relu": "leaky_relu(alpha=0.01)",
    "linear": "identity",
    "mish": "mish",
    "quick_gelu": "gelu_quick",
    "relu": "relu",
    "relu2": "relu2",
    "relu6": "relu6",
    "sigmoid": "sigmoid",
    "silu": "silu",
    "swish": "silu",
    "tanh": "tanh",
    "prelu": None,  # trained weight: TypeError naming `weight`
    "xielu": None,  # trained alpha_p, alpha_n: TypeError naming `alpha_p`
    "hardswish": "hardswish",
    "sqrtsoftplus": "sqrtsoftplus",
}

#: vLLM's names beyond transformers' (vllm/model_executor/layers/activation.py).
VLLM = {
    "geglu": "gelu",
    "swigluoai": "swiglu_oai(alpha=1.702,limit=7)",
    "swigluoai_and_mul": "swiglu_oai(alpha=1.702,limit=7)",
    "silu_and_mul": "silu",
    "mul_and_silu": "silu",
    "gelu_and_mul": "gelu",
    "gelu_tanh_and_mul": "gelu_tanh",
    "fatrelu_and_mul": "relu",
}


def test_there_are_24_transformers_names():
    assert len(TRANSFORMERS) == 24


@pytest.mark.parametrize("name", sorted({**TRANSFORMERS, **VLLM}))
def test_every_engine_name_is_accepted_by_table_apply_and_grade(name):
    want = {**TRANSFORMERS, **VLLM}[name]
    if want is None:
        constant = {"prelu": "weight", "xielu": "alpha_p"}[name]
        for call in (
            lambda: actlut.table(name, "bf16"),
            lambda: actlut.apply(name, np.zeros(3, np.float16)),
            lambda: actlut.grade(name, "f16", np.zeros(1 << 16, np.float16)),
        ):
            with pytest.raises(TypeError, match=f"`{constant}`"):
                call()
        return
    # transformers' swish is SiLU; actlut's swish (beta 1 by default) is another function
    # with the same values: the same tables, another op.
    if name == "swish":
        assert actlut.op(name) == "swish"
    else:
        assert actlut.op(name) == actlut.op(want)
    for fmt in ("bf16", "fp8_e4m3"):
        t = actlut.table(name, fmt)
        assert (t.view(np.uint8) == actlut.table(want, fmt).view(np.uint8)).all()
        x = np.arange(len(t), dtype=np.uint16 if fmt == "bf16" else np.uint8).view(t.dtype)
        assert (actlut.apply(name, x).view(np.uint8) == t.view(np.uint8)).all()
        g = actlut.grade(name, fmt, t)
        assert g.correctly_rounded and g.op == actlut.op(name)


def test_engine_names_lists_every_name_tested():
    names = actlut.engine_names()
    for name in VLLM:
        assert name in names
    for name in TRANSFORMERS:
        assert name in names or name in actlut.functions()


def test_every_engine_name_of_the_crate_is_accepted():
    for name, text in actlut.engine_names().items():
        try:
            want = actlut.op(text)
        except TypeError as e:  # prelu: its weight is trained
            with pytest.raises(TypeError, match=re.escape(str(e))):
                actlut.table(name, "f16")
            continue
        assert actlut.op(name) == want, name
        assert actlut.table(name, "f16").shape == (65536,)


def test_prelu_and_xielu_with_their_constants():
    t = actlut.table("prelu", "f16", weight=0.25)
    assert (t.view(np.uint16) == actlut.table("leaky_relu", "f16", alpha=0.25).view(np.uint16)).all()
    assert actlut.op("xielu", alpha_p=0.8, alpha_n=0.8) == "xielu(alpha_p=0.8,alpha_n=0.8,beta=0.5,eps=-0.000001)"
    # The engine's name with the constant it lacks (PyTorch's PReLU).
    assert actlut.op("PReLU", weight=0.25) == "prelu(weight=0.25)"
    assert actlut.op("gelu_10") == "gelu_clipped(min=-10,max=10)"


# --- errors -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda: actlut.table("softcap", "bf16"),
        lambda: actlut.apply("softcap", np.zeros(2, np.float16)),
        lambda: actlut.grade("softcap", "bf16", np.zeros(1 << 16, ml_dtypes.bfloat16)),
        lambda: actlut.quant_table("softcap", "int8", 0.5, 0, "float16"),
        lambda: actlut.midpoints("softcap", "f16", [0]),
    ],
)
def test_a_missing_constant_is_a_type_error_naming_it(call):
    with pytest.raises(TypeError, match=r"softcap needs its constant `cap` \(it has no default\)"):
        call()


@pytest.mark.parametrize(
    "kwargs,says",
    [
        ({"cap": 0}, "softcap's `cap` must be positive, got 0"),
        ({"cap": -1.5}, "softcap's `cap` must be positive, got -1.5"),
        ({"cap": float("nan")}, "softcap's `cap`: not finite"),
        ({"cap": float("inf")}, "softcap's `cap`: not finite"),
        ({"cap": Decimal("-Infinity")}, "softcap's `cap`: not finite"),
        ({"cap": "thirty"}, "softcap's `cap`: not a number"),
        ({"cap": "30,cap=50"}, "constant `cap`"),
        ({"cap": Fraction(0)}, "`cap` must be positive"),
        ({"capp": 30}, "softcap has no constant `capp`: its constants are cap"),
    ],
)
def test_a_constant_out_of_its_domain_or_unknown_is_a_value_error_naming_it(kwargs, says):
    for call in (
        lambda: actlut.table("softcap", "bf16", **kwargs),
        lambda: actlut.apply("softcap", np.zeros(2, np.float32), **kwargs),
        lambda: actlut.grade("softcap", "f16", np.zeros(1 << 16, np.float16), **kwargs),
    ):
        with pytest.raises(ValueError, match=says.replace("(", r"\(")):
            call()


def test_other_bad_constants():
    with pytest.raises(ValueError, match=r"hardtanh's `min` \(2\) must not exceed `max`"):
        actlut.table("hardtanh", "f16", min=2, max=1)
    with pytest.raises(ValueError, match="gelu has no constant `alpha`: it has none"):
        actlut.table("gelu", "f16", alpha=1)
    with pytest.raises(ValueError, match="softcap's `cap` is given twice"):
        actlut.table("softcap(cap=30)", "f16", cap=50)
    with pytest.raises(TypeError, match="constant `cap` must be a number, not bool"):
        actlut.table("softcap", "f16", cap=True)
    with pytest.raises(TypeError, match="constant `cap` must be a float, int, str"):
        actlut.table("softcap", "f16", cap=[30])
    with pytest.raises(TypeError, match="derivative must be a bool"):
        actlut.table("gelu", "f16", derivative=1)
    with pytest.raises(ValueError, match="unknown function name `gelux`"):
        actlut.table("gelux", "f16", alpha=1)


# --- grade, quant_table, midpoints and the command with constants -----------------------------------


def test_grade_with_constants_counts_planted_errors_and_names_the_op(actlut_cli, tmp_path):
    t = actlut.table("softcap", "bf16", cap=30).view(np.uint16).copy()
    planted = {0x3F80: 1, 0x4100: 3, 0xC000: 2}  # positive values go up with the bits
    for b, k in planted.items():
        t[b] += k
    g = actlut.grade("softcap", "bf16", t, cap=30)
    assert g.mismatches == 3 and g.max_ulp == 3 and g.histogram == {1: 1, 2: 1, 3: 1}
    assert (g.function, g.op, g.table) == ("softcap", "softcap(cap=30)", "softcap(cap=30)_bf16")
    d = g.to_dict()
    assert (d["function"], d["op"], d["table"]) == ("softcap", "softcap(cap=30)", "softcap(cap=30)_bf16")
    # The reports' exact values are softcap(cap=30)'s.
    assert len(g.worst) == 3
    for w in g.worst:
        exact = float(softcap_exact(30, w.input_value))
        assert abs(float(w.exact) - exact) <= 1e-15 * abs(exact), (w, exact)
    # The command grades the same file the same way, through the same op text.
    f = tmp_path / "softcap.bin"
    t.astype("<u2").tofile(f)
    cli = subprocess.run([actlut_cli, "ulp", "softcap(cap=30)", "bf16", str(f), "--json"], capture_output=True, text=True)
    assert cli.returncode == 1, cli.stderr
    assert cli.stdout == g.to_json()


def test_quant_table_with_constants_is_the_exact_function_of_each_dequantized_code():
    q = actlut.quant_table("leaky_relu", "int8", 0.25, 3, "float16", alpha=Fraction(1, 3))
    codes = np.arange(256, dtype=np.uint8).view(np.int8).astype(np.int64)
    want = [leaky(Fraction(1, 3), "f16")(float((c - 3) * 0.25)) for c in codes]
    assert q.view(np.uint16).tolist() == want
    # softcap over int8 codes, each an f16 value: the f16 table's entry.
    q = actlut.quant_table("softcap", "int8", 0.5, 0, "float16", cap=30)
    t = actlut.table("softcap", "f16", cap=30).view(np.uint16)
    xs = (codes * 0.5).astype(np.float16).view(np.uint16)
    assert (q.view(np.uint16) == t[xs]).all()


def test_midpoints_with_constants_are_the_ops():
    # leaky_relu(alpha=1/100) ties: the exact product lies on a midpoint (distance 0).
    t = actlut.table("leaky_relu", "f16").view(np.uint16)
    binary = actlut.table("leaky_relu", "f16", alpha=Decimal(0.01)).view(np.uint16)
    ties = np.flatnonzero(t != binary)
    assert len(ties) == 21
    d, e = actlut.midpoints("leaky_relu", "f16", ties, alpha=Fraction(1, 100))
    assert (np.abs(d) <= np.maximum(e, 1e-9)).all(), d
    # softcap(0) = 0, a value of f16: half an ulp below the midpoint above it.
    d, e = actlut.midpoints("softcap", "f16", [0], cap=30)
    assert (d[0], e[0]) == (-0.5, 0.0)


# --- derivatives ---------------------------------------------------------------------------------------

def test_a_derivative_without_a_table_is_a_value_error_naming_it():
    # log' is NaN below 0, and FP4 has no NaN: there is no log_derivative_fp4_e2m1 table.
    with pytest.raises(ValueError, match="log_derivative_fp4_e2m1"):
        actlut.table("log", "fp4_e2m1", derivative=True)


def hardswish_derivative(fmt):
    def f(x):
        if x == float("-inf"):
            return round_exact(0, fmt)
        if x == float("inf"):
            return round_exact(1, fmt)
        q = Fraction(x)
        if q <= -3:
            return round_exact(0, fmt)
        if q <= 3:
            return round_exact(q / 3 + Fraction(1, 2), fmt)
        return round_exact(1, fmt)

    return f


@pytest.mark.parametrize("fmt", ["f16", "bf16"])
def test_derivative_table_and_apply_equal_exact_rounding_on_every_input(fmt):
    want = reference(fmt, hardswish_derivative(fmt))
    t = actlut.table("hardswish", fmt, derivative=True)
    assert_table("hardswish_derivative", fmt, want, t)
    assert (actlut.table("hardswish_derivative", fmt).view(np.uint16) == t.view(np.uint16)).all()
    x = np.arange(1 << 16, dtype=np.uint16).view(t.dtype)
    assert (actlut.apply("hardswish", x, derivative=True).view(np.uint16) == t.view(np.uint16)).all()
    # float32: the exact derivative rounded once to float32.
    finite = np.array([v for _, v in inputs(fmt) if np.isfinite(v)][::7], dtype=np.float32)
    got = actlut.apply("hardswish", finite, derivative=True).view(np.uint32).tolist()
    assert got == [hardswish_derivative("f32")(float(v)) for v in finite]


def test_sigmoid_derivative_over_bf16_equals_a_40_digit_reference():

    def exact(x):
        with localcontext() as ctx:
            ctx.prec = 40
            e = Decimal(-abs(x)).exp()
            return Fraction(e / (1 + e) ** 2)

    t = actlut.table("sigmoid", "bf16", derivative=True)
    values = {}
    for b, x in inputs("bf16"):
        if abs(x) <= 200:
            e = np.exp(-abs(x))
            values[b] = (x, e / (1 + e) ** 2)
    want = settled(values, "bf16", exact)
    assert_table("sigmoid_derivative", "bf16", want, _only(t, want))


def _only(t, want):
    """``t`` with the entries ``want`` leaves out set to NaN (so assert_table checks ``want``'s)."""
    u = t.view(np.uint16).copy()
    for b in range(len(u)):
        if b not in want:
            u[b] = 0x7FC0
    return u.view(t.dtype)


def test_grade_with_derivative_counts_planted_errors_exactly(actlut_cli, tmp_path):
    t = actlut.table("gelu", "bf16", derivative=True).view(np.uint16).copy()
    for b, k in {0x3F80: 1, 0x4000: 2, 0x4100: 5}.items():
        t[b] += k
    g = actlut.grade("gelu", "bf16", t, derivative=True)
    assert g.mismatches == 3 and g.max_ulp == 5 and g.histogram == {1: 1, 2: 1, 5: 1}
    assert (g.function, g.op, g.table) == ("gelu", "gelu_derivative", "gelu_derivative_bf16")
    f = tmp_path / "gelu_derivative.bin"
    t.astype("<u2").tofile(f)
    cli = subprocess.run([actlut_cli, "ulp", "gelu", "bf16", str(f), "--derivative", "--json"], capture_output=True, text=True)
    assert cli.returncode == 1, cli.stderr
    assert cli.stdout == g.to_json()
