"""Random test positions shared by the test modules."""

from __future__ import annotations

from typing import Optional

import numpy as np

from games import KInARow, Position


def random_position(game: KInARow, seed: int, plies: Optional[int] = None) -> Position:
    """Up to ``plies`` random legal moves from the empty board; the result is never over.

    ``plies`` defaults to a random count below the number of cells.  A move
    that ends the game is taken back and the walk stops there.
    """
    rng = np.random.default_rng(seed)
    if plies is None:
        plies = int(rng.integers(0, game.n_cells))
    pos = game.position()
    for _ in range(plies):
        moves = pos.legal_moves()
        pos.play(moves[int(rng.integers(len(moves)))])
        if pos.is_terminal():
            pos.undo()
            break
    return pos


def board_from(picture: str) -> tuple[np.ndarray, np.ndarray, int, int]:
    """A board from rows of ``x`` (stone 1), ``o`` (stone 2), ``.``, top row first."""
    lines = picture.split()
    rows, cols = len(lines), len(lines[0])
    board = np.array([".xo".index(ch) for line in lines for ch in line], dtype=np.int8)
    heights = (board.reshape(rows, cols) != 0).sum(axis=0).astype(np.int32)
    return board, heights, rows, cols
