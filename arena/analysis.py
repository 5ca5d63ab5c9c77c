"""What the Analyse view shows: the solver's value of every move, the engine's iterations, the threat searches.

Each function runs on an engine thread (:mod:`arena.jobs`) and stops when its job is cancelled.

* :func:`solver_values`: the exact score of every legal move, in Pascal Pons' convention (the score of
  the position after the move, negated: positive if the side to move wins by playing it), with the
  distance to the win or loss; ``None`` for a full column or a taken cell.  Moves are reported as they
  are solved; a deadline keeps the answer in time (early Connect-4 positions need an opening book).
* :func:`deepen`: iterative deepening, one event per completed depth (score, nodes, the principal variation).
* :func:`threats`: victory by continuous fours (VCF) and by fours and threes (VCT) for the side to move.
"""

from __future__ import annotations

import math
import time
from typing import Any, Callable, Optional

from arena import _engine as engine
from arena.errors import BadRequest
from arena.jobs import Emit, Job
from arena.positions import game_json, score_distance

BUDGET_MESSAGE = "the exact value of this position needs more time than the budget"
"""Shown for moves the solver did not finish within the budget."""
BOOK_MESSAGE = BUDGET_MESSAGE + ", or the opening book (pip install alphabeta-gym[book])"
"""The same, on the board the opening book covers (Connect-4 6x7) when it is not installed."""
MAX_BUDGET_MS = 120_000.0
"""The longest any analysis may run (ms): two minutes."""
DEFAULT_SOLVER_MS = 3000.0
DEFAULT_SEARCH_MS = 10_000.0
DEFAULT_THREAT_NODES = 200_000
SLICE_MS = 250.0
"""The first time slice of one call of the search (ms): a cancelled analysis stops within a slice."""
MAX_SLICE_MS = 2000.0
"""The longest slice: a depth that needs more runs over several slices, resuming from the kept table."""


def budget_ms(params: dict[str, str], name: str, default: float) -> float:
    """The time budget ``params[name]`` in ms (default ``default``), from 1 to :data:`MAX_BUDGET_MS`.

    Raises:
        BadRequest: not a number in that range.
    """
    text = params.get(name, "")
    if text == "":
        return default
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 1 <= value <= MAX_BUDGET_MS:
        raise BadRequest(f"{name}={text!r} must be a number of milliseconds from 1 to {MAX_BUDGET_MS:.0f}")
    return value


def _unfinished(solver: Optional[engine.Solver]) -> str:
    """Why the values are incomplete: the budget, and on the board the book covers, the book when it is missing."""
    if solver is not None and solver.game == engine.CONNECT4 and getattr(solver, "book", None) is None:
        return BOOK_MESSAGE
    return BUDGET_MESSAGE


def solver_values(position: engine.Position, time_ms: float, job: Job,
                  on_value: Optional[Callable[[dict[str, Any]], None]] = None) -> dict[str, Any]:  # fmt: skip
    """The exact score of every move of ``position`` (see the module docstring), within ``time_ms``.

    Returns:
        ``scores`` (one per action, None where the move is illegal or was not solved in time), ``distances``
        (plies to the end, counting the move), ``best``, ``score`` (the position's, once every move is
        solved), ``complete``, ``pending`` (legal moves not solved) and ``message``.

    Raises:
        BadRequest: a game the solver does not handle.
    """
    game = position.game
    reason = engine.solvable(game)
    if reason is not None:
        raise BadRequest(f"no exact values for {game}: {reason}; the engine's search (/api/search) analyses any game")
    solver = None if position.is_terminal() else engine.thread_solver(game)  # loaded before the clock starts
    started = time.perf_counter()
    scores: list[Optional[int]] = [None] * game.n_actions
    distances: list[Optional[int]] = [None] * game.n_actions
    complete = True
    if solver is not None:
        remove = job.on_cancel(lambda: engine.cancel_solver(solver))

        def record(value: engine.MoveValue) -> None:
            scores[value.move] = value.score
            distances[value.move] = score_distance(value.score, position.ply, game.n_cells)
            if on_value is not None:
                on_value({"move": value.move, "notation": game.format_move(value.move), "score": value.score,
                          "distance": distances[value.move]})  # fmt: skip

        try:
            complete = engine.move_values(solver, position, started + time_ms / 1000.0, job.cancelled, record)
        finally:
            remove()
    legal = position.legal_moves()
    pending = [a for a in legal if scores[a] is None]
    known = [s for s in scores if s is not None]
    best_score = max(known) if known and complete else None
    return {
        "game": game_json(game), "moves": position.move_string(), "ply": position.ply, "to_move": position.to_move,
        "scores": scores, "distances": distances, "score": best_score,
        "best": [a for a in legal if best_score is not None and scores[a] == best_score],
        "best_notation": [game.format_move(a) for a in legal if best_score is not None and scores[a] == best_score],
        "complete": complete, "pending": pending, "cancelled": job.cancelled.is_set(),
        "message": None if complete else ("cancelled" if job.cancelled.is_set() else _unfinished(solver)),
        "seconds": round(time.perf_counter() - started, 4),
        "over": position.is_terminal(), "outcome": position.outcome(),
    }  # fmt: skip


def iteration_json(position: engine.Position, result: engine.SearchResult, total_nodes: int, seconds: float) -> dict[str, Any]:
    """One completed iteration as the page shows it: depth, score (a forced result in plies), nodes, the line."""
    game = position.game
    plies = engine.plies_to_end(result.score)
    return {
        "depth": result.depth, "score": round(float(result.score), 2), "move": result.move,
        "move_notation": game.format_move(result.move),
        "result": None if plies is None else ("win" if result.score > 0 else "loss"), "plies_to_end": plies,
        "nodes": total_nodes, "seconds": round(seconds, 4), "nps": int(total_nodes / seconds) if seconds > 0 else 0,
        "pv": list(result.pv), "pv_notation": [game.format_move(a) for a in result.pv],
    }  # fmt: skip


def deepen(position: engine.Position, time_ms: float, job: Job, emit: Emit, max_depth: int = 64) -> None:
    """Iterative deepening from Python: emit ``iteration`` after every completed depth, until the budget, a proved
    result, the end of the board or a cancellation.

    Each call searches for at most a slice of the budget (:data:`SLICE_MS`, doubling up to :data:`MAX_SLICE_MS`
    while a depth does not finish in one), so a cancellation is seen within a slice; the kept table lets a
    retried depth resume from what the slice before it found.
    """
    if position.is_terminal():
        raise BadRequest(f"position {position.move_string()!r} of {position.game} is over ({position.outcome()}): "
                         "nothing to search")  # fmt: skip
    searcher = engine.analysis_searcher(position.game)
    emit("engine", {"heuristic": searcher.heuristic, "gomoku_engine": searcher.engine is not None,
                    "radius": searcher.radius, "budget_ms": time_ms})  # fmt: skip
    searcher.iteration(position, 1, time_ms)  # loads (or compiles) the kernels: compilation is not thinking time
    started = time.perf_counter()
    deadline = started + time_ms / 1000.0
    total_nodes, depth, slice_ms = 0, 1, SLICE_MS
    while depth <= min(max_depth, position.game.n_cells - position.ply):
        left_ms = (deadline - time.perf_counter()) * 1000.0
        if job.cancelled.is_set() or left_ms <= 1:
            return
        result = searcher.iteration(position, depth, min(left_ms, slice_ms))
        total_nodes += result.nodes
        proved = engine.is_win_score(result.score)
        if result.depth < depth and not proved:
            slice_ms = min(2 * slice_ms, MAX_SLICE_MS)  # this depth needs longer: again, with what the table kept
            continue
        emit("iteration", iteration_json(position, result, total_nodes, time.perf_counter() - started))
        if proved:
            return
        depth += 1


def _line_json(position: engine.Position, found: Any) -> dict[str, Any]:
    game = position.game
    return {"win": found.win, "line": list(found.line), "notation": [game.format_move(a) for a in found.line],
            "plies": found.plies, "nodes": found.nodes, "complete": found.complete}  # fmt: skip


def threats(position: engine.Position, nodes: int, time_ms: float, job: Job) -> dict[str, Any]:
    """VCF, then VCT, for the side to move (Allis' threat-space search), each within ``nodes`` and ``time_ms``.

    Raises:
        BadRequest: a board with gravity or ``k < 4`` (no fours and threes to search), or a finished game.
    """
    if not engine.threats_apply(position):
        raise BadRequest(f"threat-space search needs a board without gravity and k >= 4; {position.game} is not one")
    if position.is_terminal():
        raise BadRequest(f"position {position.move_string()!r} is over ({position.outcome()}): nothing to search")
    engine.find_vcf(position, nodes=1)  # loads (or compiles) the kernel before the clock starts
    deadline = time.perf_counter() + time_ms / 1000.0
    vcf = engine.find_vcf(position, nodes=nodes, deadline=deadline)
    out: dict[str, Any] = {"game": game_json(position.game), "moves": position.move_string(),
                           "to_move": position.to_move, "vcf": _line_json(position, vcf), "vct": None}  # fmt: skip
    if not vcf.win and not job.cancelled.is_set() and time.perf_counter() < deadline:
        out["vct"] = _line_json(position, engine.find_vct(position, nodes=nodes, deadline=deadline))
    return out
