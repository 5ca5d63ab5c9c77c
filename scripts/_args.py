"""The argparse types every script shares (a bad value ends in a one-line usage error and exit code 2), and the
Ctrl-C ending they share (one line and exit code 130, :func:`run_interruptible`).

argparse turns the :class:`argparse.ArgumentTypeError` these raise into
``error: argument --seconds: 'nan' is not a positive finite number`` and
exits with code 2, so no script needs checks of its own after parsing.
Imported as ``from scripts._args import ...`` (the scripts run as ``python -m scripts.<name>``).
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from games.checks import INT64_MAX
from heuristics import files


def int_range(low: int, high: Optional[int] = None) -> Callable[[str], int]:
    """An argparse type accepting the integers ``low..high`` (no upper bound if ``high`` is None)."""
    allowed = f"an integer from {low} to {high}" if high is not None else f"an integer >= {low}"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {allowed}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{text!r} is not {allowed}")
        return value

    parse.__name__ = f"int_range({low}, {high})"
    return parse


positive_int = int_range(1)
positive_int.__doc__ = "An integer >= 1 (counts, sizes, workers)."
non_negative_int = int_range(0)
non_negative_int.__doc__ = "An integer >= 0 (seeds, optional counts)."


def positive_float(text: str) -> float:
    """A finite number > 0 (durations): rejects 0, negatives, nan and inf."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive finite number") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive finite number")
    return value


def int_list(low: int, high: int) -> Callable[[str], tuple[int, ...]]:
    """An argparse type for comma-separated integers within ``low..high``: sorted, duplicates dropped."""

    def parse(text: str) -> tuple[int, ...]:
        try:
            values = {int(part) for part in text.split(",")}
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not comma-separated integers, e.g. 2,4,6") from None
        if not all(low <= v <= high for v in values):
            raise argparse.ArgumentTypeError(f"{text!r}: each must be within {low}..{high}")
        return tuple(sorted(values))

    parse.__name__ = f"int_list({low}, {high})"
    return parse


def _unwritable(path: Path, want_dir: bool) -> Optional[str]:
    """Why files cannot be written at ``path`` (a file, or a folder to write into), or None if they can.

    Files are written atomically (a temporary file renamed over the target),
    so what matters is the folder they go into: its nearest existing ancestor
    (missing folders are created on the first write) gets a real probe, a
    temporary file that is removed at once (``os.access`` says yes to root
    even where nothing can be created).
    """
    if path.exists() and path.is_dir() != want_dir:
        return "exists and is not a folder" if want_dir else "is a folder"
    folder = path if want_dir else path.parent
    while not folder.exists():
        folder = folder.parent
    if not folder.is_dir():
        return f"cannot be created: {folder} is not a folder"
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        return f"is not writable: cannot create a file in {folder} ({error.strerror})"
    return None


def _writable(want_dir: bool) -> Callable[[str], Path]:
    """An argparse type for a path files can be written at (see :func:`_unwritable`), resolved."""

    def parse(text: str) -> Path:
        path = Path(text).expanduser().resolve()
        problem = _unwritable(path, want_dir)
        if problem is not None:
            raise argparse.ArgumentTypeError(f"{text!r} {problem}")
        return path

    parse.__name__ = "writable_dir" if want_dir else "writable_file"
    return parse


writable_file = _writable(want_dir=False)
writable_file.__doc__ = "A file path that can be written: an existing writable file, or a new one under a writable folder."
writable_dir = _writable(want_dir=True)
writable_dir.__doc__ = "A folder that files can be written into: an existing one, or a new one under a writable folder."


def report_outputs(parser: argparse.ArgumentParser, out: Optional[Path]) -> Optional[tuple[Path, Path]]:
    """The two files of a report written with ``--out X`` (``X.md`` and ``X.json``; a ``.md`` or ``.json`` suffix of
    ``X`` is dropped), each checked before any work: one that is a folder or cannot be written ends in a one-line
    usage error (exit 2), so a run never finds out at its end that its results have nowhere to go."""
    if out is None:
        return None
    stem = out.with_suffix("") if out.suffix in (".md", ".json") else out
    paths = (Path(f"{stem}.md"), Path(f"{stem}.json"))
    for path in paths:
        problem = _unwritable(path, want_dir=False)
        if problem is not None:
            parser.error(f"argument --out: {str(path)!r} {problem}")
    return paths


def run_interruptible(name: str, main: Callable[[Optional[Sequence[str]]], int], argv: Optional[Sequence[str]]) -> int:
    """``main(argv)``, or on Ctrl-C one line (``<name>: interrupted``) on stderr and 130 (128 + SIGINT, what shells
    report) instead of a traceback; what ``main`` wrote as it went (``--out`` files) stays."""
    try:
        return main(argv)
    except KeyboardInterrupt:
        print(f"{name}: interrupted", file=sys.stderr)
        return 130


def threat_search_options(parser: argparse.ArgumentParser, nodes: int, depth: int) -> None:
    """Add ``--nodes`` and ``--depth``, the threat-search budget of the scripts that replay games (defaults given);
    both are 64-bit counters in the search, so larger values are refused when parsed, before any work."""
    parser.add_argument("--nodes", type=int_range(1, INT64_MAX), default=nodes,
                        help=f"moves each threat search may try (default {nodes:,})")  # fmt: skip
    parser.add_argument("--depth", type=int_range(1, INT64_MAX), default=depth,
                        help=f"longest VCT looked for, in plies (default {depth})")  # fmt: skip


def load_report(parser: argparse.ArgumentParser, path: Path, check: Callable[[Any], bool], what: str) -> Any:
    """The JSON document in ``path`` if ``check`` accepts it; otherwise exit 2 with one line naming the file and why.

    The file must be a regular file of at most :data:`heuristics.files.MAX_INPUT_BYTES` holding JSON
    (:func:`heuristics.files.read_text_capped`, :func:`heuristics.files.parse_json`: nesting too deep and a key
    given twice are refused).  ``check`` refuses the document by returning False or by raising ValueError, whose
    message (naming the bad field) is shown; a KeyError, TypeError, AttributeError or IndexError it raises on a
    missing or wrong field refuses it too.
    """
    try:
        text = files.read_text_capped(path)
    except ValueError as error:
        parser.error(str(error))
    try:
        data = files.parse_json(text, path)
        if check(data):
            return data
        problem = ""
    except ValueError as error:
        problem = f": {str(error).removeprefix(f'{path}: ')}"
    except (KeyError, TypeError, AttributeError, IndexError):
        problem = ""
    parser.error(f"{str(path)!r} is not the JSON of {what}{problem}")
