"""Slow, obviously correct exact scores (reference for the solver kernels).

Plain negamax over the ``Position`` facade to the end of the game, no
pruning, memoised on the position key (its value does not depend on how the
position was reached).  Scores in the benchmark convention of
:mod:`search.solve`: 0 for a draw, ``(cells + 1 - n) // 2`` when the side to
move wins with its stone played on ``n`` stones, the negative when it loses.
"""

from __future__ import annotations

from games import Position


def naive_score(pos: Position, memo: dict[int, int] | None = None) -> int:
    """The exact score of a position that is not over."""
    memo = {} if memo is None else memo
    key = pos.key()
    if key in memo:
        return memo[key]
    best = -pos.game.n_cells
    for move in pos.legal_moves():
        stones_before = pos.ply
        pos.play(move)
        if pos.winner is not None:
            score = (pos.game.n_cells + 1 - stones_before) // 2
        elif pos.is_draw():
            score = 0
        else:
            score = -naive_score(pos, memo)
        pos.undo()
        best = max(best, score)
    memo[key] = best
    return best
