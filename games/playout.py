"""Random playouts: complete games of uniformly random moves, as numba kernels.

A playout is the unit of Monte Carlo evaluation and the simplest throughput
benchmark of a game core.  Gravity boards that fit 64 bits use the bitboard
kernel; every other board uses the array kernel.  Both draw moves the same
way, so one seed gives one game whichever runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np
from numba import njit

from games import _bits
from games._board import _random_playout
from games._jit import JIT
from games._rng import new_state
from games._rules import Rules
from games.errors import GameError, InvalidGameError, InvalidValueError
from games.position import Player, Position
from games.rules import KInARow


@dataclass(frozen=True)
class PlayoutStats:
    """Totals over a batch of random games."""

    games: int
    moves: int
    first_wins: int
    second_wins: int
    draws: int


@njit(**JIT)
def _many_playouts(
    board: np.ndarray, heights: np.ndarray, ply: int, rules: Rules, use_bits: bool, n_games: int, rng: np.ndarray,
) -> np.ndarray:  # fmt: skip
    """Play ``n_games`` random games from one position; return int64[4]: moves, x wins, o wins, draws."""
    totals = np.zeros(4, dtype=np.int64)
    current, mask = _bits._from_board(board, rules.rows, rules.cols, ply) if use_bits else (np.uint64(0), np.uint64(0))
    scratch_board = board.copy()
    scratch_heights = heights.copy()
    for _ in range(n_games):
        if use_bits:
            winner, end = _bits._random_playout_bb(current, mask, ply, rules, rng)
        else:
            scratch_board[:] = board
            scratch_heights[:] = heights
            winner, end = _random_playout(scratch_board, scratch_heights, ply, rules, rng)
        totals[0] += end - ply
        totals[1 + (winner if winner >= 0 else 2)] += 1
    return totals


def random_playouts(
    start: KInARow | Position, n_games: int, seed: int = 0, bitboard: Optional[bool] = None
) -> PlayoutStats:
    """Play ``n_games`` uniformly random games from ``start`` and count the results.

    Args:
        start: a game (play from the empty board) or a position that is not over.
        n_games: number of games, at least 1.
        seed: the games are a function of the seed alone.
        bitboard: force (True) or forbid (False) the bitboard kernel; default:
            use it when the game allows.

    Raises:
        ValueError: ``n_games`` < 1, ``start`` is over, or a bitboard was
            asked for a game without one.

    Example:
        >>> from games import TIC_TAC_TOE
        >>> stats = random_playouts(TIC_TAC_TOE, 1000, seed=1)
        >>> stats.first_wins + stats.second_wins + stats.draws
        1000
    """
    position = start if isinstance(start, Position) else start.position()
    game = position.game
    if n_games < 1:
        raise InvalidValueError(f"n_games={n_games} must be at least 1")
    if position.is_terminal():
        raise GameError(f"position {position.move_string()!r} of {game} is over: nothing to play out")
    use_bits = game.uses_bitboard if bitboard is None else bitboard
    if use_bits and not game.uses_bitboard:
        raise InvalidGameError(f"{game} has no 64-bit bitboard: it needs gravity and (rows + 1) * cols <= 64")
    totals = _many_playouts(
        board=position._board,
        heights=position._heights,
        ply=position.ply,
        rules=game.rules,
        use_bits=use_bits,
        n_games=n_games,
        rng=new_state(seed),
    )
    return PlayoutStats(n_games, int(totals[0]), int(totals[1]), int(totals[2]), int(totals[3]))


def random_playout(position: Position, seed: int = 0) -> Optional[Player]:
    """Finish ``position`` in place with random moves; return the winner (None for a draw).

    Slower than :func:`random_playouts` (each move goes through
    :meth:`Position.play`) but it leaves the finished game on ``position``.
    """
    rng = np.random.default_rng(seed)
    while not position.is_terminal():
        moves = position.legal_moves()
        position.play(moves[int(rng.integers(len(moves)))])
    return position.winner


def random_open_position(game: KInARow, empty: int, rng: np.random.Generator) -> Optional[Position]:
    """A random position of ``game`` with exactly ``empty`` empty cells that is not over, or None.

    Each move is drawn among those that do not end the game, so the walk reaches late positions that a plain
    random playout rarely survives to (7x8 Connect-4 at 47 plies); None when the walk reaches a position where
    every move ends the game (draw again with the same ``rng``).

    Raises:
        InvalidValueError: ``empty`` is not from 1 to the board's cell count.
    """
    if isinstance(empty, bool) or not 1 <= empty <= game.n_cells:
        raise InvalidValueError(f"empty={empty!r}: a position that is not over has 1 to {game.n_cells} empty cells")
    position = game.position()
    while position.ply < game.n_cells - empty:
        for move in rng.permutation(position.legal_moves()):
            position.play(int(move))
            if not position.is_terminal():
                break
            position.undo()
        else:
            return None  # every move ends the game
    return position
