"""The one door from the arena to the project's engine: every import of games, heuristics, search and tuning is here.

The rest of :mod:`arena` imports only this module, so a change of where the engine keeps a name (the
search package's split into subpackages, the threat search's move) touches this file alone.

Written here, on the solver's and the search's public and documented semi-private surface, and better
placed beside them: :func:`move_values` (the exact score of every legal move within a deadline,
reported as each is solved) with :func:`cancel_solver` (stop a running solve from another thread) and
:func:`thread_solver`; :class:`Searcher` (one iteration of the analysis search: the gomoku engine where
it plays, else :func:`search.search` with a kept table); :func:`timed_spec` (a spec given a thinking
time, ``perfect`` included).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Optional

from games import CONNECT4, GOMOKU, TIC_TAC_TOE, Action, AlphabetaError, GameError, KInARow, Position, make_game
from games.cli import add_game_arguments, game_from_args
from games.errors import IllegalMoveError, InvalidGameError, NotationError
from games.rules import column_name
from heuristics import Evaluator, WeightFileError, load_weights
from heuristics.files import write_text_atomic
from heuristics.weights import shipped_weight_files
from search import Limit, SearchResult, TranspositionTable, search
from search.agents import KINDS, AgentSpecError, make_agent, uses_gomoku_engine
from search.agents.openings import make_openings
from search.agents.spec import parse_spec
from search.alphabeta import generic_heuristic as _generic_heuristic
from search.errors import SearchError
from search.gomoku import GomokuEngine
from search.gomoku.threats import applies as threats_apply
from search.gomoku.threats import find_vcf, find_vct
from search.protocol import WIN_SCORE, is_win_score, plies_to_end
from search.solve import Solver, solvable
from search.solve import _kernels as _solver_kernels
from tuning.match import cached_agent, pair_seed
from tuning.stats import pentanomial

AGENT_NAMES = tuple(KINDS)
"""The agent names a spec may start with (the registered kinds)."""

__all__ = ["AGENT_NAMES", "Action", "AlphabetaError", "AgentSpecError", "CONNECT4", "Evaluator", "GOMOKU", "GameError",
    "IllegalMoveError", "InvalidGameError", "KInARow", "Limit", "MoveValue", "NotationError", "Position",
    "SearchError", "SearchResult", "Searcher", "Solver", "TIC_TAC_TOE", "WIN_SCORE", "WeightFileError",
    "add_game_arguments", "analysis_searcher", "cached_agent", "cancel_solver", "column_name", "find_vcf",
    "find_vct", "game_from_args", "is_win_score", "load_weights", "make_agent", "make_game", "make_openings",
    "move_values", "pair_seed", "parse_spec", "pentanomial", "plies_to_end", "redact", "search", "shipped_names",
    "solvable", "thread_solver", "threats_apply", "timed_spec", "uses_gomoku_engine", "warm_up_steps", "write_text_atomic"
]  # fmt: skip


def redact(url: str) -> str:
    """``url`` with its password and secret query arguments shown as ``***`` (the tuner's own redaction)."""
    from tuning._study import redact as tuner_redact

    return tuner_redact(url)


@lru_cache(maxsize=16)
def shipped_names(game: KInARow) -> tuple[str, ...]:
    """The shipped weight files (by name) whose game is ``game``: the opponents a player can pick by name."""
    names = []
    for name, path in shipped_weight_files().items():
        try:
            if load_weights(path).game == game:
                names.append(name)
        except (WeightFileError, ValueError):  # a file another version of the game format wrote: not offered
            continue
    return tuple(names)


def timed_spec(spec: str, time_ms: float) -> str:
    """``spec`` thinking ``time_ms`` a move, where it has no budget of its own (alpha-beta, weight files, ``perfect``).

    A ``perfect`` agent without a budget could think for minutes on an early Connect-4 position; with one it
    answers in time, exactly where the solver finishes (:class:`search.solve.PerfectAgent`).

    Raises:
        AgentSpecError: a malformed spec (the message lists what is allowed).
    """
    from tuning.tournament import budgeted

    parsed = parse_spec(spec)
    if parsed.kind == "perfect" and not {"time_ms", "nodes"} & set(parsed.options):
        text = spec.strip().rstrip(",")
        return f"{text}{',' if parsed.options else ('' if text.endswith(':') else ':')}time_ms={time_ms:g}"
    return budgeted(spec, time_ms)


# ---------------------------------------------------------------------------------------------- alpha-beta


class Searcher:
    """One analysis' alpha-beta search: the gomoku engine where it plays, else :func:`search.search` with a kept table."""

    def __init__(self, game: KInARow) -> None:
        self.game = game
        self.engine: Optional[GomokuEngine] = GomokuEngine(game) if uses_gomoku_engine(game, None) else None
        self.heuristic = "gomoku" if self.engine is not None else _generic_heuristic(game)
        self.evaluator = None if self.engine is not None else Evaluator(self.heuristic, game)
        # kept across the calls of one analysis: a depth retried after its time slice ran out resumes from its entries
        self.table = TranspositionTable(1 << 20) if self.engine is None else None
        # m,n,k boards search the cells near the stones, as the m,n,k default agent does (a 20x20 board has 400 moves)
        self.radius = 2 if not game.gravity and game.n_cells > 49 else None

    def iteration(self, position: Position, depth: int, time_ms: float) -> SearchResult:
        """Search ``position`` to ``depth`` within ``time_ms``; a result of a smaller depth means the time ran out."""
        if self.engine is not None:
            return self.engine.search(position, Limit(depth=depth, time_ms=time_ms))
        assert self.evaluator is not None
        return search(position, self.evaluator, Limit(depth=depth, time_ms=time_ms, radius=self.radius), tt=self.table)


def analysis_searcher(game: KInARow) -> Searcher:
    """A :class:`Searcher` for ``game`` (build one per analysis: it keeps a table)."""
    return Searcher(game)


# ---------------------------------------------------------------------------------------------- exact solver

_LOCAL = threading.local()


def thread_solver(game: KInARow) -> Solver:
    """This thread's solver for ``game`` (a 32 MB table each; two games kept per thread, the older dropped)."""
    kept: dict[KInARow, Solver] = getattr(_LOCAL, "solvers", None) or {}
    _LOCAL.solvers = kept
    solver = kept.get(game)
    if solver is None:
        if len(kept) >= 2:
            kept.pop(next(iter(kept)))
        solver = kept[game] = Solver(game)
        # load (or compile) its kernel now, not on a deadline's clock: a deadline already past stops it at once
        solver._score(game.position(), False, node_limit=0, deadline=1e-9)
        solver.reset()
    return solver


def cancel_solver(solver: Solver) -> None:
    """Stop ``solver``'s running search at its next node (called from another thread; the search returns unfinished).

    A limited search checks ``work[-1, B_LIMIT]`` at every node; a limit of one node has always passed.
    """
    solver._work[-1, _solver_kernels.B_LIMIT] = 1


@dataclass(frozen=True)
class MoveValue:
    """The exact score of one legal move, from the side to move before it (Pascal Pons' convention)."""

    move: Action
    score: int


def move_values(solver: Solver, position: Position, deadline: float, cancelled: threading.Event,
                on_value: Callable[[MoveValue], None]) -> bool:  # fmt: skip
    """Solve every legal move of ``position``, centre first, calling ``on_value`` as each is known.

    A move that wins at once scores ``(cells + 1 - ply) // 2``; a move that fills the board draws; any
    other is minus the solver's score of the position after it.  The table is kept between calls (its
    entries are true bounds whatever position found them), so a position next to one analysed is quick.

    Args:
        solver: the solver of ``position``'s game (this thread's: :func:`thread_solver`).
        position: a position that is not over (left unchanged).
        deadline: a ``time.perf_counter()`` time; the search stops there.
        cancelled: set from another thread to stop (:func:`cancel_solver` makes a running search notice).
        on_value: called with each solved move, in the order solved.

    Returns:
        True if every move was solved; False if the deadline or the cancellation stopped it first.
    """
    game = position.game
    centre = (game.cols - 1) / 2 if game.gravity else None
    moves = sorted(position.legal_moves(), key=(lambda a: (abs(a - centre), a)) if centre is not None else _cell_order(game))
    win_now = (game.n_cells + 1 - position.ply) // 2
    child = position.copy()
    for move in moves:
        if cancelled.is_set() or time.perf_counter() >= deadline:
            return False
        child.play(move)
        try:
            if child.winner is not None:
                value: Optional[int] = win_now
            elif child.is_terminal():
                value = 0
            else:
                score = solver._score(child, False, node_limit=0, deadline=deadline)
                value = None if score is None else -score
        finally:
            child.undo()
        if value is None:
            return False
        on_value(MoveValue(move, value))
    return True


def _cell_order(game: KInARow) -> Callable[[Action], tuple[float, Action]]:
    """m,n,k cells nearest the centre first (as the solver orders them)."""
    middle_r, middle_c = (game.rows - 1) / 2, (game.cols - 1) / 2
    return lambda a: (abs(a // game.cols - middle_r) + abs(a % game.cols - middle_c), a)


def warm_up_steps() -> list[tuple[str, Callable[[], object]]]:
    """What the arena loads (or compiles) first, in order: Connect-4's solver and search, then the m,n,k searches.

    A cold numba cache compiles for tens of seconds a step; a warm one loads each in a fraction of a second.
    """
    def rules() -> object:
        return CONNECT4.position("4444").legal_moves() + GOMOKU.position("h8 h9 i8").legal_moves()

    def solver() -> object:
        return thread_solver(CONNECT4)._score(CONNECT4.position("4444"), False, node_limit=0,
                                              deadline=time.perf_counter() + 0.05)  # fmt: skip

    return [
        ("the game rules", rules),
        ("the solver", solver),
        ("the Connect-4 search", lambda: search(CONNECT4.position("4444"), Evaluator(_generic_heuristic(CONNECT4), CONNECT4),
                                                Limit(depth=2))),
        ("the m,n,k search", lambda: Searcher(TIC_TAC_TOE).iteration(TIC_TAC_TOE.position("b2"), 2, 1000.0)),
        ("the gomoku engine", lambda: Searcher(GOMOKU).iteration(GOMOKU.position("h8 h9 i8"), 1, 1000.0)),
        ("the threat-space search", lambda: find_vcf(GOMOKU.position("h8 h9 i8"), nodes=100)),
    ]  # fmt: skip
