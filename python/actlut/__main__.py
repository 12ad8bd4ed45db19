"""``python -m actlut ulp FUNCTION FORMAT FILE [--json] [--worst N] [--rtol R --atol A]``,
and ``python -m actlut survey [--json] [--full]``.

``ulp`` is the ``actlut ulp`` command itself (docs/ulp.md): the extension runs
the ``actlut`` command's library, with its parser, usage and messages, and this
module writes what it printed. Exit status 0 when every entry is correctly
rounded, 1 when one is not, 2 on a usage or I/O error, with a one-line message
on standard error.

``survey`` grades what the installed numpy, scipy, ml_dtypes and onnxruntime
implement (:mod:`actlut.survey`).
"""

from __future__ import annotations

import os
import sys
from typing import List, Optional

from . import _actlut


def main(argv: Optional[List[str]] = None) -> int:
    """Runs the command with ``argv`` (default ``sys.argv[1:]``); returns the exit status."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["survey"]:
        from . import survey

        return survey.main(list(args[1:]))
    status, out, err = _actlut.run_cli([os.fsdecode(a) for a in args])
    try:
        sys.stdout.write(out)
        sys.stdout.flush()
    except BrokenPipeError:
        # A reader that has gone away is not an error: the status says what was found.
        pass
    sys.stderr.write(err)
    return status


if __name__ == "__main__":
    sys.exit(main())
