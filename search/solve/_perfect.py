"""The exact solver's move under a time and node budget: exact when it finishes, a documented fallback otherwise.

:class:`search.solve.PerfectAgent` with ``time_ms`` or ``nodes`` calls
:func:`budgeted_move`, which works in three steps and reports which one
chose the move (``source``):

1. ``"solver"``: a move that wins at once is always exact (nothing beats
   it); otherwise every legal move is solved, centre first, with the kernel
   stopped at the node limit or at ``SOLVER_SHARE`` of the time budget.  If
   every move finishes, the move is exactly the unbudgeted agent's (the same
   scores, the same seeded choice among the best).
2. ``"solver-partial"``: the solver stopped, but a move it did finish is a
   proven win: play the best such move (it wins, perhaps not fastest).
3. ``"alphabeta"``: otherwise iterative-deepening alpha-beta with the game's
   default heuristic searches until ``SOLVER_SHARE + FALLBACK_SHARE`` of the
   time budget (or ``nodes`` nodes); if it picks a move the solver proved
   lost while another move is not proven lost, the best of those (unfinished
   moves counting as draws, centre first among equals) is played instead.

With the opening book (Connect-4 6x7, :mod:`search.solve.book`) step 1 is
:func:`optimal_move` under the same limits (one best move proved, not every
move scored), and when it does not finish the move comes from step 3, with
no move proven lost to avoid (none was scored).

Overshoot: the solver reads the clock every ``B_CLOCK_EVERY`` (4,096) nodes,
about a millisecond, and alpha-beta always completes its depth-1 iteration,
so a move can take the budget plus a few milliseconds on a loaded machine;
the remaining ``1 - SOLVER_SHARE - FALLBACK_SHARE`` of the budget absorbs
that and the Python work around the kernels.  A node budget caps the
solver's nodes and, separately, the fallback's (so at most twice ``nodes``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Mapping, Optional

import numpy as np

from games import Action, KInARow, Position

if TYPE_CHECKING:  # solve.py imports this module
    from heuristics import Evaluator
    from search.solve import Solver

SOLVER_SHARE = 0.6
"""Share of the time budget the exact solves may use."""
FALLBACK_SHARE = 0.3
"""Share of the time budget alpha-beta gets when the solver did not finish (the rest is the safety margin)."""
ENV_TIME_MS = 100.0
"""The time budget (ms per move) the environments give a ``perfect`` opponent whose spec sets none."""
SOURCES = ("solver", "solver-partial", "alphabeta")
"""Values of :attr:`BudgetedResult.source`, in the order they are tried."""


@dataclass(frozen=True)
class BudgetedResult:
    """What a budgeted perfect move found (``PerfectAgent.last_result`` under a budget)."""

    move: Action
    source: str
    """``"solver"`` (exact), ``"solver-partial"`` (a proven win) or ``"alphabeta"`` (see the module docstring)."""
    score: float
    """The exact score (``solver``), the proven win's score (``solver-partial``) or alpha-beta's heuristic score."""
    nodes: int
    """Solver nodes plus alpha-beta nodes."""
    seconds: float
    """Wall time of the whole move."""
    depth: Optional[int] = None
    """Alpha-beta's completed depth (``alphabeta`` only; the solver searches to the end)."""
    move_scores: Mapping[Action, int] = field(default_factory=dict)
    """Exact scores of the moves the solver finished."""
    best_moves: tuple[Action, ...] = ()
    """With ``source == "solver"``: every move of the best exact score."""


def centre_first(position: Position) -> list[Action]:
    """The legal moves, the one nearest the board's centre first (as the solver orders them)."""
    game = position.game
    if game.gravity:
        centre = (game.cols - 1) / 2
        return sorted(position.legal_moves(), key=lambda a: (abs(a - centre), a))
    middle_r, middle_c = (game.rows - 1) / 2, (game.cols - 1) / 2
    return sorted(position.legal_moves(), key=lambda a: (abs(a // game.cols - middle_r) + abs(a % game.cols - middle_c), a))


def budgeted_move(solver: Solver, position: Position, weak: bool, rng: np.random.Generator, time_ms: Optional[float],
                  nodes: Optional[int]) -> BudgetedResult:  # fmt: skip
    """A move of ``position`` within the budget (see the module docstring); ``position`` is left unchanged."""
    started = time.perf_counter()
    seconds = (time_ms or 0.0) / 1000.0
    solver_deadline = started + SOLVER_SHARE * seconds if time_ms is not None else 0.0
    if solver.book is not None:  # one best move proved rather than every move scored (see optimal_move)
        found = optimal_move(solver, position, weak, rng, nodes or 0, solver_deadline)
        if found is not None:
            return found
        return _alphabeta(position, centre_first(position), {}, solver._nodes, started,
                          seconds if time_ms is not None else None, nodes)  # fmt: skip
    win_now = 1 if weak else (position.game.n_cells + 1 - position.ply) // 2
    moves = centre_first(position)
    solver._nodes, solver._seconds = 0, 0.0
    scores: dict[Action, int] = dict.fromkeys(position.winning_moves(), win_now)  # the best score: no solve needed
    child = position.copy()
    finished = bool(scores)
    if not finished:
        finished = _solve_moves(solver, child, moves, weak, scores, nodes, solver_deadline)
    if finished:
        best = max(scores.values())
        choices = tuple(sorted(m for m, s in scores.items() if s == best))
        move = choices[int(rng.integers(len(choices)))]
        return BudgetedResult(move, "solver", float(best), solver._nodes, time.perf_counter() - started,
                              move_scores=scores, best_moves=choices)  # fmt: skip
    wins = [m for m in moves if scores.get(m, 0) > 0]
    if wins:
        move = max(wins, key=lambda m: scores[m])  # max keeps the first (most central) of equals
        return BudgetedResult(move, "solver-partial", float(scores[move]), solver._nodes, time.perf_counter() - started,
                              move_scores=scores)  # fmt: skip
    return _alphabeta(position, moves, scores, solver._nodes, started, seconds if time_ms is not None else None, nodes)


def optimal_move(solver: Solver, position: Position, weak: bool, rng: np.random.Generator, node_limit: int = 0,
                 deadline: float = 0.0, floor: Optional[int] = None) -> Optional[BudgetedResult]:  # fmt: skip
    """A move of the best exact score, proved alone: random among the best, without scoring every move.

    What :class:`search.solve.PerfectAgent` does when its solver has the
    opening book (Connect-4 6x7).  A move that wins at once is drawn among
    those; otherwise the position's own score ``v`` is solved (a lookup up
    to 6 stones and at 12), then the moves are tested in a random order, each
    with one null-window search asking whether it keeps ``v`` (weak mode:
    the sign of ``v``; when every move loses, the first of the order), and
    the first that does is played (the last untested move needs no test:
    every other was refuted).  The first best move of a uniformly random
    order is uniformly random among the best moves, as the agent promises,
    at the cost of one solve and a few tests rather than a solve per move.
    (Tried and dropped: short tests of every move first, in rounds of growing
    node limits, to find a cheaply proved best move: the rounds overwrite
    each other's table entries and cost more on 6x7 positions of 12 stones.)

    ``floor``: a known lower bound of the position's score (strong mode), such
    as the score the agent's previous move kept: a score never drops along a
    game for a side that plays best, and rises only after a mistake of the
    other side.  Then one null-window search (is the score above ``floor``?)
    replaces the bisection of a full solve whenever the opponent played best.

    Returns None when the node limit or the deadline (``time.perf_counter()``,
    0 for none) stops a search first.  The result's ``move_scores`` and
    ``best_moves`` hold the chosen move alone: the others were not scored.
    """
    started = time.perf_counter()
    solver._nodes, solver._seconds = 0, 0.0
    win_now = 1 if weak else (position.game.n_cells + 1 - position.ply) // 2
    wins = position.winning_moves()
    child = position.copy()
    if wins:
        move = wins[int(rng.integers(len(wins)))]
        return BudgetedResult(move, "solver", float(win_now), 0, time.perf_counter() - started, move_scores={move: win_now},
                              best_moves=(move,))  # fmt: skip
    value = _position_score(solver, position, weak, node_limit, deadline, floor)
    if value is None:
        return None
    pending = rng.permutation(position.legal_moves()).tolist()
    if value < 0 and weak:  # every move loses: any will do
        return _found(pending[0], value, solver, started)
    for at, move in enumerate(pending):
        if at == len(pending) - 1:  # every other move is refuted: this one is best
            return _found(move, value, solver, started)
        keeps = _keeps(solver, child, move, value, node_limit, deadline)
        if keeps is None:
            return None
        if keeps:
            return _found(move, value, solver, started)
    raise AssertionError(f"no move of {position.move_string()!r} keeps its score {value}")  # a best move always exists


def _position_score(solver: Solver, position: Position, weak: bool, node_limit: int, deadline: float,
                    floor: Optional[int]) -> Optional[int]:  # fmt: skip
    """The exact score of ``position`` (weak: its sign), through one null-window test when ``floor`` bounds it below."""
    if floor is not None and not weak:
        above = solver._at_least(position, floor + 1, node_limit, deadline)
        if above is None:
            return None
        if not above:
            return floor
    left = node_limit - solver._nodes if node_limit > 0 else 0
    if node_limit > 0 and left <= 0:
        return None
    return solver._score(position, weak, node_limit=left, deadline=deadline)


def _keeps(solver: Solver, child: Position, move: Action, value: int, node_limit: int,
           deadline: float) -> Optional[bool]:  # fmt: skip
    """Whether ``move`` keeps the score ``value`` of ``child`` (the position, restored): None if the budget stopped
    the search (``node_limit`` nodes for the whole move, ``deadline``; 0: none)."""
    child.play(move)
    try:
        if child.is_terminal():
            return value <= 0  # the board is full: a draw
        left = node_limit - solver._nodes
        if node_limit > 0 and left <= 0:
            return None
        # The move keeps ``value`` if the opponent's score after it is at most -value.
        beats = solver._at_least(child, 1 - value, max(left, 0) if node_limit > 0 else 0, deadline)
        return None if beats is None else not beats
    finally:
        child.undo()


def _found(move: Action, value: int, solver: Solver, started: float) -> BudgetedResult:
    """The result of :func:`optimal_move`: ``move`` keeps the position's score ``value``."""
    return BudgetedResult(move, "solver", float(value), solver._nodes, time.perf_counter() - started,
                          move_scores={move: value}, best_moves=(move,))  # fmt: skip


def exact_move(solver: Solver, position: Position, time_ms: float, rng: np.random.Generator) -> Optional[BudgetedResult]:
    """Steps 1 and 2 alone: the exact move if the solver decides every move within ``time_ms``, a proven win if it
    finds one, else None (the caller searches instead).  :class:`search.agents.AlphaBetaAgent` with ``solve_ms``."""
    started = time.perf_counter()
    moves = centre_first(position)
    solver._nodes, solver._seconds = 0, 0.0
    scores: dict[Action, int] = dict.fromkeys(position.winning_moves(), (position.game.n_cells + 1 - position.ply) // 2)
    child = position.copy()
    finished = bool(scores) or _solve_moves(solver, child, moves, False, scores, None, started + time_ms / 1000.0)
    seconds = time.perf_counter() - started
    if finished:
        best = max(scores.values())
        choices = tuple(sorted(m for m, s in scores.items() if s == best))
        move = choices[int(rng.integers(len(choices)))]
        return BudgetedResult(move, "solver", float(best), solver._nodes, seconds, move_scores=scores, best_moves=choices)
    wins = [m for m in moves if scores.get(m, 0) > 0]
    if wins:
        move = max(wins, key=lambda m: scores[m])
        return BudgetedResult(move, "solver-partial", float(scores[move]), solver._nodes, seconds, move_scores=scores)
    return None


def _solve_moves(solver: Solver, child: Position, moves: list[Action], weak: bool, scores: dict[Action, int],
                 nodes: Optional[int], deadline: float) -> bool:  # fmt: skip
    """Solve every move into ``scores``; False as soon as the budget stops one (``child`` is the position, restored)."""
    for move in moves:
        child.play(move)
        try:
            if child.is_terminal():
                scores[move] = 0  # a full board (a win was handled before)
                continue
            limit = 0 if nodes is None else nodes - solver._nodes
            if nodes is not None and limit <= 0:
                return False
            value = solver._score(child, weak, node_limit=limit, deadline=deadline)
            if value is None:
                return False
            scores[move] = -value
        finally:
            child.undo()
    return True


def _alphabeta(position: Position, moves: list[Action], scores: dict[Action, int], solver_nodes: int, started: float,
               seconds: Optional[float], nodes: Optional[int]) -> BudgetedResult:  # fmt: skip
    """Step 3 of the module docstring: alpha-beta, never a proven loss while something else is not proven lost."""
    from search.alphabeta.engine import search

    evaluator = _evaluator(position.game)
    left_ms = (started + (SOLVER_SHARE + FALLBACK_SHARE) * seconds - time.perf_counter()) * 1000.0 if seconds else None
    if left_ms is not None and left_ms <= 0:
        result = search(position, evaluator, depth=1)  # the solver overshot: the cheapest move that looks ahead
    else:
        result = search(position, evaluator, time_ms=left_ms, nodes=nodes)
    move = result.move
    safe = [m for m in moves if scores.get(m, 0) >= 0]
    if scores.get(move, 0) < 0 and safe:
        move = max(safe, key=lambda m: scores.get(m, 0))  # unfinished moves count as draws; the first of equals
    return BudgetedResult(move, "alphabeta", float(result.score), solver_nodes + result.nodes,
                          time.perf_counter() - started, depth=result.depth, move_scores=scores)  # fmt: skip


@lru_cache(maxsize=8)  # one per game in play; evaluators are small
def _evaluator(game: KInARow) -> Evaluator:
    from heuristics import Evaluator
    from search.alphabeta.engine import generic_heuristic

    return Evaluator(generic_heuristic(game), game)


def warm_up(solver: Solver) -> None:
    """Load (or compile) the solver and alpha-beta kernels and the kernels' clock before any budget is timed.

    A kernel loaded from numba's cache takes a few milliseconds, one compiled
    far longer: neither may eat a move's budget.
    """
    from search._clock import _now
    from search.alphabeta.engine import search

    _now()
    position = solver.game.position()
    child = position.copy()  # the Position kernels budgeted_move runs (compiled on first use after a cache reset)
    child.play(centre_first(child)[0])
    child.undo()
    solver._score(position, weak=True, deadline=1e-9)  # past: the first node reads the clock and stops
    solver._at_least(position, 0, deadline=1e-9)  # the one-test kernel of optimal_move (the agent with the book)
    solver.reset()
    search(position, _evaluator(solver.game), depth=1)
