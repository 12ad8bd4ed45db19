"""``python -m actlut ulp FUNCTION FORMAT FILE [--json] [--worst N]``.

The same report and exit status as the ``actlut ulp`` command (docs/ulp.md):
0 when every entry is correctly rounded, 1 when one is not, 2 on a usage or
I/O error, with a one-line message on standard error.
"""

from __future__ import annotations

import os
import re
import stat
import sys
from typing import List, Optional

from . import _actlut, grade

USAGE = """\
usage: python -m actlut ulp FUNCTION FORMAT FILE [--json] [--worst N]

Grades an implementation of FUNCTION over FORMAT against actlut's correctly
rounded table, as `actlut ulp` does (the same report and exit status). FILE
holds the implementation's output for every input of FORMAT, in input
bit-pattern order (0x0000, 0x0001, ...), little-endian, one entry each: 131072
bytes for f16 and bf16, 256 for the fp8 formats, 64 for FP6 and 16 for FP4 (one
byte per code).

  FUNCTION   gelu, gelu_tanh, sigmoid, tanh, silu, ... (actlut.functions())
  FORMAT     f16, bf16, fp8_e4m3, fp8_e5m2, fp8_e4m3fnuz, fp8_e5m2fnuz,
             fp6_e2m3, fp6_e3m2, fp4_e2m1
  --json     one JSON object (the keys of `actlut ulp --json`)
  --worst N  list the N worst inputs (default 10)

exit status:
  0  every entry is correctly rounded
  1  some entry is not
  2  usage or I/O error"""


class _Failure(Exception):
    """A usage or I/O error: its one-line message, exit status 2."""


def _usage(message: str) -> _Failure:
    return _Failure(f"{message} (try `python -m actlut ulp --help`)")


def _parse_worst(n: str) -> int:
    """A count as the command parses one (Rust's ``usize``: digits, an optional ``+``)."""
    if re.fullmatch(r"\+?[0-9]+", n) and int(n) < 2**64:
        return int(n)
    raise _usage(f"`--worst` needs a number, got `{n}`")


def _read(path: str, fmt: str, what: str) -> bytes:
    entries, width = _actlut.format_shape(fmt)
    size = entries * width
    expected = (
        f"{size} bytes: {entries} entries of {width} byte{'' if width == 1 else 's'} each, "
        f"{what} for every input in bit-pattern order"
    )
    try:
        st = os.stat(path)
    except OSError as e:
        raise _Failure(f"cannot read `{path}`: {e.strerror} (os error {e.errno})") from None
    if stat.S_ISDIR(st.st_mode):
        raise _Failure(f"`{path}` is a directory; expected a file of {expected}")
    if not stat.S_ISREG(st.st_mode):
        raise _Failure(f"`{path}` is not a regular file; expected a file of {expected}")
    if st.st_size == 0:
        raise _Failure(f"`{path}` is empty; expected {expected}")
    if st.st_size != size:
        raise _Failure(f"`{path}` has {st.st_size} bytes; expected {expected}")
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise _Failure(f"cannot read `{path}`: {e.strerror} (os error {e.errno})") from None
    if len(data) != size:
        raise _Failure(f"`{path}` changed while read: {len(data)} bytes; expected {expected}")
    return data


def _ulp(args: List[str]) -> int:
    import numpy as np

    json = False
    worst = 10
    positional: List[str] = []
    only_positional = False
    it = iter(args)
    for a in it:
        if only_positional or not a.startswith("-") or a == "-":
            positional.append(a)
            continue
        if a == "--":
            only_positional = True
        elif a in ("-h", "--help"):
            print(USAGE)
            return 0
        elif a == "--json":
            json = True
        elif a == "--worst":
            n = next(it, None)
            if n is None:
                raise _usage("`--worst` needs a number")
            worst = _parse_worst(n)
        elif a.startswith("--worst="):
            worst = _parse_worst(a[len("--worst="):])
        else:
            raise _usage(f"unknown option `{a}`")
    if len(positional) != 3:
        n = len(positional)
        raise _usage(f"`ulp` takes FUNCTION FORMAT FILE, got {n} argument{'' if n == 1 else 's'}")
    function, fmt, path = positional
    try:
        # The crate's spellings, in the command's order of checks: the
        # function, the format, then whether the pair has a table.
        function = _actlut.function_name(function)
        fmt = _actlut.format_name(fmt)
        if not _actlut.has_table(function, fmt):
            _actlut.table_bits(function, fmt)  # raises, saying why there is no table
    except ValueError as e:
        raise _Failure(str(e)) from None
    data = _read(path, fmt, f"{function}_{fmt} outputs")
    entries, width = _actlut.format_shape(fmt)
    got = np.frombuffer(data, dtype="<u2" if width == 2 else np.uint8)
    g = grade(function, fmt, got.astype(np.uint16 if width == 2 else np.uint8), worst=worst)
    try:
        sys.stdout.write(g.to_json() if json else str(g))
        sys.stdout.flush()
    except BrokenPipeError:
        # A reader that has gone away is not an error: the status says what was found.
        pass
    return 0 if g.mismatches == 0 else 1


def main(argv: Optional[List[str]] = None) -> int:
    """Runs the command with ``argv`` (default ``sys.argv[1:]``); returns the exit status."""
    args = sys.argv[1:] if argv is None else argv
    try:
        if not args:
            raise _Failure("no command given (try `python -m actlut ulp --help`)")
        if args[0] in ("-h", "--help", "help"):
            print(USAGE)
            return 0
        if args[0] != "ulp":
            raise _usage(f"unknown command `{args[0]}`: the command is `ulp`")
        return _ulp(args[1:])
    except _Failure as e:
        print(f"actlut: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
