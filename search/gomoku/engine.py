"""The gomoku engine: pattern evaluation, threats inside the search, PVS, and time management in one searcher.

:class:`GomokuEngine` searches free boards (no gravity) with ``4 <= k <= 15``, freestyle or exact-k, with
the incremental pattern state of :mod:`heuristics._gomoku_state` (its weights: the ``gomoku`` heuristic,
:mod:`heuristics._gomoku`, by default the tuned table :data:`ENGINE_WEIGHTS`) and the kernel of :mod:`search.gomoku._search`.  A move is chosen in this order:

1. a five of its own; else the block of the opponent's five-cell (the forced reply); else a sure win
   (an open four or a double four);
2. a VCF found at the root (Allis' threat-space search restricted to fours, within :attr:`root_vcf`
   fours); else
3. iterative deepening PVS with aspiration windows (:attr:`aspiration` wide) under the budget.

Time management (``time_ms``): the kernel reads the clock about every half millisecond (every
:func:`clock_mask` + 1 nodes at the last search's node rate, and the VCF searches as often) against a
*hard* deadline, ``time_ms`` less :func:`safety_margin` (8 % of the budget plus 8 us per cell, never under
50 ms, and at least twice the lateness past the deadline measured in the last searches); between iterations a new one starts only while less than half the
budget is spent (70 % when the best move changed in the last iteration: the move is not settled, spend
more), and not when the last iteration's cost times its growth says it would end far past the deadline.
An iteration cut by the deadline still counts where it finished its first move.

Example:
    >>> from games import MNK
    >>> from search.budget import Limit
    >>> game = MNK(9, 9, 5)
    >>> engine = GomokuEngine(game)
    >>> position = game.position([40, 0, 41, 1, 42, 2, 43])   # x has four in a row on row 4, o to move
    >>> engine.search(position, Limit(depth=2)).move in (39, 44)
    True
"""

from __future__ import annotations

import time
from types import MappingProxyType
from typing import Mapping, Optional

import numpy as np

from games import KInARow, Position
from games.checks import INT64_MAX, check_int
from heuristics._gomoku import SPEC as GOMOKU_SPEC
from heuristics._gomoku import refuse_game
from heuristics._gomoku_lines import MEMO_BITS, half_width, pattern_memo, pattern_table, uses_table
from heuristics._gomoku_state import (
    CLASS_FIVE,
    CLASS_WIN,
    G_SIZE,
    M_CANDIDATES,
    M_SIZE,
    N_CLASSES,
    _init,  # fmt: skip
    _make,
    kernel_weights,
)
from heuristics.errors import WeightError
from search.alphabeta._bitsetup import _warm_clock
from search.budget import Limit
from search.errors import SearchError
from search.gomoku import _search as gs
from search.result import MAX_DEPTH, SearchResult

ENGINE_WEIGHTS: Mapping[str, float] = MappingProxyType({
    "weak": 1.579, "two": 2.799, "open_two": 5.943, "three": 23.96, "open_three": 51.33, "four": 142.3,
    "open_four": 132.2, "double_three": 121.4, "four_three": 599.0, "double_four": 680.4, "defence": 0.6575,
})
"""The engine's pattern table where none is given: the weights of ``python -m tuning.run``'s shipped file for
15,15,5 freestyle (``weights/gomoku-gomoku-tuned.json``, tuned at 1,000 nodes a move) to four digits.  At 1 s a move
against the recommended agent (``alphabeta:heuristic=mics,radius=2,time_ms=850,solve_ms=400,branching=6``) from
balanced openings, both colours, on 15,15,5, 15,15,5 exact-k and 20,20,5, it scored 48 of 72 points where the
``gomoku`` heuristic's hand-set defaults (:data:`heuristics._gomoku.SPEC`) scored 35.5 (73 of 108 over six seeds),
and 41 of 54 against them engine against engine; the heuristic keeps its defaults for the generic search (Connect-4
and gravity boards)."""
TT_BITS = 20
"""log2 of the engine's table entries (1M entries, 25 MB)."""
TT_SLOT_BYTES = 25
"""Bytes of one table entry: key and score (8 each), depth and move (4 each), bound (1)."""
ROOT_VCF = 3_000
"""Fours the root VCF may try (k <= 6; a tenth of it on longer lines, whose patterns are scanned)."""
HORIZON_VCF = 24
"""Fours each horizon VCF may try."""
VCF_NEAR = True
"""The horizon VCF tries only fours on the lines of the side's own last move, each next four on the lines of the one
before (False: every four; 3.3 times the time to depth 7 in middle-game positions)."""
HORIZON_VCT = 0
"""Moves (the attacker's threats and the defender's answers) each horizon VCT may try: the side to move's attack of
threes built on the lines of its own last move, searched when its VCF found nothing; 0: none (the default).  With
:data:`SHALLOW_VCT` it took the score against the recommended agent at 300 ms a move from 54 % to 74 % (54 games
each; alone 63 %), but it cut the node rate to a quarter, and at 1 s a move 20 moves (the default until then) played
no better than none (73 of 108 points against the recommended agent, 75.5 without); it went with :data:`LMR` 3 and
:data:`THREAT_WIDTH` 6."""
SHALLOW_VCT = 300
"""Moves each VCT of a node near the root (:data:`SHALLOW_VCT_PLY`) may try: the side to move's attack of threes
from its own last move (a ply below the root: from any threat); 0: none.  Alone it scored 56 % (36 games) where the
engine without either VCT scored 54 %."""
SHALLOW_VCT_PLY = 2
"""Deepest ply of the VCT of :data:`SHALLOW_VCT` (to depth 6 in six middle-game positions, 2 took 1.7 times the time
without it, 3 took 1.8 times; 3 was not played in matches)."""
SHALLOW_VCF = 300
"""Fours the VCF of each node one or two plies from the root may try (a move leaving the opponent a VCF loses)."""
IN_TREE_VCT = 0
"""Nodes of the threat-space search (:mod:`search.gomoku._tss`, VCF then VCT) that the in-tree check of the side to move's
forced win may try at each node one to :data:`IN_TREE_VCT_PLY` plies from the root; 0: none.  It proved attacks
that the engine's own VCT missed (5 of the 13 that decided games lost at 1 s a move), but with 2,000 nodes at plies
1 to 3 it scored 39.5 of 72 points against the recommended agent at 1 s a move where the engine without it scored
35.5 on the same openings, and 13 of 36 against that engine, at about a third of the node rate.  With the agent's
13-ply check it scored 86 of 108 against the recommended agent where the engine without it scored 78.5, but 23 of 54
against that engine; with 500 nodes, 84 of 108 and 27 of 54: off by default.  Below the root's children it runs
only where the side's last move left threats on two lines (``search.gomoku._search._prepares``): at 1 s on 15,15,5
the 500-node check then reached depth 7 at the default's node rate, where it reached depth 4 at a quarter of it, and
scored 79.5 of 108 against the recommended agent and 26 of 54 against the default engine; with 2,000 nodes, 77.5 of
108: both within the noise of the default's 78.5, so it stays off."""
IN_TREE_VCT_PLY = 1
"""Deepest ply of the in-tree threat-space check (1: the root's children only; 3 also sees the attack that the
opponent's quiet reply prepares)."""
WIDTH = 12
"""Moves searched per interior node (best-ordered first); 0 searches all.  At 1 s a move from balanced openings
(both colours, 15,15,5, 15,15,5 exact-k and 20,20,5, 108 games) 12 scored 68 points against 8, and 89.5 against the
recommended agent where 8 scored 86 (6 scored 31.5 and 5 scored 29 of 54); at 1 s on 15,15,5 it reaches the depth 8
reached (7 plies from one stone in the centre; 8 with width 6, 9 with width 5)."""
LMR = 3
"""Late-move reductions of quiet moves (neither side's open three or better): 0 none; 1 from the fourth move of a
node at depth 3 or more, by 1 ply (moves 4 to 6), 2 (7 to 12) or 3; L >= 2 from the third move at depth 2 or
more, by ``round(ln(depth) ln(move number) (L - 1) / 2)`` plies (the logarithmic schedule of Stockfish and
Rapfi; it may reduce a move to the horizon, where 1 stops at depth 1), each searched again at full depth when it
fails high.  With :data:`THREAT_WIDTH` 6 and no :data:`HORIZON_VCT` (the defaults since), 3 took the depth at 1 s
on 15,15,5 from 7 to 9 (the node rate from about 27,000 to 124,000 a second) and scored 118 of 216 points against
the engine before them (1, 0 and 20) at 1 s a move, and 172.5 of 216 against the recommended agent where that
engine scored 178.5 (both within the noise)."""
THREAT_WIDTH = 6
"""Moves searched at a node where the opponent threatens a sure win (an open three, a four-three), best-ordered
first (the answers :func:`search.gomoku._search._answers` keeps, and the side's own fours; half of them, at least 2,
within 2 plies of the horizon, as at other nodes); 0 searches every answer, as the engine did until it went with
:data:`LMR` 3: those nodes held most of the tree (their answers outnumbered the nodes searched)."""
FUTILITY = 150
"""Reverse futility margin per ply, in evaluation units: at a null-window node within
:data:`search.gomoku._search.FUTILITY_DEPTH` plies of the horizon where the opponent threatens nothing, a static
value at least ``depth * FUTILITY`` above beta is returned without a search (reverse futility pruning, as in
Stockfish and Rapfi); 0: off.  The default on boards up to :data:`FUTILITY_CELLS` cells, off on larger ones
(:func:`default_futility`).  On 15,15,5 it takes the depth at 1 s from 9 to 10 (134,204 nodes/s against 121,706).
At 1 s a move from balanced openings, both colours, head to head against the engine without it: 44 of 90 points
on 15,15,5, 45 of 90 on 15,15,5 exact-k, but 35 of 90 on 20,20,5 (seeds 0 to 14); against the recommended agent
(seeds 0 to 17) 185.5 of 216 on the two 15 x 15 boards where the engine without it scored 175, and 117 of 144
on 20,20,5 (seeds 0 to 23) against 121.  With :data:`RAZOR` at 150 too it was even head to head but behind
on 20,20,5 against the recommended agent."""
FUTILITY_CELLS = 225
"""The largest board, in cells, on which :data:`FUTILITY` is on by default (15 x 15: measured even head to head
there and behind on 20 x 20)."""
RAZOR = 0
"""Razoring margin per ply, in evaluation units: at such a node a static value at least ``depth * RAZOR`` below alpha
drops to the horizon's VCF (razoring to a VCF, as in Rapfi); 0: off, the default.  With :data:`FUTILITY` at 150
too (the two were one switch before), 150 lost points against the recommended agent on 20,20,5: 103 of 144 where
the engine without either scored 121 (seeds 0 to 23), and razoring only at the last ply 51.5 of 72 (seeds 12 to 23)
against 62.5."""
ASPIRATION = 60.0
"""Half-width of the root's aspiration window, in evaluation units."""
SOFT_SHARE = 0.5
"""Share of a timed move after which no new iteration starts.  The agent's threat check after the search gets what
the engine leaves: 0.6 (0.8 when the move changed, with :data:`FIRST_SHARE` 0.5) reached a ply deeper at 1 s on
15,15,5 but scored 5 and 2 points of 18 and 12 against the recommended agent, where these values scored 7 and 9."""
STRETCH_SHARE = 0.7
"""The same when the best move changed in the last iteration (the move is not settled: spend more)."""
FIRST_SHARE = 1.0
"""Share of an iteration's predicted cost (the last one's times its growth) that must fit before the deadline
for it to start: an iteration cut after its first root move still counts (that move searched deeper)."""


SWITCH_NAMES = ("horizon_vcf", "horizon_vct", "shallow_vcf", "shallow_vct", "shallow_vct_ply", "vct_budget", "vct_ply", "lmr",
                "threat_width", "futility", "razor")
"""The engine's switches by name (attributes of :class:`GomokuEngine`, and agent spec keys such as
``alphabeta:horizon_vct=0``): the budgets of :data:`HORIZON_VCF`, :data:`HORIZON_VCT`, :data:`SHALLOW_VCF`,
:data:`SHALLOW_VCT` and :data:`IN_TREE_VCT` (0: off), the deepest plies :data:`SHALLOW_VCT_PLY` and
:data:`IN_TREE_VCT_PLY`, the reduction schedule :data:`LMR` (0 to :data:`LMR_MAX`), the width at threatened
nodes :data:`THREAT_WIDTH` and the margins :data:`FUTILITY` and :data:`RAZOR`."""
LMR_MAX = 4
"""The most aggressive :data:`LMR` schedule a switch accepts."""
FUTILITY_MAX = 10**12
"""The largest :data:`FUTILITY` or :data:`RAZOR` margin a switch accepts: above any static value, so it never cuts (the kernel
multiplies it by the depth in 64-bit integers, which a larger one could overflow)."""


CLOCK_READ_S = 5e-4
"""The kernel reads the clock about this often (:mod:`search._clock`, some 40 ns a read, nothing next to the
search), so a deadline is overrun by at most this much plus one node."""


def default_futility(game: KInARow) -> int:
    """The engine's reverse futility margin where none is given: :data:`FUTILITY` on boards of at most
    :data:`FUTILITY_CELLS` cells, 0 (off) on larger ones."""
    return FUTILITY if game.n_cells <= FUTILITY_CELLS else 0


def safety_margin(game: KInARow, time_ms: float, late: float = 0.0) -> float:
    """Seconds kept back from ``time_ms``: at least 50 ms, 8 % of the budget plus 8 us per cell, and at least
    twice ``late`` (seconds a search returned after its deadline lately), but never over half the budget.

    The cell term covers what grows with the board after the deadline: the node in flight when the clock is
    read, unwinding the recursion and the result (a 70x70 k=10 move took 944 ms of 1,000 with a 60 ms
    margin, 0.04 * budget + 4 us per cell); the measured term what the machine adds (a loaded machine
    preempts the search past its deadline)."""
    budget = time_ms / 1000.0
    return min(max(0.05, 0.08 * budget + 8e-6 * game.n_cells, 2.0 * late), 0.5 * budget)


def phase_seconds(game: KInARow, time_ms: float) -> float:
    """Seconds into a move of ``time_ms`` after which the threat searches around the engine (the agents' root
    VCF/VCT and the guard, :mod:`search.gomoku.threats`, which run to node budgets) do not start: the budget less
    :func:`safety_margin`."""
    return time_ms / 1000.0 - safety_margin(game, time_ms)


def lateness(over: float, late: float, budget: float) -> float:
    """The engine's measured lateness after a search that returned ``over`` seconds after its hard deadline
    (negative: before it), ``late`` before: a maximum decaying by a quarter a search, each observation capped
    at a tenth of the ``budget`` (seconds), so one preempted move widens the margin for a few moves only."""
    return max(min(over, 0.1 * budget), 0.75 * late, 0.0)


def clock_mask(seconds_per_node: float) -> int:
    """The kernel's clock-read interval less one (``2 ** j - 1``, 15 to 255): the nodes of about
    :data:`CLOCK_READ_S` at the measured ``seconds_per_node`` (63 before any search measured one)."""
    if not seconds_per_node > 0.0:
        return 63
    nodes, mask = CLOCK_READ_S / seconds_per_node, 15
    while mask < 255 and 2 * (mask + 1) <= nodes:
        mask = 2 * mask + 1
    return mask


class GomokuEngine:
    """An incremental pattern state, a table and the search buffers for one game; reused across moves.

    Args:
        game: a free board with ``4 <= k <= 15`` (else :class:`search.errors.SearchError`).
        weights: the ``gomoku`` heuristic's weights by name (missing ones take :data:`ENGINE_WEIGHTS`).
        tt_bits: log2 of the table entries.
        width, lmr, threat_width, futility, razor, pvs, use_tt: search switches (tests compare against plain negamax with them
            off); ``futility`` None: :func:`default_futility` of the board.
        memo_bits: log2 of the memo of scanned patterns (k >= 6 exact-k, k >= 7 freestyle); 0 scans every
            time (the same values, slower: ``scripts/bench_gomoku_patterns.py`` compares).
    """

    def __init__(self, game: KInARow, weights: Optional[Mapping[str, float]] = None, *, tt_bits: int = TT_BITS,
                 width: int = WIDTH, lmr: bool = True, threat_width: int = THREAT_WIDTH, futility: Optional[int] = None,
                 razor: int = RAZOR, pvs: bool = True, use_tt: bool = True, memo_bits: int = MEMO_BITS) -> None:  # fmt: skip
        reason = refuse_game(game)
        if reason is not None:
            raise SearchError(f"the gomoku engine does not play {game}: {reason}")
        self.game = game
        named = _named_weights(weights)
        n = game.n_cells
        geo = np.array([game.rows, game.cols, game.k, int(game.exact_k), half_width(game.k, game.exact_k),
                        int(uses_table(game.k, game.exact_k))] + [0] * (G_SIZE - 6), dtype=np.int64)  # fmt: skip
        zobrist = np.random.default_rng(20261125).integers(1, 2**62, size=2 * n, dtype=np.int64)
        self.cfg = (geo, pattern_table(game.k, game.exact_k),
                    kernel_weights(np.array(list(named.values()), dtype=np.float64)), zobrist,
                    pattern_memo(game.k, game.exact_k, memo_bits))  # fmt: skip
        self.st: tuple[np.ndarray, ...] = (np.zeros(n, np.int8), np.zeros(4 * n, np.int64), np.zeros(8 * n, np.int8), np.zeros(2 * n, np.int8),
                   np.zeros(2 * n, np.float64), np.zeros(3 * n, np.int32), np.zeros(M_SIZE, np.int64),
                   np.zeros(2, np.float64))  # fmt: skip
        _init(self.st, self.cfg)
        self._empty: tuple[np.ndarray, ...] = tuple(a.copy() for a in self.st)
        self._moves: list[int] = []
        size = 1 << tt_bits
        self.tt = (np.zeros(size, np.int64), np.zeros(size, np.float64), np.zeros(size, np.int32),
                   np.zeros(size, np.int8), np.zeros(size, np.int32))  # fmt: skip
        ctl = np.zeros(gs.C_SIZE, np.int64)
        ctl[gs.C_PVS], ctl[gs.C_USE_TT] = int(pvs), int(use_tt)
        self.ctx = (ctl, np.full(1, np.inf), np.full(2 * gs.MAX_PLY, -1, np.int32), np.zeros(2 * n, np.float64),
                    np.zeros(gs.MAX_PLY * n, np.int32), np.zeros(gs.MAX_PLY * n, np.float64),
                    np.zeros(1 << 16, np.int64), np.zeros(1 << 16, np.int16), np.full(gs.MAX_PLY, -1, np.int32))  # fmt: skip
        self.root_vcf = ROOT_VCF if game.k <= 6 else ROOT_VCF // 10
        self.width = width
        """Moves searched per interior node where a search's limit sets no ``branching``."""
        self.lmr = LMR if lmr else 0
        self.threat_width = threat_width
        self.futility = default_futility(game) if futility is None else futility
        self.razor = razor
        self._set_pruning()
        self.horizon_vcf = HORIZON_VCF
        self.horizon_vct = HORIZON_VCT
        self.shallow_vct, self.shallow_vct_ply = SHALLOW_VCT, SHALLOW_VCT_PLY
        self.vct_budget = IN_TREE_VCT
        self.vct_ply = IN_TREE_VCT_PLY
        self.shallow_vcf = SHALLOW_VCF if game.k <= 6 else SHALLOW_VCF // 10
        self.aspiration = ASPIRATION
        self.vcf_near = VCF_NEAR
        self.soft_share, self.stretch_share, self.first_share = SOFT_SHARE, STRETCH_SHARE, FIRST_SHARE
        self.late = 0.0
        """Seconds the last timed searches returned after their hard deadline (decaying max; the margin's measured term)."""
        self.node_seconds = 0.0
        """Seconds per node of the last search of at least 1,000 nodes (0: none yet; the clock-read interval;
        lateness is measured only after it is set, the kernels compiled)."""
        self.root_order: tuple[int, ...] = ()
        """The last search's root moves, its move first, the rest best-first by the deepest finished iteration
        (a move decided without search: that move alone); the agents' threat guard tries them in this order."""

    def set_switches(self, switches: Mapping[str, object]) -> None:
        """Set threat-search switches by name, each checked first (:func:`check_switches`)."""
        for name, value in check_switches(switches).items():
            setattr(self, name, value)

    def _set_pruning(self, branching: Optional[int] = None) -> None:
        """Write the width (``branching`` for one search, else :attr:`width`), the reductions and the threatened
        nodes' width into the kernel's controls: at construction (for callers of the kernels) and at each search, so
        a search's ``branching`` is its own and switches set since take effect."""
        ctl = self.ctx[0]
        ctl[gs.C_WIDTH], ctl[gs.C_LMR], ctl[gs.C_THREAT_WIDTH] = branching or self.width, self.lmr, self.threat_width
        ctl[gs.C_FUTILITY], ctl[gs.C_RAZOR] = self.futility, self.razor

    def __setstate__(self, state: dict[str, object]) -> None:
        """Unpickled or deep-copied (the environments' opponents are copies): the shared read-only pattern table
        again.  A copy comes back writable, another signature for which the whole search would compile again."""
        self.__dict__.update(state)
        geo, _, weights, zobrist, memo = self.cfg
        self.cfg = (geo, pattern_table(self.game.k, self.game.exact_k), weights, zobrist, memo)

    def reset(self) -> None:
        """A new game: forget the table, the history and the killers, and empty the state, which the next
        :meth:`sync` rebuilds (moves played and taken back leave it equal but not bit for bit: the candidate list in
        another order, the float sums a rounding apart, which a search's ties and futility margins can see)."""
        self._clear_state()
        self.tt[3][:] = 0
        self.tt[2][:] = 0  # a forgotten entry's depth would still keep a shallower result of its position out
        self.ctx[2][:] = -1
        self.ctx[3][:] = 0.0
        self.ctx[6][:] = 0
        self.ctx[7][:] = 0

    def _clear_state(self) -> None:
        """The pattern state of the empty board, no move played."""
        for array, empty in zip(self.st, self._empty):
            np.copyto(array, empty)
        self._moves = []

    def sync(self, position: Position) -> None:
        """Bring the state to ``position``: play the moves it adds to the last one, else rebuild from empty."""
        moves = [int(m) for m in position.moves]
        if self._moves != moves[: len(self._moves)]:
            self._clear_state()
        for ply in range(len(self._moves), len(moves)):
            _make(self.st, self.cfg, moves[ply], ply % 2)
        self._moves = moves

    def evaluate(self, position: Position) -> float:
        """The static value of ``position`` for the side to move (own cell values, weighted by
        :data:`search.gomoku._search.INITIATIVE`, minus the opponent's)."""
        self.sync(position)
        return float(gs._evaluate(self.st, position.to_move))

    def search(self, position: Position, limit: Limit) -> SearchResult:
        """The best move of ``position`` (not over) under ``limit`` (depth, nodes, time_ms; branching: width)."""
        if limit.time_ms is not None:
            _warm_clock()
        started = time.perf_counter()
        self.sync(position)
        colour = position.to_move
        ctl = self.ctx[0]
        ctl[gs.C_NODES] = ctl[gs.C_ABORTED] = ctl[gs.C_VCF_NODES] = ctl[gs.C_THREAT_DEPTH] = ctl[gs.C_SELDEPTH] = 0
        ctl[gs.C_NODE_LIMIT] = limit.nodes or 0
        ctl[gs.C_VCF_BUDGET] = self.horizon_vcf
        ctl[gs.C_VCF_SHALLOW] = self.shallow_vcf
        ctl[gs.C_HVCT_BUDGET] = self.horizon_vct
        ctl[gs.C_SVCT_BUDGET], ctl[gs.C_SVCT_PLY] = self.shallow_vct, self.shallow_vct_ply
        ctl[gs.C_VCF_NEAR] = int(self.vcf_near)
        ctl[gs.C_VCT_BUDGET], ctl[gs.C_VCT_PLY], ctl[gs.C_VCT_NODES] = self.vct_budget, self.vct_ply, 0
        ctl[gs.C_TIME_MASK] = clock_mask(self.node_seconds)
        self._set_pruning(limit.branching)
        hard = soft = stretch = np.inf
        if limit.time_ms is not None:
            budget = limit.time_ms / 1000.0
            hard = started + budget - safety_margin(self.game, limit.time_ms, self.late)
            soft, stretch = started + self.soft_share * budget, started + self.stretch_share * budget
        self.ctx[1][0] = hard
        result = self._phases(position, limit, colour, started, soft, stretch, hard)
        if np.isfinite(hard) and self.node_seconds > 0.0:  # a first search may compile the kernels: not lateness
            self.late = lateness(time.perf_counter() - hard, self.late, budget)
        if result.nodes >= 1000:
            self.node_seconds = result.seconds / result.nodes
        return result

    def _phases(self, position: Position, limit: Limit, colour: int, started: float, soft: float, stretch: float,
                hard: float) -> SearchResult:  # fmt: skip
        """The decided root, the root VCF, then iterative deepening; each reads the deadline ``ctx[1][0]``."""
        self.root_order = ()
        decided = self._decided(colour)
        if decided is not None:
            self.root_order = (decided[0],)
            return self._result(decided[0], decided[1], 1, started, (decided[0],))
        first, plies = gs._root_vcf(self.st, self.cfg, self.ctx, colour, self.root_vcf)
        if first >= 0:
            self.ctx[0][gs.C_THREAT_DEPTH] = plies
            self.root_order = (first,)
            return self._result(first, gs.WIN - plies, 1, started, (first,))
        return self._deepen(position, limit, colour, started, soft, stretch, hard + 0.5 * (hard - started))

    def _decided(self, colour: int) -> Optional[tuple[int, float]]:
        """The move and score of a root decided without search (own five, forced block, sure win), else None."""
        counts = self.st[6][3:]
        for who, cls, score in ((colour, CLASS_FIVE, gs.WIN - 1), (1 - colour, CLASS_FIVE, 0.0),
                                (colour, CLASS_WIN, gs.WIN - 3)):  # fmt: skip
            if counts[who * N_CLASSES + cls] > 0:
                cell = gs._find(self.st, who, cls)
                if who != colour and counts[who * N_CLASSES + cls] > 1:
                    score = -(gs.WIN - 2)
                elif who != colour:
                    return None if self.st[6][M_CANDIDATES] == 0 else (cell, np.nan)
                return cell, score
        return None

    def _deepen(self, position: Position, limit: Limit, colour: int, started: float, soft: float,
                stretch: float, hard_stop: float) -> SearchResult:  # fmt: skip
        """Iterative deepening with aspiration windows; the move of the deepest finished iteration."""
        n = self.game.n_cells
        moves, order = np.zeros(n, np.int32), np.zeros(n, np.float64)
        count = gs._root_moves(self.st, self.cfg, self.ctx, colour, moves, order)
        scores = np.full(n, -np.inf)
        best_move, best_score, depth_done, pv = int(moves[0]), 0.0, 0, (int(moves[0]),)
        max_depth = min(limit.depth or MAX_DEPTH, n - position.ply, gs.MAX_PLY - 2)
        last_cost, growth, changed = 0.0, 4.0, False
        for depth in range(1, max_depth + 1):
            begun = time.perf_counter()
            if depth > 1 and (begun > (stretch if changed else soft) or begun + self.first_share * last_cost * growth > hard_stop):
                break
            score, index, done = self._iteration(depth, best_score, colour, moves, scores, count)
            if done == 0 or (self.ctx[0][gs.C_ABORTED] and index != 0 and scores[index] <= scores[0]):
                break
            changed = int(moves[index]) != best_move and depth > 1
            best_move, best_score, depth_done = int(moves[index]), float(score), depth
            cost = time.perf_counter() - begun
            growth = min(max(cost / last_cost, 1.5), 6.0) if last_cost > 1e-4 else 4.0
            last_cost = cost
            pv = (best_move,)
            if self.ctx[0][gs.C_ABORTED]:
                break
            _reorder(moves, scores, index, count)
            if abs(best_score) > gs.WIN - 1000:
                break
        self.root_order = (best_move, *(int(m) for m in moves[:count] if m != best_move))
        return self._result(best_move, best_score, max(depth_done, 1), started, pv)

    def _iteration(self, depth: int, guess: float, colour: int, moves: np.ndarray, scores: np.ndarray,
                   count: int) -> tuple[float, int, int]:  # fmt: skip
        """One root iteration, inside an aspiration window around ``guess`` from depth 3 on (widened on failure)."""
        width = self.aspiration if depth >= 3 and abs(guess) < gs.WIN - 1000 else np.inf
        while True:
            alpha, beta = guess - width, guess + width
            score, index, done = gs._root(self.st, self.cfg, self.tt, self.ctx, depth, alpha, beta, colour, moves,
                                          scores, count)  # fmt: skip
            if self.ctx[0][gs.C_ABORTED] or alpha < score < beta or np.isinf(width):
                return score, index, done
            width = width * 4 if width < 1000 else np.inf

    def _result(self, move: int, score: float, depth: int, started: float, pv: tuple[int, ...]) -> SearchResult:
        ctl = self.ctx[0]
        return SearchResult(move, 0.0 if np.isnan(score) else float(score), depth, int(ctl[gs.C_NODES]),
                            time.perf_counter() - started, pv, threat_depth=int(ctl[gs.C_THREAT_DEPTH]),
                            threat_nodes=int(ctl[gs.C_VCF_NODES]), selective_depth=int(ctl[gs.C_SELDEPTH]))  # fmt: skip


def check_switches(switches: Mapping[str, object]) -> dict[str, int]:
    """Engine switches by name (:data:`SWITCH_NAMES`) as ints: budgets and widths from 0 (off, or all) to 2**63 - 1,
    plies from 0 to the deepest ply searched, ``lmr`` from 0 to :data:`LMR_MAX`, ``futility`` and ``razor`` from 0
    to :data:`FUTILITY_MAX`.

    Raises:
        SearchError: an unknown name (the message lists the switches).
        ValueError: a value that is not an integer in its range (the message names it).
    """
    unknown = sorted(set(switches) - set(SWITCH_NAMES))
    if unknown:
        raise SearchError(f"unknown gomoku engine switch(es) {', '.join(map(repr, unknown))}: "
                          f"the switches are {', '.join(SWITCH_NAMES)}")  # fmt: skip
    highs = {name: gs.MAX_PLY if name.endswith("_ply") else INT64_MAX for name in SWITCH_NAMES}
    highs |= {"lmr": LMR_MAX, "futility": FUTILITY_MAX, "razor": FUTILITY_MAX}
    return {name: check_int(name, value, low=0, high=highs[name]) for name, value in switches.items()}


def _named_weights(weights: Optional[Mapping[str, float]]) -> dict[str, float]:
    """The ``gomoku`` weights, the missing ones from :data:`ENGINE_WEIGHTS`, in kernel order.

    Raises:
        WeightError: an unknown name or a value that is not a finite number (the message names it).
    """
    given = dict(weights or {})
    unknown = sorted(set(given) - set(GOMOKU_SPEC.weight_names))
    if unknown:
        raise WeightError(f"unknown gomoku weight(s) {', '.join(map(repr, unknown))}: "
                          f"the names are {', '.join(GOMOKU_SPEC.weight_names)}")  # fmt: skip
    named = {**ENGINE_WEIGHTS, **given}
    for name, value in named.items():
        if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
                or not np.isfinite(value):  # fmt: skip
            raise WeightError(f"gomoku weight {name}={value!r} is not a finite number")
    return {name: float(named[name]) for name in GOMOKU_SPEC.weight_names}


def _reorder(moves: np.ndarray, scores: np.ndarray, best: int, count: int) -> None:
    """The next iteration's root order: the best move first, the rest by this iteration's values (stable)."""
    order = sorted(range(count), key=lambda i: (i != best, -scores[i]))
    moves[:count] = moves[order]
    scores[:count] = scores[order]
