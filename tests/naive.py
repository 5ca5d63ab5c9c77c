"""Slow, obviously correct reference rules for the k-in-a-row family.

Deliberately different from the kernels: a list-of-lists board, a game copied
on every move, and a win check that scans the *whole* board for any ``k``
consecutive equal stones.  Tests compare the fast core against this.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional


@dataclass
class NaiveGame:
    """A k-in-a-row position: ``grid[row][col]`` with row 0 at the top, 0 empty, 1/2 stones."""

    rows: int
    cols: int
    k: int
    gravity: bool
    grid: list[list[int]] = field(default_factory=list)
    moves: list[int] = field(default_factory=list)
    exact_k: bool = False
    """The exact-k rule: a maximal run of exactly ``k`` wins, a longer one does not."""

    @classmethod
    def of(cls, game: Any) -> "NaiveGame":
        """The empty board of a :class:`games.KInARow` (its sizes and rule variant)."""
        return cls(game.rows, game.cols, game.k, game.gravity, exact_k=game.exact_k)

    def __post_init__(self) -> None:
        if not self.grid:
            self.grid = [[0] * self.cols for _ in range(self.rows)]

    @property
    def to_move(self) -> int:
        return len(self.moves) % 2

    def stone_at(self, r: int, c: int) -> int:
        """The stone on (r, c), 0 if empty or off the board."""
        return self.grid[r][c] if 0 <= r < self.rows and 0 <= c < self.cols else 0

    def winner(self) -> Optional[int]:
        """The player (0/1) with a winning line anywhere, or None.

        Every maximal run is measured from its first stone: ``k`` or more
        wins, or exactly ``k`` under the exact-k rule.
        """
        for r in range(self.rows):
            for c in range(self.cols):
                stone = self.grid[r][c]
                if stone == 0:
                    continue
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    if self.stone_at(r - dr, c - dc) == stone:
                        continue  # not the first stone of its run
                    length = 0
                    while self.stone_at(r + length * dr, c + length * dc) == stone:
                        length += 1
                    if length == self.k or (length > self.k and not self.exact_k):
                        return stone - 1
        return None

    def full(self) -> bool:
        return all(v != 0 for row in self.grid for v in row)

    def terminal(self) -> bool:
        return self.winner() is not None or self.full()

    def legal_moves(self) -> list[int]:
        """Columns that are not full (gravity) or empty cells (no gravity), increasing."""
        if self.terminal():
            return []
        if self.gravity:
            return [c for c in range(self.cols) if self.grid[0][c] == 0]
        return [r * self.cols + c for r in range(self.rows) for c in range(self.cols) if self.grid[r][c] == 0]

    def played(self, action: int) -> "NaiveGame":
        """A new game with ``action`` played (the move must be legal)."""
        assert action in self.legal_moves()
        grid = [row[:] for row in self.grid]
        if self.gravity:
            row = max(r for r in range(self.rows) if grid[r][action] == 0)
            grid[row][action] = self.to_move + 1
        else:
            grid[action // self.cols][action % self.cols] = self.to_move + 1
        return NaiveGame(self.rows, self.cols, self.k, self.gravity, grid, self.moves + [action], self.exact_k)

    def flat(self) -> list[int]:
        return [v for row in self.grid for v in row]


def naive_perft(game: NaiveGame, depth: int) -> list[tuple[int, int]]:
    """``(sequences, distinct positions)`` for plies 1..depth by brute-force enumeration."""
    out = []
    frontier = [game]
    for _ in range(depth):
        children = [g.played(m) for g in frontier for m in g.legal_moves()]
        if not children:
            break
        out.append((len(children), len({tuple(g.flat()) for g in children})))
        frontier = [g for g in children if not g.terminal()]
    return out
