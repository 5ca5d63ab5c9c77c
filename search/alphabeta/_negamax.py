"""Negamax alpha-beta and plain minimax as numba kernels over the array boards of :mod:`games._board`.

Contract of ``_negamax`` (fail-soft, as in Pascal Pons' solver): called with
a window ``alpha < beta`` it returns a value ``v`` of the position, searched
``depth`` plies deep with heuristic leaves, from the side to move, such that

* ``alpha < v < beta``: ``v`` is the exact depth-limited minimax value;
* ``v <= alpha``: the exact value is at most ``v`` (fail low);
* ``v >= beta``: the exact value is at least ``v`` (fail high).

Scores follow :mod:`search.protocol`: a win ``plies`` moves after the root
scores ``WIN_SCORE - plies``, draws 0, heuristic leaves are clipped to
``HEURISTIC_LIMIT``.  Transposition-table entries store win scores relative
to their own node (``to_tt``/``from_tt``) so they stay true at any ply, and
cut off only at *exactly* the searched depth, which keeps the value at a
fixed depth identical with or without the table (the tests check it).

At every node, in order: count the node and check the budgets; a full board
is a draw; depth 0 evaluates; a winning move is played at once (it is the
best possible value, the COMP 472 report's early stop); the moves that block an
immediate opponent win are marked forced (with two or more plies left, only they are
searched: any other move loses at once, see ``_keep_blocks``); the rest are ordered (TT move,
forced blocks, killers, then the heuristic's ordering score, history as the
tie-break; at depth-1 nodes the heuristic's score is skipped, as it would
cost about what the leaf evaluations cost) and, with a branching factor q,
only the q best are searched (the Bologna m,n,k project's heap selection).  Nothing here copies a board: moves are made
and unmade in place.  On free boards, ``windows``, ``mics`` and ``patterns`` are kept incrementally
(:mod:`heuristics._incremental`: the state is built by ``_negamax`` at the root and updated by ``_search`` on
every make and unmake; equal values bit for bit), and ``mics``' and ``patterns``' depth-1 nodes value their leaf children
from the state without making the move.

Argument bundles (all kernels):

rules : games._rules.Rules, the game
settings : int64[N_SETTINGS], the search's settings and counters (``S_*``, :mod:`search._settings`)
weights : float64[n_weights], windows : int32[n_windows, k] (heuristics.spec)
zobrist : uint64[2, cells]
tt_keys : uint64[size], tt_scores : float64[size], tt_depths, tt_flags, tt_moves, tt_stamps : int32[size]
    (size a power of two; a slot is valid only if its stamp is ``settings[S_TT_GENERATION]``)
killers : int32[max_ply, 2], history : int64[2, n_actions]
pv : int32[max_ply, max_ply], pv_len : int32[max_ply]  (triangular PV table)
move_buf : int64[max_ply, n_actions], key_buf : float64[max_ply, n_actions], hist_buf : int64[max_ply, n_actions],
order_buf : int64[max_ply, n_actions]  (per-ply candidate moves, ordering keys, history tie-breaks, chosen order)
deadline : float (time.perf_counter seconds, inf for none)
root_noise : float64[n_actions], added to the root's ordering keys (seeded tie-breaking)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games._board import _cell_of, _wins_through
from games._jit import JIT
from games._rules import Rules
from heuristics._dispatch import _evaluate, _order
from heuristics._incremental import MICS, NONE, PATTERNS, _generate_near, _move, _new_state, _value, _value_after
from heuristics._incremental import _order as _inc_order
from search._clock import _now
from search._settings import (
    S_ABORTED,
    S_BRANCHING,
    S_CHECK_TIME,
    S_FROM_SCRATCH,
    S_HID,
    S_NODE_LIMIT,
    S_NODES,
    S_ORDERING,
    S_RADIUS,
    S_TIME_MASK,
    S_TT_GENERATION,
    S_USE_TT,
)
from search.protocol import HEURISTIC_LIMIT, WIN_SCORE

# transposition-table bound flags
EXACT, LOWER, UPPER = 1, 2, 3

_INF = np.inf
_TT_BONUS = 4e18  # ordering classes, far above any clipped ordering score
_BLOCK_BONUS = 3e18
_KILLER_BONUS = 2e18
_ORDER_LIMIT = 1e17


@njit(**JIT)
def _generate(board: np.ndarray, heights: np.ndarray, stones: int, rules: Rules, radius: int, out: np.ndarray) -> int:
    """Write the candidate actions into ``out``; return how many.

    With gravity: every column that is not full.  Without: every empty cell,
    or with ``radius`` r > 0 only empty cells within r (king moves) of a
    stone (the COMP 472 report's "discard isolated cells"), the centre alone on an empty
    board, and all empty cells if the radius leaves none.
    """
    rows, cols = rules.rows, rules.cols
    n = 0
    if rules.gravity:
        for col in range(cols):
            if heights[col] < rows:
                out[n] = col
                n += 1
        return n
    if radius > 0:
        if stones == 0:
            out[0] = (rows // 2) * cols + cols // 2
            return 1
        for cell in range(rows * cols):
            if board[cell] != 0:
                continue
            r0, c0 = cell // cols, cell % cols
            near = False
            for r in range(max(0, r0 - radius), min(rows, r0 + radius + 1)):
                for c in range(max(0, c0 - radius), min(cols, c0 + radius + 1)):
                    if board[r * cols + c] != 0:
                        near = True
                        break
                if near:
                    break
            if near:
                out[n] = cell
                n += 1
        if n > 0:
            return n
    for cell in range(rows * cols):
        if board[cell] == 0:
            out[n] = cell
            n += 1
    return n


@njit(**JIT)
def _leaf(board, heights, stones, rules, hid, weights, windows) -> float:  # type: ignore[no-untyped-def]
    """The clipped heuristic value for the side to move."""
    v = _evaluate(hid, board, heights, rules.rows, rules.cols, rules.k, rules.gravity != 0, 1 + (stones & 1),
                  weights, windows)  # fmt: skip
    return min(max(v, -HEURISTIC_LIMIT), HEURISTIC_LIMIT)


@njit(**JIT)
def _to_tt(score: float, ply: int) -> float:
    """Make a win score relative to the node at ``ply`` before storing it."""
    if score > HEURISTIC_LIMIT:
        return score + ply
    if score < -HEURISTIC_LIMIT:
        return score - ply
    return score


@njit(**JIT)
def _from_tt(score: float, ply: int) -> float:
    """Make a stored node-relative win score relative to the root again."""
    if score > HEURISTIC_LIMIT:
        return score - ply
    if score < -HEURISTIC_LIMIT:
        return score + ply
    return score


@njit(**JIT)
def _budget_exhausted(settings: np.ndarray, deadline: float) -> bool:
    """Count a node unless a budget is spent; then set the abort flag and return True.

    A node past the node budget is not counted, so the count never exceeds it.
    """
    if settings[S_NODE_LIMIT] > 0 and settings[S_NODES] >= settings[S_NODE_LIMIT]:
        settings[S_ABORTED] = 1
        return True
    settings[S_NODES] += 1
    # The clock (search._clock) is read every 2**j nodes, with 2**j - 1 = settings[S_TIME_MASK] chosen by the
    # caller to be ~0.5 ms of search: a read also checks for Ctrl-C, which needs the GIL for a moment.
    if settings[S_CHECK_TIME] and (settings[S_NODES] & settings[S_TIME_MASK]) == 0 and _now() > deadline:
        settings[S_ABORTED] = 1
    return settings[S_ABORTED] != 0


@njit(**JIT)
def _better(key_a: float, hist_a: int, key_b: float, hist_b: int) -> bool:
    """Ordering: a strictly before b (higher key; on equal keys, higher history)."""
    return key_a > key_b or (key_a == key_b and hist_a > hist_b)


@njit(**JIT)
def _sift_down(heap: np.ndarray, size: int, keys: np.ndarray, hist: np.ndarray, i: int) -> None:
    """Restore the min-heap (worst move on top) below position ``i``."""
    while True:
        worst, left, right = i, 2 * i + 1, 2 * i + 2
        if left < size and _better(keys[heap[worst]], hist[heap[worst]], keys[heap[left]], hist[heap[left]]):
            worst = left
        if right < size and _better(keys[heap[worst]], hist[heap[worst]], keys[heap[right]], hist[heap[right]]):
            worst = right
        if worst == i:
            return
        heap[i], heap[worst] = heap[worst], heap[i]
        i = worst


@njit(**JIT)
def _select_best(keys: np.ndarray, hist: np.ndarray, n: int, q: int, out: np.ndarray) -> int:
    """Write the indices of the best ``q`` of ``n`` moves into ``out``, best first; return how many.

    A min-heap of size q keeps the q best seen so far: O(n log q) (as in the Bologna m,n,k project),
    then the heap is emptied worst-first into the tail of ``out``.
    """
    size = 0
    for i in range(n):
        if size < q:
            out[size] = i
            size += 1
            j = size - 1
            while j > 0:  # sift up
                parent = (j - 1) // 2
                if _better(keys[out[parent]], hist[out[parent]], keys[out[j]], hist[out[j]]):
                    out[parent], out[j] = out[j], out[parent]
                    j = parent
                else:
                    break
        elif _better(keys[i], hist[i], keys[out[0]], hist[out[0]]):
            out[0] = i
            _sift_down(out, size, keys, hist, 0)
    m = size
    while size > 1:  # heap sort in place: the worst goes last each time
        out[0], out[size - 1] = out[size - 1], out[0]
        size -= 1
        _sift_down(out, size, keys, hist, 0)
    return m


@njit(**JIT)
def _keep_blocks(moves: np.ndarray, keys: np.ndarray, hist: np.ndarray, flags: np.ndarray, n: int) -> int:
    """Keep only the moves flagged as forced blocks (``flags[i] == 1``), in place and in order; return how many.

    The forced-reply rule: when the opponent threatens to win on its next
    move (and the side to move has no win of its own, checked before), any
    other move loses two plies on, which no block can do worse than; so
    with two or more plies left the blocks alone give the node its value,
    bit for bit (the dropped children would each cost a node and a scan of
    the opponent's winning moves to say so).  At depth 1 the dropped moves
    would be valued by the heuristic, not as losses, so the rule is not used there.
    """
    kept = 0
    for i in range(n):
        if flags[i] == 1:
            moves[kept], keys[kept], hist[kept] = moves[i], keys[i], hist[i]
            kept += 1
    return kept


@njit(**JIT)
def _negamax(board, heights, key, stones, ply, depth, alpha, beta, rules, settings, weights, windows, zobrist,  # type: ignore[no-untyped-def]
             tt_keys, tt_scores, tt_depths, tt_flags, tt_moves, tt_stamps, killers, history, pv, pv_len,
             move_buf, key_buf, hist_buf, order_buf, deadline, root_noise):  # fmt: skip
    """Fail-soft negamax alpha-beta value of the position (see the module docstring).

    On free boards the evaluators that support it are kept incrementally
    (:mod:`heuristics._incremental`: equal values, so equal searches); the
    state is built here, once per call, and ``settings[S_FROM_SCRATCH]`` turns it off.
    """
    state = _new_state(settings[S_HID], board, rules, settings[S_RADIUS], settings[S_FROM_SCRATCH] == 0, weights,
                       windows)  # fmt: skip
    if state[0][0] == NONE:  # nothing kept: the recursion gets None and numba compiles its state branches away
        return _search(board, heights, key, stones, ply, depth, alpha, beta, rules, settings, weights, windows, zobrist,
                       tt_keys, tt_scores, tt_depths, tt_flags, tt_moves, tt_stamps, killers, history, pv, pv_len,
                       move_buf, key_buf, hist_buf, order_buf, deadline, root_noise, None)  # fmt: skip
    return _search(board, heights, key, stones, ply, depth, alpha, beta, rules, settings, weights, windows, zobrist,
                   tt_keys, tt_scores, tt_depths, tt_flags, tt_moves, tt_stamps, killers, history, pv, pv_len,
                   move_buf, key_buf, hist_buf, order_buf, deadline, root_noise, state)  # fmt: skip


@njit(**JIT)
def _search(board, heights, key, stones, ply, depth, alpha, beta, rules, settings, weights, windows, zobrist,  # type: ignore[no-untyped-def]
            tt_keys, tt_scores, tt_depths, tt_flags, tt_moves, tt_stamps, killers, history, pv, pv_len,
            move_buf, key_buf, hist_buf, order_buf, deadline, root_noise, state):  # fmt: skip
    """``_negamax``'s recursion, with the incremental state (heuristics._incremental) kept in step with the board.

    ``state`` None (gravity, other evaluators, the from-scratch switch) is a
    separate compilation in which every ``if state is not None`` block is
    pruned (numba's dead-branch pruning on None arguments): the old search,
    without the cost of passing a tuple of arrays down every call.
    """
    pv_len[ply] = ply
    if _budget_exhausted(settings, deadline):
        return 0.0
    rows, cols, k, gravity = rules.rows, rules.cols, rules.k, rules.gravity != 0
    hid = settings[S_HID]
    if stones == rows * cols:
        return 0.0
    if depth == 0:
        if state is not None:
            return min(max(_value(state, rules, 1 + (stones & 1), weights), -HEURISTIC_LIMIT), HEURISTIC_LIMIT)
        return _leaf(board, heights, stones, rules, hid, weights, windows)

    alpha_orig = alpha
    tt_move = -1
    slot = np.int64(0)  # int64 throughout: numba would unify int64 with uint64 into float64
    use_tt = settings[S_USE_TT] != 0
    if use_tt:
        slot = np.int64(key & np.uint64(tt_keys.shape[0] - 1))
        if tt_keys[slot] == key and tt_stamps[slot] == settings[S_TT_GENERATION]:
            tt_move = tt_moves[slot]
            if tt_depths[slot] == depth:
                stored = _from_tt(tt_scores[slot], ply)
                flag = tt_flags[slot]
                if flag == EXACT or (flag == LOWER and stored >= beta) or (flag == UPPER and stored <= alpha):
                    pv[ply, ply] = tt_move
                    pv_len[ply] = ply + 1
                    return stored

    me = 1 + (stones & 1)
    moves = move_buf[ply]
    keys = key_buf[ply]
    hist = hist_buf[ply]
    radius = settings[S_RADIUS]
    n = -1
    if state is not None:
        if state[0][1] != 0 and stones > 0:  # the near counters give _generate's list in O(cells)
            n = _generate_near(board, state[7], moves)
    if n < 0:
        n = _generate(board, heights, stones, rules, radius, moves)
    # A winning move is the best value there is: play it and stop.
    for i in range(n):
        cell = _cell_of(moves[i], heights, rules)
        board[cell] = me
        wins = _wins_through(board, rules, cell)
        board[cell] = 0
        if wins:
            pv[ply, ply] = moves[i]
            pv_len[ply] = ply + 1
            return WIN_SCORE - (ply + 1)

    # Next to the leaves the heuristic's ordering score costs about what the
    # children's evaluations cost; killers, history and forced blocks still order them.
    ordering = settings[S_ORDERING] != 0
    heuristic_order = ordering and depth > 1
    order = order_buf[ply]
    n_blocks = 0
    for i in range(n):
        action = moves[i]
        cell = _cell_of(action, heights, rules)
        board[cell] = 3 - me  # would the opponent win here? then this move is a forced block
        blocks = _wins_through(board, rules, cell)
        board[cell] = 0
        order[i] = 1 if blocks else 0  # scratch: the block flags, read by the forced-reply rule below
        n_blocks += 1 if blocks else 0
        score = 0.0
        if ordering:
            if heuristic_order:
                if state is not None:
                    score = _inc_order(state, board, rules, me, weights, cell)
                else:
                    score = _order(hid, board, heights, rows, cols, k, gravity, me, weights, windows, cell)
                score = min(max(score, -_ORDER_LIMIT), _ORDER_LIMIT)
            if action == killers[ply, 0] or action == killers[ply, 1]:
                score += _KILLER_BONUS
            hist[i] = history[me - 1, action]
        else:
            hist[i] = 0
        if blocks:
            score += _BLOCK_BONUS
        if action == tt_move:
            score += _TT_BONUS
        if ply == 0:
            score += root_noise[action]
        keys[i] = score

    q = settings[S_BRANCHING]
    if n_blocks > 0 and depth > 1:
        n = _keep_blocks(moves, keys, hist, order, n)
        q = 0  # every block is searched (they are few)
    m = _select_best(keys, hist, n, q if 0 < q < n else n, order)

    best = -_INF
    best_move = -1
    frontier = False  # children are leaves: value them without a make and unmake (mics)
    if state is not None:
        frontier = depth == 1 and (state[0][0] == MICS or state[0][0] == PATTERNS)
    for j in range(m):
        action = moves[order[j]]
        cell = _cell_of(action, heights, rules)
        score = 0.0
        if state is not None and frontier:  # what the depth-0 child would do (count it, a full board is a draw, else its clipped value)
            pv_len[ply + 1] = ply + 1
            if _budget_exhausted(settings, deadline):
                return 0.0
            if stones + 1 == rows * cols:
                score = -0.0
            else:
                leaf = _value_after(state, board, rules, cell, me, weights)
                score = -min(max(leaf, -HEURISTIC_LIMIT), HEURISTIC_LIMIT)
        else:
            board[cell] = me
            heights[cell % cols] += 1
            if state is not None:
                _move(state, board, rules, cell, me, 1, radius, weights)  # literal signs: one compile each, on purpose
                # (as plain int64, and _relines' commit flag a plain bool, mics' incremental search lost about a
                # tenth of its nodes/s, bench_mnk: the constants fold into these hot updates)
            child_key = key ^ zobrist[me - 1, cell]
            score = -_search(board, heights, child_key, stones + 1, ply + 1, depth - 1, -beta, -max(alpha, best),
                             rules, settings, weights, windows, zobrist, tt_keys, tt_scores, tt_depths, tt_flags,
                             tt_moves, tt_stamps, killers, history, pv, pv_len, move_buf, key_buf, hist_buf, order_buf,
                             deadline, root_noise, state)  # fmt: skip
            board[cell] = 0
            heights[cell % cols] -= 1
            if state is not None:
                _move(state, board, rules, cell, me, -1, radius, weights)
            if settings[S_ABORTED]:
                return 0.0
        if score > best:
            best = score
            best_move = action
            if score > alpha:
                pv[ply, ply] = action
                for p in range(ply + 1, pv_len[ply + 1]):
                    pv[ply, p] = pv[ply + 1, p]
                pv_len[ply] = max(pv_len[ply + 1], ply + 1)
                if score >= beta:
                    if action != killers[ply, 0]:
                        killers[ply, 1] = killers[ply, 0]
                        killers[ply, 0] = action
                    history[me - 1, action] += depth * depth
                    break

    if use_tt:
        tt_keys[slot] = key
        tt_scores[slot] = _to_tt(best, ply)
        tt_depths[slot] = depth
        tt_moves[slot] = best_move
        tt_flags[slot] = UPPER if best <= alpha_orig else (LOWER if best >= beta else EXACT)
        tt_stamps[slot] = settings[S_TT_GENERATION]
    return best


@njit(**JIT)
def _minimax(board, heights, stones, ply, depth, rules, settings, weights, windows, move_buf):  # type: ignore[no-untyped-def]
    """Plain negamax without pruning, ordering or tables: the reference value and the paper's node counts."""
    settings[S_NODES] += 1
    rows, cols = rules.rows, rules.cols
    if stones == rows * cols:
        return 0.0
    if depth == 0:
        return _leaf(board, heights, stones, rules, settings[S_HID], weights, windows)
    me = 1 + (stones & 1)
    moves = move_buf[ply]
    n = _generate(board, heights, stones, rules, settings[S_RADIUS], moves)
    best = -_INF
    for i in range(n):
        cell = _cell_of(moves[i], heights, rules)
        board[cell] = me
        heights[cell % cols] += 1
        if _wins_through(board, rules, cell):
            score = WIN_SCORE - (ply + 1)
            settings[S_NODES] += 1  # the terminal child is a node too
        else:
            score = -_minimax(board, heights, stones + 1, ply + 1, depth - 1, rules, settings, weights, windows, move_buf)
        board[cell] = 0
        heights[cell % cols] -= 1
        best = max(best, score)
    return best
