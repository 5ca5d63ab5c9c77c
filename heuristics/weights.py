"""Weight files: a versioned JSON record of a heuristic's weights and the search they were tuned with.

Format (version 1)::

    {
      "format": "alphabeta-gym-weights",
      "version": 1,
      "game": {"kind": "connect4", "rows": 6, "cols": 7, "k": 4},
      "heuristic": "c4_features",
      "weights": {"f1_four": 100000000.0, "...": 0.0},
      "search": {"depth": 4, "branching": null, "nodes": null, "time_ms": null},
      "provenance": {"study": "...", "trial": 17, "games": 400, "score": 0.56,
                     "elo": 41.9, "elo_ci": [12.0, 71.8], "seed": 0,
                     "date": "2026-11-22T10:00:00+00:00", "package_version": "0.1.0"}
    }

``search`` and ``provenance`` are optional; ``provenance`` is free-form JSON
(the keys above are the ones the tuner writes).  ``search`` is the search
budget the weights were tuned or meant for; this package sits below
``search`` and keeps it as the plain JSON object it is (it only checks that it
is an object): :class:`search.budget.Limit` validates, writes and reads it
(``Limit.to_dict``, ``search.budget.load_weight_file``).  Every weight of the
heuristic must be present, with a finite number; unknown names are refused
(a typo must not silently leave a weight at its default).  Files are written
atomically (a temporary file in the same folder, then a rename), so a reader
never sees half a file, and never pickled.

Shipped files are named without a path: wherever a weight file is accepted
(:func:`load_weights`, hence ``alphabeta:weights=...``, an env's
``opponent=``, ``tuning.match``, ``envs.play``, ``envs.rate``), the text goes
through :func:`resolve_weight_file`: an existing path wins; otherwise a bare
name such as ``connect4-threats-tuned`` (with or without ``.json``, or as the
checkout's path ``weights/connect4-threats-tuned.json``) is looked up among
the files shipped in the ``weights`` data package.  ``python -m weights
--list`` lists them.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Optional, Union

from games import InvalidGameError, KInARow, game_from_record
from games.checks import is_real, shown
from heuristics.bounds import EVALUATION_LIMIT, WIN_SCORE, max_abs_evaluation
from heuristics.errors import UnknownHeuristicError, WeightError, WeightFileError
from heuristics.files import parse_json, read_text_capped, write_text_atomic
from heuristics.registry import get_spec

FORMAT = "alphabeta-gym-weights"
VERSION = 1
_TOP_FIELDS = {"format", "version", "game", "heuristic", "weights", "search", "provenance"}

PathLike = Union[str, "os.PathLike[str]"]
SHIPPED_PACKAGE = "weights"
"""The data package holding the shipped weight files (the repository's ``weights/`` folder)."""


def check_weights(heuristic: str, weights: Mapping[str, Any], game: Optional[KInARow] = None) -> dict[str, float]:
    """Return ``weights`` as a complete ``{name: float}`` dict in the heuristic's order.

    Values may be Python or NumPy ints and floats.  With ``game``, the
    weights must also keep every evaluation of its board below
    :data:`heuristics.bounds.EVALUATION_LIMIT`, the edge of the search's
    win-score band (see :mod:`heuristics.bounds` for the bound and why).

    Raises:
        UnknownHeuristicError: ``heuristic`` is not registered.
        WeightError: a name is unknown or missing, a value is not a finite
            number (or too large for a float), or (with ``game``) the weights
            could push an evaluation into the win-score band.
    """
    spec = get_spec(heuristic)
    names = spec.weight_names
    unknown = sorted(set(weights) - set(names))
    if unknown:
        raise WeightError(f"unknown weight(s) {', '.join(map(repr, unknown))} for {heuristic}: its weights are {', '.join(names)}")
    missing = [n for n in names if n not in weights]
    if missing:
        raise WeightError(f"missing weight(s) {', '.join(map(repr, missing))} for {heuristic}")
    out = {}
    for name in names:
        try:
            out[name] = float(_finite_float(name, weights[name]))
        except ValueError as exc:
            raise WeightError(f"weight {exc}") from None
    if game is not None:
        _check_bound(heuristic, game, out)
    return out


def _finite_float(name: str, value: Any) -> float:
    """``value`` as a finite float (any sign).

    Raises:
        ValueError: a bool, not a number, not finite, or an int too large for a float.
    """
    if not is_real(value):
        raise ValueError(f"{name!r} = {shown(value)} is not a finite number")
    try:
        number = float(value)
    except OverflowError:  # e.g. a JSON integer of 400 digits
        raise ValueError(f"{name!r} = {shown(value)} is too large for a float: it must be a finite number") from None
    if not math.isfinite(number):
        raise ValueError(f"{name!r} = {shown(value)} is not a finite number")
    return number


def _check_bound(heuristic: str, game: KInARow, weights: dict[str, float]) -> None:
    """Refuse weights whose evaluations could reach the search's win-score band (see :mod:`heuristics.bounds`)."""
    bound = max_abs_evaluation(heuristic, game, weights)
    if bound < EVALUATION_LIMIT:
        return
    largest = max(weights, key=lambda n: abs(weights[n]))
    raise WeightError(
        f"weights of {heuristic} too large for {game}: an evaluation could reach {bound:.3g} in absolute value "
        f"(largest weight {largest}={weights[largest]:.6g}); evaluations must stay below {EVALUATION_LIMIT:.0e}, "
        f"a tenth of the search's win score {WIN_SCORE:.0e}, or a heuristic value would read as a forced win or "
        f"loss: scale the weights down by a factor of more than {bound / EVALUATION_LIMIT:.3g}"
    )


@dataclass(frozen=True)
class WeightFile:
    """The content of a weight file: game, heuristic, complete weights, search section, provenance.

    ``search`` is the file's search section as a plain mapping, kept as
    given (``search.Limit.to_dict()`` builds one; :mod:`search.budget` reads it).
    """

    game: KInARow
    heuristic: str
    weights: dict[str, float]
    search: dict[str, Any] = field(default_factory=dict)
    provenance: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        reason = get_spec(self.heuristic).refuse(self.game)
        if reason is not None:
            raise WeightError(reason)
        object.__setattr__(self, "weights", check_weights(self.heuristic, self.weights, self.game))
        if not isinstance(self.search, Mapping):
            raise WeightError(f"search section {self.search!r} must be a mapping (see search.Limit.to_dict)")
        object.__setattr__(self, "search", dict(self.search))

    def to_json(self) -> dict[str, Any]:
        """The JSON object written to disk."""
        game = self.game.to_record()
        data: dict[str, Any] = {
            "format": FORMAT, "version": VERSION, "game": game, "heuristic": self.heuristic,
            "weights": dict(self.weights), "search": dict(self.search),
        }  # fmt: skip
        if self.provenance:
            data["provenance"] = self.provenance
        return data


def save_weights(weight_file: WeightFile, path: PathLike) -> Path:
    """Write ``weight_file`` to ``path`` atomically; return the path.

    Written by :func:`heuristics.files.write_text_atomic`: readers see the
    old file or the new one, never a partial write, a failure leaves no
    temporary file behind, and the file gets the usual ``0o666`` minus umask.

    Raises:
        WeightFileError: the folder does not exist or is not writable, or the
            provenance is not JSON-serialisable.
    """
    target = Path(path)
    try:
        text = json.dumps(weight_file.to_json(), indent=2, allow_nan=False) + "\n"
    except (TypeError, ValueError) as exc:
        raise WeightFileError(f"{target}: cannot be written as JSON: {exc}") from None
    try:
        return write_text_atomic(target, text)
    except OSError as exc:
        raise WeightFileError(f"{target}: cannot write there: {exc.strerror or exc}") from None


def load_weights(path: PathLike, game: Optional[KInARow] = None) -> WeightFile:
    """Read and validate a weight file.

    Args:
        path: the JSON file, or a shipped file's name (:func:`resolve_weight_file`).
        game: if given, the file must be for exactly this game.

    Raises:
        WeightFileError: no such file nor shipped name, an unreadable file (or one that is not a regular file
            of at most :data:`heuristics.files.MAX_INPUT_BYTES`), bad JSON, an unknown format or
            version, an unknown top-level field, a bad game, an unknown
            heuristic, missing/unknown/non-finite weights, a search section
            that is not an object, or a game other than ``game``; the message
            names the file and the field.  The search section's values are
            :func:`search.budget.load_weight_file`'s to check.
    """
    source = resolve_weight_file(path)
    text = read_text_capped(source, WeightFileError)  # a regular file of at most 64 MiB, UTF-8
    return _from_json(_parse_json(text, source), source, game)


def _parse_json(text: str, source: Path) -> Any:
    """The JSON document of a weight file (:func:`heuristics.files.parse_json`: bad JSON, a repeated key or
    too deep a nesting raise WeightFileError)."""
    return parse_json(text, source, WeightFileError)


def _from_json(data: Any, source: Path, expected: Optional[KInARow]) -> WeightFile:
    def fail(field_name: str, problem: str) -> WeightFileError:
        return WeightFileError(f"{source}: field {field_name!r}: {problem}")

    if not isinstance(data, dict):
        raise WeightFileError(f"{source}: the top level must be a JSON object")
    unknown = sorted(set(data) - _TOP_FIELDS)
    if unknown:
        raise fail(unknown[0], f"unknown field; allowed: {', '.join(sorted(_TOP_FIELDS))}")
    for name in ("format", "version", "game", "heuristic", "weights"):
        if name not in data:
            raise fail(name, "missing")
    if data["format"] != FORMAT:
        raise fail("format", f"{data['format']!r} is not {FORMAT!r}")
    if data["version"] != VERSION or isinstance(data["version"], bool):
        raise fail("version", f"{data['version']!r} is not supported (this package reads version {VERSION})")
    game = _game_from_json(data["game"], fail)
    if expected is not None and game != expected:
        raise fail("game", f"the file is for {game}, not {expected}")
    heuristic = data["heuristic"]
    if not isinstance(heuristic, str):
        raise fail("heuristic", f"{heuristic!r} is not a name")
    try:
        get_spec(heuristic)
    except UnknownHeuristicError as exc:
        raise fail("heuristic", str(exc)) from None
    reason = get_spec(heuristic).refuse(game)
    if reason is not None:  # before the weights: their bound is only meaningful on a board the heuristic covers
        raise fail("game", reason)
    if not isinstance(data["weights"], dict):
        raise fail("weights", "must be an object of name: number")
    try:
        weights = check_weights(heuristic, data["weights"], game)
    except WeightError as exc:
        raise fail("weights", str(exc)) from None
    search = data.get("search", {})
    if not isinstance(search, dict):
        raise fail("search", "must be an object")
    provenance = data.get("provenance", {})
    if not isinstance(provenance, dict):
        raise fail("provenance", "must be an object")
    try:
        return WeightFile(game, heuristic, weights, search, provenance)
    except WeightError as exc:
        raise fail("game", str(exc)) from None


def _game_from_json(raw: Any, fail: Any) -> KInARow:
    try:
        return game_from_record(raw)
    except InvalidGameError as exc:
        raise fail("game", str(exc)) from None



# ------------------------------------------------------------------ shipped files, by name
def shipped_weights_folder() -> Path:
    """The folder of the shipped weight files (the ``weights`` data package), in a checkout or an installed wheel.

    Found beside this package rather than imported by name: under an editable
    install, a ``weights/`` folder of the user's own in the working directory
    would otherwise be taken for the package (as a namespace package).
    """
    folder = Path(__file__).resolve().parent.parent / SHIPPED_PACKAGE
    if not (folder / "__init__.py").is_file():
        raise WeightFileError(f"the shipped weight files are missing: no {SHIPPED_PACKAGE!r} package at {folder} "
                              "(reinstall alphabeta-gym)")  # fmt: skip
    return folder


def shipped_weight_files() -> dict[str, Path]:
    """``{name: path}`` of every shipped weight file, by name (file name without ``.json``), sorted.

    Example:
        >>> files = shipped_weight_files()
        >>> "connect4-threats-tuned" in files, files["connect4-threats-tuned"].name
        (True, 'connect4-threats-tuned.json')
    """
    return dict(sorted((entry.stem, entry) for entry in shipped_weights_folder().glob("*.json")))


def resolve_weight_file(name_or_path: PathLike) -> Path:
    """The file a weight-file argument means: an existing path, else a shipped file named without a path.

    The one rule every place that accepts a weight file follows (through
    :func:`load_weights`): an existing path wins; otherwise a bare name
    (``connect4-threats-tuned`` or ``connect4-threats-tuned.json``), or the
    checkout's relative path ``weights/<name>.json``, is looked up among
    :func:`shipped_weight_files`.  So ``weights/...`` paths work from any
    folder, a wheel's install included.

    Example:
        >>> resolve_weight_file("connect4-threats-tuned") == resolve_weight_file("connect4-threats-tuned.json")
        True

    Raises:
        WeightFileError: no such file and no such shipped name; the message lists the shipped names.
    """
    path = Path(name_or_path)
    if path.exists():
        return path
    shipped = shipped_weight_files()
    if path.parent in (Path("."), Path(SHIPPED_PACKAGE)):
        name = path.name[: -len(".json")] if path.name.endswith(".json") else path.name
        if name in shipped:
            return shipped[name]
    raise WeightFileError(f"{os.fspath(name_or_path)}: cannot read: no such file, nor a shipped weight file; "
                          f"the shipped names are {', '.join(shipped)} (python -m weights --list)")  # fmt: skip
