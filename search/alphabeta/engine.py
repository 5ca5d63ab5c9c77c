"""Iterative-deepening alpha-beta search over any registered heuristic, with depth, node and time budgets.

Example:
    >>> from games import TIC_TAC_TOE
    >>> from heuristics import Evaluator
    >>> result = search(TIC_TAC_TOE.position(), Evaluator("windows", TIC_TAC_TOE), limit=Limit(depth=9))
    >>> result.score, result.depth       # tic-tac-toe is a draw
    (0.0, 9)

The budget is a :class:`search.budget.Limit` (``limit=``), or the same
settings as keywords (``depth=9``), which build one.  Its stopping budgets
(any combination; at least one is needed):

* ``depth``: the deepest iteration;
* ``nodes``: total nodes over all iterations.  The kernel stops the moment
  the count passes the budget, so it is never exceeded, with one documented
  exception: the depth-1 iteration always completes (a move is needed), so
  a budget smaller than that iteration (at most one node per legal move,
  plus the root) is overshot by at most that much;
* ``time_ms``: wall time.  The kernel reads the clock every 2**j nodes, j
  chosen from the node rate of the iterations so far to be about half a
  millisecond apart (at most 1,024 nodes), and stops past the deadline; the
  move of the last completed iteration is returned (the depth-1 iteration
  again always completes).

The search also stops as soon as an iteration proves a win or a loss (the
COMP 472 report's early stop), or when the depth reaches the end of the game.

Two kernels, one contract: gravity boards that fit a 64-bit word with
their sentinel row (``(rows + 1) * cols <= 64``: Connect-4 and its smaller
kin) run on bitboards (:mod:`search.alphabeta._bitnegamax`), everything else on the
array boards (:mod:`search.alphabeta._negamax`).  Both return the same value at a
fixed depth; node counts differ.
"""

from __future__ import annotations

import threading
from typing import Optional

import numpy as np

from games import KInARow, Position
from games._bits import fits as bits_fit
from heuristics import Evaluator, get_spec
from search.alphabeta._arraysearch import _array_runner, _array_search
from search.alphabeta._bitsearcher import BitSearcher
from search.alphabeta._bitsetup import _bit_consts as _bit_consts  # re-exported: envs.batched imports them from here
from search.alphabeta._bitsetup import _bit_settings as _bit_settings
from search.alphabeta._bitsetup import _clock_and_depth
from search.alphabeta._minimax import minimax as minimax  # re-exported: search.alphabeta.engine.minimax stays
from search.alphabeta._minimax import minimax_scores as minimax_scores
from search.budget import Limit, as_limit, check_searchable
from search.errors import SearchError
from search.result import MAX_DEPTH as MAX_DEPTH  # re-exported: search.alphabeta.engine.MAX_DEPTH stays
from search.result import SearchResult as SearchResult
from search.tt import TranspositionTable as TranspositionTable  # re-exported: search.alphabeta.engine.TranspositionTable stays
from search.tt import _scratch_table

_NO_TT = TranspositionTable(1)

INCREMENTAL = True
"""Internal switch (benchmarks, tests): False makes the array kernel evaluate from scratch at every node
(``heuristics._incremental``; the values are equal either way, only the speed differs)."""


def generic_heuristic(game: KInARow) -> str:
    """The default heuristic of this search (an agent plays the gomoku engine where it applies instead):
    ``mics`` on a free board with ``k >= 4``, ``c4_features`` where it applies (k = 4), else ``windows``."""
    if not game.gravity and game.k >= 4:
        return "mics"
    return "c4_features" if get_spec("c4_features").refuse(game) is None else "windows"


def _uses_bitboards(position: Position) -> bool:
    """True if :func:`search` runs the bitboard kernel on this position's game (gravity, ``(rows + 1) * cols <= 64``)."""
    return uses_bitboards(position.game)


def uses_bitboards(game: KInARow) -> bool:
    """True if :func:`search` runs the bitboard kernel on ``game`` (gravity, ``(rows + 1) * cols <= 64``)."""
    return bool(game.gravity and bits_fit(game.rows, game.cols))


_SEARCHERS = threading.local()
_KEPT_SEARCHERS = 8
"""Bitboard searchers :func:`search` keeps per thread (one per evaluator, the oldest dropped first)."""


def _searcher(evaluator: Evaluator) -> BitSearcher:
    """This thread's :class:`BitSearcher` for ``evaluator``: built on its first search, then reused.

    The searcher holds the buffers, settings and constant arguments a
    bitboard search needs; building them took about as long as a shallow
    search, so :func:`search` builds them once per evaluator, as an agent
    does.  Keyed by the evaluator object (kept alive by its searcher, so an
    id is never reused while cached) and its weight array.
    """
    kept: Optional[dict[int, BitSearcher]] = getattr(_SEARCHERS, "kept", None)
    if kept is None:
        kept = _SEARCHERS.kept = {}
    searcher = kept.get(id(evaluator))
    if searcher is None or searcher.evaluator is not evaluator or searcher.weights is not evaluator.weight_array:
        searcher = BitSearcher(evaluator.game, evaluator)
        kept.pop(id(evaluator), None)
        if len(kept) >= _KEPT_SEARCHERS:
            kept.pop(next(iter(kept)))
        kept[id(evaluator)] = searcher
    return searcher


def search(
    position: Position,
    evaluator: Evaluator,
    limit: Optional[Limit] = None,
    *,
    depth: Optional[int] = None,
    nodes: Optional[int] = None,
    time_ms: Optional[float] = None,
    branching: Optional[int] = None,
    radius: Optional[int] = None,
    tt: Optional[TranspositionTable] = None,
    use_tt: bool = True,
    ordering: bool = True,
    rng: Optional[np.random.Generator] = None,
) -> SearchResult:
    """Search ``position`` by iterative deepening and return the best move found.

    Connect-4 boards that fit a 64-bit word (``(rows + 1) * cols <= 64``) are
    searched by the bitboard kernel, everything else by the array kernel;
    both return the same value at a fixed depth.

    Args:
        position: a position that is not over (it is left unchanged).
        evaluator: the heuristic scoring the leaves and ordering the moves.
        limit: the search budget (see the module docstring and
            :class:`search.budget.Limit`); or give its settings as keywords:
        depth, nodes, time_ms: budgets, see the module docstring.
        branching: q, search only the q best-ordered moves at each node
            (immediate wins are always played, forced blocks always kept);
            None searches all.
        radius: m,n,k only: consider only empty cells within this king-move
            distance of a stone, the centre on an empty board; None: all.
        tt: a table to use and keep (e.g. across the moves of a game); a
            empty one of 2**16 entries if None (this thread's scratch table,
            emptied: cheaper than allocating one).
        use_tt, ordering: switch the table or the move ordering off (tests
            and node-count studies).
        rng: breaks ties between equally ordered root moves at random
            (seeded agents); None keeps the deterministic order.

    Raises:
        ValueError: a bad budget, both ``limit`` and budget keywords, a
            finished position, or an evaluator for another game.
    """
    if limit is None or depth is not None or nodes is not None or time_ms is not None or branching is not None \
            or radius is not None:  # fmt: skip
        limit = as_limit(limit, depth=depth, nodes=nodes, time_ms=time_ms, branching=branching, radius=radius)
    elif type(limit) is not Limit:
        limit = as_limit(limit)  # refuses it with the message naming what is allowed
    return _run(position, evaluator, limit, tt, use_tt, ordering, rng, _uses_bitboards(position))


def _search(position: Position, evaluator: Evaluator, limit: Optional[Limit] = None, *, bitboards: bool,
            depth: Optional[int] = None, nodes: Optional[int] = None, time_ms: Optional[float] = None,
            branching: Optional[int] = None, radius: Optional[int] = None, tt: Optional[TranspositionTable] = None,
            use_tt: bool = True, ordering: bool = True, rng: Optional[np.random.Generator] = None) -> SearchResult:  # fmt: skip
    """:func:`search` with the kernel chosen by the caller (the tests compare the two on the same positions).

    Raises:
        ValueError: as :func:`search`, or ``bitboards`` for a game that does not fit them.
    """
    limit = as_limit(limit, depth=depth, nodes=nodes, time_ms=time_ms, branching=branching, radius=radius)
    return _run(position, evaluator, limit, tt, use_tt, ordering, rng, bitboards)


def _run(position: Position, evaluator: Evaluator, limit: Limit, tt: Optional[TranspositionTable], use_tt: bool,
         ordering: bool, rng: Optional[np.random.Generator], bitboards: bool) -> SearchResult:  # fmt: skip
    """The search itself, once the budget is a :class:`Limit` (the arguments of :func:`_search`)."""
    check_searchable(position, evaluator, limit)
    if bitboards and not _uses_bitboards(position):
        raise SearchError(f"{position.game} does not fit the bitboard kernel")
    table = tt if tt is not None else (_scratch_table() if use_tt else _NO_TT)
    if bitboards:
        return _searcher(evaluator).search(position, limit, table, rng, use_tt, ordering)
    started, deadline, max_depth = _clock_and_depth(position, limit)
    run = _array_runner(position, evaluator, max_depth, limit.branching, limit.radius, use_tt, ordering, table, rng,
                        from_scratch=not INCREMENTAL)  # fmt: skip
    return _array_search(run, max_depth, limit.nodes, limit.time_ms is not None, started, deadline)


def calibrate(evaluator: Evaluator, position: Optional[Position] = None, seconds: float = 0.2) -> float:
    """Nodes per second of this machine for ``evaluator`` (the Bologna m,n,k project's timing player).

    Searches ``position`` (default: the empty board) deeper and deeper for
    about ``seconds`` and returns the rate, so a time limit can be turned
    into a node budget: ``nodes = int(rate * time_ms / 1000)``.
    """
    position = position or evaluator.game.position()
    search(position, evaluator, Limit(depth=1))  # compile or load the kernels outside the measurement
    result = search(position, evaluator, Limit(time_ms=seconds * 1000.0))
    return result.nodes / max(result.seconds, 1e-9)
