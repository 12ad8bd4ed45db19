"""docs/python.md's first example runs and prints what the page shows, and its table of
formats is the package's."""

import contextlib
import io
import re

from conftest import ROOT

MARK = "<!-- example: tests/test_docs.py runs this block and compares its output with the next one -->"


def example():
    doc = (ROOT / "docs" / "python.md").read_text()
    assert MARK in doc, "docs/python.md lost its example marker"
    rest = doc.split(MARK, 1)[1]
    blocks = re.findall(r"```(\w+)\n(.*?)```", rest, flags=re.S)
    (lang1, code), (lang2, output) = blocks[0], blocks[1]
    assert (lang1, lang2) == ("python", "text")
    return code, output


def test_the_first_example_prints_what_docs_python_md_shows():
    code, shown = example()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "docs/python.md", "exec"), {"__name__": "example"})
    assert out.getvalue() == shown, "docs/python.md's example prints now:\n" + out.getvalue()


def test_the_format_table_lists_every_format_with_its_dtype_in_order():
    import actlut
    import numpy as np

    doc = (ROOT / "docs" / "python.md").read_text()
    rows = re.findall(r"^\| `(\w+)` \| `(numpy|ml_dtypes)\.(\w+)` \| ([\d,]+) \|$", doc, flags=re.M)
    want = [
        (
            f,
            "numpy" if actlut.dtype_name(f) == "float16" else "ml_dtypes",
            actlut.dtype_name(f),
            f"{len(actlut.table('exp', f)):,}",
        )
        for f in actlut.formats()
    ]
    assert rows == want
    assert all(actlut.dtype(f) == np.dtype(actlut.dtype(d)) for f, _, d, _ in rows)
