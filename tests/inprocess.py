"""Run a command line's ``main(argv)`` in the test's own process: its exit status and what it printed.

A ``python -m`` subprocess costs about 1.3 s of interpreter start and imports (numba, gymnasium, optuna) before the
command parses a single argument; a test of argument checking needs none of that.  Each command line keeps at least
one real subprocess run in its tests (the ``__main__`` wiring and ``sys.exit``), so only the argument checks come
here.
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Optional, Sequence, TypeVar

import pytest

T = TypeVar("T")


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


def call_within(seconds: float, call: Callable[[], T], unblock: Optional[Callable[[], None]] = None) -> T:
    """``call()``'s result (or exception) if it ends within ``seconds``; else fail the test instead of hanging it.

    The call runs in a daemon thread; one that blocks (reading a FIFO, a loop that never ends) is left behind
    after ``unblock()`` (e.g. opening the FIFO's other end) is tried, and the test fails.
    """
    outcome: list[tuple[bool, Any]] = []

    def run() -> None:
        try:
            outcome.append((True, call()))
        except BaseException as error:  # noqa: BLE001 - handed to the test's thread, SystemExit included
            outcome.append((False, error))

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(timeout=seconds)
    if worker.is_alive():
        if unblock is not None:
            unblock()
        pytest.fail(f"the call did not end within {seconds} s")
    ok, value = outcome[0]
    if not ok:
        raise value
    return value  # type: ignore[no-any-return]
