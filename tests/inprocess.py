"""Run a command line's ``main(argv)`` in the test's own process: its exit status and what it printed.

A ``python -m`` subprocess costs about 1.3 s of interpreter start and imports (numba, gymnasium, optuna) before the
command parses a single argument; a test of argument checking needs none of that.  Each command line keeps at least
one real subprocess run in its tests (the ``__main__`` wiring and ``sys.exit``), so only the argument checks come
here.
"""

from __future__ import annotations

from typing import Callable, Optional, Sequence

import pytest


def run_main(main: Callable[[Optional[Sequence[str]]], int], args: Sequence[str],
             capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:  # fmt: skip
    """``(exit status, stdout, stderr)`` of ``main(list(args))``, as ``sys.exit(main())`` would end: argparse's
    ``SystemExit(2)`` is status 2, a returned int is the status."""
    capsys.readouterr()  # drop what the test printed before
    try:
        status = main(list(args))
    except SystemExit as stop:
        status = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    out, err = capsys.readouterr()
    return status, out, err
