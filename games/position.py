"""A mutable k-in-a-row position with O(1) play/undo over numba kernels.

The position owns a few flat numpy arrays (board, stones per column, move
history, the Zobrist key after every ply); :meth:`Position.play` and
:meth:`Position.undo` are single kernel calls that touch one cell, so a
search can walk the tree without copying boards (the Bologna m,n,k project's
markCell/unmarkCell, the apply_move/undo_move of Neaţu, Vişan and Banu's minimax lab).  This class validates; the
kernels in :mod:`games._board` trust it.

Example:
    >>> from games import Connect4
    >>> pos = Connect4().position("4444")
    >>> pos.play(3)
    >>> pos.ply, pos.to_move
    (5, 1)
    >>> pos.undo()
    3
    >>> print(Connect4(rows=4, cols=4).position("2312"))
    . . . .
    . . . .
    . o . .
    x x o .
    1 2 3 4
    x to move
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, NoReturn, Optional

import numpy as np

from games import _bits
from games._board import _legal_moves, _play, _undo
from games._rng import zobrist_table
from games.errors import IllegalMoveError, InvalidGameError
from games.notation import Action, column_name

if TYPE_CHECKING:  # a name for the annotations only: games.rules builds positions, so it imports this module
    from games.rules import KInARow

Player = int
"""0 for the first player (``x``), 1 for the second (``o``)."""

STONE_SYMBOLS = ".xo"
"""How cells print: empty, first player, second player."""


@lru_cache(maxsize=None)
def _zobrist(n_cells: int) -> np.ndarray:
    table = zobrist_table(n_cells)
    table.setflags(write=False)
    return table


class Position:
    """A position of a :class:`games.KInARow` game: the board, the side to move, the moves so far.

    Create one with ``game.position(moves)``; ``Position(game)`` is the empty board.
    """

    def __init__(self, game: KInARow) -> None:
        self.game = game
        self._rows, self._cols, self._k = game.rows, game.cols, game.k
        self._rules = game.rules
        self._gravity, self._n_actions, self._n_cells = game.gravity, game.n_actions, game.n_cells
        n = game.n_cells
        self._board = np.zeros(n, dtype=np.int8)
        self._heights = np.zeros(game.cols, dtype=np.int32)
        self._history = np.zeros(n, dtype=np.int32)
        self._keys = np.zeros(n + 1, dtype=np.uint64)
        self._zobrist = _zobrist(n)
        self._actions: list[Action] = []
        self._winner: Optional[Player] = None
        self._scratch = np.empty(game.n_actions, dtype=np.int64)

    def __setstate__(self, state: dict[str, object]) -> None:
        """Unpickled or deep-copied: the shared read-only key table again.  A copy comes back writable, a type the
        kernels were not compiled for: each would compile once more (a minute for a search)."""
        self.__dict__.update(state)
        self._zobrist = _zobrist(self._n_cells)

    # ----------------------------------------------------------------- state
    @property
    def ply(self) -> int:
        """Number of stones on the board."""
        return len(self._actions)

    @property
    def to_move(self) -> Player:
        """The player to move: 0 (first, ``x``) or 1 (second, ``o``)."""
        return self.ply & 1

    @property
    def winner(self) -> Optional[Player]:
        """The player who made ``k`` in a row, or None (game on, or drawn)."""
        return self._winner

    @property
    def moves(self) -> list[Action]:
        """The actions played from the empty board, in order (a copy)."""
        return list(self._actions)

    @property
    def last_move(self) -> Optional[Action]:
        """The action played last, or None on the empty board."""
        return self._actions[-1] if self._actions else None

    def is_draw(self) -> bool:
        """True if the board is full and nobody won."""
        return self._winner is None and self.ply == self.game.n_cells

    def is_terminal(self) -> bool:
        """True if the game is over (a win or a full board)."""
        return self._winner is not None or self.ply == self.game.n_cells

    def result(self) -> Optional[float]:
        """Score from the first player's side: 1, 0.5 (draw), 0, or None while the game goes on."""
        if self._winner is not None:
            return 1.0 - self._winner
        return 0.5 if self.is_draw() else None

    # ----------------------------------------------------------------- moves
    def outcome(self) -> Optional[str]:
        """How the game ended, in words: ``"won by x"``, ``"won by o"`` or ``"drawn"``; None while it goes on.

        Example:
            >>> from games import TIC_TAC_TOE
            >>> TIC_TAC_TOE.position("a1 b1 a2 b2 a3").outcome(), TIC_TAC_TOE.position("a1").outcome()
            ('won by x', None)
        """
        if self._winner is not None:
            return f"won by {STONE_SYMBOLS[self._winner + 1]}"
        return "drawn" if len(self._actions) == self._n_cells else None

    def legal_moves(self) -> list[Action]:
        """The legal actions in increasing order; empty once the game is over."""
        if self._winner is not None:
            return []
        n = _legal_moves(self._board, self._heights, self._rows, self._gravity, self._scratch)
        moves: list[Action] = self._scratch[:n].tolist()
        return moves

    def winning_moves(self) -> list[Action]:
        """The legal actions that win at once for the side to move, in increasing order."""
        won = []
        for action in self.legal_moves():
            self.play(action)
            if self._winner is not None:
                won.append(action)
            self.undo()
        return won

    def legal_mask(self) -> np.ndarray:
        """An ``int8`` array over the action space, 1 where the action is legal."""
        mask = np.zeros(self.game.n_actions, dtype=np.int8)
        mask[self.legal_moves()] = 1
        return mask

    def is_legal(self, action: Action) -> bool:
        """True if ``action`` is inside the action space and playable now."""
        try:
            self._target_cell(action)
        except ValueError:
            return False
        return True

    def play(self, action: Action) -> None:
        """Play ``action`` for the side to move.

        Raises:
            IllegalMoveError: the game is over, the column is full or the cell
                taken, or the action is outside the action space.
        """
        cell = self._target_cell(action)
        won = _play(
            self._board, self._heights, self._history, self._keys, self._zobrist,
            self.ply, cell, self._rules,
        )  # fmt: skip
        self._actions.append(int(action))
        if won:
            self._winner = (self.ply - 1) & 1  # the player who just moved

    def undo(self) -> Action:
        """Take back the last move and return it.

        Raises:
            IndexError: no move to take back.
        """
        if not self._actions:
            raise IndexError(f"no move to undo: {self.game} position is empty")
        _undo(self._board, self._heights, self._history, self.ply, self._cols)
        self._winner = None
        return self._actions.pop()

    def _target_cell(self, action: Action) -> int:
        """The cell ``action`` puts a stone on, or raise IllegalMoveError saying why not."""
        # The common, legal case stays cheap: messages are built only on failure.
        if type(action) is not int:
            try:
                action = self.game._check_action(action)
            except ValueError as exc:
                raise IllegalMoveError(f"{exc} (position {self.move_string()!r})") from None
        elif not 0 <= action < self._n_actions:
            self._refuse(action, f"actions are 0 to {self._n_actions - 1}")
        if self._winner is not None or len(self._actions) == self._n_cells:
            self._refuse(action, f"the game is over ({self.outcome()})")
        if self._gravity:
            height = self._heights[action]
            if height >= self._rows:
                self._refuse(action, "the column is full")
            return (self._rows - 1 - int(height)) * self._cols + action
        if self._board[action] != 0:
            self._refuse(action, "the cell is taken")
        return action

    def _refuse(self, action: int, reason: str) -> NoReturn:
        if 0 <= action < self._n_actions:
            action_text = repr(self.game.format_move(action))
        else:
            action_text = str(action)
        where = f"in {self.game} position {self.move_string()!r}"
        raise IllegalMoveError(f"move {action_text} {where}: {reason}")

    # ---------------------------------------------------------- conversions
    def key(self) -> int:
        """A 64-bit Zobrist hash of the stones (the side to move follows from the count).

        Equal positions reached by different move orders have equal keys;
        suitable for a transposition table.
        """
        return int(self._keys[self.ply])

    def copy(self) -> Position:
        """An independent copy: playing on it leaves this position unchanged."""
        other = Position.__new__(Position)
        other.__dict__.update(self.__dict__)
        for name in ("_board", "_heights", "_history", "_keys", "_scratch"):
            setattr(other, name, getattr(self, name).copy())
        other._actions = list(self._actions)
        return other

    def board(self) -> np.ndarray:
        """The board as ``int8[rows, cols]``, row 0 at the top: 0 empty, 1 first player, 2 second."""
        return self._board.reshape(self._rows, self._cols).copy()

    def planes(self) -> np.ndarray:
        """``int8[2, rows, cols]`` from the side to move's view: plane 0 its stones, plane 1 the opponent's."""
        grid = self._board.reshape(self._rows, self._cols)
        mine = 1 + self.to_move
        return np.stack([grid == mine, grid == 3 - mine]).astype(np.int8)

    def bitboard(self) -> tuple[int, int]:
        """``(current, mask)`` in the layout of :mod:`games._bits` (gravity boards that fit 64 bits).

        Raises:
            ValueError: the game has no bitboard form (no gravity, or too large).
        """
        if not self.game.uses_bitboard:
            raise InvalidGameError(f"{self.game} has no 64-bit bitboard: it needs gravity and (rows + 1) * cols <= 64")
        current, mask = _bits._from_board(self._board, self._rows, self._cols, self.ply)
        return int(current), int(mask)

    def move_string(self) -> str:
        """The moves so far in the game's notation; ``game.position(s)`` rebuilds this position."""
        return self.game.format_moves(self._actions)

    def __str__(self) -> str:
        grid = self._board.reshape(self._rows, self._cols)
        # m,n,k columns past z have two-letter names (aa, ab...): every cell is as wide as the longest name.
        width = 1 if self.game.gravity else len(column_name(self._cols - 1))
        lines = []
        for r in range(self._rows):
            cells = " ".join(STONE_SYMBOLS[v].ljust(width) for v in grid[r])
            lines.append(cells if self.game.gravity else f"{cells} {self._rows - r}")
        if self.game.gravity:
            lines.append(" ".join(str((c + 1) % 10) for c in range(self._cols)))
        else:
            lines.append(" ".join(column_name(c).ljust(width) for c in range(self._cols)))
        if self._winner is not None:
            lines.append(f"{STONE_SYMBOLS[self._winner + 1]} won")
        elif self.is_draw():
            lines.append("draw")
        else:
            lines.append(f"{STONE_SYMBOLS[self.to_move + 1]} to move")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"{self.game!r}.position({self.move_string()!r})"
