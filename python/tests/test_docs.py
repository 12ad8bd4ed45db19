"""docs/python.md's first example runs and prints what the page shows."""

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
