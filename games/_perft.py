"""Perft counting: move sequences and distinct positions ply by ply.

``python -m games.perft connect4 --depth 8`` prints, for each ply, how many
move sequences reach it, how many distinct positions they reach, and how
many games end there (a game stops at a win or a full board).  These counts
are known for standard games, which makes perft the test oracle of a move
generator: Connect-4 6x7 has 7, 49, 238, 1120, 4263, 16422, 54859, 184275
distinct positions after 1..8 plies (OEIS A212693) and tic-tac-toe 255,168
complete games over 5,478 positions.

The walk goes breadth-first over *distinct* positions, each carrying the
number of sequences that reach it, so the work grows with the number of
positions, not of sequences.  Gravity boards that fit 64 bits are walked as
bitboards keyed by ``current + mask`` (a unique code: in each column it is
``2**h - 1`` plus a subset of those ``h`` bits, below ``2**(h + 1)``); other
boards as int8 arrays deduplicated byte for byte.

The command line is :mod:`games.perft`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Optional

import numpy as np

from games import _bits
from games._board import _expand_boards
from games.errors import InvalidValueError
from games.position import Position
from games.rules import KInARow


@dataclass(frozen=True)
class PerftRow:
    """Counts for one ply below the start position."""

    ply: int
    """Plies played from the start position."""
    sequences: int
    """Move sequences of this length (games that ended earlier are not extended)."""
    positions: int
    """Distinct positions those sequences reach."""
    wins: int
    """Sequences whose last move made k in a row."""
    draws: int
    """Sequences whose last move filled the board without a win."""


def _dedupe(codes: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Indices of the first occurrence of each distinct code and the summed weights per code."""
    _, first, inverse = np.unique(codes, return_index=True, return_inverse=True)
    return first, np.bincount(inverse.ravel(), weights=weights, minlength=first.size).astype(np.int64)


def _walk_bitboards(position: Position, depth: int) -> Iterator[PerftRow]:
    game = position.game
    current, mask = position.bitboard()
    currents = np.array([current], dtype=np.uint64)
    masks = np.array([mask], dtype=np.uint64)
    counts = np.ones(1, dtype=np.int64)
    for step in range(1, depth + 1):
        ply = position.ply + step - 1
        kids_cur, kids_mask, parent, ended = _bits._expand_bb(currents, masks, ply, game.rules)
        weights = counts[parent]
        first, merged = _dedupe(kids_cur + kids_mask, weights)
        yield PerftRow(step, int(weights.sum()), first.size,
                       int(weights[ended == 1].sum()), int(weights[ended == 2].sum()))  # fmt: skip
        alive = ended[first] == 0
        currents, masks, counts = kids_cur[first][alive], kids_mask[first][alive], merged[alive]
        if currents.size == 0:
            return


def _walk_arrays(position: Position, depth: int) -> Iterator[PerftRow]:
    game = position.game
    boards = position._board.reshape(1, -1).copy()
    counts = np.ones(1, dtype=np.int64)
    for step in range(1, depth + 1):
        ply = position.ply + step - 1
        children, parent, ended = _expand_boards(boards, ply, game.rules)
        weights = counts[parent]
        # One opaque item per board, so np.unique compares whole boards as bytes.
        as_bytes = np.ascontiguousarray(children).view(np.dtype((np.void, game.n_cells))).ravel()
        first, merged = _dedupe(as_bytes, weights)
        yield PerftRow(step, int(weights.sum()), first.size,
                       int(weights[ended == 1].sum()), int(weights[ended == 2].sum()))  # fmt: skip
        alive = ended[first] == 0
        boards, counts = children[first][alive], merged[alive]
        if boards.shape[0] == 0:
            return


def perft(start: KInARow | Position, depth: int, bitboard: Optional[bool] = None) -> list[PerftRow]:
    """Count sequences and distinct positions for plies 1..``depth`` below ``start``.

    Args:
        start: a game (count from the empty board) or a position.
        depth: number of plies, at least 0; rows stop early when every game has ended.
        bitboard: force (True) or forbid (False) the bitboard walk; default: use it when the game allows.

    Raises:
        ValueError: negative depth, or a bitboard asked for a game without one.

    Example:
        >>> from games import Connect4
        >>> [row.positions for row in perft(Connect4(), 4)]
        [7, 49, 238, 1120]
    """
    position = start if isinstance(start, Position) else start.position()
    if depth < 0:
        raise InvalidValueError(f"depth={depth} must be 0 or more")
    if position.is_terminal():
        return []
    use_bits = position.game.uses_bitboard if bitboard is None else bitboard
    walk = _walk_bitboards if use_bits else _walk_arrays
    return list(walk(position, depth))
