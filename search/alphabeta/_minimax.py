"""Plain minimax (negamax form, no pruning): the reference the alpha-beta tests compare against.

:func:`minimax` is the value of a position at a fixed depth and the node
count the Connect-4 paper's figures show without pruning;
:func:`minimax_scores` scores every candidate move, what
:class:`search.agents.MinimaxAgent` chooses from.  Both run the array
kernel's plain-minimax entry (:func:`search.alphabeta._negamax._minimax`).
"""

from __future__ import annotations

from typing import Callable, Optional

import numpy as np

from games import Action, Position
from heuristics import Evaluator
from search._settings import S_NODES, S_RADIUS
from search.alphabeta import _negamax as nm
from search.alphabeta._arraysearch import _array_settings, _Buffers
from search.budget import Limit, check_searchable
from search.protocol import WIN_SCORE


def _minimax_runner(position: Position, evaluator: Evaluator, depth: int,
                    radius: Optional[int]) -> tuple[Callable[[Position, int, int], float], np.ndarray]:  # fmt: skip
    """The checked set-up both minimax functions share: a call of the plain-minimax kernel, and its settings.

    ``run(at, ply, depth)`` is the negamax value of ``at`` (a copy is
    searched) for the side to move there, ``ply`` plies below the root;
    ``settings[S_NODES]`` counts the nodes of every call.
    """
    check_searchable(position, evaluator, Limit(depth=depth, radius=radius))
    buffers = _Buffers(position, min(depth, position.game.n_cells - position.ply))
    settings = _array_settings(position, evaluator, None, radius)

    def run(at: Position, ply: int, remaining: int) -> float:
        return float(nm._minimax(
            board=at._board.copy(),
            heights=at._heights.copy(),
            stones=at.ply,
            ply=ply,
            depth=remaining,
            rules=at.game.rules,
            settings=settings,
            weights=evaluator.weight_array,
            windows=evaluator.windows,
            move_buf=buffers.move,
        ))  # fmt: skip

    return run, settings


def minimax(position: Position, evaluator: Evaluator, depth: int, radius: Optional[int] = None) -> tuple[float, int]:
    """Plain minimax (negamax form, no pruning): ``(value, nodes)`` at a fixed ``depth``.

    The reference the alpha-beta tests compare against, and the node count
    the Connect-4 paper's figures show without pruning.

    Raises:
        ValueError: as :func:`search` (``depth`` and ``radius`` are checked by :class:`search.budget.Limit`).
    """
    run, settings = _minimax_runner(position, evaluator, depth, radius)
    return run(position, 0, depth) + 0.0, int(settings[S_NODES])


def minimax_scores(position: Position, evaluator: Evaluator, depth: int, radius: Optional[int] = None) -> dict[Action, float]:
    """Plain minimax value of every candidate move at a fixed ``depth`` (the move counts as one ply).

    What :class:`search.agents.MinimaxAgent` chooses from; a move that wins
    scores ``WIN_SCORE - 1``.

    Raises:
        ValueError: as :func:`minimax`.
    """
    run, settings = _minimax_runner(position, evaluator, depth, radius)
    moves = np.zeros(position.game.n_actions, dtype=np.int64)
    n = nm._generate(position._board, position._heights, position.ply, position.game.rules, settings[S_RADIUS], moves)
    scores: dict[Action, float] = {}
    for action in (int(a) for a in moves[:n]):
        child = position.copy()
        child.play(action)
        scores[action] = WIN_SCORE - 1 if child.winner is not None else -run(child, 1, depth - 1) + 0.0
    return scores
