"""An agent's kept bitboard search: :func:`search.alphabeta.engine.search`'s set-up done once per agent, not per move.

:func:`search.alphabeta.engine.search` builds its buffers, settings and constant
arguments for every call and passes them to the kernel by keyword; in the
single env with a depth-2 opponent that set-up cost about as much as the
search.  :class:`BitSearcher` keeps them (:class:`search.agents.AlphaBetaAgent`
holds one), with the same results.
"""

from __future__ import annotations

import time
from typing import Callable, Optional

import numpy as np

from games import KInARow, Position
from games._bits import _from_board, fits
from games._direct import direct
from heuristics import Evaluator
from search._settings import S_ARRAY, S_BRANCHING, S_NODES, S_ORDERING, S_TT_GENERATION, S_USE_TT
from search.alphabeta import _bitnegamax as bn
from search.alphabeta._bitsetup import _bit_consts, _bit_settings, _clock_and_depth
from search.budget import Limit
from search.errors import SearchError
from search.result import SearchResult
from search.tt import TranspositionTable


class BitSearcher:
    """:func:`search.alphabeta.engine.search` on bitboards for one game and evaluator, set up once: an agent keeps one.

    :func:`search.alphabeta.engine.search` builds its buffers, settings and constant arguments for
    every call and passes them to the kernel by keyword, about 5 us a move
    (measured in the single env with a depth-2 opponent, where the search
    itself takes about as long).  This object builds them once, sized for
    the empty board (so every later position fits), resets per search what
    a fresh ``engine._BitBuffers`` would hold (no killers, history zero), and
    calls the kernel positionally: the same search, the same move, score,
    depth, node count and PV (``tests/test_bitsearch.py`` compares them).

    Not thread-safe: one per agent (agents are copied per board, each copy its own).
    """

    def __init__(self, game: KInARow, evaluator: Evaluator) -> None:
        if not (game.gravity and fits(game.rows, game.cols)) or evaluator.game != game:
            raise SearchError(f"{game} does not fit the bitboard kernel, or the evaluator is for {evaluator.game}")
        self.game, self.evaluator = game, evaluator
        max_ply = game.n_cells + 2  # the empty board's, the largest _BitBuffers makes
        self.work = np.zeros(bn.work_shape(max_ply, game.cols), dtype=np.int64)
        self.frames = np.zeros((max_ply + 1, 3), dtype=np.uint64)
        self.keys = np.zeros((max_ply + 1, game.cols), dtype=np.float64)
        self.bounds = np.zeros((max_ply + 1, 4), dtype=np.float64)
        self.pv = np.zeros(self.work.shape[0], dtype=np.int64)
        self.template = _bit_settings(game.rules, evaluator.kernel_id)
        self.settings = self.template.copy()
        self.weights_pad = np.zeros(bn.N_BIT_WEIGHTS, dtype=np.float64)
        n = min(bn.N_BIT_WEIGHTS, evaluator.weight_array.size)
        self.weights_pad[:n] = evaluator.weight_array[:n]
        self.consts = _bit_consts(game.rules, evaluator.kernel_id)
        self.weights = evaluator.weight_array  # what weights_pad was copied from (search() checks it is unchanged)
        self._track_array = bool(self.template[S_ARRAY])
        # the array board only for an array evaluator: without it the kernel is compiled without the array
        # evaluators (search.alphabeta._bitnegamax), which a bitboard evaluator never calls
        self.board = np.zeros(game.n_cells, dtype=np.int8) if self._track_array else None
        self.heights = np.zeros(game.cols, dtype=np.int32) if self._track_array else None
        slots = 2 * game.cols  # where the per-ply slots start in a row of work
        self._killers = (slice(0, max_ply), slice(slots + bn.K_KILLER, slots + bn.K_KILLER_2 + 1))
        self._max_ply = max_ply
        self._iterate: Optional[Callable[..., tuple[int, float]]] = None  # the kernel's entry point (games._direct)
        self._noisy = False

    def __getstate__(self) -> dict[str, object]:
        """Pickled without the kernel's entry point (compiled code; taken again at the first search)."""
        return {**self.__dict__, "_iterate": None}

    def __setstate__(self, state: dict[str, object]) -> None:
        """Unpickled or deep-copied: the shared read-only tables again.  A copy comes back writable, another
        signature of the search kernel: it would compile once more (a minute)."""
        self.__dict__.update(state)
        self.template = _bit_settings(self.game.rules, self.evaluator.kernel_id)
        self.consts = _bit_consts(self.game.rules, self.evaluator.kernel_id)

    def search(self, position: Position, limit: Limit, tt: TranspositionTable, rng: Optional[np.random.Generator],
               use_tt: bool = True, ordering: bool = True) -> SearchResult:  # fmt: skip
        """``search(position, evaluator, limit, tt=tt, rng=rng, use_tt=use_tt, ordering=ordering)``.

        Preconditions (checked by the callers): ``position`` of this game and not over, ``limit`` bounded.
        """
        if self._iterate is None:  # every argument keeps its type (tables are all built alike): no dispatch per call
            self._iterate = direct(bn._iterate, *self._arguments(np.uint64(0), np.uint64(0), 0, 1, 0, False, 0.0, 0.0, tt))
        started, deadline, max_depth = _clock_and_depth(position, limit)
        work, settings = self.work, self.settings
        work[self._killers] = -1  # what _BitBuffers starts from: no killers, history counters zero
        work[self._max_ply :] = 0
        noise = self.keys[self._max_ply]
        if rng is not None:
            noise[:] = rng.random(self.game.n_actions) * 1e-3
            self._noisy = True
        elif self._noisy:  # zero since the last search without rng otherwise: nothing to clear
            noise[:] = 0.0
            self._noisy = False
        settings[:] = self.template
        settings[S_BRANCHING], settings[S_TT_GENERATION] = limit.branching or 0, tt.generation
        settings[S_USE_TT], settings[S_ORDERING] = int(use_tt), int(ordering)
        board = position._board
        if self.board is not None and self.heights is not None:  # the kernel plays on its copy (S_ARRAY evaluators)
            self.board[:], self.heights[:] = board, position._heights
        current, mask = _from_board(board, self.game.rows, self.game.cols, position.ply)
        pv = self.pv
        depth, score = self._iterate(*self._arguments(np.uint64(current), np.uint64(mask), position.ply, max_depth,
                                                      limit.nodes or 0, limit.time_ms is not None, started, deadline, tt))  # fmt: skip
        line = tuple(pv[1 : 1 + pv[0]].tolist())
        return SearchResult(line[0], float(score) + 0.0, int(depth), int(settings[S_NODES]),
                            time.perf_counter() - started, line)  # fmt: skip

    def _arguments(self, current: np.uint64, mask: np.uint64, stones: int, max_depth: int, nodes: int, timed: bool,
                   started: float, deadline: float, tt: TranspositionTable) -> tuple[object, ...]:  # fmt: skip
        """The 27 arguments of :func:`search.alphabeta._bitnegamax._iterate`, positional (numba folds keywords in Python, a few us)."""
        return (current, mask, stones, max_depth, nodes, timed, started, deadline, self.game.rules, self.settings,
                self.consts, self.evaluator.weight_array, self.weights_pad, self.evaluator.windows, self.board, self.heights,
                tt.keys, tt.scores, tt.depths, tt.flags, tt.moves, tt.stamps, self.work, self.frames, self.keys, self.bounds,
                self.pv)  # fmt: skip
