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
kin) run on bitboards (:mod:`search._bitnegamax`), everything else on the
array boards (:mod:`search._negamax`).  Both return the same value at a
fixed depth; node counts differ.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Optional

import numpy as np

from games import Action, KInARow, Position
from games._bits import _from_board
from games._bits import fits as bits_fit
from games._rules import Rules
from games.position import _zobrist
from heuristics import Evaluator
from heuristics._c4_bits import constants as c4_constants
from heuristics._c4_bits import fits as c4_fits
from heuristics._square_values import square_value_table
from heuristics._threats_bits import constants as threats_constants
from heuristics._threats_bits import fits as threats_fit
from search import _bitnegamax as bn
from search import _negamax as nm
from search._settings import (
    S_ABORTED,
    S_ARRAY,
    S_BIT_EVAL,
    S_BRANCHING,
    S_CHECK_TIME,
    S_FROM_SCRATCH,
    S_NODE_LIMIT,
    S_NODES,
    S_ORDER_DEPTH,
    S_ORDERING,
    S_RADIUS,
    S_SQUARE_VALUES,
    S_TIME_MASK,
    S_TT_GENERATION,
    S_USE_TT,
    new_settings,
)
from search.budget import Limit, as_limit
from search.errors import BudgetError, SearchError
from search.protocol import WIN_SCORE, is_win_score
from search.tt import TranspositionTable as TranspositionTable  # re-exported: search.engine.TranspositionTable stays
from search.tt import _scratch_table


@dataclass(frozen=True)
class SearchResult:
    """What a search found."""

    move: Action
    """Best move of the deepest completed iteration."""
    score: float
    """Its value from the side to move (see :mod:`search.protocol` for win scores)."""
    depth: int
    """Deepest completed iteration."""
    nodes: int
    """Nodes visited in all iterations, the aborted one included."""
    seconds: float
    pv: tuple[Action, ...]
    """Principal variation from the searched position (may stop short at a table hit)."""


MAX_DEPTH = 128
"""The deepest iteration a search runs (boards with more empty cells than this stop there).

The array kernel's per-ply buffers are sized by the depth searched, not by
the cells left, so memory stays O(depth x cells): a 100x100 board needs a
few tens of MB, not the gigabytes of one row per empty cell."""


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


class _BitBuffers:
    """Per-search arrays of the bitboard kernel (:mod:`search._bitnegamax`), sized for one position."""

    def __init__(self, position: Position, evaluator: Evaluator) -> None:
        game = position.game
        rows, cols = game.rows, game.cols
        max_ply = game.n_cells - position.ply + 2
        self.work = np.zeros(bn.work_shape(max_ply, cols), dtype=np.int64)
        slots = 2 * cols  # where the per-ply slots start in a row of work
        self.work[:max_ply, slots + bn.K_KILLER : slots + bn.K_KILLER_2 + 1] = -1  # no killers yet
        self.frames = np.zeros((max_ply + 1, 3), dtype=np.uint64)
        self.keys = np.zeros((max_ply + 1, cols), dtype=np.float64)
        self.noise = self.keys[max_ply]
        self.bounds = np.zeros((max_ply + 1, 4), dtype=np.float64)
        hid = evaluator.kernel_id
        self.settings = _bit_settings(game.rules, hid).copy()
        self.weights_pad = np.zeros(bn.N_BIT_WEIGHTS, dtype=np.float64)
        n = min(bn.N_BIT_WEIGHTS, evaluator.weight_array.size)
        self.weights_pad[:n] = evaluator.weight_array[:n]
        current, mask = _from_board(position._board, rows, cols, position.ply)
        self.current, self.mask = np.uint64(current), np.uint64(mask)  # numba returns ints; the kernel wants uint64
        self.consts = _bit_consts(game.rules, hid)
        self.board, self.heights = position._board.copy(), position._heights.copy()


@lru_cache(maxsize=64)
def _bit_settings(rules: Rules, hid: int) -> np.ndarray:
    """The bitboard kernel's settings for a game and heuristic, budgets and counters zero (copy it)."""
    bit_eval = _bit_eval(rules, hid)
    settings = new_settings(hid)
    settings[S_BIT_EVAL] = int(bit_eval)
    settings[S_ARRAY] = int(hid != bn.HID_SQUARE_VALUES and not bit_eval)
    settings[S_ORDER_DEPTH] = bn.order_from_depth(hid, bit_eval)
    if hid == bn.HID_SQUARE_VALUES:
        settings[S_SQUARE_VALUES : S_SQUARE_VALUES + 64] = _square_values_by_bit(rules.rows, rules.cols, rules.k)
    settings.setflags(write=False)
    return settings


def _bit_eval(rules: Rules, hid: int) -> bool:
    """True if heuristic ``hid`` evaluates on the bitboards themselves (no array board kept in step)."""
    if hid == bn.HID_C4_FEATURES:
        return c4_fits(rules.rows, rules.cols)
    return hid == bn.HID_THREATS and threats_fit(rules.rows, rules.cols, rules.k)


@lru_cache(maxsize=64)
def _bit_consts(rules: Rules, hid: int) -> np.ndarray:
    """The kernel's ``consts``: bottom row and all squares first, then the bitboard evaluator's masks, zero-padded."""
    consts = np.zeros(bn.N_BIT_CONSTS, dtype=np.uint64)
    if hid == bn.HID_THREATS and threats_fit(rules.rows, rules.cols, rules.k):
        masks = threats_constants(rules.rows, rules.cols, rules.k)
    else:
        masks = c4_constants(rules.rows, rules.cols)
    consts[: masks.size] = masks
    consts.setflags(write=False)
    return consts


@lru_cache(maxsize=64)
def _square_values_by_bit(rows: int, cols: int, k: int) -> np.ndarray:
    """``square_values``' table in bitboard order: ``int64[64]``, bit ``col * (rows + 1) + row`` (row 0 at the bottom)."""
    table = square_value_table(rows, cols, k)
    values = np.zeros(64, dtype=np.int64)
    for row in range(rows):
        for col in range(cols):
            values[col * (rows + 1) + rows - 1 - row] = table[row, col]
    values.setflags(write=False)
    return values


_NO_TT = TranspositionTable(1)


@lru_cache(maxsize=None)
def _warm_clock() -> None:
    """Run the kernels' clock once per process (its object-mode block is set up on first use, ~0.7 s).

    Done before a timed search computes its deadline, so that one-time cost
    does not eat the first time budget.
    """
    nm._now()


def _array_settings(position: Position, evaluator: Evaluator, branching: Optional[int], radius: Optional[int],
                    use_tt: bool = False, ordering: bool = False, tt_generation: int = 1) -> np.ndarray:  # fmt: skip
    """The array kernel's settings (:mod:`search._settings`): no node or time limit, counters zero."""
    settings = new_settings(
        evaluator.kernel_id,
        branching=branching or 0,
        radius=0 if position.game.gravity else (radius or 0),
        use_tt=use_tt,
        ordering=ordering,
        tt_generation=tt_generation,
    )
    settings[S_FROM_SCRATCH] = int(not INCREMENTAL)
    return settings


INCREMENTAL = True
"""Internal switch (benchmarks, tests): False makes the array kernel evaluate from scratch at every node
(``heuristics._incremental``; the values are equal either way, only the speed differs)."""


def _time_mask(nodes: int, seconds: float) -> int:
    """A mask 2**j - 1 so that 2**j nodes take about half a millisecond at the measured rate."""
    interval = nodes / max(seconds, 1e-6) * 0.0005
    return (1 << max(0, min(10, int(interval).bit_length() - 1))) - 1


def _check_budgets(position: Position, evaluator: Evaluator, limit: Limit) -> None:
    """Refuse what no budget can search: another game's evaluator, a finished position, no stopping budget.

    The budget's values were checked when ``limit`` was built (:class:`search.budget.Limit`).
    """
    if position.game != evaluator.game:
        raise SearchError(f"the evaluator is for {evaluator.game}, the position is of {position.game}")
    if position.is_terminal():
        raise SearchError(f"position {position.move_string()!r} is over: there is nothing to search")
    if not limit.bounded:
        raise BudgetError(f"give at least one budget: depth, nodes or time_ms (got {limit})")


def _uses_bitboards(position: Position) -> bool:
    """True if :func:`search` runs the bitboard kernel on this position's game (gravity, ``(rows + 1) * cols <= 64``)."""
    return uses_bitboards(position.game)


def uses_bitboards(game: KInARow) -> bool:
    """True if :func:`search` runs the bitboard kernel on ``game`` (gravity, ``(rows + 1) * cols <= 64``)."""
    return bool(game.gravity and bits_fit(game.rows, game.cols))


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
    budget = as_limit(limit, depth=depth, nodes=nodes, time_ms=time_ms, branching=branching, radius=radius)
    return _search(position, evaluator, budget, tt=tt, use_tt=use_tt, ordering=ordering, rng=rng,
                   bitboards=_uses_bitboards(position))  # fmt: skip


def _search(position: Position, evaluator: Evaluator, limit: Optional[Limit] = None, *, bitboards: bool,
            depth: Optional[int] = None, nodes: Optional[int] = None, time_ms: Optional[float] = None,
            branching: Optional[int] = None, radius: Optional[int] = None, tt: Optional[TranspositionTable] = None,
            use_tt: bool = True, ordering: bool = True, rng: Optional[np.random.Generator] = None) -> SearchResult:  # fmt: skip
    """:func:`search` with the kernel chosen by the caller (the tests compare the two on the same positions).

    Raises:
        ValueError: as :func:`search`, or ``bitboards`` for a game that does not fit them.
    """
    limit = as_limit(limit, depth=depth, nodes=nodes, time_ms=time_ms, branching=branching, radius=radius)
    _check_budgets(position, evaluator, limit)
    depth, nodes, time_ms, branching, radius = limit.depth, limit.nodes, limit.time_ms, limit.branching, limit.radius
    if bitboards and not _uses_bitboards(position):
        raise SearchError(f"{position.game} does not fit the bitboard kernel")
    if time_ms is not None:
        _warm_clock()
    started = time.perf_counter()
    deadline = started + time_ms / 1000.0 if time_ms is not None else math.inf
    game = position.game
    remaining = game.n_cells - position.ply
    max_depth = min(depth or remaining, remaining, MAX_DEPTH)
    table = tt if tt is not None else (_scratch_table() if use_tt else _NO_TT)
    if bitboards:
        return _bit_search(position, evaluator, max_depth, nodes, time_ms is not None, started, deadline, branching,
                           use_tt, ordering, table, rng)  # fmt: skip
    run = _array_runner(position, evaluator, max_depth, branching, radius, use_tt, ordering, table, rng)
    best: Optional[SearchResult] = None
    searched = 0
    for d in range(1, max_depth + 1):
        first = best is None  # the depth-1 iteration must finish: a move is needed
        mask = 0 if best is None else _time_mask(best.nodes, best.seconds)
        score, searched, aborted, pv = run(d, 0 if first else (nodes or 0), not first and time_ms is not None,
                                           mask, deadline)  # fmt: skip
        if aborted:
            break
        best = SearchResult(pv[0], float(score) + 0.0, d, searched, time.perf_counter() - started, pv)
        if is_win_score(score) or (nodes is not None and searched >= nodes):
            break
        if time_ms is not None and time.perf_counter() >= deadline:
            break
    assert best is not None
    return SearchResult(best.move, best.score, best.depth, searched, time.perf_counter() - started, best.pv)


_Runner = Callable[[int, int, bool, int, float], tuple[float, int, bool, tuple[Action, ...]]]
"""One iteration: ``(depth, node_limit, check_time, time_mask, deadline) -> (score, nodes so far, aborted, pv)``."""


def _array_runner(position: Position, evaluator: Evaluator, max_depth: int, branching: Optional[int], radius: Optional[int],
                  use_tt: bool, ordering: bool, table: TranspositionTable,
                  rng: Optional[np.random.Generator]) -> _Runner:  # fmt: skip
    """Iterations of the array kernel (:mod:`search._negamax`) on ``position``."""
    game = position.game
    buffers = _Buffers(position, max_depth)
    noise = rng.random(game.n_actions) * 1e-3 if rng is not None else np.zeros(game.n_actions)
    settings = _array_settings(position, evaluator, branching, radius, use_tt, ordering, table.generation)
    board, heights, key = position._board.copy(), position._heights.copy(), np.uint64(position.key())
    zobrist = _zobrist(game.n_cells)

    def run(depth: int, node_limit: int, check_time: bool, time_mask: int,
            deadline: float) -> tuple[float, int, bool, tuple[Action, ...]]:  # fmt: skip
        settings[S_NODE_LIMIT], settings[S_CHECK_TIME], settings[S_TIME_MASK] = node_limit, int(check_time), time_mask
        score = nm._negamax(
            board=board,
            heights=heights,
            key=key,
            stones=position.ply,
            ply=0,
            depth=depth,
            alpha=-math.inf,
            beta=math.inf,
            rules=game.rules,
            settings=settings,
            weights=evaluator.weight_array,
            windows=evaluator.windows,
            zobrist=zobrist,
            tt_keys=table.keys,
            tt_scores=table.scores,
            tt_depths=table.depths,
            tt_flags=table.flags,
            tt_moves=table.moves,
            tt_stamps=table.stamps,
            killers=buffers.killers,
            history=buffers.history,
            pv=buffers.pv,
            pv_len=buffers.pv_len,
            move_buf=buffers.move,
            key_buf=buffers.key,
            hist_buf=buffers.hist,
            order_buf=buffers.order,
            deadline=deadline,
            root_noise=noise,
        )
        pv = tuple(int(m) for m in buffers.pv[0, : buffers.pv_len[0]])
        return score, int(settings[S_NODES]), bool(settings[S_ABORTED]), pv

    return run


def _bit_search(position: Position, evaluator: Evaluator, max_depth: int, nodes: Optional[int], timed: bool,
                started: float, deadline: float, branching: Optional[int], use_tt: bool, ordering: bool,
                table: TranspositionTable, rng: Optional[np.random.Generator]) -> SearchResult:  # fmt: skip
    """The whole iterative deepening in one call of the bitboard kernel (:func:`search._bitnegamax._iterate`)."""
    b = _BitBuffers(position, evaluator)
    if rng is not None:
        b.noise[:] = rng.random(position.game.n_actions) * 1e-3
    settings = b.settings
    settings[S_BRANCHING], settings[S_USE_TT], settings[S_ORDERING] = branching or 0, int(use_tt), int(ordering)
    settings[S_TT_GENERATION] = table.generation
    pv = np.zeros(b.work.shape[0], dtype=np.int64)
    depth, score = bn._iterate(
        current=b.current,
        mask=b.mask,
        stones=position.ply,
        max_depth=max_depth,
        node_budget=nodes or 0,
        timed=timed,
        started=started,
        deadline=deadline,
        rules=position.game.rules,
        settings=settings,
        consts=b.consts,
        weights=evaluator.weight_array,
        weights_pad=b.weights_pad,
        windows=evaluator.windows,
        board=b.board,
        heights=b.heights,
        tt_keys=table.keys,
        tt_scores=table.scores,
        tt_depths=table.depths,
        tt_flags=table.flags,
        tt_moves=table.moves,
        tt_stamps=table.stamps,
        work=b.work,
        frames=b.frames,
        keys=b.keys,
        bounds=b.bounds,
        pv_out=pv,
    )
    line = tuple(int(m) for m in pv[1 : 1 + pv[0]])
    return SearchResult(line[0], float(score) + 0.0, int(depth), int(settings[S_NODES]),
                        time.perf_counter() - started, line)  # fmt: skip


def _minimax_runner(position: Position, evaluator: Evaluator, depth: int,
                    radius: Optional[int]) -> tuple[Callable[[Position, int, int], float], np.ndarray]:  # fmt: skip
    """The checked set-up both minimax functions share: a call of the plain-minimax kernel, and its settings.

    ``run(at, ply, depth)`` is the negamax value of ``at`` (a copy is
    searched) for the side to move there, ``ply`` plies below the root;
    ``settings[S_NODES]`` counts the nodes of every call.
    """
    _check_budgets(position, evaluator, Limit(depth=depth, radius=radius))
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
