"""How this project's command lines end when interrupted at start-up or cut off from their reader.

A command (``python -m tuning.run``, ``python -m weights --list``, ``python -m scripts.bounds_around``, ...)
spends its first seconds importing numpy, numba, scipy and the kernels before its own code can catch anything,
so a Ctrl-C in that time printed a ``KeyboardInterrupt`` traceback; and a listing piped into ``head`` ended in a
``BrokenPipeError`` traceback once ``head`` stopped reading.  :func:`install` is called first thing by the
``games`` package, which every command imports before anything heavy, and only when the running program is one
of this project's commands (``python -m <one of its packages>...``): then an exception no command caught ends as

* ``KeyboardInterrupt``: one line, ``<command>: interrupted``, and exit status 130 (Python re-raises SIGINT after
  the hook, so a shell sees the usual 128 + 2);
* ``BrokenPipeError`` on standard output: nothing more (the reader has gone; standard output is pointed at the
  null device, so the interpreter's last flush cannot fail again), exit status 1;

and any other exception as Python prints it.  A program of the user's that imports the packages keeps its own
hook: nothing changes unless the process *is* one of the commands.  Only the standard library is used here.
"""

from __future__ import annotations

import os
import sys
from types import TracebackType
from typing import Callable, Optional

PACKAGES = ("games", "heuristics", "search", "envs", "tuning", "weights", "scripts", "arena")
"""The top-level packages whose ``python -m`` commands get the hook."""

_TAKES_VALUE = ("-X", "-W", "--check-hash-based-pycs")
"""Interpreter options whose value is the next argument."""


def running_command(argv: Optional[list[str]] = None) -> Optional[str]:
    """The module run by ``python -m MODULE`` when it is one of this project's (``weights``, ``tuning.run``), else None.

    Args:
        argv: the interpreter's own command line (default :data:`sys.orig_argv`).
    """
    args = list(getattr(sys, "orig_argv", []) if argv is None else argv)
    i = 1
    while i < len(args):
        arg = args[i]
        if arg == "-m" and i + 1 < len(args):
            module = args[i + 1]
        elif arg.startswith("-m") and len(arg) > 2:
            module = arg[2:]
        elif arg in ("-c", "-") or not arg.startswith("-"):
            return None  # a script, -c code or stdin comes first: not a -m command
        else:
            i += 2 if arg in _TAKES_VALUE else 1
            continue
        return module if module.split(".")[0] in PACKAGES else None
    return None


def _hook(command: str) -> Callable[[type[BaseException], BaseException, Optional[TracebackType]], None]:
    def hook(kind: type[BaseException], value: BaseException, traceback: Optional[TracebackType]) -> None:
        if issubclass(kind, KeyboardInterrupt):
            print(f"{command}: interrupted", file=sys.stderr)
        elif issubclass(kind, BrokenPipeError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        else:
            sys.__excepthook__(kind, value, traceback)

    return hook


def install(argv: Optional[list[str]] = None) -> bool:
    """Install the hook (module docstring) if this process is one of the project's commands and nobody else set a
    hook; return whether it did."""
    command = running_command(argv)
    if command is None or sys.excepthook is not sys.__excepthook__:
        return False
    sys.excepthook = _hook(f"python -m {command}")
    return True

