"""Start-up checks: the project's packages are its own, and its command lines end cleanly when interrupted.

The wheel installs ``games``, ``heuristics``, ``search``, ``envs``, ``tuning`` and ``weights`` as top-level
packages.  Another distribution may install a package of the same name into the same folder (PyPI's ``envs``,
a helper for environment variables, overwrites ``envs/__init__.py``), and a folder of that name in the working
directory comes first on ``sys.path`` and shadows ours.  Either ends in baffling import errors, or in someone
else's code running as ours.  :func:`check_packages`, called when ``games`` is imported (before any other of
them), finds each sibling package without importing it and refuses, naming the culprit and the fix, one that is
not beside ``games`` or whose ``__init__.py`` does not declare ``__distribution__ = "alphabeta-gym"``.

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

import importlib.util
import os
import sys
from pathlib import Path
from types import TracebackType
from typing import Callable, Optional

from games.errors import AlphabetaError  # the project's errors are ValueErrors; games.errors imports nothing heavy

PACKAGES = ("games", "heuristics", "search", "envs", "tuning", "weights", "scripts", "arena")
"""The top-level packages whose ``python -m`` commands get the hook (``scripts`` only in a checkout)."""

FOUND_BY_PATH = ("weights",)
"""Packages the code never imports by name (the shipped weight files are found beside ``heuristics``), so a
folder of that name without ``__init__.py`` in the working directory, a user's own weight files, is harmless."""

MARKER = '__distribution__ = "alphabeta-gym"'
"""The line each of the project's package ``__init__.py`` files holds (:func:`check_packages` reads it)."""


class ForeignPackageError(AlphabetaError):
    """A package of one of the project's names that is not the project's (the message names it and the fix)."""


INSTALLED = ("games", "heuristics", "search", "envs", "tuning", "weights", "arena")
"""The packages a wheel installs (``scripts`` lives in a checkout only, run from its root), which
:func:`check_packages` checks."""


def check_packages(here: Optional[Path] = None, names: tuple[str, ...] = INSTALLED) -> None:
    """Refuse a package named like one of the project's that is not the project's (the module docstring).

    Only the names installed beside ``games`` are checked; nothing is imported.

    Args:
        here: the folder holding the project's packages (default: the one holding this ``games``).
        names: the package names to check.

    Raises:
        ForeignPackageError: a package found first on ``sys.path`` elsewhere than beside ``games`` (a folder in
            the working directory, say), or one beside it whose ``__init__.py`` is not the project's.
    """
    here = Path(__file__).resolve().parents[1] if here is None else here
    for name in names:
        ours = here / name / "__init__.py"
        if not ours.is_file():
            continue  # not installed here: nothing of ours to shadow
        spec = importlib.util.find_spec(name) if name not in sys.modules else getattr(sys.modules[name], "__spec__", None)
        if name in FOUND_BY_PATH and spec is not None and spec.origin in (None, "namespace"):
            continue  # a data folder of the user's (weights/ without __init__.py): the code finds ours by its path
        found = Path(spec.origin).resolve() if spec is not None and spec.origin else None
        if found != ours:
            raise ForeignPackageError(
                f"the package {name!r} Python finds first is {found or 'not a file'}, not alphabeta-gym's ({ours}): a folder "
                f"or package named {name} earlier on sys.path shadows it (the working directory comes first); rename "
                f"that folder, or run from another one"
            )
        if MARKER not in ours.read_text(encoding="utf-8", errors="replace"):
            raise ForeignPackageError(
                f"{ours} is not alphabeta-gym's: another distribution installed a top-level package named {name} "
                f"over it (PyPI's {name!r}, perhaps: pip show {name}); the two cannot share one environment: "
                f"uninstall both, then install alphabeta-gym alone (or in a virtual environment of its own)"
            )


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

