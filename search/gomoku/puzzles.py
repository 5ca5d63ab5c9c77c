"""Gomoku puzzles: positions with a forced win by continuous fours (VCF), each with every winning first move.

A puzzle is a position of a free m,n,k board (gomoku 15,15,5 freestyle or
exact-k, and a few 20,20,5) where the side to move has a VCF whose shortest
line is ``plies`` plies long (the winning five included: 3 is a four and a
double four's win, 5 one more four, ...).  The shipped set
(``search/gomoku/data/gomoku-puzzles.json``, rebuilt by ``python -m
scripts.make_puzzles``) comes from games between existing agents; its
winning moves were checked by :func:`winning_moves`, and :func:`verify`
re-checks a puzzle (the tests do it for every shipped puzzle).

What counts as a winning first move.  A move ``m`` wins if it makes five, or
if after it *every* reply of the defender (every empty cell) leaves the
attacker a VCF that the threat-space search proves (:func:`search.gomoku.threats.
find_vcf`, which only claims forced wins).  So the set holds the VCF's first
fours and also any other move (another four, a quiet move when the attacker
has VCFs to spare) that keeps a VCF against every defence.  It is exact for
wins kept by VCF; a move that wins only by a slower, non-VCF attack (threes)
is not in it, which a benchmark built on the set states.

Example:
    >>> from games import MNK
    >>> game = MNK(9, 9, 5)
    >>> position = game.position("e5 a9 f5 a8 g5 a7 e6 b9 e7 c9")   # two threes through e5
    >>> find_vcf(position).plies                  # a four-three: the four, the block, the five
    3
    >>> sorted(game.format_move(m) for m in winning_moves(position))   # a four on either line, then the other
    ['c5', 'd5', 'e3', 'e4', 'e8', 'e9', 'h5', 'i5']
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Iterable, Optional, Union

from games import MNK, Action, KInARow, Position
from heuristics import files
from search.errors import SearchError
from search.gomoku.threats import find_vcf, find_vct

FORMAT = "alphabeta-gym-puzzles"
"""The ``format`` field of a puzzle file."""
CHECK_NODES = 20_000
"""Node budget of each VCF proof in :func:`winning_moves` (a proof that runs out counts as no win: the set errs short)."""
VCT_CHECK_NODES = 50_000
"""The same for the VCF-or-VCT proofs of ``vct`` puzzles (a VCT needs more)."""
SHIPPED = "gomoku-puzzles.json"
"""The shipped set's file name in ``search/data``."""


class PuzzleFileError(SearchError):
    """A puzzle file's field that is missing, of the wrong kind or describes no puzzle (the message names it)."""


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: the position, the shortest VCF's length, every winning first move, one winning line."""

    name: str
    """A short unique name (``15x15-free-0007``)."""
    game: KInARow
    """The board and its rule (freestyle, or exact-k where an overline does not win)."""
    moves: tuple[Action, ...]
    """The moves from the empty board to the puzzle's position (the side to move is the attacker)."""
    plies: int
    """Plies of the shortest VCF, the winning move included."""
    winning: frozenset[Action]
    """Every first move that keeps a VCF against every defence (module docstring)."""
    line: tuple[Action, ...]
    """One shortest VCF line: attacker and forced defender moves, ending with the five."""
    source: str
    """Where the position comes from."""
    kind: str = "vcf"
    """``vcf``: the win is by continuous fours; ``vct``: the attacker has no VCF, the shortest proved win uses threes."""

    def position(self) -> Position:
        """The puzzle's position (a new one each call)."""
        position = self.game.position()
        for move in self.moves:
            position.play(move)
        return position

    def to_json(self) -> dict[str, Any]:
        """The puzzle as a JSON object (moves in the game's notation)."""
        fmt = self.game.format_moves
        return {
            "name": self.name, "rows": self.game.rows, "cols": self.game.cols, "k": self.game.k,
            "exact_k": self.game.exact_k, "moves": fmt(self.moves), "plies": self.plies,
            "winning": fmt(sorted(self.winning)), "line": fmt(self.line), "source": self.source, "kind": self.kind,
        }  # fmt: skip

    @classmethod
    def from_json(cls, data: Any) -> Puzzle:
        """The inverse of :meth:`to_json`.

        Raises:
            SearchError: not an object, a missing field or one of the wrong type (named), a board the game core
                refuses, moves that cannot be played from the empty board (a cell given twice), a position that is
                already over, winning moves that are not legal there, or a line that cannot be played after it.
        """
        if not isinstance(data, dict):
            raise SearchError(f"a puzzle is a JSON object with the fields {', '.join(_FIELDS)}; got {files.describe_json(data)}")
        name = data.get("name")
        shown = repr(name) if isinstance(name, str) else "?"
        try:
            fields = {key: _field(data, key, kind) for key, kind in _FIELDS.items()}
            kind = data.get("kind", "vcf")
            if kind not in KINDS:
                raise PuzzleFileError(f"field 'kind' is {kind!r}, not one of {', '.join(KINDS)}")
            if fields["plies"] < 1:
                raise PuzzleFileError(f"field 'plies' is {fields['plies']}, not a positive number of plies")
            game = MNK(fields["rows"], fields["cols"], fields["k"], exact_k=fields["exact_k"])
            moves = tuple(_moves(game, fields["moves"], "moves"))
            position = _replay(game, moves, "moves")  # a cell given twice, a move after the game ended
            if position.is_terminal():
                raise PuzzleFileError(f"field 'moves': the position is already over ({'won' if position.winner is not None else 'drawn'})")
            winning = frozenset(_moves(game, fields["winning"], "winning"))
            if not winning or not all(position.is_legal(m) for m in winning):
                raise PuzzleFileError("field 'winning' must name one or more empty cells of the position")
            line = tuple(_moves(game, fields["line"], "line"))
            _replay(game, (*moves, *line), "line")  # the line replays after the position
        except (ValueError, TypeError) as error:  # the game core's errors are ValueErrors
            raise SearchError(f"malformed puzzle {shown}: {error}") from None
        return cls(fields["name"], game, moves, fields["plies"], winning, line, fields["source"], kind)


_FIELDS: dict[str, type] = {"name": str, "rows": int, "cols": int, "k": int, "exact_k": bool, "moves": str,
                            "plies": int, "winning": str, "line": str, "source": str}  # fmt: skip
"""A puzzle object's required fields and their JSON types (moves in the game's notation); ``kind`` is optional."""
KINDS = ("vcf", "vct")
"""The kinds of forced win a puzzle may hold (:attr:`Puzzle.kind`)."""


def _field(data: dict[str, Any], key: str, kind: type) -> Any:
    """``data[key]`` if it is a ``kind`` (an int is not a bool here, nor a bool an int), else ValueError naming it."""
    if key not in data:
        raise PuzzleFileError(f"field {key!r} is missing")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise PuzzleFileError(f"field {key!r} is {files.describe_json(value)}, not a JSON {_JSON_NAMES[kind]}")
    return value


_JSON_NAMES = {str: "string", int: "integer", bool: "true or false"}


def _replay(game: KInARow, moves: tuple[Action, ...], key: str) -> Position:
    """The position after ``moves`` (ValueError naming the field ``key`` if one cannot be played)."""
    try:
        return game.position(moves)
    except ValueError as error:  # IllegalMoveError
        raise PuzzleFileError(f"field {key!r}: {error}") from None


def _moves(game: KInARow, text: str, key: str) -> list[Action]:
    """The moves of a puzzle's field, in the game's notation (ValueError naming the field)."""
    try:
        return game.parse_moves(text)
    except ValueError as error:
        raise PuzzleFileError(f"field {key!r}: {error}") from None


def _wins_now(position: Position, move: Action) -> bool:
    """True if ``move`` ends the game with a win for the side to move."""
    position.play(move)
    won = position.winner is not None
    position.undo()
    return won


def _proved(position: Position, nodes: int, vct: bool) -> bool:
    """True if the side to move has a VCF (or, with ``vct``, a VCT) the threat search proves within ``nodes``."""
    return find_vcf(position, nodes=nodes).win or (vct and find_vct(position, nodes=nodes).win)


def wins_after(position: Position, move: Action, nodes: int = CHECK_NODES, first_replies: Iterable[Action] = (),
               vct: bool = False) -> bool:  # fmt: skip
    """True if ``move`` wins at once, or every defender reply after it leaves the mover a proved VCF (or VCT).

    ``first_replies`` are tried before the other cells (the likely refutations:
    a wrong move is then rejected after a few searches).  ``position`` is
    left as it was.
    """
    if _wins_now(position, move):
        return True
    position.play(move)
    try:
        if position.is_terminal():
            return False  # a draw by a full board
        legal = set(position.legal_moves())
        ordered = [r for r in dict.fromkeys(first_replies) if r in legal] + sorted(legal - set(first_replies))
        for reply in ordered:
            position.play(reply)
            try:
                if position.is_terminal() or not _proved(position, nodes, vct):
                    return False
            finally:
                position.undo()
        return True
    finally:
        position.undo()


def winning_moves(position: Position, nodes: int = CHECK_NODES, hints: Iterable[Action] = (),
                  vct: bool = False, most: Optional[int] = None) -> frozenset[Action]:  # fmt: skip
    """Every move of the side to move that wins at once or keeps a proved VCF (``vct``: or VCT) against every defence.

    Args:
        position: a free m,n,k position (``k >= 4``) that is not over.
        nodes: node budget of each VCF proof.
        hints: cells tried first as the defender's replies (e.g. a known VCF line).
        vct: also count wins the threat search proves by threes (VCT) after the defender's reply.
        most: stop once more than this many are found (the caller then sees ``most + 1``).

    Raises:
        SearchError: gravity, ``k < 4`` or a finished position.
    """
    if position.is_terminal():
        raise SearchError(f"position {position.move_string()!r} is over: it has no winning moves")
    found = (find_vct if vct else find_vcf)(position, nodes=nodes)  # validates the game; its line: likely refutations
    hints = tuple(dict.fromkeys((*found.line, *hints)))
    work = position.copy()
    found_moves: list[Action] = []
    for move in work.legal_moves():
        if wins_after(work, move, nodes, hints, vct):
            found_moves.append(move)
            if most is not None and len(found_moves) > most:
                break
    return frozenset(found_moves)


def verify(puzzle: Puzzle, nodes: Optional[int] = None, moves: Optional[Iterable[Action]] = None) -> Optional[str]:
    """None if the puzzle holds, else what is wrong.

    Checks that the position is open with no five to make, that the shortest
    proved win (VCF, or for a ``vct`` puzzle VCT with no VCF) has the recorded
    length, that the line replays to the attacker's five, and re-proves the
    recorded winning ``moves`` (None: all of them; a VCT proof per defender
    reply is slow, so a caller may check a sample), each proof within
    ``nodes`` (None: :data:`CHECK_NODES`, or :data:`VCT_CHECK_NODES` for a
    ``vct`` puzzle, the budgets the set was built with).
    """
    vct = puzzle.kind == "vct"
    nodes = nodes if nodes is not None else (VCT_CHECK_NODES if vct else CHECK_NODES)
    position = puzzle.position()
    if position.is_terminal():
        return "the position is over"
    if any(_wins_now(position, m) for m in position.legal_moves()):
        return "the side to move already has a five to make"
    if vct:
        vcf = find_vcf(position, nodes=nodes * 5)
        if vcf.win or not vcf.complete:
            return "a vct puzzle's attacker has (or may have) a VCF"
    shortest = (find_vct if vct else find_vcf)(position, nodes=nodes * 5)
    if not shortest.win or shortest.plies != puzzle.plies:
        return f"the shortest {puzzle.kind.upper()} has {shortest.plies} plies, not {puzzle.plies}"
    replay = position.copy()
    for i, move in enumerate(puzzle.line):
        if not replay.is_legal(move) or replay.is_terminal():
            return f"line move {i + 1} cannot be played"
        replay.play(move)
    if replay.winner != position.to_move or len(puzzle.line) != puzzle.plies:
        return "the line does not end in the attacker's five"
    if puzzle.line[0] not in puzzle.winning:
        return "the line's first move is not among the winning moves"
    work = position.copy()
    for move in sorted(puzzle.winning if moves is None else moves):
        if move not in puzzle.winning or not wins_after(work, move, nodes, puzzle.line, vct):
            return f"recorded winning move {puzzle.game.format_move(move)} does not keep a {puzzle.kind.upper()}"
    return None


def load_puzzles(path: Union[str, Path, None] = None) -> list[Puzzle]:
    """The puzzles of ``path``, or of the shipped set (None).

    Raises:
        SearchError: the file cannot be read (or is not a regular file of at most
            :data:`heuristics.files.MAX_INPUT_BYTES`), is not JSON, is not a puzzle file, or holds a malformed
            puzzle (:meth:`Puzzle.from_json`; the message names the puzzle's number and the field).
    """
    source = str(path) if path is not None else SHIPPED
    try:
        if path is None:
            text = resources.files("search.gomoku").joinpath("data", SHIPPED).read_text()
        else:
            text = files.read_text_capped(path, SearchError)
        data = files.parse_json(text, source, SearchError)  # nesting too deep, a key given twice: one-line errors
    except (OSError, ValueError) as error:
        raise SearchError(f"{source}: cannot read puzzles: {str(error).removeprefix(source + ': ')}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("puzzles"), list):
        raise SearchError(f"{source}: not a puzzle file (format {FORMAT!r} with a 'puzzles' list)")
    puzzles = []
    for number, item in enumerate(data["puzzles"], 1):
        try:
            puzzles.append(Puzzle.from_json(item))
        except SearchError as error:
            raise SearchError(f"{source}: puzzle {number}: {error}") from None
    return puzzles


def puzzles_json(puzzles: Iterable[Puzzle], meta: dict[str, Any]) -> str:
    """A puzzle file's text: ``meta`` (how the set was made) and the puzzles."""
    return json.dumps({"format": FORMAT, "version": 1, **meta, "puzzles": [p.to_json() for p in puzzles]}, indent=1) + "\n"
