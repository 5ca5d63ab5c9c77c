"""Solver-labelled position sets: the file format, the shipped sets, and ``python -m tuning.labels``.

A label set is a list of positions reached in varied self-play, each with its
exact game-theoretic value and the exact value of *every* legal move, found
by the solver (:mod:`search.solve`).  Tools that need ground truth read the
stored values and never run the solver themselves: the Texel fit
(:mod:`tuning.texel`) regresses the value on an evaluation, the blunder rate
(:mod:`tuning.blunders`) checks an agent's move against the move values.

Format (version 1): a gzip'd JSON-lines file.  The first line is the header::

    {"format": "alphabeta-gym-labels", "version": 1,
     "game": {"kind": "connect4", "rows": 6, "cols": 7, "k": 4},
     "count": 20000, "seed": 0, "command": "python -m tuning.labels ...",
     "solver": {"mode": "strong", "tt_size": 4194304, "convention": "..."},
     "generator": {"min_ply": 8, ...}}

then one line per position ``[moves, score, move_scores]``: the move string
from the empty board (the game's notation), the exact score for the side to
move in the solver's strong convention (0 draw; positive: the side to move
wins, larger when sooner), and a list over the action space with the score of
each legal move from the same side's point of view (``null`` where illegal).
The weak value (1 win, 0 draw, -1 loss) is the sign of the score.  No two
positions are equal up to the board's symmetries (Connect-4: the mirror).
The file is written atomically with a zero gzip timestamp, so a seed gives the
same bytes on every run and machine (the solver's values do not depend on time).

Example:
    >>> from games import TIC_TAC_TOE
    >>> labels = load_labels(game=TIC_TAC_TOE)
    >>> labels.positions[0].moves, labels.positions[0].value   # the empty board is a draw
    ('', 0)

Command line (generation: :mod:`tuning._generate`)::

    python -m tuning.labels --game connect4 --count 20000 --seed 0 --out tuning/data/connect4-6x7.labels.jsonl.gz
    python -m tuning.labels --game tictactoe --count 1000 --seed 0 --out tuning/data/mnk-3x3x3.labels.jsonl.gz
    python -m tuning.labels --game mnk --rows 4 --cols 4 --k 3 --count 3000 --seed 0 --out tuning/data/mnk-4x4x3.labels.jsonl.gz

The three commands above made the shipped sets (Connect-4 6x7: 8,000 positions in
12 minutes on the shared machine; tic-tac-toe: all 627 positions that are not
over, up to symmetry; 4,4,3, a first-player win: 3,000 positions in seconds).
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import os
import shlex
import sys
import tempfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Sequence, Union

from games import CONNECT4, Action, InvalidGameError, KInARow, Position, game_from_record
from games.cli import add_game_arguments, game_from_args
from games.errors import AlphabetaError, GameError
from heuristics import files

FORMAT = "alphabeta-gym-labels"
VERSION = 1
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

    @property
    def value(self) -> int:
        """The weak value: 1 the side to move wins, 0 draw, -1 it loses."""
        return (self.score > 0) - (self.score < 0)

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


def write_labels(path: PathLike, header: dict[str, Any], rows: Sequence[tuple[str, int, list[Optional[int]]]]) -> Path:
    """Write a label file atomically (temporary file in the target folder, then a rename); return the path.

    ``rows`` are ``(moves, score, move_scores over the action space)``.  The
    gzip stream has a zero timestamp and no file name, so equal content gives
    equal bytes.
    """
    target = Path(path)
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
    if header.get("version") != VERSION:
        raise LabelFileError(f"{source}: version {header.get('version')!r} is not supported (this package reads {VERSION})")
    raw: Any = header.get("game")
    try:
        return game_from_record(raw)
    except InvalidGameError:
        raise LabelFileError(f"{source}: header field 'game' {raw!r} is not a game") from None


def _parse_row(line: str, number: int, game: KInARow, source: Path) -> LabelledPosition:
    try:
        moves, score, scores = json.loads(line)
        ply = len(game.parse_moves(moves))
        move_scores = {a: int(s) for a, s in enumerate(scores) if s is not None}
        if len(scores) != game.n_actions or not move_scores or not isinstance(score, int):
            raise ValueError("bad field sizes")
    except (ValueError, TypeError, GameError):
        raise LabelFileError(f"{source}: line {number} is not [moves, score, move_scores]: {line[:80]!r}") from None
    return LabelledPosition(moves, ply, score, move_scores)


def load_labels(path: Optional[PathLike] = None, game: Optional[KInARow] = None) -> LabelSet:
    """Read a label file (default: the shipped set of ``game``, Connect-4 6x7 if neither is given).

    Raises:
        LabelFileError: unreadable file, a bad header or line, or a file for another game than ``game``.
    """
    source = Path(path) if path is not None else default_path(game or CONNECT4)
    if not source.exists():  # a folder, a pipe or a device: the reader names what it is
        raise LabelFileError(f"{source}: no such label file")
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
        description="Generate a solver-labelled position set from varied self-play (deterministic for a seed).",
    )
    add_game_arguments(parser)
    parser.add_argument("--count", type=int, required=True, help="positions to label")
    parser.add_argument("--seed", type=int, default=0, help="seed of the self-play (default 0)")
    parser.add_argument("--out", required=True, help="the .jsonl.gz file to write (atomically)")
    parser.add_argument("--min-ply", type=int, help="label no position with fewer stones (default: connect4 8, mnk 0)")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the generation command line; return the exit code."""
    from tuning._generate import GenerationSettings, generate  # the generator pulls in the agents: only when used

    parser = _parser()
    args = parser.parse_args(argv)
    try:
        game = game_from_args(parser, args)
        settings = GenerationSettings.for_game(game, args.min_ply)
    except ValueError as exc:
        parser.error(str(exc))
    if args.count < 1:
        parser.error(f"--count {args.count} must be a positive integer")
    out = Path(args.out)
    if not out.parent.is_dir():
        parser.error(f"--out {args.out}: folder {str(out.parent)!r} does not exist")
    command = "python -m tuning.labels " + shlex.join(sys.argv[1:] if argv is None else list(argv))
    generated, rows = generate(game, args.count, args.seed, settings, command, progress=None if args.quiet else sys.stderr)
    header = {"format": FORMAT, "version": VERSION, **generated}  # the generator knows the positions, not the format
    write_labels(out, header, rows)
    if len(rows) < args.count:
        print(f"warning: only {len(rows)} distinct positions found (asked for {args.count})", file=sys.stderr)
    print(f"wrote {len(rows)} labelled positions of {game} to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
