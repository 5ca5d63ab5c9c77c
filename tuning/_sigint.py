"""Ctrl-C and SIGTERM in the tuning command lines: one line on stderr and exit 130 (143), whatever is running.

A KeyboardInterrupt is not enough while numba compiles: the compiler runs
callbacks that catch it (and print their own 20-line traceback) or swallow
it, so the run goes on and exits 0.  During phases that hold nothing to
clean up (start-up: openings, compiling; a blunder count; a fit before its
file is written), :func:`exit_at_once_on_ctrl_c` replaces the handler by one
that writes the line and ends the process at once.

SIGTERM is what ``timeout``, ``kill`` and job schedulers (Slurm, systemd, a
CI runner's cancel) send.  Its default action ends the process on the spot:
the tuner's pool workers were left running without a parent (a
BrokenPipeError traceback each, a leaked-semaphore warning) and the trial
under way stayed RUNNING.  :func:`sigterm_as_interrupt` turns it into
:class:`Terminated`, a KeyboardInterrupt, so it takes the path Ctrl-C takes:
Optuna fails the trial under way (it is queued again on the next run), the
match runner stops its workers, and the command says so in one line.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from contextlib import contextmanager
from types import FrameType
from typing import Any, Iterator, Optional

EXIT_INTERRUPTED = 130
"""Exit code after Ctrl-C (128 + SIGINT), as shells report it."""
EXIT_TERMINATED = 143
"""Exit code after SIGTERM (128 + SIGTERM), as shells report it."""


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived: raised in the main thread where Ctrl-C raises KeyboardInterrupt, and handled the same way."""


def exit_code(interrupt: BaseException) -> int:
    """143 for SIGTERM (:class:`Terminated`), 130 for Ctrl-C."""
    return EXIT_TERMINATED if isinstance(interrupt, Terminated) else EXIT_INTERRUPTED


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextmanager
def exit_at_once_on_ctrl_c(line: str) -> Iterator[None]:
    """Within the block, Ctrl-C (or SIGTERM) writes ``line`` to stderr and ends the process with exit code 130 (143).

    Only from the main thread, and only where SIGINT is not ignored (a
    background job's Ctrl-C stays ignored; SIGTERM is still handled).  stdout is flushed first.
    """
    if not _in_main_thread():
        yield
        return

    def leave(signum: int, frame: Optional[FrameType]) -> None:
        try:
            sys.stdout.flush()
        except Exception:  # a closed or broken stdout must not stop the exit
            pass
        text = line.rstrip("\n") + (" (SIGTERM)" if signum == signal.SIGTERM else "")
        os.write(2, (text + "\n").encode())
        os._exit(EXIT_TERMINATED if signum == signal.SIGTERM else EXIT_INTERRUPTED)

    handled = [signal.SIGTERM] + ([signal.SIGINT] if signal.getsignal(signal.SIGINT) != signal.SIG_IGN else [])
    previous = {signum: signal.signal(signum, leave) for signum in handled}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


@contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """Within the block, SIGTERM raises :class:`Terminated` in the main thread (a no-op elsewhere).

    A second SIGTERM while the first is being handled is not raised again
    (the cleanup it interrupts would leave workers behind); SIGKILL remains
    the way to stop at once.
    """
    if not _in_main_thread():
        yield
        return
    raised: list[int] = []

    def terminate(signum: int, frame: Optional[FrameType]) -> None:
        if not raised:
            raised.append(signum)
            raise Terminated()

    previous: Any = signal.signal(signal.SIGTERM, terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
