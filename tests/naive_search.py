"""Slow, obviously correct minimax over the Position facade (reference for the search kernels).

Same conventions as search.protocol: negamax scores from the side to move, a
win ``p`` plies below the root scores ``WIN_SCORE - p``, draws 0, heuristic
leaves clipped to ``HEURISTIC_LIMIT``.  Radius pruning as search.alphabeta._negamax
documents it (king-move distance to a stone, the centre on an empty board).
"""

from __future__ import annotations

from typing import Optional

from games import Position
from heuristics import Evaluator
from search.protocol import HEURISTIC_LIMIT, WIN_SCORE


def candidate_moves(pos: Position, radius: Optional[int]) -> list[int]:
    """Legal moves, restricted to the radius rule for m,n,k games."""
    moves = pos.legal_moves()
    game = pos.game
    if game.gravity or not radius:
        return moves
    if pos.ply == 0:
        return [(game.rows // 2) * game.cols + game.cols // 2]
    board = pos.board()
    stones = {(r, c) for r in range(game.rows) for c in range(game.cols) if board[r, c] != 0}
    near = [m for m in moves
            if any((r, c) in stones
                   for r in range(m // game.cols - radius, m // game.cols + radius + 1)
                   for c in range(m % game.cols - radius, m % game.cols + radius + 1))]  # fmt: skip
    return near or moves


def naive_negamax(pos: Position, evaluator: Evaluator, depth: int, ply: int = 0, radius: Optional[int] = None) -> float:
    """The depth-limited negamax value of ``pos`` (no pruning, no tables)."""
    if pos.is_draw():
        return 0.0
    if depth == 0:
        return max(-HEURISTIC_LIMIT, min(HEURISTIC_LIMIT, evaluator.evaluate(pos)))
    best = -float("inf")
    for move in candidate_moves(pos, radius):
        pos.play(move)
        if pos.winner is not None:
            score = WIN_SCORE - (ply + 1)
        else:
            score = -naive_negamax(pos, evaluator, depth - 1, ply + 1, radius)
        pos.undo()
        best = max(best, score)
    return best
