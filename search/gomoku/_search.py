"""The gomoku engine's search kernel: PVS with a table, aspiration, LMR, forced replies and a VCF quiescence.

Free boards (no gravity) with k >= 4, freestyle or exact-k, over the incremental pattern state of
:mod:`heuristics._gomoku_state`.  What it follows (described, not copied):

* Allis (1994), *Searching for Solutions in Games and Artificial Intelligence*, ch. 5: threat-space
  search.  A *four* (a move after which one cell wins) has exactly one reply; a sequence of fours that
  ends in a five or an open four is a VCF (victory by continuous fours), searched here at the horizon
  (:func:`_vcf`), then a VCT (fours and open threes, :func:`_vct`; also near the root); against an *open three* the defender must block it or play a four of its own, so at an
  interior node where the opponent can make an open four next move only those moves are searched.
* The pattern evaluation and move ordering of Gomocup engines (Rapfi, Embryo, Yixin as their authors
  describe them): the value of a cell is the sum of its line patterns' weights plus a bonus for its
  combination (four-three, double three, double four), the position is the sum over empty cells.
* The usual alpha-beta refinements (Marsland 1986; Heinz 1999): principal variation search with
  null-window tests, late-move reductions re-searched at full depth when they fail high, killer moves
  and a history table, a transposition table with depth-preferred replacement; near the horizon, reverse futility
  pruning and razoring to the VCF (as Rapfi has them), only where the opponent threatens nothing.

Bound contract: :func:`_negamax` is fail-soft on the window ``(alpha, beta)``; scores are from the side
to move, ``WIN - plies`` for a win found ``plies`` from the root (``search.protocol``), heuristic
values are rounded to integers (so a null window ``(alpha, alpha + 1)`` is exact).  A position where
the side to move has a five-cell is a win at once; one where the opponent has two is a loss; one where
the opponent has one is answered there without spending depth (the forced reply is an extension).

Recursive calls pass exactly the types of the outer call (``np.int64(1)``, not ``1``; :data:`VCF_LIMIT`): numba
would type a literal or an int32 argument as another signature, compile the recursion again, and a process loading
such a kernel from numba's cache crashes (a numba bug with a cast in a recursive call), which once kept these
kernels out of the cache.  ``tests/test_jit_options.py`` loads them from the cache in a new process.  The other
calls follow the same rule, for compile time: every argument is an int64 (cells read from the int32 move lists are
cast, counters start at ``np.int64(0)``: a literal start is typed ``Literal[int](0)`` on numba's first pass over a
loop), since each extra signature compiles the callee and everything it calls once more on a cold cache.

Arrays: ``st``/``cfg`` are the state of :mod:`heuristics._gomoku_state`; ``tt`` is
``(keys int64[S], scores float64[S], depths int32[S], flags int8[S], moves int32[S])`` with S a power
of two; ``ctx`` is ``(ctl int64[C_SIZE], deadline float64[1], killers int32[2 * MAX_PLY],
history float64[2 n], moves int32[MAX_PLY * n], order float64[MAX_PLY * n], vcf_seen int64[2**16],
vcf_plies int16[2**16], path int32[MAX_PLY])`` (``vcf_seen``: salted hashes of positions whose VCF or VCT search
ran, so the next iteration does not search them again; ``vcf_plies`` beside it: the length of the horizon VCF found
there, 0 for none; ``path``: the move played at each ply of the current line).
"""

# Kernels return elements of untyped NumPy arrays, which mypy reads as Any; numba types them itself.
# mypy: disable-error-code="no-any-return"
from __future__ import annotations

import numpy as np
from numba import njit

from games._jit import JIT
from heuristics._gomoku_lines import OPEN_THREE
from heuristics._gomoku_state import (
    CLASS_DOUBLE_THREE,
    CLASS_FIVE,
    CLASS_FOUR,
    CLASS_FOUR_THREE,
    CLASS_OPEN_THREE,
    CLASS_WIN,
    G_COLS,
    G_EXACT,
    G_HALF,
    G_K,
    G_ROWS,
    M_CANDIDATES,
    M_COUNTS,
    M_HASH,
    M_STONES,
    N_CLASSES,
    _make,
    _unmake,  # fmt: skip
)
from search._clock import _now
from search.gomoku._tss import _threat_search

WIN = 1e15
MAX_PLY = 128
VCF_LIMIT = np.int64(2 * MAX_PLY)
"""Longest VCF line searched, in plies (an int64: see the module docstring on the types of recursive calls)."""
EXACT, LOWER, UPPER = 1, 2, 3
(C_NODES, C_ABORTED, C_TIME_MASK, C_NODE_LIMIT, C_VCF_NODES, C_VCF_BUDGET, C_THREAT_DEPTH, C_WIDTH, C_LMR,
 C_PVS, C_USE_TT, C_SELDEPTH, C_VCF_CALL_NODES, C_VCF_SHALLOW, C_VCT_BUDGET, C_VCT_PLY,
 C_VCT_NODES, C_VCF_NEAR, C_HVCT_BUDGET, C_HVCT_CALL_NODES, C_SVCT_BUDGET, C_SVCT_PLY, C_THREAT_WIDTH,
 C_FUTILITY, C_RAZOR) = range(25)  # fmt: skip
C_SIZE = 25
VCT_PLIES = 11
"""Longest opponent VCT the in-tree check looks for (:func:`_vct_win`), in plies."""
HORIZON_VCT_PLIES = np.int64(11)
"""Longest VCT line the horizon's own VCT (:func:`_vct`) searches, in plies (an int64, as :data:`VCF_LIMIT`)."""
_BIG = 1e12
INITIATIVE = 1.5
"""Weight of the side to move's own cell values against the opponent's in the engine's static value (1 would be
the ``gomoku`` evaluator's symmetric sum).  The side to move plays its threats first (its open three becomes an
open four before the opponent's can, and the opponent must answer it), so its own patterns are worth more; MICS,
the Bologna evaluator, doubles the side to move's double threats for the same reason.  Against MICS from balanced
openings (15,15,5 and exact-k, 12 games), at depth 5 for both the engine scored 8 points with 1, 11 with 1.5 and
12 with 2; at depth 4 against MICS's 6, 11 with 2 and 7 with 3.  At 1 s a move against the recommended agent
(18 games on three boards) 1.5 scored 9 points and 2 scored 4: 1.5 is kept."""
LOST = WIN - 1000.0
"""Scores beyond this are proved results (wins or losses), not evaluations."""
FUTILITY_DEPTH = 3
"""Deepest remaining depth at which futility pruning (``ctl[C_FUTILITY]``) and razoring (``ctl[C_RAZOR]``) may cut
a node."""


@njit(**JIT)
def _count(st, colour: int, cls: int) -> int:  # type: ignore[no-untyped-def]
    """Empty cells where ``colour`` would make a pattern of class ``cls``."""
    return st[6][M_COUNTS + colour * N_CLASSES + cls]


@njit(**JIT)
def _find(st, colour: int, cls: int) -> int:  # type: ignore[no-untyped-def]
    """A listed cell where ``colour`` makes class ``cls`` (fives and open fours are always listed), or -1."""
    cells, n = st[5], st[0].shape[0]
    for i in range(st[6][M_CANDIDATES]):
        cell = cells[n + i]
        if st[3][colour * n + cell] == cls:
            return cell
    return -1


@njit(**JIT)
def _five_after(st, cfg, cell: int, colour: int) -> int:  # type: ignore[no-untyped-def]
    """The cell where ``colour`` completes the four it just made on ``cell`` (on a line through it), or -1."""
    geo = cfg[0]
    rows, cols, half = geo[G_ROWS], geo[G_COLS], geo[G_HALF]
    n = rows * cols
    row, col = cell // cols, cell % cols
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for j in range(-half, half + 1):
            r, c = row + j * dr, col + j * dc
            if 0 <= r < rows and 0 <= c < cols and st[0][r * cols + c] == 0 and st[3][colour * n + r * cols + c] == CLASS_FIVE:
                return r * cols + c
    return -1


@njit(**JIT)
def _evaluate(st, colour: int) -> float:  # type: ignore[no-untyped-def]
    """Static value for the side to move: :data:`INITIATIVE` times its own cell values minus
    the opponent's, rounded to an integer."""
    return float(np.floor(INITIATIVE * st[7][colour] - st[7][1 - colour] + 0.5))


@njit(**JIT)
def _tick(ctx) -> bool:  # type: ignore[no-untyped-def]
    """Count a node; True once a budget is spent (the clock is read every ``time_mask + 1`` nodes).  A node entered
    after the search stopped is not counted: it returns at once (a parent's re-search may still call it)."""
    ctl = ctx[0]
    if ctl[C_ABORTED]:
        return True
    ctl[C_NODES] += 1
    if ctl[C_NODE_LIMIT] and ctl[C_NODES] >= ctl[C_NODE_LIMIT]:
        ctl[C_ABORTED] = 1
    elif ctl[C_NODES] & ctl[C_TIME_MASK] == 0 and _now() >= ctx[1][0]:
        ctl[C_ABORTED] = 1
    return ctl[C_ABORTED] == 1


@njit(**JIT)
def _four_cells(st, colour):  # type: ignore[no-untyped-def]
    """The candidate cells where ``colour`` makes a four (or a four-three), and how many there are (int64 cells,
    as the callers pass them on)."""
    n = st[0].shape[0]
    cells, listed = st[5], st[6][M_CANDIDATES]
    fours = np.empty(listed, dtype=np.int64)
    count = 0
    for i in range(listed):
        cell = cells[n + i]
        c = st[3][colour * n + cell]
        if c == CLASS_FOUR or c == CLASS_FOUR_THREE:
            fours[count] = cell
            count += 1
    return fours, count


@njit(**JIT)
def _near(cell: int, other: int, cols: int, reach: int) -> bool:
    """True if ``cell`` lies on one of the four lines through ``other`` within ``reach``."""
    for d in range(4):
        if _on_line(cell, other, cols, reach, d):
            return True
    return False


@njit(**JIT)
def _vcf(st, cfg, ctx, colour: int, plies: int, limit: int, near: int) -> int:  # type: ignore[no-untyped-def]
    """Plies to a win by continuous fours for ``colour`` (to move), or -1 (none found in the budget).

    Precondition: neither side has a five-cell and ``colour`` has no sure win (callers check).  Each four
    leaves the defender one reply, its completing cell; a reply that makes a four of the defender's own
    ends the line (conservative: a VCF found is sound, some are missed).  ``near`` >= 0 restricts the fours
    to those on a line through that cell within ``H``, and each next four to the lines of the four before
    it (the horizon's relevance-restricted VCF, :func:`_quiesce`); -1 tries every four.
    """
    ctl = ctx[0]
    other = 1 - colour
    if plies >= limit or ctl[C_VCF_CALL_NODES] <= 0:
        return -1
    fours, count = _four_cells(st, colour)
    cols, half = cfg[0][G_COLS], cfg[0][G_HALF]
    for i in range(count):
        cell = fours[i]
        if st[0][cell] != 0 or ctl[C_VCF_CALL_NODES] <= 0:
            continue
        if near >= 0 and not _near(cell, near, cols, half):
            continue
        ctl[C_VCF_CALL_NODES] -= 1
        ctl[C_VCF_NODES] += 1
        if ctl[C_VCF_NODES] & ctl[C_TIME_MASK] == 0 and _now() >= ctx[1][0]:
            ctl[C_ABORTED] = 1
        if ctl[C_ABORTED]:
            return -1
        _make(st, cfg, cell, colour)
        reply = _five_after(st, cfg, cell, colour)
        found = -1
        if reply >= 0:
            _make(st, cfg, reply, other)
            if _count(st, other, CLASS_FIVE) == 0:
                if _count(st, colour, CLASS_FIVE) > 0 or _count(st, colour, CLASS_WIN) > 0:
                    found = plies + 3 if _count(st, colour, CLASS_FIVE) > 0 else plies + 5
                else:
                    after = cell if near >= 0 else -1  # a restricted line's next four: on a line of this one
                    found = _vcf(st, cfg, ctx, colour, plies + 2, limit, np.int64(after))
            _unmake(st, cfg, reply)
        _unmake(st, cfg, cell)
        if found >= 0:
            return found
    return -1


@njit(**JIT)
def _charge_vct_move(ctx) -> bool:  # type: ignore[no-untyped-def]
    """Count one move of a VCT against its budget ``ctl[C_HVCT_CALL_NODES]`` and the threat moves' total, reading
    the clock every ``ctl[C_TIME_MASK] + 1`` of them; False when the VCT must stop (out of time or budget)."""
    ctl = ctx[0]
    ctl[C_HVCT_CALL_NODES] -= 1
    ctl[C_VCF_NODES] += 1
    if ctl[C_VCF_NODES] & ctl[C_TIME_MASK] == 0 and _now() >= ctx[1][0]:
        ctl[C_ABORTED] = 1
    return ctl[C_ABORTED] == 0 and ctl[C_HVCT_CALL_NODES] >= 0


@njit(**JIT)
def _vct(st, cfg, ctx, colour: int, plies: int, limit: int, near: int, defend: int) -> int:  # type: ignore[no-untyped-def]
    """Plies to a win by fours and threes (a VCT) of the attacker, or -1 (none found in ``ctl[C_HVCT_CALL_NODES]``
    moves); ``plies`` played so far.  The horizon's VCT, over the engine's pattern state (:func:`_quiesce`).

    ``defend`` 0: the attacker ``colour`` is to move; it tries its fours (one reply: the completing cell) and, when
    the defender has no open three or four-three of its own, its open threes, on a line through ``near`` within
    the line's half-width ``cfg[0][G_HALF]`` (the next threat on the lines of the one before, as in :func:`_vcf`).  ``defend`` 1: the defender
    ``colour`` is to move against the attacker's threat; every answer that :func:`_answers` keeps (its own fours
    and the cells on the threat's lines, Allis' defence set) must lose.  A defender four is blocked and the
    defender moves again; a block that makes a four of the defender's own ends the line (conservative: the
    defence set is a superset of the real answers, so a VCT found holds but for the rare counter
    :func:`_answers` names; a VCT missed only leaves the static value).
    """
    ctl = ctx[0]
    n = st[0].shape[0]
    other = 1 - colour
    if plies >= limit or ctl[C_HVCT_CALL_NODES] <= 0 or ctl[C_ABORTED]:
        return -1
    cells, listed = st[5], st[6][M_CANDIDATES]
    moves = np.empty(listed, dtype=np.int32)
    count = np.int64(0)
    if defend:
        attacker = other
        if _count(st, colour, CLASS_FIVE) > 0:
            return -1
        if _count(st, attacker, CLASS_WIN) + _count(st, attacker, CLASS_FOUR_THREE) + _count(st, attacker, CLASS_FIVE) == 0:
            return -1  # the threat is gone
        for i in range(listed):
            moves[i] = cells[n + i]
        count = _answers(st, cfg, colour, moves, listed)
        order = np.empty(count, dtype=np.float64)
        for i in range(count):  # the likeliest refutation first: the cells the attacker most wants, own fours
            order[i] = st[4][attacker * n + moves[i]] + st[4][colour * n + moves[i]]
        worst = -1
        for i in range(count):
            _pick(moves, order, i, count)
            cell = np.int64(moves[i])
            if not _charge_vct_move(ctx):
                return -1
            _make(st, cfg, cell, colour)
            fives = _count(st, colour, CLASS_FIVE)
            if fives >= 2:
                found = -1  # the defender's open four or double four
            elif _count(st, attacker, CLASS_FIVE) > 0:
                found = plies + 2
            elif fives == 1:  # a four of the defender's: the attacker blocks it, the defender moves again
                block = _find(st, colour, CLASS_FIVE)
                _make(st, cfg, block, attacker)
                found = _vct(st, cfg, ctx, colour, plies + 2, limit, near, np.int64(1))
                _unmake(st, cfg, block)
            elif _count(st, attacker, CLASS_WIN) > 0:
                found = plies + 4
            else:
                found = _vct(st, cfg, ctx, attacker, plies + 1, limit, near, np.int64(0))
            _unmake(st, cfg, cell)
            if found < 0:
                return -1
            worst = max(worst, found)
        return worst
    cols, half = cfg[0][G_COLS], cfg[0][G_HALF]
    threes = _count(st, other, CLASS_WIN) + _count(st, other, CLASS_FOUR_THREE) == 0  # else a three is too slow
    order = np.empty(listed, dtype=np.float64)
    for i in range(listed):
        cell = np.int64(cells[n + i])
        c = st[3][colour * n + cell]
        four = c == CLASS_FOUR or c == CLASS_FOUR_THREE
        three = threes and (c == CLASS_OPEN_THREE or c == CLASS_DOUBLE_THREE)
        if (four or three) and (near < 0 or _near(cell, near, cols, half)):
            moves[count] = cell
            order[count] = c * _BIG + st[4][colour * n + cell]  # the strongest threat first, then the best cell
            count += 1
    for i in range(count):
        _pick(moves, order, i, count)
        cell = np.int64(moves[i])
        if not _charge_vct_move(ctx):
            return -1
        c = st[3][colour * n + cell]
        _make(st, cfg, cell, colour)
        found = -1
        if c == CLASS_FOUR or c == CLASS_FOUR_THREE:  # a four: one reply
            reply = _five_after(st, cfg, cell, colour)
            if reply >= 0 and _count(st, colour, CLASS_FIVE) == 1:
                _make(st, cfg, reply, other)
                if _count(st, other, CLASS_FIVE) == 0:
                    if _count(st, colour, CLASS_FIVE) > 0 or _count(st, colour, CLASS_WIN) > 0:
                        found = plies + 3 if _count(st, colour, CLASS_FIVE) > 0 else plies + 5
                    else:
                        found = _vct(st, cfg, ctx, colour, plies + 2, limit, np.int64(cell), np.int64(0))
                _unmake(st, cfg, reply)
            elif _count(st, colour, CLASS_FIVE) >= 2:
                found = plies + 3
        else:  # a three: every answer of the defender's
            found = _vct(st, cfg, ctx, other, plies + 1, limit, np.int64(cell), np.int64(1))
        _unmake(st, cfg, cell)
        if found >= 0:
            return found
    return -1


@njit(**JIT)
def _vcf_slot(ctx, memo: np.int64) -> int:  # type: ignore[no-untyped-def]
    """The slot of ``memo`` (a position's hash, salted by the kind of search) in the table of threat searches run."""
    return int(memo & np.int64(ctx[6].shape[0] - 1))


@njit(**JIT)
def _searched_before(ctx, memo: np.int64) -> bool:  # type: ignore[no-untyped-def]
    """True if a threat search of this position and budget (``memo``: its hash, salted) ran to its end before (its
    result, if the search keeps one, is in ``ctx[7]`` at the same slot)."""
    return ctx[6][_vcf_slot(ctx, memo)] == memo


@njit(**JIT)
def _remember_searched(ctx, memo: np.int64, plies: int) -> None:  # type: ignore[no-untyped-def]
    """Keep that a threat search of this position ran to its end, and the plies of the win it found (0: none); the
    next iterations meet the same positions again."""
    slot = _vcf_slot(ctx, memo)
    ctx[6][slot] = memo
    ctx[7][slot] = max(plies, 0)


@njit(**JIT)
def _quiesce(st, cfg, ctx, colour: int, ply: int) -> float:  # type: ignore[no-untyped-def]
    """The horizon: a VCF of the side to move within its node budget, then (``ctl[C_HVCT_BUDGET]`` > 0) a VCT
    within that budget, else the static value."""
    ctl = ctx[0]
    # Only threats on the lines of the side's own last move, each next one on the lines of the one before (a
    # VCF dependent on that move, Allis' dependency): the side's other VCFs were there a move earlier, where
    # the search met them.  Trying every four cost three quarters of the engine's time (3.3 times the time to
    # depth 7 in middle-game positions, the same move in 18 of 22).
    near = ctx[8][ply - 2] if ctl[C_VCF_NEAR] and ply >= 2 else -1
    if _count(st, colour, CLASS_FOUR) + _count(st, colour, CLASS_FOUR_THREE) > 0 and ctl[C_VCF_BUDGET] > 0:
        plies = _horizon_threat(st, cfg, ctx, colour, ply, near, np.int64(0))
        if plies > 0:
            return WIN - ply - plies
    threes = _count(st, colour, CLASS_OPEN_THREE) + _count(st, colour, CLASS_DOUBLE_THREE)
    if ctl[C_HVCT_BUDGET] > 0 and near >= 0 and threes > 0:
        # the side's attack of threes built with its last move: the opponent's quiet move that allowed it loses
        plies = _horizon_threat(st, cfg, ctx, colour, ply, near, np.int64(1))
        if plies > 0:
            return WIN - ply - plies
    return _evaluate(st, colour)


@njit(**JIT)
def _horizon_threat(st, cfg, ctx, colour: int, ply: int, near: int, vct: int) -> int:  # type: ignore[no-untyped-def]
    """Plies of the horizon's VCF (``vct`` 0) or VCT (1: ``ctl[C_HVCT_BUDGET]`` moves; 2: the bigger VCT of a node
    near the root, ``ctl[C_SVCT_BUDGET]``) for ``colour`` to move, or 0; searched once per position (the table
    keeps the result: the next iterations meet the same positions again)."""
    ctl = ctx[0]
    memo = st[6][M_HASH] ^ np.int64(colour + 2 + 14 * vct)
    if _searched_before(ctx, memo):
        return ctx[7][_vcf_slot(ctx, memo)]  # a win found before (0 marks a failure)
    if vct:
        ctl[C_HVCT_CALL_NODES] = ctl[C_HVCT_BUDGET] if vct == 1 else ctl[C_SVCT_BUDGET]
        plies = _vct(st, cfg, ctx, colour, np.int64(0), HORIZON_VCT_PLIES, np.int64(near), np.int64(0))
    else:
        ctl[C_VCF_CALL_NODES] = ctl[C_VCF_BUDGET]
        plies = _vcf(st, cfg, ctx, colour, np.int64(0), VCF_LIMIT, np.int64(near))
    if ctl[C_ABORTED]:
        return 0
    _remember_searched(ctx, memo, plies)
    if plies > ctl[C_THREAT_DEPTH]:
        ctl[C_THREAT_DEPTH] = plies
    return max(plies, 0)


@njit(**JIT)
def _vct_win(st, cfg, ctx, colour: int, key: np.int64) -> int:  # type: ignore[no-untyped-def]
    """Plies to a win by fours and threes (VCT, :mod:`search.gomoku._tss`) for ``colour`` to move within the node
    budget ``ctl[C_VCT_BUDGET]``, or -1; a search that found nothing is remembered by the position's key."""
    ctl = ctx[0]
    memo = key ^ np.int64(8)
    if _searched_before(ctx, memo):  # only failures are kept here (a win ends the node's search)
        return -1
    geo = cfg[0]
    empty = st[0].shape[0] - st[6][M_STONES]
    depth = min(VCT_PLIES, empty)
    pv = np.zeros(depth + 1, dtype=np.int64)
    plies, used, _ = _threat_search(st[0], geo[G_ROWS], geo[G_COLS], geo[G_K], geo[G_EXACT], colour + 1, depth,
                                    ctl[C_VCT_BUDGET], np.int64(1), pv, ctx[1][0])  # fmt: skip
    ctl[C_VCT_NODES] += used
    if plies > 0:
        return plies
    if _now() >= ctx[1][0]:
        # the threat search reads the clock only every CLOCK_NODES nodes, and the node that called it only every
        # time_mask + 1 nodes: one read per call keeps a search of such nodes at its deadline (it took 1,012 ms of
        # a 1 s move on 70,70,10 without); a search cut by the deadline proved nothing, so nothing is remembered
        ctl[C_ABORTED] = 1
        return -1
    _remember_searched(ctx, memo, np.int64(0))
    return -1


@njit(**JIT)
def _gen(st, cfg, ctx, colour: int, ply: int, tt_move: int, out: np.ndarray, score: np.ndarray) -> int:  # type: ignore[no-untyped-def]
    """Write the moves to search into ``out`` with ordering scores in ``score``; return how many.

    When the opponent can make a sure win next move (an open three, or a four-three cell), only the
    moves that take that away and the own fours are kept (Allis' defence rule); if none does, all moves
    are kept (the search then sees the loss).
    """
    n = st[0].shape[0]
    other = 1 - colour
    cells, listed = st[5], st[6][M_CANDIDATES]
    killers, history, weights = ctx[2], ctx[3], cfg[2]
    for i in range(listed):
        out[i] = cells[n + i]
    count = listed  # an int64: a counter from a literal 0 would compile _answers for Literal[int](0) too
    if count == 0:  # an empty board: the centre
        out[0] = (cfg[0][G_ROWS] // 2) * cfg[0][G_COLS] + cfg[0][G_COLS] // 2
        score[0] = 0.0
        return 1
    if _threatened(st, colour):
        count = _answers(st, cfg, colour, out, count)
    defence = weights[12]
    for i in range(count):
        cell = out[i]
        s = st[4][colour * n + cell] + defence * st[4][other * n + cell] + history[colour * n + cell]
        if cell == tt_move:
            s += 4 * _BIG
        elif cell == killers[2 * ply] or cell == killers[2 * ply + 1]:
            s += _BIG
        score[i] = s
    return count


@njit(**JIT)
def _on_line(a: int, b: int, cols: int, reach: int, d: int) -> bool:
    """True if cell ``a`` lies on ``b``'s line in direction ``d`` (0 row, 1 column, 2 and 3 diagonals) within ``reach``."""
    dr, dc = a // cols - b // cols, a % cols - b % cols
    if max(abs(dr), abs(dc)) > reach:
        return False
    if d == 0:
        return dr == 0
    if d == 1:
        return dc == 0
    if d == 2:
        return dr == dc
    return dr == -dc


@njit(**JIT)
def _threatened(st, colour: int) -> bool:  # type: ignore[no-untyped-def]
    """True if the opponent's next move makes a sure win (an open four, two fours) or a four-three."""
    return _count(st, 1 - colour, CLASS_WIN) + _count(st, 1 - colour, CLASS_FOUR_THREE) > 0


@njit(**JIT)
def _answers(st, cfg, colour: int, out: np.ndarray, count: int) -> int:  # type: ignore[no-untyped-def]
    """Keep in ``out[:count]`` the own fours and the moves that can take the opponent's threat away.

    The threats are the opponent's cells that make a sure win (an open four or two fours: an open three
    about to become an open four) or a four-three.  Against them an own open three is too slow (the
    opponent's five comes first), so only own fours and moves on the threat's lines help: a move that
    answers lies on a line where the threat cell makes an open three or more, within H of it (Allis'
    defence set of a three is inside its line segment).  The set kept is a superset of the real answers
    (no move is tried) but for a rare counter: a quiet move whose forced block later makes a four.  If
    none is kept, all are.
    """
    n = st[0].shape[0]
    other = 1 - colour
    cols, half = cfg[0][G_COLS], cfg[0][G_HALF]
    pats = st[2]
    threats = np.empty(8, dtype=np.int64)
    found = 0
    for i in range(count):
        if st[3][other * n + out[i]] >= CLASS_FOUR_THREE and found < 8:
            threats[found] = out[i]
            found += 1
    kept = 0
    for i in range(count):
        cell = np.int64(out[i])
        answers = st[3][colour * n + cell] >= CLASS_FOUR
        for t in range(found):
            if answers:
                break
            target = threats[t]
            if cell == target:
                answers = True
                break
            for d in range(4):
                if pats[4 * (other * n + target) + d] >= OPEN_THREE and _on_line(cell, target, cols, half, d):
                    answers = True
                    break
        if answers:
            out[kept] = cell
            kept += 1
    return kept if kept > 0 else count


@njit(**JIT)
def _pick(out: np.ndarray, score: np.ndarray, start: int, count: int) -> None:
    """Swap the best-scored move of ``out[start:count]`` to ``start`` (a lazy selection sort)."""
    best = start
    for i in range(start + 1, count):
        if score[i] > score[best]:
            best = i
    if best != start:
        out[start], out[best] = out[best], out[start]
        score[start], score[best] = score[best], score[start]


@njit(**JIT)
def _probe(tt, key: np.int64) -> int:  # type: ignore[no-untyped-def]
    """The table slot holding ``key``, or -1."""
    slot = int(key & np.int64(tt[0].shape[0] - 1))
    return slot if tt[0][slot] == key and tt[3][slot] != 0 else -1


@njit(**JIT)
def _store(tt, key: np.int64, score: float, depth: int, flag: int, move: int, ply: int) -> None:  # type: ignore[no-untyped-def]
    """Keep a result (win scores made relative to the node), replacing a shallower or another position's entry."""
    slot = int(key & np.int64(tt[0].shape[0] - 1))
    if tt[0][slot] == key and tt[2][slot] > depth and flag != EXACT:
        return
    if score > WIN - 1000:
        score += ply
    elif score < -WIN + 1000:
        score -= ply
    tt[0][slot], tt[1][slot], tt[2][slot], tt[3][slot], tt[4][slot] = key, score, depth, flag, move


@njit(**JIT)
def _prepares(st, cfg, colour: int, last: int) -> bool:  # type: ignore[no-untyped-def]
    """True if ``colour``'s last move ``last`` left it threat cells (an open three or better) on two of its lines, or
    a double threat on one.  The cheap test before the in-tree VCT check below the root's children: an attack that
    is new since the check of ``colour``'s move before uses ``last`` (the opponent's stones since only hinder it),
    and the quiet move that prepares one leaves threats on two lines (a heuristic: the other attacks are left to the
    horizon's VCT)."""
    geo = cfg[0]
    rows, cols, half = geo[G_ROWS], geo[G_COLS], geo[G_HALF]
    n = rows * cols
    row, col = last // cols, last % cols
    lines = 0
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        found = False
        for j in range(-half, half + 1):
            r, c = row + j * dr, col + j * dc
            if j != 0 and 0 <= r < rows and 0 <= c < cols and st[0][r * cols + c] == 0:
                cls = st[3][colour * n + r * cols + c]
                if cls >= CLASS_DOUBLE_THREE:
                    return True
                if cls >= CLASS_OPEN_THREE:
                    found = True
        if found:
            lines += 1
    return lines >= 2


@njit(**JIT)
def _threat_exits(st, colour: int, ply: int) -> tuple[bool, float, int]:  # type: ignore[no-untyped-def]
    """The node's decided cases: ``(decided, score, forced_cell)`` (forced_cell >= 0: the one reply)."""
    other = 1 - colour
    if _count(st, colour, CLASS_FIVE) > 0:
        return True, WIN - ply - 1, -1
    if st[6][M_STONES] == st[0].shape[0]:
        return True, 0.0, -1
    fives = _count(st, other, CLASS_FIVE)
    if fives >= 2:
        return True, -(WIN - ply - 2), -1
    if fives == 1:
        return False, 0.0, _find(st, other, CLASS_FIVE)
    if _count(st, colour, CLASS_WIN) > 0:
        return True, WIN - ply - 3, -1
    return False, 0.0, -1


@njit(**JIT)
def _negamax(st, cfg, tt, ctx, depth: int, alpha: float, beta: float, ply: int, colour: int) -> float:  # type: ignore[no-untyped-def]
    """Fail-soft PVS value of the position for ``colour`` to move (see the module docstring for the contract)."""
    ctl = ctx[0]
    if _tick(ctx):
        return 0.0
    if ply > ctl[C_SELDEPTH]:
        ctl[C_SELDEPTH] = ply
    decided, value, forced = _threat_exits(st, colour, ply)
    if decided:
        return value
    if forced >= 0:  # the opponent has a four: its completing cell is the only move (an extension)
        ctx[8][ply] = forced
        _make(st, cfg, forced, colour)
        value = -_negamax(st, cfg, tt, ctx, depth, -beta, -alpha, ply + 1, 1 - colour)
        _unmake(st, cfg, forced)
        return value
    extra = 0
    if depth == 0 and _threatened(st, colour) and ply < MAX_PLY - 8:
        depth, extra = 1, 1  # the opponent threatens an open four or a four-three: search the answers (once a line)
    if depth <= 0 or ply >= MAX_PLY - 1:
        return _quiesce(st, cfg, ctx, colour, ply)
    key = st[6][M_HASH] ^ np.int64(colour)
    if 0 < ply <= ctl[C_VCT_PLY] and ctl[C_VCT_BUDGET] > 0 and (ply == 1 or _prepares(st, cfg, colour, np.int64(ctx[8][ply - 2]))):
        # the opponent's attack built from threes, which the search's fours-only VCF cannot see: a move that
        # allows one is lost, whatever the depth (the agent's guard would only catch it after the search)
        plies = _vct_win(st, cfg, ctx, colour, key)
        if ctl[C_ABORTED]:
            return 0.0
        if plies > 0:
            if plies > ctl[C_THREAT_DEPTH]:
                ctl[C_THREAT_DEPTH] = plies
            return WIN - ply - plies
    if 0 < ply <= ctl[C_SVCT_PLY] and ctl[C_SVCT_BUDGET] > 0 and not _threatened(st, colour):
        # near the root the side's VCT from its last move (the opponent's a ply below the root: from any threat),
        # with a bigger budget: a move that lets the opponent start one is lost, whatever the depth
        near = ctx[8][ply - 2] if ply >= 2 else -1
        threats = _count(st, colour, CLASS_OPEN_THREE) + _count(st, colour, CLASS_DOUBLE_THREE) + \
            _count(st, colour, CLASS_FOUR) + _count(st, colour, CLASS_FOUR_THREE)  # fmt: skip
        if threats > 0:
            plies = _horizon_threat(st, cfg, ctx, colour, ply, near, np.int64(2))
            if ctl[C_ABORTED]:
                return 0.0
            if plies > 0:
                return WIN - ply - plies
    if ply <= 2 and ctl[C_VCF_SHALLOW] > 0 and _count(st, colour, CLASS_FOUR) + _count(st, colour, CLASS_FOUR_THREE) > 0:
        # near the root a bigger VCF: a move that leaves the opponent a long VCF is lost, whatever the depth
        slot = _probe(tt, key) if ctl[C_USE_TT] else -1
        memo = key ^ np.int64(4)
        if (slot < 0 or tt[2][slot] < MAX_PLY) and not _searched_before(ctx, memo):
            ctl[C_VCF_CALL_NODES] = ctl[C_VCF_SHALLOW]
            plies = _vcf(st, cfg, ctx, colour, np.int64(0), VCF_LIMIT, np.int64(-1))
            if ctl[C_ABORTED]:
                return 0.0
            if plies < 0:  # a win is kept in the table instead
                _remember_searched(ctx, memo, plies)
            if plies >= 0:
                if plies > ctl[C_THREAT_DEPTH]:
                    ctl[C_THREAT_DEPTH] = plies
                if ctl[C_USE_TT]:
                    _store(tt, key, WIN - ply - plies, np.int64(MAX_PLY), np.int64(EXACT), np.int64(-1), ply)
                return WIN - ply - plies
    tt_move = -1
    slot = _probe(tt, key) if ctl[C_USE_TT] else -1
    if slot >= 0:
        tt_move = tt[4][slot]
        if tt[2][slot] >= depth and (beta - alpha <= 1.0 or tt[2][slot] >= MAX_PLY):  # proved results: any window
            stored = tt[1][slot]
            if stored > WIN - 1000:
                stored -= ply
            elif stored < -WIN + 1000:
                stored += ply
            flag = tt[3][slot]
            if flag == EXACT or (flag == LOWER and stored >= beta) or (flag == UPPER and stored <= alpha):
                return stored
    # Near the horizon a null-window node whose static value is far outside the window: far above beta it takes
    # that value (reverse futility pruning: the few plies left will not undo it), far below alpha the horizon's VCF
    # (razoring); a threatened node never.
    if (ctl[C_FUTILITY] > 0 or ctl[C_RAZOR] > 0) and depth <= FUTILITY_DEPTH and extra == 0 and beta - alpha <= 1.0 \
            and abs(beta) < LOST and not _threatened(st, colour):
        static = _evaluate(st, colour)
        if ctl[C_FUTILITY] > 0 and static - ctl[C_FUTILITY] * depth >= beta:
            return static
        if ctl[C_RAZOR] > 0 and static + ctl[C_RAZOR] * depth <= alpha:
            return _quiesce(st, cfg, ctx, colour, ply)
    n = st[0].shape[0]
    moves, order = ctx[4][ply * n : (ply + 1) * n], ctx[5][ply * n : (ply + 1) * n]
    count = _gen(st, cfg, ctx, colour, ply, tt_move, moves, order)
    width = ctl[C_THREAT_WIDTH] if _threatened(st, colour) else ctl[C_WIDTH]  # 0: every answer to a threat
    if width > 0 and depth <= 2:  # near the horizon only the best few (the tactics are in the forced replies and VCF)
        width = max(2, width // 2)
    cut = width if 0 < width < count else count
    best, best_move, start_alpha = -np.inf, np.int64(-1), alpha
    for i in range(count):
        if i >= cut and best > -LOST:  # past the width; the rest only when everything so far loses
            break
        _pick(moves, order, i, count)
        cell = np.int64(moves[i])
        quiet = st[3][colour * n + cell] < CLASS_OPEN_THREE and st[3][(1 - colour) * n + cell] < CLASS_OPEN_THREE
        ctx[8][ply] = cell
        _make(st, cfg, cell, colour)
        if i == 0 or not ctl[C_PVS]:
            value = -_negamax(st, cfg, tt, ctx, depth - 1 - extra, -beta, -alpha, ply + 1, 1 - colour)
        else:
            reduce = 0
            if ctl[C_LMR] == 1 and depth >= 3 and i >= 3 and quiet:
                reduce = 1 if i < 6 else (2 if i < 12 else 3)
                reduce = min(reduce, depth - 2)
            elif ctl[C_LMR] >= 2 and depth >= 2 and i >= 2 and quiet:  # logarithmic, as in Stockfish and Rapfi
                reduce = min(int(0.5 + np.log(depth) * np.log(i + 1) * (ctl[C_LMR] - 1) / 2.0), depth - 1)
            value = -_negamax(st, cfg, tt, ctx, depth - 1 - reduce - extra, -alpha - 1.0, -alpha, ply + 1, 1 - colour)
            if reduce > 0 and (value > alpha or value < -LOST):  # a reduced search neither raises alpha nor proves a loss
                value = -_negamax(st, cfg, tt, ctx, depth - 1 - extra, -alpha - 1.0, -alpha, ply + 1, 1 - colour)
            if alpha < value < beta:
                value = -_negamax(st, cfg, tt, ctx, depth - 1 - extra, -beta, -alpha, ply + 1, 1 - colour)
        _unmake(st, cfg, cell)
        if ctl[C_ABORTED]:
            return 0.0
        if value > best:
            best, best_move = value, cell
        if value > alpha:
            alpha = value
        if alpha >= beta:
            if quiet and ctx[2][2 * ply] != cell:
                ctx[2][2 * ply + 1] = ctx[2][2 * ply]
                ctx[2][2 * ply] = cell
            ctx[3][colour * n + cell] += depth * depth
            break
    if ctl[C_USE_TT]:
        flag = LOWER if best >= beta else (EXACT if best > start_alpha else UPPER)
        _store(tt, key, best, depth, flag, best_move, ply)
    return best


@njit(**JIT)
def _root(st, cfg, tt, ctx, depth: int, alpha: float, beta: float, colour: int, moves: np.ndarray,  # type: ignore[no-untyped-def]
          scores: np.ndarray, count: int) -> tuple[float, int, int]:
    """One root iteration over ``moves[:count]`` in that order: ``(best score, best index, moves finished)``.

    Fail-soft on ``(alpha, beta)`` like :func:`_negamax`; ``scores`` gets each finished move's value
    (a bound for all but the best).  An aborted iteration returns what it finished.
    """
    ctl = ctx[0]
    best, best_index, done = -np.inf, 0, 0
    for i in range(count):
        cell = np.int64(moves[i])
        ctx[8][0] = cell
        _make(st, cfg, cell, colour)
        if i == 0 or not ctl[C_PVS]:
            value = -_negamax(st, cfg, tt, ctx, depth - 1, -beta, -alpha, np.int64(1), 1 - colour)
        else:
            value = -_negamax(st, cfg, tt, ctx, depth - 1, -alpha - 1.0, -alpha, np.int64(1), 1 - colour)
            if alpha < value < beta and not ctl[C_ABORTED]:
                value = -_negamax(st, cfg, tt, ctx, depth - 1, -beta, -alpha, np.int64(1), 1 - colour)
        _unmake(st, cfg, cell)
        if ctl[C_ABORTED]:
            break
        scores[i] = value
        done = i + 1
        if value > best:
            best, best_index = value, i
        if value > alpha:
            alpha = value
        if alpha >= beta:
            break
    return best, best_index, done


@njit(**JIT)
def _root_moves(st, cfg, ctx, colour: int, out: np.ndarray, score: np.ndarray) -> int:  # type: ignore[no-untyped-def]
    """The root's moves, best-ordered first (the same generation as inside the tree)."""
    count = _gen(st, cfg, ctx, colour, np.int64(0), np.int64(-1), out, score)
    for i in range(count):
        _pick(out, score, i, count)
    return count


@njit(**JIT)
def _root_vcf(st, cfg, ctx, colour: int, budget: int) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    """``(first move, plies)`` of a VCF for ``colour`` to move found within ``budget`` fours, or ``(-1, -1)``."""
    ctl = ctx[0]
    firsts, count = _four_cells(st, colour)
    ctl[C_VCF_CALL_NODES] = budget
    for i in range(count):
        cell = firsts[i]
        _make(st, cfg, cell, colour)
        reply = _five_after(st, cfg, cell, colour)
        plies = -1
        if reply >= 0:
            _make(st, cfg, reply, 1 - colour)
            if _count(st, 1 - colour, CLASS_FIVE) == 0:
                if _count(st, colour, CLASS_FIVE) > 0:
                    plies = 3
                elif _count(st, colour, CLASS_WIN) > 0:
                    plies = 5
                else:
                    found = _vcf(st, cfg, ctx, colour, np.int64(2), VCF_LIMIT, np.int64(-1))
                    plies = found
            _unmake(st, cfg, reply)
        _unmake(st, cfg, cell)
        if plies >= 0:
            return cell, plies
    return -1, -1
