"""Negamax alpha-beta over bitboards, for gravity boards that fit one 64-bit word (Connect-4 and its kin).

The same search as :mod:`search.alphabeta._negamax` (same contract, scores, budgets,
table semantics and move ordering; read its docstring first), on Pascal
Pons' two-word position (``games._bits``): ``current`` holds the stones of
the side to move, ``mask`` every stone::

      col  0  1  2  3  4  5  6
         .  6 13 20 27 34 41 48      bit(col, row) = col * (rows + 1) + row, row 0 at the bottom;
    row 5   5 12 19 26 33 40 47      the top bit of each column (.) is a sentinel, never set
    ...
    row 0   0  7 14 21 28 35 42

Playing column ``c`` is two word operations: the landing square is
``(mask + bottom(c)) & column(c)`` (the add carries through the stones of
the column), the child is ``(current ^ mask, mask | square)``.  What the
bitboards buy over the array kernel:

* **Wins and threats as masks.**  ``_winning_squares(stones)`` marks every
  square that would complete ``k`` in a row for ``stones``, all lines at
  once; ANDed with the playable squares it gives the immediate wins (played
  at once, as in the array kernel) and the squares the side to move must
  block.
* **Losing moves dropped** (Pons' ``possibleNonLosingMoves``), at nodes with
  ``depth >= 2`` only: if the opponent can win in two places the node is lost
  in two plies; if in one, that block is the only move; a move right below an
  opponent's winning square lets them win on it.  Each dropped move scores
  exactly ``-(WIN_SCORE - (ply + 2))`` at such a depth, the lowest score a
  move can have, so the node's value is unchanged unless every move is
  dropped, and then it is that score.  (At ``depth == 1`` the children are
  leaves: the loss is beyond the horizon, so nothing is dropped there.)
* **Keys for free.**  ``current + mask`` is unique per position (Pons'
  key: per column, the stones' bits plus one bit above them): a table hit
  is never a collision.
* **Leaves without a board scan** where the heuristic allows: ``square_values``
  is a sum of per-square values, kept incrementally (own minus opponent's,
  from the side to move); ``c4_features`` and ``threats`` run word-parallel
  (``heuristics._c4_bits``, ``heuristics._threats_bits``).  Any other heuristic reads the array board, kept
  in step with the bitboards (``S_ARRAY``).  The values are those of the
  array evaluators, to the bit.
* **Only the evaluators a search can call are compiled.**  The array
  evaluators are reached through one numba entry point
  (``heuristics._dispatch``), and compiling a call to it compiles all seven
  evaluators' kernels (about two thirds of a cold Connect-4 search's
  compile, for a search that calls none of them).  So a caller whose
  heuristic runs on the bitboards (``search.alphabeta._bitsearcher``: the
  engine's and the agents' searches; not the batched opponent, see
  ``search.alphabeta._batchsearch``) passes ``None`` for ``board`` and
  ``heights``: numba then drops every branch under ``board is not None``
  before typing it (its dead-branch pruning of ``None`` arguments), the
  calls into the dispatch with it, and compiles a second, smaller
  specialisation of ``_search`` and ``_iterate`` (one per kind of caller:
  board or ``None``).
* **Depth-1 nodes evaluate their children in place** (each still counts as a
  node and checks the budgets).
* **No recursion.**  numba reference-counts every array a function receives,
  with atomic instructions, on every call: passed down a recursion that was
  about 40% of the time.  ``_search`` keeps one frame per ply in arrays
  instead (position, window, move list, next move to try) and walks the tree
  in a loop, so arrays are never passed per node; its helpers take only
  scalars and tuples.  ``_iterate`` calls ``_search`` once per iteration
  (its ~25 array arguments are reference-counted per iteration, not per
  node), and the batched opponent's per-board kernel calls ``_iterate``:
  nothing is inlined by numba (``games._jit`` says why).

Move ordering is the array kernel's (table move, forced blocks, killers, the
heuristic's score, history to break ties), sorted by insertion: a node has at
most ``cols`` moves (7 on Connect-4, never more than 32), where that beats
the array kernel's size-q heap; with a branching factor q the first q are
searched.

The value at a fixed depth equals the array kernel's and plain minimax's
(the tests check it); node counts differ (dropped moves, different table
slots, tie order).

Arguments of ``_search``:

current, mask : uint64, the root position; sv : its square-value sum, own
    minus opponent's (0 unless the heuristic is square_values); stones : stones
    on the board; depth : >= 1
rules : games._rules.Rules, the game (gravity, and it fits the 64-bit layout)
settings : int64[N_SETTINGS], the search's settings and counters (``S_*``, :mod:`search._settings`),
    then the square value of every bit (``S_SQUARE_VALUES + bit``)
consts : uint64[N_BIT_CONSTS]: bottom row, all squares, then the evaluator's masks
    (``_c4_bits.constants`` padded with zeros, or ``_threats_bits.constants``)
weights : float64[n_weights], weights_pad : float64[N_BIT_WEIGHTS] (weights padded with zeros),
    windows : int32[n_windows, k] (heuristics.spec)
board : int8[rows * cols], heights : int32[cols]: the array board, updated only with ``S_ARRAY``; or both
    ``None`` where the heuristic runs on the bitboards (``S_ARRAY`` 0: no array evaluator is compiled in)
tt_keys : uint64[size], tt_scores : float64[size], tt_depths, tt_flags, tt_moves, tt_stamps : int32[size]
    (a slot is valid only if its stamp is ``settings[S_TT_GENERATION]``)
work : int64[max_ply + 2, 2 * cols + N_SLOTS + max_ply] (:func:`work_shape`), per ply row:
    the columns to search in order (``cols``), their history tie-breaks
    (``cols``), then the slots ``K_*`` from offset ``2 * cols``, the PV last;
    rows ``max_ply`` and ``max_ply + 1``: the history counters of the first and the second player
frames : uint64[max_ply + 1, 3], per ply: current, mask, table key
keys : float64[max_ply + 1, cols], per ply: the ordering keys; row ``max_ply``: the root's tie-break noise
bounds : float64[max_ply + 1, 4], per ply: alpha, beta, alpha at entry, best score so far (``B_*``)
deadline : float (time.perf_counter seconds, inf for none)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games._bits import _winning_cells
from games._jit import JIT
from heuristics._c4_bits import C_BOARD, C_BOTTOM, _count, _evaluate_bits
from heuristics._dispatch import _evaluate, _order
from heuristics._threats_bits import _evaluate_bits as _threats_bits
from heuristics.registry import kernel_id
from search._settings import (
    S_ABORTED,
    S_ARRAY,
    S_BIT_EVAL,
    S_BRANCHING,
    S_CHECK_TIME,
    S_HID,
    S_NODE_LIMIT,
    S_NODES,
    S_ORDER_DEPTH,
    S_ORDERING,
    S_SQUARE_VALUES,
    S_TIME_MASK,
    S_TT_GENERATION,
    S_USE_TT,
)
from search.alphabeta._bitops import _clip, _column, _count_node, _first_column, _time_mask, _tt_slot
from search.alphabeta._negamax import (
    _BLOCK_BONUS,
    _KILLER_BONUS,
    _ORDER_LIMIT,
    _TT_BONUS,
    EXACT,
    LOWER,
    UPPER,
    _from_tt,
    _now,
    _to_tt,
)
from search.protocol import HEURISTIC_LIMIT, WIN_SCORE

# per-ply slots of ``work``, after the 2 * cols move and history entries
K_KILLER, K_KILLER_2, K_PV_LEN, K_DEPTH, K_SV, K_COUNT, K_NEXT, K_SLOT, K_BEST_MOVE, K_CELL, K_NULL, K_PV = range(12)
N_SLOTS = K_PV
# columns of ``bounds``
B_ALPHA, B_BETA, B_ALPHA_ENTRY, B_BEST = range(4)
# heuristic kernel ids with a bitboard leaf (heuristics.registry: ids are permanent, numba freezes these at compile time)
HID_C4_FEATURES, HID_SQUARE_VALUES, HID_THREATS = (kernel_id(name) for name in ("c4_features", "square_values", "threats"))
N_BIT_CONSTS = 12
"""Length of ``consts`` (``_threats_bits.N_CONSTS``, the longest)."""
N_BIT_WEIGHTS = 27
"""Length of ``weights_pad`` (``_threats.N_FEATURES``, the most weights of a bitboard evaluator)."""
# walk phases
_ENTER, _NEXT, _RETURN, _UPDATE = range(4)

_ONE = np.uint64(1)
_ZERO = np.uint64(0)


def order_from_depth(hid: int, bit_eval: bool) -> int:
    """The smallest node depth at which the heuristic's ordering score is used (``S_ORDER_DEPTH``).

    ``square_values``: every depth (a table lookup, and at depth 1 it puts
    the best leaf first).  ``c4_features`` on bitboards: 5 and up.  Its
    score costs a full evaluation per move, and on the benchmark positions
    (depth 8, all eight) it saves few nodes for many evaluations: ordered at
    every interior node, 139,761 nodes and 451,718 evaluations; from depth 2
    (the array kernel's rule) 151,874 and 242,407; from depth 5 163,662 and
    105,894; never 162,156 and 96,143.  ``threats`` on bitboards: 5 and up,
    c4_features' rule taken over unmeasured (its evaluation costs about as much).  Others: from depth 2, as the array kernel.
    """
    if hid == HID_SQUARE_VALUES:
        return 1
    return 5 if bit_eval else 2


def work_shape(max_ply: int, cols: int) -> tuple[int, int]:
    """Shape of the ``work`` array for a search at most ``max_ply`` plies deep."""
    return max_ply + 2, 2 * cols + N_SLOTS + max_ply


@njit(**JIT)
def _search(current, mask, sv, stones, depth, rules, settings, consts, weights, weights_pad, windows, board, heights,  # type: ignore[no-untyped-def]
            tt_keys, tt_scores, tt_depths, tt_flags, tt_moves, tt_stamps, work, frames, keys, bounds, deadline):  # fmt: skip
    """Fail-soft negamax alpha-beta value of the root, full window (``_negamax._negamax``'s contract).

    A loop over four phases at the current ``ply``: ENTER a node (count it,
    settle it at once if it can be: full board, win now, table cut, lost, or
    order its moves), NEXT (play the next move: a leaf is evaluated in place,
    else ENTER the child; or, with no move left, store the node in the table
    and RETURN its value), RETURN (back to the parent, undo) and UPDATE (the
    parent takes the child's score: best, PV, cutoff).  On an abort (a budget
    is spent) it returns 0 at once, leaving ``board`` as it is.
    """
    assert depth >= 1
    rows, cols, k, hid = rules.rows, rules.cols, rules.k, settings[S_HID]
    cells = rows * cols
    q = settings[S_BRANCHING]
    use_tt, ordering, track_array = settings[S_USE_TT] != 0, settings[S_ORDERING] != 0, settings[S_ARRAY] != 0
    assert board is not None or not track_array, "an array evaluator (S_ARRAY) needs the array board"
    c4_bits = hid == HID_C4_FEATURES and settings[S_BIT_EVAL] != 0
    threat_bits = hid == HID_THREATS and settings[S_BIT_EVAL] != 0
    node_limit, check_time, time_mask = settings[S_NODE_LIMIT], settings[S_CHECK_TIME] != 0, settings[S_TIME_MASK]
    nodes = settings[S_NODES]
    bottom, full = consts[C_BOTTOM], consts[C_BOARD]
    const6 = (consts[0], consts[1], consts[2], consts[3], consts[4], consts[5])
    const12 = (consts[0], consts[1], consts[2], consts[3], consts[4], consts[5], consts[6], consts[7], consts[8],
               consts[9], consts[10], consts[11])  # fmt: skip
    w12 = (weights_pad[0], weights_pad[1], weights_pad[2], weights_pad[3], weights_pad[4], weights_pad[5],
           weights_pad[6], weights_pad[7], weights_pad[8], weights_pad[9], weights_pad[10], weights_pad[11])  # fmt: skip
    w27 = (weights_pad[0], weights_pad[1], weights_pad[2], weights_pad[3], weights_pad[4], weights_pad[5],
           weights_pad[6], weights_pad[7], weights_pad[8], weights_pad[9], weights_pad[10], weights_pad[11],
           weights_pad[12], weights_pad[13], weights_pad[14], weights_pad[15], weights_pad[16], weights_pad[17],
           weights_pad[18], weights_pad[19], weights_pad[20], weights_pad[21], weights_pad[22], weights_pad[23],
           weights_pad[24], weights_pad[25], weights_pad[26])  # fmt: skip
    size, generation = tt_keys.shape[0], settings[S_TT_GENERATION]
    max_ply = work.shape[0] - 2
    at = 2 * cols  # the per-ply slots
    pv_at = at + K_PV

    frames[0, 0], frames[0, 1] = current, mask
    work[0, at + K_DEPTH], work[0, at + K_SV] = depth, sv
    bounds[0, B_ALPHA], bounds[0, B_BETA] = -np.inf, np.inf
    ply = np.int64(0)  # not the literal 0: numba would type _from_tt and _to_tt for it too
    phase = _ENTER
    ret = 0.0  # the value RETURN hands to the parent
    score = 0.0  # the child's score UPDATE hands to the node
    while True:
        if phase == _ENTER:
            work[ply, at + K_PV_LEN] = ply
            nodes, aborted = _count_node(nodes, node_limit, check_time, time_mask, deadline)
            if aborted:
                settings[S_NODES], settings[S_ABORTED] = nodes, 1
                return 0.0
            phase = _RETURN
            if stones + ply == cells:
                ret = 0.0
                continue
            cur, msk = frames[ply, 0], frames[ply, 1]
            d = work[ply, at + K_DEPTH]
            playable = (msk + bottom) & full  # the carry stops on each column's first empty square
            wins = _winning_cells(cur, rules) & playable
            if wins != _ZERO:  # a winning move is the best value there is: play it and stop
                work[ply, pv_at + ply], work[ply, at + K_PV_LEN] = _first_column(wins, rows), ply + 1
                ret = WIN_SCORE - (ply + 1)
                continue
            alpha, beta = bounds[ply, B_ALPHA], bounds[ply, B_BETA]
            key = cur + msk
            tt_move = -1
            slot = np.int64(0)
            if use_tt:
                slot = _tt_slot(key, size)
                if tt_keys[slot] == key and tt_stamps[slot] == generation:
                    tt_move = tt_moves[slot]
                    if tt_depths[slot] == d:
                        stored = _from_tt(tt_scores[slot], ply)
                        flag = tt_flags[slot]
                        if flag == EXACT or (flag == LOWER and stored >= beta) or (flag == UPPER and stored <= alpha):
                            work[ply, pv_at + ply], work[ply, at + K_PV_LEN] = tt_move, ply + 1
                            ret = stored
                            continue
            threats = _winning_cells(cur ^ msk, rules) & (full & ~msk)  # the opponent's winning squares
            blocks = threats & playable
            candidates = playable
            if d >= 2:  # drop the moves that lose in two plies (see the module docstring)
                if blocks & (blocks - _ONE) != _ZERO:  # two threats: no saving move
                    candidates = _ZERO
                elif blocks != _ZERO:
                    candidates = blocks
                candidates &= ~(threats >> _ONE)  # not right below an opponent's winning square
                if candidates == _ZERO:
                    work[ply, pv_at + ply], work[ply, at + K_PV_LEN] = _first_column(playable, rows), ply + 1
                    ret = -(WIN_SCORE - (ply + 2))
                    continue

            # Order the moves (the heuristic's score only where it pays: see order_from_depth).
            me = 1 + ((stones + ply) & 1)
            heuristic_order = ordering and d >= settings[S_ORDER_DEPTH]
            before = 0.0
            if heuristic_order and c4_bits:
                before = _evaluate_bits(cur, msk, rows, const6, w12)
            n = 0
            for col in range(cols):
                square = candidates & _column(rows, col)
                if square == _ZERO:
                    continue
                key_score = 0.0
                hist = 0
                if ordering:
                    if heuristic_order:
                        if hid == HID_SQUARE_VALUES:
                            key_score = weights[0] * settings[S_SQUARE_VALUES + _count(square - _ONE)]
                        elif c4_bits:  # the change of the evaluation, as c4_features' _order
                            key_score = _evaluate_bits(cur | square, msk | square, rows, const6, w12) - before
                        elif threat_bits:  # the child's value for us (the evaluation is the mover's)
                            key_score = -_threats_bits(cur ^ msk, msk | square, rows, k, const12, w27)
                        elif board is not None:  # an array evaluator (S_ARRAY): see the module docstring
                            cell = (rows - 1 - _count(msk & _column(rows, col))) * cols + col
                            key_score = _order(hid, board, heights, rows, cols, k, rules.gravity != 0, me, weights, windows, cell)
                        key_score = _clip(key_score, _ORDER_LIMIT)
                    if col == work[ply, at + K_KILLER] or col == work[ply, at + K_KILLER_2]:
                        key_score += _KILLER_BONUS
                    hist = work[max_ply + me - 1, col]
                if square & blocks != _ZERO:
                    key_score += _BLOCK_BONUS
                if col == tt_move:
                    key_score += _TT_BONUS
                if ply == 0:
                    key_score += keys[max_ply, col]
                # insertion sort, best first: higher key, then higher history, then lower column
                i = n
                while i > 0 and (key_score > keys[ply, i - 1] or (key_score == keys[ply, i - 1] and hist > work[ply, cols + i - 1])):
                    keys[ply, i], work[ply, i], work[ply, cols + i] = keys[ply, i - 1], work[ply, i - 1], work[ply, cols + i - 1]
                    i -= 1
                keys[ply, i], work[ply, i], work[ply, cols + i] = key_score, col, hist
                n += 1
            work[ply, at + K_COUNT] = q if 0 < q < n else n
            work[ply, at + K_NEXT], work[ply, at + K_SLOT], work[ply, at + K_BEST_MOVE] = 0, slot, -1
            work[ply, at + K_NULL] = 0
            frames[ply, 2] = key
            bounds[ply, B_ALPHA_ENTRY], bounds[ply, B_BEST] = alpha, -np.inf
            phase = _NEXT

        elif phase == _NEXT:
            j = work[ply, at + K_NEXT]
            d = work[ply, at + K_DEPTH]
            best = bounds[ply, B_BEST]
            if j >= work[ply, at + K_COUNT]:  # done: store and return
                if use_tt:
                    slot = work[ply, at + K_SLOT]
                    alpha, beta = bounds[ply, B_ALPHA_ENTRY], bounds[ply, B_BETA]
                    tt_keys[slot] = frames[ply, 2]
                    tt_scores[slot] = _to_tt(best, ply)
                    tt_depths[slot] = d
                    tt_moves[slot] = work[ply, at + K_BEST_MOVE]
                    tt_flags[slot] = UPPER if best <= alpha else (LOWER if best >= beta else EXACT)
                    tt_stamps[slot] = generation
                ret = best
                phase = _RETURN
                continue
            work[ply, at + K_NEXT] = j + 1
            col = work[ply, j]
            cur, msk = frames[ply, 0], frames[ply, 1]
            column = _column(rows, col)
            square = (msk + bottom) & column
            child_mask = msk | square
            opponent = cur ^ msk
            child_sv = -(work[ply, at + K_SV] + settings[S_SQUARE_VALUES + _count(square - _ONE)])
            if board is not None and track_array:
                cell = (rows - 1 - _count(msk & column)) * cols + col
                board[cell] = 1 + ((stones + ply) & 1)
                heights[col] += 1
                work[ply, at + K_CELL] = cell
            if d > 1:
                frames[ply + 1, 0], frames[ply + 1, 1] = opponent, child_mask
                work[ply + 1, at + K_SV], work[ply + 1, at + K_DEPTH] = child_sv, d - 1
                low, high = max(bounds[ply, B_ALPHA], best), bounds[ply, B_BETA]
                # Principal variation search: after the first move, prove each move no better than the
                # best so far with a null window (low, low + 1 ulp); a move that fails high inside
                # (low, high) is searched again with the full window (UPDATE sets K_NULL = -1 for that).
                null = j > 0 and work[ply, at + K_NULL] >= 0 and low > -np.inf
                if null and np.nextafter(low, np.inf) < high:
                    high = np.nextafter(low, np.inf)
                    work[ply, at + K_NULL] = 1
                else:
                    work[ply, at + K_NULL] = 0
                bounds[ply + 1, B_ALPHA], bounds[ply + 1, B_BETA] = -high, -low
                ply += 1
                phase = _ENTER
                continue
            # The child is a leaf: count it and evaluate it here.
            nodes, aborted = _count_node(nodes, node_limit, check_time, time_mask, deadline)
            if aborted:
                settings[S_NODES], settings[S_ABORTED] = nodes, 1
                return 0.0
            work[ply + 1, at + K_PV_LEN] = ply + 1
            if stones + ply + 1 == cells:
                score = 0.0
            elif hid == HID_SQUARE_VALUES:
                score = -_clip(weights[0] * child_sv, HEURISTIC_LIMIT)
            elif c4_bits:
                score = -_clip(_evaluate_bits(opponent, child_mask, rows, const6, w12), HEURISTIC_LIMIT)
            elif threat_bits:
                score = -_clip(_threats_bits(opponent, child_mask, rows, k, const12, w27), HEURISTIC_LIMIT)
            elif board is not None:  # an array evaluator (S_ARRAY)
                value = _evaluate(hid, board, heights, rows, cols, k, rules.gravity != 0, 1 + ((stones + ply + 1) & 1), weights,
                                  windows)  # a bool, not the literal True: one compile of every evaluator for both kernels
                score = -_clip(value, HEURISTIC_LIMIT)
            if board is not None and track_array:
                board[work[ply, at + K_CELL]] = 0
                heights[col] -= 1
            phase = _UPDATE

        elif phase == _RETURN:
            if ply == 0:
                settings[S_NODES] = nodes
                return ret
            ply -= 1
            if board is not None and track_array:
                cell = work[ply, at + K_CELL]
                board[cell] = 0
                heights[cell % cols] -= 1
            score = -ret
            phase = _UPDATE

        if phase == _UPDATE:  # the node at ply takes its child's score
            col = work[ply, work[ply, at + K_NEXT] - 1]
            phase = _NEXT
            if work[ply, at + K_NULL] == 1:  # a null-window search
                if max(bounds[ply, B_ALPHA], bounds[ply, B_BEST]) < score < bounds[ply, B_BETA]:
                    work[ply, at + K_NEXT] -= 1  # better than the best so far: search it again, full window
                    work[ply, at + K_NULL] = -1
                    continue
            work[ply, at + K_NULL] = 0
            if score > bounds[ply, B_BEST]:
                bounds[ply, B_BEST] = score
                work[ply, at + K_BEST_MOVE] = col
                if score > bounds[ply, B_ALPHA]:
                    work[ply, pv_at + ply] = col
                    child_len = work[ply + 1, at + K_PV_LEN]
                    for p in range(ply + 1, child_len):
                        work[ply, pv_at + p] = work[ply + 1, pv_at + p]
                    work[ply, at + K_PV_LEN] = max(child_len, ply + 1)
                    if score >= bounds[ply, B_BETA]:
                        if col != work[ply, at + K_KILLER]:
                            work[ply, at + K_KILLER_2] = work[ply, at + K_KILLER]
                            work[ply, at + K_KILLER] = col
                        d = work[ply, at + K_DEPTH]
                        work[max_ply + (stones + ply) % 2, col] += d * d
                        work[ply, at + K_NEXT] = work[ply, at + K_COUNT]  # cutoff: no more moves


@njit(**JIT)
def _iterate(current, mask, stones, max_depth, node_budget, timed, started, deadline, rules, settings, consts, weights,  # type: ignore[no-untyped-def]
             weights_pad, windows, board, heights, tt_keys, tt_scores, tt_depths, tt_flags, tt_moves, tt_stamps, work, frames,
             keys, bounds, pv_out):  # fmt: skip
    """Iterative deepening to ``max_depth`` with the budgets of ``engine.search``, in one call.

    Returns ``(completed, score)``: the deepest completed iteration and its
    score; its PV is copied to ``pv_out`` (int64[max_ply + 1], the length
    first).  Each iteration is a ``_search``; the first one always completes
    (no budget is checked in it: a move is needed).  Stops after an
    iteration that proves a result, spends ``node_budget`` (> 0: a budget)
    or, when ``timed``, passes ``deadline``; an aborted iteration is dropped.
    ``started``: time.perf_counter() at the start of the search (the clock
    rate sets how often the clock is read).
    """
    sv = np.int64(0)  # not the literal 0: numba would first compile _search for a literal 0 too, all of it
    if settings[S_HID] == HID_SQUARE_VALUES:  # the root's square-value sum, own minus opponent's
        theirs = current ^ mask
        for bit in range(64):
            here = np.uint64(1) << np.uint64(bit)
            if current & here != _ZERO:
                sv += settings[S_SQUARE_VALUES + bit]
            elif theirs & here != _ZERO:
                sv -= settings[S_SQUARE_VALUES + bit]
    pv_at = 2 * rules.cols + K_PV
    completed, best = 0, 0.0
    seconds = 0.0
    for depth in range(1, max_depth + 1):
        first = completed == 0
        settings[S_NODE_LIMIT] = 0 if first else node_budget
        settings[S_CHECK_TIME] = 0 if first or not timed else 1
        settings[S_TIME_MASK] = 0 if first else _time_mask(settings[S_NODES], seconds)
        score = _search(current, mask, sv, stones, depth, rules, settings, consts, weights, weights_pad, windows, board, heights,
                        tt_keys, tt_scores, tt_depths, tt_flags, tt_moves, tt_stamps, work, frames, keys, bounds,
                        deadline)  # fmt: skip
        if settings[S_ABORTED]:
            break
        completed, best = depth, score
        length = work[0, pv_at - K_PV + K_PV_LEN]
        pv_out[0] = length
        for p in range(length):
            pv_out[1 + p] = work[0, pv_at + p]
        now = _now() if timed else 0.0
        seconds = now - started
        if abs(score) > HEURISTIC_LIMIT or (node_budget > 0 and settings[S_NODES] >= node_budget):
            break
        if timed and now >= deadline:
            break
    return completed, best
