"""Batched opponents: one call answers every pending board of a batched environment.

The batched vector environment (:mod:`envs.vector`) groups the boards
waiting for a reply by opponent and calls each group's
:meth:`BatchOpponent.reply_batch` once per step.  Three kinds ship:

* :class:`AlphaBetaBatch`: an alpha-beta spec (``"alphabeta:depth=2"``, a
  weight file, an :class:`search.AlphaBetaAgent`) with a depth and/or node
  budget, searched for all pending boards in one numba call
  (:mod:`search.alphabeta._batchsearch`; optionally parallel over boards) on gravity
  boards that fit 64 bits; on array boards (m,n,k, larger Connect-4) one
  search per board from Python, as the engine runs it (numba cannot call the
  cached recursive array kernel from another kernel).  Its moves are those the per-board agent would play
  for the same seeds (same search, same transposition-table contents, same
  seeded tie-breaks), so a vector env with it equals N single envs.
* :class:`envs.policy.PolicyOpponent`: a frozen torch policy, one forward
  pass over all pending boards, with action masking.
* Anything else (``rules``, ``minimax``, ``perfect``, time-budget alpha-beta,
  agent objects, callables) stays on the per-board Python path.

A league (board i's opponent differs from board j's) is either a list of
opponents, one per board (``opponent=[...]``), or one :class:`BatchOpponent`
that dispatches itself: the interface is small on purpose.
"""

from __future__ import annotations

import math
import time
from typing import Any, NamedTuple, Optional, Sequence

import numba
import numpy as np

from envs._seeding import _draw_rows, _pcg64_states, reseed
from games import KInARow
from games._bits import fits as bits_fit
from games.position import _zobrist
from heuristics._c4_bits import lanes_for
from search._settings import (
    S_ABORTED,
    S_ARRAY,
    S_BIT_EVAL,
    S_BRANCHING,
    S_NODE_LIMIT,
    S_NODES,
    S_ORDER_DEPTH,
    S_ORDERING,
    S_USE_TT,
    new_settings,
)
from search.agents import AlphaBetaAgent
from search.alphabeta import _batchsearch as bk
from search.alphabeta import _bitnegamax as bn
from search.alphabeta import _negamax as nm
from search.alphabeta._bitsetup import _bit_consts, _bit_settings
from search.protocol import is_win_score
from search.result import MAX_DEPTH
from search.tt import _ENTRY, TableSizeError, allocate, physical_memory

_UNKNOWN_PLY = 1 << 40
"""``table_ply`` of a board whose table was never emptied (zeros: a stamp-0 entry of the empty board's key 0)."""


class SearchStats(NamedTuple):
    """What the last replies of some boards searched: ``info["opponent_search"]`` (arrays, one entry per board)."""

    depth: np.ndarray
    """int64: deepest completed iteration."""
    nodes: np.ndarray
    """int64: nodes visited."""
    score: np.ndarray
    """float64: the reply's value for the opponent."""
    searched: np.ndarray
    """bool: False where the reply was not searched (a random move): no stats for that board."""


class BatchOpponent:
    """An opponent answering many boards in one call; subclass it (or provide the same methods).

    Boards are named by index, ``0 .. n - 1`` within the opponent (the
    environment maps its boards to them), so an opponent may keep per-board
    state (a transposition table, a generator, a league member).  The
    environment calls, per step:

    * :meth:`new_episodes` for boards starting an episode (with a seed each);
    * :meth:`reply_batch` once with every board waiting for this opponent's move;
    * :meth:`search_stats` for those boards, right after.

    A reply must be legal: the environment raises ``IllegalMoveError`` otherwise.
    """

    name: str = "batch-opponent"

    def new_episodes(self, boards: np.ndarray, seeds: Sequence[int]) -> None:
        """Boards ``boards`` (int64) start new episodes; ``seeds[i]`` seeds board ``boards[i]`` (default: nothing kept)."""

    def reply_batch(self, obs: np.ndarray, masks: np.ndarray, boards: np.ndarray) -> np.ndarray:
        """The moves for the pending ``boards``.

        Args:
            obs: int8[m, 2, rows, cols], each board from the opponent's side (plane 0 its own stones).
            masks: int8[m, n_actions], 1 where a move is legal.
            boards: int64[m], the boards (indices within this opponent).

        Returns:
            int64[m], one legal action per board.
        """
        raise NotImplementedError

    def search_stats(self, boards: np.ndarray) -> Optional[SearchStats]:
        """Search statistics of the last replies on ``boards``, or None if this opponent does not search."""
        return None


class AlphaBetaBatch(BatchOpponent):
    """An :class:`search.AlphaBetaAgent`'s replies for ``n`` boards, searched in one numba call.

    Each board gets what its own copy of ``agent`` would have: a
    transposition table of the agent's size, kept across the moves of an
    episode and emptied at the next (``n`` tables: mind ``tt=`` in the spec,
    ``alphabeta:depth=2,tt=4096`` keeps 1,024 boards at 128 MB), a generator
    reseeded every episode (tie-break noise, ``random_every`` moves), fresh
    killers and history per search.

    Args:
        agent: the settings to play (its own state is not used).
        n: number of boards.
        parallel: search the boards on numba's threads (``numba.prange``; that
            kernel is not cached: it compiles once per process, 15-30 s).
            None (default): when numba has more than one thread and at least
            :attr:`PARALLEL_FROM` boards are pending, whichever of the two
            measured fewer seconds per board in this batch's own calls (the
            slower way is measured again now and then).  On the project's
            2-core machine threads paid on an idle machine (1.6x the
            one-thread steps/s) and lost badly under other jobs' load (waking
            the second thread between two steps then cost milliseconds: 44k
            steps/s against 370k on one thread in one run), so no fixed
            choice is right for both.
            Bitboard games only (the array search runs board by board from Python).

    Raises:
        ValueError: the agent has a time budget (time budgets stay on the
            per-board path: a batch cannot give each board its own clock).
        TableSizeError: the ``n`` tables do not fit in this machine's memory.
    """

    PARALLEL_FROM = 64
    """Fewest pending boards searched on several threads when ``parallel`` is None (small batches skip the compile)."""
    RETRY_EVERY = 16
    """With ``parallel`` None, the slower way (threads or not) is measured again after this many calls at first."""
    RETRY_MAX = 1024
    """The longest interval between two measurements of the slower way."""
    NOISE_ROWS = 8
    """Root noise rows drawn per generator call (one call per 8 searches instead of one per search)."""

    def __init__(self, agent: AlphaBetaAgent, n: int, *, parallel: Optional[bool] = None) -> None:
        if not self.supports(agent):
            raise ValueError(f"agent {getattr(agent, 'name', agent)!r} cannot be batched: only AlphaBetaAgent with a "
                             "depth and/or node budget can (no time_ms, no solve_ms, not the gomoku engine, and "
                             "tss_nodes=0 on free boards with k >= 4)")  # fmt: skip
        game: KInARow = agent.game
        self.game, self.n, self.parallel = game, n, parallel
        self.name = agent.name
        limit, evaluator = agent.limit, agent.evaluator
        self.depth_cap, self.node_budget = limit.depth or 0, limit.nodes or 0
        self.random_every = agent.random_every or 0
        self.bits = bool(game.gravity and bits_fit(game.rows, game.cols))
        self.weights, self.windows = evaluator.weight_array, evaluator.windows
        self.zobrist = _zobrist(game.n_cells)
        cols, cells = game.cols, game.n_cells
        if self.bits:
            self._bit_buffers(agent)
        else:
            self._array_buffers(agent)
        self.settings = np.zeros((n, self.template.size), dtype=np.int64)
        self.board = np.zeros((n, cells), dtype=np.int8)
        self.heights = np.zeros((n, cols), dtype=np.int32)
        self._tables(n, agent.table.size)
        self.noise = np.zeros((n, self.NOISE_ROWS, game.n_actions), dtype=np.float64)
        self.cursor = np.full(n, self.NOISE_ROWS, dtype=np.int64)
        # Each board's generator, reseeded every episode (envs._seeding).  Without random_every only root noise
        # is drawn: the PCG64 states then live in numba (pcg_states), seeded and drawn for all boards in one call
        # each; with it, random moves (Generator.integers) interleave, so kept PCG64 objects are reseeded in place.
        self.pcg_states = np.zeros((n, 4), dtype=np.uint64)
        self.bit_generators = [np.random.PCG64(0) for _ in range(n)] if self.random_every else []
        self.generators = [np.random.Generator(bit_generator) for bit_generator in self.bit_generators]
        self.moves_made = np.zeros(n, dtype=np.int64)
        self.depth = np.zeros(n, dtype=np.int64)
        self.nodes = np.zeros(n, dtype=np.int64)
        self.score = np.zeros(n, dtype=np.float64)
        self.searched = np.zeros(n, dtype=bool)
        self._retry = self._until_retry = self.RETRY_EVERY
        self._tried = [0, 0]
        self._seconds_per_board = [0.0, 0.0]
        """Measured seconds per board of a call on one thread and on numba's threads (0: not yet), for ``parallel`` None."""

    def _bit_buffers(self, agent: AlphaBetaAgent) -> None:
        """Settings and per-board work arrays of the bitboard kernel (a search.alphabeta._bitsearcher.BitSearcher's, one per board)."""
        game, n, limit = self.game, self.n, agent.limit
        cols, cells, hid = game.cols, game.n_cells, agent.evaluator.kernel_id
        self.template = _bit_settings(game.rules, hid).copy()
        self.template[S_BRANCHING] = limit.branching or 0
        self.template[S_USE_TT], self.template[S_ORDERING] = 1, 1
        self.consts = _bit_consts(game.rules, hid)
        self.weights_pad = np.zeros(bn.N_BIT_WEIGHTS, dtype=np.float64)
        size = min(bn.N_BIT_WEIGHTS, self.weights.size)
        self.weights_pad[:size] = self.weights[:size]
        max_ply = cells + 2  # as BitSearcher: sized for the empty board, so every position fits
        self.work = np.zeros((n, *bn.work_shape(max_ply, cols)), dtype=np.int64)
        self.frames = np.zeros((n, max_ply + 1, 3), dtype=np.uint64)
        self.keys = np.zeros((n, max_ply + 1, cols), dtype=np.float64)
        self.bounds = np.zeros((n, max_ply + 1, 4), dtype=np.float64)
        self.pv_out = np.zeros((n, max_ply + 2), dtype=np.int64)
        self.values = np.zeros((n, lanes_for(cols)), dtype=np.float64)
        # search.alphabeta._twoply: depths 1 and 2 of c4_features on the bitboards, no node budget, the table's and the
        # ordering's usual settings (the heuristic's ordering score starts deeper than depth 2).
        t = self.template
        self.two_ply = bool(0 < self.depth_cap <= 2 and self.node_budget == 0 and hid == bn.HID_C4_FEATURES
                            and t[S_BIT_EVAL] and not t[S_ARRAY] and t[S_USE_TT] and t[S_ORDERING] and t[S_ORDER_DEPTH] > 2)  # fmt: skip

    def _array_buffers(self, agent: AlphaBetaAgent) -> None:
        """Settings and per-board buffers of the array kernel (search.alphabeta._arraysearch._Buffers, one per board)."""
        game, n, limit = self.game, self.n, agent.limit
        cells, actions = game.n_cells, game.n_actions
        radius = 0 if game.gravity else (limit.radius or 0)
        self.template = new_settings(agent.evaluator.kernel_id, branching=limit.branching or 0, radius=radius)
        max_ply = min(self.depth_cap or cells, cells, MAX_DEPTH) + 2
        self.move_buf = np.zeros((n, max_ply, actions), dtype=np.int64)
        self.hist_buf = np.zeros((n, max_ply, actions), dtype=np.int64)
        self.order_buf = np.zeros((n, max_ply, actions), dtype=np.int64)
        self.key_buf = np.zeros((n, max_ply, actions), dtype=np.float64)
        self.killers = np.zeros((n, max_ply, 2), dtype=np.int32)
        self.history = np.zeros((n, 2, actions), dtype=np.int64)
        self.pv = np.zeros((n, max_ply, max_ply), dtype=np.int32)
        self.pv_len = np.zeros((n, max_ply), dtype=np.int32)

    @staticmethod
    def supports(agent: object) -> bool:
        """True for an :class:`search.AlphaBetaAgent` (exactly that class) that only searches with the generic
        alpha-beta search: no time budget, no exact solver first (``solve_ms``), not the gomoku engine, and no
        threat-space search where it would run (free boards, ``k >= 4``, ``tss_nodes`` not 0); those agents answer
        board by board through ``select_move``."""
        if type(agent) is not AlphaBetaAgent or agent.limit.time_ms is not None or agent.solve_ms is not None:
            return False
        if agent.gomoku is not None:  # the batched kernels run the generic search: the engine would not be what played
            return False
        game = agent.game
        return bool(game.gravity or game.k < 4 or agent.tss_nodes == 0)

    def _tables(self, n: int, size: int) -> None:
        """One transposition table of ``size`` slots per board: rows of one buffer (pages are touched lazily)."""
        total = n * size * _ENTRY.itemsize
        if total > physical_memory():
            raise TableSizeError(f"{n} boards x tt={size} slots x {_ENTRY.itemsize} bytes = {total / (1 << 30):.3g} GiB "
                                 f"do not fit in this machine's {physical_memory() / (1 << 30):.3g} GiB: "
                                 "give the opponent a smaller table, e.g. 'alphabeta:depth=2,tt=4096'")  # fmt: skip
        entries = allocate("tt_size", n * size, _ENTRY).reshape(n, size)
        self.tt = entries
        self.tt_fields = tuple(entries[field] for field in ("key", "score", "depth", "flag", "move", "stamp"))
        self.generation = np.zeros(n, dtype=np.int64)  # new_episodes makes it 1 (a fresh agent's table, reset once)
        self.table_ply = np.full(n, _UNKNOWN_PLY, dtype=np.int64)
        """Per board, the most stones of a root searched since the table was emptied (search.alphabeta._batchsearch: a search
        two stones further on cannot meet an entry of those); unknown until the first new_episodes."""

    def new_episodes(self, boards: np.ndarray, seeds: Sequence[int]) -> None:
        """Reseed the boards' generators and empty their tables, as ``agent.seed(s); agent.reset()`` does."""
        if self.random_every:
            reseed([self.bit_generators[b] for b in np.asarray(boards).tolist()], seeds)  # = default_rng(seed), cheaper
        else:
            _pcg64_states(np.array(seeds, dtype=np.uint64), np.asarray(boards, dtype=np.int64), self.pcg_states)
        self.generation[boards] += 1  # TranspositionTable.forget: a new stamp, no entry touched
        self.table_ply[boards] = -2  # no search since: every root is two stones past the empty table
        self.moves_made[boards] = 0
        self.cursor[boards] = self.NOISE_ROWS  # drawn afresh from the new generator
        self.searched[boards] = False

    def reply_batch(self, obs: np.ndarray, masks: np.ndarray, boards: np.ndarray) -> np.ndarray:
        """Search every pending board in one kernel call (see :class:`BatchOpponent`)."""
        boards = np.asarray(boards, dtype=np.int64)
        replies = np.zeros(boards.size, dtype=np.int64)
        search = self._draw(masks, boards, replies)
        if search.size < boards.size:
            boards, obs = boards[search], obs[search]
        m = boards.size
        out_move, out_depth, out_nodes = (np.zeros(m, dtype=np.int64) for _ in range(3))
        out_score = np.zeros(m, dtype=np.float64)
        obs = np.ascontiguousarray(obs, dtype=np.int8)
        common = (self.game.rules, self.depth_cap, self.node_budget, self.template, self.settings)
        tables = (*self.tt_fields, self.generation, self.noise, self.cursor, self.board, self.heights)
        outputs = (out_move, out_score, out_depth, out_nodes)
        if self.bits:
            adaptive = self.parallel is None and m >= self.PARALLEL_FROM and numba.get_num_threads() > 1
            threads = self._pick_threads() if adaptive else bool(self.parallel)
            kernel = bk._bit_replies_parallel if threads else bk._bit_replies
            begin = time.perf_counter()
            kernel(boards, obs, *common, self.consts, self.weights, self.weights_pad, self.windows, *tables, self.work,
                   self.frames, self.keys, self.bounds, self.pv_out, self.values, self.two_ply, self.table_ply, *outputs)  # fmt: skip
            if adaptive:
                self._timed(threads, (time.perf_counter() - begin) / m)
        else:
            for j in range(m):
                self._array_search(j, boards, obs, outputs)
        replies[search] = out_move
        self.depth[boards], self.nodes[boards], self.score[boards] = out_depth, out_nodes, out_score + 0.0
        self.searched[boards] = True
        return replies

    def _pick_threads(self) -> bool:
        """Whether this call searches on numba's threads (``parallel`` None): the way that measured faster per board.

        Each way is tried until it has a measurement past its first call (which may compile); then the faster
        one is taken and the other is measured again after :attr:`RETRY_EVERY` calls, an interval that doubles
        (up to :attr:`RETRY_MAX`) each time the other way is still slower, so a change in the machine's load
        changes the choice without a loaded machine paying for many slow tries.
        """
        serial, threaded = self._seconds_per_board
        if serial == 0.0 or threaded == 0.0:
            return serial != 0.0  # the unmeasured way (serial first)
        faster = threaded < serial
        self._until_retry -= 1
        return faster != (self._until_retry <= 0)

    def _timed(self, threads: bool, seconds: float) -> None:
        """Keep a call's seconds per board for its way (a way's first call, which may compile, is left out)."""
        way = int(threads)
        self._tried[way] += 1
        if self._tried[way] == 1:
            return
        rates = self._seconds_per_board
        retried = self._until_retry <= 0 and 0.0 not in rates and (rates[1] < rates[0]) != threads
        # The way in use averages its calls; a retried way's one call replaces its old figure (the load has changed)
        rates[way] = seconds if rates[way] == 0.0 or retried else 0.75 * rates[way] + 0.25 * seconds
        if retried:  # the slower way measured again: still slower, wait twice as long for the next try
            still_slower = (rates[1] < rates[0]) != threads
            self._retry = min(2 * self._retry, self.RETRY_MAX) if still_slower else self.RETRY_EVERY
            self._until_retry = self._retry

    def _array_search(self, j: int, boards: np.ndarray, obs: np.ndarray, outputs: tuple[np.ndarray, ...]) -> None:
        """Board ``boards[j]`` searched by the array kernel, iteration by iteration as search.alphabeta._arraysearch._array_search does.

        From Python, one call per iteration: the kernel is recursive, and numba
        cannot call its cached code from another kernel (see :mod:`search.alphabeta._batchsearch`).
        """
        b, ply, max_depth, row = bk._root(j, boards, obs, self.game.rules, self.depth_cap, self.template, self.settings,
                                          self.generation, self.noise, self.cursor, self.board, self.heights)  # fmt: skip
        s, board, heights = self.settings[b], self.board[b], self.heights[b]
        self.killers[b], self.history[b] = -1, 0  # _arraysearch._Buffers: fresh per search, kept across its iterations
        key = np.uint64(bk._zobrist_key(board, self.zobrist))  # numba returns an int; the kernel wants uint64
        keys, stamps = self.tt_fields[0][b], self.tt_fields[5][b]
        scores, depths, flags, moves = (field[b] for field in self.tt_fields[1:5])
        best = (-1, 0.0, 0)
        for d in range(1, max_depth + 1):
            s[S_NODE_LIMIT] = 0 if best[2] == 0 else self.node_budget  # the depth-1 iteration always completes
            score = nm._negamax(board, heights, key, ply, 0, d, -math.inf, math.inf, self.game.rules, s, self.weights,
                                self.windows, self.zobrist, keys, scores, depths, flags, moves, stamps, self.killers[b],
                                self.history[b], self.pv[b], self.pv_len[b], self.move_buf[b], self.key_buf[b],
                                self.hist_buf[b], self.order_buf[b], math.inf, self.noise[b, row])  # fmt: skip
            if s[S_ABORTED]:
                break
            best = (int(self.pv[b, 0, 0]), float(score), d)
            if is_win_score(score) or (self.node_budget and s[S_NODES] >= self.node_budget):
                break
        outputs[0][j], outputs[1][j], outputs[2][j], outputs[3][j] = best[0], best[1], best[2], s[S_NODES]

    def _draw(self, masks: np.ndarray, boards: np.ndarray, replies: np.ndarray) -> np.ndarray:
        """The generators' draws, in the agent's order; return the positions (in ``boards``) that search.

        Without ``random_every`` every reply searches, and its noise is the
        generator's next ``n_actions`` doubles: drawn :attr:`NOISE_ROWS`
        searches at a time (``random((r, a))`` is ``r`` calls of ``random(a)``
        in a row).  With it, a random move (``integers``) interleaves, so the
        draws are made one move at a time, as the agent makes them.
        """
        if not self.random_every:  # the generators' doubles, drawn in numba (envs._seeding._draw_rows)
            _draw_rows(boards, self.cursor, self.pcg_states, self.noise, 1e-3)
            return np.arange(boards.size)
        actions = self.noise.shape[2]
        self.moves_made[boards] += 1
        search = []
        for j, b in enumerate(boards.tolist()):
            generator = self.generators[b]
            if self.moves_made[b] % self.random_every == 0:  # AlphaBetaAgent.select_move's random move
                legal = np.flatnonzero(masks[j])
                replies[j] = legal[int(generator.integers(len(legal)))]
                self.searched[b] = False
            else:
                self.noise[b, 0] = generator.random(actions) * 1e-3
                self.cursor[b] = 0
                search.append(j)
        return np.array(search, dtype=np.int64)

    def search_stats(self, boards: np.ndarray) -> Optional[SearchStats]:
        """Depth, nodes and score of the last search on each of ``boards`` (``searched`` False after a random move)."""
        return SearchStats(self.depth[boards], self.nodes[boards], self.score[boards], self.searched[boards])


def describe(opponent: Any) -> str:
    """A short name for messages."""
    return str(getattr(opponent, "name", type(opponent).__name__))
