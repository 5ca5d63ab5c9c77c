"""Ctrl-C in the tuning command lines: one line on stderr and exit 130, whatever is running.

A KeyboardInterrupt is not enough while numba compiles: the compiler runs
callbacks that catch it (and print their own 20-line traceback) or swallow
it, so the run goes on and exits 0.  During phases that hold nothing to
clean up (start-up: openings, compiling; a blunder count; a fit before its
file is written), :func:`exit_at_once_on_ctrl_c` replaces the handler by one
that writes the line and ends the process at once.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from contextlib import contextmanager
from types import FrameType
from typing import Iterator, Optional

EXIT_INTERRUPTED = 130
"""Exit code after Ctrl-C (128 + SIGINT), as shells report it."""


@contextmanager
def exit_at_once_on_ctrl_c(line: str) -> Iterator[None]:
    """Within the block, Ctrl-C writes ``line`` to stderr and ends the process with exit code 130.

    Only from the main thread, and only where SIGINT is not ignored (a
    background job's Ctrl-C stays ignored).  stdout is flushed first.
    """
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        yield
        return

    def leave(signum: int, frame: Optional[FrameType]) -> None:
        try:
            sys.stdout.flush()
        except Exception:  # a closed or broken stdout must not stop the exit
            pass
        os.write(2, (line.rstrip("\n") + "\n").encode())
        os._exit(EXIT_INTERRUPTED)

    previous = signal.signal(signal.SIGINT, leave)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
