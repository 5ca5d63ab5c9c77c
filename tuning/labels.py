"""Labelled position sets: the file format, the shipped and cached sets, and ``python -m tuning.labels``.

A label set is a list of positions reached in self-play, each with the
probability that the side to move wins (its *target*: 1 a win, 1/2 a draw,
0 a loss), the input of Texel's fit (:mod:`tuning.texel`).  Where the set
comes from the exact solver (:mod:`search.solve`), every position also
carries its exact game-theoretic value and the exact value of *every* legal
move, which the blunder rate (:mod:`tuning.blunders`) checks an agent's move
against.  Sets for boards the solver cannot reach come from a deep search or
from self-play outcomes (:mod:`tuning.label_sources` says how each is made
and which one a board gets).

Every set keeps a **held-out split** apart: its last positions (``heldout``
in the header; a fifth of the set when a file does not say), from games
none of whose positions are in the rest.  Fits use only the rest, and every
blunder rate and held-out loss the project reports is measured on the
held-out part, positions no fit saw.

Format (version 2; version 1 files, the shipped Connect-4 6x7 set among them,
are read too): a gzip'd JSON-lines file.  The first line is the header::

    {"format": "alphabeta-gym-labels", "version": 2,
     "game": {"kind": "connect4", "rows": 6, "cols": 7, "k": 4},
     "count": 20000, "heldout": 4000, "seed": 0, "command": "python -m tuning.labels ...",
     "source": {"name": "solver", ...}}

then one line per position ``[moves, score, move_scores, target]``: the move
string from the empty board (the game's notation); the score for the side
to move (the solver's strong score: 0 draw, positive the side to move wins,
larger when sooner; a deep search's score; or the game's outcome 1 / 0 /
-1); a list over the action space with the exact score of each legal move
(``null`` where illegal; the whole list ``null`` unless the set is exact);
and the target.  Version 1 rows have no target: it is the sign of the score.
No two positions are equal up to the board's symmetries (Connect-4: the
mirror).  The file is written atomically with a zero gzip timestamp, so a
seed and a count give the same bytes on every run and machine.

**Where sets are found** (:func:`find_labels`): a set shipped in
``tuning/data/`` for the board, else one made earlier and kept in the cache
(:func:`cache_path`: ``~/.cache/alphabeta-gym/labels/<board>-<source>.labels.jsonl.gz``,
``$ALPHABETA_GYM_CACHE`` moves it), keyed by the board, its rule and the
source.  ``python -m tuning.labels`` without ``--out`` writes there, and the
tuner makes the set it needs there when none exists (:mod:`tuning.run`).

Example:
    >>> from games import TIC_TAC_TOE
    >>> labels = load_labels(game=TIC_TAC_TOE)
    >>> labels.positions[0].moves, labels.positions[0].value   # the empty board is a draw
    ('', 0)

Command line::

    python -m tuning.labels --game connect4 --rows 7 --cols 8 --time 300     # the board's default source, 5 minutes
    python -m tuning.labels --game mnk --rows 9 --cols 9 --k 5 --source selfplay --count 20000
    python -m tuning.labels --game connect4 --count 8000 --seed 0 --out tuning/data/connect4-6x7.labels.jsonl.gz

The shipped sets were made with ``--source solver``: Connect-4 6x7 (8,000
positions in 12 minutes on the shared machine, its last 1,600 held out),
tic-tac-toe (all 627 positions that are not over, up to symmetry) and 4,4,3
(3,000 positions in seconds).
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import math
import os
import shlex
import sys
import tempfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence, Union

from games import CONNECT4, Action, InvalidGameError, KInARow, Position, game_from_record
from games.cli import add_game_arguments, game_from_args
from games.errors import AlphabetaError, GameError
from heuristics import files

if TYPE_CHECKING:  # the sources import the agents: only for the annotations here
    from tuning.label_sources import LabelSource as LabelSourceType

FORMAT = "alphabeta-gym-labels"
VERSION = 2
READABLE_VERSIONS = (1, 2)
DEFAULT_HELDOUT = 0.2
"""The held-out share of a set whose header does not record its split (version 1 files)."""
DATA_DIR = Path(__file__).parent / "data"
"""Where the shipped label sets live (package data)."""

PathLike = Union[str, "os.PathLike[str]"]
MAX_LABEL_TEXT_BYTES = 16 * files.MAX_INPUT_BYTES
"""The most text a label file may unpack to (1 GiB: some 20 million Connect-4 positions at about 52 bytes a line;
the shipped sets unpack to under 0.5 MiB): a gzip'd file of a few kilobytes can unpack to gigabytes."""


class LabelFileError(AlphabetaError):
    """A label file that cannot be read: the message names the file and the problem."""


@dataclass(frozen=True)
class LabelledPosition:
    """One position and its exact values, all from the side to move.

    Attributes:
        moves: the move string from the empty board, in the game's notation.
        ply: stones on the board.
        score: the exact score in the solver's strong convention (0: draw).
        move_scores: the exact score of every legal move, by action.
    """

    moves: str
    ply: int
    score: int
    move_scores: dict[Action, int]
    target: Optional[float] = None
    """The probability that the side to move wins (None: the sign of an exact score)."""

    @property
    def value(self) -> int:
        """The weak value: 1 the side to move wins, 0 draw, -1 it loses (of an inexact label: the likelier result)."""
        if self.target is not None:
            return (self.target > 0.5) - (self.target < 0.5)
        return (self.score > 0) - (self.score < 0)

    @property
    def win_probability(self) -> float:
        """The fit's target: the probability that the side to move wins (win 1, draw 1/2, loss 0)."""
        return self.target if self.target is not None else (self.value + 1) / 2

    def move_value(self, action: Action) -> int:
        """The weak value of playing ``action`` (1, 0 or -1), from the side to move."""
        score = self.move_scores[action]
        return (score > 0) - (score < 0)


@dataclass(frozen=True)
class LabelSet:
    """A label file's content: the game, the header (provenance), the positions."""

    game: KInARow
    header: dict[str, Any]
    positions: tuple[LabelledPosition, ...]

    def position(self, index: int) -> Position:
        """Position number ``index`` as a playable :class:`games.Position`."""
        return self.game.position(self.positions[index].moves)

    @property
    def source(self) -> str:
        """How the labels were made: ``solver``, ``search``, ``selfplay`` (version 1 files: ``solver``)."""
        record = self.header.get("source")
        return str(record.get("name")) if isinstance(record, dict) else "solver"

    @property
    def exact(self) -> bool:
        """True if every label is the exact value, with every move's exact value (blunder rates need it)."""
        return self.source == "solver" and bool(self.positions) and all(p.move_scores for p in self.positions)

    @property
    def heldout_count(self) -> int:
        """Positions held out of every fit: the header's ``heldout``, else :data:`DEFAULT_HELDOUT` of the set."""
        recorded = self.header.get("heldout")
        if isinstance(recorded, int) and 0 <= recorded <= len(self.positions):
            return recorded
        return int(round(len(self.positions) * DEFAULT_HELDOUT))

    @property
    def train(self) -> tuple[LabelledPosition, ...]:
        """The positions fits may use."""
        return self.positions[: len(self.positions) - self.heldout_count]

    @property
    def heldout(self) -> tuple[LabelledPosition, ...]:
        """The positions no fit uses: the last ones, from games of their own."""
        return self.positions[len(self.positions) - self.heldout_count :]


def game_json(game: KInARow) -> dict[str, Any]:
    """The header's description of ``game``."""
    return game.to_record()


def game_tag(game: KInARow) -> str:
    """``connect4-6x7`` or ``mnk-3x3x3``: the shipped file's name stem (k is 4 for every Connect-4 set)."""
    if game.kind == "connect4":
        return f"connect4-{game.rows}x{game.cols}" + ("" if game.k == 4 else f"x{game.k}") + game.rule_suffix.replace(" ", "-")
    return f"mnk-{game.rows}x{game.cols}x{game.k}" + game.rule_suffix.replace(" ", "-")


def default_path(game: KInARow) -> Path:
    """The shipped label set of ``game`` (it may not exist: only some games ship one)."""
    return DATA_DIR / f"{game_tag(game)}.labels.jsonl.gz"


def cache_path(game: KInARow, source: str) -> Path:
    """Where a set of ``game`` made by ``source`` is kept for later runs: the cache's ``labels`` folder."""
    from tuning._cache import cache_dir

    return cache_dir() / "labels" / f"{game_tag(game)}-{source}.labels.jsonl.gz"


def find_labels(game: KInARow, sources: Optional[Sequence[str]] = None) -> Optional[Path]:
    """The set a fit of ``game`` uses: the shipped one, else a cached one (``sources`` in order of preference,
    default: any, exact first), else None."""
    if default_path(game).is_file():
        return default_path(game)
    for source in sources or ("solver", "search", "selfplay"):
        path = cache_path(game, source)
        if path.is_file():
            return path
    return None


def known_sets() -> list[str]:
    """Every board with a shipped or cached set, as ``connect4-6x7 (shipped)``: what an error message lists."""
    from tuning._cache import cache_dir

    found = [f"{p.name.split('.')[0]} (shipped)" for p in sorted(DATA_DIR.glob("*.labels.jsonl.gz"))]
    cached = cache_dir() / "labels"
    if cached.is_dir():
        found += [f"{p.name.split('.')[0]} (cached)" for p in sorted(cached.glob("*.labels.jsonl.gz"))]
    return found


Rows = Sequence[Union[tuple[str, int, list[Optional[int]]], tuple[str, int, Optional[list[Optional[int]]], float]]]


def write_labels(path: PathLike, header: dict[str, Any], rows: Rows) -> Path:
    """Write a label file atomically (temporary file in the target folder, then a rename); return the path.

    ``rows`` are ``(moves, score, move_scores over the action space or None, target)`` (version 2), or
    version 1's ``(moves, score, move_scores)``.  The gzip stream has a zero timestamp and no file name, so
    equal content gives equal bytes.  The folder is made if missing.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0, filename="") as gz:
        gz.write((json.dumps(header, separators=(",", ":")) + "\n").encode())
        for row in rows:
            gz.write((json.dumps(list(row), separators=(",", ":")) + "\n").encode())
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        os.chmod(tmp, 0o644)  # mkstemp makes it private; a data file is for everyone to read
        with os.fdopen(fd, "wb") as handle:
            handle.write(buffer.getvalue())
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        os.unlink(tmp)
        raise
    return target


def _read_lines(source: Path) -> list[str]:
    data = files.read_bytes_capped(source, LabelFileError)  # a regular file of at most 64 MiB (gzip'd)
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data), mode="rb") as handle:
            text = handle.read(MAX_LABEL_TEXT_BYTES + 1)
        if len(text) > MAX_LABEL_TEXT_BYTES:
            raise LabelFileError(f"{source}: unpacks to over {MAX_LABEL_TEXT_BYTES // 2**20} MiB of text: "
                                 "not a label file this package writes")  # fmt: skip
        return text.decode("utf-8").splitlines()
    except OSError as exc:
        raise LabelFileError(f"{source}: cannot read as a gzip'd label file: {exc.strerror or exc}") from None
    except (EOFError, zlib.error) as exc:  # a truncated or corrupted gzip stream
        raise LabelFileError(f"{source}: the gzip'd label file is truncated or corrupt ({exc}); "
                             "write it again (python -m tuning.labels)") from None  # fmt: skip
    except UnicodeDecodeError as exc:
        raise LabelFileError(f"{source}: the label file is not UTF-8 text: {exc}") from None


def _header_game(header: Any, source: Path) -> KInARow:
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise LabelFileError(f"{source}: the first line is not a {FORMAT!r} header")
    if header.get("version") not in READABLE_VERSIONS:
        raise LabelFileError(f"{source}: version {header.get('version')!r} is not supported "
                             f"(this package reads {', '.join(map(str, READABLE_VERSIONS))})")  # fmt: skip
    raw: Any = header.get("game")
    try:
        return game_from_record(raw)
    except InvalidGameError:
        raise LabelFileError(f"{source}: header field 'game' {raw!r} is not a game") from None


def _parse_row(line: str, number: int, game: KInARow, source: Path) -> LabelledPosition:
    try:
        fields = json.loads(line)
        moves, score, scores = fields[:3]
        target = None if len(fields) == 3 else float(fields[3])
        if len(fields) not in (3, 4) or not isinstance(score, int) or (target is not None and not 0.0 <= target <= 1.0):
            raise ValueError("bad fields")
        ply = len(game.parse_moves(moves))
        move_scores = {a: int(s) for a, s in enumerate(scores) if s is not None} if scores is not None else {}
        if scores is not None and (len(scores) != game.n_actions or not move_scores):
            raise ValueError("bad field sizes")
        if scores is None and target is None:
            raise ValueError("no label")
    except (ValueError, TypeError, GameError):
        raise LabelFileError(f"{source}: line {number} is not [moves, score, move_scores, target]: {line[:80]!r}") from None
    return LabelledPosition(moves, ply, score, move_scores, target)


def missing_message(path: Path, game: Optional[KInARow]) -> str:
    """One line for a missing set: which file, which boards have sets, and the command that makes one."""
    board = game_args(game) if game is not None else "--game connect4 --rows R --cols C"
    have = ", ".join(known_sets()) or "none"
    return (f"{path}: no such label file. Boards with labels: {have}. Make a set (it goes to the cache, where "
            f"the tuner finds it): python -m tuning.labels {board} --time 300")  # fmt: skip


def game_args(game: KInARow) -> str:
    """The command-line options that name ``game``: ``--game connect4 --rows 7 --cols 8``."""
    text = f"--game {game.kind} --rows {game.rows} --cols {game.cols}"
    if game.kind != "connect4" or game.k != 4:
        text += f" --k {game.k}"
    return text + (" --exact-k" if game.exact_k else "")


def load_labels(path: Optional[PathLike] = None, game: Optional[KInARow] = None) -> LabelSet:
    """Read a label file (default: the set of ``game`` that :func:`find_labels` finds; Connect-4 6x7 if neither is given).

    Raises:
        LabelFileError: unreadable file, a bad header or line, or a file for another game than ``game``.
    """
    source = Path(path) if path is not None else (find_labels(game) or default_path(game)) if game else default_path(CONNECT4)
    if not source.exists():  # a folder, a pipe or a device: the reader names what it is
        raise LabelFileError(missing_message(source, game))
    lines = _read_lines(source)
    header: Any = None
    try:
        header = json.loads(lines[0]) if lines else None
    except json.JSONDecodeError:
        header = None
    found = _header_game(header, source)
    if game is not None and found != game:
        raise LabelFileError(f"{source}: the labels are for {found}, not {game}")
    positions = tuple(_parse_row(line, n, found, source) for n, line in enumerate(lines[1:], start=2) if line)
    return LabelSet(found, header, positions)


# --------------------------------------------------------------------------- command line


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tuning.labels",
        description="Make a labelled position set for any board: exact values where the solver reaches, deep-search "
        "values or self-play outcomes elsewhere; deterministic for a seed and a count, with a held-out split.",
    )
    add_game_arguments(parser)
    parser.add_argument("--source", default="auto",
                        help="solver, search or selfplay (default auto: the solver where it labels fast, else the "
                        "board family's measured best; see the tuning guide)")  # fmt: skip
    parser.add_argument("--count", type=int, help="positions to label at most")
    parser.add_argument("--time", type=float, help="seconds to spend at most (the positions labelled by then are kept)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the self-play (default 0)")
    parser.add_argument("--heldout", type=float, default=DEFAULT_HELDOUT,
                        help=f"share of the positions held out of every fit, whole games (default {DEFAULT_HELDOUT})")
    parser.add_argument("--out", help="the .jsonl.gz file to write, atomically (default: the cache, where the tuner "
                        "finds it: " + str(cache_path(CONNECT4, "SOURCE")).replace("connect4-6x7", "BOARD") + ")")
    parser.add_argument("--min-ply", type=int, help="solver: label no position with fewer stones "
                        "(default: Connect-4 6x7 8, later on larger boards; m,n,k 0)")  # fmt: skip
    parser.add_argument("--player", help="search, selfplay: the agent spec both sides of the games play "
                        "(default: threats at 1000 nodes a move)")  # fmt: skip
    parser.add_argument("--deep", help="search: the agent spec whose search values label the positions "
                        "(default: threats at 20,000 nodes)")  # fmt: skip
    parser.add_argument("--workers", type=int, help="worker processes (default: all cores)")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    return parser


def make_labels(game: KInARow, source: LabelSourceType, *, count: Optional[int], seconds: Optional[float], seed: int,
                heldout: float, out: Path, command: str, workers: int = 1,
                report: Optional[Callable[[str], None]] = None) -> LabelSet:  # fmt: skip
    """Generate a set with ``source`` (:mod:`tuning._generate`), write it atomically to ``out``, and load it."""
    from tuning._generate import generate  # the generator pulls in the agents: only when used

    made = generate(game, source, count=count, seconds=seconds, seed=seed, heldout=heldout, workers=workers,
                    report=report)  # fmt: skip
    header = {"format": FORMAT, "version": VERSION, **made.header, "command": command}
    write_labels(out, header, [(r.moves, r.score, r.move_scores, round(r.target, 6)) for r in made.rows])
    return load_labels(out, game)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the generation command line; return the exit code."""
    from tuning.label_sources import default_source, make_source
    from tuning.match import check_count, default_workers, max_workers

    parser = _parser()
    args = parser.parse_args(argv)
    try:
        game = game_from_args(parser, args)
        name = default_source(game) if args.source == "auto" else args.source
        options = {"min_ply": args.min_ply} if name == "solver" else {"player": args.player, "deep": args.deep}
        if name == "selfplay":
            options.pop("deep")
        source = make_source(name, game, **options)
        for flag, value, high in (("--count", args.count, 10**9), ("--workers", args.workers, max_workers())):
            check_count(flag, value, high)
    except ValueError as exc:
        parser.error(str(exc))
    if args.count is None and args.time is None:
        parser.error("give --count (positions) or --time (seconds), or both")
    if args.time is not None and not (math.isfinite(args.time) and args.time > 0):
        parser.error(f"--time {args.time} must be a positive number of seconds")
    if not 0.0 <= args.heldout < 1.0:
        parser.error(f"--heldout {args.heldout} must be a share in [0, 1)")
    out = Path(args.out) if args.out else cache_path(game, name)
    if args.out and not out.parent.is_dir():
        parser.error(f"--out {args.out}: folder {str(out.parent)!r} does not exist")
    command = "python -m tuning.labels " + shlex.join(sys.argv[1:] if argv is None else list(argv))
    report = None if args.quiet else (lambda line: print(line, file=sys.stderr, flush=True))
    labels = make_labels(game, source, count=args.count, seconds=args.time, seed=args.seed, heldout=args.heldout,
                         out=out, command=command, workers=args.workers or default_workers(), report=report)  # fmt: skip
    if args.count is not None and len(labels.positions) < args.count and args.time is None:
        print(f"warning: only {len(labels.positions)} distinct positions found (asked for {args.count})", file=sys.stderr)
    print(f"wrote {len(labels.positions)} labelled positions of {game} ({name}; {labels.heldout_count} held out) to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
