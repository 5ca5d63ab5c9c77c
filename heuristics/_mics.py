"""MICS: per-cell sliding-window values with strict threat tiers (Huang and Spadaccini, Bologna m,n,k project).

What the project report says (sections "L'Euristica",
"MICS - Minimum Incomplete Cell Set", "Calcolo del MICS con le sliding window",
"Rilevamento dei doppio-giochi e fine-giochi", "Punteggi per configurazioni di
doppio-gioco e fine-gioco", "Punteggi per allineamento e vicinanza",
"Ordinamento delle mosse"): one heuristic both orders moves and values the
board.  For every empty cell, each of the 4 directions and both players, a
sliding window of length ``k`` is moved through the cell, stopping at the
edge, at an opponent stone, or ``k - 1`` cells away, and four numbers are
kept:

1. ``friendly``: own stones within reach (both sides, up to ``k - 1`` cells,
   stopping at the edge or an opponent stone);
2. ``windows``: the k-windows through the cell free of opponent stones;
3. ``min_missing``: the fewest cells still to fill to win among those windows
   (the cell itself counts as missing: it is empty);
4. ``n_best``: how many windows reach that minimum.

A cell's value for a player is tiered, so that no way of computing the MICS
part can outscore a double threat, nor a double threat a finishing cell:

1. finishing cell ("fine-gioco"): some window through it lacks 1 stone;
2. trivial double threat ("doppio-gioco banale"): two or more windows lacking
   2 stones, so that playing here leaves two one-away windows;
3. otherwise the MICS value plus alignment (``MY_CELL_MULT``) and adjacency
   (``ADIACENT_MULT``) scores.

The cell's ordering value is "own value plus opponent value" (favourable for
me + favourable for the opponent = how critical the cell is); the board value
is "sum of own cell values minus sum of opponent cell values".

Numbers.  The report gives no numbers; it points at the constants of the
authors' code (``DirectionValue.MY_CELL_MULT``, ``HeuristicCell.ADIACENT_MULT``).
The defaults below are those constants as published in the authors' repository
(``MarkcelloPlayer/BigBoard``): ``MY_CELL_MULT = 10``, ``ADIACENT_MULT = 5``,
``DOUBLEPLAY_VAL = 10000``, ``WIN_VAL = 1000000``, a direction value of
``numSliding + numMyCells * MY_CELL_MULT``, and the side to move's own value
doubled when it is a double threat or a win.

Decisions where the report is vague (each one a weight where it could matter):

- MICS value of a direction (tier 3): ``window_mult * windows + my_cell_mult *
  friendly + mics_mult * n_best * mics_base ** (k - min_missing)``.  The
  authors' code uses only the first two terms (``mics_mult = 0``); the report
  names the minimum and its count as the heart of MICS, so the third term adds
  them (growing geometrically with the stones already in the best window);
  default ``mics_mult = 1``, ``mics_base = 2``, small beside the alignment term
  so that play stays close to the authors'.  A direction with no window is
  worth 0 (its friendly count is dropped too, as in the authors' code).
  A player's tier-3 value is the sum over the 4 directions.
- Trivial double threat: (a) two directions each with a window lacking 2
  stones (these always leave two distinct completion cells), or (b) in one
  direction, two windows lacking 2 stones whose other missing cells differ
  (an open three).  The authors' in-line rule also counted ``O O . . O``-like
  pairs whose remaining cell is the same one; that is one threat, not two, so
  it is left out here (the report's own justification needs two cells).
- Finishing beats everything, also with several of them; within tier 1 and
  tier 2 the ordering value still adds the other player's value.
- Strict tiers for any weights in the tuning bounds, enforced in the kernel:
  ``T1 = tier_finish``, ``T2 = min(tier_double, T1 / 8)``, every tier-3 value
  (per player, and the adjacency bonus) is clamped to ``cap = T2 / 4``.  Then an
  ordinary cell scores at most ``3 cap < T2``; a double-threat cell scores at
  least ``T2`` and at most ``4 T2 + T2 + cap < T1``; a finishing cell at least
  ``T1``.  So in ``_order`` finishing > double threat > ordinary always.
- Ordering value (``_order``): ``(1 + own_threat_bonus) * V_me + V_opp +
  min(adjacent_mult * adjacent_stones, cap)`` when the mover's own value is a
  tier-1 or tier-2 value, ``V_me + V_opp + adjacency`` otherwise (the authors'
  side-to-move doubling: winning beats blocking, own fork beats blocking a
  fork).  ``adjacent_stones`` counts stones of either colour among the 8
  neighbours, as the authors' ``addAdjiacentCells`` does.
- Board value (``_evaluate``): the report's ``sumAllyHeuristic -
  sumEnemyHeuristic`` = sum over empty cells of ``V_me - V_opp``.  It has no
  side-to-move term: the authors' doubling lives in ``_order`` only (the
  contract forbids a side-to-move bonus; colour antisymmetry then holds
  exactly).  Adjacency is colour-blind, so it cancels and is left out.
- Gravity (Connect-4; the report only plays m,n,k): every empty cell, playable
  or not, is an empty cell of the windows.  In ``_evaluate`` a non-playable
  empty cell's ``V_me - V_opp`` is multiplied by ``unplayable_mult`` (default
  0.5: a threat above the stack is real but not yet playable); ``_order``
  scores only playable cells (its precondition).  Without gravity every empty
  cell is playable and the weight has no effect.
- Complexity: the report updates values incrementally in O(k^2) per move; the
  kernels here compute them from scratch per call, and the array search keeps
  them incrementally (:mod:`heuristics._incremental`).  One cell for one player and one
  direction is O(k) (one pass with a sliding count), so ``_order`` is O(k) per
  cell (8 directions x players, plus 8 neighbours) and ``_evaluate`` is
  O(rows * cols * k).

Sizes: every k-in-a-row board the game core allows (up to 26x26, any k, with
or without gravity); nothing is refused.
"""

# mypy: disable-error-code="no-any-return"

from __future__ import annotations

import math
from typing import Mapping, Optional

import numpy as np
from numba import njit

from games import KInARow
from games._board import _playable
from games._jit import JIT, JIT_INLINE
from heuristics.spec import HeuristicSpec, WeightSpec, power_or_inf

# Weight indices, in SPEC.weights order (plain ints: numba freezes them at compile time, and they never change).
_TIER_FINISH = 0
_TIER_DOUBLE = 1
_WINDOW_MULT = 2
_MY_CELL_MULT = 3
_MICS_MULT = 4
_MICS_BASE = 5
_ADJACENT_MULT = 6
_OWN_THREAT_BONUS = 7
_UNPLAYABLE_MULT = 8


@njit(**JIT)
def _direction(board: np.ndarray, rows: int, cols: int, k: int, cell: int, player: int, dr: int, dc: int) -> tuple[int, int, int, int, bool]:
    """The report's four direction values, plus an in-line double flag, of ``player`` at empty ``cell`` along ±(dr, dc).

    board : int8[rows * cols]; ``board[cell]`` must be 0.
    Returns ``(friendly, windows, min_missing, n_best, inline_double)``;
    ``(0, 0, k + 1, 0, False)`` when no window through the cell is free of the opponent.
    """
    assert board[cell] == 0
    opponent = 3 - player
    r0, c0 = cell // cols, cell % cols
    friendly = 0
    # Reach behind (back) and ahead (ahead): at most k - 1 cells, stopping at the edge or an opponent stone.
    back = 0
    r, c = r0 - dr, c0 - dc
    while back < k - 1 and 0 <= r < rows and 0 <= c < cols and board[r * cols + c] != opponent:
        friendly += board[r * cols + c] == player
        back += 1
        r -= dr
        c -= dc
    ahead = 0
    r, c = r0 + dr, c0 + dc
    while ahead < k - 1 and 0 <= r < rows and 0 <= c < cols and board[r * cols + c] != opponent:
        friendly += board[r * cols + c] == player
        ahead += 1
        r += dr
        c += dc
    # Windows are offsets [s, s + k - 1] with -back <= s and s + k - 1 <= ahead (and s <= 0: they hold the cell).
    first, last = -back, min(0, ahead - k + 1)
    if last < first:
        return 0, 0, k + 1, 0, False
    # Sliding counts over the window: own stones, and empty cells other than the cell itself
    # (their number and the sum of their offsets: when exactly one is empty, the sum is its offset).
    own = 0
    n_empty = 0
    empty_sum = 0
    for t in range(first, first + k):
        v = board[(r0 + t * dr) * cols + c0 + t * dc]
        if v == player:
            own += 1
        elif t != 0:
            n_empty += 1
            empty_sum += t
    best = k + 1
    n_best = 0
    completion = k  # offset of the other missing cell of the first window lacking 2 (k: none yet)
    inline_double = False
    for s in range(first, last + 1):
        missing = k - own
        if missing < best:
            best, n_best = missing, 1
        elif missing == best:
            n_best += 1
        if missing == 2:
            assert n_empty == 1
            if completion == k:
                completion = empty_sum
            elif empty_sum != completion:
                inline_double = True
        if s < last:  # slide: drop offset s, add offset s + k
            v = board[(r0 + s * dr) * cols + c0 + s * dc]
            if v == player:
                own -= 1
            elif s != 0:
                n_empty -= 1
                empty_sum -= s
            t = s + k
            v = board[(r0 + t * dr) * cols + c0 + t * dc]
            if v == player:
                own += 1
            elif t != 0:
                n_empty += 1
                empty_sum += t
    return friendly, last - first + 1, best, n_best, inline_double


@njit(**JIT)
def _player_cell(board: np.ndarray, rows: int, cols: int, k: int, cell: int, player: int, weights: np.ndarray) -> tuple[int, float]:
    """``(tier, raw)`` of ``player`` at empty ``cell``: tier 1 finishing, 2 trivial double, 3 ordinary.

    raw : the unclamped tier-3 MICS value (sum over the 4 directions), >= 0.
    weights : float64[9], SPEC.weights order.
    """
    finish = False
    double = False
    n_two = 0
    raw = 0.0
    for d in range(4):
        dr = 0 if d == 0 else 1
        dc = 1 if d == 0 else (0 if d == 1 else (1 if d == 2 else -1))
        friendly, n_windows, best, n_best, inline_double = _direction(board, rows, cols, k, cell, player, dr, dc)
        if n_windows == 0:
            continue
        if best == 1:
            finish = True
        if best == 2:
            n_two += 1
        if inline_double:
            double = True
        raw += weights[_WINDOW_MULT] * n_windows + weights[_MY_CELL_MULT] * friendly
        raw += weights[_MICS_MULT] * n_best * weights[_MICS_BASE] ** (k - best)
    if finish:
        return 1, raw
    if double or n_two >= 2:
        return 2, raw
    return 3, raw


@njit(**JIT)
def _tiers(weights: np.ndarray) -> tuple[float, float, float]:
    """``(T1, T2, cap)``: finishing value, double-threat value, tier-3 ceiling, with 8 T2 <= T1 and cap = T2 / 4.

    weights : float64[9], SPEC.weights order; the tiers stay strict for any positive tier weights.
    """
    t1 = weights[_TIER_FINISH]
    t2 = min(weights[_TIER_DOUBLE], t1 / 8.0)
    return t1, t2, t2 / 4.0


@njit(**JIT)
def _tier_value(tier: int, raw: float, t1: float, t2: float, cap: float) -> float:
    """A player's clamped cell value from its tier and raw MICS value."""
    if tier == 1:
        return t1
    if tier == 2:
        return t2
    return min(raw, cap)


@njit(**JIT)
def _evaluate(board, heights, rows, cols, k, gravity, me, weights, windows):  # type: ignore[no-untyped-def]
    """Sum over empty cells of (own cell value - opponent cell value), non-playable cells scaled.

    board : int8[rows * cols]; heights : int32[cols]; weights : float64[9] (SPEC.weights order);
    windows : unused (the kernel walks lines itself). O(rows * cols * k).
    """
    assert me == 1 or me == 2
    # The sum is taken over integer totals (_add_class), not cell by cell: the
    # incremental search state keeps the same totals, so both values are equal
    # bit for bit whatever the order of moves (heuristics._incremental).
    t1, t2, cap = _tiers(weights)
    stats = np.zeros((4, 5), dtype=np.int64)
    powers = _powers(k, weights)
    playable = np.zeros(_N_TOTALS + k, dtype=np.int64)
    unplayable = np.zeros(_N_TOTALS + k, dtype=np.int64)
    for cell in range(rows * cols):
        if board[cell] != 0:
            continue
        totals = playable if _playable(board, heights, rows, cols, gravity, cell) else unplayable
        for player in (1, 2):
            for d in range(4):
                _fill_direction(board, rows, cols, k, cell, player, d, stats[d])
            tier, raw = _combine(stats, k, weights, powers)
            _add_class(totals, 1 if player == 1 else -1, stats, _class_of(tier, raw, cap))
    total = _totals_value(playable, k, weights)
    if gravity:
        total += weights[_UNPLAYABLE_MULT] * _totals_value(unplayable, k, weights)
    return total if me == 1 else -total


# Integer totals over empty cells, stone 1's minus stone 2's (int64[_N_TOTALS + k]): cells in tier 1, in tier 2,
# tier-3 cells clamped to the cap, then over the unclamped tier-3 cells the sums of windows and of friendly
# stones, and from _N_TOTALS + best - 1 the sum of n_best per direction by its minimum missing count (1..k).
_T_FINISH, _T_DOUBLE, _T_CAPPED, _T_WINDOWS, _T_FRIENDLY = 0, 1, 2, 3, 4
_N_TOTALS = 5


@njit(**JIT)
def _fill_direction(board: np.ndarray, rows: int, cols: int, k: int, cell: int, player: int, d: int,
                    out: np.ndarray) -> None:  # fmt: skip
    """Write ``_direction``'s five values for direction ``d`` (0..3) into ``out`` (int64[5])."""
    dr = 0 if d == 0 else 1
    dc = 1 if d == 0 else (0 if d == 1 else (1 if d == 2 else -1))
    friendly, n_windows, best, n_best, inline_double = _direction(board, rows, cols, k, cell, player, dr, dc)
    out[0], out[1], out[2], out[3], out[4] = friendly, n_windows, best, n_best, int(inline_double)


@njit(**JIT)
def _powers(k: int, weights: np.ndarray) -> np.ndarray:
    """float64[k + 2]: entry ``best`` (1..k) is ``_player_cell``'s ``mics_base ** (k - best)``, the same expression."""
    powers = np.zeros(k + 2, dtype=np.float64)
    for best in range(1, k + 1):
        powers[best] = weights[_MICS_BASE] ** (k - best)
    return powers


@njit(**JIT_INLINE)  # takes arrays: see games._jit.JIT_INLINE
def _combine(stats: np.ndarray, k: int, weights: np.ndarray, powers: np.ndarray) -> tuple[int, float]:
    """``_player_cell`` from the four directions' values: the same tier and the same float ``raw``, bit for bit.

    stats : int64[4, 5], rows ``_fill_direction`` wrote (same operations in the same order as ``_player_cell``);
    powers : float64[k + 2] from ``_powers``.
    """
    finish = False
    double = False
    n_two = 0
    raw = 0.0
    for d in range(4):
        friendly, n_windows, best, n_best = stats[d, 0], stats[d, 1], stats[d, 2], stats[d, 3]
        if n_windows == 0:
            continue
        if best == 1:
            finish = True
        if best == 2:
            n_two += 1
        if stats[d, 4] != 0:
            double = True
        raw += weights[_WINDOW_MULT] * n_windows + weights[_MY_CELL_MULT] * friendly
        raw += weights[_MICS_MULT] * n_best * powers[best]
    if finish:
        return 1, raw
    if double or n_two >= 2:
        return 2, raw
    return 3, raw


@njit(**JIT_INLINE)  # scalars, but called instead, mics' searches lost a tenth of their nodes/s (bench_mnk)
def _class_of(tier: int, raw: float, cap: float) -> int:
    """How a player's cell value enters the totals: 1 finishing, 2 double threat, 3 clamped to the cap, 4 linear."""
    if tier <= 2:
        return tier
    return 3 if raw > cap else 4


@njit(**JIT_INLINE)  # takes arrays: see games._jit.JIT_INLINE
def _add_class(totals: np.ndarray, sign: int, stats: np.ndarray, klass: int) -> None:
    """Add (sign 1) or take away (sign -1) one player's cell value from the integer totals (see _N_TOTALS).

    totals : int64[_N_TOTALS + k]; stats : int64[4, 5]; klass : ``_class_of`` the cell's ``_combine(stats)``.
    """
    if klass == 1:
        totals[_T_FINISH] += sign
    elif klass == 2:
        totals[_T_DOUBLE] += sign
    elif klass == 3:
        totals[_T_CAPPED] += sign
    else:
        for d in range(4):
            if stats[d, 1] == 0:
                continue
            totals[_T_WINDOWS] += sign * stats[d, 1]
            totals[_T_FRIENDLY] += sign * stats[d, 0]
            totals[_N_TOTALS + stats[d, 2] - 1] += sign * stats[d, 3]


@njit(**JIT)
def _totals_value(totals: np.ndarray, k: int, weights: np.ndarray) -> float:
    """Stone 1's value minus stone 2's from the integer totals: O(k), in one fixed order of float operations."""
    t1, t2, cap = _tiers(weights)
    total = t1 * totals[_T_FINISH] + t2 * totals[_T_DOUBLE] + cap * totals[_T_CAPPED]
    total += weights[_WINDOW_MULT] * totals[_T_WINDOWS] + weights[_MY_CELL_MULT] * totals[_T_FRIENDLY]
    for best in range(1, k + 1):
        n = totals[_N_TOTALS + best - 1]
        if n != 0:
            total += weights[_MICS_MULT] * n * weights[_MICS_BASE] ** (k - best)
    return total


@njit(**JIT)
def _order(board, heights, rows, cols, k, gravity, me, weights, windows, cell):  # type: ignore[no-untyped-def]
    """Own value (boosted when a win or a double threat) + opponent value (blocking) + adjacency at ``cell``.

    board : int8[rows * cols]; heights : int32[cols]; weights : float64[9] (SPEC.weights order);
    windows : unused; cell : empty and playable. O(k).
    """
    assert me == 1 or me == 2
    assert board[cell] == 0
    tier_me, raw_me = _player_cell(board, rows, cols, k, cell, me, weights)
    tier_op, raw_op = _player_cell(board, rows, cols, k, cell, 3 - me, weights)
    return _order_value(board, rows, cols, cell, weights, tier_me, raw_me, tier_op, raw_op)


@njit(**JIT_INLINE)  # takes arrays: see games._jit.JIT_INLINE
def _order_value(board, rows, cols, cell, weights, tier_me, raw_me, tier_op, raw_op):  # type: ignore[no-untyped-def]
    """The ordering score from both players' ``(tier, raw)`` at empty ``cell``: own (boosted) + opponent's + adjacency."""
    t1, t2, cap = _tiers(weights)
    own = _tier_value(tier_me, raw_me, t1, t2, cap)
    if tier_me <= 2:
        own *= 1.0 + weights[_OWN_THREAT_BONUS]
    r0, c0 = cell // cols, cell % cols
    adjacent = 0
    for r in range(max(0, r0 - 1), min(rows, r0 + 2)):
        for c in range(max(0, c0 - 1), min(cols, c0 + 2)):
            adjacent += board[r * cols + c] != 0
    return own + _tier_value(tier_op, raw_op, t1, t2, cap) + min(weights[_ADJACENT_MULT] * adjacent, cap)


def _refuse(game: KInARow) -> Optional[str]:
    """MICS is defined on every k-in-a-row board: refuses nothing."""
    return None


def _max_abs(game: KInARow, w: Mapping[str, float]) -> float:
    """The ``bound`` of SPEC (heuristics.bounds): ``|evaluate|`` never exceeds it on ``game``'s board."""
    k = game.k
    # The raw tier-3 value of a cell, per player: 4 directions x (<= k windows, <= 2(k - 1) friendly stones,
    # <= k best windows x mics_base ** (<= k)).  The kernel clamps it from above only (to tier_double / 32),
    # so it bounds the value when a weight is negative, and it must not overflow either way (inf * 0 is nan).
    terms = ("window_mult", "my_cell_mult", "mics_mult", "mics_base")
    raw = 4 * (abs(w["window_mult"]) * k + abs(w["my_cell_mult"]) * 2 * (k - 1)
               + abs(w["mics_mult"]) * k * power_or_inf(max(1.0, abs(w["mics_base"])), k))  # fmt: skip
    if not raw < 1e300:
        return math.inf
    cell = max(abs(w["tier_finish"]), abs(w["tier_double"]), raw if any(w[t] < 0 for t in terms) else 0.0)
    return game.n_cells * 2 * cell * max(1.0, abs(w["unplayable_mult"]))  # own minus opponent, per empty cell


SPEC = HeuristicSpec(
    name="mics",
    summary="MICS sliding-window cell values with finishing / double-threat / ordinary tiers (Bologna m,n,k player)",
    source="Huang, Spadaccini, University of Bologna m,n,k project 2021/22, sections 'MICS - Minimum Incomplete Cell Set', "
    "'Calcolo del MICS con le sliding window', 'Rilevamento dei doppio-giochi e fine-giochi', "
    "'Punteggi per configurazioni di doppio-gioco e fine-gioco', 'Punteggi per allineamento e vicinanza', "
    "'Ordinamento delle mosse'",
    weights=(
        WeightSpec("tier_finish", 1_000_000.0, 1e4, 1e8, log=True,
                   doc="value of a finishing cell (a window lacks 1 stone); authors' WIN_VAL"),
        WeightSpec("tier_double", 10_000.0, 1e2, 1e6, log=True,
                   doc="value of a trivial double-threat cell, capped at tier_finish / 8; authors' DOUBLEPLAY_VAL"),
        WeightSpec("window_mult", 1.0, 0.0, 20.0,
                   doc="per k-window through the cell free of opponent stones, per direction (authors' numSliding)"),
        WeightSpec("my_cell_mult", 10.0, 0.0, 50.0,
                   doc="per own stone within reach (k - 1 cells, up to an opponent stone) per direction; MY_CELL_MULT"),
        WeightSpec("mics_mult", 1.0, 0.0, 50.0,
                   doc="per window reaching the minimum missing count, times mics_base ** stones in it (MICS term)"),
        WeightSpec("mics_base", 2.0, 1.0, 4.0,
                   doc="growth of the MICS term per stone in the best window (1: just count the best windows)"),
        WeightSpec("adjacent_mult", 5.0, 0.0, 50.0,
                   doc="ordering only: per stone of either colour among the 8 neighbours; ADIACENT_MULT"),
        WeightSpec("own_threat_bonus", 1.0, 0.0, 3.0,
                   doc="ordering only: the mover's own finishing/double value counts (1 + this) times (authors: x2)"),
        WeightSpec("unplayable_mult", 0.5, 0.0, 1.0,
                   doc="gravity only: scale of an empty cell that cannot be played yet in the board value"),
    ),
    refuse=_refuse,
    bound=_max_abs,
)
