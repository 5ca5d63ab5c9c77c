"""The array kernel's side of :func:`search.alphabeta.engine.search`: buffers, settings, and the iterative deepening.

:mod:`search.alphabeta._negamax` searches one depth per call on the array board (every
game: m,n,k boards of any size, and gravity boards too wide for a 64-bit
word); the loop over depths, and the budget checks between iterations, are
here.  The contract is the engine's (see :mod:`search.alphabeta.engine`): the depth-1
iteration always completes, a node budget is never exceeded past it, a time
budget is checked every ``2**j`` nodes chosen by :func:`_time_mask`.
"""

from __future__ import annotations

import math
import time
from typing import Callable, Optional

import numpy as np

from games import Action, Position
from games.position import _zobrist
from heuristics import Evaluator
from search._settings import S_ABORTED, S_CHECK_TIME, S_FROM_SCRATCH, S_NODE_LIMIT, S_NODES, S_TIME_MASK, new_settings
from search.alphabeta import _negamax as nm
from search.protocol import is_win_score
from search.result import SearchResult
from search.tt import TranspositionTable


class _Buffers:
    """Per-search scratch arrays sized for one position and a maximum depth (kept between iterations)."""

    def __init__(self, position: Position, max_depth: int) -> None:
        game = position.game
        max_ply = max_depth + 2
        self.move = np.zeros((max_ply, game.n_actions), dtype=np.int64)
        self.key = np.zeros((max_ply, game.n_actions), dtype=np.float64)
        self.hist = np.zeros((max_ply, game.n_actions), dtype=np.int64)
        self.order = np.zeros((max_ply, game.n_actions), dtype=np.int64)
        self.killers = np.full((max_ply, 2), -1, dtype=np.int32)
        self.history = np.zeros((2, game.n_actions), dtype=np.int64)
        self.pv = np.zeros((max_ply, max_ply), dtype=np.int32)
        self.pv_len = np.zeros(max_ply, dtype=np.int32)


def _array_settings(position: Position, evaluator: Evaluator, branching: Optional[int], radius: Optional[int],
                    use_tt: bool = False, ordering: bool = False, tt_generation: int = 1,
                    from_scratch: bool = False) -> np.ndarray:  # fmt: skip
    """The array kernel's settings (:mod:`search._settings`): no node or time limit, counters zero."""
    settings = new_settings(
        evaluator.kernel_id,
        branching=branching or 0,
        radius=0 if position.game.gravity else (radius or 0),
        use_tt=use_tt,
        ordering=ordering,
        tt_generation=tt_generation,
    )
    settings[S_FROM_SCRATCH] = int(from_scratch)
    return settings


def _time_mask(nodes: int, seconds: float) -> int:
    """A mask 2**j - 1 so that 2**j nodes take about half a millisecond at the measured rate."""
    interval = nodes / max(seconds, 1e-6) * 0.0005
    return (1 << max(0, min(10, int(interval).bit_length() - 1))) - 1


_Runner = Callable[[int, int, bool, int, float], tuple[float, int, bool, tuple[Action, ...]]]
"""One iteration: ``(depth, node_limit, check_time, time_mask, deadline) -> (score, nodes so far, aborted, pv)``."""


def _array_search(run: _Runner, max_depth: int, nodes: Optional[int], timed: bool, started: float,
                  deadline: float) -> SearchResult:  # fmt: skip
    """Iterative deepening 1..``max_depth`` with ``run`` (:func:`_array_runner`), within the budgets."""
    best: Optional[SearchResult] = None
    searched = 0
    for d in range(1, max_depth + 1):
        first = best is None  # the depth-1 iteration must finish: a move is needed
        mask = 0 if best is None else _time_mask(best.nodes, best.seconds)
        score, searched, aborted, pv = run(d, 0 if first else (nodes or 0), not first and timed, mask, deadline)
        if aborted:
            break
        best = SearchResult(pv[0], float(score) + 0.0, d, searched, time.perf_counter() - started, pv)
        if is_win_score(score) or (nodes is not None and searched >= nodes):
            break
        if timed and time.perf_counter() >= deadline:
            break
    assert best is not None
    return SearchResult(best.move, best.score, best.depth, searched, time.perf_counter() - started, best.pv)


def _array_runner(position: Position, evaluator: Evaluator, max_depth: int, branching: Optional[int], radius: Optional[int],
                  use_tt: bool, ordering: bool, table: TranspositionTable, rng: Optional[np.random.Generator],
                  from_scratch: bool = False) -> _Runner:  # fmt: skip
    """Iterations of the array kernel (:mod:`search.alphabeta._negamax`) on ``position``."""
    game = position.game
    buffers = _Buffers(position, max_depth)
    noise = rng.random(game.n_actions) * 1e-3 if rng is not None else np.zeros(game.n_actions)
    settings = _array_settings(position, evaluator, branching, radius, use_tt, ordering, table.generation, from_scratch)
    board, heights, key = position._board.copy(), position._heights.copy(), np.uint64(position.key())
    zobrist = _zobrist(game.n_cells)

    def run(depth: int, node_limit: int, check_time: bool, time_mask: int,
            deadline: float) -> tuple[float, int, bool, tuple[Action, ...]]:  # fmt: skip
        settings[S_NODE_LIMIT], settings[S_CHECK_TIME], settings[S_TIME_MASK] = node_limit, int(check_time), time_mask
        # Positional on purpose: numba folds keyword arguments in Python, a few microseconds for these 29.
        score = nm._negamax(board, heights, key, position.ply, 0, depth, -math.inf, math.inf, game.rules, settings,
                            evaluator.weight_array, evaluator.windows, zobrist, table.keys, table.scores, table.depths,
                            table.flags, table.moves, table.stamps, buffers.killers, buffers.history, buffers.pv,
                            buffers.pv_len, buffers.move, buffers.key, buffers.hist, buffers.order, deadline,
                            noise)  # fmt: skip
        pv = tuple(buffers.pv[0, : buffers.pv_len[0]].tolist())
        return score, int(settings[S_NODES]), bool(settings[S_ABORTED]), pv

    return run
