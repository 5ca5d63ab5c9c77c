"""Game descriptions for the k-in-a-row family: Connect-4 and m,n,k games.

A game is an immutable value: board size, ``k``, and whether stones fall
(gravity).  It knows its move notation and creates positions::

    >>> from games import Connect4, MNK
    >>> Connect4().position("4453").to_move
    0
    >>> MNK(3, 3, 3).format_move(4)
    'b2'

Actions.  Connect-4 (gravity): an action is a column, ``0 .. cols - 1``.
m,n,k (no gravity): an action is a cell, ``row * cols + col`` with row 0 at
the top.

Notation.  Connect-4 moves are 1-based column numbers, written as a string of
digits from the empty board (``"4453"``, the format of the standard solver
benchmark sets); boards with more than 9 columns separate moves with spaces
or commas (``"10 4 4"``).  m,n,k moves name a cell by column letter and row
number counted from the bottom, as in chess and gomoku notation (the
Connect-4 paper's cell ``(d, 1)`` is the bottom of the centre column):
``"b2"`` is the centre of tic-tac-toe, ``"a1"`` the bottom-left corner.  A
move string is such names in order, optionally separated: ``"b2 a1 c3"`` or
``"b2a1c3"``.  Past 26 columns the letters go on as spreadsheet columns do
(``z``, ``aa``, ``ab``, ... ``cv`` for the 100th), so boards up to
:data:`MAX_SIDE` per side keep one notation, and every 26-column name is
unchanged.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, ClassVar, Iterable, Union

import numpy as np

from games import _bits
from games._rules import Rules, make_rules
from games.checks import is_integer, shown
from games.errors import InvalidGameError, NotationError
from games.notation import Action as Action  # re-exported: games.rules.Action stays
from games.notation import column_index as column_index
from games.notation import column_name as column_name

if TYPE_CHECKING:
    from games.position import Position

C4_ROWS = 6
C4_COLS = 7
C4_K = 4
MAX_SIDE = 100
"""Largest number of rows or columns (the Bologna m,n,k tournament plays up to 70,70,10)."""

_MNK_TOKEN = re.compile(r"([a-zA-Z]+)(\d+)")
_SEPARATORS = re.compile(r"[\s,;]+")


def _check_size(name: str, value: object, low: int, high: int) -> int:
    """Return ``value`` if it is an int in ``[low, high]``, else raise InvalidGameError."""
    if not is_integer(value):  # NumPy integers are sizes too (stored as Python ints below)
        raise InvalidGameError(f"{name}={shown(value)} is not an integer: {name} must be an integer from {low} to {high}")
    number: int = int(value)  # type: ignore[call-overload]
    if not low <= number <= high:
        raise InvalidGameError(f"{name}={shown(number)} is out of range: {name} must be an integer from {low} to {high}")
    return number


@dataclass(frozen=True, repr=False)
class KInARow(ABC):
    """A two-player game on a ``rows x cols`` board won by ``k`` or more in a row.

    Use the concrete :class:`Connect4` or :class:`MNK`; this base holds what
    they share: validation, sizes, the rule variant and positions.

    ``exact_k=True`` is the exact-k rule (standard gomoku, Gomocup's
    "standard" rule): exactly ``k`` in a row wins and an overline of more
    than ``k`` does not (the game goes on).  The default is "k or more".

    Raises:
        InvalidGameError: ``rows`` or ``cols`` outside ``1..100``, ``k`` below 2,
            or ``k`` longer than both sides (nobody could ever win).
    """

    rows: int
    cols: int
    k: int
    exact_k: bool = False

    gravity: ClassVar[bool] = False
    kind: ClassVar[str] = "k-in-a-row"

    def __post_init__(self) -> None:
        object.__setattr__(self, "rows", _check_size("rows", self.rows, 1, MAX_SIDE))  # frozen: set once, here
        object.__setattr__(self, "cols", _check_size("cols", self.cols, 1, MAX_SIDE))
        longest = max(self.rows, self.cols)
        if longest < 2:
            raise InvalidGameError(f"a {self.rows}x{self.cols} board has no line of 2: rows or cols must be at least 2")
        object.__setattr__(self, "k", _check_size("k", self.k, 2, longest))
        if not isinstance(self.exact_k, (bool, np.bool_)):
            raise InvalidGameError(f"exact_k={shown(self.exact_k)} is not a bool: exact_k must be True or False")
        object.__setattr__(self, "exact_k", bool(self.exact_k))

    @cached_property
    def rules(self) -> Rules:
        """The rules as every kernel receives them (:class:`games._rules.Rules`, built here and only here).

        Cached: building the tuple costs about a microsecond, and the solver
        and the envs pass it on every call.
        """
        return make_rules(self.rows, self.cols, self.k, self.gravity, self.exact_k)

    def __repr__(self) -> str:
        variant = ", exact_k=True" if self.exact_k else ""  # the default rule stays out of the way
        return f"{type(self).__name__}(rows={self.rows}, cols={self.cols}, k={self.k}{variant})"

    def to_record(self) -> dict[str, object]:
        """The game as a JSON object: kind and sizes, and ``exact_k`` only when set (so older files stay as they were).

        Example:
            >>> MNK(15, 15, 5, exact_k=True).to_record()
            {'kind': 'mnk', 'rows': 15, 'cols': 15, 'k': 5, 'exact_k': True}
        """
        record: dict[str, object] = {"kind": self.kind, "rows": self.rows, "cols": self.cols, "k": self.k}
        if self.exact_k:
            record["exact_k"] = True
        return record

    @property
    def rule_suffix(self) -> str:
        """``" exact"`` under the exact-k rule, else empty (for names and tables)."""
        return " exact" if self.exact_k else ""

    @property
    def n_cells(self) -> int:
        """Number of cells, ``rows * cols``."""
        return self.rows * self.cols

    @property
    def n_actions(self) -> int:
        """Size of the action space: ``cols`` with gravity, ``rows * cols`` without."""
        return self.cols if self.gravity else self.n_cells

    @property
    def uses_bitboard(self) -> bool:
        """True for gravity boards whose bitboard, sentinel row included, fits 64 bits."""
        return self.gravity and _bits.fits(self.rows, self.cols)

    def position(self, moves: Union[str, Iterable[Action]] = ()) -> Position:
        """Return the position reached by playing ``moves`` from the empty board.

        Args:
            moves: a move string in this game's notation, or actions.

        Raises:
            NotationError: the string cannot be parsed.
            IllegalMoveError: a move is illegal where it is played.
        """
        from games.position import Position

        pos = Position(self)
        for action in self.parse_moves(moves) if isinstance(moves, str) else moves:
            pos.play(action)
        return pos

    @abstractmethod
    def format_move(self, action: Action) -> str:
        """Write one action in this game's notation."""

    @abstractmethod
    def parse_move(self, token: str) -> Action:
        """Read one move in this game's notation (legality is not checked here)."""

    def format_moves(self, actions: Iterable[Action]) -> str:
        """Write a sequence of actions as a move string."""
        return " ".join(self.format_move(a) for a in actions)

    def parse_moves(self, text: str) -> list[Action]:
        """Read a move string into actions (legality is not checked here)."""
        return [self.parse_move(t) for t in _SEPARATORS.split(text.strip()) if t]

    def _check_action(self, action: object) -> Action:
        """Return ``action`` as an int if it is inside the action space, else raise."""
        # numpy integers are welcome (envs and agents produce them); floats and bools are not.
        if isinstance(action, bool) or not hasattr(action, "__index__"):
            raise NotationError(f"move {action!r} is not an integer action")
        value = int(action)
        if not 0 <= value < self.n_actions:
            what = "column" if self.gravity else "cell"
            raise NotationError(f"move {value} is not a {what} of {self}: actions are 0 to {self.n_actions - 1}")
        return value


@dataclass(frozen=True, repr=False)
class Connect4(KInARow):
    """Connect-4 and its variants: stones fall to the lowest empty cell of a column.

    Args:
        rows: board height, 1 to 100 (default 6).
        cols: board width, 1 to 100 (default 7).
        k: stones in a row needed to win, 2 to max(rows, cols) (default 4).

    Example:
        >>> pos = Connect4().position("444")
        >>> pos.legal_moves()
        [0, 1, 2, 3, 4, 5, 6]
        >>> Connect4(rows=5, cols=4).uses_bitboard
        True
    """

    rows: int = C4_ROWS
    cols: int = C4_COLS
    k: int = C4_K
    exact_k: bool = False

    gravity: ClassVar[bool] = True
    kind: ClassVar[str] = "connect4"

    def format_move(self, action: Action) -> str:
        """Write a column as its 1-based number."""
        return str(self._check_action(action) + 1)

    def parse_move(self, token: str) -> Action:
        """Read a 1-based column number."""
        if not token.isdigit():
            raise NotationError(f"move {token!r} is not a column number: columns are 1 to {self.cols} in {self}")
        column = int(token)
        if not 1 <= column <= self.cols:
            raise NotationError(f"move {token!r} is not a column of {self}: columns are 1 to {self.cols}")
        return column - 1

    def format_moves(self, actions: Iterable[Action]) -> str:
        """Write columns as a digit string (space-separated when cols > 9)."""
        sep = "" if self.cols <= 9 else " "
        return sep.join(self.format_move(a) for a in actions)

    def parse_moves(self, text: str) -> list[Action]:
        """Read ``"4453"`` (one digit a move) or separated column numbers."""
        text = text.strip()
        if self.cols <= 9 and not _SEPARATORS.search(text):
            return [self.parse_move(ch) for ch in text]
        return super().parse_moves(text)

    def __str__(self) -> str:
        return f"Connect-4 {self.rows}x{self.cols} k={self.k}{self.rule_suffix}"


@dataclass(frozen=True, repr=False)
class MNK(KInARow):
    """An m,n,k game: place a stone on any empty cell; ``k`` or more in a row wins.

    Args:
        rows: board height (m), 1 to 100.
        cols: board width (n), 1 to 100.
        k: stones in a row needed to win, 2 to max(rows, cols).

    Example:
        >>> ttt = MNK(3, 3, 3)
        >>> ttt.position("b2 a1").legal_moves()
        [0, 1, 2, 3, 5, 7, 8]
        >>> ttt.parse_move("a1"), ttt.format_move(0)
        (6, 'a3')
    """

    gravity: ClassVar[bool] = False
    kind: ClassVar[str] = "mnk"

    def format_move(self, action: Action) -> str:
        """Write a cell as column letter + row number from the bottom (``"a1"``)."""
        row, col = divmod(self._check_action(action), self.cols)
        return f"{column_name(col)}{self.rows - row}"

    def parse_move(self, token: str) -> Action:
        """Read a cell name such as ``"b2"`` (column letter, row number from the bottom)."""
        match = _MNK_TOKEN.fullmatch(token.strip())
        if match is None:
            raise NotationError(f"move {token!r} is not a cell name like 'a1' ({self})")
        return self._cell_from_match(match, token)

    def parse_moves(self, text: str) -> list[Action]:
        """Read cell names, separated or not: ``"b2 a1"`` or ``"b2a1"``."""
        compact = _SEPARATORS.sub("", text)
        matches = list(_MNK_TOKEN.finditer(compact))
        if "".join(m.group(0) for m in matches) != compact:
            raise NotationError(f"move string {text!r} is not a sequence of cell names like 'a1 b2' ({self})")
        return [self._cell_from_match(m, m.group(0)) for m in matches]

    def _cell_from_match(self, match: re.Match[str], token: str) -> Action:
        col = column_index(match.group(1))
        row_from_bottom = int(match.group(2))
        if col >= self.cols or not 1 <= row_from_bottom <= self.rows:
            raise NotationError(
                f"move {token!r} is off the board of {self}: columns a to {column_name(self.cols - 1)}, rows 1 to {self.rows}"
            )
        return (self.rows - row_from_bottom) * self.cols + col

    def __str__(self) -> str:
        return f"m,n,k {self.rows},{self.cols},{self.k}{self.rule_suffix}"


CONNECT4 = Connect4()
"""Standard Connect-4: 6 rows, 7 columns, four in a row."""
TIC_TAC_TOE = MNK(3, 3, 3)
"""Tic-tac-toe, the 3,3,3 game."""
GOMOKU = MNK(15, 15, 5)
"""Freestyle gomoku: 15x15, five or more in a row wins."""

GAME_KINDS = ("connect4", "mnk", "tictactoe", "gomoku")
_RECORD_KEYS = {"kind", "rows", "cols", "k"}


def game_from_record(raw: object) -> KInARow:
    """The game a :meth:`KInARow.to_record` object describes (weight files, label sets, run headers).

    Raises:
        InvalidGameError: not an object with exactly kind, rows, cols, k (and
            optionally exact_k), an unknown kind, or bad sizes.
    """
    if not isinstance(raw, dict) or not _RECORD_KEYS <= set(raw) <= _RECORD_KEYS | {"exact_k"}:
        raise InvalidGameError(f"game {raw!r} must be an object with exactly kind, rows, cols, k (and optionally exact_k)")
    if raw["kind"] not in ("connect4", "mnk"):
        raise InvalidGameError(f"game kind {raw['kind']!r} is not 'connect4' or 'mnk'")
    exact_k = raw.get("exact_k", False)
    if not isinstance(exact_k, bool):
        raise InvalidGameError(f"game exact_k={exact_k!r} is not a bool: exact_k must be true or false")
    return make_game(raw["kind"], raw["rows"], raw["cols"], raw["k"], exact_k=exact_k)


def make_game(
    kind: str, rows: int | None = None, cols: int | None = None, k: int | None = None, exact_k: bool = False
) -> KInARow:
    """Build a game from a kind name and optional sizes (the command lines' entry point).

    Args:
        kind: ``connect4`` (sizes default to 6x7, k=4), ``mnk`` (all three
            sizes required), ``tictactoe`` or ``gomoku`` (fixed presets).
        rows, cols, k: board sizes.
        exact_k: the exact-k rule (an overline does not win), for any kind.

    Raises:
        InvalidGameError: unknown kind, missing or bad sizes.

    Example:
        >>> make_game("mnk", rows=4, cols=4, k=3)
        MNK(rows=4, cols=4, k=3)
    """
    given = {"rows": rows, "cols": cols, "k": k}
    if kind == "connect4":
        return Connect4(**{name: v for name, v in given.items() if v is not None}, exact_k=exact_k)
    if kind == "mnk":
        missing = [name for name, v in given.items() if v is None]
        if missing:
            raise InvalidGameError(f"an m,n,k game needs rows, cols and k; missing: {', '.join(missing)}")
        return MNK(rows, cols, k, exact_k)  # type: ignore[arg-type]
    if kind in ("tictactoe", "gomoku"):
        preset = TIC_TAC_TOE if kind == "tictactoe" else GOMOKU
        for name, value in given.items():
            if value is not None and value != getattr(preset, name):
                raise InvalidGameError(f"{kind} is fixed at {preset}; {name}={value} does not fit (use 'mnk')")
        return MNK(preset.rows, preset.cols, preset.k, exact_k=True) if exact_k else preset
    raise InvalidGameError(f"unknown game {kind!r}: choose one of {', '.join(GAME_KINDS)}")
